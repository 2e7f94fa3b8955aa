"""The player's side of the web page (issue #35) in headless Chromium: an achievement toast,
collections (table theme, card back) chosen in the profile panel and kept, today's challenges
met and missed, the Three-Thirteen round-end reveal and a rematch.

A Spite & Malice match with one-card pay-off piles to 1 point ends within a few seconds: the
quick game most of these tests play. Set ``CARDCORE_SCREENSHOTS=DIR`` to save the pictures of
``docs/`` (desktop 1280x800 and phone 390x844).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from browser import live_server
from cardcore.web.app import ServerConfig, create_app
from cardcore.web.feats import objective_for
from cardcore.web.profile import Profile
from test_web_e2e import SHOTS, blank_page, open_room

PHONE = (390, 844)
DESKTOP = (1280, 800)
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
# facts of a finished game that meet every daily objective, and that meet none
GREAT = {"won": True, "score": 99.0, "margin": 99.0, "went_out": 11, "clean_rounds": 11,
         "clean_last": True, "max_side": 0, "games_won": 9, "calls": 9, "fastest_call_ms": 1000,
         "speed": "classic"}  # fmt: skip
POOR = {"won": False, "score": 0.0, "margin": -99.0, "went_out": 0, "clean_rounds": 0,
        "clean_last": False, "max_side": 30, "games_won": 0, "calls": 0, "fastest_call_ms": None,
        "speed": "chill"}  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    tmp = tmp_path_factory.mktemp("web35")
    profile = tmp / "profile.sqlite3"
    app = create_app(ServerConfig(ai_delay=0.01, replay_dir=tmp / "replays", profile=profile))
    with live_server(app) as url:
        yield url, profile


def picture(page: Any, name: str) -> None:
    if SHOTS:
        page.wait_for_function("() => !document.querySelector('.flyer')")  # cards landed
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        size = page.viewport_size
        page.screenshot(path=str(Path(SHOTS) / f"web-{name}-{size['width']}x{size['height']}.png"))


def as_player(browser: Any, url: str, name: str, size: tuple[int, int] = DESKTOP) -> Any:
    """The lobby in a browser of its own whose player is called `name`."""
    page = blank_page(browser, *size)
    page.goto(url + "/")
    page.evaluate("(n) => localStorage.setItem('cardcore.name', n)", name)
    page.reload()
    page.wait_for_selector("input[name=game]")
    return page


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


def open_profile(page: Any) -> None:
    page.click("#btn-profile")
    page.wait_for_selector("#dlg-profile[open] .picker")


def choose(page: Any, setting: str, item: str) -> None:
    """Clicks `item` in the profile panel's picker of `setting` and waits until it is chosen."""
    page.click(f"[data-setting={setting}] [data-id={item}]")
    page.wait_for_selector(f"[data-setting={setting}] [data-id={item}].chosen")


def theme(page: Any) -> tuple[str, str]:
    out: tuple[str, str] = page.evaluate(
        "() => [document.body.dataset.theme || 'green',"
        " getComputedStyle(document.body).getPropertyValue('--felt').trim()]"
    )
    return out


def stock_back(page: Any) -> str:
    back: str = page.get_attribute("#table [data-src=stock] svg.back", "data-back")
    return back


