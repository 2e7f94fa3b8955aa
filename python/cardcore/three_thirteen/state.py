"""The Three-Thirteen state: a typed facade over the one rulebook in Rust
(``cardcore_engine::games::three_thirteen``), which deals, checks and plays every move, scores
the rounds and re-deals hidden cards. This module keeps what belongs to Python: the typed
moves in and out, the :class:`Observation` agents read, and the names of the protocol.

A game is a pure function of ``(options, seed, moves)``: the deal of every round and every stock
rebuild draw from the single ``"deck"`` stream (``Rng.for_stream(seed, 0, "deck")``) in the
order the events happen; when ``first_dealer`` is not set, the first draw of that stream
(``below(num_players)``) picks the first dealer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple

from cardcore import _core
from cardcore.errors import IllegalMoveError
from cardcore.games import api
from cardcore.games.rulebook import RulebookState, rulebook_field
from cardcore.three_thirteen.melds import MeldRules
from cardcore.three_thirteen.moves import (
    _DISCARDS,
    DRAW_DISCARD,
    DRAW_STOCK,
    Discard,
    DrawDiscard,
    DrawStock,
    Move,
    face_table,
    move_from_code,
)
from cardcore.three_thirteen.options import Options

if TYPE_CHECKING:
    from cardcore.three_thirteen.game import ThreeThirteenGame

__all__ = ["PHASE_DISCARD", "PHASE_DRAW", "Observation", "State", "decide_winner"]

PHASE_DRAW: Final = "draw"
PHASE_DISCARD: Final = "discard"


def decide_winner(
    totals: Sequence[int], tie_rule: str = "all_tied"
) -> tuple[int | None, str, list[int], list[int]]:
    """``(winner, outcome, tied, winners)`` for final totals (lowest wins; see the rules,
    ``cardcore rules three-thirteen``).

    ``outcome`` is ``"win"``, ``"all_tied"`` (nobody wins) or ``"shared_win"``; ``tied`` lists
    the seats sharing the lowest total when there is more than one; ``winners`` the winning seats.
    """
    low = min(totals)
    best = [s for s, t in enumerate(totals) if t == low]
    if len(best) == 1:
        return best[0], "win", [], best
    if tie_rule == "shared_win":
        return None, "shared_win", best, best
    return None, "all_tied", best, []


class Observation(NamedTuple):
    """What one seat may see. Other hands and the stock order are hidden.

    ``taken[s]`` lists cards seat ``s`` took from the discard pile this round and still holds
    (public: everyone saw them taken). ``discards`` holds ``(seat, card_id)`` of every discard
    since the round began or the stock was last rebuilt (cards that went back into the stock
    are hidden again). ``face_of`` maps physical ids to face codes.
    """

    seat: int
    num_players: int
    round: int
    cards_dealt: int
    wild_rank: int
    dealer: int
    phase: str
    hand: tuple[int, ...]
    drawn: int | None
    drawn_from_discard: bool
    discard_pile: tuple[int, ...]
    stock_size: int
    hand_sizes: tuple[int, ...]
    taken: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, int], ...]
    out_seat: int | None
    own_turns: int
    turn_in_round: int
    totals: tuple[int, ...]
    num_decks: int
    jokers: int
    rules: MeldRules
    face_of: bytes
    forbid_return_of_discard_draw: bool
    min_own_turns_before_out: int


_new_observation: Final = tuple.__new__  # skips NamedTuple's Python-level __new__ (hot path)
_I64: Final = 1 << 63
_ACE_CODES: Final = {"low": 0, "high": 1, "both": 2}


@lru_cache(maxsize=64)
def native_rules(options: Options) -> _core.ThreeThirteenRules:
    """The rulebook's rules of ``options`` (built once per option set)."""
    return _core.ThreeThirteenRules(
        players=options.num_players,
        decks=options.num_decks,
        jokers=options.jokers,
        ace_mode=_ACE_CODES[options.ace_mode],
        wild_points=options.wild_points,
        joker_points=options.joker_points,
        first_dealer=options.first_dealer,
        shared_win=options.tie_rule == "shared_win",
        forbid_return=options.forbid_return_of_discard_draw,
        min_own_turns=options.min_own_turns_before_out,
        max_turns=options.max_turns_per_round,
    )


