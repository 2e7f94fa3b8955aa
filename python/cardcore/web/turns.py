"""The table of the turn-based games: whose turn, AI pacing, score-sheet pauses, last moves.

Built on the embedding protocol only (``docs/embedding.md``), as any program embedding cardcore
would be: a :class:`TurnMatch` holds the match's ``game`` (``cardcore.load_game``) and the
protocol ``State`` of the game in progress. A seat's view is its ``observation_json(seat)``
document as it is, plus what the table adds: the seat's legal moves (action id, move text, and
the piles each takes a card from and puts it on: ``src`` / ``dst`` keys the page uses for
clicks and drag and drop), each seat's last move and the score sheet. A browser sends back an
action id (or a move's text); the server finds it among ``legal_moves()`` and ``apply``-s it.

:class:`TurnTable` knows no game: each game supplies the pile keys of its moves, the few
fields it shows beyond the observation, its score sheet and its match record.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from cardcore.errors import IllegalMoveError
from cardcore.games.api import load_game
from cardcore.games.base import HUMAN, get_game
from cardcore.web.rooms import RoomSetup
from cardcore.web.tables import Outcome, RestoreError, Table

__all__ = ["TurnMatch", "TurnTable", "agent_names"]


class TurnMatch(ABC):
    """A turn-based match as the table drives it.

    ``agent_names[s]`` is ``"human"`` for people (what records show). A match is made of
    *units* (a Three-Thirteen round, a Spite & Malice game); after each unit every person sees the
    score sheet while the next unit is dealt at once (nobody waits for anyone to close it).
    Subclasses set :attr:`state` (the protocol state of the game in progress).
    """

    lower_is_better = False
    state: Any

    def __init__(self, setup: RoomSetup, agent_names: Sequence[str]) -> None:
        self.setup = setup
        self.agent_names = list(agent_names)
        self.game = load_game(setup.game, players=setup.players, **dict(setup.options))
        self._sheet: tuple[Any, dict[str, Any]] | None = None

    @property
    def current(self) -> int | None:
        """The seat to move, or ``None`` between units and once the match is over."""
        return None if self.state.is_over else self.state.current_player

    def legal_moves(self) -> list[Any]:
        return list(self.state.legal_moves())

    def entry(self, move: Any) -> dict[str, Any]:
        """What the page gets for a legal move: ``{"id", "move", "src", "dst", "text"}``."""
        game = self.game
        return {
            "id": game.move_to_action(move),
            "move": game.move_text(move),
            **self.describe(move),
        }

    def resolve(self, move: int | str) -> Any:
        """The current seat's legal move with action id ``move`` (or written ``move``);
        :class:`IllegalMoveError` when there is none."""
        if isinstance(move, str):
            return self.game.parse_move(move)  # apply() checks that it is legal
        for m in self.state.legal_moves():
            if self.game.move_to_action(m) == move:
                return m
        raise IllegalMoveError(f"action {move} is not a legal move now")

    def sheet_view(self) -> dict[str, Any]:
        """:meth:`sheet`, built again only when it changes (the same object until then)."""
        key = self.sheet_key()
        if self._sheet is None or self._sheet[0] != key:
            self._sheet = (key, self.sheet())
        return self._sheet[1]

    @abstractmethod
    def describe(self, move: Any) -> dict[str, Any]:
        """``{"src", "dst", "text"}`` (and ``"card"``, its text) of a legal move of the
        current seat, read before it is played."""

    @abstractmethod
    def extras(self, seat: int, observation: Mapping[str, Any]) -> dict[str, Any]:
        """JSON-ready fields the page shows beyond ``seat``'s observation document
        ``observation`` (nothing hidden). Return the same objects while they do not change:
        the room then skips them when it looks for what changed."""

    @abstractmethod
    def sheet(self) -> dict[str, Any]:
        """The score sheet: ``rows`` (``label``, ``scores``, ``marked``), ``totals``, ``final``."""

    @abstractmethod
    def sheet_key(self) -> object:
        """Changes whenever :meth:`sheet` does."""

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

    @abstractmethod
    def agent_rng(self, seat: int) -> Any:
        """The seeded generator of ``seat``'s agent for the current unit."""


