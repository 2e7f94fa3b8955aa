"""THE ORACLE (tests only): the Python Spite & Malice engine of 0.4.0, kept to check the Rust
rulebook against (``test_spite_malice_oracle.py``). Spite & Malice state: the game in
progress (deal, legal moves, transitions, scoring, the embedding protocol) and what one seat
observes.

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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from cardcore.cards import face_code, is_joker_id, natural_face, parse_card, rank_of
from cardcore.errors import IllegalMoveError, OptionError
from cardcore.games import api
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
from cardcore.spite_malice.options import Options

if TYPE_CHECKING:
    from sm_reference_game import SpiteMaliceGame

__all__ = ["Observation", "State"]


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


# --- state --------------------------------------------------------------------------------


@dataclass(slots=True)
class State(api.EngineState["SpiteMaliceGame"], api.State[Move]):
    """A whole game in progress. Build with ``load_game("spite-malice", ...).new_state(seed)``
    (or :meth:`new`); mutate only with :meth:`apply`.

    The embedding protocol (:class:`cardcore.games.api.State`) is implemented here. Hidden
    information: ``payoffs`` below their tops, ``hands`` of the other seats, ``stock``,
    ``deck_order`` and ``rng``; a player sees only :meth:`observation`. ``log`` holds every move
    played. What every seat knows about hidden cards (for :meth:`resample_hidden`) is kept
    in ``pinned`` (pay-off tops seen before a first-player reshuffle), ``entries`` (cards that
    went back into the stock, seen, in order), ``entry_draws`` (each seat's stock draws at each
    entry), ``drawn`` (stock draws per seat) and ``played`` (per seat, the entry of every card
    it played from its hand that had gone back into the stock).
    """

    options: Options
    seed: int
    rng: Rng
    deck_order: tuple[int, ...]
    payoffs: list[list[int]]
    hands: list[list[int]]
    sides: list[list[list[int]]]
    center: list[list[int]]
    stock: list[int]
    used: list[int]
    current: int = 0
    first_player: int = 0
    turn: int = 1
    over: bool = False
    winner: int | None = None
    end_reason: str = ""
    scores: list[int] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    reshuffles: int = 0
    log_events: bool = False
    log: list[tuple[int, Move]] = field(default_factory=list)
    pinned: list[list[int]] = field(default_factory=list)
    entries: list[list[int]] = field(default_factory=list)
    entry_draws: list[list[int]] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)
    played: list[list[int]] = field(default_factory=list)
    entry_of: dict[int, int] = field(default_factory=dict)
    _game: SpiteMaliceGame | None = field(default=None, repr=False, compare=False)
    _legal: tuple[int, ...] | None = field(default=None, repr=False, compare=False)

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def new(cls, options: Options, seed: int, *, log_events: bool = False) -> State:
        """Deals a game from ``seed`` (`cardcore rules spite-malice`), picks the first player and
        refills nothing (hands are dealt full)."""
        o = options
        rng = Rng.for_stream(api.check_seed(seed), 0, "deck")
        order = rng.permutation(o.total_cards)
        p = o.num_players
        pos = 0
        payoffs: list[list[int]] = []
        for _ in range(p):
            payoffs.append(order[pos : pos + o.payoff_size])
            pos += o.payoff_size
        hands: list[list[int]] = []
        for _ in range(p):
            hands.append(order[pos : pos + o.hand_size])
            pos += o.hand_size
        stock = order[pos:][::-1]  # stock top = list end = next deck card
        slots = o.center_limit if o.center_limit > 0 else 1
        st = cls(
            options=o,
            seed=seed,
            rng=rng,
            deck_order=tuple(order),
            payoffs=payoffs,
            hands=hands,
            sides=[[[] for _ in range(o.num_side_stacks)] for _ in range(p)],
            center=[[] for _ in range(slots)],
            stock=stock,
            used=[],
            scores=[0] * p,
            log_events=log_events,
            pinned=[[] for _ in range(p)],
            drawn=[0] * p,
            played=[[] for _ in range(p)],
        )
        st.first_player = st.choose_first_player()
        st.current = st.first_player
        if o.stock_exhausted == "tie_immediately" and not st.stock:
            st._end_tie("stock exhausted")
        return st

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
        cards left over go to the used pile, so conservation holds.
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
        rest = sorted(cid for ids in free.values() for cid in ids)
        if stock is None:
            stock_ids, used = rest, []
        elif isinstance(stock, int):
            stock_ids, used = rest[:stock], rest[stock:]
        else:
            stock_ids = take(stock)
            used = sorted(cid for ids in free.values() for cid in ids)
        st = cls(
            options=o,
            seed=seed,
            rng=Rng.for_stream(seed, 0, "deck"),
            deck_order=(),
            payoffs=pay_ids,
            hands=hand_ids,
            sides=side_ids,
            center=centre,
            stock=stock_ids,
            used=used,
            current=current,
            first_player=current,
            turn=turn,
            scores=[0] * p,
            pinned=[[] for _ in range(p)],
            drawn=[0] * p,
            played=[[] for _ in range(p)],
        )
        st._fix_slots()
        return st

    def choose_first_player(self) -> int:
        o = self.options
        if o.first_player is not None:
            return o.first_player
        contenders = list(range(o.num_players))
        for _ in range(1000):
            values = {s: self._start_value(self.payoffs[s][-1]) for s in contenders}
            best = max(values.values())
            tied = [s for s in contenders if values[s] == best]
            if len(tied) == 1:
                return tied[0]
            for s in tied:  # the tied players reshuffle their own piles, in seat order
                self.pinned[s].append(self.payoffs[s][-1])  # seen, now somewhere in the pile
                self._shuffle_into(self.payoffs[s])
                self._event(f"reshuffle payoff {s}")
            contenders = tied
        return contenders[0]  # unreachable in practice (identical one-card piles)

    def _start_value(self, card_id: int) -> int:
        o = self.options
        if is_joker_id(card_id, o.decks):
            return 14  # a joker counts highest
        return rank_of(card_id)  # K counts 13

    def _shuffle_into(self, pile: list[int]) -> None:
        perm = self.rng.permutation(len(pile))
        pile[:] = [pile[i] for i in perm]
        self.reshuffles += 1

    def _event(self, text: str) -> None:
        if self.log_events:
            self.events.append(text)

    def clone(self) -> State:
        """An independent copy (RNG state included)."""
        return State(
            options=self.options,
            seed=self.seed,
            rng=Rng.from_state(self.rng.state),
            deck_order=self.deck_order,
            payoffs=[list(x) for x in self.payoffs],
            hands=[list(x) for x in self.hands],
            sides=[[list(s) for s in ss] for ss in self.sides],
            center=[list(c) for c in self.center],
            stock=list(self.stock),
            used=list(self.used),
            current=self.current,
            first_player=self.first_player,
            turn=self.turn,
            over=self.over,
            winner=self.winner,
            end_reason=self.end_reason,
            scores=list(self.scores),
            events=list(self.events),
            reshuffles=self.reshuffles,
            log_events=self.log_events,
            log=list(self.log),
            pinned=[list(x) for x in self.pinned],
            entries=list(self.entries),
            entry_draws=list(self.entry_draws),
            drawn=list(self.drawn),
            played=[list(x) for x in self.played],
            entry_of=dict(self.entry_of),
            _game=self._game,
        )

    # -- queries ---------------------------------------------------------------------------

    def rank(self, card_id: int) -> int:
        """Building value (0 = wild)."""
        return card_rank(card_id, self.options.decks, self.options.wild_mode)

    def _fits(self, card_id: int, effective: int) -> bool:
        r = self.rank(card_id)
        if r == 0:
            return effective < self.options.top_rank and (
                effective > 0 or self.options.king_can_start_stack
            )
        return r == effective + 1

    def _targets(self, card_id: int) -> list[int]:
        return [i for i, c in enumerate(self.center) if self._fits(card_id, len(c))]

    def all_cards(self) -> list[int]:
        """Every card id in the game, wherever it is (for conservation checks)."""
        out: list[int] = list(self.stock) + self.used
        for pile in self.payoffs:
            out += pile
        for hand in self.hands:
            out += hand
        for ss in self.sides:
            for s in ss:
                out += s
        for c in self.center:
            out += c
        return out

    def check_conservation(self) -> None:
        """Raises ``AssertionError`` unless every card is in exactly one place."""
        cards = self.all_cards()
        if sorted(cards) != list(range(self.options.total_cards)):
            raise AssertionError("card conservation violated")

    def _side_ok(self, card_id: int, stack: list[int]) -> bool:
        rule = self.options.side_stack_rule
        if rule == "any":
            return True
        r = self.rank(card_id)
        if rule == "no_aces":
            return r != 1
        if not stack or r == 0:
            return True
        t = self.rank(stack[-1])
        return t == 0 or t == r or t == r + 1

    def _ace_playable(self, seat: int) -> bool:
        if not any(not c for c in self.center):
            return False
        cands = list(self.hands[seat])
        cands += [s[-1] for s in self.sides[seat] if s]
        if self.payoffs[seat]:
            cands.append(self.payoffs[seat][-1])
        return any(self.rank(c) == 1 for c in cands)

    def _discards(self, seat: int) -> list[Discard]:
        hand = self.hands[seat]
        n = len(self.sides[seat])
        o = self.options
        if o.must_play_aces and self._ace_playable(seat):
            return []
        if o.side_stack_rule != "any":
            sides = self.sides[seat]
            moves = [
                Discard(c, i) for c in hand for i, s in enumerate(sides) if self._side_ok(c, s)
            ]
            if moves:
                return moves
        # rule "any", or the restriction is lifted because nothing can be placed
        return [Discard(c, i) for c in hand for i in range(n)]

    def _target_map(self) -> list[list[int]]:
        """Centre slots each rank value (index; 0 = wild) may go to now."""
        top = self.options.top_rank
        start = self.options.king_can_start_stack
        tm: list[list[int]] = [[] for _ in range(14)]
        for i, c in enumerate(self.center):
            e = len(c)
            tm[e + 1].append(i)
            if e > 0 or start:
                tm[0].append(i)
        if top == 12:
            tm[13] = []
        return tm

    def legal_moves(self) -> list[Move]:
        """Every legal move of the current player, plays first, then discards."""
        if self.over:
            return []
        seat = self.current
        tm = self._target_map()
        rank = self.rank
        moves: list[Move] = []
        pay = self.payoffs[seat]
        if pay:
            moves += [PlayPayOff(c) for c in tm[rank(pay[-1])]]
        for i, s in enumerate(self.sides[seat]):
            if s:
                moves += [PlaySide(i, c) for c in tm[rank(s[-1])]]
        for card in self.hands[seat]:
            moves += [PlayHand(card, c) for c in tm[rank(card)]]
        moves += self._discards(seat)
        return moves

    def is_legal(self, move: Move) -> bool:
        """True when ``move`` may be applied now."""
        return self._why_illegal(move) is None

    def _why_illegal(self, move: object) -> str | None:
        if self.over:
            return "the game is over"
        seat = self.current
        o = self.options
        if isinstance(move, PlayPayOff | PlaySide | PlayHand):
            c = move.center
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < len(self.center):
                return f"no centre stack C{c + 1 if isinstance(c, int) else c}"
            if isinstance(move, PlayPayOff):
                if not self.payoffs[seat]:
                    return "the pay-off pile is empty"
                card = self.payoffs[seat][-1]
            elif isinstance(move, PlaySide):
                s = move.side
                if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < o.num_side_stacks:
                    return f"no side stack S{s}"
                if not self.sides[seat][s]:
                    return f"side stack S{s + 1} is empty"
                card = self.sides[seat][s][-1]
            else:
                if type(move.card_id) is not int or move.card_id not in self.hands[seat]:
                    return f"card #{move.card_id} is not in the hand"
                card = move.card_id
            if not self._fits(card, len(self.center[c])):
                return (
                    f"{card_text(card, o.decks)} does not go on C{c + 1} "
                    f"(effective rank {len(self.center[c])})"
                )
            return None
        if isinstance(move, Discard):
            s = move.side
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < o.num_side_stacks:
                return f"no side stack S{s}"
            if type(move.card_id) is not int or move.card_id not in self.hands[seat]:
                return f"card #{move.card_id} is not in the hand"
            if o.must_play_aces and self._ace_playable(seat):
                return "a playable ace must be played first"
            if o.side_stack_rule != "any" and move not in self._discards(seat):
                return f"side stack rule {o.side_stack_rule!r} forbids this discard"
            return None
        return f"not a Spite & Malice move: {move!r}"

    # -- transitions -----------------------------------------------------------------------

    def apply(self, move: Move | int) -> None:
        """Plays ``move`` (a move or an action id) for the current player; raises
        ``IllegalMoveError`` (state unchanged). An action id plays the lowest-numbered card of
        its face in the hand."""
        if type(move) is not int and (action := api.action_id(move)) is not None:
            move = action
        if type(move) is int:
            legal = self._legal
            if legal is None:
                self.legal_actions()
                legal = self._legal
            if legal is None or move not in legal:
                raise IllegalMoveError(f"action {move} is not legal now")
            g = self._game or self.game  # legal: no second check
            if move < g.hand_base:
                self._play(g.fixed_moves[move])
                return
            kind, face, target = g.decode[move]
            hand = self.hands[self.current]
            for card in g.copies[face]:  # in id order: the first one in the hand is the lowest
                if card in hand:
                    self._play(g.card_move(kind, card, target))
                    return
            raise IllegalMoveError(f"action {move} is not legal now (no such card in hand)")
        why = self._why_illegal(move)
        if why is not None:
            raise IllegalMoveError(why)
        self._play(move)  # type: ignore[arg-type]

    def _play(self, move: Move) -> None:
        self._legal = None
        seat = self.current
        self.log.append((seat, move))
        if type(move) is Discard:
            self.hands[seat].remove(move.card_id)
            if self.entry_of:
                self._note_hand_play(seat, move.card_id)
            self.sides[seat][move.side].append(move.card_id)
            self._end_turn()
            return
        if type(move) is PlayPayOff:
            card = self.payoffs[seat].pop()
        elif type(move) is PlaySide:
            card = self.sides[seat][move.side].pop()
        else:
            assert type(move) is PlayHand
            self.hands[seat].remove(move.card_id)
            card = move.card_id
            if self.entry_of:
                self._note_hand_play(seat, card)
        stack = self.center[move.center]
        stack.append(card)
        if len(stack) >= self.options.top_rank:
            self._complete(move.center)
        else:
            self._fix_slots()
        if type(move) is PlayPayOff and not self.payoffs[seat]:
            self._end_win(seat)
            return
        if not self.hands[seat] and not self.over:
            if self.options.refill_empty_hand:
                self._required_draw(seat)
            else:
                self._end_turn()

    def _note_hand_play(self, seat: int, card: int) -> None:
        """Records the entry of a card played from a hand that had gone back into the stock."""
        entry = self.entry_of.get(card)
        if entry:
            self.played[seat].append(entry)

    def _enter_stock(self, cards: list[int]) -> None:
        """Seen cards go back into the stock (public knowledge for :meth:`resample_hidden`)."""
        self.entries.append(list(cards))
        self.entry_draws.append(list(self.drawn))
        n = len(self.entries)
        for c in cards:
            self.entry_of[c] = n

    def _complete(self, c: int) -> None:
        cards = self.center[c]
        self.center[c] = []
        if self.options.completed_stack == "shuffle_into_stock":
            self._enter_stock(cards)
            pile = self.stock + cards
            self._shuffle_into(pile)
            self.stock = pile
            self._event(f"complete C{c + 1} -> stock {len(pile)}")
        else:
            self.used += cards
            self._event(f"complete C{c + 1} -> used {len(self.used)}")
        self._fix_slots()

    def _fix_slots(self) -> None:
        """Unlimited centre stacks: the stacks in play in order, then one free slot (a completed
        stack's slot goes away, so there are never more slots than ``max_center_slots``)."""
        if self.options.center_limit != 0:
            return
        center = self.center
        if center[-1] or not all(center[:-1]):
            center[:] = [c for c in center if c]
            center.append([])

    def _required_draw(self, seat: int) -> None:
        """Draws up to a full hand; a tie when the draw finds no card at all."""
        o = self.options
        hand = self.hands[seat]
        need = o.hand_size - len(hand)
        if need <= 0:
            return
        stock = self.stock
        if not stock and o.stock_exhausted == "recycle_then_tie" and self.used:
            stock = list(self.used)
            self.used = []
            self._enter_stock(stock)
            self._shuffle_into(stock)
            self.stock = stock
            self._event(f"recycle used -> stock {len(stock)}")
        if not stock:
            self._end_tie("stock exhausted")
            return
        n = need if need < len(stock) else len(stock)
        self.drawn[seat] += n
        hand += stock[-n:][::-1]  # the top (the end of the list) first, as n pops
        del stock[-n:]
        if not stock and o.stock_exhausted == "tie_immediately":
            self._end_tie("stock exhausted")

    def _end_turn(self) -> None:
        o = self.options
        if self.turn >= o.max_turns:
            self._end_tie("max_turns")
            return
        self.turn += 1
        seat = self.current = (self.current + 1) % o.num_players
        self._required_draw(seat)

    def _end_tie(self, reason: str) -> None:
        self.over = True
        self.winner = None
        self.end_reason = reason
        self.scores = [0] * self.options.num_players

    def _end_win(self, seat: int) -> None:
        self.over = True
        self.winner = seat
        self.end_reason = "pay-off emptied"
        pts = sum(len(p) for i, p in enumerate(self.payoffs) if i != seat)
        self.scores = [0] * self.options.num_players
        self.scores[seat] = pts + self.options.win_bonus

    # -- protocol ----------------------------------------------------------------------------

    GAME_MODULE: ClassVar[str] = "sm_reference_game"

    def legal_actions(self) -> list[int]:
        """The legal action ids, sorted (plays first, then discards; see ``docs/embedding.md``)."""
        if self.over:
            return []
        g = self._game or self.game
        seat = self.current
        # computed in Rust (cardcore_engine::spite_actions) straight from the piles
        out = g.actions.legal(
            self.center, self.payoffs[seat], self.sides[seat], self.hands[seat], g.plain_discards
        )
        if not g.plain_discards:
            out += sorted({g.move_to_action(m) for m in self._discards(seat)})
        self._legal = tuple(out)
        return out

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the others; all 0 before the end and after a tie."""
        p = self.options.num_players
        if not self.over or self.winner is None:
            return [0.0] * p
        return [1.0 if s == self.winner else -1.0 for s in range(p)]

    def points(self) -> list[int]:
        """Points each seat earned this game (the winner's only; 0 before the end)."""
        return list(self.scores)

    @property
    def moves(self) -> list[tuple[int, Move]]:
        return list(self.log)

    def resample_hidden(self, seat: int, seed: int) -> State:
        """See :meth:`cardcore.games.api.State.resample_hidden` and ``docs/embedding.md``."""
        return self.game.resample_hidden(self, seat, seed)

    # -- views -----------------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see (no stock order, no face-down pay-off cards, no other hands)."""
        if type(seat) is not int or not 0 <= seat < len(self.hands):
            api.check_seat(seat, len(self.hands))
        return Observation(
            seat=seat,
            current=self.current,
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            payoff_tops=tuple(p[-1] if p else None for p in self.payoffs),
            payoff_counts=tuple(len(p) for p in self.payoffs),
            side_stacks=tuple(tuple(tuple(s) for s in ss) for ss in self.sides),
            center=tuple(tuple(c) for c in self.center),
            stock_count=len(self.stock),
            used_count=len(self.used),
            turn=self.turn,
            options=self.options,
        )

    def layout_digest(self) -> str:
        """SHA-256 of every pile's exact contents (replay tamper detection)."""
        import hashlib

        parts = [
            repr(self.payoffs),
            repr(self.hands),
            repr(self.sides),
            repr(self.center),
            repr(self.stock),
            repr(self.used),
            repr((self.current, self.turn, self.over, self.winner, self.scores)),
        ]
        return hashlib.sha256("|".join(parts).encode()).hexdigest()

    def describe(self) -> str:
        """A multi-line text picture of the table (all cards visible)."""
        d = self.options.decks

        def pile(cs: Sequence[int]) -> str:
            return " ".join(card_text(c, d) for c in cs) or "-"

        lines = [f"turn {self.turn}, seat {self.current} to move, stock {len(self.stock)}"]
        for i, c in enumerate(self.center):
            top = f" (top {card_text(c[-1], d)})" if c else ""
            lines.append(f"C{i + 1}: {len(c)}{top}")
        for s in range(self.options.num_players):
            pay = self.payoffs[s]
            top = card_text(pay[-1], d) if pay else "-"
            sides = " | ".join(pile(x) for x in self.sides[s])
            lines.append(f"seat {s}: P {top}/{len(pay)}  H {pile(self.hands[s])}  S {sides}")
        return "\n".join(lines)
