"""Pieces of records that every game's runner, ``cardcore play`` session and web table share
(``docs/records.md``)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["match_winner"]


def match_winner(totals: Sequence[float], target: float | None = None) -> int | None:
    """The seat with the unique highest total (and at least ``target`` when given), else
    ``None`` (a tie, or nobody has reached the target)."""
    best = max(totals)
    if target is not None and best < target:
        return None
    return totals.index(best) if list(totals).count(best) == 1 else None
