"""Pieces of records and replays that every game's runner, ``cardcore play`` session and web
table share (``docs/records.md``, ``docs/replays.md``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from cardcore.rng import RNG_VERSION

__all__ = ["REPLAY_FORMAT", "REPLAY_VERSION", "match_winner", "replay_start", "replay_tag"]

REPLAY_FORMAT: Final = "cardcore-replay"
"""The ``format`` of every replay."""
REPLAY_VERSION: Final = 1
"""The ``version`` of replays in the layout of ``docs/replays.md`` (a game may add its own
later versions, as Spite & Malice does for unlimited centre stacks)."""


def match_winner(totals: Sequence[float], target: float | None = None) -> int | None:
    """The seat with the unique highest total (and at least ``target`` when given), else
    ``None`` (a tie, or nobody has reached the target)."""
    best = max(totals)
    if target is not None and best < target:
        return None
    return totals.index(best) if list(totals).count(best) == 1 else None


def replay_tag(version: int = REPLAY_VERSION) -> dict[str, Any]:
    """What a replay says about itself, in order: ``format``, ``version``, ``cardcore_version``
    (the version that wrote it: its agents are re-run only by the same version)."""
    from cardcore import __version__

    return {"format": REPLAY_FORMAT, "version": version, "cardcore_version": __version__}


def replay_start(
    game: str,
    seed: int,
    players: int,
    agents: Sequence[str],
    options: Mapping[str, Any],
    *,
    version: int = REPLAY_VERSION,
    kind: str | None = None,
) -> dict[str, Any]:
    """The head of a replay in the order of ``docs/replays.md``: ``format``, ``version``,
    ``game`` (and ``kind`` when given), ``rng``, ``cardcore_version``, ``seed``, ``players``,
    ``agents``, ``options``; the game's own data follows it."""
    tag = replay_tag(version)
    head: dict[str, Any] = {"format": tag["format"], "version": version, "game": game}
    if kind is not None:
        head["kind"] = kind
    head |= {
        "rng": RNG_VERSION,
        "cardcore_version": tag["cardcore_version"],
        "seed": seed,
        "players": players,
        "agents": list(agents),
        "options": dict(options),
    }
    return head
