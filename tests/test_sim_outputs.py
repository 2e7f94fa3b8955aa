"""`cardcore sim` output safety: files checked before the run, never silently replaced, records
and replays kept in step, `--resume` only for the same run plan (issue #12, defects 2-4)."""

from __future__ import annotations

import errno
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import toy_game  # noqa: F401  (registers the toy game)
from cardcore.cli import cli
from cardcore.sim import outputs, writers
from cardcore.sim.outputs import deferred_interrupt, partial_path, plan_path
from cardcore.sim.runner import plan_run

TOY_ENV = {"CARDCORE_GAME_MODULES": "toy_game"}
OLD = b'{"old": "precious"}\n'


def sim(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli, ["sim", "toy", "--seed", "3", "-q", *args], env=TOY_ENV)
    return r.exit_code, r.output


def full_run(tmp_path: Path, *args: str, n: int = 40) -> tuple[bytes, bytes]:
    """Records and replays of an uninterrupted run."""
    rec, rep = tmp_path / "full.jsonl", tmp_path / "full-replays.jsonl"
    code, out = sim("-n", str(n), "-o", str(rec), "--replays", str(rep), *args)
    assert code == 0, out
    data = rec.read_bytes(), rep.read_bytes()
    rec.unlink()
    rep.unlink()
    return data


def interrupt_after(monkeypatch: pytest.MonkeyPatch, chunks: int) -> None:
    """Makes the next `cardcore sim` get Ctrl-C after ``chunks`` chunks."""
    from cardcore.cli import sim as sim_module

    real = sim_module.run_plan  # type: ignore[attr-defined]

    def stopping(*a: Any, **kw: Any) -> Iterator[list[dict[str, Any]]]:
        for k, records in enumerate(real(*a, **kw)):
            if k == chunks:
                raise KeyboardInterrupt
            yield records

    monkeypatch.setattr(sim_module, "run_plan", stopping)


