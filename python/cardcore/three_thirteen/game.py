"""Three-Thirteen as a :class:`cardcore.games.api.Game`: action ids, the observation tensor, JSON
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
from cardcore.errors import IllegalMoveError, OptionError, StateFormatError
from cardcore.games import api
from cardcore.games.codec import codec
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
    Observation,
    Options,
    State,
    action_table,
    discard_move,
    face_table,
    parse_move,
)
from cardcore.three_thirteen.state import native_rules

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["ThreeThirteenGame", "game_for", "rl_rules"]

FACES: Final = _core.THREE_THIRTEEN_FACES
"""Faces in tensors and action ids: the 52 naturals (face codes) and one for every joker."""
_PHASES: Final = (PHASE_DRAW, PHASE_DISCARD, "over")


@lru_cache(maxsize=64)
def game_for(options: Options) -> ThreeThirteenGame:
    """The (shared) game of ``options``."""
    return ThreeThirteenGame(options)


def rl_rules(game: object) -> _core.ThreeThirteenRules:
    """The rulebook's rules of ``game`` for the RL engines (``NativeRl.rules``)."""
    if not isinstance(game, ThreeThirteenGame):
        raise OptionError(f"not a {ThreeThirteenGame.name} game: {game!r}")
    return native_rules(game.rules)


