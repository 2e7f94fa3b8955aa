"""Card model and text notation (`docs/cards.md`).

A :class:`Card` is a face plus the deck it came from. Faces are small ints: naturals
``suit * 13 + (rank - 1)`` (suits ``c d h s``, ranks A=1 … K=13), jokers ``52 + (k - 1)`` for
``Xk``. Engines work on *physical ids* (``deck * 52 + face``; jokers after every natural) and
convert with :meth:`Card.id` / :meth:`Card.from_id` at the API edge.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Final

from cardcore import _core
from cardcore.errors import ArgumentRangeError, ArgumentTypeError, OptionError

__all__ = [
    "JOKER0",
    "MAX_JOKER",
    "NATURALS",
    "RANKS",
    "SUITS",
    "Card",
    "CardsLike",
    "as_int",
    "deck_ids",
    "deck_of",
    "face_code",
    "face_of",
    "format_cards",
    "id_text",
    "is_joker",
    "is_joker_id",
    "is_red",
    "make_deck",
    "natural_face",
    "natural_id",
    "parse_card",
    "parse_cards",
    "rank_of",
    "suit_of",
]

RANKS: Final = "A23456789TJQK"
SUITS: Final = "cdhs"
NATURALS: Final[int] = _core.NATURALS
"""Natural cards in a deck (faces ``0..51``); physical ids of ``d`` decks start their jokers at
``NATURALS * d``."""
JOKER0: Final[int] = _core.JOKER0
"""Face of joker ``X1``; joker ``Xk`` is face ``JOKER0 + k - 1``."""
MAX_JOKER: Final[int] = _core.MAX_JOKER
"""Highest joker number (``X204`` is face 255): cards, ids and card text take any joker up to
it (3-deck Spite & Malice has ``X1..X6``)."""
_MAX_DECKS: Final = 65_535  # decks per game that card ids and shuffles handle


Card = _core.Card
"""An immutable playing card: a face code (0..255) and a deck index (a Rust class).

``Card(face, deck=0)`` (a natural face 0..51; ``Card(70)`` is refused, as a lone int past the
naturals is usually a physical card id: ``Card.from_id``), ``Card.of(rank, suit, deck=0)``,
``Card.joker(k)``,
``Card.from_id(card_id, num_decks)``, ``Card.parse(text)``; properties ``face``, ``deck``,
``is_joker``, ``rank`` (0 for jokers), ``suit`` (-1 for jokers), ``is_red``; ``id(num_decks)``
and ``full()``. Cards compare and hash by ``(face, deck)`` and sort in physical-id order: deck,
then suit, then rank, with jokers last. ``str()`` gives the face (``"7h"``), ``full()`` adds the
deck (``"7h@1"``). Cards pickle as ``cardcore.cards.Card(face, deck)``.
"""


CardsLike = str | Iterable[Card]


# --- arithmetic on faces and physical ids (the Python twin of rust/cardcore-engine/src/card.rs)
# A natural's rank, suit and colour read the same from its face or any physical id, because
# ``id = deck * 52 + face``; engines call these instead of writing ``% 13 + 1`` inline.


def rank_of(card: int) -> int:
    """Rank 1..13 (A..K) of a natural card, by face or physical id."""
    return card % 13 + 1


def suit_of(card: int) -> int:
    """Suit 0..3 (``c d h s``) of a natural card, by face or physical id."""
    return card % 52 // 13


def is_red(card: int) -> bool:
    """Whether a natural card (face or physical id) is a diamond or a heart."""
    return card % 52 // 13 in (1, 2)


def face_code(rank: int, suit: int) -> int:
    """Face of a natural of ``rank`` 1..13 and ``suit`` 0..3: ``suit * 13 + rank - 1``."""
    return suit * 13 + rank - 1


def is_joker(face: int) -> bool:
    """Whether a face code is a joker (``JOKER0`` and up)."""
    return face >= JOKER0


def natural_face(card_id: int) -> int:
    """Face 0..51 of a natural card's physical id (in a game without jokers, of any id)."""
    return card_id % 52


def deck_of(card_id: int) -> int:
    """Deck of a natural card's physical id (in Nerts the seat that owns the card)."""
    return card_id // 52


