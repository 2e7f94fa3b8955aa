"""Spite & Malice: every option of the rules page ("Variants"), validation, observations,
card conservation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from cardcore.errors import IllegalMoveError, OptionError
from cardcore.games.base import GameRequest, get_game
from cardcore.rng import Rng
from cardcore.spite_malice import (
    Discard,
    GreedyAgent,
    Options,
    PlannerAgent,
    PlayHand,
    PlayPayOff,
    PlaySide,
    RandomAgent,
    State,
    card_rank,
    card_text,
    move_text,
    parse_card_id,
    parse_move,
    play_game,
)


def hand_card(st: State, seat: int, face: str) -> int:
    for c in st.hands[seat]:
        if card_text(c, st.options.decks).split("@")[0] == face:
            return c
    raise AssertionError(f"{face} not in hand")


# --- option values and defaults -----------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "decks", "centres", "stock"), [(2, 2, 3, 54), (3, 3, 4, 81), (4, 3, 4, 56)]
)
def test_player_count_defaults(players: int, decks: int, centres: int, stock: int) -> None:
    o = Options(num_players=players)
    assert (o.num_decks, o.num_center_stacks) == (decks, centres)
    st = State.new(o, 5)
    assert len(st.stock) == stock
    assert len(st.center) == centres
    assert all(len(p) == 20 for p in st.payoffs)
    assert all(len(h) == 5 for h in st.hands)
    assert all(len(ss) == 4 for ss in st.sides)
    st.check_conservation()


def test_spec_options_and_validation() -> None:
    spec = get_game("spite-malice")
    names = {o.name for o in spec.options}
    assert names == {
        "num_decks",
        "payoff_size",
        "hand_size",
        "num_side_stacks",
        "num_center_stacks",
        "wild_mode",
        "king_can_start_stack",
        "refill_empty_hand",
        "completed_stack",
        "stock_exhausted",
        "side_stack_rule",
        "must_play_aces",
        "win_bonus",
        "target_score",
        "first_player",
        "max_turns",
    }
    assert spec.parse_options(["num_decks=auto"]) == {"num_decks": None}
    assert spec.parse_options(["wild_mode=jokers"]) == {"wild_mode": "jokers"}
    for bad in ["wild_mode=queens", "hand_size=0", "payoff_size=x", "nope=1"]:
        with pytest.raises(OptionError):
            spec.parse_options([bad])
    with pytest.raises(OptionError):
        Options(num_players=5)
    with pytest.raises(OptionError):
        Options(first_player=2)  # only seats 0, 1
    with pytest.raises(OptionError):
        Options(num_decks=1, payoff_size=30)  # 70 cards needed, 52 in the deck
    with pytest.raises(OptionError):
        Options.from_mapping(2, {"colour": "red"})
    with pytest.raises(OptionError):
        Options(side_stack_rule="never")


@pytest.mark.parametrize(
    "opts",
    [
        {"num_decks": 3},
        {"payoff_size": 13},
        {"hand_size": 7},
        {"num_side_stacks": 2},
        {"num_center_stacks": 2},
        {"num_center_stacks": 0},
        {"wild_mode": "jokers"},
        {"king_can_start_stack": False},
        {"refill_empty_hand": False},
        {"completed_stack": "set_aside"},
        {"stock_exhausted": "tie_immediately"},
        {"completed_stack": "set_aside", "stock_exhausted": "recycle_then_tie"},
        {"side_stack_rule": "same_or_one_lower"},
        {"side_stack_rule": "no_aces"},
        {"must_play_aces": True},
        {"win_bonus": 5},
        {"first_player": 1},
        {"max_turns": 7},
    ],
)
@pytest.mark.parametrize("players", [2, 3])
def test_every_option_plays_whole_games(opts: dict[str, object], players: int) -> None:
    o = Options.from_mapping(players, opts)  # type: ignore[arg-type]
    for seed in range(4):
        planner = PlannerAgent()
        agents: list[PlannerAgent | GreedyAgent] = [planner]
        agents += [GreedyAgent() for _ in range(players - 1)]
        st, _ = play_game(o, seed, agents, check_conservation=True)
        assert st.over
        assert planner.fallbacks == 0
        if st.winner is not None:
            opp = sum(len(p) for i, p in enumerate(st.payoffs) if i != st.winner)
            assert st.scores[st.winner] == opp + o.win_bonus
        else:
            assert st.scores == [0] * players
        assert st.turn <= o.max_turns
        if "first_player" in opts:
            assert st.first_player == 1
    if opts.get("max_turns") == 7:
        st, _ = play_game(o, 0, [RandomAgent() for _ in range(players)])
        assert st.turn <= 7


# --- individual rule options --------------------------------------------------------------


def test_jokers_mode() -> None:
    o = Options(wild_mode="jokers")
    assert o.total_cards == 108
    assert o.top_rank == 13
    assert card_rank(104, 2, "jokers") == 0
    assert card_rank(12, 2, "jokers") == 13
    assert card_rank(12, 2, "kings") == 0
    assert card_text(105, 2) == "X2"
    assert parse_card_id("X2", 2) == 105
    st = State.from_piles(
        o, hands=["Kc X1 2c 3c 4c", "2d 3d 4d 5d 6d"], payoffs=["9h", "9d"], center=[11, 12]
    )
    king = hand_card(st, 0, "Kc")
    joker = next(c for c in st.hands[0] if c >= 104)
    assert not st.is_legal(PlayHand(king, 0))  # K is a natural 13 now
    st.apply(PlayHand(joker, 0))  # joker on 11 -> 12, not complete
    assert len(st.center[0]) == 12
    st.apply(PlayHand(king, 1))  # K on Q completes at 13
    assert st.center[1] == []
    st.check_conservation()
    st3 = State.new(Options(num_players=3, wild_mode="jokers"), 1)
    assert st3.options.total_cards == 162
    st3.check_conservation()


def test_refill_empty_hand_false_ends_turn() -> None:
    o = Options(refill_empty_hand=False)
    st = State.from_piles(o, hands=["Ac 2c", "2d 3d 4d 5d 6d"], payoffs=["9h", "9d"])
    st.apply(PlayHand(hand_card(st, 0, "Ac"), 0))
    st.apply(PlayHand(hand_card(st, 0, "2c"), 0))
    assert st.current == 1
    assert st.hands[0] == []


def test_completed_stack_set_aside_and_recycle() -> None:
    o = Options(completed_stack="set_aside", stock_exhausted="recycle_then_tie")
    st = State.from_piles(
        o, hands=["Qc 9c 9d 9h 9s", "Ac"], payoffs=["Th", "Td"], center=[11], stock=0
    )
    used_before = len(st.used)
    st.apply(PlayHand(hand_card(st, 0, "Qc"), 0))
    assert len(st.used) == used_before + 12
    assert st.stock == []
    st.apply(Discard(hand_card(st, 0, "9c"), 0))
    # seat 1 must draw 4 from an empty stock: the used pile becomes the stock
    assert not st.over
    assert len(st.hands[1]) == 5
    assert st.used == []
    st.check_conservation()
    o2 = Options(completed_stack="set_aside")
    st = State.from_piles(
        o2, hands=["Qc 9c 9d 9h 9s", "Ac"], payoffs=["Th", "Td"], center=[11], stock=0
    )
    st.apply(PlayHand(hand_card(st, 0, "Qc"), 0))
    st.apply(Discard(hand_card(st, 0, "9c"), 0))
    assert st.over
    assert st.winner is None


def test_tie_immediately() -> None:
    o = Options(stock_exhausted="tie_immediately")
    st = State.from_piles(o, hands=["9c 9d 9h 9s 8c", "Ac 2c 3c 4c"], payoffs=["Qh", "Qd"], stock=1)
    st.apply(Discard(st.hands[0][0], 0))
    assert st.over
    assert st.winner is None
    o2 = Options()
    st = State.from_piles(
        o2, hands=["9c 9d 9h 9s 8c", "Ac 2c 3c 4c"], payoffs=["Qh", "Qd"], stock=1
    )
    st.apply(Discard(st.hands[0][0], 0))
    assert not st.over


def test_side_stack_rules() -> None:
    o = Options(side_stack_rule="same_or_one_lower")
    st = State.from_piles(
        o,
        hands=["7c 6c 9c 2c 2d", "2h"],
        payoffs=["Qh", "Qd"],
        sides=[["7d", "", "Ks", "Jc"], ["", "", "", ""]],
    )
    d = {(m.card_id, m.side) for m in st.legal_moves() if isinstance(m, Discard)}
    seven, six, nine = (hand_card(st, 0, f) for f in ("7c", "6c", "9c"))
    assert (seven, 0) in d
    assert (six, 0) in d
    assert (nine, 1) in d
    assert (nine, 0) not in d
    assert (nine, 3) not in d
    assert (nine, 2) in d  # a wild top takes anything
    with pytest.raises(IllegalMoveError):
        st.apply(Discard(nine, 0))
    # nothing fits anywhere: the restriction is lifted
    st = State.from_piles(
        o,
        hands=["9c", "2h"],
        payoffs=["Qh", "Qd"],
        sides=[["2d", "2h", "2s", "2c"], ["", "", "", ""]],
    )
    assert len([m for m in st.legal_moves() if isinstance(m, Discard)]) == 4
    o2 = Options(side_stack_rule="no_aces")
    st = State.from_piles(o2, hands=["Ac 9c", "2h"], payoffs=["Qh", "Qd"], center=[1, 1, 1])
    assert all(
        m.card_id != hand_card(st, 0, "Ac") for m in st.legal_moves() if isinstance(m, Discard)
    )
    st = State.from_piles(o2, hands=["Ac Ad", "2h"], payoffs=["Qh", "Qd"], center=[1, 1, 1])
    assert len([m for m in st.legal_moves() if isinstance(m, Discard)]) == 8


def test_must_play_aces() -> None:
    o = Options(must_play_aces=True)
    st = State.from_piles(o, hands=["Ac 9c", "2h"], payoffs=["Qh", "Qd"])
    assert not any(isinstance(m, Discard) for m in st.legal_moves())
    with pytest.raises(IllegalMoveError):
        st.apply(Discard(hand_card(st, 0, "9c"), 0))
    st.apply(PlayHand(hand_card(st, 0, "Ac"), 0))
    assert any(isinstance(m, Discard) for m in st.legal_moves())
    st = State.from_piles(o, hands=["Ac 9c", "2h"], payoffs=["Qh", "Qd"], center=[1, 1, 1])
    assert any(isinstance(m, Discard) for m in st.legal_moves())  # no free slot


def test_unlimited_centre_stacks() -> None:
    o = Options(num_center_stacks=0)
    st = State.from_piles(o, hands=["Ac Ad Ah As 9c", "2h"], payoffs=["Qh", "Qd"])
    aces = [c for c in st.hands[0] if c % 13 == 0]
    for i, ace in enumerate(aces):
        targets = {m.center for m in st.legal_moves() if isinstance(m, PlayHand)}
        assert targets == {i}  # always exactly one free slot, at the end
        st.apply(PlayHand(ace, i))
    assert [len(c) for c in st.center] == [1, 1, 1, 1, 0]
    st.check_conservation()


def test_payoff_hand_side_sizes_and_decks() -> None:
    o = Options(num_decks=3, payoff_size=13, hand_size=7, num_side_stacks=2)
    st = State.new(o, 9)
    assert len(st.deck_order) == 156
    assert [len(p) for p in st.payoffs] == [13, 13]
    assert [len(h) for h in st.hands] == [7, 7]
    assert len(st.sides[0]) == 2
    assert len(st.stock) == 156 - 40


def test_max_turns_is_tie() -> None:
    o = Options(max_turns=3)
    st, _ = play_game(o, 1, [RandomAgent(), RandomAgent()])
    assert st.over
    assert st.winner is None
    assert st.turn <= 3


# --- moves, observations, conservation ----------------------------------------------------


def test_move_text_round_trip() -> None:
    for m in [PlayPayOff(2), PlaySide(3, 0), PlayHand(57, 1), Discard(103, 3), PlayHand(104, 0)]:
        assert parse_move(str(m), 2) == m
        assert parse_move(move_text(m, 2), 2) == m
    assert move_text(PlayHand(57, 1), 2) == "6c@1>C2"
    assert parse_move("Kc>S1", 2) == Discard(12, 0)
    for bad in ["", "P>S1", "S1>S2", "Q>C1", "7h>C0", "7h@5>C1", "7h>X1"]:
        with pytest.raises(IllegalMoveError):
            parse_move(bad, 2)


def test_observation_hides_hidden_cards() -> None:
    st = State.new(Options(num_players=3), 4)
    obs = st.observation(1)
    assert obs.hand == tuple(st.hands[1])
    assert obs.hand_sizes == (5, 5, 5)
    assert obs.payoff_tops == tuple(p[-1] for p in st.payoffs)
    assert obs.stock_count == len(st.stock)
    visible: set[int] = set(obs.hand) | {t for t in obs.payoff_tops if t is not None}
    for ss in obs.side_stacks:
        for s in ss:
            visible |= set(s)
    for c in obs.center:
        visible |= set(c)
    hidden = set(st.stock) | set(st.hands[0]) | set(st.hands[2])
    for p in st.payoffs:
        hidden |= set(p[:-1])
    assert not visible & hidden
    text = repr(obs)
    for field in ("stock=", "payoffs=", "hands="):
        assert field not in text
    assert not hasattr(obs, "stock")
    assert not hasattr(obs, "hands")


def test_conservation_random_games() -> None:
    """1,000 seeded random games (2-4 players), conservation checked after every move."""
    for seed in range(1000):
        players = 2 + seed % 3
        o = Options(num_players=players)
        st, _ = play_game(o, seed, [RandomAgent() for _ in range(players)], check_conservation=True)
        assert st.over


def test_every_legal_move_round_trips_through_text() -> None:
    for seed in range(30):
        o = Options(num_players=2 + seed % 3, wild_mode="jokers" if seed % 2 else "kings")
        st = State.new(o, seed)
        rng = Rng(seed)
        while not st.over:
            legal = st.legal_moves()
            assert legal
            assert len(set(legal)) == len(legal)
            for m in legal:
                assert parse_move(str(m), o.decks) == m
                assert parse_move(move_text(m, o.decks), o.decks) == m
                assert st.is_legal(m)
            st.apply(legal[rng.below(len(legal))])


def test_determinism_and_clone() -> None:
    req = GameRequest(
        index=3, seed=123, players=3, agents=("planner", "greedy", "random"), replay=True
    )
    spec = get_game("spite-malice")
    a, b = spec.play(req), spec.play(req)
    assert a == b
    st = State.new(Options(), 77)
    fresh = State.new(Options(), 77)
    c = st.clone()
    while not c.over:  # play the clone to the end; the original must not move
        c.apply(c.legal_moves()[-1])
    assert st.hands == fresh.hands
    assert st.sides == fresh.sides
    assert st.stock == fresh.stock
    assert st.rng.state == fresh.rng.state
    assert st.center == fresh.center
    assert fresh.deck_order == st.deck_order


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    players=st_.integers(2, 4),
    seed=st_.integers(0, 2**63),
    wild_mode=st_.sampled_from(["kings", "jokers"]),
    centres=st_.sampled_from([None, 0, 1, 2, 5]),
    hand_size=st_.integers(1, 8),
    sides=st_.integers(1, 5),
    payoff=st_.integers(1, 25),
    start=st_.booleans(),
    refill=st_.booleans(),
    completed=st_.sampled_from(["shuffle_into_stock", "set_aside"]),
    exhausted=st_.sampled_from(["tie_on_required_draw", "tie_immediately", "recycle_then_tie"]),
    side_rule=st_.sampled_from(["any", "same_or_one_lower", "no_aces"]),
    aces=st_.booleans(),
)
def test_random_option_combinations_conserve_cards(
    players: int,
    seed: int,
    wild_mode: str,
    centres: int | None,
    hand_size: int,
    sides: int,
    payoff: int,
    start: bool,
    refill: bool,
    completed: str,
    exhausted: str,
    side_rule: str,
    aces: bool,
) -> None:
    o = Options(
        num_players=players,
        wild_mode=wild_mode,
        num_center_stacks=centres,
        hand_size=hand_size,
        num_side_stacks=sides,
        payoff_size=payoff,
        king_can_start_stack=start,
        refill_empty_hand=refill,
        completed_stack=completed,
        stock_exhausted=exhausted,
        side_stack_rule=side_rule,
        must_play_aces=aces,
        max_turns=300,
    )
    planner = PlannerAgent()
    agents: list[PlannerAgent | GreedyAgent | RandomAgent] = [planner, GreedyAgent()]
    agents += [RandomAgent() for _ in range(players - 2)]
    st, log = play_game(o, seed, agents, replay=True, check_conservation=True)
    assert st.over
    assert planner.fallbacks == 0
    again = State.new(o, seed)  # the move log alone reproduces the game
    for seat, text in log:
        assert seat == again.current
        again.apply(parse_move(text, o.decks))
    assert again.over
    assert again.layout_digest() == st.layout_digest()
