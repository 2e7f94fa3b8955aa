"""Every Python example of the README, the docs site and the shipped rules runs as written.

A page's blocks run in order in one namespace (a later block may use what an earlier one
defined), in a folder holding the ``games.parquet`` and ``games.jsonl`` that the pages' shell
examples write. Skeletons meant to be filled in are listed in ``SKELETONS`` with the reason;
any other block that fails, fails here.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from cardcore.cli import cli

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "python" / "cardcore" / "rules").glob("*.md")),
]
BLOCK = re.compile(r"```python\n(.*?)\n```", re.S)
SKELETONS = {
    ("plugins.md", 0): "a plugin's outline: its play() is `...` and its agent is the reader's",
}


def _blocks(page: Path) -> list[str]:
    return BLOCK.findall(page.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def results_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("docs")
    for name in ("games.jsonl", "games.parquet"):
        argv = ["sim", "three-thirteen", "-n", "12", "--players", "3", "--seed", "13"]
        result = CliRunner().invoke(cli, [*argv, "-o", str(folder / name)])
        assert result.exit_code == 0, result.output
    return folder


def test_the_pages_have_examples() -> None:
    assert sum(len(_blocks(p)) for p in PAGES) >= 15
    for name, index in SKELETONS:
        assert len(_blocks(next(p for p in PAGES if p.name == name))) > index


@pytest.mark.parametrize("page", [p for p in PAGES if _blocks(p)], ids=lambda p: p.name)
def test_examples_run(page: Path, results_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(results_folder)
    namespace: dict[str, Any] = {"__name__": f"docs_{page.stem}"}
    for index, code in enumerate(_blocks(page)):
        if (page.name, index) in SKELETONS:
            continue
        exec(compile(code, f"{page.name}[python block {index}]", "exec"), namespace)


SHELL_BLOCK = re.compile(r"```(?:sh|bash|console)\n(.*?)\n```", re.S)


def _shell_commands() -> list[tuple[str, str]]:
    """Every command of the pages' shell blocks, as (page name, command line)."""
    out: list[tuple[str, str]] = []
    for page in PAGES:
        for block in SHELL_BLOCK.findall(page.read_text(encoding="utf-8")):
            for line in block.replace("\\\n", " ").splitlines():
                parts = line.split("#")[0].split("&&")
                out.extend((page.name, part.strip()) for part in parts if part.strip())
    return out


def _parse(argv: list[str]) -> None:
    """Parse ``cardcore ARGV`` down to its subcommand, as Click would, without running it."""
    command: click.Command = cli
    ctx = click.Context(cli, info_name="cardcore")
    while isinstance(command, click.Group):
        sub = command.get_command(ctx, argv[0])
        assert sub is not None, f"no command {argv[0]!r}"
        command, argv = sub, argv[1:]
        ctx = command.make_context(sub.name, list(argv), parent=ctx)


def test_shell_examples_name_real_commands_and_files() -> None:
    """Every ``cardcore`` command the pages show parses (its subcommand and flags exist), and
    every ``python FILE`` they run is a file of the repository."""
    commands = _shell_commands()
    assert sum(c.startswith("cardcore ") for _, c in commands) >= 15
    for page, command in commands:
        words = shlex.split(command)
        if words[0] == "cardcore":
            try:
                _parse(words[1:])
            except click.UsageError as e:
                raise AssertionError(f"{page}: `{command}`: {e.format_message()}") from None
        elif words[0] == "python" and words[1] != "-m":
            assert (ROOT / words[1]).is_file(), f"{page}: `{command}`: no file {words[1]}"
