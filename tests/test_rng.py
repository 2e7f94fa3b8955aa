"""Seeded RNG and shuffles (`cardcore-rng-v1`): golden vectors, the docs/rng.md reference
implementation against `_core`, stream independence, uniformity, batches, seeds, pickling.

The statistical tests use fixed seeds, so they are deterministic: they either always pass or
always fail for a given generator. Their thresholds are computed (not tuned to the output) so
that a correct generator passes them with overwhelming probability over the choice of seed.
"""

from __future__ import annotations

import itertools
import math
import pickle
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

import cardcore
from cardcore import _core
from cardcore.cards import Card, format_cards, make_deck
from cardcore.errors import ArgumentRangeError, CardcoreError
from cardcore.rng import (
    RNG_VERSION,
    Rng,
    deck_order,
    derive_seed,
    new_seed,
    shuffle,
    shuffle_batch,
    shuffled_deck,
)

# --- the reference implementation: the python block of docs/rng.md §8, executed as written ---

DOC = Path(__file__).resolve().parents[1] / "docs" / "rng.md"
MARKER = "<!-- reference-implementation"


def _load_reference() -> dict[str, Any]:
    text = DOC.read_text(encoding="utf-8")
    after = text[text.index(MARKER) :]
    start = after.index("```python\n") + len("```python\n")
    code = after[start : after.index("\n```", start)]
    namespace: dict[str, Any] = {"__name__": "rng_reference"}
    exec(compile(code, f"{DOC}:reference", "exec"), namespace)
    return namespace


REF = _load_reference()
RefRng: Any = REF["Rng"]
ref_derive_seed: Callable[[int, int, str], int] = REF["derive_seed"]


def ref_deck_order(n: int, master: int, index: int, stream: str = "deck") -> list[int]:
    return cast("list[int]", RefRng.for_stream(master, index, stream).permutation(n))


def rows_of(view: Any) -> list[list[int]]:
    """The rows of a 2-D batch (a numpy array or a memoryview)."""
    return cast("list[list[int]]", view.tolist())


# --- golden vectors (same numbers as rust/cardcore-engine/tests/golden_rng.rs) ---------------

GOLDEN_RAW = [5987356902031041503, 7051070477665621255, 6633766593972829180, 211316841551650330]
GOLDEN_DERIVED = [
    (0, 0, "", 4957064944840808980),
    (42, 0, "deck", 2263468844112481895),
    (42, 1, "deck", 3018093046604444787),
    (42, 0, "agents", 8433542866350166171),
]
# fmt: off
GOLDEN_PERM_104 = [88, 79, 39, 72, 54, 58, 51, 98, 52, 85, 91, 19, 37, 27, 87, 12, 11, 45, 76, 99, 89, 38, 48, 41, 78, 83, 61, 42, 64, 93, 103, 8, 13, 4, 59, 63, 24, 17, 26, 81, 68, 23, 43, 71, 30, 2, 15, 57, 53, 66, 70, 21, 1, 100, 9, 69, 82, 29, 35, 80, 101, 56, 22, 31, 62, 36, 97, 95, 0, 28, 92, 67, 60, 77, 14, 96, 32, 84, 16, 5, 44, 86, 94, 65, 18, 75, 3, 46, 7, 40, 33, 34, 74, 20, 49, 73, 55, 6, 102, 47, 50, 10, 90, 25]  # noqa: E501
# fmt: on
GOLDEN_PERM_10 = [1, 3, 2, 8, 5, 9, 6, 7, 4, 0]


def test_version_tag() -> None:
    assert RNG_VERSION == "cardcore-rng-v1"
    assert cardcore.RNG_VERSION == _core.RNG_VERSION == RNG_VERSION


def test_golden_raw_outputs() -> None:
    r = Rng(0)
    assert [r.next_u64() for _ in range(4)] == GOLDEN_RAW


@pytest.mark.parametrize(("master", "index", "stream", "seed"), GOLDEN_DERIVED)
def test_golden_derived_seeds(master: int, index: int, stream: str, seed: int) -> None:
    assert derive_seed(master, index, stream) == seed
    assert _core.derive_seed(master, index, stream) == seed


