"""Long or unbounded Rust calls (issue #12, defect 9): the meld solver takes at most
``MAX_HAND`` cards, large batches listen to Ctrl-C, an ``Rng`` may be shared by threads."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

import pytest

import cardcore
from cardcore.errors import OptionError
from cardcore.three_thirteen.melds import best_discards, best_melds, min_deadwood

MAX_HAND = 24

# The slowest hands found at the limit (random search over few ranks, many copies, wilds).
WORST_HANDS = [
    ("Js Qc Qc Qc Qh Js Qs Qs Jc Jh Jh Js Jh Qc Js Qc Qc Qs Qh Qc Qc Js X2 X2", 3),
    ("6d 9d 3s Ac 9h 3h 3d 3s As 6h 5c Ad 3c 6d Ah 9c 5d 9c 9s 6d Ah 6c Jc X1", 11),
    ("4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s 7c 7d 7h 7s 8c 8d 8h 8s X1 X1 X1 X1", 13),
]


@pytest.mark.parametrize("solve", [min_deadwood, best_melds, best_discards])
def test_hands_above_the_limit_are_rejected_up_front(solve: object) -> None:
    hand = " ".join(["Qc Qd Qh Qs"] * 6 + ["X1"])  # 25 cards: 40 took 27 s and 857 MB
    with pytest.raises(OptionError, match="at most 24"):
        solve(hand, wild=3)  # type: ignore[operator]


@pytest.mark.parametrize(("hand", "wild"), WORST_HANDS)
def test_the_slowest_hands_at_the_limit_agree(hand: str, wild: int) -> None:
    assert len(hand.split()) == MAX_HAND
    best = best_melds(hand, wild)
    assert best.points == min_deadwood(hand, wild)
    cards = hand.split()
    discards = best_discards(hand, wild)
    for i in (0, 11, 23):
        assert discards[i][1] == min_deadwood(" ".join(cards[:i] + cards[i + 1 :]), wild)


def test_the_cli_rejects_a_huge_hand_with_a_message() -> None:
    from click.testing import CliRunner

    from cardcore.cli import cli

    hand = " ".join(str(c) for c in cardcore.shuffled_deck(decks=1, seed=1)[:40])
    r = CliRunner().invoke(cli, ["melds", hand, "--wild", "K", "--discards"])
    assert r.exit_code == 2
    assert "at most 24" in r.output
    assert "Traceback" not in r.output


INTERRUPTED = """
import os, signal, threading, time
import cardcore
from cardcore.three_thirteen.melds import deadwood_of_packed_faces
hands = bytes(cardcore.shuffle_batch(decks=2, seed=1, count=40_000))  # 104 faces per row
packed = b"".join(bytes(f % 52 for f in hands[k : k + 14]) for k in range(0, len(hands), 104))
packed *= {repeat}
call = {call}
t = time.perf_counter(); call(); full = time.perf_counter() - t
sent = []
def ctrl_c():
    sent.append(time.perf_counter())
    os.kill(os.getpid(), signal.SIGINT)
threading.Timer(full / 10, ctrl_c).start()
try:
    call()
except KeyboardInterrupt:
    # from the signal, not from the timer's start: a busy machine may wake the timer late
    print("interrupted", (time.perf_counter() - sent[0]) / full)
"""


@pytest.mark.parametrize(
    ("call", "repeat"),
    [
        ("lambda: deadwood_of_packed_faces(packed, 14, 7)", 25),
        ("lambda: cardcore.shuffle_batch(decks=1, seed=2, count=3_000_000)", 1),
    ],
)
def test_long_batches_stop_on_ctrl_c(call: str, repeat: int) -> None:
    code = textwrap.dedent(INTERRUPTED.format(call=call, repeat=repeat))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False
    )
    assert out.stdout.startswith("interrupted"), out.stdout + out.stderr
    # Ctrl-C at a tenth of the run stops it within half a run's time (it used to finish first)
    assert float(out.stdout.split()[1]) < 0.5, out.stdout


def test_an_rng_shared_by_threads() -> None:
    rng = cardcore.Rng(1)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(40):
                rng.permutation(20_000)
                rng.below(10)
        except BaseException as e:  # any error fails the test
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []  # was RuntimeError: Already borrowed
    assert cardcore.Rng(5).permutation(10_000) == cardcore.Rng(5).permutation(10_000)
