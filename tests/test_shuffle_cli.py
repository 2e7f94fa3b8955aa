"""`cardcore shuffle`, `--version`, `--help` and usage errors, through Click's runner and through
`main()` (the entry point's error handling); one subprocess test of the installed script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardcore
from cardcore.cards import format_cards, make_deck, parse_cards
from cardcore.cli import cli, main
from cardcore.rng import shuffled_deck

# First cards of `cardcore shuffle --decks 2 --seed 42` (golden: see tests/test_rng.py).
GOLDEN_TOP = "Jh 2h As 8d 3c 7c"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), prog_name="cardcore")
    return result.exit_code, result.stdout, result.stderr


def test_shuffle_golden() -> None:
    code, out, _ = run("shuffle", "--decks", "2", "--seed", "42")
    assert code == 0
    assert out.startswith(GOLDEN_TOP + " ")
    assert out == format_cards(shuffled_deck(2, seed=42)) + "\n"


def test_shuffle_with_jokers_is_a_full_deck() -> None:
    code, out, err = run("shuffle", "--decks", "2", "--jokers", "2", "--seed", "42")
    assert code == 0
    assert err == ""
    cards = parse_cards(out)
    assert len(cards) == 106
    assert sorted(c.face for c in cards) == sorted(c.face for c in make_deck(2, 2))
    assert out.split().count("X1") == out.split().count("X2") == 1


def test_shuffle_full_shows_decks_and_round_trips() -> None:
    code, out, _ = run("shuffle", "--decks", "3", "--jokers", "1", "--seed", "7", "--full")
    assert code == 0
    cards = parse_cards(out)
    assert sorted(cards) == make_deck(3, 1)
    assert cards == shuffled_deck(3, 1, seed=7)
    assert "@2" in out
    assert "X1@" not in out


def test_shuffle_index_and_defaults() -> None:
    _, a, _ = run("shuffle", "--seed", "5")
    _, b, _ = run("shuffle", "--seed", "5", "--index", "0", "--decks", "1", "--jokers", "0")
    _, c, _ = run("shuffle", "--seed", "5", "--index", "1")
    assert a == b
    assert a != c
    assert len(a.split()) == 52
    assert c == format_cards(shuffled_deck(1, seed=5, index=1)) + "\n"


def test_shuffle_extreme_seed_and_index() -> None:
    top = str(2**64 - 1)
    code, out, _ = run("shuffle", "--seed", top, "--index", top)
    assert code == 0
    assert out == format_cards(shuffled_deck(1, seed=2**64 - 1, index=2**64 - 1)) + "\n"


def test_shuffle_without_seed_prints_the_seed() -> None:
    code, out, err = run("shuffle")
    assert code == 0
    assert err.startswith("seed: ")
    seed = int(err.split()[1])
    # The printed seed reproduces the deck.
    assert out == format_cards(shuffled_deck(1, seed=seed)) + "\n"


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0
    assert out.startswith("cardcore, version ")
    assert cardcore.__version__ in out


def test_help() -> None:
    code, out, _ = run("--help")
    assert code == 0
    assert "shuffle" in out
    assert "Usage: cardcore" in out
    code, out2, _ = run("-h")
    assert (code, out2) == (0, out)
    code, out, _ = run("shuffle", "--help")
    assert code == 0
    for flag in ("--decks", "--jokers", "--seed", "--index", "--full"):
        assert flag in out


BAD_ARGS = [
    ["shuffle", "--decks", "0"],
    ["shuffle", "--decks", "65"],
    ["shuffle", "--decks", "two"],
    ["shuffle", "--jokers", "5"],
    ["shuffle", "--jokers", "-1"],
    ["shuffle", "--seed", "-1"],
    ["shuffle", "--seed", str(2**64)],
    ["shuffle", "--seed", "1.5"],
    ["shuffle", "--index", "-1"],
    ["shuffle", "--bogus"],
    ["shuffle", "extra"],
    ["shuffle", "--seed"],
    ["no-such-command"],
    ["--no-such-flag"],
]


@pytest.mark.parametrize("args", BAD_ARGS, ids=" ".join)
def test_bad_flags_are_usage_errors(args: list[str]) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert "Error:" in err
    if args != ["shuffle", "--seed"]:  # Click prints no usage line for a missing option value
        assert "Usage:" in err


@pytest.mark.parametrize("args", [BAD_ARGS[0], BAD_ARGS[6], BAD_ARGS[9]], ids=" ".join)
def test_main_maps_usage_errors_to_exit_2(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["cardcore", *args])
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Error:" in captured.err


def test_main_success_and_version(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """On success (and for --version/--help) main() returns: the script then exits 0."""
    monkeypatch.setattr(sys, "argv", ["cardcore", "shuffle", "--decks", "2", "--seed", "42"])
    main()
    assert capsys.readouterr().out.startswith(GOLDEN_TOP)
    monkeypatch.setattr(sys, "argv", ["cardcore", "--version"])
    main()
    assert cardcore.__version__ in capsys.readouterr().out
    monkeypatch.setattr(sys, "argv", ["cardcore", "--help"])
    main()
    assert "shuffle" in capsys.readouterr().out


def test_installed_entry_point_and_python_m() -> None:
    """The `cardcore` script of this environment and `python -m cardcore` give the same bytes
    as the library, and exit 2 on a usage error."""
    script = Path(sys.executable).with_name("cardcore")
    if not script.exists():  # pragma: no cover - e.g. a non-venv layout
        pytest.skip("no cardcore script next to the interpreter")
    expected = format_cards(shuffled_deck(2, 2, seed=42)) + "\n"
    for cmd in ([str(script)], [sys.executable, "-m", "cardcore"]):
        ok = subprocess.run(
            [*cmd, "shuffle", "--decks", "2", "--jokers", "2", "--seed", "42"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert ok.returncode == 0, ok.stderr
        assert ok.stdout == expected
        bad = subprocess.run(
            [*cmd, "shuffle", "--decks", "0"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert bad.returncode == 2
        assert "Error:" in bad.stderr
        assert bad.stdout == ""
