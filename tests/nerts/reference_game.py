"""The oracle of the Nerts protocol state: the 0.4.0 ``NertsState`` (the Python engine's
``cardcore.nerts.engine.Round`` behind the protocol) as a game whose states it makes, for
``test_nerts_oracle.py``. The game's moves, ids and JSON are ``NertsGame``'s own; only the
state and what reads it are the old code."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from cardcore import _core
from cardcore.errors import IllegalMoveError, OptionError, StateFormatError, UnregisteredAgentError
from cardcore.games import api
from cardcore.games.base import get_game, resolve_agent
from cardcore.nerts.engine import NertsObservation
from cardcore.nerts.game import NertsGame
from cardcore.nerts.rules import Action, Options, parse_action
from nerts_reference_engine import Round

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


@lru_cache(maxsize=16)
def reference_game(options: Options) -> ReferenceGame:
    """The oracle's game of ``options``."""
    return ReferenceGame(options)


class ReferenceGame(NertsGame):
    """``NertsGame`` whose states are the 0.4.0 ``NertsState`` (:class:`ReferenceState`)."""

    def new_state(self, seed: int, *, agents: Sequence[str | None] | None = None) -> ReferenceState:  # type: ignore[override]
        return ReferenceState(self, seed, agents)

    def _observation_tensor(self, state: ReferenceState, seat: int) -> NDArray[np.float32]:  # type: ignore[override]
        rnd = state._round
        return self._tensor(_Seen(rnd, seat), rnd.pending(seat))  # type: ignore[arg-type]

    def _observation_body(self, state: ReferenceState, seat: int) -> dict[str, Any]:  # type: ignore[override]
        rnd = state._round
        obs = rnd.observation(seat)
        text = self._codec.text
        enc = self._codec.encode
        return {
            "now": rnd.now,
            "running": rnd.running,
            "foundations": [enc(f) for f in obs.foundation_piles],
            "players": [
                {
                    "nerts_top": None if pl.nerts_top is None else text(pl.nerts_top),
                    "nerts_count": pl.nerts_count,
                    "stock_count": pl.stock_count,
                    "waste_top": None if pl.waste_top is None else text(pl.waste_top),
                    "waste_count": pl.waste_count,
                    "work": [enc(x) for x in pl.work],
                }
                for pl in obs.players
            ],
            "waste_fan": enc(obs.waste_fan),
            "recycles": obs.recycles,
            "stalemates": obs.stalemates,
            "pending": rnd.pending(seat),
            "end": rnd.end,
            "caller": rnd.caller,
            "points": rnd.scores() if not rnd.running else None,
        }

    def _snapshot(self, state: ReferenceState) -> dict[str, Any]:  # type: ignore[override]
        """Everything on the table (hidden cards included), to check a re-run against."""
        rnd = state._round
        enc = self._codec.encode
        return {
            "now": rnd.now,
            "end": rnd.end,
            "caller": rnd.caller,
            "executed": rnd.executed,
            "events": len(rnd.log),
            "foundations": [enc(f) for f in rnd.table.foundations],
            "players": [
                {
                    "nerts": enc(pl.nerts),
                    "work": [enc(x) for x in pl.work],
                    "stock": enc(pl.stock),
                    "waste": enc(pl.waste),
                    "recycles": pl.recycles,
                    "flip_count": pl.flip_count,
                    "stalemates": pl.stalemates,
                }
                for pl in rnd.table.players
            ],
        }

    def _state_from_body(self, body: Mapping[str, Any]) -> ReferenceState:  # type: ignore[override]
        seed = api.read_int(body["seed"], 0, (1 << 64) - 1)
        agents = api.read_list(body["agents"], self.num_players)
        spec = get_game(self.name)
        for name in agents:
            if name is not None:
                try:
                    resolve_agent(spec, str(name), registered_only=True)
                except UnregisteredAgentError as e:
                    raise StateFormatError(str(e)) from None
        st = ReferenceState(self, seed, agents)
        ops = body["ops"]
        if not isinstance(ops, list):
            raise StateFormatError("'ops' is not a list")
        try:
            for op in ops:
                st._replay(op)
        except (IllegalMoveError, ValueError) as e:
            raise StateFormatError(f"the recorded play does not re-run: {e}") from None
        if self._snapshot(st) != body["table"]:
            raise StateFormatError("the table does not follow from the seed, agents and play")
        return st


