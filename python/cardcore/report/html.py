"""The report as one self-contained HTML page: the tables plus plots drawn by matplotlib as
inline SVG (no script, no network). Needs ``pip install 'cardcore[report]'``."""

from __future__ import annotations

import html
import io
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cardcore.errors import CardcoreError
from cardcore.report.render import PLURAL, heading, notes, sections
from cardcore.report.results import Results

__all__ = ["html_page"]

CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #222;
       padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .6em 0 1.4em; }
th, td { padding: .2em .7em; text-align: right; border-bottom: 1px solid #eee; }
th:first-child, td:first-child { text-align: left; }
tr.split td { border-top: 2px solid #bbb; }
caption { text-align: left; font-weight: 600; padding: .3em 0; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; } figure svg { width: 34em; height: auto; max-width: 100%; }
p.note { color: #555; max-width: 60em; }
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
        {"svg.fonttype": "none", "svg.hashsalt": "cardcore", "font.size": 10}
    )
    return Figure


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg") :]


def _hist(cells: Iterable[tuple[str, float, int]]) -> dict[str, Counter[float]]:
    out: dict[str, Counter[float]] = defaultdict(Counter)
    for agent, value, n in cells:
        out[agent][value] += n
    return dict(sorted(out.items()))


def _steps(ax: Any, hists: Mapping[str, Counter[float]], bins: int = 40) -> None:
    """One density step line per agent over shared bins."""
    values = [v for h in hists.values() for v in h]
    lo, hi = min(values), max(values)
    integral = all(float(v).is_integer() for v in values)
    width = max(1.0, (hi - lo + 1) / bins) if integral else max((hi - lo) / bins, 1e-9)
    edges = [lo - (0.5 if integral else 0) + k * width for k in range(bins + 2)]
    edges = [e for e in edges if e <= hi + width]
    for agent, h in hists.items():
        total = sum(h.values())
        counts = [0.0] * (len(edges) - 1)
        for v, c in h.items():
            k = min(int((v - edges[0]) // width), len(counts) - 1)
            counts[k] += c / total
        ax.stairs(counts, edges, label=agent, linewidth=1.6)
    ax.set_ylabel("share")
    ax.legend(frameon=False)


def _figures(group: Mapping[str, Any], results: Results) -> list[tuple[str, str]]:
    figure = _pyplot_free()
    unit = group["unit"]
    units = PLURAL.get(unit, unit + "s")
    out: list[tuple[str, str]] = []

    def new() -> tuple[Any, Any]:
        fig = figure(figsize=(6.4, 3.4))
        return fig, fig.add_subplot()

    rows = group["agents"]
    if rows:
        fig, ax = new()
        names = [r["agent"] for r in rows][::-1]
        wins = [100 * r["win_rate"] for r in rows][::-1]
        ties = [100 * r["tie_rate"] for r in rows][::-1]
        bounds = [r["win_rate_95"] for r in rows][::-1]
        lo = [max(0.0, w - 100 * b[0]) for w, b in zip(wins, bounds, strict=True)]
        hi = [max(0.0, 100 * b[1] - w) for w, b in zip(wins, bounds, strict=True)]
        ax.barh(names, wins, xerr=[lo, hi], capsize=4, label="win", color="tab:blue")
        ax.barh(names, ties, left=wins, label="tie", color="tab:orange", alpha=0.6)
        ax.set_xlabel(f"% of seat-{units} (win with 95% interval)")
        ax.legend(frameon=False, loc="lower right")
        out.append((f"Win and tie rate per agent (per seat-{unit})", _svg(fig)))

    scores = _hist((a, v, n) for (a, _s, _o, v), n in results.cells.items())
    if scores:
        fig, ax = new()
        _steps(ax, scores)
        what = "points per round" if unit == "round" else units
        ax.set_xlabel(f"score per {unit}")
        out.append(
            (
                f"Score distribution per agent ({what})",
                _svg(fig),
            )
        )

    if results.lengths:
        fig, ax = new()
        _steps(ax, {group["length"]["column"]: results.lengths})
        ax.set_xlabel(f"{group['length']['column']} per {unit}")
        ax.get_legend().remove()
        out.append((f"{unit.capitalize()} length ({group['length']['column']})", _svg(fig)))

    if len(results.round_counts) > 1:
        fig, ax = new()
        _steps(ax, {"rounds": Counter({float(k): v for k, v in results.round_counts.items()})})
        ax.get_legend().remove()
        ax.set_xlabel(f"rounds per {unit}")
        out.append((f"Rounds per {unit}", _svg(fig)))

    if group["rounds"]:
        fig, ax = new()
        by_agent: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for row in group["rounds"]:
            if row["n"] >= 1:
                by_agent[row["agent"]].append((row["round"], row["mean"]))
        for agent, points in sorted(by_agent.items()):
            ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=agent)
        ax.set_xlabel("round")
        ax.set_ylabel("mean score")
        ax.legend(frameon=False)
        out.append(("Mean score per round", _svg(fig)))
        fig, ax = new()
        _steps(ax, _hist((a, v, n) for (a, _r, v), n in results.rounds.items()))
        ax.set_xlabel("points in one round")
        out.append(("Points per round, per agent", _svg(fig)))

    ratings = group.get("ratings")
    if ratings:
        fig, ax = new()
        rs = ratings["agents"][::-1]
        mid = [r["rating"] for r in rs]
        ax.errorbar(
            mid,
            [r["agent"] for r in rs],
            xerr=[
                [m - r["rating_95"][0] for m, r in zip(mid, rs, strict=True)],
                [r["rating_95"][1] - m for m, r in zip(mid, rs, strict=True)],
            ],
            fmt="o",
            capsize=4,
        )
        ax.set_xlabel("Bradley–Terry rating, Elo scale (95% interval)")
        out.append(("Ratings", _svg(fig)))
    return out


def _table(
    title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], split: int | None
) -> str:
    e = html.escape
    head = "".join(f"<th>{e(c)}</th>" for c in columns)
    body = "".join(
        f"<tr{' class=split' if i == split else ''}>"
        + "".join(f"<td>{e(c)}</td>" for c in row)
        + "</tr>"
        for i, row in enumerate(rows)
    )
    return f"<table><caption>{e(title)}</caption><tr>{head}</tr>{body}</table>"


def html_page(report: Mapping[str, Any], groups: Iterable[Results]) -> str:
    """The whole page (the groups in the order of ``report['groups']``)."""
    e = html.escape
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        "<meta name=viewport content='width=device-width, initial-scale=1'>",
        "<title>cardcore report</title>",
        f"<style>{CSS}</style></head><body><h1>cardcore report</h1>",
    ]
    for group, results in zip(report["groups"], groups, strict=True):
        parts.append(f"<h2>{e(heading(group))}</h2>")
        sources = ", ".join(f"{e(k)} ({v:,})" for k, v in group["sources"].items() if k)
        if sources:
            parts.append(f"<p class=note>From {sources}.</p>")
        parts += [f"<p class=note>{e(line)}</p>" for line in notes(group)]
        for sec in sections(group):
            parts.append(_table(sec.title, sec.columns, sec.rows, sec.split))
        parts.append("<div class=plots>")
        for title, svg in _figures(group, results):
            parts.append(f"<figure><figcaption>{e(title)}</figcaption>{svg}</figure>")
        parts.append("</div>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
