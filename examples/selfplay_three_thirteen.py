"""Self-play policy gradient for two-player Three-Thirteen, numpy only (``docs/rl.md``).

A linear softmax policy over the observation tensor (``log1p`` of it) plays both seats of
``cardcore.rl.VectorEnv`` games. Each decision is credited with the result of its round: the
opponent's round penalty minus its own, over 50 (from ``Batch.points``, the game's own
``points()``), and the policy follows REINFORCE with Adam. Every ``--eval-every`` updates the
policy plays ``random`` through ``cardcore.simulate(..., rotate_seats=True)`` (each agent
in each seat equally often); the win rate and its Wilson 95% interval make the learning curve.

    python examples/selfplay_three_thirteen.py               # the documented run
    python examples/selfplay_three_thirteen.py --updates 2 --batch 1024 --eval-games 4  # smoke

The policy plays ``simulate`` as an ordinary agent: ``act(observation, legal, rng)`` turns the
observation into the same tensor with ``game.observation_tensor_of(observation)``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

import cardcore
from cardcore.report.stats import wilson
from cardcore.rl import VectorEnv

GAME = "three-thirteen"
OPTIONS: dict[str, Any] = {"players": 2}
ROUND_SCALE = 50.0


class LinearPolicy:
    """``softmax(W log1p(x) + b)`` over the legal actions."""

    def __init__(self, num_actions: int, size: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.w = (rng.standard_normal((num_actions, size)) * 0.01).astype(np.float32)
        self.b = np.zeros(num_actions, np.float32)
        self._adam = [np.zeros_like(self.w), np.zeros_like(self.w)]
        self._adam_b = [np.zeros_like(self.b), np.zeros_like(self.b)]
        self._t = 0

    def logits(self, features: NDArray[np.float32], mask: NDArray[np.bool_]) -> NDArray[Any]:
        z = features @ self.w.T + self.b
        return np.where(mask, z, -np.inf)

    def probs(self, features: NDArray[np.float32], mask: NDArray[np.bool_]) -> NDArray[Any]:
        z = self.logits(features, mask)
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def update(
        self,
        features: NDArray[np.float32],
        mask: NDArray[np.bool_],
        actions: NDArray[np.int64],
        advantage: NDArray[np.float32],
        lr: float,
    ) -> None:
        """One REINFORCE step: ascend ``advantage * log p(action)``."""
        p = self.probs(features, mask)
        g = -p
        g[np.arange(len(actions)), actions] += 1.0
        g *= advantage[:, None] / len(actions)
        self._t += 1
        for param, grad, (m, v) in (
            (self.w, g.T @ features, self._adam),
            (self.b, g.sum(axis=0), self._adam_b),
        ):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            step = m / (1 - 0.9**self._t) / (np.sqrt(v / (1 - 0.999**self._t)) + 1e-8)
            param += (lr * step).astype(np.float32)


class PolicyAgent:
    """The policy as a cardcore agent (``act(observation, legal, rng)``), sampling its action
    with the seat's seeded ``rng`` (so evaluation games replay exactly)."""

    def __init__(self, policy: LinearPolicy, game: Any) -> None:
        self.policy = policy
        self.game = game

    def act(self, observation: Any, legal: Sequence[Any], rng: Any) -> Any:
        x = np.log1p(self.game.observation_tensor_of(observation))[None, :]
        by_action = {}
        for move in legal:
            by_action.setdefault(self.game.move_to_action(move), move)
        mask = np.zeros((1, self.game.num_actions), np.bool_)
        mask[0, list(by_action)] = True
        p = self.policy.probs(x, mask)[0]
        pick = int(np.searchsorted(p.cumsum(), rng.random() * p.sum(), side="right"))
        return by_action[min(pick, int(np.flatnonzero(mask[0])[-1]))]


def evaluate(
    policy: LinearPolicy, games: int, seed: int, opponent: str = "random"
) -> tuple[float, float, float]:
    """Win rate of the policy against ``opponent`` (seats rotated) with its 95%
    interval. In this process: the policy lives here, not in an importable module."""
    game = cardcore.load_game(GAME, **OPTIONS)

    def make() -> PolicyAgent:
        return PolicyAgent(policy, game)

    make.__qualname__ = "PolicyAgent"
    wins = 0.0
    for rec in cardcore.simulate(
        GAME,
        games=games,
        seed=seed,
        players=OPTIONS["players"],
        agents=[make, opponent],
        rotate_seats=True,
    ):
        mine = rec["agents"].index(next(a for a in rec["agents"] if a != opponent))
        wins += 1.0 if mine in rec["winners"] else 0.0
    lo, hi = wilson(wins, games)
    return wins / games, lo, hi


