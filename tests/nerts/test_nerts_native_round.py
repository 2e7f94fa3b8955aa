"""The public ``Round`` (the Rust rulebook: its table, clock and built-in agents; Python agents
called back) against the oracle, 0.4.0's Python engine (``nerts_reference_engine.Round``) with
0.4.0's Python agents (``nerts_reference_agents``): the same log, table, clocks, pending events
and agent memories, whole rounds and from the middle, at the caps; and the built-in agents'
own ``act`` (a decision in Rust) against the oracle's, decision by decision."""

from __future__ import annotations

from typing import Any

import pytest

from cardcore.nerts import ExpertAgent, GreedyAgent, HardAgent, Options, RandomAgent, Round
from cardcore.nerts.agents import RuleOfThumbAgent
from cardcore.nerts.engine import NertsAgent
from nerts_reference_agents import twin
from nerts_reference_engine import Round as ReferenceRound


def _twins(agents: list[Any]) -> list[Any]:
    made: dict[int, Any] = {}
    return [twin(a, made) for a in agents]


def _agents(agents: list[Any]) -> list[Any]:
    out: list[Any] = []
    for s, a in enumerate(agents):
        if hasattr(a, "_memory"):
            m = a._memory.get(s)
            mem = None if m is None else (m.cycle, m.waste, m.stalemates)
            out.append((mem, a._last_ms.get(s), a.searches))
        else:
            out.append(None)
    return out


def _reference(rnd: ReferenceRound) -> dict[str, Any]:
    t = rnd.table
    pending: list[Any] = [None] * len(rnd.agents)
    for tt, tb, seat, kind, action in rnd._queue:
        pending[seat] = (tt, tb, kind, None if action is None else action.code)
    return {
        "log": rnd.log,
        "end": (rnd.end, rnd.caller, rnd.now, rnd.executed, rnd.scores()),
        "players": [
            (p.nerts, p.work, p.stock, p.waste, p.recycles, p.flip_count, p.stalemates)
            for p in t.players
        ],
        "foundations": t.foundations,
        "undo": [
            [(r.action.code, r.kind, r.src, r.dst, r.depth, r.card) for r in st]
            for st in t.undo_stacks
        ],
        "running": t.running,
        "engine": (rnd._stalemates, rnd._recycles_since, rnd._sleeping, pending),
        "inputs": rnd.inputs,
        "agents": _agents(rnd.agents),
    }


def _rulebook(rnd: Round) -> dict[str, Any]:
    d = rnd.parts()
    return {
        "log": rnd.log,
        "end": (rnd.end, rnd.caller, rnd.now, rnd.executed, rnd.scores()),
        "players": [
            (
                p["nerts"],
                p["work"],
                p["stock"],
                p["waste"],
                p["recycles"],
                p["flip_count"],
                p["stalemates"],
            )
            for p in d["seats"]
        ],
        "foundations": d["foundations"],
        "undo": [[tuple(u) for u in p["undo"]] for p in d["seats"]],
        "running": d["running"],
        "engine": (
            d["stalemates"],
            d["recycles_since"],
            d["sleeping"],
            [None if p is None else tuple(p) for p in d["pending"]],
        ),
        "inputs": rnd.inputs,
        "agents": _agents(rnd.agents),
    }


