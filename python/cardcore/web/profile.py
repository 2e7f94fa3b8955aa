"""The local profile: finished games in SQLite, with stats, a leaderboard, daily streaks and
challenges, achievements, quests, levels (:mod:`cardcore.web.progress`) and settings.

One row per person per finished game (AI seats are not recorded), with what the person did in
it (its ``facts``, :func:`cardcore.web.feats.facts`); the ``earned`` table remembers when each
achievement, quest, challenge, level and collection item was first earned (so each is
announced once), the ``settings`` table each person's chosen theme, card back, avatar, ...
The file lives in the user's data folder (``$XDG_DATA_HOME/cardcore/profile.sqlite3``, by default
``~/.local/share/cardcore/``; ``%APPDATA%\\cardcore`` on Windows) unless a path is given.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from cardcore.web.feats import objective_for
from cardcore.web.progress import (
    COLLECTIONS,
    DEFAULT_SETTINGS,
    Row,
    SettingsError,
    progress,
    validate_settings,
)

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
CREATE TABLE IF NOT EXISTS earned (
    player TEXT NOT NULL,
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (player, kind, id)
);
CREATE TABLE IF NOT EXISTS settings (
    player TEXT PRIMARY KEY,
    doc TEXT NOT NULL
);
"""
AI_START: Final = {"easy": 800.0, "normal": 1000.0, "hard": 1200.0, "expert": 1400.0}
"""Leaderboard ratings the AI levels start from (people start at 1000)."""
ELO_K: Final = 32.0


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
            columns = {row[1] for row in db.execute("PRAGMA table_info(results)")}
            if "facts" not in columns:  # a profile written before the facts were kept
                db.execute("ALTER TABLE results ADD COLUMN facts TEXT")

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
        facts: Mapping[str, Any] | None = None,
    ) -> None:
        """Adds one finished game of ``player`` (``facts``: what they did in it)."""
        t = when if when is not None else _dt.datetime.now(_dt.UTC)
        with self._db() as db:
            db.execute(
                "INSERT INTO results (player, game, level, won, score, lower_is_better, daily,"
                " finished, replay, facts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    json.dumps(dict(facts)) if facts is not None else None,
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

    def rows(self, player: str) -> list[Row]:
        """``player``'s finished games, oldest first, with their facts."""
        with self._db() as db:
            found = db.execute(
                "SELECT game, level, won, score, daily, facts FROM results WHERE player = ?"
                " ORDER BY id",
                (player,),
            ).fetchall()
        out = []
        for game, level, won, score, daily, facts in found:
            f = _facts(facts)
            out.append(
                Row(
                    game,
                    level,
                    bool(won),
                    _dt.date.fromisoformat(daily) if daily else None,
                    {"won": bool(won), "score": score, **f},
                )
            )
        return out

    def _earned(self, player: str) -> dict[tuple[str, str], str]:
        with self._db() as db:
            return {
                (k, i): at
                for k, i, at in db.execute(
                    "SELECT kind, id, at FROM earned WHERE player = ?", (player,)
                )
            }

    def award(self, player: str, when: _dt.datetime | None = None) -> list[dict[str, Any]]:
        """Notes what ``player`` has earned and not been told yet (achievements, quests,
        daily challenges met, levels, collection items) and answers it, in that order: each
        ``{"kind", "id", "name", "text"}`` (an unlocked item also has ``collection``)."""
        p = progress(self.rows(player))
        known = self._earned(player)
        new: list[dict[str, Any]] = [
            {"kind": kind, "id": g["id"], "name": g["name"], "text": g["text"]}
            for kind, goals in (("achievement", p["achievements"]), ("quest", p["quests"]))
            for g in goals
            if g["done"] and (kind, g["id"]) not in known
        ]
        for game, day in sorted(p["challenges"]):
            key = f"{game}:{day.isoformat()}"
            obj = objective_for(game, day)
            if ("challenge", key) not in known and obj is not None:
                new.append(
                    {"kind": "challenge", "id": key, "name": "Daily challenge", "text": obj.text}
                )
        new += [
            {"kind": "level", "id": str(n), "name": f"Level {n}", "text": ""}
            for n in range(2, p["level"]["level"] + 1)
            if ("level", str(n)) not in known
        ]
        new += [
            {"kind": "unlock", "id": it.id, "collection": name, "name": it.name, "text": it.how}
            for name, items in COLLECTIONS.items()
            for it in items
            if (it.level is not None or it.achievement is not None)
            and (name, it.id) in p["unlocked"]
            and ("unlock", f"{name}:{it.id}") not in known
        ]
        if new:
            t = (when or _dt.datetime.now(_dt.UTC)).isoformat(timespec="seconds")
            with self._db() as db:
                db.executemany(
                    "INSERT OR IGNORE INTO earned (player, kind, id, at) VALUES (?, ?, ?, ?)",
                    [
                        (
                            player,
                            e["kind"],
                            f"{e['collection']}:{e['id']}" if e["kind"] == "unlock" else e["id"],
                            t,
                        )
                        for e in new
                    ],
                )
        return new

    def settings(self, player: str) -> dict[str, Any]:
        """``player``'s settings (defaults for anything unset, unknown or not unlocked)."""
        with self._db() as db:
            row = db.execute("SELECT doc FROM settings WHERE player = ?", (player,)).fetchone()
        try:
            saved = json.loads(row[0]) if row else {}
        except ValueError:
            saved = {}
        if not isinstance(saved, dict):
            saved = {}
        unlocked = progress(self.rows(player))["unlocked"] if saved else set()
        out = dict(DEFAULT_SETTINGS)
        for key, value in saved.items():
            try:
                out = validate_settings(out, {key: value}, unlocked)
            except SettingsError:
                continue
        return out

    def set_settings(self, player: str, change: Mapping[str, Any]) -> dict[str, Any]:
        """Applies ``change`` to ``player``'s settings and answers them all; a refused change
        (:class:`~cardcore.web.progress.SettingsError`) applies nothing."""
        unlocked = progress(self.rows(player))["unlocked"]
        new = validate_settings(self.settings(player), change, unlocked)
        with self._db() as db:
            db.execute(
                "INSERT OR REPLACE INTO settings (player, doc) VALUES (?, ?)",
                (player, json.dumps(new)),
            )
        return new

    def daily(
        self, player: str, games: Sequence[str], today: _dt.date | None = None
    ) -> dict[str, Any]:
        """Today's challenge of each game: its objective, whether ``player`` played today's
        deal and met it, and the streaks (days played, days met, in a row)."""
        day = today if today is not None else _dt.datetime.now(_dt.UTC).date()
        rows = self.rows(player)
        met = progress(rows)["challenges"]
        out = []
        for game in games:
            obj = objective_for(game, day)
            played = {r.daily for r in rows if r.game == game and r.daily is not None}
            out.append(
                {
                    "game": game,
                    "title": _title(game),
                    "objective": obj.public() if obj is not None else None,
                    "played": day in played,
                    "met": (game, day) in met,
                    "streak": _streak(played, day),
                    "challenge_streak": _streak({d for g, d in met if g == game}, day),
                }
            )
        return {"date": day.isoformat(), "challenges": out}

    def ratings(self, game: str) -> dict[str, Any]:
        """The leaderboard of ``game``: people and AI levels ranked by an Elo rating over the
        recorded games in order (each person's game counts as a match against the room's AI
        level; games without AIs are not rated)."""
        with self._db() as db:
            found = db.execute(
                "SELECT player, level, won, facts FROM results WHERE game = ? ORDER BY id",
                (game,),
            ).fetchall()
        rating: dict[tuple[str, str], float] = {}
        tally: dict[tuple[str, str], dict[str, Any]] = {}
        for player, level, won, facts in found:
            if not _facts(facts).get("ai_seats", 1):
                continue  # people only: no AI level to rate against
            me, ai = ("person", player), ("ai", level)
            rating.setdefault(me, 1000.0)
            rating.setdefault(ai, AI_START.get(level, 1000.0))
            expect = 1.0 / (1.0 + math.pow(10.0, (rating[ai] - rating[me]) / 400.0))
            delta = ELO_K * ((1.0 if won else 0.0) - expect)
            rating[me] += delta
            rating[ai] -= delta
            t = tally.setdefault(me, {"played": 0, "won": 0, "by_level": {}})
            t["played"] += 1
            t["won"] += int(won)
            lv = t["by_level"].setdefault(level, {"played": 0, "won": 0})
            lv["played"] += 1
            lv["won"] += int(won)
            a = tally.setdefault(ai, {"played": 0, "won": 0})
            a["played"] += 1
            a["won"] += int(not won)
        ranking = []
        for (kind, name), r in rating.items():
            entry: dict[str, Any] = {
                "name": name if kind == "person" else f"AI {name}",
                "kind": kind,
                "rating": round(r),
                **tally[(kind, name)],
            }
            if kind == "ai":
                entry["level"] = name
            ranking.append(entry)
        ranking.sort(key=lambda e: (-e["rating"], e["name"]))
        return {"game": game, "ranking": ranking}

    def summary(self, player: str, games: list[str]) -> dict[str, Any]:
        """Everything the profile panel shows for ``player``."""
        p = progress(self.rows(player))
        earned = self._earned(player)
        return {
            "player": player,
            "stats": self.stats(player),
            "streaks": {g: self.daily_streak(player, g) for g in games},
            "leaderboard": self.leaderboard(),
            "level": p["level"],
            "achievements": [
                {**a, "earned_at": earned.get(("achievement", a["id"]))} for a in p["achievements"]
            ],
            "quests": p["quests"],
            "settings": self.settings(player),
            "collections": p["collections"],
        }


def _facts(text: str | None) -> dict[str, Any]:
    """A row's facts (``{}`` for none or unreadable ones)."""
    try:
        f = json.loads(text) if text else {}
    except ValueError:
        return {}
    return f if isinstance(f, dict) else {}


def _title(game: str) -> str:
    from cardcore.games.base import get_game

    try:
        return str(get_game(game).title)
    except Exception:
        return game


def _streak(days: set[_dt.date], today: _dt.date) -> int:
    """Days in ``days`` in a row up to ``today`` (or up to yesterday when today is not in)."""
    day = today if today in days else today - _dt.timedelta(days=1)
    n = 0
    while day in days:
        n += 1
        day -= _dt.timedelta(days=1)
    return n
