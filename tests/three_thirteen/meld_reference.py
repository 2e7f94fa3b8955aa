"""Brute-force meld oracle for the tests, written straight from RULES §2.4–2.5.

Every subset of the hand that is a legal meld is listed (DFS over subsets, pruned only by a
monotone condition: once two naturals are neither the same rank nor the same suit with distinct
ranks, no superset can be a meld). Then ``f(mask)`` = min(value(lowest) + f(mask - lowest),
min over listed melds M holding the lowest card, M ⊆ mask, of f(mask - M)), memoised.
No shortcut from the solver (no P3, no canonical meld sizes) is used.
"""

from __future__ import annotations

from functools import cache


def rank(face: int) -> int:
    return face % 13 + 1


def suit(face: int) -> int:
    return face // 13


def is_wild(face: int, wild: int) -> bool:
    return face >= 52 or rank(face) == wild


def value(
    face: int, wild: int, ace_mode: str, wild_points: int = 15, joker_points: int = 20
) -> int:
    if face >= 52:
        return joker_points
    r = rank(face)
    if r == wild:
        return wild_points
    if r == 1:
        return 1 if ace_mode == "low" else 15
    return min(r, 10)


def naturals_compatible(nats: list[int]) -> bool:
    """Monotone necessary condition: all one rank, or one suit with pairwise distinct ranks."""
    if len({rank(f) for f in nats}) <= 1:
        return True
    return len({suit(f) for f in nats}) == 1 and len({rank(f) for f in nats}) == len(nats)


def is_meld(faces: list[int], wild: int, ace_mode: str) -> bool:
    """RULES §2.4 literally: a set, a run, or only wilds (a set)."""
    size = len(faces)
    if size < 3:
        return False
    nats = [f for f in faces if not is_wild(f, wild)]
    if len({rank(f) for f in nats}) <= 1:
        return True  # a set (or all wilds)
    if len({suit(f) for f in nats}) != 1:
        return False
    ranks = [rank(f) for f in nats]
    if len(set(ranks)) != len(ranks) or size > 13:
        return False
    placements = []
    if ace_mode in ("low", "both"):
        placements.append(ranks)
    if ace_mode in ("high", "both"):
        placements.append([14 if r == 1 else r for r in ranks])
    lo_all, hi_all = {"low": (1, 13), "high": (2, 14), "both": (1, 14)}[ace_mode]
    for pos in placements:
        lo, hi = min(pos), max(pos)
        if lo < lo_all or hi > hi_all:
            continue
        # A window of `size` consecutive positions inside lo_all..hi_all holding lo..hi.
        for a in range(lo_all, hi_all - size + 2):
            if a <= lo and hi <= a + size - 1:
                return True
    return False


def all_melds(faces: list[int], wild: int, ace_mode: str) -> list[int]:
    """Bitmasks of every subset of ``faces`` that is a legal meld."""
    n = len(faces)
    out: list[int] = []

    def dfs(start: int, mask: int, members: list[int], nats: list[int]) -> None:
        if len(members) >= 3 and is_meld(members, wild, ace_mode):
            out.append(mask)
        for k in range(start, n):
            f = faces[k]
            new_nats = nats if is_wild(f, wild) else [*nats, f]
            if not naturals_compatible(new_nats):
                continue
            dfs(k + 1, mask | (1 << k), [*members, f], new_nats)

    dfs(0, 0, [], [])
    return out


def ref_deadwood(
    faces: list[int],
    wild: int,
    ace_mode: str = "low",
    wild_points: int = 15,
    joker_points: int = 20,
) -> int:
    """Minimum over every partition into melds plus leftovers of the leftovers' value.

    Interchangeable cards (same face; any joker; any natural of the wild rank) are sorted next to
    each other, and a state keeps, per group, only *how many* of its cards remain (the highest
    positions of the group): ``f`` depends on the multiset only, so this is an exact shortcut.
    """

    def kind(f: int) -> int:
        return 100 if f >= 52 else 99 if rank(f) == wild else f

    faces = sorted(faces, key=kind)
    n = len(faces)
    vals = [value(f, wild, ace_mode, wild_points, joker_points) for f in faces]
    groups: list[int] = []  # bitmask of each group of interchangeable cards
    for k in range(n):
        if k and kind(faces[k]) == kind(faces[k - 1]):
            groups[-1] |= 1 << k
        else:
            groups.append(1 << k)
    by_low: list[list[int]] = [[] for _ in range(n)]
    for m in all_melds(faces, wild, ace_mode):
        low = (m & -m).bit_length() - 1
        by_low[low].append(m)

    def canon(mask: int) -> int:
        out = 0
        for g in groups:
            left = (mask & g).bit_count()
            top = g.bit_length()
            out |= (g >> (top - left) << (top - left)) & g if left else 0
        return out

    @cache
    def f(mask: int) -> int:
        if mask == 0:
            return 0
        low_bit = mask & -mask
        i = low_bit.bit_length() - 1
        best = vals[i] + f(canon(mask ^ low_bit))
        for m in by_low[i]:
            if m & mask == m:
                best = min(best, f(canon(mask ^ m)))
        return best

    return f((1 << n) - 1)


def has_meld(faces: list[int], wild: int, ace_mode: str = "low") -> bool:
    return bool(all_melds(faces, wild, ace_mode))
