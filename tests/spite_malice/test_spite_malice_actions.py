"""Spite & Malice legal action ids (computed in Rust, ``cardcore_engine::spite_actions``): the
same ids as the legal moves at the largest layouts, and a state whose piles are not this game's
is a typed error."""

from __future__ import annotations

from typing import Any

import pytest

import cardcore
from cardcore import _core
from cardcore.errors import StateFormatError
from cardcore.rng import Rng
from cardcore.spite_malice.state import native_rules

EXTREMES: list[dict[str, Any]] = [
    # 49 centre slots (unlimited: one per ace and joker, plus the free one), 8 sides, 12 cards
    {
        "players": 4,
        "num_decks": 8,
        "wild_mode": "jokers",
        "num_center_stacks": 0,
        "num_side_stacks": 8,
        "hand_size": 12,
        "payoff_size": 30,
    },
    {"players": 2, "num_decks": 1, "num_side_stacks": 1, "hand_size": 1, "payoff_size": 3},
    {"players": 3, "king_can_start_stack": False, "num_center_stacks": 8},
]


@pytest.mark.parametrize("options", EXTREMES)
def test_legal_actions_are_the_legal_moves(options: dict[str, Any]) -> None:
    game = cardcore.load_game("spite-malice", **options)
    for seed in range(3):
        st = game.new_state(seed)
        rng = Rng(seed)
        for _ in range(400):
            if st.is_over:
                break
            legal = st.legal_actions()
            assert legal == sorted({game.move_to_action(m) for m in st.legal_moves()})
            st.apply(legal[rng.below(len(legal))])


def test_a_card_of_another_game_is_a_state_format_error() -> None:
    game = cardcore.load_game("spite-malice", players=2)
    st = game.new_state(1)
    parts = st.parts()
    parts["hands"][st.current].append(10_000)
    with pytest.raises(StateFormatError, match="every card once"):
        _core.sm_from_parts(native_rules(st.options), parts)
