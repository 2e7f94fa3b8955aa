"""Spite & Malice (2-4 players, `cardcore rules spite-malice`): engine, turn planner, agents,
records and replays.

Quick start (the embedding protocol, ``docs/embedding.md``)::

    import cardcore

    game = cardcore.load_game("spite-malice", players=2)
    state = game.new_state(seed=7)
    while not state.is_over:
        state.apply(state.legal_actions()[0])

or whole games between agents: ``play_game(Options(), seed=7, agents=[PlannerAgent(),
GreedyAgent()])``. ``SpiteOptions`` is the deprecated old name of :class:`Options`.
"""

from __future__ import annotations

from cardcore._deprecated import deprecated_names
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
    Options,
    PlayHand,
    PlayPayOff,
    PlaySide,
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
    "Options",
    "Plan",
    "PlannerAgent",
    "PlannerInput",
    "PlayHand",
    "PlayPayOff",
    "PlaySide",
    "RandomAgent",
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

__getattr__ = deprecated_names(__name__, {"SpiteOptions": ("Options", Options)})
