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
        ServerConfig(
            ai_delay=0.01,
            replay_dir=tmp / "replays",
            profile=tmp / "profile.sqlite3",
            seeded_friend_rooms=True,  # the tests' friends rooms deal known hands
        )
    )
    with live_server(app) as url:
        yield url, tmp


def blank_page(browser: Any, width: int = 1200, height: int = 800) -> Any:
    """A page in its own browser context (its own storage: another person's browser) that
    keeps its script errors (``page.errors``) and the WebSocket frames the server sent it
    (``page.frames_in``)."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.frames_in = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: page.frames_in.append(f)))
    return page


def new_page(browser: Any, url: str, width: int = 1200, height: int = 800) -> Any:
    page = blank_page(browser, width, height)
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


def obs(msg: dict[str, Any]) -> dict[str, Any]:
    """The seat's observation (the embedding protocol's JSON) in a ``state`` message."""
    out: dict[str, Any] = msg["table"]["observation"]["observation"]
    return out


OBS = "window.cardcore.msg.table.observation.observation"


def rank(card: str) -> int:
    """0 (ace) .. 12 (king) of a card text such as ``"7h@1"``."""
    return "A23456789TJQK".index(card[0])


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
        msg = view(page)
        t, o = msg["table"], obs(msg)
        assert t["current"] == 0
        if o["phase"] == "draw":
            page.click("[data-src=stock]")
            page.wait_for_function(f"() => {OBS}.phase === 'discard'")
            if not shots_taken and o["round"] == 1:
                shot(page, "three-thirteen")
                shots_taken = True
        else:
            # the highest deadwood card: click it (selects), then click the discard pile
            dead = t["hand"]["deadwood"] or [c for c, _ in t["hand"]["melds"][-1]]
            card = max(dead, key=rank)
            page.click(f"[data-card='{card}']")
            page.wait_for_selector(f"[data-card='{card}'].selected")
            page.click("[data-dst=discard]")
            page.wait_for_function(
                f"(n) => {OBS}.phase !== 'discard' ||"
                " window.cardcore.msg.table.current !== 0 ||"
                " window.cardcore.msg.table.sheet.rows.length > n",
                arg=len(t["sheet"]["rows"]),
            )
    else:
        pytest.fail("round 1 did not end")
    # the round's panel shows every hand face up first (issue #35), then the score sheet
    assert "Round 1: the hands" in page.inner_text("#dlg-sheet")
    page.click("#sheet-next")
    page.wait_for_selector("#dlg-sheet[open] table.sheet")
    # the score sheet of round 1 shows one row per seat's points; round 2 is dealt meanwhile
    # (nobody waits for anybody's sheet), Continue closes it
    sheet = page.inner_text("#dlg-sheet")
    assert "Score sheet" in sheet
    assert "Total" in sheet
    assert len(view(page)["table"]["sheet"]["rows"]) == 1
    page.wait_for_function(f"() => {OBS}.round === 2")
    page.click("#sheet-next")
    page.wait_for_function("() => !window.cardcore.msg.table.sheet_open")
    assert not page.errors


def test_illegal_click_changes_nothing(browser: Any, server: tuple[str, Path]) -> None:
    url, _ = server
    page = new_page(browser, url)
    deal(page, "three-thirteen", seed=5)
    page.wait_for_function(MY_TURN_OR_SHEET, timeout=10_000)
    before = view(page)["table"]
    # not drawn yet: a hand card cannot be discarded, so it is not lit as playable
    card = before["hand"]["deadwood"][0]
    assert "playable" not in page.get_attribute(f"[data-card='{card}']", "class")
    # a hand-made illegal move is refused by the server with a message; nothing changes
    frame = json.dumps({"type": "move", "move": f"discard {card}", "seq": 99})
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
    page.wait_for_function(f"() => {OBS}.phase === 'discard'")
    page.keyboard.press("ArrowRight")
    chosen = page.evaluate("() => window.cardcore.selected")
    assert chosen.startswith("card:")
    page.keyboard.press("d")
    # the chosen card left the hand (the round may even have ended: AIs can go out at once)
    page.wait_for_function(
        "(src) => !document.querySelector(`[data-src='${src}']`)", arg=chosen, timeout=10_000
    )


def king_seed() -> int:
    """A match seed whose first game deals seat 0 a king (seat 0 moves first)."""
    from cardcore import load_game
    from cardcore.rng import derive_seed

    game = load_game("spite-malice", players=2, first_player=0)
    for seed in range(1000):
        o = json.loads(game.new_state(derive_seed(seed, 0, "match-game")).observation_json(0))
        if any(rank(c) == 12 for c in o["observation"]["hand"]):
            return seed
    raise AssertionError("no seed")


def drag(page: Any, src: str, dst: str, *, offset: tuple[float, float] = (0, 0)) -> None:
    """Drags the element ``src`` with the mouse and drops it on ``dst`` (moved by ``offset``)."""
    a = page.locator(src).first.bounding_box()
    b = page.locator(dst).first.bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    x, y = b["x"] + b["width"] / 2 + offset[0], b["y"] + b["height"] / 2 + offset[1]
    page.mouse.move(x, y, steps=8)
    page.mouse.up()


def open_room(page: Any, body: dict[str, Any], *, dealt: bool = True) -> None:
    """Creates a room through the API from the page and opens it (and waits for the deal
    when ``dealt``; a room with seats for friends waits for them first)."""
    page.evaluate(
        """async (body) => {
          const r = await (await fetch('/api/rooms', {method: 'POST',
            headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})).json();
          localStorage.setItem('cardcore.seat:' + r.room, r.token);
          location.hash = '#room=' + r.room;
        }""",
        body,
    )
    if dealt:
        page.wait_for_function("() => window.cardcore.msg && window.cardcore.msg.table")


def open_room_with_friend(host: Any, guest: Any, body: dict[str, Any], name: str = "Bob") -> None:
    """The host opens a room with a friend's seat; the friend opens the invite link on the
    ``guest`` page and takes the seat as ``name``; waits until the host's room is playing."""
    open_room(host, body, dealt=False)
    host.wait_for_selector("input.invite")
    guest.goto(host.input_value("input.invite"))
    guest.fill("#j-name", name)
    guest.click("#dlg-join button.primary")
    host.wait_for_function("() => window.cardcore.msg && window.cardcore.msg.status === 'playing'")


