"""Hostile inputs and faults, round 2 (issue #31): output files. A failure to write is an
error with nothing half-written in place (H1), one writer at a time (M2), a killed parent ends
its workers (M3), records never share a truncated descriptor (M4), `--resume` keeps only lines
of its run (L1), an empty name is refused (L2), two played games never share a replay (L31)."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import toy_game  # noqa: F401  (registers the toy game)
from cardcore.cli import cli
from cardcore.errors import OptionError
from cardcore.outfiles import OutputBusyError, OutputLock, open_output, write_text
from cardcore.play import common
from cardcore.sim import writers
from cardcore.sim.outputs import partial_path, plan_path

TESTS = Path(__file__).parent
TOY_ENV = {"CARDCORE_GAME_MODULES": "toy_game"}
ENV = {**os.environ, **TOY_ENV, "PYTHONPATH": os.pathsep.join([str(TESTS), *sys.path])}
OLD = b'{"old": "precious"}\n'
FULL = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def sim(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli, ["sim", "toy", "--seed", "3", "-q", *args], env=TOY_ENV)
    return r.exit_code, r.output


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def interrupt_after(monkeypatch: pytest.MonkeyPatch, chunks: int) -> None:
    from cardcore.cli import sim as sim_module

    real = sim_module.run_plan  # type: ignore[attr-defined]

    def stopping(*a: Any, **kw: Any) -> Iterator[list[dict[str, Any]]]:
        for k, records in enumerate(real(*a, **kw)):
            if k == chunks:
                raise KeyboardInterrupt
            yield records

    monkeypatch.setattr(sim_module, "run_plan", stopping)


# --- H1: a failure to write fails the run, nothing half-written in place -------------------


def test_parquet_whose_footer_cannot_be_written_fails_and_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """H1: a full disk at close() (the footer) exited 0 with a file without a footer."""
    pytest.importorskip("pyarrow")
    real = writers.ParquetWriter.close

    def close(self: writers.ParquetWriter) -> None:
        real(self)
        raise FULL

    monkeypatch.setattr(writers.ParquetWriter, "close", close)
    out = tmp_path / "a.parquet"
    out.write_bytes(OLD)
    code, msg = sim("-n", "30", "-o", str(out), "--force")
    assert code == 1, msg
    assert "No space left on device" in msg
    assert "Traceback" not in msg
    assert out.read_bytes() == OLD
    assert names(tmp_path) == ["a.parquet"]


def test_parquet_whose_row_group_cannot_be_written_fails_and_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("pyarrow")
    real = writers.ParquetWriter.write
    calls: list[int] = []

    def write(self: writers.ParquetWriter, records: Any) -> None:
        calls.append(1)
        if len(calls) == 3:
            raise FULL
        real(self, records)

    monkeypatch.setattr(writers.ParquetWriter, "write", write)
    out = tmp_path / "a.parquet"
    code, msg = sim(
        "-n", "40", "--chunk-size", "5", "-o", str(out), "--replays", str(tmp_path / "r.jsonl")
    )
    assert code == 1, msg
    assert "No space left on device" in msg
    assert not out.exists()
    assert not Path(partial_path(str(out))).exists()
    assert not Path(plan_path(str(out))).exists()


def test_jsonl_that_cannot_be_closed_stays_partial_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    full = tmp_path / "full.jsonl"
    assert sim("-n", "20", "-o", str(full))[0] == 0
    real = writers.JsonlWriter.close

    def close(self: writers.JsonlWriter) -> None:
        real(self)
        raise FULL

    monkeypatch.setattr(writers.JsonlWriter, "close", close)
    out = tmp_path / "g.jsonl"
    out.write_bytes(OLD)
    code, msg = sim("-n", "20", "-o", str(out), "--force")
    assert code == 1, msg
    assert "No space left on device" in msg
    assert out.read_bytes() == OLD  # not replaced by a file that may be short
    assert Path(partial_path(str(out))).exists()
    monkeypatch.undo()
    code, msg = sim("-n", "20", "-o", str(out), "--resume")
    assert code == 0, msg
    assert out.read_bytes() == full.read_bytes()


def test_write_text_that_fails_leaves_no_partial(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--summary-json, report --html, play --replay-file: a full disk left `F.partial`."""
    out = tmp_path / "s.json"
    out.write_bytes(OLD)

    class Full:
        def __init__(self, stream: Any) -> None:
            self.stream = stream

        def __enter__(self) -> Full:
            return self

        def write(self, text: str) -> None:
            self.stream.write(text[:3])

        def __exit__(self, *exc: object) -> None:
            self.stream.close()
            raise FULL

    monkeypatch.setattr(
        "cardcore.outfiles.open_output", lambda path, **kw: Full(open_output(path, **kw))
    )
    with pytest.raises(OSError, match="No space"):
        write_text(str(out), "{}")
    assert out.read_bytes() == OLD
    assert names(tmp_path) == ["s.json"]


