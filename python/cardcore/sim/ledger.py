"""The ledger of an unfinished run: what ``--resume`` may keep.

The plan file of a run (``F.plan.json``) is JSON Lines: its first line is the run plan, and
after each batch the run appends a checkpoint: the number of records written and, for the
records file and the replays file, their size and the SHA-256 of their bytes so far. A
resumed run keeps only the bytes of the last checkpoint both files still hold unchanged, so
a record changed by hand (even into another valid record, say a different score) is refused
rather than continued, and records written after the last checkpoint (a run killed in the
middle of a batch) are played again, which gives the same bytes.

A plan file with no checkpoint (written by hand, or before this ledger existed) is checked
line by line only (:mod:`cardcore.sim.outputs`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardcore.errors import OptionError

__all__ = ["Checkpoint", "Ledger", "read_plan", "verified"]

_BLOCK = 1 << 20


@dataclass(frozen=True)
class Checkpoint:
    """``records`` whole records were written; ``sizes``/``digests``: of the records file
    and the replays file (None: no replays file)."""

    records: int
    sizes: tuple[int, int | None]
    digests: tuple[str, str | None]

    def line(self) -> str:
        return json.dumps(
            {"records": self.records, "bytes": list(self.sizes), "sha256": list(self.digests)}
        )

    @staticmethod
    def parse(text: str) -> Checkpoint | None:
        """The checkpoint a line holds; None when it is not one (a half-written last line)."""
        try:
            d = json.loads(text)
            rec, sizes, digests = d["records"], d["bytes"], d["sha256"]
            ok = (
                type(rec) is int
                and rec >= 0
                and len(sizes) == len(digests) == 2
                and type(sizes[0]) is int
                and isinstance(digests[0], str)
                and (sizes[1] is None) == (digests[1] is None)
                and (sizes[1] is None or type(sizes[1]) is int)
                and (digests[1] is None or isinstance(digests[1], str))
            )
        except (ValueError, TypeError, KeyError):
            return None
        if not ok:
            return None
        return Checkpoint(rec, (sizes[0], sizes[1]), (digests[0], digests[1]))


def read_plan(path: str) -> tuple[Any, list[Checkpoint]]:
    """The plan (first line, parsed) and the checkpoints after it, up to the first line that
    is not one. Raises ``OSError`` and ``ValueError`` (the plan cannot be read)."""
    first, *rest = Path(path).read_text(encoding="utf-8").split("\n", 1)
    checkpoints: list[Checkpoint] = []
    for text in rest[0].splitlines() if rest else []:
        cp = Checkpoint.parse(text)
        if cp is None:
            break
        checkpoints.append(cp)
    return json.loads(first), checkpoints


class Ledger:
    """Running digests of a run's records and replays files (``files``: the paths being
    written, replays None when not a regular file), appended to ``plan_file`` per batch."""

    def __init__(self, plan_file: str, files: tuple[str, str | None]) -> None:
        self.plan_file = plan_file
        self._records = _Digest(files[0])
        self._replays = None if files[1] is None else _Digest(files[1])

    def advance(self, records: int) -> None:
        """Hashes what the files gained since the last checkpoint and appends a checkpoint
        saying ``records`` records are written (the first call hashes the kept prefix)."""
        self._records.catch_up()
        rep = self._replays
        if rep is not None:
            rep.catch_up()
        cp = Checkpoint(
            records,
            (self._records.size, None if rep is None else rep.size),
            (self._records.hexdigest(), None if rep is None else rep.hexdigest()),
        )
        with open(self.plan_file, "a", encoding="utf-8") as f:
            f.write(cp.line() + "\n")


class _Digest:
    """The SHA-256 of the first ``size`` bytes of a growing file."""

    def __init__(self, path: str) -> None:
        self.path, self.size, self._h = path, 0, hashlib.sha256()

    def catch_up(self) -> None:
        with open(self.path, "rb") as f:
            f.seek(self.size)
            while block := f.read(_BLOCK):
                self._h.update(block)
                self.size += len(block)

    def hexdigest(self) -> str:
        return self._h.hexdigest()


def verified(
    checkpoints: list[Checkpoint],
    files: tuple[str | None, str | None],
    names: tuple[str, str],
    header: int = 0,
) -> Checkpoint | None:
    """The last checkpoint whose bytes ``files`` (records, replays) still hold unchanged;
    None when they hold none. A checkpoint the files hold but whose bytes differ raises
    :class:`OptionError` naming the lines written between it and the one before
    (``header``: lines before the first record in the records file)."""
    hashes = [hashlib.sha256(), hashlib.sha256()]
    sizes = [0, 0]
    good: Checkpoint | None = None
    for cp in checkpoints:
        for i, path in enumerate(files):
            want = cp.sizes[i]
            if want is None:
                continue
            if path is None or not Path(path).exists() or Path(path).stat().st_size < want:
                return good
        for i, path in enumerate(files):
            want = cp.sizes[i]
            if want is None or path is None:
                continue
            if want < sizes[i]:
                return good  # checkpoints never shrink: a ledger edited by hand
            with open(path, "rb") as f:
                f.seek(sizes[i])
                left = want - sizes[i]
                while left > 0 and (block := f.read(min(left, _BLOCK))):
                    hashes[i].update(block)
                    left -= len(block)
            sizes[i] = want
            if hashes[i].hexdigest() != cp.digests[i]:
                first = good.records if good is not None else 0
                skip = header if i == 0 else 0
                raise OptionError(
                    f"{names[i]} was changed after the run wrote it: its lines "
                    f"{first + skip + 1} to {cp.records + skip} differ from what the run wrote "
                    "(the digest in its plan file); --resume keeps only what the run wrote: "
                    "start a new file"
                )
        good = cp
    return good
