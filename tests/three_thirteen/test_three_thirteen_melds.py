"""Meld solver: the worked cases M1–M23, the API surface and input validation."""

from __future__ import annotations

from typing import Any

import pytest

import cardcore
from cardcore import Card, parse_cards
from cardcore.errors import CardParseError, OptionError
from cardcore.three_thirteen.melds import (
    DEFAULT_RULES,
    Arrangement,
    MeldRules,
    best_discards,
    best_melds,
    deadwood_of_faces,
    deadwood_of_faces_batch,
    deadwood_of_packed_faces,
    discard_deadwoods_of_faces,
    min_deadwood,
    min_deadwood_batch,
    parse_wild,
)

# (case, wild, hand, ace_mode, expected minimum deadwood)
CASES = [
    ("M1", 3, "3c 9h Kd", "low", 34),
    ("M2", 3, "3c 3d 9h", "low", 0),
    ("M3", 3, "3c 3d 3h", "low", 0),
    ("M4", 3, "X1 Kd 2c", "low", 32),
    ("M5a", 3, "Kh Qh X1", "low", 0),
    ("M5b", 3, "Ah 2h X1", "low", 0),
    ("M5c", 3, "Kd 3c 3s", "low", 0),
    ("M6", 4, "4s 7h 8h Kc", "low", 10),
    ("M7", 4, "X1 4c 9h Kd", "low", 9),
    ("M8", 5, "Ah 3h 5c Qs Qd", "low", 4),
    ("M9", 5, "4h 5h 6h 9c 9d", "low", 10),
    ("M10", 5, "Kh Ah 2h 5c 9d", "low", 19),
    ("M11", 5, "Ac Ac 2c 3c 3c", "low", 4),
    ("M12", 6, "Ac Ac 2c 3c 3c 6d", "low", 0),
    ("M13", 6, "Qh Kh Ah 9c 9d 9s", "low", 21),
    ("M13-high", 6, "Qh Kh Ah 9c 9d 9s", "high", 0),
    ("M14", 6, "6c Kh Qs 2d 7c 9h", "low", 53),
    ("M15", 6, "Ah 2h 3h 9c 9d Ks", "low", 28),
    ("M15-high", 6, "Ah 2h 3h 9c 9d Ks", "high", 48),
    ("M15-both", 6, "Ah 2h 3h 9c 9d Ks", "both", 28),
    ("M16", 7, "8h 8h 8c 2d 3d 4d Kc", "low", 10),
    ("M17", 7, "4h 5h 6h 6c 6d 9s 7c", "low", 9),
    ("M18", 7, "2c 4c 6c 8c 7d 7h Kd", "low", 10),
    ("M19", 8, "5h 6h 6h 7h Tc Jc Qc 2s", "low", 8),
    ("M20", 9, "9c 9d Kh 2c 3c 4c 5c 7s Js", "low", 17),
    ("M21", 13, "Kc Kd Ah 2h 3h 4h 5h 5c 5s 9d Td Jd Qd", "low", 0),
    ("M23-W5", 5, "7c 7d 8h 9h Ts", "low", 41),
    ("M23-W7", 7, "7c 7d 8h 9h Ts", "low", 10),
]


@pytest.mark.parametrize(
    ("case", "wild", "hand", "ace_mode", "expected"), CASES, ids=[c[0] for c in CASES]
)
def test_worked_cases(case: str, wild: int, hand: str, ace_mode: str, expected: int) -> None:
    assert min_deadwood(hand, wild, ace_mode=ace_mode) == expected
    arr = best_melds(hand, wild, ace_mode=ace_mode)
    assert arr.points == expected
    check_arrangement(arr, hand, wild, ace_mode)


def test_m22_best_discard() -> None:
    hand = "Kc Ah 2h 3h 4h 5h 5c 5s 9d Td Jd Qd 7s 8c"
    result = {str(c): v for c, v in best_discards(hand, "K")}
    assert min(result.values()) == 5
    assert result["8c"] == 5
    assert result["7s"] == 8
    assert result["5c"] == 8
    assert result["Kc"] == 15
    assert [str(c) for c, _ in best_discards(hand, "K")] == hand.split()


