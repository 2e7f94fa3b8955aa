"""The exception hierarchy. Every error cardcore raises on purpose is a ``CardcoreError``."""

from __future__ import annotations

__all__ = [
    "ArgumentRangeError",
    "ArgumentTypeError",
    "CardParseError",
    "CardcoreError",
    "ConcurrentUseError",
    "IllegalMoveError",
    "OptionError",
    "ReplayMismatchError",
    "RunError",
    "StateFormatError",
    "UnregisteredAgentError",
    "UnsupportedVersionError",
]


class CardcoreError(Exception):
    """Base class of every error raised by cardcore."""


class CardParseError(CardcoreError, ValueError):
    """Card text that cannot be read; the message names the bad token."""


class IllegalMoveError(CardcoreError, ValueError):
    """A move that the rules forbid in the current state; the state is left unchanged."""


class OptionError(CardcoreError, ValueError):
    """An unknown game option or a value outside its allowed range."""


class ArgumentTypeError(OptionError, TypeError):
    """An argument of the wrong type (a ``str`` or ``float`` where an ``int`` belongs). Also a
    ``TypeError``, so code written when the low-level functions (``Rng``, ``derive_seed``,
    ``Card``, ...) raised the built-in keeps working."""


class ArgumentRangeError(OptionError, OverflowError):
    """An ``int`` argument outside its range (a negative seed, ``Rng.below(0)``). Also a
    ``ValueError`` and an ``OverflowError``, the built-ins the low-level functions raised
    before."""


class ReplayMismatchError(CardcoreError):
    """A replay whose re-run does not reproduce the recorded game."""


class StateFormatError(CardcoreError, ValueError):
    """JSON (or a position built in code) that is not a valid state, observation, move or
    record of the game reading it: malformed, inconsistent (cards missing or twice), of another
    format or of another game."""


class UnsupportedVersionError(StateFormatError):
    """JSON written in a format version this cardcore cannot read (a newer one)."""


class UnregisteredAgentError(OptionError):
    """An agent named by a replay that is neither built in nor registered: replays never
    import code, so such an agent is not re-run."""


class RunError(CardcoreError):
    """A game of a run failed with an unexpected error (an agent or a plugin game raised);
    the message names the game, its seed and the error."""


class ConcurrentUseError(CardcoreError, RuntimeError):
    """A game state changed (or copied) by two threads at once. States are not thread-safe:
    give each thread its own (``clone()``) or hold a lock around every use; the call that
    found the state busy raises this and changes nothing."""
