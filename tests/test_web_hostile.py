"""Hostile requests and faults at the server (issue #31 M9, M10, L23-L25, L27; issue #29's
socket cap, join timeout and compressed static files)."""

from __future__ import annotations

import asyncio
import gzip
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from click.testing import CliRunner
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardcore.cli import cli
from cardcore.web.app import MAX_BODY_BYTES, ServerConfig, create_app, host_allowed

LOCAL = "http://127.0.0.1:8000"
WS = "ws://127.0.0.1:8000/ws"
ROOM = {"game": "three-thirteen", "players": 2}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(ServerConfig(profile=tmp_path / "p.sqlite3", allowed_hosts=("mypc.lan",)))
    with TestClient(app, base_url=LOCAL) as c:
        yield c


def test_only_the_servers_own_host_names_are_answered(client: TestClient) -> None:
    # M9: a DNS-rebinding page reaches the server under its own name, with a matching Origin
    evil = {"host": "evil.example:8000", "origin": "http://evil.example:8000"}
    r = client.post("/api/rooms", json=ROOM, headers=evil)
    assert r.status_code == 421
    assert "token" not in r.text
    assert client.get("/api/games", headers=evil).status_code == 421
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(WS, headers=evil) as ws:
        ws.receive_json()
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "192.0.2.7", "mypc.lan:8000"):
        origin = {"host": host, "origin": f"http://{host}"}
        assert client.post("/api/rooms", json=ROOM, headers=origin).status_code == 200, host
    assert not host_allowed("127.0.0.1.evil.example")
    assert not host_allowed("")
    assert not host_allowed("[::1")
    # M9: the profile answers this server's own pages only
    r = client.get("/api/profile?name=Ann", headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    assert client.get("/api/profile?name=Ann").status_code == 200


def asgi_post(app: Any, headers: list[tuple[bytes, bytes]], chunks: int) -> tuple[int, int]:
    """POSTs ``chunks`` chunks of 64 KB to /api/rooms through the raw ASGI interface; returns
    the status and how many chunks the server read."""
    read = 0
    status = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        read += 1
        return {"type": "http.request", "body": b"x" * 65536, "more_body": read < chunks}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/rooms",
        "raw_path": b"/api/rooms",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
        "scheme": "http",
        "http_version": "1.1",
        "root_path": "",
    }
    asyncio.run(app(scope, receive, send))
    return status, read


def test_oversized_bodies_are_refused_unread() -> None:
    # M10: a 300 MB body was read whole before the 413
    app = create_app(ServerConfig())
    big = 300 * 2**20
    assert asgi_post(app, [(b"content-length", str(big).encode())], big // 65536) == (413, 0)
    status, read = asgi_post(app, [], big // 65536)  # streamed, no Content-Length
    assert status == 413
    assert read == 1  # the first 64 KB chunk is already over the limit
    assert MAX_BODY_BYTES < 65536


def test_serve_refuses_an_empty_host() -> None:
    # L23: --host "" bound every address and printed http://:PORT/
    out = CliRunner().invoke(cli, ["serve", "--host", ""])
    assert out.exit_code == 2
    assert "--host" in out.output


def test_every_answer_has_the_security_headers_and_static_files_are_compressed(
    client: TestClient,
) -> None:
    # L24: /static/index.html had no Content-Security-Policy
    for path in ("/", "/static/index.html", "/static/app.js", "/api/games"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert "default-src 'self'" in r.headers["content-security-policy"], path
        assert r.headers["x-frame-options"] == "DENY", path
    r = client.get("/static/app.js", headers={"accept-encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    raw = int(r.headers["content-length"])
    plain = (Path(__file__).parents[1] / "python/cardcore/web/static/app.js").read_bytes()
    assert raw < len(plain) / 2
    assert r.content == plain  # the client undid the compression
    assert len(gzip.compress(plain)) < len(plain)


def test_a_non_ascii_digit_seed_is_a_clear_error(client: TestClient) -> None:
    # L25: "²".isdigit() is True, int("²") raised: a 500
    for seed in ("²", "١٢", "1e3", " 7 x"):
        r = client.post("/api/rooms", json={**ROOM, "seed": seed})
        assert r.status_code == 400, seed
        assert "seed must be" in r.json()["error"]
    assert client.post("/api/rooms", json={**ROOM, "seed": " 42 "}).status_code == 200


def test_a_locked_profile_answers_busy_at_once(client: TestClient, tmp_path: Path) -> None:
    # L27: every request stalled 5 s and /api/profile answered 500
    lock = sqlite3.connect(tmp_path / "p.sqlite3", isolation_level=None)
    lock.execute("BEGIN EXCLUSIVE")
    try:
        t = time.monotonic()
        r = client.get("/api/profile?name=Ann")
        assert r.status_code == 503
        assert "busy" in r.json()["error"]
        assert time.monotonic() - t < 3
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    assert client.get("/api/profile?name=Ann").status_code == 200


def test_sockets_that_never_join_are_capped_and_timed_out() -> None:
    app = create_app(ServerConfig(max_unjoined=2, join_seconds=0.3))
    with (
        TestClient(app, base_url=LOCAL) as client,
        client.websocket_connect(WS) as a,
        client.websocket_connect(WS),
    ):
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(WS):
            pass
        assert refused.value.code == 1013  # a third idle socket: try again later
        t = time.monotonic()
        with pytest.raises(WebSocketDisconnect):
            a.receive_json()  # closed after join_seconds without a join
        assert time.monotonic() - t < 2
    # a socket that joins in time stays
    app = create_app(ServerConfig(join_seconds=0.3))
    with TestClient(app, base_url=LOCAL) as client, client.websocket_connect(WS) as ws:
        room = client.post("/api/rooms", json=ROOM).json()
        ws.send_json({"type": "resume", "room": room["room"], "token": room["token"]})
        assert ws.receive_json()["type"] == "welcome"
        time.sleep(0.5)
        ws.send_json({"type": "ping", "seq": 1})
        while (msg := ws.receive_json())["type"] != "pong":
            pass
        assert msg == {"type": "pong", "seq": 1}
