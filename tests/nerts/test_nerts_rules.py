"""Nerts legality (the worked cases N-1 … N-9, N-11 … N-13) on hand-built tables."""

from __future__ import annotations

import pytest

from cardcore.cards import is_red, rank_of, suit_of
from cardcore.errors import ArgumentRangeError, ArgumentTypeError, IllegalMoveError, OptionError
from cardcore.nerts import (
    NERTS,
    WASTE,
    Action,
    CallNerts,
    Flip,
    Options,
    Recycle,
    ToFoundation,
    ToWork,
    Undo,
    parse_action,
)
from cardcore.nerts.engine import NertsObservation
from cardcore.nerts.rules import OPTION_SPECS, action_from_code, fits_work
from nerts_reference_table import NertsTable
from nerts_tables import ids, layout, other, table


def snapshot(t: NertsTable) -> tuple[object, ...]:
    return (
        [p.clone() for p in t.players],
        [list(f) for f in t.foundations],
        [list(s) for s in t.undo_stacks],
        t.running,
    )


def test_n1_build_colour_and_gap() -> None:
    t = table(layout(nerts="Kc 7d", work=("8s", "8h", "9s", "Kd")), other())
    assert t.is_legal(0, ToWork(NERTS, 1, 0))
    assert not t.is_legal(0, ToWork(NERTS, 1, 1))  # same colour
    assert not t.is_legal(0, ToWork(NERTS, 1, 2))  # rank gap
    assert ToWork(NERTS, 1, 0) in t.legal_actions(0)
    assert ToWork(NERTS, 1, 1) not in t.legal_actions(0)


def test_n2_foundation_suit_and_owner() -> None:
    # 2h of seat 1 onto seat 0's Ah: owners may differ
    t = table(
        layout(nerts="Kc 9c", work=("Kd", "Qs", "Js", "Ts")),
        layout(1, nerts="Qh 2h", work=("Ks", "Kh", "Kc", "Kd")),
        foundations=("Ad@0", "Ah@0"),
    )
    assert t.is_legal(1, ToFoundation(NERTS, 1))
    assert not t.is_legal(1, ToFoundation(NERTS, 0))  # onto Ad
    assert t.is_legal(1, ToFoundation(NERTS))
    t2 = table(
        layout(nerts="Kc 9c", work=("Kd", "Qs", "Js", "Ts")),
        layout(1, nerts="Qh 2h", work=("Ks", "Kh", "Kc", "Kd")),
        foundations=("Ad@0",),
    )
    assert not t2.is_legal(1, ToFoundation(NERTS))  # no Ah foundation
    t.apply(1, ToFoundation(NERTS, 1))
    assert t.foundations[1] == ids("Ah@0 2h@1")


def test_n3_aces_start_new_foundations() -> None:
    t = table(
        layout(nerts="Kc 9c", work=("Kd", "Qs", "Js", "Ts"), waste="Ac"),
        layout(1, nerts="Kh Ac", work=("Ks", "Kh", "Kc", "Kd")),
        foundations=("Ad@0",),
    )
    t.apply(0, ToFoundation(WASTE))
    assert len(t.foundations) == 2
    assert t.foundations[1] == ids("Ac")
    t.apply(1, ToFoundation(NERTS))
    assert len(t.foundations) == 3
    assert t.foundations[2] == ids("Ac", 1)


def test_n4_segments_and_partial_option() -> None:
    work = ("9c 8h 7s", "Td", "9s", "Ts")
    t = table(layout(work=work), other())
    assert t.is_legal(0, ToWork(0, 3, 1))  # 9c 8h 7s onto Td
    assert t.is_legal(0, ToWork(0, 2, 2))  # 8h 7s onto 9s
    assert not t.is_legal(0, ToWork(0, 3, 3))  # 9c onto Ts: colour
    strict = table(layout(work=work), other(), allow_partial_pile_moves=False)
    assert strict.is_legal(0, ToWork(0, 3, 1))
    assert not strict.is_legal(0, ToWork(0, 2, 2))
    assert ToWork(0, 2, 2) not in strict.legal_actions(0)
    t.apply(0, ToWork(0, 2, 2))
    assert t.players[0].work[0] == ids("9c")
    assert t.players[0].work[2] == ids("9s 8h 7s")


