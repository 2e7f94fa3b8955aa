"""The players' rules pages shipped in the package (``cardcore rules GAME``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardcore
from cardcore.cli import cli
from cardcore.errors import OptionError
from cardcore.games.base import get_game
from cardcore.rules import RULES_GAMES, rules_text

SECTIONS = ("## Setup", "## Variants", "## Worked examples")


@pytest.mark.parametrize("game", RULES_GAMES)
def test_every_page_has_its_sections_and_every_option(game: str) -> None:
    text = rules_text(game)
    assert text.startswith("# ")
    for heading in SECTIONS:
        assert heading in text, heading
    # every variant is named with the option that selects it
    named = set(re.findall(r"^\| `(\w+)` \|", text, flags=re.MULTILINE))
    assert named == {o.name for o in get_game(game).options}


def test_only_built_in_games_have_a_page() -> None:
    with pytest.raises(OptionError, match="no rules page"):
        rules_text("chess")


def test_rules_command_renders_and_prints_the_source() -> None:
    result = CliRunner().invoke(cli, ["rules", "spite-malice"], prog_name="cardcore")
    assert result.exit_code == 0, result.output
    assert "Spite & Malice" in result.output
    assert "# " not in result.output.splitlines()[0]  # rendered, not the source
    raw = CliRunner().invoke(cli, ["rules", "nerts", "--markdown"], prog_name="cardcore")
    assert raw.exit_code == 0
    assert raw.output == rules_text("nerts")


def test_rules_command_rejects_an_unknown_game() -> None:
    result = CliRunner().invoke(cli, ["rules", "chess"], prog_name="cardcore")
    assert result.exit_code == 2
    assert "chess" in result.output


def test_the_tables_help_names_the_rules_page() -> None:
    pytest.importorskip("textual")
    from importlib import import_module

    for game in RULES_GAMES:
        module, cls = str(get_game(game).play_app).split(":")
        assert game == getattr(import_module(module), cls).RULES
    web = (Path(cardcore.__file__).parent / "web" / "static" / "app.js").read_text()
    assert "cardcore rules ${name}" in web


def test_games_command_names_the_rules_page() -> None:
    result = CliRunner().invoke(cli, ["games", "nerts"], prog_name="cardcore")
    assert result.exit_code == 0
    assert "rules: cardcore rules nerts" in result.output
