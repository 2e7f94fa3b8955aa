"""Brute-force meld oracle for the tests, written straight from the rules of melds.

Every sub-multiset of the hand that is a legal meld is listed (DFS, pruned only by a monotone
condition: once two naturals are neither the same rank nor the same suit with distinct ranks,
no superset can be a meld); cards that are interchangeable (same face, any joker, any natural
of the wild rank) are counted, not told apart. Then ``f(hand)`` = min(value(lowest) +
f(hand - lowest), min over listed melds M holding the lowest card, M ⊆ hand, of
f(hand - M)), memoised. No shortcut from the solver (no P3, no canonical meld sizes) is used.
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
    """The rules of melds literally: a set, a run, or only wilds (a set)."""
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


def interchangeable(faces: list[int], wild: int) -> list[tuple[int, int]]:
    """The hand as ``(face, copies)`` per kind of interchangeable cards, in a fixed order.

    Cards are interchangeable when they are the same face, any two jokers, or any two naturals of
    the wild rank: they score the same and ``is_meld`` treats them the same, so a hand's melds and
    its deadwood depend only on how many cards of each kind it holds.
    """

    def kind(f: int) -> int:
        return 100 if f >= 52 else 99 if rank(f) == wild else f

    copies: dict[int, list[int]] = {}
    for f in faces:
        copies.setdefault(kind(f), []).append(f)
    return [(min(fs), len(fs)) for _, fs in sorted(copies.items())]


def meld_counts(kinds: list[tuple[int, int]], wild: int, ace_mode: str) -> list[list[int]]:
    """Every legal meld in a hand of ``kinds`` (see ``interchangeable``), each once, as how many
    cards of each kind it takes.

    DFS over every sub-multiset (kind by kind, 0 to all copies of each), pruned only by a monotone
    condition: once two naturals are neither the same rank nor the same suit with distinct ranks,
    no superset can be a meld.
    """
    out: list[list[int]] = []
    take = [0] * len(kinds)

    def dfs(start: int, members: list[int], nats: list[int]) -> None:
        if len(members) >= 3 and is_meld(members, wild, ace_mode):
            out.append(take.copy())
        for k in range(start, len(kinds)):
            f, copies = kinds[k]
            more, more_nats = members, nats
            for n in range(1, copies + 1):
                more = [*more, f]
                if not is_wild(f, wild):
                    more_nats = [*more_nats, f]
                    if not naturals_compatible(more_nats):
                        break
                take[k] = n
                dfs(k + 1, more, more_nats)
            take[k] = 0

    dfs(0, [], [])
    return out


def all_melds(faces: list[int], wild: int, ace_mode: str) -> list[list[int]]:
    """Every legal meld that can be taken from ``faces``, once per multiset of kinds of cards."""
    kinds = interchangeable(faces, wild)
    return [
        [f for (f, _), n in zip(kinds, take, strict=True) for _ in range(n)]
        for take in meld_counts(kinds, wild, ace_mode)
    ]


def ref_deadwood(
    faces: list[int],
    wild: int,
    ace_mode: str = "low",
    wild_points: int = 15,
    joker_points: int = 20,
) -> int:
    """Minimum over every partition into melds plus leftovers of the leftovers' value.

    A state is how many cards of each kind of interchangeable cards are left (``f`` depends on
    the multiset only). ``f(state)`` = min(value of one card of the lowest kind left +
    f(state minus it), min over the listed melds whose lowest kind is that kind and that fit in
    the state of f(state minus the meld)), memoised.
    """
    kinds = interchangeable(faces, wild)
    vals = [value(f, wild, ace_mode, wild_points, joker_points) for f, _ in kinds]
    # A state packs each kind's count into a 6-bit field (5 bits of count, a guard bit on top), so
    # "the meld fits" is one subtraction: with every guard bit set first, a field keeps its guard
    # exactly when its count is at least the meld's, and no borrow crosses fields.
    assert all(copies < 32 for _, copies in kinds)
    unit = [1 << (6 * k) for k in range(len(kinds))]
    guards = sum(u << 5 for u in unit)
    by_low: list[list[int]] = [[] for _ in kinds]
    for take in meld_counts(kinds, wild, ace_mode):
        low = next(k for k, n in enumerate(take) if n)
        by_low[low].append(sum(n * u for n, u in zip(take, unit, strict=True)))

    @cache
    def f(state: int) -> int:
        if state == 0:
            return 0
        i = ((state & -state).bit_length() - 1) // 6
        best = vals[i] + f(state - unit[i])
        for m in by_low[i]:
            if ((state | guards) - m) & guards == guards:
                best = min(best, f(state - m))
        return best

    return f(sum(copies * u for (_, copies), u in zip(kinds, unit, strict=True)))


def has_meld(faces: list[int], wild: int, ace_mode: str = "low") -> bool:
    return bool(all_melds(faces, wild, ace_mode))
