"""Reinforcement-learning adapters built on the embedding protocol (``docs/rl.md``).

* :class:`VectorEnv` (numpy only): many turn-based games stepped in one call, self-play.
* :mod:`cardcore.rl.pettingzoo` (``pip install cardcore[rl]``): PettingZoo environments, AEC
  for Three-Thirteen and Spite & Malice, Parallel (time in ticks) for Nerts.
* :mod:`cardcore.rl.gymnasium` (``cardcore[rl]``): single-agent environments registered as
  ``cardcore/ThreeThirteen-v0``, ``cardcore/SpiteMalice-v0`` and ``cardcore/Nerts-v0``, the
  built-in agents playing the other seats; ``gymnasium.make_vec`` on those ids gives
  :class:`cardcore.rl.gym_vector.CardGameVectorEnv`, a ``gymnasium.vector.VectorEnv`` of
  self-play games (the turn-based games).
* :mod:`cardcore.rl.rewards` (numpy only): the ``reward=`` choices and each game's utility.
"""

from __future__ import annotations

from cardcore.rl.vector import Batch, VectorEnv

__all__ = ["Batch", "VectorEnv"]
