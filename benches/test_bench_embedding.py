"""The embedding protocol (``docs/embedding.md``) next to OpenSpiel gin rummy, in the same run.

    pytest benches/test_bench_embedding.py --benchmark-enable -q    # figures + summary table
    pytest benches/test_bench_embedding.py --benchmark-disable -q   # smoke run (each once)

Random playthroughs in a Python loop through ``legal_actions()`` / ``apply(id)`` (Nerts: 100 ms
ticks, every seat submitting a random legal action when it has none scheduled), with and
without ``observation_tensor`` of the seat to play at every step. OpenSpiel's steps are every
``apply_action`` (chance nodes included, which flatters it: its decisions alone are about 90% of
them). Rates use the fastest round (pytest-benchmark ``min``) on the process CPU clock, so other
work on the machine disturbs them little. Goal (issue 11, printed, not asserted):
Three-Thirteen and Spite & Malice >= 3x OpenSpiel gin rummy's steps/s. Also: one JSON round
trip (``state_from_json(to_json())``) of a mid-game state and one ``resample_hidden`` call.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import cardcore
from cardcore import Rng
from cardcore.nerts.game import NertsState
from cardcore.spite_malice.agents import PlannerAgent
from cardcore.three_thirteen.agents import GreedyAgent

pytestmark = pytest.mark.benchmark(timer=time.process_time)

_rates: dict[str, float] = {}
_times: dict[str, float] = {}
_rows: list[str] = []


def _measure(measure: Any, name: str, fn: Callable[[], int]) -> None:
    """Runs ``fn`` (which returns the number of steps it made) and keeps steps/s."""
    rate = measure("embedding", fn, None)
    if rate is not None:
        _rates[name] = rate


def _time(benchmark: Any, name: str, fn: Callable[[], object]) -> None:
    benchmark.group = "embedding"
    benchmark(fn)
    stats = getattr(benchmark, "stats", None)
    if stats is not None and not benchmark.disabled:
        _times[name] = float(stats.stats.min)


@pytest.fixture(scope="module", autouse=True)
def _summary(show_lines: Callable[[list[str]], None]) -> Iterator[None]:
    yield
    peer = _rates.get("openspiel")
    for name, goal in (
        ("openspiel", ""),
        ("openspiel tensor", ""),
        ("three-thirteen", ">= 3x"),
        ("three-thirteen tensor", ""),
        ("spite-malice", ">= 3x"),
        ("spite-malice tensor", ""),
        ("nerts", ""),
        ("nerts tensor", ""),
    ):
        if name not in _rates:
            continue
        rate = _rates[name]
        base = _rates.get("openspiel tensor" if name.endswith("tensor") else "openspiel")
        side = f"  = {rate / base:5.2f}x OpenSpiel" if base and not name.startswith("open") else ""
        verdict = ""
        if goal and peer:
            verdict = f"  ({goal}: {'met' if rate >= 3 * peer else 'MISSED'})"
        _rows.append(f"  {name:<24}{rate:>12,.0f} steps/s{side}{verdict}")
    for name, seconds in _times.items():
        _rows.append(f"  {name:<40}{seconds * 1e6:>10,.0f} us")
    if _rows:
        show_lines(["Embedding protocol: random playthroughs (steps/s) and calls", *_rows])


# -- playthroughs ----------------------------------------------------------------------------


def _openspiel(games: int, tensor: bool) -> int:
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(0)
    steps = 0
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = s.legal_actions()
                if tensor:
                    s.observation_tensor(s.current_player())
                s.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
    return steps


def _turn_based(name: str, games: int, tensor: bool, **options: Any) -> int:
    game = cardcore.load_game(name, **options)
    steps = 0
    for seed in range(games):
        st = game.new_state(seed)
        rng = Rng(seed)
        while not st.is_over:
            legal = st.legal_actions()
            if tensor:
                st.observation_tensor(st.current_player)
            st.apply(legal[rng.below(len(legal))])
            steps += 1
    return steps


def _nerts(rounds: int, tensor: bool) -> int:
    game = cardcore.load_game("nerts", players=2)
    steps = 0
    for seed in range(rounds):
        st = game.new_state(seed)
        assert isinstance(st, NertsState)
        rng = Rng(seed)
        t = 0
        while not st.is_over and t < 60_000:
            for seat in (0, 1):
                legal = st.legal_actions(seat)
                if tensor:
                    st.observation_tensor(seat)
                if legal and not st.pending(seat):
                    st.submit(seat, legal[rng.below(len(legal))], t)
                    steps += 1
            t += 100
            st.advance_to(t)
    return steps


@pytest.mark.parametrize("tensor", [False, True], ids=["plain", "tensor"])
def test_openspiel_gin_rummy(measure: Any, tensor: bool) -> None:
    name = "openspiel tensor" if tensor else "openspiel"
    _measure(measure, name, lambda: _openspiel(20, tensor))


@pytest.mark.parametrize("tensor", [False, True], ids=["plain", "tensor"])
def test_three_thirteen(measure: Any, tensor: bool) -> None:
    name = "three-thirteen tensor" if tensor else "three-thirteen"
    _measure(measure, name, lambda: _turn_based("three-thirteen", 2, tensor, players=4))


@pytest.mark.parametrize("tensor", [False, True], ids=["plain", "tensor"])
def test_spite_malice(measure: Any, tensor: bool) -> None:
    name = "spite-malice tensor" if tensor else "spite-malice"
    _measure(measure, name, lambda: _turn_based("spite-malice", 150, tensor, players=2))


@pytest.mark.parametrize("tensor", [False, True], ids=["plain", "tensor"])
def test_nerts(measure: Any, tensor: bool) -> None:
    name = "nerts tensor" if tensor else "nerts"
    _measure(measure, name, lambda: _nerts(3, tensor))


# -- JSON and re-deals of mid-game states ----------------------------------------------------


def _three_thirteen_midgame() -> Any:
    """Round 6 of a 4-player game between greedy agents, a few turns in."""
    game = cardcore.load_game("three-thirteen", players=4)
    st: Any = game.new_state(1)
    agent, rng = GreedyAgent(), Rng(1)
    while st.round < 6 or len(st.move_log[-1]) < 10:
        st.apply(agent.act(st.observation(st.current), st.legal_moves(), rng))
    return st


def _spite_malice_midgame() -> Any:
    """Turn 30 of a 2-player game between planners."""
    game = cardcore.load_game("spite-malice", players=2)
    st: Any = game.new_state(1)
    agents, rng = [PlannerAgent(), PlannerAgent()], Rng(1)
    while st.turn < 30:
        st.apply(agents[st.current].act(st.observation(st.current), st.legal_moves(), rng))
    return st


def _nerts_midgame() -> Any:
    """Thirty seconds into a 2-player round between greedy agents."""
    game = cardcore.load_game("nerts", players=2)
    st = game.new_state(1, agents=["greedy", "greedy"])  # type: ignore[call-arg]
    st.advance_to(30_000)
    return st


MIDGAME: dict[str, Callable[[], Any]] = {
    "three-thirteen": _three_thirteen_midgame,
    "spite-malice": _spite_malice_midgame,
    "nerts": _nerts_midgame,
}


@pytest.mark.parametrize("name", list(MIDGAME))
def test_json_round_trip(benchmark: Any, name: str) -> None:
    st = MIDGAME[name]()
    game = st.game
    assert game.state_from_json(st.to_json()).to_json() == st.to_json()
    _time(
        benchmark, f"{name} JSON round trip (mid-game)", lambda: game.state_from_json(st.to_json())
    )


@pytest.mark.parametrize("name", ["three-thirteen", "spite-malice"])
def test_resample_hidden(benchmark: Any, name: str) -> None:
    st = MIDGAME[name]()
    seat = (st.current + 1) % st.game.num_players
    seeds = iter(range(10**9))
    _time(
        benchmark,
        f"{name} resample_hidden (mid-game)",
        lambda: st.resample_hidden(seat, next(seeds)),
    )
