"""The rules facades (``cardcore.<game>.rules`` of the three games) import each name
explicitly; their ``__all__`` must stay the union of their modules' own lists."""

from __future__ import annotations

import importlib
import warnings

import pytest

FACADES: dict[str, tuple[tuple[str, ...], str | None]] = {
    "cardcore.nerts.rules": (
        ("cardcore.nerts.actions", "cardcore.nerts.options"),
        "NertsOptions",
    ),
    "cardcore.spite_malice.rules": (
        (
            "cardcore.spite_malice.moves",
            "cardcore.spite_malice.options",
            "cardcore.spite_malice.state",
        ),
        "SpiteOptions",
    ),
    "cardcore.three_thirteen.rules": (
        (
            "cardcore.three_thirteen.moves",
            "cardcore.three_thirteen.options",
            "cardcore.three_thirteen.state",
        ),
        None,
    ),
}


@pytest.mark.parametrize("facade", sorted(FACADES))
def test_facade_lists_every_public_name_of_its_modules(facade: str) -> None:
    modules, _old = FACADES[facade]
    mod = importlib.import_module(facade)
    parts = [importlib.import_module(m) for m in modules]
    want = sorted(name for part in parts for name in part.__all__)
    assert sorted(mod.__all__) == want
    assert len(set(mod.__all__)) == len(mod.__all__)
    for name in mod.__all__:
        owner = next(p for p in parts if name in p.__all__)
        assert getattr(mod, name) is getattr(owner, name), name


@pytest.mark.parametrize("facade", sorted(f for f in FACADES if FACADES[f][1] is not None))
def test_facade_keeps_its_deprecated_options_name(facade: str) -> None:
    _modules, old = FACADES[facade]
    assert old is not None
    mod = importlib.import_module(facade)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert getattr(mod, old) is mod.Options
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)
