"""End-of-run statistics: wins per seat and per agent with 95% intervals, score spread, speed."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Summary", "Tally", "wilson"]


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score 95% interval of a proportion (``(0, 0)`` when ``n == 0``)."""
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Tally:
    """Running results of one seat or one agent (Welford mean/variance of scores)."""

    games: int = 0
    wins: float = 0.0
    mean: float = 0.0
    m2: float = 0.0

    def add(self, score: float, win: float) -> None:
        self.games += 1
        self.wins += win
        d = score - self.mean
        self.mean += d / self.games
        self.m2 += d * (score - self.mean)

    @property
    def stdev(self) -> float:
        return math.sqrt(self.m2 / (self.games - 1)) if self.games > 1 else 0.0

    def as_dict(self) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.games)
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / self.games if self.games else 0.0,
            "win_rate_95": [lo, hi],
            "score_mean": self.mean,
            "score_stdev": self.stdev,
        }


@dataclass
class Summary:
    """Accumulates records as they arrive. A game won by nobody counts as a tie; with
    ``shared`` winners (a list) each winner gets an equal share of the win."""

    game: str
    players: int
    records: int = 0
    ties: int = 0
    seconds: float = 0.0
    seats: list[Tally] = field(default_factory=list)
    agents: dict[str, Tally] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.seats:
            self.seats = [Tally() for _ in range(self.players)]

    def add(self, record: Mapping[str, Any]) -> None:
        self.records += 1
        winner = record.get("winner")
        winners = winner if isinstance(winner, list) else [] if winner is None else [winner]
        if not winners:
            self.ties += 1
        scores = record.get("scores") or [0] * self.players
        agents = record.get("agents") or ["?"] * self.players
        for seat in range(self.players):
            win = 1.0 / len(winners) if seat in winners else 0.0
            score = float(scores[seat])
            self.seats[seat].add(score, win)
            self.agents.setdefault(str(agents[seat]), Tally()).add(score, win)

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "records": self.records,
            "ties": self.ties,
            "seconds": self.seconds,
            "records_per_second": self.records / self.seconds if self.seconds > 0 else None,
            "seats": [t.as_dict() for t in self.seats],
            "agents": {name: t.as_dict() for name, t in sorted(self.agents.items())},
        }