def test_a_won_game_toasts_its_achievement_and_unlocks_a_theme_and_a_back_that_stay_chosen(
    browser: Any, server: tuple[str, Path]
) -> None:
    url, _ = server
    page = as_player(browser, url, "Ann")
    green = theme(page)
    open_room(page, {**QUICK_SPITE, "name": "Ann"})
    play_to_the_end(page)
    # the achievement's toast shows above the final score sheet
    page.wait_for_function(
        "() => document.getElementById('earned').matches(':popover-open')"
        " && document.getElementById('earned').textContent.includes('First hand')"
    )
    assert page.is_visible("#dlg-sheet[open]")
    page.click("#sheet-next")  # New game: the lobby
    open_profile(page)
    assert page.is_visible("[data-achievement=first_game].earned")
    # the leaderboard of the game: Ann and the AI level she beat, each with a rating
    page.select_option("#board-game", "spite-malice")
    page.wait_for_selector(".leaders tr.me")
    rows = page.eval_on_selector_all(".leaders tbody tr", "rs => rs.map((r) => r.innerText)")
    assert rows[0].split("\t")[:2] == ["1", "Ann"]
    assert rows[1].split("\t")[1] == "AI normal"
    # level 2 unlocked the blue felt and the lattice back; burgundy (level 3) stays locked
    assert page.is_disabled("[data-setting=theme] [data-id=burgundy]")
    choose(page, "theme", "blue")
    choose(page, "card_back", "lattice")
    assert theme(page)[0] == "blue"
    assert theme(page)[1] != green[1]
    picture(page, "profile")
    page.keyboard.press("Escape")
    open_room(page, {"game": "three-thirteen", "seed": 4, "name": "Ann"})
    assert stock_back(page) == "lattice"
    page.reload()
    page.wait_for_function("() => window.cardcore.msg && window.cardcore.msg.table")
    assert theme(page)[0] == "blue"
    assert stock_back(page) == "lattice"
    picture(page, "theme")
    # another browser (nothing kept in it) of the same player: the choices come from the profile
    phone = as_player(browser, url, "Ann", PHONE)
    phone.wait_for_function("() => document.body.dataset.theme === 'blue'")
    open_profile(phone)
    assert phone.is_visible("[data-setting=card_back] [data-id=lattice].chosen")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
    picture(phone, "profile")
    phone.evaluate("() => document.querySelector('.collections').scrollIntoView()")
    picture(phone, "collections")
    phone.keyboard.press("Escape")
    # the sound switch is a setting too: muted, and still muted in the first browser
    phone.click("#btn-mute")
    phone.wait_for_function("() => document.getElementById('btn-mute').ariaLabel === 'Sound off'")
    page.reload()
    page.wait_for_function("() => document.getElementById('btn-mute').ariaLabel === 'Sound off'")
    assert not page.errors
    assert not phone.errors


def test_todays_challenges_show_one_met_one_missed_one_not_played(
    browser: Any, server: tuple[str, Path]
) -> None:
    url, path = server
    today = _dt.datetime.now(_dt.UTC).date()
    met, missed, open_ = "three-thirteen", "spite-malice", "nerts"
    for game, facts in ((met, GREAT), (missed, POOR)):
        objective = objective_for(game, today)
        assert objective is not None
        assert objective.check(facts) is (facts is GREAT)
        Profile(path).record(
            "Cleo", game, "normal", won=bool(facts["won"]), score=0.0, lower_is_better=False,
            daily=today, facts=facts,
        )  # fmt: skip
    for size in (DESKTOP, PHONE):
        page = as_player(browser, url, "Cleo", size)
        page.wait_for_selector("#challenges:not([hidden]) .challenge")
        assert page.is_visible(f".challenge.met[data-game={met}]")
        assert page.is_visible(f".challenge.missed[data-game={missed}]")
        assert page.is_visible(f".challenge.open[data-game={open_}]")
        text = page.inner_text(f".challenge[data-game={met}]")
        assert objective_for(met, today).text in text  # type: ignore[union-attr]
        picture(page, "lobby")
        assert not page.errors


