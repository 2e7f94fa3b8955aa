"""The files a run writes, written safely: checked before the run, never silently replaced,
records and replays kept in step, resumable only by the same run plan.

While a run is going, each output ``F`` is written to ``F.partial`` in the same folder and
renamed to ``F`` when the run ends (finished, interrupted or failed: the records written so far
are whole). ``F.plan.json`` next to the records file holds the run plan until the run is
finished, with a checkpoint (record count, sizes, SHA-256) after each batch
(:mod:`cardcore.sim.ledger`); ``--resume`` continues only a run with the same plan, and first
cuts the records and replays files to the last checkpoint both hold unchanged, so an
interrupt, a kill or a full disk can never leave them out of step, and a record changed by hand
is refused. A failure to write (a full disk) is an error: JSON Lines and CSV are
cut back to the last whole batch, a Parquet file that cannot be finished is removed, and nothing
half-written is renamed into place. One run at a time writes an output: the lock of
:mod:`cardcore.outfiles` is held on the records and replays from the checks to the end, so a
second run of the same files (``--force`` or ``--resume``) is refused.

An existing device or FIFO (``-o /dev/null``) is written in place, needs no ``--force`` and
cannot be resumed; a symbolic link is written through (:mod:`cardcore.outfiles`).
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from cardcore import __version__
from cardcore.errors import OptionError
from cardcore.games.schema import Col
from cardcore.outfiles import (
    OutputFile,
    OutputLock,
    checked_output,
    lock_path,
    output_file,
    partial_path,
    write_text,
)
from cardcore.sim.ledger import Checkpoint, Ledger, read_plan, verified
from cardcore.sim.runner import RunPlan
from cardcore.sim.writers import RecordWriter, open_writer

__all__ = [
    "PLAN_FORMAT",
    "RunOutputs",
    "check_paths",
    "deferred_interrupt",
    "partial_path",
    "plan_path",
    "plan_record",
    "write_atomic",
]

PLAN_FORMAT: Final = "cardcore-run-plan"
PLAN_VERSION: Final = 1


def plan_path(path: str) -> str:
    """Where the plan of an unfinished run writing records to ``path`` is kept."""
    return path + ".plan.json"


@contextlib.contextmanager
def deferred_interrupt() -> Iterator[None]:
    """Holds back Ctrl-C (SIGINT) until the block is done, then delivers it. Only in the main
    thread (elsewhere Python delivers no signals anyway)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        if caught and callable(old):
            old(signal.SIGINT, None)


write_atomic = write_text  # the older name


def check_paths(
    outputs: Mapping[str, str | None], *, force: bool, resume: bool
) -> dict[str, OutputFile]:
    """Checks every output before the run: no two the same file, each folder there and
    writable, no directory, and an existing file only with ``force`` or ``resume``. An
    existing device or FIFO is written in place (no ``force`` needed; several outputs may share
    a character device such as ``/dev/null``).

    ``outputs`` maps an option name (for messages) to its path; ``None`` and ``-`` (stdout)
    are skipped. Returns the checked outputs by path; raises
    :class:`~cardcore.errors.OptionError`.
    """
    if force and resume:
        raise OptionError("--force and --resume exclude each other")
    if sum(p == "-" for p in outputs.values()) > 1:
        raise OptionError("only one output can go to stdout ('-')")
    files = {opt: checked_output(opt, p) for opt, p in outputs.items() if p not in (None, "-")}
    seen: dict[str, str] = {}
    for opt, out in files.items():
        if out.is_char_device:
            continue
        names = (
            [out.path]
            if out.direct
            else [out.path, out.partial, plan_path(out.path), lock_path(out.path)]
        )
        for name in names:
            key = os.path.realpath(name)
            other = seen.get(key)
            if other is not None and other != opt:
                raise OptionError(f"{opt} and {other} name the same file {name!r}")
            seen[key] = opt
    existing = [f for f in files.values() if f.exists and not f.is_char_device]
    for i, a in enumerate(existing):
        for b in existing[i + 1 :]:
            if os.path.samefile(a.path, b.path):
                raise OptionError(f"{a.name!r} and {b.name!r} are the same file")
    for opt, out in files.items():
        if out.direct or force or resume:
            continue
        for name in (out.path, out.partial):
            if os.path.lexists(name):
                shown = out.name if name == out.path else name
                raise OptionError(
                    f"{opt} {shown!r} exists; pass --force to overwrite it "
                    "or --resume to continue its run"
                )
    return {out.name: out for out in files.values()}


