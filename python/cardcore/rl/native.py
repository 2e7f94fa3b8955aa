"""The native (Rust) engines of the RL adapters, for the games that have one.

Three-Thirteen's rules, deck stream and tensor live natively in
``cardcore_engine::three_thirteen_batch`` (a second copy of the rules: the Python engine is
the reference, and the tests play both with the same seeds and actions and compare every
tensor, mask, seat and reward). :class:`~cardcore.rl.VectorEnv` steps many such games per
call; the PettingZoo AEC environment steps one (``_core.ThreeThirteenEpisode``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from cardcore.errors import OptionError
from cardcore.games.api import Game

if TYPE_CHECKING:
    from cardcore._core import ThreeThirteenRules

__all__ = ["ENGINES", "native_rules"]

ENGINES: Final = ("auto", "rust", "protocol")
"""``engine=`` choices: Rust where the game has it, else the protocol; Rust; the protocol."""

_ACE_MODES: Final = {"low": 0, "high": 1, "both": 2}


def native_rules(game: Game[Any], engine: str) -> ThreeThirteenRules | None:
    """The native engine's rules of ``game`` for ``engine``, or None to play through the
    protocol (``engine="protocol"``, or ``"auto"`` for a game without a native engine)."""
    if engine not in ENGINES:
        raise OptionError(f"engine must be auto, rust or protocol, not {engine!r}")
    if game.name != "three-thirteen":
        if engine == "rust":
            raise OptionError(f"{game.name} has no Rust engine (use engine='protocol')")
        return None
    if engine == "protocol":
        return None
    from cardcore import _core

    o: dict[str, Any] = game.options
    return _core.ThreeThirteenRules(
        players=game.num_players,
        decks=o["num_decks"],
        jokers=o["jokers"],
        ace_mode=_ACE_MODES[str(o["ace_mode"])],
        wild_points=o["wild_points"],
        joker_points=o["joker_points"],
        first_dealer=o["first_dealer"],
        shared_win=o["tie_rule"] == "shared_win",
        forbid_return=bool(o["forbid_return_of_discard_draw"]),
        min_own_turns=o["min_own_turns_before_out"],
        max_turns=o["max_turns_per_round"],
    )
