"""The games a room can play, the lobby's choices, and room requests.

Built on public names only: the game registry (:func:`cardcore.games.base.registered_games`
and :func:`~cardcore.games.base.get_game`: titles, seat counts, options, agents, and each game's
``web_table`` and ``lobby_options``). No game is named here: a registered game with a
``web_table`` (a plugin's too) is playable in rooms.
"""

from __future__ import annotations

import datetime as _dt
import importlib
import json
import math
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, cast

from cardcore.errors import OptionError
from cardcore.games.base import GameSpec, OptionSpec, OptionValue, get_game, registered_games
from cardcore.play.common import AI_LEVELS, agent_for_level, seat_names, write_replay
from cardcore.rng import new_seed
from cardcore.web.daily import DailyDeals
from cardcore.web.messages import BadMessage, clean_name
from cardcore.web.rooms import (
    DEFAULT_TURN_SECONDS,
    MAX_TURN_SECONDS,
    SEAT_KINDS,
    RoomSetup,
    TableFactory,
)
from cardcore.web.tables import Table

__all__ = [
    "TABLES",
    "catalog",
    "parse_room_request",
    "save_replay",
    "table_factory",
]

_SEED_LIMIT: Final = 1 << 63
MIN_TURN_SECONDS: Final = 10
ROOM_OPTION_MAX: Final = 10_000
"""The largest value a room accepts for a numeric rules option (or the option's own maximum
when smaller): a room plays at people's pace, and a target of 10**30 points is no game."""

TableMaker = Callable[[RoomSetup, Sequence[str | None], float], Table]
TABLES: dict[str, TableMaker] = {}
"""Game name -> table builder ``(setup, agents, ai_delay)``: every registered game with a
``web_table`` (filled from the registry on use, so a game registered later is added too)."""


_BROKEN: set[str] = set()
"""Games whose web table failed to load (warned once, not retried)."""


def _register_tables() -> None:
    for name in registered_games():
        ref = get_game(name).web_table
        if ref is None or name in TABLES or name in _BROKEN:
            continue
        module_name, _, attr = ref.partition(":")
        try:
            TABLES[name] = getattr(importlib.import_module(module_name), attr)
        except Exception as e:  # a plugin's broken table must not stop the server
            warnings.warn(
                f"cardcore serve: the web table of {name!r} ({ref}) failed to load: "
                f"{type(e).__name__}: {e}",
                RuntimeWarning,
                stacklevel=2,
            )
            _BROKEN.add(name)


def catalog() -> dict[str, Any]:
    """What the lobby offers: each playable game with its seats, AI levels and options."""
    _register_tables()
    out = []
    for name in TABLES:
        spec = get_game(name)
        opts = []
        for key in spec.lobby_options:
            o = spec.option(key)
            opts.append(
                {
                    "name": o.name,
                    "default": o.default,
                    "help": o.help,
                    "choices": list(o.choices) if o.choices is not None else None,
                    "min": o.minimum,
                    "max": room_maximum(o),
                }
            )
        out.append(
            {
                "name": name,
                "title": spec.title,
                "min_players": spec.min_players,
                "max_players": spec.max_players,
                "default_players": spec.default_players,
                "options": opts,
            }
        )
    return {"games": out, "levels": list(AI_LEVELS), "turn_seconds": DEFAULT_TURN_SECONDS}


def room_maximum(option: OptionSpec) -> float | None:
    """The largest value of ``option`` a room accepts (``None``: not a number)."""
    if option.kind not in (int, float) or option.choices is not None:
        return option.maximum
    return min(option.maximum, ROOM_OPTION_MAX) if option.maximum is not None else ROOM_OPTION_MAX


def room_option(spec: GameSpec, key: str, value: object) -> OptionValue:
    """``value`` of rules option ``key`` checked for a room: the game's own checks, then a
    finite number no larger than :func:`room_maximum`."""
    if key == "players":
        raise OptionError("players is set by the seats")
    option = spec.option(key)
    checked = option.validate(cast(OptionValue, value))
    top = room_maximum(option)
    if (
        isinstance(checked, int | float)
        and not isinstance(checked, bool)
        and top is not None
        and not (math.isfinite(checked) and checked <= top)
    ):
        raise OptionError(f"option {key}: {checked} > maximum {top:g} for a room")
    return checked


def table_factory(*, ai_delay: float = 0.6) -> TableFactory:
    """Builds each room's table with the game's :data:`TABLES` entry."""
    _register_tables()

    def make(setup: RoomSetup, agents: Sequence[str | None]) -> Table:
        return TABLES[setup.game](setup, agents, ai_delay)

    return make


_DIGITS: Final = re.compile(r"[0-9]{1,19}")


