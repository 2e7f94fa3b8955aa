"""From counts to figures: the JSON-ready report of one :class:`~cardcore.report.Results`."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from cardcore.report.results import OUTCOMES, Results
from cardcore.report.stats import Moments, bradley_terry, histogram_summary, wilson

__all__ = ["ELO", "analyse", "paired", "ratings"]

ELO = 400 / math.log(10)
"""Bradley–Terry log-strength to Elo points."""


def _rates(counts: Mapping[int, int], seat_games: int) -> dict[str, Any]:
    out: dict[str, Any] = {"seat_games": seat_games}
    for k, name in enumerate(OUTCOMES):
        x = counts.get(k, 0)
        out[f"{name}s" if name != "loss" else "losses"] = x
        out[f"{name}_rate"] = x / seat_games if seat_games else 0.0
        out[f"{name}_rate_95"] = list(wilson(x, seat_games))
    return out


def _rows(cells: Iterable[tuple[tuple[str, int, int, float], int]], key: int) -> dict[Any, Any]:
    """Outcome counts and score histograms grouped by agent (``key`` 0) or seat (1)."""
    outcome: dict[Any, Counter[int]] = defaultdict(Counter)
    scores: dict[Any, Counter[float]] = defaultdict(Counter)
    for cell, n in cells:
        k = cell[key]
        outcome[k][cell[2]] += n
        scores[k][cell[3]] += n
    return {
        k: {**_rates(outcome[k], sum(outcome[k].values())), "score": histogram_summary(scores[k])}
        for k in sorted(outcome)
    }


def paired(results: Results) -> list[dict[str, Any]]:
    """Paired differences between agents over deals played more than once (the same game
    seed with the agents in other seats): per deal, each agent's mean score and win rate over
    its seat-games, then the mean difference over deals with a normal 95% interval."""
    diffs: dict[tuple[str, str], tuple[Moments, Moments]] = {}
    for plays in results.deals.values():
        if len(plays) < 2:
            continue
        per: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
        for agents, scores, out in plays:
            for a, s, o in zip(agents, scores, out, strict=True):
                acc = per[a]
                acc[0] += 1
                acc[1] += s
                acc[2] += o == 0
        names = sorted(per)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                ms, mw = diffs.setdefault((a, b), (Moments(), Moments()))
                pa, pb = per[a], per[b]
                ms.add(pa[1] / pa[0] - pb[1] / pb[0])
                mw.add(pa[2] / pa[0] - pb[2] / pb[0])
    return [
        {
            "a": a,
            "b": b,
            "deals": ms.n,
            "score_diff": ms.mean,
            "score_diff_sd": ms.sd,
            "score_diff_95": list(ms.interval()),
            "win_rate_diff": mw.mean,
            "win_rate_diff_95": list(mw.interval()),
        }
        for (a, b), (ms, mw) in sorted(diffs.items())
    ]


def ratings(results: Results) -> dict[str, Any] | None:
    """A Bradley–Terry rating table on the Elo scale (mean 1500) when three or more agents
    met; None otherwise or when they are not all connected by games."""
    names = sorted({a for pair in results.pairs for a in pair})
    if len(names) < 3:
        return None
    fit = bradley_terry(names, results.pairs)
    if fit is None:
        return None
    rows = []
    for name, (theta, se) in sorted(fit.items(), key=lambda kv: -kv[1][0]):
        r = 1500 + ELO * theta
        comparisons = sum(v for (a, b), v in results.pairs.items() if name in (a, b))
        rows.append(
            {
                "agent": name,
                "rating": r,
                "rating_95": [r - 1.959964 * ELO * se, r + 1.959964 * ELO * se],
                "comparisons": comparisons,
            }
        )
    return {
        "method": "Bradley–Terry on pairings decided at one table (a first place beats the "
        "others; a shared first place is half a win each; two losers are not compared), one "
        "prior draw per pair, Elo scale with mean 1500",
        "agents": rows,
    }


def _round_means(results: Results) -> list[dict[str, Any]]:
    acc: dict[tuple[str, int], Moments] = defaultdict(Moments)
    for (agent, r, score), n in results.rounds.items():
        acc[(agent, r)].add(score, n)
    return [
        {"agent": a, "round": r + 1, "n": m.n, "mean": m.mean, "sd": m.sd}
        for (a, r), m in sorted(acc.items())
    ]


def analyse(results: Results, title: str = "") -> dict[str, Any]:
    """The JSON-ready report of one group of records."""
    cells = list(results.cells.items())
    return {
        "game": results.game,
        "title": title or results.game,
        "players": results.players,
        "unit": results.unit,
        "records": results.records,
        "seat_games": results.records * results.players,
        "ties": results.ties,
        "sources": dict(results.sources),
        "agents": [{"agent": k, **v} for k, v in _rows(cells, 0).items()],
        "seats": [{"seat": k, **v} for k, v in _rows(cells, 1).items()],
        "paired": paired(results),
        "ratings": ratings(results),
        "length": (
            {"column": results.length, **histogram_summary(results.lengths)}
            if results.length and results.lengths
            else None
        ),
        "rounds": _round_means(results),
    }
