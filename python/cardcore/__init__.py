"""cardcore: fast, correct engines and AIs for Three-Thirteen Rummy, Spite & Malice and Nerts.

The stable API is this package; ``cardcore._core`` (the Rust extension) is private.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from cardcore.cards import Card, format_cards, make_deck, parse_card, parse_cards
from cardcore.errors import (
    ArgumentRangeError,
    ArgumentTypeError,
    CardcoreError,
    CardParseError,
    ConcurrentUseError,
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
    from cardcore.games.base import AgentFactory, OptionValue


def load_game(name: str, **options: Any) -> Game[Any]:
    """The game ``name`` with validated ``options`` (``players`` among them); see
    :func:`cardcore.games.api.load_game` and ``docs/embedding.md``."""
    from cardcore.games.api import load_game as _load_game

    return _load_game(name, **options)


def simulate(
    game: str,
    *,
    games: int = 1000,
    seed: int,
    players: int | None = None,
    agents: Sequence[str | AgentFactory] | str | None = None,
    options: Mapping[str, OptionValue] | None = None,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    match: bool = False,
    rotate_seats: bool = False,
    paired: bool = False,
    replays: bool = False,
    chunk_size: int | None = None,
    start: int = 0,
) -> Iterator[dict[str, Any]]:
    """Plays ``games`` games (or matches) of ``game`` and yields one record each, in order.

    ``agents``: one name for every seat or one per seat: a level (``easy``, ``normal``,
    ``hard``, ``expert``), a game's own agent name, ``"pkg.mod:factory"`` or a factory callable
    (one used with ``jobs > 1`` must be importable by its ``module:qualname``). ``options``: the
    game's rules options (``cardcore games GAME`` lists them). ``rotate_seats`` shifts the agents
    one seat per game so each plays each seat equally often; ``paired`` also deals the same
    cards to every rotation, for paired comparisons. ``jobs`` worker processes, or
    ``backend="ray"`` (``address`` of a cluster); ``match`` plays whole matches; ``replays``
    adds each game's replay to its record; ``start`` skips to game index ``start``. Records are
    identical for any ``jobs``, ``chunk_size`` or ``backend``
    (:func:`cardcore.sim.simulate`).
    """
    from cardcore.sim import simulate as _simulate

    return _simulate(
        game,
        games=games,
        seed=seed,
        players=players,
        agents=agents,
        options=options,
        jobs=jobs,
        backend=backend,
        address=address,
        match=match,
        rotate_seats=rotate_seats,
        paired=paired,
        replays=replays,
        chunk_size=chunk_size,
        start=start,
    )


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
    "ConcurrentUseError",
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
