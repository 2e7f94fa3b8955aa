"""Game registry and the embedding protocol.

Every game describes itself with a :class:`~cardcore.games.base.GameSpec` (runner, CLI, replays)
and implements :mod:`cardcore.games.api` (:func:`load_game`, :class:`Game`, :class:`State`).
"""

from __future__ import annotations

from cardcore.games.api import Game, RealtimeState, State, load_game, state_from_json
from cardcore.games.base import (
    Agent,
    AgentFactory,
    GameRequest,
    GameSpec,
    OptionSpec,
    get_game,
    register_game,
    registered_games,
)
from cardcore.games.schema import RecordSchema

__all__ = [
    "Agent",
    "AgentFactory",
    "Game",
    "GameRequest",
    "GameSpec",
    "OptionSpec",
    "RealtimeState",
    "RecordSchema",
    "State",
    "get_game",
    "load_game",
    "register_game",
    "registered_games",
    "state_from_json",
]
