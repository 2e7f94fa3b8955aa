"""A short load on loopback (``benches/web_load.py``: 20 simulated browsers in 5 rooms of
Three-Thirteen for 3 s): no errors and moves acknowledged. The round-trip latencies are printed,
never asserted (the goal, p99 <= 50 ms at 200 clients, is a benchmark figure)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

BENCH = Path(__file__).resolve().parents[1] / "benches" / "web_load.py"


def test_short_load_has_no_errors(capsys: pytest.CaptureFixture[str]) -> None:
    # a separate process: the load's asyncio loop must not meet the browser tests' loop
    args = ["--clients", "20", "--rooms", "5", "--seconds", "3", "--json"]
    out = subprocess.run(
        [sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    with capsys.disabled():
        print(
            f"\nweb load 20 clients / 5 rooms / 3 s: {r['moves']} moves, median "
            f"{r['median_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, {len(r['errors'])} errors"
        )
    assert r["errors"] == []
    assert r["moves"] > 0
