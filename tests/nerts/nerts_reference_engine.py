"""The oracle of the real-time Nerts round: 0.4.0's Python engine
(``cardcore.nerts.engine.Round``, a deterministic discrete-event simulation over
:mod:`nerts_reference_table`), which the Rust rulebook replaced. Tests arrange tables on it and
compare the rulebook with it.

Time is an integer millisecond clock from round start. Every action is an event ``(t_exec,
tiebreak, seat)``: events run in order of ``t_exec``, then ``tiebreak`` (a u64 drawn from the
``"tiebreak"`` stream when the event is scheduled), then seat. Each seat has at most one pending
entry. An *agent* seat that is idle looks at the table, picks an action and schedules it at
``now + delay`` (delay from its speed profile, drawn from its ``"timing"`` stream). A *human*
seat (agent ``None``) only acts through :meth:`Round.submit`. Actions are validated when they
execute: an action that is no longer legal fails, nothing moves, and the agent re-plans
``retry_ms`` later. Agents with nothing to do sleep until a foundation changes.

The event log (``Round.log``) is a list of ``[t_ms, seat, action, status]`` rows; system rows
use seat ``-1`` (``stalemate:<rule>``, ``end:<reason>``). Same seed, options, agents and human
input give byte-identical logs.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from cardcore import _core
from cardcore.cards import natural_id
from cardcore.errors import IllegalMoveError, OptionError
from cardcore.games.api import check_seat, check_seed
from cardcore.nerts.engine import NertsObservation, PublicPlayer
from cardcore.nerts.rules import (
    CALL,
    NERTS,
    UNDO,
    WASTE,
    Action,
    CallNerts,
    Flip,
    Options,
    Recycle,
    SpeedProfile,
    ToFoundation,
    ToWork,
    Undo,
)
from cardcore.rng import Rng
from nerts_reference_table import NertsTable

__all__ = [
    "MAX_EVENTS",
    "MAX_ROUND_MS",
    "NertsAgent",
    "NertsObservation",
    "PublicPlayer",
    "Round",
    "deal_decks",
]

MAX_ROUND_MS = 3_600_000
"""A round still running after one simulated hour ends with ``end = "cap"``."""
MAX_EVENTS = 200_000
"""A round that executed this many events ends with ``end = "cap"``."""

_ACT, _THINK = 0, 1


class NertsAgent(Protocol):
    """A Nerts policy. ``act`` may return ``None`` to wait for the next foundation change."""

    def act(self, observation: Any, legal: Sequence[Any], rng: Any) -> Any: ...


def deal_decks(seed: int, players: int) -> list[list[int]]:
    """Each seat's 52 card ids in shuffled order (stream ``"deck"``, index = seat)."""
    out = []
    for s in range(players):
        perm = _core.permutations(52, seed, s, 1, "deck")
        out.append([natural_id(f, s) for f in perm])
    return out


def waste_fan(player: Any) -> tuple[int, ...]:
    """The top cards of ``player``'s waste that its owner sees fanned (bottom to top)."""
    return tuple(player.waste[-player.flip_count :]) if player.waste else ()


def observe(table: NertsTable, seat: int, now: int) -> NertsObservation:
    """What ``seat`` sees of ``table`` (0.4.0's ``NertsObservation(table, seat, now)``)."""
    players = [
        (
            len(p.nerts),
            p.nerts[-1] if p.nerts else None,
            len(p.stock),
            len(p.waste),
            p.waste[-1] if p.waste else None,
            p.work,
            p.flip_count,
            p.recycles,
        )
        for p in table.players
    ]
    me = table.players[seat]
    body = (now, table.foundations, players, waste_fan(me), me.recycles, me.stalemates)
    return NertsObservation.from_rulebook(table.options, seat, body)


def _delay_class(action: Action, p: SpeedProfile) -> int:
    if isinstance(action, ToFoundation):
        return p.m_play
    if isinstance(action, ToWork):
        return p.m_seq if action.depth > 1 else p.m_build
    if isinstance(action, Flip | Recycle):
        return p.m_flip
    if isinstance(action, CallNerts):
        return p.m_call
    return p.m_build


def _is_progress(action: Action) -> bool:
    if isinstance(action, ToFoundation):
        return True
    return isinstance(action, ToWork) and action.src in (NERTS, WASTE)


def _checked(seat: int, action: Any, legal: Sequence[Action]) -> Action | None:
    """An agent's choice: one of ``legal`` or None (sleep); anything else raises."""
    if action is None or action in legal:
        return action  # type: ignore[no-any-return]
    raise IllegalMoveError(
        f"the agent of seat {seat} chose {action!r}, which is not one of its legal actions"
    )


_ACTION_TYPES = frozenset((ToFoundation, ToWork, Flip, Recycle, CallNerts, Undo))


