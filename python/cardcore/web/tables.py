"""A *table* is the game a room plays, behind one small interface.

The room (:mod:`cardcore.web.rooms`) knows nothing about any game: it asks its table for each
seat's view, passes moves on, and wakes the table when it is due (an AI's move, the Nerts
clock). Concrete tables are built on the public game protocol (``cardcore.load_game``) in
:mod:`cardcore.web.games`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cardcore.errors import CardcoreError

__all__ = ["Outcome", "RestoreError", "Table"]


class RestoreError(CardcoreError, ValueError):
    """A saved table that does not fit the game it was saved from (another version's)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished table: final scores (the game's own points; ``lower_is_better`` for
    Three-Thirteen), the winning seat or ``None``, and the record (with its replay) that
    ``cardcore replay`` verifies."""

    scores: list[float]
    winner: int | None
    record: Mapping[str, Any] = field(default_factory=dict)
    lower_is_better: bool = False


class Table(ABC):
    """One game (or match) in progress. Every method runs on the server's event loop.

    Times are monotonic seconds given by the room, so tests can drive a table with a fake
    clock.
    """

    players: int
    logs: ClassVar[tuple[str, ...]] = ()
    """Members of :meth:`snapshot` that are lists which only grow (the moves played): an
    item once there never changes, so the room store writes only the items added since its
    last write (:mod:`cardcore.web.store`)."""

    @abstractmethod
    def view(self, seat: int) -> dict[str, Any]:
        """JSON-ready: what ``seat`` may see (its observation and its legal actions), nothing
        hidden from it. Made of new objects that nothing changes afterwards: the room keeps the
        view it sent and compares the next one with it."""

    def views(self, seats: Sequence[int]) -> list[dict[str, Any]]:
        """:meth:`view` of each of ``seats`` (a table may share work between them)."""
        return [self.view(seat) for seat in seats]

    @abstractmethod
    def act(self, seat: int, move: int | str, now: float) -> None:
        """Plays ``seat``'s move ``move`` (an id from the view: the action id, or the move's
        text). Raises :class:`~cardcore.errors.IllegalMoveError` (the game unchanged) when it
        is refused."""

    @abstractmethod
    def due(self) -> float | None:
        """When :meth:`tick` should run next (monotonic seconds), or ``None`` to wait for a
        person."""

    @abstractmethod
    def tick(self, now: float) -> bool:
        """Does what is due by ``now`` (AI moves, the clock); True when anything changed."""

    def think(self, now: float) -> Callable[[], object] | None:
        """The part of :meth:`tick` that may run off the event loop (an AI choosing a move): a
        function of nothing that reads only what it was given, or ``None`` when there is no
        such work now. The room runs it in a worker thread (the engine's Rust searches release
        the GIL) and hands its result to :meth:`conclude` back on the loop."""
        return None

    def conclude(self, thought: object, now: float) -> bool:
        """Acts on what a :meth:`think` function returned (ignored if the table has moved on
        since); True when anything changed."""
        raise NotImplementedError

    def turn(self) -> int | None:
        """The person's seat the table waits for (its turn, nobody playing for it), or
        ``None`` (an AI's turn, or a table where nobody waits for anybody, as in Nerts)."""
        return None

    def stand_in(self, seat: int, on: bool) -> bool:
        """An AI plays person's seat ``seat`` from now on (``on``), or no longer; True when
        that changed anything (False: this table has no stand-ins)."""
        return False

    def live_since(self) -> float | None:
        """In a real-time table (nobody's turn: every seat plays when it likes), when the
        part in play began (a Nerts round; monotonic seconds), or ``None`` when nothing is in
        play. A person's seat with no page open then counts as away from that time or from
        when its last page left, whichever is later."""
        return None

    def snapshot(self) -> dict[str, Any] | None:
        """JSON-ready: what :meth:`restore` needs to bring a table built afresh from the same
        setup back to this point after a server restart (``None``: the table cannot be saved,
        and the room is not kept)."""
        return None

    def restore(self, snapshot: Mapping[str, Any], now: float) -> None:
        """Brings a table just built from the room's setup to ``snapshot``
        (:class:`RestoreError` when it does not fit)."""
        raise RestoreError("this table cannot be restored")

    def proceed(self, seat: int, now: float) -> bool:
        """``seat`` closed the score sheet; True when that dealt the next round or game."""
        return False

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the whole game or match is over, else ``None``."""