def test_n5_only_waste_top_playable() -> None:
    t = table(layout(work=("Ts", "Kd", "Kh", "Ks"), waste="4c 9d Qs"), other())
    assert not t.is_legal(0, ToWork(WASTE, 1, 0))  # 9d is under Qs
    assert t.source_top(0, WASTE) == ids("Qs")[0]
    t.players[0].waste.pop()  # Qs leaves
    assert t.is_legal(0, ToWork(WASTE, 1, 0))


def test_n6_flip_packet_and_recycle() -> None:
    t = table(layout(work=("Ks", "Kd", "Kh", "Kc"), stock_top_first="Kc 5h"), other())
    t.apply(0, Flip())
    assert t.players[0].waste[-1] == ids("5h")[0]
    assert t.players[0].stock == []
    assert not t.is_legal(0, Flip())
    t.apply(0, Recycle())
    assert t.players[0].stock[::-1] == ids("Kc 5h")  # top → bottom
    one = table(layout(stock_top_first="Kc 5h 3d"), other(), flip_count=1)
    one.apply(0, Flip())
    assert one.players[0].waste == ids("Kc")


def test_stock_passes_limit() -> None:
    t = table(layout(stock_top_first="Kc"), other(), stock_passes=2)
    t.apply(0, Flip())
    t.apply(0, Recycle())
    t.apply(0, Flip())
    assert not t.is_legal(0, Recycle())
    assert Recycle() not in t.legal_actions(0)


def test_n7_empty_pile_fill_option() -> None:
    lay = layout(nerts="Kc 7d", work=("", "Ks", "Kh", "Kd"), waste="4c", stock_top_first="2c")
    t = table(lay, other())
    assert t.is_legal(0, ToWork(NERTS, 1, 0))
    assert t.is_legal(0, ToWork(WASTE, 1, 0))
    t2 = table(lay, other(), empty_work_pile_fill="nerts_only")
    assert t2.is_legal(0, ToWork(NERTS, 1, 0))
    assert not t2.is_legal(0, ToWork(WASTE, 1, 0))
    assert not t2.is_legal(0, ToWork(1, 1, 0))  # segments neither (documented)


def test_n8_no_touching_other_players_or_foundations() -> None:
    t = table(
        layout(nerts="Kc 7d", work=("8s", "Kd", "Kh", "Ks")),
        layout(1, nerts="Qh 6c", work=("8c", "7h", "Kc", "Kd"), waste="5d"),
        foundations=("Ah@0 2h@0",),
    )
    # seat 0 acting names its own piles only: the 8c / 7h of seat 1 are never targets
    assert not t.is_legal(0, ToWork(NERTS, 1, 4))  # no 5th pile with 4 work piles
    assert not t.is_legal(0, ToWork(7, 1, 0))  # unknown source
    assert not t.is_legal(0, ToFoundation(9))
    with pytest.raises(IllegalMoveError):
        parse_action("F0>P1")  # a foundation is never a source
    with pytest.raises(IllegalMoveError):
        parse_action("W>N")  # building on the Nerts pile
    # seat 1's 6c cannot go onto seat 0's 7d
    assert all(not (isinstance(a, ToWork) and a.pile >= 4) for a in t.legal_actions(1))


def test_n9_call_only_with_empty_nerts() -> None:
    t = table(layout(nerts="Kc", work=("Ks", "Kd", "Kh", "Qs")), other())
    assert not t.is_legal(0, CallNerts())
    t.players[0].nerts.clear()
    assert t.is_legal(0, CallNerts())
    t.apply(0, CallNerts())
    assert not t.running
    assert t.legal_actions(0) == []
    assert t.legal_actions(1) == []


