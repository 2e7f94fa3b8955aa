"""Nerts rules (RULES §4), one module per responsibility, re-exported here:
:mod:`~cardcore.nerts.options` (options and speed profiles), :mod:`~cardcore.nerts.actions`
(typed actions, move codes, notation) and :mod:`~cardcore.nerts.table` (layouts, foundations,
legality, transitions, undo, scoring).

Cards are physical ids ``seat * 52 + face`` (every player owns one 52-card deck, ``deck =
seat``). Piles are lists bottom → top, except the stock, whose *top is the last item*.
"""

from __future__ import annotations

from cardcore._deprecated import deprecated_names
from cardcore.nerts import actions as _actions
from cardcore.nerts import options as _options
from cardcore.nerts import table as _table
from cardcore.nerts.actions import *  # noqa: F403
from cardcore.nerts.options import *  # noqa: F403
from cardcore.nerts.options import Options
from cardcore.nerts.table import *  # noqa: F403

# Every public name of the three modules, each listed once in its own ``__all__``.
__all__ = [*_actions.__all__, *_options.__all__, *_table.__all__]

__getattr__ = deprecated_names(__name__, {"NertsOptions": ("Options", Options)})
