"""Nerts rules (`cardcore rules nerts`), one module per responsibility, re-exported here:
:mod:`~cardcore.nerts.options` (options and speed profiles), :mod:`~cardcore.nerts.actions`
(typed actions, move codes, notation). The table itself (layouts, foundations, legality,
transitions, undo, scoring) is the Rust rulebook's (``cardcore_engine::games::nerts``).

Cards are physical ids ``seat * 52 + face`` (every player owns one 52-card deck, ``deck =
seat``). Piles are lists bottom → top, except the stock, whose *top is the last item*.
"""

from __future__ import annotations

from cardcore._deprecated import deprecated_names
from cardcore.nerts.actions import (
    AUTO,
    CALL,
    FLIP,
    NERTS,
    RECYCLE,
    UNDO,
    WASTE,
    Action,
    CallNerts,
    Flip,
    Recycle,
    ToFoundation,
    ToWork,
    Undo,
    action_from_code,
    card_text,
    fits_work,
    parse_action,
)
from cardcore.nerts.options import (
    MAX_POINTS,
    OPTION_SPECS,
    SPEED_PROFILES,
    Options,
    SpeedProfile,
)

# Every public name of the two modules: tests/test_rules_facades.py holds this list equal to
# the union of their own ``__all__``.
__all__ = [
    "AUTO",
    "CALL",
    "FLIP",
    "MAX_POINTS",
    "NERTS",
    "OPTION_SPECS",
    "RECYCLE",
    "SPEED_PROFILES",
    "UNDO",
    "WASTE",
    "Action",
    "CallNerts",
    "Flip",
    "Options",
    "Recycle",
    "SpeedProfile",
    "ToFoundation",
    "ToWork",
    "Undo",
    "action_from_code",
    "card_text",
    "fits_work",
    "parse_action",
]

__getattr__ = deprecated_names(__name__, {"NertsOptions": ("Options", Options)})