def test_spite_malice_drag_and_drop_with_a_king(browser: Any, server: tuple[str, Path]) -> None:
    url, _ = server
    page = new_page(browser, url)
    body = {"game": "spite-malice", "seed": king_seed(), "options": {"first_player": 0}}
    open_room(page, body)
    page.wait_for_function(MY_TURN_OR_SHEET, timeout=10_000)
    o = obs(view(page))
    king = next(c for c in o["hand"] if rank(c) == 12)
    # drop the king a little beside the first centre stack: it snaps there and stands for an ace
    drag(page, f"[data-card='{king}']", "[data-dst='center:0']", offset=(0, 40))
    page.wait_for_function(f"() => {OBS}.center[0].length === 1")
    o = obs(view(page))
    assert o["center"][0][-1] == king
    assert page.locator("[data-dst='center:0'] text.as").text_content() == "=A"
    shot(page, "spite-malice")
    # end the turn: drag a hand card onto a side stack
    card = o["hand"][0]
    drag(page, f"[data-card='{card}']", "[data-dst='side:1']")
    page.wait_for_function(f"() => {OBS}.side_stacks[0][1].length === 1")
    assert obs(view(page))["side_stacks"][0][1][0] == card
    assert not page.errors


CASCADED = """() => {
  // a work pile of several cards cascades: each card covers most of the one under it
  for (const col of document.querySelectorAll('#table .work .stack')) {
    const cards = [...col.querySelectorAll('.cardwrap')].map((e) => e.getBoundingClientRect());
    if (cards.length < 2) continue;
    if (cards[1].top >= cards[0].bottom) throw new Error('a work pile is drawn as a column');
    return true;
  }
  return false;
}"""


