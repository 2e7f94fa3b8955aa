"""The meld solver's worst case at its hand limit (issue #12: any accepted hand within 1 s).

    pytest benches/test_bench_meld_limits.py --benchmark-enable -q

Times ``min_deadwood``, ``best_melds`` and ``best_discards`` on the slowest 24-card hands found
(few ranks, many copies, wilds) and prints the slowest with the 1 s target (not asserted).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from cardcore.three_thirteen.melds import best_discards, best_melds, min_deadwood

pytestmark = pytest.mark.benchmark(timer=time.process_time)

WORST_HANDS = [
    ("Js Qc Qc Qc Qh Js Qs Qs Jc Jh Jh Js Jh Qc Js Qc Qc Qs Qh Qc Qc Js X2 X2", 3),
    ("6d 9d 3s Ac 9h 3h 3d 3s As 6h 5c Ad 3c 6d Ah 9c 5d 9c 9s 6d Ah 6c Jc X1", 11),
    ("4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s 7c 7d 7h 7s 8c 8d 8h 8s X1 X1 X1 X1", 13),
]
_worst: dict[str, float] = {}


@pytest.fixture(scope="module", autouse=True)
def _summary(show_lines: Callable[[list[str]], None]) -> Iterator[None]:
    yield
    if _worst:
        lines = ["Meld solver, slowest 24-card hand (target: under 1 s)"]
        lines += [f"  {name:<14}{1000 * s:>10.2f} ms" for name, s in _worst.items()]
        show_lines(lines)


@pytest.mark.parametrize("solve", [min_deadwood, best_melds, best_discards])
def test_slowest_hand_at_the_limit(benchmark: Any, solve: Callable[[str, int], object]) -> None:
    def run() -> None:
        for hand, wild in WORST_HANDS:
            solve(hand, wild)

    benchmark.group = "meld limits"
    benchmark(run)
    if not benchmark.disabled:
        slowest = 0.0
        for hand, wild in WORST_HANDS:
            t = time.process_time()
            solve(hand, wild)
            slowest = max(slowest, time.process_time() - t)
        _worst[solve.__name__] = slowest
