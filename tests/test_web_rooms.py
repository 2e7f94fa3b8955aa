"""The game-neutral server layer (rooms, seats, messages, limits) with a toy table."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardcore.errors import IllegalMoveError
from cardcore.web.app import ServerConfig, create_app
from cardcore.web.messages import MAX_MESSAGE_BYTES, BadMessage, parse_message
from cardcore.web.patch import Mirror
from cardcore.web.rooms import RoomSetup
from cardcore.web.tables import Outcome, Table

LOCAL = "http://127.0.0.1:8000"  # the server answers only to its own host names
WS = "ws://127.0.0.1:8000/ws"


class RaceTable(Table):
    """Seats take turns adding 1 or 2; the first to 5 wins. An AI seat adds 1 at once."""

    def __init__(self, setup: RoomSetup, agents: Sequence[str | None]) -> None:
        self.players = setup.players
        self.agents = list(agents)
        self.points = [0] * self.players
        self.current = 0
        self.secret = [f"secret-of-{s}" for s in range(self.players)]

    def view(self, seat: int) -> dict[str, Any]:
        return {
            "points": list(self.points),
            "current": self.current,
            "mine": self.secret[seat],
            "legal": [1, 2] if seat == self.current and self.outcome is None else [],
        }

    def act(self, seat: int, move: int | str, now: float) -> None:
        if seat != self.current or self.outcome is not None:
            raise IllegalMoveError("not your turn")
        if move not in ("1", "2"):
            raise IllegalMoveError(f"no move {move}")
        self.points[seat] += int(move)
        self.current = (self.current + 1) % self.players

    def due(self) -> float | None:
        return 0.0 if self.agents[self.current] is not None and self.outcome is None else None

    def tick(self, now: float) -> bool:
        if self.due() is None:
            return False
        self.act(self.current, "1", now)
        return True

    @property
    def outcome(self) -> Outcome | None:
        for s, p in enumerate(self.points):
            if p >= 5:
                return Outcome([float(x) for x in self.points], s, {})
        return None


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app(ServerConfig(factory=lambda s, a: RaceTable(s, a)))
    with TestClient(app, base_url=LOCAL) as c:
        yield c


def new_room(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/rooms", json={"game": "three-thirteen", "players": 2, **body})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def next_state(ws: Any) -> dict[str, Any]:
    """The page's state after the next ``state`` or ``patch`` (with that message's ``ack``)."""
    if not hasattr(ws, "mirror"):
        ws.mirror = Mirror()
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if ws.mirror.feed(msg):
            out: dict[str, Any] = {**ws.mirror.state}
            if "ack" in msg:
                out["ack"] = msg["ack"]
            return out


# --- messages ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("frame", "reason"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"type": "teleport"}', "unknown message type"),
        ('{"type": 7}', "unknown message type"),
        ('{"type": "move"}', "missing move"),
        ('{"type": "move", "move": "a;b"}', "move must be"),
        ('{"type": "move", "move": -1}', "move must be"),
        ('{"type": "move", "move": 2097152}', "move must be"),
        ('{"type": "move", "move": 1.5}', "move must be"),
        ('{"type": "move", "move": true}', "move must be"),
        ('{"type": "move", "move": ""}', "move must be"),
        ('{"type": "move", "move": "' + "x" * 41 + '"}', "move must be"),
        ('{"type": "move", "move": "3", "admin": 1}', "unknown key"),
        ('{"type": "join", "room": "x", "name": "Ann"}', "room is not a valid token"),
        ('{"type": "join", "room": "' + "a" * 22 + '", "name": ""}', "name must have"),
        ('{"type": "join", "room": "' + "a" * 22 + '", "name": "<script>"}', "not allowed"),
        ('{"type": "join", "room": "' + "a" * 22 + '", "name": "' + "n" * 40 + '"}', "name"),
        ('{"type": "resume", "room": "' + "a" * 22 + '", "token": "../../etc"}', "token"),
        ('{"type": "ping", "seq": 99999999999999999999}', "seq must be"),
        ("[" * 100_000, "larger than"),
        ('{"type": "ping", "seq": 1, "x": ' + "[" * 1000 + "]" * 1000 + "}", "not JSON"),
    ],
)
def test_bad_messages_are_refused_with_a_reason(frame: str, reason: str) -> None:
    with pytest.raises(BadMessage, match=reason):
        parse_message(frame)


def test_every_message_type_parses() -> None:
    room, token = "r" * 22, "t" * 32
    assert parse_message(json.dumps({"type": "join", "room": room, "name": " Ann  B "})).name == (
        "Ann B"
    )
    assert parse_message(json.dumps({"type": "resume", "room": room, "token": token})).token
    assert parse_message('{"type": "move", "move": "3", "seq": 9}').move == "3"
    assert parse_message('{"type": "move", "move": 417}').move == 417  # an action id
    assert parse_message('{"type": "move", "move": "discard 7h@1"}').move == "discard 7h@1"
    assert parse_message('{"type": "start"}').type == "start"
    assert parse_message('{"type": "next"}').type == "next"
    assert parse_message('{"type": "ping", "seq": 4}').seq == 4
    assert MAX_MESSAGE_BYTES >= 200


# --- rooms over HTTP and WebSocket ---------------------------------------------------------


def test_room_against_an_ai_plays_to_the_end(client: TestClient) -> None:
    room = new_room(client)
    assert len(room["room"]) >= 22
    assert len(room["token"]) >= 32
    with client.websocket_connect(WS) as ws:
        ws.send_json({"type": "resume", "room": room["room"], "token": room["token"]})
        assert ws.receive_json() == {
            "type": "welcome",
            "room": room["room"],
            "seat": 0,
            "token": room["token"],
        }
        st = next_state(ws)
        assert st["status"] == "playing"
        assert st["table"]["mine"] == "secret-of-0"
        seq = 0
        while st["status"] == "playing":
            if st["table"]["legal"]:
                seq += 1
                ws.send_json({"type": "move", "move": "2", "seq": seq})
            st = next_state(ws)
        assert st["status"] == "over"
        assert st["result"]["winner"] == 0
        assert st["table"]["points"] == [6, 2]


def test_illegal_move_is_refused_and_changes_nothing(client: TestClient) -> None:
    room = new_room(client, seats=["friend"])
    with client.websocket_connect(WS) as ws:
        ws.send_json({"type": "resume", "room": room["room"], "token": room["token"]})
        ws.receive_json()
        st = next_state(ws)
        assert st["status"] == "waiting"
        ws.send_json({"type": "move", "move": "1", "seq": 1})
        err = ws.receive_json()
        assert err == {"type": "error", "message": "the game has not started yet", "seq": 1}
        ws.send_json({"type": "start"})
        st = next_state(ws)
        assert st["status"] == "playing"
        assert st["seats"][1]["kind"] == "ai"
        ws.send_json({"type": "move", "move": "7", "seq": 2})
        assert ws.receive_json() == {"type": "error", "message": "no move 7", "seq": 2}
        ws.send_json({"type": "ping", "seq": 3})
        assert ws.receive_json() == {"type": "pong", "seq": 3}


def test_two_friends_see_only_their_own_seat_and_reconnect(client: TestClient) -> None:
    room = new_room(client, seats=["friend"], name="Ann")
    with client.websocket_connect(WS) as host:
        host.send_json({"type": "resume", "room": room["room"], "token": room["token"]})
        host.receive_json()
        next_state(host)
        with client.websocket_connect(WS) as guest:
            guest.send_json({"type": "join", "room": room["room"], "name": "Bob"})
            welcome = guest.receive_json()
            assert welcome["seat"] == 1
            assert welcome["token"] != room["token"]
            st = next_state(guest)
            assert st["status"] == "playing"
            assert st["seat"] == 1
            assert st["table"]["mine"] == "secret-of-1"
            assert "secret-of-0" not in json.dumps(st)
            assert [s["name"] for s in st["seats"]] == ["Ann", "Bob"]
            # a third person finds no seat
            with client.websocket_connect(WS) as third:
                third.send_json({"type": "join", "room": room["room"], "name": "Cy"})
                assert third.receive_json()["message"] == "this room has no open seat"
            # the guest cannot play out of turn
            guest.send_json({"type": "move", "move": "1"})
            assert guest.receive_json()["message"] == "not your turn"
            host.send_json({"type": "move", "move": "2"})
            while next_state(host)["table"]["current"] != 1:
                pass
        # the guest's page closed; the host sees the seat disconnected
        st = next_state(host)
        while st["seats"][1]["connected"]:
            st = next_state(host)
        with client.websocket_connect(WS) as guest:
            guest.send_json({"type": "resume", "room": room["room"], "token": welcome["token"]})
            assert guest.receive_json()["seat"] == 1
            st = next_state(guest)
            assert st["table"]["current"] == 1
            assert st["table"]["points"] == [2, 0]
            guest.send_json({"type": "move", "move": "2", "seq": 5})
            st = next_state(guest)
            assert st["ack"] == 5
            assert st["table"]["points"] == [2, 2]


def test_hostile_requests(client: TestClient) -> None:
    room = new_room(client, seats=["friend"])
    # cross-site pages cannot open a table socket or create rooms
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(WS, headers={"origin": "http://evil.example"}) as ws,
    ):
        ws.receive_json()
    r = client.post(
        "/api/rooms", json={"game": "three-thirteen"}, headers={"origin": "http://evil.example"}
    )
    assert r.status_code == 403
    r = client.post("/api/rooms", content=b"game=three-thirteen")
    assert r.status_code == 415
    for body, words in [
        ({"game": "chess"}, "game must be one of"),
        ({"game": "three-thirteen", "players": 9}, "needs 2-6 players"),
        ({"game": "three-thirteen", "players": 2, "seats": ["robot"]}, "seats must list"),
        ({"game": "three-thirteen", "level": "godlike"}, "level must be"),
        ({"game": "three-thirteen", "seed": -1}, "seed must be"),
        ({"game": "three-thirteen", "options": {"jokers": 3}}, "not one of"),
        ({"game": "three-thirteen", "options": {"warp": 1}}, "no option"),
        ({"game": "three-thirteen", "admin": True}, "unknown key"),
    ]:
        r = client.post("/api/rooms", json=body)
        assert r.status_code == 400, body
        assert words in r.json()["error"], (body, r.text)
    with client.websocket_connect(WS) as ws:
        # a wrong token or an unknown room
        ws.send_json({"type": "resume", "room": room["room"], "token": "x" * 32})
        assert "does not belong" in ws.receive_json()["message"]
        ws.send_json({"type": "join", "room": "y" * 22, "name": "Eve"})
        assert "no such room" in ws.receive_json()["message"]
        ws.send_json({"type": "move", "move": "1"})
        assert ws.receive_json()["message"] == "join a room first"
        ws.send_text("x" * (MAX_MESSAGE_BYTES + 1))
        assert "larger than" in ws.receive_json()["message"]
        ws.send_bytes(b"\xff\xfe")
        assert ws.receive_json()["message"] == "message is not JSON"
        # a flood: refused beyond the burst, then the socket is closed
        for _ in range(200):
            ws.send_text('{"type":"ping","seq":1}')
        replies: list[dict[str, Any]] = []

        def read_all() -> None:
            while True:
                replies.append(ws.receive_json())

        with pytest.raises(WebSocketDisconnect):
            read_all()
        assert any(r.get("message") == "too many messages; slow down" for r in replies)
        assert sum(r["type"] == "pong" for r in replies) <= 61


def test_non_host_cannot_start_and_page_has_security_headers(client: TestClient) -> None:
    room = new_room(client, players=3, seats=["friend", "friend"])
    with client.websocket_connect(WS) as guest:
        guest.send_json({"type": "join", "room": room["room"], "name": "Bob"})
        guest.receive_json()
        assert next_state(guest)["status"] == "waiting"
        guest.send_json({"type": "start"})
        assert guest.receive_json()["message"] == "only the host can start the game"
    page = client.get("/")
    assert page.status_code == 200
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"


def test_invite_base_reaches_the_page_and_serve_finds_the_lan_address() -> None:
    from cardcore.cli.serve import _lan_address

    with TestClient(create_app(ServerConfig()), base_url=LOCAL) as c:
        assert c.get("/api/games").json()["invite_base"] is None
    lan = ServerConfig(invite_base="http://192.0.2.7:8000")
    with TestClient(create_app(lan), base_url=LOCAL) as c:
        assert c.get("/api/games").json()["invite_base"] == "http://192.0.2.7:8000"
    assert _lan_address("192.0.2.7") == "192.0.2.7"  # a named address is the one friends use
    found = _lan_address("0.0.0.0")  # the interface towards the network, if there is one
    assert found is None or not found.startswith("127.")


class ThinkingRaceTable(RaceTable):
    """RaceTable whose AI takes its time, thinking in a worker thread."""

    def think(self, now: float) -> Callable[[], object] | None:
        if self.due() is None:
            return None

        def slowly() -> str:
            time.sleep(0.4)
            return "1"

        return slowly

    def conclude(self, thought: object, now: float) -> bool:
        if self.due() is None:
            return False
        self.act(self.current, str(thought), now)
        return True


def test_an_ai_thinks_off_the_event_loop() -> None:
    app = create_app(ServerConfig(factory=lambda s, a: ThinkingRaceTable(s, a)))
    with TestClient(app, base_url=LOCAL) as client, client.websocket_connect(WS) as ws:
        room = new_room(client)
        ws.send_json({"type": "resume", "room": room["room"], "token": room["token"]})
        ws.receive_json()
        next_state(ws)
        ws.send_json({"type": "move", "move": "2", "seq": 1})
        assert next_state(ws)["table"]["current"] == 1  # the AI is thinking now
        ws.send_json({"type": "ping", "seq": 2})
        assert ws.receive_json() == {"type": "pong", "seq": 2}  # answered meanwhile
        st = next_state(ws)
        assert st["table"]["points"] == [2, 1]
        assert st["table"]["current"] == 0


def test_names_lose_control_and_bidi_characters() -> None:
    from cardcore.web.messages import clean_name

    assert clean_name("Ann\u202egnp.exe") == "Anngnp.exe"  # right-to-left override
    assert clean_name("\u2066Bob\u2069\u200b") == "Bob"  # isolates, zero-width space
    assert clean_name("C\x00y\x1b[2J") == "Cy[2J"
    assert clean_name("Zoë  Ødegård") == "Zoë Ødegård"
    with pytest.raises(BadMessage, match="1 to 24"):
        clean_name("\u202e\u202d")


def test_numeric_room_options_are_bounded(client: TestClient) -> None:
    from cardcore.web.games import ROOM_OPTION_MAX

    for options in (
        {"target_score": 10**30},
        {"target_score": ROOM_OPTION_MAX + 1},
        {"foundation_points": 2**31},
    ):
        r = client.post("/api/rooms", json={"game": "nerts", "options": options})
        assert r.status_code == 400, options
        assert "maximum" in r.json()["error"]
    r = client.post(
        "/api/rooms",
        content=b'{"game": "nerts", "options": {"target_score": NaN}}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400
    ok = {"game": "nerts", "options": {"target_score": ROOM_OPTION_MAX}}
    assert client.post("/api/rooms", json=ok).status_code == 200
    nerts = next(g for g in client.get("/api/games").json()["games"] if g["name"] == "nerts")
    target = next(o for o in nerts["options"] if o["name"] == "target_score")
    assert target["max"] == ROOM_OPTION_MAX  # the lobby's field says so too
