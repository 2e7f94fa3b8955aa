"""Hostile inputs and faults, round 2 (issue #31): the Python API, options and the RL
environments. Numeric options are bounded so the engine's arithmetic holds (M1, L8, L9, L26);
numpy integers work as seats and seeds (L4) and a numpy array is an illegal move (L6); card
ids and deck counts out of range are typed errors (L5, L7); the environments honour
``illegal=`` and refuse to play past the end (M6, L14, L15); a state used by two threads at
once raises instead of being corrupted (L16)."""

from __future__ import annotations

import json
import random
import sys
import threading
from typing import Any, Literal

import numpy as np
import pytest

from cardcore import cards
from cardcore.errors import (
    ArgumentRangeError,
    ArgumentTypeError,
    ConcurrentUseError,
    IllegalMoveError,
    OptionError,
)
from cardcore.games.api import load_game
from cardcore.games.base import get_game
from cardcore.nerts import options as nerts_options
from cardcore.sim import simulate
from cardcore.three_thirteen import min_deadwood_batch

GAMES = ["three-thirteen", "spite-malice", "nerts"]
BIG = [2**31, 2**31 - 1, 10**9, 2**63, 10**30]


# --- M1, L8, L9, L26: every numeric option has a bound the engine's arithmetic holds ----------


@pytest.mark.parametrize("game", GAMES)
def test_every_numeric_option_has_a_maximum(game: str) -> None:
    """M1/L9: Nerts point options had no maximum, and overflowed the engine's 32-bit sums."""
    open_ended = [
        o.name
        for o in get_game(game).options
        if o.kind in (int, float) and o.choices is None and o.maximum is None
    ]
    assert open_ended == []


@pytest.mark.parametrize(
    "name", ["foundation_points", "nerts_penalty", "nerts_bonus", "target_score", "stock_passes"]
)
@pytest.mark.parametrize("value", BIG)
def test_nerts_options_past_their_bound_are_option_errors(name: str, value: int) -> None:
    """L9/L26: 2**31 gave `TypeError: failed to extract field RoundDict.options` (a web room's
    AI task died on it); 10**9 played on with wrapped sums (hard's margin over greedy fell from
    +5.45 to -22.45 points a round)."""
    with pytest.raises(OptionError, match=f"option {name}: {value} > maximum"):
        load_game("nerts", **{name: value})
    with pytest.raises(OptionError, match=name):
        list(simulate("nerts", games=1, seed=11, agents="hard,greedy", options={name: value}))


def test_nerts_point_bound_fits_the_rollout_arithmetic() -> None:
    """A rollout values a seat as ``3 * own - others``; each score is at most 52 foundation
    cards plus the bonus, or 40 Nerts cards of penalty."""
    bound = nerts_options.MAX_POINTS
    worst = 3 * (52 * bound + bound) + 3 * (40 * bound)
    assert worst < 6 * (52 + 40 + 1) * bound < 2**31 - 1
    top = {"foundation_points": bound, "nerts_penalty": bound, "nerts_bonus": bound}
    [rec] = simulate("nerts", games=1, seed=11, agents="hard,greedy", options=top)
    assert all(s % bound == 0 for s in rec["scores"])  # every point counted at the top value


@pytest.mark.parametrize("name", ["wild_points", "joker_points"])
def test_three_thirteen_points_bound_is_the_solver_bound(name: str) -> None:
    """L8: 1001 was refused by the meld solver mid-run while `cardcore games` said `0..`."""
    assert get_game("three-thirteen").option(name).maximum == 1000
    load_game("three-thirteen", **{name: 1000}).new_state(1)
    with pytest.raises(OptionError, match=f"option {name}: 1001 > maximum 1000"):
        load_game("three-thirteen", **{name: 1001})


# --- L4, L6: numpy integers are ints, numpy arrays are not moves ----------------------------


@pytest.mark.parametrize("game", GAMES)
def test_numpy_integers_as_seeds_and_seats(game: str) -> None:
    """L4: `observation(np.int64(0))` and `new_state(np.int64(3))` were refused."""
    g = load_game(game)
    st, ref = g.new_state(np.int64(3)), g.new_state(3)  # type: ignore[arg-type]
    assert st.to_json() == ref.to_json()
    for seat in (np.int64(0), np.int32(1), np.uint8(1)):
        assert st.observation_json(seat) == ref.observation_json(int(seat))
        assert (st.observation_tensor(seat) == ref.observation_tensor(int(seat))).all()
        doc = g.observation_document(st, seat)  # type: ignore[arg-type]
        assert json.dumps(doc) == json.dumps(g.observation_document(ref, int(seat)))
    for bad in (np.bool_(True), True, 1.0, np.float64(0)):
        with pytest.raises(OptionError):
            st.observation(bad)


