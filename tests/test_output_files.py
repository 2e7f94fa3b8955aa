"""Outputs that are not plain files: a character device (our own null device, never the
system's /dev/null), a FIFO and symbolic links, for every command that writes a file. A
device or FIFO is written in place (never replaced by a file, no --force, no resume); a link
is written through and stays a link."""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import toy_game  # noqa: F401  (registers the toy game)
from cardcore.cli import cli
from cardcore.errors import OptionError
from cardcore.outfiles import output_file
from cardcore.play.common import write_replay

TOY_ENV = {"CARDCORE_GAME_MODULES": "toy_game"}
OLD = b'{"old": "precious"}\n'


def sim(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli, ["sim", "toy", "--seed", "3", "-q", *args], env=TOY_ENV)
    return r.exit_code, r.output


def make_node(path: Path, kind: int, major: int, minor: int) -> Path:
    try:
        os.mknod(path, 0o666 | kind, os.makedev(major, minor))
    except PermissionError:
        pytest.skip("making a device node needs root")
    return path


@pytest.fixture
def null(tmp_path: Path) -> Iterator[Path]:
    """A null device of our own (same numbers as /dev/null), checked unchanged afterwards."""
    dev = make_node(tmp_path / "null", stat.S_IFCHR, 1, 3)
    yield dev
    st = os.lstat(dev)
    assert stat.S_ISCHR(st.st_mode)
    assert st.st_rdev == os.makedev(1, 3)


