"""``learned``: the Three-Thirteen agent trained against ``greedy`` (issue 34).

The policy is greedy's reading of the hand (the least deadwood after each discard, one Rust call
a decision) plus six weights ``w`` learned by evolution strategies in two-player games against
``greedy``. Draw: take the pile top when it lowers the best deadwood by more than
``w0 + w1 * hand_size / 13`` points (greedy: by more than 0), or lets the hand go out. Discard:
among the discards within 12 points of the least deadwood, the one minimising ``deadwood -
w2 * pairs - w3 * connectors - w4 * wilds - w5 * points_discarded`` of the hand kept (pairs: two
cards of a rank; connectors: cards of a suit one or two ranks apart; greedy: deadwood alone).
The weights ship in ``learned.json`` beside this module (with the training curve of
``examples/learn_three_thirteen.py``, which trained them);
``docs/agents.md`` gives its strength. No random numbers: a pure function of the observation.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Sequence
from importlib import resources
from typing import Final

from cardcore.errors import OptionError
from cardcore.rng import Rng
from cardcore.three_thirteen.melds import discard_deadwoods_of_faces
from cardcore.three_thirteen.rules import DRAW_DISCARD, DRAW_STOCK, Discard, Move, Observation

__all__ = ["NUM_WEIGHTS", "LearnedAgent", "shipped_weights"]

NUM_WEIGHTS: Final = 6


@functools.cache
def shipped_weights() -> tuple[float, ...]:
    """The trained weights shipped with the package (``learned.json``)."""
    doc = json.loads(resources.files(__package__).joinpath("learned.json").read_text("utf-8"))
    return tuple(float(x) for x in doc["weights"])


def _shape(faces: bytes, wild: int) -> tuple[int, int, int]:
    """Pairs, connectors and wild cards of a hand (card faces: suit * 13 + rank; jokers 52+)."""
    ranks: dict[int, int] = {}
    suits: dict[int, list[int]] = {}
    wilds = 0
    for f in faces:
        if f >= 52 or f % 13 + 1 == wild:
            wilds += 1
            continue
        ranks[f % 13] = ranks.get(f % 13, 0) + 1
        suits.setdefault(f // 13, []).append(f % 13)
    pairs = sum(c * (c - 1) // 2 for c in ranks.values())
    connectors = 0
    for rs in suits.values():
        rs.sort()
        connectors += sum(1 <= b - a <= 2 for a, b in itertools.pairwise(rs))
    return pairs, connectors, wilds


def _points(face: int) -> int:
    return 20 if face >= 52 else min(10, face % 13 + 1)


class LearnedAgent:
    """The policy with weights ``w`` (six floats; default: the shipped ones)."""

    __slots__ = ("w",)

    def __init__(self, w: Sequence[float] | None = None) -> None:
        ws = shipped_weights() if w is None else tuple(w)
        if len(ws) != NUM_WEIGHTS or not all(isinstance(x, int | float) for x in ws):
            raise OptionError(f"learned: w must be {NUM_WEIGHTS} numbers, got {w!r}")
        self.w = tuple(float(x) for x in ws)

    def act(self, observation: Observation, legal: Sequence[Move], rng: Rng) -> Move:
        obs, w = observation, self.w
        ft, wild = obs.face_of, obs.wild_rank
        if obs.phase == "draw":
            top = obs.discard_pile[-1]
            faces = bytes(obs.hand).translate(ft) + ft[top : top + 1]
            dws = discard_deadwoods_of_faces(faces, wild, obs.rules)
            take = min(dws[:-1])
            if take == 0 or dws[-1] - take > w[0] + w[1] * len(obs.hand) / 13:
                return DRAW_DISCARD
            return DRAW_STOCK
        hand = obs.hand
        faces = bytes(hand).translate(ft)
        dws = discard_deadwoods_of_faces(faces, wild, obs.rules)
        banned = obs.drawn if obs.forbid_return_of_discard_draw and obs.drawn_from_discard else -1
        low = min(dws)
        best: float | None = None
        pick = 0
        for i, d in enumerate(dws):
            if hand[i] == banned or d > low + 12:
                continue
            pairs, connectors, wilds = _shape(faces[:i] + faces[i + 1 :], wild)
            score = d - w[2] * pairs - w[3] * connectors - w[4] * wilds
            score -= w[5] * _points(faces[i]) * (d > 0)
            if best is None or score < best:
                best, pick = score, i
        move = Discard(hand[pick])
        return move if move in legal else legal[0]
