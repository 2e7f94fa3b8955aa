"""The oracle of the built-in Nerts agents: 0.4.0's Python agents (``cardcore.nerts.agents``),
which the Rust agents (``cardcore_engine::nerts_round``) replaced; tests play both and compare
their decisions. :func:`twin` makes the oracle's agent of a public one. :class:`StockMemory` is
0.4.0's ``cardcore.nerts.lookahead.StockMemory``, whose ``update`` now runs the Rust agents'
memory.

0.4.0's docstring: Nerts agents: ``random``, ``greedy`` and ``hard`` (the default).

Every agent implements ``act(observation, legal, rng) -> action | None`` (``None`` = wait for the
next foundation change; agents only do that when neither ``Flip`` nor ``Recycle`` is legal).
They see a :class:`~cardcore.nerts.engine.NertsObservation` and never the stock order. Speeds
change only when actions execute (the engine's timing), never what is legal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, NamedTuple

from cardcore.cards import rank_of, suit_of
from cardcore.errors import ArgumentTypeError, OptionError
from cardcore.games.checks import check_int, check_real
from cardcore.nerts.engine import NertsObservation
from cardcore.nerts.lookahead import Racing, choose
from cardcore.nerts.rules import (
    NERTS,
    WASTE,
    Action,
    CallNerts,
    Flip,
    Recycle,
    ToFoundation,
    ToWork,
    Undo,
    fits_work,
)

__all__ = [
    "ExpertAgent",
    "GreedyAgent",
    "HardAgent",
    "RandomAgent",
    "RuleOfThumbAgent",
    "Search",
    "StockMemory",
]


class StockMemory:
    """One seat's own stock and waste in cycle order, as far as it has seen them.

    Call :meth:`update` with every observation of the seat; it returns the cycle (``None`` for
    a card not seen yet). A change it cannot explain (a stalemate remedy it missed, a replayed
    position) makes it forget what it knew rather than guess.
    """

    __slots__ = ("cycle", "stalemates", "waste")

    def __init__(self) -> None:
        self.cycle: list[int | None] | None = None
        self.waste = 0
        self.stalemates = 0

    def update(self, obs: NertsObservation) -> list[int | None]:
        me = obs.me
        w, top = me.waste_count, me.waste_top
        total = w + me.stock_count
        cyc = self.cycle
        if cyc is not None and obs.stalemates != self.stalemates:
            # every stalemate remedy turned the waste over; rotate_one also moved one card
            if obs.table_options.stalemate_rule == "rotate_one" and len(cyc) > 1:
                for _ in range(obs.stalemates - self.stalemates):
                    cyc = cyc[1:] + cyc[:1]
            self.waste = 0
        if cyc is not None:
            t0, w0 = len(cyc), self.waste
            if total == t0 - 1 and w == w0 - 1:
                del cyc[w0 - 1]  # the waste top was played
            elif total == t0 + 1 and w == w0 + 1:
                cyc.insert(w0, top)  # an undone waste play
            elif total != t0:
                cyc = None
        if cyc is not None and w and cyc[w - 1] not in (None, top):
            cyc = None
        if cyc is not None and not _visible(obs).isdisjoint(cyc):  # None is never visible
            cyc = None
        if cyc is None:
            cyc = [None] * total
        if w:
            cyc[w - 1] = top
        self.cycle, self.waste, self.stalemates = cyc, w, obs.stalemates
        return cyc


def _visible(obs: NertsObservation) -> set[int]:
    me = obs.me
    seen: set[int] = set().union(*me.work, *obs.foundation_piles)
    if me.nerts_top is not None:
        seen.add(me.nerts_top)
    return seen


class RandomAgent:
    """Uniform over the legal actions (never ``Undo``)."""

    def act(
        self, observation: NertsObservation, legal: Sequence[Action], rng: Any
    ) -> Action | None:
        choices = [a for a in legal if not isinstance(a, Undo)]
        if not choices:
            return None
        pick: Action = choices[rng.below(len(choices))]
        return pick


def _source_card(obs: NertsObservation, src: int, depth: int = 1) -> int | None:
    me = obs.me
    if src == NERTS:
        return me.nerts_top
    if src == WASTE:
        return me.waste_top
    pile = me.work[src]
    return pile[-depth] if len(pile) >= depth else None


def _foundation_gap(obs: NertsObservation, card: int) -> int:
    """How many cards of its suit must reach a foundation before ``card`` fits one (0 = it
    fits now; an ace is 0; with no foundation of its suit, ``rank - 1``)."""
    r, s = rank_of(card), suit_of(card)
    gap = r - 1
    for top in obs.foundations:
        if suit_of(top) == s and rank_of(top) < r:
            gap = min(gap, r - 1 - rank_of(top))
    return gap


def _stock_action(legal: Sequence[Action]) -> Action | None:
    for a in legal:
        if isinstance(a, Flip | Recycle):
            return a
    return None


class _Moves(NamedTuple):
    """Legal actions by kind; ``urgent`` is the first call or Nerts-to-foundation play."""

    urgent: Action | None
    found: list[ToFoundation]
    nerts_work: list[ToWork]
    waste_work: list[ToWork]
    work_work: list[ToWork]


def _sort_moves(legal: Sequence[Action]) -> _Moves:
    moves = _Moves(None, [], [], [], [])
    for a in legal:
        if isinstance(a, CallNerts) or (isinstance(a, ToFoundation) and a.src == NERTS):
            return moves._replace(urgent=a)
        if isinstance(a, ToFoundation):
            moves.found.append(a)
        elif isinstance(a, ToWork):
            if a.src == NERTS:
                moves.nerts_work.append(a)
            elif a.src == WASTE:
                moves.waste_work.append(a)
            else:
                moves.work_work.append(a)
    return moves


class GreedyAgent:
    """A fixed priority list: call Nerts; foundation plays (Nerts pile first); Nerts top onto a
    work pile; waste onto a work pile; work-pile moves that empty a pile or expose a
    foundation card; flip/recycle."""

    def act(
        self, observation: NertsObservation, legal: Sequence[Action], rng: Any
    ) -> Action | None:
        obs = observation
        me = obs.me
        urgent, found, nerts_work, waste_work, work_work = _sort_moves(legal)
        if urgent is not None:
            return urgent
        if found:
            return found[0]
        if nerts_work:
            # prefer a real build over using an empty pile
            nerts_work.sort(key=lambda a: not me.work[a.pile])
            return nerts_work[0]
        if waste_work:
            waste_work.sort(key=lambda a: not me.work[a.pile])
            return waste_work[0]
        for a in work_work:
            src = me.work[a.src]
            target = me.work[a.pile]
            if not target:
                continue
            if a.depth == len(src):
                return a  # consolidate: empties a pile
            if obs.fits_foundation(src[-a.depth - 1]):
                return a  # exposes a foundation card
        return _stock_action(legal)


class RuleOfThumbAgent:
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

    def act(
        self, observation: NertsObservation, legal: Sequence[Action], rng: Any
    ) -> Action | None:
        obs = observation
        me = obs.me
        nerts_top = me.nerts_top
        urgent, found, nerts_work, waste_work, work_work = _sort_moves(legal)
        if urgent is not None:
            return urgent
        if nerts_work:
            # a real build keeps the empty piles free
            nerts_work.sort(key=lambda a: not me.work[a.pile])
            return nerts_work[0]

        def nerts_fits_after_exposing(pile: Sequence[int], depth: int) -> bool:
            if nerts_top is None:
                return False
            if len(pile) == depth:
                return obs.table_options.empty_work_pile_fill in ("any", "nerts_only")
            return fits_work(nerts_top, pile[-depth - 1])

        # One move that unlocks the Nerts card.
        if nerts_top is not None:
            unlock = self._waste_unlock(me.waste_top, nerts_top, found, waste_work, me.work)
            if unlock is not None:
                return unlock
            for fa in found:
                if fa.src not in (NERTS, WASTE) and nerts_fits_after_exposing(me.work[fa.src], 1):
                    return fa
            for a in work_work:
                target = me.work[a.pile]
                if target and nerts_fits_after_exposing(me.work[a.src], a.depth):
                    return a
        if found:
            return max(found, key=lambda fa: self._foundation_value(obs, fa))
        # Waste builds that do not block the Nerts card and do not bury a pile that is about
        # to clear (every card of it within CLEAR_RANKS ranks of a foundation: it will empty
        # soon and an empty pile takes any Nerts card).
        best: ToWork | None = None
        for a in waste_work:
            target = me.work[a.pile]
            if not target:
                if nerts_top is not None:
                    continue
                if best is None:
                    best = a
                continue
            if nerts_top is not None and fits_work(nerts_top, target[-1]):
                continue
            if nerts_top is not None and self._near_clearing(obs, target):
                continue
            best = a
            break
        if best is not None:
            return best
        for a in work_work:
            src = me.work[a.src]
            if not me.work[a.pile]:
                continue
            if a.depth == len(src):
                return a
            if obs.fits_foundation(src[-a.depth - 1]):
                return a
        return _stock_action(legal)

    CLEAR_RANKS = 3
    """A pile whose every card is at most this many ranks from fitting a foundation is
    "about to clear" (tuned on paired games, see the class docstring)."""

    @classmethod
    def _near_clearing(cls, obs: NertsObservation, pile: Sequence[int]) -> bool:
        return max(_foundation_gap(obs, c) for c in pile) <= cls.CLEAR_RANKS

    @staticmethod
    def _waste_unlock(
        waste_top: int | None,
        nerts_top: int,
        found: Sequence[ToFoundation],
        waste_work: Sequence[ToWork],
        work: Sequence[Sequence[int]],
    ) -> Action | None:
        """A waste or work play after which the Nerts card fits: the waste card built on a
        pile becomes a top the Nerts card fits, or a card one below the Nerts card in its suit
        goes to a foundation."""
        below = (suit_of(nerts_top), rank_of(nerts_top) - 1)
        for fa in found:
            card = waste_top if fa.src == WASTE else work[fa.src][-1] if fa.src < 5 else None
            if card is not None and (suit_of(card), rank_of(card)) == below:
                return fa
        if waste_top is not None and fits_work(nerts_top, waste_top):
            for a in waste_work:
                if work[a.pile]:
                    return a
        return None

    @staticmethod
    def _foundation_value(obs: NertsObservation, fa: ToFoundation) -> int:
        card = _source_card(obs, fa.src)
        if card is None:
            return -1
        value = 0
        r, s = rank_of(card), suit_of(card)
        # contested: some opponent shows the same rank and suit on a playable top
        for seat, p in enumerate(obs.players):
            if seat == obs.seat:
                continue
            tops = [p.nerts_top, p.waste_top, *(w[-1] for w in p.work if w)]
            if any(t is not None and rank_of(t) == r and suit_of(t) == s for t in tops):
                value += 4
                break
        if fa.src not in (NERTS, WASTE):
            value += 2  # frees a work pile spot
        return value


def _distinct(
    candidates: Sequence[Action], work: Sequence[Sequence[int]], keep: Action | None
) -> list[Action]:
    """``candidates`` less the moves that differ from an earlier one only by which empty work
    pile they fill, and less whole piles moved into an empty pile (they only reorder the
    piles); ``keep`` always stays, and so does the first candidate if nothing else would."""
    out: list[Action] = []
    seen: set[tuple[int, int]] = set()
    for a in candidates:
        if isinstance(a, ToWork) and not work[a.pile] and a != keep:
            if a.src < len(work) and a.depth == len(work[a.src]):
                continue
            if (a.src, a.depth) in seen:
                continue
            seen.add((a.src, a.depth))
        out.append(a)
    return out or list(candidates[:1])


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


class _LookAheadAgent:
    """What :class:`HardAgent` and :class:`ExpertAgent` share: the stock memory, the
    candidates and the one Rust call per decision; :meth:`search` gives the budget for a
    table size."""

    def __init__(self) -> None:
        self._prior = RuleOfThumbAgent()
        self._memory: dict[int, StockMemory] = {}
        self._last_ms: dict[int, int] = {}
        self.searches = 0
        """Decisions that ran the look-ahead (for benchmarks)."""

    def search(self, players: int) -> Search:
        """The look-ahead budget at a table of ``players`` seats."""
        raise NotImplementedError

    def act(
        self, observation: NertsObservation, legal: Sequence[Action], rng: Any
    ) -> Action | None:
        obs = observation
        cycle = self._remember(obs)
        # every action but Undo is a candidate (pruning pile-to-pile moves cost about 0.9)
        candidates: list[Action] = [a for a in legal if not isinstance(a, Undo)]
        for a in candidates:
            if isinstance(a, CallNerts) or (isinstance(a, ToFoundation) and a.src == NERTS):
                return a
        if len(candidates) <= 1:
            return candidates[0] if candidates else None
        prior = self._prior.act(obs, legal, rng)  # never Undo, so among the candidates
        candidates = _distinct(candidates, obs.me.work, prior)
        if len(candidates) == 1:
            return candidates[0]
        seed = rng.next_u64()
        search = self.search(len(obs.players))
        bonus = [search.margin if a == prior else 0.0 for a in candidates]
        self.searches += 1
        try:
            best = choose(
                obs,
                candidates,
                cycle,
                bonus=bonus,
                samples=search.samples,
                horizon_ms=search.horizon_ms,
                seed=seed,
                racing=search.racing,
            )
        except ValueError:
            # a position the simulator cannot describe (set up by hand with missing cards, or
            # a memory out of step): forget the memory and follow the plan
            self._memory[obs.seat] = StockMemory()
            return prior if prior is not None else candidates[0]
        return candidates[best]

    def _remember(self, obs: NertsObservation) -> list[int | None]:
        """The seat's stock memory, fresh at the start of every round."""
        seat = obs.seat
        if obs.now == 0 or obs.now < self._last_ms.get(seat, 0) or seat not in self._memory:
            self._memory[seat] = StockMemory()
        self._last_ms[seat] = obs.now
        return self._memory[seat].update(obs)


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
    budget it plays at a table. Built like any outside agent, on the observation and
    :func:`~cardcore.nerts.lookahead.choose`.

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


