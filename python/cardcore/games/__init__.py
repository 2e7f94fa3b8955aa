"""Game registry: every game describes itself with a :class:`~cardcore.games.base.GameSpec`."""

from __future__ import annotations

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

__all__ = [
    "Agent",
    "AgentFactory",
    "GameRequest",
    "GameSpec",
    "OptionSpec",
    "get_game",
    "register_game",
    "registered_games",
]
