"""``cardcore sim GAME``: bulk simulation with progress and a summary table on stderr."""

from __future__ import annotations

import dataclasses
import sys
import time

import click

from cardcore.cli.imports import allow_cwd_imports
from cardcore.errors import CardcoreError
from cardcore.games.base import get_game, registered_games
from cardcore.report import build_report, results_for
from cardcore.rng import new_seed
from cardcore.sim import BACKENDS, run_plan
from cardcore.sim.backends import machine_cores
from cardcore.sim.outputs import RunOutputs
from cardcore.sim.runner import plan_run
from cardcore.sim.writers import FORMATS, format_for

__all__ = ["sim_cmd"]


def _game_name(ctx: click.Context, param: click.Parameter, value: str) -> str:
    names = registered_games()
    if value not in names:
        raise click.BadParameter(f"unknown game {value!r}; choose from {', '.join(names)}")
    return value


@click.command("sim")
@click.argument("game", callback=_game_name, metavar="GAME")
@click.option(
    "-n",
    "--games",
    type=click.IntRange(0),
    default=1000,
    show_default=True,
    help="Games to play (matches with --match).",
)
@click.option("--players", type=int, default=None, help="Seats (default: the game's).")
@click.option(
    "--seed",
    type=click.IntRange(0, 2**64 - 1),
    default=None,
    help="Run seed; drawn and printed when absent.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(0),
    default=1,
    show_default=True,
    help="Worker processes (0 = all cores).",
)
@click.option(
    "--agents",
    default=None,
    help="Comma-separated agent per seat (one name = every seat); built-in names "
    "or package.module:callable. Default: the game's strongest.",
)
@click.option(
    "--rotate-seats", is_flag=True, help="Shift the agents one seat per game (fair comparisons)."
)
@click.option(
    "--paired",
    is_flag=True,
    help="Play every deal once per seat rotation (P games per deal, agents shifted one seat "
    "each time), so `cardcore report` gives paired differences.",
)
@click.option(
    "--option",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A rules option (repeatable); see `cardcore games GAME`.",
)
@click.option("--match", is_flag=True, help="Simulate whole matches to the target score.")
@click.option(
    "-o", "--output", default=None, metavar="FILE", help="Write one record per game ('-' = stdout)."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="Output format (default: from the file name, else jsonl).",
)
@click.option(
    "--replays",
    default=None,
    metavar="FILE",
    help="Also write a replay per game (JSON Lines) for `cardcore replay`.",
)
@click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True)
@click.option("--address", default=None, help="Ray cluster address (with --backend ray).")
@click.option(
    "--chunk-size",
    type=click.IntRange(1),
    default=None,
    help="Games per work unit (never changes the output).",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue an interrupted run (the same command) from the records in --output.",
)
@click.option(
    "--force", is_flag=True, help="Overwrite existing output files (else they are an error)."
)
@click.option(
    "--summary-json", default=None, metavar="FILE", help="Write the summary statistics as JSON."
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on stderr (default: a bar on a terminal, otherwise a start line and a "
    "line every 10 s).",
)
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary table.")
def sim_cmd(
    game: str,
    games: int,
    players: int | None,
    seed: int | None,
    jobs: int,
    agents: str | None,
    rotate_seats: bool,
    paired: bool,
    options: tuple[str, ...],
    match: bool,
    output: str | None,
    fmt: str | None,
    replays: str | None,
    backend: str,
    address: str | None,
    chunk_size: int | None,
    resume: bool,
    force: bool,
    summary_json: str | None,
    progress: bool | None,
    quiet: bool,
) -> None:
    """Simulate many games of GAME with AI players.

    Records (JSON Lines by default) go to --output; progress and the summary table go to
    stderr. The same --seed gives byte-identical records for any --jobs or --backend.
    """
    from cardcore.cli.render import Progress, stderr
    from cardcore.report.render import print_tables

    spec = get_game(game)
    drawn = False
    if agents is not None and ":" in agents:
        allow_cwd_imports()
    try:
        parsed = spec.parse_options(options)
        if seed is None:
            if resume:
                raise click.UsageError("--resume needs the --seed of the interrupted run")
            seed = new_seed()
            drawn = True
        plan = plan_run(
            game,
            games=games,
            seed=seed,
            players=players,
            agents=agents,
            options=parsed,
            rotate_seats=rotate_seats,
            paired=paired,
            match=match,
            replay=replays is not None,
        )
    except CardcoreError as e:
        raise click.UsageError(str(e)) from None
    if drawn:
        click.echo(f"seed: {seed}", err=True)

    if address is not None and backend != "ray":
        raise click.UsageError("--address is for --backend ray")
    cores = machine_cores()
    if address is None and jobs > cores:
        click.echo(f"-j {jobs}: this machine has {cores} cores, using {cores}.", err=True)
        jobs = cores
    schema = spec.schema_for(match)
    columns = schema.with_run_columns() if schema is not None else None
    outputs = RunOutputs(output, replays, summary_json, format_for(output, fmt), columns)
    try:
        outputs.check(force=force, resume=resume)
        start = outputs.resume_point(plan) if resume else 0
    except (CardcoreError, OSError) as e:
        outputs.release()
        raise click.UsageError(str(e)) from None
    if resume and start and start >= games:
        outputs.close(finished=True)
        click.echo(
            f"Nothing to do: {output} already holds the {start} records of this run.", err=True
        )
        return
    plan = dataclasses.replace(plan, start=start)

    summary = results_for(plan.game, plan.players, match=match, paired=paired)
    tty = sys.stderr.isatty()
    show = (not quiet) and (tty if progress is None else progress)
    lines = (not quiet) and progress is None and not tty  # never silent in a log or pipe
    t0 = time.perf_counter()
    interrupted = False
    try:
        outputs.open(plan, append=start > 0)
        with Progress(total=games - start, enabled=show, label=game, lines=lines) as bar:
            for records in run_plan(
                plan, jobs=jobs, backend=backend, address=address, chunk_size=chunk_size
            ):
                outputs.write(records)
                for r in records:
                    summary.add(r)
                bar.advance(len(records))
    except KeyboardInterrupt:
        interrupted = True
    except CardcoreError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"cannot write the output: {e}") from None
    finally:
        try:
            outputs.close(finished=start + outputs.written >= games)
        except OSError as e:
            raise click.ClickException(f"cannot write the output: {e}") from None
    seconds = time.perf_counter() - t0
    report = build_report([summary], extra={"seconds": seconds})
    try:
        outputs.write_summary(report)
    except OSError as e:
        raise click.ClickException(f"cannot write --summary-json: {e}") from None
    if not quiet:
        print_tables(report, stderr)
        if output is None:
            click.echo("The records were not saved (no --output).", err=True)
    if interrupted:
        then = "; continue with --resume." if outputs.resumable else "."
        click.echo(f"Interrupted after {start + summary.records} records{then}", err=True)
        raise SystemExit(130)
