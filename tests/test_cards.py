"""The card model and text notation: parsing, formatting, ids, ordering."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardcore
from cardcore import _core
from cardcore.cards import (
    JOKER0,
    NATURALS,
    RANKS,
    SUITS,
    Card,
    deck_ids,
    deck_of,
    face_code,
    face_of,
    format_cards,
    id_text,
    is_joker,
    is_joker_id,
    is_red,
    make_deck,
    natural_face,
    natural_id,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from cardcore.errors import CardcoreError, CardParseError, OptionError

ALL_FACES = range(256)  # naturals, then jokers X1..X204
NATURAL_FACES = range(52)
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_OUTLINES = "♧♢♡♤"


def face_text(face: int) -> str:
    """Canonical text computed independently of the package."""
    if face >= 52:
        return f"X{face - 51}"
    return RANKS[face % 13] + SUITS[face // 13]


# --- round trips ---------------------------------------------------------------------------------


def test_canonical_text_of_every_face() -> None:
    texts = [str(Card(f, 0)) for f in ALL_FACES]
    assert texts == [face_text(f) for f in ALL_FACES]
    assert texts[:13] == [
        "Ac",
        "2c",
        "3c",
        "4c",
        "5c",
        "6c",
        "7c",
        "8c",
        "9c",
        "Tc",
        "Jc",
        "Qc",
        "Kc",
    ]
    assert texts[13:56:13] == ["Ad", "Ah", "As", "X1"]
    assert texts[52:56] == ["X1", "X2", "X3", "X4"]
    assert texts[-1] == "X204"
    assert len(set(texts)) == 256
    assert [_core.format_face(f) for f in ALL_FACES] == texts


@pytest.mark.parametrize("face", ALL_FACES)
def test_parse_format_round_trip(face: int) -> None:
    card = Card(face, 0)
    assert parse_card(str(card)) == card
    assert Card.parse(str(card)) == card
    assert parse_cards(str(card)) == [card]
    assert parse_card(card.full()) == card
    if not card.is_joker:
        for deck in [0, 1, 2, 3, 7, 65535]:
            c = Card(face, deck)
            assert c.full() == f"{card}@{deck}"
            assert parse_card(c.full()) == c
            assert str(c) == str(card)


@pytest.mark.parametrize("face", NATURAL_FACES)
def test_every_alias_form(face: int) -> None:
    rank_i, suit_i = face % 13, face // 13
    rank = RANKS[rank_i]
    ranks = {rank, rank.lower()} | ({"10"} if rank == "T" else set())
    suits = {SUITS[suit_i], SUITS[suit_i].upper(), SUIT_SYMBOLS[suit_i], SUIT_OUTLINES[suit_i]}
    for r in ranks:
        for s in suits:
            assert parse_card(r + s) == Card(face), r + s
            assert parse_card(f"{r}{s}@1") == Card(face, 1), r + s


def test_ten_forms() -> None:
    assert parse_cards("10h Th th 10H 10♥") == [Card.of(10, 2)] * 5
    assert str(parse_card("10d")) == "Td"
    assert parse_card("10s@2").full() == "Ts@2"


def test_upper_case_and_symbols() -> None:
    assert parse_cards("AS KD QH JC") == parse_cards("As Kd Qh Jc")
    assert parse_cards("A♠ K♦ Q♥ J♣") == parse_cards("As Kd Qh Jc")
    assert format_cards(parse_cards("A♠ K♦")) == "As Kd"
    assert parse_cards("x1 X2") == [Card.joker(1), Card.joker(2)]


def test_generic_jokers_take_the_lowest_free_index() -> None:
    assert format_cards(parse_cards("JK")) == "X1"
    assert format_cards(parse_cards("JK JK")) == "X1 X2"
    assert format_cards(parse_cards("X2 JK JK")) == "X2 X1 X3"
    assert format_cards(parse_cards("JK X1 JK")) == "X2 X1 X3"
    assert format_cards(parse_cards("jk 3h Jk X4 JK")) == "X1 3h X2 X4 X3"
    assert format_cards(parse_cards("JK JK JK JK")) == "X1 X2 X3 X4"
    # Numbering is per call: two separate texts both start at X1.
    assert parse_cards("JK") == parse_cards("JK")


def test_any_number_of_jokers() -> None:
    """Three decks of Spite & Malice hold X1..X6; faces go up to X204 (face 255)."""
    assert format_cards(parse_cards("JK JK JK JK JK JK")) == "X1 X2 X3 X4 X5 X6"
    assert [c.face for c in parse_cards("X5 X204")] == [56, 255]
    assert Card.from_id(156 + 5, 3) == Card.joker(6) == parse_card("X6")
    assert Card.joker(6).id(3) == 161
    assert [str(c) for c in make_deck(3, 6)[-6:]] == [f"X{k}" for k in range(1, 7)]
    with pytest.raises(CardParseError, match="too many jokers"):
        parse_cards(" ".join(["JK"] * 205))
    with pytest.raises(CardParseError, match="too many jokers"):
        parse_cards("X1 " + " ".join(["JK"] * 204))


def test_separators() -> None:
    expected = [Card.of(3, 2), Card.of(4, 2), Card.of(10, 1), Card.joker(1)]
    assert parse_cards("3h 4h 10d JK") == expected
    assert parse_cards("3h,4h,10d,JK") == expected
    assert parse_cards("  3h\t4h\n10d ,, JK  ") == expected
    assert parse_cards("") == []
    assert parse_cards("   ") == []


def test_deck_suffix_forms() -> None:
    assert parse_card("8h@1") == Card.of(8, 2, deck=1)
    assert parse_card("8h@007") == Card.of(8, 2, deck=7)
    assert parse_card("8h@0") == parse_card("8h")
    assert parse_card("8h@65535").deck == 65535


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 51), st.integers(0, 9)), max_size=30))
def test_full_text_round_trip_property(specs: list[tuple[int, int]]) -> None:
    cards = [Card(f, d) for f, d in specs]
    assert parse_cards(format_cards(cards, full=True)) == cards
    assert [c.face for c in parse_cards(format_cards(cards))] == [f for f, _ in specs]


# --- malformed tokens ---------------------------------------------------------------------------

BAD_TOKENS = [
    "1h",  # no rank 1
    "0h",
    "11h",
    "Zz",
    "7x",  # unknown suit
    "7",  # no suit
    "10",
    "h",  # no rank
    "♠",
    "77h",
    "A",
    "AhX",
    "X0",  # jokers are X1..X204
    "X205",
    "X01",
    "X+1",
    "XX1",
    "X1@0",  # jokers take no deck
    "JK@1",
    "JKK",
    "7h@",  # bad deck
    "7h@x",
    "7h@-1",
    "7h@+1",
    "7h@1.0",
    "7h@65536",
    "7h@1@2",
    "@1",
    "Ａh",  # full-width letter
    "🂡",
]


@pytest.mark.parametrize("token", BAD_TOKENS)
def test_malformed_token_rejected_with_its_name(token: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_cards(token)
    assert f'"{token}"' in str(info.value)
    assert "bad card token" in str(info.value)
    # Inside a list, the message names the bad token, not its neighbours.
    with pytest.raises(CardParseError) as info:
        parse_cards(f"3h {token} 4h")
    assert f'"{token}"' in str(info.value)
    assert '"3h"' not in str(info.value)
    assert '"4h"' not in str(info.value)


def test_messages_say_what_is_wrong() -> None:
    cases = {
        "7x": "unknown suit",
        "1h": "unknown rank",
        "X205": "jokers are X1..X204",
        "JK@0": "jokers take no '@deck'",
        "7h@+1": "deck after '@'",
    }
    for token, why in cases.items():
        with pytest.raises(CardParseError, match=f".*{why.replace('.', '[.]')}"):
            parse_card(token)


def test_parse_error_classes() -> None:
    with pytest.raises(CardParseError) as info:
        parse_cards("7q")
    err = info.value
    assert isinstance(err, ValueError)
    assert isinstance(err, CardcoreError)
    assert type(err) is cardcore.CardParseError
    # The Rust extension raises the very same Python class.
    with pytest.raises(CardParseError):
        _core.parse_cards("7q")


def test_parse_card_wants_exactly_one() -> None:
    with pytest.raises(CardParseError, match="expected one card, got 2"):
        parse_card("7h 8h")
    with pytest.raises(CardParseError, match="expected one card, got 0"):
        parse_card("  ")


def test_parse_cards_accepts_cards() -> None:
    cards = make_deck(1)[:5]
    assert parse_cards(cards) == cards
    assert parse_cards(iter(cards)) == cards
    with pytest.raises(CardParseError, match="not a card: '7h'"):
        parse_cards(["7h"])  # type: ignore[list-item]


# --- the Card value type ------------------------------------------------------------------------


def test_card_is_immutable() -> None:
    c = Card.of(7, 2)
    with pytest.raises(AttributeError):
        c._face = 3  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        c.deck = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        c.other = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        del c._face  # type: ignore[attr-defined]
    assert c == Card.of(7, 2)
    assert not hasattr(c, "__dict__")


def test_card_hash_and_equality() -> None:
    a, b = Card(10, 1), Card(10, 1)
    assert a == b
    assert a is not b
    assert hash(a) == hash(b)
    assert len({a, b, Card(10, 0), Card(10, 2)}) == 3
    assert {a: 1}[b] == 1
    assert Card(10, 0) != Card(10, 1)
    assert Card(10) != "Jc"
    assert Card(10) != 10
    deck = make_deck(3, 4)
    assert len(set(deck)) == len(deck) == 160


def test_card_ordering_is_id_order() -> None:
    for decks in range(1, 5):
        for jokers in range(5):
            deck = make_deck(decks, jokers)
            shuffled = cardcore.shuffle(deck, seed=decks * 10 + jokers)
            assert sorted(shuffled) == deck
            assert sorted(shuffled, key=lambda c: c.id(decks)) == deck
            assert [c.id(decks) for c in deck] == list(range(52 * decks + jokers))


def test_card_comparisons() -> None:
    two_c, ace_d, ks1, x1 = Card.parse("2c"), Card.parse("Ad"), Card.parse("Ks@1"), Card.joker(1)
    assert two_c < ace_d < ks1 < x1
    assert x1 > ks1 >= ks1 > ace_d
    assert two_c <= two_c
    assert not two_c < two_c
    assert max([two_c, x1, ace_d]) is x1
    with pytest.raises(TypeError):
        _ = two_c < 3  # type: ignore[operator]


def test_card_properties() -> None:
    for face in ALL_FACES:
        c = Card(face, 0)
        assert c.face == face
        assert c.deck == 0
        assert c.is_joker == (face >= JOKER0)
        if c.is_joker:
            assert (c.rank, c.suit, c.is_red) == (0, -1, False)
        else:
            assert c.rank == face % 13 + 1
            assert c.suit == face // 13
            assert c.is_red == (str(c)[1] in "dh")
            assert Card.of(c.rank, c.suit) == c


def test_a_lone_int_past_the_naturals_is_refused() -> None:
    """``Card(70)`` read a face code and gave X19; 70 is far more likely a card id."""
    with pytest.raises(CardParseError, match=r"Card\.from_id\(70, num_decks\).*Card\.joker\(19\)"):
        Card(70)
    with pytest.raises(CardParseError, match=r"Card\.joker\(1\)"):
        Card(JOKER0)
    assert Card(51) == Card.parse("Ks")
    assert Card(70, 0) == Card.joker(19)  # the pickled form keeps its deck
    assert Card.from_id(70, 2) == Card.parse("6d@1")


def test_card_constructors_validate() -> None:
    with pytest.raises(CardParseError, match="out of range"):
        Card(256)
    with pytest.raises(CardParseError, match="out of range"):
        Card(-1)
    with pytest.raises(CardParseError, match="bad deck"):
        Card(5, -1)
    with pytest.raises(CardParseError, match="bad deck"):
        Card(JOKER0, 1)
    with pytest.raises(CardParseError):
        Card.of(0, 1)
    with pytest.raises(CardParseError):
        Card.of(14, 1)
    with pytest.raises(CardParseError):
        Card.of(1, 4)
    with pytest.raises(CardParseError, match=r"X1\.\.X204"):
        Card.joker(205)
    with pytest.raises(TypeError):
        Card(True)
    with pytest.raises(TypeError):
        Card(1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Card(1, 1.0)  # type: ignore[arg-type]


def test_card_repr_and_copies() -> None:
    c, d, x = Card.parse("7h"), Card.parse("7h@1"), Card.parse("X3")
    assert repr(c) == "Card('7h')"
    assert repr(d) == "Card('7h@1')"
    assert repr(x) == "Card('X3')"
    for card in (c, d, x):
        assert pickle.loads(pickle.dumps(card)) == card
        assert copy.copy(card) == card
        assert copy.deepcopy(card) == card


# --- physical ids -------------------------------------------------------------------------------


@pytest.mark.parametrize("decks", [1, 2, 3, 4])
def test_id_round_trip(decks: int) -> None:
    for jokers in range(5):
        n = 52 * decks + jokers
        cards = [Card.from_id(i, decks) for i in range(n)]
        assert [c.id(decks) for c in cards] == list(range(n))
        assert len(set(cards)) == n
        assert cards == make_deck(decks, jokers)
        assert list(deck_ids(decks, jokers)) == list(range(n))
    # jokers come after every natural.
    assert Card.parse("X2").id(decks) == 52 * decks + 1
    assert Card.from_id(52 * decks + 3, decks) == Card.joker(4)


def test_ids_from_rules() -> None:
    # id = deck*52 + suit*13 + rank-1.
    assert Card.parse("7h@1").id(2) == 84
    assert Card.parse("Ac").id(1) == 0
    assert Card.parse("Ks@3").id(4) == 207
    assert Card.from_id(84, 2).full() == "7h@1"
    assert Card.from_id(104, 2) == Card.joker(1)
    assert Card.from_id(0, 0) == Card.joker(1)  # a jokers-only game


def test_id_validation() -> None:
    with pytest.raises(CardParseError, match="7h@2 is not in a game of 2 deck"):
        Card.parse("7h@2").id(2)
    with pytest.raises(CardParseError, match="out of range"):
        Card.from_id(104 + 204, 2)
    with pytest.raises(CardParseError, match="out of range"):
        Card.from_id(-1, 2)
    with pytest.raises(CardParseError, match="out of range"):
        Card.from_id(0, -1)


def test_make_deck_and_deck_ids() -> None:
    assert len(make_deck()) == 52
    assert len(make_deck(2, 2)) == 106
    assert format_cards(make_deck(0, 2)) == "X1 X2"
    assert make_deck(1)[0] == Card.parse("Ac")
    assert make_deck(1)[-1] == Card.parse("Ks")
    assert make_deck(2)[52] == Card.parse("Ac@1")
    for decks, jokers in [(-1, 0), (1, 205), (1, -1), (0, 0)]:
        with pytest.raises(OptionError, match="at least one card"):
            make_deck(decks, jokers)
        with pytest.raises(ValueError, match="at least one card"):
            deck_ids(decks, jokers)


def test_format_cards() -> None:
    cards = parse_cards("X2 Kd@1 3h 10c")
    assert format_cards(cards) == "X2 Kd 3h Tc"
    assert format_cards(cards, full=True) == "X2 Kd@1 3h@0 Tc@0"
    assert format_cards(cards, sort=True) == "Tc 3h Kd X2"
    assert format_cards(cards, sort=True, full=True) == "Tc@0 3h@0 Kd@1 X2"
    assert format_cards([]) == ""
    assert format_cards(iter(cards)) == "X2 Kd 3h Tc"


def test_core_format_face_validation() -> None:
    with pytest.raises(ValueError, match=r"face code must be an int in 0\.\.255, got 256"):
        _core.format_face(256)
    with pytest.raises(OverflowError, match=r"0\.\.255, got -1"):
        _core.format_face(-1)


# --- the Rust class ------------------------------------------------------------------------------

# Pickles written by cardcore 0.2.0, when Card was a Python class: [7h@1, X3, Ac].
OLD_PICKLES = [
    b"\x80\x02]q\x00(ccardcore.cards\nCard\nq\x01K K\x01\x86q\x02Rq\x03h\x01K6K\x00\x86q\x04Rq"
    b"\x05h\x01K\x00K\x00\x86q\x06Rq\x07e.",
    b"\x80\x04\x95;\x00\x00\x00\x00\x00\x00\x00]\x94(\x8c\x0ecardcore.cards\x94\x8c\x04Card\x94"
    b"\x93\x94K K\x01\x86\x94R\x94h\x03K6K\x00\x86\x94R\x94h\x03K\x00K\x00\x86\x94R\x94e.",
]


@pytest.mark.parametrize("data", OLD_PICKLES)
def test_pickles_of_the_python_card_still_load(data: bytes) -> None:
    assert pickle.loads(data) == parse_cards("7h@1 X3 Ac")


def test_card_is_the_rust_class_under_its_public_name() -> None:
    assert Card is _core.Card
    assert (Card.__module__, Card.__qualname__) == ("cardcore.cards", "Card")
    assert pickle.loads(pickle.dumps(Card(5, 2), protocol=2)) == Card(5, 2)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 55), st.integers(0, 3)), max_size=20))
def test_rust_helpers_agree_with_the_card_methods(specs: list[tuple[int, int]]) -> None:
    cards = [Card(f, 0 if f >= JOKER0 else d) for f, d in specs]
    assert _core.card_faces(cards) == bytes(c.face for c in cards)
    assert _core.card_faces(tuple(cards)) == _core.card_faces(iter(cards))
    assert format_cards(cards) == " ".join(str(c) for c in cards)
    assert format_cards(cards, full=True, sort=True) == " ".join(c.full() for c in sorted(cards))
    ids = [c.id(4) for c in cards]
    assert _core.cards_from_ids(ids, 4) == cards
    assert sorted(cards) == [Card.from_id(i, 4) for i in sorted(ids)]


def test_card_lists_reject_other_items() -> None:
    for bad in (["7h"], (Card(1), 3), iter([None])):
        with pytest.raises(CardParseError, match="not a card"):
            _core.card_faces(bad)  # type: ignore[arg-type]
    with pytest.raises(CardParseError, match="out of range"):
        _core.cards_from_ids([52 + 204], 1)


# --- arithmetic on physical ids ----------------------------------------------------------------


@pytest.mark.parametrize(("decks", "jokers"), [(1, 0), (2, 4), (3, 4), (6, 0)])
def test_id_arithmetic_matches_card(decks: int, jokers: int) -> None:
    """rank_of / suit_of / is_red / face_of / id_text and the other helpers of cardcore.cards
    agree with the Rust Card on every id."""
    for cid in deck_ids(decks, jokers):
        card = Card.from_id(cid, decks)
        assert face_of(cid, decks) == card.face
        assert id_text(cid, decks) == card.full()
        assert is_joker_id(cid, decks) == is_joker(card.face) == card.is_joker
        assert card.id(decks) == cid
        if not card.is_joker:
            assert (rank_of(cid), suit_of(cid), is_red(cid)) == (card.rank, card.suit, card.is_red)
            assert (rank_of(card.face), suit_of(card.face)) == (card.rank, card.suit)
            assert id_text(cid) == card.full()
            assert (natural_face(cid), deck_of(cid)) == (card.face, card.deck)
            assert natural_id(card.face, card.deck) == cid
            assert (
                face_code(card.rank, card.suit) == card.face == Card.of(card.rank, card.suit).face
            )
    assert NATURALS == JOKER0 == len(deck_ids(1))


def test_face_of_and_id_text_take_any_number_of_jokers() -> None:
    """Three decks with two jokers each (Spite & Malice) reach X6."""
    assert [face_of(156 + k, 3) for k in range(6)] == list(range(JOKER0, JOKER0 + 6))
    assert [id_text(156 + k, 3) for k in range(6)] == [f"X{k}" for k in range(1, 7)]


def test_meld_solver_names_a_joker_it_does_not_take() -> None:
    """X5 and up are cards (3-deck Spite & Malice) but not Three-Thirteen cards: the solver
    says so by name rather than calling face 56 out of range."""
    from cardcore.three_thirteen.melds import min_deadwood

    with pytest.raises(CardParseError, match=r"^X5 \(face code 56\) is not a Three-Thirteen"):
        min_deadwood("X5 7h", 5)
    with pytest.raises(CardParseError, match=r"jokers X1\.\.X4$"):
        min_deadwood([Card.joker(6)], 5)