def _both(
    options: Options, seed: int, make: Any, *, steps: int = 0, watch: bool = False, **kw: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The oracle's round and the rulebook's, ``steps`` events stepped, then run to the end
    (with a watch on the rulebook's when ``watch``)."""
    ref = ReferenceRound(options, seed, _twins(make()), **kw)
    rnd = Round(options, seed, make(), **kw)
    for _ in range(steps):
        assert ref.step() == rnd.step()
    ref.run()
    seen: list[int] = []
    rnd.run(**({"watch": lambda: seen.append(rnd.now)} if watch else {}))
    if watch:
        assert len(seen) >= min(1, len(ref.log))
    return _reference(ref), _rulebook(rnd)


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
def test_rulebook_round_matches_the_oracle(agents: str, k: int) -> None:
    for players in (2, 3, 4):
        if agents == "hard-default" and (players, k) != (4, 0):
            continue
        if agents == "expert-default" and k != 0:
            continue  # every table size: the expert's budget depends on it
        opts = Options(num_players=players, **OPTIONS[k])
        seed = 1000 * k + players
        py, native = _both(opts, seed, lambda p=players: AGENTS[agents](p))
        assert native == py


def test_rulebook_round_from_the_middle_with_a_watch_and_at_the_caps() -> None:
    opts = Options(num_players=3)
    make = lambda: [_hard(), GreedyAgent(), _hard()]  # noqa: E731
    for steps in (1, 7, 40):
        py, native = _both(opts, 5, make, steps=steps, watch=steps == 7)
        assert native == py
    caps: list[dict[str, Any]] = [{"max_events": 30}, {"max_ms": 20_000}, {"max_events": 0}]
    for kw in caps:
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
    for in_rust in (False, True):
        agent = _hard() if in_rust else twin(_hard())
        logs[in_rust] = []
        for seed in (3, 4):
            other = GreedyAgent() if in_rust else twin(GreedyAgent())
            if in_rust:
                rnd = Round(Options(), seed, [agent, other])
                rnd.run()
                logs[in_rust].append(rnd.log)
            else:
                ref = ReferenceRound(Options(), seed, [agent, other])
                ref.run()
                logs[in_rust].append(ref.log)
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
    patched.act = lambda obs, legal, rng: HardAgent.act(patched, obs, legal, rng)  # type: ignore[method-assign, assignment]
    py, native = _both(Options(), 3, lambda: [patched, GreedyAgent()])
    assert native["log"] == py["log"]


def test_arranged_decks_and_bad_decks() -> None:
    from cardcore.errors import StateFormatError
    from cardcore.nerts import deal_decks

    opts = Options(num_players=2)
    decks = [d[::-1] for d in deal_decks(8, 2)]
    py, native = _both(opts, 8, lambda: [_hard(), GreedyAgent()], decks=decks)
    assert native == py
    assert Round(opts, 8, [None, None], decks=decks).decks == decks
    bad_decks: list[list[Any]] = [[decks[0]], [decks[0], decks[0]], [decks[0], decks[1][:51]]]
    for bad in [*bad_decks, [decks[0], ["x"]]]:
        with pytest.raises(StateFormatError):
            Round(opts, 8, [None, None], decks=bad)


class _Both:
    """Plays the oracle's agent and checks at every decision that the public agent's own
    ``act`` (its decision made in Rust, outside a round) chooses the same, draws the same and
    remembers the same."""

    def __init__(self, public: Any) -> None:
        self.public, self.oracle = public, twin(public)
        self.decisions = 0

    def act(self, obs: Any, legal: Any, rng: Any) -> Any:
        from cardcore.rng import Rng

        mine = Rng.from_state(rng.state)
        got = self.public.act(obs, legal, mine)
        want = self.oracle.act(obs, legal, rng)
        assert got == want
        assert got is None or any(got is a for a in legal)
        assert mine.state == rng.state
        assert _agents([self.public] * 4)[obs.seat] == _agents([self.oracle] * 4)[obs.seat]
        self.decisions += 1
        return want


@pytest.mark.parametrize("k", [0, 1, 2, 3, 6])
def test_built_in_agents_act_as_the_oracle(k: int) -> None:
    for players in (2, 4):
        opts = Options(num_players=players, **OPTIONS[k])
        made = [
            [_hard(), GreedyAgent(), RandomAgent(), RuleOfThumbAgent()][s % 4]
            for s in range(players)
        ]
        if k == 0:
            made[0] = ExpertAgent(samples=16)
        both = [_Both(a) for a in made]
        rnd = ReferenceRound(opts, 50 + k, list(both))
        rnd.run()
        assert rnd.end is not None
        assert all(b.decisions > 0 for b in both)


def test_built_in_agents_refuse_an_rng_of_another_kind() -> None:
    rnd = Round(Options(), 1, [None, None])
    obs, legal = rnd.observation(0), rnd.legal(0)
    with pytest.raises(TypeError):
        RandomAgent().act(obs, legal, object())
