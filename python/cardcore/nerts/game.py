"""Nerts as a :class:`cardcore.games.api.Game`: a real-time round as a
:class:`~cardcore.games.api.RealtimeState` (layouts and a worked example in
``docs/embedding.md``).

A state wraps the Rust rulebook's round (``_core.RealtimeState``) and records how it was
driven (``submit`` / ``advance_to`` / ``step`` / ``run``); its JSON holds the seed, the agents'
names and that record, and is read back by re-running them (the agents' memories included),
then checked against the table it also holds.

Actions, with ``W`` work piles (4 or 5): ``0`` Nerts top to a foundation, ``1`` waste top to a
foundation, ``2 + i`` work pile ``i``'s top to a foundation; then the Nerts top onto work pile
``j`` (``W`` ids), the waste top onto pile ``j`` (``W``), the top ``d`` cards (1..13) of pile
``i`` onto pile ``j != i`` (``13 W (W - 1)``); then flip, recycle, call Nerts, undo. Foundation
plays name no foundation: two foundations that take the same card are interchangeable, and the
engine picks the lowest-numbered.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final, cast

from cardcore import _core
from cardcore.cards import NATURALS, RANKS, natural_face
from cardcore.errors import (
    IllegalMoveError,
    OptionError,
    StateFormatError,
    UnregisteredAgentError,
)
from cardcore.games import api
from cardcore.games.api import check_seed
from cardcore.games.base import get_game, resolve_agent
from cardcore.games.codec import codec
from cardcore.nerts.actions import action_from_code
from cardcore.nerts.agents import native_agent_state
from cardcore.nerts.engine import NertsObservation, PublicPlayer, _checked, native_options
from cardcore.nerts.rules import (
    CALL,
    FLIP,
    NERTS,
    RECYCLE,
    UNDO,
    WASTE,
    Action,
    Options,
    ToFoundation,
    ToWork,
    parse_action,
)
from cardcore.rng import Rng

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["NertsGame", "NertsState", "game_for"]

FACES: Final = NATURALS
MAX_DEPTH: Final = len(RANKS)
"""The deepest pile-to-pile move: a work pile holds at most K down to A."""


@lru_cache(maxsize=64)
def game_for(options: Options) -> NertsGame:
    """The (shared) game of ``options``."""
    return NertsGame(options)


class NertsGame(api.Game[Action]):
    """Nerts for fixed options (build with ``load_game("nerts")``)."""

    name = "nerts"
    realtime = True

    def __init__(self, options: Options) -> None:
        o = options
        self.rules = o
        p = o.num_players
        w = o.work_piles
        self.num_players = p
        self.options = {"players": p, **o.as_dict()}
        moves: list[Action] = [ToFoundation(NERTS), ToFoundation(WASTE)]
        moves += [ToFoundation(i) for i in range(w)]
        moves += [ToWork(NERTS, 1, j) for j in range(w)]
        moves += [ToWork(WASTE, 1, j) for j in range(w)]
        moves += [
            ToWork(i, d, j)
            for i in range(w)
            for j in range(w)
            if j != i
            for d in range(1, MAX_DEPTH + 1)
        ]
        moves += [FLIP, RECYCLE, CALL, UNDO]
        self._moves = moves
        self.num_actions = len(moves)
        self._ids = {m: a for a, m in enumerate(moves)}
        self._id_of_code = {m.code: a for a, m in enumerate(moves)}
        self._undo = self._ids[UNDO]
        self._codec = codec(p, 0)
        segments = [
            ("nerts_top", p * FACES),
            ("waste_top", p * FACES),
            ("work_top", p * w * FACES),
            ("work_cards", p * w * FACES),
            ("foundation_tops", FACES),
            ("nerts_count", p),
            ("waste_count", p),
            ("stock_count", p),
            ("work_size", p * w),
            ("recycles", 1),
            ("stalemates", 1),
            ("pending", 1),
            ("now_s", 1),
        ]
        self._lay_out(segments)

    # -- moves and actions -------------------------------------------------------------------

    def new_state(self, seed: int, *, agents: Sequence[str | None] | None = None) -> NertsState:
        """A new round dealt from ``seed``. ``agents[s]`` names the built-in (or registered)
        agent the engine's clock drives in seat ``s``, or ``None`` for a seat driven from
        outside with :meth:`NertsState.submit`; by default every seat is driven from outside."""
        return NertsState(self, api.check_seed(seed), agents)

    def action_to_move(self, action: int) -> Action:
        return self._moves[api.checked_action(self, action)]

    def move_to_action(self, move: Action) -> int:
        if type(move) is ToFoundation:
            move = ToFoundation(move.src)  # any foundation that takes it: one action
        try:
            return self._ids[move]
        except (KeyError, TypeError):
            raise IllegalMoveError(f"not a move of this nerts game: {move!r}") from None

    def parse_move(self, text: str) -> Action:
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move text is a str, not {text!r}")
        move = parse_action(text)
        self.move_to_action(move)
        return move

    def move_text(self, move: Action) -> str:
        self.move_to_action(move)
        return str(move)

    def actions_of_codes(self, codes: Sequence[int]) -> list[int]:
        """Action ids of the Rust generator's move codes."""
        ids = self._id_of_code
        return sorted(ids[c] for c in codes)

    # -- observation -------------------------------------------------------------------------

    def _observation_tensor(self, state: NertsState, seat: int) -> NDArray[np.float32]:
        import numpy as np

        return np.frombuffer(state._s.observation_tensor(seat), np.float32)

    def observation_tensor_of(self, observation: NertsObservation) -> NDArray[np.float32]:
        """The tensor of an observation an agent received (the seat has nothing scheduled)."""
        return self._tensor(observation, False)

    def _tensor(self, o: NertsObservation, pending: bool) -> NDArray[np.float32]:
        seat = o.seat
        p, w = self.num_players, self.rules.work_piles
        at = self._at
        idx: list[int] = []
        order = [(seat + r) % p for r in range(p)]
        players = [o.players[k] for k in order]
        for r, pl in enumerate(players):
            if pl.nerts_top is not None:
                idx.append(at["nerts_top"] + r * FACES + natural_face(pl.nerts_top))
            if pl.waste_top is not None:
                idx.append(at["waste_top"] + r * FACES + natural_face(pl.waste_top))
            for i, pile in enumerate(pl.work):
                if pile:
                    block = (r * w + i) * FACES
                    idx.append(at["work_top"] + block + natural_face(pile[-1]))
                    idx += [at["work_cards"] + block + natural_face(c) for c in pile]
        idx += [at["foundation_tops"] + natural_face(top) for top in o.foundations]
        import numpy as np

        out = np.bincount(idx, minlength=self.observation_shape[0]).astype(np.float32)
        tail: list[float] = [pl.nerts_count for pl in players]
        tail += [pl.waste_count for pl in players]
        tail += [pl.stock_count for pl in players]
        tail += [len(pile) for pl in players for pile in pl.work]
        tail += [o.recycles, o.stalemates, float(pending), o.now / 1000.0]
        out[at["nerts_count"] :] = tail
        return out

    def _observation_body(self, state: NertsState, seat: int) -> dict[str, Any]:
        obs = state.observation(seat)
        text = self._codec.text
        enc = self._codec.encode
        end, caller, points = _core.nerts_result(state._s)
        return {
            "now": state.now,
            "running": end is None,
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
            "pending": state.pending(seat),
            "end": end,
            "caller": caller,
            "points": points if end is not None else None,
        }

    def _observation_from_body(self, seat: int, b: Mapping[str, Any]) -> NertsObservation:
        c = self._codec
        p = self.num_players
        obs = object.__new__(NertsObservation)
        obs.seat = seat
        obs.now = api.read_int(b["now"], 0, 1 << 40)
        obs.table_options = self.rules
        obs.foundation_piles = tuple(tuple(f) for f in c.decode_piles(b["foundations"]))
        obs.foundations = tuple(f[-1] for f in obs.foundation_piles)
        obs.stalemates = api.read_int(b["stalemates"], 0, 1 << 31)
        obs.recycles = api.read_int(b["recycles"], 0, 1 << 31)
        # the document leaves out the flip counts (0.4.0's documents): a stalemate remedy
        # reaches every seat at once, and only a flip_one remedy changes them
        rules = self.rules
        flips = 1 if obs.stalemates and rules.stalemate_rule == "flip_one" else rules.flip_count
        players = []
        # nor does it carry the other seats' recycles (0.4.0's documents): the seat's own are
        # its "recycles", the others' read back as 0, not known (a look-ahead on a document
        # read back may simulate them recycling past a stock_passes limit)
        for i, pd in enumerate(api.read_list(b["players"], p)):
            pl = object.__new__(PublicPlayer)
            pl.nerts_count = api.read_int(pd["nerts_count"], 0, NATURALS)
            pl.nerts_top = None if pd["nerts_top"] is None else c.card(pd["nerts_top"])
            pl.stock_count = api.read_int(pd["stock_count"], 0, NATURALS)
            pl.waste_count = api.read_int(pd["waste_count"], 0, NATURALS)
            pl.waste_top = None if pd["waste_top"] is None else c.card(pd["waste_top"])
            pl.work = tuple(tuple(x) for x in c.decode_piles(pd["work"], self.rules.work_piles))
            pl.flip_count = flips
            pl.recycles = obs.recycles if i == seat else 0
            players.append(pl)
        obs.players = tuple(players)
        fan = c.decode(b["waste_fan"])
        if len(fan) > self.rules.flip_count or (fan and fan[-1] != obs.players[seat].waste_top):
            raise StateFormatError("waste_fan must end with the seat's waste top")
        obs.waste_fan = tuple(fan)
        return obs

    # -- the whole state as JSON -------------------------------------------------------------

    def _state_body(self, state: NertsState) -> dict[str, Any]:
        ops: list[list[Any]] = []
        for op in state._ops:
            if op[0] == "tick":  # NertsState._tick: its submits, then the advance
                _, now, moves, t_ms = op
                ops.extend(
                    ["submit", s, self.move_text(self.action_to_move(a)), now] for s, a in moves
                )
                ops.append(["advance", t_ms])
            else:
                ops.append(list(op))
        return {
            "seed": state.seed,
            "agents": list(state.agents),
            "ops": ops,
            "table": self._snapshot(state),
        }

    def _snapshot(self, state: NertsState) -> dict[str, Any]:
        """Everything on the table (hidden cards included), to check a re-run against."""
        parts = state.parts()
        enc = self._codec.encode
        return {
            "now": parts["now"],
            "end": parts["end"],
            "caller": parts["caller"],
            "executed": parts["executed"],
            "events": _core.nerts_log_len(state._s),
            "foundations": [enc(f) for f in parts["foundations"]],
            "players": [
                {
                    "nerts": enc(pl["nerts"]),
                    "work": [enc(x) for x in pl["work"]],
                    "stock": enc(pl["stock"]),
                    "waste": enc(pl["waste"]),
                    "recycles": pl["recycles"],
                    "flip_count": pl["flip_count"],
                    "stalemates": pl["stalemates"],
                }
                for pl in parts["seats"]
            ],
        }

    def _state_from_body(self, body: Mapping[str, Any]) -> NertsState:
        seed = api.read_int(body["seed"], 0, (1 << 64) - 1)
        agents = api.read_list(body["agents"], self.num_players)
        spec = get_game(self.name)
        for name in agents:
            if name is not None:
                try:
                    resolve_agent(spec, str(name), registered_only=True)
                except UnregisteredAgentError as e:
                    raise StateFormatError(str(e)) from None
        st = NertsState(self, seed, agents)
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