@pytest.mark.parametrize("game", ["three-thirteen", "spite-malice"])
def test_resample_hidden_and_rl_reset_take_numpy_integers(game: str) -> None:
    from cardcore.rl.pettingzoo import env

    g = load_game(game)
    st = g.new_state(3)
    a = g.resample_hidden(st, np.int64(0), np.uint64(9))  # type: ignore[attr-defined]
    b = g.resample_hidden(st, 0, 9)  # type: ignore[attr-defined]
    assert a.to_json() == b.to_json()
    e = env(game)
    e.reset(seed=np.int64(3))  # type: ignore[arg-type]
    obs = e.observe(e.agent_selection)
    e.reset(seed=3)
    assert (e.observe(e.agent_selection)["observation"] == obs["observation"]).all()


@pytest.mark.parametrize("game", ["three-thirteen", "spite-malice"])
def test_a_numpy_array_is_an_illegal_move(game: str) -> None:
    """L6: `apply(np.array([0]))` raised TypeError."""
    st = load_game(game).new_state(3)
    before = st.to_json()
    for bad in (np.array([0]), np.array([0, 1]), np.bool_(True)):
        with pytest.raises(IllegalMoveError):
            st.apply(bad)
    assert st.to_json() == before
    action = st.legal_actions()[0]
    st.apply(np.array(action))  # a 0-d integer array is an integer
    assert st.to_json() != before


# --- L5, L7: card ids and deck counts ---------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_card_text_of_a_card_not_in_the_game(game: str) -> None:
    """L5: `card_text(-1)` gave 'Ks@1', `card_text(True)` '2c@0', `card_text(10**6)` a bare
    IndexError."""
    g = load_game(game)
    size = g._codec.size
    assert g.card_text(np.int64(0)) == g.card_text(0)  # type: ignore[arg-type]
    for bad in (-1, size, 10**6, 2**64):
        with pytest.raises(ArgumentRangeError, match=f"no card id {bad}"):
            g.card_text(bad)
    for bad_type in (True, 1.0, "0", None):
        with pytest.raises(ArgumentTypeError):
            g.card_text(bad_type)  # type: ignore[arg-type]


def test_id_text_checks_its_card_id() -> None:
    assert cards.id_text(np.int64(53), 2) == cards.id_text(53, 2) == "2c@1"  # type: ignore[arg-type]
    assert cards.id_text(104, 2) == "X1"
    for bad in (-1, 104 + cards.MAX_JOKER):
        with pytest.raises(ArgumentRangeError):
            cards.id_text(bad, 2)
    with pytest.raises(ArgumentTypeError):
        cards.id_text(True, 2)


@pytest.mark.parametrize("decks", [-1, 0, 65536, 2**70])
def test_min_deadwood_batch_decks_out_of_range(decks: int) -> None:
    """L7: `decks=-1` was a bare OverflowError."""
    with pytest.raises(ArgumentRangeError, match=r"decks must be in 1\.\.65535"):
        min_deadwood_batch(["3h 4h 5h"], 3, decks=decks)
    with pytest.raises(ArgumentTypeError):
        min_deadwood_batch(["3h 4h 5h"], 3, decks=1.5)  # type: ignore[arg-type]
    assert min_deadwood_batch(["3h 4h 5h 9c"], 3, decks=np.int64(2)) == [9]  # type: ignore[arg-type]


# --- M6, L15: the gymnasium environments honour illegal= and end on it ----------------------


def _outside_mask(obs: dict[str, Any]) -> int:
    return int(np.flatnonzero(obs["action_mask"] == 0)[0])


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_illegal_lose_ends_the_episode_for_good(game: str) -> None:
    """M6: Nerts returned (0.0, False, False, {}) for an action outside the mask; L15: the
    turn-based games played on after the illegal-action loss."""
    from cardcore.rl.gymnasium import CardGameEnv

    env = CardGameEnv(game, opponents="greedy")
    obs, _ = env.reset(seed=4)
    before = env.game_state.to_json()
    obs, reward, terminated, truncated, info = env.step(_outside_mask(obs))
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal": True})
    assert env.game_state.to_json() == before
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    with pytest.raises(IllegalMoveError, match="episode is over"):
        env.step(legal)
    env.reset(seed=4)
    env.step(legal)  # a new episode plays


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad", ["outside", -1, 10**6, np.array([0, 1]), None])
def test_gymnasium_illegal_raise(game: str, bad: Any) -> None:
    from cardcore.rl.gymnasium import CardGameEnv

    env = CardGameEnv(game, opponents="greedy", illegal="raise")
    obs, _ = env.reset(seed=4)
    before = env.game_state.to_json()
    with pytest.raises(IllegalMoveError):
        env.step(_outside_mask(obs) if isinstance(bad, str) else bad)
    assert env.game_state.to_json() == before
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))  # the episode goes on


