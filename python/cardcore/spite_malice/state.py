"""The Spite & Malice state: a typed facade over the one rulebook in Rust
(``cardcore_engine::games::spite_malice``), which deals, checks and plays every move, ends the
game, keeps what every seat knows of the hidden cards and re-deals them. This module keeps
what belongs to Python: the typed moves in and out, the :class:`Observation` agents read, the
names of the protocol and hand-built positions (:meth:`State.from_piles`).

Cards are physical ids (ints, ``deck * 52 + suit * 13 + rank - 1``; jokers after every
natural, ``num_decks * 52 + k - 1`` for ``Xk``). Piles are lists from bottom to top (the last
element is the top card). Centre stacks are slots: an empty list is a free slot. With
``num_center_stacks = 0`` (unlimited) the engine keeps exactly one spare free slot at the end.

Randomness: one ``"deck"`` stream per game (``Rng.for_stream(seed, 0, "deck")``) deals the
deck and draws every later shuffle in event order (pay-off reshuffles of the first-player
procedure, completed stacks shuffled into the stock, used-pile recycling).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Final

from cardcore import _core
from cardcore.cards import face_code, is_joker_id, natural_face, parse_card
from cardcore.errors import IllegalMoveError, OptionError
from cardcore.games import api
from cardcore.games.rulebook import RulebookState, rulebook_field
from cardcore.rng import Rng
from cardcore.spite_malice.moves import (
    Discard,
    Move,
    PlayHand,
    PlayPayOff,
    PlaySide,
    card_rank,
    card_text,
)
from cardcore.spite_malice.options import JOKERS, Options

if TYPE_CHECKING:
    from cardcore.spite_malice.game import SpiteMaliceGame

__all__ = ["Observation", "State"]

_I64: Final = 1 << 63


# --- observation --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Observation:
    """What seat ``seat`` may see: everything except the stock, face-down pay-off cards and
    other players' hands (their sizes only)."""

    seat: int
    current: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    payoff_tops: tuple[int | None, ...]
    payoff_counts: tuple[int, ...]
    side_stacks: tuple[tuple[tuple[int, ...], ...], ...]
    center: tuple[tuple[int, ...], ...]
    stock_count: int
    used_count: int
    turn: int
    options: Options

    def rank(self, card_id: int) -> int:
        """Building value (0 = wild)."""
        return card_rank(card_id, self.options.decks, self.options.wild_mode)

    def center_ranks(self) -> tuple[int, ...]:
        """Effective rank of every centre slot (0 = free)."""
        return tuple(len(s) for s in self.center)


# --- the rulebook's rules -----------------------------------------------------------------


@lru_cache(maxsize=64)
def native_rules(options: Options) -> _core.SpiteMaliceRules:
    """The rulebook's rules of ``options`` (built once per option set)."""
    o = options
    return _core.SpiteMaliceRules(
        players=o.num_players,
        decks=o.decks,
        jokers=o.wild_mode == JOKERS,
        payoff_size=o.payoff_size,
        hand_size=o.hand_size,
        side_stacks=o.num_side_stacks,
        center_stacks=o.center_limit,
        king_can_start=o.king_can_start_stack,
        refill_empty_hand=o.refill_empty_hand,
        completed_to_stock=o.completed_stack == "shuffle_into_stock",
        stock_exhausted=o.stock_exhausted,
        side_stack_rule=o.side_stack_rule,
        must_play_aces=o.must_play_aces,
        first_player=o.first_player,
        max_turns=o.max_turns,
        win_bonus=o.win_bonus,
    )


def code_of(move: object) -> tuple[int, Any, Any] | None:
    """``(kind, x, y)`` of a move as the rulebook takes it (see ``sm_apply_code``); ``None``
    for an object that is no move."""
    t = type(move)
    if t is PlayHand:
        return 2, move.card_id, move.center  # type: ignore[attr-defined]
    if t is Discard:
        return 3, move.card_id, move.side  # type: ignore[attr-defined]
    if t is PlayPayOff:
        return 0, 0, move.center  # type: ignore[attr-defined]
    if t is PlaySide:
        return 1, move.side, move.center  # type: ignore[attr-defined]
    return None


