"""``cardcore report FILE...``: figures (and plots) from result files."""

from __future__ import annotations

import json

import click

from cardcore.errors import CardcoreError
from cardcore.outfiles import checked_output, write_text
from cardcore.report.analysis import TIES
from cardcore.safetext import printable

__all__ = ["report_cmd"]

FORMATS = ("table", "json", "markdown", "html")


@click.command("report")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="What goes to stdout.",
)
@click.option(
    "--html",
    "html_path",
    default=None,
    metavar="FILE",
    help="Also write a self-contained HTML page with plots (needs cardcore[report]).",
)
@click.option(
    "--ties",
    type=click.Choice(TIES),
    default="half",
    show_default=True,
    help="How the rating table counts a shared first place: half a win each, or skip "
    "(rate on decided games only).",
)
def report_cmd(files: tuple[str, ...], fmt: str, html_path: str | None, ties: str) -> None:
    """Summarise result files (JSON Lines, CSV or Parquet, as `cardcore sim -o` writes them).

    Per agent and per seat: win, tie and loss rates with 95% intervals and the score spread;
    paired differences when the same deals were played with the agents in other seats (same
    --seed, agents swapped, in one or several files); a Bradley–Terry rating table when more
    than two agents met. Records of one game and seat count are pooled across FILES.
    """
    from cardcore.report import build_report, load

    if html_path is not None:
        try:
            checked_output("--html", html_path)
        except CardcoreError as e:
            raise click.UsageError(str(e)) from None
    try:
        groups = load(files)
        report = build_report(groups, ties=ties)
        page = None
        if fmt == "html" or html_path:
            from cardcore.report.html import html_page

            page = html_page(report, groups)
    except CardcoreError as e:
        raise click.ClickException(printable(e)) from None
    if not report["groups"]:
        raise click.ClickException(printable("no records in " + ", ".join(files)))
    for group in report["groups"]:
        if group["apart"]:
            sets = " | ".join(", ".join(g) for g in group["apart"])
            click.echo(
                printable(
                    f"note: {group['title']}: these agents never met at a table ({sets}); "
                    "their rates are against different opponents and do not compare across "
                    "groups"
                ),
                err=True,
            )
    if html_path and page is not None:
        try:
            write_text(html_path, page)
        except (CardcoreError, OSError) as e:
            raise click.ClickException(printable(f"cannot write --html {html_path}: {e}")) from None
    if fmt == "json":
        click.echo(json.dumps(report, indent=2))
    elif fmt == "markdown":
        from cardcore.report.render import markdown

        click.echo(markdown(report))
    elif fmt == "html":
        click.echo(page)
    else:
        from rich.console import Console

        from cardcore.report.render import print_tables

        print_tables(report, Console())
