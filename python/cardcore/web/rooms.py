"""Rooms: who sits where, which browser is connected to which seat, and the room's driver.

A room holds the only copy of its game (a :class:`~cardcore.web.tables.Table`). Seat 0 is the
host who created the room; every other seat is an AI or *open* for a friend who arrives with
the invite link. The room id (in the link) and the seat tokens (kept by each browser, used to
reconnect) are 128+ bit random strings. The game starts when no seat is open, or when the host
lets AIs take the open seats.

Everything here runs on one asyncio event loop, so a room's methods never interleave; each
connection has an outbox drained by its own writer task, and a connection that lets its outbox
fill up is closed rather than allowed to slow the room down.

A browser gets its whole ``state`` once, then ``patch`` messages with only what changed
(:mod:`cardcore.web.patch`). Each seat's view is built once per change of the table, however
many pages show it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, NamedTuple

from cardcore.errors import CardcoreError
from cardcore.games.api import dump
from cardcore.rng import new_seed
from cardcore.web.limits import TokenBucket
from cardcore.web.patch import diffs
from cardcore.web.store import LogChunk
from cardcore.web.tables import Outcome, Table

__all__ = [
    "Connection",
    "Lobby",
    "Room",
    "RoomError",
    "RoomSetup",
    "Seat",
    "TableFactory",
    "Writes",
]

log = logging.getLogger(__name__)

_dump: Final = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
"""Compact JSON of a document or patch (trees built here: no reference cycle to look for)."""
OUTBOX_LIMIT: Final = 256
"""Messages waiting for one browser before it counts as stuck and is disconnected."""
MAX_CONNECTIONS_PER_SEAT: Final = 4
DEFAULT_TURN_SECONDS: Final = 60
MAX_TURN_SECONDS: Final = 3600
SEAT_KINDS: Final = ("ai", "friend")


class RoomError(CardcoreError, ValueError):
    """A request a room refuses (unknown room, full room, bad token, not the host ...)."""


@dataclass(frozen=True, slots=True)
class RoomSetup:
    """How a room was created. ``seats[i]`` is the kind of seat ``i + 1`` (``"ai"`` or
    ``"friend"``); seat 0 is the host. ``agents`` names the built-in agent an AI seat plays
    (one for every seat; ignored for people)."""

    game: str
    players: int
    seats: tuple[str, ...]
    agent: str
    level: str
    options: Mapping[str, Any]
    seed: int
    daily: bool = False
    turn_seconds: int = DEFAULT_TURN_SECONDS
    """How long the table waits for a person who left on their turn before an AI plays for
    them (until they come back); 0: for ever."""

    def public(self) -> dict[str, Any]:
        """What every seat's page is told: never the seed (from which every hidden card of
        the deal follows); it goes only into the replay saved on the server."""
        return {
            "game": self.game,
            "players": self.players,
            "level": self.level,
            "options": dict(self.options),
            "daily": self.daily,
            "turn_seconds": self.turn_seconds,
        }


TableFactory = Callable[[RoomSetup, Sequence[str | None]], Table]
"""Builds the table of a room: the setup and, per seat, the agent name (``None`` = a person)."""


class Connection:
    """One browser's socket as the room sees it: an outbox of JSON texts.

    The server's writer task drains :attr:`outbox`; ``None`` in it means "close". :attr:`sent`
    is the ``state`` document the browser holds (``None`` until it has one). When the server
    sets :attr:`send_now`, a message goes out at once while nothing waits before it (no task
    switch a message); the outbox takes the rest, in order.
    """

    def __init__(self, *, rate: float = 30.0, burst: float = 60.0) -> None:
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.send_now: Callable[[str], bool] | None = None
        """Sends a text at once, or returns False (it then goes to the outbox)."""
        self.busy = False
        """The writer task holds a message it has not finished sending."""
        self.closed = False
        self.close_reason = ""
        self.room: Room | None = None
        self.seat: Seat | None = None
        self.bucket = TokenBucket(rate, burst)
        self.sent: dict[str, Any] | None = None

    def push(self, message: Mapping[str, Any]) -> None:
        """Queues a message (dropped once the connection is closing)."""
        self.push_text(dump(message))

    def push_text(self, text: str) -> None:
        """Queues a message already written as JSON text."""
        if self.closed:
            return
        send = self.send_now
        if send is not None and not self.busy and self.outbox.empty() and send(text):
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close("too slow: messages were not being read")
            return
        self.outbox.put_nowait(text)

    def close(self, reason: str = "") -> None:
        if not self.closed:
            self.closed = True
            self.close_reason = reason
            self.outbox.put_nowait(None)


@dataclass(eq=False, slots=True)
class Seat:
    """One place at the table: ``kind`` is ``"human"``, ``"ai"`` or ``"open"``."""

    index: int
    kind: str
    name: str
    token: str | None = None
    conns: set[Connection] = field(default_factory=set)
    away_since: float = 0.0
    """When the seat's last page went away (monotonic seconds)."""
    stand_in: bool = False
    """An AI plays this person's seat (until they come back, or for good once the host
    handed the seat over: ``kind`` is then ``"ai"``)."""
    avatar: str | None = None
    """The person's avatar from their profile settings (read when a page takes the seat)."""

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "connected": bool(self.conns)}
        if self.stand_in and self.kind == "human":
            out["ai_plays"] = True
        if self.avatar is not None and self.kind == "human":
            out["avatar"] = self.avatar
        return out