def test_existing_output_needs_force(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    out.write_bytes(OLD)
    code, msg = sim("-n", "3", "-o", str(out))
    assert code == 2
    assert "--force" in msg
    assert out.read_bytes() == OLD
    code, msg = sim("-n", "3", "-o", str(out), "--force")
    assert code == 0, msg
    assert out.read_bytes().count(b"\n") == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl"]


@pytest.mark.parametrize(
    "bad",
    [
        ["--replays", "/nonexistent-dir/r.jsonl"],
        ["--summary-json", "/nonexistent-dir/s.json"],
        ["--option", "cards=99"],
        ["--agents", "high,high,high"],
        ["--address", "127.0.0.1:1"],
    ],
)
def test_a_failing_run_changes_no_output(tmp_path: Path, bad: list[str]) -> None:
    out = tmp_path / "g.jsonl"
    out.write_bytes(OLD)
    code, msg = sim("-n", "3", "-o", str(out), "--force", *bad)
    assert code == 2, msg
    assert "Traceback" not in msg
    assert out.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl"]


def test_cross_option_rules_are_checked_before_the_run(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    out.write_bytes(OLD)
    args = ["three-thirteen", "-n", "1", "--seed", "1", "--players", "2", "-q", "--force"]
    r = CliRunner().invoke(cli, ["sim", *args, "--option", "first_dealer=5", "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert "first_dealer" in r.output
    assert out.read_bytes() == OLD


@pytest.mark.parametrize(
    "pair",
    [
        ("-o", "x", "--replays", "x"),
        ("--summary-json", "x", "-o", "x"),
        ("-o", "x", "--replays", "./sub/../x"),
        ("--replays", "x", "--summary-json", "x"),
        ("-o", "x", "--replays", "x.partial"),
        ("-o", "-", "--replays", "-"),
    ],
)
def test_two_outputs_may_not_be_one_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pair: tuple[str, ...]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    code, msg = sim("-n", "3", *pair)
    assert code == 2, msg
    assert "same file" in msg or "stdout" in msg
    assert not (tmp_path / "x").exists()


def test_hard_links_are_the_same_file(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_bytes(OLD)
    os.link(a, b)
    code, msg = sim("-n", "3", "-o", str(a), "--replays", str(b), "--force")
    assert code == 2
    assert "same file" in msg
    assert a.read_bytes() == OLD


def test_output_into_a_directory_or_missing_folder(tmp_path: Path) -> None:
    code, msg = sim("-n", "1", "-o", str(tmp_path))
    assert code == 2
    assert "directory" in msg
    code, msg = sim("-n", "1", "-o", str(tmp_path / "no" / "g.jsonl"))
    assert code == 2
    assert "does not exist" in msg


def test_ctrl_c_waits_for_the_replays_of_the_records_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Defect 2: Ctrl-C between the records write and the replays write split them."""
    rec, rep = tmp_path / "g.jsonl", tmp_path / "r.jsonl"
    real = writers.JsonlWriter.write
    calls = []

    def write(self: writers.JsonlWriter, records: Any) -> None:
        calls.append(1)
        if len(calls) == 5:  # the records of the third chunk are written: Ctrl-C now
            os.kill(os.getpid(), signal.SIGINT)
        real(self, records)

    monkeypatch.setattr(writers.JsonlWriter, "write", write)
    code, msg = sim("-n", "40", "--chunk-size", "5", "-o", str(rec), "--replays", str(rep))
    assert code == 130, msg
    assert rec.read_bytes().count(b"\n") == rep.read_bytes().count(b"\n") == 15
    assert plan_path(str(rec)) in {str(p) for p in tmp_path.iterdir()}


def test_resume_repairs_records_and_replays_out_of_step(tmp_path: Path) -> None:
    """Defect 2: 250 records and 125 replays resumed to 2,000 records and 1,875 replays."""
    full_rec, full_rep = full_run(tmp_path)
    rec, rep = tmp_path / "g.jsonl", tmp_path / "r.jsonl"
    args = ["-n", "40", "-o", str(rec), "--replays", str(rep), "--chunk-size", "4"]
    for n_rec, n_rep in ((20, 10), (7, 12), (0, 5), (12, 12)):
        rec.write_bytes(b"".join(full_rec.splitlines(keepends=True)[:n_rec]) + b'{"gam')
        rep.write_bytes(b"".join(full_rep.splitlines(keepends=True)[:n_rep]))
        write_plan(rec)
        code, msg = sim(*args, "--resume")
        assert code == 0, msg
        assert rec.read_bytes() == full_rec
        assert rep.read_bytes() == full_rep
        assert not Path(plan_path(str(rec))).exists()


def write_plan(rec: Path) -> None:
    """The plan file of `sim toy --seed 3 -n 40 -o REC --replays R`."""
    plan = plan_run("toy", games=40, seed=3, replay=True)
    Path(plan_path(str(rec))).write_text(json.dumps(outputs.plan_record(plan, "jsonl")))


def test_killed_run_resumes_from_its_partial_files(tmp_path: Path) -> None:
    full_rec, full_rep = full_run(tmp_path)
    rec, rep = tmp_path / "g.jsonl", tmp_path / "r.jsonl"
    Path(partial_path(str(rec))).write_bytes(full_rec[:-30])
    Path(partial_path(str(rep))).write_bytes(full_rep[:-7])
    write_plan(rec)
    args = ["-n", "40", "-o", str(rec), "--replays", str(rep)]
    code, msg = sim(*args)
    assert code == 2
    assert ".partial" in msg
    code, msg = sim(*args, "--resume")
    assert code == 0, msg
    assert rec.read_bytes() == full_rec
    assert rep.read_bytes() == full_rep
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl", "r.jsonl"]


@pytest.mark.parametrize(
    "other",
    [
        ["--agents", "random"],
        ["--players", "3"],
        ["--option", "cards=30"],
        ["--rotate-seats"],
        ["--match"],
        ["--format", "csv"],
        ["--seed", "4"],
    ],
)
def test_resume_with_another_plan_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, other: list[str]
) -> None:
    """Defect 4: resuming with other agents, players or options appended them and exited 0."""
    rec = tmp_path / "g.jsonl"
    interrupt_after(monkeypatch, 2)
    code, msg = sim("-n", "40", "--chunk-size", "5", "-o", str(rec))
    assert code == 130, msg
    monkeypatch.undo()
    before = rec.read_bytes()
    assert before.count(b"\n") == 10
    code, msg = sim("-n", "40", "--chunk-size", "5", "-o", str(rec), "--resume", *other)
    assert code == 2, msg
    assert "then," in msg
    assert rec.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl", "g.jsonl.plan.json"]


def test_resume_needs_the_replays_the_run_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rec, rep = tmp_path / "g.jsonl", tmp_path / "r.jsonl"
    interrupt_after(monkeypatch, 2)
    args = ["-n", "40", "--chunk-size", "5", "-o", str(rec)]
    assert sim(*args, "--replays", str(rep))[0] == 130
    monkeypatch.undo()
    code, msg = sim(*args, "--resume")
    assert code == 2
    assert "replays True then, False now" in msg
    code, msg = sim(*args, "--resume", "--replays", str(rep))
    assert code == 0, msg
    full_rec, full_rep = full_run(tmp_path, "--chunk-size", "5")
    assert (rec.read_bytes(), rep.read_bytes()) == (full_rec, full_rep)


def test_resume_of_a_finished_run_says_so(tmp_path: Path) -> None:
    rec = tmp_path / "g.csv"
    assert sim("-n", "12", "-o", str(rec))[0] == 0
    before = rec.read_bytes()
    r = CliRunner().invoke(
        cli, ["sim", "toy", "--seed", "3", "-n", "12", "-o", str(rec), "--resume"], env=TOY_ENV
    )
    assert r.exit_code == 0, r.output
    assert "Nothing to do" in r.output
    assert "seat 0" not in r.output  # no all-zero table
    assert rec.read_bytes() == before
    code, msg = sim("-n", "20", "-o", str(rec), "--resume")
    assert code == 2
    assert "no run plan" in msg


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
@pytest.mark.parametrize(
    ("other", "shown"),
    [
        (["--agents", "random"], "agents high;high, this command gives random;random"),
        (["--players", "3"], "players 2, this command gives 3"),
        (
            ["--rotate-seats", "--agents", "high,random"],
            "agents high;high, this command gives random;high",
        ),
    ],
)
def test_resume_of_a_finished_run_checks_it_is_this_run(
    tmp_path: Path, fmt: str, other: list[str], shown: str
) -> None:
    """A finished run keeps no plan file; `--resume` with other agents or players said
    "Nothing to do: ... already holds the records of this run" (exit 0)."""
    rec = tmp_path / f"g.{fmt}"
    assert sim("-n", "12", "-o", str(rec))[0] == 0
    before = rec.read_bytes()
    code, msg = sim("-n", "12", "-o", str(rec), "--resume", *other)
    assert code == 2, msg
    assert f"holds another run: its record 11 has {shown}" in " ".join(msg.split())
    assert rec.read_bytes() == before


def test_resume_without_an_output_file_starts_the_run(tmp_path: Path) -> None:
    rec = tmp_path / "g.jsonl"
    assert sim("-n", "5", "-o", str(rec), "--resume")[0] == 0
    assert rec.read_bytes().count(b"\n") == 5


def test_full_disk_keeps_whole_records_in_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rec, rep = tmp_path / "g.jsonl", tmp_path / "r.jsonl"
    real = writers.JsonlWriter.write
    calls = []

    def write(self: writers.JsonlWriter, records: Any) -> None:
        calls.append(1)
        if len(calls) == 6:  # half of the third chunk's replays, then the disk is full
            self.stream.write('{"half":')
            self.stream.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(self, records)

    monkeypatch.setattr(writers.JsonlWriter, "write", write)
    code, msg = sim("-n", "40", "--chunk-size", "5", "-o", str(rec), "--replays", str(rep))
    assert code == 1
    assert "No space left on device" in msg
    assert "Traceback" not in msg
    assert rec.read_bytes().count(b"\n") == rep.read_bytes().count(b"\n") == 10
    assert rep.read_bytes().endswith(b"\n")


def test_deferred_interrupt_delivers_ctrl_c_after_the_block() -> None:
    done = []

    def block() -> None:
        with deferred_interrupt():
            os.kill(os.getpid(), signal.SIGINT)
            done.append(1)

    with pytest.raises(KeyboardInterrupt):
        block()
    assert done == [1]


def test_without_output_the_summary_says_records_were_not_saved() -> None:
    r = CliRunner().invoke(cli, ["sim", "toy", "--seed", "3", "-n", "5"], env=TOY_ENV)
    assert r.exit_code == 0
    assert "not saved" in r.output