# --- M2: one writer at a time ---------------------------------------------------------------


@pytest.mark.parametrize("how", [["--force"], ["--resume"]])
def test_a_second_run_on_the_same_output_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: list[str]
) -> None:
    """M2: two runs writing one file both exited 0 (interleaved records, invalid JSON Lines)."""
    out = tmp_path / "g.jsonl"
    args = ["-n", "40", "--chunk-size", "5", "-o", str(out)]
    interrupt_after(monkeypatch, 2)
    assert sim(*args)[0] == 130
    monkeypatch.undo()
    from cardcore.cli import sim as sim_module

    real = sim_module.run_plan  # type: ignore[attr-defined]
    second: list[tuple[int, str]] = []

    def meanwhile(*a: Any, **kw: Any) -> Iterator[list[dict[str, Any]]]:
        for k, records in enumerate(real(*a, **kw)):
            if k == 1:  # a second command on the same file while this one writes
                second.append(sim(*args, *how))
            yield records

    monkeypatch.setattr(sim_module, "run_plan", meanwhile)
    code, msg = sim(*args, "--resume")
    assert code == 0, msg
    (code2, msg2) = second[0]
    assert code2 == 2, msg2
    assert "is being written by another run" in msg2
    recs = [json.loads(line) for line in out.read_bytes().splitlines()]
    assert [r["index"] for r in recs] == list(range(40))
    assert names(tmp_path) == ["g.jsonl"]  # the lock file is gone with the run


def test_the_lock_is_held_for_the_replays_too_and_released_on_refusal(tmp_path: Path) -> None:
    rep = tmp_path / "r.jsonl"
    with OutputLock(str(rep)):
        code, msg = sim("-n", "5", "-o", str(tmp_path / "g.jsonl"), "--replays", str(rep))
        assert code == 2
        assert "is being written by another run (process" in msg
        assert names(tmp_path) == ["r.jsonl.lock"]  # the records' lock was dropped again
    assert sim("-n", "5", "-o", str(tmp_path / "g.jsonl"), "--replays", str(rep))[0] == 0
    with OutputLock(str(tmp_path / "h.html")), pytest.raises(OutputBusyError):
        write_text(str(tmp_path / "h.html"), "x")


# --- M3: a killed parent ends its workers ---------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP])
def test_killing_the_parent_of_j2_ends_every_process_of_the_run(
    tmp_path: Path, sig: signal.Signals
) -> None:
    """M3: the workers (a stuck agent), the forkserver and the resource tracker lived on."""
    from test_sim_faults import group_gone, wait_for

    out = tmp_path / "g.jsonl"
    args = ["sim", "toy", "-n", "100000", "--seed", "1", "-q", "-o", str(out), "-j", "2"]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cardcore",
            *args,
            "--agents",
            "toy_game:Stuck",
            "--chunk-size",
            "2",
        ],
        cwd=tmp_path,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        # the signal's default action, even when the test run inherited it ignored (a suite
        # started under nohup ignores SIGHUP, and so would the run)
        preexec_fn=None if sig == signal.SIGKILL else lambda: signal.signal(sig, signal.SIG_DFL),
    )
    part = Path(partial_path(str(out)))
    try:
        wait_for(lambda: part.exists() and part.stat().st_size > 0)
        os.kill(proc.pid, sig)  # the parent alone, not its group
        proc.wait(60)
        wait_for(lambda: group_gone(proc.pid), 30)
    finally:
        if not group_gone(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)


