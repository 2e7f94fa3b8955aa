"""Rooms in play survive a server restart (issue #29): saved in SQLite in the data folder,
restored on start, and each page resumes its seat with its token."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from click.testing import CliRunner
from starlette.testclient import TestClient

from cardcore.cli import cli
from cardcore.web.app import ServerConfig, create_app
from cardcore.web.patch import Mirror
from cardcore.web.store import ROOMS_FILE

LOCAL = "http://127.0.0.1:8000"
WS = "ws://127.0.0.1:8000/ws"


def server(tmp: Path) -> TestClient:
    config = ServerConfig(
        ai_delay=0,
        data_dir=tmp / "data",
        replay_dir=tmp / "replays",
        message_rate=100_000,
        message_burst=100_000,
    )
    return TestClient(create_app(config), base_url=LOCAL)


class Page:
    """A socket and the state its messages describe."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.mirror = Mirror()
        self.seq = 0
        self.acked = 0

    def next(self) -> dict[str, Any]:
        while True:
            msg: dict[str, Any] = self.ws.receive_json()
            assert msg["type"] != "error", msg
            if self.mirror.feed(msg):
                self.acked = msg.get("ack", self.acked)
                assert self.mirror.state is not None
                return self.mirror.state

    def resume(self, room: str, token: str) -> dict[str, Any]:
        """Attaches to a seat; the first state where this seat may move."""
        self.ws.send_json({"type": "resume", "room": room, "token": token})
        assert self.ws.receive_json()["type"] == "welcome"
        st = self.next()
        while not (st["status"] == "playing" and st["table"]["legal"]):
            st = self.next()
        return st

    def play(self, moves: int | None) -> dict[str, Any]:
        """Plays this seat's last legal move ``moves`` times (None: to the end); returns the
        state once the table waits for this seat again (or the game is over)."""
        assert self.mirror.state is not None
        st, played = self.mirror.state, 0
        while st["status"] != "over":
            t = st["table"]
            if self.acked == self.seq and t["sheet_open"]:
                self.ws.send_json({"type": "next"})
            elif self.acked == self.seq and t["legal"]:
                if moves is not None and played >= moves:
                    return st
                self.seq += 1
                played += 1
                self.ws.send_json({"type": "move", "move": t["legal"][-1]["id"], "seq": self.seq})
            st = self.next()
        return st


@pytest.mark.parametrize(
    ("game", "options"),
    [("three-thirteen", {}), ("spite-malice", {"target_score": 3})],
)
def test_a_turn_based_room_survives_a_restart_and_its_replay_verifies(
    tmp_path: Path, game: str, options: dict[str, Any]
) -> None:
    body = {"game": game, "players": 3, "name": "Ann", "options": options}
    with server(tmp_path) as client:
        room = client.post("/api/rooms", json=body).json()
        with client.websocket_connect(WS) as ws:
            page = Page(ws)
            page.resume(room["room"], room["token"])
            before = page.play(12)
    # the server stopped (its rooms written on the way out) and starts again
    saved = sqlite3.connect(tmp_path / "data" / ROOMS_FILE).execute("SELECT id FROM rooms")
    assert [r for (r,) in saved] == [room["room"]]
    with server(tmp_path) as client, client.websocket_connect(WS) as ws:
        page = Page(ws)
        after = page.resume(room["room"], room["token"])  # the page's token: its seat again
        for key in ("observation", "legal", "last", "sheet"):
            assert after["table"][key] == before["table"][key], key
        assert after["seats"] == before["seats"]
        end = page.play(None)
    assert end["result"]["replay_saved"]
    (replay,) = (tmp_path / "replays").iterdir()
    out = CliRunner().invoke(cli, ["replay", str(replay)])
    assert out.exit_code == 0, out.output
    # a finished room is no longer kept
    saved = sqlite3.connect(tmp_path / "data" / ROOMS_FILE).execute("SELECT id FROM rooms")
    assert saved.fetchall() == []