def train(
    max_updates: int,
    envs: int,
    seed: int,
    batch: int,
    lr: float,
    eval_every: int,
    eval_games: int,
    opponent: str = "random",
    log: Callable[[str], None] = print,
) -> tuple[LinearPolicy, list[tuple[int, int, float, float, float]]]:
    """Trains for ``max_updates`` updates (the run is a function of the arguments); returns the
    policy and the learning curve rows ``(updates, decisions, win rate, low, high)``."""
    venv = VectorEnv(GAME, envs, seed, **OPTIONS)
    game = venv.game
    rnd_at = game.observation_layout["round"].start
    policy = LinearPolicy(game.num_actions, game.observation_shape[0], seed)
    rng = np.random.default_rng(seed)
    out = venv.reset()
    start_points = out.points.copy()  # every seat's penalty total when its round began
    pending: list[list[tuple[NDArray[np.float32], NDArray[np.bool_], int, int]]] = [
        [] for _ in range(envs)
    ]
    xs: list[NDArray[np.float32]] = []
    ms: list[NDArray[np.bool_]] = []
    acts: list[int] = []
    advs: list[float] = []
    curve: list[tuple[int, int, float, float, float]] = []
    updates = decisions = 0

    def checkpoint() -> None:
        rate, lo, hi = evaluate(policy, eval_games, seed + 1, opponent)
        curve.append((updates, decisions, rate, lo, hi))
        log(
            f"updates {updates:5d}  decisions {decisions:9,d}  win rate vs {opponent} "
            f"{rate:6.1%}  [{lo:6.1%}, {hi:6.1%}]"
        )

    checkpoint()
    while updates < max_updates:
        x = np.log1p(out.observation)
        p = policy.probs(x, out.action_mask)
        a = (p.cumsum(axis=1) > rng.random((envs, 1))).argmax(axis=1)
        rounds = out.observation[:, rnd_at]
        for i in range(envs):
            pending[i].append((x[i], out.action_mask[i], int(a[i]), int(out.player[i])))
        out = venv.step(a)
        decisions += envs
        for i in np.flatnonzero(out.done | (out.observation[:, rnd_at] != rounds)):
            score = out.points[i] - start_points[i]  # this round's penalty points per seat
            reward = (score.sum() - 2 * score) / ROUND_SCALE  # 2 players: theirs - mine
            for xi, mi, ai, seat in pending[i]:
                xs.append(xi)
                ms.append(mi)
                acts.append(ai)
                advs.append(float(reward[seat]))
            pending[i] = []
            start_points[i] = 0.0 if out.done[i] else out.points[i]
        if len(acts) >= batch:
            policy.update(
                np.stack(xs), np.stack(ms), np.array(acts), np.array(advs, np.float32), lr
            )
            xs, ms, acts, advs = [], [], [], []
            updates += 1
            if updates % eval_every == 0:
                checkpoint()
    if not curve or curve[-1][0] != updates:
        checkpoint()
    return policy, curve


def main(argv: Sequence[str] | None = None) -> list[tuple[int, int, float, float, float]]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--updates", type=int, default=60, help="policy updates to train for")
    ap.add_argument("--envs", type=int, default=64, help="games per VectorEnv batch")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch", type=int, default=8192, help="decisions per update")
    ap.add_argument("--lr", type=float, default=0.003)
    ap.add_argument("--eval-every", type=int, default=20, help="updates between evaluations")
    ap.add_argument("--eval-games", type=int, default=200, help="games per evaluation")
    ap.add_argument("--opponent", default="random", help="built-in agent of the evaluation")
    ap.add_argument("--save", help="write the weights to this .npz file")
    args = ap.parse_args(argv)
    policy, curve = train(
        args.updates,
        args.envs,
        args.seed,
        args.batch,
        args.lr,
        args.eval_every,
        args.eval_games,
        args.opponent,
    )
    if args.save:
        np.savez(args.save, w=policy.w, b=policy.b)
    return curve


if __name__ == "__main__":
    main()
