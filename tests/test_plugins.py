"""Third-party games: a plugin package installed next to cardcore (tests/plugin, pip
installed into a folder put on the path) is found through the ``cardcore.games`` entry point
by the CLI, in worker processes too, and works with Parquet and `cardcore report`."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGIN = Path(__file__).parent / "plugin"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plugin, installed by pip (with its dist-info and entry point) into a new folder."""
    target = tmp_path_factory.mktemp("site")
    # flit_core (in the test extra) builds it offline; without it pip fetches a build backend
    isolation = [] if importlib.util.find_spec("flit_core") is None else ["--no-build-isolation"]
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            *isolation,
            "--target",
            str(target),
            str(PLUGIN),
        ],
        check=True,
        capture_output=True,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    assert list(target.glob("cardcore_dice-*.dist-info/entry_points.txt"))
    return target


def cardcore(site: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CARDCORE_GAME_MODULES"}
    env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "cardcore", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        check=False,
    )


def test_the_installed_plugin_is_discovered(site: Path, tmp_path: Path) -> None:
    r = cardcore(site, "games")
    assert r.returncode == 0, r.stderr
    assert "dice" in r.stdout
    assert "three-thirteen" in r.stdout
    r = cardcore(site, "games", "dice")
    assert "rolls: list<list<int64>>" in r.stdout
    out = tmp_path / "dice.parquet"
    r = cardcore(site, "sim", "dice", "-n", "40", "--seed", "3", "-j", "2", "-o", str(out), "-q")
    assert r.returncode == 0, r.stderr
    r = cardcore(site, "report", str(out), "--format", "json")
    assert r.returncode == 0, r.stderr
    (group,) = json.loads(r.stdout)["groups"]
    assert group["title"] == "Dice duel"
    assert group["records"] == 40
    assert [row["round"] for row in group["rounds"]] == [1, 2]  # the two dice, per agent


def test_without_the_plugin_the_game_is_unknown() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "cardcore", "sim", "dice", "-n", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 2
    assert "unknown game 'dice'" in r.stderr


def test_a_broken_plugin_warns_and_the_rest_still_works(tmp_path: Path) -> None:
    dist = tmp_path / "broken_game-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-game\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[cardcore.games]\nbroken = no_such_module:SPEC\n")
    r = cardcore(tmp_path, "games")
    assert r.returncode == 0, r.stderr
    assert "three-thirteen" in r.stdout
    assert "game plugin 'broken'" in r.stderr
