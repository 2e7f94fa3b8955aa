"""The real-time Nerts round: :class:`Round` with agent objects, over the Rust rulebook
(``cardcore_engine::games::nerts``: the table, the discrete-event clock and the built-in
agents).

Time is an integer millisecond clock from round start. Every action is an event ``(t_exec,
tiebreak, seat)``: events run in order of ``t_exec``, then ``tiebreak`` (a u64 drawn from the
``"tiebreak"`` stream when the event is scheduled), then seat. Each seat has at most one pending
entry. An *agent* seat that is idle looks at the table, picks an action and schedules it at
``now + delay`` (delay from its speed profile, drawn from its ``"timing"`` stream). A *human*
seat (agent ``None``) only acts through :meth:`Round.submit`. Actions are validated when they
execute: an action that is no longer legal fails, nothing moves, and the agent re-plans
``retry_ms`` later. Agents with nothing to do sleep until a foundation changes.

The built-in agents (``random``, ``greedy``, the rule-of-thumb plan, ``hard``, ``expert``) play
in Rust; any other agent object is called back from the rulebook's clock with a
:class:`NertsObservation`. The event log (``Round.log``) is a list of ``[t_ms, seat, action,
status]`` rows; system rows use seat ``-1`` (``stalemate:<rule>``, ``end:<reason>``). Same seed,
options, agents and human input give byte-identical logs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from cardcore import _core
from cardcore.cards import natural_id
from cardcore.errors import IllegalMoveError, OptionError, StateFormatError
from cardcore.games.api import check_seat, check_seed
from cardcore.nerts.actions import (
    Action,
    CallNerts,
    Flip,
    Recycle,
    ToFoundation,
    ToWork,
    Undo,
    action_from_code,
)
from cardcore.nerts.options import Options
from cardcore.rng import Rng

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


class PublicPlayer:
    """What everyone can see of one player: tops, counts, the face-up work piles, how many
    cards it turns per flip (``flip_count``: the table's, 1 after a ``flip_one`` stalemate
    remedy) and how many times it has turned its waste over (``recycles``)."""

    __slots__ = (
        "flip_count",
        "nerts_count",
        "nerts_top",
        "recycles",
        "stock_count",
        "waste_count",
        "waste_top",
        "work",
    )

    nerts_count: int
    nerts_top: int | None
    stock_count: int
    waste_count: int
    waste_top: int | None
    work: tuple[tuple[int, ...], ...]
    flip_count: int
    recycles: int


class NertsObservation:
    """One seat's view: its own layout and everyone's visible cards (no stock order, no
    face-down Nerts cards, no other seat's waste below its top), the seat's own waste fanned
    (:attr:`waste_fan`), the foundation piles (every card landed in plain view) and how many
    stalemate remedies this round has had. Built when the seat decides.

    ``waste_fan``: the top cards of the seat's own face-up waste, bottom to top (the last is
    its ``waste_top``): as many as a flip turns (three, or one with 1-card flips), as a player
    fans the packet just turned. Only the top one can be played."""

    __slots__ = (
        "foundation_piles",
        "foundations",
        "now",
        "players",
        "recycles",
        "seat",
        "stalemates",
        "table_options",
        "waste_fan",
    )

    seat: int
    now: int
    table_options: Options
    foundations: tuple[int, ...]
    foundation_piles: tuple[tuple[int, ...], ...]
    stalemates: int
    players: tuple[PublicPlayer, ...]
    recycles: int
    waste_fan: tuple[int, ...]

    @classmethod
    def from_rulebook(cls, options: Options, seat: int, body: Sequence[Any]) -> NertsObservation:
        """The view of ``seat`` from the rulebook's observation tuple
        (``_core.nerts_observation``: now, foundation piles, players, waste fan, recycles,
        stalemates; each player its Nerts count and top, stock and waste counts, waste top,
        work piles, flip count and recycles)."""
        now, foundations, players, fan, recycles, stalemates = body
        obs = object.__new__(cls)
        obs.seat = seat
        obs.now = now
        obs.table_options = options
        obs.foundation_piles = tuple(map(tuple, foundations))
        obs.foundations = tuple(f[-1] for f in foundations)
        obs.stalemates = stalemates
        obs.recycles = recycles
        seen = []
        for (
            nerts_count,
            nerts_top,
            stock_count,
            waste_count,
            waste_top,
            work,
            flips,
            recs,
        ) in players:
            pl = object.__new__(PublicPlayer)
            pl.nerts_count, pl.nerts_top = nerts_count, nerts_top
            pl.stock_count, pl.waste_count, pl.waste_top = stock_count, waste_count, waste_top
            pl.work = tuple(map(tuple, work))
            pl.flip_count = flips
            pl.recycles = recs
            seen.append(pl)
        obs.players = tuple(seen)
        obs.waste_fan = tuple(fan)
        return obs

    @property
    def me(self) -> PublicPlayer:
        return self.players[self.seat]

    def fits_foundation(self, card: int) -> bool:
        """Whether ``card`` (a card id) could go on some foundation now: the rulebook's
        foundation rule (``_core.nerts_fits_foundation``). A value that is not a Nerts card id
        (``0..207``) raises ``ArgumentTypeError`` or ``ArgumentRangeError``."""
        return _core.nerts_fits_foundation(card, self.foundations)


def native_options(o: Options) -> dict[str, Any]:
    """The options as the rulebook takes them (``_core.nerts_new``)."""
    p = o.profile
    return {
        "num_work": o.work_piles,
        "flip_count": o.flip_count,
        "stock_passes": o.stock_passes,
        "partial": o.allow_partial_pile_moves,
        "fill_any": o.empty_work_pile_fill == "any",
        "auto_call": o.auto_call_nerts,
        "foundation_points": o.foundation_points,
        "nerts_penalty": o.nerts_penalty,
        "nerts_bonus": o.nerts_bonus,
        "stalemate_rule": o.stalemate_rule,
        "max_stalemates": o.max_consecutive_stalemates,
        "undo_depth": o.undo_depth,
        "medians": [p.m_play, p.m_build, p.m_seq, p.m_flip, p.m_call],
        "sigma": p.sigma,
        "miss": p.miss,
        "min_ms": p.min_ms,
        "max_ms": p.max_ms,
        "retry_ms": p.retry_ms,
    }


def _checked(seat: int, action: Any, legal: Sequence[Action]) -> Action | None:
    """An agent's choice: one of ``legal`` or None (sleep); anything else raises."""
    if action is None or action in legal:
        return action  # type: ignore[no-any-return]
    raise IllegalMoveError(
        f"the agent of seat {seat} chose {action!r}, which is not one of its legal actions"
    )


