"""What a report counts, gathered record by record (or, for Parquet, column by column in
:mod:`cardcore.report.arrow`): exact histograms from which every figure is computed.

A record's *first place* is its ``winners`` list when it has one, else its ``winner``, else its
``tied`` seats, else every seat (nobody won). A seat in first place alone **wins**; seats that
share first place **tie** (Three-Thirteen's ``shared_win`` counts as a tie too); every other
seat **loses**. One record with ``p`` seats gives ``p`` *seat-games*: an agent in two seats of
one game plays two seat-games.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardcore.errors import StateFormatError

__all__ = ["MAX_NUMBER", "OUTCOMES", "Results", "first_place", "outcomes", "round_scores", "seats"]

OUTCOMES = ("win", "tie", "loss")
DealRow = tuple[int, tuple[int, ...], tuple[float, ...], tuple[bool, ...]]


def first_place(record: Mapping[str, Any], players: int) -> list[int]:
    """The seats in first place (see the module docstring)."""
    winners = record.get("winners")
    if winners:
        return seats(winners, players, "winners")
    winner = record.get("winner")
    if isinstance(winner, list):
        return seats(winner, players, "winner") if winner else list(range(players))
    if winner is not None and winner != "":
        return seats([winner], players, "winner")
    tied = record.get("tied")
    return seats(tied, players, "tied") if tied else list(range(players))


def seats(values: Iterable[Any], players: int, what: str) -> list[int]:
    """``values`` as a list if each is a seat (an int in ``0..players-1``; a bool is not), else
    ``StateFormatError`` (a ``ValueError``) naming ``what``: a winner outside the table would
    count for nobody."""
    out: list[int] = []
    for v in [values] if isinstance(values, str | bytes | Mapping) else values:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < players:
            raise StateFormatError(f"{what} must be seats 0..{players - 1}, not {v!r}")
        out.append(v)
    return out


def outcomes(first: Sequence[int], players: int) -> tuple[int, ...]:
    """Per seat: 0 win, 1 tie, 2 loss."""
    if len(first) == 1:
        return tuple(0 if s == first[0] else 2 for s in range(players))
    return tuple(1 if s in first else 2 for s in range(players))


def round_scores(record: Mapping[str, Any], path: str | None) -> list[Sequence[float]]:
    """The per-round, per-seat scores at ``path`` (``"column"`` or ``"column.field"``)."""
    if path is None:
        return []
    column, _, sub = path.partition(".")
    rows = record.get(column) or []
    return [r[sub] for r in rows] if sub else list(rows)


MAX_NUMBER = 2**53
"""The largest size of a score or length a report reads: every integer up to it is exact as a
float, and sums of squares of a billion of them stay finite."""


def numbers(values: Iterable[Any], what: str) -> tuple[float, ...]:
    """``values`` as a tuple if each is an int or float of size at most :data:`MAX_NUMBER`
    (a bool is not), else ``StateFormatError`` (a ``ValueError``) naming ``what`` (records
    come from files anyone may have written)."""
    out = tuple(values)
    for v in out:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise StateFormatError(f"{what} must be numbers, not {v!r}")
        if not -MAX_NUMBER <= v <= MAX_NUMBER:
            raise StateFormatError(f"{what} must be numbers of size at most 2**53, not {v!r}")
    return out


@dataclass
class Results:
    """The counts of one group of comparable records (same game, seats and options).

    ``cells[(agent, seat, outcome, score)]`` counts seat-games; ``pairs[(a, b)]`` counts how
    often agent ``a`` beat agent ``b`` when both sat at one table (ties count half each way)
    and ``pair_ties[(a, b)]`` (kept both ways) how often they shared first place;
    ``lengths`` histograms the game length column; ``rounds[(agent, round, score)]`` counts
    per-round scores and ``round_counts`` the rounds per record. With ``pair_deals``, every
    record's deal seed and, per seat, agent id (``agent_ids``), score and whether it won are
    kept for paired comparisons (:meth:`deal_arrays`).
    """

    game: str
    players: int
    unit: str = "game"
    length: str | None = None
    rounds_path: str | None = None
    pair_deals: bool = True
    records: int = 0
    ties: int = 0
    cells: Counter[tuple[str, int, int, float]] = field(default_factory=Counter)
    pairs: defaultdict[tuple[str, str], float] = field(default_factory=lambda: defaultdict(float))
    pair_ties: Counter[tuple[str, str]] = field(default_factory=Counter)
    lengths: Counter[float] = field(default_factory=Counter)
    rounds: Counter[tuple[str, int, float]] = field(default_factory=Counter)
    round_counts: Counter[int] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)
    agent_ids: dict[str, int] = field(default_factory=dict)
    deal_rows: list[DealRow] = field(default_factory=list)
    deal_chunks: list[tuple[Any, Any, Any, Any]] = field(default_factory=list)

    def add(self, record: Mapping[str, Any], source: str = "") -> None:
        """Counts one record (its ``agents``, ``scores`` and winner keys: a record without
        ``winner`` or ``winners`` is not a game record, rather than a tie of every seat)."""
        if "winner" not in record and "winners" not in record:
            raise StateFormatError("it has no 'winner'")
        p = self.players
        agents = tuple(str(a) for a in record["agents"])
        scores = numbers(record["scores"], "scores")
        first = first_place(record, p)
        out = outcomes(first, p)
        self.records += 1
        self.sources[source] += 1
        if len(first) != 1:
            self.ties += 1
        self.cells.update(zip(agents, range(p), out, scores, strict=True))
        for s in range(p):
            for t in range(s + 1, p):
                a, b = agents[s], agents[t]
                if a == b or out[s] == out[t] == 2:
                    continue
                if out[s] == out[t]:
                    self.pairs[(a, b)] += 0.5
                    self.pairs[(b, a)] += 0.5
                    self.pair_ties.update(((a, b), (b, a)))
                else:
                    win, lose = (a, b) if out[s] < out[t] else (b, a)
                    self.pairs[(win, lose)] += 1
        if self.length is not None and record.get(self.length) is not None:
            self.lengths[numbers([record[self.length]], self.length)[0]] += 1
        if self.rounds_path is not None:
            per_round = round_scores(record, self.rounds_path)
            self.round_counts[len(per_round)] += 1
            for r, row in enumerate(per_round):
                self.rounds.update(zip(agents, [r] * p, numbers(row, "round scores"), strict=True))
        if self.pair_deals and record.get("seed") is not None:
            seed = int(record["seed"])
            if not 0 <= seed < 1 << 64:
                raise StateFormatError(f"seed must be in 0..2**64-1, not {seed}")
            ids = tuple(self.agent_id(a) for a in agents)
            self.deal_rows.append((seed, ids, scores, tuple(o == 0 for o in out)))

    def add_all(self, records: Iterable[Mapping[str, Any]], source: str = "") -> None:
        for r in records:
            self.add(r, source)

    def agent_id(self, name: str) -> int:
        """The agent's number in :meth:`deal_arrays`."""
        return self.agent_ids.setdefault(name, len(self.agent_ids))

    def add_deals(self, seeds: Any, agents: Any, scores: Any, wins: Any) -> None:
        """Deals of many records at once (numpy): ``seeds`` ``(n,)``; agent ids, scores and
        wins ``(n, players)``."""
        self.deal_chunks.append((seeds, agents, scores, wins))

    def deal_arrays(self) -> tuple[Any, Any, Any, Any] | None:
        """Every kept deal as numpy arrays ``(seeds, agent ids, scores, wins)``, or None."""
        import numpy as np

        chunks = list(self.deal_chunks)
        if self.deal_rows:
            seeds, ids, scores, wins = zip(*self.deal_rows, strict=True)
            chunks.append(
                (
                    np.array(seeds, dtype=np.uint64),
                    np.array(ids, dtype=np.int32),
                    np.array(scores, dtype=np.float64),
                    np.array(wins, dtype=bool),
                )
            )
        if not chunks:
            return None
        seeds, ids, scores, wins = zip(*chunks, strict=True)
        return (
            np.concatenate(seeds),
            np.concatenate(ids),
            np.concatenate(scores).astype(np.float64),
            np.concatenate(wins),
        )

    def agents(self) -> list[str]:
        """Every agent name, sorted."""
        return sorted({a for a, _, _, _ in self.cells})
