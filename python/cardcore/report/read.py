"""Reading result files (JSON Lines, CSV, Parquet) into groups of comparable records."""

from __future__ import annotations

import contextlib
import csv
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TextIO

from cardcore.errors import CardcoreError, OptionError, StateFormatError
from cardcore.games.base import get_game
from cardcore.report.results import Results
from cardcore.sim.writers import format_for

__all__ = ["Groups", "load", "results_for"]


def _schema(game: str, keys: set[str]) -> tuple[str, str | None, str | None]:
    """``(unit, length column, rounds path)`` of a record of ``game`` with these keys: the
    declared schema (game or match) that fits the keys best; defaults for unknown games."""
    try:
        spec = get_game(game)
    except OptionError:
        return "game", None, None
    best: tuple[int, int] | None = None
    chosen = None
    for schema in (spec.record_schema, spec.match_schema):
        if schema is None:
            continue
        cols = schema.with_run_columns()
        scalars = {k for k, c in cols.items() if c.kind not in ("list", "struct")}
        score = (len(keys - cols.keys()), len(scalars - keys))
        if best is None or score < best:
            best, chosen = score, schema
    if chosen is None:
        return "game", None, None
    rounds = chosen.rounds if chosen.rounds and chosen.rounds.split(".")[0] in keys else None
    length = chosen.length if chosen.length in keys else None
    return chosen.unit, length, rounds


class Groups:
    """Results keyed by ``(game, players, unit)``: records of one game, seat count and kind
    are pooled (across files too, so paired comparisons can span files)."""

    def __init__(self, pair_deals: bool = True) -> None:
        self.pair_deals = pair_deals
        self.groups: dict[tuple[str, int, str], Results] = {}

    def for_record(self, game: str, players: int, keys: set[str]) -> Results:
        unit, length, rounds = _schema(game, keys)
        key = (game, players, unit)
        if key not in self.groups:
            self.groups[key] = Results(
                game, players, unit, length, rounds, pair_deals=self.pair_deals
            )
        return self.groups[key]

    def add(self, record: Mapping[str, Any], source: str) -> None:
        players = record["players"]
        if isinstance(players, bool) or not isinstance(players, int) or players < 1:
            raise StateFormatError(f"players must be an int >= 1, not {players!r}")
        self.for_record(str(record["game"]), players, set(record)).add(record, source)

    def __iter__(self) -> Iterator[Results]:
        return iter(self.groups.values())


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        return float(text)


def _csv_record(row: Mapping[str, str]) -> dict[str, Any]:
    """A flat CSV row back as a record: lists split at ``;``, empty cells as None, numbers."""
    rec: dict[str, Any] = dict(row)
    rec["agents"] = row["agents"].split(";") if row.get("agents") else []
    rec["scores"] = [_number(x) for x in row["scores"].split(";")] if row.get("scores") else []
    for key, text in row.items():
        if key in ("agents", "scores"):
            continue
        if text == "":
            rec[key] = None
        elif key != "game":
            with contextlib.suppress(ValueError):
                rec[key] = _number(text)
    return rec


MAX_LINE = 64 << 20
"""Longest line read (64 MiB; records are a few KB, match records with replays a few MB):
``/dev/zero`` or a binary file without newlines is an error, not all the memory."""

NEEDED = ("game", "players", "agents", "scores", "winner")
"""The columns of every record (``cardcore sim`` writes them)."""


def _lines(f: TextIO, path: str) -> Iterator[str]:
    """The lines of ``f``, each at most :data:`MAX_LINE` characters."""
    n = 0
    while line := f.readline(MAX_LINE + 1):
        n += 1
        if len(line) > MAX_LINE:
            raise CardcoreError(f"{path}:{n}: a line longer than {MAX_LINE:,} characters")
        yield line


def _csv_rows(f: TextIO, path: str) -> Iterator[dict[str, Any]]:
    """The rows of a CSV file, each one line with the header's fields (a stray quote that
    joins lines, a short or long row and a missing column are errors, not skipped records)."""
    reader = csv.DictReader(_lines(f, path))
    try:
        header = reader.fieldnames or []
        missing = [c for c in NEEDED if c not in header]
        if missing:
            raise CardcoreError(f"{path}: no {', '.join(missing)} column")
        line = reader.line_num
        for row in reader:
            if reader.line_num != line + 1:
                raise CardcoreError(
                    f"{path}:{line + 1}: a quoted field runs on to line {reader.line_num} "
                    "(a stray quote?)"
                )
            line = reader.line_num
            if None in row or None in row.values():
                extra = row.pop(None, None) or []
                fields = sum(v is not None for v in row.values()) + len(extra)
                raise CardcoreError(
                    f"{path}:{line}: {fields} fields where the header has {len(header)}"
                )
            yield _csv_record(row)
    except csv.Error as e:
        raise CardcoreError(f"{path}:{reader.line_num}: not CSV ({e})") from None


def _records(path: str, fmt: str) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8", newline="") as f:
        if fmt == "csv":
            yield from _csv_rows(f, path)
            return
        for n, line in enumerate(_lines(f, path), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError as e:
                raise CardcoreError(f"{path}:{n}: not JSON ({e})") from None
            except RecursionError:
                raise CardcoreError(f"{path}:{n}: JSON nested too deeply") from None
            if not isinstance(rec, dict):
                raise CardcoreError(f"{path}:{n}: not a record")
            yield rec


def load(paths: Sequence[str], pair_deals: bool = True) -> Groups:
    """Every record of ``paths`` (format from the file name: ``.csv``, ``.parquet``/``.pq``,
    else JSON Lines), grouped. Raises :class:`CardcoreError` on unreadable files."""
    groups = Groups(pair_deals)
    for path in paths:
        fmt = format_for(path, None)
        if fmt == "parquet":
            from cardcore.report.arrow import add_parquet

            add_parquet(path, groups.for_record, source=path)
            continue
        try:
            for n, rec in enumerate(_records(path, fmt), 1):
                try:
                    groups.add(rec, path)
                except (LookupError, TypeError, ValueError, ArithmeticError) as e:
                    raise CardcoreError(f"{path}: record {n} is not a game record ({e})") from None
        except OSError as e:
            raise CardcoreError(f"cannot read {path}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise CardcoreError(
                f"{path}: not a text file (a Parquet file needs .parquet)"
            ) from None
    return groups


def results_for(game: str, players: int, *, match: bool = False, paired: bool = False) -> Results:
    """An empty :class:`Results` for the records of one run (``cardcore sim``'s summary);
    deals are kept for paired differences only for a ``paired`` run."""
    schema = get_game(game).schema_for(match)
    if schema is None:
        return Results(game, players, "match" if match else "game", pair_deals=paired)
    return Results(game, players, schema.unit, schema.length, schema.rounds, pair_deals=paired)
