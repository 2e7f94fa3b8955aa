"""`cardcore report`: figures on a fixed file equal an independent computation (ties
included); JSON Lines, CSV and Parquet give the same counts; the command's formats and errors."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cardcore.cli import cli
from cardcore.games.schema import HEAD, INT64, list_of, optional
from cardcore.report import build_report, load
from cardcore.report.analysis import paired
from cardcore.report.results import Results
from cardcore.report.stats import Moments, bradley_terry, histogram_summary, quantile, wilson
from cardcore.sim.writers import CsvWriter, ParquetWriter

np = pytest.importorskip("numpy")

FIXTURE = Path(__file__).parent / "data" / "report-three-thirteen.jsonl"
"""32 three-player Three-Thirteen records: two runs with the same seed and the agents rotated
(so every deal is played twice), four of them edited into ties (two ``all_tied``, one
``shared_win``, one without any winner or tied list)."""


def _records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in FIXTURE.read_text().splitlines()]


def _first(r: dict[str, Any]) -> set[int]:
    if r["winners"]:
        return set(r["winners"])
    if r["winner"] is not None:
        return {r["winner"]}
    return set(r["tied"]) or set(range(r["players"]))


def _wilson(k: float, n: int) -> list[float]:
    z = 1.959964
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return [max(0.0, c - h), min(1.0, c + h)]


@pytest.fixture(scope="module")
def group() -> dict[str, Any]:
    report = build_report(load([str(FIXTURE)]))
    json.dumps(report, allow_nan=False)  # valid JSON: no NaN anywhere
    (g,) = report["groups"]
    assert isinstance(g, dict)
    return g


def test_counts_and_rates_by_agent_and_seat(group: dict[str, Any]) -> None:
    records = _records()
    assert group["records"] == 32
    assert group["seat_games"] == 96
    assert group["ties"] == sum(len(_first(r)) > 1 for r in records) == 4
    for key, rows in (("agent", group["agents"]), ("seat", group["seats"])):
        outcome: dict[Any, list[int]] = defaultdict(lambda: [0, 0, 0])
        scores: dict[Any, list[int]] = defaultdict(list)
        for r in records:
            first = _first(r)
            for seat in range(3):
                who = r["agents"][seat] if key == "agent" else seat
                k = 2 if seat not in first else (0 if len(first) == 1 else 1)
                outcome[who][k] += 1
                scores[who].append(r["scores"][seat])
        assert [row[key] for row in rows] == sorted(outcome)
        for row in rows:
            wins, ties, losses = outcome[row[key]]
            n = wins + ties + losses
            assert (row["wins"], row["ties"], row["losses"], row["seat_games"]) == (
                wins,
                ties,
                losses,
                n,
            )
            assert row["tie_rate"] == pytest.approx(ties / n)
            assert row["win_rate_95"] == pytest.approx(_wilson(wins, n))
            x = np.array(scores[row[key]], dtype=float)
            s = row["score"]
            assert s["mean"] == pytest.approx(x.mean())
            assert s["sd"] == pytest.approx(x.std(ddof=1))
            for q in (5, 25, 50, 75, 95):
                assert s[f"p{q}"] == pytest.approx(np.quantile(x, q / 100))
    assert sum(row["ties"] for row in group["seats"]) == 2 + 3 + 2 + 3


def test_paired_differences_over_repeated_deals(group: dict[str, Any]) -> None:
    by_seed: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for r in _records():
        by_seed[r["seed"]].append(r)
    assert all(len(v) == 2 for v in by_seed.values())
    names = ["greedy", "hard", "random"]
    want = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            d_score, d_win = [], []
            for plays in by_seed.values():
                mean = {}
                for who in (a, b):
                    seen = [
                        (r["scores"][s], _first(r) == {s})
                        for r in plays
                        for s in range(3)
                        if r["agents"][s] == who
                    ]
                    mean[who] = (np.mean([g[0] for g in seen]), np.mean([g[1] for g in seen]))
                d_score.append(mean[a][0] - mean[b][0])
                d_win.append(mean[a][1] - mean[b][1])
            x = np.array(d_score)
            half = 1.959964 * x.std(ddof=1) / math.sqrt(len(x))
            want.append((a, b, len(x), x.mean(), x.mean() - half, np.mean(d_win)))
    got = [
        (d["a"], d["b"], d["deals"], d["score_diff"], d["score_diff_95"][0], d["win_rate_diff"])
        for d in group["paired"]
    ]
    assert [g[:3] for g in got] == [w[:3] for w in want]
    for g, w in zip(got, want, strict=True):
        assert g[3:] == pytest.approx(w[3:])


def _bt_reference(names: list[str], wins: dict[tuple[str, str], float]) -> Any:
    """Hunter's MM algorithm for Bradley–Terry and the covariance from the Fisher
    information's pseudo-inverse (numpy), with the same one prior draw per pair."""
    k = len(names)
    w = np.zeros((k, k))
    for (a, b), x in wins.items():
        w[names.index(a), names.index(b)] += x
    n = w + w.T
    met = (n > 0) & ~np.eye(k, dtype=bool)
    w = w + 0.5 * met
    n = n + 1.0 * met
    p = np.ones(k)
    for _ in range(20000):
        denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
        p = w.sum(axis=1) / denom
        p /= np.exp(np.log(p).mean())
    theta = np.log(p)
    prob = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    h = n * prob * (1 - prob)
    info = np.diag(h.sum(axis=1)) - h
    return theta, np.sqrt(np.diag(np.linalg.pinv(info)))


