"""Spite & Malice rules: the worked cases S-1..S-12, illegal moves, options, observations."""

from __future__ import annotations

import pytest

from cardcore.errors import IllegalMoveError
from cardcore.games.base import GameRequest
from cardcore.spite_malice import (
    Discard,
    Options,
    PlayHand,
    PlayPayOff,
    PlaySide,
    State,
    card_text,
    play_match,
)

TWO = Options()


def hand_card(st: State, seat: int, face: str) -> int:
    """Id of the first card in ``seat``'s hand with face text ``face``."""
    for c in st.hands[seat]:
        if card_text(c, st.options.decks).split("@")[0] == face:
            return c
    raise AssertionError(f"{face} not in hand")


_FILL = [
    "8c",
    "8d",
    "8h",
    "8s",
    "9c",
    "9d",
    "9h",
    "9s",
    "Tc",
    "Td",
    "Th",
    "Ts",
    "Jc",
    "Jd",
    "Jh",
    "Js",
]


def pile(n: int, top: str = "", offset: int = 0) -> str:
    """A pay-off pile text of ``n`` filler cards (plus ``top`` on top when given)."""
    k = n - (1 if top else 0)
    faces = [_FILL[(offset + i) % len(_FILL)] for i in range(k)]
    return " ".join([*faces, top] if top else faces)


def snapshot(st: State) -> tuple[object, ...]:
    return (
        [list(p) for p in st.payoffs],
        [list(h) for h in st.hands],
        [[list(s) for s in ss] for ss in st.sides],
        [list(c) for c in st.center],
        list(st.stock),
        list(st.used),
        st.current,
        st.turn,
        st.over,
        st.winner,
        list(st.scores),
        st.rng.state,
    )


# --- S-1 .. S-12 --------------------------------------------------------------------------


def test_s1_king_takes_next_rank_then_queen_completes() -> None:
    st = State.from_piles(
        TWO, hands=["Ks Qh 3c 4c 5c", "2d 3d 4d 5d 6d"], payoffs=["9h", "9d"], center=[10]
    )
    stock_before = len(st.stock)
    st.apply(PlayHand(hand_card(st, 0, "Ks"), 0))
    assert len(st.center[0]) == 11  # the king is a J, not a Q
    st.apply(PlayHand(hand_card(st, 0, "Qh"), 0))
    assert st.center[0] == []
    assert len(st.stock) == stock_before + 12
    assert st.reshuffles == 1
    st.check_conservation()


def test_s2_king_completes_on_jack() -> None:
    st = State.from_piles(
        TWO, hands=["Kc 3c 4c 5c 6c", "2d 3d 4d 5d 6d"], payoffs=["9h", "9d"], center=[0, 11]
    )
    st.apply(PlayHand(hand_card(st, 0, "Kc"), 1))
    assert st.center[1] == []
    st.check_conservation()


def test_s3_empty_hand_refill_and_turn_continues() -> None:
    st = State.from_piles(TWO, hands=["Ac 2c 3c 4c 5c", "2d 3d 4d 5d 6d"], payoffs=["9h", "9d"])
    for face in ["Ac", "2c", "3c", "4c", "5c"]:
        st.apply(PlayHand(hand_card(st, 0, face), 0))
    assert len(st.center[0]) == 5
    assert len(st.hands[0]) == 5  # drew five at once
    assert st.current == 0  # the turn goes on
    assert any(isinstance(m, Discard) for m in st.legal_moves())
    st.apply(next(m for m in st.legal_moves() if isinstance(m, Discard)))
    assert st.current == 1


def test_s4_slot_limit() -> None:
    st = State.from_piles(TWO, hands=["Ac Ad Ah As 9c", "2d 3d 4d 5d 6d"], payoffs=["9h", "9d"])
    aces = [c for c in st.hands[0] if c % 13 == 0]
    for i, ace in enumerate(aces[:3]):
        st.apply(PlayHand(ace, i))
    legal = st.legal_moves()
    assert not any(isinstance(m, PlayHand) for m in legal)
    assert {m.card_id for m in legal if isinstance(m, Discard)} == set(st.hands[0])
    with pytest.raises(IllegalMoveError):
        st.apply(PlayHand(aces[3], 0))


