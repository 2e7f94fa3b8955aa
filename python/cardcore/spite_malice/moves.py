"""Spite & Malice cards and moves in text: building values (:func:`card_rank`), card
notation (:func:`card_text`, :func:`parse_card_id`) and the typed moves with their notation
(:func:`move_text`, :func:`parse_move`).

Cards are physical ids (ints, ``deck * 52 + suit * 13 + rank - 1``; jokers after every
natural, ``num_decks * 52 + k - 1`` for ``Xk``).
"""

from __future__ import annotations

from dataclasses import dataclass

from cardcore.cards import NATURALS, id_text, is_joker_id, parse_card, rank_of
from cardcore.errors import CardParseError, IllegalMoveError
from cardcore.spite_malice.options import KINGS

__all__ = [
    "Discard",
    "Move",
    "PlayHand",
    "PlayPayOff",
    "PlaySide",
    "card_rank",
    "card_text",
    "move_text",
    "parse_card_id",
    "parse_move",
]


def card_rank(card_id: int, num_decks: int, wild_mode: str = KINGS) -> int:
    """Building value of a card: 0 for a wild card, else 1..12 (kings mode) or 1..13."""
    if is_joker_id(card_id, num_decks):
        return 0
    r = rank_of(card_id)
    return 0 if r == 13 and wild_mode == KINGS else r


def card_text(card_id: int, num_decks: int) -> str:
    """``"7h@1"`` for naturals, ``"X3"`` for jokers (``X5`` and up exist with 3+ decks)."""
    return id_text(card_id, num_decks)


def parse_card_id(text: str, num_decks: int, total: int | None = None) -> int:
    """Physical id of a card written as by :func:`card_text` (``"7h"`` means deck 0; jokers
    ``X1``, ``X2``, ... up to ``total`` cards, else up to 16 jokers)."""
    t = text.strip()
    card = parse_card(t)
    if card.deck >= num_decks:
        raise CardParseError(f"no deck {card.deck} in a {num_decks}-deck game: {t}")
    cid = card.id(num_decks)
    if card.is_joker and cid >= (NATURALS * num_decks + 16 if total is None else total):
        raise CardParseError(f"no joker {t} in this game")
    return cid


@dataclass(frozen=True, slots=True)
class PlayPayOff:
    """Play the own pay-off top to centre slot ``center`` (0-based; text ``P>C1``)."""

    center: int

    def __str__(self) -> str:
        return f"P>C{self.center + 1}"


@dataclass(frozen=True, slots=True)
class PlaySide:
    """Play the top of own side stack ``side`` to centre slot ``center`` (``S2>C1``)."""

    side: int
    center: int

    def __str__(self) -> str:
        return f"S{self.side + 1}>C{self.center + 1}"


@dataclass(frozen=True, slots=True)
class PlayHand:
    """Play hand card ``card_id`` to centre slot ``center`` (``#57>C1``; see :func:`move_text`)."""

    card_id: int
    center: int

    def __str__(self) -> str:
        return f"#{self.card_id}>C{self.center + 1}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Put hand card ``card_id`` on own side stack ``side``; ends the turn (``#57>S3``)."""

    card_id: int
    side: int

    def __str__(self) -> str:
        return f"#{self.card_id}>S{self.side + 1}"


Move = PlayPayOff | PlaySide | PlayHand | Discard


def move_text(move: Move, num_decks: int) -> str:
    """Readable notation with card faces: ``"7h@1>C2"``, ``"Ks@0>S1"``, ``"P>C1"``, ``"S2>C3"``."""
    if isinstance(move, PlayHand):
        return f"{card_text(move.card_id, num_decks)}>C{move.center + 1}"
    if isinstance(move, Discard):
        return f"{card_text(move.card_id, num_decks)}>S{move.side + 1}"
    return str(move)


def parse_move(text: str, num_decks: int = 2) -> Move:
    """Parses ``str(move)`` or :func:`move_text` notation.

    ``P>C1``, ``S2>C1``, ``<card>>C1`` and ``<card>>S1``, where ``<card>`` is ``#id`` or a card
    as written by :func:`card_text`. Indices in text are 1-based.
    """
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move text is a str, not {text!r}")
    src, sep, dst = text.strip().partition(">")
    if not sep or len(dst) < 2 or dst[0] not in "CcSs" or not dst[1:].isdigit():
        raise IllegalMoveError(f"cannot parse move {text!r}")
    target = int(dst[1:]) - 1
    if target < 0:
        raise IllegalMoveError(f"indices are 1-based: {text!r}")
    to_centre = dst[0] in "Cc"
    s = src.strip()
    if s in ("P", "p"):
        if not to_centre:
            raise IllegalMoveError("the pay-off card only goes to a centre stack")
        return PlayPayOff(target)
    if len(s) >= 2 and s[0] in "Ss" and s[1:].isdigit():
        if not to_centre:
            raise IllegalMoveError("side stack cards only go to a centre stack")
        return PlaySide(int(s[1:]) - 1, target)
    if s.startswith("#") and s[1:].isdigit():
        cid = int(s[1:])
    else:
        try:
            cid = parse_card_id(s, num_decks)
        except CardParseError as e:
            raise IllegalMoveError(f"cannot parse move {text!r}: {e}") from None
    return PlayHand(cid, target) if to_centre else Discard(cid, target)
