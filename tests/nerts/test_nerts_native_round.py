"""Rounds of built-in agents played in Rust (``Round.run`` with no watch hands them to
``cardcore_engine::nerts_round``) against the Python engine loop (``run(watch=...)`` keeps
every event in Python): the same log, table, clocks, generator states and agent memories."""

from __future__ import annotations

from typing import Any

import pytest

from cardcore.nerts import ExpertAgent, GreedyAgent, HardAgent, Options, RandomAgent, Round
from cardcore.nerts.agents import RuleOfThumbAgent
from cardcore.nerts.engine import NertsAgent


def _snapshot(rnd: Round) -> dict[str, Any]:
    t = rnd.table
    agents = []
    for s, a in enumerate(rnd.agents):
        if isinstance(a, HardAgent | ExpertAgent):
            m = a._memory.get(s)
            mem = None if m is None else (m.cycle, m.waste, m.stalemates)
            agents.append((mem, a._last_ms.get(s), a.searches))
        else:
            agents.append(None)
    return {
        "log": rnd.log,
        "end": (rnd.end, rnd.caller, rnd.now, rnd.executed, rnd.scores()),
        "players": [
            (p.nerts, p.work, p.stock, p.waste, p.recycles, p.flip_count, p.stalemates)
            for p in t.players
        ],
        "foundations": t.foundations,
        "undo": [
            [(r.action, r.kind, r.src, r.dst, r.depth, r.card) for r in st] for st in t.undo_stacks
        ],
        "running": t.running,
        "engine": (rnd._stalemates, rnd._recycles_since, rnd._sleeping, rnd._pending, rnd._queue),
        "rngs": (
            [r.state for r in rnd._timing],
            [r.state for r in rnd._agent_rng],
            rnd._tiebreak.state,
        ),
        "agents": agents,
    }


def _both(
    options: Options, seed: int, make: Any, *, steps: int = 0, **kw: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    out = []
    for native in (False, True):
        rnd = Round(options, seed, make(), **kw)
        for _ in range(steps):
            rnd.step()
        if native:
            rnd.run()
        else:
            rnd.run(watch=lambda: None)
        out.append(_snapshot(rnd))
    return out[0], out[1]


def _hard(samples: int = 8, **kw: Any) -> HardAgent:
    return HardAgent(samples=samples, **kw)


AGENTS: dict[str, Any] = {
    "hard": lambda p: [_hard() for _ in range(p)],
    "hard-default": lambda p: [HardAgent() for _ in range(p)],
    "expert-default": lambda p: [ExpertAgent() if s % 2 == 0 else HardAgent() for s in range(p)],
    "mixed": lambda p: [
        [_hard(), GreedyAgent(), RandomAgent(), RuleOfThumbAgent()][s % 4] for s in range(p)
    ],
    "races": lambda p: [
        [
            _hard(racing=None),
            _hard(racing=(4, 4, 2.0, 0.05), margin=0.0),
            ExpertAgent(samples=16),
            _hard(horizon_ms=3000),
        ][s % 4]
        for s in range(p)
    ],
    "greedy": lambda p: [GreedyAgent() for _ in range(p)],
    "random": lambda p: [RandomAgent() for _ in range(p)],
}

OPTIONS: list[dict[str, Any]] = [
    {},
    {"flip_count": 1, "work_piles": 5},
    {"stock_passes": 1, "stalemate_rule": "end_round"},
    {"stock_passes": 2, "stalemate_rule": "flip_one", "max_consecutive_stalemates": 1},
    {"empty_work_pile_fill": "nerts_only", "allow_partial_pile_moves": False},
    {"undo_depth": 0, "auto_call_nerts": True, "nerts_bonus": 10, "speed": "frantic"},
    {"speed": "chill", "nerts_pile_size": 5, "undo_depth": 3},
    {"max_consecutive_stalemates": 0},
]


@pytest.mark.parametrize("agents", list(AGENTS))
@pytest.mark.parametrize("k", range(len(OPTIONS)))
def test_native_round_matches_the_python_loop(agents: str, k: int) -> None:
    for players in (2, 3, 4):
        if agents == "hard-default" and (players, k) != (4, 0):
            continue
        if agents == "expert-default" and k != 0:
            continue  # every table size: the expert's budget depends on it
        opts = Options(num_players=players, **OPTIONS[k])
        seed = 1000 * k + players
        py, native = _both(opts, seed, lambda p=players: AGENTS[agents](p))
        assert native == py


def test_native_round_from_the_middle_and_at_the_caps() -> None:
    opts = Options(num_players=3)
    make = lambda: [_hard(), GreedyAgent(), _hard()]  # noqa: E731
    for steps in (1, 7, 40):
        py, native = _both(opts, 5, make, steps=steps)
        assert native == py
    for kw in ({"max_events": 30}, {"max_ms": 20_000}, {"max_events": 0}):
        py, native = _both(opts, 6, make, **kw)
        assert native == py
        assert native["end"][0] == "cap"


def test_shared_agent_object_and_a_second_round() -> None:
    def make() -> list[NertsAgent | None]:
        shared = _hard()
        return [shared, shared]

    py, native = _both(Options(num_players=2), 9, make)
    assert native == py
    logs: dict[bool, list[Any]] = {}
    for native in (False, True):
        agent = _hard()
        logs[native] = []
        for seed in (3, 4):
            rnd = Round(Options(), seed, [agent, GreedyAgent()])
            rnd.run(**({} if native else {"watch": lambda: None}))
            logs[native].append(rnd.log)
    assert logs[True] == logs[False]


def test_other_agents_stay_in_python() -> None:
    class Wrapped(HardAgent):
        pass

    calls = []

    class Counting:
        def act(self, obs: Any, legal: Any, rng: Any) -> Any:
            calls.append(1)
            return GreedyAgent().act(obs, legal, rng)

    agents: list[NertsAgent | None] = [Wrapped(samples=4), Counting()]
    rnd = Round(Options(), 2, agents)
    rnd.run()
    assert rnd.end is not None
    assert len(calls) > 5
    patched = _hard()
    patched.act = lambda obs, legal, rng: HardAgent.act(patched, obs, legal, rng)  # type: ignore[method-assign]
    py, native = _both(Options(), 3, lambda: [patched, GreedyAgent()])
    assert native["log"] == py["log"]
