"""A learner that plays two-player Three-Thirteen against ``greedy`` (numpy only; issue 34).

It trains the six weights of the built-in ``learned`` agent (:mod:`cardcore.three_thirteen.learned`
holds the policy: greedy's reading of the hand, a pile-take threshold by hand size, and pairs,
connectors, wilds and the discarded card's points in the kept hand) by evolution strategies
(antithetic pairs on the same deals, fitness the mean score difference against ``greedy`` over
``--games`` games with seats rotated), numpy only.

    python examples/learn_three_thirteen.py --generations 30 --save weights.json
    cardcore sim three-thirteen --players 2 --agents learned,greedy \\
        --paired -n 2000 --seed 20261204 -o duel.jsonl && cardcore report duel.jsonl

The documented run's weights ship with the package (``cardcore/three_thirteen/learned.json``,
6 numbers and the curve): the built-in agent ``learned`` plays them. ``docs/rl.md`` gives the run
and its result on unseen seeds.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

import cardcore
from cardcore.three_thirteen.learned import LearnedAgent

SIGMA = np.array([2.0, 2.0, 1.0, 1.0, 1.0, 0.3])
"""The search's step per weight (the weights' scales differ)."""


def agent() -> LearnedAgent:
    """The shipped weights (the built-in ``learned`` agent; ``--agents learned`` does the same)."""
    return LearnedAgent()


def duel(w: Sequence[float], games: int, seed: int) -> tuple[float, float]:
    """(win rate, mean score difference) of ``w`` against ``greedy``, seats rotated."""
    records = cardcore.simulate(
        "three-thirteen",
        players=2,
        agents=[lambda: LearnedAgent(w), "greedy"],
        games=games,
        seed=seed,
        rotate_seats=True,
    )
    wins, diff, n = 0, 0.0, 0
    for r in records:
        me = 1 if r["agents"][0] == "greedy" else 0
        wins += r["winner"] == me
        diff += r["scores"][1 - me] - r["scores"][me]
        n += 1
    return wins / n, diff / n


def train(
    generations: int, population: int, games: int, seed: int, lr: float = 0.5
) -> tuple[np.ndarray, list[tuple[int, float, float, float]]]:
    """Evolution strategies from greedy's weights (all 0); the curve: (generation, seconds,
    win rate, score difference) on 200 games of fresh seeds after each generation."""
    rng = np.random.default_rng(seed)
    w = np.zeros(len(SIGMA))
    curve = []
    start = time.process_time()
    for g in range(generations):
        eps = rng.standard_normal((population, len(SIGMA)))
        adv = np.empty(population)
        for k, e in enumerate(eps):
            s = int(rng.integers(1 << 62))
            adv[k] = duel(w + SIGMA * e, games, s)[1] - duel(w - SIGMA * e, games, s)[1]
        adv /= adv.std() + 1e-8
        w = w + lr * SIGMA * (adv[:, None] * eps).mean(axis=0)
        rate, diff = duel(w.tolist(), 200, int(rng.integers(1 << 62)))
        curve.append((g + 1, time.process_time() - start, rate, diff))
        print(f"generation {g + 1}: w={np.round(w, 2).tolist()} win rate vs greedy {rate:.3f}")
    return w, curve


def main(argv: Sequence[str] | None = None) -> list[tuple[int, float, float, float]]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generations", type=int, default=30)
    ap.add_argument("--population", type=int, default=8)
    ap.add_argument("--games", type=int, default=200, help="games per evaluation")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", type=Path, help="write the weights here (JSON)")
    a = ap.parse_args(argv)
    w, curve = train(a.generations, a.population, a.games, a.seed)
    if a.save:
        doc = {"weights": np.round(w, 4).tolist(), "curve": curve}
        a.save.write_text(json.dumps(doc, indent=1) + "\n")
    return curve


if __name__ == "__main__":
    main()
