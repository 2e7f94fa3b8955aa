"""The ASGI application: the page, a small JSON API and one WebSocket per browser.

========================  =======================================================
``GET /``                 the single-page table (``static/index.html``)
``GET /static/...``       its scripts, styles and icons (shipped in the wheel)
``GET /api/games``        playable games, seat counts, AI levels, lobby options
``POST /api/rooms``       create a room; answers its id and the host's seat token
``GET /api/profile``      stats, streaks, level, achievements, quests, settings
``GET /api/daily``        today's challenge of each game, met or not, and streaks
``GET /api/leaderboard``  a game's people and AI levels ranked by rating
``POST /api/settings``    change a person's theme, card back, avatar, ...
``WS /ws``                the table: client messages in :mod:`cardcore.web.messages`
========================  =======================================================

Cross-site requests are refused: a WebSocket, POST or profile request whose ``Origin`` is not
this server's own is refused (a page on another site cannot join or create rooms through your
browser), and so is any request whose ``Host`` is not one of this server's names (loopback
names, IP addresses, the ``--host`` given): a DNS-rebinding page names its own host.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import ipaddress
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as AsgiMessage
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardcore.errors import CardcoreError
from cardcore.web import feats
from cardcore.web.daily import DailyDeals
from cardcore.web.limits import TokenBucket
from cardcore.web.messages import (
    MAX_MESSAGE_BYTES,
    BadMessage,
    Message,
    clean_name,
    parse_message,
)
from cardcore.web.profile import Profile
from cardcore.web.progress import SettingsError
from cardcore.web.rooms import (
    Connection,
    Lobby,
    Room,
    RoomError,
    RoomSetup,
    Seat,
    TableFactory,
)
from cardcore.web.store import ROOMS_FILE, RoomStore
from cardcore.web.tables import Outcome

__all__ = ["STATIC", "ServerConfig", "create_app"]

log = logging.getLogger(__name__)

STATIC: Final = Path(__file__).parent / "static"
MAX_BODY_BYTES: Final = 4096
_STRIKES_BEFORE_CLOSE: Final = 20
JOIN_SECONDS: Final = 10.0
"""A socket that has not joined or resumed a seat this long after opening is closed."""
PROFILE_BUSY_SECONDS: Final = 1.0
"""How long a request waits for a profile database another program holds locked."""
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def uvicorn_options() -> dict[str, Any]:
    """How cardcore's app is served with uvicorn (``cardcore serve``, the load benchmark and
    the browser tests use these): the sans-I/O WebSocket implementation, frames up to twice
    the largest valid client message, and no per-message compression (a table's messages are
    small, frequent and local; compressing them cost about a quarter of the server's time under
    load, ``benches/web_load.py``)."""
    return {
        "ws": "websockets-sansio",
        "ws_max_size": 2 * MAX_MESSAGE_BYTES,
        "ws_per_message_deflate": False,
        "log_level": "warning",
    }


@dataclass
class ServerConfig:
    """What ``cardcore serve`` configures. ``profile`` None keeps no profile; ``replay_dir``
    None saves no replays. ``ai_delay`` is the pause (seconds) before each AI move of the
    turn-based games, so people can follow them."""

    profile: Path | None = None
    replay_dir: Path | None = None
    data_dir: Path | None = None
    """The server's own folder (the daily deals' secret, the rooms in play: they survive a
    restart); ``None`` keeps nothing on disk."""
    save_every: float = 1.0
    """Seconds between writes of the rooms that changed."""
    ai_delay: float = 0.6
    max_rooms: int = 500
    idle_seconds: float = 4 * 3600
    room_rate: float = 0.5
    room_burst: float = 20.0
    message_rate: float = 30.0
    message_burst: float = 60.0
    factory: TableFactory | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    max_unjoined: int = 100
    seeded_friend_rooms: bool = False
    """Accept a chosen seed for a room with a friend's seat (tests: whoever runs the server
    can read every room's seed in its files anyway; a room's host cannot)."""
    """Open sockets that have not joined a room yet, at most (more are refused at once)."""
    join_seconds: float = JOIN_SECONDS
    allowed_hosts: tuple[str, ...] = ()
    """Host names this server answers to besides loopback names and IP addresses (the
    ``--host`` given, when it is a name)."""
    invite_base: str | None = None
    """The address friends on other machines open (``http://192.168.1.20:8000``), when the
    server listens beyond this computer: a page opened on 127.0.0.1 writes its invite links
    with it, since a 127.0.0.1 link leads a friend's browser to the friend's own computer."""


class _Server:
    """The state behind one app: rooms, profile, per-address limits."""

    def __init__(self, config: ServerConfig) -> None:
        from cardcore.web import games

        self.config = config
        self.games = games
        factory = config.factory or games.table_factory(ai_delay=config.ai_delay)
        self.profile = (
            Profile(config.profile, timeout=PROFILE_BUSY_SECONDS)
            if config.profile is not None
            else None
        )
        self.profile_thread = ThreadPoolExecutor(1, thread_name_prefix="cardcore-profile")
        """Every profile read and write, in order, off the event loop."""
        self.lobby = Lobby(
            factory,
            max_rooms=config.max_rooms,
            idle_seconds=config.idle_seconds,
            on_finish=self.finished,
        )
        self.room_buckets: dict[str, TokenBucket] = {}
        self.daily = DailyDeals.load(config.data_dir)
        self.unjoined = 0
        self.store = RoomStore(config.data_dir / ROOMS_FILE) if config.data_dir else None
        self.store_thread = ThreadPoolExecutor(1, thread_name_prefix="cardcore-rooms")

    def restore_rooms(self) -> None:
        """Brings back the rooms saved before the last stop (a room that no longer fits is
        dropped, with a warning)."""
        if self.store is None:
            return
        restored = 0
        for room_id, doc in self.store.load():
            try:
                self.lobby.restore(room_id, doc)
                restored += 1
            except Exception as e:  # another version's room: drop it, keep serving
                log.warning("room %s could not be restored (%s: %s)", room_id, type(e).__name__, e)
                self.lobby.dirty.add(room_id)
        if restored:
            log.warning("restored %d room(s) in play", restored)

    async def save_rooms(self, everything: bool = False) -> None:
        """Writes the rooms that changed (all, whole, with ``everything``) on the store's
        thread."""
        if self.store is None:
            self.lobby.dirty.clear()
            return
        writes = self.lobby.pending(everything)
        if any(writes):
            loop = asyncio.get_running_loop()
            try:
                await loop.run_in_executor(self.store_thread, self.store.write, *writes)
            except sqlite3.Error as e:
                log.warning("the rooms could not be saved (%s)", e)
                self.lobby.unsaved([r for r, _ in writes.save] + writes.delete)

    def finished(self, room: Room, outcome: Outcome) -> dict[str, Any]:
        """Saves the replay and each person's result; returns what the players are told."""
        saved: dict[str, Any] = {}
        path: Path | None = None
        if self.config.replay_dir is not None and outcome.record:
            path = self.games.save_replay(outcome.record, self.config.replay_dir, room.setup.game)
            saved["replay_saved"] = True  # where: the server's business, not the players'
            log.info("room %s: replay saved as %s", room.id, path)
        if self.profile is not None:
            daily = self.daily_day(room.setup)
            people = [seat for seat in room.seats if seat.kind == "human"]
            results = [
                {
                    "player": seat.name,
                    "game": room.setup.game,
                    "level": room.setup.level,
                    "won": outcome.winner == seat.index,
                    "score": outcome.scores[seat.index],
                    "lower_is_better": outcome.lower_is_better,
                    "daily": daily,
                    "replay": str(path) if path is not None else None,
                }
                for seat in people
            ]
            # off the event loop: a database another program holds locked stalls no room
            loop = asyncio.get_running_loop()
            job = loop.run_in_executor(
                self.profile_thread,
                self._record,
                room.id,
                results,
                outcome,
                [s.index for s in people],
                sum(s.kind == "ai" for s in room.seats),
            )
            job.add_done_callback(lambda f: _announce(room, people, f))
        return saved

    def daily_day(self, setup: RoomSetup) -> _dt.date | None:
        """The day whose daily deal ``setup`` deals (``None``: not a daily room): the day the
        room was made, found from its seed, so a game finished after midnight counts for the
        day it was dealt (today if that is not found)."""
        if not setup.daily:
            return None
        today = _dt.datetime.now(_dt.UTC).date()
        for back in range(3):
            day = today - _dt.timedelta(days=back)
            if self.daily.seed(day) == setup.seed:
                return day
        return today

    def _record(
        self,
        room_id: str,
        results: list[dict[str, Any]],
        outcome: Outcome,
        seats: list[int],
        ai_seats: int,
    ) -> list[list[dict[str, Any]]]:
        """Writes each person's result with what they did (:func:`~cardcore.web.feats.facts`
        of the record, and ``ai_seats``: how many seats AIs played) and answers what each of
        them earned by it."""
        assert self.profile is not None
        earned: dict[str, list[dict[str, Any]]] = {}
        try:
            for r, seat in zip(results, seats, strict=True):
                facts = feats.facts(
                    r["game"],
                    outcome.record,
                    seat,
                    outcome.scores,
                    outcome.winner,
                    outcome.lower_is_better,
                )
                self.profile.record(**r, facts={**facts, "ai_seats": ai_seats})
            for r in results:
                if r["player"] not in earned:
                    earned[r["player"]] = self.profile.award(r["player"])
        except sqlite3.Error as e:
            log.warning("room %s: the profile could not be written (%s)", room_id, e)
        return [earned.get(r["player"], []) for r in results]


def _announce(
    room: Room, people: list[Seat], job: asyncio.Future[list[list[dict[str, Any]]]]
) -> None:
    """Tells each person's pages what they earned by the game just finished."""
    if job.cancelled() or job.exception() is not None:
        return
    for seat, earned in zip(people, job.result(), strict=True):
        if earned:
            for conn in seat.conns:
                conn.push({"type": "earned", "earned": earned})


def host_allowed(host_header: str | None, extra: tuple[str, ...] = ()) -> bool:
    """Whether a request's ``Host`` names this server: an IP address, ``localhost`` or a name
    in ``extra`` (any port). A DNS-rebinding page reaches the server under its own name."""
    if host_header is None:
        return True
    try:
        name = urlsplit("//" + host_header).hostname
    except ValueError:
        return False
    if not name:
        return False
    if name == "localhost" or name in extra:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class _Guard:
    """Outermost layer: refuses requests and sockets for other host names, and puts the
    security headers on every HTTP answer (static files included)."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...]) -> None:
        self.app = app
        self.allowed = tuple(a.lower() for a in allowed)
        self.headers = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), None)
        if not host_allowed(host, self.allowed):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                await _error(421, "this server does not answer to that host name")(
                    scope, receive, send
                )
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: AsgiMessage) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in have]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


async def _read_body(request: Request, limit: int) -> bytes | None:
    """The request's body, or ``None`` as soon as it is known to exceed ``limit`` bytes (by
    its ``Content-Length``, or while it streams in): an oversized body is never read whole."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isascii() or not declared.isdigit()):
        return None
    if declared is not None and int(declared) > limit:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)


