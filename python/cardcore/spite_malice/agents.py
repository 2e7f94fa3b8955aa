"""Built-in Spite & Malice agents: ``random``, ``greedy``, ``normal`` (each decision the
planner's with probability 1/2, else greedy's), ``planner`` and ``expert`` (the strongest).

Every agent sees only ``state.observation(seat)`` and draws randomness only from the ``rng``
the runner gives its seat.

``expert`` is the planner checked by determinized look-ahead: at the start of a turn (and
after each card the turn reveals) it takes the planner's best few plans, deals the unseen
cards at random ``rollouts`` times (the previous seat only hands with which its last turn
could not have reached its pay-off top), plays each plan in every deal and the next turns
with the planner for every seat, and scores the pay-off cards it played minus the others' (a
win or a loss counts ``win_value``). The planner's plan stands unless another is ahead by more than
``margin`` standard errors of the paired difference; the chosen plan is then played move by
move. One Rust call per plan (``cardcore_engine::spite_expert``), every random choice seeded
from the seat's ``rng``; with ``time_ms`` it searches for that long instead (not
reproducible). Rules the look-ahead does not simulate (unlimited centre stacks, completed
stacks set aside, other stock-exhaustion rules) make it play as the planner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from cardcore import _core
from cardcore.errors import ArgumentTypeError, OptionError
from cardcore.games.checks import check_bool, check_int, check_real
from cardcore.games.levels import Blend
from cardcore.spite_malice.planner import (
    FEATURES,
    NO_CARD,
    Weights,
    plan_moves,
    plan_turn,
    preset_weights,
)
from cardcore.spite_malice.rules import (
    Move,
    Observation,
    PlayHand,
    PlayPayOff,
    PlaySide,
)

__all__ = ["ExpertAgent", "GreedyAgent", "NormalAgent", "PlannerAgent", "RandomAgent"]


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


def _check_weights(name: str, weights: object) -> None:
    """:class:`OptionError` (or :class:`ArgumentTypeError`) unless ``weights`` is a preset
    name or one finite number per planner feature."""
    if isinstance(weights, str):
        try:
            preset_weights(weights)
        except OptionError as e:
            raise OptionError(f"{name}: {e}") from None
        return
    try:
        ws = list(weights)  # type: ignore[call-overload]
    except TypeError:
        ws = None
    if ws is None or (not isinstance(weights, Sequence) and not hasattr(weights, "__array__")):
        raise ArgumentTypeError(
            f"{name} must be a preset name or a sequence of numbers, not {type(weights).__name__}"
        )
    if len(ws) != len(FEATURES):
        raise OptionError(f"{name} needs {len(FEATURES)} weights, got {len(ws)}")
    for i, w in enumerate(ws):
        check_real(f"{name}[{i}]", w, -math.inf)


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
        _check_weights("weights", weights)
        node_limit = check_int("node_limit", node_limit, 1)
        low_stock = check_int("low_stock", low_stock)
        if low_stock_weights is not None:
            _check_weights("low_stock_weights", low_stock_weights)
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


class NormalAgent(Blend):
    """The planner's move with probability 1/2, else greedy's."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(PlannerAgent(), GreedyAgent(), 0.5)


_SIDE_RULES = {"any": 0, "same_or_one_lower": 1, "no_aces": 2}


class ExpertAgent:
    """The planner's best plans compared by determinized look-ahead (module docstring).

    ``rollouts``: deals per plan decision (the default budget; reproducible). ``time_ms``:
    search for this long per decision instead (the game then depends on the machine's speed).
    ``candidates``: plans compared; ``horizon``: turns looked at after the current one
    (default: one round of the table). ``last_turn``: deal the previous seat only hands with
    which its last turn could not have reached its pay-off top from the centre it left (the
    centre at the start of this seat's turn; a seat has played before this one from the
    game's second turn on; the default); off, the deal is uniform over the unseen cards.
    ``deals`` and ``searches`` count the work.
    """

    def __init__(
        self,
        rollouts: int = 32,
        *,
        time_ms: float | None = None,
        candidates: int = 6,
        horizon: int | None = None,
        margin: float = 1.0,
        win_value: float = 10.0,
        node_limit: int = 500_000,
        last_turn: bool = True,
    ) -> None:
        rollouts = check_int("rollouts", rollouts)
        if time_ms is not None:
            time_ms = check_real("time_ms", time_ms, open_low=True)
        candidates = check_int("candidates", candidates, 1)
        if horizon is not None:
            horizon = check_int("horizon", horizon)
        margin = check_real("margin", margin)
        win_value = check_real("win_value", win_value)
        node_limit = check_int("node_limit", node_limit, 1)
        check_bool("last_turn", last_turn)
        self.rollouts = rollouts
        self.time_ms = time_ms
        self.candidates = candidates
        self.horizon = horizon
        self.margin = margin
        self.win_value = win_value
        self.node_limit = node_limit
        self.last_turn = last_turn
        self.weights = preset_weights("hard")
        self.deals = 0
        self.searches = 0
        self._turn = -1
        self._plan: list[Move] = []
        self._start_turn = -1
        self._start_center: bytes | None = None

    def act(self, observation: Observation, legal: Sequence[Move], rng: Any) -> Move:
        obs = observation
        if obs.turn != self._start_turn:
            # The turn's first decision: the centre is as the previous seat left it (a seat
            # has played before this one from the game's second turn on).
            self._start_turn = obs.turn
            self._start_center = bytes(obs.center_ranks()) if obs.turn > 1 else None
        if obs.turn == self._turn and self._plan and self._plan[0] in legal:
            return self._plan.pop(0)
        o = obs.options
        if (
            o.center_limit == 0
            or o.completed_stack != "shuffle_into_stock"
            or o.stock_exhausted != "tie_on_required_draw"
        ):
            return PlannerAgent(self.weights, self.node_limit).act(obs, legal, rng)
        rank = obs.rank
        p = o.num_players
        horizon = p if self.horizon is None else self.horizon
        table = _core.SpiteTable(
            seat=obs.seat,
            hand=bytes(rank(c) for c in obs.hand),
            payoff_tops=bytes(NO_CARD if t is None else rank(t) for t in obs.payoff_tops),
            payoff_counts=list(obs.payoff_counts),
            sides=[[bytes(rank(c) for c in st) for st in seat] for seat in obs.side_stacks],
            center=[bytes(rank(c) for c in st) for st in obs.center],
            hand_sizes=list(obs.hand_sizes),
            stock_count=obs.stock_count,
            decks=o.decks,
            hand_size=o.hand_size,
            top=o.top_rank,
            wild_start=o.king_can_start_stack,
            refill_empty_hand=o.refill_empty_hand,
            side_rule=_SIDE_RULES[o.side_stack_rule],
            must_play_aces=o.must_play_aces,
            turn=obs.turn,
            max_turns=o.max_turns,
            turn_start_center=self._start_center if self.last_turn else None,
        )
        params = _core.SpiteExpertParams(
            rollouts=self.rollouts,
            time_ms=self.time_ms,
            candidates=self.candidates,
            horizon=horizon,
            margin=self.margin,
            win_value=self.win_value,
            node_limit=self.node_limit,
            weights=self.weights,
        )
        decision = _core.spite_expert_decide(table, params, int(rng.next_u64()))
        steps, deals = decision.steps, decision.deals
        self.deals += deals
        self.searches += 1
        plan = list(plan_moves(obs, steps))
        if plan and plan[0] in legal:
            self._turn = obs.turn
            self._plan = plan[1:]
            return plan[0]
        self._plan = []
        return GreedyAgent().act(obs, legal, rng)
