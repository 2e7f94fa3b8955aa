"""CONTRIBUTING.md's "Adding a fourth game" checklist, walked end to end with the toy game of
``tests/toy_game.py`` (registered the way an outside game is, through
``CARDCORE_GAME_MODULES``): every command that step 7 promises works on it unchanged."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cardcore import simulate
from cardcore.cli import cli
from cardcore.games.base import GameRequest
from cardcore.games.records import REPLAY_HEAD_ORDER
from cardcore.games.schema import HEAD

ENV = {"CARDCORE_GAME_MODULES": "toy_game"}


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli, list(args), env=ENV)
    return r.exit_code, r.output


def test_the_toy_game_goes_through_every_step(tmp_path: Path) -> None:
    # 1, 7: registered with its options; `cardcore games` shows them
    code, out = run("games", "toy")
    assert code == 0, out
    assert "cards=20" in out
    # 2, 3: deals and agents on their streams, so any --jobs gives the same bytes
    files = {}
    for jobs in ("1", "2"):
        rec, rep = tmp_path / f"r{jobs}.jsonl", tmp_path / f"p{jobs}.jsonl"
        code, out = run("sim", "toy", "-n", "12", "--seed", "3", "--agents", "high,random",
                        "-j", jobs, "-q", "-o", str(rec), "--replays", str(rep))  # fmt: skip
        assert code == 0, out
        files[jobs] = (rec.read_bytes(), rep.read_bytes())
    assert files["1"] == files["2"]
    # 4: records start with the record head, replays with the replay head
    record = json.loads(files["1"][0].splitlines()[0])
    head = GameRequest(0, 0, 2, ("high", "random")).record_head("toy")
    assert list(record)[: len(head)] == list(head) == list(HEAD)
    replay = json.loads(files["1"][1].splitlines()[0])
    assert list(replay)[:9] == [k for k in REPLAY_HEAD_ORDER if k != "kind"]
    # 5: `cardcore replay` verifies the replays and catches a changed one
    code, out = run("replay", str(tmp_path / "p1.jsonl"))
    assert code == 0, out
    replay["result"][0] += 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(replay) + "\n")
    code, out = run("replay", str(bad))
    assert code == 1
    # 6: matches
    code, out = run("sim", "toy", "-n", "2", "--seed", "3", "--match", "-q", "-o", "-")
    assert code == 0, out
    assert all("games" in json.loads(line) for line in out.splitlines())
    # 7: `cardcore report` and the library entry point take it too
    code, out = run("report", str(tmp_path / "r1.jsonl"), "--format", "json")
    assert code == 0, out
    assert "toy" in out
    import toy_game  # noqa: F401  (in this process too, as the CLI loaded it)

    assert len(list(simulate("toy", games=3, seed=3))) == 3