# --- L14: PettingZoo after the end ------------------------------------------------------------


def _finish_aec(e: Any) -> None:
    for _ in e.agent_iter(100_000):
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))


@pytest.mark.parametrize("engine", ["protocol", "rust"])
@pytest.mark.parametrize("game", ["three-thirteen", "spite-malice"])
def test_pettingzoo_after_the_end_is_a_typed_error(
    game: Literal["three-thirteen", "spite-malice"], engine: str
) -> None:
    """L14: `step` and `last` after the end raised KeyError."""
    from cardcore.rl.pettingzoo import env

    options: dict[str, Any] = {"players": 2} if game == "three-thirteen" else {}
    e = env(game, engine=engine, **options)
    with pytest.raises(IllegalMoveError, match="call reset"):
        e.step(0)  # before the first reset
    e.reset(seed=1)
    _finish_aec(e)
    assert e.agents == []
    for call in (lambda: e.step(0), lambda: e.step(None), e.last):
        with pytest.raises(IllegalMoveError, match="no episode is running"):
            call()
    e.reset(seed=1)
    e.last()


def test_pettingzoo_tick_env_after_the_end() -> None:
    from cardcore.rl.pettingzoo import env

    e = env("nerts")
    with pytest.raises(IllegalMoveError, match="call reset"):
        e.step({})
    e.reset(seed=1)
    while e.agents:
        e.step(dict.fromkeys(e.agents, e.wait))
    with pytest.raises(IllegalMoveError, match="no episode is running"):
        e.step({})


# --- L16: one thread at a time ----------------------------------------------------------------


def _hammer(st: Any, errors: list[BaseException], k: int) -> None:
    rng = random.Random(k)
    for _ in range(3000):
        try:
            legal = st.legal_moves()
            if not legal:
                return
            st.apply(rng.choice(legal))
        except (ConcurrentUseError, IllegalMoveError):
            continue  # refused, or a move another thread made stale: the state is unchanged
        except BaseException as e:
            errors.append(e)
            return


@pytest.mark.parametrize("game", ["three-thirteen", "spite-malice"])
def test_four_threads_on_one_state_never_corrupt_it(game: str) -> None:
    """L16: four threads applying moves to one State corrupted 5 of 15 games (here, before
    the fix: 2 of 15 Spite & Malice games, and a ValueError)."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        for seed in range(15):
            g = load_game(game)
            st = g.new_state(seed)
            errors: list[BaseException] = []
            threads = [threading.Thread(target=_hammer, args=(st, errors, k)) for k in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            assert errors == []
            again = g.new_state(seed)
            for _, move in st.moves:
                again.apply(move)
            assert again.to_json() == st.to_json(), f"seed {seed}"  # the history is the state
    finally:
        sys.setswitchinterval(old)


@pytest.mark.parametrize("game", GAMES)
def test_a_state_busy_in_another_thread_raises(game: str) -> None:
    from cardcore.games import api

    g = load_game(game)
    st = g.new_state(1)
    before = st.to_json()
    held, release = threading.Event(), threading.Event()

    def hold() -> None:  # another thread inside a guarded method of st
        api._BUSY[id(st)] = threading.get_ident()
        held.set()
        release.wait(30)
        del api._BUSY[id(st)]

    t = threading.Thread(target=hold)
    t.start()
    held.wait(30)
    try:
        calls = {"clone": st.clone, "to_json": st.to_json}
        if game == "nerts":
            calls |= {
                "advance_to": lambda: st.advance_to(100),
                "step": st.step,
                "submit": lambda: st.submit(0, 0, 0),
            }
        else:
            calls["apply"] = lambda: st.apply(st.legal_actions()[0])
        atomic = getattr(type(st), "_atomic", ())  # one engine call holding the GIL each
        for name, call in calls.items():
            if name in atomic:
                continue
            with pytest.raises(ConcurrentUseError, match="in use by another thread"):
                call()
    finally:
        release.set()
        t.join(30)
    assert st.to_json() == before
    st.clone().to_json()  # free again
    assert id(st) not in api._BUSY


def test_guarded_methods_may_call_each_other_in_one_thread() -> None:
    from cardcore.games.api import exclusive

    class Box:
        @exclusive
        def outer(self) -> str:
            return self.inner(1) + self.inner(2)

        @exclusive
        def inner(self, x: int) -> str:
            return str(x)

        @exclusive
        def keywords(self, x: int, *, y: int = 0) -> int:
            return x + y

    b = Box()
    assert b.outer() == "12"
    assert b.keywords(1, y=2) == 3
    assert b.outer.__name__ == "outer"
