"""`cardcore play`: the command line around the Textual tables."""

from __future__ import annotations

import datetime as dt
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardcore.cli import cli
from cardcore.games.base import get_game
from cardcore.games.levels import LEVELS
from cardcore.play.common import PlayConfig, agent_for_level, daily_seed, default_replay_path
from cardcore.rng import derive_seed


def test_missing_textual_gives_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def fake(name: str, *a: object, **k: object) -> object:
        return None if name == "textual" else real(name, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib.util, "find_spec", fake)
    res = CliRunner().invoke(cli, ["play", "three-thirteen"])
    assert res.exit_code == 1
    assert "pip install 'cardcore[play]'" in res.output
    assert "Traceback" not in res.output


def test_help_does_not_import_textual() -> None:
    code = (
        "import sys\n"
        "from cardcore.cli import cli\n"
        "try:\n"
        "    cli.main(['--help'], standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "assert 'textual' not in sys.modules, 'textual imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_usage_errors() -> None:
    runner = CliRunner()
    res = runner.invoke(cli, ["play", "spite-malice", "--players", "6"])
    assert res.exit_code == 2
    assert "2-4 players" in res.output
    res = runner.invoke(cli, ["play", "nerts", "--jokers", "2"])
    assert res.exit_code == 2
    res = runner.invoke(cli, ["play", "three-thirteen", "--seed", "1", "--daily"])
    assert res.exit_code == 2


def test_the_registry_names_the_tables() -> None:
    """Games come from the registry (a game without a table is refused, naming the ones with
    one); game options, and the older --jokers / --speed shortcuts, are checked by the game."""
    import toy_game  # noqa: F401  (registers a game without a table)

    runner = CliRunner()
    res = runner.invoke(cli, ["play", "toy"])
    assert res.exit_code == 2
    assert "no table for 'toy'" in res.output
    assert "nerts, spite-malice, three-thirteen" in res.output
    bad = [
        ("three-thirteen", ["--jokers", "3"]),
        ("nerts", ["--option", "speed=warp"]),
        ("nerts", ["--speed", "warp"]),
        ("nerts", ["--jokers", "2"]),
    ]
    for game, args in bad:
        res = runner.invoke(cli, ["play", game, *args])
        assert res.exit_code == 2, args
        assert "Traceback" not in res.output
    for game, args in (("three-thirteen", ["--jokers", "2"]), ("nerts", ["--speed", "chill"])):
        res = runner.invoke(cli, ["play", game, *args])  # accepted; CliRunner is no terminal
        assert res.exit_code == 2
        assert "needs an interactive terminal" in res.output, res.output


def test_ai_levels_and_daily_seed(tmp_path: Path) -> None:
    ladders = {
        "three-thirteen": ("random", "greedy", "normal", "hard", "expert"),
        "spite-malice": ("random", "greedy", "normal", "planner", "expert"),
        "nerts": ("random", "greedy", "greedy", "hard", "expert"),
    }
    for game, agents in ladders.items():
        spec = get_game(game)
        assert tuple(agent_for_level(spec, lv) for lv in LEVELS) == agents
    with pytest.raises(ValueError, match="AI level"):
        agent_for_level(get_game("nerts"), "godlike")
    day = dt.date(2026, 11, 29)
    assert daily_seed(day) == derive_seed(20261129, 0, "daily")
    assert daily_seed(day) != daily_seed(day + dt.timedelta(days=1))
    assert PlayConfig("nerts", 2, daily=True).resolved_seed() == daily_seed()
    assert PlayConfig("nerts", 2, seed=12).resolved_seed() == 12
    p = default_replay_path("nerts", dt.datetime(2026, 1, 2, 3, 4, 5))
    assert p.parts[-3:] == (".cardcore", "replays", "nerts-20260102T030405.jsonl")
