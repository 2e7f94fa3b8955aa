"""Strict replay layouts: every key, type and range of a replay is checked before anything is
re-run, so a malformed or hostile replay fails fast with a message naming the first bad item.

A layout is built from a few pieces: ``INT`` (an int, never a bool), ``Int(lo, hi)``, ``STR``,
``Str(*allowed)``, ``BOOL``, ``Const(value)``, ``Opt(x)`` (``None`` or ``x``), ``ListOf(x,
min_len, max_len)``, ``Row(a, b, ...)`` (a fixed-length list) and ``Obj({key: x}, optional=
{key: x})`` (a dict with those keys; other keys are allowed). ``check(value, layout, game)``
raises :class:`~cardcore.errors.ReplayMismatchError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from cardcore.errors import ReplayMismatchError
from cardcore.games.records import REPLAY_FORMAT, REPLAY_VERSION
from cardcore.rng import RNG_VERSION

__all__ = [
    "BOOL",
    "INT",
    "OPTIONS",
    "SEED",
    "STR",
    "Const",
    "Int",
    "Layout",
    "ListOf",
    "Obj",
    "Opt",
    "Row",
    "Str",
    "agents_per_seat",
    "check",
    "replay_head",
]

MAX_ITEMS: Final = 1_000_000
"""Longest list a replay may hold (a game's longest log is far shorter)."""


class Layout:
    """One piece of a layout; :meth:`problem` says what is wrong with a value, or None."""

    def problem(self, value: Any, path: str) -> str | None:
        raise NotImplementedError


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class Int(Layout):
    lo: int | None = None
    hi: int | None = None

    def problem(self, value: Any, path: str) -> str | None:
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{path} must be an int, not {_show(value)}"
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            return f"{path} must be in {self.lo}..{self.hi}, not {value}"
        return None


@dataclass(frozen=True)
class Str(Layout):
    allowed: tuple[str, ...] = ()

    def __init__(self, *allowed: str) -> None:
        object.__setattr__(self, "allowed", allowed)

    def problem(self, value: Any, path: str) -> str | None:
        if not isinstance(value, str):
            return f"{path} must be a string, not {_show(value)}"
        if self.allowed and value not in self.allowed:
            return f"{path} must be one of {', '.join(self.allowed)}, not {_show(value)}"
        return None


@dataclass(frozen=True)
class _Bool(Layout):
    def problem(self, value: Any, path: str) -> str | None:
        return None if isinstance(value, bool) else f"{path} must be true or false"


@dataclass(frozen=True)
class Const(Layout):
    value: Any

    def problem(self, value: Any, path: str) -> str | None:
        same = type(value) is type(self.value) and value == self.value
        return None if same else f"{path} must be {self.value!r}, not {_show(value)}"


@dataclass(frozen=True)
class Opt(Layout):
    inner: Layout

    def problem(self, value: Any, path: str) -> str | None:
        return None if value is None else self.inner.problem(value, path)


@dataclass(frozen=True)
class ListOf(Layout):
    item: Layout
    min_len: int = 0
    max_len: int = MAX_ITEMS

    def problem(self, value: Any, path: str) -> str | None:
        if not isinstance(value, list):
            return f"{path} must be a list, not {_show(value)}"
        if not self.min_len <= len(value) <= self.max_len:
            return f"{path} must hold {self.min_len}..{self.max_len} items, not {len(value)}"
        for i, v in enumerate(value):
            p = self.item.problem(v, f"{path}[{i}]")
            if p is not None:
                return p
        return None


@dataclass(frozen=True)
class Row(Layout):
    items: tuple[Layout, ...]

    def __init__(self, *items: Layout) -> None:
        object.__setattr__(self, "items", items)

    def problem(self, value: Any, path: str) -> str | None:
        if not isinstance(value, list) or len(value) != len(self.items):
            return f"{path} must be a list of {len(self.items)} items, not {_show(value)}"
        for i, (v, item) in enumerate(zip(value, self.items, strict=True)):
            p = item.problem(v, f"{path}[{i}]")
            if p is not None:
                return p
        return None


@dataclass(frozen=True)
class Obj(Layout):
    required: Mapping[str, Layout]
    optional: Mapping[str, Layout] = field(default_factory=dict)

    def problem(self, value: Any, path: str) -> str | None:
        if not isinstance(value, dict):
            return f"{path or 'the replay'} must be a JSON object, not {_show(value)}"
        for key, item in self.required.items():
            where = f"{path}.{key}" if path else key
            if key not in value:
                return f"{where} is missing"
            p = item.problem(value[key], where)
            if p is not None:
                return p
        for key, item in self.optional.items():
            if key in value:
                p = item.problem(value[key], f"{path}.{key}" if path else key)
                if p is not None:
                    return p
        return None


INT: Final = Int()
SEED: Final = Int(0, 2**64 - 1)
STR: Final = Str()
BOOL: Final = _Bool()


@dataclass(frozen=True)
class _Scalar(Layout):
    def problem(self, value: Any, path: str) -> str | None:
        if value is None or isinstance(value, bool | int | float | str):
            return None
        return f"{path} must be a number, string, true/false or null, not {_show(value)}"


@dataclass(frozen=True)
class _Options(Layout):
    def problem(self, value: Any, path: str) -> str | None:
        if not isinstance(value, dict):
            return f"{path} must be a JSON object, not {_show(value)}"
        for key, v in value.items():
            p = _Scalar().problem(v, f"{path}.{key}")
            if p is not None:
                return p
        return None


OPTIONS: Final = _Options()


def replay_head(
    game: str, min_players: int, max_players: int, *, options: bool = True
) -> dict[str, Layout]:
    """The keys every replay of ``game`` starts with (``docs/replays.md``)."""
    head: dict[str, Layout] = {
        "format": Const(REPLAY_FORMAT),
        "version": Const(REPLAY_VERSION),
        "game": Const(game),
        "rng": Const(RNG_VERSION),
        "seed": SEED,
        "players": Int(min_players, max_players),
        "agents": ListOf(STR, 1, max_players),
    }
    if options:
        head["options"] = OPTIONS
    return head


def check(value: Any, layout: Layout, game: str) -> None:
    """Raises :class:`ReplayMismatchError` naming the first item of ``value`` that does not
    fit ``layout``."""
    p = layout.problem(value, "")
    if p is not None:
        raise ReplayMismatchError(f"{game} replay: {p}")


def agents_per_seat(names: Sequence[str], players: int, game: str) -> list[str]:
    """One agent name per seat (a single name stands for every seat)."""
    if len(names) == 1:
        return list(names) * players
    if len(names) != players:
        raise ReplayMismatchError(f"{game} replay: {len(names)} agents for {players} players")
    return list(names)
