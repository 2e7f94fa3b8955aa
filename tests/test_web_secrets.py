"""Secrets stay on the server: nothing a guest in a friends room receives re-creates the deal.

A guest's browser gets API answers and WebSocket frames. Every number in them (JSON numbers
and every run of digits inside a string: tokens, texts, paths) is tried as a seed the way the
public package deals (``load_game(...).new_state(n)``, and ``n`` as a match seed whose first
round or game is dealt from a derived seed): none may give the host's first observation,
hidden cards and all.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from websockets.sync.client import ClientConnection, connect

from browser import live_server
from cardcore.games.api import load_game
from cardcore.play.common import daily_seed
from cardcore.rng import derive_seed
from cardcore.web.app import ServerConfig, create_app
from cardcore.web.patch import Mirror

OPTIONS: dict[str, dict[str, Any]] = {
    "three-thirteen": {},
    "spite-malice": {},
    "nerts": {"speed": "frantic"},
}


def first_unit_seeds(game: str, n: int) -> list[int]:
    """The seeds a deal could come from if ``n`` were the room's seed: ``n`` itself and the
    first game (Spite & Malice) or round (Nerts) of a match seeded ``n``."""
    return [n, derive_seed(n, 0, "match-game"), derive_seed(n, 0, "round")]


def host_view(game: str, seed: int) -> str:
    """Seat 0's first observation of a room dealt from ``seed`` (hidden cards included)."""
    g = load_game(game, players=3, **OPTIONS[game])
    return str(g.new_state(seed).observation_json(0))


