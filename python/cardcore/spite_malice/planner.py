"""The turn planner: one Rust call searches every building sequence of the current turn.

From the hand, the own side stacks, the pay-off top and the centre stacks' effective ranks,
:func:`plan_turn` searches every sequence of centre plays (transpositions merged, wild cards
handled, equal cards and equal stacks tried once) and scores each reachable position either
with a final discard or as a terminal event that reveals new cards (the pay-off top played,
or the hand emptied and refilled). The score is a weighted sum of :data:`FEATURES`; pass a
built-in preset name (``"hard"``, ``"plays"``, ``"payoff"``) or your own weight vector.

The slow pure-Python oracle the tests compare the Rust search with is
``tests/spite_malice/spite_malice_planner_reference.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from cardcore import _core
from cardcore.spite_malice.rules import (
    Discard,
    Move,
    Observation,
    PlayHand,
    PlayPayOff,
    PlaySide,
)

__all__ = [
    "FEATURES",
    "MAX_SIDE_DEPTH",
    "NO_CARD",
    "Plan",
    "PlannerInput",
    "plan_moves",
    "plan_raw",
    "plan_turn",
    "planner_input",
    "preset_weights",
]

FEATURES: Final[tuple[str, ...]] = tuple(_core.SPITE_FEATURES)
NO_CARD: Final[int] = _core.SPITE_NO_CARD
MAX_SIDE_DEPTH: Final[int] = _core.SPITE_MAX_SIDE_DEPTH
MAX_CENTER: Final[int] = _core.SPITE_MAX_CENTER
_SIDE_RULES: Final = {"any": 0, "same_or_one_lower": 1, "no_aces": 2}

Weights = str | Sequence[float]


def preset_weights(name: str) -> list[float]:
    """The built-in weight vector ``name`` (``hard``, ``plays``, ``payoff``)."""
    return list(_core.spite_weights(name))


@dataclass(frozen=True, slots=True)
class PlannerInput:
    """A position in the planner's encoding (rank values, 0 = wild, ``NO_CARD`` = none)."""

    hand: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...]  # each side stack from the top down
    side_lens: tuple[int, ...]
    payoff: int
    payoff_left: int
    center: tuple[int, ...]
    opp_payoffs: tuple[int, ...] = ()
    next_side_tops: tuple[int, ...] = ()
    top: int = 12
    wild_start: bool = True
    refill_empty_hand: bool = True
    side_rule: int = 0
    must_play_aces: bool = False


@dataclass(frozen=True, slots=True)
class Plan:
    """The planner's answer: engine moves (the last one a discard unless the plan ends on a
    terminal event), its score, nodes expanded and whether the search finished."""

    moves: tuple[Move, ...]
    score: float
    nodes: int
    complete: bool
    steps: tuple[tuple[int, int, int], ...]


def plan_raw(
    inp: PlannerInput, weights: Weights = "hard", *, node_limit: int = 500_000
) -> tuple[float, list[tuple[int, int, int]], int, bool]:
    """Runs the Rust search on an encoded position: ``(score, steps, nodes, complete)``.

    Steps are ``(0, centre, 0)`` pay-off, ``(1, side, centre)``, ``(2, hand_index, centre)``,
    ``(3, hand_index, side)`` discard.
    """
    w = preset_weights(weights) if isinstance(weights, str) else [float(x) for x in weights]
    plan = _core.spite_plan(
        bytes(inp.hand),
        [bytes(s[:MAX_SIDE_DEPTH]) for s in inp.sides],
        list(inp.side_lens),
        inp.payoff,
        inp.payoff_left,
        bytes(inp.center),
        bytes(inp.opp_payoffs),
        bytes(inp.next_side_tops),
        w,
        top=inp.top,
        wild_start=inp.wild_start,
        refill_empty_hand=inp.refill_empty_hand,
        side_rule=inp.side_rule,
        must_play_aces=inp.must_play_aces,
        node_limit=node_limit,
    )
    return plan.score, plan.steps, plan.nodes, plan.complete


def planner_input(obs: Observation) -> PlannerInput:
    """Encodes what ``obs.seat`` sees (its own turn) for the planner."""
    o = obs.options
    rank = obs.rank
    seat = obs.seat
    p = o.num_players
    own_sides = obs.side_stacks[seat]
    pay = obs.payoff_tops[seat]
    center = list(obs.center_ranks())
    if o.center_limit == 0:  # unlimited: offer spare empty slots beyond the engine's one
        center += [0] * max(0, min(MAX_CENTER, len(center) + 4) - len(center))
    center = center[:MAX_CENTER]
    opps: list[int] = []
    for k in range(1, min(p, 4)):
        t = obs.payoff_tops[(seat + k) % p]
        opps.append(NO_CARD if t is None else rank(t))
    nxt = obs.side_stacks[(seat + 1) % p]
    return PlannerInput(
        hand=tuple(rank(c) for c in obs.hand),
        sides=tuple(tuple(rank(c) for c in reversed(s[-MAX_SIDE_DEPTH:])) for s in own_sides),
        side_lens=tuple(len(s) for s in own_sides),
        payoff=NO_CARD if pay is None else rank(pay),
        payoff_left=obs.payoff_counts[seat],
        center=tuple(center),
        opp_payoffs=tuple(opps),
        next_side_tops=tuple(rank(s[-1]) for s in nxt if s),
        top=o.top_rank,
        wild_start=o.king_can_start_stack,
        refill_empty_hand=o.refill_empty_hand,
        side_rule=_SIDE_RULES[o.side_stack_rule],
        must_play_aces=o.must_play_aces,
    )


def plan_turn(obs: Observation, weights: Weights = "hard", *, node_limit: int = 500_000) -> Plan:
    """Best sequence for ``obs.seat`` (whose turn it must be), as engine moves."""
    inp = planner_input(obs)
    score, steps, nodes, complete = plan_raw(inp, weights, node_limit=node_limit)
    return Plan(plan_moves(obs, steps), score, nodes, complete, tuple(steps))


def plan_moves(obs: Observation, steps: Sequence[tuple[int, int, int]]) -> tuple[Move, ...]:
    """Planner steps (hand indices into ``obs.hand``) as engine moves for ``obs.seat``."""
    engine_slots = len(obs.center)
    first_free = next((i for i, c in enumerate(obs.center) if not c), 0)
    hand = obs.hand

    def slot(c: int) -> int:
        return c if c < engine_slots else first_free

    moves: list[Move] = []
    for kind, a, b in steps:
        if kind == 0:
            moves.append(PlayPayOff(slot(a)))
        elif kind == 1:
            moves.append(PlaySide(a, slot(b)))
        elif kind == 2:
            moves.append(PlayHand(hand[a], slot(b)))
        elif kind == 3:
            moves.append(Discard(hand[a], b))
    return tuple(moves)
