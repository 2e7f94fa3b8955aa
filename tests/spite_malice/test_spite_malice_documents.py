"""State documents the rulebook refuses (issue #31 M5, L12): what the seats know of the hidden
cards must agree with the piles, and a game that is not over has no empty pay-off pile. The
0.4.0 engine (the oracle) accepted these documents (all but the draw count past the current
one) and played on from them; the issue reports its re-deals leaving ``None`` cards."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from cardcore.errors import StateFormatError
from cardcore.rng import Rng
from cardcore.spite_malice.game import game_for
from cardcore.spite_malice.options import Options
from sm_reference_game import reference_game

OPTS = Options()


def _document() -> dict[str, Any]:
    """A game in progress in which completed stacks went back into the stock."""
    game = game_for(OPTS)
    for seed in range(50):
        st = game.new_state(seed)
        rng = Rng(seed)
        while not st.is_over and len(st.entries) < 3:
            legal = st.legal_actions()
            plays = [a for a in legal if a < game.hand_base + game.faces * game.slots]
            pool = plays if plays and rng.below(10) < 9 else legal
            st.apply(pool[rng.below(len(pool))])
        if not st.is_over:
            doc: dict[str, Any] = json.loads(st.to_json())
            return doc
    raise AssertionError("no game with three entries")


def _draws_exceed(body: dict[str, Any]) -> None:
    know = body["knowledge"]
    know["entry_draws"][0][0] = know["drawn"][0] + 1


def _nobody_drew(body: dict[str, Any]) -> None:
    know = body["knowledge"]
    know["drawn"] = [0] * len(know["drawn"])
    know["entry_draws"] = [[0] * len(d) for d in know["entry_draws"]]


def _played_no_entry(body: dict[str, Any]) -> None:
    body["knowledge"]["played"][0] = []
    body["knowledge"]["entries"] = []
    body["knowledge"]["entry_draws"] = []


def _pinned_elsewhere(body: dict[str, Any]) -> None:
    body["knowledge"]["pinned"][1] = [body["payoffs"][0][0]]


def _entry_in_payoff(body: dict[str, Any]) -> None:
    pay = body["payoffs"][0]
    for card in body["knowledge"]["entries"][-1]:
        for pile in [*body["hands"], body["stock"]]:
            if card in pile:
                pile[pile.index(card)] = pay[0]
                pay[0] = card
                return
    raise AssertionError("no card of the last entry in a hand or the stock")


@pytest.mark.parametrize(
    ("spoil", "old_accepts"),
    [
        (_draws_exceed, False),
        (_nobody_drew, True),
        (_pinned_elsewhere, True),
        (_entry_in_payoff, True),
    ],
)
def test_inconsistent_knowledge_is_refused(
    spoil: Callable[[dict[str, Any]], None], old_accepts: bool
) -> None:
    doc = _document()
    spoil(doc["state"])
    text = json.dumps(doc)
    if old_accepts:
        reference_game(OPTS).state_from_json(text)  # 0.4.0 accepted it
    with pytest.raises(StateFormatError, match="'knowledge'"):
        game_for(OPTS).state_from_json(text)


def test_played_entries_must_exist() -> None:
    doc = _document()
    doc["state"]["knowledge"]["played"][0] = [99]
    with pytest.raises(StateFormatError):
        game_for(OPTS).state_from_json(json.dumps(doc))


def test_an_empty_payoff_pile_before_the_end_is_refused() -> None:
    doc = _document()
    body = doc["state"]
    body["used"] = body["used"] + body["payoffs"][1]
    body["payoffs"][1] = []
    text = json.dumps(doc)
    reference_game(OPTS).state_from_json(text)  # 0.4.0 accepted it
    with pytest.raises(StateFormatError, match="'payoffs': seat 1"):
        game_for(OPTS).state_from_json(text)


def test_the_untouched_document_reads_back() -> None:
    doc = _document()
    st = game_for(OPTS).state_from_json(json.dumps(doc))
    assert json.loads(st.to_json()) == doc
    for seat in range(OPTS.num_players):
        st.resample_hidden(seat, 7).check_conservation()


OBSERVATIONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "L13 an empty hand": lambda b: b.update(hand=[]),
    "L13 a hand bigger than a full hand": lambda b: b["hand_sizes"].__setitem__(1, 9),
    "L13 a pay-off top on an empty pile": lambda b: b["payoff_counts"].__setitem__(1, 0),
    "L13 counts that do not add up": lambda b: b.update(stock_count=b["stock_count"] + 1),
}


@pytest.mark.parametrize("name", OBSERVATIONS)
def test_an_impossible_observation_document_is_refused(name: str) -> None:
    """Issue #31 L13: an observation no game can show is refused before an agent reads it."""
    game = game_for(OPTS)
    doc = json.loads(game.new_state(5).observation_json(0))
    OBSERVATIONS[name](doc["observation"])
    with pytest.raises(StateFormatError):
        game.observation_from_json(json.dumps(doc))


def test_observations_of_played_games_read_back() -> None:
    game = game_for(OPTS)
    st = game.new_state(8)
    rng = Rng(8)
    while not st.is_over:
        for seat in range(OPTS.num_players):
            o = game.observation_from_json(st.observation_json(seat))
            assert o.hand == st.observation(seat).hand
        legal = st.legal_actions()
        st.apply(legal[rng.below(len(legal))])
