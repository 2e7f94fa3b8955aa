"""Hand-built inputs of the Three-Thirteen expert's Rust call for the tests of this folder
(``from tt_tables import expert_params, table``); keyword ``changes`` replace fields."""

from __future__ import annotations

from typing import Any

from cardcore import _core
from cardcore.three_thirteen.agents import HardAgent, hard_params

__all__ = ["expert_params", "table"]


def table(**changes: Any) -> _core.ThreeThirteenTable:
    """Two players, one deck, 3s wild: seat 0 to draw at its first turn of the round of 3
    cards, seat 1 having drawn from the stock and discarded face 40 onto the up-card 30."""
    fields: dict[str, Any] = {
        "seat": 0,
        "hand": bytes([0, 1, 2]),
        "pile": bytes([30, 40]),
        "taken": [b"", b""],
        "hand_sizes": [3, 3],
        "stock_size": 52 - 8,
        "num_decks": 1,
        "jokers": 0,
        "wild": 3,
        "ace_mode": 0,
        "wild_points": 20,
        "joker_points": 50,
        "discard_phase": False,
        "banned": None,
        "out_seat": None,
        "turn_in_round": 1,
        "first": 1,
        "min_own_turns": 0,
        "max_turns": 400,
        "forbid_return": False,
    }
    return _core.ThreeThirteenTable(**(fields | changes))


def expert_params(**changes: Any) -> _core.ThreeThirteenExpertParams:
    """A small pimc search (4 deals) with ``hard``'s tuning."""
    fields: dict[str, Any] = {
        "rollouts": 4,
        "time_ms": None,
        "max_candidates": 4,
        "slack": 10,
        "margin": 1.0,
        "hard_rollouts": False,
        "infer_hands": True,
        "search": "pimc",
        "risk_weight": 1.0,
        "hard": hard_params(HardAgent),
        "infer_epsilon": 0.01,
    }
    return _core.ThreeThirteenExpertParams(**(fields | changes))
