"""Runner throughput: games/s per game at -j 1 and -j 2, Ray overhead, Parquet memory.

Figures only. ``CARDCORE_BENCH_SCALE`` (default 1) multiplies the work; the smoke run in CI
(``--benchmark-disable``) uses the small default. Run for real with::

    CARDCORE_BENCH_SCALE=20 pytest benches/test_bench_sim.py --benchmark-enable -s
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest

from cardcore.games.base import registered_games
from cardcore.sim import simulate

SCALE = float(os.environ.get("CARDCORE_BENCH_SCALE", "1"))
BUILTIN = ("three-thirteen", "spite-malice", "nerts")
GAMES = [g for g in BUILTIN if g in registered_games()]
BASE = {"three-thirteen": 20, "spite-malice": 40, "nerts": 20}
AGENTS = {"three-thirteen": "greedy", "spite-malice": "greedy", "nerts": "greedy"}


def _rate(game: str, n: int, jobs: int, backend: str = "local") -> float:
    t0 = time.perf_counter()
    count = sum(
        1 for _ in simulate(game, games=n, seed=1, agents=AGENTS[game], jobs=jobs, backend=backend)
    )
    assert count == n
    return n / (time.perf_counter() - t0)


@pytest.mark.parametrize("game", GAMES)
def test_games_per_second_scaling(game: str, benchmark: object) -> None:
    n = max(4, int(BASE[game] * SCALE))
    one = _rate(game, n, 1)
    two = _rate(game, 2 * n, 2)
    print(f"\n{game}: -j 1 {one:,.1f} games/s, -j 2 {two:,.1f} games/s, speed-up {two / one:.2f}x")
    benchmark.extra_info.update({"j1": one, "j2": two, "speedup": two / one})  # type: ignore[attr-defined]
    benchmark.pedantic(lambda: None, rounds=1)  # type: ignore[attr-defined]


@pytest.mark.distributed
def test_ray_overhead_versus_local(benchmark: object) -> None:
    pytest.importorskip("ray")
    if not GAMES:
        pytest.skip("no game registered")
    game = GAMES[0]
    n = max(8, int(BASE[game] * SCALE * 2))
    local = _rate(game, n, 2)
    t0 = time.perf_counter()
    remote = _rate(game, n, 2, backend="ray")
    total = time.perf_counter() - t0
    print(
        f"\n{game}: local -j 2 {local:,.1f} games/s, ray 2 CPUs {remote:,.1f} games/s "
        f"(incl. cluster start), ratio {remote / local:.2f}, {total:.1f} s"
    )
    benchmark.pedantic(lambda: None, rounds=1)  # type: ignore[attr-defined]


def test_parquet_memory_stays_flat(tmp_path: object, benchmark: object) -> None:
    """Peak RSS sampled while writing Three-Thirteen games to Parquet, early vs late."""
    pytest.importorskip("pyarrow")
    if "three-thirteen" not in GAMES:
        pytest.skip("three-thirteen not available")
    games = max(60, int(60 * SCALE))
    out = os.path.join(str(tmp_path), "g.parquet")
    script = textwrap.dedent(f"""
        import resource, sys, time
        from cardcore.sim import run_plan
        from cardcore.sim.runner import plan_run
        from cardcore.games.base import get_game
        from cardcore.sim.writers import open_writer
        plan = plan_run("three-thirteen", games={games}, seed=1, agents="greedy")
        columns = get_game("three-thirteen").record_schema.with_run_columns()
        w = open_writer({out!r}, "parquet", columns=columns)
        marks = []
        done = 0
        for recs in run_plan(plan, chunk_size=20):
            w.write(recs)
            done += len(recs)
            marks.append((done, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
        w.close()
        q = max(1, len(marks) // 4)
        print(marks[q - 1][1], marks[-1][1], done)
    """)
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    early, late, done = map(int, res.stdout.split())
    rounds = done * 11
    print(
        f"\nParquet: {done} games ({rounds} rounds): max RSS after 25% {early / 1024:.1f} MiB, "
        f"at the end {late / 1024:.1f} MiB (+{(late - early) / 1024:.1f} MiB)"
    )
    benchmark.pedantic(lambda: None, rounds=1)  # type: ignore[attr-defined]
