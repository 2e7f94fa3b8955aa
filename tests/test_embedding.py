"""The embedding protocol of the turn-based games (``docs/embedding.md``): random playthroughs
through ``legal_actions()`` alone with the mask, action <-> move and JSON round trips checked at
every step, and bad input (ids, moves of other games, malformed or newer JSON)."""

from __future__ import annotations

import json
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
from cardcore.games.api import Game, State, state_from_json
from cardcore.nerts.rules import FLIP
from cardcore.rng import Rng
from cardcore.spite_malice.rules import PlayPayOff
from cardcore.three_thirteen.rules import DRAW_STOCK

CASES: list[tuple[str, dict[str, Any]]] = [
    ("three-thirteen", {"players": 2, "max_turns_per_round": 8}),
    (
        "three-thirteen",
        {
            "players": 4,
            "jokers": 2,
            "forbid_return_of_discard_draw": True,
            "max_turns_per_round": 6,
        },
    ),
    (
        "three-thirteen",
        {"players": 3, "num_decks": 1, "jokers": 4, "ace_mode": "both", "max_turns_per_round": 40},
    ),
    ("spite-malice", {"players": 2}),
    (
        "spite-malice",
        {
            "players": 3,
            "wild_mode": "jokers",
            "num_center_stacks": 0,
            "side_stack_rule": "same_or_one_lower",
            "must_play_aces": True,
            "completed_stack": "set_aside",
            "stock_exhausted": "recycle_then_tie",
            "payoff_size": 8,
        },
    ),
    (
        "spite-malice",
        {"players": 4, "num_decks": 2, "payoff_size": 5, "hand_size": 3, "num_side_stacks": 2},
    ),
]


def _ids(case: tuple[str, dict[str, Any]]) -> str:
    name, options = case
    return name + "-" + ",".join(f"{k}={v}" for k, v in options.items())


@pytest.fixture(params=CASES, ids=[_ids(c) for c in CASES])
def game(request: pytest.FixtureRequest) -> Game[Any]:
    name, options = request.param
    return cardcore.load_game(name, **options)


def check_step(game: Game[Any], st: State[Any]) -> list[int]:
    """Every per-step agreement of the protocol; returns the legal actions."""
    legal = st.legal_actions()
    assert legal == sorted(set(legal))
    assert all(0 <= a < game.num_actions for a in legal)
    mask = st.action_mask()
    assert mask.dtype == np.bool_
    assert mask.shape == (game.num_actions,)
    assert np.flatnonzero(mask).tolist() == legal
    assert sorted({game.move_to_action(m) for m in st.legal_moves()}) == legal
    for a in legal:
        move = game.action_to_move(a)
        assert game.move_to_action(move) == a
        assert game.parse_move(game.move_text(move)) == move
        assert game.move_from_json(game.move_to_json(move)) == move
    seat = st.current_player
    assert seat is not None
    tensor = st.observation_tensor(seat)
    assert tensor.dtype == np.float32
    assert tensor.shape == game.observation_shape
    # an agent's observation gives the same tensor (what a learned policy reads in simulate)
    assert np.array_equal(game.observation_tensor_of(st.observation(seat)), tensor)
    return legal


def test_random_playthrough_with_json_twins(game: Game[Any]) -> None:
    """At every step a twin read back from ``to_json()`` is given the same action: both stay
    byte-identical, so a restored state plays on exactly as the original (deals included)."""
    for seed in range(3):
        st = game.new_state(seed)
        rng = Rng(seed)
        steps = 0
        while not st.is_over:
            legal = check_step(game, st)
            text = st.to_json()
            twin = game.state_from_json(text)
            assert twin.to_json() == text
            assert twin.legal_actions() == legal
            action = legal[rng.below(len(legal))]
            st.apply(action)
            twin.apply(action)
            assert twin.to_json() == st.to_json()
            steps += 1
        assert game.state_from_json(st.to_json()).to_json() == st.to_json()
        assert st.current_player is None
        assert st.legal_actions() == []
        assert not st.action_mask().any()
        assert len(st.moves) == steps
        returns = st.returns()
        assert len(returns) == game.num_players
        assert all(r in (-1.0, 0.0, 1.0) for r in returns)


def test_moves_replay_the_game(game: Game[Any]) -> None:
    """``moves`` is the history: its moves, applied to a new state, give the same state."""
    st = game.new_state(11)
    rng = Rng(11)
    for _ in range(60):
        if st.is_over:
            break
        legal = st.legal_actions()
        st.apply(legal[rng.below(len(legal))])
    again = game.new_state(11)
    for seat, move in st.moves:
        assert again.current_player == seat
        again.apply(move)
    assert again.to_json() == st.to_json()


