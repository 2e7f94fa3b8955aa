"""Seeded randomness: one documented generator behind every shuffle and random choice.

The generator is ``cardcore-rng-v1`` (xoshiro256++ seeded by SplitMix64; streams derived from
``(master_seed, index, stream name)``), specified in ``docs/rng.md``. Seeds are ints in
``0 .. 2**64 - 1``. A seed gives the same cards in every cardcore version with the same
``RNG_VERSION``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from cardcore import _core
from cardcore.cards import Card, deck_ids

__all__ = [
    "RNG_VERSION",
    "Rng",
    "deck_order",
    "derive_seed",
    "new_seed",
    "shuffle",
    "shuffle_batch",
    "shuffled_deck",
]

T = TypeVar("T")

Rng = _core.Rng
RNG_VERSION: str = _core.RNG_VERSION
_SEED_LIMIT = 1 << 64


def _check_seed(seed: int, name: str = "seed") -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"{name} must be an int, not {type(seed).__name__}")
    if not 0 <= seed < _SEED_LIMIT:
        raise ValueError(f"{name} must be in 0..2**64-1, got {seed}")
    return seed


def new_seed() -> int:
    """A fresh seed from the operating system (record it to reproduce the run)."""
    import secrets

    return secrets.randbits(63)


def derive_seed(master: int, index: int, stream: str) -> int:
    """Seed of stream ``stream`` for item ``index`` of a run seeded with ``master``."""
    return _core.derive_seed(_check_seed(master, "master"), _check_seed(index, "index"), stream)


def shuffle(items: Sequence[T], *, seed: int) -> list[T]:
    """A new list with ``items`` in Fisher–Yates order under ``Rng(seed)``."""
    perm = Rng(_check_seed(seed)).permutation(len(items))
    return [items[i] for i in perm]


def deck_order(decks: int = 2, jokers: int = 0, *, seed: int, index: int = 0) -> bytes | list[int]:
    """Physical ids of a shuffled deck as ``bytes`` (or a list when there are > 256 cards).

    The fast path: one FFI call, no ``Card`` objects. Equal to row ``index`` of
    :func:`shuffle_batch` with the same seed.
    """
    n = len(deck_ids(decks, jokers))
    raw = _core.permutations(n, _check_seed(seed), _check_seed(index, "index"), 1, "deck")
    return raw if n <= 256 else list(memoryview(raw).cast("H"))


def shuffled_deck(decks: int = 2, jokers: int = 0, *, seed: int, index: int = 0) -> list[Card]:
    """``decks`` decks plus ``jokers`` jokers as :class:`Card` s in seeded shuffled order."""
    return [Card.from_id(i, decks) for i in deck_order(decks, jokers, seed=seed, index=index)]


def shuffle_batch(
    decks: int = 2, jokers: int = 0, *, seed: int, count: int, start: int = 0
) -> memoryview:
    """``count`` shuffled decks at once (GIL released), as a ``count x n`` memoryview of ids.

    Row ``r`` equals ``deck_order(decks, jokers, seed=seed, index=start + r)``. The items are
    unsigned bytes (format ``"B"``) for decks of at most 256 cards, else ``"H"``.
    ``numpy.asarray(view)`` gives a 2-D array without a copy.
    """
    n = len(deck_ids(decks, jokers))
    if count < 0:
        raise ValueError("count must be >= 0")
    if count == 0:
        return memoryview(b"").cast("B", shape=[0, n])
    raw = _core.permutations(n, _check_seed(seed), _check_seed(start, "start"), count, "deck")
    return memoryview(raw).cast("B" if n <= 256 else "H", shape=[count, n])
