"""Card model and text notation (RULES §1).

A :class:`Card` is a face plus the deck it came from. Faces are small ints: naturals
``suit * 13 + (rank - 1)`` (suits ``c d h s``, ranks A=1 … K=13), jokers ``52 + (k - 1)`` for
``Xk``. Engines work on *physical ids* (``deck * 52 + face``; jokers after every natural) and
convert with :meth:`Card.id` / :meth:`Card.from_id` at the API edge.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import total_ordering
from typing import Final

from cardcore import _core
from cardcore.errors import CardParseError, OptionError

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
_FACES: Final = (*(r + s for s in SUITS for r in RANKS), "X1", "X2", "X3", "X4")


@total_ordering
class Card:
    """An immutable playing card: a face code (0..55) and a deck index.

    Cards compare and hash by ``(face, deck)`` and sort in physical-id order: deck, then suit,
    then rank, with jokers last. ``str()`` gives the face (``"7h"``); :meth:`full` adds the deck.
    """

    __slots__ = ("_deck", "_face")
    _face: int
    _deck: int

    def __init__(self, face: int, deck: int = 0) -> None:
        if not (_is_int(face) and _is_int(deck)):
            raise TypeError(f"face and deck must be ints, got {face!r} and {deck!r}")
        if not 0 <= face < 56:
            raise CardParseError(f"face code {face} out of range 0..55")
        if deck < 0 or (face >= JOKER0 and deck != 0):
            raise CardParseError(f"bad deck {deck} for {_FACES[face]}")
        object.__setattr__(self, "_face", face)
        object.__setattr__(self, "_deck", deck)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    @classmethod
    def of(cls, rank: int, suit: int, deck: int = 0) -> Card:
        """The card of ``rank`` (1..13) and ``suit`` (0..3)."""
        if not (1 <= rank <= 13 and 0 <= suit <= 3):
            raise CardParseError(f"no card with rank {rank} and suit {suit}")
        return cls(suit * 13 + rank - 1, deck)

    @classmethod
    def joker(cls, k: int) -> Card:
        """Joker ``Xk`` (k = 1..4)."""
        if not 1 <= k <= 4:
            raise CardParseError(f"jokers are X1..X4, not X{k}")
        return cls(JOKER0 + k - 1)

    @classmethod
    def from_id(cls, card_id: int, num_decks: int) -> Card:
        """The card with physical id ``card_id`` in a game of ``num_decks`` decks."""
        if not (_is_int(card_id) and _is_int(num_decks)):
            raise TypeError(f"card id and num_decks must be ints, got {card_id!r}, {num_decks!r}")
        naturals = 52 * num_decks
        if num_decks < 0 or not 0 <= card_id < naturals + 4:
            raise CardParseError(
                f"card id {card_id} out of range 0..{naturals + 3} for {num_decks} deck(s)"
            )
        if card_id >= naturals:
            return cls(JOKER0 + card_id - naturals)
        return cls(card_id % 52, card_id // 52)

    @classmethod
    def parse(cls, text: str) -> Card:
        """One card from text such as ``"7h"``, ``"10d"``, ``"Q♠"``, ``"8h@1"`` or ``"X2"``."""
        cards = parse_cards(text)
        if len(cards) != 1:
            raise CardParseError(f"expected one card, got {len(cards)} in {text!r}")
        return cards[0]

    @property
    def face(self) -> int:
        return self._face

    @property
    def deck(self) -> int:
        return self._deck

    @property
    def is_joker(self) -> bool:
        return self._face >= JOKER0

    @property
    def rank(self) -> int:
        """1..13; 0 for a joker."""
        return 0 if self.is_joker else self._face % 13 + 1

    @property
    def suit(self) -> int:
        """0..3 (c d h s); -1 for a joker."""
        return -1 if self.is_joker else self._face // 13

    @property
    def is_red(self) -> bool:
        return self.suit in (1, 2)

    def id(self, num_decks: int) -> int:
        """Physical id in a game of ``num_decks`` decks (the card's deck must be below it)."""
        if not self.is_joker and self._deck >= num_decks:
            raise CardParseError(f"{self.full()} is not in a game of {num_decks} deck(s)")
        if self.is_joker:
            return 52 * num_decks + self._face - JOKER0
        return 52 * self._deck + self._face

    def full(self) -> str:
        """Text with the deck: ``"7h@1"`` (jokers need no suffix)."""
        return str(self) if self.is_joker else f"{self}@{self._deck}"

    def _key(self) -> tuple[bool, int, int]:
        return (self.is_joker, self._deck, self._face)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._face == other._face and self._deck == other._deck

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash((self._face, self._deck))

    def __str__(self) -> str:
        return _FACES[self._face]

    def __repr__(self) -> str:
        return f"Card({self.full()!r})" if self._deck else f"Card({str(self)!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int, int]]:
        return (Card, (self._face, self._deck))


CardsLike = str | Iterable[Card]


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def parse_card(text: str) -> Card:
    """One card from text; see :meth:`Card.parse`."""
    return Card.parse(text)


def parse_cards(text: CardsLike) -> list[Card]:
    """Cards from text such as ``"3h 4h 10d JK"`` (or an iterable of cards, returned as a list).

    Tokens are separated by spaces or commas; ``JK`` becomes the lowest joker not named
    elsewhere in the text. Raises :class:`~cardcore.errors.CardParseError` naming a bad token.
    """
    if not isinstance(text, str):
        cards = list(text)
        for c in cards:
            if not isinstance(c, Card):
                raise CardParseError(f"not a card: {c!r}")
        return cards
    return [Card(face, deck or 0) for face, deck in _core.parse_cards(text)]


def format_cards(cards: Iterable[Card], *, full: bool = False, sort: bool = False) -> str:
    """Space-separated text of ``cards`` (bottom to top for piles); ``full`` adds decks."""
    seq = sorted(cards) if sort else cards
    return " ".join(c.full() if full else str(c) for c in seq)


def deck_ids(decks: int = 1, jokers: int = 0) -> range:
    """Physical ids of ``decks`` standard decks plus ``jokers`` jokers, in id order."""
    if decks < 0 or not 0 <= jokers <= 4 or decks + jokers == 0:
        raise OptionError(
            f"need decks >= 0, 0 <= jokers <= 4 and at least one card (got {decks}, {jokers})"
        )
    return range(52 * decks + jokers)


def make_deck(decks: int = 1, jokers: int = 0) -> list[Card]:
    """``decks`` standard 52-card decks plus ``jokers`` jokers, in physical-id order."""
    return [Card.from_id(i, decks) for i in deck_ids(decks, jokers)]
