"""Agents named on the command line (``package.module:callable``) import from the current
folder too, as ``python -m`` does, so ``--agents mybots.spite:FirstMove`` works next to
``mybots/``. Only names a user typed are imported; replays never import code."""

from __future__ import annotations

import os
import sys

__all__ = ["allow_cwd_imports"]


def allow_cwd_imports() -> None:
    """Puts the current folder first on ``sys.path`` (worker processes inherit it)."""
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)