class ThreeThirteenGame(api.Game[Move]):
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

    def resample_hidden(self, state: State, seat: int, seed: int) -> State:
        """``state.resample_hidden(seat, seed)``: see ``docs/embedding.md``."""
        return state.resample_hidden(seat, seed)

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
        import numpy as np

        return np.frombuffer(state._s.observation_tensor(seat), dtype=np.float32)

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
        o = st.observation(seat)
        enc = self._codec.encode
        texts = self._codec.texts
        own = self._own_fields(o, st.is_over)
        return {
            "round": o.round,
            "wild_rank": o.wild_rank,
            "dealer": o.dealer,
            "current_player": st.current_player,
            "phase": o.phase,
            "hand": own["hand"],
            "drawn": own["drawn"],
            "drawn_from_discard": own["drawn_from_discard"],
            "discard_pile": enc(o.discard_pile),
            "stock_size": o.stock_size,
            "hand_sizes": list(o.hand_sizes),
            "taken": [enc(t) for t in o.taken],
            "discards": [[s, texts[c]] for s, c in o.discards],
            "out_seat": o.out_seat,
            "own_turns": own["own_turns"],
            "turn_in_round": o.turn_in_round,
            "totals": list(o.totals),
            "round_scores": st.round_scores,
            "went_out": st.went_out,
        }

    def _seat_fields(self, state: State, seat: int) -> dict[str, Any]:
        # read from the state's own fields: a whole observation also builds the public piles
        # and the discard history, which the other seats' documents already hold
        drawn = state.drawn if seat == state.current else None
        mine = not state.is_over and drawn is not None
        return {
            "hand": self._codec.encode(state.hands[seat]),
            "drawn": self._codec.text(drawn) if mine else None,  # type: ignore[arg-type]
            "drawn_from_discard": mine and state.drawn_from_discard,
            "own_turns": state.own_turns[seat],
        }

    def _own_fields(self, o: Observation, over: bool) -> dict[str, Any]:
        """The members of a seat's observation document that only that seat sees."""
        mine = not over and o.drawn is not None
        return {
            "hand": self._codec.encode(o.hand),
            "drawn": self._codec.text(o.drawn) if mine else None,  # type: ignore[arg-type]
            "drawn_from_discard": mine and o.drawn_from_discard,
            "own_turns": o.own_turns,
        }

    def _observation_from_body(self, seat: int, b: Mapping[str, Any]) -> Observation:
        o = self.rules
        c = self._codec
        p = self.num_players
        big = 1 << 31
        drawn = b["drawn"]
        rnd = api.read_int(b["round"], 1, NUM_ROUNDS)
        obs = Observation(
            seat=seat,
            num_players=p,
            round=rnd,
            cards_dealt=rnd + 2,
            wild_rank=api.read_int(b["wild_rank"], rnd + 2, rnd + 2),
            dealer=api.read_seat(b["dealer"], p),  # type: ignore[arg-type]
            phase=api.read_choice(b["phase"], _PHASES),
            hand=tuple(c.decode(b["hand"])),
            drawn=None if drawn is None else c.card(drawn),
            drawn_from_discard=api.read_bool(b["drawn_from_discard"]),
            discard_pile=tuple(c.decode(b["discard_pile"])),
            stock_size=api.read_int(b["stock_size"], 0, c.size),
            hand_sizes=tuple(api.read_int(n, 0, 14) for n in api.read_list(b["hand_sizes"], p)),
            taken=tuple(tuple(t) for t in c.decode_piles(b["taken"], p)),
            discards=tuple(_seat_card(x, p, c.card) for x in api.read_items(b["discards"])),
            out_seat=api.read_seat(b["out_seat"], p, nullable=True),
            own_turns=api.read_int(b["own_turns"], 0, big),
            turn_in_round=api.read_int(b["turn_in_round"], 0, big),
            totals=tuple(api.read_int(t, 0, big) for t in api.read_list(b["totals"], p)),
            num_decks=o.num_decks,
            jokers=o.jokers,
            rules=o.meld_rules,
            face_of=face_table(o.num_decks, o.jokers),
            forbid_return_of_discard_draw=o.forbid_return_of_discard_draw,
            min_own_turns_before_out=o.min_own_turns_before_out,
        )
        _check_observation(obs, api.read_seat(b["current_player"], p, nullable=True), c.size)
        return obs

    # -- the whole state as JSON -------------------------------------------------------------

    def _state_body(self, state: State) -> dict[str, Any]:
        x = state.parts()
        c = self._codec
        enc = c.encode
        texts = self._code_texts
        drawn = x["drawn"]
        body: dict[str, Any] = {
            "seed": x["seed"],
            "rng": [f"{w:016x}" for w in x["rng"]],
            "first_dealer": x["first_dealer"],
            "dealer": x["dealer"],
            "round": x["round"],
            "current": x["current"],
            "phase": x["phase"],
            "drawn": None if drawn is None else c.text(drawn),
            "drawn_from_discard": x["drawn_from_discard"],
            "hands": [enc(h) for h in x["hands"]],
            "stock": enc(x["stock"]),
            "discard_pile": enc(x["discard_pile"]),
            "upcard": c.text(x["upcard"]),
            "discards": [[s, c.text(d)] for s, d in x["discards"]],
            "taken": [enc(t) for t in x["taken"]],
            "own_turns": x["own_turns"],
            "turn_in_round": x["turn_in_round"],
            "out_seat": x["out_seat"],
            "final_left": x["final_left"],
            "totals": x["totals"],
            "round_scores": x["round_scores"],
            "went_out": x["went_out"],
            "over": x["phase"] == "over",
            "history": {
                "decks": [enc(d) for d in x["deck_orders"]],
                "moves": [[[s, texts[code]] for s, code in log] for log in x["move_log"]],
                "rebuilds": [[enc(r) for r in rs] for rs in x["rebuilds"]],
            },
        }
        if x["stacked"]:
            body["stacked"] = {str(k): enc(v) for k, v in sorted(x["stacked"])}
        return body

    def _state_from_body(self, body: Mapping[str, Any]) -> State:
        o = self.rules
        p = self.num_players
        c = self._codec
        big = 1 << 31
        phase = api.read_choice(body["phase"], _PHASES)
        if api.read_bool(body["over"]) != (phase == "over"):
            raise StateFormatError("'over' and 'phase' disagree")
        drawn = body["drawn"]
        history = body["history"]
        codes = self._codes
        stacked = body.get("stacked", {})
        if not isinstance(stacked, Mapping):
            raise StateFormatError(f"expected an object of stacked decks, got {stacked!r}")
        parts = {
            "seed": api.read_int(body["seed"], 0, (1 << 64) - 1),
            "rng": api.rng_from_words(body["rng"]).state,
            "first_dealer": api.read_seat(body["first_dealer"], p),
            "dealer": api.read_seat(body["dealer"], p),
            "round": api.read_int(body["round"], 1, NUM_ROUNDS),
            "current": api.read_seat(body["current"], p),
            "phase": phase,
            "drawn": None if drawn is None else c.card(drawn),
            "drawn_from_discard": api.read_bool(body["drawn_from_discard"]),
            "hands": c.decode_piles(body["hands"], p),
            "stock": c.decode(body["stock"]),
            "discard_pile": c.decode(body["discard_pile"]),
            "upcard": c.card(body["upcard"]),
            "discards": [_seat_card(x, p, c.card) for x in api.read_items(body["discards"])],
            "taken": c.decode_piles(body["taken"], p),
            "own_turns": [api.read_int(n, 0, big) for n in api.read_list(body["own_turns"], p)],
            "turn_in_round": api.read_int(body["turn_in_round"], 0, big),
            "out_seat": api.read_seat(body["out_seat"], p, nullable=True),
            "final_left": api.read_int(body["final_left"], 0, p - 1),
            "totals": [api.read_int(t, 0, big) for t in api.read_list(body["totals"], p)],
            "round_scores": [
                [api.read_int(x, 0, big) for x in api.read_list(r, p)]
                for r in api.read_items(body["round_scores"])
            ],
            "went_out": [
                api.read_seat(s, p, nullable=True) for s in api.read_items(body["went_out"])
            ],
            "deck_orders": c.decode_piles(history["decks"]),
            "move_log": [
                [_seat_code(x, p, codes) for x in api.read_items(log)]
                for log in api.read_items(history["moves"])
            ],
            "rebuilds": [c.decode_piles(r) for r in api.read_items(history["rebuilds"])],
            "stacked": [
                (api.read_int(_int_text(k), 1, NUM_ROUNDS), c.decode(v)) for k, v in stacked.items()
            ],
        }
        inner = _core.tt_from_parts(native_rules(o), parts)
        return State._wrap(o, inner, self)


