"""The exception hierarchy, and that bad input to the Rust extension never crashes (a panic
would surface as ``pyo3_runtime.PanicException``, a ``BaseException``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardcore
from cardcore import _core, errors
from cardcore.errors import (
    ArgumentRangeError,
    ArgumentTypeError,
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
    for value_error in (CardParseError, IllegalMoveError, OptionError, StateFormatError):
        assert issubclass(value_error, ValueError)
    assert issubclass(UnsupportedVersionError, StateFormatError)
    assert not issubclass(ReplayMismatchError, ValueError)
    assert issubclass(CardcoreError, Exception)
    assert not issubclass(CardcoreError, ValueError)


def test_exports() -> None:
    assert set(errors.__all__) == {
        "ArgumentRangeError",
        "ArgumentTypeError",
        "CardcoreError",
        "CardParseError",
        "ConcurrentUseError",
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


def _bad_low_level_calls() -> list[tuple[str, Callable[[], object], type[Exception]]]:
    """Bad arguments to the low-level functions, with the built-in each raised before it
    raised a ``cardcore.errors`` class (which still subclasses that built-in)."""
    from cardcore.cards import Card, make_deck, parse_cards
    from cardcore.rng import Rng, deck_order, derive_seed, shuffle_batch

    calls: list[tuple[str, Callable[[], object], type[Exception]]] = [
        ("Rng(-1)", lambda: Rng(-1), ValueError),
        ("Rng('1')", lambda: Rng("1"), TypeError),  # type: ignore[arg-type]
        ("Rng(1).below(-1)", lambda: Rng(1).below(-1), OverflowError),
        ("Rng(1).below(0)", lambda: Rng(1).below(0), ValueError),
        ("Rng(1).below(2**64)", lambda: Rng(1).below(2**64), OverflowError),
        ("Rng(1).below('x')", lambda: Rng(1).below("x"), TypeError),  # type: ignore[arg-type]
        ("Rng(1).permutation(-1)", lambda: Rng(1).permutation(-1), OverflowError),
        ("Rng(1).lognormal('a', 1)", lambda: Rng(1).lognormal("a", 1), TypeError),  # type: ignore[arg-type]
        ("Rng.from_state([1])", lambda: Rng.from_state([1]), ValueError),
        ("Rng.for_stream(1, 0, 5)", lambda: Rng.for_stream(1, 0, 5), TypeError),  # type: ignore[arg-type]
        ("derive_seed(-1, 0, 'g')", lambda: derive_seed(-1, 0, "g"), ValueError),
        ("derive_seed(1, 0, 5)", lambda: derive_seed(1, 0, 5), TypeError),  # type: ignore[arg-type]
        ("shuffle_batch(count=0)", lambda: shuffle_batch(seed=1, count=0), ValueError),
        ("shuffle_batch(count='a')", lambda: shuffle_batch(seed=1, count="a"), TypeError),  # type: ignore[arg-type]
        ("shuffle_batch('a')", lambda: shuffle_batch("a", seed=1, count=1), TypeError),  # type: ignore[arg-type]
        ("shuffle_batch(2000)", lambda: shuffle_batch(2000, seed=1, count=1), ValueError),
        ("deck_order(1.5)", lambda: deck_order(1.5, seed=1), TypeError),  # type: ignore[arg-type]
        ("deck_order(index=2**64)", lambda: deck_order(seed=1, index=2**64), ValueError),
        ("parse_cards(5)", lambda: parse_cards(5), TypeError),  # type: ignore[arg-type]
        ("parse_cards(None)", lambda: parse_cards(None), TypeError),  # type: ignore[arg-type]
        ("Card('a')", lambda: Card("a"), TypeError),  # type: ignore[arg-type]
        ("Card.of(1.5, 1)", lambda: Card.of(1.5, 1), TypeError),  # type: ignore[arg-type]
        ("Card.of(2**70, 1)", lambda: Card.of(2**70, 1), ValueError),
        ("Card.joker('a')", lambda: Card.joker("a"), TypeError),  # type: ignore[arg-type]
        ("Card.parse(5)", lambda: Card.parse(5), TypeError),  # type: ignore[arg-type]
        ("Card(1).id(2**70)", lambda: Card(1).id(2**70), OverflowError),
        ("make_deck('a')", lambda: make_deck("a"), TypeError),  # type: ignore[arg-type]
        ("make_deck(1.5)", lambda: make_deck(1.5), TypeError),  # type: ignore[arg-type]
        ("make_deck(10**6)", lambda: make_deck(10**6), ValueError),
    ]
    return calls


@pytest.mark.parametrize(("text", "call", "builtin"), _bad_low_level_calls())
def test_low_level_functions_raise_typed_errors(
    text: str, call: Callable[[], object], builtin: type[Exception]
) -> None:
    """Each bad call raises a ``cardcore.errors`` class with a one-line message naming the
    argument, and is still caught by the built-in it raised before."""
    with pytest.raises(CardcoreError) as err:
        call()
    assert isinstance(err.value, builtin), text
    assert isinstance(err.value, OptionError | CardParseError), text
    if isinstance(err.value, TypeError):
        assert isinstance(err.value, ArgumentTypeError), text
    if isinstance(err.value, OverflowError):
        assert isinstance(err.value, ArgumentRangeError), text
    message = str(err.value)
    assert "\n" not in message
    assert (
        "must be" in message
        or "need" in message
        or "no card" in message
        or "holds at most" in message
    ), text


def test_bindings_map_errors_in_one_place() -> None:
    """Only ``rust/cardcore-py/src/errors.rs`` chooses exception classes: no other binding
    file raises a built-in ValueError/TypeError/OverflowError or builds any exception itself
    (``X::new_err``); they use its constructors and ``py_err``."""
    from pathlib import Path

    roots = [p for p in Path(__file__).resolve().parents if (p / "rust" / "cardcore-py").is_dir()]
    if not roots:
        pytest.skip("no Rust sources above the tests")
    src = roots[0] / "rust" / "cardcore-py" / "src"
    for path in sorted(src.glob("*.rs")):
        if path.name != "errors.rs":
            for bare in ("PyValueError", "PyTypeError", "PyOverflowError", "PyRuntimeError"):
                assert bare not in path.read_text(), f"{path.name} raises {bare}"
            assert "::new_err(" not in path.read_text(), f"{path.name} builds an exception"


def test_package_raises_no_bare_builtin_errors() -> None:
    """Every error the package raises on purpose is a ``cardcore.errors`` class (the ones that
    were a bare ``ValueError`` subclass it, so ``except ValueError`` still catches them); the
    one ``raise ValueError`` left is caught on the next lines (``OptionSpec.parse``)."""
    import re
    from pathlib import Path

    pkg = Path(cardcore.__file__).parent
    bare = re.compile(r"raise (ValueError|TypeError|KeyError|RuntimeError|OverflowError)\b")
    found = [
        f"{path.relative_to(pkg)}:{n}"
        for path in sorted(pkg.rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if bare.search(line)
    ]
    assert found == ["games/base.py:90"], found


def test_positions_records_and_patches_raise_typed_errors() -> None:
    from cardcore.games.records import replay_start
    from cardcore.nerts import Options as NertsOptions
    from cardcore.nerts import Round as NertsRound
    from cardcore.report.results import numbers, seats
    from cardcore.three_thirteen.rules import Options as TTOptions
    from cardcore.three_thirteen.rules import State as TTState
    from cardcore.web.patch import Mirror

    with pytest.raises(StateFormatError, match="one deck per player"):
        NertsRound(NertsOptions(), 1, [None, None], decks=[list(range(52))])
    with pytest.raises(StateFormatError, match="not a permutation"):
        TTState(TTOptions(num_players=2), 1, stacked_decks={1: [0, 0, 1]})
    with pytest.raises(StateFormatError, match="winner must be seats"):
        seats([5], 2, "winner")
    with pytest.raises(StateFormatError, match="scores must be numbers"):
        numbers([float("nan")], "scores")
    with pytest.raises(StateFormatError, match="before the first state"):
        Mirror().feed({"type": "patch", "ops": []})
    with pytest.raises(OptionError, match="lacks"):
        replay_start("toy", 1, 2, ["a", "b"], {}, order=("format",))


def test_rng_below_names_its_argument() -> None:
    from cardcore.rng import Rng

    with pytest.raises(
        ArgumentRangeError, match=r"^bound must be an int in 1\.\.2\*\*64-1, got -1$"
    ):
        Rng(1).below(-1)


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
