"""The public API at the surface, next to its peers measured in the same run.

    pytest benches/test_bench_surface.py --benchmark-enable -q     # figures + summary table
    pytest benches/test_bench_surface.py --benchmark-disable -q    # smoke run (each once)

Hands: 20,000 single-deck 10-card hands with no wild card (the gin rummy setting), the same
hands for every row. Rates use the fastest round (pytest-benchmark ``min``) on the process CPU
clock. Targets (issue 13, printed, not asserted):

* ``min_deadwood`` per call, on card text and on ``Card`` lists: >= 2x OpenSpiel's
  ``GinRummyUtils.min_deadwood`` per call;
* ``min_deadwood_batch`` on lists of ``Card`` lists: >= 5 M hands/s;
* ``min_deadwood_batch`` on a numpy array of card ids: within 1.5x of the core batch (one
  ``bytes`` buffer of face codes, ``deadwood_of_packed_faces``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cardcore import Card, Rng, deck_order, shuffle_batch
from cardcore.three_thirteen.melds import (
    deadwood_of_packed_faces,
    min_deadwood,
    min_deadwood_batch,
)

pytestmark = pytest.mark.benchmark(timer=time.process_time)

HANDS = 20_000
WILD = 13  # a rank none of the hands holds (see `_hands`)
_rates: dict[str, float] = {}
_rows: list[str] = []


def _hands() -> list[bytes]:
    """10-card single-deck hands without a king, so with wild rank K no card is wild."""
    out: list[bytes] = []
    k = 0
    while len(out) < HANDS:
        perm = Rng.for_stream(13, k, "deck").permutation(48)
        out.append(bytes(f + f // 12 for f in perm[:10]))  # skip the king of each suit
        k += 1
    return out


@pytest.fixture(scope="module")
def hands() -> list[bytes]:
    return _hands()


def _measure(benchmark: Any, name: str, fn: Callable[[], object], units: int) -> None:
    benchmark.group = "surface"
    benchmark(fn)
    stats = getattr(benchmark, "stats", None)
    if stats is not None and not benchmark.disabled:
        _rates[name] = units / float(stats.stats.min)


def _row(figure: str, ours: str, peer: str | None, target: str, met: bool | None) -> None:
    """One line: our rate, the peer's rate in the same run and their ratio, the target."""
    if ours not in _rates or (peer is not None and peer not in _rates):
        return
    side = ""
    if peer is not None:
        side = f"  vs {peer} {_rates[peer]:>12,.0f}/s = {_rates[ours] / _rates[peer]:5.2f}x"
    verdict = "" if met is None else f" ({target}: {'met' if met else 'MISSED'})"
    _rows.append(f"  {figure:<34}{_rates[ours]:>12,.0f}/s{side}{verdict}")


def _ratio_at_least(a: str, b: str, x: float) -> bool | None:
    return _rates[a] / _rates[b] >= x if a in _rates and b in _rates else None


@pytest.fixture(scope="module", autouse=True)
def _summary(show_lines: Callable[[list[str]], None]) -> Iterator[None]:
    yield
    _row(
        "min_deadwood(text), per call",
        "text",
        "openspiel",
        ">= 2x",
        _ratio_at_least("text", "openspiel", 2.0),
    )
    _row(
        "min_deadwood(Card list), per call",
        "cards",
        "openspiel",
        ">= 2x",
        _ratio_at_least("cards", "openspiel", 2.0),
    )
    batch = _rates.get("batch cards")
    _row(
        "min_deadwood_batch(Card lists)",
        "batch cards",
        "core batch",
        ">= 5 M/s",
        None if batch is None else batch >= 5e6,
    )
    _row(
        "min_deadwood_batch(numpy ids)",
        "batch numpy",
        "core batch",
        "within 1.5x",
        _ratio_at_least("batch numpy", "core batch", 1 / 1.5),
    )
    _row("deck_order, per call", "deck_order", None, "", None)
    _row("shuffle_batch -> numpy array", "shuffle_batch numpy", None, "", None)
    if _rows:
        show_lines(["Public API figures (hands/s or decks/s)", *_rows])


def _text(h: bytes) -> str:
    return " ".join(str(Card(f)) for f in h)


def test_openspiel_per_call(benchmark: Any, hands: list[bytes]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    md = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood
    # OpenSpiel numbers suits s, c, d, h; ours c, d, h, s.
    lists = [[((f // 13 + 1) % 4) * 13 + f % 13 for f in h] for h in hands]
    assert [md(x) for x in lists[:500]] == [min_deadwood(_text(h), WILD) for h in hands[:500]]
    _measure(benchmark, "openspiel", lambda: [md(x) for x in lists], len(lists))


def test_min_deadwood_text_per_call(benchmark: Any, hands: list[bytes]) -> None:
    texts = [_text(h) for h in hands]
    _measure(benchmark, "text", lambda: [min_deadwood(t, WILD) for t in texts], len(texts))


def test_min_deadwood_cards_per_call(benchmark: Any, hands: list[bytes]) -> None:
    cards = [[Card(f) for f in h] for h in hands]
    _measure(benchmark, "cards", lambda: [min_deadwood(c, WILD) for c in cards], len(cards))


def test_core_batch(benchmark: Any, hands: list[bytes]) -> None:
    packed = b"".join(hands)
    _measure(
        benchmark, "core batch", lambda: deadwood_of_packed_faces(packed, 10, WILD), len(hands)
    )


def test_batch_of_card_lists(benchmark: Any, hands: list[bytes]) -> None:
    cards = [[Card(f) for f in h] for h in hands]
    expected = deadwood_of_packed_faces(b"".join(hands), 10, WILD)
    assert min_deadwood_batch(cards, WILD) == expected
    _measure(benchmark, "batch cards", lambda: min_deadwood_batch(cards, WILD), len(cards))


def test_batch_of_numpy_ids(benchmark: Any, hands: list[bytes]) -> None:
    np = pytest.importorskip("numpy")
    ids = np.frombuffer(b"".join(hands), dtype=np.uint8).reshape(len(hands), 10).astype(np.int64)
    expected = deadwood_of_packed_faces(b"".join(hands), 10, WILD)
    assert list(min_deadwood_batch(ids, WILD)) == expected
    _measure(benchmark, "batch numpy", lambda: min_deadwood_batch(ids, WILD), len(hands))


def test_deck_order_per_call(benchmark: Any) -> None:
    _measure(
        benchmark, "deck_order", lambda: [deck_order(2, seed=7, index=i) for i in range(2000)], 2000
    )


def test_shuffle_batch_as_numpy(benchmark: Any) -> None:
    np = pytest.importorskip("numpy")
    arr = np.asarray(shuffle_batch(2, seed=7, count=10))
    assert arr.shape == (10, 104)
    assert list(arr[3]) == list(deck_order(2, seed=7, index=3))
    _measure(
        benchmark,
        "shuffle_batch numpy",
        lambda: np.asarray(shuffle_batch(2, seed=7, count=100_000)),
        100_000,
    )