@pytest.mark.parametrize("ties", ["half", "skip"])
def test_ratings_equal_a_reference_fit(group: dict[str, Any], ties: str) -> None:
    """Ties count half a win each, or (``--ties skip``) are left out of the fit."""
    if ties == "skip":
        report = json.loads(invoke(str(FIXTURE), "--format", "json", "--ties", "skip").output)
        group = report["groups"][0]
        assert "a shared first place is left out" in group["ratings"]["method"]
    pairs: dict[tuple[str, str], float] = defaultdict(float)
    for r in _records():
        first = _first(r)
        for s in range(3):
            for t in range(3):
                a, b = r["agents"][s], r["agents"][t]
                if s == t or a == b:
                    continue
                if s in first and t not in first:
                    pairs[(a, b)] += 1 / 1  # s beat t
                elif s in first and t in first and s < t and ties == "half":
                    pairs[(a, b)] += 0.5
                    pairs[(b, a)] += 0.5
    names = ["greedy", "hard", "random"]
    theta, se = _bt_reference(names, dict(pairs))
    elo = 400 / math.log(10)
    got = {r["agent"]: r for r in group["ratings"]["agents"]}
    for i, name in enumerate(names):
        assert got[name]["rating"] == pytest.approx(1500 + elo * theta[i], abs=1e-6)
        lo, hi = got[name]["rating_95"]
        assert (hi - lo) / 2 == pytest.approx(1.959964 * elo * se[i], rel=1e-6)


def test_round_scores_and_length(group: dict[str, Any]) -> None:
    records = _records()
    lengths = np.array([r["decisions"] for r in records], dtype=float)
    assert group["length"]["column"] == "decisions"
    assert group["length"]["mean"] == pytest.approx(lengths.mean())
    first_round_hard = [
        r["round_scores"][0][s] for r in records for s in range(3) if r["agents"][s] == "hard"
    ]
    (row,) = [x for x in group["rounds"] if x["agent"] == "hard" and x["round"] == 1]
    assert row["n"] == len(first_round_hard)
    assert row["mean"] == pytest.approx(np.mean(first_round_hard))


def test_stats_helpers() -> None:
    assert wilson(0, 0) == (0.0, 0.0)
    lo, hi = wilson(50, 100)
    assert (lo, hi) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    hist = [(1.0, 2), (5.0, 1), (7.0, 3)]
    values = [1, 1, 5, 7, 7, 7]
    for q in (0, 0.1, 0.5, 0.9, 1):
        assert quantile(hist, q) == pytest.approx(np.quantile(values, q))
    assert histogram_summary({})["n"] == 0
    m = Moments()
    m.add(3.0)
    assert m.interval() == (3.0, 3.0)
    assert bradley_terry(["a", "b", "c"], {("a", "b"): 1}) is None  # c never played


@st.composite
def record_lists(draw: st.DrawFn) -> list[dict[str, Any]]:
    players = draw(st.integers(2, 4))
    names = ["a", "b", "c", "dd"]
    n = draw(st.integers(1, 30))
    seeds = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    out = []
    for i in range(n):
        agents = draw(st.lists(st.sampled_from(names), min_size=players, max_size=players))
        score = st.integers(-3, 3) | st.integers(-(2**40), 2**40)  # small or wide ranges
        scores = draw(st.lists(score, min_size=players, max_size=players))
        seats = st.integers(0, players - 1)
        winner = draw(st.none() | seats)
        tied = [] if winner is not None else sorted(set(draw(st.lists(seats, max_size=3))))
        out.append(
            {
                "game": "three-thirteen",
                "index": i,
                "seed": 2**63 + seeds[i],
                "players": players,
                "agents": agents,
                "scores": scores,
                "winner": winner,
                "winners": [] if winner is None else [winner],
                "tied": tied,
                "decisions": draw(st.integers(0, 3)),
                "round_scores": draw(
                    st.lists(
                        st.lists(st.integers(0, 2), min_size=players, max_size=players),
                        max_size=3,
                    )
                ),
            }
        )
    return out


