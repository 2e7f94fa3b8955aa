"""The native (Rust) engines of the RL adapters, for the games that have one.

``cardcore_engine::three_thirteen_batch`` (many games per call) and
``cardcore_engine::spite_episode`` step the games' one Rust rulebook each
(``cardcore_engine::games``), the rules the protocol states play; the tests still play them
against the protocol with the same seeds and actions and compare every tensor, mask, seat and
reward. :class:`~cardcore.rl.VectorEnv` steps many Three-Thirteen games per call and
``gymnasium.make_vec`` many games of either (``cardcore_engine::batch``); the PettingZoo AEC
environment steps one game of either (``_core.Episode``).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Final

from cardcore.errors import OptionError
from cardcore.games.api import Game

if TYPE_CHECKING:
    from cardcore._core import SpiteMaliceRules, ThreeThirteenRules

__all__ = ["AEC_GAMES", "BATCH_GAMES", "ENGINES", "VECTOR_GAMES", "native_rules"]

ENGINES: Final = ("auto", "rust", "protocol")
"""``engine=`` choices: Rust where the game has it, else the protocol; Rust; the protocol."""

AEC_GAMES: Final = ("spite-malice",)
"""Games the AEC environment steps in a native engine of their own (a second copy of the
rules, until the game's protocol state is its rulebook)."""

RULEBOOK_GAMES: Final = ("three-thirteen",)
"""Games whose protocol state is their one Rust rulebook (``cardcore._core.State``): the
environments step it directly, ``engine="rust"`` and ``"protocol"`` are the same engine."""

VECTOR_GAMES: Final = ("three-thirteen",)
"""Games :class:`~cardcore.rl.VectorEnv` steps natively."""

BATCH_GAMES: Final = ("three-thirteen", "spite-malice")
"""Games ``gymnasium.make_vec`` steps in a native batch (``cardcore_engine::batch``: many games
of the rulebook per call, ``_core.ThreeThirteenBatch`` and ``_core.SpiteMaliceBatch``)."""

_ACE_MODES: Final = {"low": 0, "high": 1, "both": 2}


def native_rules(
    game: Game[Any], engine: str, games: Collection[str] = AEC_GAMES
) -> ThreeThirteenRules | SpiteMaliceRules | None:
    """The native engine's rules of ``game`` for ``engine``, or None to play through the
    protocol (``engine="protocol"``, or ``"auto"`` for a game not in ``games``, those with a
    native engine for the caller)."""
    if engine not in ENGINES:
        raise OptionError(f"engine must be auto, rust or protocol, not {engine!r}")
    if game.name not in games:
        if engine == "rust" and game.name not in RULEBOOK_GAMES:
            raise OptionError(f"{game.name} has no Rust engine here (use engine='protocol')")
        return None
    if engine == "protocol":
        return None
    from cardcore import _core

    o: dict[str, Any] = game.options
    if game.name == "spite-malice":
        return _core.SpiteMaliceRules(
            players=game.num_players,
            decks=o["num_decks"],
            jokers=o["wild_mode"] == "jokers",
            payoff_size=o["payoff_size"],
            hand_size=o["hand_size"],
            side_stacks=o["num_side_stacks"],
            center_stacks=o["num_center_stacks"],
            king_can_start=bool(o["king_can_start_stack"]),
            refill_empty_hand=bool(o["refill_empty_hand"]),
            completed_to_stock=o["completed_stack"] == "shuffle_into_stock",
            stock_exhausted=str(o["stock_exhausted"]),
            side_stack_rule=str(o["side_stack_rule"]),
            must_play_aces=bool(o["must_play_aces"]),
            first_player=o["first_player"],
            max_turns=o["max_turns"],
        )
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