class _SeenPlayer:
    """A :class:`PublicPlayer` without copies of the piles (for the tensor)."""

    __slots__ = ("nerts_count", "nerts_top", "stock_count", "waste_count", "waste_top", "work")

    def __init__(self, pl: Any) -> None:
        self.nerts_count = len(pl.nerts)
        self.nerts_top = pl.nerts[-1] if pl.nerts else None
        self.stock_count = len(pl.stock)
        self.waste_count = len(pl.waste)
        self.waste_top = pl.waste[-1] if pl.waste else None
        self.work = pl.work


class _Seen:
    """What :class:`NertsObservation` shows, under its names, without copying the piles."""

    __slots__ = ("foundations", "now", "players", "recycles", "seat", "stalemates")

    def __init__(self, rnd: Round, seat: int) -> None:
        table = rnd.table
        me = table.players[seat]
        self.seat = seat
        self.now = rnd.now
        self.foundations = [f[-1] for f in table.foundations]
        self.players = [_SeenPlayer(pl) for pl in table.players]
        self.recycles = me.recycles
        self.stalemates = me.stalemates


class ReferenceState(api.RealtimeState[Action]):
    """One real-time Nerts round (build with ``load_game("nerts").new_state(seed)``).

    Seats act when they like: :meth:`submit` schedules a seat's move at a clock reading (it is
    checked when it executes and fails, changing nothing, when the table moved on);
    :meth:`advance_to` and :meth:`step` run the clock; seats given an agent act by themselves
    at the speed of the table (``speed`` option). Hidden information (the stocks, the Nerts
    piles below their tops) lives in the wrapped engine round, which is private.
    """

    __slots__ = ("_game", "_ops", "_round", "agents", "seed")

    def __init__(self, game: ReferenceGame, seed: int, agents: Sequence[str | None] | None) -> None:
        p = game.num_players
        names: list[str | None] = [None] * p if agents is None else list(agents)
        if len(names) != p:
            raise OptionError(f"{p} players need {p} agents (None for a seat driven from outside)")
        spec = get_game(game.name)
        players = [None if n is None else spec.make_agent(str(n)) for n in names]
        self._game = game
        self.seed = seed
        self.agents: tuple[str | None, ...] = tuple(names)
        self._round = Round(game.rules, seed, players)
        self._ops: list[list[Any]] = []

    @property
    def game(self) -> ReferenceGame:
        return self._game

    @property
    def now(self) -> int:
        return self._round.now

    @property
    def is_over(self) -> bool:
        return not self._round.running

    def legal_moves(self, seat: int) -> list[Action]:
        seat = api.check_seat(seat, self._game.num_players)
        return self._round.legal(seat)

    def legal_actions(self, seat: int) -> list[int]:
        seat = api.check_seat(seat, self._game.num_players)
        rnd = self._round
        if not rnd.running:
            return []
        table = rnd.table
        out = self._game.actions_of_codes(_core.nerts_move_codes(table.encode(seat)))
        if table.undo_legal(seat):
            out.append(self._game._undo)
        return out

    def pending(self, seat: int) -> bool:
        """Whether ``seat`` has a move scheduled (a seat has at most one)."""
        seat = api.check_seat(seat, self._game.num_players)
        return self._round.pending(seat)

    def submit(self, seat: int, move: Action | int, t_ms: int) -> None:
        """Schedules ``move`` (a move or an action id) for ``seat`` at ``t_ms`` (>= :attr:`now`).

        Raises :class:`~cardcore.errors.IllegalMoveError`, changing nothing, when the round is
        over, the seat already has a move scheduled, ``t_ms`` is in the past or ``move`` is not
        a move of this game. Whether the move is legal is decided when it executes."""
        game = self._game
        seat = api.check_seat(seat, game.num_players)
        index = api.action_id(move)
        action = game.action_to_move(index) if index is not None else cast(Action, move)
        game.move_to_action(action)  # raises for anything that is not a Nerts move
        rnd = self._round
        if not rnd.running:
            raise IllegalMoveError("the round is over")
        if isinstance(t_ms, bool) or not isinstance(t_ms, int) or t_ms < rnd.now:
            raise IllegalMoveError(f"t_ms {t_ms!r} is not an int at or after now ({rnd.now})")
        if rnd.pending(seat):
            raise IllegalMoveError(f"seat {seat} already has a move scheduled")
        rnd.submit(seat, action, t_ms)
        self._ops.append(["submit", seat, str(action), t_ms])

    def advance_to(self, t_ms: int, *, watch: Callable[[], object] | None = None) -> None:
        """Runs every event due by ``t_ms`` and moves the clock there; ``watch`` is called
        after each event (it may raise to stop: replay checks).

        Raises :class:`~cardcore.errors.OptionError`, changing nothing, when ``t_ms`` is not
        an int or is before :attr:`now` (the clock never goes back); ``t_ms == now`` runs
        what is due now. After the round ended any later time is accepted and changes
        nothing."""
        if isinstance(t_ms, bool) or not isinstance(t_ms, int):
            raise OptionError(f"t_ms must be an int, not {t_ms!r}")
        if t_ms < self._round.now:
            raise OptionError(
                f"t_ms {t_ms} is before now ({self._round.now}): the clock never goes back"
            )
        self._ops.append(["advance", t_ms])
        self._round.advance_to(t_ms, watch)

    def step(self) -> bool:
        done = self._round.step()
        ops = self._ops
        if ops and ops[-1][0] == "step":
            ops[-1][1] += 1
        else:
            ops.append(["step", 1])
        return done

    def run(self, *, watch: Callable[[], object] | None = None) -> None:
        """Plays to the end of the round (seats without an agent never act); ``watch`` as in
        :meth:`advance_to`."""
        self._ops.append(["run"])
        self._round.run(watch)

    def _replay(self, op: object) -> None:
        """Repeats one recorded call (reading a state document)."""
        if not isinstance(op, list) or not op or op[0] not in ("submit", "advance", "step", "run"):
            raise StateFormatError(f"not a recorded call: {op!r}")
        kind = op[0]
        if kind == "submit" and len(op) == 4:
            self.submit(op[1], self._game.parse_move(op[2]), op[3])
        elif kind == "advance" and len(op) == 2:
            self.advance_to(op[1])
        elif kind == "step" and len(op) == 2:
            n = api.read_int(op[1], 1, 1 << 62)
            for i in range(n):
                if not self.step() and not self._round._queue:
                    self._ops[-1][1] += n - 1 - i  # the rest were no-ops: record, skip
                    break
        elif kind == "run" and len(op) == 1:
            self.run()
        else:
            raise StateFormatError(f"not a recorded call: {op!r}")

    def observation(self, seat: int) -> NertsObservation:
        seat = api.check_seat(seat, self._game.num_players)
        return self._round.observation(seat)

    def returns(self) -> list[float]:
        """The round's points (foundation cards less the Nerts-pile penalty, the caller's
        bonus) once it is over; all 0 before."""
        if self._round.running:
            return [0.0] * self._game.num_players
        return [float(x) for x in self._round.scores()]

    def points(self) -> list[int]:
        """The round's points if it ended now."""
        return self._round.scores()

    @property
    def end(self) -> str | None:
        """How the round ended (``"nerts"``, ``"stalemate"``, ``"cap"``) or None."""
        return self._round.end

    @property
    def caller(self) -> int | None:
        """The seat that called Nerts, if one did."""
        return self._round.caller

    @property
    def events(self) -> Sequence[list[Any]]:
        """The event log, growing as the clock runs: ``[t_ms, seat, action text, "ok" |
        "fail"]`` rows, seat ``-1`` for the table's own (``stalemate:...``, ``end:...``).
        Public (everyone sees every play); read it, never change it."""
        return self._round.log

    @property
    def inputs(self) -> Sequence[list[Any]]:
        """Every :meth:`submit` so far: ``[now, seat, t_ms, action text]`` rows (a replay's
        human input)."""
        return self._round.inputs

    @property
    def decks(self) -> list[list[int]]:
        """Each seat's shuffled deck as dealt (physical card ids). Hidden information: for
        records and replays, never for a player."""
        return [list(d) for d in self._round.decks]

    @property
    def moves(self) -> list[tuple[int, int, Action, bool]]:
        """Every seat action executed so far: ``(t_ms, seat, move, ok)`` (``ok`` False when it
        was no longer legal and failed)."""
        return [
            (t, seat, parse_action(text), status == "ok")
            for t, seat, text, status in self._round.log
            if seat >= 0
        ]

    def clone(self) -> ReferenceState:
        new = object.__new__(ReferenceState)
        new._game = self._game
        new.seed = self.seed
        new.agents = self.agents
        new._round = copy.deepcopy(self._round)
        new._ops = [list(op) for op in self._ops]
        return new

    def __repr__(self) -> str:
        r = self._round
        return f"<nerts ReferenceState now={r.now}ms end={r.end} points={r.scores()}>"
