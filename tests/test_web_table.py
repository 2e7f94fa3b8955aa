"""The web table in headless Chromium: what players met in play (issue #29): the score sheet,
the rings of the last moves, the status line.

Few and short on purpose: a Nerts match with one-card Nerts piles at Frantic speed (the AI calls
within a few seconds of each deal) gives three score sheets in about 10 s.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from browser import live_server
from cardcore.web.app import ServerConfig, create_app
from test_web_e2e import blank_page, new_page, open_room, open_room_with_friend, shot

QUICK_NERTS = {
    "game": "nerts",
    "seed": 11,  # rounds end after about 2.4, 1.5 and 1.3 s of the AI's play
    "options": {"speed": "frantic", "nerts_pile_size": 1, "target_score": 50},
}
STATUS_SAYS = "(words) => document.getElementById('status').textContent.includes(words)"
SHEET_OPEN = "() => document.getElementById('dlg-sheet').open"
RING_OF_THE_LATEST = """() => {
  // seats 0 and 1 both last played to the foundations, seat 0 later: its colour shows
  const m = window.cardcore.msg;
  const saved = m.table.last;
  const f = {src: "nerts", dst: "foundations", text: "to a foundation"};
  m.table.last = [{...f, n: 9}, {...f, n: 4}];
  window.cardcore.render();
  const seat = document.querySelector('#table [data-dst="foundations"]').dataset.lastSeat;
  m.table.last = saved;
  window.cardcore.render();
  return seat;
}"""


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    # the friends rooms of these tests deal known hands
    with live_server(create_app(ServerConfig(ai_delay=0.01, seeded_friend_rooms=True))) as base:
        yield base


def round_running(page: Any, n: int) -> None:
    page.wait_for_function(
        f"() => window.cardcore.msg.table.round_no === {n} && window.cardcore.msg.table.running",
        timeout=10_000,
    )


def status(page: Any) -> str:
    text: str = page.text_content("#status")
    return text


def test_closing_the_nerts_score_sheet_in_any_way_starts_the_next_round(
    browser: Any, url: str
) -> None:
    page = new_page(browser, url)
    open_room(page, QUICK_NERTS)
    assert page.evaluate(RING_OF_THE_LATEST) == "0"
    # 1: Esc
    page.wait_for_function(SHEET_OPEN, timeout=15_000)
    assert "close the score sheet" in status(page)
    page.keyboard.press("Escape")
    round_running(page, 2)
    assert "Everyone plays at once" in status(page)
    # 2: a click beside the sheet
    page.wait_for_function(SHEET_OPEN, timeout=15_000)
    page.mouse.click(3, 3)
    round_running(page, 3)
    # 3: Continue
    page.wait_for_function(SHEET_OPEN, timeout=15_000)
    page.click("#sheet-next")
    round_running(page, 4)
    assert not page.errors


def test_a_friend_leaves_on_their_turn_and_the_host_hands_the_seat_to_an_ai(
    browser: Any, url: str
) -> None:
    host, guest = new_page(browser, url), blank_page(browser)
    body = {"game": "spite-malice", "players": 2, "seats": ["friend"], "seed": 4, "name": "Ann"}
    body["options"] = {"first_player": 1}  # Bob plays first
    open_room_with_friend(host, guest, body)
    host.wait_for_function(STATUS_SAYS, arg="Bob is playing")
    guest.close()  # Bob closes the tab on his turn
    host.wait_for_function("() => window.cardcore.msg.timer")
    assert re.search(r"Bob is away: an AI plays for them in (60|59|58) s", status(host))
    host.on("dialog", lambda d: d.accept())
    host.click("[data-seat-box='1'] button.hand-seat")
    host.wait_for_function("() => window.cardcore.msg.table.current === 0", timeout=10_000)
    assert host.evaluate("() => window.cardcore.msg.seats[1].kind") == "ai"
    assert "Your turn" in status(host)
    assert not host.errors


def test_the_nerts_host_hands_a_seat_to_an_ai_and_the_ai_plays_it(browser: Any, url: str) -> None:
    host, guest = new_page(browser, url), blank_page(browser)
    body = {"game": "nerts", "players": 2, "seats": ["friend"], "seed": 9, "name": "Ann"}
    body["options"] = {"speed": "frantic"}
    open_room_with_friend(host, guest, body)
    round_running(host, 1)
    host.wait_for_timeout(500)  # Bob's page is open: nobody plays for him
    assert host.evaluate("() => window.cardcore.msg.table.last[1]") is None
    host.on("dialog", lambda d: d.accept())
    host.click("[data-seat-box='1'] button.hand-seat")
    host.wait_for_function("() => window.cardcore.msg.seats[1].kind === 'ai'")
    # the AI plays Bob's seat: his last move shows (or he called Nerts: the next round)
    host.wait_for_function(
        "() => { const t = window.cardcore.msg.table; return t.last[1] || t.round_no > 1; }",
        timeout=10_000,
    )
    assert not host.locator("[data-seat-box='1'] button.hand-seat").count()
    # Bob's page is told, and disconnected
    guest.wait_for_function("() => !window.cardcore.ws || window.cardcore.ws.readyState > 1")
    assert any("the host handed your seat to an AI" in str(f) for f in guest.frames_in)
    assert not host.errors


def test_the_lobby_offers_no_seed_for_a_room_with_a_friend_and_the_server_refuses_one(
    browser: Any,
) -> None:
    # a server as `cardcore serve` runs it: friends rooms are dealt at random
    with live_server(create_app(ServerConfig(ai_delay=0.01))) as base:
        page = new_page(browser, base)
        page.check("input[name=game][value=three-thirteen]")
        page.select_option("#f-players", "3")
        assert page.is_enabled("#f-seed")
        page.fill("#f-seed", "7")
        page.select_option("[data-seat='2']", "friend")
        assert page.is_disabled("#f-seed")
        assert "dealt at random" in (page.get_attribute("#f-seed", "title") or "")
        page.select_option("[data-seat='2']", "ai")
        assert page.is_enabled("#f-seed")
        page.select_option("[data-seat='1']", "friend")
        assert page.is_disabled("#f-seed")
        # Play sends no seed (the 7 typed before stays out): the room opens and waits
        with page.expect_request("**/api/rooms") as sent:
            page.click("#f-play")
        assert "seed" not in sent.value.post_data_json
        page.wait_for_selector("input.invite")
        # a page that sends one anyway is refused
        answer = page.evaluate(
            """async () => {
              const r = await fetch('/api/rooms', {method: 'POST',
                headers: {'content-type': 'application/json'},
                body: JSON.stringify({game: 'three-thirteen', players: 2, seats: ['friend'],
                                      seed: 7})});
              return [r.status, (await r.json()).error];
            }"""
        )
        assert answer[0] == 400
        assert "cannot have a chosen seed" in answer[1]
        assert not page.errors


def test_a_failed_game_list_retries_help_follows_the_room_and_offline_moves_are_reported(
    browser: Any, url: str
) -> None:
    page = blank_page(browser)
    failures = [1]

    def games(route: Any) -> None:
        if failures:
            failures.pop()
            route.fulfill(status=503, body="down")
        else:
            route.continue_()

    page.route("**/api/games", games)
    page.goto(url + "/")
    page.wait_for_selector("#load-error:not([hidden])")
    assert "Could not load the games" in page.text_content("#load-error")
    page.click("#retry")
    page.wait_for_selector("input[name=game]")
    assert page.is_hidden("#load-error")
    # the rules in the help are the room's: a match to 77, not the default 50
    open_room(page, {"game": "spite-malice", "seed": 4, "options": {"target_score": 77}})
    page.keyboard.press("?")
    assert "until someone reaches 77" in page.text_content("#help-body")
    page.keyboard.press("Escape")
    page.wait_for_function("() => window.cardcore.msg.table.legal.length > 0", timeout=10_000)
    page.evaluate(
        "() => { const ui = window.cardcore; ui.ws.close(); ui.play(ui.msg.table.legal[0].id); }"
    )
    page.wait_for_selector("#toast:not([hidden])")
    assert "Not connected" in page.text_content("#toast")
    page.wait_for_function("() => window.cardcore.ws.readyState === 1")  # back by itself
    assert not page.errors


OWN_AREA = """() => {
  const me = document.querySelector('#table .seat-box.me').getBoundingClientRect();
  const status = document.getElementById('status').getBoundingClientRect();
  // a wild card's badge is not covered by the next card of its meld or stack
  const covered = [...document.querySelectorAll('#table text.as')].filter((t) => {
    const r = t.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !hit || hit.closest('svg') !== t.closest('svg');
  }).length;
  return {top: me.top, bottom: me.bottom, limit: status.top, width: me.right, covered,
          inner: innerWidth, scroll: document.scrollingElement.scrollHeight - innerHeight};
}"""
CRAFTED = {
    # a 7-card side stack of yours (it pushed the hand off a 1280x800 screen)
    "spite-malice": """(() => {
      const t = window.cardcore.msg.table;
      t.observation.observation.side_stacks[window.cardcore.msg.seat][0] =
        ["2c@0", "3c@0", "4c@0", "5c@0", "6c@0", "7c@0", "8c@0"];
      window.cardcore.render();""",
    # a meld with a wild card standing for 8♥ inside it (the next card covered its badge)
    "three-thirteen": """(() => {
      const t = window.cardcore.msg.table;
      t.hand.melds = [[["7h@0", null], ["5s@0", 33], ["9h@0", null], ["Th@0", null]]];
      window.cardcore.render();""",
}
LAYOUT_ROOMS = {
    "three-thirteen": {"game": "three-thirteen", "players": 4, "seed": 5},
    "spite-malice": {"game": "spite-malice", "players": 4, "seed": 4},
    "nerts": {"game": "nerts", "players": 4, "seed": 9, "options": {"speed": "frantic"}},
}


@pytest.mark.parametrize("game", list(LAYOUT_ROOMS))
def test_your_own_area_is_whole_on_screen_and_stays_put(browser: Any, url: str, game: str) -> None:
    """Four players, desktop and phone: your area fits above the status line, the page does
    not scroll, and while the others play (their piles grow) your area does not move."""
    for width, height in ((1280, 800), (390, 844)):
        page = new_page(browser, url, width, height)
        open_room(page, LAYOUT_ROOMS[game])
        page.wait_for_timeout(800)
        first = page.evaluate(OWN_AREA)
        page.wait_for_timeout(2500 if game == "nerts" else 800)
        then = page.evaluate(OWN_AREA)
        size = f"{width}x{height}"
        assert first["top"] >= 0, (size, first)
        assert first["bottom"] <= first["limit"] + 0.5, (size, first)
        assert first["width"] <= first["inner"], (size, first)
        assert first["scroll"] <= 0, (size, first)
        assert then["top"] == first["top"], (size, first, then)
        assert then["covered"] == 0, (size, then)
        if game in CRAFTED:  # the worst cases met in play, drawn from a view made up here
            crafted = page.evaluate(CRAFTED[game] + f"return ({OWN_AREA})(); }})()")
            assert crafted["top"] == first["top"], (size, first, crafted)
            assert crafted["bottom"] <= crafted["limit"] + 0.5, (size, crafted)
            assert crafted["covered"] == 0, (size, crafted)
        shot(page, f"{game}-{size}")
        assert not page.errors
        page.close()


OPEN_ROOM = """async (body) => {
  const r = await (await fetch('/api/rooms', {method: 'POST',
    headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})).json();
  localStorage.setItem('cardcore.seat:' + r.room, r.token);
  location.hash = '#room=' + r.room;
  return r.room;
}"""
EVERY_COUNT = [
    (game, n)
    for game, counts in (
        ("three-thirteen", (2, 3, 5, 6)),
        ("spite-malice", (2, 3)),
        ("nerts", (2, 3)),
    )
    for n in counts
]  # 4 players: the test above, with its worst cases


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_your_own_area_is_whole_and_still_at_every_player_count(
    browser: Any, url: str, width: int, height: int
) -> None:
    """Each game at each of its player counts (besides 4): your area is inside the window
    above the status line, the page does not scroll, and it stays where it is while the AIs
    play. One page per screen size; the rooms follow each other in it."""
    page = new_page(browser, url, width, height)
    bad = []
    for game, players in EVERY_COUNT:
        body = {**LAYOUT_ROOMS[game], "players": players}
        room = page.evaluate(OPEN_ROOM, body)
        page.wait_for_function(
            "(room) => window.cardcore.msg && window.cardcore.msg.room === room"
            " && window.cardcore.msg.table",
            arg=room,
        )
        page.wait_for_timeout(400)
        first = page.evaluate(OWN_AREA)
        page.wait_for_timeout(1200)
        then = page.evaluate(OWN_AREA)
        fits = (
            first["top"] >= 0
            and first["bottom"] <= first["limit"] + 0.5
            and first["width"] <= first["inner"]
            and first["scroll"] <= 0
            and then["top"] == first["top"]
            and then["bottom"] <= then["limit"] + 0.5
        )
        if not fits:
            bad.append((game, players, first, then))
    assert bad == [], f"{width}x{height}: {bad}"
    assert not page.errors
    page.close()
