"""Hand-built Nerts tables for the tests of this folder: card ids from text, player layouts,
tables and rounds with human seats (``from nerts_tables import ...``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcore.cards import natural_id, parse_cards
from cardcore.games.base import OptionValue
from cardcore.nerts import Options
from nerts_reference_engine import Round
from nerts_reference_table import NertsTable, PlayerLayout

__all__ = ["filler", "human_round", "ids", "layout", "other", "table"]


def ids(text: str, seat: int = 0) -> list[int]:
    """Card ids of ``text`` (bottom → top); cards without ``@deck`` belong to ``seat``."""
    out = []
    for c in parse_cards(text):
        deck = c.deck if "@" in text else seat
        out.append(natural_id(c.face, deck))
    return out


def layout(
    seat: int = 0,
    *,
    nerts: str = "Kc Kd",
    work: tuple[str, ...] = ("", "", "", ""),
    stock_top_first: str = "",
    waste: str = "",
) -> PlayerLayout:
    stock = ids(stock_top_first, seat)[::-1]  # the stock's top is its last item
    return PlayerLayout(
        nerts=ids(nerts, seat),
        work=[ids(w, seat) for w in work],
        stock=stock,
        waste=ids(waste, seat),
    )


def table(
    *layouts: PlayerLayout, foundations: tuple[str, ...] = (), **options: OptionValue
) -> NertsTable:
    opts = Options.from_mapping(len(layouts), options)
    return NertsTable.from_layouts(opts, layouts, [ids(f) for f in foundations])


def other(seat: int = 1) -> PlayerLayout:
    return layout(seat, nerts="Qh Qs", work=("Ks", "Kh", "Kc", "Kd"))


def filler(seat: int) -> PlayerLayout:
    """:func:`other` with a stock (a seat that can always flip)."""
    return layout(seat, nerts="Qh Qs", work=("Ks", "Kh", "Kc", "Kd"), stock_top_first="2c")


def human_round(*layouts: PlayerLayout, foundations: Sequence[str] = (), **options: Any) -> Round:
    """A round of human seats (seed 1) on a hand-built table."""
    opts = Options.from_mapping(len(layouts), options)
    rnd = Round(opts, 1, [None] * len(layouts))
    rnd.table = NertsTable.from_layouts(opts, layouts, [ids(f) for f in foundations])
    return rnd