def test_nerts_round_at_frantic_speed_by_drag_and_tap(
    browser: Any, server: tuple[str, Path]
) -> None:
    url, _ = server
    page = new_page(browser, url)
    # small Nerts piles keep the round short; the AI plays at Frantic speed on the server clock
    options = {"speed": "frantic", "nerts_pile_size": 4, "target_score": 1}
    open_room(page, {"game": "nerts", "seed": 16, "options": options})  # ~11 s round
    page.wait_for_function("() => window.cardcore.msg.table.legal.length > 0")
    # a tap on the stock flips three cards (the AI's moves redraw the table while the pointer
    # waits for the pile to hold still, so on a slow machine tap again)
    for _ in range(20):
        try:
            page.click("[data-src=stock]", timeout=2000, force=True)
            page.wait_for_function(f"() => {OBS}.players[0].waste_count > 0", timeout=2000)
            break
        except Exception:
            continue
    page.wait_for_function(f"() => {OBS}.players[0].waste_count > 0")
    dragged = tapped = 0
    seen_ai_play = cascades = False
    for _ in range(600):
        if page.evaluate("() => document.getElementById('dlg-sheet').open"):
            break
        msg = view(page)
        t = msg["table"]
        seen_ai_play = seen_ai_play or t["last"][1] is not None
        # the AI's move to its own work pile rings the AI's box, never your pile of that number
        assert page.locator("[data-seat-box='0'] .last[data-last-seat='1']").count() == 0
        if not cascades and page.evaluate(CASCADED):
            cascades = True
            # the picture in docs/: a work pile cascading; your waste fanned when it is
            shot(page, "nerts")
        cards = [m for m in t["legal"] if m["src"] not in ("stock", "call", "undo")]
        call = [m for m in t["legal"] if m["src"] == "call"]
        try:
            if call:
                page.click("[data-src=call]", timeout=2000)
            elif cards and dragged <= tapped:
                m = cards[0]
                drag(page, f"[data-src='{m['src']}']", f"[data-dst='{m['dst']}']")
                dragged += 1
            elif cards:
                page.click(f"[data-src='{cards[0]['src']}']", timeout=2000)
                tapped += 1
            else:
                page.click("[data-src=stock]", timeout=2000)
        except Exception:  # the table moved under the pointer (real time): look again
            pass
        page.wait_for_timeout(60)
    else:
        pytest.fail("the round did not end")
    assert seen_ai_play, "the AI never played (the server clock did not run)"
    assert cascades, "no work pile of two or more cards was drawn overlapping"
    assert dragged > 0
    assert tapped > 0
    assert page.wait_for_function(
        "() => window.cardcore.msg.status === 'over' || window.cardcore.msg.table.sheet_open"
    )
    assert not page.errors


def test_invite_link_on_a_loopback_page_leads_friends_to_the_lan_address(browser: Any) -> None:
    # cardcore serve --host 0.0.0.0 tells the page the address friends reach; the host's own
    # page is on 127.0.0.1, whose links would lead a friend's browser to the friend's computer
    app = create_app(ServerConfig(ai_delay=0.01, invite_base="http://192.0.2.7:8000"))
    with live_server(app) as url:
        page = new_page(browser, url)
        body = {"game": "three-thirteen", "players": 2, "seats": ["friend"]}
        open_room(page, body, dealt=False)
        page.wait_for_selector("input.invite")
        room = page.evaluate("() => window.cardcore.msg.room")
        assert page.input_value("input.invite") == f"http://192.0.2.7:8000/#join={room}"
        assert not page.errors


def cards_shown(page: Any) -> set[str]:
    """The card texts of the cards the page shows with a ``data-card`` key (hand cards)."""
    keys = page.eval_on_selector_all("#table [data-card]", "els => els.map(e => e.dataset.card)")
    return set(keys)


def test_two_browsers_each_page_never_shows_the_other_hand(
    browser: Any, server: tuple[str, Path]
) -> None:
    url, _ = server
    host, guest = new_page(browser, url), blank_page(browser)
    body = {"game": "three-thirteen", "players": 2, "seats": ["friend"], "seed": 7, "name": "Ann"}
    open_room_with_friend(host, guest, body)  # the friend opens the invite in another browser
    pages = (host, guest)
    for p in pages:
        p.wait_for_function("() => window.cardcore.msg && window.cardcore.msg.status === 'playing'")

    def check() -> None:
        hands = [set(obs(view(p))["hand"]) for p in pages]
        for me, other in ((0, 1), (1, 0)):
            p = pages[me]
            assert cards_shown(p) == hands[me]  # your own hand, face up, and nothing else
            sent = "".join(f for f in p.frames_in if isinstance(f, str))
            assert all(f'"{c}"' not in sent for c in hands[other]), "another seat's card was sent"
            backs = p.locator(f"[data-seat-box='{other}'] svg.back").count()
            assert backs == len(hands[other])  # the other hand shows as backs only

    check()
    # the seat to play draws from the stock by a click: the drawn card reaches that page only
    mover = next(p for p in pages if view(p)["table"]["legal"])
    mover.click("[data-src=stock]")
    for p in pages:
        p.wait_for_function(f"() => {OBS}.phase === 'discard'")
    check()
    assert len(obs(view(mover))["hand"]) == 4
    assert not host.errors
    assert not guest.errors
