"""Strength and cost of the AIs: paired seat-rotated matches and a rating ladder.

    python benches/expert_eval.py versus three-thirteen --deals 500 --jobs 2
    python benches/expert_eval.py versus spite-malice --players 2 --deals 1000 --jobs 2
    python benches/expert_eval.py ladder three-thirteen --deals 100 --jobs 2

``versus``: one ``--agent`` against ``--field`` in every other seat; every deal is played once
with the agent in each seat (the same cards, agents rotated), so a game count is deals x
players. Win rate (ties count as no win) and the mean score difference to the field, with 95%
intervals over deals (the rotations of one deal are one sample).

``ladder``: a round robin of the levels (``random``, ``easy``, ``normal``, ``hard``,
``expert``, each game's agents by ``cardcore.games.levels.agent_for_level``); every pair meets
at tables of
alternating seats, each deal played with the seats swapped. A Bradley-Terry model is fitted to
the pairwise results (a game is a win for the agent whose seat won; no winner counts half each)
and shown as Elo-scale ratings (``random`` = 0) with 95% intervals from the Fisher information.

Decision times and games/s: ``benches/test_bench_expert.py``.

Every figure depends only on ``--seed`` and the options (the search agents use their default
rollout budgets), so a run can be repeated exactly.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

import cardcore
from cardcore.games.base import get_game
from cardcore.games.levels import LEVELS, agent_for_level

FIELD = {"three-thirteen": "hard", "spite-malice": "planner"}


def rotated(agents: Sequence[str], k: int) -> list[str]:
    return list(agents[-k:]) + list(agents[:-k]) if k else list(agents)


def paired_records(
    game: str, tables: Sequence[Sequence[str]], deals: int, seed: int, players: int, jobs: int
) -> list[list[dict[str, Any]]]:
    """Per table (seat assignment), the records of ``deals`` games on the same seeds."""
    return [
        list(
            cardcore.simulate(
                game, games=deals, seed=seed, players=players, agents=list(t), jobs=jobs
            )
        )
        for t in tables
    ]


def mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return m, half


def versus(args: argparse.Namespace) -> None:
    spec = get_game(args.game)
    p = args.players or spec.default_players
    field = args.field or FIELD[args.game]
    base = [args.agent] + [field] * (p - 1)
    tables = [rotated(base, k) for k in range(p)]
    t0 = time.perf_counter()
    runs = paired_records(args.game, tables, args.deals, args.seed, p, args.jobs)
    wall = time.perf_counter() - t0
    lower = args.game == "three-thirteen"  # penalty points: lower is better
    wins: list[float] = []
    diffs: list[float] = []
    ties = 0
    for i in range(args.deals):
        w = 0.0
        d = 0.0
        for k in range(p):
            rec = runs[k][i]
            seat = k  # the agent sits at seat k in rotation k
            if rec["winner"] is None:
                ties += 1
            w += rec["winner"] == seat
            s = rec["scores"]
            others = statistics.fmean(s[j] for j in range(p) if j != seat)
            d += (others - s[seat]) if lower else (s[seat] - others)
        wins.append(w / p)
        diffs.append(d / p)
    wr, wr_h = mean_ci(wins)
    dm, dm_h = mean_ci(diffs)
    n = args.deals * p
    print(
        f"{args.game} {p}p: {args.agent} vs {p - 1} x {field}, {n} games ({args.deals} deals x "
        f"{p} seats), seed {args.seed}"
    )
    print(f"  win rate {wr:.1%} +/- {wr_h:.1%} (parity {1 / p:.1%}); games without a winner {ties}")
    what = "penalty points fewer than" if lower else "points more than"
    print(f"  {what} the field's mean: {dm:+.2f} +/- {dm_h:.2f} per game")
    print(f"  {n / wall:.2f} games/s on {args.jobs} process(es), {wall:.0f} s")


def bradley_terry(
    names: Sequence[str], wins: np.ndarray, iters: int = 200
) -> tuple[np.ndarray, np.ndarray]:
    """Log-strengths (``names[0]`` fixed at 0) and their standard errors from a win matrix
    (``wins[i, j]``: games i won against j, ties counted half)."""
    n = len(names)
    games = wins + wins.T
    theta = np.zeros(n)
    for _ in range(iters):  # Newton steps on the free parameters
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j] = P(i beats j)
        grad = (wins - games * p).sum(axis=1)
        w = games * p * (1 - p)
        hess = -np.diag(w.sum(axis=1)) + w
        step = np.linalg.solve(hess[1:, 1:] - 1e-9 * np.eye(n - 1), grad[1:])
        theta[1:] -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    w = games * p * (1 - p)
    info = np.diag(w.sum(axis=1)) - w
    cov = np.linalg.inv(info[1:, 1:])
    se = np.concatenate([[0.0], np.sqrt(np.diag(cov))])
    return theta, se


def ladder(args: argparse.Namespace) -> None:
    spec = get_game(args.game)
    p = args.players or spec.default_players
    agents = [agent_for_level(spec, lv) for lv in LEVELS]
    n = len(agents)
    wins = np.zeros((n, n))
    t0 = time.perf_counter()
    for i, j in itertools.combinations(range(n), 2):
        a, b = agents[i], agents[j]
        table = [a if s % 2 == 0 else b for s in range(p)]
        swapped = [b if s % 2 == 0 else a for s in range(p)]
        for t in paired_records(args.game, [table, swapped], args.deals, args.seed, p, args.jobs):
            for rec in t:
                seats = rec["agents"]
                if rec["winner"] is None:
                    wins[i, j] += 0.5
                    wins[j, i] += 0.5
                elif seats[rec["winner"]] == a:
                    wins[i, j] += 1
                else:
                    wins[j, i] += 1
        print(f"  {a} vs {b}: {wins[i, j]:g} - {wins[j, i]:g}", flush=True)
    wall = time.perf_counter() - t0
    theta, se = bradley_terry(agents, wins)
    scale = 400 / math.log(10)
    print(
        f"{args.game} {p}p ladder: {args.deals} deals x 2 seatings per pair, seed {args.seed}, "
        f"{wall:.0f} s"
    )
    print("| level | agent | Elo (random = 0) | 95% interval | games won of played |")
    print("|---|---|---|---|---|")
    for k, (lv, ag) in enumerate(zip(LEVELS, agents, strict=True)):
        e, h = theta[k] * scale, 1.96 * se[k] * scale
        won, played = wins[k].sum(), (wins[k] + wins[:, k]).sum()
        interval = "anchor" if k == 0 else f"{e - h:.0f} .. {e + h:.0f}"
        print(f"| {lv} | `{ag}` | {e:.0f} | {interval} | {won:g} / {played:g} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("versus", "ladder"):
        s = sub.add_parser(name)
        s.add_argument("game", choices=sorted(FIELD))
        s.add_argument("--players", type=int, default=None)
        s.add_argument("--seed", type=int, default=2026)
        s.add_argument("--jobs", type=int, default=1)
        s.add_argument("--agent", default="expert")
        s.add_argument("--field", default=None)
        s.add_argument("--deals", type=int, default=100)
    args = ap.parse_args()
    {"versus": versus, "ladder": ladder}[args.cmd](args)


if __name__ == "__main__":
    main()
