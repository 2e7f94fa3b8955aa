"""From counts to figures: the JSON-ready report of one :class:`~cardcore.report.Results`."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from cardcore.errors import OptionError
from cardcore.report.results import OUTCOMES, Results
from cardcore.report.stats import Z95, Moments, bradley_terry, histogram_summary, wilson

__all__ = ["ELO", "TIES", "analyse", "paired", "ratings"]

ELO = 400 / math.log(10)
"""Bradley–Terry log-strength to Elo points."""
TIES = ("half", "skip")
"""How the rating table counts a shared first place (:func:`ratings`)."""


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


def _spread(x: Any) -> tuple[float, float, list[float]]:
    """Mean, sample sd and normal 95% interval of the mean of a numpy vector."""
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if len(x) > 1 else 0.0
    half = Z95 * sd / math.sqrt(len(x))
    return mean, sd, [mean - half, mean + half]


def paired(results: Results) -> list[dict[str, Any]]:
    """Paired differences between agents over deals played more than once (the same game
    seed with the agents in other seats): per deal, each agent's mean score and win rate over
    its seat-games, then the mean difference over deals with a normal 95% interval.

    A deal's records are grouped into tables by their lineup (the agents seated, in any
    order). Two agents that met at a table of a deal are compared on those tables only (head
    to head: pooled ladder files share their deals); two that never met at one, on all of the
    deal's tables (variants, each against the same opponents on the same deals).
    ``head_to_head`` counts the deals compared at a shared table. Columnar (numpy; tables of
    deals x agents): a million records take about a second."""
    arrays = results.deal_arrays()
    if arrays is None:
        return []
    import numpy as np

    seeds, agents, scores, wins = arrays
    _, deal = np.unique(seeds, return_inverse=True)
    deal = deal.ravel()
    repeated = np.bincount(deal) > 1
    if not repeated.any():
        return []
    keep = repeated[deal]
    deal = (np.cumsum(repeated) - 1)[deal[keep]]  # 0.. over repeated deals
    agents, scores, wins = agents[keep], scores[keep], wins[keep]
    k = len(results.agent_ids)
    ordered = np.sort(agents, axis=1).astype(np.int64)
    if k**results.players < 1 << 62:  # each lineup as one number in base k
        code = ordered @ (k ** np.arange(results.players, dtype=np.int64))
        _, lineup = np.unique(code, return_inverse=True)
    else:
        _, lineup = np.unique(ordered, axis=0, return_inverse=True)
    lineups = int(lineup.max()) + 1
    tables, table = np.unique(deal * lineups + lineup.ravel(), return_inverse=True)
    table = table.ravel()
    deal_of = tables // lineups  # each table's deal
    deals = int(deal.max()) + 1
    # per (table, agent): seat-games, score sum and wins, one seat at a time
    size = len(tables) * k
    sums: Any = np.zeros((3, size))
    for seat in range(results.players):
        cell = table * k + agents[:, seat]
        sums[0] += np.bincount(cell, minlength=size)
        sums[1] += np.bincount(cell, weights=scores[:, seat], minlength=size)
        sums[2] += np.bincount(cell, weights=wins[:, seat], minlength=size)
    sums = sums.reshape(3, -1, k)
    out = []
    names = sorted(results.agent_ids)
    for i, a in enumerate(names):
        ia = results.agent_ids[a]
        for b in names[i + 1 :]:
            ib = results.agent_ids[b]
            met = (sums[0, :, ia] > 0) & (sums[0, :, ib] > 0)
            h2h = np.zeros(deals, dtype=bool)
            h2h[deal_of[met]] = True
            used = met | ~h2h[deal_of]

            def per_deal(x: Any, used: Any = used) -> Any:
                return np.bincount(deal_of[used], weights=x[used], minlength=deals)

            na, nb = per_deal(sums[0, :, ia]), per_deal(sums[0, :, ib])
            both = (na > 0) & (nb > 0)
            if not both.any():
                continue
            na, nb = na[both], nb[both]
            score_diff = per_deal(sums[1, :, ia])[both] / na - per_deal(sums[1, :, ib])[both] / nb
            win_diff = per_deal(sums[2, :, ia])[both] / na - per_deal(sums[2, :, ib])[both] / nb
            mean, sd, ci = _spread(score_diff)
            win_mean, _, win_ci = _spread(win_diff)
            out.append(
                {
                    "a": a,
                    "b": b,
                    "deals": int(both.sum()),
                    "head_to_head": int(h2h[both].sum()),
                    "score_diff": mean,
                    "score_diff_sd": sd,
                    "score_diff_95": ci,
                    "win_rate_diff": win_mean,
                    "win_rate_diff_95": win_ci,
                }
            )
    return out


def ratings(results: Results, ties: str = "half") -> dict[str, Any] | None:
    """A Bradley–Terry rating table on the Elo scale (mean 1500) when three or more agents
    met; None otherwise or when they are not all connected by games. ``ties``: a shared first
    place counts as half a win each (``"half"``) or is left out (``"skip"``: decided pairings
    only, for games where some tie a lot, such as a Spite & Malice stock running out)."""
    if ties not in TIES:
        raise OptionError(f"ties must be one of {', '.join(TIES)}, not {ties!r}")
    pairs = dict(results.pairs)
    if ties == "skip":
        pairs = {k: v - 0.5 * results.pair_ties[k] for k, v in pairs.items()}
        pairs = {k: v for k, v in pairs.items() if v > 0}
    names = sorted({a for pair in pairs for a in pair})
    if len(names) < 3:
        return None
    fit = bradley_terry(names, pairs)
    if fit is None:
        return None
    rows = []
    for name, (theta, se) in sorted(fit.items(), key=lambda kv: -kv[1][0]):
        r = 1500 + ELO * theta
        comparisons = sum(v for (a, b), v in pairs.items() if name in (a, b))
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
        + (
            "others; a shared first place is half a win each; "
            if ties == "half"
            else "others; a shared first place is left out; "
        )
        + "two losers are not compared), one prior draw per pair, Elo scale with mean 1500",
        "agents": rows,
    }


def apart(results: Results) -> list[list[str]]:
    """The agents split into groups that never met at a table (not even through others: the
    pairings decided at one table link them), when there is more than one group; else ``[]``.
    Files of separate runs pooled together: their rates are against different opponents."""
    parent = {a: a for a, *_ in results.cells}

    def root(a: str) -> str:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a, b in results.pairs:
        parent[root(a)] = root(b)
    groups: dict[str, list[str]] = defaultdict(list)
    for a in sorted(parent):
        groups[root(a)].append(a)
    return sorted(groups.values()) if len(groups) > 1 else []


def _round_means(results: Results) -> list[dict[str, Any]]:
    acc: dict[tuple[str, int], Moments] = defaultdict(Moments)
    for (agent, r, score), n in results.rounds.items():
        acc[(agent, r)].add(score, n)
    return [
        {"agent": a, "round": r + 1, "n": m.n, "mean": m.mean, "sd": m.sd}
        for (a, r), m in sorted(acc.items())
    ]


def analyse(results: Results, title: str = "", ties: str = "half") -> dict[str, Any]:
    """The JSON-ready report of one group of records (``ties``: see :func:`ratings`)."""
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
        "ratings": ratings(results, ties),
        "apart": apart(results),
        "length": (
            {"column": results.length, **histogram_summary(results.lengths)}
            if results.length and results.lengths
            else None
        ),
        "rounds": _round_means(results),
    }
