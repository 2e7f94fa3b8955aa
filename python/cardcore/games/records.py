"""Pieces of records and replays that every game's runner, ``cardcore play`` session and web
table share (``docs/records.md``, ``docs/replays.md``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from cardcore.errors import OptionError
from cardcore.rng import RNG_VERSION

__all__ = [
    "REPLAY_FORMAT",
    "REPLAY_HEAD_ORDER",
    "REPLAY_VERSION",
    "match_record",
    "match_winner",
    "replay_start",
    "replay_tag",
    "same_json",
]

REPLAY_FORMAT: Final = "cardcore-replay"
"""The ``format`` of every replay."""
REPLAY_VERSION: Final = 1
"""The ``version`` of replays in the layout of ``docs/replays.md`` (a game may add its own
later versions, as Spite & Malice does for unlimited centre stacks)."""


def same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values are the same document: equal and of the same JSON types at
    every level (``true`` is not ``1``, ``1.0`` is not ``1``; Python's ``==`` says they are).
    A replay's recorded result is compared so."""
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(map(same_json, a, b))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    return type(a) is type(b) and bool(a == b)


def match_winner(totals: Sequence[float], target: float | None = None) -> int | None:
    """The seat with the unique highest total (and at least ``target`` when given), else
    ``None`` (a tie, or nobody has reached the target)."""
    best = max(totals)
    if target is not None and best < target:
        return None
    return totals.index(best) if list(totals).count(best) == 1 else None


def match_record(
    head: Mapping[str, Any],
    totals: Sequence[float],
    *,
    target: float | None = None,
    outcome: bool = False,
    **fields: Any,
) -> dict[str, Any]:
    """A match's record (``--match``, ``cardcore play``, web rooms): ``head``
    (:meth:`~cardcore.games.base.GameRequest.record_head`), ``scores`` (the totals), ``winner``
    (:func:`match_winner` of the totals and ``target``), ``outcome`` (``"win"`` or ``"tie"``,
    when asked), then the game's own ``fields`` in the order given."""
    winner = match_winner(totals, target)
    record: dict[str, Any] = {**head, "scores": list(totals), "winner": winner}
    if outcome:
        record["outcome"] = "tie" if winner is None else "win"
    return record | fields


def replay_tag(version: int = REPLAY_VERSION) -> dict[str, Any]:
    """What a replay says about itself, in order: ``format``, ``version``, ``cardcore_version``
    (the version that wrote it: its agents are re-run only by the same version)."""
    from cardcore import __version__

    return {"format": REPLAY_FORMAT, "version": version, "cardcore_version": __version__}


REPLAY_HEAD_ORDER: Final = (
    "format",
    "version",
    "game",
    "kind",
    "rng",
    "cardcore_version",
    "seed",
    "players",
    "agents",
    "options",
)
"""The order of a replay's head in ``docs/replays.md`` (Three-Thirteen, Spite & Malice). A
game whose replays were first written in another order passes that order to
:func:`replay_start` (Nerts does): key order is part of a replay's bytes, and those stay the
same for a given format version."""


def replay_start(
    game: str,
    seed: int,
    players: int,
    agents: Sequence[str],
    options: Mapping[str, Any],
    *,
    version: int = REPLAY_VERSION,
    kind: str | None = None,
    human_seats: Sequence[int] | None = None,
    order: Sequence[str] = REPLAY_HEAD_ORDER,
) -> dict[str, Any]:
    """The head of every replay: ``format``, ``version``, ``game``, ``kind`` (when given),
    ``rng``, ``cardcore_version``, ``seed``, ``players``, ``agents``, ``human_seats`` (when
    given) and ``options``, in ``order`` (by default :data:`REPLAY_HEAD_ORDER`); the game's
    own data follows it. ``order`` must name every key that has a value."""
    tag = replay_tag(version)
    values: dict[str, Any] = {
        **tag,
        "game": game,
        "kind": kind,
        "rng": RNG_VERSION,
        "seed": seed,
        "players": players,
        "agents": list(agents),
        "human_seats": None if human_seats is None else list(human_seats),
        "options": dict(options),
    }
    missing = [k for k, v in values.items() if v is not None and k not in order]
    if missing:
        raise OptionError(f"replay head order {list(order)} lacks {missing}")
    return {k: values[k] for k in order if values[k] is not None}
