"""The player's side of the web page (issue #35) in headless Chromium: collections (table theme,
card back) chosen in the profile panel and kept, today's challenges, an earned toast, the
Three-Thirteen round-end reveal and a rematch.

Set ``CARDCORE_SCREENSHOTS=DIR`` to save the pictures of ``docs/`` (desktop and phone).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from browser import live_server
from cardcore.web.app import ServerConfig, create_app
from test_web_e2e import SHOTS, new_page, open_room

PHONE = (390, 844)
DESKTOP = (1280, 800)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("web35")
    app = create_app(
        ServerConfig(ai_delay=0.01, replay_dir=tmp / "replays", profile=tmp / "profile.sqlite3")
    )
    with live_server(app) as url:
        yield url


def picture(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def felt(page: Any) -> str:
    colour: str = page.evaluate(
        "() => getComputedStyle(document.body).getPropertyValue('--felt').trim()"
    )
    return colour


def choose(page: Any, setting: str, item: str) -> None:
    """Clicks `item` in the profile panel's picker of `setting` and waits until it is chosen."""
    page.click(f"[data-setting={setting}] [data-id={item}]")
    page.wait_for_selector(f"[data-setting={setting}] [data-id={item}].chosen")


def test_a_theme_and_a_card_back_apply_and_are_kept_after_a_reload(
    browser: Any, server: str
) -> None:
    page = new_page(browser, server, *DESKTOP)
    green = felt(page)
    page.click("#btn-profile")
    page.wait_for_selector("#dlg-profile[open]")
    choose(page, "theme", "burgundy")
    choose(page, "card_back", "stars")
    assert felt(page) != green
    assert page.evaluate("() => document.body.dataset.theme") == "burgundy"
    page.keyboard.press("Escape")
    open_room(page, {"game": "three-thirteen", "seed": 4})
    assert page.get_attribute("#table [data-src=stock] svg.back", "data-back") == "stars"
    picture(page, "web-theme-desktop")
    page.reload()
    page.wait_for_function("() => window.cardcore.msg && window.cardcore.msg.table")
    assert page.evaluate("() => document.body.dataset.theme") == "burgundy"
    assert page.get_attribute("#table [data-src=stock] svg.back", "data-back") == "stars"
    assert not page.errors


QUICK_SPITE = {"game": "spite-malice", "seed": 7, "options": {"payoff_size": 1, "target_score": 1}}
PLAY_ON = """() => {
  // one legal move of yours (a pay-off card first), or nothing when it is not your turn
  const m = window.cardcore.msg;
  if (m.status !== 'playing' || !m.table || !m.table.legal.length) return m.status;
  const legal = m.table.legal;
  const pick = legal.find((x) => x.src === 'payoff')
    || legal.find((x) => x.dst.startsWith('center')) || legal[0];
  window.cardcore.play(pick.id);
  return 'moved';
}"""


def play_to_the_end(page: Any) -> None:
    """Plays seat 0's moves (pay-off first) until the game is over."""
    for _ in range(300):
        if page.evaluate(PLAY_ON) == "over":
            return
        page.wait_for_function(
            "() => window.cardcore.msg.status === 'over' || window.cardcore.sent.size === 0",
            timeout=10_000,
        )
        page.wait_for_timeout(20)
    pytest.fail("the game did not end")
