"""The report as one self-contained HTML page: the tables plus plots drawn by matplotlib as
inline SVG (no script, no network). Needs ``pip install 'cardcore[report]'``."""

from __future__ import annotations

import html
import io
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from cardcore.errors import CardcoreError
from cardcore.report.render import PLURAL, Section, heading, label_column, notes, sections
from cardcore.report.results import Results
from cardcore.report.stats import Z95
from cardcore.safetext import printable

__all__ = ["colours", "html_page"]

CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 76em; color: #222;
       padding: 0 1.2em; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h1 small { color: #777; font-weight: normal; }
h2 { margin-top: 1.6em; padding-bottom: .2em; border-bottom: 2px solid #ddd; font-size: 1.3em; }
.tables { display: flex; flex-wrap: wrap; gap: 0 2.5em; align-items: flex-start; }
table { border-collapse: collapse; margin: .4em 0 1.2em; font-variant-numeric: tabular-nums; }
th, td { padding: .2em .65em; text-align: right; border-bottom: 1px solid #eee; }
th { border-bottom: 1px solid #bbb; font-weight: 600; }
th.label, td.label { text-align: left; }
tr.split td { border-top: 2px solid #bbb; }
caption { text-align: left; font-weight: 600; padding: .3em 0; }
.swatch { display: inline-block; width: .75em; height: .75em; border-radius: 2px;
          margin-right: .4em; vertical-align: -.05em; }
.plots { display: grid; grid-template-columns: repeat(auto-fill, minmax(30em, 1fr));
         gap: 1.2em 1.6em; margin-top: 1em; }
figure { margin: 0; } figcaption { font-weight: 600; margin-bottom: .2em; }
figure svg { width: 100%; height: auto; }
p.note { color: #555; max-width: 62em; margin: .35em 0; }
"""


def _pyplot_free() -> Any:
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise CardcoreError(
            "the HTML report needs matplotlib: pip install 'cardcore[report]'"
        ) from None
    matplotlib.rcParams.update(
        {
            "svg.fonttype": "none",
            "svg.hashsalt": "cardcore",
            "font.size": 10,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.grid": True,
            "grid.color": "#e6e6e6",
            "axes.axisbelow": True,
        }
    )
    return Figure


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg") :]


PALETTE = [
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
]
"""matplotlib's default colour cycle (tab10)."""


def colours(agents: Iterable[str]) -> dict[str, str]:
    """One colour per agent (sorted by name), the same in every plot and table of a group."""
    return {a: PALETTE[k % len(PALETTE)] for k, a in enumerate(sorted(agents))}


def _hist(cells: Iterable[tuple[str, float, int]]) -> dict[str, Counter[float]]:
    out: dict[str, Counter[float]] = defaultdict(Counter)
    for agent, value, n in cells:
        out[agent][value] += n
    return dict(sorted(out.items()))


def _steps(
    ax: Any, hists: Mapping[str, Counter[float]], colour: Mapping[str, str], bins: int = 40
) -> None:
    """One density step line per series over shared bins (filled lightly)."""
    values = [v for h in hists.values() for v in h]
    lo, hi = min(values), max(values)
    integral = all(float(v).is_integer() for v in values)
    width = max(1.0, (hi - lo + 1) / bins) if integral else max((hi - lo) / bins, 1e-9)
    edges = [lo - (0.5 if integral else 0) + k * width for k in range(bins + 2)]
    edges = [e for e in edges if e <= hi + width]
    for name, h in hists.items():
        total = sum(h.values())
        counts = [0.0] * (len(edges) - 1)
        for v, c in h.items():
            k = min(int((v - edges[0]) // width), len(counts) - 1)
            counts[k] += c / total
        tint = colour.get(name, PALETTE[0])
        ax.stairs(counts, edges, label=_label(name), linewidth=1.6, color=tint)
        ax.stairs(counts, edges, fill=True, alpha=0.12, color=tint)
    ax.set_ylabel("share")
    if len(hists) > 1:
        ax.legend(frameon=False)


def _label(text: str) -> str:
    """Text from the files as a plot label: control characters escaped, ``$`` not read as
    the start of mathtext."""
    return printable(text).replace("$", r"\$")


def _figures(group: Mapping[str, Any], results: Results) -> list[tuple[str, str]]:
    figure = _pyplot_free()
    unit = group["unit"]
    units = PLURAL.get(unit, unit + "s")
    colour = colours(r["agent"] for r in group["agents"])
    out: list[tuple[str, str]] = []

    def new(height: float = 3.4) -> tuple[Any, Any]:
        fig = figure(figsize=(6.4, height))
        return fig, fig.add_subplot()

    rows = group["agents"]
    if rows:
        fig, ax = new(max(2.2, 0.9 + 0.55 * len(rows)))
        rows = rows[::-1]
        names = [r["agent"] for r in rows]
        labels = [_label(n) for n in names]
        wins = [100 * r["win_rate"] for r in rows]
        ties = [100 * r["tie_rate"] for r in rows]
        lo = [max(0.0, w - 100 * r["win_rate_95"][0]) for w, r in zip(wins, rows, strict=True)]
        hi = [max(0.0, 100 * r["win_rate_95"][1] - w) for w, r in zip(wins, rows, strict=True)]
        ax.barh(labels, wins, color=[colour[n] for n in names], height=0.6)
        ax.barh(
            labels,
            ties,
            left=wins,
            color="#bbbbbb",
            height=0.6,
            hatch="///",
            label="tie (first place shared)",
        )
        ax.errorbar(wins, labels, xerr=[lo, hi], fmt="none", ecolor="#333", capsize=4)
        for y, (w, t, h) in enumerate(zip(wins, ties, hi, strict=True)):
            ax.text(w + max(t, h) + 1, y, f"{w:.1f}%", va="center", fontsize=9)
        ax.set_xlim(
            0, min(100, max(w + t + h for w, t, h in zip(wins, ties, hi, strict=True)) + 12)
        )
        ax.set_xlabel(f"% of seat-{units}")
        ax.grid(axis="y", visible=False)
        if any(ties):
            ax.legend(frameon=False, loc="lower right")  # the tie bars only
        out.append(("Win rate per agent, 95% interval (tie hatched)", _svg(fig)))

    scores = _hist((a, v, n) for (a, _s, _o, v), n in results.cells.items())
    if scores:
        fig, ax = new()
        _steps(ax, scores, colour)
        ax.set_xlabel(f"score per {unit}" + (" (points)" if unit == "round" else ""))
        out.append(("Score distribution per agent", _svg(fig)))

    if group["rounds"]:
        fig, ax = new()
        by_agent: dict[str, list[tuple[int, float, float]]] = defaultdict(list)
        for row in group["rounds"]:
            margin = Z95 * row["sd"] / math.sqrt(row["n"]) if row["n"] else 0.0
            by_agent[row["agent"]].append((row["round"], row["mean"], margin))
        for agent, points in sorted(by_agent.items()):
            rounds = [p[0] for p in points]
            means = [p[1] for p in points]
            tint = colour.get(agent, PALETTE[0])
            ax.plot(rounds, means, marker="o", markersize=4, label=_label(agent), color=tint)
            low = [m - p[2] for m, p in zip(means, points, strict=True)]
            high = [m + p[2] for m, p in zip(means, points, strict=True)]
            ax.fill_between(rounds, low, high, color=tint, alpha=0.15)
        ax.set_xlabel("round")
        ax.set_ylabel("mean points")
        ax.legend(frameon=False)
        out.append(("Mean points per round (95% interval band)", _svg(fig)))
        fig, ax = new()
        _steps(ax, _hist((a, v, n) for (a, _r, v), n in results.rounds.items()), colour)
        ax.set_yscale("log")
        ax.set_xlabel("points in one round")
        ax.set_ylabel("share (log scale)")
        out.append(("Points per round, per agent", _svg(fig)))

    if results.lengths:
        fig, ax = new()
        column = group["length"]["column"]
        _steps(ax, {column: results.lengths}, {})
        ax.set_xlabel(f"{column} per {unit}")
        out.append((f"{unit.capitalize()} length ({column})", _svg(fig)))

    if len(results.round_counts) > 1:
        fig, ax = new()
        _steps(ax, {"rounds": Counter({float(k): v for k, v in results.round_counts.items()})}, {})
        ax.set_xlabel(f"rounds per {unit}")
        out.append((f"Rounds per {unit}", _svg(fig)))

    ratings = group.get("ratings")
    if ratings:
        fig, ax = new(max(2.2, 0.9 + 0.55 * len(ratings["agents"])))
        rs = ratings["agents"][::-1]
        ax.axvline(1500, color="#999", linestyle="--", linewidth=1)
        for r in rs:
            m = r["rating"]
            ax.errorbar(
                [m],
                [_label(r["agent"])],
                xerr=[[m - r["rating_95"][0]], [r["rating_95"][1] - m]],
                fmt="o",
                capsize=4,
                color=colour.get(r["agent"], PALETTE[0]),
            )
        ax.set_xlabel("rating, Elo scale (mean 1500), 95% interval")
        ax.grid(axis="y", visible=False)
        out.append(("Bradley–Terry ratings", _svg(fig)))
    return out


def _table(sec: Section, colour: Mapping[str, str]) -> str:
    e = html.escape
    labels = [k for k in range(len(sec.columns)) if label_column(sec, k)]
    head = "".join(
        f"<th{' class=label' if k in labels else ''}>{e(c)}</th>" for k, c in enumerate(sec.columns)
    )

    def cell(k: int, text: str) -> str:
        if k not in labels:
            return f"<td>{e(text)}</td>"
        dot = (
            f"<span class=swatch style='background:{colour[text]}'></span>"
            if text in colour
            else ""
        )
        return f"<td class=label>{dot}{e(text)}</td>"

    body = "".join(
        f"<tr{' class=split' if i == sec.split else ''}>"
        + "".join(cell(k, c) for k, c in enumerate(row))
        + "</tr>"
        for i, row in enumerate(sec.rows)
    )
    return f"<table><caption>{e(sec.title)}</caption><tr>{head}</tr>{body}</table>"


def html_page(report: Mapping[str, Any], groups: Iterable[Results]) -> str:
    """The whole page (the groups in the order of ``report['groups']``)."""
    e = html.escape
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        "<meta name=viewport content='width=device-width, initial-scale=1'>",
        "<title>cardcore report</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>cardcore report <small>{e(_version())}</small></h1>",
    ]
    for group, results in zip(report["groups"], groups, strict=True):
        colour = colours(r["agent"] for r in group["agents"])
        parts.append(f"<h2>{e(heading(group))}</h2>")
        sources = ", ".join(f"{e(k)} ({v:,})" for k, v in group["sources"].items() if k)
        if sources:
            parts.append(f"<p class=note>From {sources}.</p>")
        parts += [f"<p class=note>{e(line)}</p>" for line in notes(group)]
        parts.append("<div class=tables>")
        parts += [_table(sec, colour) for sec in sections(group)]
        parts.append("</div><div class=plots>")
        for title, svg in _figures(group, results):
            parts.append(f"<figure><figcaption>{e(title)}</figcaption>{svg}</figure>")
        parts.append("</div>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _version() -> str:
    from cardcore import __version__

    return f"cardcore {__version__}"