@lru_cache(maxsize=64)
def _observation_tail(options: Options) -> tuple[Any, ...]:
    """The fields of every :class:`Observation` of ``options`` that never change."""
    return (
        options.num_decks,
        options.jokers,
        options.meld_rules,
        face_table(options.num_decks, options.jokers),
        options.forbid_return_of_discard_draw,
        options.min_own_turns_before_out,
    )


_CODE_MOVES: Final[tuple[Move, ...]] = (DRAW_DISCARD, DRAW_STOCK, *_DISCARDS)
"""The move of replay code ``c`` at ``c + 2``."""


def _field(name: str) -> property:
    """A read-only attribute read from the rulebook's state."""
    return rulebook_field(_core.tt_get, name)


class State(RulebookState[Move]):
    """A whole Three-Thirteen game (11 rounds), mutable, with :meth:`clone`.

    Build with ``load_game("three-thirteen", ...).new_state(seed)`` (or ``State(options,
    seed)``); the first round is dealt at once. ``stacked_decks`` (tests and analysis only) maps
    a 1-based round to the deck order to deal instead of shuffling (the deck stream is then not
    used for that round's deal).

    Hidden information: ``hands``, ``stock`` and ``deck_orders`` (and the deck stream) are the
    engine's full state; a player sees only :meth:`observation`. Not thread-safe: one State is
    used by one thread at a time (the rulebook refuses a second caller while it runs).
    """

    __slots__ = ()
    GAME_MODULE: ClassVar[str] = "cardcore.three_thirteen.game"
    options: Options
    _game: ThreeThirteenGame | None

    def __init__(
        self,
        options: Options | None = None,
        seed: int = 0,
        *,
        stacked_decks: Mapping[int, Sequence[int]] | None = None,
    ) -> None:
        opts = options if options is not None else Options()
        seed = api.check_seed(seed)
        stacked = [(int(k), bytes(v)) for k, v in (stacked_decks or {}).items()]
        self.options = opts
        self._game = None
        self._s = _core.tt_new(native_rules(opts), seed, stacked)

    # -- the rulebook's fields ----------------------------------------------------------------

    round = _field("round")
    dealer = _field("dealer")
    phase = _field("phase")
    drawn = _field("drawn")
    drawn_from_discard = _field("drawn_from_discard")
    out_seat = _field("out_seat")
    final_left = _field("final_left")
    turn_in_round = _field("turn_in_round")
    first_dealer = _field("first_dealer")
    upcard = _field("upcard")
    totals = _field("totals")
    hands = _field("hands")
    discard_pile = _field("discard_pile")
    stock = _field("stock")
    taken = _field("taken")
    own_turns = _field("own_turns")
    round_scores = _field("round_scores")
    went_out = _field("went_out")

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self._s.is_over

    @property
    def current(self) -> int:
        """The seat to play (the last seat that played once the game is over)."""
        return _core.tt_current(self._s)

    @property
    def seed(self) -> int:
        return int(_core.tt_get(self._s, "seed"))

    @property
    def num_players(self) -> int:
        return self.options.num_players

    @property
    def num_decks(self) -> int:
        return self.options.num_decks

    @property
    def rules(self) -> MeldRules:
        return self.options.meld_rules

    @property
    def face_of(self) -> bytes:
        return face_table(self.options.num_decks, self.options.jokers)

    @property
    def wild_rank(self) -> int:
        return int(self.round) + 2

    @property
    def cards_dealt(self) -> int:
        return int(self.round) + 2

    @property
    def discards(self) -> list[tuple[int, int]]:
        return [tuple(x) for x in _core.tt_get(self._s, "discards")]

    @property
    def deck_orders(self) -> list[list[int]]:
        return [list(d) for d in self.parts()["deck_orders"]]

    @property
    def move_log(self) -> list[list[tuple[int, int]]]:
        return [[(s, c) for s, c in log] for log in self.parts()["move_log"]]

    @property
    def rebuilds(self) -> list[list[list[int]]]:
        return [[list(x) for x in r] for r in self.parts()["rebuilds"]]

    def parts(self) -> dict[str, Any]:
        """The whole state field by field (the state document's fields; cards as ids)."""
        return _core.tt_parts(self._s)

    def hand_deadwoods(self) -> list[int]:
        """Each seat's current optimal deadwood."""
        return _core.tt_deadwoods(self._s)

    # -- moves --------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to play (empty when the game is over)."""
        moves: tuple[Move, ...] = _CODE_MOVES
        return [moves[c + 2] for c in _core.tt_legal_codes(self._s)]

    def is_legal(self, move: object) -> bool:
        t = type(move)
        if t is DrawStock:
            code = -1
        elif t is DrawDiscard:
            code = -2
        elif t is Discard:
            code = move.card_id  # type: ignore[attr-defined]
            if type(code) is not int or code < 0:
                return False
        else:
            return False
        return code in _core.tt_legal_codes(self._s)

    def apply(self, move: Move | int) -> None:
        """Plays ``move`` for :attr:`current`; raises :class:`IllegalMoveError`, state
        unchanged. An action id discards the lowest copy of its face that may be discarded."""
        t = type(move)
        if t is int:
            if not -_I64 <= move < _I64:  # type: ignore[operator]
                raise IllegalMoveError(f"no three-thirteen action {move}")
            self._s.apply_action(move)  # type: ignore[arg-type]
            return
        if t is Discard:
            code = move.card_id  # type: ignore[union-attr]
            if type(code) is not int or not 0 <= code < 256:
                self._refuse(move)
        elif t is DrawStock:
            code = -1
        elif t is DrawDiscard:
            code = -2
        else:
            action = api.action_id(move)
            if action is None:
                self._refuse(move)
            self._s.apply_action(action)  # type: ignore[arg-type]
            return
        _core.tt_apply_code(self._s, code)

    def _refuse(self, move: object) -> None:
        """Raises the :class:`IllegalMoveError` of an object that is no move the rulebook can
        be given (a foreign object, a discard of a card id no game has)."""
        seat = self.current
        if self.is_over:
            raise IllegalMoveError("the game is over")
        if self.phase == PHASE_DRAW:
            raise IllegalMoveError(f"seat {seat} must draw (stock or discard pile), not {move}")
        if type(move) is not Discard:
            raise IllegalMoveError(f"seat {seat} must discard, not {move}")
        raise IllegalMoveError(f"seat {seat} does not hold card {move.card_id}")

    # -- protocol ---------------------------------------------------------------------------

    def points(self) -> list[int]:
        """Total penalty points so far per seat (lower is better)."""
        return list(self.totals)

    @property
    def moves(self) -> list[tuple[int, Move]]:
        return [(s, move_from_code(c)) for log in self.parts()["move_log"] for s, c in log]

    # -- views ----------------------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see (its own hand, public piles and counts; no hidden cards)."""
        if type(seat) is not int or not 0 <= seat < self.options.num_players:
            seat = api.check_seat(seat, self.options.num_players)
        return _new_observation(
            Observation,
            _core.tt_observation(self._s, seat) + _observation_tail(self.options),
        )

    def result(self) -> dict[str, Any]:
        """Totals, per-round scores and the winner (only meaningful once :attr:`over`)."""
        totals = self.totals
        winner, outcome, tied, winners = decide_winner(totals, self.options.tie_rule)
        return {
            "scores": totals,
            "round_scores": self.round_scores,
            "went_out": self.went_out,
            "winner": winner,
            "winners": winners,
            "outcome": outcome,
            "tied": tied,
        }

    def all_card_ids(self) -> list[int]:
        """Every card currently in play (hands, stock, discard pile), for conservation checks."""
        out: list[int] = []
        for h in self.hands:
            out.extend(h)
        out.extend(self.stock)
        out.extend(self.discard_pile)
        return out

    def stock_top_first(self) -> list[int]:
        """The stock from its top card down (hidden information)."""
        return list(self.stock)[::-1]

    def __repr__(self) -> str:
        return (
            f"<three-thirteen State round={self.round} seat={self.current} phase={self.phase} "
            f"totals={self.totals}>"
        )
