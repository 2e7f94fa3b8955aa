"""Spite & Malice turn planner: legal plans, brute-force agreement, agent strength."""

from __future__ import annotations

import math

import pytest

from cardcore import _core
from cardcore.rng import Rng
from cardcore.spite_malice import (
    FEATURES,
    Discard,
    GreedyAgent,
    Options,
    PlannerAgent,
    PlannerInput,
    PlayPayOff,
    State,
    plan_raw,
    plan_turn,
    play_game,
    preset_weights,
)
from spite_malice_planner_reference import reference_plan_score


def test_presets_and_weight_validation() -> None:
    assert len(preset_weights("hard")) == len(FEATURES) == _core.SPITE_NUM_FEATURES
    for name in ("hard", "plays", "payoff"):
        assert preset_weights(name)[FEATURES.index("payoff_played")] > 0
    with pytest.raises(ValueError, match="unknown planner preset"):
        preset_weights("easy")
    inp = PlannerInput(
        hand=(1,), sides=((),) * 4, side_lens=(0,) * 4, payoff=5, payoff_left=3, center=(0, 0, 0)
    )
    with pytest.raises(ValueError, match="weights"):
        plan_raw(inp, [1.0, 2.0])
    with pytest.raises(ValueError, match="weights"):
        plan_raw(inp, [math.nan] * len(FEATURES))
    with pytest.raises(ValueError, match="card value"):
        plan_raw(
            PlannerInput(hand=(14,), sides=(), side_lens=(), payoff=5, payoff_left=3, center=(0,))
        )
    with pytest.raises(ValueError, match="limit"):
        plan_raw(
            PlannerInput(
                hand=(1,) * 17, sides=(), side_lens=(), payoff=5, payoff_left=3, center=(0,)
            )
        )
    with pytest.raises(ValueError, match="rules"):
        plan_raw(
            PlannerInput(hand=(1,), sides=(), side_lens=(), payoff=5, payoff_left=3, center=(12,))
        )


def test_plays_payoff_through_a_chain_with_a_wild() -> None:
    # centre at 3, pay-off 7: hand 4, K(wild), 6 and side top 5 -> 4, 5, 6 .. K as 7? no:
    # 4 (hand), 5 (side), 6 (hand) then the pay-off 7 itself.
    st = State.from_piles(
        Options(),
        hands=["4c Kd 6c 9h 9s", "2d 3d 4d 5d 6d"],
        payoffs=["8c 7h", "Qd"],
        sides=[["5s", "", "", ""], ["", "", "", ""]],
        center=[3],
    )
    plan = plan_turn(st.observation(0))
    assert isinstance(plan.moves[-1], PlayPayOff)
    assert plan.complete
    for m in plan.moves:
        st.apply(m)
    assert len(st.payoffs[0]) == 1


def test_plan_keeps_wild_when_it_is_not_needed() -> None:
    st = State.from_piles(
        Options(),
        hands=["Kd 9h 9s 8h 8s", "2d 3d 4d 5d 6d"],
        payoffs=["8c 5h", "Qd"],
        center=[1],
    )
    plan = plan_turn(st.observation(0))
    # K to make 2 doesn't reach the 5: the planner discards instead of wasting the king
    assert all(m.card_id != st.hands[0][0] for m in plan.moves)  # type: ignore[union-attr]
    assert isinstance(plan.moves[-1], Discard)


def _random_input(rng: Rng, small: bool) -> PlannerInput:
    top = 12 if rng.below(4) else 13
    hand_n = 1 + rng.below(4 if small else 6)

    def card() -> int:
        return int(rng.below(top + 1))

    sides_n = 1 + rng.below(4)
    sides = tuple(tuple(card() for _ in range(rng.below(3))) for _ in range(sides_n))
    side_lens = tuple(len(s) + (rng.below(2) if s else 0) for s in sides)
    centre_n = 1 + rng.below(3)
    return PlannerInput(
        hand=tuple(card() for _ in range(hand_n)),
        sides=sides,
        side_lens=side_lens,
        payoff=255 if rng.below(6) == 0 else card(),
        payoff_left=1 + rng.below(3),
        center=tuple(int(rng.below(top)) for _ in range(centre_n)),
        opp_payoffs=tuple(255 if rng.below(5) == 0 else card() for _ in range(rng.below(4))),
        next_side_tops=tuple(card() for _ in range(rng.below(3))),
        top=top,
        wild_start=bool(rng.below(4)),
        refill_empty_hand=bool(rng.below(4)),
        side_rule=int(rng.below(3)),
        must_play_aces=rng.below(4) == 0,
    )


@pytest.mark.parametrize("weights", ["hard", "plays", "random"])
def test_matches_brute_force_on_small_positions(weights: str) -> None:
    rng = Rng(2024 + len(weights))
    checked = 0
    for _ in range(150):
        inp = _random_input(rng, small=True)
        w: list[float] = (
            [rng.random() * 20 - 10 for _ in FEATURES]
            if weights == "random"
            else preset_weights(weights)
        )
        score, steps, _nodes, complete = plan_raw(inp, w)
        assert complete
        expected = reference_plan_score(inp, w)
        if expected == float("-inf"):
            assert score == expected
            assert steps == []
            continue
        assert score == pytest.approx(expected, rel=1e-9, abs=1e-6), inp
        checked += 1
    assert checked > 100


def test_plans_are_legal_in_real_games() -> None:
    """Every plan of every decision in whole games applies cleanly through the engine."""
    decisions = 0
    for seed in range(30):
        players = 2 + seed % 3
        o = Options(num_players=players)
        st = State.new(o, seed)
        rng = Rng.for_stream(seed, 1, "agent")
        greedy = GreedyAgent()
        while not st.over and st.turn < 200:
            seat = st.current
            obs = st.observation(seat)
            plan = plan_turn(obs)
            assert plan.moves
            assert plan.complete
            trial = st.clone()
            for m in plan.moves:  # the whole sequence is legal (discard last, or an event)
                assert not trial.over or isinstance(m, PlayPayOff)
                trial.apply(m)
                if trial.current != seat or trial.over:
                    break
            decisions += 1
            if seat == 0:
                st.apply(plan.moves[0])
            else:
                st.apply(greedy.act(obs, st.legal_moves(), rng))
    assert decisions > 500


def test_planner_beats_greedy_two_players() -> None:
    """CI-sized strength check: 200 seat-rotated games, planner vs greedy.

    The benchmark plays 2,000 games (target >= 90%, measured about 93%); with p = 0.93 the
    200-game rate falls below 0.85 with probability < 1e-4, so the bound is statistically safe
    (and the seeds are fixed, so the result is deterministic).
    """
    wins = 0
    n = 200
    for g in range(n):
        seat = g % 2
        agents = [GreedyAgent(), GreedyAgent()]
        planner = PlannerAgent()
        agents[seat] = planner  # type: ignore[call-overload]
        st, _ = play_game(Options(), 10_000 + g, agents)
        wins += st.winner == seat
        assert planner.fallbacks == 0
    assert wins / n >= 0.85


@pytest.mark.parametrize("players", [3, 4])
def test_planner_beats_its_share_multiplayer(players: int) -> None:
    wins = 0
    n = 60
    for g in range(n):
        seat = g % players
        agents: list[GreedyAgent | PlannerAgent] = [GreedyAgent() for _ in range(players)]
        agents[seat] = PlannerAgent()
        st, _ = play_game(Options(num_players=players), 20_000 + g, agents)
        wins += st.winner == seat
    assert wins / n >= 1.5 / players
