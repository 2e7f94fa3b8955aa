"""Helpers the `cardcore play` table tests of every game share."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardcore.play.common import PlayConfig


def table_config(game: str, **defaults: Any) -> Callable[..., PlayConfig]:
    """A maker of table settings for ``game``: ``make(tmp_path, **kw)`` with ``kw`` over
    ``defaults`` (``players`` and ``ai`` required; ``seed`` 5 unless given; ``options`` ...),
    no AI delay, and the replay written to ``tmp_path / f"{game}.jsonl"``."""

    def make(tmp_path: Path, **kw: Any) -> PlayConfig:
        given = {"seed": 5, **defaults, **kw}
        players, ai = given.pop("players"), given.pop("ai")
        replay_file = str(tmp_path / f"{game}.jsonl")
        return PlayConfig(game, players, ai, delay=0, replay_file=replay_file, **given)

    return make
