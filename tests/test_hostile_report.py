"""Hostile inputs and faults, round 2 (issue #31): `cardcore report` and `cardcore replay` on
files anyone may have written. Text from the files is printed with its control characters
escaped (M7, M8) and Markdown cells escaped (L18); scores a float cannot carry, lines without
end, short or joined CSV rows, missing columns and null Parquet cells are one-line errors
(L17, L19-L22); a replay's recorded result must be the same JSON, types included (L32)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardcore.cli import cli
from cardcore.errors import ReplayMismatchError
from cardcore.games.base import GameRequest, get_game
from cardcore.games.records import same_json
from cardcore.report import read
from cardcore.safetext import markdown_cell, printable
from cardcore.sim import simulate

RECORDS = [json.loads(json.dumps(r)) for r in simulate("three-thirteen", games=12, seed=3)]
NASTY = [
    "\x1b]52;c;aGVsbG8=\x07clip",  # OSC 52: write the clipboard
    "\x1b]0;owned\x07",  # window title
    "\x1b[2J\x1b[H",  # clear the screen
    "a|b\u202egnp.exe",  # a cell splitter and a right-to-left override
]


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def report(*args: str, stdout: bool = False) -> tuple[int, str]:
    r = CliRunner().invoke(cli, ["report", *args])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r.exit_code, r.stdout if stdout else r.output


def control_free(text: str) -> bool:
    return not any((ord(c) < 32 and c not in "\n") or 0x7F <= ord(c) < 0xA0 for c in text) and (
        "\u202e" not in text
    )


# --- M7, L18: names from the files are shown, never obeyed --------------------------------


@pytest.mark.parametrize("fmt", ["table", "markdown", "json", "html"])
def test_report_escapes_control_characters_in_agent_names(tmp_path: Path, fmt: str) -> None:
    """M7: agent names wrote the clipboard (OSC 52), retitled the window, cleared the screen."""
    recs = copy.deepcopy(RECORDS)
    recs[0]["agents"] = NASTY
    code, out = report(str(write(tmp_path / "r.jsonl", recs)), "--format", fmt)
    assert code == 0, out
    assert control_free(out), repr(out[:2000])
    if fmt != "json":
        assert "\\x1b]52;c;aGVsbG8=\\x07clip" in out.replace("\\\\", "\\")


def test_report_markdown_escapes_cells(tmp_path: Path) -> None:
    """L18: `|` split a cell and `<script>` went through as HTML."""
    recs = copy.deepcopy(RECORDS)
    recs[0]["agents"] = ["a|b", "<script>alert(1)</script>", "x&y", "greedy"]
    code, out = report(str(write(tmp_path / "r.jsonl", recs)), "--format", "markdown", stdout=True)
    assert code == 0, out
    assert "<script>" not in out
    assert "&lt;script&gt;" in out
    cells = 0
    for line in out.splitlines():  # every row of a table has the cells of its header
        if not line.startswith("|"):
            cells = 0
            continue
        n = line.replace("\\|", "").count("|")
        cells = cells or n
        assert n == cells, line
    assert markdown_cell("a|b\\") == "a\\|b\\\\"


def test_report_rich_markup_in_names_is_text(tmp_path: Path) -> None:
    recs = copy.deepcopy(RECORDS)
    recs[0]["agents"] = ["[bold red]x[/]", "[link=http://e.example]y[/link]", "greedy", "z"]
    code, out = report(str(write(tmp_path / "r.jsonl", recs)))
    assert code == 0, out
    assert "[bold red]x[/]" in out
    assert "[link=http://e.example]y[/link]" in out


def test_printable() -> None:
    assert printable("ok é ♠ 中") == "ok é ♠ 中"
    assert printable("a\x1b[2Jb\nc\x9b\u202e\u200b") == "a\\x1b[2Jb\\x0ac\\x9b\\u202e\\u200b"


# --- L17, L22: numbers a report can carry -----------------------------------------------------


@pytest.mark.parametrize("scores", [[10**300] * 4, [-1e308, -1e308, 0, 1], [2**53 + 1, 0, 0, 0]])
def test_scores_too_big_for_the_figures_are_one_line_errors(
    tmp_path: Path, scores: list[Any]
) -> None:
    """L17: 10**300 gave a bare OverflowError; L22: -1e308 gave -Infinity in JSON and crashed
    --html."""
    recs = copy.deepcopy(RECORDS)
    recs[3]["scores"] = scores
    for args in (["--format", "json"], ["--html", str(tmp_path / "r.html")]):
        code, out = report(str(write(tmp_path / "r.jsonl", recs)), *args)
        assert code == 1, out
        assert "record 4 is not a game record (scores must be numbers of size at most 2**53" in out
        assert "Traceback" not in out
        assert "OverflowError" not in out


def test_scores_at_the_bound_give_finite_figures(tmp_path: Path) -> None:
    recs = copy.deepcopy(RECORDS)
    recs[0]["scores"] = [-(2**53), 2**53, 0, 1]
    page = tmp_path / "r.html"
    code, out = report(
        str(write(tmp_path / "r.jsonl", recs)), "--format", "json", "--html", str(page)
    )
    assert code == 0, out
    assert "Infinity" not in out
    assert "NaN" not in out
    assert "Infinity" not in page.read_text()


@pytest.mark.parametrize("bad", [10**300, 2.0**60])
def test_parquet_scores_too_big(tmp_path: Path, bad: Any) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    recs = copy.deepcopy(RECORDS)
    rows = [
        {"game": r["game"], "players": 4, "agents": r["agents"], "scores": r["scores"]}
        | {"winner": r["winner"]}
        for r in recs
    ]
    rows[2]["scores"] = [float(min(bad, 1e300))] * 4
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "r.parquet")
    code, out = report(str(tmp_path / "r.parquet"))
    assert code == 1, out
    assert "size at most 2**53" in out


# --- L19: a file without line ends ------------------------------------------------------------


def test_a_line_without_end_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """L19: `cardcore report /dev/zero` read until memory ran out."""
    monkeypatch.setattr(read, "MAX_LINE", 4096)
    for name in ("r.jsonl", "r.csv"):
        f = tmp_path / name
        f.write_bytes(b"\0" * 10_000)
        code, out = report(str(f))
        assert code == 1, out
        assert f"{f}:1: a line longer than 4,096 characters" in out
    code, out = report("/dev/zero")
    assert code == 1, out
    assert "/dev/zero:1: a line longer than 4,096 characters" in out


# --- L20, L21: CSV and Parquet files that are not records -------------------------------------


def csv_lines(tmp_path: Path) -> list[str]:
    f = tmp_path / "base.csv"
    r = CliRunner().invoke(cli, ["sim", "three-thirteen", "-n", "30", "--seed", "3", "-q",
                                 "--agents", "greedy", "-o", str(f)])  # fmt: skip
    assert r.exit_code == 0, r.output
    return f.read_text().splitlines()


def test_csv_short_long_and_joined_rows(tmp_path: Path) -> None:
    """L20: a short CSV row gave an internal TypeError; L21: a stray quote joined 29 rows into
    one and the report counted 1 of 30 records, exit 0."""
    lines = csv_lines(tmp_path)
    cases = {
        "short": (2, lines[2].rsplit(",", 3)[0], "3: 9 fields where the header has 12"),
        "long": (2, lines[2] + ",x,y", "3: 14 fields where the header has 12"),
        "quote": (3, '"' + lines[3], "4: a quoted field runs on to line"),
    }
    for name, (k, line, message) in cases.items():
        bad = list(lines)
        bad[k] = line
        f = tmp_path / f"{name}.csv"
        f.write_text("\n".join(bad) + "\n")
        code, out = report(str(f))
        assert code == 1, (name, out)
        assert f"{f}:{message}" in out
        assert "TypeError" not in out


@pytest.mark.parametrize("column", ["winner", "scores", "agents"])
def test_csv_without_a_needed_column(tmp_path: Path, column: str) -> None:
    """L21: a CSV without a winner column counted every seat as tied, exit 0."""
    lines = csv_lines(tmp_path)
    i = lines[0].split(",").index(column)
    rows = [",".join(c for k, c in enumerate(x.split(",")) if k != i) for x in lines]
    f = tmp_path / "r.csv"
    f.write_text("\n".join(rows) + "\n")
    code, out = report(str(f))
    assert code == 1, out
    assert f"{f}: no {column} column" in out


def test_a_record_without_any_winner_key(tmp_path: Path) -> None:
    recs = copy.deepcopy(RECORDS)
    del recs[5]["winner"], recs[5]["winners"]
    code, out = report(str(write(tmp_path / "r.jsonl", recs)))
    assert code == 1, out
    assert "record 6 is not a game record (it has no 'winner')" in out


@pytest.mark.parametrize("column", ["game", "players"])
def test_parquet_null_game_or_players(tmp_path: Path, column: str) -> None:
    """L20: a null game column gave `TypeError: 'float' object cannot be interpreted as an
    integer`."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    f = tmp_path / "r.parquet"
    assert CliRunner().invoke(cli, ["sim", "spite-malice", "-n", "5", "--seed", "3", "-q",
                                    "-o", str(f)]).exit_code == 0  # fmt: skip
    t = pq.read_table(f)
    i = t.schema.get_field_index(column)
    t = t.set_column(i, column, pa.array([None] * t.num_rows, t.schema.field(column).type))
    pq.write_table(t, f)
    code, out = report(str(f))
    assert code == 1, out
    assert f"{f}: a record has no {column} (a null)" in out


