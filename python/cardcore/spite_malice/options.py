"""Spite & Malice options (`cardcore rules spite-malice`): :data:`OPTION_SPECS` and the validated
:class:`Options` with the sizes derived from them (decks, jokers, stack tops, slots)."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from cardcore.cards import NATURALS
from cardcore.errors import OptionError
from cardcore.games.base import OptionSpec, OptionValue

__all__ = ["JOKERS", "KINGS", "OPTION_SPECS", "Options"]

KINGS: Final = "kings"
JOKERS: Final = "jokers"

OPTION_SPECS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(
        "num_decks",
        None,
        "52-card decks (auto: 2 for 2 players, 3 for 3-4)",
        minimum=1,
        maximum=8,
        nullable=True,
    ),
    OptionSpec("payoff_size", 20, "cards in each pay-off pile", minimum=1, maximum=60),
    OptionSpec("hand_size", 5, "cards in a full hand", minimum=1, maximum=12),
    OptionSpec("num_side_stacks", 4, "side stacks per player", minimum=1, maximum=8),
    OptionSpec(
        "num_center_stacks",
        None,
        "shared centre stacks (auto: 3 for 2 players, 4 for 3-4; 0 = unlimited)",
        minimum=0,
        maximum=8,
        nullable=True,
    ),
    OptionSpec(
        "wild_mode",
        KINGS,
        "wild cards: kings, or 2 jokers per deck (kings natural, stacks run A..K)",
        choices=(KINGS, JOKERS),
        kind=str,
    ),
    OptionSpec("king_can_start_stack", True, "a wild card may start an empty stack", kind=bool),
    OptionSpec("refill_empty_hand", True, "draw a new hand when it empties mid-turn", kind=bool),
    OptionSpec(
        "completed_stack",
        "shuffle_into_stock",
        "what happens to a completed centre stack",
        choices=("shuffle_into_stock", "set_aside"),
        kind=str,
    ),
    OptionSpec(
        "stock_exhausted",
        "tie_on_required_draw",
        "when an exhausted stock ends the game in a tie",
        choices=("tie_on_required_draw", "tie_immediately", "recycle_then_tie"),
        kind=str,
    ),
    OptionSpec(
        "side_stack_rule",
        "any",
        "which cards may be discarded to a side stack",
        choices=("any", "same_or_one_lower", "no_aces"),
        kind=str,
    ),
    OptionSpec(
        "must_play_aces", False, "a playable ace must be played before discarding", kind=bool
    ),
    OptionSpec("win_bonus", 0, "points added to the game winner's score", minimum=0, maximum=1000),
    OptionSpec("target_score", 50, "match target (total points)", minimum=1, maximum=100000),
    OptionSpec(
        "first_player",
        None,
        "seat that moves first (auto: highest face-up pay-off card)",
        minimum=0,
        maximum=3,
        nullable=True,
    ),
    OptionSpec(
        "max_turns", 1000, "safety cap on turns; reaching it is a tie", minimum=1, maximum=1_000_000
    ),
)
_SPECS_BY_NAME: Final = {o.name: o for o in OPTION_SPECS}


@dataclass(frozen=True, slots=True)
class Options:
    """Validated rules of one game (`cardcore rules spite-malice`); ``None`` values are resolved per
    player count."""

    num_players: int = 2
    num_decks: int | None = None
    payoff_size: int = 20
    hand_size: int = 5
    num_side_stacks: int = 4
    num_center_stacks: int | None = None
    wild_mode: str = KINGS
    king_can_start_stack: bool = True
    refill_empty_hand: bool = True
    completed_stack: str = "shuffle_into_stock"
    stock_exhausted: str = "tie_on_required_draw"
    side_stack_rule: str = "any"
    must_play_aces: bool = False
    win_bonus: int = 0
    target_score: int = 50
    first_player: int | None = None
    max_turns: int = 1000

    def __post_init__(self) -> None:
        if isinstance(self.num_players, bool) or self.num_players not in (2, 3, 4):
            raise OptionError(f"num_players must be 2, 3 or 4, got {self.num_players!r}")
        for name, spec in _SPECS_BY_NAME.items():
            spec.validate(getattr(self, name))
        if self.num_decks is None:
            object.__setattr__(self, "num_decks", 2 if self.num_players == 2 else 3)
        if self.num_center_stacks is None:
            object.__setattr__(self, "num_center_stacks", 3 if self.num_players == 2 else 4)
        if self.first_player is not None and self.first_player >= self.num_players:
            raise OptionError(
                f"first_player {self.first_player} is not a seat of {self.num_players} players"
            )
        dealt = self.num_players * (self.payoff_size + self.hand_size)
        if dealt > self.total_cards:
            raise OptionError(
                f"{self.num_players} x ({self.payoff_size} pay-off + {self.hand_size} hand) "
                f"= {dealt} cards, but the deck has only {self.total_cards}"
            )
        if self.wild_mode == JOKERS and 2 * self.decks > 16:
            raise OptionError("at most 16 jokers")

    @classmethod
    def from_mapping(
        cls, players: int | Mapping[str, OptionValue], values: Mapping[str, OptionValue] | int = 2
    ) -> Options:
        """Options from a player count and a ``GameRequest.options`` style mapping (unknown
        keys rejected), as every game's ``Options.from_mapping(players, values)``. The old
        order ``from_mapping(values, players)`` still works for one version, with a
        ``DeprecationWarning``."""
        if isinstance(players, Mapping):
            warnings.warn(
                "spite_malice.Options.from_mapping(values, players) is deprecated: use "
                "from_mapping(players, values), the order of every game",
                DeprecationWarning,
                stacklevel=2,
            )
            players, values = (values if isinstance(values, int) else 2), players
        if not isinstance(values, Mapping):
            raise OptionError(f"options must be a mapping, not {values!r}")
        num_players = players
        kwargs: dict[str, Any] = {}
        for key, value in values.items():
            if key == "num_players":
                num_players = int(value)  # type: ignore[arg-type]
                continue
            if key not in _SPECS_BY_NAME:
                raise OptionError(f"spite-malice has no option {key!r}")
            kwargs[key] = value
        return cls(num_players=num_players, **kwargs)

    def as_dict(self) -> dict[str, OptionValue]:
        """Every option (resolved), JSON-ready."""
        out: dict[str, OptionValue] = {"num_players": self.num_players}
        for name in _SPECS_BY_NAME:
            out[name] = getattr(self, name)
        return out

    @property
    def decks(self) -> int:
        assert self.num_decks is not None
        return self.num_decks

    @property
    def jokers(self) -> int:
        return 2 * self.decks if self.wild_mode == JOKERS else 0

    @property
    def total_cards(self) -> int:
        return NATURALS * self.decks + self.jokers

    @property
    def top_rank(self) -> int:
        """Effective rank at which a centre stack is complete: 12 (wild kings) or 13."""
        return 12 if self.wild_mode == KINGS else 13

    @property
    def center_limit(self) -> int:
        assert self.num_center_stacks is not None
        return self.num_center_stacks

    @property
    def max_center_slots(self) -> int:
        """Centre slots there can ever be: the limit, or (unlimited) one per card that may start
        a stack (every ace, and every wild card when it may) plus the spare free slot."""
        if self.center_limit:
            return self.center_limit
        wilds = (self.jokers or 4 * self.decks) if self.king_can_start_stack else 0
        return 4 * self.decks + wilds + 1
