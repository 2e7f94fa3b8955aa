"""Nerts (Pounce, Racing Demon): real-time discrete-event engine, Rust move generation, agents.

>>> from cardcore.nerts import NertsOptions, Round, HardAgent, GreedyAgent
>>> rnd = Round(NertsOptions(), seed=7, agents=[HardAgent(), GreedyAgent()])
>>> rnd.run(); rnd.end in ("nerts", "stalemate", "cap")
True
"""

from __future__ import annotations

from cardcore.nerts.agents import GreedyAgent, HardAgent, RandomAgent, RuleOfThumbAgent
from cardcore.nerts.engine import NertsObservation, PublicPlayer, Round, deal_decks
from cardcore.nerts.rules import (
    NERTS,
    OPTION_SPECS,
    SPEED_PROFILES,
    WASTE,
    Action,
    CallNerts,
    Flip,
    NertsOptions,
    NertsTable,
    PlayerLayout,
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
    "Flip",
    "GreedyAgent",
    "HardAgent",
    "NertsObservation",
    "NertsOptions",
    "NertsTable",
    "PlayerLayout",
    "PublicPlayer",
    "RandomAgent",
    "Recycle",
    "Round",
    "RuleOfThumbAgent",
    "SpeedProfile",
    "ToFoundation",
    "ToWork",
    "Undo",
    "deal_decks",
    "parse_action",
]