class NertsState(api.RealtimeState[Action]):
    """One real-time Nerts round (build with ``load_game("nerts").new_state(seed)``).

    Seats act when they like: :meth:`submit` schedules a seat's move at a clock reading (it is
    checked when it executes and fails, changing nothing, when the table moved on);
    :meth:`advance_to` and :meth:`step` run the clock; seats given an agent act by themselves
    at the speed of the table (``speed`` option). The rules, the clock and the hidden cards
    live in the Rust rulebook (``cardcore_engine::games::nerts``; ``_s``, private); built-in
    agents play in Rust, other agents are called back from its clock.
    """

    __slots__ = ("_game", "_log", "_ops", "_players", "_py", "_s", "agents", "seed")

    def __init__(self, game: NertsGame, seed: int, agents: Sequence[str | None] | None) -> None:
        p = game.num_players
        names: list[str | None] = [None] * p if agents is None else list(agents)
        if len(names) != p:
            raise OptionError(f"{p} players need {p} agents (None for a seat driven from outside)")
        spec = get_game(game.name)
        players = [None if n is None else spec.make_agent(str(n)) for n in names]
        self._game = game
        self.seed = check_seed(seed)
        self.agents: tuple[str | None, ...] = tuple(names)
        self._players: list[Any] = players
        self._ops: list[list[Any]] = []
        self._log: list[list[Any]] = []
        native = [None if a is None else native_agent_state(a, s, p) for s, a in enumerate(players)]
        python = [a is not None and n is None for a, n in zip(players, native, strict=True)]
        self._py = any(python)  # some seat's agent is called back from the clock
        o = game.rules
        self._s = _core.nerts_new(
            native_options(o),
            o.nerts_pile_size,
            seed,
            native,
            python,
            self._decide if self._py else None,
        )

    def _decide(
        self, seat: int, body: Sequence[Any], codes: Sequence[int], rng_state: Any
    ) -> tuple[int | None, Any]:
        """A Python agent's decision, called back from the rulebook's clock."""
        obs = NertsObservation.from_rulebook(self._game.rules, seat, body)
        legal = [action_from_code(c) for c in codes]
        rng = Rng.from_state(rng_state)
        action = _checked(seat, self._players[seat].act(obs, legal, rng), legal)
        return (None if action is None else action.code), rng.state

    @property
    def game(self) -> NertsGame:
        return self._game

    @property
    def now(self) -> int:
        return self._s.now

    @property
    def is_over(self) -> bool:
        return self._s.is_over

    def legal_moves(self, seat: int) -> list[Action]:
        api.check_seat(seat, self._game.num_players)
        return [action_from_code(c) for c in _core.nerts_legal_codes(self._s, seat)]

    def legal_actions(self, seat: int) -> list[int]:
        api.check_seat(seat, self._game.num_players)
        return self._s.legal_actions(seat)

    def pending(self, seat: int) -> bool:
        """Whether ``seat`` has a move scheduled (a seat has at most one)."""
        api.check_seat(seat, self._game.num_players)
        return self._s.is_pending(seat)

    def submit(self, seat: int, move: Action | int, t_ms: int) -> None:
        """Schedules ``move`` (a move or an action id) for ``seat`` at ``t_ms`` (>= :attr:`now`).

        Raises :class:`~cardcore.errors.IllegalMoveError`, changing nothing, when the round is
        over, the seat already has a move scheduled, ``t_ms`` is in the past or ``move`` is not
        a move of this game. Whether the move is legal is decided when it executes."""
        game = self._game
        api.check_seat(seat, game.num_players)
        index = api.action_id(move)
        if index is not None:
            action = game.action_to_move(index)  # raises for an id outside the game
        else:
            action = cast(Action, move)
            game.move_to_action(action)  # raises for anything that is not a Nerts move
        s = self._s
        if s.is_over:
            raise IllegalMoveError("the round is over")
        if isinstance(t_ms, bool) or not isinstance(t_ms, int) or t_ms < s.now:
            raise IllegalMoveError(f"t_ms {t_ms!r} is not an int at or after now ({s.now})")
        if s.is_pending(seat):
            raise IllegalMoveError(f"seat {seat} already has a move scheduled")
        _core.nerts_submit_code(s, seat, action.code, t_ms)
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
        s = self._s
        if t_ms < s.now:
            raise OptionError(f"t_ms {t_ms} is before now ({s.now}): the clock never goes back")
        self._ops.append(["advance", t_ms])
        if watch is not None:
            while (t := _core.nerts_next_event(s)) is not None and t <= t_ms:
                s.step()
                watch()
        s.advance_to(t_ms)

    def _tick(
        self, moves: list[tuple[int, int]], t_ms: int
    ) -> tuple[bytearray, bytearray, list[bool]]:
        """One tick of the Parallel environment in one Rust call: ``moves`` (``(seat, action
        id)``, ids checked by the caller) submitted now in that order (a seat with a move
        scheduled is skipped), the clock run to ``t_ms`` (at or after now); returns every
        seat's tensor and mask (``_core.nerts_tick``) and per seat whether a move of its
        failed. Recorded as the submits and the advance it stands for."""
        now = self._s.now
        obs, masks, submitted, failed = _core.nerts_tick(self._s, moves, t_ms)
        done = [m for m, ok in zip(moves, submitted, strict=True) if ok]
        self._ops.append(["tick", now, done, t_ms])
        return obs, masks, failed

    def step(self) -> bool:
        done = self._s.step()
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
        s = self._s
        if watch is not None:
            while not s.is_over and s.step():
                watch()
        s.run()
        if watch is not None:
            watch()

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
                if not self.step() and _core.nerts_next_event(self._s) is None:
                    self._ops[-1][1] += n - 1 - i  # the rest were no-ops: record, skip
                    break
        elif kind == "run" and len(op) == 1:
            self.run()
        else:
            raise StateFormatError(f"not a recorded call: {op!r}")

    def observation(self, seat: int) -> NertsObservation:
        api.check_seat(seat, self._game.num_players)
        return NertsObservation.from_rulebook(
            self._game.rules, seat, _core.nerts_observation(self._s, seat)
        )

    def returns(self) -> list[float]:
        """The round's points (foundation cards less the Nerts-pile penalty, the caller's
        bonus) once it is over; all 0 before."""
        return self._s.returns()

    def points(self) -> list[int]:
        """The round's points if it ended now."""
        return _core.nerts_result(self._s)[2]

    @property
    def end(self) -> str | None:
        """How the round ended (``"nerts"``, ``"stalemate"``, ``"cap"``) or None."""
        return _core.nerts_result(self._s)[0]

    @property
    def caller(self) -> int | None:
        """The seat that called Nerts, if one did."""
        return _core.nerts_result(self._s)[1]

    @property
    def events(self) -> Sequence[list[Any]]:
        """The event log, growing as the clock runs: ``[t_ms, seat, action text, "ok" |
        "fail"]`` rows, seat ``-1`` for the table's own (``stalemate:...``, ``end:...``).
        Public (everyone sees every play); read it, never change it."""
        log = self._log
        if _core.nerts_log_len(self._s) != len(log):
            log.extend(list(row) for row in _core.nerts_log(self._s, len(log)))
        return log

    @property
    def inputs(self) -> Sequence[list[Any]]:
        """Every :meth:`submit` so far: ``[now, seat, t_ms, action text]`` rows (a replay's
        human input)."""
        return [
            [now, seat, t, str(action_from_code(code))]
            for now, seat, t, code in _core.nerts_inputs(self._s)
        ]

    @property
    def decks(self) -> list[list[int]]:
        """Each seat's shuffled deck as dealt (physical card ids). Hidden information: for
        records and replays, never for a player."""
        return _core.nerts_decks(self._s)

    @property
    def moves(self) -> list[tuple[int, int, Action, bool]]:
        """Every seat action executed so far: ``(t_ms, seat, move, ok)`` (``ok`` False when it
        was no longer legal and failed)."""
        return [
            (t, seat, parse_action(text), status == "ok")
            for t, seat, text, status in self.events
            if seat >= 0
        ]

    def parts(self) -> dict[str, Any]:
        """The whole table and clock as plain ints and lists (hidden cards included; see
        ``_core.nerts_parts``)."""
        return _core.nerts_parts(self._s)

    def _wrap(self, s: _core.RealtimeState) -> NertsState:
        new = object.__new__(NertsState)
        new._game = self._game
        new.seed = self.seed
        new.agents = self.agents
        new._players = copy.deepcopy(self._players)
        new._ops = [list(op) for op in self._ops]
        new._log = [list(row) for row in self._log]
        new._s = s
        new._py = self._py
        if new._py:
            _core.nerts_set_decide(s, new._decide)
        return new

    def clone(self) -> NertsState:
        return self._wrap(self._s.clone())

    def resample_hidden(self, seat: int, seed: int) -> NertsState:
        """A copy in which every card ``seat`` cannot see (the Nerts piles below their tops,
        the stocks, the wastes below what it sees of them) is re-dealt, each seat's among its
        own hidden places, from ``seed`` (search AIs). The copy cannot be saved as JSON (its
        table no longer follows from its seed)."""
        api.check_seat(seat, self._game.num_players)
        return self._wrap(self._s.resample_hidden(seat, check_seed(seed)))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (api.state_from_json, (self.to_json(),))

    def __repr__(self) -> str:
        end, _caller, points = _core.nerts_result(self._s)
        return f"<nerts NertsState now={self.now}ms end={end} points={points}>"
