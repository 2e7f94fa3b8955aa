"""Checks of the built-in agents' constructor options: each returns the value (an ``int`` or a
``float``) or raises :class:`~cardcore.errors.ArgumentTypeError` (wrong type; a ``bool`` is not
a number) or :class:`~cardcore.errors.OptionError` (out of range, NaN) naming the option."""

from __future__ import annotations

import math
from collections.abc import Collection
from numbers import Integral, Real

from cardcore.errors import ArgumentRangeError, ArgumentTypeError, OptionError

__all__ = ["check_bool", "check_choice", "check_int", "check_real"]

U32_MAX = (1 << 32) - 1


def _type_name(value: object) -> str:
    return type(value).__name__


def check_int(name: str, value: object, low: int = 0, high: int = U32_MAX) -> int:
    """``value`` as an ``int`` in ``low..=high``."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ArgumentTypeError(f"{name} must be an int, not {_type_name(value)}")
    n = int(value)
    if not low <= n <= high:
        raise ArgumentRangeError(f"{name} must be an int in {low}..{high}, got {value!r}")
    return n


def check_real(
    name: str, value: object, low: float = 0.0, high: float = math.inf, *, open_low: bool = False
) -> float:
    """``value`` as a finite ``float`` in ``[low, high]`` (``(low, high]`` with ``open_low``)."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ArgumentTypeError(f"{name} must be a number, not {_type_name(value)}")
    x = float(value)
    if not math.isfinite(x) or x < low or x > high or (open_low and x == low):
        bounds = f"{'(' if open_low else '['}{low:g}, {high:g}]"
        raise OptionError(f"{name} must be a finite number in {bounds}, got {value!r}")
    return x


def check_bool(name: str, value: object) -> bool:
    """``value`` if it is a ``bool``."""
    if not isinstance(value, bool):
        raise ArgumentTypeError(f"{name} must be a bool, not {_type_name(value)}")
    return value


def check_choice(name: str, value: object, choices: Collection[str]) -> str:
    """``value`` if it is one of the strings ``choices``."""
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{name} must be a str, not {_type_name(value)}")
    if value not in choices:
        raise OptionError(f"{name} must be one of {sorted(choices)}, got {value!r}")
    return value
