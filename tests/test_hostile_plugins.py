"""Hostile inputs and faults, round 2 (issue #31): plugins and `cardcore play` arguments. A
plugin that exits at import is a warning (L28); a bad table reference is dropped, not fatal
(L29); a built-in game's name cannot be taken by a plugin in any import order (L30); `play
--seed` takes every seed a record can hold (L3). Each plugin case runs in a fresh process (the
registry is per process)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardcore.cli import cli

TESTS = Path(__file__).parent

MODULES = {
    "exits7": "import sys\nsys.exit(7)\n",
    "fake_nerts": """
        import dataclasses
        import toy_game
        from cardcore.games.base import register_game
        SPEC = register_game(dataclasses.replace(toy_game.SPEC, name="nerts", title="Fake"))
        """,
    "badweb": """
        import dataclasses
        import toy_game
        from cardcore.games.base import register_game
        SPEC = register_game(
            dataclasses.replace(
                toy_game.SPEC,
                name="badweb",
                web_table="no_such_module_anywhere:table",
                play_app="not a reference",
            )
        )
        """,
    "brokenweb_table": "raise ImportError('the table needs a library that is not installed')\n",
    "brokenweb": """
        import dataclasses
        import toy_game
        from cardcore.games.base import register_game
        SPEC = register_game(
            dataclasses.replace(toy_game.SPEC, name="brokenweb", web_table="brokenweb_table:table")
        )
        """,
}


@pytest.fixture
def plugins(tmp_path: Path) -> Path:
    for name, text in MODULES.items():
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(text))
    return tmp_path


def run(folder: Path, modules: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "CARDCORE_GAME_MODULES": modules,
        "PYTHONPATH": os.pathsep.join([str(folder), str(TESTS), *sys.path]),
    }
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )


def test_a_plugin_calling_sys_exit_is_a_warning(plugins: Path) -> None:
    """L28: a plugin calling sys.exit(7) made `cardcore games` exit 7 silently."""
    r = run(plugins, "exits7", "-m", "cardcore", "games")
    assert r.returncode == 0, r.stderr
    assert "three-thirteen" in r.stdout
    assert "game module 'exits7' failed to load: it called sys.exit(7)" in r.stderr


@pytest.mark.parametrize("first", ["plugin", "builtin"])
def test_a_plugin_cannot_take_a_built_in_name(plugins: Path, first: str) -> None:
    """L30: a plugin named like a built-in game won or lost depending on import order."""
    script = textwrap.dedent(
        f"""
        from cardcore.games.base import get_game, registered_games
        if {first!r} == "plugin":
            import fake_nerts
        get_game("nerts")
        registered_games()  # loads CARDCORE_GAME_MODULES (fake_nerts) if not yet imported
        spec = get_game("nerts")
        print(spec.title, spec.play.__module__)
        """
    )
    r = run(plugins, "fake_nerts", "-c", script)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[-1] == "cardcore.nerts.spec"
    assert "Fake" not in r.stdout
    assert "registers a game named 'nerts', a built-in game's name; ignored" in r.stderr


def test_a_bad_table_reference_is_dropped_not_fatal(plugins: Path) -> None:
    """L29: one plugin with a bad web_table stopped `cardcore serve` from starting."""
    pytest.importorskip("starlette")
    script = textwrap.dedent(
        """
        from cardcore.games.base import get_game
        from cardcore.web.games import catalog
        spec = get_game("badweb")
        print(spec.web_table, spec.play_app, sorted(g["name"] for g in catalog()["games"]))
        """
    )
    r = run(plugins, "badweb", "-c", script)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("None None [")
    assert "'nerts'" in r.stdout
    assert "web_table 'no_such_module_anywhere:table' is not module:name" in r.stderr
    assert "play_app 'not a reference' is not module:name" in r.stderr


def test_a_table_module_that_fails_to_import_is_dropped_not_fatal(plugins: Path) -> None:
    """L29: a plugin's web table whose module exists but fails at import stopped `cardcore
    serve` (web/games._register_tables); now it is a warning and the other games are served."""
    pytest.importorskip("starlette")
    script = textwrap.dedent(
        """
        from cardcore.web.games import catalog
        names = sorted(g["name"] for g in catalog()["games"])
        catalog()  # warned once, not retried
        print(names)
        """
    )
    r = run(plugins, "brokenweb", "-W", "always", "-c", script)
    assert r.returncode == 0, r.stderr
    assert "'nerts'" in r.stdout
    assert "brokenweb" not in r.stdout
    assert r.stderr.count("the web table of 'brokenweb'") == 1, r.stderr


def test_play_takes_every_record_seed() -> None:
    """L3: `play --seed` stopped at 2**63-1 while records carry seeds up to 2**64-1."""
    r = CliRunner().invoke(cli, ["play", "nerts", "--seed", str(2**64 - 1)])
    assert "is not in the range" not in r.output
    r = CliRunner().invoke(cli, ["play", "nerts", "--seed", str(2**64)])
    assert r.exit_code == 2
    assert "is not in the range" in r.output
