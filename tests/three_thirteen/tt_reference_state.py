"""THE ORACLE (tests only): the Python Three-Thirteen engine of 0.4.0, kept to check the Rust
rulebook (``cardcore_engine::games::three_thirteen``) against, move for move. Three-Thirteen
state: the game in progress (deal, round flow, legal moves,
transitions, scoring, the embedding protocol), what one seat observes, and the game winner.

The state holds physical card ids (ints, ``deck * 52 + face``; jokers after every natural) in
plain lists so the hot loop never builds :class:`~cardcore.cards.Card` objects. Meld evaluation
goes through the Rust solver in :mod:`cardcore.three_thirteen.melds` with faces as bytes
(``bytes(ids).translate(face_table(...))``).

A game is a pure function of ``(options, seed, moves)``: the deal of every round and every stock
rebuild draw from the single ``"deck"`` stream (``Rng.for_stream(seed, 0, "deck")``) in the
order the events happen; when ``first_dealer`` is not set, the first draw of that stream
(``below(num_players)``) picks the first dealer.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple

from cardcore.errors import IllegalMoveError, StateFormatError
from cardcore.games import api
from cardcore.rng import Rng
from cardcore.three_thirteen.melds import (
    MeldRules,
    deadwood_of_faces,
    deadwood_of_faces_batch,
)
from cardcore.three_thirteen.moves import (
    _DISCARDS,
    _MOVE_TYPES,
    ACTION_DISCARD,
    ACTION_DRAW_DISCARD,
    ACTION_DRAW_STOCK,
    DRAW_DISCARD,
    DRAW_STOCK,
    Discard,
    DrawDiscard,
    DrawStock,
    Move,
    action_table,
    face_table,
    move_from_code,
)
from cardcore.three_thirteen.options import NUM_ROUNDS, Options

if TYPE_CHECKING:
    from tt_reference_game import ReferenceGame

__all__ = ["PHASE_DISCARD", "PHASE_DRAW", "Observation", "State", "decide_winner"]

PHASE_DRAW: Final = "draw"
PHASE_DISCARD: Final = "discard"


def decide_winner(
    totals: Sequence[int], tie_rule: str = "all_tied"
) -> tuple[int | None, str, list[int], list[int]]:
    """``(winner, outcome, tied, winners)`` for final totals (lowest wins).

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


# --- observation -------------------------------------------------------------------------------


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

# --- state -------------------------------------------------------------------------------------


