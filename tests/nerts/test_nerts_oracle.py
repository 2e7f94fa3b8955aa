"""The Rust rulebook behind ``NertsState`` against the oracle (the 0.4.0 ``NertsState`` over the
Python engine, ``reference_game.py``): the same rounds, submission for submission and tick for
tick, on every option set, with seats driven from outside, built-in agents and a Python agent;
every legal set, pending flag, observation (object, JSON document and tensor) of every seat,
event log, input, point, return and whole-state document must be equal, and the same bad
submissions fail with the same errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardcore.errors import IllegalMoveError, OptionError
from cardcore.nerts.agents import RandomAgent
from cardcore.nerts.game import game_for
from cardcore.nerts.options import Options
from cardcore.nerts.rules import UNDO, Flip, ToWork
from cardcore.rng import Rng
from reference_game import reference_game

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"work_piles": 5, "flip_count": 1, "undo_depth": 0},
    {"allow_partial_pile_moves": False, "empty_work_pile_fill": "nerts_only"},
    {"stock_passes": 2, "stalemate_rule": "flip_one", "nerts_pile_size": 5},
    {"stalemate_rule": "end_round", "auto_call_nerts": True, "nerts_pile_size": 3},
    {"undo_depth": 3, "nerts_bonus": 10, "speed": "frantic", "stock_passes": 1},
]


def _same_view(new: Any, old: Any, players: int, deep: bool) -> None:
    assert new.now == old.now
    assert new.is_over == old.is_over
    assert new.end == old.end
    assert new.caller == old.caller
    assert new.points() == old.points()
    assert new.returns() == old.returns()
    assert list(new.events) == old.events
    assert list(new.inputs) == list(old.inputs)
    for seat in range(players):
        assert new.legal_actions(seat) == old.legal_actions(seat)
        assert new.legal_moves(seat) == old.legal_moves(seat)
        assert new.pending(seat) == old.pending(seat)
        a, b = new.observation(seat), old.observation(seat)
        for name in ("seat", "now", "foundations", "foundation_piles", "stalemates", "recycles"):
            assert getattr(a, name) == getattr(b, name), name
        assert a.waste_fan == b.waste_fan
        for pa, pb in zip(a.players, b.players, strict=True):
            assert (pa.nerts_count, pa.nerts_top, pa.stock_count) == (
                pb.nerts_count,
                pb.nerts_top,
                pb.stock_count,
            )
            assert (pa.waste_count, pa.waste_top) == (pb.waste_count, pb.waste_top)
            assert pa.work == pb.work
        if deep:
            assert new.observation_json(seat) == old.observation_json(seat)
            assert np.array_equal(new.observation_tensor(seat), old.observation_tensor(seat))


class _PyRandom(RandomAgent):
    """A Python agent the rulebook cannot play itself (it is called back from the clock)."""

    def act(self, observation: Any, legal: Any, rng: Any) -> Any:
        return super().act(observation, legal, rng)


def _play_both(players: int, options: dict[str, Any], seed: int, agents: list[Any]) -> None:
    opts = Options(num_players=players, **options)
    new = game_for(opts).new_state(seed, agents=agents)
    old = reference_game(opts).new_state(seed, agents=agents)
    rng = Rng.for_stream(seed, 0, "oracle")
    step = 0
    t = 0
    while not old.is_over and t < 120_000:
        deep = step % 9 == 0
        t = old.now
        _same_view(new, old, players, deep)
        if deep:
            assert new.to_json() == old.to_json()
        for seat in range(players):
            if agents[seat] is not None or old.pending(seat):
                continue
            legal = old.legal_actions(seat)
            roll = rng.below(8)
            if roll == 0:  # a move that may well be illegal when it executes
                move: Any = ToWork(rng.below(opts.work_piles), 1, rng.below(opts.work_piles))
                if move.src == move.pile:
                    move = Flip()
            elif roll == 1 and UNDO in old.legal_moves(seat):
                move = UNDO
            elif legal and roll < 7:
                move = legal[rng.below(len(legal))]  # an action id
            else:
                continue
            when = t + rng.below(300)
            new.submit(seat, move, when)
            old.submit(seat, move, when)
        for bad in ((0, 10_000, t), (0, Flip(), t - 1), (players, Flip(), t)):
            errors = []
            for st in (new, old):
                with pytest.raises((IllegalMoveError, OptionError)) as e:
                    st.submit(*bad)
                errors.append((type(e.value), str(e.value)))
            assert errors[0] == errors[1]
        if rng.below(5) == 0:
            new.step()
            old.step()
        else:
            t += 100 + rng.below(400)
            new.advance_to(t)
            old.advance_to(t)
        step += 1
    new.run()
    old.run()
    _same_view(new, old, players, True)
    assert new.to_json() == old.to_json()
    assert new.moves == old.moves
    assert new.decks == old.decks
    copy = game_for(opts).state_from_json(old.to_json())
    assert copy.to_json() == old.to_json()


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_outside_seats_agree_tick_for_tick(options: dict[str, Any]) -> None:
    for players in (2, 3, 4):
        _play_both(players, options, 40 + players, [None] * players)


@pytest.mark.parametrize(
    "agents",
    [
        [None, "random", "greedy"],
        ["normal", None],
        [None, "hard", "random", "greedy"],
        ["expert", None],
    ],
    ids=lambda a: "-".join(str(x) for x in a),
)
def test_built_in_agents_agree(agents: list[str | None]) -> None:
    _play_both(len(agents), {"stock_passes": 3}, 7, agents)


def test_a_python_agent_is_called_back_from_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardcore.games import base

    monkeypatch.setitem(base._REGISTERED_AGENTS, "pyrandom", _PyRandom)
    _play_both(3, {}, 5, [None, "pyrandom", "greedy"])
    _play_both(2, {"flip_count": 1}, 6, ["pyrandom", "pyrandom"])


def test_a_python_agent_that_chooses_an_illegal_move_is_refused_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardcore.games import base

    class Cheat(RandomAgent):
        def act(self, observation: Any, legal: Any, rng: Any) -> Any:
            return ToWork(0, 13, 1)

    monkeypatch.setitem(base._REGISTERED_AGENTS, "cheat", Cheat)
    opts = Options(num_players=2)
    errors = []
    for game in (game_for(opts), reference_game(opts)):
        with pytest.raises(IllegalMoveError) as e:
            game.new_state(3, agents=["greedy", "cheat"])
        errors.append(str(e.value))
    assert errors[0] == errors[1]
    assert "the agent of seat 1 chose" in errors[0]


def test_the_redeal_keeps_what_the_seat_sees() -> None:
    opts = Options(num_players=3)
    st = game_for(opts).new_state(9, agents=[None, "greedy", "random"])
    st.advance_to(15_000)
    for seat in range(3):
        re = st.resample_hidden(seat, 1234)
        assert re.observation_json(seat) == st.observation_json(seat)
        assert np.array_equal(re.observation_tensor(seat), st.observation_tensor(seat))
        a, b = re.parts()["seats"], st.parts()["seats"]
        assert [sorted(x["nerts"] + x["stock"] + x["waste"]) for x in a] == [
            sorted(x["nerts"] + x["stock"] + x["waste"]) for x in b
        ]
        assert [x["stock"] for x in a] != [x["stock"] for x in b]
        re.advance_to(30_000)  # the re-dealt round plays on
        assert st.now == 15_000