def numbers(value: Any) -> set[int]:
    """Every integer a client could read in a JSON value."""
    if isinstance(value, dict):
        return set().union(numbers(list(value)), *(numbers(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(numbers(v) for v in value))
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, float):
        return {int(value)} if value.is_integer() else set()
    return {int(d) for d in re.findall(r"\d+", str(value))}


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def post(url: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


class Page:
    """A browser's socket: keeps every text frame it receives and its state."""

    def __init__(self, ws: ClientConnection, hello: dict[str, Any]) -> None:
        self.ws = ws
        self.frames: list[str] = []
        self.mirror = Mirror()
        self.seq = 0
        self.ws.send(json.dumps(hello))

    def drain(self, wait: float = 0.05) -> None:
        while True:
            try:
                text = self.ws.recv(timeout=wait)
            except TimeoutError:
                return
            assert isinstance(text, str)
            self.frames.append(text)
            self.mirror.feed(json.loads(text))

    def play_something(self) -> None:
        st = self.mirror.state
        if st is None or st.get("status") != "playing":
            return
        table = st["table"]
        if table.get("sheet_open"):
            self.ws.send('{"type": "next"}')
        elif table["legal"]:
            self.seq += 1
            move = table["legal"][self.seq % len(table["legal"])]["id"]
            self.ws.send(json.dumps({"type": "move", "move": move, "seq": self.seq}))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    tmp = tmp_path_factory.mktemp("secrets")
    config = ServerConfig(
        ai_delay=0.0,
        data_dir=tmp / "data",
        profile=tmp / "profile.sqlite3",
        replay_dir=tmp / "replays",
    )
    app = create_app(config)
    with live_server(app) as url:
        yield url, app


def guest_receives(url: str, body: dict[str, Any], seconds: float = 1.0) -> list[Any]:
    """Everything the guest of a friends room (host, guest, an AI) receives while both play."""
    answers: list[Any] = [get(url + "/api/games"), get(url + "/api/profile?name=Bob")]
    room = post(url + "/api/rooms", body)
    ws_url = url.replace("http", "ws") + "/ws"
    with connect(ws_url) as host_ws, connect(ws_url) as guest_ws:
        host = Page(host_ws, {"type": "resume", "room": room["room"], "token": room["token"]})
        guest = Page(guest_ws, {"type": "join", "room": room["room"], "name": "Bob"})
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for page in (host, guest):
                page.drain()
                page.play_something()
        guest.drain(0.2)
    assert guest.mirror.state is not None
    assert guest.mirror.state["status"] == "playing"
    assert guest.seq > 0, "the guest never got to play"
    return answers + [json.loads(f) for f in guest.frames]


def room_seed(app: Any, received: list[Any]) -> int:
    """The seed the server dealt the guest's room from (read on the server side)."""
    room_id = next(m["room"] for m in received if isinstance(m, dict) and m.get("type") == "state")
    seed: int = app.state.server.lobby.rooms[room_id].setup.seed
    return seed


@pytest.mark.parametrize("daily", [False, True], ids=["random-deal", "daily-deal"])
@pytest.mark.parametrize("game", list(OPTIONS))
def test_nothing_a_guest_receives_recreates_the_deal(
    server: tuple[str, Any], game: str, daily: bool
) -> None:
    url, app = server
    body = {
        "game": game,
        "players": 3,
        "seats": ["friend", "ai"],
        "name": "Ann",
        "options": OPTIONS[game],
        "daily": daily,
    }
    received = guest_receives(url, body)
    seed = room_seed(app, received)
    truth = host_view(game, seed)
    assert any(host_view(game, s) == truth for s in first_unit_seeds(game, seed))  # the check bites
    found = set().union(*(numbers(m) for m in received))
    if daily:  # the public daily formula of `cardcore play` is no help either
        today = _dt.datetime.now(_dt.UTC).date()
        found |= {daily_seed(today + _dt.timedelta(days=d)) for d in (-1, 0, 1)}
    assert len(found) > 20
    leaks = [
        n
        for n in sorted(found)
        if 0 <= n < 2**64 and any(host_view(game, s) == truth for s in first_unit_seeds(game, n))
    ]
    print(f"{game}: {len(found)} numbers tried, {len(received)} answers and frames")
    assert leaks == [], f"these numbers re-create the deal: {leaks}"
    assert str(seed) not in json.dumps(received)


def test_the_daily_deal_is_the_same_for_everyone_and_kept_in_the_data_folder(
    tmp_path: Path,
) -> None:
    from cardcore.web.daily import DailyDeals

    folder = tmp_path / "data"
    day = _dt.date(2026, 12, 4)
    first = DailyDeals.load(folder)
    assert DailyDeals.load(folder).seed(day) == first.seed(day)  # a restart deals the same
    assert first.seed(day) != first.seed(day + _dt.timedelta(days=1))
    assert first.seed(day) != daily_seed(day)
    assert DailyDeals.load(tmp_path / "other").seed(day) != first.seed(day)  # another server
    secret = next(folder.iterdir())
    assert secret.stat().st_mode & 0o077 == 0  # readable by its owner only
    assert 0 <= first.seed(day) < 2**63


def test_a_damaged_daily_secret_is_a_clear_error(tmp_path: Path) -> None:
    from cardcore.errors import StateFormatError
    from cardcore.web.daily import SECRET_FILE, DailyDeals

    (tmp_path / SECRET_FILE).write_bytes(b"short")
    with pytest.raises(StateFormatError, match="at least 16 bytes"):
        DailyDeals.load(tmp_path)


def test_a_room_with_friends_refuses_a_chosen_seed() -> None:
    """A host who typed the seed of a friends room would know every hidden card: refused. A
    room of the host and AIs keeps its seed (replaying a deal), and so may a server whose
    operator allows it (who can read every seed in the server's files anyway)."""
    from starlette.testclient import TestClient

    friends = {"game": "three-thirteen", "players": 3, "seats": ["friend", "ai"], "seed": 7}
    with TestClient(create_app(ServerConfig()), base_url="http://127.0.0.1:8000") as client:
        r = client.post("/api/rooms", json=friends)
        assert r.status_code == 400
        assert "friend's seat cannot have a chosen seed" in r.json()["error"]
        assert client.post("/api/rooms", json={**friends, "seed": None}).status_code == 200
        solo = {**friends, "seats": ["ai", "ai"]}
        room = client.post("/api/rooms", json=solo).json()["room"]
        assert app_seed(client, room) == 7
    allowed = create_app(ServerConfig(seeded_friend_rooms=True))
    with TestClient(allowed, base_url="http://127.0.0.1:8000") as client:
        room = client.post("/api/rooms", json=friends).json()["room"]
        assert app_seed(client, room) == 7


def app_seed(client: Any, room: str) -> int:
    seed: int = client.app.state.server.lobby.rooms[room].setup.seed
    return seed