# --- M8: replay output ------------------------------------------------------------------------


def spite_replay() -> dict[str, Any]:
    spec = get_game("spite-malice")
    req = GameRequest(
        index=0,
        seed=5,
        players=2,
        agents=("greedy", "random"),
        options=spec.resolve_options({}),
        replay=True,
    )
    replay: dict[str, Any] = json.loads(json.dumps(spec.play(req)["replay"]))
    return replay


def test_replay_output_escapes_text_from_the_file(tmp_path: Path) -> None:
    """M8: move text, agent names and cardcore_version from a stranger's replay reached the
    terminal as they were."""
    good = spite_replay()
    lines = []
    for field, value in (
        ("cardcore_version", NASTY[0]),
        ("agents", [NASTY[1], "greedy"]),
        ("game", NASTY[2]),
        ("seed", NASTY[3]),
    ):
        bad = copy.deepcopy(good)
        bad[field] = value
        lines.append(json.dumps(bad))
    bad = copy.deepcopy(good)
    first = next(k for k, v in bad.items() if isinstance(v, list) and v and isinstance(v[0], str))
    bad[first][0] = NASTY[0]
    lines += [json.dumps(bad), json.dumps(good), NASTY[2]]
    f = tmp_path / f"r{NASTY[0]}.jsonl"
    f.write_text("\n".join(lines) + "\n")
    r = CliRunner().invoke(cli, ["replay", str(f)])
    assert control_free(r.output), repr(r.output)
    assert "MISMATCH" in r.output
    assert "\\x1b]52;c;aGVsbG8=\\x07clip" in r.output  # the file name, shown escaped