def new_token(nbytes: int = 24) -> str:
    """An unguessable URL-safe token (``nbytes`` random bytes)."""
    return secrets.token_urlsafe(nbytes)


class Room:
    """One table and its seats. Use through :class:`Lobby`."""

    def __init__(
        self,
        room_id: str,
        setup: RoomSetup,
        host_name: str,
        factory: TableFactory,
        *,
        clock: Callable[[], float] = time.monotonic,
        on_finish: Callable[[Room, Outcome], Any] | None = None,
        ai_names: Sequence[str] = (),
    ) -> None:
        self.id = room_id
        self.setup = setup
        self.factory = factory
        self.clock = clock
        self.on_finish = on_finish
        self.seats = [Seat(0, "human", host_name, new_token(), away_since=clock())]
        for i, kind in enumerate(setup.seats, start=1):
            if kind not in SEAT_KINDS:
                raise RoomError(f"seat kind must be one of {', '.join(SEAT_KINDS)}, got {kind!r}")
            name = ai_names[i] if i < len(ai_names) else f"AI {i}"
            self.seats.append(Seat(i, "ai" if kind == "ai" else "open", name))
        self.table: Table | None = None
        self.outcome: Outcome | None = None
        self.saved: dict[str, Any] = {}
        self.error: str | None = None
        self.last_active = clock()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.version = 0
        """Counts the table's changes (a seat's view is built once per version)."""
        self._views: dict[int, tuple[int, dict[str, Any]]] = {}
        self._turn: tuple[int | None, float] = (None, 0.0)
        """The person's seat the table waits for, and since when."""
        self._setup_public = setup.public()
        """Built once: the same object in every document, so a diff skips it at once."""
        self.rematch: Room | None = None
        """The room of the rematch, once a person asked for it after the game."""
        self.on_change: Callable[[Room], None] | None = None
        """Called whenever the room changed in a way worth saving (:class:`Lobby` keeps a
        set of the rooms to write)."""

    # -- seats --------------------------------------------------------------------------------

    @property
    def status(self) -> str:
        if self.error is not None:
            return "error"
        if self.outcome is not None:
            return "over"
        return "playing" if self.table is not None else "waiting"

    @property
    def host(self) -> Seat:
        return self.seats[0]

    def join(self, name: str) -> Seat:
        """Gives ``name`` the first open seat (a fresh token), or raises :class:`RoomError`."""
        for seat in self.seats:
            if seat.kind == "open":
                seat.kind, seat.name, seat.token = "human", name, new_token()
                self._touch()
                if not any(s.kind == "open" for s in self.seats):
                    self._start()
                else:
                    self.broadcast()
                return seat
        raise RoomError("this room has no open seat")

    def seat_for(self, token: str) -> Seat:
        """The seat whose token is ``token`` (compared in constant time)."""
        for seat in self.seats:
            if seat.token is not None and hmac.compare_digest(seat.token, token):
                return seat
        raise RoomError("that seat token does not belong to this room")

    def attach(self, seat: Seat, conn: Connection) -> None:
        if len(seat.conns) >= MAX_CONNECTIONS_PER_SEAT:
            raise RoomError("this seat already has too many open pages")
        seat.conns.add(conn)
        conn.room, conn.seat = self, seat
        self.last_active = self.clock()
        self._wake.set()
        if seat.stand_in and seat.kind == "human" and self.table is not None:
            seat.stand_in = False  # back: the AI stops playing for them
            self.table.stand_in(seat.index, False)
            self._changed()
        else:
            self.broadcast()
        if self.rematch is not None:  # a page back after the rematch began: it follows
            self.tell_rematch([seat])

    def tell_rematch(self, seats: Sequence[Seat]) -> None:
        """Tells the pages of ``seats`` (people's) their seat in the rematch room: each gets
        its own seat's token only."""
        new = self.rematch
        assert new is not None
        for seat in seats:
            token = new.seats[seat.index].token
            if seat.kind != "human" or token is None:
                continue
            msg = {"type": "rematch", "room": new.id, "seat": seat.index, "token": token}
            for conn in seat.conns:
                conn.push(msg)

    def detach(self, conn: Connection) -> None:
        seat = conn.seat
        if seat is not None:
            seat.conns.discard(conn)
            self.last_active = self.clock()
            if not seat.conns:
                seat.away_since = self.last_active
            self._wake.set()
            self.broadcast()
        conn.room = conn.seat = None

    @property
    def connections(self) -> int:
        return sum(len(s.conns) for s in self.seats)

    # -- play ---------------------------------------------------------------------------------

    def start(self, seat: Seat) -> None:
        """The host starts now: AIs take the open seats."""
        if seat is not self.host:
            raise RoomError("only the host can start the game")
        if self.table is not None:
            raise RoomError("the game has already started")
        for s in self.seats:
            if s.kind == "open":
                s.kind = "ai"
        self._start()

    def _agents(self) -> list[str | None]:
        """The table's agent per seat (``None``: a person's seat, handed to an AI or not)."""
        return [None if s.kind == "human" or s.stand_in else self.setup.agent for s in self.seats]

    def _start(self, snapshot: Mapping[str, Any] | None = None) -> None:
        self.table = self.factory(self.setup, self._agents())
        if snapshot is not None:
            self.table.restore(snapshot, self.clock())
        self._task = asyncio.get_running_loop().create_task(self._drive())
        self._note_turn()
        self._touch()
        self.broadcast()

    def _touch(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    def document(self) -> dict[str, Any] | None:
        """JSON-ready: the room as :meth:`Lobby.restore` rebuilds it after a restart (seed,
        tokens and all: for the server's own file only), or ``None`` when its table cannot
        be saved."""
        snapshot = self.table.snapshot() if self.table is not None else None
        if self.table is not None and snapshot is None:
            return None
        setup = self.setup
        return {
            "version": 1,
            "setup": {
                "game": setup.game,
                "players": setup.players,
                "seats": list(setup.seats),
                "agent": setup.agent,
                "level": setup.level,
                "options": dict(setup.options),
                "seed": setup.seed,
                "daily": setup.daily,
                "turn_seconds": setup.turn_seconds,
            },
            "seats": [
                {"kind": s.kind, "name": s.name, "token": s.token, "stand_in": s.stand_in}
                for s in self.seats
            ],
            "table": snapshot,
        }

    def hand(self, by: Seat, index: int) -> None:
        """The host gives person's seat ``index`` to an AI for the rest of the game (a friend
        who left, or who no longer plays); that seat's pages are told and disconnected."""
        if by is not self.host:
            raise RoomError("only the host can hand a seat to an AI")
        table = self._playing()
        if not 0 < index < len(self.seats) or self.seats[index].kind != "human":
            raise RoomError("that seat is not a friend's")
        seat = self.seats[index]
        if not (seat.stand_in or table.stand_in(index, True)):
            raise RoomError("an AI cannot take a person's seat in this game")
        seat.kind, seat.token, seat.stand_in = "ai", None, True
        for conn in list(seat.conns):
            conn.push({"type": "error", "message": "the host handed your seat to an AI"})
            conn.close("the host handed your seat to an AI")
        self._changed()

    def _note_turn(self) -> None:
        seat = self.table.turn() if self.table is not None else None
        if seat != self._turn[0]:
            self._turn = (seat, self.clock())

    def away_due(self) -> tuple[int, float] | None:
        """The away seat the table waits for and when an AI starts playing for it: the turn
        timer runs while a person's turn goes on with no page of theirs connected and
        someone else waiting (a table nobody watches is left alone). In a real-time table
        (Nerts) every person's seat with no page connected is away: its timer runs from the
        start of the round or from when its last page left, whichever is later."""
        table = self.table
        if table is None or self.setup.turn_seconds <= 0 or self.status != "playing":
            return None
        if not any(s.conns for s in self.seats if s.kind == "human"):
            return None
        seat, since = self._turn
        if seat is not None:
            away = self.seats[seat]
            return None if away.conns else (seat, max(since, away.away_since) + self.timer)
        live = table.live_since()
        if live is None:
            return None
        due = [
            (max(live, s.away_since) + self.timer, s.index)
            for s in self.seats
            if s.kind == "human" and not s.stand_in and not s.conns
        ]
        return (min(due)[1], min(due)[0]) if due else None

    @property
    def timer(self) -> int:
        return self.setup.turn_seconds

    def _take_over(self, seat: int) -> None:
        assert self.table is not None
        if self.table.stand_in(seat, True):
            self.seats[seat].stand_in = True
            self._changed()

    def _playing(self) -> Table:
        if self.table is None:
            raise RoomError("the game has not started yet")
        if self.outcome is not None:
            raise RoomError("the game is over")
        return self.table

    def move(
        self, seat: Seat, move: int | str, conn: Connection | None = None, seq: int | None = None
    ) -> None:
        """Plays move ``move`` (an id from the view) for ``seat`` (IllegalMoveError: nothing
        changed)."""
        table = self._playing()
        table.act(seat.index, move, self.clock())
        self._changed(ack=(conn, seq) if conn is not None and seq is not None else None)

    def proceed(self, seat: Seat) -> None:
        """``seat`` closed the score sheet."""
        if self._playing().proceed(seat.index, self.clock()):
            self._changed()

    def _changed(self, ack: tuple[Connection, int] | None = None) -> None:
        self.version += 1
        self.last_active = self.clock()
        assert self.table is not None
        self._note_turn()
        self._touch()
        outcome = self.table.outcome
        if outcome is not None and self.outcome is None:
            self.outcome = outcome
            if self.on_finish is not None:
                try:
                    self.saved = dict(self.on_finish(self, outcome) or {})
                except Exception:  # pragma: no cover - saving must not take the room down
                    log.exception("room %s: saving the finished game failed", self.id)
        # the driver has work only when the table is due or a person's timer runs (or the
        # game ended): otherwise waking it would find nothing to do (a table of people only)
        if self.outcome is not None or self.table.due() is not None or self.away_due():
            self._wake.set()
        self.broadcast(ack)

    async def _drive(self) -> None:
        """Runs the table's timed work (AI moves, the Nerts clock) until the game ends; what a
        table can do off the loop (:meth:`Table.think`) runs in a worker thread."""
        table = self.table
        assert table is not None
        try:
            while self.outcome is None and not self._closed:
                due = table.due()
                away = self.away_due()
                self._wake.clear()
                if away is not None and away[1] <= self.clock():
                    self._take_over(away[0])
                    continue
                if away is not None and (due is None or away[1] < due):
                    due = away[1]
                if due is None:
                    await self._wake.wait()
                    continue
                wait = due - self.clock()
                if wait > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), wait)
                    continue
                job = table.think(self.clock())
                if job is None:
                    changed = table.tick(self.clock())
                else:  # an AI thinks in a worker thread; the loop serves everyone meanwhile
                    thought = await asyncio.get_running_loop().run_in_executor(None, job)
                    changed = self.outcome is None and table.conclude(thought, self.clock())
                if changed:
                    self._changed()
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a bug: report it to the players rather than hang
            log.exception("room %s: the table failed", self.id)
            self.error = f"internal error: {type(e).__name__}"
            self.broadcast()

    # -- messages -----------------------------------------------------------------------------

    def snapshot(self, seat: Seat) -> dict[str, Any]:
        """The ``state`` document of ``seat``: the room, and the table as ``seat`` sees it."""
        return self._document(seat, self._room_part(), self._table_views([seat.index])[0])

    def _room_part(self) -> dict[str, Any]:
        """The members of every seat's ``state`` that all seats share."""
        msg: dict[str, Any] = {
            "status": self.status,
            "setup": self._setup_public,
            "seats": [s.public() for s in self.seats],
        }
        if self.outcome is not None:
            msg["result"] = {
                "scores": self.outcome.scores,
                "winner": self.outcome.winner,
                **self.saved,
            }
        if self.error is not None:
            msg["error"] = self.error
        away = self.away_due()
        if away is not None:  # the page counts down from its arrival
            msg["timer"] = {"seat": away[0], "seconds": max(0, round(away[1] - self.clock()))}
        return msg

    def _table_views(self, seats: list[int]) -> list[dict[str, Any] | None]:
        """The table's view of each of ``seats`` (built only when the table changed since)."""
        if self.table is None:
            return [None] * len(seats)
        stale = [s for s in seats if self._views.get(s, (-1,))[0] != self.version]
        if stale:
            for seat, view in zip(stale, self.table.views(stale), strict=True):
                self._views[seat] = (self.version, view)
        return [self._views[s][1] for s in seats]

    def _document(
        self, seat: Seat, room: dict[str, Any], table: dict[str, Any] | None
    ) -> dict[str, Any]:
        return {
            "type": "state",
            "room": self.id,
            "seat": seat.index,
            "host": seat is self.host,
            **room,
            "table": table,
        }

    def broadcast(self, ack: tuple[Connection, int] | None = None) -> None:
        """Brings every connected page up to date: its first ``state`` whole, afterwards a
        ``patch`` of what changed since the last (nothing when nothing did; the page that
        sent a move gets the ``ack`` of it in any case)."""
        seats = [s for s in self.seats if s.conns]
        if not seats:
            return
        room = self._room_part()
        views = self._table_views([s.index for s in seats])
        sends: list[tuple[Connection, dict[str, Any], int]] = []  # page, document, its pair
        pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
        index: dict[tuple[int, int], int] = {}  # pages that held the same document: one diff
        for seat, view in zip(seats, views, strict=True):
            doc = self._document(seat, room, view)
            for conn in seat.conns:
                if conn.sent is None:
                    sends.append((conn, doc, -1))
                    continue
                key = (id(conn.sent), id(doc))
                i = index.get(key)
                if i is None:
                    i = index[key] = len(pairs)
                    pairs.append((conn.sent, doc))
                sends.append((conn, doc, i))
        patches = diffs(pairs) if pairs else []  # what the documents share is compared once
        texts: dict[int, str] = {}  # the same operations (the same list): one text
        for conn, doc, i in sends:
            acked = ack is not None and ack[0] is conn
            tail = f',"ack":{ack[1]}}}' if ack is not None and acked else "}"
            if i < 0:
                conn.push_text(_dump(doc)[:-1] + tail)
            elif patches[i] or acked:
                ops = patches[i]
                text = texts.get(id(ops))
                if text is None:
                    text = texts[id(ops)] = f'{{"type":"patch","ops":{_dump(ops)}'
                conn.push_text(text + tail)
            conn.sent = doc

    async def close(self) -> None:
        """Stops the driver and disconnects everyone."""
        # the flag too: asyncio.wait_for (3.11) swallows a cancel that meets a wake-up
        self._closed = True
        self._wake.set()
        for seat in self.seats:
            for conn in list(seat.conns):
                conn.close("the room was closed")
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class Writes(NamedTuple):
    """What :meth:`Lobby.pending` gives the room store, in the order of
    :meth:`cardcore.web.store.RoomStore.write`'s arguments: ``(id, document text)`` pairs,
    the ids of rooms to delete, and the log chunks."""

    save: list[tuple[str, str]]
    delete: list[str]
    logs: list[LogChunk]