def _same_origin(conn: HTTPConnection) -> bool:
    """Whether the request comes from this server's own page (or from no page at all)."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    host = conn.headers.get("host", "")
    return urlsplit(origin).netloc == host


def _client(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client is not None else "?"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=SECURITY_HEADERS)


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The web app (serve it with uvicorn; ``cardcore serve`` does)."""
    server = _Server(config or ServerConfig())

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=SECURITY_HEADERS)

    async def api_games(request: Request) -> Response:
        catalog = {**server.games.catalog(), "invite_base": server.config.invite_base}
        return JSONResponse(catalog, headers=SECURITY_HEADERS)

    async def api_rooms(request: Request) -> Response:
        if not _same_origin(request):
            return _error(403, "cross-site request refused")
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _error(415, "send JSON")
        body = await _read_body(request, MAX_BODY_BYTES)
        if body is None:
            return _error(413, "request too large")
        bucket = server.room_buckets.setdefault(
            _client(request), TokenBucket(server.config.room_rate, server.config.room_burst)
        )
        if not bucket.allow(time.monotonic()):
            return _error(429, "too many rooms created; wait a little")
        try:
            setup, host_name, ai_names = server.games.parse_room_request(
                body,
                daily_deals=server.daily,
                seeded_friend_rooms=server.config.seeded_friend_rooms,
            )
            room = server.lobby.create(setup, host_name, ai_names)
        except (CardcoreError, BadMessage) as e:
            return _error(400, str(e))
        return JSONResponse(
            {"room": room.id, "seat": 0, "token": room.host.token}, headers=SECURITY_HEADERS
        )

    async def api_profile(request: Request) -> Response:
        if not _same_origin(request):
            return _error(403, "cross-site request refused")
        profile = server.profile
        if profile is None:
            return JSONResponse({"enabled": False}, headers=SECURITY_HEADERS)
        try:
            name = clean_name(request.query_params.get("name", ""))
        except BadMessage as e:
            return _error(400, str(e))
        games = list(server.games.TABLES)
        try:  # in a worker thread: a locked database holds up no other request
            loop = asyncio.get_running_loop()
            summary = await loop.run_in_executor(
                server.profile_thread, profile.summary, name, games
            )
        except sqlite3.Error:
            return _error(503, "the profile is busy (another program holds it); try again")
        return JSONResponse({"enabled": True, **summary}, headers=SECURITY_HEADERS)

    async def _in_profile(fn: Any, *args: Any) -> Response:
        """Runs ``fn(*args)`` on the profile's thread; its answer as JSON (503 when busy)."""
        try:
            loop = asyncio.get_running_loop()
            out = await loop.run_in_executor(server.profile_thread, fn, *args)
        except SettingsError as e:
            return _error(e.status, str(e))
        except sqlite3.Error:
            return _error(503, "the profile is busy (another program holds it); try again")
        return JSONResponse({"enabled": True, **out}, headers=SECURITY_HEADERS)

    async def api_daily(request: Request) -> Response:
        if not _same_origin(request):
            return _error(403, "cross-site request refused")
        if server.profile is None:
            return JSONResponse({"enabled": False}, headers=SECURITY_HEADERS)
        try:
            name = clean_name(request.query_params.get("name", ""))
        except BadMessage as e:
            return _error(400, str(e))
        return await _in_profile(server.profile.daily, name, list(server.games.TABLES))

    async def api_leaderboard(request: Request) -> Response:
        if not _same_origin(request):
            return _error(403, "cross-site request refused")
        if server.profile is None:
            return JSONResponse({"enabled": False}, headers=SECURITY_HEADERS)
        game = request.query_params.get("game", "")
        if game not in server.games.TABLES:
            return _error(400, "unknown game")
        return await _in_profile(server.profile.ratings, game)

    async def api_settings(request: Request) -> Response:
        if not _same_origin(request):
            return _error(403, "cross-site request refused")
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _error(415, "send JSON")
        body = await _read_body(request, MAX_BODY_BYTES)
        if body is None:
            return _error(413, "request too large")
        if server.profile is None:
            return JSONResponse({"enabled": False}, headers=SECURITY_HEADERS)
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            return _error(400, "send a JSON object")
        if not isinstance(data, dict):
            return _error(400, "send a JSON object")
        try:
            name = clean_name(data.pop("name", ""))
        except BadMessage as e:
            return _error(400, str(e))
        return await _in_profile(_settings_answer, server.profile, name, data)

    async def ws_table(ws: WebSocket) -> None:
        if not _same_origin(ws) or server.unjoined >= server.config.max_unjoined:
            await ws.close(code=1008 if server.unjoined < server.config.max_unjoined else 1013)
            return
        await ws.accept()
        conn = Connection(rate=server.config.message_rate, burst=server.config.message_burst)
        eager = _Eager(ws)
        conn.send_now = eager.send
        writer = asyncio.create_task(_write(ws, conn, eager))
        strikes = 0
        tasks: set[asyncio.Task[None]] = set()
        server.unjoined += 1
        joined = False
        join_by = time.monotonic() + server.config.join_seconds
        try:
            while not conn.closed:
                if not joined and conn.room is not None:
                    joined = True
                    server.unjoined -= 1
                try:
                    if joined:
                        frame = await ws.receive()
                    else:
                        left = max(0.0, join_by - time.monotonic())
                        frame = await asyncio.wait_for(ws.receive(), left)
                except TimeoutError:
                    conn.close("no seat taken in time")
                    break
                if frame["type"] == "websocket.disconnect":
                    break
                data = frame.get("text")
                if data is None:
                    data = frame.get("bytes") or b""
                if not conn.bucket.allow(time.monotonic()):
                    strikes += 1
                    conn.push({"type": "error", "message": "too many messages; slow down"})
                    if strikes >= _STRIKES_BEFORE_CLOSE:
                        conn.close("too many messages")
                    continue
                msg: Message | None = None
                try:
                    msg = parse_message(data)
                    _handle(server.lobby, conn, msg)
                    if msg.type in ("join", "resume") and conn.seat is not None:
                        task = asyncio.create_task(_avatar(server, conn))
                        tasks.add(task)  # kept until done (the loop holds tasks weakly)
                        task.add_done_callback(tasks.discard)
                except (BadMessage, CardcoreError) as e:
                    reply: dict[str, Any] = {"type": "error", "message": str(e)}
                    if msg is not None and msg.seq is not None:
                        reply["seq"] = msg.seq
                    conn.push(reply)
        except WebSocketDisconnect:
            pass
        finally:
            if not joined:
                server.unjoined -= 1
            if conn.room is not None:
                conn.room.detach(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await writer

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server.restore_rooms()
        tasks = [
            asyncio.create_task(_sweep(server.lobby)),
            asyncio.create_task(_keep(server, server.config.save_every)),
        ]
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await server.save_rooms(everything=True)  # before the rooms close
            await server.lobby.close()
            server.store_thread.shutdown(wait=True)
            server.profile_thread.shutdown(wait=True)

    app = Starlette(
        middleware=[
            Middleware(_Guard, allowed=server.config.allowed_hosts),
            Middleware(GZipMiddleware, minimum_size=1024, compresslevel=6),
        ],
        routes=[
            Route("/", index),
            Route("/api/games", api_games),
            Route("/api/rooms", api_rooms, methods=["POST"]),
            Route("/api/profile", api_profile),
            Route("/api/daily", api_daily),
            Route("/api/leaderboard", api_leaderboard),
            Route("/api/settings", api_settings, methods=["POST"]),
            WebSocketRoute("/ws", ws_table),
            Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    return app


def _settings_answer(profile: Profile, name: str, change: dict[str, Any]) -> dict[str, Any]:
    return {"settings": profile.set_settings(name, change)}


def _handle(lobby: Lobby, conn: Connection, msg: Message) -> None:
    """Acts on one valid message (raises RoomError / IllegalMoveError to refuse it)."""
    if msg.type == "ping":
        conn.push({"type": "pong", "seq": msg.seq})
        return
    if msg.type in ("join", "resume"):
        if conn.seat is not None:
            raise RoomError("this page already has a seat")
        assert msg.room is not None
        room = lobby.get(msg.room)
        if msg.type == "join":
            assert msg.name is not None
            seat = room.join(msg.name)
        else:
            assert msg.token is not None
            seat = room.seat_for(msg.token)
        conn.push({"type": "welcome", "room": room.id, "seat": seat.index, "token": seat.token})
        room.attach(seat, conn)
        return
    if conn.room is None or conn.seat is None:
        raise RoomError("join a room first")
    room, seat = conn.room, conn.seat
    if msg.type == "move":
        assert msg.move is not None
        room.move(seat, msg.move, conn, msg.seq)
    elif msg.type == "start":
        room.start(seat)
    elif msg.type == "next":
        room.proceed(seat)
    elif msg.type == "hand":
        assert msg.seat is not None
        room.hand(seat, msg.seat)
    elif msg.type == "rematch":
        lobby.rematch(room, seat)


async def _avatar(server: _Server, conn: Connection) -> None:
    """Shows the avatar of the person who just took a seat (from their profile settings) to
    everyone at the table."""
    room, seat = conn.room, conn.seat
    if server.profile is None or room is None or seat is None:
        return
    loop = asyncio.get_running_loop()
    try:
        settings = await loop.run_in_executor(
            server.profile_thread, server.profile.settings, seat.name
        )
    except sqlite3.Error:
        return
    avatar = settings.get("avatar")
    if isinstance(avatar, str) and avatar != seat.avatar:
        seat.avatar = avatar
        room.broadcast()


class _Eager:
    """Sends a message in the caller's own step when the server can take it at once (the
    usual case: ASGI servers finish a send without waiting unless the socket's buffer is
    full), sparing the writer task's wake-up; a send that must wait is finished by a task of
    its own, which the writer waits for before anything else (:attr:`inflight`)."""

    __slots__ = ("inflight", "ws")

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.inflight: asyncio.Future[None] | None = None

    def send(self, text: str) -> bool:
        if self.inflight is not None:
            if not self.inflight.done():
                return False
            self.inflight = None
        coro = self.ws.send_text(text)
        try:
            waiting = coro.send(None)
        except StopIteration:
            return True
        except Exception:  # the socket is going: the writer meets the same error and stops
            return False
        self.inflight = asyncio.ensure_future(_finish(coro, waiting))
        return True


async def _finish(coro: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Runs a send coroutine stopped at its first wait (``waiting``, what it yielded) to its
    end, as a task would have."""
    with contextlib.suppress(StopIteration, Exception):
        while True:
            if isinstance(waiting, asyncio.Future):
                await asyncio.wait([waiting])
            else:
                await asyncio.sleep(0)
            waiting = coro.send(None)


async def _write(ws: WebSocket, conn: Connection, eager: _Eager) -> None:
    """Sends the connection's outbox until it is closed (after a send :class:`_Eager` left
    waiting)."""
    with contextlib.suppress(Exception):
        while True:
            text = await conn.outbox.get()
            conn.busy = True
            if eager.inflight is not None:
                await eager.inflight
                eager.inflight = None
            if text is None:
                await ws.close(code=1000 if not conn.close_reason else 1008)
                return
            await ws.send_text(text)
            conn.busy = False


async def _keep(server: _Server, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        await server.save_rooms()


async def _sweep(lobby: Lobby, every: float = 60.0) -> None:
    while True:
        await asyncio.sleep(every)
        n = await lobby.sweep()
        if n:
            log.info("closed %d idle rooms", n)
