"""Three-Thirteen rules engine: deal, turns, going out, rebuilds, scoring, options."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from agent_play import play_out
from cardcore.cards import JOKER0, Card
from cardcore.errors import IllegalMoveError, OptionError
from cardcore.rng import Rng
from cardcore.three_thirteen.melds import MeldRules, deadwood_of_faces
from cardcore.three_thirteen.rules import (
    DRAW_DISCARD,
    DRAW_STOCK,
    NUM_ROUNDS,
    Discard,
    DrawDiscard,
    DrawStock,
    Options,
    State,
    card_points,
    decide_winner,
    discard_move,
    face_table,
    move_code,
    move_from_code,
    parse_move,
)
from tt_states import with_parts


def cid(text: str, num_decks: int = 2) -> int:
    return Card.parse(text).id(num_decks)


def ids(text: str, num_decks: int = 2) -> list[int]:
    return [cid(t, num_decks) for t in text.split()]


def stacked(positions: dict[int, int], total: int = 104) -> list[int]:
    """A deck order with ``positions[k] = id`` fixed; every other id fills the gaps in order."""
    used = set(positions.values())
    assert len(used) == len(positions)
    rest = iter(i for i in range(total) if i not in used)
    return [positions[k] if k in positions else next(rest) for k in range(total)]


def snapshot(st: State) -> tuple[Any, ...]:
    return (
        [list(h) for h in st.hands],
        list(st.stock),
        list(st.discard_pile),
        list(st.discards),
        [list(t) for t in st.taken],
        list(st.own_turns),
        st.current,
        st.phase,
        st.drawn,
        st.drawn_from_discard,
        st.round,
        st.dealer,
        st.out_seat,
        st.final_left,
        st.turn_in_round,
        list(st.totals),
        [list(r) for r in st.round_scores],
        [list(m) for m in st.move_log],
        st.over,
        st.parts()["rng"],
    )


def play_random(st: State, seed: int, max_moves: int = 10**9, check: bool = False) -> int:
    rngs = [Rng.for_stream(seed, s, "agent") for s in range(st.num_players)]
    total = st.options.total_cards
    moves = 0
    while not st.over and moves < max_moves:
        legal = st.legal_moves()
        st.apply(legal[rngs[st.current].below(len(legal))])
        moves += 1
        if check:
            assert sorted(st.all_card_ids()) == list(range(total))
    return moves


# --- deal ------------------------------------------------------------------------------


def test_r1_deal_order_upcard_and_stock_top() -> None:
    st = State(Options(first_dealer=3), 1, stacked_decks={1: list(range(104))})
    assert st.dealer == 3
    assert st.round == 1
    assert st.cards_dealt == 3
    assert st.wild_rank == 3
    assert st.hands[0] == [0, 4, 8]
    assert st.hands[1] == [1, 5, 9]
    assert st.hands[3] == [3, 7, 11]
    assert st.discard_pile == [12]
    assert st.stock_top_first()[0] == 13
    assert st.current == 0  # the seat left of the dealer plays first
    assert len(st.stock) == 104 - 4 * 3 - 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_stock_size_dealer_rotation_and_wild_rank_every_round(players: int) -> None:
    st = State(Options(num_players=players, max_turns_per_round=3), 11)
    first = st.first_dealer
    assert first == Rng.for_stream(11, 0, "deck").below(players)
    seen = 0
    while not st.over:
        r = st.round
        n = r + 2
        assert st.wild_rank == n
        assert st.cards_dealt == n
        assert st.dealer == (first + r - 1) % players
        assert all(len(h) == n for h in st.hands)
        assert len(st.stock) == 104 - players * n - 1
        assert st.current == (st.dealer + 1) % players
        seen += 1
        while st.round == r and not st.over:
            st.apply(st.legal_moves()[0])
    assert seen == NUM_ROUNDS
    assert len(st.round_scores) == NUM_ROUNDS


def test_round_11_stock_is_51_with_four_players() -> None:
    st = State(Options(first_dealer=0), 5, stacked_decks={})
    while st.round < 11:
        st.apply(st.legal_moves()[0])
    assert len(st.stock) == 51
    assert st.cards_dealt == 13
    assert st.wild_rank == 13


def test_first_dealer_is_seeded_and_varies() -> None:
    dealers = {State(Options(), s).first_dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert State(Options(), 9).first_dealer == State(Options(), 9).first_dealer


def test_deals_come_from_the_deck_stream_in_order() -> None:
    st = State(Options(first_dealer=1), 42)
    rng = Rng.for_stream(42, 0, "deck")
    assert st.deck_orders[0] == rng.permutation(104)


# --- going out and final turns ---------------------------------------------------


def _r2_state(**opts: Any) -> State:
    # dealer 0 -> seat 1 plays first; card k goes to seat (1 + k) % 4.
    pos = {
        0: cid("3c"), 4: cid("3d"), 8: cid("Kh"),  # seat 1: complete (two wilds + any card)
        1: cid("3h"), 5: cid("3s"), 9: cid("9c"),  # seat 2: complete too
        2: cid("2c@1"), 6: cid("7d@1"), 10: cid("Qs@1"),  # seat 3
        3: cid("4c@1"), 7: cid("8d@1"), 11: cid("Js@1"),  # seat 0
        12: cid("5h@1"),  # up-card
        13: cid("9s"),  # seat 1 draws this and throws it back
        14: cid("Kd"),  # seat 2 draws Kd and throws it back
    }  # fmt: skip
    return State(Options(first_dealer=0, **opts), 3, stacked_decks={1: stacked(pos)})


def test_r2_r3_out_on_first_turn_then_one_final_turn_each() -> None:
    st = _r2_state()
    assert st.current == 1
    st.apply(DRAW_STOCK)
    assert st.drawn == cid("9s")
    st.apply(Discard(cid("9s")))
    assert st.out_seat == 1
    assert st.current == 2
    assert st.round == 1
    # seat 2 is complete already; draws Kd, discards Kd, stays complete.
    st.apply(DRAW_STOCK)
    assert st.drawn == cid("Kd")
    st.apply(Discard(cid("Kd")))
    assert st.current == 3
    for seat in (3, 0):
        assert st.current == seat
        assert st.round == 1
        st.apply(DRAW_STOCK)
        st.apply(st.legal_moves()[0])
    assert st.round == 2
    assert [s for s, _ in st.move_log[0]] == [1, 1, 2, 2, 3, 3, 0, 0]
    assert st.went_out[0] == 1
    scores = st.round_scores[0]
    assert scores[1] == 0
    assert scores[2] == 0
    assert scores[3] > 0
    assert scores[0] > 0
    assert st.totals == scores


def test_min_own_turns_before_out_delays_going_out() -> None:
    st = _r2_state(min_own_turns_before_out=1)
    st.apply(DRAW_STOCK)
    st.apply(Discard(cid("9s")))
    assert st.out_seat is None
    assert st.current == 2
    st.apply(DRAW_STOCK)
    st.apply(Discard(cid("Kd")))
    assert st.out_seat is None  # seat 2 also on its first turn
    for _ in range(2):  # seats 3 and 0
        st.apply(DRAW_STOCK)
        st.apply(Discard(st.drawn))
    assert st.current == 1
    st.apply(DRAW_STOCK)
    st.apply(Discard(st.drawn))
    assert st.out_seat == 1  # second own turn: going out now counts


def test_out_player_never_plays_again_in_real_games() -> None:
    from cardcore.three_thirteen.agents import GreedyAgent

    for seed in range(6):
        st = State(Options(num_players=2 + seed % 5), seed)
        agents = [GreedyAgent() for _ in range(st.num_players)]
        rngs = [Rng.for_stream(seed, s, "agent") for s in range(st.num_players)]
        while not st.over:
            s = st.current
            st.apply(agents[s].act(st.observation(s), st.legal_moves(), rngs[s]))
        p = st.num_players
        for r, log in enumerate(st.move_log):
            assert len(log) % 2 == 0
            seats = [s for s, _ in log[::2]]
            assert [s for s, _ in log[1::2]] == seats
            first = (st.first_dealer + r + 1) % p
            assert seats == [(first + k) % p for k in range(len(seats))]
            out = st.went_out[r]
            if out is None:
                assert len(seats) == 400
            else:
                assert seats[-p] == out  # out, then exactly one turn for each other seat
                assert out not in seats[-p + 1 :]
                assert st.round_scores[r][out] == 0


# --- stock rebuild ---------------------------------------------------------------------


def test_r4_rebuild_when_stock_empty_at_turn_start() -> None:
    st = State(Options(num_players=6, first_dealer=3), 8)
    rng = Rng(8)
    while not (st.phase == "discard" and not st.stock):  # the next turn starts with no stock
        legal = st.legal_actions()
        st.apply(legal[rng.below(len(legal))])
    pile = st.discard_pile
    expect_rng = Rng.from_state(st.parts()["rng"])
    discard = st.legal_moves()[0]
    assert isinstance(discard, Discard)
    st.apply(discard)
    assert st.discard_pile == [discard.card_id]
    perm = expect_rng.permutation(len(pile))
    assert st.stock_top_first() == [pile[i] for i in perm]
    assert sorted(st.stock) == sorted(pile)
    assert st.discards == []
    assert st.rebuilds[-1][-1] == [pile[i] for i in perm]
    assert sorted(st.all_card_ids()) == list(range(104))


def test_rebuilds_happen_in_long_rounds_and_conserve_cards() -> None:
    st = State(Options(num_players=6), 77)
    play_random(st, 77, check=True)
    assert sum(len(r) for r in st.rebuilds) > 10


# --- scoring ---------------------------------------------------------------------


def test_r5_tie_rule() -> None:
    assert decide_winner([50, 50, 61, 70]) == (None, "all_tied", [0, 1], [])
    assert decide_winner([49, 50, 50, 70]) == (0, "win", [], [0])
    assert decide_winner([50, 50, 61, 70], "shared_win") == (None, "shared_win", [0, 1], [0, 1])
    assert decide_winner([7, 7, 7]) == (None, "all_tied", [0, 1, 2], [])


def test_r5_result_uses_tie_rule_option() -> None:
    for rule, outcome in (("all_tied", "all_tied"), ("shared_win", "shared_win")):
        st = State(Options(tie_rule=rule), 1)
        while st.round == 1:
            st.apply(st.legal_actions()[0])
        scores = [50, 50, 61, 70]
        st = with_parts(st, totals=scores, round_scores=[scores], went_out=[None])
        res = st.result()
        assert res["winner"] is None
        assert res["outcome"] == outcome
        assert res["tied"] == [0, 1]


def _deadwood_in_round(hand: str, rnd: int, **opts: Any) -> int:
    o = Options(**opts)
    faces = bytes(ids(hand, o.num_decks)).translate(face_table(o.num_decks, o.jokers))
    return deadwood_of_faces(faces, rnd + 2, o.meld_rules)


def test_r6_wild_rank_values_follow_the_round() -> None:
    rules = Options().meld_rules
    three_h = Card.parse("3h").face
    jack_c = Card.parse("Jc").face
    assert card_points(three_h, 3, rules) == 15
    assert card_points(three_h, 4, rules) == 3
    assert card_points(jack_c, 11, rules) == 15
    assert card_points(jack_c, 12, rules) == 10
    for w in range(3, 14):
        assert card_points(53, w, rules) == 20
    # Through the engine's scoring (the Rust solver); no hand below has a meld.
    assert _deadwood_in_round("3h 9c Kd", 1) == 15 + 9 + 10
    assert _deadwood_in_round("3h 9c Kd 7s", 2) == 3 + 9 + 10 + 7
    nine = "Jc 2d 8d Qd 6h 9s Ks 4c 3h"
    assert _deadwood_in_round(nine, 9) == 15 + 2 + 8 + 10 + 6 + 9 + 10 + 4 + 3
    ten = "Jc 2d 8d Kd 6h 9s 4c 3h Ts 5c"
    assert _deadwood_in_round(ten, 10) == 10 + 2 + 8 + 10 + 6 + 9 + 4 + 3 + 10 + 5
    assert _deadwood_in_round("X2 9c Kd", 1, jokers=2) == 20 + 9 + 10
    assert _deadwood_in_round("X2 9c Kd 6s", 2, jokers=2) == 20 + 9 + 10 + 6
    assert _deadwood_in_round("X2 9c 2c Kd 5d Jh 4s", 5, jokers=2) == 20 + 9 + 2 + 10 + 5 + 10 + 4


def test_scoring_options_points_and_ace_mode() -> None:
    assert _deadwood_in_round("3h 9c Kd", 1, wild_points=25) == 25 + 9 + 10
    assert _deadwood_in_round("X1 9c Kd", 1, jokers=2, joker_points=30) == 30 + 9 + 10
    assert _deadwood_in_round("Qh Kh Ah 9c 9d 9s", 4) == 21
    assert _deadwood_in_round("Qh Kh Ah 9c 9d 9s", 4, ace_mode="high") == 0
    assert _deadwood_in_round("Ah 2h 3h 9c 9d Ks", 4, ace_mode="high") == 48
    assert _deadwood_in_round("Ah 2h 3h 9c 9d Ks", 4, ace_mode="both") == 28
    rules_high = Options(ace_mode="high").meld_rules
    assert card_points(Card.parse("Ad").face, 5, rules_high) == 15


@pytest.mark.parametrize("ace_mode", ["low", "high", "both"])
def test_card_points_is_the_rust_card_value(ace_mode: str) -> None:
    """``card_points`` is the Python twin of ``meld::card_value``: a one-card hand never melds,
    so the Rust solver's deadwood of it is its card value, for every face, wild rank and
    scoring option."""
    for wild_points, joker_points in ((15, 20), (0, 0), (25, 30), (1000, 7)):
        rules = MeldRules(ace_mode, wild_points, joker_points)
        for wild in range(3, 14):
            for face in range(JOKER0 + 4):
                rust = deadwood_of_faces(bytes([face]), wild, rules)
                assert card_points(face, wild, rules) == rust, (face, wild, rules)


# --- moves and legality -------------------------------------------------------------------------


def test_move_text_and_codes_round_trip() -> None:
    for m in (DRAW_STOCK, DRAW_DISCARD, Discard(17), Discard(105)):
        assert parse_move(str(m)) == m
        assert move_from_code(move_code(m)) == m
    assert parse_move("discard 7h@1") == Discard(cid("7h@1"))
    assert Discard(cid("7h@1")).text() == "discard 7h@1"
    assert discard_move(5) is discard_move(5)
    assert DrawStock() == DRAW_STOCK
    assert DrawDiscard() == DRAW_DISCARD
    with pytest.raises(IllegalMoveError):
        parse_move("pass")
    with pytest.raises(IllegalMoveError):
        move_from_code(-3)


def test_illegal_moves_raise_and_change_nothing() -> None:
    st = State(Options(forbid_return_of_discard_draw=True), 4)
    other = next(c for c in range(104) if c not in st.hands[st.current])
    for bad in (Discard(st.hands[st.current][0]), Discard(other), "draw", None):
        before = snapshot(st)
        with pytest.raises(IllegalMoveError):
            st.apply(bad)  # type: ignore[arg-type]
        assert snapshot(st) == before
    st.apply(DRAW_DISCARD)
    drawn = st.drawn
    assert drawn is not None
    assert Discard(drawn) not in st.legal_moves()
    for bad2 in (DRAW_STOCK, DRAW_DISCARD, Discard(drawn), Discard(other), Discard(999)):
        before = snapshot(st)
        with pytest.raises(IllegalMoveError):
            st.apply(bad2)
        assert snapshot(st) == before
        assert not st.is_legal(bad2)


def test_discard_of_a_non_int_card_id_is_illegal() -> None:
    """A custom agent's ``Discard(True)`` or ``Discard(1.0)`` must not pass as card id 1 (the
    pile would hold a bool and the replay would not verify)."""
    st = State(Options(first_dealer=0), 4)
    st.apply(DRAW_STOCK)
    hand = st.hands[st.current]
    real = hand[0]
    for bad in (Discard(float(real)), Discard(str(real))):  # type: ignore[arg-type]
        before = snapshot(st)
        assert not st.is_legal(bad)
        with pytest.raises(IllegalMoveError):
            st.apply(bad)
        assert snapshot(st) == before


def test_forbid_return_default_allows_throwing_back() -> None:
    st = State(Options(), 4)
    st.apply(DRAW_DISCARD)
    assert st.drawn is not None
    assert Discard(st.drawn) in st.legal_moves()
    st.apply(Discard(st.drawn))


def test_property_random_legal_and_illegal_moves() -> None:
    """Seeded games: random candidate moves; legal ones apply, illegal ones raise unchanged."""
    for seed in range(25):
        o = Options(
            num_players=2 + seed % 5,
            jokers=(0, 2, 4)[seed % 3],
            forbid_return_of_discard_draw=seed % 2 == 0,
            max_turns_per_round=20,
        )
        st = State(o, seed)
        rng = Rng.for_stream(seed, 0, "test")
        steps = 0
        while not st.over:
            legal = st.legal_moves()
            k = rng.below(4)
            cand: Any
            if k == 0:
                cand = DRAW_STOCK
            elif k == 1:
                cand = DRAW_DISCARD
            else:
                cand = Discard(rng.below(o.total_cards + 3))
            if cand in legal:
                assert st.is_legal(cand)
                st.apply(cand)
            else:
                assert not st.is_legal(cand)
                before = snapshot(st)
                with pytest.raises(IllegalMoveError):
                    st.apply(cand)
                assert snapshot(st) == before
                st.apply(legal[rng.below(len(legal))])
            steps += 1
        assert st.legal_moves() == []
        before = snapshot(st)
        with pytest.raises(IllegalMoveError):
            st.apply(DRAW_STOCK)
        assert snapshot(st) == before
        assert steps > 0


def test_card_conservation_after_every_move_1000_games() -> None:
    """1,000 seeded games (2-6 players, 0/2/4 jokers, short rounds): ids conserved every move."""
    for seed in range(1000):
        o = Options(
            num_players=2 + seed % 5,
            jokers=(0, 2, 4)[seed % 3],
            max_turns_per_round=4 + seed % 7,
        )
        st = State(o, seed)
        total = o.total_cards
        full = list(range(total))
        rngs = [Rng.for_stream(seed, s, "agent") for s in range(o.num_players)]
        while not st.over:
            legal = st.legal_moves()
            st.apply(legal[rngs[st.current].below(len(legal))])
            assert sorted(st.all_card_ids()) == full
        assert len(st.round_scores) == NUM_ROUNDS
        assert st.totals == [sum(r[s] for r in st.round_scores) for s in range(o.num_players)]


def test_clone_is_independent() -> None:
    st = State(Options(), 21)
    play_random(st, 21, max_moves=30)
    cl = st.clone()
    assert snapshot(cl) == snapshot(st)
    play_random(cl, 5, max_moves=200)
    assert snapshot(cl) != snapshot(st)
    a, b = st.clone(), st.clone()
    play_random(a, 9)
    play_random(b, 9)
    assert a.totals == b.totals
    assert a.move_log == b.move_log


# --- observations ---------------------------------------------------------------------------


def test_observation_never_leaks_hidden_cards() -> None:
    for seed in range(8):
        st = State(Options(num_players=3 + seed % 3, jokers=2, max_turns_per_round=120), seed)
        rngs = [Rng.for_stream(seed, s, "agent") for s in range(st.num_players)]
        checks = 0
        while not st.over:
            for seat in range(st.num_players):
                obs = st.observation(seat)
                assert list(obs.hand) == st.hands[seat]
                visible = set(obs.discard_pile)
                visible.update(c for _, c in obs.discards)
                for t in obs.taken:
                    visible.update(t)
                if obs.drawn is not None:
                    visible.add(obs.drawn)
                assert not visible & set(st.stock), "stock card visible"
                for other in range(st.num_players):
                    if other == seat:
                        continue
                    leaked = visible & set(st.hands[other])
                    assert leaked <= set(st.taken[other]) | {c for _, c in st.discards}
                    assert set(obs.taken[other]) <= set(st.hands[other])
                assert obs.stock_size == len(st.stock)
                assert obs.hand_sizes == tuple(len(h) for h in st.hands)
                # Nothing in the observation refers to mutable engine objects.
                for value in obs:
                    assert not isinstance(value, list | State)
                checks += 1
            legal = st.legal_moves()
            st.apply(legal[rngs[st.current].below(len(legal))])
        assert checks > 100


def test_observation_fields() -> None:
    st = State(Options(first_dealer=2), 6)
    obs = st.observation(3)
    assert obs.seat == 3
    assert obs.round == 1
    assert obs.wild_rank == 3
    assert obs.cards_dealt == 3
    assert obs.dealer == 2
    assert obs.phase == "draw"
    assert obs.drawn is None
    assert obs.face_of == face_table(2, 0)
    st.apply(DRAW_DISCARD)
    obs = st.observation(3)
    assert obs.phase == "discard"
    assert obs.drawn_from_discard
    assert obs.drawn in obs.hand
    assert obs.taken[3] == (obs.drawn,)
    assert st.observation(0).drawn is None


# --- options ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_players": 1},
        {"num_players": 7},
        {"jokers": 1},
        {"num_decks": 0},
        {"num_decks": 5},
        {"ace_mode": "sideways"},
        {"first_dealer": 4},
        {"tie_rule": "coin"},
        {"min_own_turns_before_out": -1},
        {"max_turns_per_round": 0},
        {"num_decks": 1},  # 52 cards < 13*4+2
        {"wild_points": "15"},
        {"forbid_return_of_discard_draw": 1},
    ],
)
def test_bad_options_raise(kwargs: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        Options(**kwargs)


def test_option_mapping_and_defaults() -> None:
    o = Options.from_mapping(4, {"jokers": 2, "first_dealer": None})
    assert o.jokers == 2
    assert o.total_cards == 106
    assert o.as_dict()["tie_rule"] == "all_tied"
    with pytest.raises(OptionError):
        Options.from_mapping(4, {"nope": 1})


@pytest.mark.parametrize(
    "opts",
    [
        {"num_players": 3, "num_decks": 1},
        {"num_players": 4, "num_decks": 1, "jokers": 2},
        {"num_decks": 3, "jokers": 4},
        {"ace_mode": "high"},
        {"ace_mode": "both"},
        {"wild_points": 0, "joker_points": 50, "jokers": 4},
        {"tie_rule": "shared_win"},
        {"forbid_return_of_discard_draw": True},
        {"min_own_turns_before_out": 2},
        {"max_turns_per_round": 7},
        {"first_dealer": 2},
    ],
)
def test_every_option_plays_whole_games(opts: dict[str, Any]) -> None:
    o = Options(**opts)
    for seed in range(2):
        from cardcore.three_thirteen.agents import GreedyAgent

        agents = [GreedyAgent() for _ in range(o.num_players)]
        st = play_out(State(o, seed), seed, agents)
        assert sorted(st.all_card_ids()) == list(range(o.total_cards))
        assert len(st.round_scores) == NUM_ROUNDS
        if o.first_dealer is not None:
            assert st.first_dealer == o.first_dealer
        for r, log in enumerate(st.move_log):
            if st.went_out[r] is None:
                assert len(log) == 2 * o.max_turns_per_round
            else:
                out = st.went_out[r]
                own = sum(1 for s, c in log[1::2] if s == out)
                assert own > o.min_own_turns_before_out
        res = st.result()
        if o.tie_rule == "shared_win" and res["tied"]:
            assert res["winners"] == res["tied"]


def test_max_turns_cap_scores_current_hands() -> None:
    st = State(Options(max_turns_per_round=3, first_dealer=0), 12)
    while st.round == 1:
        st.apply(DRAW_STOCK)
        st.apply(st.legal_moves()[-1])
    assert st.went_out[0] is None
    assert len(st.move_log[0]) == 6


@settings(max_examples=25, deadline=None)
@given(
    seed=st_.integers(0, 2**64 - 1),
    players=st_.integers(2, 6),
    jokers=st_.sampled_from([0, 2, 4]),
)
def test_hypothesis_legal_moves_survive_text_and_code_round_trips(
    seed: int, players: int, jokers: int
) -> None:
    """Every legal move re-parsed from its text (and its replay code) is still legal."""
    state = State(Options(num_players=players, jokers=jokers, max_turns_per_round=6), seed)
    rng = Rng.for_stream(seed, 0, "agent")
    while not state.over:
        legal = state.legal_moves()
        for m in legal:
            assert parse_move(str(m)) in legal
            assert move_from_code(move_code(m)) in legal
            if isinstance(m, Discard):
                assert parse_move(m.text(state.num_decks)) == m
        state.apply(legal[rng.below(len(legal))])
        assert sorted(state.all_card_ids()) == list(range(state.options.total_cards))
