"""THE ORACLE (tests only): the Python Spite & Malice game of 0.4.0 over the engine in
``sm_reference_state.py``. Spite & Malice as a :class:`cardcore.games.api.Game`: action
ids, the observation tensor, JSON and the re-deal of hidden cards (layouts and a worked
example in ``docs/embedding.md``).

With ``C`` centre slots, ``S`` side stacks and ``F`` faces (52, or 53 when jokers are wild: all
jokers are one face), the actions are, in this order: the pay-off top to slot ``c`` (``C``
ids), side stack ``i``'s top to slot ``c`` (``S * C``), a hand card of face ``f`` to slot ``c``
(``F * C``), a hand card of face ``f`` onto side stack ``i`` (``F * S``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from cardcore._core import SPITE_CENTER_ROWS, SpiteActions
from cardcore.cards import JOKER0, NATURALS, face_of
from cardcore.errors import IllegalMoveError, StateFormatError
from cardcore.games import api
from cardcore.games.codec import codec, is_permutation
from cardcore.rng import Rng
from cardcore.spite_malice.rules import (
    Discard,
    Move,
    Options,
    PlayHand,
    PlayPayOff,
    PlaySide,
    card_rank,
    move_text,
    parse_move,
)
from sm_reference_state import Observation, State

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["SpiteMaliceGame", "game_for", "reference_game"]

_PAYOFF, _SIDE, _HAND, _DISCARD = 0, 1, 2, 3
MAX_REDEALS: Final = 10_000
"""Attempts of :meth:`SpiteMaliceGame.resample_hidden` to meet every draw-count limit before
it keeps a re-deal that meets only the placement rules (never reached in the tests)."""


@lru_cache(maxsize=64)
def game_for(options: Options) -> SpiteMaliceGame:
    """The (shared) game of ``options``."""
    return SpiteMaliceGame(options)


class SpiteMaliceGame(api.Game[Move]):
    """Spite & Malice for fixed options (build with ``load_game("spite-malice")``)."""

    name = "spite-malice"

    def __init__(self, options: Options) -> None:
        o = options
        self.rules = o
        p = o.num_players
        self.num_players = p
        self.options = {
            "players": p,
            **{k: v for k, v in o.as_dict().items() if k != "num_players"},
        }
        naturals = NATURALS * o.decks
        self.faces = NATURALS + 1 if o.jokers else NATURALS
        self.slots = o.max_center_slots
        n_sides = o.num_side_stacks
        c, f = self.slots, self.faces
        self.hand_base = c + n_sides * c
        self.discard_base = self.hand_base + f * c
        self.num_actions = self.discard_base + f * n_sides
        # every joker is one face (52): jokers are interchangeable
        self.face = [min(face_of(i, o.decks), JOKER0) for i in range(o.total_cards)]
        self.face_rank = [card_rank(f, 1, o.wild_mode) for f in range(JOKER0 + 1)]
        # the physical cards of every face in id order
        self.copies: list[list[int]] = [[] for _ in range(f)]
        for card, x in enumerate(self.face):
            self.copies[x].append(card)
        self.actions = SpiteActions(c, n_sides, self.face, self.face_rank, o.king_can_start_stack)
        # every hand card may go onto every side stack (else State._discards says which)
        self.plain_discards = o.side_stack_rule == "any" and not o.must_play_aces
        self.decode: list[tuple[int, int, int]] = [(_PAYOFF, 0, k) for k in range(c)]
        self.decode += [(_SIDE, i, k) for i in range(n_sides) for k in range(c)]
        self.decode += [(_HAND, x, k) for x in range(f) for k in range(c)]
        self.decode += [(_DISCARD, x, i) for x in range(f) for i in range(n_sides)]
        self._payoff_moves = [PlayPayOff(k) for k in range(c)]
        self._side_moves = [PlaySide(i, k) for i in range(n_sides) for k in range(c)]
        self.fixed_moves: list[Move] = [*self._payoff_moves, *self._side_moves]
        self._card_moves: dict[tuple[int, int, int], Move] = {}
        self._parsed: dict[str, Move] = {}
        self._codec = codec(o.decks, o.jokers)
        self._canonical = [*range(NATURALS), naturals] if o.jokers else list(range(NATURALS))
        segments = [
            ("hand", f),
            ("payoff_tops", p * f),
            ("side_tops", p * n_sides * f),
            ("side_cards", p * n_sides * f),
            ("center", c * SPITE_CENTER_ROWS),
            ("to_move", p),
            ("payoff_counts", p),
            ("hand_sizes", p),
            ("side_sizes", p * n_sides),
            ("stock_count", 1),
            ("used_count", 1),
            ("turn", 1),
        ]
        self._lay_out(segments)

    # -- moves and actions -------------------------------------------------------------------

    def new_state(self, seed: int) -> State:
        st = State.new(self.rules, seed)
        st._game = self
        return st

    def card_move(self, kind: int, card: int, target: int) -> Move:
        """The (shared) hand-card move: ``kind`` 2 to centre slot ``target``, 3 onto side stack
        ``target``."""
        key = (kind, card, target)
        move = self._card_moves.get(key)
        if move is None:
            move = PlayHand(card, target) if kind == _HAND else Discard(card, target)
            self._card_moves[key] = move
        return move

    def action_to_move(self, action: int) -> Move:
        kind, x, y = self.decode[api.checked_action(self, action)]
        if kind == _PAYOFF:
            return self._payoff_moves[y]
        if kind == _SIDE:
            return self._side_moves[x * self.slots + y]
        return self.card_move(kind, self._canonical[x], y)

    def move_to_action(self, move: Move) -> int:
        c, n_sides = self.slots, self.rules.num_side_stacks
        t = type(move)
        target = getattr(move, "center", None) if t is not Discard else getattr(move, "side", None)
        limit = n_sides if t is Discard else c
        if type(target) is int and 0 <= target < limit:
            if t is PlayPayOff:
                return target
            if t is PlaySide:
                side = move.side  # type: ignore[union-attr]
                if type(side) is int and 0 <= side < n_sides:
                    return c + side * c + target
            elif t is PlayHand or t is Discard:
                card = move.card_id  # type: ignore[union-attr]
                if type(card) is int and 0 <= card < self._codec.size:
                    if t is PlayHand:
                        return self.hand_base + self.face[card] * c + target
                    return self.discard_base + self.face[card] * n_sides + target
        raise IllegalMoveError(f"not a move of this spite-malice game: {move!r}")

    def parse_move(self, text: str) -> Move:
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move text is a str, not {text!r}")
        move = self._parsed.get(text)
        if move is None:
            move = parse_move(text, self.rules.decks)
            self.move_to_action(move)
            if len(self._parsed) < 100_000:
                self._parsed[text] = move
        return move

    def move_text(self, move: Move) -> str:
        self.move_to_action(move)
        return move_text(move, self.rules.decks)

    # -- observation -------------------------------------------------------------------------

    def _observation_tensor(self, state: State, seat: int) -> NDArray[np.float32]:
        view = _Seen(state, seat)
        return self._tensor(view, None if state.over else state.current)  # type: ignore[arg-type]

    def observation_tensor_of(self, observation: Observation) -> NDArray[np.float32]:
        """The tensor of an observation an agent received (the game is running)."""
        return self._tensor(observation, observation.current)

    def _tensor(self, o: Observation, to_move: int | None) -> NDArray[np.float32]:
        """The tensor of ``o`` when ``to_move`` is the seat to play (None: the game is over)."""
        seat = o.seat
        p, f = self.num_players, self.faces
        n_sides = self.rules.num_side_stacks
        at = self._at
        face = self.face
        idx = [at["hand"] + face[c] for c in o.hand]
        order = [(seat + r) % p for r in range(p)]
        tops, cards = at["side_tops"], at["side_cards"]
        for r, k in enumerate(order):
            top = o.payoff_tops[k]
            if top is not None:
                idx.append(at["payoff_tops"] + r * f + face[top])
            for i, side in enumerate(o.side_stacks[k]):
                if side:
                    block = (r * n_sides + i) * f
                    idx.append(tops + block + face[side[-1]])
                    idx += [cards + block + face[x] for x in side]
        base = at["center"]
        idx += [base + i * SPITE_CENTER_ROWS + len(stack) for i, stack in enumerate(o.center)]
        if to_move is not None:
            idx.append(at["to_move"] + (to_move - seat) % p)
        import numpy as np

        out = np.bincount(idx, minlength=self.observation_shape[0]).astype(np.float32)
        tail = [o.payoff_counts[k] for k in order]
        tail += [o.hand_sizes[k] for k in order]
        tail += [len(side) for k in order for side in o.side_stacks[k]]
        tail += [o.stock_count, o.used_count, o.turn]
        out[at["payoff_counts"] :] = tail
        return out

    def _observation_body(self, state: State, seat: int) -> dict[str, Any]:
        st = state
        enc = self._codec.encode
        text = self._codec.text
        return {
            "turn": st.turn,
            "current_player": st.current_player,
            "hand": self._seat_fields(state, seat)["hand"],
            "hand_sizes": [len(h) for h in st.hands],
            "payoff_tops": [text(p[-1]) if p else None for p in st.payoffs],
            "payoff_counts": [len(p) for p in st.payoffs],
            "side_stacks": [[enc(x) for x in sides] for sides in st.sides],
            "center": [enc(c) for c in st.center],
            "stock_count": len(st.stock),
            "used_count": len(st.used),
            "winner": st.winner,
            "scores": list(st.scores),
            "end_reason": st.end_reason,
        }

    def _seat_fields(self, state: State, seat: int) -> dict[str, Any]:
        return {"hand": self._codec.encode(state.hands[seat])}

    def _observation_from_body(self, seat: int, b: Mapping[str, Any]) -> Observation:
        p = self.num_players
        c = self._codec
        current = b["current_player"]
        return Observation(
            seat=seat,
            current=seat if current is None else api.check_seat(current, p),
            hand=tuple(c.decode(b["hand"])),
            hand_sizes=tuple(api.read_int(n, 0, 99) for n in api.read_list(b["hand_sizes"], p)),
            payoff_tops=tuple(None if t is None else c.card(t) for t in b["payoff_tops"]),
            payoff_counts=tuple(
                api.read_int(n, 0, 99) for n in api.read_list(b["payoff_counts"], p)
            ),
            side_stacks=tuple(
                tuple(tuple(x) for x in c.decode_piles(sides, self.rules.num_side_stacks))
                for sides in api.read_list(b["side_stacks"], p)
            ),
            center=tuple(tuple(x) for x in c.decode_piles(b["center"])),
            stock_count=api.read_int(b["stock_count"], 0, c.size),
            used_count=api.read_int(b["used_count"], 0, c.size),
            turn=api.read_int(b["turn"], 1, 1 << 31),
            options=self.rules,
        )

    # -- the whole state as JSON -------------------------------------------------------------

    def _state_body(self, state: State) -> dict[str, Any]:
        st = state
        enc = self._codec.encode
        decks = self.rules.decks
        return {
            "seed": st.seed,
            "rng": api.rng_words(st.rng),
            "deck_order": enc(st.deck_order),
            "payoffs": [enc(x) for x in st.payoffs],
            "hands": [enc(x) for x in st.hands],
            "sides": [[enc(x) for x in sides] for sides in st.sides],
            "center": [enc(x) for x in st.center],
            "stock": enc(st.stock),
            "used": enc(st.used),
            "current": st.current,
            "first_player": st.first_player,
            "turn": st.turn,
            "over": st.over,
            "winner": st.winner,
            "end_reason": st.end_reason,
            "scores": list(st.scores),
            "reshuffles": st.reshuffles,
            "events": list(st.events) if st.log_events else None,
            "moves": [[s, move_text(m, decks)] for s, m in st.log],
            "knowledge": {
                "pinned": [enc(x) for x in st.pinned],
                "entries": [enc(x) for x in st.entries],
                "entry_draws": [list(x) for x in st.entry_draws],
                "drawn": list(st.drawn),
                "played": [list(x) for x in st.played],
            },
        }

    def _state_from_body(self, body: Mapping[str, Any]) -> State:
        o = self.rules
        p = self.num_players
        c = self._codec
        n_sides = o.num_side_stacks
        big = 1 << 31
        events = body["events"]
        know = body["knowledge"]
        entries = c.decode_piles(know["entries"])
        st = State(
            options=o,
            seed=api.read_int(body["seed"], 0, (1 << 64) - 1),
            rng=api.rng_from_words(body["rng"]),
            deck_order=tuple(c.decode(body["deck_order"])),
            payoffs=c.decode_piles(body["payoffs"], p),
            hands=c.decode_piles(body["hands"], p),
            sides=[c.decode_piles(x, n_sides) for x in api.read_list(body["sides"], p)],
            center=c.decode_piles(body["center"]),
            stock=c.decode(body["stock"]),
            used=c.decode(body["used"]),
            current=api.check_seat(body["current"], p),
            first_player=api.check_seat(body["first_player"], p),
            turn=api.read_int(body["turn"], 1, big),
            over=api.read_bool(body["over"]),
            winner=None if body["winner"] is None else api.check_seat(body["winner"], p),
            end_reason=str(body["end_reason"]),
            scores=[api.read_int(x, 0, big) for x in api.read_list(body["scores"], p)],
            events=[str(e) for e in events] if events is not None else [],
            reshuffles=api.read_int(body["reshuffles"], 0, big),
            log_events=events is not None,
            log=[(api.check_seat(s, p), self.parse_move(m)) for s, m in _pairs(body["moves"])],
            pinned=c.decode_piles(know["pinned"], p),
            entries=entries,
            entry_draws=[
                [api.read_int(x, 0, big) for x in api.read_list(d, p)]
                for d in api.read_list(know["entry_draws"], len(entries))
            ],
            drawn=[api.read_int(x, 0, big) for x in api.read_list(know["drawn"], p)],
            played=[
                [api.read_int(x, 1, len(entries)) for x in api.read_list(pl, len(pl))]
                for pl in api.read_list(know["played"], p)
            ],
            entry_of={card: j for j, cards in enumerate(entries, start=1) for card in cards},
            _game=self,
        )
        _check_state(st)
        return st

    # -- hidden information ------------------------------------------------------------------

    def resample_hidden(self, state: State, seat: int, seed: int) -> State:
        """A copy of ``state`` in which every card ``seat`` has not seen is re-dealt.

        Hidden places: every pay-off pile below its top, the other seats' hands, the stock
        (in order). Placement rules (what every seat knows): a pay-off top seen before a
        first-player reshuffle is still in that pile; cards that went back into the stock (a
        completed stack, a recycled used pile) were seen, so they are in the stock or in the
        hand of a seat that drew from the stock since, and never below a pay-off top; a seat
        holds at most as many of them as it drew since, less those it played. The cards are
        placed most constrained first, each class uniformly among the free places it may
        take, which makes every placement equally likely; a re-deal that breaks a draw-count
        limit is drawn again. The copy's random stream comes from ``seed`` and its record of
        the deal is cleared.
        """
        api.check_seat(seat, self.num_players)
        api.check_seed(seed)
        rng = Rng(seed)
        new = state.clone()
        new.rng = Rng(rng.next_u64())
        new.deck_order = ()
        if state.over:
            return new
        plan = _Redeal(state, seat)
        for attempt in range(MAX_REDEALS):
            places = plan.deal(rng)
            if plan.within_limits(places) or attempt == MAX_REDEALS - 1:
                break
        plan.write(new, places)
        return new


class _Redeal:
    """The hidden places of a state as seen by one seat, and the classes of its hidden cards."""

    def __init__(self, st: State, seat: int) -> None:
        p = st.options.num_players
        self.state = st
        self.seat = seat
        # places: ("pay", k, i) below pay-off k's top, ("hand", k, i), ("stock", 0, i)
        self.zones: list[tuple[str, int]] = [("pay", k) for k in range(p)]
        self.zones += [("hand", k) for k in range(p) if k != seat]
        self.zones.append(("stock", 0))
        self.sizes = [max(len(st.payoffs[k]) - 1, 0) for k in range(p)]
        self.sizes += [len(st.hands[k]) for k in range(p) if k != seat]
        self.sizes.append(len(st.stock))
        hidden = [c for k in range(p) for c in st.payoffs[k][:-1]]
        hidden += [c for k in range(p) if k != seat for c in st.hands[k]]
        hidden += st.stock
        entry_of = st.entry_of
        pinned = {c: k for k in range(p) for c in st.pinned[k]}
        n_entries = len(st.entries)
        self.classes: list[list[int]] = [[] for _ in range(n_entries + 1)]
        self.pinned: list[list[int]] = [[] for _ in range(p)]
        for c in sorted(hidden):
            if c in pinned and c in st.payoffs[pinned[c]]:
                self.pinned[pinned[c]].append(c)
            else:
                self.classes[entry_of.get(c, 0)].append(c)
        # who drew from the stock since each entry (the zones its cards may be in)
        self.draws_since = [
            [st.drawn[k] - st.entry_draws[j][k] for k in range(p)] for j in range(n_entries)
        ]
        self.hand_zone = {k: i for i, (kind, k) in enumerate(self.zones) if kind == "hand"}

    def deal(self, rng: Rng) -> list[list[int]]:
        """One placement obeying the placement rules, uniformly: a card list per zone."""
        places: list[list[int | None]] = [[None] * n for n in self.sizes]
        for k, cards in enumerate(self.pinned):
            _fill(rng, cards, [(k, i) for i in range(self.sizes[k])], places)
        stock = len(self.zones) - 1
        for j in range(len(self.classes) - 1, 0, -1):
            drew = self.draws_since[j - 1]
            zones = [stock] + [z for k, z in self.hand_zone.items() if drew[k] > 0]
            free = [(z, i) for z in zones for i, x in enumerate(places[z]) if x is None]
            _fill(rng, self.classes[j], free, places)
        free = [(z, i) for z, zone in enumerate(places) for i, x in enumerate(zone) if x is None]
        _fill(rng, self.classes[0], free, places)
        return places  # type: ignore[return-value]

    def within_limits(self, places: list[list[int]]) -> bool:
        """Whether every seat holds at most as many re-entered cards of entries >= j as it drew
        since entry j, less the re-entered cards it played from its hand since."""
        st = self.state
        for k, z in self.hand_zone.items():
            held = sorted((st.entry_of.get(c, 0) for c in places[z]), reverse=True)
            played = st.played[k]
            for j, drew in enumerate(self.draws_since, start=1):
                n_held = sum(1 for e in held if e >= j)
                n_played = sum(1 for e in played if e >= j)
                if n_held + n_played > drew[k]:
                    return False
        return True

    def write(self, new: State, places: list[list[int]]) -> None:
        for z, (kind, k) in enumerate(self.zones):
            if kind == "pay":
                if new.payoffs[k]:
                    new.payoffs[k] = places[z] + new.payoffs[k][-1:]
            elif kind == "hand":
                new.hands[k] = places[z]
            else:
                new.stock = places[z]


def _fill(
    rng: Rng, cards: list[int], free: list[tuple[int, int]], places: list[list[int | None]]
) -> None:
    """Puts ``cards`` on a uniformly random choice of the ``free`` places (in random order)."""
    if not cards:
        return
    order = rng.permutation(len(free))
    for card, i in zip(cards, order, strict=False):
        z, at = free[i]
        places[z][at] = card


# -- validation of a state read from JSON ------------------------------------------------------


def _pairs(x: object) -> list[tuple[Any, Any]]:
    if not isinstance(x, list) or not all(isinstance(e, list) and len(e) == 2 for e in x):
        raise StateFormatError("expected a list of [seat, move] pairs")
    return [(e[0], e[1]) for e in x]


class _Seen:
    """What :meth:`State.observation` shows, under its names, without copying the piles (the
    tensor reads it; building the observation's tuples would cost as much as the tensor)."""

    __slots__ = (
        "center",
        "hand",
        "hand_sizes",
        "payoff_counts",
        "payoff_tops",
        "seat",
        "side_stacks",
        "stock_count",
        "turn",
        "used_count",
    )

    def __init__(self, st: State, seat: int) -> None:
        self.seat = seat
        self.hand = st.hands[seat]
        self.hand_sizes = [len(h) for h in st.hands]
        self.payoff_tops = [p[-1] if p else None for p in st.payoffs]
        self.payoff_counts = [len(p) for p in st.payoffs]
        self.side_stacks = st.sides
        self.center = st.center
        self.stock_count = len(st.stock)
        self.used_count = len(st.used)
        self.turn = st.turn


def _check_state(st: State) -> None:
    """The invariants the engine relies on; a tampered document fails here, not later."""
    o = st.options
    cards = list(st.stock) + st.used
    for pile in (*st.payoffs, *st.hands, *st.center):
        cards += pile
    for sides in st.sides:
        for side in sides:
            cards += side
    if not is_permutation(cards, o.total_cards):
        raise StateFormatError("the piles do not hold every card once")
    if st.deck_order and not is_permutation(st.deck_order, o.total_cards):
        raise StateFormatError("the recorded deck order is not a permutation of the cards")
    if any(len(h) > o.hand_size for h in st.hands):
        raise StateFormatError("a hand holds more cards than a full hand")
    center = st.center
    if o.center_limit:
        if len(center) != o.center_limit:
            raise StateFormatError(f"{len(center)} centre slots, the options say {o.center_limit}")
    elif not center or center[-1] or not all(center[:-1]) or len(center) > o.max_center_slots:
        raise StateFormatError("unlimited centre stacks: the stacks in play, then one free slot")
    for i, stack in enumerate(center):
        if len(stack) >= o.top_rank or any(not st._fits(card, at) for at, card in enumerate(stack)):
            raise StateFormatError(f"centre stack C{i + 1} is not a legal stack")
    if not st.over and (st.winner is not None or any(st.scores)):
        raise StateFormatError("a winner or scores before the game is over")
    if st.winner is not None and st.payoffs[st.winner]:
        raise StateFormatError("the winner still has pay-off cards")
    if not st.over and not st.hands[st.current] and st.stock:
        raise StateFormatError("the seat to play has an empty hand and the stock is not empty")
    if any(d[k] > st.drawn[k] for d in st.entry_draws for k in range(len(st.drawn))):
        raise StateFormatError("a draw count at an entry exceeds the current one")


reference_game = game_for
