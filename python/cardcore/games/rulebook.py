"""The half of every turn-based game's state facade that is the same for every game: a Python
``State`` that holds its game's Rust rulebook state (``_s``, a ``cardcore._core.State``, the
one generic binding) and delegates to it. A game's facade adds its typed moves, its
``Observation`` and the fields it reads from its rulebook (:func:`rulebook_field`).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any, ClassVar, Generic, TypeVar

from cardcore import _core
from cardcore.games import api

__all__ = ["RulebookState", "rulebook_field"]

MoveT = TypeVar("MoveT")
S = TypeVar("S", bound="RulebookState[Any]")


def rulebook_field(get: Callable[[_core.State, str], Any], name: str, doc: str = "") -> property:
    """A read-only attribute: field ``name`` of the rulebook state, read by the game's getter
    ``get`` (``_core.tt_get``, ``_core.sm_get``, ...)."""

    def read(self: RulebookState[Any]) -> Any:
        return get(self._s, name)

    return property(read, doc=doc or f"The rulebook's ``{name}``.")


class RulebookState(api.State[MoveT], Generic[MoveT]):
    """A state whose rules are its game's Rust rulebook (``_s``); ``options`` are the game's
    validated options. ``GAME_MODULE`` names the module whose ``game_for(options)`` gives the
    :class:`~cardcore.games.api.Game` (imported on first use: the game module imports the
    state's). Not thread-safe: one state is used by one thread at a time; ``apply``,
    ``clone`` and ``to_json`` are one rulebook call each (``_atomic``: the GIL is their lock).
    """

    __slots__ = ("_game", "_s", "options")
    _atomic: ClassVar = ("apply", "clone", "to_json")
    GAME_MODULE: ClassVar[str]
    options: Any
    _game: Any
    _s: _core.State

    @classmethod
    def _wrap(cls: type[S], options: Any, inner: _core.State, game: Any) -> S:
        """A facade over the rulebook state ``inner``."""
        st = cls.__new__(cls)
        st.options = options
        st._game = game
        st._s = inner
        return st

    def clone(self: S) -> S:
        """An independent copy (the deck stream included)."""
        return type(self)._wrap(self.options, self._s.clone(), self._game)

    @property
    def game(self) -> Any:
        """The game (rules and options) of this state, built once from ``options``."""
        game = self._game
        if game is None:
            game = self._game = import_module(self.GAME_MODULE).game_for(self.options)
        return game

    @property
    def current_player(self) -> int | None:
        return self._s.current_player

    @property
    def is_over(self) -> bool:
        return self._s.is_over

    def legal_actions(self) -> list[int]:
        """The legal action ids, sorted."""
        return self._s.legal_actions()

    def returns(self) -> list[float]:
        """One utility per seat once the game is over (all 0 before): +1 for each winner, -1
        for the others; all 0 when nobody wins."""
        return self._s.returns()

    def resample_hidden(self: S, seat: int, seed: int) -> S:
        """See :meth:`cardcore.games.api.State.resample_hidden` and ``docs/embedding.md``."""
        seat = api.check_seat(seat, self._s.num_players)
        seed = api.check_seed(seed)
        return type(self)._wrap(self.options, self._s.resample_hidden(seat, seed), self._game)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (api.state_from_json, (self.to_json(),))
