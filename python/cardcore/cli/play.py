"""``cardcore play GAME``: a full-screen table against the built-in AIs (needs the ``play``
extra, Textual). Textual is imported only when the command runs."""

from __future__ import annotations

import importlib.util
import sys

import click

from cardcore.errors import CardcoreError

__all__ = ["play_cmd"]

PLAY_GAMES = ("three-thirteen", "spite-malice", "nerts")
_APPS = {
    "three-thirteen": ("cardcore.play.three_thirteen", "ThreeThirteenApp"),
    "spite-malice": ("cardcore.play.spite_malice", "SpiteMaliceApp"),
    "nerts": ("cardcore.play.nerts", "NertsApp"),
}
MISSING_TEXTUAL = (
    "`cardcore play` needs Textual, which is not installed.\n"
    "Install it with:  pip install 'cardcore[play]'"
)


@click.command("play")
@click.argument("game", type=click.Choice(PLAY_GAMES))
@click.option(
    "--players",
    type=click.IntRange(2, 6),
    default=None,
    help="Seats, you included (three-thirteen 2-6, default 4; the others 2-4, default 2).",
)
@click.option(
    "--ai",
    type=click.Choice(("easy", "normal", "hard")),
    default="normal",
    show_default=True,
    help="AI strength: random, greedy or the strongest agent.",
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**63 - 1),
    default=None,
    help="Seed of the deal (replay a deal exactly).",
)
@click.option("--daily", is_flag=True, help="Today's deal: the same for everyone (UTC date).")
@click.option(
    "--jokers",
    type=click.Choice(("0", "2", "4")),
    default=None,
    help="Three-Thirteen: jokers added (always wild).",
)
@click.option(
    "--speed",
    type=click.Choice(("chill", "classic", "frantic")),
    default="classic",
    show_default=True,
    help="Nerts: how fast the AI opponents play.",
)
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
    speed: str,
    delay: float,
    options: tuple[str, ...],
    replay_file: str | None,
    no_replay: bool,
) -> None:
    """Play GAME against the AIs in a full-screen terminal table (press ? for help).

    GAME is three-thirteen, spite-malice or nerts. The finished game is saved as a replay
    that `cardcore replay` verifies.
    """
    if importlib.util.find_spec("textual") is None:
        raise click.ClickException(MISSING_TEXTUAL)
    if seed is not None and daily:
        raise click.UsageError("--seed and --daily exclude each other")
    from cardcore.games.base import get_game
    from cardcore.play.common import PlayConfig

    try:
        spec = get_game(game)
        n = spec.default_players if players is None else players
        if not spec.min_players <= n <= spec.max_players:
            raise click.UsageError(
                f"{game} needs {spec.min_players}-{spec.max_players} players, got {n}"
            )
        opts = dict(spec.parse_options(options))
        if jokers is not None:
            if game != "three-thirteen":
                raise click.UsageError("--jokers is a Three-Thirteen option")
            opts["jokers"] = int(jokers)
        if game == "nerts":
            opts["speed"] = speed
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
        module_name, cls_name = _APPS[game]
        module = importlib.import_module(module_name)
        app = getattr(module, cls_name)(config)
    except CardcoreError as e:
        raise click.UsageError(str(e)) from None
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        # Textual would wait (and spin) on a pipe or a file forever
        raise click.UsageError("`cardcore play` needs an interactive terminal (stdin and stdout)")
    app.run()
    path = getattr(app, "replay_path", None)
    if path is not None:
        click.echo(f"replay saved: {path}", err=True)