def test_a_nerts_match_keeps_its_rounds_and_deals_the_next_one(tmp_path: Path) -> None:
    body = {"game": "nerts", "seats": ["ai"], "seed": 11, "name": "Ann"}
    body["options"] = {"nerts_pile_size": 1, "speed": "frantic", "target_score": 50}
    with server(tmp_path) as client:
        room = client.post("/api/rooms", json=body).json()
        with client.websocket_connect(WS) as ws:
            page = Page(ws)
            page.resume(room["room"], room["token"])
            st = page.next()
            while not st["table"]["sheet_open"]:  # the AI calls Nerts within a few seconds
                st = page.next()
            totals = st["table"]["totals"]
            assert st["table"]["round_no"] == 1
    with server(tmp_path) as client, client.websocket_connect(WS) as ws:
        st = Page(ws).resume(room["room"], room["token"])
        assert st["table"]["round_no"] == 2  # round 1 is kept, round 2 dealt
        assert st["table"]["totals"] == totals
        assert len(st["table"]["sheet"]["rows"]) == 1


def test_a_room_that_does_not_fit_is_dropped_and_the_server_starts(tmp_path: Path) -> None:
    from cardcore.web.store import RoomStore

    store = RoomStore(tmp_path / "data" / ROOMS_FILE)
    good_setup = {
        "game": "three-thirteen",
        "players": 2,
        "seats": ["ai"],
        "agent": "greedy",
        "level": "normal",
        "options": {},
        "seed": 1,
        "daily": False,
        "turn_seconds": 60,
    }
    seats = [
        {"kind": "human", "name": "Ann", "token": "t" * 32, "stand_in": False},
        {"kind": "ai", "name": "AI 1", "token": None, "stand_in": False},
    ]
    bad = {
        "version": 1,
        "setup": good_setup,
        "seats": seats,
        "table": {"history": [[1, 9, 0]], "sheet_open": [], "stand_ins": []},
    }
    store.write([("r" * 22, json.dumps(bad)), ("s" * 22, "not json")], [])
    with server(tmp_path) as client:
        assert client.get("/api/games").status_code == 200
        assert client.app.state.server.lobby.rooms == {}  # type: ignore[attr-defined]
    assert store.load() == []  # dropped from the file too


def test_a_seat_handed_to_an_ai_stays_the_ais_after_a_restart(tmp_path: Path) -> None:
    body = {"game": "three-thirteen", "players": 2, "seats": ["friend"], "name": "Ann"}
    with server(tmp_path) as client:
        room = client.post("/api/rooms", json=body).json()
        with client.websocket_connect(WS) as ws, client.websocket_connect(WS) as guest:
            guest.send_json({"type": "join", "room": room["room"], "name": "Bob"})
            assert guest.receive_json()["type"] == "welcome"
            page = Page(ws)
            # hand Bob's seat over before waiting for a move of ours: Bob may be first to play
            # (and never plays), so waiting for our turn first could wait forever
            ws.send_json({"type": "resume", "room": room["room"], "token": room["token"]})
            assert ws.receive_json()["type"] == "welcome"
            ws.send_json({"type": "hand", "seat": 1})
            st = page.next()
            while not (
                st["seats"][1]["kind"] == "ai"
                and st["status"] == "playing"
                and st["table"]["legal"]
            ):
                st = page.next()
            page.play(6)
    with server(tmp_path) as client, client.websocket_connect(WS) as ws:
        page = Page(ws)
        st = page.resume(room["room"], room["token"])
        assert st["seats"][1]["kind"] == "ai"
        end = page.play(None)  # the AI plays Bob's seat to the end
    assert end["status"] == "over"
    (replay,) = (tmp_path / "replays").iterdir()
    record = json.loads(replay.read_text())
    assert record["agents"] == ["human", "human"]  # Bob's moves are in the replay
    out = CliRunner().invoke(cli, ["replay", str(replay)])
    assert out.exit_code == 0, out.output
