"""End to end: the web table in headless Chromium, played by clicks, taps and drags.

Set ``CARDCORE_SCREENSHOTS=DIR`` to save each game's table as ``DIR/web-<game>.png`` (how the
pictures in ``docs/`` are made).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from browser import live_server
from cardcore.web.app import ServerConfig, create_app

SHOTS = os.environ.get("CARDCORE_SCREENSHOTS")
MY_TURN_OR_SHEET = """() => {
  const m = window.cardcore.msg;
  return document.getElementById('dlg-sheet').open ||
    (m && m.table && m.table.legal.length > 0 && !window.cardcore.pending);
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    tmp = tmp_path_factory.mktemp("web")
    app = create_app(
        ServerConfig(ai_delay=0.01, replay_dir=tmp / "replays", profile=tmp / "profile.sqlite3")
    )
    with live_server(app) as url:
        yield url, tmp


def new_page(browser: Any, url: str, width: int = 1200, height: int = 800) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url + "/")
    page.wait_for_selector("input[name=game]")
    return page


def deal(page: Any, game: str, seed: int, **choices: str) -> None:
    """Fills in the lobby and clicks Play."""
    page.check(f"input[name=game][value={game}]")
    for sel, value in choices.items():
        page.select_option(sel, value)
    page.fill("#f-seed", str(seed))
    page.click("#f-play")
    page.wait_for_function("() => window.cardcore.msg && window.cardcore.msg.table")


def view(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate("() => window.cardcore.msg")
    return out


def shot(page: Any, game: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"web-{game}.png"))


def test_three_thirteen_round_played_by_clicks(browser: Any, server: tuple[str, Path]) -> None:
    url, _ = server
    page = new_page(browser, url)
    deal(page, "three-thirteen", seed=11)
    shots_taken = False
    for _ in range(400):
        page.wait_for_function(MY_TURN_OR_SHEET, timeout=10_000)
        if page.evaluate("() => document.getElementById('dlg-sheet').open"):
            break
        t = view(page)["table"]
        assert t["current"] == 0
        if t["phase"] == "draw":
            page.click("[data-src=stock]")
            page.wait_for_function("() => window.cardcore.msg.table.phase === 'discard'")
            if not shots_taken and t["round"] == 1:
                shot(page, "three-thirteen")
                shots_taken = True
        else:
            # the highest deadwood card: click it (selects), then click the discard pile
            dead = t["hand"]["deadwood"] or t["hand"]["melds"][-1]
            card = max(dead, key=lambda c: c["f"] % 13)
            page.click(f"[data-card='{card['id']}']")
            page.wait_for_selector(f"[data-card='{card['id']}'].selected")
            page.click("[data-dst=discard]")
            page.wait_for_function(
                "(n) => window.cardcore.msg.table.phase !== 'discard' ||"
                " window.cardcore.msg.table.current !== 0 ||"
                " window.cardcore.msg.table.sheet.rows.length > n",
                arg=len(t["sheet"]["rows"]),
            )
    else:
        pytest.fail("round 1 did not end")
    # the score sheet of round 1 shows one row per seat's points; Continue deals round 2
    sheet = page.inner_text("#dlg-sheet")
    assert "Score sheet" in sheet
    assert "Total" in sheet
    assert len(view(page)["table"]["sheet"]["rows"]) == 1
    page.click("#sheet-next")
    page.wait_for_function("() => window.cardcore.msg.table.round === 2")
    assert not page.errors


def test_illegal_click_changes_nothing(browser: Any, server: tuple[str, Path]) -> None:
    url, _ = server
    page = new_page(browser, url)
    deal(page, "three-thirteen", seed=5)
    page.wait_for_function(MY_TURN_OR_SHEET, timeout=10_000)
    before = view(page)["table"]
    # not drawn yet: a hand card cannot be discarded, so it is not lit as playable
    card = before["hand"]["deadwood"][0]["id"]
    assert "playable" not in page.get_attribute(f"[data-card='{card}']", "class")
    # a hand-made illegal move is refused by the server with a message; nothing changes
    frame = json.dumps({"type": "move", "move": f"discard:{card}", "seq": 99})
    page.evaluate("(f) => window.cardcore.ws.send(f)", frame)
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast")
    assert view(page)["table"]["hand"] == before["hand"]


def test_keyboard_and_help(browser: Any, server: tuple[str, Path]) -> None:
    url, _ = server
    page = new_page(browser, url)
    deal(page, "three-thirteen", seed=3)
    page.keyboard.press("?")
    assert "Three-Thirteen" in page.inner_text("#dlg-help")
    page.keyboard.press("Escape")
    page.wait_for_function(MY_TURN_OR_SHEET, timeout=10_000)
    page.keyboard.press("s")
    page.wait_for_function("() => window.cardcore.msg.table.phase === 'discard'")
    page.keyboard.press("ArrowRight")
    chosen = page.evaluate("() => window.cardcore.selected")
    assert chosen.startswith("card:")
    page.keyboard.press("d")
    # the chosen card left the hand (the round may even have ended: AIs can go out at once)
    page.wait_for_function(
        "(src) => !document.querySelector(`[data-src='${src}']`)", arg=chosen, timeout=10_000
    )