def plan_record(plan: RunPlan, fmt: str) -> dict[str, Any]:
    """What makes two runs the same run: everything but the number of games."""
    return {
        "format": PLAN_FORMAT,
        "version": PLAN_VERSION,
        "cardcore_version": __version__,
        "game": plan.game,
        "seed": plan.seed,
        "players": plan.players,
        "agents": list(plan.agents),
        "options": dict(plan.options),
        "rotate_seats": plan.rotate_seats,
        **({"paired": True} if plan.paired else {}),
        "match": plan.match,
        "replays": plan.replay,
        "output_format": fmt,
        "games": plan.games,
    }


def _line_ends(path: str) -> Iterator[int]:
    """The offset just past each newline of the file, in order (read in blocks)."""
    with open(path, "rb") as f:
        pos = 0
        while block := f.read(1 << 20):
            i = block.find(b"\n")
            while i >= 0:
                yield pos + i + 1
                i = block.find(b"\n", i + 1)
            pos += len(block)


def _count_lines(path: str | None) -> int:
    """Whole lines of ``path`` (0 when there is no file); a half line at the end is not one."""
    return 0 if path is None else sum(1 for _ in _line_ends(path))


def _line(path: str, n: int) -> tuple[bytes, int]:
    """Whole line ``n`` (from 1) of ``path`` and the offset just past it."""
    start = 0
    for k, end in enumerate(_line_ends(path), 1):
        if k == n:
            with open(path, "rb") as f:
                f.seek(start)
                return f.read(end - start), end
        start = end
    return b"", start


def _parse(line: bytes, header: bytes | None) -> Mapping[str, Any]:
    """A record line as a dict (CSV with its header); empty when it cannot be read."""
    text = line.decode("utf-8", errors="replace")
    try:
        if header is not None:
            head = header.decode("utf-8", errors="replace")
            return dict(next(csv.DictReader([head, text])))
        rec = json.loads(text)
    except (ValueError, StopIteration):
        return {}
    return rec if isinstance(rec, Mapping) else {}


def _check_seats(name: str, last: Mapping[str, Any], plan: RunPlan, index: int) -> None:
    """The last record's deal seed, players and agents must be those ``plan`` gives record
    ``index`` (a finished run keeps no plan file, so this is what tells another run apart)."""
    req = plan.request(index)
    expected = {"seed": req.seed, "players": req.players, "agents": ";".join(req.agents)}
    for key, want in expected.items():
        if key not in last:
            continue
        got = last[key]
        text = ";".join(map(str, got)) if isinstance(got, list) else str(got)
        if text != str(want):
            raise OptionError(
                f"{name} holds another run: its record {index} has {key} {text}, this "
                f"command gives {want}; use the same options, or a new file"
            )


def _lines(path: str, skip: int, count: int) -> Iterator[tuple[int, bytes]]:
    """Whole lines ``skip + 1 .. skip + count`` of ``path`` with their numbers (from 1)."""
    with open(path, "rb") as f:
        for number, line in enumerate(f, 1):
            if number > skip + count:
                return
            if number > skip:
                yield number, line


def _check_lines(name: str, path: str, header: bytes | None, plan: RunPlan, done: int) -> None:
    """Every kept record must be a record of ``plan`` at its place: readable, with its
    game, run seed, index and deal seed (a line altered by hand or garbage is refused)."""
    skip = 1 if header is not None else 0
    for number, line in _lines(path, skip, done):
        index = plan.start + number - skip - 1
        rec = _parse(line, header)
        expected = {
            "game": plan.game,
            "run_seed": str(plan.seed),
            "index": str(index),
            "seed": str(plan.request(index).seed),
        }
        bad = [key for key, want in expected.items() if str(rec.get(key)) != want]
        if bad:
            raise OptionError(
                f"{name} line {number} is not record {index} of this run (its "
                f"{', '.join(bad)} differ{'s' if len(bad) == 1 else ''}); --resume keeps only "
                "records the run wrote: cut the file before that line, or start a new file"
            )


