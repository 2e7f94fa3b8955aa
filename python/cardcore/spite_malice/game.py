"""Spite & Malice as a :class:`cardcore.games.api.Game`: action ids, the observation tensor, JSON
and the re-deal of hidden cards (layouts and a worked example in ``docs/embedding.md``).

With ``C`` centre slots, ``S`` side stacks and ``F`` faces (52, or 53 when jokers are wild: all
jokers are one face), the actions are, in this order: the pay-off top to slot ``c`` (``C``
ids), side stack ``i``'s top to slot ``c`` (``S * C``), a hand card of face ``f`` to slot ``c``
(``F * C``), a hand card of face ``f`` onto side stack ``i`` (``F * S``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from cardcore import _core
from cardcore._core import SPITE_CENTER_ROWS
from cardcore.cards import JOKER0, NATURALS, face_of
from cardcore.errors import IllegalMoveError, OptionError, StateFormatError
from cardcore.games import api
from cardcore.games.codec import codec
from cardcore.spite_malice.moves import (
    Discard,
    Move,
    PlayHand,
    PlayPayOff,
    PlaySide,
    card_rank,
    move_text,
    parse_move,
)
from cardcore.spite_malice.options import Options
from cardcore.spite_malice.state import Observation, State, code_of, move_of, native_rules

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["SpiteMaliceGame", "game_for", "rl_rules"]

_PAYOFF, _SIDE, _HAND, _DISCARD = 0, 1, 2, 3
MAX_REDEALS: Final = 10_000
"""Attempts of the re-deal of hidden cards to meet every draw-count limit before it keeps a
re-deal that meets only the placement rules (the rulebook's ``resample::MAX_REDEALS``)."""


@lru_cache(maxsize=64)
def game_for(options: Options) -> SpiteMaliceGame:
    """The (shared) game of ``options``."""
    return SpiteMaliceGame(options)


def rl_rules(game: object) -> _core.SpiteMaliceRules:
    """The rulebook's rules of ``game`` for the RL engines (``NativeRl.rules``)."""
    if not isinstance(game, SpiteMaliceGame):
        raise OptionError(f"not a {SpiteMaliceGame.name} game: {game!r}")
    return native_rules(game.rules)


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
        inner = _core.sm_new(native_rules(self.rules), api.check_seed(seed))
        return State._wrap(self.rules, inner, self)

    def code_move(self, kind: int, x: int, y: int) -> Move:
        """The (shared) move of a rulebook code ``(kind, x, y)`` (see ``sm_apply_code``)."""
        if kind == _PAYOFF:
            return self._payoff_moves[y]
        if kind == _SIDE:
            return self._side_moves[x * self.slots + y]
        if kind in (_HAND, _DISCARD):
            return self.card_move(kind, x, y)
        return move_of(kind, x, y)

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
        import numpy as np

        return np.frombuffer(state._s.observation_tensor(seat), dtype=np.float32)

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
        enc = self._codec.encode
        text = self._codec.text
        o = state.observation(seat)
        return {
            "turn": o.turn,
            "current_player": state.current_player,
            "hand": enc(o.hand),
            "hand_sizes": list(o.hand_sizes),
            "payoff_tops": [None if t is None else text(t) for t in o.payoff_tops],
            "payoff_counts": list(o.payoff_counts),
            "side_stacks": [[enc(x) for x in sides] for sides in o.side_stacks],
            "center": [enc(c) for c in o.center],
            "stock_count": o.stock_count,
            "used_count": o.used_count,
            "winner": state.winner,
            "scores": state.scores,
            "end_reason": state.end_reason,
        }

    def _seat_fields(self, state: State, seat: int) -> dict[str, Any]:
        return {"hand": self._codec.encode(state.hands[seat])}

    def _observation_from_body(self, seat: int, b: Mapping[str, Any]) -> Observation:
        p = self.num_players
        c = self._codec
        current = b["current_player"]
        obs = Observation(
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
        _check_observation(obs, self.rules.hand_size, c.size)
        return obs

    # -- the whole state as JSON -------------------------------------------------------------

    def _state_body(self, state: State) -> dict[str, Any]:
        x = state.parts()
        enc = self._codec.encode
        decks = self.rules.decks
        return {
            "seed": x["seed"],
            "rng": [f"{w:016x}" for w in x["rng"]],
            "deck_order": enc(x["deck_order"]),
            "payoffs": [enc(y) for y in x["payoffs"]],
            "hands": [enc(y) for y in x["hands"]],
            "sides": [[enc(y) for y in sides] for sides in x["sides"]],
            "center": [enc(y) for y in x["center"]],
            "stock": enc(x["stock"]),
            "used": enc(x["used"]),
            "current": x["current"],
            "first_player": x["first_player"],
            "turn": x["turn"],
            "over": x["over"],
            "winner": x["winner"],
            "end_reason": x["end_reason"],
            "scores": x["scores"],
            "reshuffles": x["reshuffles"],
            "events": x["events"],
            "moves": [[s, move_text(self.code_move(k, a, b), decks)] for s, k, a, b in x["moves"]],
            "knowledge": {
                "pinned": [enc(y) for y in x["pinned"]],
                "entries": [enc(y) for y in x["entries"]],
                "entry_draws": x["entry_draws"],
                "drawn": x["drawn"],
                "played": x["played"],
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
        if not isinstance(know, Mapping):
            raise StateFormatError(f"'knowledge' is a mapping, not {know!r}")
        entries = c.decode_piles(know["entries"])
        moves = []
        for s, m in _pairs(body["moves"]):
            kind, x, y = code_of(self.parse_move(m))  # type: ignore[misc]
            moves.append((api.check_seat(s, p), kind, x, y))
        parts = {
            "seed": api.read_int(body["seed"], 0, (1 << 64) - 1),
            "rng": list(api.rng_from_words(body["rng"]).state),
            "deck_order": c.decode(body["deck_order"]),
            "payoffs": c.decode_piles(body["payoffs"], p),
            "hands": c.decode_piles(body["hands"], p),
            "sides": [c.decode_piles(x, n_sides) for x in api.read_list(body["sides"], p)],
            "center": c.decode_piles(body["center"]),
            "stock": c.decode(body["stock"]),
            "used": c.decode(body["used"]),
            "current": api.check_seat(body["current"], p),
            "first_player": api.check_seat(body["first_player"], p),
            "turn": api.read_int(body["turn"], 1, big),
            "over": api.read_bool(body["over"]),
            "winner": None if body["winner"] is None else api.check_seat(body["winner"], p),
            "end_reason": str(body["end_reason"]),
            "scores": [api.read_int(x, 0, big) for x in api.read_list(body["scores"], p)],
            "events": [str(e) for e in api.read_items(events)] if events is not None else None,
            "reshuffles": api.read_int(body["reshuffles"], 0, big),
            "moves": moves,
            "pinned": c.decode_piles(know["pinned"], p),
            "entries": entries,
            "entry_draws": [
                [api.read_int(x, 0, big) for x in api.read_list(d, p)]
                for d in api.read_list(know["entry_draws"], len(entries))
            ],
            "drawn": [api.read_int(x, 0, big) for x in api.read_list(know["drawn"], p)],
            "played": [
                [api.read_int(x, 1, len(entries)) for x in api.read_items(pl)]
                for pl in api.read_list(know["played"], p)
            ],
        }
        inner = _core.sm_from_parts(native_rules(o), parts)
        return State._wrap(o, inner, self)

    # -- hidden information ------------------------------------------------------------------

    def resample_hidden(self, state: State, seat: int, seed: int) -> State:
        """A copy of ``state`` in which every card ``seat`` has not seen is re-dealt (the
        rulebook's ``resample_hidden``: every hidden card re-dealt uniformly among the places
        the seat cannot tell apart, keeping what every seat knows; see ``docs/embedding.md``)."""
        return state.resample_hidden(seat, seed)


def _pairs(x: object) -> list[tuple[Any, Any]]:
    if not isinstance(x, list) or not all(isinstance(e, list) and len(e) == 2 for e in x):
        raise StateFormatError("expected a list of [seat, move] pairs")
    return [(e[0], e[1]) for e in x]


def _check_observation(o: Observation, hand_size: int, total: int) -> None:
    """What an observation must hold to be one a game can show (its hand is the size it says,
    every pile it counts adds up to the deck): :class:`StateFormatError` naming the field."""
    if len(o.hand) != o.hand_sizes[o.seat] or len(set(o.hand)) != len(o.hand):
        raise StateFormatError(f"'hand' holds {len(o.hand)} cards, 'hand_sizes' says otherwise")
    if any(n > hand_size for n in o.hand_sizes):
        raise StateFormatError(f"'hand_sizes' above the hand size {hand_size}")
    for s, (top, n) in enumerate(zip(o.payoff_tops, o.payoff_counts, strict=True)):
        if (top is None) != (n == 0):
            raise StateFormatError(f"seat {s}'s 'payoff_tops' and 'payoff_counts' disagree")
    shown = sum(len(x) for sides in o.side_stacks for x in sides) + sum(map(len, o.center))
    counted = sum(o.hand_sizes) + sum(o.payoff_counts) + o.stock_count + o.used_count
    if shown + counted != total:
        raise StateFormatError("the piles an observation counts do not add up to the deck")
