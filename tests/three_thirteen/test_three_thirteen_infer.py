"""search="infer": the round's public history read from the observation, legal and
reproducible play, typed errors for a history that does not fit."""

from __future__ import annotations

from typing import Any

import pytest

from agent_play import play_out
from cardcore import _core
from cardcore.errors import OptionError
from cardcore.rng import Rng
from cardcore.three_thirteen.agents import DealSearchAgent, HardAgent, round_history
from cardcore.three_thirteen.rules import Options, State
from tt_tables import expert_params, table


def _truth(state: State) -> tuple[int, list[int], bytes]:
    """The current round's history from the engine's own log (hidden state included): the
    up-card, each completed turn's draw (-1 stock, else the face taken) and the discards."""
    ft = state.face_of
    codes = [code for _, code in state.move_log[-1]]
    discards = [c for c in codes if c >= 0]
    draws = [c for c in codes if c < 0][: len(discards)]
    tops = [state.upcard, *discards]
    out = [-1 if code == -1 else ft[tops[t]] for t, code in enumerate(draws)]
    return ft[state.upcard], out, bytes(discards).translate(ft)


@pytest.mark.parametrize(
    ("players", "opts"),
    [
        (2, {"num_decks": 1}),
        (3, {"forbid_return_of_discard_draw": True, "jokers": 2}),
        (4, {}),
    ],
)
def test_round_history_is_what_the_engine_logged(players: int, opts: dict[str, Any]) -> None:
    state = State(Options(num_players=players, **opts), 3)
    rngs = [Rng.for_stream(3, s, "agent") for s in range(players)]
    hard = HardAgent()
    checked = 0
    while not state.is_over:
        s = state.current_player
        assert s is not None
        obs = state.observation(s)
        h = round_history(obs)
        if h is not None:
            upcard, draws, discards = _truth(state)
            assert h.discards == discards
            assert len(h.draws) == len(draws)
            for t, (got, want) in enumerate(zip(h.draws, draws, strict=True)):
                # the up-card taken on the first turn may not be known to the others
                assert got == want or (t == 0 and got == -2 and h.upcard is None)
            assert h.upcard in (upcard, None)
            checked += 1
        else:
            assert len(obs.discards) != obs.turn_in_round or not obs.discards
        state.apply(hard.act(obs, state.legal_moves(), rngs[s]))
    assert checked > 100


@pytest.mark.parametrize(
    ("players", "opts"),
    [
        (2, {"num_decks": 1, "max_turns_per_round": 40}),
        (3, {"forbid_return_of_discard_draw": True, "jokers": 2}),
        (4, {"ace_mode": "high", "jokers": 4, "min_own_turns_before_out": 1}),
    ],
)
def test_infer_plays_legal_moves_and_repeats(players: int, opts: dict[str, Any]) -> None:
    """The first three rounds (the chain's burn-in makes whole games slow for a test)."""
    o = Options(num_players=players, **opts)
    finals = []
    for _ in range(2):
        expert = DealSearchAgent(rollouts=2, search="infer")
        agents: list[Any] = [expert] + [HardAgent() for _ in range(players - 1)]
        state = play_out(State(o, 5), 5, agents, until=lambda st: st.round > 3)
        assert expert.decisions > 0
        assert expert.deals > 0
        finals.append((list(state.totals), list(state.round_scores)))
    assert finals[0] == finals[1]


def test_bad_history_and_epsilon_raise_typed_errors() -> None:
    with pytest.raises(OptionError, match="infer_epsilon"):
        DealSearchAgent(search="infer", infer_epsilon=1.5)
    at, params = table(), expert_params(search="infer")
    ok = _core.ThreeThirteenHistory(upcard=30, draws=[-1], discards=bytes([40]))
    assert _core.tt_expert_decide(at, params, 1, ok).choice in (0, 1)
    for bad, match in [
        (_core.ThreeThirteenHistory(upcard=30, draws=[-1, -1], discards=bytes([40])), "draw"),
        (_core.ThreeThirteenHistory(upcard=30, draws=[-1], discards=bytes([41])), "history"),
        (_core.ThreeThirteenHistory(upcard=30, draws=[7], discards=bytes([40])), "history"),
        (_core.ThreeThirteenHistory(upcard=30, draws=[300], discards=bytes([40])), "draw"),
        (_core.ThreeThirteenHistory(upcard=None, draws=[-1], discards=bytes([40])), "history"),
        (_core.ThreeThirteenHistory(upcard=None, draws=[], discards=b""), "history"),
    ]:
        with pytest.raises((OptionError, ValueError), match=match):
            _core.tt_expert_decide(at, params, 1, bad)