def test_golden_deck_orders() -> None:
    assert list(deck_order(2, seed=42)) == GOLDEN_PERM_104
    assert rows_of(shuffle_batch(2, seed=42, count=3))[0] == GOLDEN_PERM_104
    assert Rng.for_stream(42, 0, "deck").permutation(104) == GOLDEN_PERM_104
    assert Rng(7).permutation(10) == GOLDEN_PERM_10
    assert shuffle(list(range(10)), seed=7) == GOLDEN_PERM_10
    # The same order as Card objects: the first card is physical id 88 = Jh@1.
    deck = shuffled_deck(2, seed=42)
    assert [c.id(2) for c in deck] == GOLDEN_PERM_104
    assert deck[0] == Card.parse("Jh@1")


def test_golden_cli_deck() -> None:
    """`cardcore shuffle --decks 2 --seed 42` prints exactly this (pinned for users' seeds)."""
    text = " ".join(str(Card.from_id(i, 2)) for i in GOLDEN_PERM_104)
    assert text.startswith("Jh 2h As 8d 3c 7c")
    assert text == " ".join(str(c) for c in shuffled_deck(2, seed=42))


# --- the document is the spec: reference == _core ---------------------------------------------


def test_reference_matches_golden_vectors() -> None:
    r = RefRng(0)
    assert [r.next_u64() for _ in range(4)] == GOLDEN_RAW
    for master, index, stream, seed in GOLDEN_DERIVED:
        assert ref_derive_seed(master, index, stream) == seed
    assert ref_deck_order(104, 42, 0) == GOLDEN_PERM_104
    assert RefRng(7).permutation(10) == GOLDEN_PERM_10


def test_reference_doc_examples() -> None:
    deck = REF["deck_order"](2, 0, seed=42)
    assert deck == GOLDEN_PERM_104
    text = " ".join(REF["card_text"](i, 2) for i in deck)
    assert text == format_cards(shuffled_deck(2, seed=42))
    assert text.startswith("Jh 2h As 8d 3c 7c")
    with_jokers = [REF["card_text"](i, 2) for i in REF["deck_order"](2, 2, seed=42)]
    assert with_jokers == [str(c) for c in shuffled_deck(2, 2, seed=42)]
    # The golden numbers quoted in the document are the ones pinned here.
    doc = DOC.read_text(encoding="utf-8")
    for value in [*GOLDEN_RAW, *(seed for *_, seed in GOLDEN_DERIVED)]:
        assert str(value) in doc


REF_SIZES = [1, 2, 3, 4, 5, 6, 7, 8, 13, 52, 53, 54, 56, 104, 108, 157, 256, 257, 300, 1000]


@pytest.mark.parametrize("n", REF_SIZES)
def test_reference_reproduces_core(n: int) -> None:
    seeds = [0, 1, 42, 2**63, 2**64 - 1, 0x0123456789ABCDEF]
    indices = [0, 1, 7, 2**40 + 3]
    for master, index in itertools.product(seeds, indices):
        expected = ref_deck_order(n, master, index)
        raw = _core.permutations(n, master, index, 1)
        got = list(raw) if n <= 256 else list(memoryview(raw).cast("H"))
        assert got == expected, (n, master, index)


def test_reference_reproduces_core_streams_and_raw_draws() -> None:
    for stream in ["", "deck", "agent", "timing", "tiebreak", "ünïcode ♠"]:
        for master, index in [(3, 0), (3, 9), (2**64 - 1, 2**64 - 1)]:
            assert ref_derive_seed(master, index, stream) == derive_seed(master, index, stream)
            ref, core = (
                RefRng(ref_derive_seed(master, index, stream)),
                Rng.for_stream(master, index, stream),
            )
            assert [ref.next_u64() for _ in range(20)] == [core.next_u64() for _ in range(20)]
            assert [ref.below(b) for b in range(1, 60)] == [core.below(b) for b in range(1, 60)]
            big = [2**63 + 1, 2**64 - 1, 3 * 2**62, 10**19]
            assert [ref.below(b) for b in big] == [core.below(b) for b in big]
            assert [ref.random() for _ in range(20)] == [core.random() for _ in range(20)]
            # normal() goes through ln/cos: equal up to the C library's last bits.
            for _ in range(20):
                assert ref.normal() == pytest.approx(core.normal(), rel=1e-12, abs=1e-12)
            assert ref.permutation(60) == core.permutation(60)


