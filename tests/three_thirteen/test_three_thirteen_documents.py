"""Hostile state and observation documents (issue #31 M5, L10, L11, L13): the rulebook's
reader checks a document before it is used, and refuses one that no game can reach with
:class:`StateFormatError` naming what is wrong, so that ``resample_hidden`` and the agents
never see an impossible state."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import cardcore
from cardcore.errors import StateFormatError
from cardcore.rng import Rng

GAME = cardcore.load_game("three-thirteen", players=3)


def _played(seed: int = 4, until_round: int = 2) -> Any:
    st = GAME.new_state(seed)
    rng = Rng(seed)
    while st.round < until_round or st.phase != "discard" or st.turn_in_round < 2:
        legal = st.legal_actions()
        st.apply(legal[rng.below(len(legal))])
    return st


def _tampered(change: Callable[[dict[str, Any]], None], seed: int = 4) -> str:
    doc = json.loads(_played(seed).to_json())
    change(doc["state"])
    return json.dumps(doc)


def test_the_untampered_document_reads_back() -> None:
    st = _played()
    assert GAME.state_from_json(st.to_json()).to_json() == st.to_json()


def _dup_taken(b: dict[str, Any]) -> None:
    card = b["hands"][0][0]
    b["taken"][0] = [card, card]


def _swap_history(b: dict[str, Any]) -> None:
    log = b["history"]["moves"][-1]
    log[0], log[1] = log[1], log[0]


def _other_discard(b: dict[str, Any]) -> None:
    log = b["history"]["moves"][-1]
    seat, move = log[1]
    hand = b["hands"][seat]
    other = next(c for c in hand if f"discard {c}" != move)
    log[1] = [seat, f"discard {other}"]


CASES: dict[str, Callable[[dict[str, Any]], None]] = {
    "M5 a card twice in taken": _dup_taken,
    "L10 over is 1": lambda b: b.update(over=1),
    "L10 over is 'yes'": lambda b: b.update(over="yes"),
    "L10 drawn_from_discard is 0": lambda b: b.update(drawn_from_discard=0),
    "L10 rng word not hex": lambda b: b["rng"].__setitem__(0, "0x" + b["rng"][0][2:]),
    "L11 out_seat is the seat to play": lambda b: b.update(out_seat=b["current"], final_left=2),
    "L11 final_left without a seat out": lambda b: b.update(final_left=1),
    "L11 moves out of turn": _swap_history,
    "L11 a discard the deal cannot give": _other_discard,
    "L11 a total that is not the sum": lambda b: b["totals"].__setitem__(0, 999),
    "L11 the wrong dealer": lambda b: b.update(dealer=(b["dealer"] + 1) % 3),
    "L11 one own turn too many": lambda b: b["own_turns"].__setitem__(0, 5),
}


@pytest.mark.parametrize("name", CASES)
def test_an_impossible_state_document_is_refused(name: str) -> None:
    text = _tampered(CASES[name])
    with pytest.raises(StateFormatError):
        GAME.state_from_json(text)


def _observation(change: Callable[[dict[str, Any]], None]) -> str:
    st = _played()
    doc = json.loads(st.observation_json(st.current_player))
    change(doc)
    return json.dumps(doc)


OBSERVATIONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "L13 an empty hand": lambda d: d["observation"].update(hand=[]),
    "L13 seat 7": lambda d: d.update(seat=7),
    "L13 a hand too big": lambda d: d["observation"]["hand"].append(d["observation"]["hand"][0]),
    "L13 counts that do not add up": lambda d: d["observation"].update(stock_size=3),
    "L13 the drawn card not in the hand": lambda d: d["observation"].update(drawn=None),
}


@pytest.mark.parametrize("name", OBSERVATIONS)
def test_an_impossible_observation_document_is_refused(name: str) -> None:
    with pytest.raises(StateFormatError):
        GAME.observation_from_json(_observation(OBSERVATIONS[name]))


def test_every_seats_observation_reads_back() -> None:
    st = _played()
    for seat in range(3):
        o = GAME.observation_from_json(st.observation_json(seat))
        assert tuple(o) == tuple(st.observation(seat))


def test_observation_documents_build_each_seats_observation_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``observation_documents`` for every seat reads each seat's observation at most once
    (seat 0's was built twice: once to ask whether the game shares fields; the other seats'
    own fields are now read without one), and gives the documents ``observation_document``
    gives."""
    from cardcore.three_thirteen.state import State

    st = _played()
    want = [GAME.observation_document(st, s) for s in range(3)]
    calls: list[int] = []
    observe = State.observation

    def counted(self: State, seat: int) -> Any:
        calls.append(seat)
        return observe(self, seat)

    monkeypatch.setattr(State, "observation", counted)
    assert GAME.observation_documents(st, [2, 0, 1]) == [want[2], want[0], want[1]]
    assert len(calls) == len(set(calls)) <= 3
    assert GAME.observation_documents(st, [1]) == [want[1]]


def test_observation_documents_are_each_seats_document_through_a_whole_game() -> None:
    """Every seat's document from ``observation_documents`` (its own fields read from the
    state) is ``observation_document``'s, after every move of a game and once it is over."""
    st = GAME.new_state(7)
    rng = Rng(7)
    while True:
        seats = [2, 0, 1]
        assert GAME.observation_documents(st, seats) == [
            GAME.observation_document(st, s) for s in seats
        ]
        if st.is_over:
            break
        legal = st.legal_actions()
        st.apply(legal[rng.below(len(legal))])


def test_the_seed_is_the_rulebooks_and_reads_back() -> None:
    st = GAME.new_state(2**64 - 5)
    assert st.seed == 2**64 - 5 == st.parts()["seed"]
    assert GAME.state_from_json(st.to_json()).seed == st.seed
