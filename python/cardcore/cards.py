"""Card model and text notation (RULES §1).

A :class:`Card` is a face plus the deck it came from. Faces are small ints: naturals
``suit * 13 + (rank - 1)`` (suits ``c d h s``, ranks A=1 … K=13), jokers ``52 + (k - 1)`` for
``Xk``. Engines work on *physical ids* (``deck * 52 + face``; jokers after every natural) and
convert with :meth:`Card.id` / :meth:`Card.from_id` at the API edge.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from cardcore import _core
from cardcore.errors import OptionError

__all__ = [
    "JOKER0",
    "RANKS",
    "SUITS",
    "Card",
    "CardsLike",
    "deck_ids",
    "format_cards",
    "make_deck",
    "parse_card",
    "parse_cards",
]

RANKS: Final = "A23456789TJQK"
SUITS: Final = "cdhs"
JOKER0: Final = 52


Card = _core.Card
"""An immutable playing card: a face code (0..55) and a deck index (a Rust class).

``Card(face, deck=0)``, ``Card.of(rank, suit, deck=0)``, ``Card.joker(k)``,
``Card.from_id(card_id, num_decks)``, ``Card.parse(text)``; properties ``face``, ``deck``,
``is_joker``, ``rank`` (0 for jokers), ``suit`` (-1 for jokers), ``is_red``; ``id(num_decks)``
and ``full()``. Cards compare and hash by ``(face, deck)`` and sort in physical-id order: deck,
then suit, then rank, with jokers last. ``str()`` gives the face (``"7h"``), ``full()`` adds the
deck (``"7h@1"``). Cards pickle as ``cardcore.cards.Card(face, deck)``.
"""


CardsLike = str | Iterable[Card]


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
    """Physical ids of ``decks`` standard decks plus ``jokers`` jokers, in id order."""
    if decks < 0 or not 0 <= jokers <= 4 or decks + jokers == 0:
        raise OptionError(
            f"need decks >= 0, 0 <= jokers <= 4 and at least one card (got {decks}, {jokers})"
        )
    return range(52 * decks + jokers)


def make_deck(decks: int = 1, jokers: int = 0) -> list[Card]:
    """``decks`` standard 52-card decks plus ``jokers`` jokers, in physical-id order."""
    return _core.cards_from_ids(deck_ids(decks, jokers), decks)
