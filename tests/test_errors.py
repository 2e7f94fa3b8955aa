"""The exception hierarchy, and that bad input to the Rust extension never crashes (a panic
would surface as ``pyo3_runtime.PanicException``, a ``BaseException``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardcore
from cardcore import _core, errors
from cardcore.errors import (
    CardcoreError,
    CardParseError,
    IllegalMoveError,
    OptionError,
    ReplayMismatchError,
    StateFormatError,
    UnsupportedVersionError,
)


def test_hierarchy() -> None:
    for cls in (CardParseError, IllegalMoveError, OptionError, ReplayMismatchError):
        assert issubclass(cls, CardcoreError)
    for cls in (CardParseError, IllegalMoveError, OptionError, StateFormatError):
        assert issubclass(cls, ValueError)
    assert issubclass(UnsupportedVersionError, StateFormatError)
    assert not issubclass(ReplayMismatchError, ValueError)
    assert issubclass(CardcoreError, Exception)
    assert not issubclass(CardcoreError, ValueError)


def test_exports() -> None:
    assert set(errors.__all__) == {
        "CardcoreError",
        "CardParseError",
        "IllegalMoveError",
        "OptionError",
        "ReplayMismatchError",
        "RunError",
        "StateFormatError",
        "UnregisteredAgentError",
        "UnsupportedVersionError",
    }
    for name in errors.__all__:
        assert getattr(cardcore, name) is getattr(errors, name)


def test_catching_by_base_class() -> None:
    with pytest.raises(CardcoreError):
        cardcore.parse_cards("7q")
    with pytest.raises(ValueError, match='"7q"'):
        cardcore.parse_cards("7q")
    with pytest.raises(CardcoreError):
        cardcore.make_deck(0, 0)


def test_errors_carry_messages() -> None:
    err = IllegalMoveError("no such pile")
    assert str(err) == "no such pile"
    assert isinstance(err, ValueError)
    with pytest.raises(ReplayMismatchError, match="round 3"):
        raise ReplayMismatchError("round 3 differs")


def _no_panic(call: object, *args: object) -> None:
    """Call, accepting an ordinary exception, failing on a Rust panic (BaseException)."""
    assert callable(call)
    try:
        call(*args)
    except Exception:
        pass
    except BaseException as e:  # pragma: no cover - the failure being tested for
        pytest.fail(f"{type(e).__name__} escaped from {call!r}{args!r}: {e}")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_parser_never_panics(text: str) -> None:
    _no_panic(_core.parse_cards, text)
    _no_panic(cardcore.parse_cards, text)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["7h", "10", "@", "@1", "X", "JK", "♠", "é", "\x00", "1", "a", ",", " "]),
        max_size=12,
    ).map("".join)
)
def test_parser_never_panics_on_card_like_text(text: str) -> None:
    _no_panic(_core.parse_cards, text)


def test_extension_edge_inputs_never_panic() -> None:
    big = 2**64
    cases: list[tuple[object, ...]] = [
        (_core.format_face, 56),
        (_core.format_face, 255),
        (_core.format_face, 256),
        (_core.format_face, -1),
        (_core.permutations, 0, 1, 0, 1),
        (_core.permutations, 65_536, 1, 0, 1),
        (_core.permutations, 65_537, 1, 0, 1),
        (_core.permutations, 104, 1, big - 1, 2),
        (_core.permutations, 104, 1, big - 1, 1),
        (_core.permutations, 104, 1, 0, 2**62),
        (_core.permutations, 2**62, 1, 0, 1),
        (_core.permutations, -1, 1, 0, 1),
        (_core.permutations, 4, 1, 0, -1),
        (_core.permutations, 4, 1, 0, 0),
        (_core.permutations, 4, 1, 0, 1, "\ud800"),
        (_core.derive_seed, big, 0, "deck"),
        (_core.derive_seed, 0, 0, "\ud800"),
        (_core.Rng, big),
        (_core.Rng.from_state, (0, 0, 0, 0)),
        (_core.Rng.from_state, (1, 2, 3)),
        (_core.Rng.from_state, (1, 2, 3, big)),
        (_core.Rng(1).below, 0),
        (_core.Rng(1).below, -1),
        (_core.Rng(1).below, big - 1),
        (_core.Rng(1).permutation, 0),
        (_core.Rng(1).permutation, 2**40),
        (_core.Rng(1).permutation, -1),
    ]
    for call, *args in cases:
        _no_panic(call, *args)


def test_huge_permutation_is_a_clean_error() -> None:
    with pytest.raises((ValueError, MemoryError)):
        _core.Rng(1).permutation(2**40)
