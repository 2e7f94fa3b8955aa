"""Typed Parquet: every game's declared schema round-trips its records through pyarrow, pandas,
polars and duckdb; the bytes do not depend on --jobs; bad records fail clearly."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import toy_game  # noqa: F401  (registers the toy game)
from cardcore.cli import cli
from cardcore.errors import CardcoreError
from cardcore.games.base import get_game
from cardcore.games.schema import INT64, UINT64, infer_columns, list_of, optional
from cardcore.sim import simulate
from cardcore.sim.writers import ParquetWriter, dumps

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

# (game, match, agents): random Spite & Malice games end in ties, so nulls are covered too
KINDS = [
    ("three-thirteen", False, "greedy,random,greedy,random"),
    ("spite-malice", False, "random"),
    ("spite-malice", True, "greedy"),
    ("nerts", False, "random,greedy"),
    ("nerts", True, "greedy"),
]


def _records(game: str, match: bool, agents: str, n: int = 6) -> list[dict[str, Any]]:
    return list(simulate(game, games=n, seed=11, agents=agents, match=match))


def _write(path: Path, records: list[dict[str, Any]], game: str, match: bool) -> None:
    schema = get_game(game).schema_for(match)
    assert schema is not None
    w = ParquetWriter(str(path), schema.with_run_columns(), row_group=4)
    w.write(records)
    w.close()


def _with_nulls(records: list[dict[str, Any]], game: str, match: bool) -> list[dict[str, Any]]:
    """The records plus, per nullable top-level column, a copy holding None there."""
    schema = get_game(game).schema_for(match)
    assert schema is not None
    extra = [{**records[0], name: None} for name, c in schema.columns.items() if c.nullable]
    return records + extra


@pytest.fixture(scope="module", params=KINDS, ids=lambda k: f"{k[0]}{'-match' if k[1] else ''}")
def written(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, list[dict[str, Any]]]:
    game, match, agents = request.param
    records = _with_nulls(_records(game, match, agents), game, match)
    path = tmp_path_factory.mktemp("pq") / "records.parquet"
    _write(path, records, game, match)
    return path, records


def _plain(v: Any) -> Any:
    """numpy arrays and scalars (pandas) as Python lists and ints."""
    if hasattr(v, "tolist"):
        v = v.tolist()
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def test_pyarrow_gives_back_the_records_byte_for_byte(
    written: tuple[Path, list[dict[str, Any]]],
) -> None:
    path, records = written
    f = pq.ParquetFile(path)
    assert f.num_row_groups >= 2
    for i in range(f.num_row_groups):
        assert f.read_row_group(i).schema == f.schema_arrow
    rows = f.read().to_pylist()
    assert [dumps(r) for r in rows] == [dumps(r) for r in records]
    types = {fld.name: fld.type for fld in f.schema_arrow}
    assert types["seed"] == pa.uint64()
    assert types["run_seed"] == pa.uint64()
    assert types["scores"] == pa.list_(pa.field("element", pa.int64(), False))
    assert f.schema_arrow.field("winner").nullable
    assert not f.schema_arrow.field("scores").nullable


def test_pandas_reads_the_structure(written: tuple[Path, list[dict[str, Any]]]) -> None:
    pd = pytest.importorskip("pandas")
    path, records = written
    df = pd.read_parquet(path)
    assert str(df["seed"].dtype) == "uint64"
    got = [{k: _plain(v) for k, v in row.items()} for row in df.to_dict("records")]
    for g, r in zip(got, records, strict=True):
        # pandas shows a null integer in an int column as NaN (its missing value)
        g = {k: None if v != v else v for k, v in g.items()}
        assert g == json.loads(dumps(r))


def test_polars_reads_the_structure(written: tuple[Path, list[dict[str, Any]]]) -> None:
    pl = pytest.importorskip("polars")
    path, records = written
    df = pl.read_parquet(path)
    assert df.schema["seed"] == pl.UInt64
    assert df.schema["scores"] == pl.List(pl.Int64)
    assert df.to_dicts() == records


def test_duckdb_reads_the_structure(written: tuple[Path, list[dict[str, Any]]]) -> None:
    duckdb = pytest.importorskip("duckdb")
    path, records = written
    rel = duckdb.sql(f"SELECT * FROM read_parquet('{path}')")
    types = dict(zip(rel.columns, [str(t) for t in rel.types], strict=True))
    assert types["seed"] == "UBIGINT"
    assert types["scores"] == "BIGINT[]"
    rows = [dict(zip(rel.columns, row, strict=True)) for row in rel.fetchall()]
    assert rows == records
    total = duckdb.sql(f"SELECT sum(list_sum(scores)) FROM read_parquet('{path}')").fetchall()
    assert total[0][0] == sum(sum(r["scores"]) for r in records)


def test_parquet_bytes_do_not_depend_on_jobs_or_chunks(tmp_path: Path) -> None:
    outs = []
    for k, extra in enumerate((["-j", "1"], ["-j", "2", "--chunk-size", "3"])):
        out = tmp_path / f"{k}.parquet"
        args = ["sim", "nerts", "-n", "12", "--seed", "5", "--agents", "greedy", "-o", str(out)]
        r = CliRunner().invoke(cli, [*args, "-q", *extra])
        assert r.exit_code == 0, r.output
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_undeclared_games_get_inferred_types(tmp_path: Path) -> None:
    records = list(simulate("toy", games=30, seed=2))
    columns = infer_columns(records)
    assert columns["seed"] == optional(UINT64)
    assert columns["run_seed"] == optional(UINT64)
    assert columns["winner"] == optional(INT64)
    assert columns["scores"] == optional(list_of(optional(INT64)))
    out = tmp_path / "toy.parquet"
    r = CliRunner().invoke(
        cli,
        ["sim", "toy", "-n", "30", "--seed", "2", "-o", str(out), "-q"],
        env={"CARDCORE_GAME_MODULES": "toy_game"},
    )
    assert r.exit_code == 0, r.output
    assert [dumps(x) for x in pq.read_table(out).to_pylist()] == [dumps(x) for x in records]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"extra": 1}, "keys \\['extra'\\] differ"),
        ({"scores": None}, "None in 'scores'"),
        ({"seed": -1}, "do not fit"),
        ({"players": "two"}, "do not fit"),
    ],
)
def test_records_that_do_not_fit_fail_clearly(
    tmp_path: Path, change: Mapping[str, Any], message: str
) -> None:
    records = _records("nerts", False, "greedy", n=2)
    schema = get_game("nerts").schema_for(False)
    assert schema is not None
    w = ParquetWriter(str(tmp_path / "x.parquet"), schema.with_run_columns())
    w.write([records[0]])
    with pytest.raises(CardcoreError, match=message):
        w.write([{**records[1], **change}])
    w.close()
