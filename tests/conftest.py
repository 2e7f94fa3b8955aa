"""Shared pytest setup: the toy game used by the runner tests is importable as ``toy_game``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