def _seat_card(x: object, players: int, card: Any) -> tuple[int, int]:
    """A ``[seat, card text]`` pair of a document."""
    pair = api.read_list(x, 2)
    return api.read_seat(pair[0], players), card(pair[1])  # type: ignore[return-value]


def _seat_code(x: object, players: int, codes: Mapping[str, int]) -> tuple[int, int]:
    """A ``[seat, move text]`` pair of a document's move history."""
    pair = api.read_list(x, 2)
    code = codes.get(pair[1]) if isinstance(pair[1], str) else None
    if code is None:
        raise StateFormatError(f"not a move of this game: {pair[1]!r}")
    return api.read_seat(pair[0], players), code  # type: ignore[return-value]


def _int_text(k: object) -> int:
    """A round number written as a JSON object key."""
    if not isinstance(k, str) or not k.isdigit() or not k.isascii():
        raise StateFormatError(f"not a round number: {k!r}")
    return int(k)


def _check_observation(o: Observation, to_move: int | None, total: int) -> None:
    """What an observation must hold to be one a game can show (the cards it shows add up,
    its hand fits the round and the phase): :class:`StateFormatError` naming the field."""
    n = o.round + 2
    mine = to_move == o.seat and o.phase == PHASE_DISCARD
    if (to_move is None) != (o.phase == "over"):
        raise StateFormatError("'current_player' and 'phase' disagree")
    if len(o.hand) != n + mine or o.hand_sizes[o.seat] != len(o.hand):
        raise StateFormatError(f"'hand' holds {len(o.hand)} cards in round {o.round}")
    if len(set(o.hand) | set(o.discard_pile)) != len(o.hand) + len(o.discard_pile):
        raise StateFormatError("a card is both in 'hand' and 'discard_pile' (or twice)")
    if mine and (o.drawn is None or o.drawn not in o.hand):
        raise StateFormatError("'drawn' is not a card of the hand")
    if o.phase == PHASE_DRAW and not o.discard_pile:
        raise StateFormatError("'discard_pile' is empty at the start of a turn")
    if sum(o.hand_sizes) + len(o.discard_pile) + o.stock_size != total:
        raise StateFormatError("'hand_sizes', 'discard_pile' and 'stock_size' do not add up")
    for s, t in enumerate(o.taken):
        held = set(o.hand) if s == o.seat else None
        if len(t) > o.hand_sizes[s] or len(set(t)) != len(t) or (held and not set(t) <= held):
            raise StateFormatError(f"seat {s}'s 'taken' cards cannot be in its hand")