class Lobby:
    """Every room of a server, by id, with limits on their number and idle life."""

    def __init__(
        self,
        factory: TableFactory,
        *,
        max_rooms: int = 500,
        idle_seconds: float = 4 * 3600,
        clock: Callable[[], float] = time.monotonic,
        on_finish: Callable[[Room, Outcome], Any] | None = None,
    ) -> None:
        self.factory = factory
        self.max_rooms = max_rooms
        self.idle_seconds = idle_seconds
        self.clock = clock
        self.on_finish = on_finish
        self.rooms: dict[str, Room] = {}
        self.dirty: set[str] = set()
        """Rooms changed since they were last saved (ids; a closed room's id too)."""
        self.logged: dict[str, dict[str, int]] = {}
        """Per room, how many items of each of its table's logs the store holds (what
        :meth:`pending` gave it): the next write adds only the items after those."""

    def create(self, setup: RoomSetup, host_name: str, ai_names: Sequence[str] = ()) -> Room:
        """A new room; the host holds seat 0 (its token is ``room.host.token``)."""
        if len(self.rooms) >= self.max_rooms:
            raise RoomError("the server has too many rooms open; try again later")
        room = Room(
            new_token(16),
            setup,
            host_name,
            self.factory,
            clock=self.clock,
            on_finish=self.on_finish,
            ai_names=ai_names,
        )
        self._add(room)
        if not any(s.kind == "open" for s in room.seats):
            room._start()
        return room

    def rematch(self, room: Room, by: Seat) -> Room:
        """The rematch of finished ``room`` (made on the first request): the same game,
        seats, names, level, options and turn timer, a new deal (never the daily deal); each
        person's pages are told their seat in it (:meth:`Room.tell_rematch`)."""
        if room.status != "over":
            raise RoomError("a rematch starts once the game is over")
        if by.kind != "human":
            raise RoomError("only a player can ask for a rematch")
        if room.rematch is None:
            if len(self.rooms) >= self.max_rooms:
                raise RoomError("the server has too many rooms open; try again later")
            setup = replace(room.setup, seed=new_seed(), daily=False)
            new = Room(
                new_token(16),
                setup,
                room.host.name,
                self.factory,
                clock=self.clock,
                on_finish=self.on_finish,
                ai_names=[s.name for s in room.seats],
            )
            for old, seat in zip(room.seats, new.seats, strict=True):
                seat.name = old.name
                seat.kind = "human" if old.kind == "human" else "ai"
                seat.token = (seat.token or new_token()) if seat.kind == "human" else None
            room.rematch = new
            self._add(new)
            new._start()
        room.tell_rematch(room.seats)
        return room.rematch

    def _add(self, room: Room) -> None:
        self.rooms[room.id] = room
        room.on_change = self._mark
        self.dirty.add(room.id)

    def _mark(self, room: Room) -> None:
        self.dirty.add(room.id)

    def restore(self, room_id: str, doc: Mapping[str, Any]) -> Room:
        """Rebuilds a room saved by :meth:`Room.document` (its table replayed to where it
        was); raises (``KeyError``, ``TypeError``, ``ValueError``, ``CardcoreError``) when the
        document does not fit."""
        if doc.get("version") != 1:
            raise RoomError(f"unknown saved room version {doc.get('version')!r}")
        raw = dict(doc["setup"])
        setup = RoomSetup(**{**raw, "seats": tuple(raw["seats"])})
        saved = doc["seats"]
        if len(saved) != setup.players:
            raise RoomError("the saved seats do not fit the room")
        room = Room(
            room_id,
            setup,
            str(saved[0]["name"]),
            self.factory,
            clock=self.clock,
            on_finish=self.on_finish,
            ai_names=[str(s["name"]) for s in saved],
        )
        for seat, s in zip(room.seats, saved, strict=True):
            if s["kind"] not in ("human", "ai", "open"):
                raise RoomError(f"unknown seat kind {s['kind']!r}")
            seat.kind, seat.name, seat.token = s["kind"], str(s["name"]), s["token"]
            seat.stand_in = bool(s["stand_in"])
            seat.away_since = room.last_active
        if doc["table"] is not None:
            room._start(doc["table"])
        self._add(room)
        return room

    def pending(self, everything: bool = False) -> Writes:
        """What to write to the room store (:mod:`cardcore.web.store`): the documents of the
        rooms changed since the last call (all rooms with ``everything``), each table's logs
        as the items added since (whole with ``everything``), and the rooms to delete
        (finished, failed or closed). A room's cost is its document without its logs and
        what it played since the last call, however long its match."""
        if everything:
            self.logged.clear()
        ids = set(self.rooms) | self.dirty if everything else self.dirty
        self.dirty = set()
        out = Writes([], [], [])
        for room_id in ids:
            room = self.rooms.get(room_id)
            doc = (
                room.document()
                if room is not None and room.status in ("waiting", "playing")
                else None
            )
            if doc is None:
                out.delete.append(room_id)
                self.logged.pop(room_id, None)
                continue
            names = room.table.logs if room is not None and room.table is not None else ()
            if names:
                doc["table"] = table = dict(doc["table"])
                held = self.logged.setdefault(room_id, {})
                lengths: dict[str, int] = {}
                for name in names:
                    items = table.pop(name)
                    n = lengths[name] = len(items)
                    start = held.get(name, -1)
                    if start < 0 or start > n:  # new to the store (or shrunk): whole again
                        out.logs.append((room_id, name, 0, _dump(items)))
                    elif n > start:
                        out.logs.append((room_id, name, start, _dump(items[start:])))
                    held[name] = n
                doc["logs"] = lengths
            out.save.append((room_id, _dump(doc)))
        return out

    def unsaved(self, room_ids: Iterable[str]) -> None:
        """The store did not take the writes of ``room_ids``: they are written again, whole,
        next time."""
        for room_id in room_ids:
            self.dirty.add(room_id)
            self.logged.pop(room_id, None)

    def get(self, room_id: str) -> Room:
        try:
            return self.rooms[room_id]
        except KeyError:
            raise RoomError("no such room (it may have ended)") from None

    async def sweep(self) -> int:
        """Closes rooms nobody has been connected to for ``idle_seconds``; returns how many."""
        now = self.clock()
        stale = [
            r
            for r in self.rooms.values()
            if r.connections == 0 and now - r.last_active > self.idle_seconds
        ]
        for room in stale:
            del self.rooms[room.id]
            self.dirty.add(room.id)
            await room.close()
        return len(stale)

    async def close(self) -> None:
        rooms, self.rooms = list(self.rooms.values()), {}
        for room in rooms:
            await room.close()
