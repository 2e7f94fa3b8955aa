"""The rules of the built-in games for players, one Markdown page per game.

``cardcore rules GAME`` prints a page in the terminal; :func:`rules_text` returns it. The pages
ship inside the package (``cardcore/rules/<game>.md``) and are what docstrings mean by "the
rules" of a game.
"""

from __future__ import annotations

from importlib import resources
from typing import Final

from cardcore.errors import OptionError
from cardcore.games.base import BUILTIN_GAMES

__all__ = ["RULES_GAMES", "rules_text"]

RULES_GAMES: Final = tuple(
    name for name in BUILTIN_GAMES if resources.files(__name__).joinpath(f"{name}.md").is_file()
)
"""The built-in games with a page here (every one: ``tests/test_rules_pages.py``)."""


def rules_text(game: str) -> str:
    """The Markdown rules page of ``game`` (a built-in game's name, e.g. ``"nerts"``).

    Raises :class:`~cardcore.errors.OptionError` for a game without a page (only the built-in
    games have one).
    """
    if game not in RULES_GAMES:
        raise OptionError(f"no rules page for {game!r}; pages: {', '.join(RULES_GAMES)}")
    return resources.files(__name__).joinpath(f"{game}.md").read_text(encoding="utf-8")
