"""``cardcore rules GAME``: the rules of a game for players, rendered in the terminal."""

from __future__ import annotations

import click
from rich.console import Console
from rich.markdown import Markdown

from cardcore.rules import RULES_GAMES, rules_text

__all__ = ["rules_cmd"]


@click.command("rules", short_help="Print the rules of a game.")
@click.argument("game", type=click.Choice(RULES_GAMES))
@click.option("--markdown", "raw", is_flag=True, help="Print the Markdown source instead.")
def rules_cmd(game: str, raw: bool) -> None:
    """Print the rules of GAME: setup, a turn, scoring, the end, every variant, examples."""
    text = rules_text(game)
    if raw:
        click.echo(text, nl=False)
        return
    Console().print(Markdown(text))
