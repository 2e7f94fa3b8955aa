"""The Rust rulebook against the oracle (the Python engine of 0.4.0, ``reference_state.py`` and
``tt_reference_game.py``): the same games, move for move, on every option set, with random and
agent moves; every legal set, observation (object, JSON document and tensor) of every seat,
whole-state document, return and re-deal of hidden cards must be equal."""

from __future__ import annotations

from typing import Any

import pytest

from cardcore.errors import IllegalMoveError
from cardcore.rng import Rng
from cardcore.three_thirteen.agents import GreedyAgent, HardAgent, RandomAgent
from cardcore.three_thirteen.game import game_for
from cardcore.three_thirteen.options import Options
from tt_reference_game import reference_game

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"jokers": 2},
    {"jokers": 4, "num_decks": 3, "ace_mode": "high", "wild_points": 0, "joker_points": 50},
    {"ace_mode": "both", "tie_rule": "shared_win", "first_dealer": 1},
    {"forbid_return_of_discard_draw": True, "min_own_turns_before_out": 2},
    {"max_turns_per_round": 7, "num_decks": 1},
]
"""Every option set of the rules (random games also cap a round at 60 turns, where not set,
so that a game is ~1,300 decisions instead of ~6,000)."""


def _same_view(new: Any, old: Any, seats: int, deep: bool) -> None:
    assert new.current_player == old.current_player
    assert new.is_over == old.is_over
    assert new.legal_actions() == old.legal_actions()
    assert new.legal_moves() == old.legal_moves()
    assert new.returns() == old.returns()
    assert new.points() == old.points()
    for seat in range(seats):
        assert tuple(new.observation(seat)) == tuple(old.observation(seat))
        if deep:
            assert new.observation_json(seat) == old.observation_json(seat)
            assert (new.observation_tensor(seat) == old.observation_tensor(seat)).all()


def _play_both(players: int, options: dict[str, Any], seed: int, agents: list[Any]) -> None:
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
            seat = step % players
            redealt = new.resample_hidden(seat, step).to_json()
            assert redealt == old.resample_hidden(seat, step).to_json()
            assert game_for(opts).state_from_json(redealt).to_json() == redealt
        s = old.current_player
        assert s is not None
        move = agents[s].act(old.observation(s), old.legal_moves(), rngs[s])
        if step % 5 == 0:  # an action id: the lowest copy of the face that may be discarded
            action = old.game.move_to_action(move)
            new.apply(action)
            old.apply(action)
        else:
            new.apply(move)
            old.apply(move)
        step += 1
    _same_view(new, old, players, True)
    assert new.to_json() == old.to_json()
    assert new.result() == old.result()
    assert new.moves == old.moves
    copy = game_for(opts).state_from_json(old.to_json())
    assert copy.to_json() == old.to_json()


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_random_games_agree_move_for_move(options: dict[str, Any]) -> None:
    for players in (2, 4, 6):
        if players * 13 + 2 > 52 * options.get("num_decks", 2) + options.get("jokers", 0):
            continue
        capped = {"max_turns_per_round": 60, **options}
        _play_both(players, capped, 100 + players, [RandomAgent()] * players)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_agent_games_agree_move_for_move(players: int) -> None:
    agents = [GreedyAgent() if s % 2 else HardAgent() for s in range(players)]
    _play_both(players, {"jokers": 2}, 7 + players, agents)


def test_action_ids_discard_the_same_copy() -> None:
    opts = Options(num_players=3, jokers=4)
    for seed in range(3):
        new = game_for(opts).new_state(seed)
        old = reference_game(opts).new_state(seed)
        rng = Rng(seed)
        while not old.is_over:
            legal = old.legal_actions()
            a = legal[rng.below(len(legal))]
            new.apply(a)
            old.apply(a)
        assert new.to_json() == old.to_json()


@pytest.mark.parametrize(
    "move",
    [999, -3, 1 << 70, "draw", None, 2.0],
)
def test_illegal_moves_give_the_same_error(move: object) -> None:
    opts = Options(num_players=2)
    new = game_for(opts).new_state(3)
    old = reference_game(opts).new_state(3)
    for _ in range(2):  # a draw turn, then a discard turn
        errors = []
        for st in (new, old):
            with pytest.raises(IllegalMoveError) as e:
                st.apply(move)  # type: ignore[arg-type]
            errors.append(str(e.value))
        assert errors[0] == errors[1]
        for st in (new, old):
            st.apply(st.legal_actions()[0])
