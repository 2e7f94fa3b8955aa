"""Three-Thirteen meld solver: hands per second by size and wild count, batch vs OpenSpiel.

    pytest benches/test_bench_melds.py --benchmark-enable -q     # figures + summary table
    pytest benches/test_bench_melds.py --benchmark-disable -q    # smoke run (each once)

Figures use the *fastest* round of each benchmark (pytest-benchmark ``min``) timed with the
process CPU clock (``time.process_time``), so time spent preempted by other processes on a
shared machine is not counted. Targets (issue 3, printed next to the figures, not asserted):

* single-deck, no-wild 10-card hands in batch: >= 5,000,000 hands/s and >= 7x OpenSpiel's
  gin rummy ``min_deadwood`` measured in the same run (OpenSpiel has no batch call, so it is
  called once per hand, its only form);
* 14-card hands holding exactly 2 wilds: <= 1 µs each (batch);
* ``best_discards`` of a 14-card hand: <= 4 µs (one Python call per hand).

Hands come from ``cardcore.rng`` streams, so every run measures the same hands.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cardcore import Rng
from cardcore.three_thirteen.melds import (
    best_melds,
    deadwood_of_faces,
    deadwood_of_faces_batch,
    discard_deadwoods_of_faces,
)

pytestmark = pytest.mark.benchmark(timer=time.process_time)

WILD = 7  # wild rank of the two-deck hands
_figures: dict[str, str] = {}
_rates: dict[str, float] = {}


def _perm(seed: int, k: int, n: int) -> list[int]:
    return Rng.for_stream(seed, k, "deck").permutation(n)


def plain_hands(count: int) -> dict[int, list[bytes]]:
    """Single-deck 10-card hands, grouped by a wild rank none of their cards has (so no card
    is wild: the gin rummy setting)."""
    groups: dict[int, list[bytes]] = {}
    for k in range(count):
        faces = bytes(_perm(11, k, 52)[:10])
        ranks = {f % 13 + 1 for f in faces}
        wild = next(w for w in range(13, 2, -1) if w not in ranks)
        groups.setdefault(wild, []).append(faces)
    return groups


def two_deck_hands(count: int, size: int, wilds: int, seed: int = 5) -> list[bytes]:
    """``size``-card hands from two decks plus four jokers holding exactly ``wilds`` wild cards
    (wild rank 7 and jokers)."""
    naturals = [f for f in range(52) if f % 13 + 1 != WILD] * 2
    wild_cards = [s * 13 + WILD - 1 for s in range(4)] * 2 + [52, 53, 54, 55]
    out = []
    for k in range(count):
        pn = _perm(seed, 2 * k, len(naturals))
        pw = _perm(seed, 2 * k + 1, len(wild_cards))
        faces = [naturals[i] for i in pn[: size - wilds]] + [wild_cards[i] for i in pw[:wilds]]
        perm = _perm(seed + 1, k, size)
        out.append(bytes(faces[i] for i in perm))
    return out


@pytest.fixture(scope="module")
def plain() -> dict[int, list[bytes]]:
    return plain_hands(100_000)


@pytest.fixture(scope="module", autouse=True)
def _summary(show_lines: Callable[[list[str]], None]) -> Iterator[None]:
    yield
    if "ours batch" in _rates and "openspiel" in _rates:
        ratio = _rates["ours batch"] / _rates["openspiel"]
        verdict = "met" if ratio >= 7 else "MISSED"
        _figures["10-card no-wild: batch / OpenSpiel"] = (
            f"{ratio:>14.1f} x   (target >= 7x: {verdict})"
        )
    if not _figures:
        return
    lines = ["Meld solver figures", *(f"  {k:<46}{v}" for k, v in _figures.items())]
    show_lines(lines)


def _measure(benchmark: Any, fn: Callable[[], object], units: int) -> float | None:
    """Runs the benchmark; the best round's rate in units per second (None when disabled)."""
    benchmark.group = "melds"
    benchmark(fn)
    stats = getattr(benchmark, "stats", None)
    if stats is None or benchmark.disabled:
        return None
    return units / float(stats.stats.min)


