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


def _params() -> Any:
    return _core.SpiteExpertParams(
        rollouts=4,
        time_ms=None,
        candidates=4,
        horizon=2,
        margin=1.0,
        win_value=10.0,
        node_limit=1000,
        weights=_core.spite_weights("hard"),
    )


def _table(**changes: Any) -> Any:
    """Two players, two decks, kings wild: seat 0 to play (``changes`` replace fields)."""
    fields: dict[str, Any] = {
        "seat": 0,
        "hand": bytes([1, 2, 7, 9, 0]),
        "payoff_tops": bytes([3, 11]),
        "payoff_counts": [20, 20],
        "sides": [[b"", b"", b"", b""], [b"", b"", b"", b""]],
        "center": [b"", b"", b""],
        "hand_sizes": [5, 5],
        "stock_count": 54,
        "decks": 2,
        "hand_size": 5,
        "top": 12,
        "wild_start": True,
        "refill_empty_hand": True,
        "side_rule": 0,
        "must_play_aces": False,
        "turn": 1,
        "max_turns": 1000,
        "turn_start_center": None,
    }
    return _core.SpiteTable(**(fields | changes))


def test_bad_budget_and_tables_raise_value_errors() -> None:
    with pytest.raises(ValueError, match="rollouts"):
        ExpertAgent(rollouts=-1)
    with pytest.raises(ValueError, match="time_ms"):
        ExpertAgent(time_ms=-5)
    params = _params()
    for side_rule, match in [(0, "unseen"), (7, "side_rule")]:  # one stock card too many
        table = _table(stock_count=55, side_rule=side_rule)
        with pytest.raises(ValueError, match=match):
            _core.spite_expert_decide(table, params, 1)


@pytest.mark.parametrize("players", [2, 3])
def test_last_turn_deals_know_the_turn_start(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    expert = ExpertAgent(rollouts=4, last_turn=True)
    o = Options(num_players=players, payoff_size=8)
    agents: list[Any] = [expert] + [PlannerAgent() for _ in range(players - 1)]
    starts: list[bytes | None] = []
    decide = _core.spite_expert_decide

    def spy(table: Any, params: Any, seed: int) -> Any:
        starts.append(table.turn_start_center)
        return decide(table, params, seed)

    monkeypatch.setattr(_core, "spite_expert_decide", spy)
    play_out(State.new(o, 4), 4, agents)
    assert expert.searches == len(starts) > 0
    assert any(s is not None and len(s) == o.num_center_stacks for s in starts)


def test_turn_start_center_must_match_the_centre() -> None:
    params = _params()
    for start, ok in [(bytes([0, 0, 0]), True), (bytes([0, 0]), False), (bytes([12, 0, 0]), False)]:
        table = _table(turn=3, turn_start_center=start)
        if ok:
            assert _core.spite_expert_decide(table, params, 1).steps
        else:
            with pytest.raises(ValueError, match="turn_start_center"):
                _core.spite_expert_decide(table, params, 1)
