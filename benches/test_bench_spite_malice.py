"""Spite & Malice benchmarks: games/s (greedy, planner), planner calls/s, win-rate table.

Figures are printed (run with ``-s``) and stored in ``benchmark.extra_info``. Targets (issue 4):
``planner`` wins >= 90% of 2-player games against ``greedy`` over >= 2,000 seat-rotated games,
and clearly more than its share (1/3, 1/4) at 3 and 4 players.

The win-rate measurement is long, so its size comes from the environment:
``CARDCORE_SM_WINRATE_GAMES`` (2-player games; default 20, a smoke test; 3 and 4 players play
a third of it, at least 12) and ``CARDCORE_SM_WINRATE_START`` (first seed). The full figure::

    CARDCORE_SM_WINRATE_GAMES=2000 pytest benches/test_bench_spite_malice.py -k win_rate -s
"""

from __future__ import annotations

import os
import time
from typing import Any

from cardcore.report.stats import wilson
from cardcore.rng import Rng
from cardcore.spite_malice import (
    GreedyAgent,
    Options,
    PlannerAgent,
    PlannerInput,
    RandomAgent,
    State,
    plan_raw,
    planner_input,
    play_game,
    preset_weights,
)


def _games_per_s(make: Any, count: int, first_seed: int) -> tuple[float, int]:
    moves = 0
    t0 = time.perf_counter()
    for g in range(count):
        _, log = play_game(Options(), first_seed + g, make(), replay=True)
        moves += len(log)
    return count / (time.perf_counter() - t0), moves


def test_bench_greedy_games(benchmark: Any) -> None:
    """Two greedy agents, default rules, whole games."""
    counter = {"seed": 0}

    def one_game() -> int:
        counter["seed"] += 1
        st, _ = play_game(Options(), counter["seed"], [GreedyAgent(), GreedyAgent()])
        return st.turn

    benchmark(one_game)
    n = int(os.environ.get("CARDCORE_SM_SPEED_GAMES", "20"))
    gps, moves = _games_per_s(lambda: [GreedyAgent(), GreedyAgent()], n, 1000)
    benchmark.extra_info.update({"games_per_s": gps, "moves_per_game": moves / n})
    print(f"\nspite-malice greedy x2: {gps:.1f} games/s ({moves / n:.0f} moves/game)")
    assert gps > 0


def test_bench_random_games(benchmark: Any) -> None:
    """Two random agents (games end by stock exhaustion): engine throughput."""
    counter = {"seed": 0}

    def one_game() -> int:
        counter["seed"] += 1
        st, _ = play_game(Options(), counter["seed"], [RandomAgent(), RandomAgent()])
        return st.turn

    assert benchmark(one_game) > 0


def test_bench_planner_games(benchmark: Any) -> None:
    """Two planner agents, default rules, whole games."""
    counter = {"seed": 0}

    def one_game() -> int:
        counter["seed"] += 1
        st, _ = play_game(Options(), counter["seed"], [PlannerAgent(), PlannerAgent()])
        return st.turn

    benchmark(one_game)
    n = int(os.environ.get("CARDCORE_SM_SPEED_GAMES", "20"))
    gps, moves = _games_per_s(lambda: [PlannerAgent(), PlannerAgent()], n, 2000)
    benchmark.extra_info.update({"games_per_s": gps, "moves_per_game": moves / n})
    print(f"\nspite-malice planner x2: {gps:.1f} games/s ({moves / n:.0f} moves/game)")
    assert gps > 0


def _positions(count: int) -> list[PlannerInput]:
    """Planner inputs met in real planner-vs-greedy games (every decision of seat 0)."""
    out: list[PlannerInput] = []
    seed = 0
    while len(out) < count:
        st = State.new(Options(), 77_000 + seed)
        rng = Rng.for_stream(seed, 1, "agent")
        greedy, planner = GreedyAgent(), PlannerAgent()
        while not st.over and len(out) < count:
            obs = st.observation(st.current)
            if st.current == 0:
                out.append(planner_input(obs))
                st.apply(planner.act(obs, st.legal_moves(), rng))
            else:
                st.apply(greedy.act(obs, st.legal_moves(), rng))
        seed += 1
    return out


def test_bench_planner_calls(benchmark: Any) -> None:
    """Planner calls/s on positions from real games (the Rust search plus the FFI call)."""
    positions = _positions(int(os.environ.get("CARDCORE_SM_PLANNER_POSITIONS", "400")))
    weights = preset_weights("hard")

    def run_all() -> int:
        nodes = 0
        for inp in positions:
            nodes += plan_raw(inp, weights)[2]
        return nodes

    benchmark(run_all)
    t0 = time.perf_counter()
    nodes = run_all()
    elapsed = time.perf_counter() - t0
    cps = len(positions) / elapsed
    benchmark.extra_info.update(
        {
            "calls_per_s": cps,
            "nodes_per_call": nodes / len(positions),
            "nodes_per_s": nodes / elapsed,
        }
    )
    print(
        f"\nspite-malice planner: {cps:,.0f} calls/s, {nodes / len(positions):.1f} nodes/call, "
        f"{nodes / elapsed:,.0f} nodes/s"
    )
    assert nodes > 0


def _win_rate(players: int, games: int, start: int) -> tuple[int, int, int]:
    wins = ties = 0
    for g in range(games):
        seat = g % players
        agents: list[Any] = [GreedyAgent() for _ in range(players)]
        agents[seat] = PlannerAgent()
        st, _ = play_game(Options(num_players=players), start + g, agents)
        wins += st.winner == seat
        ties += st.winner is None
    return wins, ties, games


def test_bench_win_rate_table(benchmark: Any) -> None:
    """Planner vs greedy, seat-rotated, 2/3/4 players, with 95% Wilson intervals."""
    n2 = int(os.environ.get("CARDCORE_SM_WINRATE_GAMES", "20"))
    start = int(os.environ.get("CARDCORE_SM_WINRATE_START", "0"))
    sizes = {2: n2, 3: max(12, n2 // 3), 4: max(12, n2 // 3)}
    rows: dict[int, tuple[int, int, int]] = {}

    def run() -> None:
        for p, n in sizes.items():
            rows[p] = _win_rate(p, n, 1_000_000 + start)

    benchmark.pedantic(run, rounds=1, iterations=1)
    lines = [
        "",
        "spite-malice planner vs greedy (seat-rotated):",
        "players  games  planner wins  95% interval      ties   fair share",
    ]
    for p, (w, t, n) in rows.items():
        lo, hi = wilson(w, n)
        lines.append(
            f"{p:>7}  {n:>5}  {w / n:>11.1%}  [{lo:.1%}, {hi:.1%}]  {t / n:>6.1%}   {1 / p:.1%}"
        )
        benchmark.extra_info[f"win_rate_{p}p"] = w / n
        benchmark.extra_info[f"win_rate_{p}p_ci"] = [lo, hi]
        benchmark.extra_info[f"games_{p}p"] = n
    print("\n".join(lines))
    assert all(n > 0 for _, _, n in rows.values())
