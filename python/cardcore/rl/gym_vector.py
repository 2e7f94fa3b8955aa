"""gymnasium vector environments: ``gymnasium.make_vec("cardcore/<Game>-v0", num_envs=N)``.

:class:`CardGameVectorEnv` is a ``gymnasium.vector.VectorEnv`` of ``num_envs`` games of a
turn-based game in self-play: each step takes one action per game for its seat to play, and
the observation of a game is the tensor of its next seat to play (``info["player"]``).
A game whose spec declares a Rust batch of its rulebook (``NativeRl.batch``: Three-Thirteen's
``_core.ThreeThirteenBatch``, Spite & Malice's ``_core.SpiteMaliceBatch``) runs on it (one
native call per step, no Python per game, the tensors written straight into the returned
array); ``engine="protocol"`` steps the games one by one in Python (their protocol states).

Autoreset (``autoreset_mode``, gymnasium 1.x's :class:`~gymnasium.vector.AutoresetMode`):
``NEXT_STEP`` (default, as gymnasium's own vector environments), ``SAME_STEP``
(``info["final_obs"]``) or ``DISABLED`` (``reset(options={"reset_mask": mask})``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numpy.typing import NDArray

try:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ModuleNotFoundError as e:  # pragma: no cover (the rl extra)
    raise ModuleNotFoundError(
        f"cardcore.rl.gym_vector needs the rl extra: pip install 'cardcore[rl]' ({e})",
        name=e.name,
    ) from e

from cardcore.errors import IllegalMoveError, OptionError
from cardcore.games.api import Game
from cardcore.rl.common import Seeds, observation_space, resolve
from cardcore.rl.native import native_engines, native_rules
from cardcore.rl.rewards import check_reward, tracked, utility, zero_sum_gain
from cardcore.rl.vector import MAX_ENVS
from cardcore.rng import derive_seed

if TYPE_CHECKING:
    from cardcore._core import ThreeThirteenArrays

__all__ = ["CardGameVectorEnv", "default_threads"]

Obs = dict[str, NDArray[Any]]

_MODES: Final = {m.value: m for m in AutoresetMode}


def default_threads(num_envs: int) -> int:
    """The thread count of the Rust batch when none is given: 1. Two threads were slower than
    one in the issue's three runs (0.61 M vs 1.15 M steps/s) and no faster, within the noise,
    in this module's measurements on the shared 2-core machine (``docs/rl.md``): a second
    thread only pays where a core is idle, which the caller knows and can ask for."""
    del num_envs
    return 1


class CardGameVectorEnv(VectorEnv[Obs, NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` self-play games of a turn-based game as a gymnasium vector environment.

    * ``observation``: ``{"observation": (n, *shape) float32, "action_mask": (n, A) int8}``,
      row ``i`` seen by ``info["player"][i]``, its seat to play (all 0 mask when its game has
      just ended under ``NEXT_STEP``: the row is then the final view of the seat that moved).
    * ``rewards[i]``: the reward of the seat that acted in game ``i`` in this step;
      ``info["rewards"]`` is ``(n, players)``: every seat's reward of the step (self-play
      learners credit each seat from it). What is paid is ``reward=`` (:mod:`.rewards`).
    * ``terminations[i]``: game ``i`` ended in this step; nothing is truncated.

    ``reward``: ``"game"`` or the game's shaped choice (``"round"``, ``"payoff"``);
    ``threads`` (Three-Thirteen): threads of the Rust batch (default :func:`default_threads`);
    ``engine``: ``"auto"``, ``"rust"`` or ``"protocol"``; the rest are the game's options.
    Game ``i``'s ``k``-th deal after ``reset(seed=s)`` is
    ``derive_seed(derive_seed(s, i, "rl-vector"), k, "rl-episode")``, as in
    :class:`cardcore.rl.VectorEnv`; ``reset()`` without a seed draws the next ``s`` from a
    stream seeded by the last seed given.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (read by gymnasium)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        game: str | Game[Any],
        num_envs: int = 1,
        *,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        reward: str = "game",
        threads: int | None = None,
        engine: str = "auto",
        **options: Any,
    ) -> None:
        if "opponents" in options or "seat" in options:
            raise OptionError(
                "the vector environment is self-play (every seat is the caller's): "
                "for one seat against built-in agents use gymnasium.make, or make_vec(..., "
                'vectorization_mode="sync")'
            )
        self.game = g = resolve(game, options, realtime=False)
        n = num_envs
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_ENVS:
            raise OptionError(f"num_envs must be an int in 1..{MAX_ENVS}, not {n!r}")
        mode = _MODES.get(autoreset_mode) if isinstance(autoreset_mode, str) else autoreset_mode
        if not isinstance(mode, AutoresetMode):
            raise OptionError(f"autoreset_mode must be an AutoresetMode, not {autoreset_mode!r}")
        self.reward = check_reward(g, reward)
        self.utility = utility(g, reward)
        """The utility of a seat under ``reward`` (:class:`~cardcore.rl.rewards.Utility`)."""
        self.autoreset_mode = mode
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self.num_envs = n
        self.num_players = g.num_players
        self.single_observation_space = observation_space(g, g.num_actions)
        self.single_action_space = spaces.Discrete(g.num_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self._seeds = Seeds()
        rules = native_rules(g, engine, "batch")
        self._rows: _RustRows | _LoopRows
        if rules is not None:
            if threads is None:
                threads = default_threads(n)
            if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
                raise OptionError(f"threads must be a positive int, not {threads!r}")
            self._rows = _RustRows(g, rules, n, threads)
            self.engine = "rust"
        else:
            if threads is not None:
                raise OptionError(f"threads: {g.name} steps its games in a Python loop")
            self._rows = _LoopRows(g, n, engine)
            self.engine = self._rows.engine
        seg = tracked(g, reward)
        self._seg = seg
        self._shaped = seg is not None
        o: dict[str, Any] = dict(g.options)
        self._scale = np.float32(1.0 / o["payoff_size"] if reward == "payoff" else 1.0)
        self._last_counts: NDArray[np.float32] | None = None
        self._ended = np.zeros(n, np.bool_)  # ended in the last step (NEXT_STEP, DISABLED)
        self._player = np.zeros(n, np.int64)
        self._started = False

    # -- gymnasium ------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deals every game anew (``options={"reset_mask": m}``, ``DISABLED`` mode only: deals
        the games where ``m`` is True, keeping the others)."""
        super().reset(seed=seed)
        mask = None if options is None else options.get("reset_mask")
        if mask is not None:
            if self.autoreset_mode != AutoresetMode.DISABLED or not self._started:
                raise OptionError("reset_mask is for a started DISABLED-autoreset environment")
            rows = np.asarray(mask)
            if rows.shape != (self.num_envs,) or rows.dtype != np.bool_:
                raise OptionError(f"reset_mask must be {self.num_envs} bools")
            out = self._rows.redeal(rows, in_place=False)  # the last arrays are the caller's
            self._ended &= ~rows
        else:
            out = self._rows.reset(self._seeds.next(seed))
            self._ended[:] = False
            self._started = True
        self._player = out.player
        self._last_counts = self._counts(out)
        return out.obs, self._info(out.player, np.zeros((self.num_envs, self.num_players)))

    def step(
        self, actions: Sequence[int] | NDArray[np.integer[Any]]
    ) -> tuple[Obs, NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        if not self._started:
            raise IllegalMoveError("call reset() before step()")
        acts = np.asarray(actions)
        n = self.num_envs
        if acts.shape != (n,) or acts.dtype.kind not in "iu":
            raise OptionError(f"expected {n} integer actions, got shape {acts.shape}")
        mode = self.autoreset_mode
        if mode == AutoresetMode.DISABLED and self._ended.any():
            i = int(np.flatnonzero(self._ended)[0])
            raise IllegalMoveError(
                f"game {i} has ended: reset(options={{'reset_mask': ...}}) it first"
            )
        actor = self._player
        redealt = self._ended.copy()  # NEXT_STEP: these games are dealt again now
        out = self._rows.step(acts.astype(np.int64, copy=False), redealt)
        done = out.done
        seat_rewards = out.reward
        if self._shaped:
            counts = self._counts(out)
            assert counts is not None
            last = self._last_counts if self._last_counts is not None else counts
            gain = last - counts
            gain[redealt] = 0.0
            shaped = zero_sum_gain(gain * self._scale)
            seat_rewards = shaped + out.reward if self.reward == "payoff" else shaped
            self._last_counts = counts
        rewards = seat_rewards[np.arange(n), actor].astype(np.float32)
        rewards[redealt] = 0.0
        info = self._info(out.player, seat_rewards)
        obs = out.obs
        if mode == AutoresetMode.SAME_STEP and done.any():
            final = np.full(n, None, dtype=object)
            for i in np.flatnonzero(done).tolist():
                final[i] = {k: v[i].copy() for k, v in obs.items()}
            moved = out.player.copy()
            new = self._rows.redeal(done, in_place=True)  # this step's arrays: not yet given out
            obs = new.obs
            info = self._info(new.player, seat_rewards)
            info["final_obs"], info["_final_obs"] = final, done.copy()
            info["final_info"] = {"player": moved, "_player": done.copy()}
            info["_final_info"] = done.copy()
            self._player = new.player
            if self._shaped:
                self._last_counts = self._counts(new)
        else:
            self._player = out.player
            self._ended = done.copy()
        truncated = np.zeros(n, np.bool_)
        return obs, rewards, done.copy(), truncated, info

    def _info(self, player: NDArray[np.int64], rewards: NDArray[Any]) -> dict[str, Any]:
        every = np.ones(self.num_envs, np.bool_)
        return {
            "player": player.copy(),
            "_player": every,
            "rewards": rewards.astype(np.float32),
            "_rewards": every.copy(),
        }

    def _counts(self, out: _Out) -> NDArray[np.float32] | None:
        """The tracked counts in seat order (Three-Thirteen: totals; Spite: pay-off cards)."""
        if not self._shaped:
            return None
        if out.points is not None:  # the Rust batch: penalty totals
            return out.points.copy()
        assert self._seg is not None
        seg = out.obs["observation"][:, self._seg]
        p = self.num_players
        idx = (np.arange(p)[None, :] - out.player[:, None]) % p  # seat s is at (s - seat) % p
        counts: NDArray[np.float32] = np.take_along_axis(seg, idx, axis=1).astype(np.float32)
        return counts

    def close_extras(self, **kwargs: Any) -> None:
        self._started = False


class _Out:
    """One call's arrays (row ``i``: game ``i``)."""

    __slots__ = ("done", "obs", "player", "points", "reward")

    def __init__(
        self,
        obs: Obs,
        player: NDArray[np.int64],
        reward: NDArray[np.float32],
        done: NDArray[np.bool_],
        points: NDArray[np.float32] | None,
    ) -> None:
        self.obs, self.player, self.reward, self.done, self.points = (
            obs,
            player,
            reward,
            done,
            points,
        )


class _RustRows:
    """Games in the Rust batch of their rulebook; a game that ends is held over to the next step
    (dealt again then, its action ignored) unless ``SAME_STEP`` deals it at once (``redeal``)."""

    def __init__(
        self,
        game: Game[Any],
        rules: Any,
        n: int,
        threads: int,
    ) -> None:
        self.game, self.rules, self.n, self.threads = game, rules, n, threads
        self.a, self.p = game.num_actions, game.num_players
        self.shape = game.observation_shape
        rl = native_engines(game)
        assert rl is not None  # native_rules(..., "batch") gave rules
        assert rl.batch is not None
        self.make = rl.batch
        self.points = rl.points  # the batch writes points() (Three-Thirteen: penalty totals)
        self.batch: Any = None
        self.last: _Out | None = None

    def _out(self, raw: ThreeThirteenArrays, k: int | None = None) -> _Out:
        n = self.n if k is None else k
        obs = np.frombuffer(raw.observation, np.float32).reshape(n, *self.shape)
        mask = np.frombuffer(raw.mask, np.int8).reshape(n, self.a)
        points = np.frombuffer(raw.points, np.float32).reshape(n, self.p)
        out = _Out(
            {"observation": obs, "action_mask": mask},
            np.frombuffer(raw.player, np.int64),
            np.frombuffer(raw.reward, np.float32).reshape(-1, self.p),
            np.frombuffer(raw.done, np.bool_),
            points if self.points else None,
        )
        if k is None:
            self.last = out
        return out

    def reset(self, seed: int) -> _Out:
        self.batch = self.make(self.rules, self.n, seed, threads=self.threads, hold=True)
        return self._out(self.batch.reset())

    def step(self, acts: NDArray[np.int64], redealt: NDArray[np.bool_]) -> _Out:
        return self._out(self.batch.step(np.ascontiguousarray(acts).tobytes()))

    def redeal(self, rows: NDArray[np.bool_], *, in_place: bool) -> _Out:
        """Deals the games of ``rows`` again: the last arrays (copies unless ``in_place``) with
        those rows rewritten (tensor, mask, seat, points)."""
        last = self.last
        assert last is not None
        new = self._out(self.batch.redeal(rows.astype(np.uint8).tobytes()), int(rows.sum()))
        cp = (lambda x: x) if in_place else np.copy
        out = _Out(
            {k: cp(v) for k, v in last.obs.items()},
            cp(last.player),
            last.reward,
            last.done,
            None if last.points is None else cp(last.points),
        )
        for k, v in new.obs.items():
            out.obs[k][rows] = v
        out.player[rows] = new.player
        if out.points is not None and new.points is not None:
            out.points[rows] = new.points
        self.last = out
        return out


class _Core:
    """A rulebook state (``_core.State``) with the native episode's methods."""

    __slots__ = ("apply", "returns", "s")

    def __init__(self, core: Any) -> None:
        self.s = core
        self.apply = core.apply_action
        self.returns = core.returns

    @property
    def current_player(self) -> int | None:
        cur: int | None = self.s.current_player
        return cur

    def observe(self, seat: int) -> tuple[bytearray, bytearray]:
        s = self.s
        mask = s.action_mask() if s.current_player == seat else bytearray(s.num_actions)
        return s.observation_tensor(seat), mask


class _LoopRows:
    """Games stepped one by one in Python: a native engine per game (``_core.Episode``), the
    game's rulebook state (``_core.State``) or its protocol state."""

    def __init__(self, game: Game[Any], n: int, engine: str) -> None:
        self.game, self.n = game, n
        self.rules = native_rules(game, engine, "aec")
        self.engine = "rust" if self.rules is not None else "protocol"
        shape = game.observation_shape
        self.obs = np.zeros((n, *shape), np.float32)
        self.mask = np.zeros((n, game.num_actions), np.int8)
        self.player = np.zeros(n, np.int64)
        self.seeds = [0] * n
        self.episodes = [0] * n
        self.games: list[Any] = [None] * n
        self.actor = [0] * n

    def _deal(self, i: int) -> None:
        k = self.episodes[i]
        self.episodes[i] = k + 1
        seed = derive_seed(self.seeds[i], k, "rl-episode")
        if self.rules is not None:
            from cardcore import _core

            self.games[i] = _core.Episode(self.rules, seed)
        else:
            st = self.game.new_state(seed)
            core = getattr(st, "_s", None)  # the game's Rust rulebook: one call each
            self.games[i] = st if core is None else _Core(core)
        self._see(i)

    def _see(self, i: int) -> None:
        st = self.games[i]
        seat = st.current_player
        if self.rules is not None or isinstance(st, _Core):
            tensor, legal = st.observe(self.actor[i] if seat is None else seat)
            self.obs[i] = np.frombuffer(tensor, np.float32).reshape(self.obs.shape[1:])
            self.mask[i] = np.frombuffer(legal, np.int8)
        else:
            self.obs[i] = st.observation_tensor(self.actor[i] if seat is None else seat)
            self.mask[i] = 0
            if seat is not None:
                self.mask[i, st.legal_actions()] = 1
        self.player[i] = self.actor[i] if seat is None else seat

    def _out(self, reward: NDArray[np.float32], done: NDArray[np.bool_]) -> _Out:
        obs: Obs = {"observation": self.obs.copy(), "action_mask": self.mask.copy()}
        return _Out(obs, self.player.copy(), reward, done, None)

    def reset(self, seed: int) -> _Out:
        self.seeds = [derive_seed(seed, i, "rl-vector") for i in range(self.n)]
        self.episodes = [0] * self.n
        for i in range(self.n):
            self._deal(i)
        p = self.game.num_players
        return self._out(np.zeros((self.n, p), np.float32), np.zeros(self.n, np.bool_))

    def step(self, acts: NDArray[np.int64], redealt: NDArray[np.bool_]) -> _Out:
        n, a = self.n, self.game.num_actions
        ok = (acts >= 0) & (acts < a)
        ok[ok] = self.mask[np.flatnonzero(ok), acts[ok]] == 1
        ok |= redealt
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise IllegalMoveError(
                f"game {i}: action {acts[i]} is not legal now (nothing was played)"
            )
        reward = np.zeros((n, self.game.num_players), np.float32)
        done = np.zeros(n, np.bool_)
        for i, action in enumerate(acts.tolist()):
            if redealt[i]:
                self._deal(i)
                continue
            st = self.games[i]
            self.actor[i] = st.current_player
            st.apply(action)
            if st.current_player is None:
                reward[i] = st.returns()
                done[i] = True
            self._see(i)
        return self._out(reward, done)

    def redeal(self, rows: NDArray[np.bool_], *, in_place: bool = False) -> _Out:
        for i in np.flatnonzero(rows).tolist():
            self._deal(i)
        p = self.game.num_players
        return self._out(np.zeros((self.n, p), np.float32), np.zeros(self.n, np.bool_))
