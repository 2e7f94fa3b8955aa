"""Record output: JSON Lines, CSV and Parquet, written in index order.

Each record is written whole (one line, or one Parquet row group of many records) and flushed
per batch, so an interrupted run never leaves half a record behind the last full one.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import IO, Any, Protocol

from cardcore.errors import OptionError

__all__ = [
    "FORMATS",
    "RecordWriter",
    "dumps",
    "flat_row",
    "format_for",
    "open_writer",
]

FORMATS = ("jsonl", "csv", "parquet")
CSV_COLUMNS = ("game", "index", "seed", "run_seed", "players", "agents", "scores", "winner")


def dumps(record: Mapping[str, Any]) -> str:
    """The canonical one-line JSON of a record (key order as the game built it)."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False)


def format_for(path: str | None, fmt: str | None) -> str:
    """The explicit format, else the one the file name implies, else JSON Lines."""
    if fmt:
        if fmt not in FORMATS:
            raise OptionError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
        return fmt
    if path and path.endswith(".csv"):
        return "csv"
    if path and path.endswith((".parquet", ".pq")):
        return "parquet"
    return "jsonl"


def _cell(v: Any) -> Any:
    if isinstance(v, list | tuple):
        return ";".join("" if x is None else str(x) for x in v)
    return "" if v is None else v


def flat_row(record: Mapping[str, Any]) -> dict[str, Any]:
    """A flat summary row: the fixed columns, then every other scalar field."""
    row = {k: _cell(record.get(k)) for k in CSV_COLUMNS}
    for k, v in record.items():
        if k not in row and (v is None or isinstance(v, str | int | float | bool)):
            row[k] = _cell(v)
    return row


class RecordWriter(Protocol):
    def write(self, records: Sequence[Mapping[str, Any]]) -> None: ...

    def close(self) -> None: ...


class JsonlWriter:
    def __init__(self, stream: IO[str], owned: bool) -> None:
        self.stream, self.owned = stream, owned

    def write(self, records: Sequence[Mapping[str, Any]]) -> None:
        self.stream.write("".join(dumps(r) + "\n" for r in records))
        self.stream.flush()

    def close(self) -> None:
        if self.owned:
            self.stream.close()


class CsvWriter:
    def __init__(self, stream: IO[str], owned: bool, header: bool) -> None:
        self.stream, self.owned = stream, owned
        self.columns: list[str] | None = None
        self.header = header

    def write(self, records: Sequence[Mapping[str, Any]]) -> None:
        buf = io.StringIO()
        for r in records:
            row = flat_row(r)
            if self.columns is None:
                self.columns = list(row)
                if self.header:
                    csv.writer(buf, lineterminator="\n").writerow(self.columns)
            csv.DictWriter(buf, self.columns, extrasaction="ignore", lineterminator="\n").writerow(
                row
            )
        self.stream.write(buf.getvalue())
        self.stream.flush()

    def close(self) -> None:
        if self.owned:
            self.stream.close()


def _parquet_row(record: Mapping[str, Any]) -> dict[str, Any]:
    """Scalar fields as they are (None = null), lists joined with ';', whole record as JSON."""
    row: dict[str, Any] = {}
    for k, v in record.items():
        if isinstance(v, list | tuple):
            row[k] = _cell(v)
        elif v is None or isinstance(v, str | int | float | bool):
            row[k] = v
    row["record"] = dumps(record)
    return row


class ParquetWriter:
    """One row group per batch: flat columns plus the whole record as a JSON string column.

    The schema is fixed by the first batch (seeds as uint64, ``winner`` as a nullable int64);
    later values are coerced to it, so memory stays flat however many games are written.
    """

    _FIXED: Mapping[str, str] = {
        "index": "int64",
        "seed": "uint64",
        "run_seed": "uint64",
        "players": "int64",
        "winner": "int64",
    }

    def __init__(self, path: str) -> None:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise OptionError(
                "Parquet output needs pyarrow: pip install 'cardcore[parquet]'"
            ) from None
        self.pa, self.pq, self.path = pa, pq, path
        self.writer: Any = None
        self.schema: Any = None

    def _schema(self, rows: list[dict[str, Any]]) -> Any:
        pa = self.pa
        fields = []
        for name in rows[0]:
            if name in self._FIXED:
                fields.append(pa.field(name, getattr(pa, self._FIXED[name])()))
                continue
            sample = next((r[name] for r in rows if r.get(name) is not None), None)
            if isinstance(sample, bool):
                typ = pa.bool_()
            elif isinstance(sample, int):
                typ = pa.int64()
            elif isinstance(sample, float):
                typ = pa.float64()
            else:
                typ = pa.string()
            fields.append(pa.field(name, typ))
        return pa.schema(fields)

    def write(self, records: Sequence[Mapping[str, Any]]) -> None:
        if not records:
            return
        rows = [_parquet_row(r) for r in records]
        if self.writer is None:
            self.schema = self._schema(rows)
            self.writer = self.pq.ParquetWriter(self.path, self.schema)
        for row in rows:
            for f in self.schema:
                v = row.get(f.name)
                if v is not None and self.pa.types.is_string(f.type) and not isinstance(v, str):
                    row[f.name] = str(v)
        self.writer.write_table(self.pa.Table.from_pylist(rows, schema=self.schema))

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def open_writer(path: str | None, fmt: str, *, append: bool = False) -> RecordWriter | None:
    """A writer for ``path`` (``-`` = stdout; None = no records written)."""
    if path is None:
        return None
    if fmt == "parquet":
        if path == "-":
            raise OptionError("Parquet cannot be written to stdout; give a file name")
        if append:
            raise OptionError("--resume works with jsonl and csv output, not Parquet")
        return ParquetWriter(path)
    if path == "-":
        import sys

        stream: IO[str] = sys.stdout
        owned = False
    else:
        stream = open(path, "a" if append else "w", encoding="utf-8", newline="")  # noqa: SIM115
        owned = True
    if fmt == "csv":
        return CsvWriter(stream, owned, header=not append)
    return JsonlWriter(stream, owned)
