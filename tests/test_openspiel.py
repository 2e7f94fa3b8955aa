"""cardcore.openspiel: the games registered as OpenSpiel Python games pass OpenSpiel's own
checker (``random_sim_test`` with serialization), play whole games through
``evaluate_bots`` and its ISMCTS bot, and follow the protocol state exactly."""

from __future__ import annotations

import importlib.util
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import cardcore  # noqa: E402
from cardcore.openspiel import CardcoreBot, CardcoreGame  # noqa: E402

ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
evaluate_bots = pytest.importorskip("open_spiel.python.algorithms.evaluate_bots")

SHORT_NERTS = {"nerts_pile_size": 2, "auto_call_nerts": True}
"""Nerts rounds that random play ends in tens of ticks (a clone costs a copy of the round's
history, and the checker clones twice a step)."""


def dealt(name: str, params: dict[str, Any], deal: int = 0) -> Any:
    state = pyspiel.load_game(name, params).new_initial_state()
    state.apply_action(deal)
    return state


@pytest.mark.parametrize(
    ("name", "params", "sims"),
    [
        ("cardcore_three_thirteen", {"players": 2, "max_turns_per_round": 8}, 2),
        ("cardcore_three_thirteen", {"players": 3, "jokers": 2, "max_turns_per_round": 4}, 1),
        ("cardcore_spite_malice", {"players": 2}, 3),
        ("cardcore_spite_malice", {"players": 3, "num_center_stacks": 0, "payoff_size": 6}, 2),
        ("cardcore_nerts", {"players": 2, **SHORT_NERTS}, 2),
        ("cardcore_nerts", {"players": 3, "work_piles": 5, **SHORT_NERTS}, 1),
    ],
)
def test_openspiel_random_sim_test_passes(name: str, params: dict[str, Any], sims: int) -> None:
    pyspiel.random_sim_test(
        pyspiel.load_game(name, params), num_sims=sims, serialize=True, verbose=False
    )


def test_game_type_utility_and_shapes_are_declared() -> None:
    g = pyspiel.load_game("cardcore_three_thirteen", {"players": 2, "jokers": 2})
    cc = cardcore.load_game("three-thirteen", players=2, jokers=2)
    t = g.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (g.min_utility(), g.max_utility(), g.utility_sum()) == (-1.0, 1.0, 0.0)
    assert g.num_distinct_actions() == cc.num_actions == 55
    assert g.observation_tensor_shape() == list(cc.observation_shape)
    assert g.information_state_tensor_shape() == [2 + cc.observation_shape[0]]
    assert g.max_chance_outcomes() == 1 << 16
    four = pyspiel.load_game("cardcore_spite_malice", {"players": 4})
    assert four.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    shared = pyspiel.load_game("cardcore_three_thirteen", {"players": 2, "tie_rule": "shared_win"})
    assert shared.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    nerts = pyspiel.load_game("cardcore_nerts", {"players": 3, "tick_ms": 250})
    assert nerts.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert nerts.num_distinct_actions() == cardcore.load_game("nerts", players=3).num_actions + 1
    assert (nerts.min_utility(), nerts.max_utility()) == (-26.0, 52.0)
    assert nerts.max_game_length() == 3_600_000 // 250 + 2


def test_parameters_are_the_rules_options() -> None:
    g = pyspiel.load_game("cardcore_spite_malice(players=3,wild_mode=jokers,first_player=2)")
    assert isinstance(g, CardcoreGame)
    assert g.cardcore_game == cardcore.load_game(
        "spite-malice", players=3, wild_mode="jokers", first_player=2
    )
    auto = pyspiel.load_game("cardcore_three_thirteen")  # first_dealer=-1: auto (None)
    assert auto.cardcore_game.options["first_dealer"] is None
    assert auto.get_parameters()["first_dealer"] == -1
    with pytest.raises(Exception, match="jokers"):
        pyspiel.load_game("cardcore_three_thirteen", {"jokers": 3})
    with pytest.raises(Exception, match="deals"):
        pyspiel.load_game("cardcore_spite_malice", {"deals": (1 << 20) + 1})