class Round:
    """One real-time round. ``agents[s]`` is the policy of seat ``s`` or ``None`` for a human.

    Drive it with :meth:`run` (agents only), or with :meth:`submit` plus :meth:`advance_to` /
    :meth:`step` when humans play.
    """

    def __init__(
        self,
        options: Options,
        seed: int,
        agents: Sequence[NertsAgent | None],
        *,
        decks: Sequence[Sequence[int]] | None = None,
        max_ms: int = MAX_ROUND_MS,
        max_events: int = MAX_EVENTS,
    ) -> None:
        n = options.num_players
        if len(agents) != n:
            raise OptionError(f"need {n} agents (None for a human seat), got {len(agents)}")
        for a in agents:
            if a is not None and not callable(getattr(a, "act", None)):
                raise OptionError(f"an agent needs an act(observation, legal, rng) method: {a!r}")
        self.options = options
        self.profile = options.profile
        self.seed = check_seed(seed)
        self.decks = [list(d) for d in decks] if decks is not None else deal_decks(seed, n)
        self.table = NertsTable(options, self.decks)
        self.agents = list(agents)
        self.now = 0
        self.log: list[list[Any]] = []
        self.inputs: list[list[Any]] = []
        self.end: str | None = None
        self.caller: int | None = None
        self.max_ms = max_ms
        self.max_events = max_events
        self.executed = 0
        self._queue: list[tuple[int, int, int, int, Action | None]] = []
        self._pending: list[bool] = [False] * n
        self._sleeping: list[bool] = [False] * n
        self._timing = [Rng.for_stream(seed, s, "timing") for s in range(n)]
        self._agent_rng = [Rng.for_stream(seed, s, "agent") for s in range(n)]
        self._tiebreak = Rng.for_stream(seed, 0, "tiebreak")
        self._recycles_since = [0] * n
        self._stalemates = 0
        for s in range(n):
            if self.agents[s] is not None:
                self._decide(s)

    # -- public API ----------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.end is None

    def observation(self, seat: int) -> NertsObservation:
        return observe(self.table, check_seat(seat, len(self.agents)), self.now)

    def legal(self, seat: int) -> list[Action]:
        seat = check_seat(seat, len(self.agents))
        return self.table.legal_actions(seat) if self.running else []

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``action`` would be legal for ``seat`` if it executed now."""
        return self.running and self.table.is_legal(seat, action)

    def pending(self, seat: int) -> bool:
        return self._pending[seat]

    def submit(self, seat: int, action: Action, t_ms: int) -> None:
        """Schedules a (human) action for ``seat`` at ``t_ms`` (>= now). It is validated when it
        executes. Raises :class:`IllegalMoveError` (changing nothing) when the round is over,
        ``action`` is not a Nerts action, ``t_ms`` is not an int at or after now, or the seat
        already has a pending action; :class:`OptionError` for a seat not at the table."""
        seat = check_seat(seat, len(self.agents))
        if not self.running:
            raise IllegalMoveError("the round is over")
        if type(action) not in _ACTION_TYPES:
            raise IllegalMoveError(f"not a Nerts action: {action!r}")
        if isinstance(t_ms, bool) or not isinstance(t_ms, int):
            raise IllegalMoveError(f"t_ms must be an int, not {t_ms!r}")
        if t_ms < self.now:
            raise IllegalMoveError(f"t_ms {t_ms} is before now ({self.now})")
        if self._pending[seat]:
            raise IllegalMoveError(f"seat {seat} already has a pending action")
        self._sleeping[seat] = False
        self.inputs.append([self.now, seat, t_ms, str(action)])
        self._schedule(seat, t_ms, _ACT, action)

    def step(self) -> bool:
        """Executes the next event; False when the round is over or nothing is pending."""
        if not self.running:
            return False
        if not self._queue:
            return False
        t, _tb, seat, kind, action = heapq.heappop(self._queue)
        if t > self.max_ms or self.executed >= self.max_events:
            self._finish(min(t, self.max_ms), "cap", None)
            return False
        self.now = t
        self._pending[seat] = False
        if kind == _THINK:
            self._decide(seat)
            return True
        assert action is not None
        self._execute(seat, action)
        return True

    def advance_to(self, t_ms: int, watch: Callable[[], object] | None = None) -> None:
        """Executes every event with ``t_exec <= t_ms`` and moves the clock to ``t_ms``;
        ``watch`` is called after each event (it may raise to stop)."""
        if isinstance(t_ms, bool) or not isinstance(t_ms, int):
            raise OptionError(f"t_ms must be an int, not {t_ms!r}")
        while self.running and self._queue and self._queue[0][0] <= t_ms:
            self.step()
            if watch is not None:
                watch()
        if self.running:
            self.now = max(self.now, min(t_ms, self.max_ms))
            if t_ms >= self.max_ms:
                self._finish(self.max_ms, "cap", None)

    def run(self, watch: Callable[[], object] | None = None) -> None:
        """Plays until the round ends (a seat with no agent never acts); ``watch`` is called
        after each event (it may raise to stop)."""
        while self.running:
            if not self.step() and self.running:
                # nothing pending and no stalemate: only human seats could move
                self._finish(self.now, "cap", None)
            if watch is not None:
                watch()

    def scores(self) -> list[int]:
        return self.table.scores(self.caller)

    # -- internals -----------------------------------------------------------------------

    def _schedule(self, seat: int, t: int, kind: int, action: Action | None) -> None:
        tb = self._tiebreak.next_u64()
        heapq.heappush(self._queue, (t, tb, seat, kind, action))
        self._pending[seat] = True

    def _delay(self, seat: int, action: Action) -> int:
        p = self.profile
        m = _delay_class(action, p)
        d = self._timing[seat].lognormal(m, p.sigma)
        return max(p.min_ms, min(p.max_ms, round(d)))

    def _decide(self, seat: int) -> None:
        agent = self.agents[seat]
        if agent is None or not self.running or self._pending[seat]:
            return
        legal = self.table.legal_actions(seat)
        if not legal or (len(legal) == 1 and legal[0] is UNDO):
            self._sleeping[seat] = True
            return
        obs = observe(self.table, seat, self.now)
        rng = self._agent_rng[seat]
        action = _checked(seat, agent.act(obs, legal, rng), legal)
        miss = self._timing[seat].random() < self.profile.miss
        if miss and isinstance(action, ToFoundation):
            # overlooked its chosen foundation play this time: decide without it
            rest = [a for a in legal if a != action]
            action = _checked(seat, agent.act(obs, rest, rng), rest) if rest else None
            if action is None:  # nothing else to do: look again after retry_ms
                self._schedule(seat, self.now + self.profile.retry_ms, _THINK, None)
                return
        if action is None:
            self._sleeping[seat] = True
            return
        self._sleeping[seat] = False
        self._schedule(seat, self.now + self._delay(seat, action), _ACT, action)

    def _wake_all(self) -> None:
        for s in range(len(self.agents)):
            if self._sleeping[s] and not self._pending[s]:
                self._sleeping[s] = False
                self._decide(s)

    def _execute(self, seat: int, action: Action) -> None:
        table = self.table
        self.executed += 1
        if not table.is_legal(seat, action):
            self.log.append([self.now, seat, str(action), "fail"])
            if self.agents[seat] is not None:
                self._schedule(seat, self.now + self.profile.retry_ms, _THINK, None)
            return
        nf = len(table.foundations)
        tops = table.need_masks()
        table.apply(seat, action)
        self.log.append([self.now, seat, str(action), "ok"])
        if isinstance(action, CallNerts):
            self._finish(self.now, "nerts", seat)
            return
        if _is_progress(action):
            self._recycles_since = [0] * len(self.agents)
            self._stalemates = 0
        elif isinstance(action, Recycle):
            self._recycles_since[seat] += 1
        if self.options.auto_call_nerts and not table.players[seat].nerts:
            table.apply(seat, CALL)
            self.log.append([self.now, seat, str(CALL), "ok"])
            self._finish(self.now, "nerts", seat)
            return
        foundations_changed = isinstance(action, ToFoundation) or (
            isinstance(action, Undo)
            and (len(table.foundations) != nf or table.need_masks() != tops)
        )
        if self._check_stalemate():
            return
        self._decide(seat)
        if foundations_changed:
            self._wake_all()

    def _stalled(self, seat: int) -> bool:
        """Two recycles since the last progress event, or no stock action left (stock and waste
        empty, or no recycling allowed) and no progress move."""
        if self._recycles_since[seat] >= 2:
            return True
        p = self.table.players[seat]
        if p.stock or (p.waste and self.table.may_recycle(seat)):
            return False
        for a in self.table.legal_actions(seat):
            if isinstance(a, ToFoundation) or (isinstance(a, ToWork) and a.src in (NERTS, WASTE)):
                return False
        return True

    def _check_stalemate(self) -> bool:
        """Resolves global stalemates (again at once while they persist); True when the round
        ended."""
        n = len(self.agents)
        resolved = False
        while all(self._stalled(s) for s in range(n)):
            rule = self.options.stalemate_rule
            if rule == "end_round" or self._stalemates >= self.options.max_consecutive_stalemates:
                self._finish(self.now, "stalemate", None)
                return True
            for s in range(n):
                self.table.rotate_stalemate(s, rule)
            self._stalemates += 1
            self._recycles_since = [0] * n
            self.log.append([self.now, -1, f"stalemate:{rule}", "ok"])
            resolved = True
        if resolved:
            self._wake_all()
        return False

    def _finish(self, t: int, reason: str, caller: int | None) -> None:
        self.now = t
        self.end = reason
        self.caller = caller
        self.table.running = False
        self._queue.clear()
        self._pending = [False] * len(self.agents)
        self.log.append([t, -1, f"end:{reason}", "ok"])
