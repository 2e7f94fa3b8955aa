"""Three-Thirteen Rummy (`cardcore rules three-thirteen`): exact wildcard meld solver, game engine,
AIs, records.

>>> from cardcore.three_thirteen import min_deadwood, best_melds
>>> min_deadwood("3c 9h Kd", wild="3")
34
>>> print(best_melds("Ac Ac 2c 3c 3c 6d", wild=6))
[Ac 2c 3c] [Ac 6d=2c 3c]

The engine: :class:`State` (``legal_moves()``, ``apply(move)``, ``observation(seat)``,
``clone()``), moves :class:`DrawStock`, :class:`DrawDiscard`, :class:`Discard`, options in
:class:`Options`; agents ``random``, ``greedy`` and ``hard`` in :mod:`.agents`.
"""

from __future__ import annotations

from cardcore.three_thirteen.agents import GreedyAgent, HardAgent, RandomAgent
from cardcore.three_thirteen.melds import (
    Arrangement,
    Meld,
    MeldRules,
    best_discards,
    best_melds,
    min_deadwood,
    min_deadwood_batch,
)
from cardcore.three_thirteen.rules import (
    Discard,
    DrawDiscard,
    DrawStock,
    Move,
    Observation,
    Options,
    State,
    parse_move,
)

__all__ = [
    "Arrangement",
    "Discard",
    "DrawDiscard",
    "DrawStock",
    "GreedyAgent",
    "HardAgent",
    "Meld",
    "MeldRules",
    "Move",
    "Observation",
    "Options",
    "RandomAgent",
    "State",
    "best_discards",
    "best_melds",
    "min_deadwood",
    "min_deadwood_batch",
    "parse_move",
]
