"""The built-in agents' constructor options: a wrong type, NaN, an infinity or a value out of
range raises the typed :class:`OptionError` naming the option (:class:`ArgumentTypeError`, also
a ``TypeError``, for a wrong type), never a raw error from a comparison or from Rust later."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcore import _core
from cardcore.errors import ArgumentTypeError, OptionError
from cardcore.games.levels import Blend
from cardcore.nerts import agents as nerts
from cardcore.spite_malice import agents as sm
from cardcore.three_thirteen import agents as tt

U32 = 2**32

# (agent, option, kind, low, optional): kind "int", "real", "bool", "str", "weights", "racing"
OPTIONS: list[tuple[Callable[..., Any], str, str, float, bool]] = [
    (tt.DealSearchAgent, "rollouts", "int", 0, False),
    (tt.DealSearchAgent, "time_ms", "real>", 0, True),
    (tt.DealSearchAgent, "max_candidates", "int", 1, False),
    (tt.DealSearchAgent, "slack", "int", 0, False),
    (tt.DealSearchAgent, "margin", "real", 0, False),
    (tt.DealSearchAgent, "hard_rollouts", "bool", 0, False),
    (tt.DealSearchAgent, "infer_hands", "bool", 0, False),
    (tt.DealSearchAgent, "search", "str", 0, False),
    (tt.ExpertAgent, "search", "str", 0, False),
    (tt.DealSearchAgent, "risk_weight", "real", 0, False),
    (tt.DealSearchAgent, "infer_epsilon", "real<=1", 0, False),
    (sm.ExpertAgent, "rollouts", "int", 0, False),
    (sm.ExpertAgent, "time_ms", "real>", 0, True),
    (sm.ExpertAgent, "candidates", "int", 1, False),
    (sm.ExpertAgent, "horizon", "int", 0, True),
    (sm.ExpertAgent, "margin", "real", 0, False),
    (sm.ExpertAgent, "win_value", "real", 0, False),
    (sm.ExpertAgent, "node_limit", "int", 1, False),
    (sm.ExpertAgent, "last_turn", "bool", 0, False),
    (sm.PlannerAgent, "weights", "weights", 0, False),
    (sm.PlannerAgent, "node_limit", "int", 1, False),
    (sm.PlannerAgent, "low_stock", "int", 0, False),
    (sm.PlannerAgent, "low_stock_weights", "weights", 0, True),
    (nerts.HardAgent, "samples", "int", 1, False),
    (nerts.HardAgent, "horizon_ms", "int", 1, False),
    (nerts.HardAgent, "margin", "real", 0, False),
    (nerts.HardAgent, "racing", "racing", 0, True),
    (nerts.ExpertAgent, "samples", "int", 1, True),
    (nerts.ExpertAgent, "horizon_ms", "int", 1, True),
    (nerts.ExpertAgent, "margin", "real", 0, True),
    (nerts.ExpertAgent, "racing", "racing", 0, True),
]
IDS = [f"{f.__module__.split('.')[1]}.{f.__name__}.{name}" for f, name, *_ in OPTIONS]


def _wrong_types(kind: str, optional: bool) -> st.SearchStrategy[Any]:
    """Values of a type the option does not take (a bool is not a number)."""
    other: list[st.SearchStrategy[Any]] = [st.lists(st.integers(), max_size=2), st.just(object())]
    if kind in ("weights", "racing"):
        other = [st.integers(), st.floats(), st.booleans(), st.just(object())]
    else:
        other.append(st.text(max_size=3) if kind != "str" else st.integers())
    if not optional:
        other.append(st.none())
    if kind in ("int", "real", "real>", "real<=1", "str"):
        other.append(st.booleans())
    if kind in ("int", "bool", "str"):
        other.append(st.floats())
    if kind == "bool":
        other.append(st.integers(0, 1))
    return st.one_of(other)


def _out_of_range(kind: str, low: float) -> st.SearchStrategy[Any]:
    """Values of the option's type outside its range (or NaN, an infinity)."""
    if kind == "int":
        return st.one_of(st.integers(max_value=int(low) - 1), st.integers(min_value=U32))
    if kind == "str":
        return st.text(max_size=6).filter(lambda s: s not in _core.THREE_THIRTEEN_SEARCHES)
    if kind == "weights":
        return st.one_of(
            st.sampled_from(["", "hardest", "HARD"]),
            st.lists(st.floats(-1, 1), max_size=30).filter(lambda w: len(w) != 24),
            st.lists(st.floats(-1, 1), min_size=24, max_size=24).map(lambda w: [*w[:-1], math.nan]),
        )
    if kind == "racing":
        return st.one_of(
            st.just((8, 8)),
            st.just((8, 8, 2.5, 0.0, 1.0)),
            st.tuples(st.integers(max_value=0), st.just(8), st.just(2.5)),
            st.tuples(st.just(8), st.integers(max_value=0), st.just(2.5)),
            st.tuples(st.just(8), st.just(8), st.floats(max_value=-1e-9)),
            st.tuples(st.just(8), st.just(8), st.just(2.5), st.just(math.nan)),
            st.tuples(st.just(8.0), st.just(8), st.just(2.5)),
        )
    bad = st.one_of(
        st.just(math.nan),
        st.just(math.inf),
        st.floats(max_value=-1e-300, allow_infinity=True),
        st.integers(max_value=-1),
    )
    if kind == "real>":
        bad = st.one_of(bad, st.just(0), st.just(0.0))
    if kind == "real<=1":
        bad = st.one_of(bad, st.floats(min_value=1.0000001, allow_infinity=False))
    return bad