def test_the_chance_outcome_is_the_deal_and_actions_are_the_protocols() -> None:
    params = {"players": 3, "deal_seed": 1000}
    state = pyspiel.load_game("cardcore_three_thirteen", params).new_initial_state()
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 1 << 16
    state.apply_action(7)
    cc = cardcore.load_game("three-thirteen", players=3).new_state(1007)
    rng = np.random.default_rng(0)
    for _ in range(60):
        assert str(state) == cc.to_json()
        assert state.legal_actions() == cc.legal_actions()
        p = state.current_player()
        assert state.observation_tensor(p) == pytest.approx(list(cc.observation_tensor(p)))
        assert state.observation_string(p) == cc.observation_json(p)
        a = int(rng.choice(state.legal_actions()))
        state.apply_action(a)
        cc.apply(a)


def test_serialization_goes_through_the_projects_json() -> None:
    state = dealt("cardcore_spite_malice", {"players": 2}, 3)
    for a in state.legal_actions()[:1] * 1:
        state.apply_action(a)
    text = pyspiel.serialize_game_and_state(state.get_game(), state)
    _, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) == state.cardcore_state.to_json()
    assert state2.history() == state.history()
    assert state2.information_state_string(0) == state.information_state_string(0)
    again = pickle.loads(pickle.dumps(state))  # pyspiel pickles through serialize()
    assert str(again) == str(state)
    assert str(pickle.loads(pickle.dumps(state.get_game()))) == str(state.get_game())
    # the protocol state pickles as its to_json() document
    table = state._table
    assert state.cardcore_state.to_json() in str(table.__reduce__())
    assert pickle.loads(pickle.dumps(table)).state.to_json() == state.cardcore_state.to_json()


def test_resample_from_infostate_keeps_what_the_seat_knows() -> None:
    state = dealt("cardcore_three_thirteen", {"players": 2}, 11)
    rng = np.random.default_rng(1)
    for _ in range(25):
        state.apply_action(int(rng.choice(state.legal_actions())))
    p = state.current_player()
    hands = set()
    for _ in range(8):
        r = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert r.information_state_string(p) == state.information_state_string(p)
        assert r.observation_string(p) == state.observation_string(p)
        assert r.legal_actions() == state.legal_actions()
        assert r.history() == state.history()
        hands.add(r.observation_string(1 - p))
        r.apply_action(r.legal_actions()[0])  # plays on
    assert len(hands) > 1
    # reproducible: the same state resamples the same worlds
    again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(state.get_game(), state)
    )[1]
    again._resamples = 0
    first = again.resample_from_infostate(p, None)
    again._resamples = 0
    assert str(again.resample_from_infostate(p, None)) == str(first)


def test_nerts_resamples_what_the_seat_cannot_see() -> None:
    state = dealt("cardcore_nerts", {"players": 2}, 4)
    rng = np.random.default_rng(2)
    for _ in range(20):
        state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in (0, 1)])
    r = state.resample_from_infostate(1, None)
    assert r.information_state_string(1) == state.information_state_string(1)
    assert r.observation_string(1) == state.observation_string(1)
    assert r.legal_actions(1) == state.legal_actions(1)
    assert r.cardcore_state.to_json() != state.cardcore_state.to_json()  # other cards moved
    wait = r.get_game().num_distinct_actions() - 1
    r.apply_actions([wait, wait])  # plays on
    assert r.cardcore_state.now == state.cardcore_state.now + 100


def test_information_state_strings_are_per_seat_and_have_perfect_recall() -> None:
    state = dealt("cardcore_spite_malice", {"players": 2}, 2)
    seen: set[str] = set()
    while len(seen) < 20 and not state.is_terminal():
        s0, s1 = (state.information_state_string(p) for p in (0, 1))
        assert s0 != s1
        assert s0 not in seen  # a new step is a new history
        seen.add(s0)
        state.apply_action(state.legal_actions()[-1])
    tensor = state.information_state_tensor(1)
    assert tensor[:2] == [0.0, 1.0]


