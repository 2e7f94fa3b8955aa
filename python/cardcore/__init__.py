"""cardcore: fast, correct engines and AIs for Three-Thirteen Rummy, Spite & Malice and Nerts.

The stable API is this package; ``cardcore._core`` (the Rust extension) is private.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from cardcore.cards import Card, format_cards, make_deck, parse_card, parse_cards
from cardcore.errors import (
    ArgumentRangeError,
    ArgumentTypeError,
    CardcoreError,
    CardParseError,
    IllegalMoveError,
    OptionError,
    ReplayMismatchError,
    RunError,
    StateFormatError,
    UnregisteredAgentError,
    UnsupportedVersionError,
)
from cardcore.rng import (
    RNG_VERSION,
    Rng,
    deck_order,
    derive_seed,
    shuffle,
    shuffle_batch,
    shuffled_deck,
)

if TYPE_CHECKING:
    from cardcore.games.api import Game


def load_game(name: str, **options: Any) -> Game[Any]:
    """The game ``name`` with validated ``options`` (``players`` among them); see
    :func:`cardcore.games.api.load_game` and ``docs/embedding.md``."""
    from cardcore.games.api import load_game as _load_game

    return _load_game(name, **options)


def simulate(game: str, **kwargs: Any) -> Iterator[dict[str, Any]]:
    """Plays many games of ``game``; see :func:`cardcore.sim.simulate` for the arguments."""
    from cardcore.sim import simulate as _simulate

    return _simulate(game, **kwargs)


try:
    __version__ = version("cardcore")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "RNG_VERSION",
    "ArgumentRangeError",
    "ArgumentTypeError",
    "Card",
    "CardParseError",
    "CardcoreError",
    "IllegalMoveError",
    "OptionError",
    "ReplayMismatchError",
    "Rng",
    "RunError",
    "StateFormatError",
    "UnregisteredAgentError",
    "UnsupportedVersionError",
    "__version__",
    "deck_order",
    "derive_seed",
    "format_cards",
    "load_game",
    "make_deck",
    "parse_card",
    "parse_cards",
    "shuffle",
    "shuffle_batch",
    "shuffled_deck",
    "simulate",
]
