"""The native (Rust) engines of the RL adapters, for the games that have one.

A turn-based game declares its engines on its spec (:class:`~cardcore.games.base.NativeRl`,
``GameSpec.native_rl``); every choice below is derived from the registered specs, and no module
here names a game. The engines step the game's one Rust rulebook (``cardcore_engine::games``),
the rules the protocol states play; the tests still play them against the protocol with the
same seeds and actions and compare every tensor, mask, seat and reward.

* The PettingZoo AEC environment steps ``_core.Episode`` where the game declares one
  (``episode``), else the protocol state's rulebook (``_core.State``; ``engine="rust"`` and
  ``"protocol"`` are then the same engine).
* ``gymnasium.make_vec`` steps the game's batch (``batch``: many games per call,
  ``cardcore_engine::batch``).
* :class:`~cardcore.rl.VectorEnv` steps that batch where it writes every seat's ``points()``
  (``points``).
"""

from __future__ import annotations

from typing import Any, Final, Literal

from cardcore.errors import OptionError
from cardcore.games.api import Game
from cardcore.games.base import NativeRl, get_game, registered_games

__all__ = ["ENGINES", "KINDS", "Kind", "native_engines", "native_games", "native_rules"]

ENGINES: Final = ("auto", "rust", "protocol")
"""``engine=`` choices: Rust where the game has it, else the protocol; Rust; the protocol."""

Kind = Literal["aec", "batch", "vector"]
"""Which environment asks: the AEC environment, ``gymnasium.make_vec``, ``VectorEnv``."""
KINDS: Final[tuple[Kind, ...]] = ("aec", "batch", "vector")


def native_engines(game: Game[Any]) -> NativeRl | None:
    """What ``game``'s registered spec declares for the RL engines (None: nothing; also for a
    game object whose name is not registered)."""
    try:
        return get_game(game.name).native_rl
    except OptionError:
        return None


def _has(rl: NativeRl, kind: Kind) -> bool:
    """Whether ``rl`` names an engine of its own for ``kind``."""
    if kind == "aec":
        return rl.episode
    return rl.batch is not None and (kind == "batch" or rl.points)


def native_games(kind: Kind) -> tuple[str, ...]:
    """The registered games (plugins included) with a native engine of their own for
    ``kind``, from their specs (``"aec"``: besides the protocol state's rulebook)."""
    out = []
    for name in registered_games():
        rl = get_game(name).native_rl
        if rl is not None and _has(rl, kind):
            out.append(name)
    return tuple(out)


def native_rules(game: Game[Any], engine: str, kind: Kind = "aec") -> Any:
    """The ``_core`` rules object of ``game`` for the native engine ``kind`` when ``engine``
    picks it, or None to play through the protocol (``engine="protocol"``, or ``"auto"`` for a
    game without that engine). ``engine="rust"`` for a game without it is an
    :class:`~cardcore.errors.OptionError`, except in the AEC environment for a game whose
    protocol state is its rulebook (the Rust engine there)."""
    if engine not in ENGINES:
        raise OptionError(f"engine must be auto, rust or protocol, not {engine!r}")
    rl = native_engines(game)
    if rl is None or not _has(rl, kind):
        if engine == "rust" and (rl is None or kind != "aec"):
            raise OptionError(f"{game.name} has no Rust engine here (use engine='protocol')")
        return None
    if engine == "protocol":
        return None
    return rl.rules(game)
