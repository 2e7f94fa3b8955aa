"""Spite & Malice (2-4 players, RULES §3): engine, turn planner, agents, records and replays.

Quick start::

    from cardcore.spite_malice import SpiteOptions, State, PlannerAgent, GreedyAgent, play_game

    state, log = play_game(SpiteOptions(), seed=7, agents=[PlannerAgent(), GreedyAgent()])
    print(state.winner, state.scores)

or, through the game-neutral registry, ``get_game("spite-malice").play(request)``.
"""

from __future__ import annotations

from cardcore.spite_malice.agents import GreedyAgent, PlannerAgent, RandomAgent
from cardcore.spite_malice.planner import (
    FEATURES,
    Plan,
    PlannerInput,
    plan_raw,
    plan_turn,
    planner_input,
    preset_weights,
)
from cardcore.spite_malice.rules import (
    OPTION_SPECS,
    Discard,
    Move,
    Observation,
    PlayHand,
    PlayPayOff,
    PlaySide,
    SpiteOptions,
    State,
    card_rank,
    card_text,
    move_text,
    parse_card_id,
    parse_move,
)
from cardcore.spite_malice.spec import SPEC, play, play_game, play_match, verify_replay

__all__ = [
    "FEATURES",
    "OPTION_SPECS",
    "SPEC",
    "Discard",
    "GreedyAgent",
    "Move",
    "Observation",
    "Plan",
    "PlannerAgent",
    "PlannerInput",
    "PlayHand",
    "PlayPayOff",
    "PlaySide",
    "RandomAgent",
    "SpiteOptions",
    "State",
    "card_rank",
    "card_text",
    "move_text",
    "parse_card_id",
    "parse_move",
    "plan_raw",
    "plan_turn",
    "planner_input",
    "play",
    "play_game",
    "play_match",
    "preset_weights",
    "verify_replay",
]
