"""Golden records and replays (``tests/data/replays-v1``), written by `cardcore sim` before the
replay heads were built by one function (``cardcore.games.records.replay_start``): the same
commands must still write them byte for byte, and `cardcore replay` must verify them. A change
of a replay's layout or key order shows here; it needs a new replay ``version`` (with these
files kept and still verified), not new golden files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardcore
from cardcore.cli import cli

GOLDEN = Path(__file__).parent / "data" / "replays-v1"
GOLDEN_VERSION = "0.4.0"
"""The ``cardcore_version`` the golden files were written by (set to the running one before
comparing)."""

RUNS = {
    "nerts-round": "nerts -n 1 --players 2 --seed 5 --agents greedy,random",
    "nerts-match": "nerts -n 1 --players 2 --seed 6 --agents greedy --match "
    "--option target_score=15",
    "tt-game": "three-thirteen -n 1 --players 2 --seed 5 --agents random,greedy",
    "sm-game": "spite-malice -n 1 --players 2 --seed 5 --agents greedy,random",
    "sm-match": "spite-malice -n 1 --players 2 --seed 6 --agents greedy --match "
    "--option target_score=15",
}
"""The `cardcore sim` arguments that wrote each golden pair of files."""


def _golden(name: str, kind: str) -> bytes:
    text = (GOLDEN / f"{name}.{kind}.jsonl").read_text()
    text = re.sub(
        r'"cardcore_version":"' + re.escape(GOLDEN_VERSION) + '"',
        f'"cardcore_version":"{cardcore.__version__}"',
        text,
    )
    return text.encode()


@pytest.mark.parametrize("name", sorted(RUNS))
def test_sim_writes_the_golden_bytes(name: str, tmp_path: Path) -> None:
    records, replays = tmp_path / "records.jsonl", tmp_path / "replays.jsonl"
    args = ["sim", *RUNS[name].split(), "-q", "-o", str(records), "--replays", str(replays)]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    assert records.read_bytes() == _golden(name, "records")
    assert replays.read_bytes() == _golden(name, "replays")


@pytest.mark.parametrize("name", sorted(RUNS))
def test_golden_replays_verify(name: str) -> None:
    r = CliRunner().invoke(cli, ["replay", str(GOLDEN / f"{name}.replays.jsonl")])
    assert r.exit_code == 0, r.output
    assert "0 failed" in r.output
