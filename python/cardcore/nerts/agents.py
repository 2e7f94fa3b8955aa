"""Nerts agents: ``random``, ``greedy`` and ``hard`` (the default).

Every agent implements ``act(observation, legal, rng) -> action | None`` (``None`` = wait for the
next foundation change; agents only do that when neither ``Flip`` nor ``Recycle`` is legal).
They see a :class:`~cardcore.nerts.engine.NertsObservation` and never the stock order. Speeds
change only when actions execute (the engine's timing), never what is legal.

The built-in agents are handles of the Rust agents (``cardcore_engine::nerts_round``): a
round plays them in Rust, and their :meth:`act` makes its decision there too (one Rust call,
the look-ahead with the GIL released); the objects keep their settings and, for ``hard`` and
``expert``, each seat's stock memory. Any other object with ``act`` plugs in as an agent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, NamedTuple

from cardcore import _core
from cardcore._core import NertsRacing
from cardcore.errors import ArgumentTypeError, IllegalMoveError, OptionError
from cardcore.games.checks import check_int, check_real
from cardcore.nerts.engine import NertsObservation, native_options
from cardcore.nerts.lookahead import Racing, StockMemory, _full_race
from cardcore.nerts.rules import Action

__all__ = [
    "ExpertAgent",
    "GreedyAgent",
    "HardAgent",
    "RandomAgent",
    "RuleOfThumbAgent",
    "Search",
]


class _NativeAgent:
    """A built-in agent: its decisions are the Rust agent's of kind :attr:`_KIND`."""

    _KIND: ClassVar[int]

    def act(
        self, observation: NertsObservation, legal: Sequence[Action], rng: Any
    ) -> Action | None:
        """The Rust agent's choice among ``legal`` (``None``: wait for the next foundation
        change); ``rng`` is a :class:`cardcore.rng.Rng` (the agent draws from it)."""
        obs = observation
        state = _agent_dict(self, obs.seat, len(obs.players))
        if state is None:
            raise OptionError(f"settings the Nerts agent cannot play with: {self!r}")
        moves = list(legal)
        codes = [a.code for a in moves]
        code, row = _core.nerts_agent_act(native_options(obs.table_options), state, obs, codes, rng)
        _update(self, obs.seat, row)
        if code is None:
            return None
        try:
            return moves[codes.index(code)]
        except ValueError:  # pragma: no cover - the Rust agents choose among legal
            raise IllegalMoveError(f"the agent chose code {code}, not a legal action") from None


class RandomAgent(_NativeAgent):
    """Uniform over the legal actions (never ``Undo``)."""

    _KIND = 0


class GreedyAgent(_NativeAgent):
    """A fixed priority list: call Nerts; foundation plays (Nerts pile first); Nerts top onto a
    work pile; waste onto a work pile; work-pile moves that empty a pile or expose a
    foundation card; flip/recycle."""

    _KIND = 1


class RuleOfThumbAgent(_NativeAgent):
    """The hand-written Nerts-pile plan that :class:`HardAgent` starts from (its prior).

    * Calls Nerts at once; plays the Nerts top wherever it fits (foundation first, then a real
      build, then an empty pile).
    * Looks one move ahead for a play after which the Nerts card can move: the card one below
      it in its suit to a foundation, the waste card it needs built on a work pile, a work top
      played off or a whole pile moved so that a fitting top (or an empty pile) appears.
    * Races: of several foundation plays, cards an opponent also shows go first, then work-pile
      tops (which free a pile), then the waste.
    * Otherwise as greedy: waste builds (never into an empty pile while a Nerts card waits, and
      not onto a pile that is about to clear: every card of it at most ``CLEAR_RANKS`` ranks
      from a foundation, so it will soon be an empty pile that takes any Nerts card),
      consolidating or foundation-exposing pile moves, then flip/recycle.

    Measured alone: +1.26 +/- 0.37 points per round over ``greedy`` (2,000 paired rounds).
    """

    _KIND = 2

    CLEAR_RANKS = 3
    """A pile whose every card is at most this many ranks from fitting a foundation is
    "about to clear" (tuned on paired games, see the class docstring; the Rust agent's
    constant)."""


class Search(NamedTuple):
    """One look-ahead budget (see :class:`HardAgent`): ``samples`` sampled deals at most,
    ``horizon_ms`` of simulated play after each candidate, the plan's head start ``margin`` in
    points, and how the candidates are raced (``None``: every candidate all ``samples``)."""

    samples: int
    horizon_ms: int
    margin: float
    racing: Racing | None

    @classmethod
    def parse(cls, text: str) -> Search:
        """The budget written ``samples,horizon_ms,margin,first,step,z,max_loss`` (as the
        measurement scripts take it): :class:`OptionError` naming the text if it is not one."""
        parts = text.split(",")
        try:
            s, h, m, f, st, z, ml = parts
            search = cls(int(s), int(h), float(m), (int(f), int(st), float(z), float(ml)))
        except ValueError:
            raise OptionError(
                f"a search is samples,horizon_ms,margin,first,step,z,max_loss, not {text!r}"
            ) from None
        return _check_search(search)


