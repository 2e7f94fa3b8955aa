"""A smoke run of the self-play example (``examples/selfplay_three_thirteen.py``); the full run
and its figures are in ``docs/rl.md``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLE = Path(__file__).parent.parent / "examples" / "selfplay_three_thirteen.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("selfplay_three_thirteen", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_selfplay_example_smoke(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    example = _load()
    weights = tmp_path / "w.npz"
    args = ["--updates", "2", "--batch", "1024", "--envs", "16", "--eval-every", "1"]
    curve = example.main([*args, "--eval-games", "4", "--save", str(weights)])
    assert [row[0] for row in curve] == [0, 1, 2]
    assert all(row[1] >= 1024 * row[0] for row in curve)  # decisions behind each update
    for *_, rate, lo, hi in curve:
        assert 0.0 <= lo <= rate <= hi <= 1.0
    assert "win rate vs random" in capsys.readouterr().out
    saved = example.np.load(weights)
    assert saved["w"].shape == (54, 401)
    # the run is a function of its arguments
    again = example.main([*args, "--eval-games", "4"])
    assert again == curve


LEARNER = EXAMPLE.parent / "learn_three_thirteen.py"


def test_learner_example_smoke(tmp_path: Path) -> None:
    """The learner against greedy: one generation of a tiny search, its weights saved, and the
    shipped weights playing through ``cardcore sim`` as its docstring says."""
    spec = importlib.util.spec_from_file_location("learn_three_thirteen", LEARNER)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    out = tmp_path / "w.json"
    args = ["--generations", "1", "--population", "1", "--games", "2", "--save", str(out)]
    curve = module.main(args)
    assert len(curve) == 1
    assert len(module.json.loads(out.read_text())["weights"]) == 6
    assert len(module.agent().w) == 6
    import subprocess

    root = LEARNER.parent.parent
    cmd = [sys.executable, "-m", "cardcore", "sim", "three-thirteen", "-n", "2", "--players"]
    cmd += ["2", "--paired", "--seed", "1", "-q", "-o", str(tmp_path / "d.jsonl"), "--agents"]
    cmd += ["examples.learn_three_thirteen:agent,greedy"]
    done = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
