"""Three-Thirteen moves and card values (`cardcore rules three-thirteen`): the typed moves, their
notation and replay codes, action ids, face tables and the deadwood value of a card."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from cardcore import _core
from cardcore.cards import JOKER0, NATURALS, Card, face_of, is_joker, rank_of
from cardcore.errors import IllegalMoveError
from cardcore.three_thirteen.melds import MeldRules

__all__ = [
    "ACTION_DISCARD",
    "ACTION_DRAW_DISCARD",
    "ACTION_DRAW_STOCK",
    "DRAW_DISCARD",
    "DRAW_STOCK",
    "Discard",
    "DrawDiscard",
    "DrawStock",
    "Move",
    "action_table",
    "card_points",
    "discard_move",
    "face_table",
    "move_code",
    "move_from_code",
    "parse_move",
]


# --- moves -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Take the top card of the face-down stock."""

    def __str__(self) -> str:
        return "draw-stock"


@dataclass(frozen=True, slots=True)
class DrawDiscard:
    """Take the top card of the discard pile."""

    def __str__(self) -> str:
        return "draw-discard"


@dataclass(frozen=True, slots=True)
class Discard:
    """Put the card with physical id ``card_id`` from the hand on the discard pile."""

    card_id: int

    def __str__(self) -> str:
        return f"discard:{self.card_id}"

    def text(self, num_decks: int = 2) -> str:
        """Readable form with the card, e.g. ``"discard 7h@1"``."""
        return f"discard {Card.from_id(self.card_id, num_decks).full()}"


Move = DrawStock | DrawDiscard | Discard
_MOVE_TYPES: Final = (DrawStock, DrawDiscard, Discard)
DRAW_STOCK: Final = DrawStock()
DRAW_DISCARD: Final = DrawDiscard()
_DISCARDS: Final = tuple(Discard(i) for i in range(256))


def discard_move(card_id: int) -> Discard:
    """The (shared) ``Discard`` move of ``card_id``."""
    return _DISCARDS[card_id] if 0 <= card_id < 256 else Discard(card_id)


def parse_move(text: str, num_decks: int = 2) -> Move:
    """Reads ``str(move)`` forms and ``"discard 7h@1"`` / ``"discard X1"``."""
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move text is a str, not {text!r}")
    t = text.strip()
    low = t.lower()
    if low in ("draw-stock", "drawstock", "stock"):
        return DRAW_STOCK
    if low in ("draw-discard", "drawdiscard", "pile"):
        return DRAW_DISCARD
    if low.startswith("discard:"):
        try:
            return discard_move(int(t[8:]))
        except ValueError:
            raise IllegalMoveError(f"bad move text {text!r}") from None
    if low.startswith("discard "):
        card = Card.parse(t[8:].strip())
        return discard_move(card.id(num_decks))
    raise IllegalMoveError(f"bad move text {text!r}")


def move_code(move: Move) -> int:
    """Compact replay code: -1 DrawStock, -2 DrawDiscard, the card id for a Discard."""
    if type(move) is Discard:
        return move.card_id
    return -1 if type(move) is DrawStock else -2


def move_from_code(code: int) -> Move:
    """Inverse of :func:`move_code`."""
    if code == -1:
        return DRAW_STOCK
    if code == -2:
        return DRAW_DISCARD
    if code < 0:
        raise IllegalMoveError(f"bad move code {code}")
    return discard_move(code)


# --- cards and points ------------------------------------------------------------------------


@lru_cache(maxsize=64)
def face_table(num_decks: int, jokers: int) -> bytes:
    """256-byte table mapping physical id -> face code, for ``bytes(ids).translate(table)``."""
    out = bytearray(256)
    for i in range(NATURALS * num_decks + jokers):
        out[i] = face_of(i, num_decks)
    return bytes(out)


ACTION_DRAW_STOCK: Final = _core.THREE_THIRTEEN_DRAW_STOCK
ACTION_DRAW_DISCARD: Final = _core.THREE_THIRTEEN_DRAW_DISCARD
ACTION_DISCARD: Final = _core.THREE_THIRTEEN_DISCARD
"""Action ids: 0 draw from the stock, 1 draw the discard-pile top, ``2 + f`` discard a card of
face ``f`` (0..51 the naturals as face codes, 52 any joker: jokers are interchangeable)."""


@lru_cache(maxsize=64)
def action_table(num_decks: int, jokers: int) -> bytes:
    """256-byte table mapping physical id -> the action id that discards it."""
    face = face_table(num_decks, jokers)
    return bytes(ACTION_DISCARD + min(face[i], JOKER0) for i in range(256))


def card_points(face: int, wild_rank: int, rules: MeldRules) -> int:
    """Deadwood value of one unmelded card (`cardcore rules three-thirteen`) by face code: the
    Python twin
    of ``meld::card_value`` in ``rust/cardcore-engine/src/meld/mod.rs`` (the solver scores
    hands with that one; ``tests/three_thirteen/test_three_thirteen_rules.py`` holds the two
    equal for every face, wild rank and scoring option)."""
    if is_joker(face):
        return rules.joker_points
    rank = rank_of(face)
    if rank == wild_rank:
        return rules.wild_points
    if rank == 1:
        return 1 if rules.ace_mode == "low" else 15
    return 10 if rank > 10 else rank
