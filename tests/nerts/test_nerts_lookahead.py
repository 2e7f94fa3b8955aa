"""Nerts look-ahead: the Rust simulator's greedy policy is GreedyAgent's, the stock memory never
remembers a wrong card, knowledge stays consistent through whole rounds, values are seeded."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from cardcore import _core
from cardcore.errors import StateFormatError
from cardcore.nerts import GreedyAgent, Options, Round
from cardcore.nerts.engine import NertsObservation
from cardcore.nerts.lookahead import (
    StockMemory,
    choose,
    knowledge,
    rollout_values,
    table_rules,
    table_timing,
)
from cardcore.nerts.rules import Action, Undo
from nerts_reference_agents import StockMemory as ReferenceMemory
from nerts_reference_engine import Round as ReferenceRound

OPTION_SETS = [
    {},
    {"num_players": 3},
    {"num_players": 4, "speed": "frantic"},
    {"allow_partial_pile_moves": False, "empty_work_pile_fill": "nerts_only"},
    {"work_piles": 5, "flip_count": 1},
    {"stock_passes": 2, "stalemate_rule": "flip_one"},
]


NONE = 255


def reference_knowledge(
    obs: NertsObservation, own_cycle: Sequence[int | None]
) -> tuple[list[Any], list[list[int]]]:
    """``knowledge`` as it was written in Python before it moved to Rust (the reference), plus
    each seat's flip count (which that version left out: the rollouts flipped the table's count
    after a ``flip_one`` stalemate remedy) and the other seats' recycles (it gave them 0: with
    ``stock_passes`` the rollouts let a seat recycle past its passes)."""
    need = [[0] * 16 for _ in range(4)]
    for pile in obs.foundation_piles:
        top = pile[-1]
        r = top % 13 + 1
        if r < 13:
            need[top % 52 // 13][r + 1] += 1
    on_foundations = {c for pile in obs.foundation_piles for c in pile}
    out = []
    for seat, p in enumerate(obs.players):
        base = seat * 52
        if seat == obs.seat:
            cycle = [NONE if c is None else c - base for c in own_cycle]
            recycles = obs.recycles
        else:
            cycle = [NONE] * (p.waste_count + p.stock_count)
            if p.waste_top is not None:
                cycle[p.waste_count - 1] = p.waste_top - base
            recycles = p.recycles
        seen = {c for pile in p.work for c in pile}
        if p.nerts_top is not None:
            seen.add(p.nerts_top)
        seen.update(c + base for c in cycle if c != NONE)
        pool = [
            c - base for c in range(base, base + 52) if c not in seen and c not in on_foundations
        ]
        found = sum(1 for c in on_foundations if c // 52 == seat)
        out.append(
            _core.NertsSeat(
                nerts_count=p.nerts_count,
                nerts_top=NONE if p.nerts_top is None else p.nerts_top - base,
                work=[[c - base for c in pile] for pile in p.work],
                cycle=cycle,
                waste=p.waste_count,
                pool=pool,
                recycles=recycles,
                found=found,
                flip_count=p.flip_count,
            )
        )
    return out, need


class Recorder:
    """Greedy play that checks each decision against the Rust policy and the stock memory."""

    def __init__(self, rnd_ref: list[ReferenceRound]) -> None:
        self.greedy = GreedyAgent()
        self.memory: dict[int, StockMemory] = {}
        self.reference: dict[int, ReferenceMemory] = {}
        self.rnd_ref = rnd_ref
        self.decisions = 0
        self.known = 0
        self.cards = 0

    def act(self, obs: NertsObservation, legal: Any, rng: Any) -> Action | None:
        choice = self.greedy.act(obs, legal, rng)
        memory = self.memory.setdefault(obs.seat, StockMemory())
        cycle = memory.update(obs)
        oracle = self.reference.setdefault(obs.seat, ReferenceMemory())
        assert cycle == oracle.update(obs)
        assert (memory.cycle, memory.waste, memory.stalemates) == (
            oracle.cycle,
            oracle.waste,
            oracle.stalemates,
        )
        if not self.rnd_ref:  # a decision inside Round() itself, at t = 0
            return choice
        if legal == self.rnd_ref[0].legal(obs.seat):  # not the re-decision after a miss
            known = knowledge(obs, cycle)
            seats, need = known.seats, known.need
            assert (seats, need) == reference_knowledge(obs, cycle)
            code = _core.nerts_greedy_move(seats, need, obs.seat, table_rules(obs.table_options))
            assert code == (None if choice is None else choice.code), (obs.seat, obs.now)
        # the memory never holds a wrong card
        p = self.rnd_ref[0].table.players[obs.seat]
        truth = p.waste + p.stock[::-1]
        assert len(cycle) == len(truth)
        for mine, real in zip(cycle, truth, strict=True):
            assert mine is None or mine == real
        self.known += sum(c is not None for c in cycle)
        self.cards += len(cycle)
        self.decisions += 1
        return choice


@pytest.mark.parametrize("given", OPTION_SETS)
def test_rust_greedy_and_memory_follow_whole_rounds(given: dict[str, Any]) -> None:
    players = int(given.get("num_players", 2))
    opts = Options.from_mapping(players, {k: v for k, v in given.items() if k != "num_players"})
    total = known = cards = 0
    for seed in range(12):
        ref: list[ReferenceRound] = []
        recorders = [Recorder(ref) for _ in range(players)]
        rnd = ReferenceRound(opts, seed, recorders)
        ref.append(rnd)
        rnd.run()
        for r in recorders:
            total += r.decisions
            known += r.known
            cards += r.cards
    assert total > 1000
    assert known > 0.2 * cards  # after a pass the memory knows a good part of the stock


def test_memory_follows_stalemate_rotations() -> None:
    # rounds that rotate their stocks: the memory keeps its cards at the right places
    opts = Options.from_mapping(2, {"stalemate_rule": "rotate_one"})
    rotations = 0
    for seed in range(40):
        ref: list[ReferenceRound] = []
        rnd = ReferenceRound(opts, seed, [Recorder(ref), Recorder(ref)])
        ref.append(rnd)
        rnd.run()
        rotations += rnd.table.players[0].stalemates
    assert rotations > 0


def _memories(memory: StockMemory, oracle: ReferenceMemory) -> None:
    assert (memory.cycle, memory.waste, memory.stalemates) == (
        oracle.cycle,
        oracle.waste,
        oracle.stalemates,
    )


@pytest.mark.parametrize("given", OPTION_SETS[:3] + OPTION_SETS[5:])
def test_stock_memory_forgets_like_the_oracle(given: dict[str, Any]) -> None:
    """Observations of a seat fed out of order (replayed positions, missed moves and
    stalemates, undone waste plays): the memory (Rust) keeps and forgets what 0.4.0's Python
    memory did, step by step."""
    players = int(given.get("num_players", 2))
    opts = Options.from_mapping(players, {k: v for k, v in given.items() if k != "num_players"})
    rng = random.Random(players)
    branches: set[str] = set()
    for seed in range(3):
        rnd = Round(opts, seed, [GreedyAgent() for _ in range(players)])
        seen: list[NertsObservation] = []
        while rnd.step() and len(seen) < 400:
            seen.append(rnd.observation(0))
        for start in range(0, len(seen), 50):
            feed = seen[start : start + 50]
            for _ in range(3):
                memory, oracle = StockMemory(), ReferenceMemory()
                for obs in feed:
                    before = oracle.cycle
                    cycle = oracle.update(obs)
                    assert memory.update(obs) == cycle
                    _memories(memory, oracle)
                    kept = before is not None and any(c is not None for c in cycle)
                    branches.add("kept" if kept else "fresh")
                feed = rng.sample(feed, len(feed))
    assert branches == {"kept", "fresh"}


def test_stock_memory_runs_the_rust_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """``StockMemory.update`` is the built-in agents' memory (``_core.nerts_memory_update``),
    not a copy; a memory whose waste is longer than its cycle is refused."""
    rnd = Round(Options(), 1, [GreedyAgent(), GreedyAgent()])
    for _ in range(30):
        rnd.step()
    obs = rnd.observation(0)
    calls: list[tuple[Any, ...]] = []
    real = _core.nerts_memory_update

    def spy(*args: Any) -> tuple[list[int | None], int, int]:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(_core, "nerts_memory_update", spy)
    memory = StockMemory()
    cycle = memory.update(obs)
    assert len(calls) == 1
    assert cycle is memory.cycle
    assert cycle == ReferenceMemory().update(obs)
    memory.cycle, memory.waste = [None], 2
    with pytest.raises(StateFormatError, match="waste of 2 cards past a cycle of 1"):
        memory.update(obs)


def test_values_are_seeded_and_per_candidate() -> None:
    rnd = Round(Options(), 3, [GreedyAgent(), GreedyAgent()])
    for _ in range(40):
        rnd.step()
    obs = rnd.observation(0)
    legal = [a for a in rnd.legal(0) if not isinstance(a, Undo)]
    cycle = StockMemory().update(obs)
    a = rollout_values(obs, legal, cycle, samples=16, horizon_ms=10_000, seed=5)
    b = rollout_values(obs, legal[::-1], cycle, samples=16, horizon_ms=10_000, seed=5)
    assert a == b[::-1]
    assert a == rollout_values(obs, legal, cycle, samples=16, horizon_ms=10_000, seed=5)
    with pytest.raises(ValueError, match="not legal"):
        rollout_values(obs, [Undo()], cycle, samples=4, horizon_ms=1_000, seed=5)


def test_the_rollouts_take_the_tables_auto_call() -> None:
    # with auto_call_nerts the table ends the round the moment a Nerts pile empties; the
    # rollouts must do the same (the Rust test with_auto_call_the_rollout_ends_...)
    assert table_rules(Options(auto_call_nerts=True)).auto_call
    assert not table_rules(Options()).auto_call


def test_bad_knowledge_is_a_value_error_not_a_panic() -> None:
    rnd = Round(Options(), 3, [GreedyAgent(), GreedyAgent()])
    obs = rnd.observation(0)
    known = knowledge(obs, StockMemory().update(obs))
    seats, need = known.seats, known.need
    rules = table_rules(obs.table_options)
    timing = table_timing(obs.table_options)
    flip = [a.code for a in rnd.legal(0) if str(a) == "flip"]
    assert len(_core.nerts_rollouts(seats, need, 0, 1000, 2, 1, timing, rules, flip)) == 2
    s = seats[0]
    fields = ("nerts_count", "nerts_top", "work", "cycle", "waste", "recycles", "found")
    short = [_core.NertsSeat(**{f: getattr(s, f) for f in fields}, pool=s.pool[:3]), seats[1]]
    with pytest.raises(ValueError, match="pool"):
        _core.nerts_rollouts(short, need, 0, 1000, 2, 1, timing, rules, flip)
    with pytest.raises(ValueError, match="root"):
        _core.nerts_rollouts(seats, need, 5, 1000, 2, 1, timing, rules, flip)
    bad_need = [row[:] for row in need]
    bad_need[0][0] = 1
    with pytest.raises(ValueError, match="ranks"):
        _core.nerts_rollouts(seats, bad_need, 0, 1000, 2, 1, timing, rules, flip)
    with pytest.raises(ValueError, match="positive"):
        rollout_values(obs, rnd.legal(0)[:1], [], samples=0, horizon_ms=1000, seed=1)


def decisions(
    seed: int, count: int, least: int
) -> Iterator[tuple[NertsObservation, list[Action], list[int | None]]]:
    """``count`` positions of seat 0 in a greedy round with at least ``least`` candidates:
    observation, candidates (every legal action but Undo) and a fresh stock memory."""
    rnd = Round(Options(), seed, [GreedyAgent(), GreedyAgent()])
    found = 0
    while found < count:
        assert rnd.step()
        obs = rnd.observation(0)
        legal: list[Action] = [a for a in rnd.legal(0) if not isinstance(a, Undo)]
        if len(legal) >= least:
            found += 1
            yield obs, legal, StockMemory().update(obs)


def test_choose_is_the_best_mean_unless_raced() -> None:
    """Without racing, the Rust choice is the best mean of rollout_values plus the bonus; raced,
    it is one of the candidates, and the same for the same seed."""
    for checked, (obs, legal, cycle) in enumerate(decisions(3, 20, 2)):
        kw: dict[str, Any] = {"samples": 8, "horizon_ms": 5_000, "seed": checked}
        values = rollout_values(obs, legal, cycle, **kw)
        bonus = [0.5] + [0.0] * (len(legal) - 1)
        want = max(range(len(legal)), key=lambda i: values[i] + bonus[i])
        assert choose(obs, legal, cycle, bonus=bonus, **kw) == want
        raced = choose(obs, legal, cycle, bonus=bonus, racing=(2, 2, 2.5), **kw)
        assert raced == choose(obs, legal, cycle, bonus=bonus, racing=(2, 2, 2.5), **kw)
        assert 0 <= raced < len(legal)
    with pytest.raises(ValueError, match="bonus"):
        choose(obs, legal, cycle, bonus=[0.0], samples=4, horizon_ms=1_000, seed=1)


def test_a_race_with_a_loose_loss_bound_stops_after_the_first_deals() -> None:
    """With ``max_loss`` above any expected loss, every candidate but the leader drops out after
    the first deals: the choice is the best mean over those deals (the same deals
    ``rollout_values`` plays first); ``max_loss = 0`` is the plain race."""
    for checked, (obs, legal, cycle) in enumerate(decisions(5, 10, 3)):
        kw: dict[str, Any] = {"horizon_ms": 5_000, "seed": checked, "bonus": [0.0, 0.5]}
        kw["bonus"] += [0.0] * (len(legal) - 2)
        firsts = rollout_values(obs, legal, cycle, samples=3, horizon_ms=5_000, seed=checked)
        want = max(range(len(legal)), key=lambda i: firsts[i] + kw["bonus"][i])
        assert choose(obs, legal, cycle, samples=16, racing=(3, 3, 2.5, 1e9), **kw) == want
        plain = choose(obs, legal, cycle, samples=16, racing=(3, 3, 2.5), **kw)
        assert plain == choose(obs, legal, cycle, samples=16, racing=(3, 3, 2.5, 0.0), **kw)
