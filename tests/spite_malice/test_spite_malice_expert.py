"""The Spite & Malice expert: legal moves in every variant, reproducible games, clear errors."""

from __future__ import annotations

from typing import Any

import pytest

from agent_play import play_out, same_at_any_jobs
from cardcore import _core
from cardcore.games.base import get_game
from cardcore.spite_malice.agents import ExpertAgent, PlannerAgent
from cardcore.spite_malice.rules import Options, State


@pytest.mark.parametrize(
    "opts",
    [
        {"num_players": 2, "payoff_size": 8},
        {"num_players": 3, "payoff_size": 6, "wild_mode": "jokers"},
        {"num_players": 4, "payoff_size": 5, "side_stack_rule": "same_or_one_lower"},
        {"num_players": 2, "payoff_size": 6, "king_can_start_stack": False, "must_play_aces": True},
        {
            "num_players": 2,
            "payoff_size": 6,
            "refill_empty_hand": False,
            "side_stack_rule": "no_aces",
        },
        {"num_players": 2, "payoff_size": 6, "num_center_stacks": 0},  # plays as the planner
    ],
)
def test_expert_plays_legal_moves(opts: dict[str, Any]) -> None:
    o = Options(**opts)
    expert = ExpertAgent(rollouts=2)
    agents: list[Any] = [expert] + [PlannerAgent() for _ in range(o.num_players - 1)]
    play_out(State.new(o, 3), 3, agents)
    if o.num_center_stacks:
        assert expert.searches > 0


def test_expert_games_repeat_byte_for_byte_at_any_jobs() -> None:
    one = same_at_any_jobs(
        "spite-malice",
        games=4,
        seed=5,
        agents="expert,planner",
        options={"payoff_size": 8},
        rotate_seats=True,
    )
    spec = get_game("spite-malice")
    assert spec.verify_replay(one[0]["replay"]) is None


def test_time_budget_searches_at_least_once() -> None:
    expert = ExpertAgent(time_ms=1.0)
    play_out(State.new(Options(payoff_size=5), 2), 2, [expert, PlannerAgent()])
    assert expert.deals >= expert.searches > 0


def test_bad_budget_and_tables_raise_value_errors() -> None:
    with pytest.raises(ValueError, match="rollouts"):
        ExpertAgent(rollouts=-1)
    with pytest.raises(ValueError, match="time_ms"):
        ExpertAgent(time_ms=-5)
    sides = [[b"", b"", b"", b""], [b"", b"", b"", b""]]
    params = _core.SpiteExpertParams(
        rollouts=4,
        time_ms=None,
        candidates=4,
        horizon=2,
        margin=1.0,
        win_value=10.0,
        node_limit=1000,
        weights=_core.spite_weights("hard"),
    )
    for side_rule, match in [(0, "unseen"), (7, "side_rule")]:  # one stock card too many
        table = _core.SpiteTable(
            seat=0,
            hand=bytes([1, 2, 7, 9, 0]),
            payoff_tops=bytes([3, 11]),
            payoff_counts=[20, 20],
            sides=sides,
            center=[b"", b"", b""],
            hand_sizes=[5, 5],
            stock_count=55,
            decks=2,
            hand_size=5,
            top=12,
            wild_start=True,
            refill_empty_hand=True,
            side_rule=side_rule,
            must_play_aces=False,
            turn=0,
            max_turns=1000,
        )
        with pytest.raises(ValueError, match=match):
            _core.spite_expert_decide(table, params, 1)