class State(api.EngineState["ReferenceGame"], api.State[Move]):
    """A whole Three-Thirteen game (11 rounds), mutable, with :meth:`clone`.

    Build with ``load_game("three-thirteen", ...).new_state(seed)`` (or ``State(options,
    seed)``); the first round is dealt at once. ``stacked_decks`` (tests and analysis only) maps
    a 1-based round to the deck order to deal instead of shuffling (the deck stream is then not
    used for that round's deal).

    The embedding protocol (:class:`cardcore.games.api.State`) is implemented here. Hidden
    information: ``hands``, ``stock``, ``deck_orders`` and ``rebuilds`` (and the deck stream)
    are the engine's full state; a player sees only :meth:`observation`.
    """

    __slots__ = (
        "_act",
        "_game",
        "_resample_cache",
        "_rng",
        "_stacked",
        "_taken_t",
        "current",
        "dealer",
        "deck_orders",
        "discard_pile",
        "discards",
        "drawn",
        "drawn_from_discard",
        "face_of",
        "final_left",
        "first_dealer",
        "hands",
        "move_log",
        "num_decks",
        "num_players",
        "options",
        "out_seat",
        "over",
        "own_turns",
        "phase",
        "rebuilds",
        "round",
        "round_scores",
        "rules",
        "seed",
        "stock",
        "taken",
        "totals",
        "turn_in_round",
        "upcard",
        "went_out",
        "wild_rank",
    )

    def __init__(
        self,
        options: Options | None = None,
        seed: int = 0,
        *,
        stacked_decks: Mapping[int, Sequence[int]] | None = None,
    ) -> None:
        opts = options if options is not None else Options()
        self.options = opts
        self.seed = api.check_seed(seed)
        self.num_players = opts.num_players
        self.num_decks = opts.num_decks
        self.rules = opts.meld_rules
        self.face_of = face_table(opts.num_decks, opts.jokers)
        self._act = action_table(opts.num_decks, opts.jokers)
        self._game: ReferenceGame | None = None
        self._resample_cache: Any = None
        self._rng = Rng.for_stream(seed, 0, "deck")
        self._stacked = {int(k): list(v) for k, v in (stacked_decks or {}).items()}
        self.totals = [0] * opts.num_players
        self.round_scores: list[list[int]] = []
        self.went_out: list[int | None] = []
        self.deck_orders: list[list[int]] = []
        self.move_log: list[list[tuple[int, int]]] = []
        self.rebuilds: list[list[list[int]]] = []
        self.over = False
        if opts.first_dealer is None:
            self.first_dealer = self._rng.below(opts.num_players)
        else:
            self.first_dealer = opts.first_dealer
        self.dealer = self.first_dealer
        self.round = 0
        self._deal(1)

    # -- copying ----------------------------------------------------------------------------

    def clone(self) -> State:
        """An independent copy (the deck stream included). The lists of finished rounds (and
        each recorded deck order) are never changed again, so the copy shares them."""
        new = State.__new__(State)
        for name in State.__slots__:
            setattr(new, name, getattr(self, name))
        new._rng = Rng.from_state(self._rng.state)
        new._stacked = dict(self._stacked)
        new.totals = list(self.totals)
        new.round_scores = list(self.round_scores)
        new.went_out = list(self.went_out)
        new.deck_orders = list(self.deck_orders)
        log = self.move_log
        new.move_log = [*log[:-1], list(log[-1])] if log else []
        rb = self.rebuilds
        new.rebuilds = [*rb[:-1], list(rb[-1])] if rb else []
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.discard_pile = list(self.discard_pile)
        new.discards = list(self.discards)
        new.taken = [list(t) for t in self.taken]
        new.own_turns = list(self.own_turns)
        return new

    # -- round flow ---------------------------------------------------------------------------

    @property
    def cards_dealt(self) -> int:
        return self.round + 2

    def _deal(self, rnd: int) -> None:
        p = self.num_players
        n = rnd + 2
        total = self.options.total_cards
        if rnd in self._stacked:
            deck = self._stacked[rnd]
            if sorted(deck) != list(range(total)):
                raise StateFormatError(
                    f"stacked deck for round {rnd} is not a permutation of the cards"
                )
        else:
            deck = self._rng.permutation(total)
        self.round = rnd
        self.wild_rank = n
        self.deck_orders.append(list(deck))
        self.move_log.append([])
        self.rebuilds.append([])
        hands: list[list[int]] = [[] for _ in range(p)]
        first = (self.dealer + 1) % p
        for k in range(p * n):
            hands[(first + k) % p].append(deck[k])
        for h in hands:
            h.sort()
        self.hands = hands
        self.discard_pile = [deck[p * n]]
        self.upcard = deck[p * n]
        rest = deck[p * n + 1 :]
        rest.reverse()  # top of the stock is the last element
        self.stock = rest
        self.discards: list[tuple[int, int]] = []
        self.taken: list[list[int]] = [[] for _ in range(p)]
        self._taken_t: tuple[tuple[int, ...], ...] | None = None
        self.own_turns = [0] * p
        self.turn_in_round = 0
        self.out_seat: int | None = None
        self.final_left = 0
        self.current = first
        self.phase = PHASE_DRAW
        self.drawn: int | None = None
        self.drawn_from_discard = False

    def _begin_turn(self) -> None:
        """Start of a turn: rebuild the stock from the discard pile if it is empty (R-4)."""
        self.phase = PHASE_DRAW
        self.drawn = None
        self.drawn_from_discard = False
        if not self.stock:
            pile = self.discard_pile
            rest = pile[:-1]
            perm = self._rng.permutation(len(rest))
            new_order = [rest[i] for i in perm]
            self.rebuilds[-1].append(new_order)  # top card first
            self.stock = new_order[::-1]
            self.discard_pile = [pile[-1]]
            self.discards = []

    def _end_turn(self, seat: int) -> None:
        self.own_turns[seat] += 1
        self.turn_in_round += 1
        if self.out_seat is None:
            if self.own_turns[seat] > self.options.min_own_turns_before_out and (
                deadwood_of_faces(
                    bytes(self.hands[seat]).translate(self.face_of), self.wild_rank, self.rules
                )
                == 0
            ):
                self.out_seat = seat
                self.final_left = self.num_players - 1
            elif self.turn_in_round >= self.options.max_turns_per_round:
                self._end_round()
                return
        else:
            self.final_left -= 1
            if self.final_left == 0:
                self._end_round()
                return
        self.current = (seat + 1) % self.num_players
        self._begin_turn()

    def hand_deadwoods(self) -> list[int]:
        """Each seat's current optimal deadwood (one batched solver call)."""
        ft = self.face_of
        return deadwood_of_faces_batch(
            [bytes(h).translate(ft) for h in self.hands], self.wild_rank, self.rules
        )

    def _end_round(self) -> None:
        scores = self.hand_deadwoods()
        if self.out_seat is not None:
            scores[self.out_seat] = 0
        self.round_scores.append(scores)
        self.went_out.append(self.out_seat)
        for s in range(self.num_players):
            self.totals[s] += scores[s]
        if self.round >= NUM_ROUNDS:
            self.over = True
            self.phase = "over"
            return
        self.dealer = (self.dealer + 1) % self.num_players
        self._deal(self.round + 1)

    # -- moves --------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to play (empty when the game is over)."""
        if self.phase == PHASE_DRAW:
            return [DRAW_STOCK, DRAW_DISCARD]
        if self.over:
            return []
        d = _DISCARDS
        hand = self.hands[self.current]
        if self.drawn_from_discard and self.options.forbid_return_of_discard_draw:
            banned = self.drawn
            return [d[c] for c in hand if c != banned]
        return [d[c] for c in hand]

    def legal_actions(self) -> list[int]:
        """The legal action ids, sorted (one per face in the hand when discarding)."""
        if self.phase == PHASE_DRAW:
            return [ACTION_DRAW_STOCK, ACTION_DRAW_DISCARD]
        if self.over:
            return []
        hand = self.hands[self.current]
        if self.drawn_from_discard and self.options.forbid_return_of_discard_draw:
            banned = self.drawn
            hand = [c for c in hand if c != banned]
        return sorted(set(bytes(hand).translate(self._act)))

    def _banned(self) -> int:
        """The card that may not be discarded now (-1 when none)."""
        if self.drawn_from_discard and self.options.forbid_return_of_discard_draw:
            return self.drawn if self.drawn is not None else -1
        return -1

    def is_legal(self, move: object) -> bool:
        if self.over:
            return False
        t = type(move)
        if self.phase == PHASE_DRAW:
            return t is DrawStock or t is DrawDiscard
        if t is not Discard:
            return False
        cid = move.card_id  # type: ignore[attr-defined]
        if type(cid) is not int or cid not in self.hands[self.current]:
            return False
        return cid != self._banned()

    def _action_move(self, action: int) -> Move:
        """The move of action id ``action`` for the seat to play (the lowest copy of its face
        that may be discarded)."""
        if action == ACTION_DRAW_STOCK:
            return DRAW_STOCK
        if action == ACTION_DRAW_DISCARD:
            return DRAW_DISCARD
        if not ACTION_DISCARD <= action < ACTION_DISCARD + 53:
            raise IllegalMoveError(f"no three-thirteen action {action}")
        if not self.over and self.phase == PHASE_DISCARD:
            hand = self.hands[self.current]
            acts = bytes(hand).translate(self._act)
            i = acts.find(action)
            if i >= 0 and hand[i] == self._banned():
                i = acts.find(action, i + 1)
            if i >= 0:
                return _DISCARDS[hand[i]]
        raise IllegalMoveError(f"action {action} is not legal now")

    def apply(self, move: Move | int) -> None:
        """Plays ``move`` for :attr:`current`; raises :class:`IllegalMoveError`, state
        unchanged. An action id discards the lowest copy of its face that may be discarded."""
        if type(move) is int:
            move = self._action_move(move)
        elif type(move) not in _MOVE_TYPES and (action := api.action_id(move)) is not None:
            move = self._action_move(action)
        if self.over:
            raise IllegalMoveError("the game is over")
        seat = self.current
        t = type(move)
        if self.phase == PHASE_DRAW:
            if t is DrawStock:
                card = self.stock.pop()
                self.drawn_from_discard = False
                code = -1
            elif t is DrawDiscard:
                card = self.discard_pile.pop()
                self.taken[seat].append(card)
                self._taken_t = None
                self.drawn_from_discard = True
                code = -2
            else:
                raise IllegalMoveError(f"seat {seat} must draw (stock or discard pile), not {move}")
            insort(self.hands[seat], card)
            self.drawn = card
            self.phase = PHASE_DISCARD
            self.move_log[-1].append((seat, code))
            return
        if t is not Discard:
            raise IllegalMoveError(f"seat {seat} must discard, not {move}")
        cid = move.card_id  # type: ignore[union-attr]
        hand = self.hands[seat]
        if type(cid) is not int or cid not in hand:
            raise IllegalMoveError(f"seat {seat} does not hold card {cid}")
        if (
            self.drawn_from_discard
            and cid == self.drawn
            and self.options.forbid_return_of_discard_draw
        ):
            raise IllegalMoveError("the card taken from the discard pile may not be returned")
        hand.remove(cid)
        tk = self.taken[seat]
        if cid in tk:
            tk.remove(cid)
            self._taken_t = None
        self.discard_pile.append(cid)
        self.discards.append((seat, cid))
        self.move_log[-1].append((seat, cid))
        self._end_turn(seat)

    # -- protocol ---------------------------------------------------------------------------

    GAME_MODULE: ClassVar[str] = "tt_reference_game"

    def returns(self) -> list[float]:
        """+1 for each winning seat, -1 for the others; all 0 before the end and when nobody
        wins (a shared lowest total under ``tie_rule="all_tied"``)."""
        p = self.num_players
        if not self.over:
            return [0.0] * p
        winners = decide_winner(self.totals, self.options.tie_rule)[3]
        if not winners:
            return [0.0] * p
        return [1.0 if s in winners else -1.0 for s in range(p)]

    def points(self) -> list[int]:
        """Total penalty points so far per seat (lower is better)."""
        return list(self.totals)

    @property
    def moves(self) -> list[tuple[int, Move]]:
        return [(s, move_from_code(c)) for log in self.move_log for s, c in log]

    def resample_hidden(self, seat: int, seed: int) -> State:
        """See :meth:`cardcore.games.api.State.resample_hidden` and ``docs/embedding.md``."""
        return self.game.resample_hidden(self, seat, seed)

    # -- views ----------------------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see (its own hand, public piles and counts; no hidden cards)."""
        if type(seat) is not int or not 0 <= seat < self.num_players:
            api.check_seat(seat, self.num_players)
        opts = self.options
        taken = self._taken_t
        if taken is None:
            taken = self._taken_t = tuple(map(tuple, self.taken))
        return _new_observation(
            Observation,
            (
                seat,
                self.num_players,
                self.round,
                self.round + 2,
                self.wild_rank,
                self.dealer,
                self.phase,
                tuple(self.hands[seat]),
                self.drawn if seat == self.current else None,
                self.drawn_from_discard if seat == self.current else False,
                tuple(self.discard_pile),
                len(self.stock),
                tuple(map(len, self.hands)),
                taken,
                tuple(self.discards),
                self.out_seat,
                self.own_turns[seat],
                self.turn_in_round,
                tuple(self.totals),
                self.num_decks,
                opts.jokers,
                self.rules,
                self.face_of,
                opts.forbid_return_of_discard_draw,
                opts.min_own_turns_before_out,
            ),
        )

    def result(self) -> dict[str, Any]:
        """Totals, per-round scores and the winner (only meaningful once :attr:`over`)."""
        winner, outcome, tied, winners = decide_winner(self.totals, self.options.tie_rule)
        return {
            "scores": list(self.totals),
            "round_scores": [list(r) for r in self.round_scores],
            "went_out": list(self.went_out),
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
        return self.stock[::-1]

    def __repr__(self) -> str:
        return (
            f"<three-thirteen State round={self.round} seat={self.current} phase={self.phase} "
            f"totals={self.totals}>"
        )