def _check_search(search: Search) -> Search:
    """``search`` if its settings are in range, else :class:`OptionError` naming the setting
    (:class:`ArgumentTypeError` for a wrong type)."""
    check_int("samples", search.samples, 1)
    check_int("horizon_ms", search.horizon_ms, 1)
    check_real("margin", search.margin)
    racing = search.racing
    if racing is not None:
        if not isinstance(racing, Sequence) or isinstance(racing, str):
            raise ArgumentTypeError(f"racing must be a tuple or None, not {type(racing).__name__}")
        if len(racing) not in (3, 4):
            raise OptionError(f"racing must be (first, step, z[, max_loss]), got {racing!r}")
        check_int("racing first", racing[0], 1)
        check_int("racing step", racing[1], 1)
        check_real("racing z", racing[2])
        if len(racing) == 4:
            check_real("racing max_loss", racing[3])
    return search


class _LookAheadAgent(_NativeAgent):
    """What :class:`HardAgent` and :class:`ExpertAgent` share: the stock memory per seat and
    the search counter; :meth:`search` gives the budget for a table size."""

    _KIND = 3

    def __init__(self) -> None:
        self._prior = RuleOfThumbAgent()
        self._memory: dict[int, StockMemory] = {}
        self._last_ms: dict[int, int] = {}
        self.searches = 0
        """Decisions that ran the look-ahead (for benchmarks)."""

    def search(self, players: int) -> Search:
        """The look-ahead budget at a table of ``players`` seats."""
        raise NotImplementedError


class HardAgent(_LookAheadAgent):
    """Monte Carlo look-ahead over the cards it cannot see (the default agent).

    At every decision with a real choice it deals the unseen cards ``samples`` times (each
    seat's hidden Nerts cards and stock; its own stock cards it has seen stay where it saw
    them, see :class:`~cardcore.nerts.lookahead.StockMemory`), plays every candidate action
    followed by ``horizon_ms`` of greedy real-time play for all seats in the Rust simulator,
    and takes the candidate with the best mean score difference. The hand-written plan of
    :class:`RuleOfThumbAgent` gets a head start of ``margin`` points, so noise alone does not
    overturn it. Calls Nerts and plays the Nerts top to a foundation without looking. Moves
    that differ only by which empty work pile they fill count once, and a whole pile moved into
    an empty one (it only reorders the piles) is no candidate. The candidates are raced
    (``racing = (first, step, z)`` or ``(first, step, z, max_loss)``, see
    :func:`~cardcore.nerts.lookahead.choose`): 8 deals each, then 8 more at a time for those
    still in the running, a candidate dropping out once it is 2.5 standard errors behind the
    leader; ``racing=None`` gives every candidate all ``samples`` deals. The whole choice is one
    Rust call.

    Measured against ``greedy`` (classic speed, 2 players, paired rounds: same deals, seats
    swapped): +7.35 points per round over 2,000 rounds (seeds 0-999; 95% interval +6.62 to
    +8.09), against +7.30 for version 0.3.0 on the same rounds (paired difference +0.05, 95%
    interval -0.04 to +0.15); ``docs/replays.md`` (Nerts, agents) has the breakdown, other
    table sizes, what the faster settings cost and what a decision costs.
    """

    def __init__(
        self,
        samples: int = 64,
        horizon_ms: int = 20_000,
        margin: float = 0.5,
        racing: Racing | None = (8, 8, 2.5),
    ) -> None:
        super().__init__()
        _check_search(Search(samples, horizon_ms, margin, racing))
        self.samples = samples
        self.horizon_ms = horizon_ms
        self.margin = margin
        self.racing = racing

    def search(self, players: int) -> Search:
        """The same budget at every table size."""
        return Search(self.samples, self.horizon_ms, self.margin, self.racing)


_BY_TABLE: Any = object()  # ExpertAgent's racing left to the table size


