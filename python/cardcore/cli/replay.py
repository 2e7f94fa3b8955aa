"""``cardcore replay FILE...``: re-run recorded games and check every detail agrees."""

from __future__ import annotations

import json

import click

from cardcore.errors import CardcoreError, ReplayMismatchError
from cardcore.games.base import get_game

__all__ = ["replay_cmd"]


@click.command("replay")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("-q", "--quiet", is_flag=True, help="Print only failures.")
def replay_cmd(files: tuple[str, ...], quiet: bool) -> None:
    """Verify replays (JSON Lines from `cardcore sim --replays` or `cardcore play`).

    Exits 1 if any replay does not reproduce exactly.
    """
    ok = bad = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                where = f"{path}:{lineno}"
                try:
                    rec = json.loads(line)
                    get_game(str(rec.get("game"))).verify_replay(rec)
                except (ReplayMismatchError, CardcoreError, ValueError, KeyError, TypeError) as e:
                    bad += 1
                    click.echo(f"{where}: MISMATCH: {e}", err=True)
                    continue
                ok += 1
                if not quiet:
                    click.echo(f"{where}: ok ({rec.get('game')}, seed {rec.get('seed')})")
    click.echo(f"{ok} verified, {bad} failed", err=True)
    if bad or not ok:
        raise click.ClickException("replay verification failed" if bad else "no replays found")
