"""Dice duel: every seat rolls ``dice`` six-sided dice; the highest total wins (a shared
highest total is a tie). A complete cardcore game in one file: options, agents, records with
a declared schema, replays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcore.errors import ReplayMismatchError
from cardcore.games import GameRequest, GameSpec, OptionSpec, register_game
from cardcore.games.schema import HEAD, INT64, RecordSchema, list_of, optional
from cardcore.rng import Rng


class Roller:
    """Keeps the roll (dice games have no choices; an agent is still required)."""

    def act(self, observation: Any, legal: Sequence[Any], rng: Any) -> Any:
        return legal[0]


def _rolls(seed: int, players: int, dice: int) -> list[list[int]]:
    deck = Rng.for_stream(seed, 0, "deck")
    return [[1 + deck.below(6) for _ in range(dice)] for _ in range(players)]


def play(request: GameRequest) -> dict[str, Any]:
    dice = request.options["dice"]
    assert isinstance(dice, int)  # the spec declares it an int option
    rolls = _rolls(request.seed, request.players, dice)
    scores = [sum(r) for r in rolls]
    best = [s for s, v in enumerate(scores) if v == max(scores)]
    record = {
        **request.record_head("dice"),
        "scores": scores,
        "winner": best[0] if len(best) == 1 else None,
        "rolls": rolls,
    }
    if request.replay:
        record["replay"] = {"game": "dice", "seed": request.seed, "rolls": rolls, **record}
    return record


def verify_replay(replay: Mapping[str, Any]) -> None:
    rolls = _rolls(int(replay["seed"]), len(replay["rolls"]), len(replay["rolls"][0]))
    if rolls != replay["rolls"]:
        raise ReplayMismatchError("dice: the rolls differ")


SPEC = register_game(
    GameSpec(
        name="dice",
        title="Dice duel",
        min_players=2,
        max_players=4,
        default_players=2,
        options=(OptionSpec("dice", 2, "dice per seat", minimum=1, maximum=10),),
        agents={"roller": Roller},
        default_agent="roller",
        play=play,
        verify_replay=verify_replay,
        record_schema=RecordSchema(
            {
                **HEAD,
                "scores": list_of(INT64),
                "winner": optional(INT64),
                "rolls": list_of(list_of(INT64)),
            },
            rounds="rolls",
        ),
    )
)
