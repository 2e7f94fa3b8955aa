"""Exact Three-Thirteen meld solver (the rules: `cardcore rules three-thirteen`): minimum deadwood
and optimal arrangements.

The work happens in Rust (``cardcore._core``), card text and ``Card`` lists included (no Python
work per card; ``min_deadwood`` and ``min_deadwood_batch`` are Rust functions).

* :func:`min_deadwood`, :func:`best_melds`, :func:`best_discards`, :func:`min_deadwood_batch`
  take card text (``"3h 4h 5h 7c 7d 7s JK"``) or an iterable of :class:`~cardcore.Card`, and the
  round's wild rank as text (``"3"``..``"9"``, ``"T"``/``"10"``, ``"J"``, ``"Q"``, ``"K"``) or an
  int 3..13. :func:`min_deadwood_batch` also takes a 2-D integer array of card ids (numpy or
  any buffer; ``decks=`` says how many decks the ids count).
* :func:`deadwood_of_faces`, :func:`discard_deadwoods_of_faces`, :func:`deadwood_of_faces_batch`
  are the game engine's fast paths: hands are ``bytes`` of face codes (0..55, jokers 52..55) and
  the wild rank an int.

A hand holds at most 24 cards (``OptionError`` beyond). Jokers and every card of the wild rank
are wild. An unmelded wild-rank natural counts
``wild_points`` (15), a joker ``joker_points`` (20), an ace 1 (or 15 when ``ace_mode`` is
``"high"``/``"both"``), 2–10 their face value and J/Q/K 10.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, cast

from cardcore import _core
from cardcore.cards import _MAX_DECKS, Card, CardsLike, as_int, parse_cards
from cardcore.errors import ArgumentRangeError, ArgumentTypeError, OptionError

__all__ = [
    "DEFAULT_RULES",
    "AceMode",
    "Arrangement",
    "Meld",
    "MeldRules",
    "best_discards",
    "best_melds",
    "deadwood_of_faces",
    "deadwood_of_faces_batch",
    "deadwood_of_packed_faces",
    "discard_deadwoods_of_faces",
    "min_deadwood",
    "min_deadwood_batch",
    "parse_wild",
]

AceMode = Literal["low", "high", "both"]
_ACE_CODES: Final[dict[str, int]] = {"low": 0, "high": 1, "both": 2}
_WILD_TEXT: Final[dict[str, int]] = {
    **{str(n): n for n in range(3, 11)},
    "T": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
}


@dataclass(frozen=True, slots=True)
class MeldRules:
    """Scoring and ace variant of the meld rules (`cardcore rules three-thirteen`)."""

    ace_mode: str = "low"
    """``"low"`` (A-2-3, ace 1), ``"high"`` (Q-K-A, ace 15) or ``"both"`` (either end, 15)."""
    wild_points: int = 15
    """Value of an unmelded natural of the wild rank."""
    joker_points: int = 20
    """Value of an unmelded joker."""

    def __post_init__(self) -> None:
        if self.ace_mode not in _ACE_CODES:
            raise OptionError(f"ace_mode must be 'low', 'high' or 'both', got {self.ace_mode!r}")
        for name in ("wild_points", "joker_points"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 1000:
                raise OptionError(f"{name} must be an int in 0..1000, got {v!r}")

    @property
    def ace_code(self) -> int:
        """0 low, 1 high, 2 both (the extension's code)."""
        return _ACE_CODES[self.ace_mode]


DEFAULT_RULES: Final = MeldRules()


@dataclass(frozen=True, slots=True)
class Meld:
    """A set or run. ``stands_for[i]`` is the card wild ``cards[i]`` represents (``None`` for
    naturals, for a wild used as itself, and for nothing in particular)."""

    kind: str
    cards: tuple[Card, ...]
    stands_for: tuple[Card | None, ...]

    def __str__(self) -> str:
        parts = [
            str(c) if s is None else f"{c}={s}"
            for c, s in zip(self.cards, self.stands_for, strict=True)
        ]
        return "[" + " ".join(parts) + "]"


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One optimal arrangement: melds, unmelded cards and their summed value (the minimum)."""

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    points: int

    def __str__(self) -> str:
        left = " ".join(str(m) for m in self.melds)
        if not self.deadwood:
            return left
        right = "| " + " ".join(str(c) for c in self.deadwood)
        return f"{left} {right}" if left else right


def parse_wild(wild: int | str) -> int:
    """The wild rank as an int 3..13 from ``3``..``13`` or ``"3"``..``"9"``, ``"T"``/``"10"``,
    ``"J"``, ``"Q"``, ``"K"``; anything else raises :class:`~cardcore.errors.OptionError`."""
    if isinstance(wild, bool):
        raise OptionError(f"wild rank must be 3..13 or 3-9/T/J/Q/K, got {wild!r}")
    if isinstance(wild, int):
        if 3 <= wild <= 13:
            return wild
    elif isinstance(wild, str):
        n = _WILD_TEXT.get(wild.strip().upper())
        if n is not None:
            return n
    raise OptionError(f"wild rank must be 3..13 or 3-9/T/J/Q/K, got {wild!r}")


def _rules(ace_mode: str, wild_points: int, joker_points: int) -> MeldRules:
    if ace_mode == "low" and wild_points == 15 and joker_points == 20:
        return DEFAULT_RULES
    return MeldRules(ace_mode, wild_points, joker_points)


def _cards(hand: CardsLike | Iterable[int], decks: int | None = None) -> list[Card]:
    """``hand`` as cards: text or cards, or with ``decks`` physical card ids (an observation's
    ``hand``) of a game of ``decks`` decks."""
    if decks is None:
        return parse_cards(cast("CardsLike", hand))  # ints fail there, naming Card.from_id
    if isinstance(hand, str):
        raise OptionError("decks= reads a hand of physical card ids, not card text")
    return [Card.from_id(i, decks) for i in cast("Iterable[int]", hand)]


def _faces(cards: Iterable[Card]) -> bytes:
    return _core.card_faces(cards)


min_deadwood = _core.min_deadwood
"""``min_deadwood(hand, wild, *, ace_mode="low", wild_points=15, joker_points=20) -> int``:
minimum deadwood of ``hand`` when ``wild`` is the round's wild rank. One Rust call: the hand
(card text or ``Card`` objects) is read without Python work per card."""


def best_melds(
    hand: CardsLike | Iterable[int],
    wild: int | str,
    *,
    ace_mode: str = "low",
    wild_points: int = 15,
    joker_points: int = 20,
    decks: int | None = None,
) -> Arrangement:
    """One optimal arrangement of ``hand``; ``str()`` gives ``"[3h 4h X1=5h] [7c 7d 7s] | Kd"``.

    ``hand``: card text, cards, or with ``decks`` the physical card ids of a game of ``decks``
    decks (``best_melds(obs.hand, obs.wild_rank, decks=obs.num_decks)``)."""
    r = _rules(ace_mode, wild_points, joker_points)
    cards = _cards(hand, decks)
    best = _core.meld_best(
        _faces(cards), parse_wild(wild), r.ace_code, r.wild_points, r.joker_points
    )
    out: list[Meld] = []
    for kind, members in best.melds:
        out.append(
            Meld(
                kind="set" if kind == 0 else "run",
                cards=tuple(cards[k] for k, _ in members),
                stands_for=tuple(None if f < 0 else Card(f) for _, f in members),
            )
        )
    return Arrangement(tuple(out), tuple(cards[k] for k in best.deadwood), best.points)


def best_discards(
    hand: CardsLike | Iterable[int],
    wild: int | str,
    *,
    ace_mode: str = "low",
    wild_points: int = 15,
    joker_points: int = 20,
    decks: int | None = None,
) -> list[tuple[Card, int]]:
    """For a hand of n+1 cards: ``(card, deadwood left after discarding it)`` in hand order,
    computed in one Rust call that shares work between the n+1 solves. ``hand`` and ``decks``
    as in :func:`best_melds` (physical card ids with ``decks``)."""
    r = _rules(ace_mode, wild_points, joker_points)
    cards = _cards(hand, decks)
    values = discard_deadwoods_of_faces(_faces(cards), parse_wild(wild), r)
    return list(zip(cards, values, strict=True))


def min_deadwood_batch(hands: Any, wild: int | str, *, decks: int = 1, **rules: Any) -> list[int]:
    """:func:`min_deadwood` of every hand (same wild rank and rules: ``ace_mode="low"``,
    ``wild_points=15``, ``joker_points=20``), solved with the GIL released. ``hands`` is a
    sequence of hands (text or ``Card`` iterables) or a 2-D integer array of physical card ids
    (numpy array, ``memoryview``, any buffer; one hand per row, ``decks`` decks in ``1..65535``,
    ids ``52 * decks ..`` are jokers), read without a Python loop per card."""
    n = as_int(decks)
    if n is None:
        raise ArgumentTypeError(f"decks must be an int, not {decks!r}")
    if not 1 <= n <= _MAX_DECKS:
        raise ArgumentRangeError(f"decks must be in 1..{_MAX_DECKS}, got {n}")
    return _core.min_deadwood_batch(hands, wild, decks=n, **rules)


def deadwood_of_faces(faces: bytes, wild: int, rules: MeldRules = DEFAULT_RULES) -> int:
    """Minimum deadwood of a hand given as face codes (fast path, no conversion)."""
    if rules is DEFAULT_RULES:
        return _core.meld_deadwood(faces, wild)
    return _core.meld_deadwood(faces, wild, rules.ace_code, rules.wild_points, rules.joker_points)


def discard_deadwoods_of_faces(
    faces: bytes, wild: int, rules: MeldRules = DEFAULT_RULES
) -> list[int]:
    """Deadwood left after discarding each card of ``faces``, index-aligned."""
    if rules is DEFAULT_RULES:
        return _core.meld_discards(faces, wild)
    return _core.meld_discards(faces, wild, rules.ace_code, rules.wild_points, rules.joker_points)


def deadwood_of_faces_batch(
    hands: Sequence[bytes], wild: int, rules: MeldRules = DEFAULT_RULES
) -> list[int]:
    """Minimum deadwood of many face-code hands, GIL released."""
    return _core.meld_deadwood_batch(
        hands, wild, rules.ace_code, rules.wild_points, rules.joker_points
    )


def deadwood_of_packed_faces(
    buf: bytes, hand_size: int, wild: int, rules: MeldRules = DEFAULT_RULES
) -> list[int]:
    """Minimum deadwood of equal-size hands packed back to back in ``buf`` (fastest batch)."""
    return _core.meld_deadwood_packed(
        buf, hand_size, wild, rules.ace_code, rules.wild_points, rules.joker_points
    )
