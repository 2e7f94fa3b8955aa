"""`cardcore play spite-malice`: the Textual table driven by key presses (headless pilot)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("textual")

from cardcore import _core
from cardcore.games.base import get_game
from cardcore.play.spite_malice import CENTRE_KEYS, HAND_KEYS, SIDE_KEYS, SpiteMaliceApp
from cardcore.play.widgets import SheetScreen
from cardcore.spite_malice.rules import Discard, PlayHand, PlayPayOff, PlaySide, State
from cardcore.spite_malice.state import native_rules
from play_tables import table_config

_config = table_config("spite-malice", players=2, ai="normal")


def _snap(st: State) -> str:
    return st.layout_digest()


def test_refused_play_then_discard(tmp_path: Path) -> None:
    async def run() -> None:
        app = SpiteMaliceApp(_config(tmp_path, players=3, ai="hard"))
        async with app.run_test(size=(120, 32)) as pilot:
            await pilot.pause()
            st = app.session.state
            assert st.current == 0
            assert "Left" in app.opponents_panel.plain
            assert "Right" in app.opponents_panel.plain
            assert "C1[z]: empty" in app.centre_panel.plain
            assert f"({len(st.payoffs[0])} left)" in app.you_panel.plain
            # a non-ace from the hand cannot start an empty centre stack
            i = next(k for k, c in enumerate(st.hands[0]) if st.rank(c) not in (0, 1))
            card = st.hands[0][i]
            before = _snap(st)
            await pilot.press(HAND_KEYS[i])
            assert f"Selected: hand {app.session.label(card)}" in app.you_panel.plain
            await pilot.press("z")
            assert _snap(st) == before
            msg = f"Not allowed: {app.session.label(card)} does not go on C1: it needs an ace"
            assert msg in app.message_panel.plain
            # centre key without a selection: a hint, nothing changes
            await pilot.press("escape", "x")
            assert "Select a card first" in app.message_panel.plain
            assert _snap(st) == before
            # discard it to side stack S2: the turn passes, the AIs play, back to you
            n_before = len(app.session.log)
            await pilot.press(HAND_KEYS[i], SIDE_KEYS[1])
            mine = app.session.log[n_before]
            assert mine[0] == 0
            assert mine[1].endswith(">S2")
            assert card in st.sides[0][1]
            assert "You discarded" in app.message_panel.plain
            assert st.current == 0 or st.over
            assert {seat for seat, _ in app.session.log[n_before:]} == {0, 1, 2}  # AIs moved

    asyncio.run(run())


def test_king_shows_the_rank_it_stands_for(tmp_path: Path) -> None:
    async def run() -> None:
        app = SpiteMaliceApp(_config(tmp_path, seed=1))
        async with app.run_test(size=(120, 32)) as pilot:
            await pilot.pause()
            st = app.session.state
            # build C1 = A, K (wild, stands for 2) in a copy of the position, then redraw
            parts = st.parts()
            stock = parts["stock"]
            ace = next(c for c in range(52 * st.options.decks) if c % 13 == 0 and c in stock)
            king = next(c for c in range(52 * st.options.decks) if c % 13 == 12 and c in stock)
            stock.remove(ace)
            stock.remove(king)
            parts["center"][0] = [ace, king]
            inner = _core.sm_from_parts(native_rules(st.options), parts)
            app.session.state = State._wrap(st.options, inner, st.game)
            app.refresh_view()
            assert f"C1[z]: 2 (top {app.session.label(king)} as 2)" in app.centre_panel.plain

    asyncio.run(run())


def _keys_for(app: SpiteMaliceApp) -> list[str]:
    """A simple scripted player: pay-off plays first, then hand/side plays, else discard."""
    st = app.session.state
    legal = st.legal_moves()
    order = (PlayPayOff, PlayHand, PlaySide, Discard)
    move = min(legal, key=lambda m: order.index(type(m)))
    if isinstance(move, PlayPayOff):
        return ["p", CENTRE_KEYS[move.center]]
    if isinstance(move, PlaySide):
        return [SIDE_KEYS[move.side], CENTRE_KEYS[move.center]]
    i = st.hands[0].index(move.card_id)
    if isinstance(move, PlayHand):
        return [HAND_KEYS[i], CENTRE_KEYS[move.center]]
    return [HAND_KEYS[i], SIDE_KEYS[move.side]]


def test_short_match_to_the_end_and_replay(tmp_path: Path) -> None:
    async def run() -> None:
        opts = {"payoff_size": 3, "target_score": 4}
        app = SpiteMaliceApp(_config(tmp_path, seed=2, options=opts))
        sheets = 0
        async with app.run_test(size=(120, 32)) as pilot:
            await pilot.pause()
            for _ in range(3000):
                if isinstance(app.screen, SheetScreen):
                    sheets += 1
                    assert "Total" in app.screen.panel.plain
                    if app.session.match_over:
                        assert "Match over" in app.screen.panel.plain
                        break
                    await pilot.press("enter")
                    await pilot.pause()
                    continue
                assert app.session.state.current == 0
                await pilot.press(*_keys_for(app))
            assert app.session.match_over
            assert sheets == len(app.session.games)
        rec = json.loads((tmp_path / "spite-malice.jsonl").read_text())
        assert rec["game"] == "spite-malice"
        assert rec["scores"] == app.session.totals
        assert max(rec["scores"]) >= 4
        get_game("spite-malice").verify_replay(rec)
        # a tampered move is caught
        rec["games"][0]["replay"]["moves"][0][1] = "P>C9"
        with pytest.raises(Exception, match="spite-malice replay"):
            get_game("spite-malice").verify_replay(rec)

    asyncio.run(run())
