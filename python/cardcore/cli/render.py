"""Terminal rendering for the CLI (rich, on stderr only; imported lazily by commands)."""

from __future__ import annotations

import time
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as RichProgress

__all__ = ["Progress", "stderr"]

stderr = Console(stderr=True)


class Progress:
    """Progress on stderr: a bar (``enabled``), plain lines (``lines``: a start line, then one
    every ``every`` seconds, for a stderr that is not a terminal), or nothing."""

    def __init__(
        self, total: int, enabled: bool, label: str, *, lines: bool = False, every: float = 10.0
    ) -> None:
        self._bar: RichProgress | None = None
        self._label, self._total, self._every = label, total, every
        self._lines = lines and not enabled
        self._done = 0
        self._t0 = self._last = time.perf_counter()
        if enabled:
            self._bar = RichProgress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=stderr,
                transient=True,
            )
            self._task = self._bar.add_task(label, total=total)

    def __enter__(self) -> Progress:
        if self._bar is not None:
            self._bar.start()
        if self._lines:
            self._t0 = self._last = time.perf_counter()
            stderr.print(f"{self._label}: {self._total:,} to play", highlight=False)
        return self

    def __exit__(
        self,
        et: type[BaseException] | None,
        ev: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self, n: int) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, n)
        self._done += n
        now = time.perf_counter()
        if self._lines and now - self._last >= self._every and self._done < self._total:
            self._last = now
            stderr.print(
                f"{self._label}: {self._done:,}/{self._total:,} done, {now - self._t0:,.0f} s",
                highlight=False,
            )
