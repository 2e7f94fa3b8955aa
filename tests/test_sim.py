"""The game-neutral runner and `cardcore sim` / `cardcore replay`, on the toy game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardcore
import toy_game  # noqa: F401  (registers the toy game)
from cardcore.cli import cli
from cardcore.errors import OptionError
from cardcore.report import build_report
from cardcore.report.results import Results
from cardcore.sim import plan_run, simulate
from cardcore.sim.outputs import partial_path, plan_path, plan_record

TOY_ENV = {"CARDCORE_GAME_MODULES": "toy_game"}


def records(**kw: object) -> list[dict[str, object]]:
    return list(simulate("toy", seed=kw.pop("seed", 5), **kw))  # type: ignore[arg-type]


def test_same_seed_same_records_any_jobs_and_chunks() -> None:
    base = records(games=40, players=3, agents="random")
    assert [r["index"] for r in base] == list(range(40))
    assert records(games=40, players=3, agents="random", chunk_size=7) == base
    assert records(games=40, players=3, agents="random", jobs=2, chunk_size=3) == base
    assert records(games=40, players=3, agents="random", seed=6) != base


def test_game_seeds_are_derived_per_index() -> None:
    recs = records(games=3)
    assert [r["seed"] for r in recs] == [cardcore.derive_seed(5, i, "game") for i in range(3)]
    assert all(r["run_seed"] == 5 for r in recs)


def test_rotate_seats_moves_agents() -> None:
    recs = records(games=3, players=3, agents="high,random,random", rotate_seats=True)
    assert [r["agents"] for r in recs] == [
        ["high", "random", "random"],
        ["random", "high", "random"],
        ["random", "random", "high"],
    ]


def test_user_agents_in_process_and_by_name_in_workers() -> None:
    class Low:
        def act(self, observation: object, legal: list[int], rng: object) -> int:
            return min(legal)

    low = records(games=8, agents=[Low, "high"])
    high = records(games=8, agents="high")
    assert low[0]["agents"][0].endswith("Low")  # type: ignore[index]
    for a, b in zip(low, high, strict=True):
        assert a["scores"][0] < b["scores"][0]  # type: ignore[index]
        assert a["scores"][1] == b["scores"][1]  # type: ignore[index]
    by_name = records(games=6, agents="toy_game:RandomBid", jobs=2, chunk_size=2)
    assert all(r["agents"] == ["toy_game:RandomBid"] * 2 for r in by_name)
    assert [r["scores"] for r in by_name] == [
        r["scores"] for r in records(games=6, agents="random")
    ]


@pytest.mark.parametrize(
    ("kw", "msg"),
    [
        ({"players": 9}, "players"),
        ({"agents": "nobody"}, "no agent"),
        ({"agents": "high,high,high"}, "agents given"),
        ({"options": {"cards": 3}}, "minimum"),
        ({"options": {"colour": 1}}, "no option"),
        ({"agents": "no.such.module:X"}, "cannot import"),
    ],
)
def test_bad_requests_raise_option_error(kw: dict[str, object], msg: str) -> None:
    with pytest.raises(OptionError, match=msg):
        plan_run("toy", games=1, seed=1, **kw)  # type: ignore[arg-type]


def test_run_summary_counts_ties_and_shared_first_places() -> None:
    s = Results("toy", 2)
    s.add({"scores": [1, 2], "winner": 1, "agents": ["a", "b"]})
    s.add({"scores": [3, 3], "winner": None, "agents": ["a", "b"]})
    s.add({"scores": [3, 3], "winner": [0, 1], "agents": ["a", "b"]})
    (d,) = build_report([s])["groups"]
    assert d["ties"] == 2
    assert (d["seats"][1]["wins"], d["seats"][1]["ties"], d["seats"][1]["losses"]) == (1, 2, 0)
    assert d["agents"][0]["score"]["mean"] == pytest.approx(7 / 3)


def invoke(args: list[str]) -> tuple[int, str]:
    r = CliRunner().invoke(cli, args, env=TOY_ENV)
    return r.exit_code, r.output


def test_cli_output_identical_across_jobs(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    code, _ = invoke(["sim", "toy", "-n", "30", "--seed", "9", "-o", str(a), "-q"])
    assert code == 0
    code, _ = invoke(["sim", "toy", "-n", "30", "--seed", "9", "-o", str(b), "-q", "-j", "2"])
    assert code == 0
    assert a.read_bytes() == b.read_bytes()
    lines = a.read_text().splitlines()
    assert len(lines) == 30
    assert json.loads(lines[0])["game"] == "toy"


def test_cli_csv_and_summary_json(tmp_path: Path) -> None:
    out, summ = tmp_path / "g.csv", tmp_path / "s.json"
    code, _ = invoke(
        ["sim", "toy", "-n", "10", "--seed", "1", "-o", str(out), "--summary-json", str(summ)]
    )
    assert code == 0
    rows = out.read_text().splitlines()
    assert rows[0].startswith("game,index,seed,run_seed,players,agents,scores,winner")
    assert len(rows) == 11
    (group,) = json.loads(summ.read_text())["groups"]
    assert group["records"] == 10
    assert group["seconds"] > 0


def test_cli_resume_gives_same_bytes(tmp_path: Path) -> None:
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    invoke(["sim", "toy", "-n", "25", "--seed", "3", "-o", str(full), "-q"])
    data = full.read_bytes()
    cut = data.index(b"\n", len(data) // 2) + 10  # 1 whole half + part of a line
    part.write_bytes(data[:cut])
    plan = plan_record(plan_run("toy", games=25, seed=3), "jsonl")
    Path(plan_path(str(part))).write_text(json.dumps(plan))
    code, out = invoke(["sim", "toy", "-n", "25", "--seed", "3", "-o", str(part), "--resume", "-q"])
    assert code == 0, out
    assert part.read_bytes() == data
    assert not Path(plan_path(str(part))).exists()
    part.write_bytes(data[:cut])
    Path(plan_path(str(part))).write_text(json.dumps(plan))
    code, out = invoke(["sim", "toy", "-n", "25", "--seed", "4", "-o", str(part), "--resume"])
    assert code == 2
    assert "seed 3 then, 4 now" in out


def test_cli_replays_verify_and_detect_tampering(tmp_path: Path) -> None:
    reps = tmp_path / "r.jsonl"
    code, _ = invoke(["sim", "toy", "-n", "5", "--seed", "2", "--replays", str(reps), "-q"])
    assert code == 0
    code, out = invoke(["replay", str(reps)])
    assert code == 0, out
    lines = reps.read_text().splitlines()
    rec = json.loads(lines[2])
    rec["result"][0] += 1
    lines[2] = json.dumps(rec)
    reps.write_text("\n".join(lines) + "\n")
    code, out = invoke(["replay", str(reps)])
    assert code == 1
    assert "MISMATCH" in out


@pytest.mark.parametrize(
    "args",
    [
        ["sim", "nosuchgame"],
        ["sim", "toy", "--option", "cards=2"],
        ["sim", "toy", "--option", "cards"],
        ["sim", "toy", "--agents", "zzz"],
        ["sim", "toy", "--players", "1"],
        ["sim", "toy", "-n", "-3"],
        ["sim", "toy", "--format", "xml"],
        ["sim", "toy", "--resume", "-o", "x.jsonl"],
    ],
)
def test_cli_bad_flags_are_usage_errors(args: list[str]) -> None:
    code, out = invoke(args)
    assert code == 2, out
    assert "Traceback" not in out


def test_ctrl_c_keeps_whole_records_and_exits_130(tmp_path: Path) -> None:
    out = tmp_path / "big.jsonl"
    env = {**os.environ, **TOY_ENV, "PYTHONPATH": str(Path(__file__).parent)}
    cmd = [
        sys.executable,
        "-m",
        "cardcore",
        "sim",
        "toy",
        "-n",
        "2000000",
        "--seed",
        "1",
        "-o",
        str(out),
        "-q",
        "--chunk-size",
        "50",
    ]
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    part = Path(partial_path(str(out)))  # where the records go until the run ends
    while (not part.exists() or part.stat().st_size < 20000) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    data = out.read_bytes()
    assert data.endswith(b"\n")
    n = data.count(b"\n")
    assert 0 < n < 2000000
    assert json.loads(data.splitlines()[-1])["index"] == n - 1
    assert not part.exists()


def test_cli_is_not_silent_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    out_file = str(tmp_path / "a.jsonl")
    code, out = invoke(["sim", "toy", "-n", "20", "--seed", "1", "-o", out_file])
    assert code == 0
    assert "toy: 20 to play" in out  # a start line instead of the bar
    code, out = invoke(["sim", "toy", "-n", "20", "--seed", "1", "-o", out_file, "-q", "--force"])
    assert code == 0
    assert "to play" not in out


def test_progress_lines_report_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    from cardcore.cli.render import Progress

    with Progress(total=3, enabled=False, label="toy", lines=True, every=0.0) as bar:
        bar.advance(1)
        bar.advance(2)
    err = capsys.readouterr().err
    assert "toy: 3 to play" in err
    assert "toy: 1/3 done" in err
    assert "3/3" not in err  # the summary reports the end


def test_paired_runs_deal_each_seed_once_per_rotation() -> None:
    records = list(
        simulate("toy", games=9, seed=4, players=3, agents="high,random,high", paired=True)
    )
    seeds = [r["seed"] for r in records]
    assert seeds[0] == seeds[1] == seeds[2] != seeds[3]
    assert [r["agents"] for r in records[:3]] == [
        ["high", "random", "high"],
        ["high", "high", "random"],
        ["random", "high", "high"],
    ]
    assert [r["seed"] for r in simulate("toy", games=3, seed=4, players=3)] == seeds[::3]