def test_m13_m15_ace_modes_point_values() -> None:
    # An unmelded ace counts 15 when aces are high or both.
    assert min_deadwood("Ah 9c Kd", 5) == 1 + 9 + 10
    assert min_deadwood("Ah 9c Kd", 5, ace_mode="high") == 15 + 9 + 10
    assert min_deadwood("Ah 9c Kd", 5, ace_mode="both") == 15 + 9 + 10
    # Q-K-A only when high/both; A-2-3 only when low/both; never K-A-2.
    assert min_deadwood("Qh Kh Ah", 5, ace_mode="both") == 0
    assert min_deadwood("Ah 2h 3h", 5, ace_mode="both") == 0
    assert min_deadwood("Kh Ah 2h", 5, ace_mode="both") == 15 + 10 + 2


def test_r6_values() -> None:
    assert min_deadwood("3h", 3) == 15
    assert min_deadwood("3h", 4) == 3
    assert min_deadwood("Jc", "J") == 15
    assert min_deadwood("Jc", 10) == 10
    assert min_deadwood("X2", 5) == 20
    assert min_deadwood("X2", 13, joker_points=50) == 50
    assert min_deadwood("3h", 3, wild_points=25) == 25


def check_arrangement(arr: Arrangement, hand: str, wild: int, ace_mode: str) -> None:
    """The arrangement uses each hand card once and every meld is legal with its stand-ins."""
    cards = parse_cards(hand)
    used = [c for m in arr.melds for c in m.cards] + list(arr.deadwood)
    assert sorted(used) == sorted(cards)
    for m in arr.melds:
        assert len(m.cards) >= 3
        wild_mask = [c.is_joker or c.rank == wild for c in m.cards]
        for c, s, w in zip(m.cards, m.stands_for, wild_mask, strict=True):
            if s is not None:
                assert w, f"natural {c} cannot stand for {s}"
        eff = [s if s is not None else c for c, s in zip(m.cards, m.stands_for, strict=True)]
        naturals = [
            e for e, w, s in zip(eff, wild_mask, m.stands_for, strict=True) if not (w and s is None)
        ]
        if m.kind == "set":
            assert len({e.rank for e in naturals}) <= 1
        else:
            assert m.kind == "run"
            assert len(eff) == len(naturals), "every run card stands for a card"
            assert len({e.suit for e in eff}) == 1
            pos = [e.rank for e in eff]
            if ace_mode == "high" or (ace_mode == "both" and 13 in pos):
                pos = [14 if p == 1 else p for p in pos]
            assert sorted(pos) == list(range(min(pos), min(pos) + len(pos))), str(m)
            assert len(pos) <= 13
    dead_points = 0
    for c in arr.deadwood:
        if c.is_joker:
            dead_points += 20
        elif c.rank == wild:
            dead_points += 15
        elif c.rank == 1:
            dead_points += 1 if ace_mode == "low" else 15
        else:
            dead_points += min(c.rank, 10)
    assert dead_points == arr.points


def test_str_format() -> None:
    arr = best_melds("3h 4h X1 7c 7d 7s Kd 2c", 9)
    assert str(arr).endswith("| Kd 2c")
    assert "[7c 7d 7s]" in str(arr)
    assert "X1=5h" in str(arr) or "X1=2h" in str(arr) or "X1=6h" in str(arr)
    assert str(best_melds("3c 9h Kd", 3)) == "| 3c 9h Kd"
    assert str(best_melds("7c 7d 7s", 3)) == "[7c 7d 7s]"