def test_observation_json_reads_back(game: Game[Any]) -> None:
    st = game.new_state(3)
    rng = Rng(3)
    for step in range(40):
        for seat in range(game.num_players):
            doc = json.loads(st.observation_json(seat))
            assert doc["format"] == "cardcore-observation"
            assert doc["seat"] == seat
            obs = game.observation_from_json(st.observation_json(seat))
            assert obs == st.observation(seat), step
        legal = st.legal_actions()
        st.apply(legal[rng.below(len(legal))])


def test_load_game_options() -> None:
    g = cardcore.load_game("three-thirteen")
    assert g.options["players"] == 4
    assert g.num_players == 4
    assert cardcore.load_game("three-thirteen", players=4) == g
    assert hash(cardcore.load_game("three-thirteen", players=4)) == hash(g)
    import pickle

    assert pickle.loads(pickle.dumps(g)) == g
    with pytest.raises(OptionError):
        cardcore.load_game("three-thirteen", players=7)
    with pytest.raises(OptionError):
        cardcore.load_game("three-thirteen", jokers=3)
    with pytest.raises(OptionError):
        cardcore.load_game("three-thirteen", no_such_option=1)
    with pytest.raises(OptionError):
        cardcore.load_game("no-such-game")
    with pytest.raises(OptionError):
        cardcore.load_game("three-thirteen", players="4")


def test_bad_actions_and_moves_change_nothing(game: Game[Any]) -> None:
    st = game.new_state(5)
    rng = Rng(5)
    package = "cardcore." + game.name.replace("-", "_")
    moves: list[object] = [FLIP, PlayPayOff(0), DRAW_STOCK, "draw-stock", None, 3.0, True]
    foreign = [m for m in moves if not type(m).__module__.startswith(package)]
    for _ in range(30):
        before = st.to_json()
        legal = st.legal_actions()
        bad_ids = [
            -1,
            game.num_actions,
            10**12,
            *(a for a in range(game.num_actions) if a not in legal),
        ]
        for a in bad_ids:
            with pytest.raises(IllegalMoveError):
                st.apply(a)
            assert st.to_json() == before
        for move in foreign:
            with pytest.raises(IllegalMoveError):
                st.apply(move)
            assert st.to_json() == before
        st.apply(legal[rng.below(len(legal))])
    not_ids: list[Any] = [-1, game.num_actions, 2.0, True]
    for a in not_ids:
        with pytest.raises(IllegalMoveError):
            game.action_to_move(a)
    for move in foreign:
        with pytest.raises(IllegalMoveError):
            game.move_to_action(move)


def _doc(st: State[Any]) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(st.to_json())
    return doc


def _played(game: Game[Any], seed: int, steps: int) -> State[Any]:
    st: State[Any] = game.new_state(seed)
    rng = Rng(seed)
    for _ in range(steps):
        if st.is_over:
            break
        legal = st.legal_actions()
        st.apply(legal[rng.below(len(legal))])
    return st


def test_bad_json_is_a_typed_error(game: Game[Any]) -> None:
    st = _played(game, 2, 7)
    good = _doc(st)
    assert state_from_json(json.dumps(good)).to_json() == st.to_json()
    for text in ("", "not json", "[]", "3", '{"format": "cardcore-state"}', "[" * 100_000):
        with pytest.raises(StateFormatError):
            game.state_from_json(text)
    with pytest.raises(UnsupportedVersionError):
        game.state_from_json(json.dumps({**good, "version": good["version"] + 1}))
    for bad in (
        {**good, "game": "nerts" if game.name != "nerts" else "spite-malice"},
        {**good, "format": "cardcore-observation"},
        {**good, "version": 0},
        {**good, "version": "1"},
        {**good, "options": {**good["options"], "players": 6}},
        {k: v for k, v in good.items() if k != "state"},
        {**good, "state": {**good["state"], "rng": ["0" * 16] * 4}},
        {**good, "state": {**good["state"], "rng": ["-" * 16] * 4}},
        {**good, "state": {**good["state"], "rng": [1, 2, 3, 4]}},
    ):
        with pytest.raises(StateFormatError):
            game.state_from_json(json.dumps(bad))
    body = good["state"]
    for key in body:
        broken = {k: v for k, v in body.items() if k != key}
        with pytest.raises(StateFormatError):
            game.state_from_json(json.dumps({**good, "state": broken}))
    obs = st.observation_json(0)
    with pytest.raises(StateFormatError):
        game.state_from_json(obs)
    with pytest.raises(UnsupportedVersionError):
        game.observation_from_json(json.dumps({**json.loads(obs), "version": 99}))
    move = game.action_to_move(st.legal_actions()[0])
    doc = json.loads(game.move_to_json(move))
    assert game.move_from_json(json.dumps(doc)) == move
    assert game.move_from_json(json.dumps({**doc, "move": None})) == move  # by action id
    for bad_move in (
        {**doc, "game": "nerts" if game.name != "nerts" else "spite-malice"},
        {**doc, "move": "fly away"},
        {**doc, "move": None, "action": game.num_actions},
        {k: v for k, v in doc.items() if k not in ("move", "action")},
    ):
        with pytest.raises(StateFormatError):
            game.move_from_json(json.dumps(bad_move))


