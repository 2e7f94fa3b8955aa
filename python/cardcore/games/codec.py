"""Card text for JSON documents: ``"7h@1"`` (face and deck) and ``"X1"`` (jokers), by physical id.

Every game numbers its cards the same way (``deck * 52 + face``, jokers after every natural),
so one table per ``(decks, jokers)`` serves all of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from cardcore.cards import NATURALS, id_text
from cardcore.errors import StateFormatError

__all__ = ["CardCodec", "codec", "is_permutation"]


class CardCodec:
    """Physical id <-> text for a game of ``decks`` decks plus ``jokers`` jokers."""

    __slots__ = ("ids_by_text", "size", "texts")

    def __init__(self, decks: int, jokers: int) -> None:
        self.size = NATURALS * decks + jokers
        self.texts: tuple[str, ...] = tuple(id_text(i, decks) for i in range(self.size))
        self.ids_by_text = {t: i for i, t in enumerate(self.texts)}

    def text(self, card: int) -> str:
        return self.texts[card]

    def encode(self, cards: Iterable[int]) -> list[str]:
        t = self.texts
        return [t[c] for c in cards]

    def card(self, text: object) -> int:
        """The id of ``text``; :class:`StateFormatError` for anything that is not a card text
        of this game."""
        cid = self.ids_by_text.get(text) if isinstance(text, str) else None
        if cid is None:
            raise StateFormatError(f"not a card of this game: {text!r}")
        return cid

    def decode(self, texts: object) -> list[int]:
        """Ids of a JSON list of card texts."""
        if not isinstance(texts, list):
            raise StateFormatError(f"expected a list of cards, got {texts!r}")
        ids = self.ids_by_text
        out = []
        for t in texts:
            cid = ids.get(t) if isinstance(t, str) else None
            if cid is None:
                raise StateFormatError(f"not a card of this game: {t!r}")
            out.append(cid)
        return out

    def decode_piles(self, piles: object, count: int | None = None) -> list[list[int]]:
        """A JSON list of card lists (``count`` of them when given)."""
        if not isinstance(piles, list) or (count is not None and len(piles) != count):
            raise StateFormatError(f"expected {count or 'a list of'} card lists, got {piles!r}")
        return [self.decode(p) for p in piles]


@lru_cache(maxsize=64)
def codec(decks: int, jokers: int) -> CardCodec:
    """The shared :class:`CardCodec` of ``decks`` decks plus ``jokers`` jokers."""
    return CardCodec(decks, jokers)


def is_permutation(cards: Sequence[int], size: int) -> bool:
    """Whether ``cards`` holds every id ``0 .. size-1`` exactly once."""
    return len(cards) == size and sorted(cards) == list(range(size))