def test_s5_illegal_moves_change_nothing() -> None:
    st = State.from_piles(
        TWO,
        hands=["Ac 7c 3c 4c 5c", "2d 3d 4d 5d 6d"],
        payoffs=["9h", "9d"],
        sides=[["", "8s", "2s", ""], ["", "", "", ""]],
        center=[5, "Ah"],
    )
    before = snapshot(st)
    ace = hand_card(st, 0, "Ac")
    seven = hand_card(st, 0, "7c")
    bad: list[object] = [
        Discard(st.payoffs[0][-1], 0),  # pay-off -> side
        PlaySide(1, 7),  # side -> no such centre
        Discard(st.sides[0][1][-1], 2),  # side top -> another side stack
        Discard(st.center[1][-1], 0),  # a centre card -> anywhere
        PlayHand(st.center[1][-1], 0),
        PlayHand(ace, 1),  # an ace onto a non-empty stack
        PlayHand(seven, 0),  # a 7 onto C = 5
        PlayHand(st.hands[1][0], 2),  # another player's card
        PlaySide(0, 2),  # empty side stack
        PlayPayOff(0),  # 9 on 5
        PlayHand(ace, 5),
        Discard(seven, 4),
        "P>C1",
        PlayHand(float(ace), 2),  # type: ignore[arg-type]  # a card id that is not an int
        Discard(float(seven), 0),  # type: ignore[arg-type]
        PlayHand(str(ace), 2),  # type: ignore[arg-type]
    ]
    for m in bad:
        with pytest.raises(IllegalMoveError):
            st.apply(m)  # type: ignore[arg-type]
        assert snapshot(st) == before
    # any action after Discard in the same turn: the turn has passed to seat 1
    st.apply(Discard(seven, 0))
    with pytest.raises(IllegalMoveError):
        st.apply(PlayHand(ace, 2))
    assert not st.is_legal(PlayHand(ace, 2))


def test_s6_win_mid_turn_scores_opponent_payoff() -> None:
    opp = pile(13)
    for bonus, expected in ((0, 13), (5, 18)):
        st = State.from_piles(
            Options(win_bonus=bonus),
            hands=["2c 3c 4c 5c 6c", "2h 3h 4h 5h 6h"],
            payoffs=["7h", opp],
            center=[0, 0, 6],
        )
        st.apply(PlayPayOff(2))
        assert st.over
        assert st.winner == 0
        assert st.scores == [expected, 0]
        assert st.legal_moves() == []
        with pytest.raises(IllegalMoveError):
            st.apply(PlayHand(st.hands[0][0], 0))


def test_s7_stock_tie_on_required_draw() -> None:
    st = State.from_piles(TWO, hands=["9c 9d 9h 9s 8c", "2c 3c 4c"], payoffs=["Qh", "Qd"], stock=0)
    st.apply(Discard(st.hands[0][0], 0))  # seat 1 starts its turn with 3 cards and no stock
    assert st.over
    assert st.winner is None
    assert st.scores == [0, 0]
    assert st.end_reason == "stock exhausted"

    st = State.from_piles(TWO, hands=["9c 9d 9h 9s 8c", "Ac"], payoffs=["Qh", "Qd"], stock="2c 3c")
    st.apply(Discard(st.hands[0][0], 0))
    assert not st.over  # a partial draw is no tie
    assert len(st.hands[1]) == 3
    assert st.stock == []
    for face in ["Ac", "2c", "3c"]:
        st.apply(PlayHand(hand_card(st, 1, face), 0))
    assert st.over
    assert st.winner is None
    assert st.scores == [0, 0]


def test_s7_empty_hand_with_empty_stock_is_tie() -> None:
    st = State.from_piles(TWO, hands=["Ac 2c 3c", "2d 3d 4d 5d 6d"], payoffs=["Qh", "Qd"], stock=0)
    for face in ["Ac", "2c", "3c"]:
        st.apply(PlayHand(hand_card(st, 0, face), 0))
    assert st.over
    assert st.winner is None