def test_nerts_is_simultaneous_at_a_tick_with_a_wait_action() -> None:
    state = dealt("cardcore_nerts", {"players": 2, "tick_ms": 200}, 3)
    game = state.get_game()
    wait = game.num_distinct_actions() - 1
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    legal = state.legal_actions(0)
    assert legal[-1] == wait
    assert legal[:-1] == state.cardcore_state.legal_actions(0)
    state.apply_actions([legal[0], wait])
    cc = state.cardcore_state
    assert cc.now == 200
    assert [(t, s, ok) for t, s, _, ok in cc.moves] == [(0, 0, True)]
    rng = np.random.default_rng(0)
    short = dealt("cardcore_nerts", {"players": 2, **SHORT_NERTS}, 5)
    while not short.is_terminal():
        short.apply_actions([int(rng.choice(short.legal_actions(p))) for p in (0, 1)])
    assert short.returns() == [float(x) for x in short.cardcore_state.points()]


def test_cardcore_bots_play_whole_games_through_evaluate_bots() -> None:
    game = pyspiel.load_game("cardcore_spite_malice", {"players": 2})
    bots = [CardcoreBot(game, 0, "planner", seed=1), pyspiel.make_uniform_random_bot(1, 2)]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(3))
    assert returns == state.cardcore_state.returns()
    assert state.is_terminal()
    tt = pyspiel.load_game("cardcore_three_thirteen", {"players": 2, "max_turns_per_round": 6})
    bots = [CardcoreBot(tt, 0, "hard"), CardcoreBot(tt, 1, "expert")]
    state = tt.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(4))
    assert state.is_terminal()
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    with pytest.raises(ValueError, match="no agent"):
        CardcoreBot(tt, 0, "nobody")
    with pytest.raises(ValueError, match="turn-based"):
        CardcoreBot(pyspiel.load_game("cardcore_nerts"), 0)


class Ismcts(ismcts.ISMCTSBot):  # type: ignore[misc, name-defined]
    """OpenSpiel's ISMCTS bot with the ``restart_at`` ``evaluate_bots`` calls (its own bot
    leaves it to the base class, which raises "not implemented"; the search keeps nothing
    from one decision to the next anyway)."""

    def restart_at(self, state: Any) -> None:
        self.reset()


def test_ismcts_plays_whole_games() -> None:
    for name, params, other in [
        ("cardcore_spite_malice", {"players": 2, "payoff_size": 4}, "greedy"),
        ("cardcore_three_thirteen", {"players": 2, "max_turns_per_round": 2}, "greedy"),
    ]:
        game = pyspiel.load_game(name, params)
        rs = np.random.RandomState(5)
        bot = Ismcts(
            game,
            mcts.RandomRolloutEvaluator(1, rs),
            uct_c=2.0,
            max_simulations=6,
            random_state=rs,
        )
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(
            state, [bot, CardcoreBot(game, 1, other)], np.random.RandomState(6)
        )
        assert state.is_terminal()
        assert returns == state.cardcore_state.returns()


def test_the_ismcts_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).parent.parent / "examples" / "openspiel_ismcts.py"
    spec = importlib.util.spec_from_file_location("openspiel_ismcts", path)
    assert spec is not None
    assert spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = example
    spec.loader.exec_module(example)
    args = ["--games", "1", "--sims", "3", "--horizon", "4", "--opponent", "hard"]
    rows = example.main([*args, "--game", "spite-malice"])
    assert [(r[0], r[1], r[2], sum(r[3:6])) for r in rows] == [("spite-malice", "hard", 1, 1)]
    assert "| spite-malice | hard | 1 |" in capsys.readouterr().out
