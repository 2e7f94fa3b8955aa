"""`cardcore serve` plays the registry's games: every registered game with a ``web_table`` is in
the lobby with its ``lobby_options``, a game registered later (a plugin) too, and the web
package names no game in its game list."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

import cardcore.games.base as base
import cardcore.web.games as web_games
from cardcore.games.base import get_game, registered_games
from cardcore.web.rooms import RoomSetup

BUILT = {"three-thirteen", "spite-malice", "nerts"}
MADE: list[tuple[str, int]] = []


def make_toy_table(setup: RoomSetup, agents: Sequence[str | None], ai_delay: float) -> Any:
    MADE.append((setup.game, setup.players))
    return "a toy table"


def test_the_lobby_is_the_registry() -> None:
    games = web_games.catalog()["games"]
    want = [n for n in registered_games() if get_game(n).web_table is not None]
    assert [g["name"] for g in games] == want
    assert set(want) >= BUILT
    for g in games:
        assert [o["name"] for o in g["options"]] == list(get_game(g["name"]).lobby_options)


def test_a_game_registered_later_gets_rooms(monkeypatch: pytest.MonkeyPatch) -> None:
    import toy_game

    toy = dataclasses.replace(
        toy_game.SPEC,
        name="toy-web",
        max_players=3,
        web_table=f"{__name__}:make_toy_table",
        lobby_options=("cards",),
    )
    monkeypatch.setitem(base._REGISTRY, "toy-web", toy)
    monkeypatch.setattr(web_games, "TABLES", {})
    games = {g["name"]: g for g in web_games.catalog()["games"]}
    assert games["toy-web"]["options"][0]["name"] == "cards"
    assert games["toy-web"]["max_players"] == 3
    setup, _host, _ais = web_games.parse_room_request('{"game": "toy-web", "players": 3}')
    made: object = web_games.table_factory(ai_delay=0)(setup, [None, "high", "high"])
    assert made == "a toy table"
    assert MADE == [("toy-web", 3)]


def test_the_web_game_list_names_no_game() -> None:
    text = Path(web_games.__file__).read_text()
    for name in BUILT:
        assert f'"{name}"' not in text, name
