"""A learner that plays two-player Three-Thirteen against ``greedy`` (numpy only; issue 34).

The policy is greedy's own reading of the hand plus six learned weights. Draw: take the pile
top when it lowers the best deadwood by more than ``w0 + w1 * hand_size / 13`` points (greedy:
by more than 0), or lets the hand go out. Discard: among the discards within 12 points of the
least deadwood, the one minimising ``deadwood - w2 * pairs - w3 * connectors - w4 * wilds -
w5 * points_discarded`` of the hand kept (pairs: two cards of a rank; connectors: cards of a
suit one or two ranks apart; greedy: deadwood alone). The weights are trained by evolution
strategies (antithetic pairs on the same deals, fitness the mean score difference against
``greedy`` over ``--games`` games with seats rotated), numpy only.

    python examples/learn_three_thirteen.py --generations 30 --save weights.json
    cardcore sim three-thirteen --players 2 --agents examples.learn_three_thirteen:agent,greedy \\
        --paired -n 2000 --seed 20261204 -o duel.jsonl && cardcore report duel.jsonl

``agent`` plays the weights shipped in ``learn_three_thirteen.json`` (next to this file, 6
numbers); ``docs/rl.md`` gives the run and its result on unseen seeds.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import cardcore
from cardcore.three_thirteen.melds import discard_deadwoods_of_faces
from cardcore.three_thirteen.rules import DRAW_DISCARD, DRAW_STOCK, Discard

WEIGHTS = Path(__file__).with_suffix(".json")
SIGMA = np.array([2.0, 2.0, 1.0, 1.0, 1.0, 0.3])
"""The search's step per weight (the weights' scales differ)."""


def _shape(faces: bytes, wild: int) -> tuple[int, int, int]:
    """Pairs, connectors and wild cards of a hand (card faces: suit * 13 + rank; jokers 52+)."""
    ranks: dict[int, int] = {}
    suits: dict[int, list[int]] = {}
    wilds = 0
    for f in faces:
        if f >= 52 or f % 13 + 1 == wild:
            wilds += 1
            continue
        ranks[f % 13] = ranks.get(f % 13, 0) + 1
        suits.setdefault(f // 13, []).append(f % 13)
    pairs = sum(c * (c - 1) // 2 for c in ranks.values())
    connectors = 0
    for rs in suits.values():
        rs.sort()
        connectors += sum(1 <= b - a <= 2 for a, b in itertools.pairwise(rs))
    return pairs, connectors, wilds


def _points(face: int) -> int:
    return 20 if face >= 52 else min(10, face % 13 + 1)


class LearnedAgent:
    """The policy with weights ``w`` (six floats); an ordinary cardcore agent."""

    def __init__(self, w: Sequence[float] | None = None) -> None:
        if w is None:
            w = json.loads(WEIGHTS.read_text())["weights"]
        self.w = [float(x) for x in w]

    def act(self, obs: Any, legal: Sequence[Any], rng: Any) -> Any:
        w = self.w
        ft, wild = obs.face_of, obs.wild_rank
        if obs.phase == "draw":
            top = obs.discard_pile[-1]
            faces = bytes(obs.hand).translate(ft) + ft[top : top + 1]
            dws = discard_deadwoods_of_faces(faces, wild, obs.rules)
            take = min(dws[:-1])
            if take == 0 or dws[-1] - take > w[0] + w[1] * len(obs.hand) / 13:
                return DRAW_DISCARD
            return DRAW_STOCK
        hand = obs.hand
        faces = bytes(hand).translate(ft)
        dws = discard_deadwoods_of_faces(faces, wild, obs.rules)
        banned = obs.drawn if obs.forbid_return_of_discard_draw and obs.drawn_from_discard else -1
        low = min(dws)
        best, pick = None, 0
        for i, d in enumerate(dws):
            if hand[i] == banned or d > low + 12:
                continue
            pairs, connectors, wilds = _shape(faces[:i] + faces[i + 1 :], wild)
            score = d - w[2] * pairs - w[3] * connectors - w[4] * wilds
            score -= w[5] * _points(faces[i]) * (d > 0)
            if best is None or score < best:
                best, pick = score, i
        move = Discard(hand[pick])
        return move if move in legal else legal[0]


def agent() -> LearnedAgent:
    """The shipped weights (``cardcore sim --agents examples.learn_three_thirteen:agent``)."""
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
