"""The table of the turn-based games: whose turn, AI pacing, score-sheet pauses, last moves.

:class:`TurnTable` knows no game. Each game supplies a :class:`TurnMatch`: the engine state of
the match in progress, each seat's view (built from ``observation(seat)``), the seat's legal
moves with their *ids* (the move's text notation, stable across states) and the piles each
move takes a card from and puts it on (``src`` / ``dst`` keys the page uses for clicks and
drag and drop), and the match's record once it is over.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from cardcore.errors import IllegalMoveError
from cardcore.games.base import HUMAN, get_game
from cardcore.web.rooms import RoomSetup
from cardcore.web.tables import Outcome, Table

__all__ = ["TurnMatch", "TurnTable"]


class TurnMatch(ABC):
    """A turn-based match as the table drives it.

    ``agent_names[s]`` is ``"human"`` for people (what records show). A match is made of
    *units* (a Three-Thirteen round, a Spite & Malice game); after each unit the table shows the
    score sheet and waits until every person has closed it.
    """

    game: str
    lower_is_better = False

    def __init__(self, setup: RoomSetup, agent_names: Sequence[str]) -> None:
        self.setup = setup
        self.agent_names = list(agent_names)

    @property
    @abstractmethod
    def current(self) -> int | None:
        """The seat to move, or ``None`` between units and once the match is over."""

    @abstractmethod
    def observation(self, seat: int) -> Any:
        """The engine's observation of ``seat`` (what an agent gets)."""

    @abstractmethod
    def legal_moves(self) -> list[Any]:
        """The current seat's legal moves (engine objects)."""

    @abstractmethod
    def view(self, seat: int) -> dict[str, Any]:
        """JSON-ready view of ``seat``: its observation, public scores, the sheet."""

    @abstractmethod
    def describe(self, move: Any) -> dict[str, Any]:
        """``{"id", "src", "dst", "text"}`` of a legal move of the current seat."""

    @abstractmethod
    def parse(self, move_id: str) -> Any:
        """The move named ``move_id`` (IllegalMoveError for text that names none)."""

    @abstractmethod
    def apply(self, move: Any) -> bool:
        """Plays ``move`` for the current seat (IllegalMoveError: unchanged); True when that
        ended a unit."""

    def next_unit(self) -> None:  # noqa: B027 - optional hook
        """Deals the next unit after a sheet (no-op when units continue by themselves)."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The finished match (scores, winner, record) or ``None``."""

    def agent_rng(self, seat: int) -> Any:
        """The seeded generator of ``seat``'s agent for the current unit."""
        raise NotImplementedError


class TurnTable(Table):
    """A :class:`TurnMatch` with AI seats that move ``ai_delay`` seconds apart."""

    def __init__(
        self, match: TurnMatch, agents: Sequence[str | None], ai_delay: float = 0.6
    ) -> None:
        spec = get_game(match.game)
        self.match = match
        self.players = len(agents)
        self.agents = [spec.make_agent(a) if a is not None else None for a in agents]
        self.humans = {s for s, a in enumerate(agents) if a is None}
        self.ai_delay = ai_delay
        self.last: list[dict[str, Any] | None] = [None] * self.players
        self.waiting: set[int] = set()
        self.ready_at = 0.0

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        if self.waiting or self.match.current != seat:
            return []
        return [self.match.describe(m) for m in self.match.legal_moves()]

    def view(self, seat: int) -> dict[str, Any]:
        return {
            **self.match.view(seat),
            "current": self.match.current,
            "legal": self._legal(seat),
            "last": self.last,
            "sheet_open": seat in self.waiting,
            "waiting_for": sorted(self.waiting),
        }

    def _play(self, seat: int, move: Any, now: float) -> None:
        note = self.match.describe(move)
        if self.match.apply(move):
            self.last = [None] * self.players
            self.waiting = set(self.humans) if self.match.outcome is None else set()
        else:
            self.last[seat] = note
        self.ready_at = now + self.ai_delay

    def act(self, seat: int, move: str, now: float) -> None:
        if self.match.outcome is not None:
            raise IllegalMoveError("the game is over")
        if self.waiting:
            raise IllegalMoveError("close the score sheet first")
        if self.match.current != seat:
            raise IllegalMoveError("it is not your turn")
        self._play(seat, self.match.parse(move), now)

    def proceed(self, seat: int, now: float) -> bool:
        if seat not in self.waiting:
            return False
        self.waiting.discard(seat)
        if not self.waiting:
            self.match.next_unit()
            self.ready_at = now + self.ai_delay
        return True

    def _ai_seat(self) -> int | None:
        s = self.match.current
        if s is None or self.waiting or self.match.outcome is not None:
            return None
        return s if self.agents[s] is not None else None

    def due(self) -> float | None:
        return self.ready_at if self._ai_seat() is not None else None

    def tick(self, now: float) -> bool:
        seat = self._ai_seat()
        if seat is None or now < self.ready_at:
            return False
        agent = self.agents[seat]
        assert agent is not None
        m = self.match
        move = agent.act(m.observation(seat), m.legal_moves(), m.agent_rng(seat))
        self._play(seat, move, now)
        return True

    @property
    def outcome(self) -> Outcome | None:
        return self.match.outcome


def agent_names(agents: Sequence[str | None]) -> list[str]:
    """Names for records: the agent's, or ``"human"`` for a person."""
    return [HUMAN if a is None else a for a in agents]
