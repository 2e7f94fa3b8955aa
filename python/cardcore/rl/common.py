"""What every adapter shares: the game for a name, agent names, episode seeds, spaces and the
ANSI rendering. Only the public embedding protocol (``docs/embedding.md``) is used."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any, Final

from cardcore.errors import OptionError
from cardcore.games.api import Game, check_seed, load_game
from cardcore.rng import Rng, derive_seed

if TYPE_CHECKING:
    from gymnasium import spaces

__all__ = ["OBS_HIGH", "Seeds", "agent_name", "observation_space", "render_text", "resolve"]

OBS_HIGH: Final = 1e9
"""Upper bound of the observation boxes (tensors hold counts, totals and seconds)."""


def resolve(game: str | Game[Any], options: dict[str, Any], *, realtime: bool | None) -> Game[Any]:
    """``game`` itself, or ``load_game(game, **options)``; checks that the game is turn-based
    (``realtime=False``) or real-time (``True``) when asked."""
    if isinstance(game, Game):
        if options:
            raise OptionError("options go to load_game, not with a Game object")
        g = game
    else:
        g = load_game(game, **options)
    if realtime is not None and g.realtime != realtime:
        kind = "real-time" if g.realtime else "turn-based"
        raise OptionError(f"{g.name} is {kind}: use the {kind} environment")
    return g


def agent_name(seat: int) -> str:
    """PettingZoo's name of ``seat``: ``player_0``, ``player_1``, ..."""
    return f"player_{seat}"


class Seeds:
    """The seed of each episode: ``reset(seed=s)`` plays seed ``s`` and later resets without a
    seed continue a stream drawn from it; with no seed ever given, the stream starts from the
    operating system's entropy (gymnasium's convention)."""

    __slots__ = ("_rng",)

    def __init__(self) -> None:
        self._rng: Rng | None = None

    def next(self, seed: int | None) -> int:
        if seed is not None:
            seed = check_seed(seed)
            self._rng = Rng(derive_seed(seed, 0, "rl-episodes"))
            return seed
        if self._rng is None:
            self._rng = Rng(int.from_bytes(os.urandom(8), "little"))
        return self._rng.next_u64()


def observation_space(game: Game[Any], num_actions: int) -> spaces.Dict:
    """``{"observation": Box(float32 tensor), "action_mask": Box(int8, 0/1)}``."""
    import numpy as np
    from gymnasium import spaces

    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, OBS_HIGH, game.observation_shape, np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
        }
    )


def render_text(state: Any, seat: int, legal: list[int]) -> str:
    """What ``seat`` sees, one field a line, then its legal actions (ANSI render)."""
    game = state.game
    doc = json.loads(state.observation_json(seat))
    lines = [f"{game.name}: {agent_name(seat)}'s view, points {state.points()}"]
    lines += [f"  {k}: {json.dumps(v)}" for k, v in doc["observation"].items()]
    lines.append("  legal: " + ", ".join(f"{a} {game.action_text(a)}" for a in legal))
    return "\n".join(lines) + "\n"
