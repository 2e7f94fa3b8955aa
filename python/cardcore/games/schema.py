"""Declared record schemas: the column types of a game's records, without any library.

A game declares what its records hold (a :class:`RecordSchema` for a game record and one for a
match record) so that columnar output has one fixed, typed layout: seeds as ``uint64``, lists as
``list<int64>``, nested rounds as lists of lists or of structs, nulls only where the record may
hold ``None``. :meth:`Col.arrow` turns a column type into its Arrow type (pyarrow imported
lazily); :func:`infer_columns` gives a schema to games that declare none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from cardcore.errors import CardcoreError

__all__ = [
    "BOOL",
    "FLOAT64",
    "HEAD",
    "INT64",
    "RUN_COLUMNS",
    "STRING",
    "UINT64",
    "Col",
    "RecordSchema",
    "arrow_schema",
    "infer_columns",
    "list_of",
    "optional",
    "options_struct",
    "struct",
]

_SCALARS = ("int64", "uint64", "float64", "bool", "string")


@dataclass(frozen=True, slots=True)
class Col:
    """The type of one column (or of a list item or struct field)."""

    kind: str
    """``int64``, ``uint64``, ``float64``, ``bool``, ``string``, ``list`` or ``struct``."""
    nullable: bool = False
    item: Col | None = None
    fields: tuple[tuple[str, Col], ...] = ()

    def arrow(self) -> Any:
        """The matching ``pyarrow.DataType`` (needs pyarrow)."""
        import pyarrow as pa

        if self.kind == "list":
            assert self.item is not None
            return pa.list_(pa.field("element", self.item.arrow(), self.item.nullable))
        if self.kind == "struct":
            return pa.struct([pa.field(n, c.arrow(), c.nullable) for n, c in self.fields])
        return {
            "int64": pa.int64,
            "uint64": pa.uint64,
            "float64": pa.float64,
            "bool": pa.bool_,
            "string": pa.string,
        }[self.kind]()

    def __str__(self) -> str:
        if self.kind == "list":
            text = f"list<{self.item}>"
        elif self.kind == "struct":
            text = "struct<" + ", ".join(f"{n}: {c}" for n, c in self.fields) + ">"
        else:
            text = self.kind
        return text + ("?" if self.nullable else "")


INT64: Final = Col("int64")
UINT64: Final = Col("uint64")
FLOAT64: Final = Col("float64")
BOOL: Final = Col("bool")
STRING: Final = Col("string")


def optional(col: Col) -> Col:
    """``col`` that may be ``None``."""
    return replace(col, nullable=True)


def list_of(item: Col) -> Col:
    return Col("list", item=item)


def struct(**fields: Col) -> Col:
    return Col("struct", fields=tuple(fields.items()))


HEAD: Final[Mapping[str, Col]] = {
    "game": STRING,
    "index": INT64,
    "seed": UINT64,
    "players": INT64,
    "agents": list_of(STRING),
}
"""The keys every record starts with (:meth:`GameRequest.record_head`)."""

RUN_COLUMNS: Final[Mapping[str, Col]] = {"run_seed": UINT64, "cardcore_version": STRING}
"""The keys the runner appends to every top-level record."""


def options_struct(specs: Iterable[Any]) -> Col:
    """The struct of a game's options (``OptionSpec`` kinds; nullable ones may be None)."""
    kinds = {int: INT64, float: FLOAT64, bool: BOOL, str: STRING}
    return struct(
        **{o.name: optional(kinds[o.kind]) if o.nullable else kinds[o.kind] for o in specs}
    )


@dataclass(frozen=True)
class RecordSchema:
    """The columns of one kind of record, in record order, plus what a report may plot.

    ``length`` names an integer column telling how long the game took (turns, decisions);
    ``rounds`` names the per-round scores: a ``list<list<int64>>`` column (round, then seat)
    or ``"column.field"`` for a list of structs with a per-seat ``field``.
    """

    columns: Mapping[str, Col]
    length: str | None = None
    rounds: str | None = None
    unit: str = "game"
    """What one record is: ``game``, ``round`` or ``match``."""
    round_unit: str = "round"

    def with_run_columns(self) -> dict[str, Col]:
        """The columns of a record as the runner writes it."""
        return {**self.columns, **RUN_COLUMNS}


def arrow_schema(columns: Mapping[str, Col], metadata: Mapping[str, str] | None = None) -> Any:
    """The ``pyarrow.Schema`` of ``columns`` (needs pyarrow)."""
    import pyarrow as pa

    fields = [pa.field(name, col.arrow(), col.nullable) for name, col in columns.items()]
    return pa.schema(fields, metadata=dict(metadata or {}))


def _infer(values: Sequence[Any], name: str) -> Col:
    present = [v for v in values if v is not None]
    if not present:
        return optional(STRING)
    sample = present[0]
    col: Col
    if isinstance(sample, bool):
        col = BOOL
    elif isinstance(sample, int):
        col = UINT64 if name == "seed" or name.endswith("_seed") else INT64
    elif isinstance(sample, float):
        col = FLOAT64
    elif isinstance(sample, str):
        col = STRING
    elif isinstance(sample, list | tuple):
        col = list_of(_infer([x for v in present for x in v], name))
    elif isinstance(sample, Mapping):
        keys = list(dict.fromkeys(k for v in present for k in v))
        col = struct(**{k: _infer([v.get(k) for v in present], k) for k in keys})
    else:
        raise CardcoreError(f"record field {name!r} holds a {type(sample).__name__}")
    return optional(col)


def infer_columns(records: Sequence[Mapping[str, Any]]) -> dict[str, Col]:
    """Column types read off sample records, for games that declare no schema: integers are
    ``int64`` except seeds (``uint64``), and everything is nullable (later records may hold
    ``None`` where the sample did not)."""
    keys = list(dict.fromkeys(k for r in records for k in r))
    return {k: _infer([r.get(k) for r in records], k) for k in keys}
