"""Three-Thirteen states built for a test: a played state with some fields changed, checked by
the rulebook like a state document."""

from __future__ import annotations

from typing import Any

from cardcore import _core
from cardcore.three_thirteen.state import State, native_rules


def with_parts(st: State, **changes: Any) -> State:
    """A copy of ``st`` with ``changes`` to its fields (the names of ``State.parts()``)."""
    parts = st.parts()
    parts.update(changes)
    inner = _core.tt_from_parts(native_rules(st.options), parts)
    return State._wrap(st.options, inner, st._game)
