"""The Rust move generator equals the plain-Python reference enumeration (property tests)."""

from __future__ import annotations

import struct

import pytest

from cardcore import _core
from cardcore.nerts import (
    NERTS,
    WASTE,
    Action,
    GreedyAgent,
    Options,
    RandomAgent,
    ToFoundation,
    ToWork,
    Undo,
)
from cardcore.nerts.rules import CALL, FLIP, RECYCLE, action_from_code
from cardcore.rng import Rng
from nerts_reference_engine import Round
from nerts_reference_table import NertsTable, PlayerLayout


def reference_moves(table: NertsTable, seat: int) -> list[Action]:
    """The oracle: the list ``legal_actions`` gives (without Undo), by trying every candidate
    action with the plain-Python :meth:`NertsTable.is_legal`."""
    w = len(table.players[seat].work)
    cands: list[Action] = [ToFoundation(NERTS), ToFoundation(WASTE)]
    cands += [ToFoundation(i) for i in range(w)]
    cands += [ToWork(src, 1, j) for src in (NERTS, WASTE) for j in range(w)]
    cands += [ToWork(i, k, j) for i in range(w) for j in range(w) for k in range(1, 14)]
    cands += [FLIP, RECYCLE, CALL]
    return [a for a in cands if table.is_legal(seat, a)]


def _random_pile(rng: Rng) -> list[int]:
    if rng.below(5) == 0:
        return []
    base_rank = 1 + int(rng.below(13))
    length = 1 + int(rng.below(base_rank))
    suit = int(rng.below(4))
    pile = []
    for k in range(length):
        pile.append(suit * 13 + base_rank - k - 1)
        red = suit in (1, 2)
        suit = (0, 3)[rng.below(2)] if red else (1, 2)[rng.below(2)]
    return pile


def _random_table(rng: Rng) -> NertsTable:
    opts = Options(
        num_players=2,
        work_piles=(4, 5)[rng.below(2)],
        allow_partial_pile_moves=bool(rng.below(2)),
        empty_work_pile_fill=("any", "nerts_only")[rng.below(2)],
        stock_passes=(None, 1, 2)[rng.below(3)],
    )
    layouts = []
    for _ in range(2):

        def card() -> int:
            return int(rng.below(52))

        layouts.append(
            PlayerLayout(
                nerts=[card() for _ in range(rng.below(4))],
                work=[_random_pile(rng) for _ in range(opts.work_piles)],
                stock=[card() for _ in range(rng.below(3))],
                waste=[card() for _ in range(rng.below(3))],
                recycles=int(rng.below(2)),
            )
        )
    foundations = []
    for _ in range(rng.below(9)):
        suit, top = int(rng.below(4)), int(rng.below(13))
        foundations.append([suit * 13 + r for r in range(top + 1)])
    t = NertsTable.from_layouts(opts, layouts, foundations)
    t.running = rng.below(10) != 0
    return t


def _without_undo(actions: list[object]) -> list[object]:
    return [a for a in actions if not isinstance(a, Undo)]


def test_rust_equals_reference_on_random_states() -> None:
    rng = Rng(20261129)
    total = 0
    for _ in range(3000):
        t = _random_table(rng)
        for seat in (0, 1):
            got = _without_undo(list(t.legal_actions(seat)))
            want = reference_moves(t, seat)
            assert got == want, (t.encode(seat).hex(), got, want)
            total += len(got)
    assert total > 20_000  # the states are rich enough to matter


@pytest.mark.parametrize("seed", range(6))
def test_rust_equals_reference_along_real_rounds(seed: int) -> None:
    opts = Options(num_players=3, work_piles=4 + seed % 2, flip_count=(3, 1)[seed % 2])
    rnd = Round(opts, seed, [RandomAgent(), GreedyAgent(), RandomAgent()])
    checked = 0
    while rnd.running and rnd.step():
        if rnd.executed % 3:
            continue
        for s in range(3):
            assert _without_undo(list(rnd.table.legal_actions(s))) == reference_moves(rnd.table, s)
            checked += 1
    assert checked > 50


def test_bytes_and_batch_forms_agree() -> None:
    rng = Rng(7)
    states = [_random_table(rng).encode(int(rng.below(2))) for _ in range(500)]
    counts, moves = _core.nerts_moves_batch(b"".join(states))
    per_state = struct.unpack(f"<{len(states)}H", counts)
    off = 0
    total = 0
    for st, n in zip(states, per_state, strict=True):
        single = _core.nerts_moves(st)
        assert single == moves[off : off + 4 * n]
        codes = _core.nerts_move_codes(st)
        assert list(struct.unpack(f"<{n}I", single)) == codes
        assert all(action_from_code(c).code == c for c in codes)
        off += 4 * n
        total += n
    assert off == len(moves)
    assert _core.nerts_count_batch(b"".join(states), 3) == 3 * total


@pytest.mark.parametrize(
    "patch",
    [
        (0, 53),  # Nerts count > 52
        (1, 60),  # bad Nerts top face
        (5, 0),  # no work piles
        (5, 6),  # too many work piles
        (8, 14),  # a work pile longer than 13
        (19, 0x80),  # foundation mask beyond bit 13
    ],
)
def test_invalid_states_raise(patch: tuple[int, int]) -> None:
    t = NertsTable(Options(), [list(range(52)), list(range(52, 104))])
    good = bytearray(t.encode(0))
    assert _core.nerts_moves(bytes(good))
    i, v = patch
    good[i] = v
    with pytest.raises(ValueError, match="bad Nerts state"):
        _core.nerts_moves(bytes(good))
    with pytest.raises(ValueError, match="#1"):
        _core.nerts_moves_batch(t.encode(0) + bytes(good))
    with pytest.raises(ValueError, match="32 bytes"):
        _core.nerts_moves(b"\x00" * 31)
    with pytest.raises(ValueError, match="multiple of 32"):
        _core.nerts_count_batch(b"\x00" * 33)


def test_apply_on_random_states_keeps_cards_and_rejects_illegal_unchanged() -> None:
    from collections import Counter

    from cardcore.errors import IllegalMoveError
    from cardcore.nerts import CallNerts, Flip, Recycle, ToFoundation, ToWork

    rng = Rng(99)
    cands: list[Action] = [ToFoundation(s, t) for s in range(8) for t in (None, 0, 1, 2, 3)]
    cands += [ToWork(s, d, p) for s in range(8) for d in range(15) for p in range(6)]
    cands += [Flip(), Recycle(), CallNerts(), Undo()]
    applied = 0
    for _ in range(150):
        t = _random_table(rng)
        before = Counter(t.all_cards())
        for a in cands:
            work = t.clone()
            snap = (
                [p.clone() for p in work.players],
                [list(f) for f in work.foundations],
                work.running,
            )
            if work.is_legal(0, a):
                work.apply(0, a)
                applied += 1
                assert Counter(work.all_cards()) == before, a
                if not isinstance(a, CallNerts):
                    assert work.is_legal(0, Undo())
                    work.apply(0, Undo())
                    assert [p.clone() for p in work.players] == snap[0], a
                    assert work.foundations == snap[1], a
            else:
                with pytest.raises(IllegalMoveError):
                    work.apply(0, a)
                assert ([p.clone() for p in work.players], work.foundations, work.running) == snap
    assert applied > 500
