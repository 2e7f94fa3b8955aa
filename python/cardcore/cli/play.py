"""``cardcore play GAME``: a full-screen table against the built-in AIs (needs the ``play``
extra, Textual). Textual is imported only when the command runs."""

from __future__ import annotations

import importlib
import importlib.util
import sys

import click

from cardcore.errors import CardcoreError
from cardcore.games.base import get_game, registered_games
from cardcore.games.levels import PLAY_LEVELS, play_agent
from cardcore.outfiles import checked_output

__all__ = ["play_cmd"]

MISSING_TEXTUAL = (
    "`cardcore play` needs Textual, which is not installed.\n"
    "Install it with:  pip install 'cardcore[play]'"
)


def playable_games() -> list[str]:
    """Registered games with a table (``GameSpec.play_app``)."""
    return [n for n in registered_games() if get_game(n).play_app is not None]


def _playable(ctx: click.Context, param: click.Parameter, value: str) -> str:
    names = playable_games()
    if value not in names:
        raise click.BadParameter(f"no table for {value!r}; choose from {', '.join(names)}")
    return value


@click.command("play")
@click.argument("game", callback=_playable, metavar="GAME")
@click.option(
    "--players",
    type=int,
    default=None,
    help="Seats, you included (default: the game's; `cardcore games GAME` lists the range).",
)
@click.option(
    "--ai",
    default="normal",
    show_default=True,
    metavar="LEVEL|AGENT",
    help=f"AI strength: a level every game and every command shares ({', '.join(PLAY_LEVELS)}; "
    "cardcore games GAME shows the agent of each; hard is the game's default agent), or one of "
    "the game's built-in agents by name (three-thirteen: learned).",
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**64 - 1),
    default=None,
    help="Seed of the deal (replay a deal exactly).",
)
@click.option("--daily", is_flag=True, help="Today's deal: the same for everyone (UTC date).")
@click.option("--jokers", default=None, hidden=True, help="Same as --option jokers=N.")
@click.option("--speed", default=None, hidden=True, help="Same as --option speed=NAME.")
@click.option(
    "--delay",
    type=click.FloatRange(0, 10),
    default=0.6,
    show_default=True,
    help="Seconds between two AI moves shown (turn-based games).",
)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A rules option (repeatable); see `cardcore games GAME`.",
)
@click.option(
    "--replay-file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Where to save the finished game's replay "
    "(default ~/.cardcore/replays/<game>-<timestamp>.jsonl).",
)
@click.option("--no-replay", is_flag=True, help="Do not save a replay.")
def play_cmd(
    game: str,
    players: int | None,
    ai: str,
    seed: int | None,
    daily: bool,
    jokers: str | None,
    speed: str | None,
    delay: float,
    options: tuple[str, ...],
    replay_file: str | None,
    no_replay: bool,
) -> None:
    """Play GAME against the AIs in a full-screen terminal table (press ? for help).

    GAME is any registered game with a table (`cardcore play GAME` with another name lists
    them). Rules
    options go in --option KEY=VALUE (e.g. jokers=2, speed=frantic; the older --jokers N and
    --speed NAME still work). The finished game is saved as a replay that `cardcore replay`
    verifies.
    """
    try:
        play_agent(get_game(game), ai)
    except CardcoreError as e:
        raise click.BadParameter(str(e), param_hint="'--ai'") from None
    if importlib.util.find_spec("textual") is None:
        raise click.ClickException(MISSING_TEXTUAL)
    if seed is not None and daily:
        raise click.UsageError("--seed and --daily exclude each other")
    from cardcore.play.common import PlayConfig

    try:
        spec = get_game(game)
        n = spec.default_players if players is None else players
        if not spec.min_players <= n <= spec.max_players:
            raise click.UsageError(
                f"{game} needs {spec.min_players}-{spec.max_players} players, got {n}"
            )
        if replay_file is not None and not no_replay:
            checked_output("--replay-file", replay_file, folder_made=True)
        shortcuts = [f"{k}={v}" for k, v in (("jokers", jokers), ("speed", speed)) if v is not None]
        opts = dict(spec.parse_options((*options, *shortcuts)))
        spec.resolve_options(opts, n)
        config = PlayConfig(
            game=game,
            players=n,
            ai=ai,
            seed=seed,
            daily=daily,
            replay_file=replay_file,
            delay=delay,
            options=opts,
            save_replay=not no_replay,
        )
        assert spec.play_app is not None  # checked by _playable
        module_name, _, cls_name = spec.play_app.partition(":")
        app = getattr(importlib.import_module(module_name), cls_name)(config)
    except CardcoreError as e:
        raise click.UsageError(str(e)) from None
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        # Textual would wait (and spin) on a pipe or a file forever
        raise click.UsageError("`cardcore play` needs an interactive terminal (stdin and stdout)")
    app.run()
    path = getattr(app, "replay_path", None)
    if path is not None:
        click.echo(f"replay saved: {path}", err=True)
    else:
        note = app.unfinished_note()
        if note is not None:
            click.echo(note, err=True)
