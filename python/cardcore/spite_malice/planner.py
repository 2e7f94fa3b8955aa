"""The turn planner: one Rust call searches every building sequence of the current turn.

From the hand, the own side stacks, the pay-off top and the centre stacks' effective ranks,
:func:`plan_turn` searches every sequence of centre plays (transpositions merged, wild cards
handled, equal cards and equal stacks tried once) and scores each reachable position either
with a final discard or as a terminal event that reveals new cards (the pay-off top played,
or the hand emptied and refilled). The score is a weighted sum of :data:`FEATURES`; pass a
built-in preset name (``"hard"``, ``"plays"``, ``"payoff"``) or your own weight vector.

:func:`reference_plan_score` is the slow pure-Python oracle (no table, no symmetry breaking)
that the tests compare the Rust search with on small positions.
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
    "NO_CARD",
    "Plan",
    "PlannerInput",
    "plan_raw",
    "plan_turn",
    "planner_input",
    "preset_weights",
    "reference_plan_score",
]

FEATURES: Final[tuple[str, ...]] = tuple(_core.SPITE_FEATURES)
NO_CARD: Final = 255
MAX_SIDE_DEPTH: Final = 16
MAX_CENTER: Final = 12
_SIDE_RULES: Final = {"any": 0, "same_or_one_lower": 1, "no_aces": 2}
_F: Final = {name: i for i, name in enumerate(FEATURES)}

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
    return _core.spite_plan(
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
    return Plan(tuple(moves), score, nodes, complete, tuple(steps))


# --- pure-Python oracle -------------------------------------------------------------------


def _fits(v: int, e: int, top: int, wild_start: bool) -> bool:
    if v == 0:
        return e < top and (e > 0 or wild_start)
    return v == e + 1


def _gap(inp: PlannerInput, center: Sequence[int], v: int) -> float:
    if v == 0:
        return 0.0 if any(_fits(0, e, inp.top, inp.wild_start) for e in center) else inp.top
    return float(min([v - 1 - e for e in center if e < v] + [inp.top]))


def _chain(inp: PlannerInput, center: Sequence[int], q: int) -> bool:
    if q in (NO_CARD, 0):
        return False
    tops = inp.next_side_tops
    wilds = sum(1 for t in tops if t == 0)
    for e in center:
        if e >= q:
            continue
        missing = sum(1 for r in range(e + 1, q) if r not in tops)
        if missing <= wilds:
            return True
    return False


DANGER_BASE: Final = 0.45


def _danger(inp: PlannerInput, center: Sequence[int], q: int) -> float:
    if q in (NO_CARD, 0):
        return 0.0
    tops = inp.next_side_tops
    wilds = sum(1 for t in tops if t == 0)
    safe = 1.0
    for e in sorted(set(center)):
        if e >= q:
            continue
        missing = sum(1 for r in range(e + 1, q) if r not in tops)
        safe *= 1.0 - DANGER_BASE ** max(0, missing - wilds)
    return 1.0 - safe


def _position_score(
    inp: PlannerInput,
    w: Sequence[float],
    used: frozenset[int],
    depth: Sequence[int],
    center: Sequence[int],
    payoff_played: bool,
) -> float:
    f = _F
    s = 0.0
    wild = sum(1 for i in used if inp.hand[i] == 0)
    side_played = sum(depth)
    wild += sum(1 for sd, d in enumerate(depth) for j in range(d) if inp.sides[sd][j] == 0)
    if payoff_played:
        s += w[f["payoff_played"]]
        s += w[f["payoff_delay"]] * (len(used) + side_played)
        fit = sum(
            1
            for v in range(inp.top + 1)
            if any(_fits(v, e, inp.top, inp.wild_start) for e in center)
        )
        s += w[f["payoff_next_fit"]] * fit / (inp.top + 1)
        if inp.payoff_left == 1:
            s += 1.0e9
    if not payoff_played:
        s += w[f["hand_played"]] * len(used)
        s += w[f["side_played"]] * side_played
    s += w[f["wild_played"]] * wild
    opps = list(inp.opp_payoffs) + [NO_CARD] * 3

    def open_(q: int) -> bool:
        return q != NO_CARD and any(_fits(q, e, inp.top, inp.wild_start) for e in center)

    nxt = opps[0]
    if nxt != NO_CARD:
        if open_(nxt):
            s += w[f["next_open"]]
        elif _chain(inp, center, nxt):
            s += w[f["next_chain"]]
        s += w[f["next_gap"]] * _gap(inp, center, nxt)
        s += w[f["next_danger"]] * _danger(inp, center, nxt)
    s += w[f["others_open"]] * sum(1 for q in opps[1:3] if open_(q))
    if not payoff_played and inp.payoff != NO_CARD:
        s += w[f["own_gap"]] * _gap(inp, center, inp.payoff)
    s += w[f["centre_sum"]] * sum(center) / inp.top
    return s


def _own_reach(
    inp: PlannerInput,
    used: frozenset[int],
    depth: Sequence[int],
    center: Sequence[int],
    card: int,
    side: int,
) -> float:
    q = inp.payoff
    if q == 0:
        return 1.0
    kept = [x for i, x in enumerate(inp.hand) if i != card and i not in used]
    for sd in range(len(inp.sides)):
        if sd == side:
            kept.append(inp.hand[card])
        elif depth[sd] < min(len(inp.sides[sd]), MAX_SIDE_DEPTH):
            kept.append(inp.sides[sd][depth[sd]])
    wilds = kept.count(0)
    best = 0.0
    for e in center:
        if e >= q:
            continue
        missing = sum(1 for r in range(e + 1, q) if r not in kept)
        best = max(best, DANGER_BASE ** max(0, missing - wilds))
    return best


def _discard_score(
    inp: PlannerInput,
    w: Sequence[float],
    used: frozenset[int],
    depth: Sequence[int],
    center: Sequence[int],
    card: int,
    side: int,
) -> float:
    f = _F
    v = inp.hand[card]
    known = [min(len(x), MAX_SIDE_DEPTH) for x in inp.sides]

    def top_of(sd: int) -> int | None:
        return inp.sides[sd][depth[sd]] if depth[sd] < known[sd] else None

    def empty(sd: int) -> bool:
        return depth[sd] >= inp.side_lens[sd]

    s = 0.0
    covered = top_of(side)
    if empty(side):
        s += w[f["discard_empty"]]
    elif covered is not None and covered == v and v != 0:
        s += w[f["discard_same"]]
    elif covered is not None and covered != 0 and v != 0 and covered == v + 1:
        s += w[f["discard_below"]]
    else:
        s += w[f["discard_bury"]]
    if v == 0:
        s += w[f["discard_wild"]] + w[f["discard_rank"]]
    else:
        s += w[f["discard_rank"]] * v / inp.top

    def playable(x: int) -> bool:
        return any(_fits(x, e, inp.top, inp.wild_start) for e in center)

    flex = sum(1 for i, x in enumerate(inp.hand) if i != card and i not in used and playable(x))
    empties = ordered = 0
    for sd in range(len(inp.sides)):
        t: int | None
        if sd == side:
            t, under = v, (None if empty(side) else covered)
        else:
            if empty(sd):
                empties += 1
                continue
            d = depth[sd]
            under = inp.sides[sd][d + 1] if d + 1 < known[sd] else None
            t = top_of(sd)
        if t is not None:
            flex += playable(t)
            if under is not None and t != 0 and under != 0 and under in (t, t + 1):
                ordered += 1
    if inp.payoff != NO_CARD:
        s += w[f["own_reach"]] * _own_reach(inp, used, depth, center, card, side)
    s += w[f["flex"]] * flex + w[f["empty_sides"]] * empties + w[f["side_ordered"]] * ordered
    return s


def _discard_ok(inp: PlannerInput, v: int, sd: int, depth: Sequence[int]) -> bool:
    if inp.side_rule == 0:
        return True
    if inp.side_rule == 2:
        return v != 1
    if depth[sd] >= inp.side_lens[sd] or v == 0:
        return True
    known = min(len(inp.sides[sd]), MAX_SIDE_DEPTH)
    if depth[sd] >= known:
        return False
    t = inp.sides[sd][depth[sd]]
    return t == 0 or t in (v, v + 1)


def reference_plan_score(inp: PlannerInput, weights: Weights = "hard") -> float:
    """Best score by plain enumeration of every sequence (exponential; small positions only)."""
    w = preset_weights(weights) if isinstance(weights, str) else list(weights)
    top = inp.top
    best = float("-inf")
    known = [min(len(x), MAX_SIDE_DEPTH) for x in inp.sides]

    def leaf(used: frozenset[int], depth: list[int], center: list[int], pp: bool) -> None:
        nonlocal best
        base = _position_score(inp, w, used, depth, center, pp)
        if pp:
            best = max(best, base)
            return
        left = [i for i in range(len(inp.hand)) if i not in used]
        if not left:
            if inp.hand:
                best = max(best, base + (w[_F["hand_emptied"]] if inp.refill_empty_hand else 0))
            return
        if inp.must_play_aces and 0 in center:
            cands = [inp.hand[i] for i in left]
            cands += [
                inp.sides[sd][depth[sd]] for sd in range(len(inp.sides)) if depth[sd] < known[sd]
            ]
            if inp.payoff == 1:
                cands.append(1)
            if 1 in cands:
                return
        allowed = [
            (i, sd)
            for i in left
            for sd in range(len(inp.sides))
            if _discard_ok(inp, inp.hand[i], sd, depth)
        ]
        if not allowed:
            allowed = [(i, sd) for i in left for sd in range(len(inp.sides))]
        for i, sd in allowed:
            best = max(best, base + _discard_score(inp, w, used, depth, center, i, sd))

    def rec(used: frozenset[int], depth: list[int], center: list[int], pp: bool) -> None:
        leaf(used, depth, center, pp)
        if pp or (inp.hand and len(used) == len(inp.hand)):
            return

        def after(c: int) -> list[int]:
            n = list(center)
            n[c] = 0 if n[c] + 1 >= top else n[c] + 1
            return n

        for c, e in enumerate(center):
            if inp.payoff != NO_CARD and _fits(inp.payoff, e, top, inp.wild_start):
                rec(used, depth, after(c), True)
            for sd in range(len(inp.sides)):
                if depth[sd] < known[sd] and _fits(
                    inp.sides[sd][depth[sd]], e, top, inp.wild_start
                ):
                    d2 = list(depth)
                    d2[sd] += 1
                    rec(used, d2, after(c), pp)
            for i, v in enumerate(inp.hand):
                if i not in used and _fits(v, e, top, inp.wild_start):
                    rec(used | {i}, depth, after(c), pp)

    rec(frozenset(), [0] * len(inp.sides), list(inp.center), False)
    return best
