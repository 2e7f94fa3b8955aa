"""Ray backend and Parquet output give the same records as the local backend and JSON Lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import toy_game  # noqa: F401  (registers the toy game)
from cardcore.cli import cli
from cardcore.errors import OptionError
from cardcore.sim import simulate
from cardcore.sim.writers import dumps

TOY_ENV = {"CARDCORE_GAME_MODULES": "toy_game"}


def test_parquet_rows_hold_the_same_records(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "g.parquet"
    args = ["sim", "toy", "-n", "120", "--seed", "4", "-o", str(out), "-q", "--chunk-size", "50"]
    r = CliRunner().invoke(cli, args, env=TOY_ENV)
    assert r.exit_code == 0, r.output
    table = pq.read_table(out)
    assert table.num_rows == 120
    expected = [dumps(rec) for rec in simulate("toy", games=120, seed=4)]
    assert [dumps(row) for row in table.to_pylist()] == expected


def test_parquet_refuses_stdout_and_resume(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    target = str(tmp_path / "x.parquet")
    for extra in (["-o", "-", "--format", "parquet"], ["-o", target, "--resume"]):
        r = CliRunner().invoke(cli, ["sim", "toy", "-n", "1", "--seed", "1", *extra], env=TOY_ENV)
        assert r.exit_code == 2, r.output
        assert "Parquet" in r.output


@pytest.mark.distributed
def test_ray_backend_equals_local_byte_for_byte(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    assert not ray.is_initialized()
    local = [dumps(r) for r in simulate("toy", games=60, seed=8, agents="random")]
    remote = [
        dumps(r)
        for r in simulate(
            "toy", games=60, seed=8, agents="random", backend="ray", jobs=2, chunk_size=7
        )
    ]
    assert remote == local
    assert not ray.is_initialized()  # it shut down the cluster it started
    # and through the CLI
    out = tmp_path / "ray.jsonl"
    r = CliRunner().invoke(
        cli,
        [
            "sim",
            "toy",
            "-n",
            "60",
            "--seed",
            "8",
            "--agents",
            "random",
            "-o",
            str(out),
            "-q",
            "--backend",
            "ray",
            "-j",
            "2",
        ],
        env=TOY_ENV,
    )
    assert r.exit_code == 0, r.output
    assert [
        json.dumps(json.loads(x), separators=(",", ":")) for x in out.read_text().splitlines()
    ] == [json.dumps(json.loads(x), separators=(",", ":")) for x in local]


def test_missing_backend_dependency_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real = builtins.__import__

    def fake(name: str, *a: object, **k: object) -> object:
        if name == "ray":
            raise ImportError("no ray")
        return real(name, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", fake)
    with pytest.raises(OptionError, match=r"pip install 'cardcore\[ray\]'"):
        list(simulate("toy", games=1, seed=1, backend="ray"))