COLUMNS = {
    **HEAD,
    "scores": list_of(INT64),
    "winner": optional(INT64),
    "winners": list_of(INT64),
    "tied": list_of(INT64),
    "decisions": INT64,
    "round_scores": list_of(list_of(INT64)),
}


@settings(max_examples=40, deadline=None)
@given(records=record_lists())
def test_parquet_counts_equal_record_by_record_counts(
    records: list[dict[str, Any]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    pytest.importorskip("pyarrow")
    path = tmp_path_factory.mktemp("h") / "r.parquet"
    w = ParquetWriter(str(path), COLUMNS, row_group=7)
    w.write(records)
    w.close()
    (fast,) = load([str(path)])
    slow = Results(
        "three-thirteen", records[0]["players"], length="decisions", rounds_path="round_scores"
    )
    slow.add_all(records, str(path))
    names: tuple[str, ...] = ("records", "ties", "cells", "pairs", "pair_ties", "lengths")
    names += ("rounds",)
    names += ("round_counts", "sources")
    for name in names:
        assert getattr(fast, name) == getattr(slow, name), name
    assert _flat(paired(fast)) == [pytest.approx(row) for row in _flat(paired(slow))]


def _flat(rows: list[dict[str, Any]]) -> list[list[Any]]:
    """Each row's values in order, lists spread out (for pytest.approx)."""
    return [[x for v in r.values() for x in (v if isinstance(v, list) else [v])] for r in rows]


def test_jsonl_csv_parquet_agree(tmp_path: Path) -> None:
    records = _records()
    pq_path, csv_path = tmp_path / "r.parquet", tmp_path / "r.csv"
    w = ParquetWriter(str(pq_path))
    w.write(records)
    w.close()
    with open(csv_path, "w", encoding="utf-8", newline="") as f:
        c = CsvWriter(f, owned=False, header=True)
        c.write(records)
    reports = [build_report(load([str(p)]))["groups"][0] for p in (FIXTURE, pq_path, csv_path)]
    for r in reports:
        r.pop("sources")
    assert reports[0] == reports[1]
    # CSV is flat: no tied list, so a tie counts every seat; scores and wins are the same
    assert [a["score"] for a in reports[2]["agents"]] == [a["score"] for a in reports[0]["agents"]]
    assert [a["wins"] for a in reports[2]["agents"]] == [a["wins"] for a in reports[0]["agents"]]


def invoke(*args: str) -> Any:
    return CliRunner().invoke(cli, ["report", *args])


def test_cli_formats() -> None:
    r = invoke(str(FIXTURE))
    assert r.exit_code == 0, r.output
    assert "32 games × 3 seats = 96 seat-games" in r.output
    assert "4 of the 32 games had no single winner" in " ".join(r.output.split())
    for label in ("Win / tie / loss", "Scores", "Paired", "Ratings", "greedy", "seat 2"):
        assert label in r.output
    r = invoke(str(FIXTURE), "--format", "json")
    assert json.loads(r.output)["groups"][0]["records"] == 32
    r = invoke(str(FIXTURE), "--format", "markdown")
    assert "| greedy | 32 |" in r.output
    r = invoke(str(FIXTURE), "--ties", "never")
    assert r.exit_code == 2
    assert "Invalid value for '--ties'" in r.output


def _ladder(rng: Any, lineups: list[tuple[str, str]], deals: int) -> list[list[dict[str, Any]]]:
    """Two-seat tables, one list of records per lineup, the same deal seeds in every list;
    each deal played in both seat orders."""
    files = []
    for a, b in lineups:
        rows = []
        for seed in range(deals):
            for seats in ((a, b), (b, a)):
                scores = [int(x) for x in rng.integers(0, 20, 2)]
                rows.append(
                    {
                        "agents": list(seats),
                        "scores": scores,
                        "seed": seed,
                        "winner": int(np.argmax(scores)),
                    }
                )
        files.append(rows)
    return files


def _pairs(files: list[list[dict[str, Any]]]) -> dict[tuple[str, str], dict[str, Any]]:
    res = Results("spite-malice", 2)
    for rows in files:
        res.add_all(rows)
    return {(d["a"], d["b"]): d for d in paired(res)}


def test_pooled_files_pair_head_to_head_where_agents_met() -> None:
    rng = np.random.default_rng(7)
    ab, ac, bc = _ladder(rng, [("a", "b"), ("a", "c"), ("b", "c")], 30)
    pooled = _pairs([ab, ac, bc])
    for rows, key in ((ab, ("a", "b")), (ac, ("a", "c")), (bc, ("b", "c"))):
        alone = _pairs([rows])[key]
        assert _flat([pooled[key]]) == [pytest.approx(row) for row in _flat([alone])]
        assert pooled[key]["head_to_head"] == alone["head_to_head"] == 30


def test_agents_that_never_met_pair_across_tables() -> None:
    rng = np.random.default_rng(8)
    ac, bc = _ladder(rng, [("a", "c"), ("b", "c")], 25)
    got = _pairs([ac, bc])[("a", "b")]
    a = np.array(
        [[r["scores"][r["agents"].index("a")] for r in ac[2 * d : 2 * d + 2]] for d in range(25)]
    )
    b = np.array(
        [[r["scores"][r["agents"].index("b")] for r in bc[2 * d : 2 * d + 2]] for d in range(25)]
    )
    diff = a.mean(axis=1) - b.mean(axis=1)
    assert (got["deals"], got["head_to_head"]) == (25, 0)
    assert got["score_diff"] == pytest.approx(diff.mean())
    assert got["score_diff_sd"] == pytest.approx(diff.std(ddof=1))


def test_cli_pools_files_and_pairs_across_them(tmp_path: Path) -> None:
    lines = FIXTURE.read_text().splitlines(keepends=True)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("".join(lines[:16]))
    b.write_text("".join(lines[16:]))
    report = json.loads(invoke(str(a), str(b), "--format", "json").output)
    (g,) = report["groups"]
    assert g["sources"] == {str(a): 16, str(b): 16}
    assert g["paired"][0]["deals"] == 16


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "cannot read"), ("not json\n", "not JSON"), ('{"game": "x"}\n', "not a game record")],
)
def test_cli_errors_are_one_line(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    if content is not None:
        path.write_text(content)
    r = invoke(str(path))
    assert r.exit_code == 1
    assert message in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize("seeds", [[-1, 5], [1.5, 2.0]])
def test_bad_parquet_seeds_are_one_line_errors(tmp_path: Path, seeds: list[Any]) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "r.parquet"
    rows = {"game": ["three-thirteen"] * 2, "players": [2, 2], "agents": [["a", "b"]] * 2}
    rows |= {"scores": [[1, 2], [2, 1]], "winner": [0, 1], "seed": seeds}
    pq.write_table(pa.table(rows), path)
    r = invoke(str(path))
    assert r.exit_code == 1
    assert f"{path}: the seed column must hold integers" in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize(
    ("key", "value", "shown"),
    [
        ("winner", 3, "winner must be seats 0..2, not 3"),
        ("winner", -1, "winner must be seats 0..2, not -1"),
        ("winner", True, "winner must be seats 0..2, not True"),
        ("winner", 1.5, "winner must be seats 0..2, not 1.5"),
        ("winners", [0, 7], "winners must be seats 0..2, not 7"),
        ("tied", [0, "1"], "tied must be seats 0..2, not '1'"),
        ("players", 3.5, "players must be an int >= 1, not 3.5"),
    ],
)
def test_a_winner_outside_the_seats_is_a_one_line_error(
    tmp_path: Path, key: str, value: Any, shown: str
) -> None:
    """Before: a winner of 7 or -1 counted for nobody (or for the last seat) and the report
    exited 0 with every seat losing."""
    record = dict(_records()[0], winners=[], tied=[], winner=None) | {key: value}
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(record) + "\n")
    r = invoke(str(path))
    assert r.exit_code == 1, r.output
    assert f"{path}: record 1 is not a game record ({shown})" in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize(
    ("column", "values", "shown"),
    [
        ("winner", [0, 2], "winner must be seats 0..1, not 2"),
        ("winner", [-1, 0], "winner must be seats 0..1, not -1"),
        ("winners", [[0], [5]], "winners must be seats 0..1, not 5"),
        ("tied", [[], [0, -3]], "tied must be seats 0..1, not -3"),
    ],
)
def test_parquet_winner_outside_the_seats_is_a_one_line_error(
    tmp_path: Path, column: str, values: list[Any], shown: str
) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "r.parquet"
    rows = {"game": ["three-thirteen"] * 2, "players": [2, 2], "agents": [["a", "b"]] * 2}
    rows |= {"scores": [[1, 2], [2, 1]], "winner": [None, None], "seed": [1, 2]}
    rows[column] = values
    pq.write_table(pa.table(rows), path)
    r = invoke(str(path))
    assert r.exit_code == 1, r.output
    assert f"{path}: {shown}" in r.output
    assert "Traceback" not in r.output
