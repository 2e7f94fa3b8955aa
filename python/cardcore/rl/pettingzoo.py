"""PettingZoo environments (``pip install cardcore[rl]``; ``docs/rl.md``).

``env(game, **options)`` gives an AEC environment for the turn-based games (Three-Thirteen,
Spite & Malice) and a Parallel environment for Nerts, whose real time is cut into ticks
(``tick_ms``, default 100): each tick every seat picks an action or "wait" (the last id).
Observations are ``{"observation": float32 tensor, "action_mask": int8}``; the reward of every
step is 0 except at the end of the game, where it is ``returns()`` (``reward="game"``; shaped
choices in :mod:`cardcore.rl.rewards`). ``state()`` is PettingZoo's global state (every seat's
observation tensor, seat 0 first; ``state_space``); the game state itself is ``game_state``.

The AEC environment steps Three-Thirteen and Spite & Malice in their native engines
(``engine="auto"`` or ``"rust"``; see :mod:`cardcore.rl.native`) or through the protocol
(``engine="protocol"``); both give the same observations, masks and rewards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, Literal, overload

import numpy as np
from numpy.typing import NDArray

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
except ModuleNotFoundError as e:
    raise ModuleNotFoundError(
        f"cardcore.rl.pettingzoo needs the rl extra: pip install 'cardcore[rl]' ({e})",
        name=e.name,
    ) from e

from cardcore import _core
from cardcore.errors import IllegalMoveError, OptionError
from cardcore.games.api import Game, action_id
from cardcore.nerts.game import NertsState
from cardcore.rl.common import (
    OBS_HIGH,
    Seeds,
    agent_name,
    observation_space,
    render_text,
    resolve,
)
from cardcore.rl.native import native_engines, native_rules
from cardcore.rl.rewards import Shaper, check_reward, tracked, utility

if TYPE_CHECKING:
    from cardcore._core import Episode

__all__ = ["TickEnv", "TurnBasedEnv", "env"]


@overload
def env(
    game: Literal["nerts"], *, render_mode: str | None = None, reward: str = "game", **options: Any
) -> TickEnv: ...
@overload
def env(
    game: Literal["three-thirteen", "spite-malice"],
    *,
    render_mode: str | None = None,
    reward: str = "game",
    **options: Any,
) -> TurnBasedEnv: ...
@overload
def env(
    game: str | Game[Any], *, render_mode: str | None = None, reward: str = "game", **options: Any
) -> TurnBasedEnv | TickEnv: ...
def env(
    game: str | Game[Any], *, render_mode: str | None = None, reward: str = "game", **options: Any
) -> TurnBasedEnv | TickEnv:
    """The PettingZoo environment of ``game``: AEC for a turn-based game, Parallel (ticks) for
    Nerts. ``options`` go to ``load_game`` (Nerts also takes ``tick_ms``, the turn-based games
    ``engine`` and ``illegal``)."""
    tick_ms = options.pop("tick_ms", None)
    engine = options.pop("engine", None)
    illegal = options.pop("illegal", None)
    g = resolve(game, options, realtime=None)
    if g.realtime:
        if engine is not None or illegal is not None:
            raise OptionError(f"{g.name} is real-time: it has no engine or illegal option")
        tick = 100 if tick_ms is None else tick_ms
        return TickEnv(g, render_mode=render_mode, tick_ms=tick, reward=reward)
    if tick_ms is not None:
        raise OptionError(f"{g.name} is turn-based: it has no tick_ms")
    return TurnBasedEnv(
        g,
        render_mode=render_mode,
        engine=engine or "auto",
        reward=reward,
        illegal=illegal or "raise",
    )


def _running(agents: list[str] | None) -> None:
    """Raises :class:`IllegalMoveError` when no episode is running (before ``reset`` or once
    every agent is done): stepping then is the caller's mistake, not a ``KeyError``."""
    if not agents:
        raise IllegalMoveError("no episode is running: call reset()")


RENDER_MODES: Final = ("ansi", "human")
"""``render_mode``: ``render()`` returns the text (``"ansi"``) or prints it (``"human"``)."""


