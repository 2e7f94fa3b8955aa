"""The worked example agent (``examples/three_thirteen_agent.py``, ``docs/agents.md``): it plays
legal games through the public API and the command its docstring gives runs from the repository
root. Its strength against ``easy`` is measured in ``docs/agents.md`` (2,000 games), not here."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import cardcore

ROOT = Path(__file__).parent.parent
EXAMPLE = ROOT / "examples" / "three_thirteen_agent.py"


def test_the_example_agent_plays_legal_games() -> None:
    spec = importlib.util.spec_from_file_location("three_thirteen_agent", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    records = list(
        cardcore.simulate(
            "three-thirteen", games=2, players=2, seed=5, agents=[module.LookaheadAgent, "easy"]
        )
    )
    assert len(records) == 2
    assert all(len(r["scores"]) == 2 for r in records)


def test_the_documented_command_runs(tmp_path: Path) -> None:
    out = tmp_path / "duel.jsonl"
    agents = "examples.three_thirteen_agent:LookaheadAgent,easy"
    cmd = [sys.executable, "-m", "cardcore", "sim", "three-thirteen", "-n", "2"]
    cmd += ["--players", "2", "--paired", "--seed", "1", "--agents", agents, "-q", "-o", str(out)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert len(out.read_text().splitlines()) == 2