def python_decide(
    options: Options, agents: Sequence[Any]
) -> Callable[[int, Sequence[Any], Sequence[int], Any], tuple[int | None, Any]]:
    """The callback through which the rulebook's clock asks a Python agent (``agents[seat]``)
    for a move: ``(seat, observation tuple, legal codes, rng state) -> (code or None, rng
    state)``."""

    def decide(
        seat: int, body: Sequence[Any], codes: Sequence[int], rng_state: Any
    ) -> tuple[int | None, Any]:
        obs = NertsObservation.from_rulebook(options, seat, body)
        legal = [action_from_code(c) for c in codes]
        rng = Rng.from_state(rng_state)
        action = _checked(seat, agents[seat].act(obs, legal, rng), legal)
        return (None if action is None else action.code), rng.state

    return decide


_ACTION_TYPES = frozenset((ToFoundation, ToWork, Flip, Recycle, CallNerts, Undo))


def _cap(name: str, value: object, top: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        raise OptionError(f"{name} must be an int in 0..={top}, not {value!r}")
    return value


class Round:
    """One real-time round. ``agents[s]`` is the policy of seat ``s`` or ``None`` for a human.

    Drive it with :meth:`run` (agents only), or with :meth:`submit` plus :meth:`advance_to` /
    :meth:`step` when humans play. ``decks`` (default: dealt from ``seed``) arranges each
    seat's 52 cards in dealing order; the round ends with ``"cap"`` after ``max_ms`` on the
    clock or ``max_events`` events. The table, the clock and the built-in agents are the Rust
    rulebook's; other agents are called back from its clock.
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
        from cardcore.nerts.agents import native_agent_state

        n = options.num_players
        if len(agents) != n:
            raise OptionError(f"need {n} agents (None for a human seat), got {len(agents)}")
        for a in agents:
            if a is not None and not callable(getattr(a, "act", None)):
                raise OptionError(f"an agent needs an act(observation, legal, rng) method: {a!r}")
        self.options = options
        self.profile = options.profile
        self.seed = check_seed(seed)
        self.agents = list(agents)
        self.max_ms = _cap("max_ms", max_ms, 1 << 62)
        self.max_events = _cap("max_events", max_events, 1 << 62)
        native = [None if a is None else native_agent_state(a, s, n) for s, a in enumerate(agents)]
        python = [a is not None and d is None for a, d in zip(agents, native, strict=True)]
        dealt = None if decks is None else [list(d) for d in decks]
        if dealt is not None and not all(
            type(c) is int and 0 <= c < 52 * n for d in dealt for c in d
        ):
            raise StateFormatError(f"a deck holds card ids 0..{52 * n - 1}")
        self._searches = [0] * n
        self._log: list[list[Any]] = []
        self._s = _core.nerts_new(
            native_options(options),
            options.nerts_pile_size,
            self.seed,
            native,
            python,
            python_decide(options, self.agents) if any(python) else None,
            decks=dealt,
            max_ms=self.max_ms,
            max_events=self.max_events,
        )
        self._sync = any(d is not None and d["kind"] == 3 for d in native)
        self._take_back()

    # -- public API ----------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return not self._s.is_over

    @property
    def now(self) -> int:
        """The clock (ms since the round started)."""
        return self._s.now

    @property
    def end(self) -> str | None:
        """How the round ended (``"nerts"``, ``"stalemate"``, ``"cap"``) or None."""
        return _core.nerts_result(self._s)[0]

    @property
    def caller(self) -> int | None:
        """The seat that called Nerts, if one did."""
        return _core.nerts_result(self._s)[1]

    @property
    def executed(self) -> int:
        """Events executed so far."""
        return int(_core.nerts_parts(self._s)["executed"])

    @property
    def decks(self) -> list[list[int]]:
        """Each seat's 52 cards as dealt (hidden information: records and replays)."""
        return _core.nerts_decks(self._s)

    @property
    def log(self) -> list[list[Any]]:
        """The event log, ``[t_ms, seat, action text, "ok" | "fail"]`` rows (seat ``-1`` for
        the table's own); it grows as the clock runs."""
        log = self._log
        if _core.nerts_log_len(self._s) != len(log):
            log.extend(list(row) for row in _core.nerts_log(self._s, len(log)))
        return log

    @property
    def inputs(self) -> list[list[Any]]:
        """Every :meth:`submit`: ``[now, seat, t_ms, action text]`` rows."""
        return [
            [now, seat, t, str(action_from_code(code))]
            for now, seat, t, code in _core.nerts_inputs(self._s)
        ]

    def observation(self, seat: int) -> NertsObservation:
        seat = check_seat(seat, len(self.agents))
        return NertsObservation.from_rulebook(
            self.options, seat, _core.nerts_observation(self._s, seat)
        )

    def legal(self, seat: int) -> list[Action]:
        seat = check_seat(seat, len(self.agents))
        return [action_from_code(c) for c in _core.nerts_legal_codes(self._s, seat)]

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``action`` would be legal for ``seat`` if it executed now."""
        seat = check_seat(seat, len(self.agents))
        if type(action) not in _ACTION_TYPES:
            return False
        return _core.nerts_is_legal(self._s, seat, action.code)

    def pending(self, seat: int) -> bool:
        return self._s.is_pending(check_seat(seat, len(self.agents)))

    def parts(self) -> dict[str, Any]:
        """The whole table and clock as plain ints and lists (hidden cards included; see
        ``_core.nerts_parts``)."""
        return _core.nerts_parts(self._s)

    def submit(self, seat: int, action: Action, t_ms: int) -> None:
        """Schedules a (human) action for ``seat`` at ``t_ms`` (>= now). It is validated when it
        executes. Raises :class:`IllegalMoveError` (changing nothing) when the round is over,
        ``action`` is not a Nerts action, ``t_ms`` is not an int at or after now, or the seat
        already has a pending action; :class:`OptionError` for a seat not at the table."""
        seat = check_seat(seat, len(self.agents))
        s = self._s
        if s.is_over:
            raise IllegalMoveError("the round is over")
        if type(action) not in _ACTION_TYPES:
            raise IllegalMoveError(f"not a Nerts action: {action!r}")
        if isinstance(t_ms, bool) or not isinstance(t_ms, int):
            raise IllegalMoveError(f"t_ms must be an int, not {t_ms!r}")
        if t_ms < s.now:
            raise IllegalMoveError(f"t_ms {t_ms} is before now ({s.now})")
        if s.is_pending(seat):
            raise IllegalMoveError(f"seat {seat} already has a pending action")
        _core.nerts_submit_code(s, seat, action.code, t_ms)

    def step(self) -> bool:
        """Executes the next event; False when the round is over or nothing is pending."""
        try:
            return self._s.step()
        finally:
            self._take_back()

    def advance_to(self, t_ms: int, watch: Callable[[], object] | None = None) -> None:
        """Executes every event with ``t_exec <= t_ms`` and moves the clock to ``t_ms``;
        ``watch`` is called after each event (it may raise to stop)."""
        if isinstance(t_ms, bool) or not isinstance(t_ms, int):
            raise OptionError(f"t_ms must be an int, not {t_ms!r}")
        s = self._s
        try:
            if watch is not None:
                while (t := _core.nerts_next_event(s)) is not None and t <= t_ms:
                    s.step()
                    self._take_back()
                    watch()
            s.advance_to(t_ms)
        finally:
            self._take_back()

    def run(self, watch: Callable[[], object] | None = None) -> None:
        """Plays until the round ends (a seat with no agent never acts); ``watch`` is called
        after each event (it may raise to stop)."""
        s = self._s
        try:
            if watch is not None:
                while not s.is_over:
                    if not s.step():
                        s.run()  # nothing pending: only human seats could move
                    self._take_back()
                    watch()
            s.run()
        finally:
            self._take_back()

    def scores(self) -> list[int]:
        """The round's points as they stand (foundation cards, the Nerts-pile penalty, the
        caller's bonus)."""
        return _core.nerts_result(self._s)[2]

    # -- internals -----------------------------------------------------------------------

    def _take_back(self) -> None:
        """Copies what the built-in look-ahead agents learned in Rust (stock memory, last
        decision, searches run) back onto their objects."""
        if not self._sync:
            return
        from cardcore.nerts.agents import native_agent_update

        for seat, row in enumerate(_core.nerts_agents(self._s)):
            if row is None:
                continue
            searches, cycle, waste, stalemates, last_ms = row
            memory = None
            if cycle is not None:
                memory = {"cycle": cycle, "waste": waste, "stalemates": stalemates}
            done, self._searches[seat] = searches - self._searches[seat], searches
            state = {"memory": memory, "last_ms": last_ms, "searches": done}
            native_agent_update(self.agents[seat], seat, state)