def test_n11_scoring() -> None:
    f = ["Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc", "Ad 2d@1 3d@1 4d@1 5d@1 6d@1 7d@1 8d@1 9d@1"]
    t = table(
        layout(nerts="", work=("Ah", "", "", ""), stock_top_first="As"),
        layout(1, nerts="Ks Qs Js Ts 9s", work=("Kh", "", "", "")),
        foundations=(f[0],),
    )
    t.foundations.append(ids("Ad 2d"))
    t.foundations.append(ids("Ah@1 2h@1 3h@1 4h@1 5h@1 6h@1 7h@1 8h@1 9h@1", 1))
    assert t.foundation_counts() == [15, 9]
    assert t.scores(caller=0) == [15, 9 - 10]
    bonus = table(layout(nerts=""), other(), nerts_bonus=10, foundations=("Ac",))
    assert bonus.scores(caller=0)[0] == 11


def test_n12_king_closes_and_buried_cards() -> None:
    t = table(
        layout(nerts="Kc Qd", work=("9s 8h", "Ts", "Kh", "9c")),
        other(),
        foundations=("Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd@1 Kd@1", "As 2s 3s 4s 5s 6s 7s 8s"),
    )
    assert t.need_masks()[1] == 0  # nothing fits on a king
    assert not t.is_legal(0, ToFoundation(NERTS))  # the Qd has nowhere to go
    assert not t.is_legal(0, ToFoundation(0))  # 9s is buried under 8h
    assert not t.is_legal(0, ToFoundation(0, 1))
    assert ToFoundation(0) not in t.legal_actions(0)
    t.apply(0, ToWork(0, 1, 3))  # 8h onto 9c exposes the 9s
    assert t.is_legal(0, ToFoundation(0, 1))


def test_n13_undo_rules() -> None:
    t = table(
        layout(nerts="Kc 6h", work=("Ks", "Kd", "Kh", "Qs"), stock_top_first="2c 3c 4c 5c"),
        layout(1, nerts="Qh 7h", work=("Ks", "Kh", "Kc", "Kd")),
        foundations=("Ah 2h 3h 4h 5h",),
    )
    t.apply(0, ToFoundation(NERTS))
    assert t.is_legal(0, Undo())
    t.apply(1, ToFoundation(NERTS))  # 7h on top of seat 0's 6h
    assert not t.is_legal(0, Undo())
    before = [list(t.players[0].stock), list(t.players[0].waste)]
    t.apply(0, Flip())
    assert t.is_legal(0, Undo())
    t.apply(0, Undo())
    assert [t.players[0].stock, t.players[0].waste] == before
    assert not t.is_legal(0, Undo())  # an undo cannot be undone


def test_undo_puts_nerts_card_back_and_work_moves() -> None:
    t = table(layout(nerts="Kc 7d", work=("8s", "Kd", "Kh", "Qs")), other())
    snap = snapshot(t)
    t.apply(0, ToWork(NERTS, 1, 0))
    t.apply(0, Undo())
    assert snapshot(t)[:2] == snap[:2]
    off = table(layout(nerts="Kc 7d", work=("8s", "Kd", "Kh", "Qs")), other(), undo_depth=0)
    off.apply(0, ToWork(NERTS, 1, 0))
    assert not off.is_legal(0, Undo())


def test_illegal_actions_never_change_state() -> None:
    t = table(
        layout(nerts="Kc 7d", work=("8s", "8h", "9s", ""), waste="4c 9d Qs", stock_top_first="2c"),
        other(),
        foundations=("Ah 2h",),
    )
    cands: list[Action] = [
        ToFoundation(s, tg) for s in (0, 1, 2, 3, 4, 5, 6, 7) for tg in (None, 0, 1, 5)
    ]
    cands += [ToWork(s, d, p) for s in range(8) for d in range(15) for p in range(-1, 6)]
    cands += [Flip(), Recycle(), CallNerts(), Undo()]
    # fields that are not ints (a custom agent's mistake) are simply illegal
    cands += [ToWork(1.0, 1, 2), ToWork(1, 1.0, 2), ToWork(1, 1, 2.0), ToWork(1, True, 2)]  # type: ignore[arg-type]
    cands += [ToFoundation(5.0), ToFoundation(5, 0.0), ToFoundation(True, 0)]  # type: ignore[arg-type]
    for a in cands[-7:]:
        assert not t.is_legal(0, a), a
    for seat in (0, 1):
        for a in cands:
            if t.is_legal(seat, a):
                continue
            before = snapshot(t)
            with pytest.raises(IllegalMoveError):
                t.apply(seat, a)
            assert snapshot(t) == before, a