def test_spare_wilds_are_melded() -> None:
    # P3: once any meld exists, every wild is melded.
    arr = best_melds("7c 7d 7s X1 X2 3h 3c 3d 3s Kd", 3)
    assert all(not (c.is_joker or c.rank == 3) for c in arr.deadwood)
    assert arr.points == 0
    check_arrangement(arr, "7c 7d 7s X1 X2 3h 3c 3d 3s Kd", 3, "low")
    arr = best_melds("4h 5h 6h 3c", 3)
    assert arr.points == 0
    check_arrangement(arr, "4h 5h 6h 3c", 3, "low")


def test_hand_forms_and_wild_forms() -> None:
    hand = "3h 4h 5h 7c 7d 7s JK"
    cards = parse_cards(hand)
    for w in (9, "9", " 9 ", "T", "10", "t"):
        assert min_deadwood(hand, w) == min_deadwood(cards, w) == min_deadwood(iter(cards), w)
    assert parse_wild("K") == 13
    assert parse_wild("J") == 11
    assert parse_wild("q") == 12
    assert min_deadwood([], 5) == 0
    assert min_deadwood("", 5) == 0


@pytest.mark.parametrize("bad", [2, 14, 0, -1, "A", "2", "X", "", True, 7.0, None])
def test_bad_wild(bad: object) -> None:
    with pytest.raises(OptionError):
        min_deadwood("7h", bad)  # type: ignore[arg-type]


def test_bad_inputs() -> None:
    with pytest.raises(CardParseError):
        min_deadwood("7h 1x", 5)
    with pytest.raises(CardParseError):
        deadwood_of_faces(bytes([56]), 5)
    with pytest.raises(OptionError):
        deadwood_of_faces(bytes([1]), 2)
    with pytest.raises(OptionError):
        deadwood_of_faces(bytes([1]), 14)
    with pytest.raises(OptionError):
        min_deadwood("7h", 5, ace_mode="middle")
    with pytest.raises(OptionError):
        min_deadwood("7h", 5, wild_points=-1)
    with pytest.raises(OptionError):
        MeldRules(joker_points=10**6)
    with pytest.raises(OptionError):
        deadwood_of_faces(bytes(41), 5)
    with pytest.raises(OptionError):
        deadwood_of_packed_faces(bytes(7), 3, 5)
    with pytest.raises(CardParseError):
        deadwood_of_faces_batch([bytes([1, 2]), bytes([99])], 5)
    with pytest.raises(TypeError):
        deadwood_of_faces_batch(["7h"], 5)  # type: ignore[list-item]


def test_fast_paths_agree() -> None:
    hands = ["3h 4h 5h 7c 7d 7s JK", "Kc Ah 2h 3h 4h 5h 5c 5s 9d Td Jd Qd 7s 8c", "2c 2c 2c", "Qs"]
    faces = [bytes(c.face for c in parse_cards(h)) for h in hands]
    for wild in (3, 5, 13):
        single = [min_deadwood(h, wild) for h in hands]
        assert min_deadwood_batch(hands, wild) == single
        assert deadwood_of_faces_batch(faces, wild) == single
        assert [deadwood_of_faces(f, wild, DEFAULT_RULES) for f in faces] == single
        for f in faces:
            ds = discard_deadwoods_of_faces(f, wild)
            assert ds == [deadwood_of_faces(f[:i] + f[i + 1 :], wild) for i in range(len(f))]
    three = [f[:3] for f in faces if len(f) >= 3]
    packed = b"".join(three)
    assert deadwood_of_packed_faces(packed, 3, 5) == [deadwood_of_faces(f, 5) for f in three]
    assert min_deadwood_batch([], 5) == []


def test_card_objects_keep_identity() -> None:
    cards = [Card.parse("8h@0"), Card.parse("8h@1"), Card.parse("8c"), Card.parse("Kc")]
    arr = best_melds(cards, 7)
    assert set(arr.melds[0].cards) == set(cards[:3])
    assert arr.deadwood == (cards[3],)