class TurnTable(Table):
    """A :class:`TurnMatch` with AI seats that move ``ai_delay`` seconds apart.

    When a unit ends, each person's score sheet opens (``sheet_open`` in their view) and the
    next unit is dealt at once: a person closes the sheet (``next``) or just plays on whenever
    ready, and the others, people or AIs, play meanwhile."""

    logs = ("history",)

    def __init__(
        self, match: TurnMatch, agents: Sequence[str | None], ai_delay: float = 0.6
    ) -> None:
        spec = get_game(match.game.name)
        self.match = match
        self.players = len(agents)
        self.spec = spec
        self.agents = [spec.make_agent(a) if a is not None else None for a in agents]
        self.humans = {s for s, a in enumerate(agents) if a is None}
        self.stand_ins: dict[int, Any] = {}
        """Person's seats an AI plays for (its owner away, or the host handed it over); the
        record still names the seat ``human``: its moves are in the replay."""
        self.ai_delay = ai_delay
        self.last: list[dict[str, Any] | None] = [None] * self.players
        self.sheet_open: set[int] = set()
        self.ready_at = 0.0
        self.played = 0
        self.history: list[tuple[int, int, int]] = []
        """Every move played, in order: ``(seat, action id, 1 if an AI seat's own)`` (tuples
        of ints, which the garbage collector stops tracking: a long match's moves do not
        lengthen its full collections, as lists would)."""

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        if self.match.current != seat:
            return []
        return [self.match.entry(m) for m in self.match.legal_moves()]

    def view(self, seat: int) -> dict[str, Any]:
        return self.views([seat])[0]

    def views(self, seats: Sequence[int]) -> list[dict[str, Any]]:
        """Each seat's observation document, then what the table adds; what the seats see
        alike is built once and shared by their views (the room compares it once)."""
        m = self.match
        docs = m.game.observation_documents(m.state, seats)
        current = m.current
        shared = {"sheet": m.sheet_view(), "game": m.game.name}
        last = list(self.last)
        return [
            {
                "observation": doc,
                **shared,
                **m.extras(seat, doc["observation"]),
                "current": current,
                "legal": self._legal(seat),
                "last": last,
                "sheet_open": seat in self.sheet_open,
            }
            for seat, doc in zip(seats, docs, strict=True)
        ]

    def _play(self, seat: int, move: Any, now: float) -> None:
        note = self.match.entry(move)
        self.history.append((seat, note["id"], int(self.agents[seat] is not None)))
        self.played += 1
        note["n"] = self.played  # the page rings a pile with the latest of the moves onto it
        if self.match.apply(move):
            self.last = [None] * self.players
            self.sheet_open = set(self.humans)
            self.match.next_unit()
        else:
            self.last[seat] = note
        self.ready_at = now + self.ai_delay

    def act(self, seat: int, move: int | str, now: float) -> None:
        if self.match.outcome is not None:
            raise IllegalMoveError("the game is over")
        if self.match.current != seat:
            raise IllegalMoveError("it is not your turn")
        chosen = self.match.resolve(move)
        self.sheet_open.discard(seat)  # a person who plays on is done with the last sheet
        self._play(seat, chosen, now)

    def proceed(self, seat: int, now: float) -> bool:
        if seat not in self.sheet_open:
            return False
        self.sheet_open.discard(seat)
        return True

    def _agent(self, seat: int) -> Any:
        agent = self.agents[seat]
        return agent if agent is not None else self.stand_ins.get(seat)

    def _ai_seat(self) -> int | None:
        s = self.match.current
        if s is None or self.match.outcome is not None:
            return None
        return s if self._agent(s) is not None else None

    def turn(self) -> int | None:
        s = self.match.current
        if s is None or self.match.outcome is not None or self._agent(s) is not None:
            return None
        return s

    def stand_in(self, seat: int, on: bool) -> bool:
        if seat not in self.humans or on == (seat in self.stand_ins):
            return False
        if on:
            self.stand_ins[seat] = self.spec.make_agent(self.match.setup.agent)
        else:
            del self.stand_ins[seat]
        return True

    def due(self) -> float | None:
        return self.ready_at if self._ai_seat() is not None else None

    def think(self, now: float) -> Callable[[], object] | None:
        seat = self._ai_seat()
        if seat is None or now < self.ready_at:
            return None
        agent = self._agent(seat)
        assert agent is not None
        m = self.match
        decision = (seat, self.played)
        # built here, on the loop: the worker only reads its own copies (and the seat's rng)
        observation, legal, rng = m.state.observation(seat), m.legal_moves(), m.agent_rng(seat)
        return lambda: (decision, agent.act(observation, legal, rng))

    def conclude(self, thought: object, now: float) -> bool:
        (seat, played), move = cast(tuple[tuple[int, int], Any], thought)
        if (seat, played) != (self._ai_seat(), self.played):
            return False
        self._play(seat, move, now)
        return True

    def tick(self, now: float) -> bool:
        job = self.think(now)
        return job is not None and self.conclude(job(), now)

    def snapshot(self) -> dict[str, Any]:
        return {
            "history": self.history,
            "sheet_open": sorted(self.sheet_open),
            "stand_ins": sorted(self.stand_ins),
        }

    def restore(self, snapshot: Mapping[str, Any], now: float) -> None:
        """Plays the saved moves again from the deal. An AI seat's moves are chosen again by
        its agent (so its random stream is where it was, and the replay still verifies) and
        must come out the same."""
        m = self.match
        for seat, action, by_ai in snapshot["history"]:
            if m.current != seat or m.outcome is not None:
                raise RestoreError(f"move {len(self.history)}: not seat {seat}'s turn")
            agent = self.agents[seat]
            if by_ai and agent is not None:
                chosen = agent.act(m.state.observation(seat), m.legal_moves(), m.agent_rng(seat))
                if m.game.move_to_action(chosen) != action:
                    raise RestoreError(f"move {len(self.history)}: the AI chose otherwise")
            else:
                chosen = m.resolve(action)
            self._play(seat, chosen, now)
        self.sheet_open = set(snapshot["sheet_open"]) & self.humans
        for seat in snapshot["stand_ins"]:
            self.stand_in(seat, True)

    @property
    def outcome(self) -> Outcome | None:
        return self.match.outcome


def agent_names(agents: Sequence[str | None]) -> list[str]:
    """Names for records: the agent's, or ``"human"`` for a person."""
    return [HUMAN if a is None else a for a in agents]
