"""`cardcore play three-thirteen`: the Textual table driven by key presses (headless pilot)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("textual")

from cardcore.games.base import get_game
from cardcore.play.common import PlayConfig
from cardcore.play.three_thirteen import ThreeThirteenApp, ThreeThirteenSession
from cardcore.play.widgets import SheetScreen
from cardcore.three_thirteen.rules import State
from play_tables import table_config

_config = table_config("three-thirteen", players=4, ai="normal")


def _snapshot(st: State) -> tuple[object, ...]:
    return (
        st.round,
        st.current,
        st.phase,
        [list(h) for h in st.hands],
        list(st.stock),
        list(st.discard_pile),
        list(st.totals),
    )


def test_draw_discard_and_refused_moves(tmp_path: Path) -> None:
    async def run() -> None:
        app = ThreeThirteenApp(_config(tmp_path))
        async with app.run_test(size=(110, 32)) as pilot:
            await pilot.pause()
            st = app.session.state
            # the AIs before you have already played (zero delay): it is your turn to draw
            assert st.current == 0
            assert st.phase == "draw"
            assert "round 1/11" in app.title_panel.plain
            assert "wild rank 3" in app.title_panel.plain
            assert "Left" in app.opponents_panel.plain
            assert "Top" in app.opponents_panel.plain
            assert "Right" in app.opponents_panel.plain
            assert "Your turn: draw" in app.hand_panel.plain
            # discarding before drawing is refused and changes nothing
            before = _snapshot(st)
            await pilot.press("d")
            assert _snapshot(st) == before
            assert "Not allowed: draw first" in app.message_panel.plain
            # draw from the stock: the top stock card joins the hand and is selected
            top = st.stock[-1]
            await pilot.press("s")
            assert st.phase == "discard"
            assert top in st.hands[0]
            assert "You drew" in app.hand_panel.plain
            assert f"Selected: {app.session.text_of(top)}" in app.hand_panel.plain
            # drawing twice is refused
            before = _snapshot(st)
            await pilot.press("p")
            assert _snapshot(st) == before
            assert "already drew" in app.message_panel.plain
            # select another card and discard it
            await pilot.press("right")
            order = app.session.hand_view().order
            chosen = order[app.cursor]
            await pilot.press("enter")
            assert chosen not in st.hands[0]
            assert [0, chosen] in [list(m) for r in st.move_log for m in r]
            if app.session.rounds_done == 0:
                assert "You discarded" in app.message_panel.plain
            else:  # the last turns after Right went out: the score sheet is up
                assert isinstance(app.screen, SheetScreen)
                assert "Round 1 over: Right went out." in app.message_panel.plain
            # the hand line shows melds/deadwood with the solver's points
            view = app.session.hand_view()
            assert f"deadwood {view.points}" in app.hand_panel.plain

    asyncio.run(run())


def test_take_discard_pile_and_hand_arrangement(tmp_path: Path) -> None:
    async def run() -> None:
        app = ThreeThirteenApp(_config(tmp_path, players=2, seed=11, options={"jokers": 2}))
        async with app.run_test(size=(110, 32)) as pilot:
            await pilot.pause()
            st = app.session.state
            assert st.current == 0
            assert "+ jokers" in app.title_panel.plain
            pile_top = st.discard_pile[-1]
            await pilot.press("p")
            assert pile_top in st.hands[0]
            assert "from the discard pile" in app.message_panel.plain
            view = app.session.hand_view()
            assert sorted(view.order) == sorted(st.hands[0])
            shown = app.hand_panel.plain.splitlines()[0]
            for cid in view.order:
                assert app.session.text_of(cid) in shown
            assert f"deadwood {view.points}" in shown
            assert shown.count("[") == len(view.melds)
            assert ("|" in shown) == bool(view.deadwood)

    asyncio.run(run())


def test_help_screen(tmp_path: Path) -> None:
    async def run() -> None:
        app = ThreeThirteenApp(_config(tmp_path))
        async with app.run_test(size=(110, 32)) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            assert "Three-Thirteen Rummy" in app.screen.panel.plain  # type: ignore[attr-defined]
            assert "cardcore rules three-thirteen" in app.screen.panel.plain  # type: ignore[attr-defined]
            before = _snapshot(app.session.state)
            await pilot.press("s")  # keys go to the help screen, not the table
            assert _snapshot(app.session.state) == before
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is app.screen_stack[0]

    asyncio.run(run())


def test_full_game_scripted_player_and_replay(tmp_path: Path) -> None:
    """A scripted player (draw from the stock, discard the selected card) plays all 11 rounds;
    the saved replay verifies."""

    async def run() -> None:
        app = ThreeThirteenApp(_config(tmp_path, players=2, seed=3))
        sheets = 0
        async with app.run_test(size=(110, 32)) as pilot:
            await pilot.pause()
            st = app.session.state
            for _ in range(5000):
                if isinstance(app.screen, SheetScreen):
                    sheets += 1
                    text = app.screen.panel.plain
                    assert "Total" in text
                    if st.over:
                        assert "Game over" in text
                        break
                    await pilot.press("enter")
                    await pilot.pause()
                    continue
                assert st.current == 0
                await pilot.press("s" if st.phase == "draw" else "d")
            assert st.over
            assert sheets == 11
        path = tmp_path / "three-thirteen.jsonl"
        assert app.replay_path == path
        rec = json.loads(path.read_text().splitlines()[0])
        assert rec["game"] == "three-thirteen"
        assert rec["agents"][0] == "human"
        assert rec["result"]["scores"] == st.totals
        get_game("three-thirteen").verify_replay(rec)

    asyncio.run(run())


def test_session_refuses_out_of_turn_and_maps_ai_levels() -> None:
    s = ThreeThirteenSession(players=3, ai="easy", seed=9)
    assert s.agent_names == ["human", "greedy", "greedy"]
    assert ThreeThirteenSession(players=2, ai="hard", seed=9).agent_names[1] == "hard"
    assert ThreeThirteenSession(players=2, ai="normal", seed=9).agent_names[1] == "normal"
    assert ThreeThirteenSession(players=2, ai="expert", seed=9).agent_names[1] == "expert"
    while s.state.current == 0:
        s.draw_stock()
        s.discard(s.state.hands[0][0])
    from cardcore.errors import IllegalMoveError

    before = _snapshot(s.state)
    with pytest.raises(IllegalMoveError, match="turn"):
        s.draw_stock()
    assert _snapshot(s.state) == before


def test_opponent_turns_are_paced(tmp_path: Path) -> None:
    """With a delay, the AI seats play one move per timer tick (not all at once)."""

    async def run() -> None:
        cfg = PlayConfig(
            "three-thirteen", 4, "normal", seed=8, delay=30.0, replay_file=str(tmp_path / "x")
        )
        app = ThreeThirteenApp(cfg)
        async with app.run_test(size=(110, 32)) as pilot:
            await pilot.pause()
            st = app.session.state
            while st.current != 0:  # the seats before you: one move per tick
                n = sum(map(len, st.move_log))
                app._ai_tick()
                assert sum(map(len, st.move_log)) == n + 1
            await pilot.press("s", "d")
            assert app.session.rounds_done == 0
            n = sum(map(len, st.move_log))
            assert st.current == 1  # Left waits for the timer
            assert "Left is playing" in app.hand_panel.plain
            app._ai_tick()
            assert sum(map(len, st.move_log)) == n + 1
            assert st.phase == "discard"
            assert "▶ Left" in app.opponents_panel.plain

    asyncio.run(run())
