"""Nerts agents: legal choices, priorities, the Nerts-pile plans, the look-ahead, strength."""

from __future__ import annotations

import statistics
from collections.abc import Callable

import pytest

from cardcore.nerts import (
    NERTS,
    WASTE,
    CallNerts,
    Flip,
    GreedyAgent,
    HardAgent,
    Options,
    RandomAgent,
    Round,
    RuleOfThumbAgent,
    ToFoundation,
    ToWork,
    Undo,
)
from cardcore.nerts.actions import Action
from cardcore.nerts.engine import NertsAgent
from cardcore.rng import Rng
from nerts_reference_agents import _distinct
from nerts_reference_engine import observe
from nerts_reference_table import NertsTable, PlayerLayout
from nerts_tables import ids, layout, other

Factory = Callable[[], NertsAgent]


def choose(agent: NertsAgent, lay: PlayerLayout, foundations: tuple[str, ...] = ()) -> object:
    opts = Options()
    t = NertsTable.from_layouts(opts, [lay, other()], [ids(f) for f in foundations])
    obs = observe(t, 0, 0)
    legal = t.legal_actions(0)
    action = agent.act(obs, legal, Rng(1))
    assert action is None or action in legal
    return action


@pytest.mark.parametrize("agent", [GreedyAgent(), HardAgent()])
def test_call_comes_first(agent: NertsAgent) -> None:
    lay = layout(nerts="", work=("8s", "7h", "Kh", "Qs"), waste="As", stock_top_first="2c")
    assert choose(agent, lay) == CallNerts()


@pytest.mark.parametrize("agent", [GreedyAgent(), HardAgent()])
def test_nerts_to_foundation_before_anything(agent: NertsAgent) -> None:
    lay = layout(nerts="Kc 2h", work=("3s", "Kh", "Kd", "Qs"), waste="Ac", stock_top_first="2c")
    assert choose(agent, lay, ("Ah", "Ad 2d")) == ToFoundation(NERTS)


@pytest.mark.parametrize("agent", [GreedyAgent(), HardAgent()])
def test_nerts_onto_a_build_before_an_empty_pile(agent: NertsAgent) -> None:
    lay = layout(nerts="Kc 7d", work=("", "Kh", "8s", "Qs"), stock_top_first="2c")
    assert choose(agent, lay) == ToWork(NERTS, 1, 2)


@pytest.mark.parametrize("agent", [GreedyAgent(), HardAgent()])
def test_flip_when_nothing_else(agent: NertsAgent) -> None:
    lay = layout(nerts="Kc 7d", work=("Kh", "Kd", "Qh", "Qd"), stock_top_first="2c")
    assert choose(agent, lay) == Flip()


def test_agents_wait_only_without_stock_actions() -> None:
    lay = layout(nerts="Kc 7d", work=("Kh", "Kd", "Qh", "Qd"))
    for agent in (GreedyAgent(), HardAgent()):
        assert choose(agent, lay) is None


@pytest.mark.parametrize("agent", [RuleOfThumbAgent(), HardAgent()])
def test_hard_empties_a_pile_for_the_nerts_card(agent: NertsAgent) -> None:
    # 7s fits nowhere; moving the lone 7h onto the 8c empties pile 0 for it
    lay = layout(nerts="Kc 7s", work=("7h", "8c", "Kh", "Kd"), stock_top_first="2c")
    assert choose(agent, lay) == ToWork(0, 1, 1)


@pytest.mark.parametrize("agent", [RuleOfThumbAgent(), HardAgent()])
def test_hard_builds_the_waste_card_the_nerts_card_needs(agent: NertsAgent) -> None:
    # 6h fits nowhere; the 7c from the waste onto the 8d makes a place for it
    lay = layout(nerts="Kc 6h", work=("8d", "Kh", "Qh", "Jd"), waste="7c", stock_top_first="2c")
    assert choose(agent, lay) == ToWork(WASTE, 1, 0)


@pytest.mark.parametrize("agent", [RuleOfThumbAgent(), HardAgent()])
def test_hard_plays_the_card_below_the_nerts_card(agent: NertsAgent) -> None:
    lay = layout(nerts="Kc 6h", work=("5h", "Kh", "Qh", "3c"), stock_top_first="2c")
    assert choose(agent, lay, ("Ah 2h 3h 4h", "Ac 2c")) == ToFoundation(0)


def test_random_agent_is_uniform_over_legal_without_undo() -> None:
    lay = layout(nerts="Kc 7d", work=("8s", "8c", "", "Qs"), waste="6c", stock_top_first="2c")
    opts = Options()
    t = NertsTable.from_layouts(opts, [lay, other()])
    t.apply(0, Flip())
    legal = t.legal_actions(0)
    assert Undo() in legal
    agent, rng = RandomAgent(), Rng(5)
    obs = observe(t, 0, 0)
    picks = {agent.act(obs, legal, rng) for _ in range(300)}
    assert Undo() not in picks
    assert picks == {a for a in legal if not isinstance(a, Undo)}


def paired(a: Factory, b: Factory, deals: int, start: int = 0) -> list[int]:
    diffs = []
    for seed in range(start, start + deals):
        for seat in (0, 1):
            agents: list[NertsAgent | None] = [b(), b()]
            agents[seat] = a()
            rnd = Round(Options(), seed, agents)
            rnd.run()
            sc = rnd.scores()
            diffs.append(sc[seat] - sc[1 - seat])
    return diffs


def test_hard_and_greedy_crush_random() -> None:
    # measured on these seeds: hard +22.0, greedy +27.2 per round (sd ~ 13)
    for agent in (HardAgent, GreedyAgent):
        diffs = paired(agent, RandomAgent, 10)
        assert statistics.mean(diffs) > 10


def test_hard_beats_greedy() -> None:
    # Deterministic sample: 500 paired rounds (seeds 0-249, seats swapped), measured +7.10
    # (standard error 0.72). The target is +5 per round; the bench measures 2,000
    # rounds (docs/replays.md has the figures). The rule-of-thumb plan alone (the previous hard
    # agent, +1.3) fails this.
    diffs = paired(HardAgent, GreedyAgent, 250)
    assert statistics.mean(diffs) > 4


@pytest.mark.parametrize("agent", [RuleOfThumbAgent(), HardAgent()])
def test_hard_keeps_a_clearing_pile_free(agent: NertsAgent) -> None:
    # 4c (waste) fits the 5h, but the 5h is one card from the hearts foundation (3h): the pile
    # will clear and take any Nerts card, so hard flips instead; greedy builds.
    lay = layout(nerts="Kc 9c", work=("5h", "Kh", "Kd", "Ks"), waste="4c", stock_top_first="2c")
    assert choose(agent, lay, ("Ah 2h 3h",)) == Flip()
    assert choose(GreedyAgent(), lay, ("Ah 2h 3h",)) == ToWork(WASTE, 1, 0)


def test_hard_skips_moves_that_only_pick_another_empty_pile() -> None:
    """Candidates that differ only by which empty pile they fill count once (the first), a whole
    pile moved into an empty one (it only reorders the piles) not at all, the plan's move
    always."""
    work = [(5,), (), (30, 16), ()]
    first, again = ToWork(WASTE, 1, 1), ToWork(WASTE, 1, 3)
    whole, part = ToWork(2, 2, 1), ToWork(2, 1, 1)
    moves: list[Action] = [first, again, whole, part, ToWork(2, 1, 3), ToWork(0, 1, 1), Flip()]
    assert _distinct(moves, work, None) == [first, part, Flip()]
    assert _distinct(moves, work, again) == [first, again, part, Flip()]
    assert _distinct([whole], work, None) == [whole]