def test_batch_10card_no_wild(benchmark: Any, plain: dict[int, list[bytes]]) -> None:
    total = sum(len(v) for v in plain.values())

    def run() -> int:
        n = 0
        for wild, hands in plain.items():
            n += len(deadwood_of_faces_batch(hands, wild))
        return n

    assert run() == total
    rate = _measure(benchmark, run, total)
    if rate is not None:
        _rates["ours batch"] = rate
        verdict = "met" if rate >= 5_000_000 else "MISSED"
        _figures["10-card no-wild, batch"] = f"{rate:>14,.0f} hands/s (target >= 5M: {verdict})"


def test_single_calls_10card_no_wild(benchmark: Any, plain: dict[int, list[bytes]]) -> None:
    items = [(h, w) for w, hs in plain.items() for h in hs[:2000]]

    def run() -> int:
        return sum(deadwood_of_faces(h, w) for h, w in items)

    rate = _measure(benchmark, run, len(items))
    if rate is not None:
        _figures["10-card no-wild, one Python call each"] = f"{rate:>14,.0f} hands/s"


def test_openspiel_10card(benchmark: Any, plain: dict[int, list[bytes]]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    hands = [h for hs in plain.values() for h in hs][:20_000]
    # OpenSpiel numbers suits s, c, d, h; ours c, d, h, s.
    lists = [[((f // 13 + 1) % 4) * 13 + f % 13 for f in h] for h in hands]
    md = utils.min_deadwood
    ours = {(h, w): deadwood_of_faces(h, w) for w, hs in plain.items() for h in hs[:200]}
    for (h, _), v in ours.items():
        assert md([((f // 13 + 1) % 4) * 13 + f % 13 for f in h]) == v

    def run() -> int:
        return sum(md(x) for x in lists)

    rate = _measure(benchmark, run, len(lists))
    if rate is not None:
        _rates["openspiel"] = rate
        _figures["10-card no-wild, OpenSpiel min_deadwood"] = f"{rate:>14,.0f} hands/s"


@pytest.mark.parametrize("size", [3, 7, 10, 13, 14, 20])
@pytest.mark.parametrize("wilds", [0, 1, 2, 4])
def test_batch_by_size_and_wilds(benchmark: Any, size: int, wilds: int) -> None:
    hands = two_deck_hands(2000 if size < 20 else 500, size, wilds)
    rate = _measure(benchmark, lambda: deadwood_of_faces_batch(hands, WILD), len(hands))
    if rate is not None:
        _figures[f"2 decks, {size:>2} cards, {wilds} wilds, batch"] = (
            f"{rate:>14,.0f} hands/s  ({1e6 / rate:6.2f} µs)"
        )


def test_batch_14card_2wilds(benchmark: Any) -> None:
    hands = two_deck_hands(10_000, 14, 2, seed=21)
    rate = _measure(benchmark, lambda: deadwood_of_faces_batch(hands, WILD), len(hands))
    if rate is not None:
        us = 1e6 / rate
        verdict = "met" if us <= 1.0 else "MISSED"
        _figures["14 cards, 2 wilds, batch"] = f"{us:>14.3f} µs/hand (target <= 1 µs: {verdict})"


def test_best_discards_14card(benchmark: Any) -> None:
    hands = two_deck_hands(2000, 14, 1, seed=33) + two_deck_hands(2000, 14, 2, seed=34)

    def run() -> int:
        return sum(len(discard_deadwoods_of_faces(h, WILD)) for h in hands)

    rate = _measure(benchmark, run, len(hands))
    if rate is not None:
        us = 1e6 / rate
        verdict = "met" if us <= 4.0 else "MISSED"
        _figures["best_discards, 14 cards (1-2 wilds)"] = (
            f"{us:>14.3f} µs/hand (target <= 4 µs: {verdict})"
        )


def test_best_melds_arrangement(benchmark: Any) -> None:
    hands = [" ".join(_face_text(f) for f in h) for h in two_deck_hands(300, 13, 2, seed=44)]

    def run() -> int:
        return sum(best_melds(h, WILD).points for h in hands)

    rate = _measure(benchmark, run, len(hands))
    if rate is not None:
        _figures["best_melds (arrangement), 13 cards, 2 wilds"] = f"{rate:>14,.0f} hands/s"


def _face_text(face: int) -> str:
    if face >= 52:
        return f"X{face - 51}"
    return "A23456789TJQK"[face % 13] + "cdhs"[face // 13]
