"""Small items of issue 30, one test each: what a new user ran into."""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardcore
import cardcore.sim
from cardcore import __version__
from cardcore.cli import cli
from cardcore.games.base import get_game, rules_only_note


def test_help_lists_every_command_on_one_uncut_line() -> None:
    result = CliRunner().invoke(cli, ["--help"], terminal_width=80)
    commands = result.output.split("Commands:")[1].strip().splitlines()
    assert len(commands) == len(cli.commands)
    assert not [line for line in commands if line.rstrip().endswith("...")]


def test_simulate_shows_its_arguments() -> None:
    assert inspect.signature(cardcore.simulate) == inspect.signature(cardcore.sim.simulate)


@pytest.mark.parametrize("module", ["cardcore.rl.gymnasium", "cardcore.rl.pettingzoo"])
def test_the_rl_adapters_name_their_extra(module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gymnasium", None)  # as if not installed
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ModuleNotFoundError, match=r"pip install 'cardcore\[rl\]'"):
        importlib.import_module(module)


def test_a_person_in_a_replay_is_no_agent_to_trust() -> None:
    spec = get_game("three-thirteen")
    note = rules_only_note(spec, {"cardcore_version": __version__, "agents": ["human", "hard"]})
    assert note is not None
    assert "--trust-agent" not in note
    assert "person" in note
    plain = rules_only_note(spec, {"cardcore_version": __version__, "agents": ["bogus"]})
    assert plain is not None
    assert "--trust-agent" not in plain  # --trust-agent takes package.module:callable
    path = rules_only_note(spec, {"cardcore_version": __version__, "agents": ["pkg.mod:F"]})
    assert path is not None
    assert "--trust-agent pkg.mod:F" in path


def test_report_says_when_pooled_runs_never_met(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run = ["sim", "spite-malice", "-n", "4", "--seed", "1", "-q"]
    assert CliRunner().invoke(cli, [*run, "--agents", "easy,hard", "-o", str(a)]).exit_code == 0
    assert CliRunner().invoke(cli, [*run, "--agents", "random,expert", "-o", str(b)]).exit_code == 0
    apart = CliRunner().invoke(cli, ["report", str(a), str(b)])
    assert apart.exit_code == 0
    assert "never met at a table (easy, hard | expert, random)" in apart.stderr
    together = CliRunner().invoke(cli, ["report", str(a)])
    assert "never met" not in together.stderr


def test_the_records_page_reads_parquet_with_the_extra_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("pyarrow")
    page = (Path(__file__).parent.parent / "docs" / "records.md").read_text()
    snippet = page.split("With the `parquet` extra alone")[1].split("```python")[1].split("```")[0]
    imports = {line.split()[1] for line in snippet.splitlines() if line.startswith("import ")}
    assert imports == {"pyarrow.parquet"}
    monkeypatch.chdir(tmp_path)
    run = ["sim", "three-thirteen", "-n", "3", "--seed", "1", "-q", "-o", "games.parquet"]
    assert CliRunner().invoke(cli, run).exit_code == 0
    exec(compile(snippet, "records.md", "exec"), {})


def test_melds_prints_jokers_as_they_were_typed() -> None:
    out = CliRunner().invoke(cli, ["melds", "3h 4h JK 7c 7d 7s Kd 2c", "--wild", "9"]).output
    assert out.strip() == "[7c 7d 7s] [3h 4h JK=5h] | Kd 2c  (deadwood 12)"
    mixed = CliRunner().invoke(cli, ["melds", "Kd X2 JK 3h", "--wild", "9", "--discards"])
    assert "[Kd X2=Kc JK=Kh]" in mixed.output
    assert "discard JK " in mixed.output


def test_meld_helpers_read_an_observations_ids() -> None:
    from cardcore.three_thirteen import best_discards, best_melds

    state = cardcore.load_game("three-thirteen", players=2).new_state(3)
    obs = state.observation(state.current_player)
    cards = [cardcore.Card.from_id(i, obs.num_decks) for i in obs.hand]
    ids = best_melds(obs.hand, obs.wild_rank, decks=obs.num_decks)
    assert str(ids) == str(best_melds(cards, obs.wild_rank))
    assert best_discards(list(obs.hand), obs.wild_rank, decks=obs.num_decks) == best_discards(
        cards, obs.wild_rank
    )
    with pytest.raises(cardcore.CardParseError, match=r"Card\.from_id"):
        best_melds(list(obs.hand), obs.wild_rank)  # ids without decks= are no cards
    with pytest.raises(cardcore.OptionError, match="physical card ids"):
        best_melds("3h 4h 5h", 5, decks=2)


class _ClosedPipe:
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_reader_that_leaves_gets_no_error_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cardcore.cli import main

    monkeypatch.setattr(sys, "argv", ["cardcore", "games"])
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    with pytest.raises(SystemExit) as exit_:
        main()
    assert exit_.value.code == 1
    assert capsys.readouterr().err == ""
