"""Many turn-based games stepped in one call, for self-play training (numpy only).

``VectorEnv(game, n, seed)`` holds ``n`` games. Every call returns stacked arrays: the
observation tensor and the action mask of the seat to play in each game, that seat, the
rewards of the step (``returns()`` of a game that just ended, per seat) and whether it ended.
A game that ends is re-dealt at once (its next observation is of the new game). Game ``i``'s
``k``-th deal comes from ``derive_seed(derive_seed(seed, i, "rl-vector"), k, "rl-episode")``,
so game ``i`` plays the same for every ``n``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from cardcore.errors import OptionError
from cardcore.games.api import Game
from cardcore.rl.common import resolve
from cardcore.rng import derive_seed

__all__ = ["Batch", "VectorEnv"]


class Batch(NamedTuple):
    """What :meth:`VectorEnv.reset` and :meth:`VectorEnv.step` return (row ``i``: game ``i``)."""

    observation: NDArray[np.float32]
    """``(n, *observation_shape)``: the tensor of the seat to play."""
    action_mask: NDArray[np.bool_]
    """``(n, num_actions)``: its legal actions."""
    player: NDArray[np.int64]
    """``(n,)``: the seat to play."""
    reward: NDArray[np.float32]
    """``(n, num_players)``: ``returns()`` of a game that ended in this step, else zeros."""
    done: NDArray[np.bool_]
    """``(n,)``: the game ended in this step (the row now shows its next game)."""


class VectorEnv:
    """``n`` games of a turn-based game (self-play: every seat is played through the batch)."""

    def __init__(self, game: str | Game[Any], n: int, seed: int, **options: Any) -> None:
        self.game = g = resolve(game, options, realtime=False)
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise OptionError(f"n must be a positive int, not {n!r}")
        self.num_envs = n
        self.num_players = g.num_players
        self.num_actions = g.num_actions
        self.observation_shape = g.observation_shape
        self._seeds = [derive_seed(seed, i, "rl-vector") for i in range(n)]
        self._episodes = [0] * n
        self.states: list[Any] = [None] * n
        self._obs = np.zeros((n, *g.observation_shape), np.float32)
        self._mask = np.zeros((n, g.num_actions), np.bool_)
        self._player = np.zeros(n, np.int64)

    def _deal(self, i: int) -> None:
        k = self._episodes[i]
        self._episodes[i] = k + 1
        self.states[i] = self.game.new_state(derive_seed(self._seeds[i], k, "rl-episode"))

    def _see(self, i: int) -> None:
        st = self.states[i]
        seat = st.current_player
        self._player[i] = seat
        self._obs[i] = st.observation_tensor(seat)
        row = self._mask[i]
        row[:] = False
        row[st.legal_actions()] = True

    def reset(self) -> Batch:
        """Deals every game anew (episode counters restart)."""
        n = self.num_envs
        self._episodes = [0] * n
        for i in range(n):
            self._deal(i)
            self._see(i)
        return self._batch(np.zeros((n, self.num_players), np.float32), np.zeros(n, np.bool_))

    def step(self, actions: Sequence[int] | NDArray[np.integer[Any]]) -> Batch:
        """Plays ``actions[i]`` in game ``i`` for its seat to play; an illegal action raises
        :class:`~cardcore.errors.IllegalMoveError` (games before it in the batch have moved)."""
        acts = np.asarray(actions)
        n = self.num_envs
        if acts.shape != (n,) or not np.issubdtype(acts.dtype, np.integer):
            raise OptionError(f"expected {n} integer actions, got shape {acts.shape}")
        reward = np.zeros((n, self.num_players), np.float32)
        done = np.zeros(n, np.bool_)
        states = self.states
        for i, a in enumerate(acts.tolist()):
            st = states[i]
            st.apply(a)
            if st.is_over:
                reward[i] = st.returns()
                done[i] = True
                self._deal(i)
            self._see(i)
        return self._batch(reward, done)

    def _batch(self, reward: NDArray[np.float32], done: NDArray[np.bool_]) -> Batch:
        return Batch(self._obs.copy(), self._mask.copy(), self._player.copy(), reward, done)
