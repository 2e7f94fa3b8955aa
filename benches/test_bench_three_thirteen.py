"""Three-Thirteen game benchmarks: full games/s, decisions/s (greedy), hard vs greedy win rate.

Figures are printed (run with ``-s``) and stored in ``benchmark.extra_info``. Targets (issue 3):
>= 50,000 decisions/s per core with greedy agents; ``hard`` wins >= 40% of 4-player games
against three ``greedy`` (parity 25%) over >= 2,000 seat-rotated games.

The win-rate measurement is long, so its size comes from the environment:
``CARDCORE_TT_HARD_GAMES`` (default 8, a smoke test) and ``CARDCORE_TT_HARD_START`` (first game
index, to split a run over several processes). The full figure::

    CARDCORE_TT_HARD_GAMES=2000 pytest benches/test_bench_three_thirteen.py -k hard -s
"""

from __future__ import annotations

import os
import time
from typing import Any

from cardcore.report.stats import wilson
from cardcore.three_thirteen.rules import Options
from cardcore.three_thirteen.spec import run_game


def _greedy_games(count: int, first_seed: int) -> tuple[int, float, float]:
    """Decisions, wall seconds and CPU seconds of ``count`` greedy games."""
    decisions = 0
    t0 = time.perf_counter()
    c0 = time.process_time()
    for g in range(count):
        _, d = run_game(Options(), first_seed + g, ["greedy"] * 4)
        decisions += d
    return decisions, time.perf_counter() - t0, time.process_time() - c0


def test_bench_greedy_full_games(benchmark: Any) -> None:
    """Four greedy agents, default rules: whole 11-round games."""
    counter = {"seed": 0}

    def one_game() -> int:
        counter["seed"] += 1
        _, d = run_game(Options(), counter["seed"], ["greedy"] * 4)
        return d

    benchmark(one_game)
    games = int(os.environ.get("CARDCORE_TT_GREEDY_GAMES", "10"))
    decisions, elapsed, cpu = _greedy_games(games, 10_000)
    gps = games / elapsed
    dps = decisions / elapsed
    benchmark.extra_info.update(
        {
            "games_per_s": gps,
            "decisions_per_s": dps,
            "decisions_per_cpu_s": decisions / cpu,
            "decisions_per_game": decisions / games,
        }
    )
    print(
        f"\nthree-thirteen greedy x4: {gps:.1f} games/s, {dps:,.0f} decisions/s wall, "
        f"{decisions / cpu:,.0f} per CPU-second ({decisions / games:.0f} decisions/game; "
        f"target >= 50,000 decisions/s per core)"
    )
    assert decisions > 0


def test_bench_random_full_games(benchmark: Any) -> None:
    """Four random agents (rounds usually run to the 400-turn cap): engine throughput."""
    counter = {"seed": 0}

    def one_game() -> int:
        counter["seed"] += 1
        _, d = run_game(Options(), counter["seed"], ["random"] * 4)
        return d

    d = benchmark(one_game)
    assert d > 0


def test_bench_hard_vs_three_greedy(benchmark: Any) -> None:
    """Seat-rotated 4-player games, hard against three greedy: win rate with a 95% interval."""
    games = int(os.environ.get("CARDCORE_TT_HARD_GAMES", "8"))
    start = int(os.environ.get("CARDCORE_TT_HARD_START", "0"))
    result: dict[str, Any] = {}

    def run() -> None:
        wins = ties = 0
        hard_sum = greedy_sum = 0.0
        t0 = time.perf_counter()
        for g in range(start, start + games):
            seat = g % 4
            names = ["greedy"] * 4
            names[seat] = "hard"
            st, _ = run_game(Options(), 1_000_000 + g, names)
            res = st.result()
            wins += res["winner"] == seat
            ties += seat in res["tied"]
            hard_sum += st.totals[seat]
            greedy_sum += (sum(st.totals) - st.totals[seat]) / 3
        result.update(
            wins=wins,
            ties=ties,
            games=games,
            hard_mean=hard_sum / games,
            greedy_mean=greedy_sum / games,
            seconds=time.perf_counter() - t0,
        )

    benchmark.pedantic(run, rounds=1, iterations=1)
    lo, hi = wilson(result["wins"], games)
    rate = result["wins"] / games
    benchmark.extra_info.update(result | {"win_rate": rate, "ci95": [lo, hi]})
    print(
        f"\nthree-thirteen hard vs 3 greedy (games {start}..{start + games - 1}): "
        f"{result['wins']}/{games} wins = {rate:.1%} (95% CI {lo:.1%}..{hi:.1%}; parity 25%, "
        f"target >= 40%), tied-for-lowest {result['ties']}, mean total hard "
        f"{result['hard_mean']:.1f} vs greedy {result['greedy_mean']:.1f}, "
        f"{games / result['seconds']:.2f} games/s"
    )
    assert 0 <= result["wins"] <= games