def test_reference_reproduces_many_seeds() -> None:
    """200 random (seed, index, size) triples, including sizes where batches shrink."""
    meta = RefRng(2024)
    for _ in range(200):
        n = 1 + meta.below(300)
        master, index = meta.next_u64(), meta.next_u64()
        raw = _core.permutations(n, master, index, 1)
        got = list(raw) if n <= 256 else list(memoryview(raw).cast("H"))
        assert got == ref_deck_order(n, master, index), (n, master, index)


def test_reference_reproduces_large_batches_with_single_draws() -> None:
    """A length where the top batches hold only two bounds (70000**3 > 2**48), so the greedy
    batch rule matters; the last step (bound 2) is a single Lemire draw at every length."""
    assert Rng(5).permutation(70_000) == RefRng(5).permutation(70_000)


# --- determinism and independence --------------------------------------------------------------


def test_same_seed_same_order() -> None:
    for seed in [0, 1, 12345, 2**64 - 1]:
        assert deck_order(2, 2, seed=seed) == deck_order(2, 2, seed=seed)
        assert shuffled_deck(1, seed=seed, index=3) == shuffled_deck(1, seed=seed, index=3)
        assert shuffle("abcdefghij", seed=seed) == shuffle("abcdefghij", seed=seed)


def test_different_seeds_different_orders() -> None:
    orders = {bytes(deck_order(1, seed=s)) for s in range(2000)}
    assert len(orders) == 2000  # 52! orders: any collision would be a bug
    assert len({tuple(shuffle(range(52), seed=s)) for s in range(500)}) == 500


def test_streams_are_distinct() -> None:
    base = deck_order(2, seed=9, index=0)
    others = [deck_order(2, seed=9, index=i) for i in range(1, 200)]
    assert all(o != base for o in others)
    assert len({bytes(o) for o in [base, *others]}) == 200
    names = ["deck", "agent", "timing", "tiebreak", "Deck", "deck ", ""]
    seeds = {derive_seed(9, 0, s) for s in names}
    assert len(seeds) == len(names)
    orders = {tuple(Rng.for_stream(9, 0, s).permutation(52)) for s in names}
    assert len(orders) == len(names)


def _match_rate_bound(n: int, pairs: int, sds: float = 6.0) -> tuple[float, float]:
    """Window for the fraction of equal positions between two independent uniform permutations
    of n, over `pairs` pairs: each position matches with probability 1/n."""
    trials = pairs * n
    p = 1 / n
    sd = math.sqrt(trials * p * (1 - p)) / trials
    return p - sds * sd, p + sds * sd


@pytest.mark.parametrize(
    ("label", "pair"),
    [
        ("adjacent index", lambda i: ((77, i, "deck"), (77, i + 1, "deck"))),
        ("deck vs agent", lambda i: ((77, i, "deck"), (77, i, "agent"))),
        ("adjacent master", lambda i: ((i, 0, "deck"), (i + 1, 0, "deck"))),
        ("index vs master", lambda i: ((0, i, "deck"), (i, 0, "deck"))),
    ],
)
def test_streams_uncorrelated(
    label: str, pair: Callable[[int], tuple[tuple[int, int, str], tuple[int, int, str]]]
) -> None:
    """Position-match rate between related streams is ~1/n (as for independent shuffles),
    and the first cards of the two streams are not correlated either."""
    n, pairs = 52, 3000
    matches = 0
    first = Counter[tuple[int, int]]()
    for i in range(pairs):
        (m1, i1, s1), (m2, i2, s2) = pair(i)
        a = Rng.for_stream(m1, i1, s1).permutation(n)
        b = Rng.for_stream(m2, i2, s2).permutation(n)
        matches += sum(x == y for x, y in zip(a, b, strict=True))
        first[(a[0] % 4, b[0] % 4)] += 1
    lo, hi = _match_rate_bound(n, pairs)
    assert lo < matches / (pairs * n) < hi, label
    # 4x4 contingency table of first-card suits: chi-square with 15 dof.
    expected = pairs / 16
    chi2 = sum((first[(x, y)] - expected) ** 2 / expected for x in range(4) for y in range(4))
    assert_chi2_ok(chi2, 15, label=label)


