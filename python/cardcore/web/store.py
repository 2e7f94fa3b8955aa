"""Rooms kept across restarts, in SQLite: each room in play as a small JSON document, and
the moves of its game as chunks appended to it.

The file is ``rooms.sqlite3`` in the server's data folder. A room's document holds its setup
(seed included: this file stays on the server), its seats and tokens, and its table's
snapshot (the moves played; :meth:`cardcore.web.tables.Table.snapshot`). A snapshot's *logs*
(:attr:`~cardcore.web.tables.Table.logs`, lists that only grow, such as the moves played) are
not in the document's table (its ``logs`` member gives their lengths): each write adds only
the items appended since the last one, as a chunk (``logs`` table: room, member, first
index, the items as a JSON array), so a write costs what changed, not the match's length.
A chunk that starts at 0 starts its log anew (the chunks written before are dropped).
:meth:`RoomStore.load` puts the documents back together as
:meth:`cardcore.web.rooms.Room.document` made them.

The server writes the rooms that changed about once a second, in one transaction on a worker
thread (never on a move's path), and every room whole on a clean shutdown; finished and
closed rooms are deleted.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

__all__ = ["ROOMS_FILE", "LogChunk", "RoomStore"]

ROOMS_FILE: Final = "rooms.sqlite3"
_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    doc TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS logs (
    room TEXT NOT NULL,
    member TEXT NOT NULL,
    start INTEGER NOT NULL,
    items TEXT NOT NULL,
    PRIMARY KEY (room, member, start)
);
"""

LogChunk = tuple[str, str, int, str]
"""``(room id, snapshot member, index of the first item, the items as a JSON array)``."""


class RoomStore:
    """The saved rooms at ``path`` (created on first use)."""

    def __init__(self, path: Path, *, timeout: float = 5.0) -> None:
        self.path = path
        self.timeout = timeout
        path.parent.mkdir(parents=True, exist_ok=True)
        with self._db() as db:
            db.executescript(_SCHEMA)

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=self.timeout)
        try:
            with db:
                yield db
        finally:
            db.close()

    def write(
        self,
        save: Iterable[tuple[str, str]],
        delete: Iterable[str],
        logs: Iterable[LogChunk] = (),
    ) -> None:
        """Saves ``(room id, document text)`` pairs, appends log chunks (one that starts at 0
        replaces its log) and deletes rooms, in one transaction."""
        with self._db() as db:
            db.executemany("INSERT OR REPLACE INTO rooms (id, doc) VALUES (?, ?)", save)
            for room, member, start, items in logs:
                if start == 0:
                    db.execute("DELETE FROM logs WHERE room = ? AND member = ?", (room, member))
                db.execute(
                    "INSERT OR REPLACE INTO logs (room, member, start, items) VALUES (?, ?, ?, ?)",
                    (room, member, start, items),
                )
            gone = [(r,) for r in delete]
            db.executemany("DELETE FROM rooms WHERE id = ?", gone)
            db.executemany("DELETE FROM logs WHERE room = ?", gone)

    def load(self) -> list[tuple[str, dict[str, Any]]]:
        """Every saved room: ``(id, document)``, its logs put back; unreadable documents
        (and logs that do not add up to the lengths their document gives) are deleted."""
        with self._db() as db:
            rows = db.execute("SELECT id, doc FROM rooms").fetchall()
            chunks = db.execute(
                "SELECT room, member, start, items FROM logs ORDER BY room, member, start"
            ).fetchall()
        logs: dict[str, dict[str, list[tuple[int, str]]]] = {}
        for room, member, start, items in chunks:
            logs.setdefault(room, {}).setdefault(member, []).append((start, items))
        out, unreadable = [], []
        for room_id, text in rows:
            doc = _assemble(text, logs.pop(room_id, {}))
            if doc is None:
                unreadable.append(room_id)
            else:
                out.append((room_id, doc))
        unreadable += logs  # chunks of no room
        if unreadable:
            self.write([], unreadable)
        return out


def _assemble(text: str, logs: dict[str, list[tuple[int, str]]]) -> dict[str, Any] | None:
    """The document ``text`` with its logs put back into its table from ``logs`` (each
    member's chunks in order), or ``None`` when something does not fit."""
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    if not isinstance(doc, dict):
        return None
    lengths = doc.pop("logs", {})
    if not isinstance(lengths, dict) or set(logs) - set(lengths):
        return None
    if not lengths:
        return doc
    table = doc.get("table")
    if not isinstance(table, dict):
        return None
    for member, length in lengths.items():
        items: list[Any] = []
        for start, part in logs.get(member, []):
            if start != len(items):
                return None
            try:
                more = json.loads(part)
            except ValueError:
                return None
            if not isinstance(more, list):
                return None
            items += more
        if len(items) != length:
            return None
        table[member] = items
    return doc
