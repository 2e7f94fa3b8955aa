"""Rooms kept across restarts: each room in play as one JSON document in SQLite.

The file is ``rooms.sqlite3`` in the server's data folder. A room's document holds its setup
(seed included: this file stays on the server), its seats and tokens, and its table's
snapshot (the moves played; :meth:`cardcore.web.tables.Table.snapshot`). The server writes
the rooms that changed about once a second, in one transaction on a worker thread (never on a
move's path), and every room on a clean shutdown; finished and closed rooms are deleted.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

__all__ = ["ROOMS_FILE", "RoomStore"]

ROOMS_FILE: Final = "rooms.sqlite3"
_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    doc TEXT NOT NULL
);
"""


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

    def write(self, save: Iterable[tuple[str, str]], delete: Iterable[str]) -> None:
        """Saves ``(room id, document text)`` pairs and deletes rooms, in one transaction."""
        with self._db() as db:
            db.executemany("INSERT OR REPLACE INTO rooms (id, doc) VALUES (?, ?)", save)
            db.executemany("DELETE FROM rooms WHERE id = ?", ((r,) for r in delete))

    def load(self) -> list[tuple[str, dict[str, Any]]]:
        """Every saved room: ``(id, document)``; unreadable documents are deleted."""
        with self._db() as db:
            rows = db.execute("SELECT id, doc FROM rooms").fetchall()
        out, unreadable = [], []
        for room_id, text in rows:
            try:
                doc = json.loads(text)
            except ValueError:
                doc = None
            if isinstance(doc, dict):
                out.append((room_id, doc))
            else:
                unreadable.append(room_id)
        if unreadable:
            self.write([], unreadable)
        return out
