"""Reports on result files and runs: win / tie / loss rates with 95% intervals, score spread,
paired differences over repeated deals, Bradley–Terry ratings, and an HTML page with plots.

>>> from cardcore.report import load, build_report     # doctest: +SKIP
>>> report = build_report(load(["games.parquet"]))     # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from cardcore.errors import OptionError
from cardcore.report.analysis import analyse
from cardcore.report.read import Groups, load, results_for
from cardcore.report.results import Results
from cardcore.report.stats import wilson

__all__ = ["REPORT_FORMAT", "Groups", "Results", "build_report", "load", "results_for", "wilson"]

REPORT_FORMAT = "cardcore-report"


def _title(game: str) -> str:
    from cardcore.games.base import get_game

    try:
        return get_game(game).title
    except OptionError:
        return game


def build_report(
    groups: Iterable[Results], extra: Mapping[str, Any] | None = None, *, ties: str = "half"
) -> dict[str, Any]:
    """The JSON-ready report of every group (``extra`` keys go into each group, e.g. the
    run time of a simulation; ``ties``: how the rating table counts a shared first place,
    ``"half"`` a win each or ``"skip"`` left out)."""
    return {
        "format": REPORT_FORMAT,
        "version": 1,
        "groups": [{**analyse(g, _title(g.game), ties), **(extra or {})} for g in groups],
    }
