"""Quitting `cardcore play`: Ctrl+Q works over a score sheet or the help, and a game left before
its end is reported, not dropped without a word."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cardcore.play.three_thirteen import ThreeThirteenApp
from play_tables import table_config

_config = table_config("three-thirteen", players=2, ai="easy")


@pytest.mark.parametrize("screen", ["sheet", "help"])
def test_ctrl_q_quits_over_a_modal_screen(tmp_path: Path, screen: str) -> None:
    async def run() -> None:
        app = ThreeThirteenApp(_config(tmp_path))
        async with app.run_test(size=(110, 32)) as pilot:
            await pilot.pause()
            if screen == "sheet":
                app.show_sheet("Round 1", "scores")
            else:
                await pilot.press("question_mark")
            await pilot.pause()
            assert app.screen is not app.screen_stack[0]
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert not app.is_running

    asyncio.run(run())


def test_a_game_left_early_is_reported(tmp_path: Path) -> None:
    async def run() -> ThreeThirteenApp:
        app = ThreeThirteenApp(_config(tmp_path))
        async with app.run_test(size=(110, 32)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+q")
            await pilot.pause()
        return app

    app = asyncio.run(run())
    assert app.replay_path is None
    assert app.unfinished_note() == (
        "left before the end: nothing was saved (the replay is saved when the game or match ends)"
    )
