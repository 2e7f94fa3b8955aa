"""The local profile: finished games in SQLite, with stats, a leaderboard and daily streaks.

One row per person per finished game (AI seats are not recorded). The file lives in the
user's data folder (``$XDG_DATA_HOME/cardcore/profile.sqlite3``, by default
``~/.local/share/cardcore/``; ``%APPDATA%\\cardcore`` on Windows) unless a path is given.
"""

from __future__ import annotations

import datetime as _dt
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

__all__ = ["Profile", "default_profile_path"]

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY,
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    level TEXT NOT NULL,
    won INTEGER NOT NULL,
    score REAL NOT NULL,
    lower_is_better INTEGER NOT NULL,
    daily TEXT,
    finished TEXT NOT NULL,
    replay TEXT
);
CREATE INDEX IF NOT EXISTS results_player ON results (player, game);
"""


def default_profile_path() -> Path:
    """Where the profile is kept when ``cardcore serve`` is given no ``--profile``."""
    if os.name == "nt" and os.environ.get("APPDATA"):
        base = Path(os.environ["APPDATA"])
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "cardcore" / "profile.sqlite3"


class Profile:
    """The results database at ``path`` (created on first use)."""

    def __init__(self, path: str | Path, *, timeout: float = 5.0) -> None:
        self.path = Path(path)
        self.timeout = timeout
        """Seconds to wait for a database another connection holds locked."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
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

    def record(
        self,
        player: str,
        game: str,
        level: str,
        *,
        won: bool,
        score: float,
        lower_is_better: bool,
        daily: _dt.date | None = None,
        replay: str | None = None,
        when: _dt.datetime | None = None,
    ) -> None:
        """Adds one finished game of ``player``."""
        t = when if when is not None else _dt.datetime.now(_dt.UTC)
        with self._db() as db:
            db.execute(
                "INSERT INTO results (player, game, level, won, score, lower_is_better, daily,"
                " finished, replay) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    player,
                    game,
                    level,
                    int(won),
                    float(score),
                    int(lower_is_better),
                    daily.isoformat() if daily is not None else None,
                    t.isoformat(timespec="seconds"),
                    replay,
                ),
            )

    def stats(self, player: str) -> list[dict[str, Any]]:
        """Per game and AI level: games played, won, and the best score."""
        with self._db() as db:
            rows = db.execute(
                "SELECT game, level, COUNT(*), SUM(won),"
                " CASE WHEN MAX(lower_is_better) = 1 THEN MIN(score) ELSE MAX(score) END"
                " FROM results WHERE player = ? GROUP BY game, level ORDER BY game, level",
                (player,),
            ).fetchall()
        return [
            {"game": g, "level": lv, "played": n, "won": int(w), "best": best}
            for g, lv, n, w, best in rows
        ]

    def leaderboard(self, game: str | None = None, limit: int = 20) -> list[dict[str, Any]]:
        """Local players ranked by games won, then by win rate."""
        where, args = ("WHERE game = ?", (game,)) if game else ("", ())
        with self._db() as db:
            rows = db.execute(
                f"SELECT player, COUNT(*), SUM(won) FROM results {where} GROUP BY player"
                " ORDER BY SUM(won) DESC, 1.0 * SUM(won) / COUNT(*) DESC, player LIMIT ?",
                (*args, limit),
            ).fetchall()
        return [{"player": p, "played": n, "won": int(w)} for p, n, w in rows]

    def daily_streak(self, player: str, game: str, today: _dt.date | None = None) -> int:
        """Consecutive days, up to today (or up to yesterday while today's deal is still
        unplayed), on which ``player`` finished ``game``'s daily deal."""
        day = today if today is not None else _dt.datetime.now(_dt.UTC).date()
        with self._db() as db:
            done = {
                _dt.date.fromisoformat(d)
                for (d,) in db.execute(
                    "SELECT DISTINCT daily FROM results"
                    " WHERE player = ? AND game = ? AND daily IS NOT NULL",
                    (player, game),
                )
            }
        if day not in done:
            day -= _dt.timedelta(days=1)
        streak = 0
        while day in done:
            streak += 1
            day -= _dt.timedelta(days=1)
        return streak

    def summary(self, player: str, games: list[str]) -> dict[str, Any]:
        """Everything the profile panel shows for ``player``."""
        return {
            "player": player,
            "stats": self.stats(player),
            "streaks": {g: self.daily_streak(player, g) for g in games},
            "leaderboard": self.leaderboard(),
        }
