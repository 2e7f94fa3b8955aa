"""Built-in Spite & Malice agents: ``random``, ``greedy`` and ``planner`` (the strongest).

Every agent sees only ``state.observation(seat)`` and draws randomness only from the ``rng``
the runner gives its seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcore.spite_malice.planner import Weights, plan_turn
from cardcore.spite_malice.rules import (
    Move,
    Observation,
    PlayHand,
    PlayPayOff,
    PlaySide,
)

__all__ = ["GreedyAgent", "PlannerAgent", "RandomAgent"]


class RandomAgent:
    """Uniformly random legal move."""

    def act(self, observation: Observation, legal: Sequence[Move], rng: Any) -> Move:
        return legal[int(rng.below(len(legal)))]


class GreedyAgent:
    """The play-first baseline: the pay-off card whenever it fits, else any random centre play
    (hand or side stack), else a random discard."""

    def act(self, observation: Observation, legal: Sequence[Move], rng: Any) -> Move:
        for m in legal:
            if isinstance(m, PlayPayOff):
                return m
        plays = [m for m in legal if isinstance(m, PlayHand | PlaySide)]
        if plays:
            return plays[int(rng.below(len(plays)))]
        return legal[int(rng.below(len(legal)))]


class PlannerAgent:
    """Plans the whole turn with the Rust turn planner and plays its first move.

    The default ``"hard"`` weights play the pay-off card first, dig towards it, keep wild
    kings for pay-off plays, keep side stacks ordered when discarding and avoid opening the
    next player's pay-off card. ``weights`` is a preset name or a weight vector over
    :data:`~cardcore.spite_malice.planner.FEATURES`; with ``low_stock > 0`` the agent switches
    to ``low_stock_weights`` once the stock holds fewer cards (off by default).
    ``fallbacks`` counts decisions where the plan's move was not legal (never expected; the
    agent then plays greedily); ``calls`` counts planner calls.
    """

    def __init__(
        self,
        weights: Weights = "hard",
        node_limit: int = 500_000,
        *,
        low_stock: int = 0,
        low_stock_weights: Weights | None = None,
    ) -> None:
        self.weights = weights
        self.node_limit = node_limit
        self.low_stock = low_stock
        self.low_stock_weights = low_stock_weights
        self.fallbacks = 0
        self.calls = 0

    def act(self, observation: Observation, legal: Sequence[Move], rng: Any) -> Move:
        self.calls += 1
        weights = self.weights
        if observation.stock_count < self.low_stock and self.low_stock_weights is not None:
            weights = self.low_stock_weights
        plan = plan_turn(observation, weights, node_limit=self.node_limit)
        if plan.moves:
            first = plan.moves[0]
            if first in legal:
                return first
        self.fallbacks += 1
        return GreedyAgent().act(observation, legal, rng)
