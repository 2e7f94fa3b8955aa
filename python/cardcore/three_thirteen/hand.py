"""A hand as its player sees it: its best arrangement, melds first, then the deadwood (what
``cardcore play`` and the web table show)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from cardcore import _core
from cardcore.cards import rank_of
from cardcore.three_thirteen.rules import Options, face_table

__all__ = ["HandView", "arrange_hand"]


@dataclass(frozen=True, slots=True)
class HandView:
    """A hand's best arrangement: melds (card ids, each with the face a wild card stands for,
    else ``None``), then the deadwood (by rank) and its points; ``order`` is every card id in
    display order."""

    melds: tuple[tuple[tuple[int, int | None], ...], ...]
    deadwood: tuple[int, ...]
    points: int

    @property
    def order(self) -> list[int]:
        out = [cid for m in self.melds for cid, _ in m]
        out.extend(self.deadwood)
        return out


def arrange_hand(hand: Sequence[int], wild_rank: int, options: Options) -> HandView:
    """The best arrangement of ``hand`` (physical card ids) in the round whose wild rank is
    ``wild_rank`` (one meld-solver call; the last few thousand hands are remembered)."""
    return _arrange(tuple(hand), wild_rank, options)


@lru_cache(maxsize=4096)
def _arrange(hand: tuple[int, ...], wild_rank: int, options: Options) -> HandView:
    face_of = face_table(options.num_decks, options.jokers)
    r = options.meld_rules
    best = _core.meld_best(
        bytes(hand).translate(face_of), wild_rank, r.ace_code, r.wild_points, r.joker_points
    )
    return HandView(
        tuple(
            tuple((hand[k], None if f < 0 else f) for k, f in members) for _, members in best.melds
        ),
        tuple(sorted((hand[k] for k in best.deadwood), key=lambda i: (rank_of(face_of[i]), i))),
        best.points,
    )
