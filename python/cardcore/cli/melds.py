"""``cardcore melds``: the optimal Three-Thirteen arrangement of a hand."""

from __future__ import annotations

import re
from collections.abc import Callable

import click

from cardcore.errors import CardParseError, OptionError
from cardcore.three_thirteen.melds import best_discards, best_melds, parse_wild

__all__ = ["melds_cmd"]


@click.command("melds")
@click.argument("hand")
@click.option(
    "--wild",
    "-w",
    required=True,
    help="The round's wild rank: 3-9, T (or 10), J, Q, K. Jokers are always wild.",
)
@click.option(
    "--ace-mode",
    type=click.Choice(["low", "high", "both"]),
    default="low",
    show_default=True,
    help="Aces low (A-2-3), high (Q-K-A, unmelded ace 15) or both ends.",
)
@click.option("--wild-points", type=click.IntRange(0, 1000), default=15, show_default=True)
@click.option("--joker-points", type=click.IntRange(0, 1000), default=20, show_default=True)
@click.option(
    "--discards",
    is_flag=True,
    help="Also list, for each card, the deadwood left after discarding it.",
)
def melds_cmd(
    hand: str, wild: str, ace_mode: str, wild_points: int, joker_points: int, discards: bool
) -> None:
    """Print an optimal arrangement of HAND (e.g. "3h 4h JK 7c 7d 7s Kd 2c") and its deadwood.

    Output: `[3h 4h JK=5h] [7c 7d 7s] | Kd 2c  (deadwood 12)`: melds in brackets, each wild
    shown with the card it stands for, then the unmelded cards after `|`. A joker is shown as
    it was typed: `JK`, or `X1`, `X2`, ...
    """
    try:
        w = parse_wild(wild)
    except OptionError as e:
        raise click.BadParameter(str(e), param_hint="--wild") from None
    try:
        arr = best_melds(
            hand, w, ace_mode=ace_mode, wild_points=wild_points, joker_points=joker_points
        )
        rows = (
            best_discards(
                hand, w, ace_mode=ace_mode, wild_points=wild_points, joker_points=joker_points
            )
            if discards and arr.melds + arr.deadwood
            else []
        )
    except (CardParseError, OptionError) as e:
        raise click.BadParameter(str(e), param_hint="HAND") from None
    show = _as_typed(hand)
    text = show(str(arr))
    click.echo(f"{text}  (deadwood {arr.points})" if text else f"(deadwood {arr.points})")
    if rows:
        best = min(v for _, v in rows)
        for card, v in rows:
            mark = "  <- best" if v == best else ""
            click.echo(f"discard {show(str(card)):<3} -> {v}{mark}")


def _as_typed(hand: str) -> Callable[[str], str]:
    """Prints the jokers a hand gave as ``JK`` (each became the next unused ``Xk``) as ``JK``
    again; jokers typed as ``Xk`` keep their number."""
    typed = {int(n) for n in re.findall(r"(?i)\bX(\d+)\b", hand)}
    joker = re.compile(r"\bX(\d+)\b")
    return lambda text: joker.sub(lambda m: m[0] if int(m[1]) in typed else "JK", text)
