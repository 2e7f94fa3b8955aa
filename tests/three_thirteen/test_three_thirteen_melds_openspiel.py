"""Differential test against a real peer: OpenSpiel's gin rummy minimum-deadwood utility.

Gin rummy has one deck, no wild cards, aces low and J/Q/K worth 10, the same values as ours when
no card is wild. Each hand gets a wild rank that none of its cards has, so every card is natural
for us too. OpenSpiel's ``min_deadwood`` takes 10 cards (the deadwood of the hand) or 11 (the
best deadwood after one discard), so 11-card hands are compared with our ``best_discards``.
Skipped when ``open-spiel`` (a ``test`` extra) is not installed.
"""

from __future__ import annotations

import pytest

from cardcore import Rng
from cardcore.three_thirteen.melds import deadwood_of_faces, discard_deadwoods_of_faces

pyspiel = pytest.importorskip("pyspiel")


def to_openspiel(face: int) -> int:
    """OpenSpiel numbers cards ``suit * 13 + rank`` with suits s, c, d, h; ours are c, d, h, s."""
    suit, rank0 = divmod(face, 13)
    return ((suit + 1) % 4) * 13 + rank0


def absent_wild(faces: bytes) -> int | None:
    ranks = {f % 13 + 1 for f in faces}
    return next((w for w in range(13, 2, -1) if w not in ranks), None)


def random_hands(n: int, size: int, seed: int) -> list[bytes]:
    out = []
    for k in range(n):
        perm = Rng.for_stream(seed, k, "deck").permutation(52)
        out.append(bytes(perm[:size]))
    return out


def test_openspiel_card_mapping() -> None:
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    names = "A23456789TJQK"
    for face in range(52):
        ours = names[face % 13] + "cdhs"[face // 13]
        assert utils.card_string(to_openspiel(face)) == ours


def test_ten_card_hands_agree_with_openspiel() -> None:
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    hands = random_hands(20_000, 10, seed=2026)
    for faces in hands:
        wild = absent_wild(faces)
        assert wild is not None  # 10 cards cannot cover the 11 ranks 3..K
        theirs = utils.min_deadwood([to_openspiel(f) for f in faces])
        assert deadwood_of_faces(faces, wild) == theirs, faces.hex()


def test_eleven_card_hands_agree_with_openspiel() -> None:
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    compared = 0
    for faces in random_hands(5_000, 11, seed=7):
        wild = absent_wild(faces)
        if wild is None:
            continue
        theirs = utils.min_deadwood([to_openspiel(f) for f in faces])
        assert min(discard_deadwoods_of_faces(faces, wild)) == theirs, faces.hex()
        compared += 1
    assert compared > 4_900


def test_dense_single_suit_hands_agree_with_openspiel() -> None:
    # Many runs and sets at once: 10 cards from three suits and seven ranks.
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    pool = [s * 13 + r for s in range(3) for r in range(7)]  # A..7 of clubs, diamonds, hearts
    for k in range(3_000):
        perm = Rng.for_stream(99, k, "deck").permutation(len(pool))
        faces = bytes(pool[i] for i in perm[:10])
        theirs = utils.min_deadwood([to_openspiel(f) for f in faces])
        assert deadwood_of_faces(faces, 13) == theirs, faces.hex()
