"""The Rust rollout simulator (``cardcore_engine::nerts_rollout``, which the hard agent's
look-ahead plays: the rulebook's table in its lean mode) against the oracle, 0.4.0's Python table
(``nerts_reference_table.NertsTable``; ``games::nerts::tests`` ties it to the rulebook's table
the same way in Rust). Both are driven through the same random action sequences (legal and
illegal) from real deals, and after every step the legality verdict and the full table (every
pile of every seat in order, stock and waste in cycle order, recycles, cards on foundations,
foundation needs) must agree. The simulator leaves out undo and stalemate remedies (it starts
from a table after one: a seat's flip count is part of its layout), and only checks a Nerts
call."""

from __future__ import annotations

from typing import Any

import pytest

from cardcore import _core
from cardcore.cards import rank_of, suit_of
from cardcore.games.base import OptionValue
from cardcore.nerts import (
    NERTS,
    WASTE,
    Action,
    Options,
    ToFoundation,
    ToWork,
    Undo,
)
from cardcore.nerts.engine import deal_decks
from cardcore.nerts.lookahead import table_rules
from cardcore.nerts.rules import CALL, FLIP, RECYCLE, CallNerts, Flip, Recycle
from cardcore.rng import Rng
from nerts_reference_table import NertsTable


def laid_out(table: NertsTable) -> list[dict[str, Any]]:
    """Every seat as the simulator lays it out (faces per seat; cycle = waste bottom to top,
    then the stock from its top)."""
    found = [0] * len(table.players)
    for pile in table.foundations:
        for c in pile:
            found[c // 52] += 1
    return [
        {
            "nerts": bytes(c % 52 for c in p.nerts),
            "work": [bytes(c % 52 for c in pile) for pile in p.work],
            "cycle": bytes(c % 52 for c in p.waste + p.stock[::-1]),
            "waste": len(p.waste),
            "recycles": p.recycles,
            "found": found[s],
            "flip_count": p.flip_count,
        }
        for s, p in enumerate(table.players)
    ]


def needs(table: NertsTable) -> list[bytes]:
    """How many foundations take each (suit, rank) next."""
    need = [[0] * 16 for _ in range(4)]
    for pile in table.foundations:
        top = pile[-1]
        if rank_of(top) < 13:
            need[suit_of(top)][rank_of(top) + 1] += 1
    return [bytes(row) for row in need]


def candidates(table: NertsTable, seat: int) -> list[Action]:
    """Every action the simulator knows (foundation plays with the automatic target)."""
    w = len(table.players[seat].work)
    out: list[Action] = [ToFoundation(NERTS), ToFoundation(WASTE)]
    out += [ToFoundation(i) for i in range(w)]
    out += [ToWork(src, 1, j) for src in (NERTS, WASTE) for j in range(w)]
    out += [ToWork(i, k, j) for i in range(w) for j in range(w) for k in range(1, 14)]
    return [*out, FLIP, RECYCLE, CALL]


OPTION_SETS: list[dict[str, OptionValue]] = [
    {},
    {"flip_count": 1, "work_piles": 5},
    {"allow_partial_pile_moves": False, "empty_work_pile_fill": "nerts_only"},
    {"stock_passes": 2, "nerts_pile_size": 5},
    {"stock_passes": 1, "flip_count": 1, "nerts_pile_size": 3},
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("which", range(len(OPTION_SETS)))
def test_engine_and_simulator_agree_step_by_step(players: int, which: int) -> None:
    opts = Options.from_mapping(players, OPTION_SETS[which])
    legal_steps: list[type] = []
    for seed in range(4):
        rng = Rng.for_stream(seed, which * 10 + players, "parity")
        table = NertsTable(opts, deal_decks(seed, players))
        start = laid_out(table)
        starts = [list(f) for f in table.foundations]
        moves: list[tuple[int, int]] = []
        actions: list[Action] = []
        expected: list[tuple[bool, list[dict[str, Any]], list[bytes]]] = []
        for _ in range(400):
            seat = rng.below(players)
            legal = [a for a in table.legal_actions(seat) if not isinstance(a, Undo)]
            action: Action
            if legal and rng.below(4):
                action = legal[rng.below(len(legal))]
            else:
                every = candidates(table, seat)
                action = every[rng.below(len(every))]
            if isinstance(action, ToFoundation):
                action = ToFoundation(action.src)  # the simulator always picks the foundation
            ok = table.is_legal(seat, action)
            if ok and not isinstance(action, CallNerts):
                table.apply(seat, action)
            moves.append((seat, action.code))
            actions.append(action)
            expected.append((ok, laid_out(table), needs(table)))
        steps = _core.nerts_sim_trace(start, starts, table_rules(opts), moves)
        assert len(steps) == len(expected)
        for i, (step, (ok, seats, need)) in enumerate(zip(steps, expected, strict=True)):
            where = (seed, i, moves[i])
            assert step["legal"] == ok, where
            assert step["seats"] == seats, where
            assert step["need"] == need, where
        legal_steps += [type(a) for (ok, _, _), a in zip(expected, actions, strict=True) if ok]
    # the sequences are rich: hundreds of table changes of every kind (a Nerts call is rare)
    assert len(legal_steps) > 400
    kinds = {ToFoundation, ToWork, Flip} | ({Recycle} if opts.stock_passes != 1 else set())
    assert kinds <= set(legal_steps)


@pytest.mark.parametrize("players", [2, 3])
def test_the_simulator_flips_one_card_after_a_flip_one_remedy(players: int) -> None:
    # a flip_one remedy makes every seat turn one card at a time (3 before): the simulator
    # started from that table must flip one card, as the table does
    opts = Options.from_mapping(players, {"stalemate_rule": "flip_one"})
    table = NertsTable(opts, deal_decks(11, players))
    for seat in range(players):
        table.apply(seat, FLIP)
        table.rotate_stalemate(seat, "flip_one")
    start = laid_out(table)
    moves = [(seat, FLIP.code) for _ in range(3) for seat in range(players)]
    expected = []
    for seat, _ in moves:
        table.apply(seat, FLIP)
        expected.append(laid_out(table))
    steps = _core.nerts_sim_trace(start, [], table_rules(opts), moves)
    assert [[s["waste"] for s in step["seats"]] for step in steps] == [
        [s["waste"] for s in want] for want in expected
    ]
    assert [step["seats"] for step in steps] == expected
    # a seat that flips more cards than the table's flip count is no table
    start[0]["flip_count"] = 4
    with pytest.raises(ValueError, match="flip"):
        _core.nerts_sim_trace(start, [], table_rules(opts), [])


def test_bad_tables_are_errors() -> None:
    opts = Options()
    table = NertsTable(opts, deal_decks(1, 2))
    seats = laid_out(table)
    seats[0]["work"][0] = seats[0]["nerts"][-1:]  # a card twice
    with pytest.raises(ValueError, match="twice"):
        _core.nerts_sim_trace(seats, [], table_rules(opts), [])
    with pytest.raises(ValueError, match="not at the table"):
        _core.nerts_sim_trace(laid_out(table), [], table_rules(opts), [(2, FLIP.code)])
