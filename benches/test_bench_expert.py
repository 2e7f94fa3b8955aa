"""The search agents' cost: time per decision (median, p99) and games/s at the default budget.

    pytest benches/test_bench_expert.py --benchmark-enable -q     # figures
    pytest benches/test_bench_expert.py --benchmark-disable -q    # smoke run

Each measurement plays ``CARDCORE_EXPERT_GAMES`` deals (default 2) with the expert in every
seat in turn against the game's ``hard`` agent (Three-Thirteen 4 players, Spite & Malice 2),
timing every ``act`` call of the expert (wall clock, one process) and the whole games (CPU
time). Strength: ``cardcore sim ... --paired`` and ``cardcore report`` (docs/agents.md).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import cardcore
from cardcore.games.base import get_game

_rows: list[str] = []


@pytest.fixture(scope="module", autouse=True)
def _summary(show_lines: Callable[[list[str]], None]) -> Iterator[None]:
    yield
    if _rows:
        show_lines(["expert agents at the default budget (one process):", *_rows])


def _timed(factory: Callable[[], Any], times: list[float]) -> Callable[[], Any]:
    class Timed:
        def __init__(self) -> None:
            self.inner = factory()

        def act(self, observation: Any, legal: Any, rng: Any) -> Any:
            t = time.perf_counter()
            move = self.inner.act(observation, legal, rng)
            times.append(time.perf_counter() - t)
            return move

    return Timed


@pytest.mark.parametrize(
    ("game", "players", "field"), [("three-thirteen", 4, "hard"), ("spite-malice", 2, "planner")]
)
def test_bench_expert_decisions(benchmark: Any, game: str, players: int, field: str) -> None:
    deals = int(os.environ.get("CARDCORE_EXPERT_GAMES", "2"))
    times: list[float] = []
    timed = _timed(get_game(game).agents["expert"], times)

    def run() -> float:
        c0 = time.process_time()
        for k in range(players):
            agents: list[Any] = [field] * players
            agents[k] = timed
            for _ in cardcore.simulate(
                game, games=deals, seed=2026, players=players, agents=agents
            ):
                pass
        return time.process_time() - c0

    cpu = benchmark.pedantic(run, rounds=1, iterations=1)
    times.sort()
    med = statistics.median(times) * 1e3
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))] * 1e3
    games = deals * players
    benchmark.extra_info.update({"median_ms": med, "p99_ms": p99, "games_per_s": games / cpu})
    _rows.append(
        f"  {game} {players}p, expert vs {field}: {len(times)} decisions, median {med:.2f} ms, "
        f"p99 {p99:.2f} ms, max {times[-1] * 1e3:.1f} ms; {games / cpu:.2f} games/s "
        f"(CPU, whole table, {games} games)"
    )
