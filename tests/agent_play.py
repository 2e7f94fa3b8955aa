"""Helpers the agent tests of every game share: play a state out with agents (every move
checked legal) and run the same simulation at one and two jobs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import cardcore
from cardcore.games.api import State
from cardcore.rng import Rng

S = TypeVar("S", bound=State[Any])


def play_out(
    state: S, seed: int, agents: Sequence[Any], until: Callable[[S], bool] | None = None
) -> S:
    """Plays ``state`` to its end (or until ``until(state)``): seat ``s`` is ``agents[s]``
    drawing from its ``"agent"`` stream of ``seed`` (as the runner does); every move must be
    among the legal ones."""
    rngs = [Rng.for_stream(seed, s, "agent") for s in range(len(agents))]
    while not state.is_over and not (until is not None and until(state)):
        s = state.current_player
        assert s is not None
        legal = state.legal_moves()
        move = agents[s].act(state.observation(s), legal, rngs[s])
        assert move in legal
        state.apply(move)
    return state


def same_at_any_jobs(game: str, **simulate: Any) -> list[dict[str, Any]]:
    """The records (with replays) of ``cardcore.simulate(game, **simulate)`` run in one process
    and in two, one game per work unit; they must be equal. Returns them."""
    runs = [
        list(cardcore.simulate(game, jobs=jobs, chunk_size=1, replays=True, **simulate))
        for jobs in (1, 2)
    ]
    assert runs[1] == runs[0]
    return runs[0]