# --- M4: descriptors are written in place, never truncated ----------------------------------


def test_summary_to_stderr_shared_with_the_records_keeps_them(tmp_path: Path) -> None:
    """M4: `-o - --summary-json /dev/stderr > f 2>&1` exited 0 with the records wiped."""
    cmd = (
        f"{sys.executable} -m cardcore sim toy -n 5 --seed 3 -q -o - "
        "--summary-json /dev/stderr > f 2>&1"
    )
    subprocess.run(["sh", "-c", cmd], cwd=tmp_path, env=ENV, check=True, timeout=120)
    text = (tmp_path / "f").read_text()
    records = [json.loads(line) for line in text.splitlines()[:5]]
    assert [r["index"] for r in records] == list(range(5))
    assert json.loads("\n".join(text.splitlines()[5:]))["groups"][0]["records"] == 5


def test_records_to_dev_stdout_share_its_offset(tmp_path: Path) -> None:
    """`-o /dev/stdout >> f` truncated f: the records replaced what was there."""
    cmd = f"echo first > f; {sys.executable} -m cardcore sim toy -n 3 --seed 3 -o /dev/stdout >> f"
    subprocess.run(["sh", "-c", cmd], cwd=tmp_path, env=ENV, check=True, timeout=120)
    lines = (tmp_path / "f").read_text().splitlines()
    assert lines[0] == "first"
    assert [json.loads(x)["index"] for x in lines[1:]] == [0, 1, 2]


# --- L1: --resume keeps only lines of its run -----------------------------------------------


def interrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, *, replays: bool = True
) -> tuple[Path, Path, list[str]]:
    """The records and replays files of `sim toy -n 40 --chunk-size 5` interrupted after two
    chunks, and the arguments that run it (add --resume to continue)."""
    out, rep = tmp_path / f"g.{fmt}", tmp_path / "r.jsonl"
    args = ["-n", "40", "--chunk-size", "5", "-o", str(out)]
    args += ["--replays", str(rep)] if replays else []
    interrupt_after(monkeypatch, 2)
    assert sim(*args)[0] == 130
    monkeypatch.undo()
    return out, rep, args


def resume_is_refused(out: Path, rep: Path, args: list[str]) -> str:
    """Runs --resume, which must be a usage error changing neither file; its message."""
    before = out.read_bytes(), rep.read_bytes()
    code, msg = sim(*args, "--resume")
    assert code == 2, msg
    assert (out.read_bytes(), rep.read_bytes()) == before
    return msg


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
@pytest.mark.parametrize("damage", ["garbage", "index", "copy", "replay"])
def test_resume_refuses_altered_or_garbage_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, damage: str
) -> None:
    """L1: a garbage or altered whole line in the middle of the `.partial` was kept."""
    out, rep, args = interrupted(tmp_path, monkeypatch, fmt)
    target = rep if damage == "replay" else out
    lines = target.read_bytes().splitlines(keepends=True)
    k = 4
    if damage in ("garbage", "replay"):
        lines[k] = b'{"not": "a record"}\n'
    elif damage == "index":
        lines[k], lines[k + 1] = lines[k + 1], lines[k]
    else:
        lines[k] = lines[k].replace(b"3", b"4", 1) if fmt == "csv" else lines[k + 1]
    target.write_bytes(b"".join(lines))
    assert f"line {k + 1}" in resume_is_refused(out, rep, args)


