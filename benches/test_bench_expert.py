"""The search agents' cost: time per decision (median, p99) and games/s at the default budget.

    pytest benches/test_bench_expert.py --benchmark-enable -q     # figures
    pytest benches/test_bench_expert.py --benchmark-disable -q    # smoke run

Each measurement plays ``CARDCORE_EXPERT_GAMES`` deals (default 2) with the expert in every
seat in turn against the game's ``hard`` agent (Three-Thirteen 4 players, Spite & Malice 2),
timing every ``act`` call of the expert (thread CPU time, so a busy machine disturbs it
little) and the whole games (process CPU time). A move is every call; a search is a call that
dealt (Three-Thirteen: not a forced or clear move, and none with the default ``search="valuedraw"``,
which deals nothing; Spite & Malice: the first move of a plan).
Strength: ``cardcore sim ... --paired`` and ``cardcore report`` (docs/agents.md).
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


def _timed(factory: Callable[[], Any], times: list[float], searched: list[float]) -> Any:
    """A factory of the agent that records each decision's thread CPU time (and, apart, the
    decisions where it searched: its ``deals`` counter moved)."""

    class Timed:
        def __init__(self) -> None:
            self.inner = factory()

        def act(self, observation: Any, legal: Any, rng: Any) -> Any:
            deals = self.inner.deals
            t = time.thread_time()
            move = self.inner.act(observation, legal, rng)
            dt = time.thread_time() - t
            times.append(dt)
            if self.inner.deals > deals:
                searched.append(dt)
            return move

    return Timed


def _stats(xs: list[float]) -> str:
    if not xs:
        return "none"
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(0.99 * len(xs)))]
    return f"median {statistics.median(xs) * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms"


@pytest.mark.parametrize(
    ("game", "players", "field"), [("three-thirteen", 4, "hard"), ("spite-malice", 2, "planner")]
)
def test_bench_expert_decisions(benchmark: Any, game: str, players: int, field: str) -> None:
    deals = int(os.environ.get("CARDCORE_EXPERT_GAMES", "2"))
    times: list[float] = []
    searched: list[float] = []
    timed = _timed(get_game(game).agents["expert"], times, searched)

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
    games = deals * players
    benchmark.extra_info.update({"games_per_s": games / cpu})
    _rows.append(
        f"  {game} {players}p, expert vs {field}, {games} games: {games / cpu:.2f} games/s "
        f"(CPU, whole table); per move ({len(times)}): {_stats(times)}; per search "
        f"({len(searched)}): {_stats(searched)} (thread CPU time)"
    )
