"""The Spite & Malice turn planner's slow pure-Python oracle (no table, no symmetry
breaking): :func:`reference_plan_score` enumerates every sequence of centre plays and scores
each leaf as the Rust search does (``cardcore.spite_malice.planner``); tests compare the two
on small positions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cardcore.spite_malice.planner import (
    FEATURES,
    MAX_SIDE_DEPTH,
    NO_CARD,
    PlannerInput,
    Weights,
    preset_weights,
)

_F: Final = {name: i for i, name in enumerate(FEATURES)}


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
