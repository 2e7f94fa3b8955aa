"""Each game's web table played through the WebSocket protocol (no browser): whole games,
replays that ``cardcore replay`` verifies, the profile, and views that hide other seats' cards."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient

from cardcore.cli import cli
from cardcore.web.app import ServerConfig, create_app
from cardcore.web.nerts import NertsTable
from cardcore.web.patch import Mirror
from cardcore.web.profile import Profile
from cardcore.web.turns import TurnTable

LOCAL = "http://127.0.0.1:8000"  # the server answers only to its own host names
WS = "ws://127.0.0.1:8000/ws"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        ServerConfig(
            ai_delay=0,
            replay_dir=tmp_path / "replays",
            profile=tmp_path / "p.sqlite3",
            message_rate=100_000,  # a script plays far faster than a person
            message_burst=100_000,
        )
    )
    with TestClient(app, base_url=LOCAL) as c:
        yield c


def states(ws: Any) -> Iterator[dict[str, Any]]:
    """The page's state after each ``state`` or ``patch`` (with that message's ``ack``)."""
    if not hasattr(ws, "mirror"):
        ws.mirror = Mirror()
    while True:
        msg: dict[str, Any] = ws.receive_json()
        assert msg["type"] != "error", msg
        if ws.mirror.feed(msg):
            yield {**ws.mirror.state, "ack": msg.get("ack")}


def play_out(ws: Any, pick: Any = lambda legal: legal[-1]) -> dict[str, Any]:
    """Plays this seat (the given policy) until the game is over; returns the last state.
    After each move it waits for the state that acknowledges it."""
    seq, waiting, sheet = 0, False, False
    for st in states(ws):
        if st["status"] == "over":
            return st
        if waiting and st.get("ack") != seq:
            continue
        waiting = False
        t = st["table"]
        if t["sheet_open"]:
            if not sheet:
                ws.send_json({"type": "next"})
            sheet = True
            continue
        sheet = False
        if t["legal"]:
            seq += 1
            ws.send_json({"type": "move", "move": pick(t["legal"])["id"], "seq": seq})
            waiting = True
    raise AssertionError("unreachable")


def card_texts(obj: Any) -> set[str]:
    """Every card (``"7h@1"``, ``"X1"``: the JSON text of the embedding protocol) anywhere in a
    JSON value."""
    if isinstance(obj, dict):
        return set().union(set(), *(card_texts(v) for v in obj.values()))
    if isinstance(obj, list):
        return set().union(set(), *(card_texts(v) for v in obj))
    if isinstance(obj, str) and re.fullmatch(r"[A2-9TJQK][cdhs]@\d+|X\d+", obj):
        return {obj}
    return set()


@pytest.mark.parametrize(
    ("game", "options", "units"),
    [("three-thirteen", {}, 11), ("spite-malice", {"target_score": 8}, None)],
)
def test_whole_game_saves_a_verified_replay(
    client: TestClient, tmp_path: Path, game: str, options: dict[str, Any], units: int | None
) -> None:
    from click.testing import CliRunner

    body = {"game": game, "players": 3, "seed": "42", "name": "Ann", "options": options}
    r = client.post("/api/rooms", json=body).json()
    with client.websocket_connect(WS) as ws:
        ws.send_json({"type": "resume", "room": r["room"], "token": r["token"]})
        st = play_out(ws)
    assert st["table"]["sheet"]["final"]
    if units is not None:
        assert len(st["table"]["sheet"]["rows"]) == units
    assert st["result"]["replay_saved"] is True
    assert str(tmp_path) not in json.dumps(st)  # the server's paths are no player's business
    (replay,) = (tmp_path / "replays").iterdir()
    record = json.loads(replay.read_text())
    assert record["agents"] == ["human", "normal", "normal"]
    assert record["seed"] == 42
    out = CliRunner().invoke(cli, ["replay", str(replay)])
    assert out.exit_code == 0, out.output
    prof = client.get("/api/profile", params={"name": "Ann"}).json()  # after the writes
    stats = Profile(tmp_path / "p.sqlite3").stats("Ann")
    assert stats == [
        {
            "game": game,
            "level": "normal",
            "played": 1,
            "won": int(st["result"]["winner"] == 0),
            "best": st["result"]["scores"][0],
        }
    ]
    assert prof["stats"] == stats
    assert prof["leaderboard"][0]["player"] == "Ann"


def test_three_thirteen_view_hides_other_hands(client: TestClient) -> None:
    r = client.post(
        "/api/rooms", json={"game": "three-thirteen", "players": 2, "seats": ["friend"]}
    ).json()
    with client.websocket_connect(WS) as host, client.websocket_connect(WS) as guest:
        host.send_json({"type": "resume", "room": r["room"], "token": r["token"]})
        guest.send_json({"type": "join", "room": r["room"], "name": "Bob"})
        views = [next(s for s in states(ws) if s["status"] == "playing") for ws in (host, guest)]
        hands = [set(v["table"]["observation"]["observation"]["hand"]) for v in views]
        assert len(hands[0]) == len(hands[1]) == 3
        for me, other in ((0, 1), (1, 0)):
            assert hands[me] <= card_texts(views[me])
            assert not card_texts(views[me]) & hands[other]


def play_out_on_a_fake_clock(table: Any) -> None:
    """Plays a real-time web table to the end of its match on a fake clock: seat 0 asks to
    proceed and never moves, and the clock jumps to each moment the table is due."""
    now = 0.0
    for _ in range(100_000):
        if table.outcome is not None:
            return
        if not table.proceed(0, now) and (due := table.due()) is not None:
            now = max(now, due)
            table.tick(now)


def test_nerts_match_on_a_fake_clock_saves_a_verified_replay(tmp_path: Path) -> None:
    from cardcore.games.base import get_game
    from cardcore.web import games

    body = {"game": "nerts", "seed": 5, "options": {"target_score": 5, "nerts_pile_size": 4}}
    setup, _, _ = games.parse_room_request(json.dumps(body))
    table = games.table_factory(ai_delay=0)(setup, [None, setup.agent])
    play_out_on_a_fake_clock(table)
    assert table.outcome is not None
    get_game("nerts").verify_replay(table.outcome.record)
    sheet = table.view(0)["sheet"]
    assert sheet["final"]
    assert "next round" not in sheet["footer"]  # the match is over: no next round to promise


def test_a_score_sheet_holds_nobody_up_in_three_thirteen() -> None:
    from cardcore.web import games

    body = {"game": "three-thirteen", "players": 2, "seats": ["friend"], "seed": 3}
    setup, _, _ = games.parse_room_request(json.dumps(body), seeded_friend_rooms=True)
    table = games.table_factory(ai_delay=0)(setup, [None, None])
    for _ in range(1000):
        seat = next(s for s in (0, 1) if table.view(s)["legal"])
        table.act(seat, table.view(seat)["legal"][-1]["id"], 0.0)
        if table.view(0)["sheet_open"]:
            break
    views = [table.view(s) for s in (0, 1)]
    assert all(v["sheet_open"] for v in views)
    assert all(v["observation"]["observation"]["round"] == 2 for v in views)  # dealt already
    # the seat to play plays on while the other still reads the sheet
    seat = next(s for s in (0, 1) if views[s]["legal"])
    table.act(seat, views[seat]["legal"][-1]["id"], 0.0)
    assert not table.view(seat)["sheet_open"]
    assert table.view(1 - seat)["sheet_open"]
    assert table.proceed(1 - seat, 0.0)
    assert not table.view(1 - seat)["sheet_open"]
    assert not table.proceed(1 - seat, 0.0)


def test_a_nerts_round_starts_soon_after_the_first_person_closes_the_sheet() -> None:
    from cardcore.web import games
    from cardcore.web.nerts import SHEET_GRACE_S

    body = {"game": "nerts", "players": 3, "seats": ["friend", "ai"], "seed": 5}
    body["options"] = {"nerts_pile_size": 4, "target_score": 50}
    setup, _, _ = games.parse_room_request(json.dumps(body), seeded_friend_rooms=True)
    table = games.table_factory(ai_delay=0)(setup, [None, None, setup.agent])
    now = 0.0
    while not table.view(0)["sheet_open"]:  # the AI empties its pile and calls
        due = table.due()
        assert due is not None
        now = max(now, due)
        table.tick(now)
    assert table.view(1)["sheet_open"]
    assert table.due() is None  # nobody has closed it: the table waits
    assert table.proceed(0, now)
    assert table.view(1)["sheet_open"]
    assert not table.view(1)["running"]
    assert table.due() == now + SHEET_GRACE_S
    assert not table.tick(now + SHEET_GRACE_S - 1)
    assert table.tick(now + SHEET_GRACE_S)  # the other person did not close it in time
    view = table.view(1)
    assert view["round_no"] == 2
    assert view["running"]
    assert not view["sheet_open"]


def test_nerts_view_shows_your_waste_fanned_and_only_the_others_tops() -> None:
    from cardcore.web import games

    body = {"game": "nerts", "seats": ["ai"], "seed": 8}
    setup, _, _ = games.parse_room_request(json.dumps(body))
    table = games.table_factory(ai_delay=0)(setup, [None, setup.agent])
    assert isinstance(table, NertsTable)
    flip = next(m for m in table.view(0)["legal"] if m["src"] == "stock")
    table.act(0, flip["id"], 0.0)
    table.tick(5.0)  # the AI turns its stock too
    o = table.view(0)["observation"]["observation"]
    assert len(o["waste_fan"]) == 3
    assert o["waste_fan"][-1] == o["players"][0]["waste_top"]
    theirs = table.state.parts()["seats"][1]["waste"]  # the hidden truth
    hidden = {table.game.card_text(c) for c in theirs[:-1]}
    assert hidden
    assert not hidden & card_texts(table.view(0))


def test_an_ai_move_thought_out_off_the_loop_is_played_once() -> None:
    from cardcore.web import games

    body = {"game": "spite-malice", "seats": ["ai"], "seed": 4, "level": "expert"}
    setup, _, _ = games.parse_room_request(json.dumps(body))
    table = games.table_factory(ai_delay=0)(setup, [None, setup.agent])
    assert isinstance(table, TurnTable)
    while (job := table.think(0.0)) is None:  # the person plays until it is the AI's turn
        table.act(0, table.view(0)["legal"][-1]["id"], 0.0)
    thought = job()  # what the room runs in a worker thread
    before = len(table.match.state.moves)
    assert table.conclude(thought, 0.0)
    assert len(table.match.state.moves) == before + 1
    assert not table.conclude(thought, 0.0)  # stale: the table has moved on
    assert len(table.match.state.moves) == before + 1
