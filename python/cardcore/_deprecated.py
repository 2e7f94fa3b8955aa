"""Old public names kept for one version: reading one warns (``DeprecationWarning``)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["deprecated_names"]


def deprecated_names(module: str, names: Mapping[str, tuple[str, Any]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` serving ``{old name: (new name, object)}`` with a warning."""

    def __getattr__(name: str) -> Any:
        if name in names:
            new, obj = names[name]
            warnings.warn(
                f"{module}.{name} is deprecated and will be removed: use {new}",
                DeprecationWarning,
                stacklevel=2,
            )
            return obj
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__
