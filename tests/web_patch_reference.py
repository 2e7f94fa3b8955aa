"""The web table's diff (``cardcore.web.patch.diff``, written in Rust) in plain Python: the
reference its tests compare it with (this was the package's own version until 0.5)."""

from __future__ import annotations

import marshal
from typing import Any

Op = list[Any]
_TREES = (dict, list)
_MISSING: Any = object()


def diff(old: dict[str, Any], new: dict[str, Any]) -> list[Op]:
    out: list[Op] = []
    _diff_object(old, new, [], out)
    return out


def _diff_object(old: dict[str, Any], new: dict[str, Any], path: list[Any], out: list[Op]) -> None:
    kept = 0
    for key, value in new.items():
        was = old.get(key, _MISSING)
        if was is value:
            kept += 1
            continue
        if was is _MISSING:
            out.append([[*path, key], value])
            continue
        kept += 1
        kind = type(value)
        if kind is not type(was):  # True == 1, but it is not the same JSON
            out.append([[*path, key], value])
        elif kind is dict:
            _diff_object(was, value, [*path, key], out)
        elif kind is list:
            _diff_list(was, value, [*path, key], out)
        elif was != value:
            out.append([[*path, key], value])
    if kept != len(old):
        out.extend([[*path, key]] for key in old if key not in new)


def _diff_list(old: list[Any], new: list[Any], path: list[Any], out: list[Op]) -> None:
    n, m = len(old), len(new)
    if n == m:
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            if a is b:
                continue
            kind = type(b)
            if kind is not type(a):
                out.append([[*path, i], b])
            elif kind is dict:
                _diff_object(a, b, [*path, i], out)
            elif kind is list:
                _diff_list(a, b, [*path, i], out)
            elif a != b:
                out.append([[*path, i], b])
    elif m > n and _same(new[:n], old):
        out.extend([[*path, i], new[i]] for i in range(n, m))
    elif m < n and _same(old[:m], new):
        out.append([[*path, m]])
    else:
        out.append([path, new])


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON: ``==`` holds ``[True] == [1]`` and ``{"n": 1} == {"n": 1.0}``; marshal's
    bytes (version 0) tell those apart (and members in another order)."""
    return bool(a == b) and (type(a) not in _TREES or marshal.dumps(a, 0) == marshal.dumps(b, 0))
