"""What the RL environments pay (``reward=``) and the utility each game declares (numpy only).

* ``"game"`` (every game, the default): 0 until the end, then ``returns()`` (Three-Thirteen
  and Spite & Malice: +1 to each winner, -1 to the others, 0 to all when nobody wins; Nerts:
  the round's points).
* ``"round"`` (Three-Thirteen): at the end of each round, every seat gets the round's score
  difference, the mean round penalty of the other seats less its own (two players: the
  opponent's round score less its own), in card points. Nerts: the round's points, paid when
  the round ends (an episode is one round, so this equals ``"game"``).
* ``"payoff"`` (Spite & Malice, shaping): every time a seat plays the top card of its pay-off
  pile it gets ``+1/payoff_size`` and every other seat ``-1/(payoff_size * (players-1))``;
  ``returns()`` is added at the end. Random play, whose games nearly all end in a tie (0),
  then sees a signal in every game where a pay-off card is played.

The shaped rewards are a seat's gain less the mean gain of the other seats, so they sum to 0
over the seats at every step (zero-sum whatever the number of players).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from cardcore.errors import OptionError
from cardcore.games.api import Game

__all__ = ["REWARDS", "Utility", "check_reward", "tracked", "utility", "zero_sum_gain"]

REWARDS: Final = {
    "three-thirteen": ("game", "round"),
    "spite-malice": ("game", "payoff"),
    "nerts": ("game", "round"),
}
"""The ``reward=`` choices of each game (the first is the default)."""

TRACKED: Final = {
    ("three-thirteen", "round"): "totals",
    ("spite-malice", "payoff"): "payoff_counts",
}
"""The observation segment a shaped reward follows (seat-relative counts, raw)."""

_ROUND_CARDS: Final = sum(range(3, 14))  # the cards of the 11 hands, 3 to 13: 88


@dataclass(frozen=True)
class Utility:
    """What one seat can get over an episode (the sum of its rewards)."""

    zero_sum: bool
    """The seats' rewards sum to 0 in every episode."""
    min: float
    """The lowest a seat can get."""
    max: float
    """The highest a seat can get."""


def check_reward(game: Game[Any], reward: str) -> str:
    """``reward`` if ``game`` offers it, else :class:`~cardcore.errors.OptionError`."""
    choices = REWARDS.get(game.name, ("game",))
    if reward not in choices:
        raise OptionError(f"reward for {game.name} must be one of {choices}, not {reward!r}")
    return reward


def tracked(game: Game[Any], reward: str) -> slice | None:
    """The observation segment a shaped ``reward`` follows, or None (paid from returns)."""
    name = TRACKED.get((game.name, reward))
    return None if name is None else game.observation_layout[name]


def utility(game: Game[Any], reward: str = "game") -> Utility:
    """The utility of ``game`` under ``reward`` (the same declaration as ``cardcore.openspiel``
    for ``"game"``)."""
    check_reward(game, reward)
    o: dict[str, Any] = dict(game.options)
    p = game.num_players
    if game.name == "nerts":
        low = -float(o["nerts_penalty"]) * float(o["nerts_pile_size"])
        high = 52.0 * float(o["foundation_points"]) + float(o["nerts_bonus"])
        return Utility(False, low, max(high, low + 1.0))
    if reward == "round":  # three-thirteen: the mean total of the others less one's own
        most = float(_ROUND_CARDS * max(15, int(o["wild_points"]), int(o["joker_points"])))
        return Utility(True, -most, most)
    two = p == 2 and o.get("tie_rule", "all_tied") == "all_tied"
    if reward == "payoff":  # +-1 of shaping at most, plus returns
        return Utility(two, -2.0, 2.0)
    return Utility(two, -1.0, 1.0)


def zero_sum_gain(gain: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each seat's gain less the mean gain of the other seats (last axis: the seats)."""
    p = gain.shape[-1]
    total = gain.sum(axis=-1, keepdims=True)
    out: NDArray[np.float32] = ((p * gain - total) / (p - 1)).astype(np.float32)
    return out


def absolute(segment: NDArray[np.float32], seat: int) -> NDArray[np.float32]:
    """A seat-relative segment (``[k]`` = seat ``seat + k``) in seat order."""
    return np.roll(segment, seat)


class Shaper:
    """Per-seat rewards of one game for a shaped ``reward``: call :meth:`start` after the deal
    and :meth:`step` after every move with the tracked counts in seat order."""

    __slots__ = ("_last", "kind", "scale")

    def __init__(self, game: Game[Any], reward: str) -> None:
        self.kind = reward
        o: dict[str, Any] = dict(game.options)
        self.scale = 1.0 / float(o["payoff_size"]) if reward == "payoff" else 1.0
        self._last: NDArray[np.float32] | None = None

    def start(self, counts: NDArray[np.float32]) -> None:
        self._last = counts.copy()

    def step(self, counts: NDArray[np.float32]) -> NDArray[np.float32]:
        last = counts if self._last is None else self._last
        # three-thirteen: penalty totals (a gain is a lower total); spite: pay-off cards left
        gain = (last - counts) * self.scale
        self._last = counts.copy()
        return zero_sum_gain(gain)
