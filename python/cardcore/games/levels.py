"""AI levels: the ladder every game's agents are mapped onto (``docs/agents.md``).

The ladder is ``random``, ``easy``, ``normal``, ``hard``, ``expert``. A level names the first
of its candidate agents that the game has (``hard`` is the game's default agent), so a game
without an ``expert`` or a ``normal`` agent plays its next stronger one there. The level names
are agent names of every game (:func:`cardcore.games.base.resolve_agent`): ``cardcore sim
--agents``, ``simulate(agents=...)``, ``cardcore play --ai``, ``cardcore serve`` and the RL
opponents all take them; each game's own names (``planner``, ``greedy``) stay valid.
``cardcore play`` and ``cardcore serve`` offer every level but ``random``. ``docs/agents.md``
rates every rung of every game (``research/scripts/ladder``: a round robin of the levels,
Bradley–Terry ratings on the Elo scale with 95% intervals).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cardcore.errors import OptionError
from cardcore.games.base import Agent, GameSpec
from cardcore.games.checks import check_real

__all__ = ["LEVELS", "PLAY_LEVELS", "Blend", "agent_for_level", "play_agent"]

LEVELS: Final = ("random", "easy", "normal", "hard", "expert")
PLAY_LEVELS: Final = LEVELS[1:]

_CANDIDATES: Final[dict[str, tuple[str, ...]]] = {
    "random": ("random",),
    "easy": ("greedy", "random"),
    "normal": ("normal", "greedy"),
    "hard": (),  # the game's default agent
    "expert": ("expert",),
}


def agent_for_level(spec: GameSpec, level: str) -> str:
    """The built-in agent of ``spec`` at ``level`` (see the module docstring)."""
    if level not in _CANDIDATES:
        raise OptionError(f"AI level must be one of {', '.join(LEVELS)}, got {level!r}")
    for name in _CANDIDATES[level]:
        if name in spec.agents:
            return name
    return spec.default_agent


def play_agent(spec: GameSpec, ai: str) -> str:
    """The agent ``cardcore play --ai`` names: a level's (:func:`agent_for_level`) or, for a
    name that is no level, the game's built-in agent of that name (``learned``, ``planner``)."""
    if ai in _CANDIDATES:
        return agent_for_level(spec, ai)
    if ai in spec.agents:
        return ai
    raise OptionError(
        f"AI must be a level ({', '.join(PLAY_LEVELS)}) or a {spec.name} agent "
        f"({', '.join(spec.agents)}), got {ai!r}"
    )


class Blend:
    """Plays ``strong``'s move with probability ``share`` (one draw from the seat's ``rng`` per
    decision), else ``weak``'s: a level between two agents."""

    __slots__ = ("share", "strong", "weak")

    def __init__(self, strong: Agent, weak: Agent, share: float) -> None:
        self.strong = strong
        self.weak = weak
        self.share = check_real("share", share, 0.0, 1.0)

    def act(self, observation: Any, legal: Sequence[Any], rng: Any) -> Any:
        agent = self.strong if rng.random() < self.share else self.weak
        return agent.act(observation, legal, rng)