# --- uniformity -----------------------------------------------------------------------------------


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for X ~ chi-square(dof), exactly (closed forms of the regularised upper
    incomplete gamma function for integer and half-integer order, summed in log space)."""
    if x <= 0:
        return 1.0
    h = x / 2
    if dof % 2 == 0:
        base = 0.0
        logs = [-h + i * math.log(h) - math.lgamma(i + 1) for i in range(dof // 2)]
    else:
        base = math.erfc(math.sqrt(h))
        logs = [-h + (i + 0.5) * math.log(h) - math.lgamma(i + 1.5) for i in range(dof // 2)]
    if not logs:
        return base
    top = max(logs)
    return min(1.0, base + math.exp(top) * sum(math.exp(v - top) for v in logs))


ALPHA = 1e-6  # false-alarm rate of each check for a correct generator (over the seed)


def assert_chi2_ok(stat: float, dof: int, *, two_sided: bool = False, label: object = "") -> None:
    p = chi2_sf(stat, dof)
    assert p > ALPHA, f"{label}: chi2 = {stat:.1f} on {dof} dof, p = {p:.2e} (non-uniform)"
    if two_sided:
        assert p < 1 - ALPHA, f"{label}: chi2 = {stat:.1f} on {dof} dof, p = {p} (too regular)"


def test_chi2_sf_known_values() -> None:
    # 5% critical values from tables.
    assert chi2_sf(3.841459, 1) == pytest.approx(0.05, rel=1e-4)
    assert chi2_sf(5.991465, 2) == pytest.approx(0.05, rel=1e-4)
    assert chi2_sf(18.307038, 10) == pytest.approx(0.05, rel=1e-4)
    assert chi2_sf(35.172462, 23) == pytest.approx(0.05, rel=1e-4)
    assert chi2_sf(123.225221, 99) == pytest.approx(0.05, rel=1e-4)
    assert chi2_sf(10_609.0, 10_609) == pytest.approx(0.5, abs=0.01)
    assert chi2_sf(0.0, 5) == 1.0


def test_chi_square_card_positions() -> None:
    """20,000 shuffles of a 10-card deck from one batch: for every position, the count of each
    card is uniform (chi-square with 9 dof per position, and the sum over positions with 90 dof
    since each row is a permutation; pooled bound)."""
    n, count = 10, 20_000
    raw = _core.permutations(n, 31337, 0, count)  # no 10-card deck in the public API
    table = [[0] * n for _ in range(n)]
    for r in range(count):
        row = raw[r * n : (r + 1) * n]
        for pos, card in enumerate(row):
            table[pos][card] += 1
    expected = count / n
    per_position = [sum((c - expected) ** 2 / expected for c in table[pos]) for pos in range(n)]
    for pos, chi2 in enumerate(per_position):
        assert_chi2_ok(chi2, n - 1, label=f"position {pos}")
    # Pooled over the table: rows of a permutation matrix are dependent, and the sum over all
    # cells is (n / (n-1)) * chi-square((n-1)**2) (the covariance of a uniform permutation
    # matrix is 1/(n-1) times the projector on that (n-1)**2-dim space).
    pooled = sum(per_position) * (n - 1) / n
    assert_chi2_ok(pooled, (n - 1) ** 2, two_sided=True, label="pooled")


def test_chi_square_full_deck_positions() -> None:
    """The same on the 104-card deck games use: 4,000 decks, every (position, card) cell."""
    n, count = 104, 4000
    view = shuffle_batch(2, seed=5, count=count)
    table = [[0] * n for _ in range(n)]
    for row in rows_of(view):
        for pos, card in enumerate(row):
            table[pos][card] += 1
    expected = count / n
    chi2 = sum((c - expected) ** 2 / expected for pos_row in table for c in pos_row)
    assert_chi2_ok(chi2 * (n - 1) / n, (n - 1) ** 2, two_sided=True, label="104 cards")
    # The top card (dealt first) on its own.
    assert_chi2_ok(sum((c - expected) ** 2 / expected for c in table[0]), n - 1, label="top")


def test_all_permutations_of_four_equally_likely() -> None:
    count = 48_000
    raw = _core.permutations(4, 2718, 0, count)
    freq = Counter(raw[i : i + 4] for i in range(0, len(raw), 4))
    assert set(freq) == {bytes(p) for p in itertools.permutations(range(4))}
    expected = count / 24
    chi2 = sum((c - expected) ** 2 / expected for c in freq.values())
    assert_chi2_ok(chi2, 23, two_sided=True)
    # Each of the 24 within 6 sd of its expectation too.
    sd = math.sqrt(count * (1 / 24) * (23 / 24))
    assert all(abs(c - expected) < 6 * sd for c in freq.values()), freq


def test_all_permutations_of_four_from_one_generator() -> None:
    """The same from successive shuffles of one Rng (not one stream per row)."""
    r = Rng(99)
    freq = Counter(tuple(r.permutation(4)) for _ in range(24_000))
    assert len(freq) == 24
    expected = 1000
    chi2 = sum((c - expected) ** 2 / expected for c in freq.values())
    assert_chi2_ok(chi2, 23, two_sided=True)


def test_below_and_random_are_uniform() -> None:
    r = Rng(123)
    for bound in [3, 7, 10]:
        freq = Counter(r.below(bound) for _ in range(10_000 * bound // 3))
        assert set(freq) == set(range(bound))
        expected = sum(freq.values()) / bound
        chi2 = sum((c - expected) ** 2 / expected for c in freq.values())
        assert_chi2_ok(chi2, bound - 1, label=bound)
    xs = [r.random() for _ in range(20_000)]
    assert all(0.0 <= x < 1.0 for x in xs)
    assert abs(sum(xs) / len(xs) - 0.5) < 6 * math.sqrt(1 / 12 / len(xs))
    ns = [r.normal() for _ in range(20_000)]
    mean = sum(ns) / len(ns)
    var = sum((x - mean) ** 2 for x in ns) / len(ns)
    assert abs(mean) < 6 / math.sqrt(len(ns))
    assert abs(var - 1) < 0.06


# --- batches ------------------------------------------------------------------------------------


@pytest.mark.parametrize("numpy", [True, False])
@pytest.mark.parametrize(("decks", "jokers"), [(1, 0), (2, 0), (2, 4), (4, 4), (5, 0), (6, 2)])
def test_batch_rows_equal_single_calls(
    decks: int, jokers: int, numpy: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not numpy:
        monkeypatch.setattr(cardcore.rng, "_numpy", lambda: None)
    n = 52 * decks + jokers
    start, count = 1000, 9
    view = shuffle_batch(decks, jokers, seed=77, count=count, start=start)
    assert view.shape == (count, n)
    if numpy:
        assert view.dtype.itemsize == (1 if n <= 256 else 2)  # type: ignore[union-attr]
        assert view.flags.writeable  # type: ignore[union-attr]
    else:
        assert isinstance(view, memoryview)
        assert view.format == ("B" if n <= 256 else "H")
    rows = rows_of(view)
    for r in range(count):
        single = deck_order(decks, jokers, seed=77, index=start + r)
        assert rows[r] == list(single)
        assert rows[r] == ref_deck_order(n, 77, start + r)
        assert sorted(rows[r]) == list(range(n))
    if n > 256:
        assert isinstance(deck_order(decks, jokers, seed=77), list)
    else:
        assert isinstance(deck_order(decks, jokers, seed=77), bytes)


def test_batch_split_does_not_matter() -> None:
    """Game N gets the same cards however the work is split."""
    whole = rows_of(shuffle_batch(2, seed=3, count=100))
    parts = [rows_of(shuffle_batch(2, seed=3, count=c, start=s)) for s, c in [(0, 37), (37, 63)]]
    assert whole == parts[0] + parts[1]


def test_batch_numpy_view() -> None:
    np = pytest.importorskip("numpy")
    view = shuffle_batch(2, seed=1, count=50)
    assert isinstance(view, np.ndarray)  # numpy installed: an array, not a view
    arr = np.asarray(view)
    assert arr.shape == (50, 104)
    assert arr.dtype == np.uint8
    assert (np.sort(arr, axis=1) == np.arange(104)).all()
    wide = np.asarray(shuffle_batch(5, seed=1, count=3))
    assert wide.dtype == np.uint16
    assert wide.shape == (3, 260)


def test_batch_at_the_top_of_the_index_range() -> None:
    last = 2**64 - 1
    view = shuffle_batch(1, seed=1, count=1, start=last)
    assert rows_of(view)[0] == list(deck_order(1, seed=1, index=last))
    with pytest.raises(ValueError, match="below 2"):
        shuffle_batch(1, seed=1, count=2, start=last)


def test_batch_count_validation() -> None:
    with pytest.raises(ValueError, match="count"):
        shuffle_batch(1, seed=1, count=-1)
    with pytest.raises(ValueError, match="count"):
        shuffle_batch(1, seed=1, count=0)
    with pytest.raises(ValueError, match="at least one card"):
        shuffle_batch(0, 0, seed=1, count=1)


def test_large_batch_releases_nothing_wrong() -> None:
    """A batch big enough to run with the GIL released gives the same rows."""
    view = shuffle_batch(2, seed=8, count=2000)
    assert rows_of(view)[1999] == list(deck_order(2, seed=8, index=1999))


def test_core_permutations_validation() -> None:
    with pytest.raises(ArgumentRangeError, match=r"n must be an int in 1\.\.65536, got 0"):
        _core.permutations(0, 1, 0, 1)
    with pytest.raises(ArgumentRangeError, match=r"1\.\.65536"):
        _core.permutations(65_537, 1, 0, 1)
    with pytest.raises(ArgumentRangeError, match="count"):
        _core.permutations(256, 1, 0, 2**40)
    with pytest.raises(ArgumentRangeError, match="too large"):
        _core.permutations(256, 1, 0, 2**23 + 1)
    assert _core.permutations(5, 1, 0, 0) == b""


# --- the shuffle helpers -------------------------------------------------------------------------


def test_shuffle_keeps_items() -> None:
    cards = make_deck(2, 2)
    out = shuffle(cards, seed=4)
    assert sorted(out) == cards
    assert out != cards
    assert shuffle([], seed=1) == []
    assert shuffle(["only"], seed=1) == ["only"]
    assert cards == make_deck(2, 2)  # input untouched


def test_shuffled_deck_is_a_full_deck() -> None:
    for decks, jokers in [(1, 0), (2, 2), (3, 4), (6, 0)]:
        deck = shuffled_deck(decks, jokers, seed=10)
        assert sorted(deck) == make_deck(decks, jokers)


def test_new_seed_is_valid() -> None:
    seeds = {new_seed() for _ in range(20)}
    assert len(seeds) > 1
    assert all(0 <= s < 2**64 for s in seeds)


# --- seeds and the Rng object -----------------------------------------------------------------

BAD_SEEDS: list[tuple[object, type[Exception]]] = [
    (-1, ValueError),
    (2**64, ValueError),
    (-(2**70), ValueError),
    (True, TypeError),
    (False, TypeError),
    (1.0, TypeError),
    ("1", TypeError),
    (None, TypeError),
]


@pytest.mark.parametrize(("seed", "exc"), BAD_SEEDS)
def test_bad_seeds_rejected(seed: object, exc: type[Exception]) -> None:
    calls: list[Callable[[], object]] = [
        lambda: Rng(seed),  # type: ignore[arg-type]
        lambda: Rng.for_stream(seed, 0, "deck"),  # type: ignore[arg-type]
        lambda: Rng.for_stream(0, seed, "deck"),  # type: ignore[arg-type]
        lambda: derive_seed(seed, 0, "deck"),  # type: ignore[arg-type]
        lambda: derive_seed(0, seed, "deck"),  # type: ignore[arg-type]
        lambda: deck_order(1, seed=seed),  # type: ignore[arg-type]
        lambda: deck_order(1, seed=0, index=seed),  # type: ignore[arg-type]
        lambda: shuffled_deck(1, seed=seed),  # type: ignore[arg-type]
        lambda: shuffle([1, 2, 3], seed=seed),  # type: ignore[arg-type]
        lambda: shuffle_batch(1, seed=seed, count=2),  # type: ignore[arg-type]
        lambda: shuffle_batch(1, seed=1, count=2, start=seed),  # type: ignore[arg-type]
        lambda: _core.permutations(4, seed, 0, 1),  # type: ignore[call-overload]
    ]
    for call in calls:
        with pytest.raises(exc) as err:
            call()
        assert isinstance(err.value, CardcoreError)


def test_bad_seed_messages_name_the_argument() -> None:
    with pytest.raises(ValueError, match=r"seed must be an int in 0\.\.2\*\*64-1, got -1"):
        deck_order(1, seed=-1)
    with pytest.raises(ValueError, match="index"):
        deck_order(1, seed=0, index=2**64)
    with pytest.raises(TypeError, match="seed must be an int, not bool"):
        Rng(True)
    with pytest.raises(TypeError, match="not float"):
        shuffle_batch(1, seed=1.5, count=1)  # type: ignore[arg-type]


def test_extreme_seeds_accepted() -> None:
    for seed in [0, 2**64 - 1]:
        assert len(deck_order(1, seed=seed, index=2**64 - 1)) == 52
        Rng(seed).next_u64()


def test_int_subclass_seed_accepted() -> None:
    class MyInt(int):
        pass

    assert deck_order(1, seed=MyInt(42)) == deck_order(1, seed=42)
    assert Rng(MyInt(5)).state == Rng(5).state


def test_rng_pickle_round_trip() -> None:
    r = Rng.for_stream(1, 2, "agent")
    for _ in range(5):
        r.next_u64()
    clone = pickle.loads(pickle.dumps(r))
    assert type(clone) is Rng
    assert clone.state == r.state
    assert [clone.next_u64() for _ in range(10)] == [r.next_u64() for _ in range(10)]
    assert clone.permutation(30) == r.permutation(30)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(r, protocol)).state == r.state


def test_rng_state_and_repr() -> None:
    r = Rng(3)
    state = r.state
    assert isinstance(state, tuple)
    assert len(state) == 4
    r.next_u64()
    assert r.state != state
    again = Rng.from_state(state)
    assert again.state == state
    assert repr(again) == f"Rng.from_state({list(state)!r})"
    with pytest.raises(ValueError, match="zero"):
        Rng.from_state((0, 0, 0, 0))


def test_rng_independent_copies_via_state() -> None:
    r = Rng(8)
    s = Rng.from_state(r.state)
    assert [s.next_u64() for _ in range(5)] == [r.next_u64() for _ in range(5)]
    s.next_u64()  # advancing the copy leaves the original alone
    assert s.state != r.state


def test_rng_below_validation() -> None:
    r = Rng(1)
    with pytest.raises(ValueError, match=r"1\.\.2\*\*64-1, got 0"):
        r.below(0)
    assert r.below(1) == 0
    with pytest.raises(OverflowError, match=r"bound must be an int in 1\.\.2\*\*64-1, got -1"):
        r.below(-1)
