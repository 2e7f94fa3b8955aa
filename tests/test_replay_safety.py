"""Replays from strangers (issue #12, defects 1, 7 and 8): verifying one never imports code it
names, every field is checked before anything runs, and `cardcore replay` reports each bad
line in one line and goes on with the next."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardcore.cli import cli
from cardcore.errors import IllegalMoveError, ReplayMismatchError, RunError
from cardcore.games.base import GameRequest, get_game, register_agent
from cardcore.sim import simulate

CANARY = """
import pathlib
pathlib.Path({marker!r}).write_text("imported")


class Agent:
    def act(self, observation, legal, rng):
        return legal[0]
"""


def replay_of(game: str, agents: tuple[str, ...], seed: int = 3, **kw: Any) -> dict[str, Any]:
    spec = get_game(game)
    req = GameRequest(
        index=0,
        seed=seed,
        players=len(agents),
        agents=agents,
        options=spec.resolve_options(kw),
        replay=True,
    )
    rec: dict[str, Any] = json.loads(json.dumps(spec.play(req)))
    return rec["replay"]  # type: ignore[no-any-return]


@pytest.fixture
def canary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A module `canary_agent` on the import path whose import writes a marker file."""
    marker = tmp_path / "imported.txt"
    (tmp_path / "canary_agent.py").write_text(CANARY.format(marker=str(marker)))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield marker
    sys.modules.pop("canary_agent", None)


@pytest.mark.parametrize("game", ["three-thirteen", "spite-malice"])
def test_turn_based_replays_never_import_named_agents(game: str, canary: Path) -> None:
    """Defect 1: the verifier imported and called every agent a replay named."""
    rep = replay_of(game, ("greedy", "greedy"))
    for name in ("canary_agent:Agent", "os:abort", "http.server:test"):
        evil = {**rep, "agents": [name, "greedy"]}
        note = get_game(game).verify_replay(evil)
        assert note is not None
        assert "rules only" in note
        assert name in note
    assert not canary.exists()
    assert "canary_agent" not in sys.modules


def test_nerts_replays_with_unknown_agents_are_rejected_before_anything_runs(
    canary: Path,
) -> None:
    """Defect 1: for Nerts the import happened before any other check."""
    rep = replay_of("nerts", ("greedy", "greedy"))
    for name in ("canary_agent:Agent", "os:abort"):
        with pytest.raises(ReplayMismatchError, match="not a built-in or registered"):
            get_game("nerts").verify_replay({**rep, "agents": [name, "greedy"]})
    assert not canary.exists()


def test_registered_agents_are_re_run(canary: Path) -> None:
    from canary_agent import Agent  # type: ignore[import-not-found]  # the test itself chooses to import it

    register_agent("canary", Agent)
    rep = replay_of("three-thirteen", ("canary", "greedy"))
    assert get_game("three-thirteen").verify_replay(rep) is None  # re-run, no note
    rep["rounds"][0]["moves"][0][1] = -1 if rep["rounds"][0]["moves"][0][1] == -2 else -2
    with pytest.raises(ReplayMismatchError):
        get_game("three-thirteen").verify_replay(rep)