@pytest.mark.parametrize(("agent", "name", "kind", "low", "optional"), OPTIONS, ids=IDS)
@settings(max_examples=25, deadline=None, derandomize=True)
@given(data=st.data())
def test_bad_option_raises_the_typed_error_naming_it(
    data: st.DataObject,
    agent: Callable[..., Any],
    name: str,
    kind: str,
    low: float,
    optional: bool,
) -> None:
    wrong_type = data.draw(st.booleans(), label="wrong type")
    if wrong_type:
        value = data.draw(_wrong_types(kind, optional), label=name)
    else:
        value = data.draw(_out_of_range(kind, low), label=name)
    with pytest.raises(ArgumentTypeError if wrong_type else OptionError, match=name):
        agent(**{name: value})


def test_raw_comparison_error_of_the_review_is_gone() -> None:
    with pytest.raises(ArgumentTypeError, match="infer_epsilon") as e:
        tt.DealSearchAgent(search="infer", infer_epsilon="x")  # type: ignore[arg-type]
    assert isinstance(e.value, TypeError)


def test_numbers_of_other_types_are_taken_as_ints_and_floats() -> None:
    a = tt.DealSearchAgent(
        np.int64(8),  # type: ignore[arg-type]
        margin=2,
        time_ms=np.float32(5),  # type: ignore[arg-type]
        infer_epsilon=np.float64(0.5),
    )
    assert (a.rollouts, a.margin, a.time_ms, a.infer_epsilon) == (8, 2.0, 5.0, 0.5)
    assert type(a.rollouts) is int
    assert type(a.margin) is float
    b = sm.PlannerAgent(list(np.zeros(24)), node_limit=np.uint32(10))  # type: ignore[arg-type]
    assert b.node_limit == 10
    racing: Any = [8, 8, 2.5]  # a list is taken as the tuple
    assert nerts.HardAgent(racing=racing).racing == [8, 8, 2.5]  # type: ignore[comparison-overlap]
    assert nerts.ExpertAgent(samples=None).table == nerts.ExpertAgent().table


def test_blend_share_is_a_probability() -> None:
    for share in (-0.1, 1.5, math.nan):
        with pytest.raises(OptionError, match="share"):
            Blend(tt.HardAgent(), tt.GreedyAgent(), share)
    with pytest.raises(ArgumentTypeError, match="share"):
        Blend(tt.HardAgent(), tt.GreedyAgent(), "1")  # type: ignore[arg-type]
