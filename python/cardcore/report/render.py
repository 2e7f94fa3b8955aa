"""A report as tables: one list of :class:`Section` per group, drawn as a terminal table (rich),
Markdown or HTML (:mod:`cardcore.report.html`). The words are fixed here once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardcore.safetext import markdown_cell, printable

__all__ = ["Section", "heading", "label_column", "markdown", "notes", "print_tables", "sections"]

PLURAL = {"game": "games", "round": "rounds", "match": "matches"}


@dataclass(frozen=True)
class Section:
    """One table; ``split``: rows before it are agents, from it seats (a rule between)."""

    title: str
    columns: tuple[str, ...]
    rows: list[list[str]]
    split: int | None = None


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(bounds: Sequence[float], *, pct: bool = False, signed: bool = False) -> str:
    lo, hi = bounds
    if pct:
        return f"{100 * lo:+.1f} to {100 * hi:+.1f}" if signed else f"{100 * lo:.1f}–{100 * hi:.1f}"
    return f"{lo:+.2f} to {hi:+.2f}" if signed else f"{lo:.2f}–{hi:.2f}"


def _num(x: float | int) -> str:
    """One decimal at most, none when it is zero (``171``, ``80.1``)."""
    text = f"{x:,.1f}"
    return text.removesuffix(".0")


def heading(group: Mapping[str, Any]) -> str:
    """``Three-Thirteen Rummy: 1,000 games × 4 seats = 4,000 seat-games``."""
    unit = group["unit"]
    return (
        f"{printable(group['title'])}: {group['records']:,} {PLURAL.get(unit, unit + 's')} × "
        f"{group['players']} seats = {group['seat_games']:,} seat-{PLURAL.get(unit, unit + 's')}"
    )


def notes(group: Mapping[str, Any]) -> list[str]:
    """The sentences under the heading: ties explained, length, speed."""
    unit = group["unit"]
    units = PLURAL.get(unit, unit + "s")
    out = [
        f"Win = first place alone; tie = first place shared: {group['ties']:,} of the "
        f"{group['records']:,} {units} had no single winner, and there every seat in first "
        f"place (every seat, if nobody won) counts a tie. Rates are per seat-{unit}, with "
        f"Wilson 95% intervals."
    ]
    length = group.get("length")
    if length and length.get("n"):
        out.append(
            f"{unit.capitalize()} length ({printable(length['column'])}): "
            f"mean {length['mean']:.1f}, sd {length['sd']:.1f}, median {_num(length['p50'])}, "
            f"range {_num(length['min'])}–{_num(length['max'])}."
        )
    if group.get("ratings"):
        out.append(f"Ratings: {group['ratings']['method']}.")
    if group.get("seconds"):
        rate = group["records"] / group["seconds"]
        out.append(f"{group['seconds']:,.2f} s, {rate:,.1f} {units}/s.")
    return out


def _labelled(group: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    agents = [(printable(r["agent"]), r) for r in group["agents"]]
    return agents + [(f"seat {r['seat']}", r) for r in group["seats"]]


def sections(group: Mapping[str, Any]) -> list[Section]:
    """The tables of one group: outcomes and scores (by agent, then by seat), paired
    differences, ratings."""
    unit = group["unit"]
    rows = _labelled(group)
    split = len(group["agents"])
    outcomes = [
        [
            label,
            f"{r['seat_games']:,}",
            _pct(r["win_rate"]),
            _ci(r["win_rate_95"], pct=True),
            _pct(r["tie_rate"]),
            _pct(r["loss_rate"]),
        ]
        for label, r in rows
    ]
    scores = [
        [label] + [_num(r["score"][k]) for k in ("mean", "sd", "p5", "p25", "p50", "p75", "p95")]
        for label, r in rows
        if r["score"].get("n")
    ]
    out = [
        Section(
            "Win / tie / loss",
            ("", f"seat-{PLURAL.get(unit, unit + 's')}", "win %", "95% CI", "tie %", "loss %"),
            outcomes,
            split,
        ),
        Section("Scores", ("", "mean", "sd", "p5", "p25", "median", "p75", "p95"), scores, split),
    ]
    if group["paired"]:
        out.append(
            Section(
                "Paired (same deals, agents in other seats; A − B per deal, normal 95% CI; "
                "head to head where A and B met at a table of the deal)",
                ("A", "B", "deals", "head to head", "score A − B (95% CI)", "win % A − B (95% CI)"),
                [
                    [
                        printable(d["a"]),
                        printable(d["b"]),
                        f"{d['deals']:,}",
                        f"{d['head_to_head']:,}",
                        f"{d['score_diff']:+.2f} ({_ci(d['score_diff_95'], signed=True)})",
                        f"{100 * d['win_rate_diff']:+.1f} "
                        f"({_ci(d['win_rate_diff_95'], pct=True, signed=True)})",
                    ]
                    for d in group["paired"]
                ],
            )
        )
    ratings = group.get("ratings")
    if ratings:
        out.append(
            Section(
                "Ratings (Bradley–Terry, Elo scale)",
                ("agent", "rating (95% CI)", "decided pairings"),
                [
                    [
                        printable(r["agent"]),
                        f"{r['rating']:.0f} ({r['rating_95'][0]:.0f}–{r['rating_95'][1]:.0f})",
                        f"{r['comparisons']:,g}",
                    ]
                    for r in ratings["agents"]
                ],
            )
        )
    return out


def label_column(sec: Section, k: int) -> bool:
    return k == 0 or (sec.columns[0] == "A" and k == 1)


def _align(sec: Section, k: int) -> str:
    return "---" if label_column(sec, k) else "---:"


def markdown(report: Mapping[str, Any]) -> str:
    """The report as GitHub-flavoured Markdown (text from the files escaped: no cell is split
    by a ``|``, no HTML gets through)."""
    lines: list[str] = []
    for group in report["groups"]:
        lines += [f"## {markdown_cell(heading(group))}", ""]
        lines += [*map(markdown_cell, notes(group)), ""]
        for sec in sections(group):
            lines += [f"### {sec.title}", ""]
            lines.append("| " + " | ".join(sec.columns) + " |")
            lines.append("|" + "|".join(_align(sec, k) for k in range(len(sec.columns))) + "|")
            lines += ["| " + " | ".join(map(markdown_cell, row)) + " |" for row in sec.rows]
            lines.append("")
    return "\n".join(lines)


def print_tables(report: Mapping[str, Any], console: Any) -> None:
    """The report as rich tables on ``console``; no cell is ever cut."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    for group in report["groups"]:  # Text: no rich markup read from the files' names
        console.print(Text(heading(group), style="bold"))
        for line in notes(group):
            console.print(Text(line), highlight=False)
        for sec in sections(group):
            table = Table(title=sec.title, title_justify="left", box=box.SIMPLE_HEAD)
            for k, c in enumerate(sec.columns):
                width = max((len(r[k]) for r in sec.rows), default=0)
                table.add_column(
                    c,
                    justify="left" if label_column(sec, k) else "right",
                    no_wrap=True,
                    min_width=max(width, len(c)),
                )
            for i, row in enumerate(sec.rows):
                table.add_row(*map(Text, row), end_section=i + 1 == sec.split)
            # wider than the terminal: let the lines run on rather than cut a figure
            console.print(
                table, width=max(console.width, console.measure(table).maximum), crop=False
            )