class FifoReader:
    """A FIFO in ``folder`` with a thread reading everything written to it."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "fifo"
        os.mkfifo(self.path)
        self.data = b""
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with open(self.path, "rb") as f:
            self.data = f.read()

    def result(self) -> bytes:
        self.thread.join(10)
        assert not self.thread.is_alive()
        assert stat.S_ISFIFO(os.lstat(self.path).st_mode)
        return self.data


def leftovers(folder: Path, *keep: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p not in keep)


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_a_null_device_is_a_discard_without_force(tmp_path: Path, null: Path, fmt: str) -> None:
    code, msg = sim("-n", "3", "-o", str(null), "--format", fmt)
    assert code == 0, msg
    code, msg = sim("-n", "3", "-o", str(null), "--replays", str(null), "--summary-json", str(null))
    assert code == 0, msg  # several outputs may share a character device
    assert leftovers(tmp_path, null) == []  # no .partial, no .plan.json


def test_a_fifo_gets_the_records_written_in_place(tmp_path: Path) -> None:
    code, msg = sim("-n", "5", "-o", str(tmp_path / "file.jsonl"))
    assert code == 0, msg
    fifo = FifoReader(tmp_path)
    code, msg = sim("-n", "5", "-o", str(fifo.path), "--replays", str(tmp_path / "r.jsonl"))
    assert code == 0, msg
    assert fifo.result() == (tmp_path / "file.jsonl").read_bytes()
    assert leftovers(tmp_path) == ["fifo", "file.jsonl", "r.jsonl"]


def test_one_fifo_for_two_outputs_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    code, msg = sim("-n", "3", "-o", str(tmp_path / "fifo"), "--replays", str(tmp_path / "fifo"))
    assert code == 2
    assert "same file" in msg


def test_resume_on_a_device_or_fifo_is_a_usage_error(tmp_path: Path, null: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    for args in (["-o", str(null)], ["-o", str(tmp_path / "r.jsonl"), "--replays", str(null)]):
        code, msg = sim("-n", "3", *args, "--resume")
        assert code == 2, msg
        assert "regular files" in msg
        assert "device or pipe" in msg
    code, msg = sim("-n", "3", "-o", str(tmp_path / "fifo"), "--resume")
    assert code == 2
    assert "regular files" in msg
    assert leftovers(tmp_path, null) == ["fifo"]


def test_a_block_device_is_refused(tmp_path: Path) -> None:
    blk = make_node(tmp_path / "blk", stat.S_IFBLK, 7, 0)  # never opened
    code, msg = sim("-n", "3", "-o", str(blk), "--force")
    assert code == 2
    assert "block device" in msg
    assert stat.S_ISBLK(os.lstat(blk).st_mode)


def test_a_link_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real, link = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    real.write_bytes(OLD)
    link.symlink_to(real.name)
    code, msg = sim("-n", "3", "-o", str(link))
    assert code == 2
    assert "--force" in msg
    code, msg = sim("-n", "3", "-o", str(link), "--force", "--summary-json", str(link) + ".s")
    assert code == 0, msg
    assert link.is_symlink()
    assert os.readlink(link) == real.name
    assert real.read_bytes().count(b"\n") == 3
    dangling = tmp_path / "dangling.jsonl"
    dangling.symlink_to("made.jsonl")
    code, msg = sim("-n", "3", "-o", str(dangling))
    assert code == 0, msg
    assert dangling.is_symlink()
    assert (tmp_path / "made.jsonl").read_bytes().count(b"\n") == 3
    names = ["dangling.jsonl", "link.jsonl", "link.jsonl.s", "made.jsonl", "real.jsonl"]
    assert leftovers(tmp_path) == names


def test_a_link_and_its_file_are_one_output(tmp_path: Path) -> None:
    (tmp_path / "link.jsonl").symlink_to("real.jsonl")
    code, msg = sim(
        "-n", "3", "-o", str(tmp_path / "link.jsonl"), "--replays", str(tmp_path / "real.jsonl")
    )
    assert code == 2
    assert "same file" in msg


def test_interrupted_run_into_a_device_does_not_offer_resume(
    null: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardcore.cli import sim as sim_module

    def interrupted(*a: object, **kw: object) -> Iterator[list[dict[str, object]]]:
        raise KeyboardInterrupt
        yield []

    monkeypatch.setattr(sim_module, "run_plan", interrupted)
    code, msg = sim("-n", "3", "-o", str(null))
    assert code == 130
    assert "Interrupted after 0 records." in msg
    assert "--resume" not in msg


def test_report_html_into_a_device_or_through_a_link(tmp_path: Path, null: Path) -> None:
    pytest.importorskip("matplotlib")
    data = Path(__file__).parent / "data" / "report-three-thirteen.jsonl"
    r = CliRunner().invoke(cli, ["report", str(data), "--format", "json", "--html", str(null)])
    assert r.exit_code == 0, r.output
    (tmp_path / "page.html").symlink_to("real.html")
    r = CliRunner().invoke(cli, ["report", str(data), "--html", str(tmp_path / "page.html")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "page.html").is_symlink()
    assert (tmp_path / "real.html").read_text().startswith("<!")
    r = CliRunner().invoke(cli, ["report", str(data), "--html", str(tmp_path / "no" / "p.html")])
    assert r.exit_code == 2  # checked before the report is built
    assert "does not exist" in r.output


def test_a_played_game_replay_into_a_device_or_fifo(tmp_path: Path, null: Path) -> None:
    write_replay({"game": "toy"}, null, "toy")
    fifo = FifoReader(tmp_path)
    write_replay({"game": "toy"}, fifo.path, "toy")
    assert fifo.result() == b'{"game":"toy"}\n'
    blk = make_node(tmp_path / "blk", stat.S_IFBLK, 7, 0)
    r = CliRunner().invoke(cli, ["play", "three-thirteen", "--replay-file", str(blk)])
    assert r.exit_code == 2
    assert "--replay-file" in r.output
    assert "block device" in r.output


def test_output_file_kinds(tmp_path: Path) -> None:
    assert output_file("/dev/stdout").direct  # an open descriptor: never resolved and replaced
    assert output_file("/dev/fd/1").direct
    new = output_file(str(tmp_path / "new.jsonl"))
    assert not new.direct
    assert not new.exists
    with pytest.raises(OptionError, match="is a directory"):
        output_file(str(tmp_path))
    (tmp_path / "loop").symlink_to("loop")
    with pytest.raises(OptionError, match="symbolic links"):
        output_file(str(tmp_path / "loop"))
