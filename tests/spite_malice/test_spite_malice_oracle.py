"""The Rust rulebook against the oracle (the Python engine of 0.4.0, ``sm_reference_state.py``
and ``sm_reference_game.py``): the same games, move for move, on every option set, with random
and agent moves; every legal set, observation (object, JSON document and tensor) of every
seat, whole-state document, return, re-deal of hidden cards and refusal must be equal."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from cardcore.errors import IllegalMoveError, OptionError
from cardcore.rng import Rng
from cardcore.spite_malice.agents import (
    ExpertAgent,
    GreedyAgent,
    NormalAgent,
    PlannerAgent,
    RandomAgent,
)
from cardcore.spite_malice.game import game_for
from cardcore.spite_malice.moves import Discard, PlayHand, PlayPayOff, PlaySide
from cardcore.spite_malice.options import Options
from sm_reference_game import reference_game

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"num_center_stacks": 0},
    {"wild_mode": "jokers", "side_stack_rule": "same_or_one_lower", "must_play_aces": True},
    {"completed_stack": "set_aside", "stock_exhausted": "recycle_then_tie", "payoff_size": 30},
    {
        "stock_exhausted": "tie_immediately",
        "side_stack_rule": "no_aces",
        "refill_empty_hand": False,
        "win_bonus": 5,
    },
    {
        "king_can_start_stack": False,
        "first_player": 1,
        "max_turns": 40,
        "hand_size": 7,
        "num_side_stacks": 2,
    },
    {"num_decks": 1, "payoff_size": 5, "num_center_stacks": 0, "wild_mode": "jokers"},
    {"payoff_size": 1, "hand_size": 1, "num_side_stacks": 1, "num_decks": 1},
]
"""Every rules option in sets (the last one: one-card pay-off piles, where the first-player
procedure reshuffles the same pile again and again)."""


class Eager:
    """A random agent that plays to the centre nine times in ten when it can (a random agent
    discards at once and the stock runs out before a stack is completed)."""

    def act(self, observation: Any, legal: list[Any], rng: Rng) -> Any:
        plays = [m for m in legal if type(m) is not Discard]
        pool = plays if plays and rng.below(10) < 9 else legal
        return pool[rng.below(len(pool))]


def _values(obs: Any) -> list[Any]:
    return [getattr(obs, f.name) for f in fields(obs)]


def _same_refusals(new: Any, old: Any) -> None:
    """Every play and discard of the seat to play: the same verdict and the same words."""
    o = old.options
    seat = old.current
    cards = [*old.hands[seat], 10_000]
    moves: list[Any] = [PlayPayOff(c) for c in range(-1, len(old.center) + 1)]
    moves += [PlaySide(s, c) for s in range(-1, o.num_side_stacks + 1) for c in (0, 9)]
    moves += [PlayHand(card, c) for card in cards for c in range(len(old.center) + 1)]
    moves += [Discard(card, s) for card in cards for s in range(-1, o.num_side_stacks + 1)]
    for move in moves:
        assert new.is_legal(move) == old.is_legal(move), move
        assert new._why_illegal(move) == old._why_illegal(move), move


def _same_view(new: Any, old: Any, seats: int, deep: bool) -> None:
    assert new.current_player == old.current_player
    assert new.is_over == old.is_over
    assert new.legal_actions() == old.legal_actions()
    assert new.legal_moves() == old.legal_moves()
    assert new.returns() == old.returns()
    assert new.points() == old.points()
    for seat in range(seats):
        assert _values(new.observation(seat)) == _values(old.observation(seat))
        if deep:
            assert new.observation_json(seat) == old.observation_json(seat)
            assert (new.observation_tensor(seat) == old.observation_tensor(seat)).all()


def _play_both(players: int, options: dict[str, Any], seed: int, agents: list[Any]) -> Any:
    opts = Options(num_players=players, **options)
    new = game_for(opts).new_state(seed)
    old = reference_game(opts).new_state(seed)
    rngs = [Rng.for_stream(seed, s, "agent") for s in range(players)]
    step = 0
    while not old.is_over:
        deep = step % 23 == 0
        _same_view(new, old, players, deep)
        if deep:
            assert new.to_json() == old.to_json()
            _same_refusals(new, old)
            seat = step % players
            assert (
                new.resample_hidden(seat, step).to_json()
                == old.resample_hidden(seat, step).to_json()
            )
        s = old.current
        move = agents[s].act(old.observation(s), old.legal_moves(), rngs[s])
        if step % 5 == 0:  # an action id: the lowest card of the face in the hand
            action = old.game.move_to_action(move)
            new.apply(action)
            old.apply(action)
        else:
            new.apply(move)
            old.apply(move)
        step += 1
    _same_view(new, old, players, True)
    assert new.to_json() == old.to_json()
    assert new.moves == old.moves
    assert (new.winner, new.scores, new.end_reason, new.turn) == (
        old.winner,
        old.scores,
        old.end_reason,
        old.turn,
    )
    assert new.layout_digest() == old.layout_digest()
    assert new.describe() == old.describe()
    copy = game_for(opts).state_from_json(old.to_json())
    assert copy.to_json() == old.to_json()
    return new


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_random_games_agree_move_for_move(options: dict[str, Any]) -> None:
    for players in (2, 3, 4):
        try:
            Options(num_players=players, **options)
        except OptionError:
            continue
        _play_both(players, options, 100 + players, [RandomAgent()] * players)
        state = _play_both(players, options, 200 + players, [Eager()] * players)
        assert state.over


@pytest.mark.parametrize("players", [2, 3, 4])
def test_agent_games_agree_move_for_move(players: int) -> None:
    agents = [GreedyAgent(), PlannerAgent(), NormalAgent(), ExpertAgent(rollouts=4)][:players]
    _play_both(players, {"payoff_size": 8}, 7 + players, agents)


def test_events_and_reshuffles_agree() -> None:
    from cardcore.spite_malice.state import State as New
    from sm_reference_state import State as Old

    opts = Options(payoff_size=1, hand_size=1, num_side_stacks=1, num_decks=1)
    for seed in range(6):
        new = New.new(opts, seed, log_events=True)
        old = Old.new(opts, seed, log_events=True)
        rng = Rng(seed)
        while not old.over:
            legal = old.legal_actions()
            a = legal[rng.below(len(legal))]
            new.apply(a)
            old.apply(a)
        assert new.events == old.events
        assert (new.pinned, new.reshuffles) == (old.pinned, old.reshuffles)
        assert new.to_json() == reference_game(opts).state_to_json(old)


@pytest.mark.parametrize(
    "move",
    [999, -3, 1 << 70, "draw", None, 2.0, PlayPayOff(True), PlayPayOff(1 << 70)],
)
def test_illegal_moves_give_the_same_error(move: object) -> None:
    opts = Options(num_players=2)
    new = game_for(opts).new_state(3)
    old = reference_game(opts).new_state(3)
    for _ in range(3):
        errors = []
        for st in (new, old):
            with pytest.raises(IllegalMoveError) as e:
                st.apply(move)  # type: ignore[arg-type]
            errors.append(str(e.value))
        assert errors[0] == errors[1]
        for st in (new, old):
            st.apply(st.legal_actions()[-1])


def test_moves_with_fields_of_other_types_give_the_same_error() -> None:
    opts = Options(num_players=2)
    new = game_for(opts).new_state(5)
    old = reference_game(opts).new_state(5)
    card = old.hands[old.current][0]
    for move in [
        PlaySide(True, 0),
        PlaySide("1", 0),  # type: ignore[arg-type]
        PlaySide(0, None),  # type: ignore[arg-type]
        PlayHand(card, 1 << 64),
        PlayHand(str(card), 0),  # type: ignore[arg-type]
        PlayHand(True, 0),
        Discard(card, 1 << 70),
        Discard(card, False),
        Discard(1 << 70, 0),
        Discard(None, 0),  # type: ignore[arg-type]
    ]:
        assert new.is_legal(move) == old.is_legal(move)  # type: ignore[arg-type]
        errors = []
        for st in (new, old):
            with pytest.raises(IllegalMoveError) as e:
                st.apply(move)  # type: ignore[arg-type]
            errors.append(str(e.value))
        assert errors[0] == errors[1], move
