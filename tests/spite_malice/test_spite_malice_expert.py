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
    table = (
        0,
        bytes([1, 2, 7, 9, 0]),
        bytes([3, 11]),
        [20, 20],
        sides,
        [b"", b"", b""],
        [5, 5],
        55,
    )
    weights = _core.spite_weights("hard")
    with pytest.raises(ValueError, match="unseen"):  # one stock card too many
        _core.spite_expert_decide(
            table,
            (2, 5, 0, 1000),
            (12, True, True, 0, False),
            (4, None, 4, 2, 1.0, 10.0, 1000),
            weights,
            1,
        )
    with pytest.raises(ValueError, match="side_rule"):
        _core.spite_expert_decide(
            table,
            (2, 5, 0, 1000),
            (12, True, True, 7, False),
            (4, None, 4, 2, 1.0, 10.0, 1000),
            weights,
            1,
        )