_JUNK: list[Any] = [None, -1, 0, 1, 10**30, True, "X9", "Zz@0", [], {}, [[]], 2.5]


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _leaves(v, (*path, k))] + [path]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _leaves(v, (*path, i))] + [path]
    return [path]


def _mutated(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, *rest = path
    copy = dict(doc) if isinstance(doc, dict) else list(doc)
    copy[head] = _mutated(doc[head], tuple(rest), value)
    return copy


def test_fuzzed_json_is_rejected_or_plays(game: Game[Any]) -> None:
    """Random leaves of a saved state replaced by junk or by another leaf's value: reading
    raises StateFormatError, or the state it gives plays on without any other error."""
    rng = Rng(99)
    accepted = 0
    for n in range(300):
        st = _played(game, n % 7, 3 + n % 40)
        body = _doc(st)["state"]
        paths = _leaves(body)
        path = paths[rng.below(len(paths))]
        if rng.below(2):
            value = _JUNK[rng.below(len(_JUNK))]
        else:
            other = paths[rng.below(len(paths))]
            value = body
            for k in other:
                value = value[k]
        doc = {**_doc(st), "state": _mutated(body, path, value)}
        try:
            twin = game.state_from_json(json.dumps(doc))
        except StateFormatError:
            continue
        accepted += 1
        for _ in range(200):
            if twin.is_over:
                break
            legal = twin.legal_actions()
            assert legal
            twin.apply(legal[rng.below(len(legal))])
            twin.observation_tensor(rng.below(game.num_players))
    assert accepted < 300


def test_old_names_warn_for_one_version() -> None:
    """``SpiteOptions`` / ``NertsOptions`` and the old ``from_mapping(values, players)`` order
    still work, with a DeprecationWarning; every game now says ``Options`` and
    ``Options.from_mapping(players, values)``."""
    import cardcore.nerts as nerts
    import cardcore.nerts.rules as nerts_rules
    import cardcore.spite_malice as sm
    import cardcore.spite_malice.rules as sm_rules

    for module, old in (
        (sm, "SpiteOptions"),
        (sm_rules, "SpiteOptions"),
        (nerts, "NertsOptions"),
        (nerts_rules, "NertsOptions"),
    ):
        with pytest.warns(DeprecationWarning, match=old):
            assert getattr(module, old) is module.Options
    with pytest.warns(DeprecationWarning, match="from_mapping"):
        assert sm.Options.from_mapping({"hand_size": 6}, 3) == sm.Options.from_mapping(
            3, {"hand_size": 6}
        )
    with pytest.raises(AttributeError):
        _ = sm.NoSuchName
    assert nerts.State is type(cardcore.load_game("nerts").new_state(0))


def test_numpy_integers_are_action_ids(game: Game[Any]) -> None:
    """RL code passes numpy integers (a masked argmax); they are ids like ints, bools are not."""
    st = game.new_state(8)
    twin = game.new_state(8)
    for _ in range(20):
        if st.is_over:
            break
        legal = st.legal_actions()
        a = legal[-1]
        assert game.action_to_move(np.int64(a)) == game.action_to_move(a)  # type: ignore[arg-type]
        st.apply(np.int32(a))
        twin.apply(a)
        assert st.to_json() == twin.to_json()
    before = st.to_json()
    with pytest.raises(IllegalMoveError):
        st.apply(np.int64(game.num_actions))
    assert st.to_json() == before


@pytest.mark.parametrize("name", ["three-thirteen", "spite-malice", "nerts"])
def test_states_pickle(name: str) -> None:
    import pickle

    st = cardcore.load_game(name).new_state(4)
    assert pickle.loads(pickle.dumps(st)).to_json() == st.to_json()


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("three-thirteen", {"players": 4, "jokers": 2}),
        ("spite-malice", {"players": 3}),
        ("nerts", {"players": 3}),
    ],
)
def test_observations_to_json_is_each_seats_observation_json(
    name: str, options: dict[str, Any]
) -> None:
    """The batch writer (shared fields encoded once) gives exactly every seat's document."""
    from cardcore.games.api import dump
    from cardcore.games.api import load_game as load

    game = load(name, **options)
    seats = list(range(game.num_players))
    for seed in range(3):
        st = game.new_state(seed)
        for step in range(80):
            want = [st.observation_json(s) for s in seats]
            assert game.observations_to_json(st, seats) == want
            assert game.observations_to_json(st, seats[1:2]) == want[1:2]
            # the documents (seat-independent parts built once) parse the same texts
            docs = game.observation_documents(st, seats[::-1])
            assert [dump(d) for d in docs] == want[::-1]
            assert [dump(st.observation_document(s)) for s in seats] == want
            if st.is_over:
                break
            if game.realtime:
                st.advance_to(st.now + 500)
            else:
                actions = st.legal_actions()
                st.apply(actions[(seed + step) % len(actions)])
