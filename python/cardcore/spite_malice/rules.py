"""Spite & Malice rules (RULES §3), one module per responsibility, re-exported here:
:mod:`~cardcore.spite_malice.options` (options), :mod:`~cardcore.spite_malice.moves` (card
values and notation, typed moves) and :mod:`~cardcore.spite_malice.state` (the game in
progress: deal, legal moves, transitions, scoring, observations, the embedding protocol).
"""

from __future__ import annotations

from cardcore._deprecated import deprecated_names
from cardcore.spite_malice import moves as _moves
from cardcore.spite_malice import options as _options
from cardcore.spite_malice import state as _state
from cardcore.spite_malice.moves import *  # noqa: F403
from cardcore.spite_malice.options import *  # noqa: F403
from cardcore.spite_malice.options import Options
from cardcore.spite_malice.state import *  # noqa: F403

# Every public name of the three modules, each listed once in its own ``__all__``.
__all__ = [*_moves.__all__, *_options.__all__, *_state.__all__]

__getattr__ = deprecated_names(__name__, {"SpiteOptions": ("Options", Options)})
