"""``cardcore games [GAME]``: the games, their options and agents."""

from __future__ import annotations

import click

from cardcore.games.base import get_game, registered_games
from cardcore.games.levels import PLAY_LEVELS, agent_for_level
from cardcore.rules import RULES_GAMES

__all__ = ["games_cmd"]


@click.command("games")
@click.argument("game", required=False)
def games_cmd(game: str | None) -> None:
    """List the games, or one game's options (for --option) and agents (for --agents)."""
    if game is None:
        for name in registered_games():
            spec = get_game(name)
            click.echo(
                f"{name:16} {spec.title} ({spec.min_players}-{spec.max_players} players, "
                f"default {spec.default_players}); agents: {', '.join(spec.agents)}"
            )
        return
    if game not in registered_games():
        raise click.UsageError(
            f"unknown game {game!r}; choose from {', '.join(registered_games())}"
        )
    spec = get_game(game)
    click.echo(
        f"{spec.title}: {spec.min_players}-{spec.max_players} players "
        f"(default {spec.default_players})"
    )
    if spec.description:
        click.echo(spec.description)
    if game in RULES_GAMES:
        click.echo(f"rules: cardcore rules {game}")
    click.echo(f"agents: {', '.join(spec.agents)} (default {spec.default_agent})")
    levels = ", ".join(f"{lv}={agent_for_level(spec, lv)}" for lv in PLAY_LEVELS)
    click.echo(f"levels (agent names too): {levels}")
    click.echo("options (--option key=value):")
    for o in spec.options:
        allowed = f" one of {', '.join(map(str, o.choices))}" if o.choices else ""
        rng = ""
        if o.minimum is not None or o.maximum is not None:
            lo = "" if o.minimum is None else f"{o.minimum:g}"
            hi = "" if o.maximum is None else f"{o.maximum:g}"
            rng = f" range {lo}..{hi}"
        click.echo(f"  {o.name}={o.default}{allowed}{rng}  {o.help}")
    for label, schema in (("record", spec.record_schema), ("match record", spec.match_schema)):
        if schema is not None:
            click.echo(f"{label} columns (Parquet types; ? = may be null):")
            for name, col in schema.with_run_columns().items():
                click.echo(f"  {name}: {col}")