def _swap_scores(line: bytes, fmt: str) -> bytes:
    """The same record with its two scores swapped: still a valid line of this run."""
    if fmt == "csv":
        cells = line.decode().rstrip("\n").split(",")
        cells[6] = ";".join(reversed(cells[6].split(";")))
        return (",".join(cells) + "\n").encode()
    rec = json.loads(line)
    rec["scores"] = rec["scores"][::-1]
    return (json.dumps(rec, separators=(",", ":")) + "\n").encode()


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
@pytest.mark.parametrize("target", ["records", "replays"])
def test_resume_refuses_a_valid_line_changed_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str, target: str
) -> None:
    """L1: a line changed by hand into another valid record (a changed score) was kept."""
    out, rep, args = interrupted(tmp_path, monkeypatch, fmt)
    path = out if target == "records" else rep
    lines = path.read_bytes().splitlines(keepends=True)
    k = 6  # in the second batch
    if target == "records":
        lines[k] = _swap_scores(lines[k], fmt)
    else:
        rec = json.loads(lines[k])
        rec["result"] = rec["result"][::-1]
        lines[k] = (json.dumps(rec, separators=(",", ":")) + "\n").encode()
    path.write_bytes(b"".join(lines))
    assert "changed after the run wrote it" in resume_is_refused(out, rep, args)


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_resume_plays_again_what_no_checkpoint_covers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    """L1: lines past the last checkpoint (a run killed mid-batch, or lines added by hand,
    even valid ones with another score) are not kept but played again: the same bytes."""
    full = tmp_path / f"full.{fmt}"
    assert sim("-n", "40", "-o", str(full))[0] == 0
    out, _, args = interrupted(tmp_path, monkeypatch, fmt, replays=False)
    header = 1 if fmt == "csv" else 0
    extra = full.read_bytes().splitlines(keepends=True)[10 + header : 13 + header]
    out.write_bytes(out.read_bytes() + extra[0] + _swap_scores(extra[1], fmt) + extra[2])
    plan = Path(plan_path(str(out)))
    # a checkpoint of the wrong types (a hand-edited ledger), then a half-written one: neither
    # is a checkpoint, so the ledger ends before them
    bad = '{"records": 15, "bytes": [9, "x"], "sha256": ["a", "b"]}\n'
    plan.write_text(plan.read_text() + bad + '{"records": 15, "bytes"')
    code, msg = sim(*args, "--resume")
    assert code == 0, msg
    assert out.read_bytes() == full.read_bytes()


def test_a_ledger_line_of_the_wrong_shape_is_no_checkpoint() -> None:
    """L1: a hand-edited checkpoint must end the ledger, not raise later (a size of the
    replays file that is not a number was compared with the file's size)."""
    from cardcore.sim.ledger import Checkpoint

    good = Checkpoint(5, (10, 20), ("a", "b"))
    assert Checkpoint.parse(good.line()) == good
    for line in [
        '{"records": 5, "bytes": [10, "x"], "sha256": ["a", "b"]}',
        '{"records": 5, "bytes": [10, 20], "sha256": ["a", 7]}',
        '{"records": 5, "bytes": [10, null], "sha256": ["a", "b"]}',
        '{"records": -1, "bytes": [10, 20], "sha256": ["a", "b"]}',
        '{"records": 5, "bytes": [10], "sha256": ["a"]}',
        '{"records": 5, "bytes"',
    ]:
        assert Checkpoint.parse(line) is None, line


# --- L2: an empty file name -----------------------------------------------------------------


def test_an_empty_output_name_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """L2: `-o "" --force` wrote `<cwd>.partial` into the parent folder."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    for extra in ([], ["--force"]):
        code, msg = sim("-n", "3", "-o", "", *extra)
        assert code == 2
        assert "empty file name" in msg
        code, msg = sim("-n", "3", "--replays", "", *extra)
        assert code == 2
    assert names(tmp_path) == ["work"]
    assert names(work) == []
    with pytest.raises(OptionError, match="empty file name"):
        write_text("", "x")


# --- L31: two games ending in the same second -----------------------------------------------


def test_replays_finishing_in_the_same_second_do_not_overwrite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """L31: two `cardcore play` replays of the same second overwrote each other."""
    fixed = tmp_path / "replays" / "toy-20260102T030405.jsonl"
    monkeypatch.setattr(common, "default_replay_path", lambda game, when=None: fixed)
    paths = [common.write_replay({"n": k}, None, "toy") for k in range(3)]
    assert [p.name for p in paths] == [
        "toy-20260102T030405.jsonl",
        "toy-20260102T030405-2.jsonl",
        "toy-20260102T030405-3.jsonl",
    ]
    assert [json.loads(p.read_text())["n"] for p in paths] == [0, 1, 2]
    assert names(fixed.parent) == sorted(p.name for p in paths)