def move_of(kind: int, x: int, y: int) -> Move:
    """The move of a rulebook code ``(kind, x, y)``."""
    if kind == 0:
        return PlayPayOff(y)
    if kind == 1:
        return PlaySide(x, y)
    if kind == 2:
        return PlayHand(x, y)
    return Discard(x, y)


def _plain(x: object) -> bool:
    return type(x) is int and -_I64 <= x < _I64


def _field(name: str, doc: str) -> property:
    """A read-only attribute read from the rulebook's state (lists are new copies)."""
    return rulebook_field(_core.sm_get, name, doc)


# --- state --------------------------------------------------------------------------------


class State(RulebookState[Move]):
    """A whole game in progress. Build with ``load_game("spite-malice", ...).new_state(seed)``
    (or :meth:`new`); mutate only with :meth:`apply`.

    Hidden information: ``payoffs`` below their tops, ``hands`` of the other seats, ``stock``,
    ``deck_order`` and ``rng``; a player sees only :meth:`observation`. ``log`` holds every move
    played. What every seat knows about hidden cards (for :meth:`resample_hidden`) is kept
    in ``pinned`` (pay-off tops seen before a first-player reshuffle), ``entries`` (cards that
    went back into the stock, seen, in order), ``entry_draws`` (each seat's stock draws at each
    entry), ``drawn`` (stock draws per seat) and ``played`` (per seat, the entry of every card
    it played from its hand that had gone back into the stock). The piles read here are
    copies: change a position with :meth:`from_piles` or a state document, never in place.
    Not thread-safe: one State is used by one thread at a time.
    """

    __slots__ = ()
    GAME_MODULE: ClassVar[str] = "cardcore.spite_malice.game"
    options: Options
    _game: SpiteMaliceGame | None

    def __init__(self, options: Options | None = None, seed: int = 0) -> None:
        opts = options if options is not None else Options()
        self.options = opts
        self._game = None
        self._s = _core.sm_new(native_rules(opts), api.check_seed(seed))

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def new(cls, options: Options, seed: int, *, log_events: bool = False) -> State:
        """Deals a game from ``seed`` (`cardcore rules spite-malice`) and picks the first
        player (hands are dealt full)."""
        inner = _core.sm_new(native_rules(options), api.check_seed(seed), log_events)
        return cls._wrap(options, inner, None)

    @classmethod
    def from_piles(
        cls,
        options: Options,
        *,
        hands: Sequence[str],
        payoffs: Sequence[str],
        sides: Sequence[Sequence[str]] | None = None,
        center: Sequence[str | int] | None = None,
        stock: str | int | None = None,
        current: int = 0,
        seed: int = 0,
        turn: int = 1,
    ) -> State:
        """A hand-built position for tests and analysis (piles as text, bottom to top).

        Each face token takes the lowest unused physical card of that face (``"X1"`` is any
        joker). A centre stack may be given as an int ``n``: ``n`` cards of ranks 1..n. The
        stock is the text given, or ``n`` unused cards, or (``None``) every unused card; the
        cards left over go to the used pile, so conservation holds. The rulebook checks the
        position (``StateFormatError`` naming what it refuses).
        """
        o = options
        free: dict[int, list[int]] = {}
        for cid in range(o.total_cards):
            key = -1 if is_joker_id(cid, o.decks) else natural_face(cid)
            free.setdefault(key, []).append(cid)

        def take(text: str) -> list[int]:
            out = []
            for tok in text.split():
                key = -1 if tok[0] in "Xx" else parse_card(tok).face
                ids = free.get(key)
                if not ids:
                    raise OptionError(f"no unused card {tok} left")
                out.append(ids.pop(0))
            return out

        def take_rank(r: int) -> int:
            for suit in range(4):
                ids = free.get(face_code(r, suit))
                if ids:
                    return ids.pop(0)
            raise OptionError(f"no unused card of rank {r}")

        p = o.num_players
        if len(hands) != p or len(payoffs) != p:
            raise OptionError("need one hand and one pay-off pile per player")
        hand_ids = [take(h) for h in hands]
        pay_ids = [take(x) for x in payoffs]
        side_ids: list[list[list[int]]] = [[[] for _ in range(o.num_side_stacks)] for _ in range(p)]
        if sides is not None:
            for s, ss in enumerate(sides):
                for i, text in enumerate(ss):
                    side_ids[s][i] = take(text)
        slots = o.center_limit if o.center_limit > 0 else 1
        centre: list[list[int]] = [[] for _ in range(slots)]
        if center is not None:
            for i, c in enumerate(center):
                if i >= len(centre):
                    centre.append([])
                centre[i] = (
                    take(c) if isinstance(c, str) else [take_rank(r) for r in range(1, c + 1)]
                )
        if o.center_limit == 0 and (centre[-1] or not all(centre[:-1])):
            centre = [c for c in centre if c] + [[]]
        rest = sorted(cid for ids in free.values() for cid in ids)
        if stock is None:
            stock_ids, used = rest, []
        elif isinstance(stock, int):
            stock_ids, used = rest[:stock], rest[stock:]
        else:
            stock_ids = take(stock)
            used = sorted(cid for ids in free.values() for cid in ids)
        parts = {
            "seed": seed,
            "rng": list(Rng.for_stream(api.check_seed(seed), 0, "deck").state),
            "deck_order": [],
            "payoffs": pay_ids,
            "hands": hand_ids,
            "sides": side_ids,
            "center": centre,
            "stock": stock_ids,
            "used": used,
            "current": current,
            "first_player": current,
            "turn": turn,
            "over": False,
            "winner": None,
            "end_reason": "",
            "scores": [0] * p,
            "reshuffles": 0,
            "events": None,
            "moves": [],
            "pinned": [[] for _ in range(p)],
            "entries": [],
            "entry_draws": [],
            "drawn": [0] * p,
            "played": [[] for _ in range(p)],
        }
        return cls._wrap(o, _core.sm_from_parts(native_rules(o), parts), None)

    def choose_first_player(self) -> int:
        """Runs the first-player procedure on this position and returns the seat (without
        setting it): the ``first_player`` option, else the highest pay-off top (a joker counts
        14, a king 13); tied seats reshuffle their piles from the deck stream until one wins."""
        return _core.sm_choose_first_player(self._s)

    # -- the rulebook's fields ----------------------------------------------------------------

    if TYPE_CHECKING:
        payoffs: list[list[int]]
        hands: list[list[int]]
        sides: list[list[list[int]]]
        center: list[list[int]]
        stock: list[int]
        used: list[int]
        current: int
        first_player: int
        turn: int
        over: bool
        winner: int | None
        end_reason: str
        scores: list[int]
        reshuffles: int
        pinned: list[list[int]]
        entries: list[list[int]]
        entry_draws: list[list[int]]
        drawn: list[int]
        played: list[list[int]]
    else:
        payoffs = _field("payoffs", "Every seat's pay-off pile, top last.")
        hands = _field("hands", "Every seat's hand.")
        sides = _field("sides", "Every seat's side stacks, tops last.")
        center = _field("center", "The centre slots (an empty list is a free slot).")
        stock = _field("stock", "The stock, top last.")
        used = _field("used", "Completed stacks set aside.")
        current = _field("current", "The seat to play (the last seat that played once over).")
        first_player = _field("first_player", "The seat that played first.")
        turn = _field("turn", "The turn, from 1.")
        over = _field("over", "Whether the game has ended.")
        winner = _field("winner", "The winner (None before the end and after a tie).")
        end_reason = _field("end_reason", "Why the game ended ('' while it runs).")
        scores = _field("scores", "Points of each seat (the winner's only; 0 before the end).")
        reshuffles = _field("reshuffles", "Shuffles drawn from the deck stream after the deal.")
        pinned = _field("pinned", "Pay-off tops seen before a first-player reshuffle, per seat.")
        entries = _field("entries", "The cards of every entry into the stock, in order.")
        entry_draws = _field("entry_draws", "Each seat's stock draws at each entry.")
        drawn = _field("drawn", "Each seat's stock draws.")
        played = _field("played", "Per seat, the entry of every re-entered card it played.")

    @property
    def seed(self) -> int:
        return int(_core.sm_get(self._s, "seed"))

    @property
    def rng(self) -> Rng:
        """A copy of the deck stream."""
        return Rng.from_state(tuple(_core.sm_get(self._s, "rng")))

    @property
    def deck_order(self) -> tuple[int, ...]:
        """The dealt deck order (empty after a re-deal of hidden cards or for a built
        position)."""
        return tuple(_core.sm_get(self._s, "deck_order"))

    @property
    def events(self) -> list[str]:
        """The events' texts (kept only with ``new(..., log_events=True)``)."""
        return _core.sm_get(self._s, "events") or []

    @property
    def log_events(self) -> bool:
        return _core.sm_get(self._s, "events") is not None

    @property
    def log(self) -> list[tuple[int, Move]]:
        """Every move played, with its seat."""
        return [(s, move_of(k, x, y)) for s, k, x, y in _core.sm_get(self._s, "moves")]

    @property
    def entry_of(self) -> dict[int, int]:
        """The (1-based) latest entry of every card that went back into the stock."""
        return {c: j for j, cards in enumerate(self.entries, start=1) for c in cards}

    def parts(self) -> dict[str, Any]:
        """The whole state field by field (cards as ids, moves as ``(seat, kind, x, y)``)."""
        return _core.sm_parts(self._s)

    # -- queries ---------------------------------------------------------------------------

    def rank(self, card_id: int) -> int:
        """Building value (0 = wild)."""
        return card_rank(card_id, self.options.decks, self.options.wild_mode)

    def all_cards(self) -> list[int]:
        """Every card id in the game, wherever it is (for conservation checks)."""
        x = self.parts()
        out: list[int] = list(x["stock"]) + x["used"]
        for pile in x["payoffs"]:
            out += pile
        for hand in x["hands"]:
            out += hand
        for ss in x["sides"]:
            for s in ss:
                out += s
        for c in x["center"]:
            out += c
        return out

    def check_conservation(self) -> None:
        """Raises ``AssertionError`` unless every card is in exactly one place."""
        cards = self.all_cards()
        if sorted(cards) != list(range(self.options.total_cards)):
            raise AssertionError("card conservation violated")

    def legal_moves(self) -> list[Move]:
        """Every legal move of the current player, plays first, then discards."""
        code_move = self.game.code_move
        return [code_move(k, x, y) for k, x, y in _core.sm_legal_moves(self._s)]

    def is_legal(self, move: Move) -> bool:
        """True when ``move`` may be applied now."""
        return self._why_illegal(move) is None

    def _why_illegal(self, move: object) -> str | None:
        code = code_of(move)
        if code is not None and _plain(code[1]) and _plain(code[2]):
            return _core.sm_why_illegal(self._s, *code)
        return self._refusal(move)

    def _refusal(self, move: object) -> str | None:
        """Why a move with a field the rulebook cannot take (not an int, a bool, past 64
        bits) or an object that is no move is refused, in the words of the rulebook."""
        if self.over:
            return "the game is over"
        o = self.options
        if isinstance(move, PlayPayOff | PlaySide | PlayHand):
            c = move.center
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < len(self.center):
                return f"no centre stack C{c + 1 if isinstance(c, int) else c}"
            if isinstance(move, PlaySide):
                s = move.side
                if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < o.num_side_stacks:
                    return f"no side stack S{s}"
            if isinstance(move, PlayHand):
                card = move.card_id
                if type(card) is not int or card not in self.hands[self.current]:
                    return f"card #{card} is not in the hand"
        elif isinstance(move, Discard):
            s = move.side
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < o.num_side_stacks:
                return f"no side stack S{s}"
            card = move.card_id
            if type(card) is not int or card not in self.hands[self.current]:
                return f"card #{card} is not in the hand"
        else:
            return f"not a Spite & Malice move: {move!r}"
        code = code_of(move)
        assert code is not None
        return _core.sm_why_illegal(self._s, code[0], int(code[1]), int(code[2]))

    # -- transitions -----------------------------------------------------------------------

    def apply(self, move: Move | int) -> None:
        """Plays ``move`` (a move or an action id) for the current player; raises
        ``IllegalMoveError`` (state unchanged). An action id plays the lowest-numbered card of
        its face in the hand."""
        if type(move) is not int:
            code = code_of(move)
            if code is not None:
                _, x, y = code
                if _plain(x) and _plain(y):
                    _core.sm_apply_code(self._s, *code)
                    return
                raise IllegalMoveError(self._refusal(move) or f"{move} is not legal now")
            action = api.action_id(move)
            if action is None:
                raise IllegalMoveError(self._refusal(move) or f"{move!r} is not legal now")
            move = action
        if not -_I64 <= move < _I64:
            raise IllegalMoveError(f"action {move} is not legal now")
        self._s.apply_action(move)

    # -- protocol ----------------------------------------------------------------------------

    def points(self) -> list[int]:
        """Points each seat earned this game (the winner's only; 0 before the end)."""
        return list(self.scores)

    @property
    def moves(self) -> list[tuple[int, Move]]:
        return self.log

    # -- views -----------------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see (no stock order, no face-down pay-off cards, no other hands)."""
        if type(seat) is not int or not 0 <= seat < self.options.num_players:
            seat = api.check_seat(seat, self.options.num_players)
        new: Any = Observation
        return new(*_core.sm_observation(self._s, seat), self.options)  # type: ignore[no-any-return]

    def observation_tensor(self, seat: int) -> Any:
        """``observation(seat)`` as a float32 array of ``game.observation_shape``."""
        if type(seat) is not int or not 0 <= seat < self.options.num_players:
            seat = api.check_seat(seat, self.options.num_players)
        import numpy as np

        return np.frombuffer(self._s.observation_tensor(seat), dtype=np.float32)

    def layout_digest(self) -> str:
        """SHA-256 of every pile's exact contents (replay tamper detection)."""
        import hashlib

        x = self.parts()
        parts = [
            repr(x["payoffs"]),
            repr(x["hands"]),
            repr(x["sides"]),
            repr(x["center"]),
            repr(x["stock"]),
            repr(x["used"]),
            repr((x["current"], x["turn"], x["over"], x["winner"], x["scores"])),
        ]
        return hashlib.sha256("|".join(parts).encode()).hexdigest()

    def describe(self) -> str:
        """A multi-line text picture of the table (all cards visible)."""
        d = self.options.decks
        x = self.parts()

        def pile(cs: Sequence[int]) -> str:
            return " ".join(card_text(c, d) for c in cs) or "-"

        lines = [f"turn {x['turn']}, seat {x['current']} to move, stock {len(x['stock'])}"]
        for i, c in enumerate(x["center"]):
            top = f" (top {card_text(c[-1], d)})" if c else ""
            lines.append(f"C{i + 1}: {len(c)}{top}")
        for s in range(self.options.num_players):
            pay = x["payoffs"][s]
            top = card_text(pay[-1], d) if pay else "-"
            sides = " | ".join(pile(y) for y in x["sides"][s])
            lines.append(f"seat {s}: P {top}/{len(pay)}  H {pile(x['hands'][s])}  S {sides}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"<spite-malice State turn={self.turn} seat={self.current} over={self.over} "
            f"scores={self.scores}>"
        )
