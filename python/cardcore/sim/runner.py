"""Game-neutral simulation: seeds, seat assignment, chunks of work and ordered results.

Game ``index`` of a run seeded ``S`` is played with seed ``derive_seed(S, index, "game")``,
whatever the chunking, the number of processes or the backend, so the records are the same
bytes in every configuration. Work units are plain data (:class:`Chunk`), so they pickle to
any worker.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardcore import __version__
from cardcore.errors import CardcoreError, OptionError, RunError
from cardcore.games.base import (
    AgentFactory,
    GameRequest,
    GameSpec,
    OptionValue,
    agent_label,
    check_agent,
    get_game,
)
from cardcore.rng import derive_seed

__all__ = ["Chunk", "Chunker", "RunPlan", "chunks_of", "plan_run", "run_chunk", "run_chunk_timed"]


@dataclass(frozen=True, slots=True)
class RunPlan:
    """A validated run: which game, how many, which seats and options."""

    game: str
    games: int
    seed: int
    players: int
    agents: tuple[str, ...]
    options: Mapping[str, OptionValue]
    rotate_seats: bool = False
    paired: bool = False
    match: bool = False
    replay: bool = False
    start: int = 0
    module: str = ""

    def request(self, index: int) -> GameRequest:
        """The request for game ``index`` (seat rotation applied; with ``paired``, games
        ``k*P .. k*P+P-1`` share deal ``k``'s seed)."""
        agents = self.agents
        deal = index // self.players if self.paired else index
        if self.rotate_seats or self.paired:
            k = index % self.players
            agents = agents[-k:] + agents[:-k] if k else agents
        return GameRequest(
            index=index,
            seed=derive_seed(self.seed, deal, "game"),
            players=self.players,
            agents=agents,
            options=self.options,
            replay=self.replay,
        )


@dataclass(frozen=True, slots=True)
class Chunk:
    """Games ``start .. stop-1`` of a plan: the unit of work sent to a worker."""

    plan: RunPlan
    start: int
    stop: int


def _agent_like(a: object) -> bool:
    return isinstance(a, str) or callable(a)


def plan_run(
    game: str,
    *,
    games: int,
    seed: int,
    players: int | None = None,
    agents: Sequence[str | AgentFactory] | str | None = None,
    options: Mapping[str, OptionValue] | None = None,
    rotate_seats: bool = False,
    paired: bool = False,
    match: bool = False,
    replay: bool = False,
    start: int = 0,
) -> RunPlan:
    """Validates everything up front (so a bad option fails before any work starts)."""
    spec = get_game(game)
    for name, value, lo in (("games", games, 0), ("start", start, 0), ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < lo:
            raise OptionError(f"{name} must be an int >= {lo}, not {value!r}")
    if seed >= 1 << 64:
        raise OptionError(f"seed must be below 2**64, not {seed}")
    p = spec.default_players if players is None else players
    if isinstance(p, bool) or not isinstance(p, int):
        raise OptionError(f"players must be an int, not {p!r}")
    if not spec.min_players <= p <= spec.max_players:
        raise OptionError(
            f"{spec.name} takes {spec.min_players}..{spec.max_players} players, not {p}"
        )
    if isinstance(agents, str):
        agents = [a.strip() for a in agents.split(",") if a.strip()]
    elif agents is not None and (
        not isinstance(agents, Sequence) or not all(map(_agent_like, agents))
    ):
        raise OptionError(f"agents must be names or agent factories, not {agents!r}")
    names = [agent_label(a) for a in (agents or [spec.default_agent])]
    if len(names) == 1:
        names *= p
    if len(names) != p:
        raise OptionError(f"{len(names)} agents given for {p} players (give 1 or {p})")
    for n in dict.fromkeys(names):
        check_agent(spec, n)
    if match and spec.play_match is None:
        raise OptionError(f"{spec.name} has no matches")
    return RunPlan(
        game=spec.name,
        games=games,
        seed=seed,
        players=p,
        agents=tuple(names),
        options=spec.resolve_options(options or {}, p),
        rotate_seats=rotate_seats,
        paired=paired,
        match=match,
        replay=replay,
        start=start,
        module=spec.play.__module__,
    )


def chunks_of(plan: RunPlan, chunk_size: int) -> Iterator[Chunk]:
    """The plan's games from ``plan.start`` in chunks of ``chunk_size`` indices."""
    for lo in range(plan.start, plan.games, chunk_size):
        yield Chunk(plan, lo, min(lo + chunk_size, plan.games))


class Chunker:
    """The plan's games from ``plan.start`` in chunks sized to take about ``target`` seconds
    each: one game first, then (as :meth:`finished` reports how long chunks took) at most
    twice the last size, never above ``limit``. Small chunks keep Ctrl-C cheap (the chunks in
    flight are what an interrupt loses) and progress smooth; the output never depends on
    them."""

    def __init__(self, plan: RunPlan, limit: int = 1000, target: float = 1.0) -> None:
        self.plan, self.limit, self.target = plan, max(1, limit), target
        self.size = 1

    def __iter__(self) -> Iterator[Chunk]:
        lo = self.plan.start
        while lo < self.plan.games:
            hi = min(lo + self.size, self.plan.games)
            yield Chunk(self.plan, lo, hi)
            lo = hi

    def finished(self, chunk: Chunk, seconds: float) -> None:
        """Learns from a chunk that took ``seconds`` of work."""
        games = chunk.stop - chunk.start
        fits = int(self.target * games / seconds) if seconds > 0 else self.limit
        self.size = max(1, min(fits, 2 * self.size, self.limit))


def run_chunk_timed(chunk: Chunk) -> tuple[list[dict[str, Any]], float]:
    """:func:`run_chunk` and the seconds it took (what :class:`Chunker` learns from)."""
    t0 = time.perf_counter()
    records = run_chunk(chunk)
    return records, time.perf_counter() - t0


def run_chunk(chunk: Chunk) -> list[dict[str, Any]]:
    """Plays every game of ``chunk`` in index order; the worker entry point."""
    plan = chunk.plan
    if plan.module:
        importlib.import_module(plan.module)  # registers games defined outside cardcore
    spec: GameSpec = get_game(plan.game)
    play = spec.play_match if plan.match else spec.play
    assert play is not None
    out = []
    for index in range(chunk.start, chunk.stop):
        request = plan.request(index)
        try:
            record = play(request)
        except CardcoreError:
            raise
        except Exception as e:
            raise RunError(
                f"game {index} (seed {request.seed}, agents {', '.join(request.agents)}) "
                f"failed: {type(e).__name__}: {e}"
            ) from e
        record["run_seed"] = plan.seed
        record["cardcore_version"] = __version__
        out.append(record)
    return out
