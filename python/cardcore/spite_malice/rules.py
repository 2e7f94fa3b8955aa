"""Spite & Malice rules (`cardcore rules spite-malice`), one module per responsibility, re-exported
here:
:mod:`~cardcore.spite_malice.options` (options), :mod:`~cardcore.spite_malice.moves` (card
values and notation, typed moves) and :mod:`~cardcore.spite_malice.state` (the game in
progress: deal, legal moves, transitions, scoring, observations, the embedding protocol).
"""

from __future__ import annotations

from cardcore._deprecated import deprecated_names
from cardcore.spite_malice.moves import (
    Discard,
    Move,
    PlayHand,
    PlayPayOff,
    PlaySide,
    card_rank,
    card_text,
    move_text,
    parse_card_id,
    parse_move,
)
from cardcore.spite_malice.options import JOKERS, KINGS, OPTION_SPECS, Options
from cardcore.spite_malice.state import Observation, State

# Every public name of the three modules: tests/test_rules_facades.py holds this list equal to
# the union of their own ``__all__``.
__all__ = [
    "JOKERS",
    "KINGS",
    "OPTION_SPECS",
    "Discard",
    "Move",
    "Observation",
    "Options",
    "PlayHand",
    "PlayPayOff",
    "PlaySide",
    "State",
    "card_rank",
    "card_text",
    "move_text",
    "parse_card_id",
    "parse_move",
]

__getattr__ = deprecated_names(__name__, {"SpiteOptions": ("Options", Options)})
