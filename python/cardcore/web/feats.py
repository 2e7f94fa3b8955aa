"""What a person did in a finished game, read from its record, and the daily objectives.

:func:`facts` reads a finished game's record (the one its replay is saved from) for one seat
and answers a small JSON-ready dict (the profile keeps it with the result). The daily
challenges' objectives (:data:`OBJECTIVES`) and the achievements
(:mod:`cardcore.web.progress`) are checked on these facts only, so every check can be run on
any recorded game.

Facts of every game: ``won``, ``score``, ``margin`` (how far ahead of the best other seat:
positive when ahead, in the game's own points, lower-is-better games counted the right way).
Three-Thirteen: ``went_out`` (rounds the seat went out), ``clean_rounds`` (rounds scored 0),
``clean_last`` (round 11 scored 0: every card melded). Spite & Malice: ``max_side`` (the
largest any of the seat's side stacks grew in the match), ``tidy_games`` (games of the match in
which none grew above 4 cards), ``tidy_wins`` (such games won), ``games_won``. Nerts: ``calls``
(rounds the seat called Nerts: its Nerts pile emptied), ``fastest_call_ms``, ``speed``.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["OBJECTIVES", "TIDY_SIDE", "Objective", "facts", "objective_for"]

TIDY_SIDE: Final = 4
"""A Spite & Malice game is *tidy* for a seat whose side stacks never held more cards."""


def _margin(scores: Sequence[float], seat: int, lower_is_better: bool) -> float:
    others = [s for i, s in enumerate(scores) if i != seat]
    if not others:
        return 0.0
    mine = scores[seat]
    return float(min(others) - mine if lower_is_better else mine - max(others))


def _three_thirteen(record: Mapping[str, Any], seat: int) -> dict[str, Any]:
    rounds = record.get("rounds", [])
    scores = [r["scores"][seat] for r in rounds]
    return {
        "went_out": sum(1 for r in rounds if r.get("went_out") == seat),
        "clean_rounds": sum(1 for s in scores if s == 0),
        "clean_last": len(rounds) >= 11 and scores[10] == 0,
    }


def _side_stacks(moves: Sequence[Sequence[Any]], seat: int) -> int:
    """The largest size any of ``seat``'s side stacks reached, from the move texts
    (``"7h@1>S2"`` discards onto side stack 2, ``"S2>C1"`` plays its top card)."""
    size: dict[str, int] = {}
    top = 0
    for who, text in moves:
        if who != seat:
            continue
        src, _, dst = str(text).partition(">")
        if dst.startswith("S"):
            size[dst] = size.get(dst, 0) + 1
            top = max(top, size[dst])
        if src.startswith("S"):
            size[src] = size.get(src, 0) - 1
    return top


def _spite_malice(record: Mapping[str, Any], seat: int) -> dict[str, Any]:
    games = record.get("games", [])
    peaks = [_side_stacks(g.get("replay", {}).get("moves", []), seat) for g in games]
    tidy = [p <= TIDY_SIDE for p in peaks]
    return {
        "max_side": max(peaks, default=0),
        "tidy_games": sum(tidy),
        "tidy_wins": sum(t and g.get("winner") == seat for t, g in zip(tidy, games, strict=True)),
        "games_won": sum(1 for g in games if g.get("winner") == seat),
    }


def _nerts(record: Mapping[str, Any], seat: int) -> dict[str, Any]:
    calls = [r["duration_ms"] for r in record.get("rounds", []) if r.get("caller") == seat]
    options = record.get("replay", {}).get("options", {})
    return {
        "calls": len(calls),
        "fastest_call_ms": min(calls) if calls else None,
        "speed": options.get("speed"),
    }


_BY_GAME: Final[dict[str, Callable[[Mapping[str, Any], int], dict[str, Any]]]] = {
    "three-thirteen": _three_thirteen,
    "spite-malice": _spite_malice,
    "nerts": _nerts,
}


def facts(
    game: str,
    record: Mapping[str, Any],
    seat: int,
    scores: Sequence[float],
    winner: int | None,
    lower_is_better: bool = False,
) -> dict[str, Any]:
    """What ``seat`` did in the finished game ``record`` of ``game`` (see the module)."""
    out: dict[str, Any] = {
        "won": winner == seat,
        "score": float(scores[seat]),
        "margin": _margin(scores, seat, lower_is_better),
    }
    reader = _BY_GAME.get(game)
    if reader is not None and record:
        out.update(reader(record, seat))
    return out


@dataclass(frozen=True, slots=True)
class Objective:
    """A daily challenge's objective: ``check`` answers whether a game's facts meet it."""

    id: str
    text: str
    check: Callable[[Mapping[str, Any]], bool]

    def public(self) -> dict[str, str]:
        return {"id": self.id, "text": self.text}


def _call_fast(f: Mapping[str, Any]) -> bool:
    ms = f.get("fastest_call_ms")
    return f.get("speed") == "classic" and ms is not None and ms <= 180_000


OBJECTIVES: Final[dict[str, tuple[Objective, ...]]] = {
    "three-thirteen": (
        Objective(
            "margin_20",
            "Win by 20 points or more",
            lambda f: bool(f.get("won")) and f.get("margin", 0) >= 20,
        ),
        Objective("go_out_6", "Go out in 6 rounds or more", lambda f: f.get("went_out", 0) >= 6),
        Objective(
            "clean_last",
            "Meld every card of round 11 (score 0 in it)",
            lambda f: bool(f.get("clean_last")),
        ),
    ),
    "spite-malice": (
        Objective(
            "tidy_sides",
            "Finish a game of the match without a side stack above 4 cards",
            lambda f: f.get("tidy_games", 0) >= 1,
        ),
        Objective("win", "Win the match", lambda f: bool(f.get("won"))),
        Objective(
            "margin_20",
            "Win the match by 20 points or more",
            lambda f: bool(f.get("won")) and f.get("margin", 0) >= 20,
        ),
    ),
    "nerts": (
        Objective("call_fast", "Call Nerts within 3 minutes at Classic speed", _call_fast),
        Objective("calls_2", "Call Nerts in 2 rounds or more", lambda f: f.get("calls", 0) >= 2),
        Objective("win", "Win the match", lambda f: bool(f.get("won"))),
    ),
}
"""Each game's pool of daily objectives (a day takes one in turn, the same for everyone)."""


def objective_for(game: str, day: _dt.date) -> Objective | None:
    """The objective of ``game``'s daily challenge on ``day`` (``None``: a game with none)."""
    pool = OBJECTIVES.get(game)
    if not pool:
        return None
    return pool[day.toordinal() % len(pool)]
