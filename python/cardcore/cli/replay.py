"""``cardcore replay FILE...``: re-run recorded games and check every detail agrees.

A replay is data: verifying one never imports code it names (``docs/replays.md``). Each line
is checked on its own; a bad line is reported and the next one is checked. Every line printed
has its control characters escaped (:mod:`cardcore.safetext`): move text, agent names and
versions come from the file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import click

from cardcore.cli.imports import allow_cwd_imports
from cardcore.errors import CardcoreError
from cardcore.games.base import get_game, trust_agent
from cardcore.safetext import printable

__all__ = ["replay_cmd"]

MAX_LINE = 64 << 20
"""Longest replay line read (64 MiB; the longest real replays are a few MB)."""


class BadLine(Exception):
    """A line that is not a replay at all."""


def _lines(path: str) -> Iterator[tuple[int, bytes]]:
    with open(path, "rb") as f:
        for lineno, line in enumerate(f, 1):
            if line.strip():
                yield lineno, line


def _parse(line: bytes) -> dict[str, Any]:
    if len(line) > MAX_LINE:
        raise BadLine(f"line of {len(line):,} bytes is longer than {MAX_LINE:,}")
    try:
        rec = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise BadLine(f"not UTF-8 text ({e.reason} at byte {e.start})") from None
    except RecursionError:
        raise BadLine("JSON nested too deeply") from None
    except ValueError as e:
        raise BadLine(f"not JSON ({e})") from None
    if not isinstance(rec, dict):
        raise BadLine(f"a replay is a JSON object, not {type(rec).__name__}")
    return rec


def is_record(rec: Mapping[str, Any]) -> bool:
    """A record of `cardcore sim -o` (which has no replay) rather than a replay."""
    return "run_seed" in rec and "format" not in rec and "replay" not in rec


@click.command("replay")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("-q", "--quiet", is_flag=True, help="Print only failures.")
@click.option(
    "--trust-agent",
    "trusted",
    multiple=True,
    metavar="MODULE:CALLABLE",
    help="Import this agent so replays naming it are re-run (repeatable). Replays never "
    "import code themselves: other agents are checked by the rules only.",
)
def replay_cmd(files: tuple[str, ...], quiet: bool, trusted: tuple[str, ...]) -> None:
    """Verify replays (JSON Lines from `cardcore sim --replays` or `cardcore play`).

    Exits 1 if any replay does not reproduce exactly.
    """
    if trusted:
        allow_cwd_imports()
    for name in trusted:
        try:
            trust_agent(name)
        except CardcoreError as e:
            raise click.BadParameter(str(e), param_hint="--trust-agent") from None
    ok = bad = 0
    for path in files:
        for lineno, line in _lines(path):
            where = f"{path}:{lineno}"
            try:
                rec = _parse(line)
                if is_record(rec):
                    bad += 1
                    click.echo(
                        printable(
                            f"{where}: this file holds game records, not replays (write "
                            "replays with `cardcore sim ... --replays FILE`)"
                        ),
                        err=True,
                    )
                    break
                note = get_game(str(rec.get("game"))).verify_replay(rec)
            except (BadLine, CardcoreError) as e:
                bad += 1
                click.echo(printable(f"{where}: MISMATCH: {e}"), err=True)
                continue
            except Exception as e:  # a verifier bug: report it, check the next line
                bad += 1
                click.echo(
                    printable(f"{where}: ERROR: {type(e).__name__}: {e} (a cardcore bug)"),
                    err=True,
                )
                continue
            ok += 1
            if not quiet:
                extra = f"; {note}" if note else ""
                shown = f"{where}: ok ({rec.get('game')}, seed {rec.get('seed')}{extra})"
                click.echo(printable(shown))
    click.echo(f"{ok} verified, {bad} failed", err=True)
    if bad or not ok:
        raise click.ClickException("replay verification failed" if bad else "no replays found")