def _check_replays(name: str, records: str, path: str, plan: RunPlan, done: int) -> None:
    """Every kept replay must be the replay of its record (readable, its deal seed)."""
    for number, line in _lines(path, 0, done):
        index = plan.start + number - 1
        if _parse(line, None).get("seed") != plan.request(index).seed:
            raise OptionError(
                f"{name} does not hold the replays of {records} (line {number} is not the "
                f"replay of record {index})"
            )


def _source(path: str | None) -> str | None:
    """The newest state of an output: its ``.partial`` (a run was killed), else the file."""
    if path is None or path == "-":
        return None
    for name in (partial_path(path), path):
        if Path(name).exists():
            return name
    return None


def _cut(source: str, final: str, size: int) -> None:
    """Moves ``source`` to ``final``'s partial name and truncates it to ``size`` bytes."""
    part = partial_path(final)
    if source != part:
        os.replace(source, part)
    with open(part, "r+b") as f:
        f.truncate(size)
        f.flush()
        os.fsync(f.fileno())


def _kept(cp: Checkpoint | None, header: int) -> tuple[int, int, int]:
    """Records, records bytes and replays bytes a resumed run keeps: those of checkpoint
    ``cp`` (none: only a CSV ``header`` of that many bytes)."""
    if cp is None:
        return 0, header, 0
    return cp.records, cp.sizes[0], cp.sizes[1] or 0


