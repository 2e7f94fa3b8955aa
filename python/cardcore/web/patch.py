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

from collections.abc import Sequence
from typing import Any

from cardcore import _core
from cardcore.errors import StateFormatError

__all__ = ["Mirror", "apply", "diff", "diffs"]

Op = list[Any]


def diff(old: dict[str, Any], new: dict[str, Any]) -> list[Op]:
    """The operations that turn document ``old`` into ``new`` (both JSON objects; empty when
    they are equal). Objects are compared member by member; a list that grew or shrank at its
    end, or whose length stayed, is changed element by element; any other change of a value is
    one ``set``. Values are compared as JSON: ``True`` is not ``1``, nor ``1`` ``1.0``."""
    return diffs([(old, new)])[0]


def diffs(pairs: Sequence[tuple[dict[str, Any], dict[str, Any]]]) -> list[list[Op]]:
    """:func:`diff` of each ``(old, new)`` pair (several pages' documents). What the pairs
    share is compared once: a member that is the same pair of objects at the same path in
    another pair (a public pile every seat's view shares). Pairs that need the same
    operations get the same list (write its JSON once).

    Written in Rust (``_core.web_diffs``): it walks the Python objects themselves, skips a
    member that is the same object in both documents at once, and compares equal copies in C
    (``==``, then the JSON types). ``tests/web_patch_reference.py`` is the same algorithm in
    Python, for the tests."""
    return _core.web_diffs(pairs)


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
