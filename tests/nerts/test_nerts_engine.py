"""The discrete-event round (the rules page's "Table speeds" and "Stalemate"): races,
stalemates, humans, determinism, invariants."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from cardcore.cards import natural_face
from cardcore.nerts import (
    NERTS,
    CallNerts,
    Flip,
    GreedyAgent,
    HardAgent,
    Options,
    RandomAgent,
    Recycle,
    ToFoundation,
    ToWork,
    Undo,
)
from cardcore.nerts.engine import NertsAgent
from nerts_reference_engine import Round
from nerts_reference_table import NertsTable, PlayerLayout
from nerts_tables import filler, human_round, ids, layout


def test_n10_race_first_card_stays() -> None:
    rnd = human_round(
        layout(0, nerts="Kc 5s", work=("Ks", "Kh", "Kc", "Kd")),
        filler(1),
        layout(2, nerts="Kh 5s", work=("Ks", "Kh", "Kc", "Kd")),
        filler(3),
        foundations=("As 2s 3s 4s",),
    )
    rnd.submit(0, ToFoundation(NERTS), 1200)
    rnd.submit(2, ToFoundation(NERTS), 1250)
    rnd.advance_to(2000)
    assert rnd.log == [[1200, 0, "N>F", "ok"], [1250, 2, "N>F", "fail"]]
    assert rnd.table.players[2].nerts[-1] == ids("5s", 2)[0]  # it stays in place
    assert rnd.table.foundations[0][-1] == ids("5s", 0)[0]
    assert rnd.now == 2000


def test_n10_two_foundations_both_succeed() -> None:
    rnd = human_round(
        layout(0, nerts="Kc 5s", work=("Ks", "Kh", "Kc", "Kd")),
        filler(1),
        layout(2, nerts="Kh 5s", work=("Ks", "Kh", "Kc", "Kd")),
        filler(3),
        foundations=("As 2s 3s 4s", "As@1 2s@1 3s@1 4s@1"),
    )
    rnd.submit(0, ToFoundation(NERTS), 1200)
    rnd.submit(2, ToFoundation(NERTS), 1250)
    rnd.advance_to(1300)
    assert [e[3] for e in rnd.log] == ["ok", "ok"]
    assert [natural_face(f[-1]) for f in rnd.table.foundations] == [ids("5s")[0]] * 2


def test_same_time_orders_by_tiebreak_then_seat() -> None:
    def tie() -> list[list[Any]]:
        """Both seats play their 5s onto the one foundation at the same time."""
        rnd = human_round(
            *(
                layout(s, nerts=f"{k} 5s", work=("Ks", "Kh", "Kc", "Kd"), stock_top_first="2c")
                for s, k in enumerate(("Kc", "Kh"))
            ),
            foundations=("As 2s 3s 4s",),
        )
        for s in (0, 1):
            rnd.submit(s, ToFoundation(NERTS), 500)
        rnd.advance_to(500)
        return rnd.log

    log = tie()
    assert sorted(e[3] for e in log if e[1] >= 0) == ["fail", "ok"]
    winner = next(e[1] for e in log if e[3] == "ok")
    # the same seed gives the same winner of the tie
    assert next(e[1] for e in tie() if e[3] == "ok") == winner
    assert any(e[1] == 0 and e[3] == "ok" for e in log) or winner == 1


def test_n9_call_ends_round_and_drops_later_actions() -> None:
    rnd = human_round(layout(0, nerts="", work=("Ks", "Kh", "Kc", "Kd")), filler(1))
    rnd.submit(1, Flip(), 900)
    rnd.submit(0, CallNerts(), 800)
    rnd.advance_to(5000)
    assert rnd.end == "nerts"
    assert rnd.caller == 0
    assert rnd.now == 800
    assert rnd.log == [[800, 0, "nerts", "ok"], [800, -1, "end:nerts", "ok"]]
    assert rnd.scores() == [0, -4]
    with pytest.raises(Exception, match="over"):
        rnd.submit(1, Flip(), 6000)


def test_auto_call_option() -> None:
    rnd = human_round(
        layout(0, nerts="As", work=("Ks", "Kh", "Kc", "Kd")), filler(1), auto_call_nerts=True
    )
    rnd.submit(0, ToFoundation(NERTS), 300)
    rnd.advance_to(1000)
    assert rnd.end == "nerts"
    assert rnd.caller == 0
    assert rnd.now == 300


def _stall(rnd: Round, seats: Sequence[int], t: int) -> int:
    """Every seat in turn flips/recycles until it has recycled twice; returns the clock."""
    marks = sum(1 for e in rnd.log if e[1] == -1)
    for s in seats:
        while (
            rnd.running
            and rnd._recycles_since[s] < 2
            and sum(1 for e in rnd.log if e[1] == -1) == marks
        ):
            legal = [a for a in rnd.legal(s) if isinstance(a, Flip | Recycle)]
            assert legal, f"seat {s} has no stock action"
            t += 100
            rnd.submit(s, legal[0], t)
            rnd.advance_to(t)
    return t


def dead_round(**options: Any) -> Round:
    # nothing ever fits anywhere: every stock card is a king or a queen of the wrong colour
    lay0 = layout(0, nerts="Kc 9c", work=("Kd", "Kh", "Ks", "Kc"), stock_top_first="Qh Qd Kh")
    lay1 = layout(1, nerts="Kd 9d", work=("Ks", "Kc", "Kd", "Kh"), stock_top_first="Qc Qs Kc")
    return human_round(lay0, lay1, **options)


def test_n14_three_rotations_then_the_fourth_stalemate_ends_the_round() -> None:
    rnd = dead_round()
    t = 0
    for k in range(1, 4):
        t = _stall(rnd, (0, 1), t)
        assert [e[2] for e in rnd.log if e[1] == -1] == ["stalemate:rotate_one"] * k
        assert rnd.running
        assert not rnd.table.players[0].waste  # waste went back to the stock
    stock_before = list(rnd.table.players[0].stock)
    assert len(stock_before) == 3
    t = _stall(rnd, (0, 1), t)
    assert rnd.end == "stalemate"
    assert rnd.caller is None
    assert rnd.log[-1][2] == "end:stalemate"
    assert rnd.scores() == [-4, -4]  # +1/-2 as usual: 2 Nerts cards each, none played


def test_rotation_moves_top_stock_card_to_bottom() -> None:
    rnd = dead_round()
    order0 = list(rnd.table.players[0].stock)  # top is the last item
    _stall(rnd, (0, 1), 0)
    assert rnd.table.players[0].stock == [order0[-1], *order0[:-1]]


@pytest.mark.parametrize(("rule", "end"), [("end_round", "stalemate"), ("flip_one", None)])
def test_other_stalemate_rules(rule: str, end: str | None) -> None:
    rnd = dead_round(stalemate_rule=rule)
    _stall(rnd, (0, 1), 0)
    assert rnd.end == end
    if rule == "flip_one":
        assert all(p.flip_count == 1 for p in rnd.table.players)


def test_max_consecutive_stalemates_one_is_the_classic_rule() -> None:
    rnd = dead_round(max_consecutive_stalemates=1)
    t = _stall(rnd, (0, 1), 0)
    assert rnd.running
    _stall(rnd, (0, 1), t)
    assert rnd.end == "stalemate"


def test_stalemate_without_any_stock_ends_at_once() -> None:
    # nobody has a stock, a waste or a progress move: three rotations change nothing
    rnd = human_round(
        layout(0, nerts="Kc 5s", work=("Ks", "Kh", "Kc", "Kd")),
        layout(1, nerts="Kh 5h", work=("Ks", "Kh", "Kc", "Kd")),
        foundations=("As 2s 3s 4s",),
    )
    rnd.submit(0, ToFoundation(NERTS), 100)
    rnd.advance_to(200)
    assert [e[2] for e in rnd.log] == ["N>F", *["stalemate:rotate_one"] * 3, "end:stalemate"]
    assert rnd.end == "stalemate"
    assert rnd.now == 100


def test_exhausted_stock_passes_count_as_stalled() -> None:
    lay0 = layout(0, nerts="Kc 9c", work=("Kd", "Kh", "Ks", "Kc"), stock_top_first="Jh")
    lay1 = layout(1, nerts="Kd 9d", work=("Ks", "Kc", "Kd", "Kh"), stock_top_first="Jc")
    rnd = human_round(lay0, lay1, stock_passes=1)
    rnd.submit(0, Flip(), 100)
    rnd.submit(1, Flip(), 100)
    rnd.advance_to(100)  # no recycling allowed: both stalled, the waste goes back and rotates
    assert [e[2] for e in rnd.log if e[1] == -1] == ["stalemate:rotate_one"]
    assert rnd.table.players[0].stock == ids("Jh")


def test_progress_resets_stalemate_counters() -> None:
    lay0 = layout(0, nerts="Kc Ac", work=("Kd", "Kh", "Ks", "Kc"), stock_top_first="Qh Qd Kh")
    lay1 = layout(1, nerts="Kd 9d", work=("Ks", "Kc", "Kd", "Kh"), stock_top_first="Qc Qs Kc")
    rnd = human_round(lay0, lay1)
    t = _stall(rnd, (0,), 0)
    assert rnd._recycles_since[0] == 2
    rnd.submit(0, ToFoundation(NERTS), t + 10)
    rnd.advance_to(t + 10)
    assert rnd._recycles_since == [0, 0]


def test_human_injection_and_failures_with_an_agent_opponent() -> None:
    opts = Options()

    def drive() -> Round:
        rnd = Round(opts, 42, [None, GreedyAgent()])
        t = 0
        while rnd.running and t < 120_000:
            t += 700
            if not rnd.pending(0):
                legal = rnd.legal(0)
                pick = next((a for a in legal if isinstance(a, ToFoundation)), None)
                rnd.submit(0, pick or next(a for a in legal if not isinstance(a, Undo)), t + 300)
            rnd.advance_to(t)
        return rnd

    a, b = drive(), drive()
    assert a.log == b.log
    assert a.inputs == b.inputs
    assert any(e[1] == 0 for e in a.log)
    assert any(e[1] == 1 for e in a.log)
    assert {e[1] for e in a.log} <= {-1, 0, 1}
    rnd = Round(opts, 1, [None, None])
    rnd.submit(0, Flip(), 10)
    with pytest.raises(ValueError, match="pending"):
        rnd.submit(0, Flip(), 20)
    rnd.advance_to(100)
    with pytest.raises(ValueError, match="before now"):
        rnd.submit(0, Flip(), 50)


def test_human_illegal_action_fails_without_change() -> None:
    rnd = human_round(layout(0, nerts="Kc 7d", work=("8h", "Kh", "Kc", "Kd")), filler(1))
    before = rnd.table.players[0].clone()
    rnd.submit(0, ToWork(NERTS, 1, 0), 100)  # 7d on 8h: same colour
    rnd.advance_to(100)
    assert rnd.log == [[100, 0, "N>P0", "fail"]]
    assert rnd.table.players[0] == before


def test_sleeping_agent_wakes_on_foundation_change() -> None:
    # seat 1 (agent) has only a 2s on its Nerts pile and nothing else to do
    lay1 = PlayerLayout(nerts=ids("2s", 1), work=[ids("Kh", 1), [], [], []], stock=[], waste=[])
    lay0 = layout(0, nerts="Kc As", work=("Ks", "Kh", "Kc", "Kd"))
    opts = Options(work_piles=4, empty_work_pile_fill="nerts_only", auto_call_nerts=True)
    rnd = Round(opts, 3, [None, None])
    rnd.table = NertsTable.from_layouts(opts, [lay0, lay1])
    rnd.table.players[1].work = [ids("Kh", 1), ids("Ks", 1), ids("Kd", 1), ids("Kc", 1)]
    rnd.agents[1] = GreedyAgent()
    rnd._decide(1)
    assert rnd._sleeping[1]
    assert not rnd.pending(1)
    rnd.submit(0, ToFoundation(NERTS), 1000)  # the As lands: seat 1 wakes and plays its 2s
    rnd.run()
    assert rnd.end == "nerts"
    assert rnd.caller == 1
    assert rnd.log[0][:3] == [1000, 0, "N>F"]
    assert rnd.log[1][1] == 1
    assert rnd.log[1][0] > 1000


AGENT_SETS: list[list[type]] = [
    [RandomAgent, RandomAgent],
    [GreedyAgent, HardAgent, RandomAgent],
    [HardAgent, GreedyAgent, HardAgent, GreedyAgent],
]


@pytest.mark.parametrize("seed", range(12))
def test_conservation_after_every_event(seed: int) -> None:
    classes = AGENT_SETS[seed % 3]
    opts = Options(
        num_players=len(classes),
        work_piles=(4, 5)[seed % 2],
        flip_count=(3, 1)[seed // 2 % 2],
        speed=("chill", "classic", "frantic")[seed % 3],
        stalemate_rule=("rotate_one", "flip_one")[seed // 6],
        allow_partial_pile_moves=seed % 4 != 3,
    )
    agents: list[NertsAgent | None] = [c() for c in classes]
    rnd = Round(opts, seed, agents)
    everything = list(range(52 * len(classes)))
    steps = 0
    while rnd.step():
        steps += 1
        assert sorted(rnd.table.all_cards()) == everything
        for s, p in enumerate(rnd.table.players):
            assert all(c // 52 == s for c in p.all_cards())  # own cards only
            for pile in p.work:  # every work pile is a descending alternating run
                for lo, hi in zip(pile[1:], pile, strict=False):
                    assert hi % 13 == lo % 13 + 1
                    assert (hi % 52 // 13 in (1, 2)) != (lo % 52 // 13 in (1, 2))
        for f in rnd.table.foundations:
            assert f[0] % 13 == 0
            assert all(c % 52 // 13 == f[0] % 52 // 13 for c in f)
            assert [c % 13 for c in f] == list(range(len(f)))
    assert steps > 20
    assert not rnd.running
    assert rnd.end in ("nerts", "stalemate", "cap")
    times = [e[0] for e in rnd.log]
    assert times == sorted(times)


@pytest.mark.parametrize("players", [2, 4])
def test_event_log_is_deterministic(players: int) -> None:
    def once(seed: int) -> bytes:
        opts = Options(num_players=players)
        rnd = Round(opts, seed, [HardAgent() if s % 2 else GreedyAgent() for s in range(players)])
        rnd.run()
        return json.dumps([rnd.log, rnd.scores(), rnd.end]).encode()

    assert once(11) == once(11)
    assert once(11) != once(12)


def test_observation_hides_stock_waste_and_nerts() -> None:
    rnd = Round(Options(num_players=3), 5, [None, None, None])
    rnd.table.players[1].waste = rnd.table.players[1].stock[-3:]
    obs = rnd.observation(0)
    assert obs.seat == 0
    assert obs.me is obs.players[0]
    assert not hasattr(obs, "table")
    assert not hasattr(obs, "_table")
    hidden = set(rnd.table.players[1].stock[:-3]) | set(rnd.table.players[1].nerts[:-1])
    hidden |= set(rnd.table.players[1].waste[:-1])
    seen: set[int] = set()
    for p in obs.players:
        assert not hasattr(p, "stock")
        assert not hasattr(p, "nerts")
        for value in (p.nerts_top, p.waste_top):
            if value is not None:
                seen.add(value)
        for pile in p.work:
            seen.update(pile)
    assert not seen & hidden
    assert obs.players[1].waste_top == rnd.table.players[1].waste[-1]
    assert obs.players[1].stock_count == len(rnd.table.players[1].stock)


def test_speed_changes_timing_only() -> None:
    durations = {}
    for speed in ("chill", "frantic"):
        total = 0
        for seed in range(6):
            rnd = Round(Options(speed=speed), seed, [GreedyAgent(), GreedyAgent()])
            rnd.run()
            total += rnd.now
        durations[speed] = total
    assert durations["frantic"] < durations["chill"] / 2


def test_cap_ends_a_round_nobody_plays() -> None:
    rnd = Round(Options(), 1, [None, None], max_ms=10_000)
    rnd.advance_to(20_000)
    assert rnd.end == "cap"
    assert rnd.now == 10_000
    assert rnd.caller is None
    lone = Round(Options(), 1, [GreedyAgent(), None])
    lone.run()  # seat 1 never acts: the greedy seat plays on until it calls or stalls out
    assert lone.end in ("nerts", "cap")


def test_undo_through_the_engine() -> None:
    rnd = human_round(layout(0, nerts="Kc 7d", work=("8s", "Kh", "Kc", "Kd")), filler(1))
    rnd.submit(0, ToWork(NERTS, 1, 0), 100)
    rnd.advance_to(100)
    rnd.submit(0, Undo(), 200)
    rnd.submit(1, Flip(), 200)
    rnd.advance_to(300)
    assert rnd.table.players[0].nerts == ids("Kc 7d")
    assert [e[2:] for e in rnd.log if e[1] == 0] == [["N>P0", "ok"], ["undo", "ok"]]
    rnd.submit(0, Undo(), 400)
    rnd.advance_to(400)
    assert rnd.log[-1] == [400, 0, "undo", "fail"]
