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


def _deck_size(decks: int, jokers: int) -> int:
    """Number of cards of ``decks`` decks plus ``jokers`` jokers (validated as ``deck_ids``)."""
    if decks < 0 or not 0 <= jokers <= 4 or decks + jokers == 0:
        return len(deck_ids(decks, jokers))  # raises with the message
    return 52 * decks + jokers


def _permutations(n: int, seed: int, index: int, count: int, index_name: str) -> bytes:
    """``_core.permutations`` (which validates seeds itself), re-checking in Python on error so
    the message names the caller's arguments."""
    try:
        return _core.permutations(n, seed, index, count, "deck")
    except (TypeError, ValueError):
        _check_seed(seed)
        _check_seed(index, index_name)
        raise


def deck_order(decks: int = 2, jokers: int = 0, *, seed: int, index: int = 0) -> bytes | list[int]:
    """Physical ids of a shuffled deck as ``bytes`` (or a list when there are > 256 cards).

    The fast path: one FFI call, no ``Card`` objects. Equal to row ``index`` of
    :func:`shuffle_batch` with the same seed.
    """
    n = _deck_size(decks, jokers)
    raw = _permutations(n, seed, index, 1, "index")
    return raw if n <= 256 else list(memoryview(raw).cast("H"))


def shuffled_deck(decks: int = 2, jokers: int = 0, *, seed: int, index: int = 0) -> list[Card]:
    """``decks`` decks plus ``jokers`` jokers as :class:`Card` s in seeded shuffled order."""
    return [Card.from_id(i, decks) for i in deck_order(decks, jokers, seed=seed, index=index)]


def shuffle_batch(
    decks: int = 2, jokers: int = 0, *, seed: int, count: int, start: int = 0
) -> memoryview:
    """``count`` (>= 1) shuffled decks at once (GIL released), as a ``count x n`` memoryview.

    Row ``r`` equals ``deck_order(decks, jokers, seed=seed, index=start + r)``. The items are
    unsigned bytes (format ``"B"``) for decks of at most 256 cards, else ``"H"`` (native byte
    order, which is little-endian on every supported platform). ``numpy.asarray(view)`` gives a
    2-D array without a copy. ``start + count - 1`` must be below ``2**64``.
    """
    n = _deck_size(decks, jokers)
    _check_seed(seed)
    _check_seed(start, "start")
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError(f"count must be an int, not {type(count).__name__}")
    if count < 1:
        # A memoryview cannot have a zero in its shape, so an empty batch has no 2-D form.
        raise ValueError(f"count must be >= 1, got {count}")
    raw = _core.permutations(n, seed, start, count, "deck")
    return memoryview(raw).cast("B" if n <= 256 else "H", shape=[count, n])
