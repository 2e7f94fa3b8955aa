"""THE ORACLE (tests only): the Python Three-Thirteen game of 0.4.0 over the Python engine in
``tt_reference_state.py``, kept to check the Rust rulebook against. Three-Thirteen as a
:class:`cardcore.games.api.Game`: action ids, the observation tensor, JSON
and the re-deal of hidden cards (layouts and a worked example in ``docs/embedding.md``).

Actions: ``0`` draw from the stock, ``1`` draw the discard-pile top, ``2 + f`` discard a card of
face ``f`` (face codes 0..51, ``52`` any joker); 54 ids, 55 with jokers.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from cardcore import _core
from cardcore.cards import JOKER0, NATURALS
from cardcore.errors import IllegalMoveError, StateFormatError
from cardcore.games import api
from cardcore.games.codec import codec, is_permutation
from cardcore.rng import Rng
from cardcore.three_thirteen.rules import (
    ACTION_DISCARD,
    ACTION_DRAW_DISCARD,
    ACTION_DRAW_STOCK,
    DRAW_DISCARD,
    DRAW_STOCK,
    NUM_ROUNDS,
    PHASE_DISCARD,
    PHASE_DRAW,
    Discard,
    DrawDiscard,
    DrawStock,
    Move,
    Options,
    action_table,
    discard_move,
    face_table,
    parse_move,
)
from tt_reference_state import Observation, State

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["ReferenceGame", "reference_game"]

FACES: Final = _core.THREE_THIRTEEN_FACES
"""Faces in tensors and action ids: the 52 naturals (face codes) and one for every joker."""
_PHASES: Final = (PHASE_DRAW, PHASE_DISCARD, "over")


@lru_cache(maxsize=64)
def reference_game(options: Options) -> ReferenceGame:
    """The (shared) game of ``options``."""
    return ReferenceGame(options)


class ReferenceGame(api.Game[Move]):
    """Three-Thirteen Rummy for fixed options (build with ``load_game("three-thirteen")``)."""

    name = "three-thirteen"

    def __init__(self, options: Options) -> None:
        self.rules = options
        p = options.num_players
        self.num_players = p
        self.options = {"players": p, **options.as_dict()}
        self.num_actions = ACTION_DISCARD + NATURALS + (1 if options.jokers else 0)
        self._act = action_table(options.num_decks, options.jokers)
        self._face = bytes(min(f, JOKER0) for f in face_table(options.num_decks, options.jokers))
        self._codec = codec(options.num_decks, options.jokers)
        naturals = NATURALS * options.num_decks
        # the canonical card of each discard action: the lowest copy of its face
        self._canonical = [*range(NATURALS), naturals] if options.jokers else list(range(NATURALS))
        self._code_texts = {-1: str(DRAW_STOCK), -2: str(DRAW_DISCARD)}
        self._code_texts.update((i, f"discard {t}") for i, t in enumerate(self._codec.texts))
        self._codes = {t: code for code, t in self._code_texts.items()}
        segments = [
            ("hand", FACES),
            ("drawn", FACES),
            ("discard_top", FACES),
            ("discard_pile", FACES),
            ("taken", (p - 1) * FACES),
            ("discarded", p * FACES),
            ("wild_rank", 13),
            ("phase", 2),
            ("to_move", p),
            ("dealer", p),
            ("went_out", p),
            ("hand_sizes", p),
            ("totals", p),
            ("stock_size", 1),
            ("round", 1),
            ("own_turns", 1),
            ("turn_in_round", 1),
            ("drawn_from_discard", 1),
        ]
        self._lay_out(segments)

    # -- moves and actions -------------------------------------------------------------------

    def new_state(self, seed: int) -> State:
        st = State(self.rules, seed)
        st._game = self
        return st

    def action_to_move(self, action: int) -> Move:
        action = api.checked_action(self, action)
        if action == ACTION_DRAW_STOCK:
            return DRAW_STOCK
        if action == ACTION_DRAW_DISCARD:
            return DRAW_DISCARD
        return discard_move(self._canonical[action - ACTION_DISCARD])

    def move_to_action(self, move: Move) -> int:
        t = type(move)
        if t is DrawStock:
            return ACTION_DRAW_STOCK
        if t is DrawDiscard:
            return ACTION_DRAW_DISCARD
        if t is Discard:
            cid = move.card_id  # type: ignore[union-attr]
            if type(cid) is int and 0 <= cid < self._codec.size:
                return self._act[cid]
        raise IllegalMoveError(f"not a move of this three-thirteen game: {move!r}")

    def parse_move(self, text: str) -> Move:
        move = parse_move(text, self.rules.num_decks)
        self.move_to_action(move)  # a card of this game
        return move

    def move_text(self, move: Move) -> str:
        self.move_to_action(move)
        if type(move) is Discard:
            return f"discard {self._codec.text(move.card_id)}"
        return str(move)

    # -- observation -------------------------------------------------------------------------

    def _observation_tensor(self, state: State, seat: int) -> NDArray[np.float32]:
        return self._tensor(_Seen(state, seat), state.current_player)  # type: ignore[arg-type]

    def observation_tensor_of(self, observation: Observation) -> NDArray[np.float32]:
        """The tensor of an observation an agent received (its seat is the one to play)."""
        o = observation
        return self._tensor(o, None if o.phase == "over" else o.seat)

    def _tensor(self, o: Observation, to_move: int | None) -> NDArray[np.float32]:
        """The tensor of ``o`` when ``to_move`` is the seat to play (None: the game is over)."""
        seat = o.seat
        p = self.num_players
        at = self._at
        face = self._face
        idx: list[int] = []
        base = at["hand"]
        idx += [base + f for f in bytes(o.hand).translate(face)]
        mine = to_move == seat
        if mine and o.phase == PHASE_DISCARD and o.drawn is not None:
            idx.append(at["drawn"] + face[o.drawn])
        pile = o.discard_pile
        if pile:
            idx.append(at["discard_top"] + face[pile[-1]])
            base = at["discard_pile"]
            idx += [base + f for f in bytes(pile).translate(face)]
        for r in range(1, p):
            base = at["taken"] + (r - 1) * FACES
            idx += [base + f for f in bytes(o.taken[(seat + r) % p]).translate(face)]
        base = at["discarded"]
        idx += [base + (s - seat) % p * FACES + face[c] for s, c in o.discards]
        idx.append(at["wild_rank"] + o.wild_rank - 1)
        if to_move is not None:
            idx.append(at["phase"] + (o.phase == PHASE_DISCARD))
            idx.append(at["to_move"] + (to_move - seat) % p)
        idx.append(at["dealer"] + (o.dealer - seat) % p)
        if o.out_seat is not None:
            idx.append(at["went_out"] + (o.out_seat - seat) % p)
        import numpy as np

        out = np.bincount(idx, minlength=self.observation_shape[0]).astype(np.float32)
        order = [(seat + r) % p for r in range(p)]
        sizes, totals = o.hand_sizes, o.totals
        base = at["hand_sizes"]
        out[base : base + p] = [sizes[k] for k in order]
        base = at["totals"]
        out[base : base + p] = [totals[k] for k in order]
        base = at["stock_size"]
        out[base : base + 5] = (
            o.stock_size,
            o.round,
            o.own_turns,
            o.turn_in_round,
            1.0 if mine and o.drawn_from_discard else 0.0,
        )
        return out

    def _observation_body(self, state: State, seat: int) -> dict[str, Any]:
        st = state
        enc = self._codec.encode
        text = self._codec.text
        own = self._seat_fields(state, seat)
        return {
            "round": st.round,
            "wild_rank": st.wild_rank,
            "dealer": st.dealer,
            "current_player": st.current_player,
            "phase": st.phase,
            "hand": own["hand"],
            "drawn": own["drawn"],
            "drawn_from_discard": own["drawn_from_discard"],
            "discard_pile": enc(st.discard_pile),
            "stock_size": len(st.stock),
            "hand_sizes": [len(h) for h in st.hands],
            "taken": [enc(t) for t in st.taken],
            "discards": [[s, text(c)] for s, c in st.discards],
            "out_seat": st.out_seat,
            "own_turns": own["own_turns"],
            "turn_in_round": st.turn_in_round,
            "totals": list(st.totals),
            "round_scores": [list(r) for r in st.round_scores],
            "went_out": list(st.went_out),
        }

    def _seat_fields(self, state: State, seat: int) -> dict[str, Any]:
        st = state
        mine = st.current == seat and not st.over
        return {
            "hand": self._codec.encode(st.hands[seat]),
            "drawn": self._codec.text(st.drawn) if mine and st.drawn is not None else None,
            "drawn_from_discard": bool(mine and st.drawn_from_discard),
            "own_turns": st.own_turns[seat],
        }

    def _observation_from_body(self, seat: int, b: Mapping[str, Any]) -> Observation:
        o = self.rules
        c = self._codec
        drawn = b["drawn"]
        return Observation(
            seat=seat,
            num_players=self.num_players,
            round=api.read_int(b["round"], 1, NUM_ROUNDS),
            cards_dealt=int(b["round"]) + 2,
            wild_rank=api.read_int(b["wild_rank"], 3, 13),
            dealer=api.check_seat(b["dealer"], self.num_players),
            phase=api.read_choice(b["phase"], _PHASES),
            hand=tuple(c.decode(b["hand"])),
            drawn=None if drawn is None else c.card(drawn),
            drawn_from_discard=bool(b["drawn_from_discard"]),
            discard_pile=tuple(c.decode(b["discard_pile"])),
            stock_size=api.read_int(b["stock_size"], 0, c.size),
            hand_sizes=tuple(api.read_int(n, 0, 14) for n in b["hand_sizes"]),
            taken=tuple(tuple(t) for t in c.decode_piles(b["taken"], self.num_players)),
            discards=tuple(
                (api.check_seat(s, self.num_players), c.card(x)) for s, x in b["discards"]
            ),
            out_seat=api.read_seat(b["out_seat"], self.num_players, nullable=True),
            own_turns=api.read_int(b["own_turns"], 0, 1 << 31),
            turn_in_round=api.read_int(b["turn_in_round"], 0, 1 << 31),
            totals=tuple(api.read_int(t, 0, 1 << 31) for t in b["totals"]),
            num_decks=o.num_decks,
            jokers=o.jokers,
            rules=o.meld_rules,
            face_of=face_table(o.num_decks, o.jokers),
            forbid_return_of_discard_draw=o.forbid_return_of_discard_draw,
            min_own_turns_before_out=o.min_own_turns_before_out,
        )

    # -- the whole state as JSON -------------------------------------------------------------

    def _state_body(self, state: State) -> dict[str, Any]:
        st = state
        c = self._codec
        enc = c.encode
        texts = self._code_texts
        body: dict[str, Any] = {
            "seed": st.seed,
            "rng": api.rng_words(st._rng),
            "first_dealer": st.first_dealer,
            "dealer": st.dealer,
            "round": st.round,
            "current": st.current,
            "phase": st.phase,
            "drawn": None if st.drawn is None else c.text(st.drawn),
            "drawn_from_discard": st.drawn_from_discard,
            "hands": [enc(h) for h in st.hands],
            "stock": enc(st.stock),
            "discard_pile": enc(st.discard_pile),
            "upcard": c.text(st.upcard),
            "discards": [[s, c.text(x)] for s, x in st.discards],
            "taken": [enc(t) for t in st.taken],
            "own_turns": list(st.own_turns),
            "turn_in_round": st.turn_in_round,
            "out_seat": st.out_seat,
            "final_left": st.final_left,
            "totals": list(st.totals),
            "round_scores": [list(r) for r in st.round_scores],
            "went_out": list(st.went_out),
            "over": st.over,
            "history": {
                "decks": [enc(d) for d in st.deck_orders],
                "moves": [[[s, texts[code]] for s, code in log] for log in st.move_log],
                "rebuilds": [[enc(x) for x in r] for r in st.rebuilds],
            },
        }
        if st._stacked:
            body["stacked"] = {str(k): enc(v) for k, v in sorted(st._stacked.items())}
        return body

    def _state_from_body(self, body: Mapping[str, Any]) -> State:
        o = self.rules
        p = self.num_players
        c = self._codec
        st = State.__new__(State)
        st.options = o
        st.num_players = p
        st.num_decks = o.num_decks
        st.rules = o.meld_rules
        st.face_of = face_table(o.num_decks, o.jokers)
        st._act = self._act
        st._game = self
        st._resample_cache = None
        st._taken_t = None
        st.seed = api.read_int(body["seed"], 0, (1 << 64) - 1)
        st._rng = api.rng_from_words(body["rng"])
        st.first_dealer = api.check_seat(body["first_dealer"], p)
        st.dealer = api.check_seat(body["dealer"], p)
        st.round = api.read_int(body["round"], 1, NUM_ROUNDS)
        st.wild_rank = st.round + 2
        st.current = api.check_seat(body["current"], p)
        st.phase = api.read_choice(body["phase"], _PHASES)
        st.over = body["over"] is True
        if st.over != (st.phase == "over"):
            raise StateFormatError("'over' and 'phase' disagree")
        drawn = body["drawn"]
        st.drawn = None if drawn is None else c.card(drawn)
        st.drawn_from_discard = body["drawn_from_discard"] is True
        st.hands = [sorted(h) for h in c.decode_piles(body["hands"], p)]
        st.stock = c.decode(body["stock"])
        st.discard_pile = c.decode(body["discard_pile"])
        st.upcard = c.card(body["upcard"])
        st.discards = [(api.check_seat(s, p), c.card(x)) for s, x in body["discards"]]
        st.taken = c.decode_piles(body["taken"], p)
        st.own_turns = [api.read_int(n, 0, 1 << 31) for n in api.read_list(body["own_turns"], p)]
        st.turn_in_round = api.read_int(body["turn_in_round"], 0, 1 << 31)
        st.out_seat = api.read_seat(body["out_seat"], p, nullable=True)
        st.final_left = api.read_int(body["final_left"], 0, p)
        st.totals = [api.read_int(t, 0, 1 << 31) for t in api.read_list(body["totals"], p)]
        st.round_scores = [
            [api.read_int(x, 0, 1 << 31) for x in api.read_list(r, p)] for r in body["round_scores"]
        ]
        st.went_out = [api.read_seat(s, p, nullable=True) for s in body["went_out"]]
        history = body["history"]
        st.deck_orders = c.decode_piles(history["decks"])
        codes = self._codes
        st.move_log = [
            [(api.check_seat(s, p), codes[m]) for s, m in log] for log in history["moves"]
        ]
        st.rebuilds = [c.decode_piles(r) for r in history["rebuilds"]]
        st._stacked = {
            api.read_int(int(k), 1, NUM_ROUNDS): c.decode(v)
            for k, v in body.get("stacked", {}).items()
        }
        _check_state(st)
        return st

    # -- hidden information ------------------------------------------------------------------

    def resample_hidden(self, state: State, seat: int, seed: int) -> State:
        """A copy of ``state`` in which every card ``seat`` has not seen is re-dealt.

        The seat's hand, the discard pile and the pile cards each opponent took (and still
        holds) stay. The others are the *unseen* cards, in classes by when they were last
        hidden: at the deal, or in the latest stock rebuild that took them. Each opponent
        holds exactly as many cards of each class as it drew (less those it discarded) and
        the stock holds only cards of the newest class, so each class is shuffled and dealt
        back to the same places; the deck stream of later rounds is a new one from ``seed``.
        The copy's record of past deck orders is cleared (it would show hidden cards).
        """
        api.check_seat(seat, self.num_players)
        api.check_seed(seed)
        rng = Rng(seed)
        new = state.clone()
        new._rng = Rng(rng.next_u64())
        new._stacked = {}
        new._resample_cache = None
        new.deck_orders = [[] for _ in state.deck_orders]
        new.rebuilds = [[sorted(x) for x in r] for r in state.rebuilds]
        if state.over:
            return new
        pools, counts, stock_class = _hidden_classes(state, seat)
        # a seat that drew an unseen card from the stock this turn holds it as `drawn`
        drew_unseen = -1
        if state.phase == PHASE_DISCARD and not state.drawn_from_discard and state.current != seat:
            drew_unseen = state.current
        hands = [list(t) for t in state.taken]
        hands[seat] = list(state.hands[seat])
        stock: list[int] = []
        for cls, pool in enumerate(pools):
            if not pool:
                continue
            order = rng.permutation(len(pool))
            at = 0
            for k, per_class in enumerate(counts):
                n = per_class[cls] if cls < len(per_class) else 0
                if n:
                    if k == drew_unseen and cls == stock_class:
                        new.drawn = pool[order[at]]  # the card it just drew, at random
                    hands[k] += [pool[i] for i in order[at : at + n]]
                    at += n
            if cls == stock_class:
                stock = [pool[i] for i in order[at:]]
        for h in hands:
            h.sort()
        new.hands = hands
        new.stock = stock
        return new


def _hidden_classes(st: State, seat: int) -> tuple[list[list[int]], list[list[int]], int]:
    """The cards ``seat`` has not seen, by class (0: hidden since the deal; j: hidden by the
    j-th stock rebuild of the round), how many of each class every opponent holds, and the
    class of the stock. Only public information is read (the moves, the up-card and the
    rebuilt piles' card sets); the answer is cached on the state."""
    log = st.move_log[-1]
    rebuilds = st.rebuilds[-1]
    key = (seat, st.round, len(log), len(rebuilds))
    cached = st._resample_cache
    if cached is not None and cached[0] == key:
        return cached[1]  # type: ignore[no-any-return]
    p = st.num_players
    n = st.round + 2
    cls_of = [0] * st.options.total_cards
    counts = [[n] for _ in range(p)]
    pile = [st.upcard]
    taken: list[list[int]] = [[] for _ in range(p)]
    stock_size = st.options.total_cards - p * n - 1
    stock_class = 0
    rebuilt = 0
    for k, code in log:
        if code < 0 and stock_size == 0:  # the stock was rebuilt at the start of this turn
            stock_class = rebuilt = rebuilt + 1
            for c in rebuilds[rebuilt - 1]:
                cls_of[c] = stock_class
            stock_size = len(rebuilds[rebuilt - 1])
            pile = pile[-1:]
        if code == -1:
            stock_size -= 1
            counts[k] += [0] * (stock_class + 1 - len(counts[k]))
            counts[k][stock_class] += 1
        elif code == -2:
            taken[k].append(pile.pop())
        else:
            if code in taken[k]:
                taken[k].remove(code)
            else:
                counts[k][cls_of[code]] -= 1
            pile.append(code)
    if rebuilt < len(rebuilds):  # rebuilt after the last move, before the next draw
        stock_class = rebuilt + 1
        for c in rebuilds[rebuilt]:
            cls_of[c] = stock_class
    seen = set(st.hands[seat])
    seen.update(st.discard_pile)
    for k in range(p):
        seen.update(st.taken[k])
    pools: list[list[int]] = [[] for _ in range(stock_class + 1)]
    for c in range(st.options.total_cards):
        if c not in seen:
            pools[cls_of[c]].append(c)
    counts[seat] = []
    result = (pools, counts, stock_class)
    st._resample_cache = (key, result)
    return result


# -- validation of a state read from JSON ------------------------------------------------------


class _Seen:
    """What :meth:`State.observation` shows, under its names, without copying the piles (the
    tensor reads it; it shows the drawn card only to the seat to play)."""

    __slots__ = (
        "dealer",
        "discard_pile",
        "discards",
        "drawn",
        "drawn_from_discard",
        "hand",
        "hand_sizes",
        "out_seat",
        "own_turns",
        "phase",
        "round",
        "seat",
        "stock_size",
        "taken",
        "totals",
        "turn_in_round",
        "wild_rank",
    )

    def __init__(self, st: State, seat: int) -> None:
        self.seat = seat
        self.hand = st.hands[seat]
        self.phase = st.phase
        self.drawn = st.drawn
        self.drawn_from_discard = st.drawn_from_discard
        self.discard_pile = st.discard_pile
        self.taken = st.taken
        self.discards = st.discards
        self.wild_rank = st.wild_rank
        self.dealer = st.dealer
        self.out_seat = st.out_seat
        self.hand_sizes = [len(h) for h in st.hands]
        self.totals = st.totals
        self.stock_size = len(st.stock)
        self.round = st.round
        self.own_turns = st.own_turns[seat]
        self.turn_in_round = st.turn_in_round


def _check_state(st: State) -> None:
    """The invariants the engine relies on; a tampered document fails here, not later."""
    o = st.options
    n = st.round + 2
    cards = [c for h in st.hands for c in h] + st.stock + st.discard_pile
    if not is_permutation(cards, o.total_cards):
        raise StateFormatError("the hands, stock and discard pile do not hold every card once")
    for s, h in enumerate(st.hands):
        want = n + 1 if (s == st.current and st.phase == PHASE_DISCARD) else n
        if len(h) != want:
            raise StateFormatError(f"seat {s} holds {len(h)} cards, not {want}")
        if not set(st.taken[s]) <= set(h):
            raise StateFormatError(f"seat {s}'s taken cards are not in its hand")
    if st.phase == PHASE_DISCARD and (st.drawn is None or st.drawn not in st.hands[st.current]):
        raise StateFormatError("the drawn card is not in the hand of the seat to play")
    if st.phase == PHASE_DRAW and not st.discard_pile:
        raise StateFormatError("the discard pile is empty at the start of a turn")
    if not st.over and (st.out_seat is None) != (st.final_left == 0):
        raise StateFormatError("'final_left' and 'out_seat' disagree")
    if not (len(st.deck_orders) == len(st.move_log) == len(st.rebuilds) == st.round):
        raise StateFormatError("the history does not have one entry per round")
    if len(st.round_scores) != len(st.went_out) or len(st.round_scores) != st.round - (
        0 if st.over else 1
    ):
        raise StateFormatError("the round scores do not match the round")
    for d in st.deck_orders:
        if d and not is_permutation(d, o.total_cards):
            raise StateFormatError("a recorded deck order is not a permutation of the cards")
    for k, d in st._stacked.items():
        if not is_permutation(d, o.total_cards):
            raise StateFormatError(f"the stacked deck of round {k} is not a permutation")


game_for = reference_game  # the name EngineState looks up in GAME_MODULE
