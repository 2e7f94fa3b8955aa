"""Many turn-based games stepped in one call, for self-play training (numpy only).

``VectorEnv(game, n, seed)`` holds ``n`` games. Every call returns stacked arrays: the
observation tensor and the action mask of the seat to play in each game, that seat, the
rewards of the step (``returns()`` of a game that just ended, per seat), whether it ended and
every seat's ``points()``. A game that ends is re-dealt at once (its next observation is of the
new game). Game ``i``'s ``k``-th deal comes from
``derive_seed(derive_seed(seed, i, "rl-vector"), k, "rl-episode")``, so game ``i`` plays the
same for every ``n``.

A game whose spec declares a Rust batch that writes every seat's ``points()``
(``NativeRl.points``: Three-Thirteen) runs on it (``engine="rust"``, the default for it): every
game of a call is stepped and observed in one native call on ``threads`` threads, with no
Python per game. ``engine="protocol"`` drives ``game.new_state`` states through the embedding
protocol (every game has it); the tests check that both give the same arrays, byte for byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple

import numpy as np
from numpy.typing import NDArray

from cardcore.errors import IllegalMoveError, OptionError
from cardcore.games.api import Game, check_seed
from cardcore.rl.common import resolve
from cardcore.rl.native import native_engines, native_rules
from cardcore.rng import derive_seed

if TYPE_CHECKING:
    from cardcore._core import ThreeThirteenArrays

__all__ = ["MAX_ENVS", "Batch", "VectorEnv"]


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
    points: NDArray[np.float32]
    """``(n, num_players)``: ``points()`` after the step (of the game that ended, where one
    did): a shaped signal (Three-Thirteen: penalty totals)."""


MAX_ENVS: Final = 1 << 18
"""The most games one :class:`VectorEnv` holds (a larger batch is rejected up front: the
engine would need more memory than it can ask for safely)."""


class VectorEnv:
    """``n`` games of a turn-based game (self-play: every seat is played through the batch).

    ``engine``: ``"auto"`` (Rust where the game has that batch, else the protocol), ``"rust"`` or
    ``"protocol"``. ``threads`` (Rust engine): threads per call, default 1 (two were slower than
    one in every measured run on 2 shared cores; ask for more where cores are idle).
    """

    def __init__(
        self,
        game: str | Game[Any],
        n: int,
        seed: int,
        *,
        engine: str = "auto",
        threads: int | None = None,
        **options: Any,
    ) -> None:
        self.game = g = resolve(game, options, realtime=False)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_ENVS:
            raise OptionError(f"n must be an int in 1..{MAX_ENVS} (~6 KB each), not {n!r}")
        rules = native_rules(g, engine, "vector")
        self.num_envs = n
        self.num_players = g.num_players
        self.num_actions = g.num_actions
        self.observation_shape = g.observation_shape
        seed = check_seed(seed)
        self._games: _RustGames | _ProtocolGames
        if rules is not None:
            threads = 1 if threads is None else threads
            self._games = _RustGames(g, rules, n, seed, threads)
            self.engine = "rust"
        else:
            self._games = _ProtocolGames(g, n, seed)
            self.engine = "protocol"

    def reset(self) -> Batch:
        """Deals every game anew (episode counters restart)."""
        return self._games.reset()

    def step(self, actions: Sequence[int] | NDArray[np.integer[Any]]) -> Batch:
        """Plays ``actions[i]`` in game ``i`` for its seat to play. An action that is not legal
        raises :class:`~cardcore.errors.IllegalMoveError` and nothing is played."""
        acts = np.asarray(actions)
        n = self.num_envs
        if acts.shape != (n,) or not np.issubdtype(acts.dtype, np.integer):
            raise OptionError(f"expected {n} integer actions, got shape {acts.shape}")
        return self._games.step(acts.astype(np.int64, copy=False))


class _ProtocolGames:
    """The games as protocol states (``game.new_state``), stepped in a Python loop."""

    def __init__(self, game: Game[Any], n: int, seed: int) -> None:
        self.game = game
        self.n = n
        self.seeds = [derive_seed(seed, i, "rl-vector") for i in range(n)]
        self.episodes = [0] * n
        self.states: list[Any] = [None] * n
        self.obs = np.zeros((n, *game.observation_shape), np.float32)
        self.mask = np.zeros((n, game.num_actions), np.bool_)
        self.player = np.zeros(n, np.int64)
        self.points = np.zeros((n, game.num_players), np.float32)

    def _deal(self, i: int) -> None:
        k = self.episodes[i]
        self.episodes[i] = k + 1
        self.states[i] = self.game.new_state(derive_seed(self.seeds[i], k, "rl-episode"))

    def _see(self, i: int) -> None:
        st = self.states[i]
        seat = st.current_player
        self.player[i] = seat
        self.obs[i] = st.observation_tensor(seat)
        row = self.mask[i]
        row[:] = False
        row[st.legal_actions()] = True

    def reset(self) -> Batch:
        n, p = self.n, self.game.num_players
        self.episodes = [0] * n
        for i in range(n):
            self._deal(i)
            self._see(i)
            self.points[i] = self.states[i].points()
        return self._batch(np.zeros((n, p), np.float32), np.zeros(n, np.bool_))

    def step(self, acts: NDArray[np.int64]) -> Batch:
        n, a = self.n, self.game.num_actions
        ok = (acts >= 0) & (acts < a)
        ok[ok] = self.mask[np.flatnonzero(ok), acts[ok]]
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise IllegalMoveError(
                f"game {i}: action {acts[i]} is not legal now (nothing was played)"
            )
        reward = np.zeros((n, self.game.num_players), np.float32)
        done = np.zeros(n, np.bool_)
        states = self.states
        for i, action in enumerate(acts.tolist()):
            st = states[i]
            st.apply(action)
            self.points[i] = st.points()
            if st.is_over:
                reward[i] = st.returns()
                done[i] = True
                self._deal(i)
            self._see(i)
        return self._batch(reward, done)

    def _batch(self, reward: NDArray[np.float32], done: NDArray[np.bool_]) -> Batch:
        return Batch(
            self.obs.copy(), self.mask.copy(), self.player.copy(), reward, done, self.points.copy()
        )


class _RustGames:
    """The games in the Rust batch of their rulebook (``NativeRl.batch``, with points)."""

    def __init__(self, game: Game[Any], rules: Any, n: int, seed: int, threads: int) -> None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise OptionError(f"threads must be a positive int, not {threads!r}")
        self.shapes = (
            (n, *game.observation_shape),
            (n, game.num_actions),
            (n,),
            (n, game.num_players),
            (n,),
            (n, game.num_players),
        )
        rl = native_engines(game)
        assert rl is not None  # native_rules(..., "vector") gave rules
        assert rl.batch is not None
        self.batch = rl.batch(rules, n, seed, threads=threads)

    def _arrays(self, raw: ThreeThirteenArrays) -> Batch:
        dtypes = (np.float32, np.bool_, np.int64, np.float32, np.bool_, np.float32)
        fields = (raw.observation, raw.mask, raw.player, raw.reward, raw.done, raw.points)
        arrays: list[Any] = [
            np.frombuffer(b, dtype=t).reshape(s)
            for b, t, s in zip(fields, dtypes, self.shapes, strict=True)
        ]
        return Batch(*arrays)

    def reset(self) -> Batch:
        return self._arrays(self.batch.reset())

    def step(self, acts: NDArray[np.int64]) -> Batch:
        return self._arrays(self.batch.step(np.ascontiguousarray(acts).tobytes()))
