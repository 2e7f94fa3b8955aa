"""Bulk simulation: ``simulate()`` yields the same plain records the CLI writes.

>>> import cardcore
>>> for rec in cardcore.simulate("three-thirteen", games=2, seed=7):  # doctest: +SKIP
...     print(rec["index"], rec["scores"], rec["winner"])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from cardcore.errors import OptionError
from cardcore.games.base import AgentFactory, OptionValue
from cardcore.sim.backends import BACKENDS, make_backend
from cardcore.sim.runner import Chunk, Chunker, RunPlan, chunks_of, plan_run, run_chunk

__all__ = [
    "BACKENDS",
    "RunPlan",
    "default_chunk_size",
    "plan_run",
    "run_chunk",
    "run_plan",
    "simulate",
]


def default_chunk_size(games: int, jobs: int) -> int:
    """The largest chunk worth using: small enough to balance ``jobs`` workers and show
    progress (output never depends on it). Chunks start smaller (:class:`Chunker`)."""
    if jobs <= 1:
        return max(1, min(250, games))
    return max(1, min(1000, games // (jobs * 8) or 1))


def run_plan(
    plan: RunPlan,
    *,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    chunk_size: int | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """Runs ``plan`` and yields the records chunk by chunk, in index order."""
    if chunk_size is not None and (
        isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1
    ):
        raise OptionError(f"chunk_size must be an int >= 1 (or None), not {chunk_size!r}")
    engine = make_backend(backend, jobs, address, preload=(plan.module,))
    chunks: Iterable[Chunk]
    if chunk_size is None:
        limit = default_chunk_size(plan.games - plan.start, getattr(engine, "jobs", 1))
        chunks = Chunker(plan, limit)
    else:
        chunks = chunks_of(plan, chunk_size)
    try:
        yield from engine.map_chunks(chunks)
    finally:
        engine.close()


def simulate(
    game: str,
    *,
    games: int = 1000,
    seed: int,
    players: int | None = None,
    agents: Sequence[str | AgentFactory] | str | None = None,
    options: Mapping[str, OptionValue] | None = None,
    jobs: int = 1,
    backend: str = "local",
    address: str | None = None,
    match: bool = False,
    rotate_seats: bool = False,
    paired: bool = False,
    replays: bool = False,
    chunk_size: int | None = None,
    start: int = 0,
) -> Iterator[dict[str, Any]]:
    """Plays ``games`` games (or matches) of ``game`` and yields one record each, in order.

    ``agents``: one name for every seat or one per seat; built-in names, ``"pkg.mod:factory"``
    strings or factory callables (a callable used with ``jobs > 1`` must be importable by its
    ``module:qualname``). ``rotate_seats`` shifts the agents one seat per game so each agent
    plays each seat equally often; ``paired`` also deals the same cards to every rotation
    (``players`` consecutive games per deal seed), for paired comparisons. Records are
    identical for any ``jobs``, ``chunk_size`` or ``backend``.
    """
    plan = plan_run(
        game,
        games=games,
        seed=seed,
        players=players,
        agents=agents,
        options=options,
        rotate_seats=rotate_seats,
        paired=paired,
        match=match,
        replay=replays,
        start=start,
    )
    for records in run_plan(
        plan, jobs=jobs, backend=backend, address=address, chunk_size=chunk_size
    ):
        yield from records
