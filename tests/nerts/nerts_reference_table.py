"""The oracle of the Nerts table: 0.4.0's ``cardcore.nerts.table``, which the Rust rulebook
(``cardcore_engine::games::nerts``) replaced. Every player's layout and the shared foundations;
:class:`NertsTable` validates and applies actions (:meth:`NertsTable.is_legal` /
:meth:`NertsTable.apply`), lists them with the Rust generator
(``cardcore._core.nerts_move_codes``), undoes them and scores the round. It knows nothing about
time (the clock is :mod:`nerts_reference_engine`'s).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardcore import _core
from cardcore.cards import deck_of, is_red, natural_face, rank_of, suit_of
from cardcore.errors import IllegalMoveError, StateFormatError
from cardcore.nerts.actions import (
    K_FLIP,
    K_FOUNDATION,
    K_RECYCLE,
    K_WORK,
    NERTS,
    UNDO,
    WASTE,
    Action,
    CallNerts,
    Flip,
    Recycle,
    ToFoundation,
    ToWork,
    Undo,
    action_from_code,
)
from cardcore.nerts.options import Options

__all__ = ["NertsTable", "PlayerLayout", "fits_work"]


def fits_work(card: int, top: int) -> bool:
    """The work-pile rule in the rules page's words (the oracle's own statement; the package's
    ``fits_work`` asks the rulebook): one rank lower and the other colour."""
    return rank_of(top) == rank_of(card) + 1 and is_red(top) != is_red(card)


_F_PARTIAL, _F_FILL_ANY = _core.NERTS_F_PARTIAL, _core.NERTS_F_FILL_ANY
_F_RECYCLE, _F_RUNNING = _core.NERTS_F_RECYCLE, _core.NERTS_F_RUNNING
_NONE = _core.NERTS_NONE  # no card: an empty pile's top in the encoded state
_MAX_WORK = _core.NERTS_MAX_WORK  # work-pile slots in the encoded state


# --- table --------------------------------------------------------------------------------


@dataclass(slots=True)
class PlayerLayout:
    """One player's cards. Piles bottom → top; the stock's top is its last item."""

    nerts: list[int]
    work: list[list[int]]
    stock: list[int]
    waste: list[int]
    recycles: int = 0  # Recycle actions this round (passes - 1)
    flip_count: int = 3
    stalemates: int = 0  # stalemate remedies applied this round

    def clone(self) -> PlayerLayout:
        return PlayerLayout(
            list(self.nerts),
            [list(p) for p in self.work],
            list(self.stock),
            list(self.waste),
            self.recycles,
            self.flip_count,
            self.stalemates,
        )

    def all_cards(self) -> list[int]:
        out = list(self.nerts) + list(self.stock) + list(self.waste)
        for p in self.work:
            out.extend(p)
        return out


@dataclass(slots=True)
class _UndoRecord:
    """How to reverse one executed action (kind, src, depth, dst, card or packet size)."""

    action: Action
    kind: int
    src: int = 0
    dst: int = 0
    depth: int = 0
    card: int = -1  # the card put on a foundation (must still be its top)


class NertsTable:
    """Every layout plus the shared foundations; validates and applies actions.

    ``decks[s]`` is seat ``s``'s 52 card ids in shuffled order, dealt from the front (`cardcore
    rules nerts`): Nerts pile, one card per work pile, the rest the stock (its first card on top).
    """

    __slots__ = (
        "_masks",
        "decks",
        "foundations",
        "options",
        "players",
        "running",
        "undo_stacks",
    )

    def __init__(self, options: Options, decks: Sequence[Sequence[int]]) -> None:
        if len(decks) != options.num_players:
            raise StateFormatError("need one deck per player")
        self.options = options
        self.decks = [list(d) for d in decks]
        self.players: list[PlayerLayout] = []
        n, w = options.nerts_pile_size, options.work_piles
        for deck in self.decks:
            nerts = list(deck[:n])  # the n-th card is the top (last item)
            work = [[c] for c in deck[n : n + w]]
            stock = list(reversed(deck[n + w :]))  # deck order continues from the top
            self.players.append(PlayerLayout(nerts, work, stock, [], 0, options.flip_count))
        self.foundations: list[list[int]] = []
        self.running = True
        self.undo_stacks: list[list[_UndoRecord]] = [[] for _ in decks]
        self._masks: list[int] | None = None

    @classmethod
    def from_layouts(
        cls,
        options: Options,
        layouts: Sequence[PlayerLayout],
        foundations: Sequence[Sequence[int]] = (),
    ) -> NertsTable:
        """A table in an arbitrary position (scenarios, tests, a future interactive table).
        ``decks`` is rebuilt from the cards each seat holds; nothing checks that the position
        is reachable."""
        if len(layouts) != options.num_players:
            raise StateFormatError("need one layout per player")
        new = object.__new__(NertsTable)
        new.options = options
        new.players = [p.clone() for p in layouts]
        for p in new.players:
            p.flip_count = options.flip_count
        new.decks = [sorted(p.all_cards()) for p in new.players]
        new.foundations = [list(f) for f in foundations]
        if any(not f for f in new.foundations):
            raise StateFormatError("foundations may not be empty")
        new.running = True
        new.undo_stacks = [[] for _ in layouts]
        new._masks = None
        return new

    # -- queries -----------------------------------------------------------------------

    def clone(self) -> NertsTable:
        new = object.__new__(NertsTable)
        new.options = self.options
        new.decks = self.decks
        new.players = [p.clone() for p in self.players]
        new.foundations = [list(f) for f in self.foundations]
        new.running = self.running
        new.undo_stacks = [list(s) for s in self.undo_stacks]
        new._masks = None
        return new

    def need_masks(self) -> list[int]:
        """Per suit, bit ``r`` set when a rank-``r`` card of that suit fits some foundation."""
        if self._masks is None:
            masks = [0, 0, 0, 0]
            for f in self.foundations:
                top = f[-1]
                r = rank_of(top)
                if r < 13:
                    masks[suit_of(top)] |= 1 << (r + 1)
            self._masks = masks
        return self._masks

    def foundation_for(self, card: int) -> int | None:
        """The lowest foundation id ``card`` (not an ace) may go on, or None."""
        r, s = rank_of(card), suit_of(card)
        for i, f in enumerate(self.foundations):
            top = f[-1]
            if rank_of(top) == r - 1 and suit_of(top) == s:
                return i
        return None

    def fits_foundation(self, card: int) -> bool:
        return rank_of(card) == 1 or bool(self.need_masks()[suit_of(card)] >> rank_of(card) & 1)

    def source_top(self, seat: int, src: int) -> int | None:
        p = self.players[seat]
        if src == NERTS:
            return p.nerts[-1] if p.nerts else None
        if src == WASTE:
            return p.waste[-1] if p.waste else None
        if 0 <= src < len(p.work):
            pile = p.work[src]
            return pile[-1] if pile else None
        return None

    def may_recycle(self, seat: int) -> bool:
        passes = self.options.stock_passes
        return passes is None or self.players[seat].recycles < passes - 1

    def encode(self, seat: int) -> bytes:
        """The 32-byte state of ``seat`` for the Rust generator (``docs/replays.md``)."""
        p = self.players[seat]
        o = self.options
        flags = (
            (_F_PARTIAL if o.allow_partial_pile_moves else 0)
            | (_F_FILL_ANY if o.empty_work_pile_fill == "any" else 0)
            | (_F_RECYCLE if self.may_recycle(seat) else 0)
            | (_F_RUNNING if self.running else 0)
        )
        lens = [0] * _MAX_WORK
        tops = [_NONE] * _MAX_WORK
        for i, pile in enumerate(p.work):
            if pile:
                lens[i] = len(pile)
                tops[i] = natural_face(pile[-1])
        m = self.need_masks()
        return bytes(
            [
                len(p.nerts),
                natural_face(p.nerts[-1]) if p.nerts else _NONE,
                len(p.stock),
                len(p.waste),
                natural_face(p.waste[-1]) if p.waste else _NONE,
                len(p.work),
                flags,
                0,
                *lens,
                *tops,
                m[0] & 255,
                m[0] >> 8,
                m[1] & 255,
                m[1] >> 8,
                m[2] & 255,
                m[2] >> 8,
                m[3] & 255,
                m[3] >> 8,
                0,
                0,
                0,
                0,
                0,
                0,
            ]
        )

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` (Rust generator; ``Undo`` appended when legal).

        Foundation plays are listed once per source with the ``auto`` target; explicit ids
        are legal too (see :meth:`is_legal`).
        """
        out = [action_from_code(c) for c in _core.nerts_move_codes(self.encode(seat))]
        if self.undo_legal(seat):
            out.append(UNDO)
        return out

    def undo_legal(self, seat: int) -> bool:
        if not self.running or not self.undo_stacks[seat]:
            return False
        rec = self.undo_stacks[seat][-1]
        if rec.kind == K_FOUNDATION:
            f = self.foundations[rec.dst]
            if len(f) == 1 and rec.dst != len(self.foundations) - 1:
                return False  # an ace whose foundation is no longer the newest: ids never shift
            return f[-1] == rec.card
        return True

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``seat`` may do ``action`` now (pure Python, the rules of §4.2)."""
        if not self.running or not 0 <= seat < len(self.players):
            return False
        p = self.players[seat]
        if isinstance(action, ToFoundation):
            if type(action.src) is not int or not (
                action.target is None or type(action.target) is int
            ):
                return False
            card = self.source_top(seat, action.src)
            if card is None:
                return False
            if action.target is None:
                return self.fits_foundation(card)
            if rank_of(card) == 1 or not 0 <= action.target < len(self.foundations):
                return False
            top = self.foundations[action.target][-1]
            return suit_of(top) == suit_of(card) and rank_of(top) == rank_of(card) - 1
        if isinstance(action, ToWork):
            if not type(action.src) is type(action.depth) is type(action.pile) is int:
                return False
            w = len(p.work)
            if not 0 <= action.pile < w or action.src == action.pile:
                return False
            if action.src in (NERTS, WASTE):
                if action.depth != 1:
                    return False
                card = self.source_top(seat, action.src)
                if card is None:
                    return False
            elif 0 <= action.src < w:
                pile = p.work[action.src]
                if not 1 <= action.depth <= len(pile):
                    return False
                if not self.options.allow_partial_pile_moves and action.depth != len(pile):
                    return False
                card = pile[-action.depth]
            else:
                return False
            target = p.work[action.pile]
            if not target:
                return self.options.empty_work_pile_fill == "any" or action.src == NERTS
            return fits_work(card, target[-1])
        if isinstance(action, Flip):
            return bool(p.stock)
        if isinstance(action, Recycle):
            return not p.stock and bool(p.waste) and self.may_recycle(seat)
        if isinstance(action, CallNerts):
            return not p.nerts
        if isinstance(action, Undo):
            return self.undo_legal(seat)
        return False

    # -- changes -----------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> None:
        """Executes ``action`` for ``seat``; raises :class:`IllegalMoveError` (state unchanged)
        when it is not legal now."""
        if not self.is_legal(seat, action):
            raise IllegalMoveError(f"seat {seat}: {action} is not legal now")
        p = self.players[seat]
        rec: _UndoRecord | None = None
        if isinstance(action, ToFoundation):
            card = self._pop_source(p, action.src)
            if rank_of(card) == 1:
                fid = len(self.foundations)
                self.foundations.append([card])
            else:
                found = action.target if action.target is not None else self.foundation_for(card)
                assert found is not None  # is_legal checked it
                fid = found
                self.foundations[fid].append(card)
            self._masks = None
            rec = _UndoRecord(action, K_FOUNDATION, action.src, fid, 1, card)
        elif isinstance(action, ToWork):
            if action.src in (NERTS, WASTE):
                moved = [self._pop_source(p, action.src)]
            else:
                pile = p.work[action.src]
                moved = pile[-action.depth :]
                del pile[-action.depth :]
            p.work[action.pile].extend(moved)
            rec = _UndoRecord(action, K_WORK, action.src, action.pile, len(moved))
        elif isinstance(action, Flip):
            k = min(p.flip_count, len(p.stock))
            packet = p.stock[-k:]
            del p.stock[-k:]
            p.waste.extend(reversed(packet))
            rec = _UndoRecord(action, K_FLIP, depth=k)
        elif isinstance(action, Recycle):
            p.stock = p.waste[::-1]
            p.waste = []
            p.recycles += 1
            rec = _UndoRecord(action, K_RECYCLE)
        elif isinstance(action, CallNerts):
            self.running = False
        elif isinstance(action, Undo):
            self._undo(seat)
            return
        if rec is not None and self.options.undo_depth > 0:
            stack = self.undo_stacks[seat]
            stack.append(rec)
            if len(stack) > self.options.undo_depth:
                del stack[0]
        elif isinstance(action, CallNerts):
            self.undo_stacks[seat].clear()

    def _pop_source(self, p: PlayerLayout, src: int) -> int:
        if src == NERTS:
            return p.nerts.pop()
        if src == WASTE:
            return p.waste.pop()
        return p.work[src].pop()

    def _undo(self, seat: int) -> None:
        p = self.players[seat]
        rec = self.undo_stacks[seat].pop()
        if rec.kind == K_FOUNDATION:
            card = self.foundations[rec.dst].pop()
            if not self.foundations[rec.dst]:
                # an ace that started the newest foundation: remove the empty foundation
                del self.foundations[rec.dst]
            self._masks = None
            self._push_source(p, rec.src, [card])
        elif rec.kind == K_WORK:
            pile = p.work[rec.dst]
            moved = pile[-rec.depth :]
            del pile[-rec.depth :]
            self._push_source(p, rec.src, moved)
        elif rec.kind == K_FLIP:
            packet = p.waste[-rec.depth :]
            del p.waste[-rec.depth :]
            p.stock.extend(reversed(packet))
        elif rec.kind == K_RECYCLE:
            p.waste = p.stock[::-1]
            p.stock = []
            p.recycles -= 1

    def _push_source(self, p: PlayerLayout, src: int, cards: list[int]) -> None:
        if src == NERTS:
            p.nerts.extend(cards)
        elif src == WASTE:
            p.waste.extend(cards)
        else:
            p.work[src].extend(cards)

    def rotate_stalemate(self, seat: int, rule: str) -> None:
        """Stalemate remedy for one player: waste back to stock, then (``rotate_one``) the top
        stock card to the bottom, or (``flip_one``) turn one card at a time from now on."""
        p = self.players[seat]
        p.stalemates += 1
        # The waste turned over goes on top of what is left of the stock (the pass order
        # comes back); the stock's top is its last item.
        p.stock = p.stock + p.waste[::-1]
        p.waste = []
        if rule == "rotate_one" and len(p.stock) > 1:
            p.stock.insert(0, p.stock.pop())
        elif rule == "flip_one":
            p.flip_count = 1
        self.undo_stacks[seat].clear()

    # -- scoring -----------------------------------------------------------------------

    def foundation_counts(self) -> list[int]:
        counts = [0] * len(self.players)
        for f in self.foundations:
            for c in f:
                counts[deck_of(c)] += 1
        return counts

    def scores(self, caller: int | None) -> list[int]:
        """Round scores (`cardcore rules nerts`)."""
        o = self.options
        counts = self.foundation_counts()
        out = [
            o.foundation_points * counts[s] - o.nerts_penalty * len(p.nerts)
            for s, p in enumerate(self.players)
        ]
        if caller is not None:
            out[caller] += o.nerts_bonus
        return out

    def all_cards(self) -> list[int]:
        """Every card id in every zone (for the conservation invariant)."""
        out: list[int] = []
        for p in self.players:
            out.extend(p.all_cards())
        for f in self.foundations:
            out.extend(f)
        return out
