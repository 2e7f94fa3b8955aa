"""The ``cardcore`` command line. Machine output goes to stdout; progress and tables to stderr.

Exit codes: 0 success, 1 run failure, 2 usage error, 130 interrupted.
"""

from __future__ import annotations

import os
import sys

import click

from cardcore.cli.games import games_cmd
from cardcore.cli.melds import melds_cmd
from cardcore.cli.play import play_cmd
from cardcore.cli.replay import replay_cmd
from cardcore.cli.report import report_cmd
from cardcore.cli.rules import rules_cmd
from cardcore.cli.serve import serve_cmd
from cardcore.cli.shuffle import shuffle_cmd
from cardcore.cli.sim import sim_cmd

__all__ = ["cli", "main"]


_debug = False


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardcore", prog_name="cardcore")
@click.option("--debug", is_flag=True, help="Show the Python traceback of an unexpected error.")
def cli(debug: bool) -> None:
    """cardcore: Three-Thirteen Rummy, Spite & Malice and Nerts engines, AIs and simulations.

    Exit codes: 0 success, 1 run failure, 2 usage error, 130 interrupted (Ctrl-C).
    """
    global _debug
    _debug = debug


_COMMANDS = (
    sim_cmd,
    report_cmd,
    replay_cmd,
    play_cmd,
    serve_cmd,
    games_cmd,
    rules_cmd,
    melds_cmd,
    shuffle_cmd,
)
# One line each in `cardcore --help` (Click cuts a longer first sentence mid-phrase to fit 80
# columns); a command's own --help keeps its full text.
_SUMMARIES = {
    "sim": "Simulate many games between AIs.",
    "report": "Summarise result files: rates, ratings.",
    "replay": "Verify recorded replays.",
    "play": "Play against the AIs in the terminal.",
    "serve": "Serve a web table for every game.",
    "games": "The games, their options and agents.",
    "rules": "Print the rules of a game.",
    "melds": "Best arrangement of a Three-Thirteen hand.",
    "shuffle": "Print a seeded shuffled deck.",
}
for _cmd in _COMMANDS:
    _cmd.short_help = _SUMMARIES[str(_cmd.name)]
    cli.add_command(_cmd)


def main() -> None:
    """Entry point of the ``cardcore`` script."""
    try:
        cli.main(standalone_mode=False, prog_name="cardcore")
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        raise SystemExit(130) from None
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        raise SystemExit(130) from None
    except BrokenPipeError:
        # the reader left (`cardcore report ... | head`): quietly, as rich's tables do
        _silence_stdout()
        raise SystemExit(1) from None
    except click.ClickException as e:
        e.show()
        raise SystemExit(e.exit_code) from None
    except click.exceptions.Exit as e:
        raise SystemExit(e.exit_code) from None
    except Exception as e:
        if _debug:
            raise
        click.echo(
            f"Error: {type(e).__name__}: {e} (cardcore --debug shows the traceback)", err=True
        )
        raise SystemExit(1) from None


def _silence_stdout() -> None:
    """Points stdout at /dev/null so that the interpreter's last flush finds no closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real descriptor (tests, embedding)
        pass
