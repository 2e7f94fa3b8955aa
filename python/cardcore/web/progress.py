"""Achievements, quests, levels, collections and settings, all computed from a person's results.

Nothing here keeps state: :func:`progress` reads the rows of the profile (each finished game
with its :func:`~cardcore.web.feats.facts`) and answers where the person stands. Experience
points (XP): 20 a finished game, 20 more for a win, 10 more at ``hard`` and 20 at ``expert``;
50 a daily challenge met; 100 an achievement; 50 a quest. Level ``L`` starts at
``50 * L * (L - 1)`` XP (level 2 at 100, 3 at 300, 4 at 600, 5 at 1000).

Collections (table themes, card backs, avatars) unlock by level or achievement; the settings
(:data:`DEFAULT_SETTINGS`) choose among the unlocked items, and :func:`validate_settings`
refuses unknown keys, unknown items and locked ones.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardcore.errors import CardcoreError
from cardcore.web.feats import objective_for

__all__ = [
    "ACHIEVEMENTS",
    "COLLECTIONS",
    "DEFAULT_SETTINGS",
    "QUESTS",
    "Goal",
    "Item",
    "Row",
    "SettingsError",
    "level_of",
    "progress",
    "validate_settings",
]

GAME_TITLES: Final = {
    "three-thirteen": "Three-Thirteen",
    "spite-malice": "Spite & Malice",
    "nerts": "Nerts",
}
HARD_LEVELS: Final = ("hard", "expert")


@dataclass(frozen=True, slots=True)
class Row:
    """One finished game of a person (a row of the profile)."""

    game: str
    level: str
    won: bool
    daily: _dt.date | None
    facts: Mapping[str, Any]


def against_ai(r: Row) -> bool:
    """Whether AIs played in ``r``'s game (``ai_seats``; rows kept before it was: yes), so
    its AI level counts."""
    return bool(r.facts.get("ai_seats", 1))


def met_days(rows: Sequence[Row]) -> set[tuple[str, _dt.date]]:
    """``(game, day)`` of each daily challenge met: a daily game whose facts meet the
    objective of its day."""
    out = set()
    for r in rows:
        if r.daily is None:
            continue
        obj = objective_for(r.game, r.daily)
        if obj is not None and obj.check(r.facts):
            out.add((r.game, r.daily))
    return out


def longest_run(days: set[_dt.date]) -> int:
    """The most consecutive days in ``days``."""
    best = 0
    for d in days:
        if d - _dt.timedelta(days=1) in days:
            continue
        n = 1
        while d + _dt.timedelta(days=n) in days:
            n += 1
        best = max(best, n)
    return best


@dataclass(frozen=True, slots=True)
class Goal:
    """An achievement or quest: ``count`` of the rows, done at ``goal``."""

    id: str
    name: str
    text: str
    goal: int
    count: Callable[[Sequence[Row]], int]


def _count(pred: Callable[[Row], bool]) -> Callable[[Sequence[Row]], int]:
    return lambda rows: sum(1 for r in rows if pred(r))


ACHIEVEMENTS: Final[tuple[Goal, ...]] = (
    Goal("first_game", "First hand", "Finish a game", 1, len),
    Goal(
        "win_hard",
        "Giant slayer",
        "Win a game against hard or expert AIs",
        1,
        _count(lambda r: r.won and r.level in HARD_LEVELS and against_ai(r)),
    ),
    Goal(
        "beat_expert",
        "Expert beater",
        "Win a game against expert AIs",
        1,
        _count(lambda r: r.won and r.level == "expert" and against_ai(r)),
    ),
    Goal(
        "perfect_eleven",
        "Clean sweep",
        "Three-Thirteen: meld every card in round 11",
        1,
        _count(lambda r: r.game == "three-thirteen" and bool(r.facts.get("clean_last"))),
    ),
    Goal(
        "nerts_pile_3",
        "Nerts! Nerts! Nerts!",
        "Empty your Nerts pile (call Nerts) three times",
        3,
        lambda rows: sum(int(r.facts.get("calls", 0)) for r in rows if r.game == "nerts"),
    ),
    Goal(
        "tidy_sides",
        "Tidy stacks",
        "Win a Spite & Malice game without a side stack above 4 cards",
        1,
        lambda rows: sum(int(r.facts.get("tidy_wins", 0)) for r in rows),
    ),
    Goal("daily_3", "Regular", "Meet 3 daily challenges", 3, lambda rows: len(met_days(rows))),
    Goal(
        "streak_7",
        "A week of deals",
        "Play a daily deal 7 days in a row",
        7,
        lambda rows: longest_run({r.daily for r in rows if r.daily is not None}),
    ),
    Goal(
        "all_rounder",
        "All-rounder",
        "Win a game of each of the three games",
        3,
        lambda rows: len({r.game for r in rows if r.won and r.game in GAME_TITLES}),
    ),
)

QUESTS: Final[tuple[Goal, ...]] = (
    *(
        Goal(
            f"play_5_{game}",
            f"{title} regular",
            f"Play 5 games of {title}",
            5,
            _count(lambda r, g=game: r.game == g),  # type: ignore[misc]
        )
        for game, title in GAME_TITLES.items()
    ),
    Goal("win_10", "Ten wins", "Win 10 games", 10, _count(lambda r: r.won)),
    Goal(
        "daily_each",
        "Daily tour",
        "Play the daily deal of every game",
        3,
        lambda rows: len({r.game for r in rows if r.daily is not None and r.game in GAME_TITLES}),
    ),
    Goal(
        "hard_3",
        "Up the ladder",
        "Play 3 games against hard or expert AIs",
        3,
        _count(lambda r: r.level in HARD_LEVELS and against_ai(r)),
    ),
)

XP_GAME: Final = 20
XP_WIN: Final = 20
XP_LEVEL: Final = {"hard": 10, "expert": 20}
XP_CHALLENGE: Final = 50
XP_ACHIEVEMENT: Final = 100
XP_QUEST: Final = 50


def level_floor(level: int) -> int:
    """The XP at which ``level`` starts."""
    return 50 * level * (level - 1)


def level_of(xp: int) -> dict[str, int]:
    """``{"level", "xp", "floor", "next"}``: the level of ``xp`` and where it starts and ends."""
    level = 1
    while level_floor(level + 1) <= xp:
        level += 1
    return {"level": level, "xp": xp, "floor": level_floor(level), "next": level_floor(level + 1)}


@dataclass(frozen=True, slots=True)
class Item:
    """A collection item: unlocked from the start (both ``None``), at a level, or by an
    achievement."""

    collection: str
    id: str
    name: str
    level: int | None = None
    achievement: str | None = None

    @property
    def how(self) -> str:
        if self.level is not None:
            return f"Reach level {self.level}"
        if self.achievement is not None:
            goal = next(a for a in ACHIEVEMENTS if a.id == self.achievement)
            return f"Achievement: {goal.name} ({goal.text})"
        return "Yours from the start"

    def unlocked(self, level: int, achieved: set[str]) -> bool:
        if self.level is not None:
            return level >= self.level
        if self.achievement is not None:
            return self.achievement in achieved
        return True


COLLECTIONS: Final[dict[str, tuple[Item, ...]]] = {
    "themes": (
        Item("themes", "green", "Green felt"),
        Item("themes", "blue", "Blue felt", level=2),
        Item("themes", "burgundy", "Burgundy felt", level=3),
        Item("themes", "slate", "Slate", level=5),
        Item("themes", "wood", "Oak table", achievement="win_hard"),
        Item("themes", "night", "Night sky", achievement="daily_3"),
    ),
    "card_backs": (
        Item("card_backs", "classic", "Classic"),
        Item("card_backs", "lattice", "Lattice", level=2),
        Item("card_backs", "waves", "Waves", level=4),
        Item("card_backs", "sunburst", "Sunburst", level=6),
        Item("card_backs", "stars", "Stars", achievement="perfect_eleven"),
        Item("card_backs", "tartan", "Tartan", achievement="beat_expert"),
    ),
    "avatars": (
        Item("avatars", "fox", "Fox"),
        Item("avatars", "owl", "Owl"),
        Item("avatars", "cat", "Cat"),
        Item("avatars", "bear", "Bear", level=2),
        Item("avatars", "rabbit", "Rabbit", level=3),
        Item("avatars", "hedgehog", "Hedgehog", level=4),
        Item("avatars", "otter", "Otter", achievement="nerts_pile_3"),
        Item("avatars", "crow", "Crow", achievement="tidy_sides"),
        Item("avatars", "lion", "Lion", achievement="beat_expert"),
    ),
}
SETTING_COLLECTION: Final = {"theme": "themes", "card_back": "card_backs", "avatar": "avatars"}
DEFAULT_SETTINGS: Final[dict[str, Any]] = {
    "theme": "green",
    "card_back": "classic",
    "avatar": "fox",
    "large_print": False,
    "mute": False,
}


def progress(rows: Sequence[Row]) -> dict[str, Any]:
    """Where a person stands: ``level``, ``achievements`` and ``quests`` (``id``, ``name``,
    ``text``, ``progress``, ``goal``, ``done``), ``challenges`` (the ``(game, day)`` met),
    ``collections`` (each item with ``unlocked`` and ``how``) and ``unlocked`` (``(collection,
    id)`` pairs)."""

    def goals(defs: Sequence[Goal]) -> list[dict[str, Any]]:
        out = []
        for g in defs:
            n = min(g.count(rows), g.goal)
            out.append(
                {
                    "id": g.id,
                    "name": g.name,
                    "text": g.text,
                    "progress": n,
                    "goal": g.goal,
                    "done": n >= g.goal,
                }
            )
        return out

    achievements, quests = goals(ACHIEVEMENTS), goals(QUESTS)
    challenges = met_days(rows)
    xp = sum(
        XP_GAME + (XP_WIN if r.won else 0) + (XP_LEVEL.get(r.level, 0) if against_ai(r) else 0)
        for r in rows
    )
    xp += XP_CHALLENGE * len(challenges)
    xp += XP_ACHIEVEMENT * sum(a["done"] for a in achievements)
    xp += XP_QUEST * sum(q["done"] for q in quests)
    level = level_of(xp)
    achieved = {a["id"] for a in achievements if a["done"]}
    collections = {
        name: [
            {
                "id": it.id,
                "name": it.name,
                "unlocked": it.unlocked(level["level"], achieved),
                "how": it.how,
            }
            for it in items
        ]
        for name, items in COLLECTIONS.items()
    }
    return {
        "level": level,
        "achievements": achievements,
        "quests": quests,
        "challenges": challenges,
        "collections": collections,
        "unlocked": {
            (name, it["id"])
            for name, items in collections.items()
            for it in items
            if it["unlocked"]
        },
    }


class SettingsError(CardcoreError, ValueError):
    """Settings refused: ``status`` 400 (unknown key, item or type) or 403 (a locked item)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def validate_settings(
    current: Mapping[str, Any], change: Mapping[str, Any], unlocked: set[tuple[str, str]]
) -> dict[str, Any]:
    """``current`` with ``change`` applied, or :class:`SettingsError` (nothing applied)."""
    out = {**DEFAULT_SETTINGS, **current}
    for key, value in change.items():
        if key not in DEFAULT_SETTINGS:
            raise SettingsError(f"unknown setting {str(key)[:20]!r}")
        if isinstance(DEFAULT_SETTINGS[key], bool):
            if not isinstance(value, bool):
                raise SettingsError(f"{key} must be true or false")
        else:
            collection = SETTING_COLLECTION[key]
            item = next((it for it in COLLECTIONS[collection] if it.id == value), None)
            if item is None:
                raise SettingsError(f"unknown {key} {str(value)[:20]!r}")
            if (collection, item.id) not in unlocked:
                raise SettingsError(f"{item.name} is locked: {item.how}", status=403)
        out[key] = value
    return out
