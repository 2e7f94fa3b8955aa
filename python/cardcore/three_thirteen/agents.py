"""Three-Thirteen agents: ``random``, ``greedy``, ``normal``, ``hard``, ``expert`` and ``learned``.

Every agent is a pure function of ``(observation, legal, rng)``: the only state an agent keeps
is a memo of its own last solver answer (same input, same output), so a game replays exactly.

* ``random``: a uniform legal move (``rng.below``).
* ``greedy``: takes the discard-pile top only if that (with the best discard after it) lowers
  its optimal deadwood; otherwise draws from the stock; discards to minimise deadwood. One
  Rust call per draw decision; the discard after a pile draw reuses that answer.
* ``normal``: each decision ``hard``'s with probability 1/2, else ``greedy``'s (a level between
  them on the ladder, ``docs/agents.md``).
* ``hard``: counts unseen cards (everything not in its hand, the discard pile or an opponent's
  known pickups) and values a hand by its expected optimal deadwood after one more stock draw
  and best discard, minus a bonus for the chance of going out on that draw. Discard: among the
  discards that keep deadwood near its minimum, keeps the hand with the best such value (this
  values pairs, connectors and wilds), with a small penalty for feeding the next player's
  visible pickups. Draw: compares equal horizons, the pile card plus one more draw against two
  stock draws; the pile card is taken far less often than greedy takes it, which is where most
  of the edge comes from. On a final turn it minimises the deadwood it will be scored on. Unseen
  faces that cannot meld with the hand are evaluated in closed form, so only the interacting
  faces cost a solver call. Each decision is one Rust call (``cardcore_engine::
  three_thirteen_hard``); the Python implementation it replaced is kept in the tests as the
  reference it must match decision for decision.
* ``expert``: ``hard`` with learned evaluations: each of ``hard``'s discard options (the
  discards near the least deadwood) is valued by a linear value of the position after it
  (deadwood, ``hard``'s one-draw look-ahead in parts, wilds held, feeding the opponents' pickups,
  the opponents' pickups), one weight vector per round size and own turn, fitted on ``hard``
  self-play in which every option was played to the end of the round on the same cards; the least
  wins. The draws ``hard`` weighs (taking the pile top lowers the deadwood) are decided by a
  fitted draw value. No deals and no random numbers: the stock is averaged over by the
  look-ahead features; one Rust call per decision (``cardcore_engine::three_thirteen_expert``).
  ``search="win"`` plays for the game rather than the round: each discard option is valued by an
  estimate of the chance of winning the game after it, from the match totals
  (``observation.totals``), the rounds left and a normal approximation of the final totals.
  The determinized searches measured on the way (deals of the unseen cards played forward:
  ``lap``, ``round``, ``pimc``, ``laphard``, ``infer``, and ``value``) are not levels: they are
  reachable for research through :class:`DealSearchAgent` (``research/notes/agents.md``).
* ``learned``: greedy's reading of the hand plus six weights trained against ``greedy`` by
  evolution strategies (:mod:`.learned`; the weights ship with the package).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final, Literal

from cardcore import _core
from cardcore.errors import OptionError
from cardcore.games.base import AgentFactory
from cardcore.games.checks import check_bool, check_choice, check_int, check_real
from cardcore.games.levels import Blend
from cardcore.rng import Rng
from cardcore.three_thirteen.learned import LearnedAgent
from cardcore.three_thirteen.melds import discard_deadwoods_of_faces
from cardcore.three_thirteen.options import NUM_ROUNDS
from cardcore.three_thirteen.rules import (
    DRAW_DISCARD,
    DRAW_STOCK,
    Discard,
    Move,
    Observation,
    Options,
    move_from_code,
)

__all__ = [
    "AGENTS",
    "EXPERT_SEARCHES",
    "DealSearchAgent",
    "ExpertAgent",
    "GreedyAgent",
    "HardAgent",
    "LearnedAgent",
    "NormalAgent",
    "RandomAgent",
    "round_history",
]


class RandomAgent:
    """Uniformly random legal move."""

    __slots__ = ()

    def act(self, observation: Observation, legal: Sequence[Move], rng: Rng) -> Move:
        return legal[rng.below(len(legal))]


def _pick_discard(obs: Observation, legal: Sequence[Move], dws: Sequence[int]) -> Move:
    """The legal discard with the lowest deadwood left (``dws`` aligned with ``obs.hand``; the
    rulebook's legal moves leave out the card the forbid-return rule bans)."""
    hand = obs.hand
    allowed = {m.card_id for m in legal if type(m) is Discard}
    best_i = -1
    best = 1 << 30
    for i, d in enumerate(dws):
        if d < best and hand[i] in allowed:
            best, best_i = d, i
    move = Discard(hand[best_i])
    return move if move in legal else legal[0]


class GreedyAgent:
    """Take the pile top only if it lowers optimal deadwood; discard to minimise deadwood."""

    __slots__ = ("_dws", "_key")

    def __init__(self) -> None:
        self._key = b""
        self._dws: list[int] = []

    def act(self, observation: Observation, legal: Sequence[Move], rng: Rng) -> Move:
        obs = observation
        ft = obs.face_of
        if obs.phase == "draw":
            top = obs.discard_pile[-1]
            faces = bytes(obs.hand).translate(ft) + ft[top : top + 1]
            dws = discard_deadwoods_of_faces(faces, obs.wild_rank, obs.rules)
            keep = dws[-1]
            take = min(dws[:-1])
            if take < keep:
                # The hand after the pile draw is obs.hand + top, sorted by id; remember the
                # answer keyed by that sorted hand so the discard needs no second call.
                hand = sorted((*obs.hand, top))
                pos = {c: i for i, c in enumerate(obs.hand)}
                self._key = bytes(hand)
                self._dws = [dws[-1] if c == top else dws[pos[c]] for c in hand]
                return DRAW_DISCARD
            return DRAW_STOCK
        key = bytes(obs.hand)
        if key == self._key:
            dws = self._dws
        else:
            dws = discard_deadwoods_of_faces(key.translate(ft), obs.wild_rank, obs.rules)
        self._key = b""
        return _pick_discard(obs, legal, dws)


# --- hard ---------------------------------------------------------------------------------------


class HardAgent:
    """Expected-deadwood player over counted unseen cards (see the module docstring).

    The decisions run in Rust (``cardcore_engine::three_thirteen_hard``), one call per decision;
    the tuning knobs below are passed with every call.
    """

    __slots__ = ()

    # Tuning knobs (class constants; measured on games disjoint from the benchmark's seeds).
    out_bonus: float = 10.0  # value of the chance that the next draw lets the hand go out
    feed_penalty: float = 2.0  # discarding a card that fits the next player's pickups
    now_weight: float = 0.05  # weight of the deadwood right now, next to the lookahead
    slack: int = 10  # discards considered: within this many points of the best deadwood
    max_candidates: int = 4
    gamma: float = 0.8

    def act(self, observation: Observation, legal: Sequence[Move], rng: Rng) -> Move:
        return _move(_core.tt_hard_act(observation, hard_params(self)), legal)


def _move(code: int | None, legal: Sequence[Move]) -> Move:
    """The move of a Rust agent's replay code (``legal[0]`` when it has none or it is not
    legal: never with a consistent observation)."""
    if code is None:
        return legal[0]
    move = move_from_code(code)
    return move if move in legal else legal[0]


def hard_params(agent: HardAgent | type[HardAgent]) -> _core.ThreeThirteenHardParams:
    """The tuning knobs of a hard agent (or its class), as the Rust calls take them.

    Built once per set of knob values (the object is read-only): a decision reads the six
    knobs, so a class or an instance whose knobs change gets the new values."""
    return _hard_params(
        agent.out_bonus,
        agent.feed_penalty,
        agent.now_weight,
        agent.slack,
        agent.max_candidates,
        agent.gamma,
    )


@functools.lru_cache(maxsize=64)
def _hard_params(
    out_bonus: float,
    feed_penalty: float,
    now_weight: float,
    slack: int,
    max_candidates: int,
    gamma: float,
) -> _core.ThreeThirteenHardParams:
    return _core.ThreeThirteenHardParams(
        out_bonus=out_bonus,
        feed_penalty=feed_penalty,
        now_weight=now_weight,
        slack=slack,
        max_candidates=max_candidates,
        gamma=gamma,
    )


class NormalAgent(Blend):
    """``hard``'s move with probability 1/2, else ``greedy``'s."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(HardAgent(), GreedyAgent(), 0.5)


# --- expert -------------------------------------------------------------------------------------

_MAX_TURNS: Final = Options().max_turns_per_round  # not in the observation: the default


EXPERT_SEARCHES: Final = ("valuedraw", "win")


class DealSearchAgent:
    """Every search of the Three-Thirteen expert, for research (``research/scripts``,
    ``research/notes/agents.md``): not a level and not a stable API; users want
    :class:`ExpertAgent`. The determinized searches deal the cards the seat has not seen
    (an opponent's hidden cards are the ones it kept from as many cards as it has drawn,
    ``infer_hands``) and play them forward: ``"lap"`` (the other seats' next turns played
    greedily: the chance ``p`` that an opponent goes out first weighs ``hard``'s value against the
    deadwood after a final turn), ``"laphard"`` (the same with ``hard`` for the other seats),
    ``"round"`` (every candidate played to the end of the round with greedy play), ``"pimc"`` (the
    same with ``hard`` for every seat), ``"infer"`` (pimc in deals weighted by the opponents'
    observed choices, :func:`round_history`).

    ``rollouts``: deals per decision (the default budget; reproducible). ``time_ms``: search
    for this long per decision instead (at least one deal; the game then depends on the
    machine's speed). ``search``: ``"valuedraw"`` (the default; no deals: a fitted value of
    the position after each of ``hard``'s discards and a fitted draw value, so ``rollouts`` and
    ``time_ms`` do not apply), ``"value"`` (the same with ``hard``'s draws), ``"lap"``,
    ``"laphard"``, ``"round"``, ``"pimc"``, ``"infer"`` (pimc in deals weighted by the round's
    public history; ``infer_epsilon``: the likelihood of a choice ``hard`` would not make, 0 to
    1) or ``"win"`` (``valuedraw`` whose discards maximise an estimate of the chance of winning
    the game, from the match totals and the rounds left);
    ``risk_weight`` (lap) scales the chance that the round ends; ``margin`` (round, pimc),
    ``max_candidates``, ``slack``, ``hard_rollouts`` (round): standard errors
    by which another move must beat ``hard``'s, the discards compared, the seat's own later
    turns as ``hard``. ``deals`` and
    ``decisions`` count the search's work (for measurements).
    """

    __slots__ = (
        "deals",
        "decisions",
        "hard_rollouts",
        "infer_epsilon",
        "infer_hands",
        "margin",
        "max_candidates",
        "risk_weight",
        "rollouts",
        "search",
        "slack",
        "time_ms",
    )

    hard: type[HardAgent] = HardAgent  # the tuning of the `hard` agent it builds on

    def __init__(
        self,
        rollouts: int = 64,
        *,
        time_ms: float | None = None,
        max_candidates: int = 4,
        slack: int = 10,
        margin: float = 3.0,
        hard_rollouts: bool = False,
        infer_hands: bool = True,
        search: Literal[
            "lap", "round", "pimc", "laphard", "value", "valuedraw", "infer", "win"
        ] = "valuedraw",
        risk_weight: float = 1.0,
        infer_epsilon: float = 0.01,
    ) -> None:
        rollouts = check_int("rollouts", rollouts)
        if time_ms is not None:
            time_ms = check_real("time_ms", time_ms, open_low=True)
        max_candidates = check_int("max_candidates", max_candidates, 1)
        slack = check_int("slack", slack)
        margin = check_real("margin", margin)
        check_bool("hard_rollouts", hard_rollouts)
        check_bool("infer_hands", infer_hands)
        check_choice("search", search, _core.THREE_THIRTEEN_SEARCHES)
        risk_weight = check_real("risk_weight", risk_weight)
        infer_epsilon = check_real("infer_epsilon", infer_epsilon, 0.0, 1.0)
        self.rollouts = rollouts
        self.time_ms = time_ms
        self.max_candidates = max_candidates
        self.slack = slack
        self.margin = margin
        self.hard_rollouts = hard_rollouts
        self.infer_hands = infer_hands
        self.search = search
        self.risk_weight = risk_weight
        self.infer_epsilon = infer_epsilon
        self.deals = 0
        self.decisions = 0

    def act(self, observation: Observation, legal: Sequence[Move], rng: Rng) -> Move:
        obs = observation
        params = _core.ThreeThirteenExpertParams(
            rollouts=self.rollouts,
            time_ms=self.time_ms,
            max_candidates=self.max_candidates,
            slack=self.slack,
            margin=self.margin,
            hard_rollouts=self.hard_rollouts,
            infer_hands=self.infer_hands,
            search=self.search,
            risk_weight=self.risk_weight,
            hard=hard_params(self.hard),
            infer_epsilon=self.infer_epsilon,
        )
        history = round_history(obs) if self.search == "infer" else None
        standings = None
        if self.search == "win":
            standings = _core.ThreeThirteenStandings(
                totals=list(obs.totals), rounds_after=NUM_ROUNDS - obs.round
            )
        code, deals = _core.tt_expert_act(
            obs, params, rng.next_u64(), _MAX_TURNS, history, standings
        )
        self.deals += deals
        self.decisions += 1
        return _move(code, legal)


class ExpertAgent(DealSearchAgent):
    """The ``expert`` level: ``hard``'s candidates valued by fitted evaluations (module
    docstring). ``search``: ``"valuedraw"`` (the default: the value of the position after each
    of ``hard``'s discards, and a fitted draw value) or ``"win"`` (the discards that maximise
    an estimate of the chance of winning the game, from the match totals and the rounds left).
    No deals and no random numbers: about 0.2 ms a move."""

    __slots__ = ()

    def __init__(self, search: Literal["valuedraw", "win"] = "valuedraw") -> None:
        research = set(_core.THREE_THIRTEEN_SEARCHES) - set(EXPERT_SEARCHES)
        if isinstance(search, str) and search in research:
            raise OptionError(
                f"search {search!r} is one of the research searches: ExpertAgent takes "
                f"{' or '.join(map(repr, EXPERT_SEARCHES))}; DealSearchAgent has them all"
            )
        check_choice("search", search, EXPERT_SEARCHES)
        super().__init__(search=search)


def round_history(obs: Observation) -> _core.ThreeThirteenHistory | None:
    """The round's public history as the observation shows it, or ``None`` after a stock
    rebuild (the discards before it are no longer listed).

    Every completed turn's draw and discard, in order: a discard leaves the pile only when the
    next seat takes it, so the discards no longer on the pile (or listed again later) are the
    pile draws, the others' turns drew from the stock. The up-card is the pile's bottom unless
    the first seat took it; it is then known while that seat holds it, else ``upcard`` is
    ``None`` and the first draw ``-2`` (a pile card not seen).
    """
    ds = obs.discards
    if len(ds) != obs.turn_in_round:
        return None
    ft = obs.face_of
    pile = obs.discard_pile
    ids = [c for _, c in ds]
    listed = set(ids)
    on_pile = set(pile)
    first = (obs.dealer + 1) % obs.num_players
    upcard: int | None
    if pile and pile[0] not in listed:
        upcard, first_took = pile[0], False
    else:
        held = [c for c in obs.taken[first] if c not in listed]
        upcard, first_took = (held[0] if held else None), True
    if upcard is None and not ds:
        return None
    draws: list[int] = []
    last = {c: t for t, c in enumerate(ids)}  # the last time each card was discarded
    for t in range(len(ids)):
        if t == 0:
            took, card = first_took, upcard
        else:
            card = ids[t - 1]
            took = last[card] != t - 1 or card not in on_pile
        draws.append(-1 if not took else -2 if card is None else ft[card])
    return _core.ThreeThirteenHistory(
        upcard=None if upcard is None else ft[upcard],
        draws=draws,
        discards=bytes(ids).translate(ft),
    )


AGENTS: Final[dict[str, AgentFactory]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "normal": NormalAgent,
    "hard": HardAgent,
    "expert": ExpertAgent,
    "learned": LearnedAgent,
}