def twin(agent: Any, made: dict[int, Any] | None = None) -> Any:
    """The oracle's agent with the settings of the public built-in ``agent`` (memory and
    searches copied; ``made`` keeps one twin per object shared by several seats); any other
    object is its own twin."""
    from cardcore.nerts import agents as public

    if made is not None and id(agent) in made:
        return made[id(agent)]
    out: Any
    kind = type(agent)
    if kind is public.RandomAgent:
        out = RandomAgent()
    elif kind is public.GreedyAgent:
        out = GreedyAgent()
    elif kind is public.RuleOfThumbAgent:
        out = RuleOfThumbAgent()
    elif kind is public.HardAgent:
        out = HardAgent(agent.samples, agent.horizon_ms, agent.margin, agent.racing)
    elif kind is public.ExpertAgent:
        out = ExpertAgent()
        out.table = dict(agent.table)
    else:
        return agent
    if isinstance(out, _LookAheadAgent):
        out._memory = {s: _copy_memory(m) for s, m in agent._memory.items()}
        out._last_ms = dict(agent._last_ms)
        out.searches = agent.searches
    if made is not None:
        made[id(agent)] = out
    return out


def _copy_memory(m: StockMemory) -> StockMemory:
    c = StockMemory()
    c.cycle = None if m.cycle is None else list(m.cycle)
    c.waste, c.stalemates = m.waste, m.stalemates
    return c