class ExpertAgent(_LookAheadAgent):
    """:class:`HardAgent`'s search with a budget chosen by the table size: :attr:`TABLE` has one
    :class:`Search` per number of players (a size without a row plays the nearest one). Settings
    given to the constructor (``samples``, ``horizon_ms``, ``margin``, ``racing``, as for
    ``hard``) hold at every table size and the others stay the table's; :meth:`search` is the
    budget it plays at a table. Its decisions are the Rust ``hard`` agent's with that budget.

    The rows (``docs/agents.md`` has the figures, ``research/scripts/nerts-expert-strength``, 2,000
    paired rounds each, seed 2026): with 2 players 64 deals, the plan's head start 0.25 instead
    of 0.5 and a race that also stops once the expected loss is below 0.005 points: +0.95
    points a round over ``hard`` (95% interval +0.39 to +1.52) at 0.81-0.89x ``hard``'s CPU
    time per decision. With 3 and 4 players up to 256 deals with the same stop, each candidate
    played 16 s forward instead of 20 s: 4 players +0.33 (+0.04 to +0.63) at 1.03-1.10x
    ``hard``'s CPU time, not repeated on seed 2027 (-0.08, -0.39 to +0.23; level over both),
    3 players +0.06 (-0.30 to +0.42) at 0.80-1.04x (level).
    """

    TABLE: ClassVar[Mapping[int, Search]] = MappingProxyType(
        {
            2: Search(64, 20_000, 0.25, (8, 8, 2.5, 0.005)),
            3: Search(256, 16_000, 0.5, (8, 8, 2.5, 0.005)),
            4: Search(256, 16_000, 0.5, (8, 8, 2.5, 0.005)),
        }
    )
    """The default budget per table size (number of players)."""

    def __init__(
        self,
        samples: int | None = None,
        horizon_ms: int | None = None,
        margin: float | None = None,
        racing: Racing | None = _BY_TABLE,
    ) -> None:
        super().__init__()
        given: dict[str, Any] = {"samples": samples, "horizon_ms": horizon_ms, "margin": margin}
        given = {k: v for k, v in given.items() if v is not None}
        if racing is not _BY_TABLE:
            given["racing"] = racing
        self.table: dict[int, Search] = {
            players: _check_search(row._replace(**given)) for players, row in self.TABLE.items()
        }
        """The budget this agent plays at each table size: :attr:`TABLE` with the settings
        given to the constructor in every row."""

    def search(self, players: int) -> Search:
        """This table size's row of :attr:`table` (the nearest row for a size it lacks)."""
        row = min(self.table, key=lambda p: (abs(p - players), p))
        return self.table[row]


_BUILT_IN = frozenset((RandomAgent, GreedyAgent, RuleOfThumbAgent, HardAgent, ExpertAgent))
_NATIVE_ACT = _NativeAgent.act


def _agent_dict(agent: _NativeAgent, seat: int, players: int) -> dict[str, Any] | None:
    """The Rust agent of ``agent`` at ``seat`` of a table of ``players``: its kind, settings
    and stock memory (None for settings the look-ahead refuses)."""
    state: dict[str, Any] = {
        "kind": agent._KIND,
        "samples": 1,
        "horizon_ms": 1,
        "margin": 0.0,
        "racing": NertsRacing(first=1, step=1, z=0.0, max_loss=0.0),
        "memory": None,
        "last_ms": None,
    }
    if isinstance(agent, _LookAheadAgent):
        search = agent.search(players)
        racing = search.racing
        if racing is not None and len(racing) not in (3, 4):
            return None
        first, step = (search.samples, 1) if racing is None else racing[:2]
        counts = (search.samples, search.horizon_ms, first, step)
        if not all(type(x) is int and 0 < x < 2**32 for x in counts):
            return None
        memory = agent._memory.get(seat)
        state.update(
            samples=search.samples,
            horizon_ms=search.horizon_ms,
            margin=search.margin,
            racing=_full_race(racing, search.samples),
            memory=None
            if memory is None
            else {
                "cycle": None if memory.cycle is None else list(memory.cycle),
                "waste": memory.waste,
                "stalemates": memory.stalemates,
            },
            last_ms=agent._last_ms.get(seat),
        )
    return state


def native_agent_state(agent: object, seat: int, players: int) -> dict[str, Any] | None:
    """What ``cardcore_engine::nerts_round`` needs of a built-in agent at ``seat`` of a table of
    ``players`` to play it inside the round (its kind, settings and stock memory), or None for
    any other agent, and for one whose ``act`` was replaced (a subclass's or the object's own):
    the round then calls its ``act``."""
    if not isinstance(agent, _NativeAgent) or type(agent) not in _BUILT_IN:
        return None
    if type(agent).act is not _NATIVE_ACT or "act" in vars(agent):
        return None
    return _agent_dict(agent, seat, players)


def _update(agent: _NativeAgent, seat: int, row: Sequence[Any]) -> None:
    """Takes back what one decision in Rust changed of a built-in agent at ``seat``."""
    searches, cycle, waste, stalemates, last_ms = row
    memory = None if cycle is None else {"cycle": cycle, "waste": waste, "stalemates": stalemates}
    native_agent_update(agent, seat, {"memory": memory, "last_ms": last_ms, "searches": searches})


def native_agent_update(agent: object, seat: int, state: dict[str, Any]) -> None:
    """Takes back what a round played in Rust changed of a built-in agent at ``seat``."""
    if not isinstance(agent, _LookAheadAgent):
        return
    memory = state["memory"]
    if memory is not None:
        m = StockMemory()
        m.cycle, m.waste, m.stalemates = memory["cycle"], memory["waste"], memory["stalemates"]
        agent._memory[seat] = m
    if state["last_ms"] is not None:
        agent._last_ms[seat] = state["last_ms"]
    agent.searches += state["searches"]
