"""Nerts on the embedding protocol: a real-time round driven in ticks through
``legal_actions(seat)`` alone (masks, action <-> move and JSON twins checked), observations,
and bad input."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import cardcore
from cardcore.errors import (
    IllegalMoveError,
    OptionError,
    StateFormatError,
    UnsupportedVersionError,
)
from cardcore.nerts.game import NertsGame, NertsState
from cardcore.nerts.lookahead import knowledge
from cardcore.rng import Rng
from cardcore.spite_malice.rules import PlayPayOff
from cardcore.three_thirteen.rules import DRAW_STOCK

CASES: list[dict[str, Any]] = [
    {"players": 2, "agents": None},
    {
        "players": 3,
        "work_piles": 5,
        "flip_count": 1,
        "undo_depth": 0,
        "agents": [None, "greedy", None],
    },
    {
        "players": 4,
        "stock_passes": 2,
        "stalemate_rule": "end_round",
        "allow_partial_pile_moves": False,
        "agents": ["random", None, "greedy", None],
    },
]


def _new(case: dict[str, Any], seed: int) -> tuple[NertsGame, NertsState]:
    options = {k: v for k, v in case.items() if k != "agents"}
    game = cardcore.load_game("nerts", **options)
    assert isinstance(game, NertsGame)
    return game, game.new_state(seed, agents=case["agents"])


def tick(game: NertsGame, st: NertsState, rng: Rng, t: int) -> None:
    """Every outside seat with nothing scheduled acts (or waits, one time in four) at ``t``;
    the checks of one step run for every seat."""
    for seat in range(game.num_players):
        legal = st.legal_actions(seat)
        assert legal == sorted(set(legal))
        mask = st.action_mask(seat)
        assert mask.shape == (game.num_actions,)
        assert np.flatnonzero(mask).tolist() == legal
        assert sorted({game.move_to_action(m) for m in st.legal_moves(seat)}) == legal
        for a in legal:
            move = game.action_to_move(a)
            assert game.move_to_action(move) == a
            assert game.parse_move(game.move_text(move)) == move
        tensor = st.observation_tensor(seat)
        assert tensor.shape == game.observation_shape
        if not st.pending(seat):  # what an agent asked to act would get
            assert np.array_equal(game.observation_tensor_of(st.observation(seat)), tensor)
        if st.agents[seat] is None and legal and not st.pending(seat) and rng.below(4):
            st.submit(seat, legal[rng.below(len(legal))], t)


@pytest.mark.parametrize("case", CASES)
def test_ticks_with_json_twins(case: dict[str, Any]) -> None:
    """100 ms ticks: a twin read back from ``to_json()`` every tenth tick is driven the same
    way and stays byte-identical."""
    game, st = _new(case, 5)
    rng = Rng(1)
    twin: NertsState | None = None
    t = 0
    while not st.is_over and t < 60_000:
        if t % 1000 == 0:
            text = st.to_json()
            twin = game.state_from_json(text)
            assert twin.to_json() == text
        state_rng = rng.state
        tick(game, st, rng, t)
        if twin is not None:
            tick(game, twin, Rng.from_state(state_rng), t)
        t += 100
        st.advance_to(t)
        if twin is not None:
            twin.advance_to(t)
            assert twin.to_json() == st.to_json()
    assert st.moves
    for t_ms, seat, move, ok in st.moves:
        assert 0 <= t_ms <= st.now
        assert 0 <= seat < game.num_players
        game.move_to_action(move)
        assert isinstance(ok, bool)


def test_agents_only_round_runs_and_reads_back() -> None:
    game = cardcore.load_game("nerts", players=3)
    assert isinstance(game, NertsGame)
    st = game.new_state(9, agents=["greedy", "random", "greedy"])
    mid = None
    while st.step():
        if st.now > 20_000 and mid is None:
            mid = st.clone()
    assert st.is_over
    assert st.end in ("nerts", "stalemate", "cap")
    assert st.returns() == [float(x) for x in st.points()]
    assert mid is not None
    assert not mid.is_over
    again = game.state_from_json(mid.to_json())
    while again.step():
        pass
    assert game._snapshot(again) == game._snapshot(st)


def test_observation_json_reads_back() -> None:
    game, st = _new(CASES[1], 2)
    rng = Rng(3)
    for t in range(0, 20_000, 500):
        tick(game, st, rng, t)
        st.advance_to(t + 500)
        for seat in range(game.num_players):
            obs = game.observation_from_json(st.observation_json(seat))
            want = st.observation(seat)
            for name in ("seat", "now", "foundations", "foundation_piles", "stalemates"):
                assert getattr(obs, name) == getattr(want, name)
            for a, b in zip(obs.players, want.players, strict=True):
                for name in PublicPlayerFields:
                    assert getattr(a, name) == getattr(b, name)
            own = st.parts()["seats"][seat]
            assert obs.waste_fan == want.waste_fan == tuple(own["waste"][-own["flip_count"] :])
        players = [SimpleNamespace(**pl) for pl in st.parts()["seats"]]
        for seat in range(game.num_players):
            hidden = set()
            for s, pl in enumerate(players):
                # a seat sees its own waste fanned (the top flip_count cards), nobody else's
                below = pl.waste[: -pl.flip_count] if s == seat else pl.waste[:-1]
                hidden.update(pl.stock + pl.nerts[:-1] + below)
            texts = {game._codec.text(c) for c in hidden}
            shown = json.dumps(json.loads(st.observation_json(seat))["observation"])
            assert not any(f'"{x}"' in shown for x in texts)


def test_every_seat_flips_one_card_after_a_flip_one_remedy() -> None:
    # seed 5: greedy seats stall and the remedy comes at 120-125 s; from then on every seat
    # turns one card at a time, which everyone sees, and the look-ahead's knowledge says so
    game = cardcore.load_game("nerts", players=2, stalemate_rule="flip_one")
    assert isinstance(game, NertsGame)
    st = game.new_state(5, agents=["greedy", "greedy"])
    st.advance_to(120_000)
    assert st.observation(0).stalemates == 0
    assert [p.flip_count for p in st.observation(0).players] == [3, 3]
    st.advance_to(125_000)
    for seat in range(2):
        obs = st.observation(seat)
        assert obs.stalemates == 1
        assert [p.flip_count for p in obs.players] == [1, 1]
        back = game.observation_from_json(st.observation_json(seat))
        assert [p.flip_count for p in back.players] == [1, 1]
        known = knowledge(obs, [None] * (obs.me.stock_count + obs.me.waste_count))
        assert [k.flip_count for k in known.seats] == [1, 1]


def test_every_seat_sees_every_seats_recycles() -> None:
    # greedy seats turn their waste over in 60 s (seed 2: two of them twice); everyone sees
    # each seat do it, and the look-ahead's knowledge has every seat's count (its rollouts
    # hold a seat to the stock_passes it has left). A document read back knows only the
    # seat's own.
    game = cardcore.load_game("nerts", players=3)
    assert isinstance(game, NertsGame)
    st = game.new_state(2, agents=["greedy"] * 3)
    st.advance_to(60_000)
    counts = [pl["recycles"] for pl in st.parts()["seats"]]
    assert max(counts) > 0
    for seat in range(3):
        obs = st.observation(seat)
        assert [p.recycles for p in obs.players] == counts
        assert obs.recycles == counts[seat]
        known = knowledge(obs, [None] * (obs.me.stock_count + obs.me.waste_count))
        assert [k.recycles for k in known.seats] == counts
        back = game.observation_from_json(st.observation_json(seat))
        assert [p.recycles for p in back.players] == [
            n if s == seat else 0 for s, n in enumerate(counts)
        ]


PublicPlayerFields = (
    "nerts_count",
    "nerts_top",
    "stock_count",
    "waste_count",
    "waste_top",
    "work",
    "flip_count",
)


def test_bad_input_changes_nothing() -> None:
    game, st = _new(CASES[0], 4)
    st.advance_to(1000)
    st.submit(0, st.legal_actions(0)[0], 1500)
    before = st.to_json()
    bad: list[tuple[Any, Any, Any]] = [
        (0, st.legal_actions(1)[0], 2000),  # seat 0 already has a move scheduled
        (1, -1, 2000),
        (1, game.num_actions, 2000),
        (1, 2.0, 2000),
        (1, True, 2000),
        (1, FLIP_TEXT, 2000),
        (1, PlayPayOff(0), 2000),
        (1, DRAW_STOCK, 2000),
        (1, None, 2000),
        (1, st.legal_actions(1)[0], 999),  # in the past
        (1, st.legal_actions(1)[0], 1.5),
    ]
    for seat, move, t in bad:
        with pytest.raises(IllegalMoveError):
            st.submit(seat, move, t)
        assert st.to_json() == before
    for seat in (-1, 2, True, "0"):
        with pytest.raises(ValueError, match="seat"):
            st.submit(seat, 0, 2000)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="seat"):
            st.legal_actions(seat)  # type: ignore[arg-type]
        assert st.to_json() == before
    done = game.new_state(1, agents=["greedy", "greedy"])
    done.run()
    with pytest.raises(IllegalMoveError):
        done.submit(0, 0, done.now)


def test_advance_to_the_past_is_an_error_that_changes_nothing() -> None:
    """Issue #12: `advance_to` with a time before `now` was a silent no-op (a caller with a
    clock bug never learned of it); now an OptionError, like a past `submit`."""
    game, st = _new(CASES[0], 4)
    st.advance_to(1000)
    before = st.to_json()
    for t in (999, 0, -5):
        with pytest.raises(OptionError, match=rf"t_ms {t} is before now \(1000\)"):
            st.advance_to(t)
        assert st.to_json() == before
    st.advance_to(1000)  # now itself is fine (runs what is due now)
    assert st.now == 1000
    done = game.new_state(1, agents=["greedy", "greedy"])
    done.run()
    done.advance_to(done.now + 1)  # after the end a later time changes nothing
    with pytest.raises(OptionError):
        done.advance_to(done.now - 1)


FLIP_TEXT = "flip"


def test_bad_json_is_a_typed_error() -> None:
    game, st = _new(CASES[1], 6)
    rng = Rng(6)
    for t in range(0, 5000, 250):
        tick(game, st, rng, t)
        st.advance_to(t + 250)
    good = json.loads(st.to_json())
    assert game.state_from_json(json.dumps(good)).to_json() == st.to_json()
    with pytest.raises(UnsupportedVersionError):
        game.state_from_json(json.dumps({**good, "version": 2}))
    body = good["state"]
    bad_bodies: list[dict[str, Any]] = [
        {k: v for k, v in body.items() if k != "ops"},
        {**body, "ops": "x"},
        {**body, "ops": [["fly"]]},
        {**body, "ops": [*body["ops"], ["submit", 0, "N>F"]]},
        {**body, "ops": [*body["ops"], ["submit", 9, "N>F", 10**6]]},
        {**body, "ops": body["ops"][:-1]},
        {**body, "seed": body["seed"] + 1},
        {**body, "seed": -1},
        {**body, "agents": ["os:system", None, None]},
        {**body, "agents": [None, None]},
        {**body, "table": {**body["table"], "now": body["table"]["now"] + 1}},
        {**body, "table": {**body["table"], "foundations": []}},
    ]
    for b in bad_bodies:
        with pytest.raises(StateFormatError):
            game.state_from_json(json.dumps({**good, "state": b}))
    with pytest.raises(StateFormatError):
        game.state_from_json(json.dumps({**good, "game": "three-thirteen"}))
    obs = json.loads(st.observation_json(0))
    with pytest.raises(StateFormatError):
        game.observation_from_json(json.dumps({**obs, "observation": {}}))
    many_steps = {**body, "ops": [*body["ops"], ["step", 10**15]]}
    with pytest.raises(StateFormatError):  # runs out quickly, then the table differs
        game.state_from_json(json.dumps({**good, "state": many_steps}))


def test_numpy_integer_submit() -> None:
    _, st = _new(CASES[0], 4)
    st.submit(0, np.int64(st.legal_actions(0)[0]), 0)  # type: ignore[arg-type]
    assert st.pending(0)
