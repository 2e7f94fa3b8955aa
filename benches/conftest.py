"""Shared benchmark helpers: printing figure tables past pytest's output capture."""

from __future__ import annotations

from collections.abc import Callable

import pytest


@pytest.fixture(scope="session")
def show_lines(request: pytest.FixtureRequest) -> Callable[[list[str]], None]:
    """A function that writes lines to the terminal even while output is captured."""
    plugins = request.config.pluginmanager

    def show(lines: list[str]) -> None:
        reporter = plugins.get_plugin("terminalreporter")
        capman = plugins.get_plugin("capturemanager")
        if reporter is None or capman is None:  # pragma: no cover - e.g. -p no:terminal
            print("\n".join(lines))
            return
        with capman.global_and_fixture_disabled():
            reporter.write_line("")
            for line in lines:
                reporter.write_line(line)

    return show
