"""`cardcore report` on a large Three-Thirteen file: time, peak memory, file size per format.

    python benches/report_scale.py                          # 1,000,000 records
    python benches/report_scale.py --records 20000 --base-games 2000 --formats all
    python benches/report_scale.py --dir big --reuse --formats all   # report the files again

Simulates ``--base-games`` four-player games (hard against three greedy, ``--paired``: every
deal once per seat rotation) or reads them from ``--base FILE.jsonl``, then writes
``--records`` records to JSON Lines, CSV and Parquet by repeating them with fresh deal seeds
(``seed + k * 0x9E3779B97F4A7C15``, so each copy keeps its paired deals) and running indices.
Prints each file's size, then runs ``cardcore report FILE --format json`` in a child process
per format asked for and prints its wall and CPU time and peak RSS (``ru_maxrss``), next to
the peak RSS of a process that only imports what the report imports.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

from cardcore.games.base import get_game
from cardcore.sim import simulate
from cardcore.sim.writers import open_writer

GOLDEN = 0x9E3779B97F4A7C15
CHUNK = 10_000
IMPORTS = "import cardcore.cli, cardcore.report.arrow, pyarrow.parquet, pyarrow.compute, numpy"


def base_records(path: str | None, games: int) -> list[dict[str, Any]]:
    if path:
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f]
    agents = "hard,greedy,greedy,greedy"
    return list(simulate("three-thirteen", games=games, seed=2026, agents=agents, paired=True))


def tiled(base: list[dict[str, Any]], total: int) -> Iterator[list[dict[str, Any]]]:
    """``total`` records in chunks: ``base`` repeated, copy ``k`` with its seeds moved."""
    chunk: list[dict[str, Any]] = []
    for i in range(total):
        k, j = divmod(i, len(base))
        chunk.append({**base[j], "index": i, "seed": (base[j]["seed"] + k * GOLDEN) % 2**64})
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def write_files(base: list[dict[str, Any]], total: int, paths: dict[str, str]) -> None:
    schema = get_game("three-thirteen").record_schema
    assert schema is not None
    columns = schema.with_run_columns()
    writers = {
        fmt: open_writer(p, fmt, columns=columns if fmt == "parquet" else None)
        for fmt, p in paths.items()
    }
    for chunk in tiled(base, total):
        for w in writers.values():
            assert w is not None
            w.write(chunk)
    for w in writers.values():
        assert w is not None
        w.close()


RUNNER = """
import os, subprocess, sys, time
t0 = time.perf_counter()
with open(sys.argv[1], "wb") as out:
    proc = subprocess.Popen(sys.argv[2:], stdout=out)
    _, status, usage = os.wait4(proc.pid, 0)
print(os.waitstatus_to_exitcode(status), time.perf_counter() - t0,
      usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
"""


def measure(argv: list[str]) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds, peak RSS (MiB) and stdout of ``argv``, started from a small
    Python process (a child's peak RSS includes that of the process it was forked from)."""
    with tempfile.NamedTemporaryFile() as out:
        res = subprocess.run(
            [sys.executable, "-c", RUNNER, out.name, *argv],
            capture_output=True,
            text=True,
            check=True,
        )
        code, seconds, cpu, rss = res.stdout.split()
        if int(code):
            raise SystemExit(f"{argv} failed ({code})")
        return float(seconds), float(cpu), int(rss) / 1024, out.read().decode()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--base-games", type=int, default=100_000)
    ap.add_argument("--base", help="JSON Lines of Three-Thirteen records to repeat")
    ap.add_argument("--dir", help="where the files go (default: a temporary folder)")
    ap.add_argument("--formats", default="parquet", help="reported formats, or 'all'")
    ap.add_argument("--reuse", action="store_true", help="keep the files --dir already holds")
    args = ap.parse_args()
    formats = ("parquet", "csv", "jsonl") if args.formats == "all" else args.formats.split(",")
    folder = args.dir or tempfile.mkdtemp(prefix="cardcore-report-")
    os.makedirs(folder, exist_ok=True)
    t0 = time.perf_counter()
    paths = {fmt: os.path.join(folder, f"games.{fmt}") for fmt in ("jsonl", "csv", "parquet")}
    if args.reuse and all(os.path.exists(p) for p in paths.values()):
        print(f"{args.records:,} Three-Thirteen records: the files of {folder}")
    else:
        base = base_records(args.base, args.base_games)
        write_files(base, args.records, paths)
        print(
            f"{args.records:,} Three-Thirteen records (4 seats; {len(base):,} simulated, "
            f"repeated) written in {time.perf_counter() - t0:.0f} s to {folder}"
        )
    for fmt, path in paths.items():
        size = os.path.getsize(path)
        print(f"  {fmt:8} {size / 2**20:9,.1f} MiB  {size / args.records:6,.1f} bytes/record")
    _, _, idle, _ = measure([sys.executable, "-c", IMPORTS])
    print(f"cardcore report FILE --format json (peak RSS of the imports alone: {idle:,.0f} MiB)")
    for fmt in formats:
        argv = [sys.executable, "-m", "cardcore", "report", paths[fmt], "--format", "json"]
        seconds, cpu, peak, text = measure(argv)
        (group,) = json.loads(text)["groups"]
        assert group["records"] == args.records, group["records"]
        deals = group["paired"][0]["deals"] if group["paired"] else 0
        print(
            f"  {fmt:8} {seconds:6.1f} s ({cpu:.1f} s CPU)  "
            f"{args.records / seconds:10,.0f} records/s  peak RSS {peak:6,.0f} MiB  "
            f"({len(group['paired'])} paired comparisons over {deals:,} deals)"
        )


if __name__ == "__main__":
    main()