class _Seats:
    """The agents, their spaces, the global state's space, the episode seeds, the reward and
    the render mode of an environment."""

    def _seat_up(
        self, game: Game[Any], num_actions: int, render_mode: str | None, reward: str
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise OptionError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.render_mode = render_mode
        self.reward = check_reward(game, reward)
        self.utility = utility(game, reward)
        """What a seat can get over an episode under ``reward``
        (:class:`~cardcore.rl.rewards.Utility`: zero-sum, min, max)."""
        self.state_space = spaces.Box(
            0.0, OBS_HIGH, (game.num_players * int(np.prod(game.observation_shape)),), np.float32
        )
        """The global state's space: every seat's observation tensor, seat 0 first."""
        self.possible_agents = [agent_name(s) for s in range(game.num_players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: observation_space(game, num_actions) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self._seeds = Seeds()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _show(self, text: str | None) -> str | None:
        """``render()``: the text, or None once printed (``"human"``)."""
        if text is None or self.render_mode != "human":
            return text
        print(text, end="")  # render_mode="human" prints
        return None


class TurnBasedEnv(_Seats, AECEnv):  # type: ignore[misc]
    """A turn-based game as a PettingZoo AEC environment: ``agent_selection`` is the seat to
    play.

    ``illegal``: ``"raise"`` (default): an illegal action raises
    :class:`~cardcore.errors.IllegalMoveError` and changes nothing; ``"lose"``: it ends the
    episode as PettingZoo's ``TerminateIllegalWrapper`` does (the offender -1, the others 0,
    ``infos[offender]["illegal"] = True``, the game state unchanged).

    ``engine``: ``"auto"`` or ``"rust"`` (the game's native engine) or ``"protocol"``. With
    the native engine, ``game_state`` is still the protocol state: it is built on first read
    by replaying the episode's actions (then kept up to date the same way). Assigning
    ``game_state`` plays the rest of the episode through the protocol.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (read by the library)
        "name": "cardcore_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game[Any],
        *,
        render_mode: str | None = None,
        engine: str = "auto",
        reward: str = "game",
        illegal: str = "raise",
        **options: Any,
    ):
        super().__init__()
        self.agents: list[str] = []
        self.game = g = resolve(game, options, realtime=False)
        self.metadata = {**self.metadata, "name": f"cardcore_{g.name.replace('-', '_')}_v0"}
        if illegal not in ("raise", "lose"):
            raise OptionError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
        self.illegal = illegal
        self._rules = native_rules(g, engine, "aec")
        rulebook = native_engines(g) is not None
        self.engine = (
            "rust" if self._rules is not None or (rulebook and engine != "protocol") else "protocol"
        )
        self._native: Episode | None = None
        self._state: Any = None  # the protocol state (with _native: as of _unplayed)
        self._seed = 0
        self._unplayed: list[int] = []
        self._legal: list[int] = []
        self._seat_up(g, g.num_actions, render_mode, reward)
        seg = tracked(g, self.reward)
        self._segment = seg
        self._shaper = None if seg is None else Shaper(g, self.reward)

    @property
    def game_state(self) -> Any:
        """The protocol state of the episode (None before ``reset`` and after ``close``)."""
        if self._native is not None:
            st = self._state
            if st is None:
                self._state = st = self.game.new_state(self._seed)
            for action in self._unplayed:
                st.apply(action)
            self._unplayed = []
        return self._state

    @game_state.setter
    def game_state(self, st: Any) -> None:
        self._native = None
        self._unplayed = []
        self._state = st
        self._legal = [] if st is None or st.is_over else st.legal_actions()

    def state(self) -> NDArray[np.float32]:
        """PettingZoo's global state: every seat's observation tensor, seat 0 first (what the
        seats know together: every hand and the public piles; not the order of face-down
        cards). A centralised critic's input; ``state_space`` is its box."""
        if self._native is None and self._state is None:
            raise IllegalMoveError("no episode: call reset()")
        return np.concatenate([self._tensor(s) for s in range(self.game.num_players)])

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._seed = seed = self._seeds.next(seed)
        if self._rules is None:
            self.game_state = st = self.game.new_state(seed)
            seat = st.current_player
        else:
            from cardcore import _core

            self.game_state = None
            self._native = native = _core.Episode(self._rules, seed)
            seat = native.current_player
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[seat]
        if self._shaper is not None:
            self._shaper.start(self._counts())

    def _tensor(self, seat: int) -> NDArray[np.float32]:
        native = self._native
        if native is not None:
            return np.frombuffer(native.observe(seat)[0], np.float32)
        st = self._state
        core = getattr(st, "_s", None)
        if core is not None:  # the game's rulebook: one call
            return np.frombuffer(core.observation_tensor(seat), np.float32)
        tensor: NDArray[np.float32] = st.observation_tensor(seat)
        return tensor

    def _counts(self) -> NDArray[np.float32]:
        """What the shaped reward follows, in seat order (seat 0's view: its own order)."""
        assert self._segment is not None
        return self._tensor(0)[self._segment].copy()

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        seat = self._seat[agent]
        native = self._native
        if native is not None:
            tensor, legal = native.observe(seat)
            return {
                "observation": np.frombuffer(tensor, np.float32),
                "action_mask": np.frombuffer(legal, np.int8),
            }
        st = self._state
        core = getattr(st, "_s", None)
        if core is not None:  # the game's rulebook: one call each
            seen = np.frombuffer(core.observation_tensor(seat), np.float32)
            if seat == core.current_player:
                mask = np.frombuffer(core.action_mask(), np.int8)
            else:
                mask = np.zeros(self.game.num_actions, np.int8)
            return {"observation": seen, "action_mask": mask}
        mask = np.zeros(self.game.num_actions, np.int8)
        if seat == st.current_player:
            mask[self._legal] = 1
        return {"observation": st.observation_tensor(seat), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, ...]:
        _running(self.agents)
        return super().last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        _running(self.agents)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            seat = self._apply(action)
        except IllegalMoveError:
            if self.illegal == "raise":
                raise
            self._lose(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        over = seat is None
        shaper = self._shaper
        paid: list[float] | NDArray[np.float32] | None = None
        if shaper is not None:
            paid = shaper.step(self._counts())
        if over:
            native = self._native
            returns = self._state.returns() if native is None else native.returns()
            if paid is None or self.reward == "payoff":
                paid = returns if paid is None else paid + np.asarray(returns, np.float32)
        if paid is not None:
            for a, r in zip(self.agents, paid, strict=True):
                self.rewards[a] = float(r)
        else:
            self._clear_rewards()
        if seat is None:
            for a in self.agents:
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[seat]
        self._accumulate_rewards()

    def _apply(self, action: Any) -> int | None:
        """Plays ``action`` for the seat to play; the next seat (None: the game is over)."""
        native = self._native
        if native is not None:
            index = action_id(action)
            if index is None or not 0 <= index < self.game.num_actions:
                raise IllegalMoveError(f"not an action id of {self.game.name}: {action!r}")
            native.apply(index)
            self._unplayed.append(index)
            return native.current_player
        st = self._state
        core = getattr(st, "_s", None)
        if core is not None:  # the game's rulebook: one call
            index = action_id(action)
            if index is None or not 0 <= index < self.game.num_actions:
                raise IllegalMoveError(f"not an action id of {self.game.name}: {action!r}")
            core.apply_action(index)
            seat: int | None = core.current_player
            return seat
        st.apply(action)
        seat = st.current_player
        self._legal = [] if seat is None else st.legal_actions()
        return seat

    def _lose(self, agent: str) -> None:
        """``illegal="lose"``: the episode ends, ``agent`` -1, the others 0."""
        for a in self.agents:
            self.rewards[a] = -1.0 if a == agent else 0.0
            self.terminations[a] = True
        self.infos[agent] = {**self.infos[agent], "illegal": True}
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()

    def render(self) -> str | None:
        st = self.game_state
        if self.render_mode is None or st is None:
            return None
        seat = st.current_player
        legal = [] if st.is_over else st.legal_actions()
        return self._show(render_text(st, 0 if seat is None else seat, legal))

    def close(self) -> None:
        self.game_state = None


class TickEnv(_Seats, ParallelEnv):  # type: ignore[misc]
    """A real-time game (Nerts) as a PettingZoo Parallel environment.

    One step is one tick of ``tick_ms`` table milliseconds: every seat without a move
    scheduled submits its action at the tick's start (``wait``, the last id, submits nothing)
    and the clock runs to the next tick. All of a tick's moves execute at the same reading in
    seeded random order; a move the table no longer allows fails and changes nothing (the
    engine's rule) and is reported: ``infos[agent]["failed"]`` is True in the step where the
    agent's move failed (False otherwise). A seat whose move is still scheduled may only wait
    (its mask says so). ``reward``: ``"game"`` or ``"round"``, the same here (an episode is
    one round: its points at the end).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (read by the library)
        "name": "cardcore_nerts_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": True,
    }

    def __init__(
        self,
        game: str | Game[Any] = "nerts",
        *,
        tick_ms: int = 100,
        render_mode: str | None = None,
        reward: str = "game",
        **options: Any,
    ) -> None:
        self.game = g = resolve(game, options, realtime=True)
        if isinstance(tick_ms, bool) or not isinstance(tick_ms, int) or tick_ms < 1:
            raise OptionError(f"tick_ms must be a positive int, not {tick_ms!r}")
        self.tick_ms = tick_ms
        self.wait = g.num_actions
        """The id of "wait" (one past the game's actions)."""
        self._seat_up(g, g.num_actions + 1, render_mode, reward)
        self.agents: list[str] = []
        self.game_state: Any = None
        """The Nerts state of the episode (None before ``reset`` and after ``close``)."""

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.game_state = st = self.game.new_state(self._seeds.next(seed))
        self.agents = list(self.possible_agents)
        if isinstance(st, NertsState):
            obs = self._views(*_core.nerts_views(st._s))
        else:
            obs = self._observe_all()
        return obs, {a: {} for a in self.agents}

    def _views(self, obs: bytearray, masks: bytearray) -> dict[str, Any]:
        """The agents' observations from the rulebook's rows (``_core.nerts_views``)."""
        p = self.game.num_players
        tensors = np.frombuffer(obs, np.float32).reshape(p, -1)
        mask = np.frombuffer(masks, np.int8).reshape(p, -1)
        seat = self._seat
        return {
            a: {"observation": tensors[seat[a]], "action_mask": mask[seat[a]]} for a in self.agents
        }

    def state(self) -> NDArray[np.float32]:
        """PettingZoo's global state: every seat's observation tensor, seat 0 first (every
        seat's visible cards and the shared foundations; not the order of face-down cards)."""
        st = self.game_state
        if st is None:
            raise IllegalMoveError("no episode: call reset()")
        return np.concatenate(
            [st.observation_tensor(s) for s in range(self.game.num_players)]
        ).astype(np.float32, copy=False)

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        seat = self._seat[agent]
        st = self.game_state
        mask = np.zeros(self.wait + 1, np.int8)
        mask[self.wait] = 1
        if not st.pending(seat):
            mask[st.legal_actions(seat)] = 1
        return {"observation": st.observation_tensor(seat), "action_mask": mask}

    def _observe_all(self) -> dict[str, Any]:
        return {a: self.observe(a) for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        _running(self.agents)
        st = self.game_state
        t = st.now
        if not isinstance(actions, Mapping):
            raise OptionError(f"actions must map agents to action ids, not {actions!r}")
        moves = []  # every action checked before any is submitted: a bad one changes nothing
        wait = self.wait
        for agent, action in actions.items():
            seat = self._seat.get(agent)
            if seat is None:
                raise OptionError(f"no agent {agent!r} in this game")
            index = None if action is None else action_id(action)
            if action is not None and index is None:
                raise IllegalMoveError(f"an action id is an int, not {action!r}")
            if index is None or index == wait:
                continue
            if not 0 <= index < wait:
                if st.pending(seat):
                    continue
                st.game.action_to_move(index)  # raises for an id outside the game
            moves.append((seat, index))
        agents = self.agents
        if isinstance(st, NertsState):  # one call: submits, the clock, tensors and masks
            obs_rows, mask_rows, failed_seats = st._tick(moves, t + self.tick_ms)
            failed = {s for s, f in enumerate(failed_seats) if f}
            obs = self._views(obs_rows, mask_rows)
        else:
            for seat, index in moves:
                if not st.pending(seat):
                    st.submit(seat, index, t)
            seen = len(st.events)
            st.advance_to(t + self.tick_ms)
            tick = st.events[seen:]  # read again: the log grows when read
            failed = {seat for _, seat, _, status in tick if seat >= 0 and status != "ok"}
            obs = self._observe_all()
        over = st.is_over
        returns = st.returns()
        rewards = {a: returns[self._seat[a]] if over else 0.0 for a in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, False)
        infos: dict[str, dict[str, Any]] = {a: {"failed": self._seat[a] in failed} for a in agents}
        if over:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode is None or self.game_state is None:
            return None
        st = self.game_state
        return self._show(
            "".join(render_text(st, s, st.legal_actions(s)) for s in range(self.game.num_players))
        )

    def close(self) -> None:
        self.game_state = None
