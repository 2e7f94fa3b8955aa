"""Single-agent gymnasium environments (``pip install cardcore[rl]``; ``docs/rl.md``).

Importing this module registers ``cardcore/ThreeThirteen-v0``, ``cardcore/SpiteMalice-v0`` and
``cardcore/Nerts-v0``::

    import gymnasium
    import cardcore.rl.gymnasium  # noqa: F401  (or make("cardcore.rl.gymnasium:cardcore/..."))

    env = gymnasium.make("cardcore/ThreeThirteen-v0", opponents="greedy", players=2)

The learner plays ``seat`` (default 0); the built-in agents ``opponents`` (one name, or one per
other seat) play the rest. Observations are ``{"observation", "action_mask"}`` as in the
PettingZoo environments; the reward is 0 until the game ends, then the learner's
``returns()`` (``reward="game"``; shaped choices in :mod:`cardcore.rl.rewards`). In Nerts a step
is one tick of ``tick_ms`` and the last action id waits. ``gymnasium.make_vec`` gives the
self-play vector environment of :mod:`cardcore.rl.gym_vector` (turn-based games).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

try:
    import gymnasium
    from gymnasium import spaces
except ModuleNotFoundError as e:
    raise ModuleNotFoundError(
        f"cardcore.rl.gymnasium needs the rl extra: pip install 'cardcore[rl]' ({e})",
        name=e.name,
    ) from e

from cardcore.errors import IllegalMoveError, OptionError
from cardcore.games.api import Game, action_id
from cardcore.games.base import BUILTIN_GAMES, get_game
from cardcore.rl.common import Seeds, observation_space, render_text, resolve
from cardcore.rl.rewards import Shaper, check_reward, tracked, utility
from cardcore.rng import Rng

__all__ = ["ENV_IDS", "CardGameEnv"]


def env_id(game: str) -> str:
    """The gymnasium id of a game: ``"three-thirteen"`` is ``"cardcore/ThreeThirteen-v0"``."""
    return "cardcore/" + "".join(w.capitalize() for w in game.split("-")) + "-v0"


ENV_IDS: Final = {env_id(name): name for name in BUILTIN_GAMES}
"""The registered ids and the game each plays (every built-in game)."""

_ILLEGAL: Final = ("lose", "raise")


class CardGameEnv(gymnasium.Env[dict[str, NDArray[Any]], Any]):
    """One seat of a game against built-in agents.

    ``illegal`` says what an action outside the mask does (in every game, Nerts too):
    ``"lose"`` (default) ends the episode with reward -1 and ``info["illegal"] = True`` (the
    state is not changed; a later ``step`` raises until ``reset``); ``"raise"`` raises
    :class:`~cardcore.errors.IllegalMoveError`. In Nerts a move in the mask that the table
    no longer allows when it executes simply fails (the engine's rule), as for a human, and
    ``info["failed"]`` says so (True in that step). ``reward``: see :mod:`cardcore.rl.rewards`
    (what the learner's seat gets; ``utility`` declares its range). ``game_state`` is the
    game's state; ``render_mode="human"`` prints the text ``"ansi"`` returns.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str | Game[Any],
        *,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        illegal: str = "lose",
        tick_ms: int = 100,
        render_mode: str | None = None,
        reward: str = "game",
        **options: Any,
    ) -> None:
        self.game = g = resolve(game, options, realtime=None)
        self.reward = check_reward(g, reward)
        self.utility = utility(g, reward)
        """What the learner can get over an episode (:class:`~cardcore.rl.rewards.Utility`)."""
        self._segment = tracked(g, reward)
        self._shaper = None if self._segment is None else Shaper(g, reward)
        p = g.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < p:
            raise OptionError(f"seat must be a seat of the {p}-player table, not {seat!r}")
        names = [opponents] * (p - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != p - 1:
            raise OptionError(f"{p} players need {p - 1} opponents, got {len(names)}")
        spec = get_game(g.name)
        for name in names:
            spec.make_agent(name)  # unknown names fail here, not at reset
        if illegal not in _ILLEGAL:
            raise OptionError(f"illegal must be one of {_ILLEGAL}, not {illegal!r}")
        if isinstance(tick_ms, bool) or not isinstance(tick_ms, int) or tick_ms < 1:
            raise OptionError(f"tick_ms must be a positive int, not {tick_ms!r}")
        if render_mode not in (None, "ansi", "human"):
            raise OptionError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.seat = seat
        self.opponents = names
        self.illegal = illegal
        self.tick_ms = tick_ms
        self.render_mode = render_mode
        self.wait: int | None = g.num_actions if g.realtime else None
        """Nerts: the id of "wait" (one past the game's actions); None in turn-based games."""
        self._n = n = g.num_actions + (1 if g.realtime else 0)
        self.observation_space = observation_space(g, n)  # type: ignore[assignment]
        self.action_space = spaces.Discrete(n)
        self._seeds = Seeds()
        self.game_state: Any = None
        """The game's state (None before ``reset`` and after ``close``)."""
        self._lost = False  # the learner lost the episode by an illegal action
        self._others: dict[int, tuple[Any, Rng]] = {}

    # -- gymnasium ----------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = self._seeds.next(seed)
        self._lost = False
        others = [s for s in range(self.game.num_players) if s != self.seat]
        if self.game.realtime:
            agents: list[str | None] = [None] * self.game.num_players
            for s, name in zip(others, self.opponents, strict=True):
                agents[s] = name
            new_state: Any = self.game.new_state  # Nerts: new_state(seed, agents=...)
            self.game_state = new_state(game_seed, agents=agents)
        else:
            spec = get_game(self.game.name)
            self._others = {
                s: (spec.make_agent(name), Rng.for_stream(game_seed, s, "agent"))
                for s, name in zip(others, self.opponents, strict=True)
            }
            self.game_state = self.game.new_state(game_seed)
            self._play_others()
        if self._shaper is not None:
            self._shaper.start(self._counts())
        return self._observe(), {}

    def step(
        self, action: int
    ) -> tuple[dict[str, NDArray[Any]], float, bool, bool, dict[str, Any]]:
        st = self.game_state
        if st is None or st.is_over or self._lost:
            raise IllegalMoveError("the episode is over: call reset()")
        index = action_id(action)
        if index is None or (index != self.wait and index not in self._legal()):
            if self.illegal == "raise":
                raise IllegalMoveError(f"action {action!r} is not in the action mask")
            self._lost = True
            return self._observe(), -1.0, True, False, {"illegal": True}
        info: dict[str, Any] = {}
        if self.game.realtime:
            t = st.now
            if index != self.wait:
                st.submit(self.seat, index, t)
            seen = len(st.events)
            st.advance_to(t + self.tick_ms)
            tick = st.events[seen:]  # read again: the log grows when read
            info["failed"] = any(e[1] == self.seat and e[3] != "ok" for e in tick)
        else:
            st.apply(index)
            self._play_others()
        over = bool(st.is_over)
        reward = float(st.returns()[self.seat]) if over else 0.0
        if self._shaper is not None:
            shaped = float(self._shaper.step(self._counts())[self.seat])
            reward = shaped + reward if self.reward == "payoff" else shaped
        return self._observe(), reward, over, False, info

    def render(self) -> str | None:
        if self.render_mode is None or self.game_state is None:
            return None
        text = render_text(self.game_state, self.seat, self._legal())
        if self.render_mode == "human":
            print(text, end="")  # render_mode="human" prints
            return None
        return text

    def close(self) -> None:
        self.game_state = None

    # -- the other seats ----------------------------------------------------------------------

    def _counts(self) -> NDArray[np.float32]:
        """What the shaped reward follows, in seat order (seat 0's view: its own order)."""
        assert self._segment is not None
        tensor: NDArray[np.float32] = self.game_state.observation_tensor(0)
        return tensor[self._segment].copy()

    def _play_others(self) -> None:
        st = self.game_state
        while not st.is_over and st.current_player != self.seat:
            seat = st.current_player
            agent, rng = self._others[seat]
            st.apply(agent.act(st.observation(seat), st.legal_moves(), rng))

    def _legal(self) -> list[int]:
        st = self.game_state
        if not self.game.realtime:
            return list(st.legal_actions())
        if st.pending(self.seat):
            return []
        return list(st.legal_actions(self.seat))

    def _observe(self) -> dict[str, NDArray[Any]]:
        st = self.game_state
        mask = np.zeros(self._n, np.int8)
        mask[self._legal()] = 1
        if self.wait is not None:
            mask[self.wait] = 1
        return {"observation": st.observation_tensor(self.seat), "action_mask": mask}


VECTOR_ENTRY_POINT: Final = "cardcore.rl.gym_vector:CardGameVectorEnv"
"""``gymnasium.make_vec``'s entry point of the turn-based games (self-play; Nerts has none:
``make_vec`` then runs ``CardGameEnv`` copies in gymnasium's ``SyncVectorEnv``)."""

for _id, _name in ENV_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(
            _id,
            entry_point=f"{__name__}:CardGameEnv",
            vector_entry_point=None if _name == "nerts" else VECTOR_ENTRY_POINT,
            kwargs={"game": _name},
        )
