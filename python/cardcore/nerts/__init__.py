"""Nerts (Pounce, Racing Demon): a real-time round on the Rust rulebook, agents.

The embedding protocol (``docs/embedding.md``): ``cardcore.load_game("nerts").new_state(seed,
agents=[None, "hard"])`` is a :class:`State` (``cardcore.nerts.game.NertsState``) driven with
``submit`` / ``advance_to`` / ``step``. :class:`Round` is the same rulebook round with agent
objects (the built-in ones play in Rust, any other is called back):

>>> from cardcore.nerts import Options, Round, HardAgent, GreedyAgent
>>> rnd = Round(Options(), seed=7, agents=[HardAgent(), GreedyAgent()])
>>> rnd.run(); rnd.end in ("nerts", "stalemate", "cap")
True

``NertsOptions`` is the deprecated old name of :class:`Options`.
"""

from __future__ import annotations

from typing import Any

from cardcore._deprecated import deprecated_names
from cardcore.nerts.agents import (
    ExpertAgent,
    GreedyAgent,
    HardAgent,
    RandomAgent,
    RuleOfThumbAgent,
)
from cardcore.nerts.engine import NertsObservation, PublicPlayer, Round, deal_decks
from cardcore.nerts.rules import (
    NERTS,
    OPTION_SPECS,
    SPEED_PROFILES,
    WASTE,
    Action,
    CallNerts,
    Flip,
    Options,
    Recycle,
    SpeedProfile,
    ToFoundation,
    ToWork,
    Undo,
    parse_action,
)

__all__ = [
    "NERTS",
    "OPTION_SPECS",
    "SPEED_PROFILES",
    "WASTE",
    "Action",
    "CallNerts",
    "ExpertAgent",
    "Flip",
    "GreedyAgent",
    "HardAgent",
    "NertsObservation",
    "Options",
    "PublicPlayer",
    "RandomAgent",
    "Recycle",
    "Round",
    "RuleOfThumbAgent",
    "SpeedProfile",
    "State",
    "ToFoundation",
    "ToWork",
    "Undo",
    "deal_decks",
    "parse_action",
]


def __getattr__(name: str) -> Any:
    if name == "State":  # imported on first use (it needs numpy)
        from cardcore.nerts.game import NertsState

        return NertsState
    return _old_names(name)


_old_names = deprecated_names(__name__, {"NertsOptions": ("Options", Options)})
