"""Shared benchmark helpers: printing figure tables past pytest's output capture."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

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


@pytest.fixture
def measure(benchmark: Any) -> Callable[[str, Callable[[], object], int | None], float | None]:
    """``measure(group, fn, units)`` benchmarks ``fn`` in ``group`` and returns units per
    second at the fastest round (None with ``--benchmark-disable``, where ``fn`` runs once as
    a smoke test). ``units`` is the work of one call of ``fn``; None: ``fn`` returns it, and
    it is counted on a first, unmeasured call."""

    def run(group: str, fn: Callable[[], object], units: int | None) -> float | None:
        benchmark.group = group
        if units is None:
            units = operator.index(fn())  # type: ignore[arg-type]
        benchmark(fn)
        stats = getattr(benchmark, "stats", None)
        if stats is None or benchmark.disabled:
            return None
        return units / float(stats.stats.min)

    return run