def natural_id(face: int, deck: int) -> int:
    """Physical id of copy ``deck`` of the natural ``face``: ``deck * 52 + face``."""
    return deck * 52 + face


def is_joker_id(card_id: int, num_decks: int) -> bool:
    """Whether a physical id is a joker in a game of ``num_decks`` decks (jokers follow every
    natural)."""
    return card_id >= NATURALS * num_decks


def face_of(card_id: int, num_decks: int) -> int:
    """Face code of a physical id in a game of ``num_decks`` decks: ``0..51`` for naturals,
    ``52 + k - 1`` for joker ``Xk`` (any number of jokers)."""
    naturals = NATURALS * num_decks
    return card_id % 52 if card_id < naturals else JOKER0 + card_id - naturals


def id_text(card_id: int, num_decks: int | None = None) -> str:
    """``"7h@1"`` (face and deck) for a natural, ``"X3"`` for a joker, by physical id; with
    ``num_decks=None`` the game has no jokers."""
    card_id = _card_id(card_id, num_decks)
    if num_decks is not None and is_joker_id(card_id, num_decks):
        return f"X{card_id - NATURALS * num_decks + 1}"
    return f"{RANKS[rank_of(card_id) - 1]}{SUITS[suit_of(card_id)]}@{deck_of(card_id)}"


def as_int(x: object) -> int | None:
    """``x`` as a plain int when it is an integer (``int``, ``numpy.int64``, any
    ``numbers.Integral``; a bool is not), else None: seats, seeds and ids from numpy code."""
    if type(x) is int:
        return x
    if isinstance(x, bool) or not isinstance(x, numbers.Integral):
        return None
    return int(x)


def _card_id(card_id: object, num_decks: int | None) -> int:
    """``card_id`` as an int (numpy integers too) if it can be a physical id of a game of
    ``num_decks`` decks (any number of jokers up to ``MAX_JOKER``; ``None``: no jokers, any
    decks), else :class:`ArgumentTypeError` / :class:`ArgumentRangeError`."""
    n = as_int(card_id)
    if n is None:
        raise ArgumentTypeError(f"a card id is an int, not {card_id!r}")
    decks = _MAX_DECKS if num_decks is None else num_decks
    top = NATURALS * decks + (0 if num_decks is None else MAX_JOKER)
    if not 0 <= n < top:
        raise ArgumentRangeError(f"no card id {n} (0..{top - 1})")
    return n


def parse_card(text: str) -> Card:
    """One card from text; see :meth:`Card.parse`."""
    return Card.parse(text)


def parse_cards(text: CardsLike) -> list[Card]:
    """Cards from text such as ``"3h 4h 10d JK"`` (or an iterable of cards, returned as a list).

    Tokens are separated by spaces or commas; ``JK`` becomes the lowest joker not named
    elsewhere in the text. Raises :class:`~cardcore.errors.CardParseError` naming a bad token
    (or an item that is not a card). Parsed in Rust.
    """
    return _core.parse_cards(text)


def format_cards(cards: Iterable[Card], *, full: bool = False, sort: bool = False) -> str:
    """Space-separated text of ``cards`` (bottom to top for piles); ``full`` adds decks."""
    return _core.format_cards(cards, full=full, sort=sort)


def deck_ids(decks: int = 1, jokers: int = 0) -> range:
    """Physical ids of ``decks`` (at most 65,535) standard decks plus ``jokers`` jokers, in
    id order."""
    for name, value in (("decks", decks), ("jokers", jokers)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ArgumentTypeError(f"{name} must be an int, not {type(value).__name__}")
    if not 0 <= decks <= _MAX_DECKS or not 0 <= jokers <= MAX_JOKER or decks + jokers == 0:
        raise OptionError(
            f"need 0 <= decks <= {_MAX_DECKS}, 0 <= jokers <= {MAX_JOKER} and at least one card "
            f"(got {decks}, {jokers})"
        )
    return range(52 * decks + jokers)


def make_deck(decks: int = 1, jokers: int = 0) -> list[Card]:
    """``decks`` standard 52-card decks plus ``jokers`` jokers, in physical-id order."""
    return _core.cards_from_ids(deck_ids(decks, jokers), decks)