def test_the_three_thirteen_round_end_shows_every_hand_before_the_score_sheet(
    browser: Any, server: tuple[str, Path]
) -> None:
    url, _ = server
    page = as_player(browser, url, "Dora")
    open_room(page, {"game": "three-thirteen", "seed": 3, "players": 4, "name": "Dora"})
    for _ in range(100):  # round 1 (3 cards): someone goes out within a few turns
        if page.is_visible("#dlg-sheet[open]"):
            break
        # (never a move once the round's panel is open: playing on closes it)
        page.evaluate(
            "() => { const c = window.cardcore, t = c.msg.table;"
            " const open = document.getElementById('dlg-sheet').open;"
            " if (!open && t.legal.length && !c.sent.size) c.play(t.legal[0].id); }"
        )
        page.wait_for_timeout(30)
    page.wait_for_selector("#dlg-sheet[open] .reveal")
    reveal = page.evaluate("() => window.cardcore.msg.table.reveal")
    assert reveal["round"] == 1
    assert [h["seat"] for h in reveal["hands"]] == [0, 1, 2, 3]
    for h in reveal["hands"]:  # every hand face up, its melds and its deadwood
        shown = page.eval_on_selector_all(
            f"[data-reveal-seat='{h['seat']}'] svg.card",
            "cs => cs.map((c) => c.getAttribute('aria-label'))",
        )
        assert len(shown) == sum(len(m) for m in h["melds"]) + len(h["deadwood"]) == 3
        assert "face-down card" not in shown
    # the wild cards marked are round 1's (3s), not those of round 2 (dealt meanwhile)
    for card in page.query_selector_all(".reveal svg.card.wild"):
        assert card.get_attribute("aria-label").startswith(("3 of", "joker"))
    out = reveal["went_out"]
    assert page.is_visible(f"[data-reveal-seat='{out}'] .badge.out")
    assert not page.is_visible("#dlg-sheet table.sheet")
    picture(page, "reveal")
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    picture(page, "reveal")
    page.click("#sheet-next")  # then the score sheet
    page.wait_for_selector("#dlg-sheet[open] table.sheet")
    assert not page.errors


def test_rematch_deals_the_same_table_again(browser: Any, server: tuple[str, Path]) -> None:
    url, _ = server
    page = as_player(browser, url, "Eve")
    open_room(page, {**QUICK_SPITE, "name": "Eve"})
    before = page.evaluate("() => window.cardcore.msg")
    play_to_the_end(page)
    page.click("#dlg-sheet[open] #sheet-rematch")
    page.wait_for_function(
        "(old) => window.cardcore.msg.room !== old && window.cardcore.msg.table", arg=before["room"]
    )
    after = page.evaluate("() => window.cardcore.msg")
    # (a new random deal: an AI moving first may even win it at once with its one pay-off card)
    assert after["status"] in ("playing", "over")
    if after["status"] == "playing":
        assert not page.is_visible("#dlg-sheet[open]")
    assert [s["name"] for s in after["seats"]] == [s["name"] for s in before["seats"]]
    assert after["table"]["observation"]["options"] == before["table"]["observation"]["options"]
    play_to_the_end(page)  # the new room plays to its end too
    assert not page.errors


FEEL = "() => import('/static/feel.js').then((m) => [m.feel.flights, m.feel.played.length])"


@pytest.mark.parametrize("reduce", [False, True])
def test_cards_fly_and_sound_unless_the_system_reduces_motion_or_the_player_mutes(
    browser: Any, server: tuple[str, Path], reduce: bool
) -> None:
    url, _ = server
    context = browser.new_context(
        viewport={"width": DESKTOP[0], "height": DESKTOP[1]},
        reduced_motion="reduce" if reduce else "no-preference",
    )
    page = context.new_page()
    page.goto(url + "/")
    name = "Gus" if reduce else "Finn"
    page.evaluate("(n) => localStorage.setItem('cardcore.name', n)", name)
    page.reload()
    page.wait_for_selector("input[name=game]")
    if reduce:  # and muted (the switch in the top bar): no sound either
        page.click("#btn-mute")
        page.wait_for_function(
            "() => document.getElementById('btn-mute').ariaLabel === 'Sound off'"
        )
    else:
        page.wait_for_function("() => document.getElementById('btn-mute').ariaLabel === 'Sound on'")
    open_room(page, {"game": "three-thirteen", "seed": 4, "name": name})
    page.wait_for_function("() => window.cardcore.msg.table.legal.length")
    page.click("[data-src=stock]")  # a draw: the card flies from the stock to the hand
    page.wait_for_function(
        "() => window.cardcore.msg.table.observation.observation.phase === 'discard'"
    )
    flights, sounds = page.evaluate(FEEL)
    if reduce:
        assert (flights, sounds) == (0, 0)
    else:
        assert flights >= 4  # the deal of your 3 cards and the others', then the draw
        assert sounds >= 1
    context.close()
