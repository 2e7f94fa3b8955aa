"""Nerts options (`cardcore rules nerts`) and the speed profiles of the real-time model."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from cardcore.errors import OptionError
from cardcore.games.base import OptionSpec, OptionValue

__all__ = ["MAX_POINTS", "OPTION_SPECS", "SPEED_PROFILES", "Options", "SpeedProfile"]

MAX_POINTS: Final = 1000
"""The largest ``foundation_points``, ``nerts_penalty`` and ``nerts_bonus``. The engine scores a
seat in 32 bits and the look-ahead values a rollout as ``3 * own - others`` (4 seats): at most
``6 * (52 + 40 + 1) * MAX_POINTS`` = 558,000 in size, far inside ``i32`` (2^31 - 1); the same
bound as Three-Thirteen's card points and Spite & Malice's ``win_bonus``."""

OPTION_SPECS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec("nerts_pile_size", 13, "cards dealt to each Nerts pile", minimum=1, maximum=40),
    OptionSpec("work_piles", 4, "work piles per player", choices=(4, 5)),
    OptionSpec("flip_count", 3, "cards turned per Flip", choices=(3, 1)),
    OptionSpec(
        "stock_passes",
        None,
        "passes through the stock (None = unlimited)",
        minimum=1,
        maximum=1000,
        nullable=True,
    ),
    OptionSpec("allow_partial_pile_moves", True, "any top segment may move", kind=bool),
    OptionSpec(
        "empty_work_pile_fill",
        "any",
        "what may fill an empty work pile",
        choices=("any", "nerts_only"),
        kind=str,
    ),
    OptionSpec("auto_call_nerts", False, "call Nerts the moment the pile empties", kind=bool),
    OptionSpec(
        "foundation_points",
        1,
        "points per own card on the foundations",
        minimum=0,
        maximum=MAX_POINTS,
    ),
    OptionSpec(
        "nerts_penalty",
        2,
        "points lost per card left in the Nerts pile",
        minimum=0,
        maximum=MAX_POINTS,
    ),
    OptionSpec("nerts_bonus", 0, "bonus for the caller (NNA: 10)", minimum=0, maximum=MAX_POINTS),
    OptionSpec(
        "target_score", 100, "match ends when a total reaches this", minimum=1, maximum=100_000
    ),
    OptionSpec(
        "stalemate_rule",
        "rotate_one",
        "what a global stalemate does",
        choices=("rotate_one", "flip_one", "end_round"),
        kind=str,
    ),
    OptionSpec(
        "max_consecutive_stalemates",
        3,
        "resolutions without progress before the round ends",
        minimum=0,
        maximum=1000,
    ),
    OptionSpec(
        "speed", "classic", "AI table speed", choices=("chill", "classic", "frantic"), kind=str
    ),
    OptionSpec(
        "undo_depth", 1, "own actions that can be undone (0 disables Undo)", minimum=0, maximum=8
    ),
)


@dataclass(frozen=True, slots=True)
class SpeedProfile:
    """Reaction-time profile of a table speed: medians in ms per action class."""

    name: str
    m_play: int
    m_build: int
    m_seq: int
    m_flip: int
    m_call: int
    sigma: float
    miss: float
    min_ms: int
    max_ms: int

    @property
    def retry_ms(self) -> int:
        return self.m_play // 2


SPEED_PROFILES: Final[Mapping[str, SpeedProfile]] = {
    "chill": SpeedProfile("chill", 2200, 2600, 3200, 1400, 1500, 0.35, 0.15, 600, 8000),
    "classic": SpeedProfile("classic", 1300, 1600, 2000, 850, 800, 0.30, 0.08, 350, 5000),
    "frantic": SpeedProfile("frantic", 700, 900, 1150, 450, 400, 0.25, 0.03, 200, 3000),
}


@dataclass(frozen=True, slots=True)
class Options:
    """Validated options of one round or match (`cardcore rules nerts`)."""

    num_players: int = 2
    nerts_pile_size: int = 13
    work_piles: int = 4
    flip_count: int = 3
    stock_passes: int | None = None
    allow_partial_pile_moves: bool = True
    empty_work_pile_fill: str = "any"
    auto_call_nerts: bool = False
    foundation_points: int = 1
    nerts_penalty: int = 2
    nerts_bonus: int = 0
    target_score: int = 100
    stalemate_rule: str = "rotate_one"
    max_consecutive_stalemates: int = 3
    speed: str = "classic"
    undo_depth: int = 1

    @classmethod
    def from_mapping(cls, players: int, given: Mapping[str, OptionValue]) -> Options:
        """Validates ``given`` (unknown keys raise) and fills in defaults."""
        if not 2 <= players <= 4:
            raise OptionError(f"nerts needs 2..4 players, got {players}")
        known = {o.name: o for o in OPTION_SPECS}
        values: dict[str, Any] = {}
        for key, value in given.items():
            if key not in known:
                raise OptionError(f"nerts has no option {key!r}")
            values[key] = known[key].validate(value)
        opts = cls(num_players=players, **values)
        if opts.nerts_pile_size + opts.work_piles > 52:
            raise OptionError("nerts_pile_size + work_piles must leave a stock")
        return opts

    def as_dict(self) -> dict[str, OptionValue]:
        """The options (without ``num_players``) as plain JSON-ready values."""
        return {o.name: getattr(self, o.name) for o in OPTION_SPECS}

    @property
    def profile(self) -> SpeedProfile:
        return SPEED_PROFILES[self.speed]
