"""Sending each browser only what changed: the operations that turn one JSON document into
another.

A connection first receives its whole ``state`` message; after that, a ``patch`` message
carries ``ops``, applied in order to the document the client holds:

* ``[path, value]`` sets the member or element at ``path`` to ``value`` (an index equal to the
  list's length appends);
* ``[path]`` removes the member at ``path``, or cuts a list at that index.

A path is a list of object keys and list indexes from the document's root, never empty.
:func:`diff` writes the operations; :func:`apply` (and ``applyOps`` in the page's ``app.js``)
carries them out.
"""

from __future__ import annotations

import marshal
from typing import Any

from cardcore.errors import StateFormatError

__all__ = ["Memo", "Mirror", "apply", "diff"]

Op = list[Any]
_TREES = (dict, list)
_MISSING: Any = object()


Memo = dict[tuple[int, int], tuple[Any, Any, list[Any], list[Op]]]
"""Operations already written for a pair of objects: ``(id(old), id(new)) -> (old, new, path,
ops)`` (the objects are kept so that their ids stay theirs while the memo lives)."""


def diff(old: Any, new: Any, memo: Memo | None = None) -> list[Op]:
    """The operations that turn document ``old`` into ``new`` (both JSON objects; empty when
    they are equal). Objects are compared member by member; a list that grew or shrank at its
    end, or whose length stayed, is changed element by element; any other change of a value is
    one ``set``.

    ``memo`` (a dict, empty at first) shares work between the documents of several pages: a
    member that is the same pair of objects at the same path in another pair of documents
    diffed with the same memo (a public pile every seat's view shares) is compared once."""
    out: list[Op] = []
    _diff_object(old, new, [], out, {} if memo is None else memo)
    return out


def _diff_object(
    old: dict[str, Any], new: dict[str, Any], path: list[Any], out: list[Op], memo: Memo
) -> None:
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
        elif kind is dict or kind is list:
            _diff_tree(was, value, [*path, key], out, memo)
        elif was != value:
            out.append([[*path, key], value])
    if kept != len(old):
        out.extend([[*path, key]] for key in old if key not in new)


def _diff_tree(old: Any, new: Any, path: list[Any], out: list[Op], memo: Memo) -> None:
    """Two dicts or two lists, not the same object."""
    hit = memo.get((id(old), id(new)))
    if hit is not None and hit[2] == path:
        out.extend(hit[3])
        return
    start = len(out)
    if old == new and marshal.dumps(old, 0) == marshal.dumps(new, 0):  # see _same
        pass
    elif type(new) is dict:
        _diff_object(old, new, path, out, memo)
    else:
        _diff_list(old, new, path, out, memo)
    memo[id(old), id(new)] = (old, new, path, out[start:])


def _diff_list(old: list[Any], new: list[Any], path: list[Any], out: list[Op], memo: Memo) -> None:
    n, m = len(old), len(new)
    if n == m:
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            if a is b:
                continue
            kind = type(b)
            if kind is not type(a):
                out.append([[*path, i], b])
            elif kind is dict or kind is list:
                _diff_tree(a, b, [*path, i], out, memo)
            elif a != b:
                out.append([[*path, i], b])
    elif m > n and _same(new[:n], old):
        out.extend([[*path, i], new[i]] for i in range(n, m))
    elif m < n and _same(old[:m], new):
        out.append([[*path, m]])
    else:
        out.append([path, new])


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON. ``==`` (in C) holds ``[True] == [1]`` and ``{"n": 1} == {"n": 1.0}``;
    marshal's bytes (version 0: no shared references or interning marks; also C) tell those
    apart. Equal containers that marshal differently (keys in another order) are then compared
    member by member, as a change would be: the result is right, only slower."""
    return bool(a == b) and (type(a) not in _TREES or marshal.dumps(a, 0) == marshal.dumps(b, 0))


def apply(doc: dict[str, Any], ops: list[Op]) -> None:
    """Carries out ``ops`` on ``doc`` in place (what the page does with a ``patch``)."""
    for op in ops:
        *parents, last = op[0]
        target: Any = doc
        for key in parents:
            target = target[key]
        if len(op) == 2:
            if type(target) is list and last == len(target):
                target.append(op[1])
            else:
                target[last] = op[1]
        elif type(target) is list:
            del target[last:]
        else:
            del target[last]


class Mirror:
    """A client's copy of its ``state``: feed it every message; :attr:`state` is the document
    as the server last described it (``None`` before the first ``state``)."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None

    def feed(self, msg: dict[str, Any]) -> bool:
        """Takes one server message; True when it was a ``state`` or ``patch`` (``state``
        is then up to date; the message's ``ack``, if any, stays in the message)."""
        kind = msg.get("type")
        if kind == "state":
            self.state = {k: v for k, v in msg.items() if k != "ack"}
            return True
        if kind == "patch":
            if self.state is None:
                raise StateFormatError("a patch arrived before the first state")
            apply(self.state, msg["ops"])
            return True
        return False