class RunOutputs:
    """The records (``-o``), replays (``--replays``) and summary (``--summary-json``) of one
    CLI run; see the module docstring. ``columns`` types Parquet records."""

    def __init__(
        self,
        records: str | None,
        replays: str | None,
        summary: str | None,
        fmt: str,
        columns: Mapping[str, Col] | None = None,
    ) -> None:
        self.records, self.replays, self.summary, self.fmt = records, replays, summary, fmt
        self.columns = columns
        self._checked: dict[str, OutputFile] = {}
        self.written = 0
        self._appending = False
        self._writer: RecordWriter | None = None
        self._replay_writer: RecordWriter | None = None
        self._locks: list[OutputLock] = []
        self._ledger: Ledger | None = None
        self._start = 0
        self._failed: set[str] = set()  # outputs (paths) a write failed on
        self._unclosed: set[str] = set()  # outputs (paths) whose writer failed to close

    def check(self, *, force: bool, resume: bool) -> None:
        """:func:`check_paths` for this run's outputs."""
        if resume and self.records in (None, "-"):
            raise OptionError("--resume needs --output FILE (the records of the run)")
        if resume and self.fmt == "parquet":
            raise OptionError("--resume works with jsonl and csv output, not Parquet")
        if self.fmt == "parquet" and self.records == "-":
            raise OptionError("Parquet cannot be written to stdout; give a file name")
        self._checked = check_paths(
            {"--output": self.records, "--replays": self.replays, "--summary-json": self.summary},
            force=force,
            resume=resume,
        )
        for opt, name in (("--output", self.records), ("--replays", self.replays)):
            if resume and name not in (None, "-") and self._out(name).direct:
                raise OptionError(
                    f"--resume needs regular files: {opt} {name!r} is a device or pipe, "
                    "written as the run goes and never kept to continue"
                )
        self._lock()

    def _lock(self) -> None:
        """Takes the lock of the records and replays (see the module docstring)."""
        self.release()
        try:
            for name in (self.records, self.replays):
                if name not in (None, "-") and not self._out(name).direct:
                    lock = OutputLock(self._out(name).path, name)
                    lock.acquire()
                    self._locks.append(lock)
        except BaseException:
            self.release()
            raise

    def release(self) -> None:
        """Drops the output locks (:meth:`close` does; call it when a checked run does not
        start)."""
        while self._locks:
            self._locks.pop().release()

    @property
    def resumable(self) -> bool:
        """Whether ``--resume`` can continue this run: its records go to a regular file."""
        return self.records not in (None, "-") and not self._out(self.records).direct

    def _out(self, name: str) -> OutputFile:
        checked = self._checked.get(name)
        return checked if checked is not None else output_file(name)

    def _path(self, name: str | None) -> str | None:
        """Where output ``name`` is written (links followed); None and ``-`` as they are."""
        return name if name in (None, "-") else self._out(name).path

    def _files(self) -> list[str]:
        """The outputs written through a temporary file (not stdout, devices or FIFOs)."""
        names = [p for p in (self.records, self.replays) if p is not None and p != "-"]
        return [out.path for out in map(self._out, names) if not out.direct]

    # --- resume -----------------------------------------------------------------------

    def resume_point(self, plan: RunPlan) -> int:
        """Where an earlier run of ``plan`` stopped: the number of records its files both hold
        whole. Raises :class:`OptionError` (changing nothing) when the files belong to another
        run plan; otherwise moves them back to their ``.partial`` names, cut to those records.
        A result ``>= plan.games`` means the run is finished."""
        rec_src = _source(self._path(self.records))
        if rec_src is None:
            return plan.start
        csv_header = self.fmt == "csv"
        rec_lines = _count_lines(rec_src)
        checkpoints = self._check_plan(plan, rec_lines - (1 if csv_header and rec_lines else 0))
        header = _line(rec_src, 1)[0] if csv_header and rec_lines else None
        done = rec_lines - (1 if header is not None else 0)
        rep_src = _source(self._path(self.replays))
        if self.replays not in (None, "-"):
            done = min(done, _count_lines(rep_src))
        rec_end = len(header) if header is not None else 0
        rep_end = 0
        if done:
            index = plan.start + done - 1
            line, rec_end = _line(rec_src, done + (1 if header is not None else 0))
            last = _parse(line, header)
            same = (
                str(last.get("game")) == plan.game
                and str(last.get("run_seed")) == str(plan.seed)
                and str(last.get("index")) == str(index)
            )
            if not same:
                raise OptionError(
                    f"{self.records} does not continue this run (game {plan.game}, seed "
                    f"{plan.seed}, record {index}); use the same --seed and game, or a new file"
                )
            _check_seats(str(self.records), last, plan, index)
            _check_lines(str(self.records), rec_src, header, plan, done)
            if rep_src is not None:
                line, rep_end = _line(rep_src, done)
                _check_replays(str(self.replays), str(self.records), rep_src, plan, done)
        if checkpoints:
            names = (str(self.records), str(self.replays))
            files = (rec_src, rep_src if self.replays not in (None, "-") else None)
            cp = verified(checkpoints, files, names, header=0 if header is None else 1)
            done, rec_end, rep_end = _kept(cp, len(header) if header is not None else 0)
        # checks passed: from here on the files change
        rec_path, rep_path = self._path(self.records), self._path(self.replays)
        assert rec_path is not None
        _cut(rec_src, rec_path, rec_end)
        if rep_src is not None and rep_path is not None:
            _cut(rep_src, rep_path, rep_end)
        return plan.start + done

    def _check_plan(self, plan: RunPlan, done: int) -> list[Checkpoint]:
        """Checks the stored plan is ``plan`` and returns its checkpoints."""
        records = self._path(self.records)
        assert records is not None
        path = plan_path(records)
        if not Path(path).exists():
            if done >= plan.games:
                return []  # a finished run keeps no plan; resume_point reports it finished
            raise OptionError(
                f"{self.records} has no run plan ({path}): it was not written by an "
                "unfinished `cardcore sim` run, so it cannot be continued; start a new file"
            )
        try:
            stored, checkpoints = read_plan(path)
        except (OSError, ValueError) as e:
            raise OptionError(f"cannot read the run plan {path}: {e}") from None
        if not isinstance(stored, dict) or stored.get("format") != PLAN_FORMAT:
            raise OptionError(f"{path} is not a cardcore run plan")
        now = json.loads(json.dumps(plan_record(plan, self.fmt)))
        diffs = [
            f"{key} {stored.get(key)!r} then, {value!r} now"
            for key, value in now.items()
            if key != "games" and stored.get(key) != value
        ]
        if diffs:
            raise OptionError(
                f"--resume: {self.records} was written by another run plan ("
                + "; ".join(diffs)
                + "); run the same command again, or start a new file"
            )
        return checkpoints

    # --- writing ------------------------------------------------------------------------

    def open(self, plan: RunPlan, *, append: bool) -> None:
        """Opens the writers (``append``: after the records a resumed run kept) and stores
        the plan while the run is unfinished."""
        self._appending = append
        self._start = plan.start
        plan_file = None
        if self.resumable:
            assert self.records is not None
            plan_file = plan_path(self._out(self.records).path)
            write_text(plan_file, json.dumps(plan_record(plan, self.fmt)) + "\n")
        self._writer = open_writer(
            self._target(self.records), self.fmt, append=append, columns=self.columns
        )
        self._replay_writer = open_writer(self._target(self.replays), "jsonl", append=append)
        records = self._target(self.records)
        if plan_file is not None and records is not None and self.fmt != "parquet":
            direct = self.replays in (None, "-") or self._out(str(self.replays)).direct
            replays = None if direct else self._target(self.replays)
            self._ledger = Ledger(plan_file, (records, replays))
            self._ledger.advance(plan.start)

    def _target(self, name: str | None) -> str | None:
        """What a writer opens for output ``name``: its temporary file unless written in
        place (stdout, a device or FIFO)."""
        if name in (None, "-"):
            return name
        out = self._out(name)
        return out.path if out.direct else out.partial

    def write(self, records: list[dict[str, Any]]) -> None:
        """Writes one batch: its records and their replays (popped from the records)
        together. Ctrl-C waits until both are written; a failed write (a full disk) cuts both
        files back to the last whole batch and raises :class:`OSError`."""
        replays = [r.pop("replay") for r in records if "replay" in r]
        with deferred_interrupt():
            sizes = {p: os.path.getsize(partial_path(p)) for p in self._existing_partials()}
            try:
                if self._writer is not None:
                    self._writer.write(records)
                if self._replay_writer is not None and replays:
                    self._replay_writer.write(replays)
                if self._ledger is not None:
                    self._ledger.advance(self._start + self.written + len(records))
            except OSError:
                self._failed.update(self._files())
                self._close_writers(note=False)  # the files are cut back below
                for p, size in sizes.items():
                    with contextlib.suppress(OSError):
                        os.truncate(partial_path(p), size)
                raise
        self.written += len(records)

    def _existing_partials(self) -> list[str]:
        return [p for p in self._files() if Path(partial_path(p)).exists()]

    def _close_writers(self, *, note: bool = True) -> OSError | None:
        """Closes both writers; returns the first error, noting (``note``) the outputs whose
        writer failed to close in ``_unclosed``."""
        error: OSError | None = None
        for w, name in ((self._writer, self.records), (self._replay_writer, self.replays)):
            if w is None:
                continue
            try:
                w.close()
            except OSError as e:
                error = error or e
                path = self._path(name)
                if note and path is not None and path != "-":
                    self._unclosed.add(path)
        self._writer = self._replay_writer = None
        return error

    def close(self, finished: bool) -> None:
        """Closes the writers and renames each output into place; a ``finished`` run drops
        its plan. A run that stopped before its first record leaves every file as it was.

        A writer that failed to close (a full disk) raises :class:`OSError` here, after the
        files are settled: ``F`` is left as it was, and the output stays ``F.partial`` with
        its plan (JSON Lines and CSV: ``--resume`` continues it). A Parquet file whose write
        or close failed has no footer and is removed. A JSON Lines or CSV file cut back after
        a failed write is whole and is renamed into place, as after an interrupt."""
        try:
            with deferred_interrupt():
                error = self._close_writers()
                keep = finished or self.written > 0 or self._appending
                records = self._path(self.records)
                lost = self.fmt == "parquet" and records in self._failed | self._unclosed
                for p in self._existing_partials():
                    if lost and p == records:
                        os.remove(partial_path(p))
                    elif p in self._unclosed:
                        continue
                    elif keep:
                        os.replace(partial_path(p), p)
                    else:
                        os.remove(partial_path(p))
                drop_plan = lost or ((finished or not keep) and records not in self._unclosed)
                if self.resumable and drop_plan:
                    assert records is not None
                    with contextlib.suppress(FileNotFoundError):
                        os.remove(plan_path(records))
                if error is not None:
                    raise error
        finally:
            self.release()

    def write_summary(self, summary: Mapping[str, Any]) -> None:
        if self.summary is not None:
            write_text(self.summary, json.dumps(summary, indent=2))