def _seed(value: object) -> int:
    if isinstance(value, str) and _DIGITS.fullmatch(value.strip()):
        value = int(value.strip())  # ASCII digits only: "²".isdigit() holds, int("²") fails
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < _SEED_LIMIT:
        raise BadMessage("seed must be an integer in 0..2**63-1")
    return value


_ROOM_KEYS: Final = frozenset(
    {"game", "players", "seats", "level", "name", "seed", "daily", "options", "turn_seconds"}
)


_PROCESS_DAILY: DailyDeals | None = None


def _process_daily() -> DailyDeals:
    global _PROCESS_DAILY
    if _PROCESS_DAILY is None:
        _PROCESS_DAILY = DailyDeals.load(None)
    return _PROCESS_DAILY


def parse_room_request(
    body: bytes | str,
    *,
    daily_deals: DailyDeals | None = None,
    seeded_friend_rooms: bool = False,
) -> tuple[RoomSetup, str, list[str]]:
    """Validates a ``POST /api/rooms`` body; returns the setup, the host's name and the seat
    names of the AIs. A daily deal's seed comes from ``daily_deals`` (the server's secret;
    by default a secret of this process). A room with a friend's seat takes no chosen seed
    (its host would know every hidden card) unless ``seeded_friend_rooms``.

    Keys: ``game``; optional ``players``, ``seats`` (one of ``"ai"``/``"friend"`` per seat
    after the host; default all AIs), ``level`` (easy/normal/hard), ``name``, ``seed`` (int or
    decimal string), ``daily`` (today's deal), ``options`` (rules options of the game),
    ``turn_seconds`` (the turn timer for a person who left: 0 or 10..3600, default 60).
    """
    _register_tables()
    try:
        data: Any = json.loads(body)
    except (ValueError, RecursionError):
        raise BadMessage("the request is not JSON") from None
    if not isinstance(data, dict):
        raise BadMessage("the request must be a JSON object")
    if extra := set(data) - _ROOM_KEYS:
        raise BadMessage(f"unknown key {sorted(extra)[0][:20]!r}")
    game = data.get("game")
    if not isinstance(game, str) or game not in TABLES:
        raise BadMessage(f"game must be one of {', '.join(TABLES)}")
    spec = get_game(game)
    players = data.get("players", spec.default_players)
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not spec.min_players <= players <= spec.max_players
    ):
        raise BadMessage(f"{game} needs {spec.min_players}-{spec.max_players} players")
    seats = data.get("seats", ["ai"] * (players - 1))
    if (
        not isinstance(seats, list)
        or len(seats) != players - 1
        or any(s not in SEAT_KINDS for s in seats)
    ):
        raise BadMessage(f"seats must list {players - 1} of {', '.join(SEAT_KINDS)}")
    level = data.get("level", "normal")
    if level not in AI_LEVELS:
        raise BadMessage(f"level must be one of {', '.join(AI_LEVELS)}")
    name = clean_name(data.get("name", "You"))
    daily = data.get("daily", False)
    if not isinstance(daily, bool):
        raise BadMessage("daily must be true or false")
    if daily and data.get("seed") is not None:
        raise BadMessage("a daily deal has its own seed")
    if data.get("seed") is not None and "friend" in seats and not seeded_friend_rooms:
        raise BadMessage(
            "a room with a friend's seat cannot have a chosen seed:"
            " whoever knows the seed knows every hidden card"
        )
    seed = (
        (daily_deals or _process_daily()).seed()
        if daily
        else _seed(data["seed"])
        if data.get("seed") is not None
        else new_seed()
    )
    turn_seconds = data.get("turn_seconds", DEFAULT_TURN_SECONDS)
    if (
        isinstance(turn_seconds, bool)
        or not isinstance(turn_seconds, int)
        or not (turn_seconds == 0 or MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS)
    ):
        raise BadMessage(
            f"turn_seconds must be 0 (no timer) or {MIN_TURN_SECONDS}..{MAX_TURN_SECONDS}"
        )
    raw = data.get("options", {})
    if not isinstance(raw, dict):
        raise BadMessage("options must be an object")
    options: dict[str, Any] = {}
    for key, value in raw.items():
        options[key] = room_option(spec, key, value)
    spec.resolve_options(options)
    setup = RoomSetup(
        game=game,
        players=players,
        seats=tuple(seats),
        agent=agent_for_level(spec, level),
        level=level,
        options=options,
        seed=seed,
        daily=daily,
        turn_seconds=turn_seconds,
    )
    return setup, name, seat_names(players)


def save_replay(record: Mapping[str, Any], folder: Path, game: str) -> Path:
    """Writes a finished game's record as ``<folder>/<game>-<UTC time>-<n>.jsonl`` (one line,
    the format ``cardcore replay`` reads)."""
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%S")
    n = 0
    while (path := folder / f"{game}-{stamp}-{n}.jsonl").exists():
        n += 1
    return write_replay(record, path, game)
