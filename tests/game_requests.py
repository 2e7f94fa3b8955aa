"""One maker of runner requests and played records for every game's tests (each game folder
used to spell ``GameRequest(index=..., seed=..., options=SPEC.resolve_options(...))`` itself).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from cardcore.games.base import GameRequest, get_game

__all__ = ["played", "request"]


def request(
    game: str,
    seed: int,
    players: int,
    agents: Sequence[str],
    *,
    index: int = 0,
    replay: bool = False,
    options: Mapping[str, Any] | None = None,
) -> GameRequest:
    """A request as the runner builds it: ``options`` resolved by the game's spec (defaults
    filled in, unknown names refused)."""
    spec = get_game(game)
    return GameRequest(
        index=index,
        seed=seed,
        players=players,
        agents=tuple(agents),
        options=spec.resolve_options(dict(options or {})),
        replay=replay,
    )


def played(game: str, *, match: bool = False, **kw: Any) -> dict[str, Any]:
    """The record of one game (or with ``match``, one match) of :func:`request` ``(game,
    **kw)``, read back from JSON as the CLI and ``cardcore replay`` see it."""
    spec = get_game(game)
    play = spec.play_match if match else spec.play
    assert play is not None, f"{game} has no matches"
    rec: dict[str, Any] = json.loads(json.dumps(play(request(game, **kw))))
    return rec
