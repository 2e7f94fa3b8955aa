"""Three-Thirteen options (`cardcore rules three-thirteen`): the option specs and the validated
:class:`Options`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Final

from cardcore.cards import NATURALS
from cardcore.errors import OptionError
from cardcore.games.base import OptionSpec, OptionValue
from cardcore.three_thirteen.melds import MeldRules

__all__ = ["MAX_POINTS", "NUM_ROUNDS", "OPTION_SPECS", "Options"]

MAX_POINTS: Final = 1000
"""The largest ``wild_points`` and ``joker_points``: the meld solver's bound (``MAX_POINTS`` of
``rust/cardcore-engine/src/meld``), which keeps a hand's deadwood inside 32 bits."""

NUM_ROUNDS: Final = 11
"""Rounds in a game (3 cards dealt in the first, 13 in the last)."""

OPTION_SPECS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec("num_decks", 2, "standard 52-card decks combined", minimum=1, maximum=4),
    OptionSpec("jokers", 0, "jokers added (always wild)", choices=(0, 2, 4)),
    OptionSpec(
        "ace_mode",
        "low",
        "aces low (A-2-3), high (Q-K-A, unmelded 15) or both (engine extension)",
        choices=("low", "high", "both"),
        kind=str,
    ),
    OptionSpec(
        "wild_points",
        15,
        "value of an unmelded natural wild-rank card",
        minimum=0,
        maximum=MAX_POINTS,
    ),
    OptionSpec("joker_points", 20, "value of an unmelded joker", minimum=0, maximum=MAX_POINTS),
    OptionSpec(
        "first_dealer",
        None,
        "seat of the first dealer (default: random from the deck stream)",
        minimum=0,
        maximum=5,
        nullable=True,
    ),
    OptionSpec(
        "tie_rule",
        "all_tied",
        "shared lowest total: nobody wins (all_tied) or every tied seat wins (shared_win)",
        choices=("all_tied", "shared_win"),
        kind=str,
    ),
    OptionSpec(
        "forbid_return_of_discard_draw",
        False,
        "a card taken from the discard pile may not be discarded in the same turn",
        kind=bool,
    ),
    OptionSpec(
        "min_own_turns_before_out",
        0,
        "own completed turns a player needs in a round before going out counts",
        minimum=0,
        maximum=1000,
    ),
    OptionSpec(
        "max_turns_per_round",
        400,
        "safety cap: turns in a round with nobody out before it is scored as it stands",
        minimum=1,
        maximum=1_000_000,
    ),
)


@dataclass(frozen=True, slots=True)
class Options:
    """Validated Three-Thirteen options (`cardcore rules three-thirteen`); defaults are the user's
    rules."""

    num_players: int = 4
    num_decks: int = 2
    jokers: int = 0
    ace_mode: str = "low"
    wild_points: int = 15
    joker_points: int = 20
    first_dealer: int | None = None
    tie_rule: str = "all_tied"
    forbid_return_of_discard_draw: bool = False
    min_own_turns_before_out: int = 0
    max_turns_per_round: int = 400

    def __post_init__(self) -> None:
        if isinstance(self.num_players, bool) or not isinstance(self.num_players, int):
            raise OptionError("num_players must be an int")
        if not 2 <= self.num_players <= 6:
            raise OptionError(f"num_players must be 2..6, got {self.num_players}")
        for spec in OPTION_SPECS:
            spec.validate(getattr(self, spec.name))
        if self.first_dealer is not None and self.first_dealer >= self.num_players:
            raise OptionError(
                f"option first_dealer: seat {self.first_dealer} but only {self.num_players} players"
            )
        total = NATURALS * self.num_decks + self.jokers
        need = 13 * self.num_players + 2
        if total < need:
            raise OptionError(
                f"{self.num_decks} deck(s) + {self.jokers} jokers = {total} cards; "
                f"{self.num_players} players need at least {need}"
            )

    @classmethod
    def from_mapping(cls, players: int, values: Mapping[str, OptionValue]) -> Options:
        """Options from ``{name: value}`` (unknown names raise :class:`OptionError`)."""
        known = {f.name for f in fields(cls)} - {"num_players"}
        for key in values:
            if key not in known:
                raise OptionError(f"three-thirteen has no option {key!r}")
        return cls(num_players=players, **values)  # type: ignore[arg-type]

    def as_dict(self) -> dict[str, OptionValue]:
        """The options as ``OPTION_SPECS`` names (``num_players`` excluded)."""
        return {spec.name: getattr(self, spec.name) for spec in OPTION_SPECS}

    @property
    def total_cards(self) -> int:
        return NATURALS * self.num_decks + self.jokers

    @property
    def meld_rules(self) -> MeldRules:
        return MeldRules(
            ace_mode=self.ace_mode, wild_points=self.wild_points, joker_points=self.joker_points
        )
