"""Record output: JSON Lines, CSV and Parquet, written in index order.

JSON Lines holds each record as the game built it. CSV is flat: the fixed columns, then every
other scalar field; lists are joined with ``;`` (``None`` as an empty cell), nested fields are
left out. Parquet is typed: one column per record key with the game's declared Arrow types.
Each JSON Lines / CSV record is written whole and flushed per batch, so an interrupted run never
leaves half a record behind the last full one; Parquet row groups are written as they fill and
the rest on close.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import IO, Any, Protocol

from cardcore.errors import CardcoreError, OptionError
from cardcore.games.schema import Col, arrow_schema, infer_columns
from cardcore.outfiles import open_output, output_file

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
ROW_GROUP = 10_000


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


class ParquetWriter:
    """Typed Parquet: one column per record key, typed as the game declares
    (:mod:`cardcore.games.schema`; inferred from the first records otherwise).

    Each batch is checked and converted to Arrow as it comes (a record that does not fit fails
    at once); row groups of ``row_group`` records are written as they fill, whatever the
    batches, so the file is the same bytes for any ``--jobs`` or chunk size.
    """

    def __init__(
        self, path: str, columns: Mapping[str, Col] | None = None, row_group: int = ROW_GROUP
    ) -> None:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise OptionError(
                "Parquet output needs pyarrow: pip install 'cardcore[parquet]'"
            ) from None
        self.pa, self.pq, self.path = pa, pq, path
        self.columns = dict(columns) if columns is not None else None
        self.row_group = row_group
        self.pending: list[Any] = []
        self.pending_rows = 0
        self.seen = 0
        self.writer: Any = None
        self.stream: IO[bytes] | None = None
        self.schema: Any = None

    def write(self, records: Sequence[Mapping[str, Any]]) -> None:
        if not records:
            return
        table = self._table(records)
        self.seen += len(records)
        self.pending.append(table)
        self.pending_rows += table.num_rows
        while self.pending_rows >= self.row_group:
            rest = self.pa.concat_tables(self.pending)
            self._flush(rest.slice(0, self.row_group))
            rest = rest.slice(self.row_group)
            self.pending, self.pending_rows = [rest], rest.num_rows

    def _table(self, rows: Sequence[Mapping[str, Any]]) -> Any:
        if self.columns is None:
            self.columns = infer_columns(rows)
        if self.schema is None:
            self.schema = arrow_schema(self.columns)
        names = self.columns.keys()
        for k, r in enumerate(rows):
            if r.keys() != names:
                raise CardcoreError(
                    f"record {self.seen + k} does not fit the Parquet schema: "
                    f"keys {sorted(set(r) ^ set(names))} differ"
                )
        try:
            table = self.pa.Table.from_pylist(list(rows), schema=self.schema)
        except (self.pa.ArrowException, OverflowError, TypeError) as e:
            raise CardcoreError(
                f"records {self.seen}..{self.seen + len(rows) - 1} do not fit the "
                f"Parquet schema: {e}"
            ) from None
        for name, col in self.columns.items():
            if _has_forbidden_null(table.column(name), col):
                raise CardcoreError(f"a record has None in {name!r}, declared not nullable")
        return table

    def _flush(self, table: Any) -> None:
        if self.writer is None:
            sink: Any = self.path
            if output_file(self.path).direct:  # a device, FIFO or descriptor: in place
                sink = self.stream = open_output(self.path, binary=True)
            self.writer = self.pq.ParquetWriter(sink, self.schema)
        self.writer.write_table(table.combine_chunks(), row_group_size=table.num_rows)

    def close(self) -> None:
        """Writes the last row group and the footer; an error (a full disk) is raised, after
        the file is closed either way."""
        try:
            if self.pending_rows:
                self._flush(self.pa.concat_tables(self.pending))
        finally:
            self.pending, self.pending_rows = [], 0
            writer, self.writer = self.writer, None
            stream, self.stream = self.stream, None
            try:
                if writer is not None:
                    writer.close()
            finally:
                if stream is not None:
                    stream.close()


def _has_forbidden_null(array: Any, col: Col) -> bool:
    """Whether ``array`` (Arrow, chunked or not) holds a null ``col`` does not allow."""
    chunks = getattr(array, "chunks", [array])
    for a in chunks:
        if not col.nullable and a.null_count:
            return True
        if col.kind == "list" and col.item is not None and _has_forbidden_null(a.values, col.item):
            return True
        for name, field_col in col.fields:
            if _has_forbidden_null(a.field(name), field_col):
                return True
    return False


def open_writer(
    path: str | None,
    fmt: str,
    *,
    append: bool = False,
    columns: Mapping[str, Col] | None = None,
) -> RecordWriter | None:
    """A writer for ``path`` (``-`` = stdout; None = no records written). ``columns`` types the
    Parquet columns (default: inferred from the first records)."""
    if path is None:
        return None
    if fmt == "parquet":
        if path == "-":
            raise OptionError("Parquet cannot be written to stdout; give a file name")
        if append:
            raise OptionError("--resume works with jsonl and csv output, not Parquet")
        return ParquetWriter(path, columns)
    if path == "-":
        import sys

        stream: IO[str] = sys.stdout
        owned = False
    else:
        stream = open_output(path, append=append)
        owned = True
    if fmt == "csv":
        return CsvWriter(stream, owned, header=not append)
    return JsonlWriter(stream, owned)
