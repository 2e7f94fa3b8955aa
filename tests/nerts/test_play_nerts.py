"""`cardcore play nerts`: the real-time table driven by key presses and a test clock."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("textual")

from cardcore.errors import ReplayMismatchError
from cardcore.games.base import get_game
from cardcore.nerts.rules import NERTS, ToWork
from cardcore.play.common import card_label
from cardcore.play.nerts import NertsApp, NertsSession
from cardcore.play.widgets import SheetScreen
from play_tables import table_config

_config = table_config("nerts", players=3, ai="hard")


def _layout(app: NertsApp) -> tuple[object, ...]:
    o = app.session.observation(0)
    p = o.me
    return (p.nerts_top, p.nerts_count, p.work, p.stock_count, p.waste_top, p.waste_count)


def test_keys_play_refuse_undo_flip_and_ai_clock(tmp_path: Path) -> None:
    async def run() -> None:
        app = NertsApp(_config(tmp_path), realtime=False)
        async with app.run_test(size=(120, 32)) as pilot:
            await pilot.pause()
            s = app.session
            ace = s.observation().me.nerts_top
            assert ace is not None
            assert ace % 13 == 0  # seed 5: an ace on top of your Nerts pile
            assert "Nerts [n]: A♣ (13 left)" in app.you_panel.plain
            # select the Nerts pile, send it to a foundation
            await pilot.press("n")
            assert "Selected: Nerts pile A♣" in app.you_panel.plain
            await pilot.press("f")
            assert s.observation().foundation_piles == ((ace,),)
            assert s.observation().me.nerts_count == 12
            assert "A♣" in app.found_panel.plain
            # a Nerts card on a work pile where it does not fit: refused, nothing moves
            bad = next(k for k in range(4) if ToWork(NERTS, 1, k) not in s.state.legal_moves(0))
            before = _layout(app)
            await pilot.press("n", str(bad + 1))
            assert _layout(app) == before
            assert "Not allowed: that does not go on work pile" in app.message_panel.plain
            # f with nothing selected: a hint
            await pilot.press("escape", "f")
            assert "Select a card first" in app.message_panel.plain
            # undo the foundation play
            await pilot.press("u")
            assert s.observation().foundation_piles == ()
            assert s.observation().me.nerts_top == ace
            # a second undo is refused (one-move undo)
            before = _layout(app)
            await pilot.press("u")
            assert _layout(app) == before
            assert "nothing to undo" in app.message_panel.plain
            # flip three from the stock
            await pilot.press("space")
            assert s.observation().me.waste_count == 3
            assert "Stock 32" in app.you_panel.plain
            # ... they show fanned, the top one (playable) last
            fan = " ".join(card_label(c % 52) for c in s.observation().waste_fan)
            assert len(fan.split()) == 3
            assert f"waste [w]: {fan}" in app.you_panel.plain
            # calling Nerts with cards left is refused
            await pilot.press("c")
            assert "Not allowed" in app.message_panel.plain
            assert not s.state.is_over
            # the AIs act as the clock runs (20 s of table time)
            assert s.state.now == 0
            app.advance(20_000)
            assert s.state.now == 20_000
            assert " 20.0 s" in app.title_panel.plain
            ai_rows = [r for r in s.state.events if r[1] > 0 and r[3] == "ok"]
            assert ai_rows
            assert any(app.session.last[s] for s in (1, 2))
            # your actions are injected at the current table time
            await pilot.press("space")
            assert s.state.inputs[-1][2] == 20_000

    asyncio.run(run())


def _seed_with_nerts_ace() -> int:
    for seed in range(200):
        s = NertsSession(2, "easy", seed, {"nerts_pile_size": 1, "target_score": 1})
        top = s.observation().me.nerts_top
        if top is not None and top % 13 == 0:
            return seed
    raise AssertionError("no seed found")


def test_call_nerts_ends_round_and_match_saves_replay(tmp_path: Path) -> None:
    seed = _seed_with_nerts_ace()

    async def run() -> None:
        opts = {"nerts_pile_size": 1, "target_score": 1}
        app = NertsApp(
            _config(tmp_path, players=2, seed=seed, ai="easy", options=opts), realtime=False
        )
        async with app.run_test(size=(120, 32)) as pilot:
            await pilot.pause()
            app.advance(300)
            await pilot.press("n", "f")
            assert app.session.observation().me.nerts_count == 0
            assert "press c to call Nerts" in app.you_panel.plain
            await pilot.press("c")
            await pilot.pause()
            assert app.session.state.is_over
            assert app.session.state.caller == 0
            assert isinstance(app.screen, SheetScreen)
            assert "You called Nerts!" in app.screen.panel.plain
            assert "Match over. You win the match!" in app.screen.panel.plain
        rec = json.loads((tmp_path / "nerts.jsonl").read_text())
        assert rec["game"] == "nerts"
        assert rec["winner"] == 0
        assert rec["agents"] == ["human", "greedy"]
        rep = rec["replay"]
        assert rep["kind"] == "match"
        assert rep["human_seats"] == [0]
        rnd = rep["rounds"][0]
        assert [row[2:] for row in rnd["events"] if row[1] == 0] == [
            ["N>F", "ok"],
            ["nerts", "ok"],
        ]
        assert [i[3] for i in rnd["inputs"]] == ["N>F", "nerts"]
        assert rnd["scores"][0] == 1
        get_game("nerts").verify_replay(rec)
        # a changed input no longer reproduces the recorded round
        rnd["inputs"][0][3] = "flip"
        with pytest.raises(ReplayMismatchError):
            get_game("nerts").verify_replay(rec)

    asyncio.run(run())