def test_s8_completion_saves_the_game() -> None:
    st = State.from_piles(
        TWO,
        hands=["9c 9d 9h 9s 8c", "Qc 4c 5c 6c"],
        payoffs=["Ts", "Td"],
        center=[11, 3],
        stock="7c",
    )
    st.apply(Discard(st.hands[0][0], 0))
    assert not st.over
    assert st.stock == []
    assert len(st.hands[1]) == 5
    st.apply(PlayHand(hand_card(st, 1, "Qc"), 0))
    assert len(st.stock) == 12
    for face in ["4c", "5c", "6c", "7c"]:
        st.apply(PlayHand(hand_card(st, 1, face), 1))
    assert not st.over
    assert len(st.hands[1]) == 5
    assert len(st.stock) == 7

    # without the completion, the same refill finds no card
    st = State.from_piles(
        TWO,
        hands=["9c 9d 9h 9s 8c", "4c 5c 6c"],
        payoffs=["Ts", "Td"],
        center=[10, 3],
        stock="7c",
    )
    st.apply(Discard(st.hands[0][0], 0))
    for face in ["4c", "5c", "6c", "7c"]:
        st.apply(PlayHand(hand_card(st, 1, face), 1))
    assert st.over
    assert st.winner is None


def test_s9_king_as_ace() -> None:
    st = State.from_piles(TWO, hands=["Kd 2c 9c 9d 9h", "2d 3d 4d 5d 6d"], payoffs=["Qh", "Qd"])
    st.apply(PlayHand(hand_card(st, 0, "Kd"), 0))
    assert len(st.center[0]) == 1
    assert st.is_legal(PlayHand(hand_card(st, 0, "2c"), 0))
    st = State.from_piles(
        Options(king_can_start_stack=False),
        hands=["Kd 2c 9c 9d 9h", "2d 3d 4d 5d 6d"],
        payoffs=["Qh", "Qd"],
    )
    with pytest.raises(IllegalMoveError):
        st.apply(PlayHand(hand_card(st, 0, "Kd"), 0))


def test_s10_start_order() -> None:
    def first(pays: list[str], seed: int) -> tuple[int, State]:
        st = State.from_piles(TWO, hands=["2c", "2d"], payoffs=pays, seed=seed)
        return st.choose_first_player(), st

    assert first(["9c Kc", "9d Qd"], 0)[0] == 0  # K counts 13
    assert first(["9c Qc", "9d Kd"], 0)[0] == 1
    found = False
    for seed in range(200):  # 9 vs 9: both reshuffle; find a seed giving 4 vs Q
        who, st = first(["4c 9c", "Qd 9d"], seed)
        tops = [st.payoffs[0][-1] % 13 + 1, st.payoffs[1][-1] % 13 + 1]
        assert st.reshuffles >= 2
        assert tops[who] == max(tops)
        assert tops[0] != tops[1]
        if tops == [4, 12]:
            assert who == 1
            found = True
    assert found


def test_s10_first_player_option_overrides() -> None:
    for seat in (0, 1):
        st = State.new(Options(first_player=seat), 3)
        assert st.current == seat == st.first_player


def test_s11_three_player_score() -> None:
    o = Options(num_players=3)
    st = State.from_piles(
        o,
        hands=["2c 3c 4c 5c 6c", "2d", "2h"],
        payoffs=["5s", pile(7), pile(12, offset=7)],
        center=[4],
    )
    st.apply(PlayPayOff(0))
    assert st.winner == 0
    assert st.scores == [19, 0, 0]


def test_s12_match_end() -> None:
    request = GameRequest(
        index=0, seed=11, players=2, agents=("greedy", "greedy"), options={"target_score": 50}
    )
    rec = play_match(request)
    totals = rec["scores"]
    assert max(totals) >= 50
    assert rec["winner"] == totals.index(max(totals))
    running = [0, 0]
    for i, g in enumerate(rec["games"]):
        assert running[0] < 50
        assert running[1] < 50
        running = [a + b for a, b in zip(running, g["scores"], strict=True)]
        assert sum(1 for s in g["scores"] if s) <= 1  # only the winner scores
        assert g["index"] == i
    assert running == totals


def test_s12_match_end_arithmetic() -> None:
    totals = [44, 30]
    game_scores = [9, 0]
    totals = [a + b for a, b in zip(totals, game_scores, strict=True)]
    assert totals == [53, 30]
    assert max(totals) >= TWO.target_score