# --- L32: a replay's result, types included -----------------------------------------------------


def test_same_json() -> None:
    assert same_json({"a": [1, None, "x"]}, {"a": (1, None, "x")})
    assert not same_json(1, True)
    assert not same_json(1, 1.0)
    assert not same_json([0], [False])
    assert not same_json({"a": 1}, {"a": 1, "b": 2})


@pytest.mark.parametrize(
    ("key", "change"),
    [
        ("winner", lambda v: v == 1 if v in (0, 1) else float(v)),
        ("winner", float),
        ("scores", lambda v: [float(x) for x in v]),
        ("winners", lambda v: [float(x) for x in v]),
    ],
)
def test_three_thirteen_result_with_other_json_types_is_a_mismatch(key: str, change: Any) -> None:
    """L32: `winner: true` or float scores still verified "ok"."""
    spec = get_game("three-thirteen")
    req = GameRequest(
        index=0,
        seed=5,
        players=2,
        agents=("greedy", "random"),
        options=spec.resolve_options({}),
        replay=True,
    )
    replay = json.loads(json.dumps(spec.play(req)["replay"]))
    spec.verify_replay(replay)
    bad = copy.deepcopy(replay)
    bad["result"][key] = change(bad["result"][key])
    with pytest.raises(ReplayMismatchError, match="result"):
        spec.verify_replay(bad)
