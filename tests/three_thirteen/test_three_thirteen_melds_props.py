"""Meld solver against the brute-force oracle of ``meld_reference`` and RULES properties P1–P3.

10,000 hypothesis hands in all (derandomised, so CI is reproducible): 4,000 drawn uniformly from
two decks plus four jokers and 6,000 from small dense pools (few suits and ranks, up to three
copies, extra wilds) where melds, duplicates and wild choices interact. Sizes are 3–14, weighted
towards smaller hands so the pure-Python oracle keeps the file near a minute.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardcore import Card
from cardcore.three_thirteen.melds import (
    MeldRules,
    best_melds,
    deadwood_of_faces,
    deadwood_of_faces_batch,
    discard_deadwoods_of_faces,
)
from meld_reference import has_meld, is_meld, rank, ref_deadwood, suit

SETTINGS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ACE_MODES = st.sampled_from(["low", "low", "high", "both"])
SIZES = st.sampled_from([3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 10, 11, 12, 13, 14])


@st.composite
def uniform_hands(draw: st.DrawFn) -> tuple[list[int], int, str]:
    n = draw(SIZES)
    deck = [*range(52), *range(52), 52, 53, 54, 55]
    idx = draw(st.lists(st.integers(0, len(deck) - 1), min_size=n, max_size=n, unique=True))
    return [deck[i] for i in idx], draw(st.integers(3, 13)), draw(ACE_MODES)


@st.composite
def dense_hands(draw: st.DrawFn) -> tuple[list[int], int, str]:
    n = draw(SIZES)
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True))
    lo = draw(st.integers(1, 9))
    ranks = list(range(lo, lo + 5))
    if draw(st.booleans()):
        ranks += [1, 12, 13]  # ace-end runs
    wild = draw(st.integers(3, 13))
    pool = [s * 13 + r - 1 for s in suits for r in ranks] * 3
    pool += [52, 53, 54, 55] + [s * 13 + wild - 1 for s in range(4)]
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n, unique=True))
    return [pool[i] for i in idx], wild, draw(ACE_MODES)


def check(faces: list[int], wild: int, ace_mode: str) -> None:
    rules = MeldRules(ace_mode)
    got = deadwood_of_faces(bytes(faces), wild, rules)
    want = ref_deadwood(faces, wild, ace_mode)
    assert got == want, (faces, wild, ace_mode)


@settings(SETTINGS, max_examples=4000)
@given(uniform_hands())
def test_uniform_hands_match_reference(case: tuple[list[int], int, str]) -> None:
    check(*case)


@settings(SETTINGS, max_examples=6000)
@given(dense_hands())
def test_dense_hands_match_reference(case: tuple[list[int], int, str]) -> None:
    check(*case)


@settings(SETTINGS, max_examples=300)
@given(dense_hands(), st.integers(0, 40), st.integers(0, 40))
def test_points_options_match_reference(
    case: tuple[list[int], int, str], wild_points: int, joker_points: int
) -> None:
    faces, wild, ace_mode = case
    rules = MeldRules(ace_mode, wild_points, joker_points)
    got = deadwood_of_faces(bytes(faces), wild, rules)
    assert got == ref_deadwood(faces, wild, ace_mode, wild_points, joker_points)


@settings(SETTINGS, max_examples=600)
@given(st.one_of(dense_hands(), uniform_hands()))
def test_arrangement_is_legal_and_optimal(case: tuple[list[int], int, str]) -> None:
    faces, wild, ace_mode = case
    cards = [Card(f, 0) for f in faces]  # joker faces need the deck given
    arr = best_melds(cards, wild, ace_mode=ace_mode)
    assert arr.points == deadwood_of_faces(bytes(faces), wild, MeldRules(ace_mode))
    used = sorted(f for m in arr.melds for f in (c.face for c in m.cards))
    assert sorted(used + [c.face for c in arr.deadwood]) == sorted(faces)
    for m in arr.melds:
        assert is_meld([c.face for c in m.cards], wild, ace_mode), str(m)
        for c, s in zip(m.cards, m.stands_for, strict=True):
            if s is not None:
                assert c.is_joker or c.rank == wild
                if m.kind == "run":  # a wild in a run stands for a card of the run's suit
                    nat = [x for x in m.cards if not (x.is_joker or x.rank == wild)]
                    assert not nat or s.suit == nat[0].suit
    # P3: once the hand holds any meld, no wild is left in the deadwood.
    if has_meld(faces, wild, ace_mode):
        assert all(not (c.is_joker or c.rank == wild) for c in arr.deadwood)


@settings(SETTINGS, max_examples=400)
@given(st.one_of(dense_hands(), uniform_hands()))
def test_discards_equal_individual_solves(case: tuple[list[int], int, str]) -> None:
    faces, wild, ace_mode = case
    rules = MeldRules(ace_mode)
    hand = bytes(faces)
    got = discard_deadwoods_of_faces(hand, wild, rules)
    want = [deadwood_of_faces(hand[:i] + hand[i + 1 :], wild, rules) for i in range(len(hand))]
    assert got == want


@settings(SETTINGS, max_examples=100)
@given(st.lists(st.one_of(dense_hands(), uniform_hands()), min_size=0, max_size=30))
def test_batch_equals_single(cases: list[tuple[list[int], int, str]]) -> None:
    for wild in (3, 7, 13):
        hands = [bytes(c[0]) for c in cases]
        assert deadwood_of_faces_batch(hands, wild) == [deadwood_of_faces(h, wild) for h in hands]


def compatible(a: int, b: int) -> bool:
    """P1: same rank, or same suit with rank distance 1 or 2 (no wrap)."""
    return rank(a) == rank(b) or (suit(a) == suit(b) and 1 <= abs(rank(a) - rank(b)) <= 2)


def test_p1_pairs_with_one_wild_exhaustive() -> None:
    for wild in (3, 8, 13):
        naturals = [f for f in range(52) if rank(f) != wild]
        for a, b in itertools.combinations_with_replacement(naturals, 2):
            for w in (52, (wild - 1) + 13 * 2):
                melded = deadwood_of_faces(bytes([a, b, w]), wild) == 0
                assert melded == compatible(a, b), (a, b, w)


def test_p2_two_wilds_and_any_card() -> None:
    for wild in (3, 9, 13):
        wilds = [52, 53, wild - 1, 13 + wild - 1]
        for f in range(56):
            for w1, w2 in itertools.combinations(wilds, 2):
                assert deadwood_of_faces(bytes([f, w1, w2]), wild) == 0
                assert deadwood_of_faces(bytes([f, w1, w2]), wild, MeldRules("high")) == 0


def test_twenty_card_hands_match_reference() -> None:
    # A few 20-card analysis hands with duplicates and wilds, dense enough to be hard.
    hands = [
        [0, 1, 2, 3, 4, 0, 1, 2, 13, 14, 15, 16, 26, 27, 28, 39, 40, 52, 53, 6],
        [9, 10, 11, 12, 22, 23, 24, 25, 35, 36, 37, 38, 9, 22, 35, 48, 49, 50, 51, 54],
        [4, 5, 6, 17, 18, 19, 30, 31, 32, 4, 5, 6, 17, 18, 19, 43, 44, 45, 52, 2],
        [0, 13, 26, 39, 0, 13, 26, 39, 1, 14, 27, 40, 2, 15, 28, 41, 12, 25, 38, 51],
        [3, 7, 11, 16, 20, 24, 29, 33, 37, 42, 46, 50, 0, 26, 5, 31, 52, 53, 54, 55],
    ]
    for faces in hands:
        for wild, ace_mode in ((3, "low"), (7, "both"), (13, "high")):
            want = ref_deadwood(faces, wild, ace_mode)
            assert deadwood_of_faces(bytes(faces), wild, MeldRules(ace_mode)) == want
            arr = best_melds([Card(f, 0) for f in faces], wild, ace_mode=ace_mode)
            assert arr.points == want
