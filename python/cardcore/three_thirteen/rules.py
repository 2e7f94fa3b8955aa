"""Three-Thirteen Rummy rules (`cardcore rules three-thirteen`), one module per responsibility,
re-exported here:
:mod:`~cardcore.three_thirteen.options` (options), :mod:`~cardcore.three_thirteen.moves`
(typed moves, notation, action ids and card values) and :mod:`~cardcore.three_thirteen.state`
(the game in progress: deal, round flow, legal moves, transitions, scoring, observations, the
embedding protocol).

Cards are physical ids (``deck * 52 + face``; jokers after every natural); see
:mod:`~cardcore.three_thirteen.state` for how a game draws from its ``"deck"`` stream.
"""

from __future__ import annotations

from cardcore.three_thirteen.moves import (
    ACTION_DISCARD,
    ACTION_DRAW_DISCARD,
    ACTION_DRAW_STOCK,
    DRAW_DISCARD,
    DRAW_STOCK,
    Discard,
    DrawDiscard,
    DrawStock,
    Move,
    action_table,
    card_points,
    discard_move,
    face_table,
    move_code,
    move_from_code,
    parse_move,
)
from cardcore.three_thirteen.options import MAX_POINTS, NUM_ROUNDS, OPTION_SPECS, Options
from cardcore.three_thirteen.state import (
    PHASE_DISCARD,
    PHASE_DRAW,
    Observation,
    State,
    decide_winner,
)

# Every public name of the three modules: tests/test_rules_facades.py holds this list equal to
# the union of their own ``__all__``.
__all__ = [
    "ACTION_DISCARD",
    "ACTION_DRAW_DISCARD",
    "ACTION_DRAW_STOCK",
    "DRAW_DISCARD",
    "DRAW_STOCK",
    "MAX_POINTS",
    "NUM_ROUNDS",
    "OPTION_SPECS",
    "PHASE_DISCARD",
    "PHASE_DRAW",
    "Discard",
    "DrawDiscard",
    "DrawStock",
    "Move",
    "Observation",
    "Options",
    "State",
    "action_table",
    "card_points",
    "decide_winner",
    "discard_move",
    "face_table",
    "move_code",
    "move_from_code",
    "parse_move",
]
