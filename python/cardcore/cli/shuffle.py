"""``cardcore shuffle``: print a seeded deck order."""

from __future__ import annotations

import click

from cardcore.cards import format_cards
from cardcore.rng import new_seed, shuffled_deck

__all__ = ["shuffle_cmd"]


@click.command("shuffle")
@click.option("--decks", type=click.IntRange(1, 64), default=1, show_default=True)
@click.option("--jokers", type=click.IntRange(0, 4), default=0, show_default=True)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**64 - 1),
    default=None,
    help="Seed (drawn and printed if absent).",
)
@click.option(
    "--index",
    type=click.IntRange(0, 2**64 - 1),
    default=0,
    show_default=True,
    help="Deck number within the seed's run.",
)
@click.option("--full", is_flag=True, help="Show each card's deck (7h@1).")
def shuffle_cmd(decks: int, jokers: int, seed: int | None, index: int, full: bool) -> None:
    """Print a seeded shuffled deck; the first card printed is the top (dealt first)."""
    if seed is None:
        seed = new_seed()
        click.echo(f"seed: {seed}", err=True)
    cards = shuffled_deck(decks, jokers, seed=seed, index=index)
    click.echo(format_cards(cards, full=full))