def test_cli_melds_command() -> None:
    from click.testing import CliRunner

    from cardcore.cli.melds import melds_cmd

    runner = CliRunner()
    res = runner.invoke(melds_cmd, ["3h 4h JK 7c 7d 7s Kd 2c", "--wild", "9"])
    assert res.exit_code == 0, res.output
    assert res.output.strip().endswith("| Kd 2c  (deadwood 12)")
    assert "[7c 7d 7s]" in res.output
    res = runner.invoke(melds_cmd, ["Qh Kh Ah 9c", "-w", "5", "--ace-mode", "high"])
    assert res.output.strip() == "[Qh Kh Ah] | 9c  (deadwood 9)"
    hand = "Kc Ah 2h 3h 4h 5h 5c 5s 9d Td Jd Qd 7s 8c"
    res = runner.invoke(melds_cmd, [hand, "-w", "K", "--discards"])
    assert res.exit_code == 0
    assert "discard 8c  -> 5  <- best" in res.output
    for bad in (["7h", "--wild", "2"], ["7x", "--wild", "5"], ["7h"]):
        res = runner.invoke(melds_cmd, bad)
        assert res.exit_code == 2, res.output


def test_batch_takes_arrays_of_card_ids() -> None:
    np = pytest.importorskip("numpy")
    batch = cardcore.shuffle_batch(2, 2, seed=4, count=300)  # 2 decks + 2 jokers, uint8 ids
    hands = np.ascontiguousarray(batch[:, :11])  # type: ignore[index]
    by_text = [
        min_deadwood(" ".join(Card.from_id(int(i), 2).full() for i in row), 6) for row in hands
    ]
    assert min_deadwood_batch(hands, 6, decks=2) == by_text
    for dtype in (np.int64, np.int32, np.uint16, np.int8):
        assert min_deadwood_batch(hands.astype(dtype), 6, decks=2) == by_text
    assert min_deadwood_batch(batch[:, :11], 6, decks=2) == by_text  # type: ignore[index]  # a strided slice
    assert min_deadwood_batch(memoryview(hands.tobytes()).cast("B", [300, 11]), 6, decks=2) == (
        by_text
    )
    assert min_deadwood_batch(np.zeros((4, 0), dtype=np.int64), 6) == [0, 0, 0, 0]
    rules: dict[str, Any] = {"ace_mode": "high", "wild_points": 30, "joker_points": 50}
    assert min_deadwood_batch(hands, "6", decks=2, **rules) == [
        min_deadwood((Card.from_id(int(i), 2) for i in row), 6, **rules) for row in hands
    ]


def test_batch_arrays_are_checked() -> None:
    np = pytest.importorskip("numpy")
    with pytest.raises(CardParseError, match=r"card id 108 out of range 0\.\.107 for 2 deck"):
        min_deadwood_batch(np.array([[1, 2, 108]]), 5, decks=2)
    with pytest.raises(CardParseError, match="card id -1"):
        min_deadwood_batch(np.array([[1, -1, 3]]), 5)
    with pytest.raises(OptionError, match="2-D"):
        min_deadwood_batch(np.array([1, 2, 3]), 5)
    with pytest.raises(OptionError, match="at most 24"):
        min_deadwood_batch(np.zeros((2, 25), dtype=np.uint8), 5)
    with pytest.raises(OptionError, match="wild rank"):
        min_deadwood_batch(np.zeros((2, 3), dtype=np.uint8), 2)


def test_batch_takes_any_hand_forms() -> None:
    text = ["3h 4h 5h 7c", "Kc Kd", ""]
    cards = [parse_cards(t) for t in text]
    want = [min_deadwood(t, 9) for t in text]
    assert min_deadwood_batch(text, 9) == want
    assert min_deadwood_batch(tuple(tuple(c) for c in cards), 9) == want
    assert min_deadwood_batch((iter(c) for c in cards), 9) == want
    assert min_deadwood_batch([text[0], cards[1], []], 9) == want
    with pytest.raises(CardParseError, match="not a card"):
        min_deadwood_batch([["7h"]], 9)
