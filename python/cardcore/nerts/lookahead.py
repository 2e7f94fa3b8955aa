"""What a Nerts seat knows of the table, turned into a Monte Carlo look-ahead request.

:class:`StockMemory` remembers the seat's own stock and waste in *cycle order* (the order the
cards come off the stock in a pass; see ``cardcore_engine::nerts_rollout``): every waste top
the seat has seen stays at its place, since flips, recycles and waste plays keep the order.
:func:`knowledge` describes every seat to the Rust simulator (visible cards, remembered stock
cards, and for each seat the pool of cards it cannot see; built in Rust from the observation);
:func:`rollout_values` returns, per candidate, the mean score difference (own score minus the
mean of the others') that seat reaches after a look-ahead of greedy real-time play, and
:func:`choose` makes the hard agent's whole choice among the candidates in one Rust call.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardcore import _core
from cardcore.errors import OptionError
from cardcore.nerts.engine import NertsObservation
from cardcore.nerts.rules import Action, Options

__all__ = [
    "Racing",
    "StockMemory",
    "choose",
    "knowledge",
    "rollout_samples",
    "rollout_values",
    "table_rules",
    "table_timing",
]


class StockMemory:
    """One seat's own stock and waste in cycle order, as far as it has seen them: the memory of
    the built-in ``hard`` and ``expert`` agents (kept in Rust, ``cardcore_engine::nerts_round``;
    this object holds its state).

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
        """The cycle after ``obs`` (a new list, also kept as :attr:`cycle`); raises
        :class:`~cardcore.errors.StateFormatError` for a memory whose waste is longer than its
        cycle."""
        cycle, self.waste, self.stalemates = _core.nerts_memory_update(
            self.cycle, self.waste, self.stalemates, obs, obs.table_options.stalemate_rule
        )
        self.cycle = cycle
        return cycle


Racing = tuple[int, int, float] | tuple[int, int, float, float]
"""``(first, step, z)`` or ``(first, step, z, max_loss)``: how :func:`choose` races."""


def table_timing(options: Options) -> _core.NertsTiming:
    """The table speed as the Rust look-ahead takes it."""
    p = options.profile
    return _core.NertsTiming(
        m_play=float(p.m_play),
        m_build=float(p.m_build),
        m_seq=float(p.m_seq),
        m_flip=float(p.m_flip),
        m_call=float(p.m_call),
        sigma=p.sigma,
        miss=p.miss,
        min_ms=p.min_ms,
        max_ms=p.max_ms,
        retry_ms=p.retry_ms,
    )


def table_rules(options: Options) -> _core.NertsRules:
    """The table options as the Rust look-ahead takes them."""
    passes = options.stock_passes
    return _core.NertsRules(
        num_work=options.work_piles,
        flip_count=options.flip_count,
        partial=options.allow_partial_pile_moves,
        fill_any=options.empty_work_pile_fill == "any",
        max_recycles=_core.NERTS_UNLIMITED_RECYCLES if passes is None else max(passes - 1, 0),
        auto_call=options.auto_call_nerts,
        foundation_points=options.foundation_points,
        nerts_penalty=options.nerts_penalty,
        nerts_bonus=options.nerts_bonus,
    )


def knowledge(obs: NertsObservation, own_cycle: Sequence[int | None]) -> _core.NertsKnowledge:
    """Every seat as the observing seat knows it (``seats``: faces ``0..52`` per seat; ``255``
    marks an unknown card; each seat's flip count, 1 after a ``flip_one`` stalemate remedy), and
    per suit how many foundations take each rank next (``need``).
    Built in Rust (``cardcore_engine::nerts_rollout::knowledge``); raises ``ValueError`` for a
    card that is not its seat's or a memory that does not fit."""
    return _core.nerts_knowledge(obs, list(own_cycle))


def rollout_samples(
    obs: NertsObservation,
    candidates: Sequence[Action],
    own_cycle: Sequence[int | None],
    *,
    samples: int,
    horizon_ms: int,
    seed: int,
) -> list[list[float]]:
    """Per sampled deal (the same deals and delays for every candidate), per candidate: own
    score minus the mean of the other scores after ``horizon_ms`` of simulated greedy play that
    starts with the candidate. Raises ``OptionError`` (a ``ValueError``) for a budget below 1
    and ``ValueError`` if the knowledge is inconsistent."""
    if samples < 1 or horizon_ms < 1:
        raise OptionError("samples and horizon_ms must be positive")
    known = knowledge(obs, own_cycle)
    opts = obs.table_options
    flat = _core.nerts_rollouts(
        known.seats,
        known.need,
        obs.seat,
        horizon_ms,
        samples,
        seed,
        table_timing(opts),
        table_rules(opts),
        [a.code for a in candidates],
    )
    n = len(candidates)
    others = len(obs.players) - 1  # the simulator returns others x the difference
    return [[v / others for v in flat[k * n : (k + 1) * n]] for k in range(samples)]


def rollout_values(
    obs: NertsObservation,
    candidates: Sequence[Action],
    own_cycle: Sequence[int | None],
    *,
    samples: int,
    horizon_ms: int,
    seed: int,
) -> list[float]:
    """The mean of :func:`rollout_samples` per candidate."""
    rows = rollout_samples(
        obs, candidates, own_cycle, samples=samples, horizon_ms=horizon_ms, seed=seed
    )
    return [sum(col) / samples for col in zip(*rows, strict=True)]


def choose(
    obs: NertsObservation,
    candidates: Sequence[Action],
    own_cycle: Sequence[int | None],
    *,
    bonus: Sequence[float],
    samples: int,
    horizon_ms: int,
    seed: int,
    racing: Racing | None = None,
) -> int:
    """The index of the candidate with the best mean :func:`rollout_samples` value plus its
    ``bonus`` (points), in one Rust call. ``racing = (first, step, z, max_loss)`` races the
    candidates: ``first`` deals each, then ``step`` more at a time for those still in the
    running, a candidate dropping out once the leader's lead over it (deal by deal, the same
    deals for both) exceeds ``z`` standard errors, or once taking the leader instead of it
    costs less than ``max_loss`` points in expectation (normal approximation; ``max_loss`` may
    be left out, 0 turns it off); ``None`` gives every candidate all ``samples`` deals. Raises
    ``ValueError`` if the knowledge is inconsistent."""
    if samples < 1 or horizon_ms < 1:
        raise OptionError("samples and horizon_ms must be positive")
    opts = obs.table_options
    return _core.nerts_choose(
        obs,
        list(own_cycle),
        horizon_ms,
        samples,
        seed,
        table_timing(opts),
        table_rules(opts),
        [a.code for a in candidates],
        list(bonus),
        _full_race(racing, samples),
    )


def _full_race(racing: Racing | None, samples: int) -> _core.NertsRacing:
    """``racing`` as the Rust look-ahead takes it (``None``: every candidate all ``samples``
    deals; a left-out ``max_loss`` is 0)."""
    if racing is None:
        return _core.NertsRacing(first=samples, step=1, z=0.0, max_loss=0.0)
    first, step, z, *rest = racing
    return _core.NertsRacing(first=first, step=step, z=z, max_loss=rest[0] if rest else 0.0)
