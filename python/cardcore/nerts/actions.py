"""Nerts actions: typed moves with ``str()`` notation, their packed Rust move codes
(``kind | src << 8 | depth << 16 | dst << 24``) and :func:`parse_action`.

Sources are work piles ``0..4``, :data:`WASTE` and :data:`NERTS`; a foundation play's target
is a foundation index or ``None`` (auto, :data:`AUTO` in a code).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cardcore import _core
from cardcore.cards import id_text
from cardcore.errors import IllegalMoveError

__all__ = [
    "AUTO",
    "CALL",
    "FLIP",
    "NERTS",
    "RECYCLE",
    "UNDO",
    "WASTE",
    "Action",
    "CallNerts",
    "Flip",
    "Recycle",
    "ToFoundation",
    "ToWork",
    "Undo",
    "action_from_code",
    "card_text",
    "fits_work",
    "parse_action",
]

WASTE: Final[int] = _core.NERTS_SRC_WASTE
NERTS: Final[int] = _core.NERTS_SRC_NERTS
AUTO: Final[int] = _core.NERTS_NONE
# Move kinds of a packed code (the `K_*` of rust/cardcore-engine/src/games/nerts/moves.rs;
# undo is ours)
K_FOUNDATION: Final[int] = _core.NERTS_K_FOUNDATION
K_WORK: Final[int] = _core.NERTS_K_WORK
K_FLIP: Final[int] = _core.NERTS_K_FLIP
K_RECYCLE: Final[int] = _core.NERTS_K_RECYCLE
K_CALL: Final[int] = _core.NERTS_K_CALL
K_UNDO: Final = 5


def _src_text(src: int) -> str:
    return "N" if src == NERTS else "W" if src == WASTE else f"P{src}"


def _parse_src(text: str) -> int:
    if text == "N":
        return NERTS
    if text == "W":
        return WASTE
    if len(text) == 2 and text[0] == "P" and text[1].isdigit():
        return int(text[1])
    raise IllegalMoveError(f"bad Nerts source {text!r} (N, W or P0..P4)")


@dataclass(frozen=True, slots=True)
class ToFoundation:
    """Top card of ``src`` (Nerts, waste or work pile) to foundation ``target`` (None = auto)."""

    src: int
    target: int | None = None

    @property
    def code(self) -> int:
        dst = AUTO if self.target is None else self.target
        return K_FOUNDATION | self.src << 8 | 1 << 16 | dst << 24

    def __str__(self) -> str:
        return f"{_src_text(self.src)}>F" + ("" if self.target is None else str(self.target))


@dataclass(frozen=True, slots=True)
class ToWork:
    """The top ``depth`` cards of ``src`` onto work pile ``pile``."""

    src: int
    depth: int
    pile: int

    @property
    def code(self) -> int:
        return K_WORK | self.src << 8 | self.depth << 16 | self.pile << 24

    def __str__(self) -> str:
        d = f":{self.depth}" if self.depth != 1 else ""
        return f"{_src_text(self.src)}{d}>P{self.pile}"


@dataclass(frozen=True, slots=True)
class Flip:
    """Turn the top ``flip_count`` stock cards onto the waste."""

    code = K_FLIP

    def __str__(self) -> str:
        return "flip"


@dataclass(frozen=True, slots=True)
class Recycle:
    """Turn the waste over to become the stock (stock empty only)."""

    code = K_RECYCLE

    def __str__(self) -> str:
        return "recycle"


@dataclass(frozen=True, slots=True)
class CallNerts:
    """Press the Nerts button (Nerts pile empty); ends the round."""

    code = K_CALL

    def __str__(self) -> str:
        return "nerts"


@dataclass(frozen=True, slots=True)
class Undo:
    """Reverse the player's own most recent executed action."""

    code = K_UNDO

    def __str__(self) -> str:
        return "undo"


Action = ToFoundation | ToWork | Flip | Recycle | CallNerts | Undo

FLIP: Final = Flip()
RECYCLE: Final = Recycle()
CALL: Final = CallNerts()
UNDO: Final = Undo()
_BY_CODE: dict[int, Action] = {}


def action_from_code(code: int) -> Action:
    """The (interned) action of a packed Rust move code."""
    cached = _BY_CODE.get(code)
    if cached is not None:
        return cached
    kind, src, depth, dst = code & 255, code >> 8 & 255, code >> 16 & 255, code >> 24
    act: Action
    if kind == K_FOUNDATION:
        act = ToFoundation(src, None if dst == AUTO else dst)
    elif kind == K_WORK:
        act = ToWork(src, depth, dst)
    else:
        simple: dict[int, Action] = {
            K_FLIP: FLIP,
            K_RECYCLE: RECYCLE,
            K_CALL: CALL,
            K_UNDO: UNDO,
        }
        act = simple[kind]
    _BY_CODE[code] = act
    return act


def parse_action(text: str) -> Action:
    """Inverse of ``str(action)``: ``N>F``, ``W>F3``, ``P1:2>P3``, ``W>P0``, ``flip`` …"""
    simple: dict[str, Action] = {"flip": FLIP, "recycle": RECYCLE, "nerts": CALL, "undo": UNDO}
    if text in simple:
        return simple[text]
    src_text, sep, dst_text = text.partition(">")
    if not sep:
        raise IllegalMoveError(f"bad Nerts action {text!r}")
    depth = 1
    if ":" in src_text:
        src_text, _, d = src_text.partition(":")
        if not d.isdigit():
            raise IllegalMoveError(f"bad depth in {text!r}")
        depth = int(d)
    src = _parse_src(src_text)
    if dst_text.startswith("F"):
        rest = dst_text[1:]
        if rest and not rest.isdigit():
            raise IllegalMoveError(f"bad foundation in {text!r}")
        return ToFoundation(src, int(rest) if rest else None)
    pile = _parse_src(dst_text)
    if pile in (NERTS, WASTE):
        raise IllegalMoveError(f"cannot build on the Nerts pile or waste: {text!r}")
    return ToWork(src, depth, pile)


def card_text(cid: int) -> str:
    """``"7h@1"`` for card id ``cid`` (owner = deck = seat)."""
    return id_text(cid)


def fits_work(card: int, top: int) -> bool:
    """Whether ``card`` may go on a work pile whose top is ``top`` (card ids): one rank lower
    and the other colour, the rulebook's work-pile rule (``_core.nerts_builds_down``). A value
    that is not a Nerts card id (``0..207``) raises ``ArgumentTypeError`` or
    ``ArgumentRangeError``."""
    return _core.nerts_builds_down(card, top)
