"""Shared pytest setup: the toy game used by the runner tests is importable as ``toy_game``;
the ``browser`` fixture gives the end-to-end tests a headless Chromium."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# A suite started in the background of a non-interactive shell inherits SIGINT ignored, and the
# processes it starts would ignore Ctrl-C too; the interrupt tests need Python's own handler
# here (children then start with the default action and install theirs).
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless system Chromium driven by Playwright (see ``tests/browser.py``); the test is
    skipped, with the reason, when Playwright or Chromium is not installed.

    Module scope on purpose: Playwright's sync API keeps its asyncio loop marked as running in
    this thread for as long as it is open, so a longer-lived browser would make ``asyncio.run``
    (Textual's test pilot, the web load client) fail in whatever test module runs next."""
    from browser import launch

    try:
        with launch() as b:
            yield b
    except RuntimeError as e:
        pytest.skip(f"no browser for the end-to-end tests: {e}")