def test_action_text_round_trip() -> None:
    acts = [ToFoundation(NERTS), ToFoundation(WASTE, 3), ToFoundation(2, 11), ToWork(NERTS, 1, 0)]
    acts += [ToWork(1, 3, 4), ToWork(WASTE, 1, 2), Flip(), Recycle(), CallNerts(), Undo()]
    for a in acts:
        assert parse_action(str(a)) == a
        if not isinstance(a, Undo):
            assert action_from_code(a.code) == a


def test_options_validation() -> None:
    names = {o.name for o in OPTION_SPECS}
    assert names == {
        "nerts_pile_size", "work_piles", "flip_count", "stock_passes",
        "allow_partial_pile_moves", "empty_work_pile_fill", "auto_call_nerts",
        "foundation_points", "nerts_penalty", "nerts_bonus", "target_score", "stalemate_rule",
        "max_consecutive_stalemates", "speed", "undo_depth",
    }  # fmt: skip
    with pytest.raises(OptionError):
        Options.from_mapping(2, {"work_piles": 6})
    with pytest.raises(OptionError):
        Options.from_mapping(5, {})
    with pytest.raises(OptionError):
        Options.from_mapping(2, {"speed": "ludicrous"})
    with pytest.raises(OptionError):
        Options.from_mapping(2, {"bogus": 1})


def test_five_work_piles_deal() -> None:
    from cardcore.nerts import deal_decks

    opts = Options(num_players=3, work_piles=5, nerts_pile_size=13)
    decks = deal_decks(9, 3)
    t = NertsTable(opts, decks)
    for s, p in enumerate(t.players):
        assert len(p.nerts) == 13
        assert len(p.work) == 5
        assert len(p.stock) == 34
        assert p.nerts[-1] == decks[s][12]  # the 13th card is the top
        assert p.stock[-1] == decks[s][18]  # dealing continues from the stock's top
        assert sorted(p.all_cards()) == list(range(52 * s, 52 * s + 52))


def test_agent_helpers_are_the_rulebook_rules() -> None:
    """``fits_work`` and ``NertsObservation.fits_foundation`` (the helpers of agent writers)
    ask the rulebook, and say what the rules page says for every pair of card ids at a
    four-seat table; anything that is not a card id is refused."""

    def seen(*tops: int) -> NertsObservation:
        return NertsObservation.from_rulebook(Options(), 0, (0, [[t] for t in tops], [], [], 0, 0))

    cards = range(4 * 52)
    for top in cards:
        over = seen(top)
        for card in cards:
            builds = rank_of(top) == rank_of(card) + 1 and is_red(top) != is_red(card)
            assert fits_work(card, top) is builds, (card, top)
            goes = rank_of(card) == 1 or (
                suit_of(top) == suit_of(card) and rank_of(top) + 1 == rank_of(card)
            )
            assert over.fits_foundation(card) is goes, (card, top)
    two = seen(ids("5h")[0], ids("Qs")[0] + 52)
    assert [c for c in cards if two.fits_foundation(c) and rank_of(c) > 1] == [
        n * 52 + f for n in range(4) for f in (ids("6h")[0], ids("Ks")[0])
    ]
    assert [c for c in cards if seen().fits_foundation(c)] == [c for c in cards if rank_of(c) == 1]
    for bad in (-1, 208):
        with pytest.raises(ArgumentRangeError):
            fits_work(bad, 0)
        with pytest.raises(ArgumentRangeError):
            seen().fits_foundation(bad)
    with pytest.raises(ArgumentTypeError):
        fits_work("7h", 0)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError):
        seen().fits_foundation(True)
