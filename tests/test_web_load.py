"""A short load on loopback (``benches/web_load.py``: 20 simulated browsers in 5 rooms of
Three-Thirteen for 3 s): no errors and moves acknowledged. The round-trip latencies are printed,
never asserted (the goal, p99 <= 50 ms at 200 clients, is a benchmark figure)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

BENCH = Path(__file__).resolve().parents[1] / "benches" / "web_load.py"


def test_short_load_has_no_errors(capsys: pytest.CaptureFixture[str]) -> None:
    # in this process (the server runs in its own): the browser fixture leaves no loop running
    load = runpy.run_path(str(BENCH))["load"]
    r = load(clients=20, rooms=5, seconds=3.0)
    with capsys.disabled():
        print(
            f"\nweb load 20 clients / 5 rooms / 3 s: {r['moves']} moves, median "
            f"{r['median_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, {len(r['errors'])} errors"
        )
    assert r["errors"] == []
    assert r["moves"] > 0