def test_cli_trust_agent_and_the_current_folder(
    tmp_path: Path, canary: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--agents mybots:X` works from the folder holding mybots; replays re-run such an
    agent only with --trust-agent."""
    monkeypatch.chdir(tmp_path)
    env = {**os.environ, "PYTHONPATH": ""}
    base = [sys.executable, "-m", "cardcore"]
    sim = [*base, "sim", "three-thirteen", "-n", "2", "--seed", "1", "-q", "--players", "2"]
    run = subprocess.run(
        [*sim, "--agents", "canary_agent:Agent,greedy", "--replays", "r.jsonl"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    canary.unlink()
    run = subprocess.run(
        [*base, "replay", "r.jsonl"], capture_output=True, text=True, env=env, timeout=300
    )
    assert run.returncode == 0, run.stderr
    assert "rules only: agent 'canary_agent:Agent' is not registered" in run.stdout
    assert not canary.exists()
    run = subprocess.run(
        [*base, "replay", "r.jsonl", "--trust-agent", "canary_agent:Agent"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "rules only" not in run.stdout
    assert canary.exists()


def _mutants(rep: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for key, value in [
        ("players", 4.7),
        ("players", "2"),
        ("players", True),
        ("players", 9),
        ("options", []),
        ("options", {"x": [1]}),
        ("seed", "1"),
        ("seed", -1),
        ("seed", 2**64),
        ("format", "evil"),
        ("version", 99),
        ("version", True),
        ("agents", "greedy"),
        ("agents", [1, 2]),
        ("rng", "other-rng"),
        ("cardcore_version", 1),
    ]:
        yield f"{key}={value!r}", {**rep, key: value}
    for key in ("format", "version", "seed", "players", "options", "agents", "game"):
        yield f"no {key}", {k: v for k, v in rep.items() if k != key}


@pytest.mark.parametrize(
    ("game", "agents"),
    [
        ("three-thirteen", ("greedy", "random")),
        ("spite-malice", ("greedy", "random")),
        ("nerts", ("greedy", "random")),
    ],
)
def test_strict_replay_layout(game: str, agents: tuple[str, str]) -> None:
    """Defect 8: `"players": 4.7`, `"options": []`, a string seed, `"format": "evil"` or no
    format at all were accepted."""
    rep = replay_of(game, agents)
    spec = get_game(game)
    spec.verify_replay(rep)
    accepted = []
    for what, bad in _mutants(rep):
        try:
            spec.verify_replay(bad)
        except ReplayMismatchError:
            continue
        accepted.append(what)
    assert accepted == []


def test_game_specific_fields_are_typed() -> None:
    tt = replay_of("three-thirteen", ("greedy", "random"))
    sm = replay_of("spite-malice", ("greedy", "random"))
    nr = replay_of("nerts", ("greedy", "random"))
    cases: list[tuple[str, dict[str, Any], list[Any], Any]] = [
        ("three-thirteen", tt, ["rounds", 0, "moves", 0], ["0", -1]),
        ("three-thirteen", tt, ["rounds", 0, "moves", 0], [0, True]),
        ("three-thirteen", tt, ["rounds", 0, "deck"], "1 2 3"),
        ("three-thirteen", tt, ["rounds"], []),
        ("three-thirteen", tt, ["first_dealer"], 7),
        ("spite-malice", sm, ["moves", 0], [0]),
        ("spite-malice", sm, ["moves", 0, 1], 5),
        ("spite-malice", sm, ["result"], None),
        ("spite-malice", sm, ["options", "num_players"], 3),
        ("nerts", nr, ["events", 0], [0, 0, "flip"]),
        ("nerts", nr, ["events", 0, 3], "maybe"),
        ("nerts", nr, ["decks"], ["7h@0"]),
        ("nerts", nr, ["decks", 0], "Zz@0"),
        ("nerts", nr, ["inputs"], [[0, 5, 0, "flip"]]),
        ("nerts", nr, ["kind"], "evil"),
        ("nerts", nr, ["duration_ms"], -5),
    ]
    for game, rep, path, value in cases:
        bad = copy.deepcopy(rep)
        target: Any = bad
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        with pytest.raises(ReplayMismatchError):
            get_game(game).verify_replay(bad)


def test_a_short_nerts_replay_cannot_make_the_verifier_play_long() -> None:
    """Defect 9: a 260-byte Nerts line took 25 s to reject: the whole round was re-run
    before the recorded events were compared. Now the first differing event stops it."""
    calls = []

    class Counting:
        def act(self, observation: Any, legal: Sequence[Any], rng: Any) -> Any:
            calls.append(1)
            return legal[rng.below(len(legal))]

    register_agent("counting", Counting)
    rep = replay_of("nerts", ("counting", "counting"), seed=5)
    calls.clear()
    rep.update(agents=["human", "counting"], duration_ms=3_600_000, events=[[0, 1, "flip", "ok"]])
    with pytest.raises(ReplayMismatchError, match="event"):
        get_game("nerts").verify_replay(rep)
    assert len(calls) < 20  # a full hour of play is thousands of decisions


@pytest.mark.parametrize("bad", [12345, "N>F", 1.5])
def test_nerts_agents_must_return_a_legal_action(bad: Any) -> None:
    """Defect 6: a Nerts agent returning 12345 or a string was logged as a failed move."""

    class Broken:
        def act(self, observation: Any, legal: Sequence[Any], rng: Any) -> Any:
            return bad

    with pytest.raises(IllegalMoveError, match="not one of its legal actions"):
        list(simulate("nerts", games=1, seed=1, agents=[Broken, "greedy"]))


def test_agent_errors_name_the_game() -> None:
    class Raises:
        def act(self, observation: Any, legal: Sequence[Any], rng: Any) -> Any:
            raise ZeroDivisionError("oops")

    with pytest.raises(RunError, match=r"game 0 \(seed .*ZeroDivisionError: oops"):
        list(simulate("three-thirteen", games=1, seed=1, players=2, agents=[Raises, "greedy"]))


def _file(tmp_path: Path, lines: list[bytes]) -> Path:
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_cli_reports_each_bad_line_and_checks_the_rest(tmp_path: Path) -> None:
    """Defect 7: `[]`, `42`, `null`, deep nesting or invalid UTF-8 aborted the whole file
    with a traceback."""
    good = json.dumps(replay_of("spite-malice", ("greedy", "random"))).encode()
    bad = [
        b"[]",
        b"42",
        b"null",
        b"[" * 100_000 + b"]" * 100_000,
        b'{"game": "spite-malice", "x": "\xff\xfe"}',
        b"{not json",
        b'{"game": "no-such-game"}',
        b'{"game": 5}',
        json.dumps({**json.loads(good), "agents": ["os:abort", "greedy"]}).encode(),
    ]
    path = _file(tmp_path, [*bad, good])
    r = CliRunner().invoke(cli, ["replay", str(path)])
    assert r.exit_code == 1
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert "Traceback" not in r.output
    assert "2 verified, 8 failed" in r.output
    assert f"{path}:10: ok" in r.output
    assert "rules only: agent 'os:abort'" in r.output


def test_cli_on_a_records_file_says_so_once(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    args = ["sim", "spite-malice", "-n", "5", "--seed", "1", "--agents", "greedy", "-q"]
    assert CliRunner().invoke(cli, [*args, "-o", str(out)]).exit_code == 0
    r = CliRunner().invoke(cli, ["replay", str(out)])
    assert r.exit_code == 1
    assert r.output.count("game records, not replays") == 1
    assert "format None" not in r.output


def test_cli_sim_errors_are_one_line(tmp_path: Path) -> None:
    for agents, msg in [
        (":", "cannot import agent"),
        ("os:getcwd", "has no act"),
        ("os:abort_nothing", "cannot import"),
        ("json:JSONDecodeError", "factory raised"),
    ]:
        r = CliRunner().invoke(cli, ["sim", "three-thirteen", "-n", "1", "--agents", agents])
        assert r.exit_code == 2, r.output
        assert msg in r.output
        assert r.exception is None or isinstance(r.exception, SystemExit)
