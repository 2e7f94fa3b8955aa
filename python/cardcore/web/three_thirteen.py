"""Three-Thirteen at the web table: one game of 11 rounds; a score sheet after each round.

Pile keys for the page: ``stock``, ``discard``, ``hand``, ``card:<id>`` (a card of your hand).
A seat's view holds only its observation: its own hand (arranged by the meld solver), the
discard pile, hand sizes and the public scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcore.cards import Card
from cardcore.rng import Rng
from cardcore.three_thirteen.melds import best_melds
from cardcore.three_thirteen.rules import (
    Discard,
    DrawDiscard,
    DrawStock,
    Options,
    State,
    parse_move,
)
from cardcore.three_thirteen.spec import build_replay
from cardcore.web.games import TABLES
from cardcore.web.rooms import RoomSetup
from cardcore.web.tables import Outcome
from cardcore.web.turns import TurnMatch, TurnTable, agent_names

__all__ = ["ThreeThirteenMatch"]


class ThreeThirteenMatch(TurnMatch):
    game = "three-thirteen"
    lower_is_better = True

    def __init__(self, setup: RoomSetup, names: Sequence[str]) -> None:
        super().__init__(setup, names)
        self.options = Options.from_mapping(setup.players, dict(setup.options))
        self.state = State(self.options, setup.seed)
        self.rngs = [Rng.for_stream(setup.seed, s, "agent") for s in range(setup.players)]

    @property
    def current(self) -> int | None:
        return None if self.state.over else self.state.current

    def observation(self, seat: int) -> Any:
        return self.state.observation(seat)

    def legal_moves(self) -> list[Any]:
        return list(self.state.legal_moves())

    def agent_rng(self, seat: int) -> Any:
        return self.rngs[seat]

    def _card(self, card_id: int) -> dict[str, int]:
        return {"id": card_id, "f": self.state.face_of[card_id]}

    def _hand(self, hand: Sequence[int], wild_rank: int) -> dict[str, Any]:
        """The hand in its best arrangement: melds (a wild shows what it stands for), then the
        deadwood and its points."""
        nd = self.options.num_decks
        cards = [Card.from_id(c, nd) for c in hand]
        ids = dict(zip(cards, hand, strict=True))
        r = self.state.rules
        arr = best_melds(
            cards,
            wild_rank,
            ace_mode=r.ace_mode,
            wild_points=r.wild_points,
            joker_points=r.joker_points,
        )
        melds = [
            [
                {**self._card(ids[c]), **({} if s is None else {"as": s.face})}
                for c, s in zip(m.cards, m.stands_for, strict=True)
            ]
            for m in arr.melds
        ]
        dead = sorted((ids[c] for c in arr.deadwood), key=lambda i: (self.state.face_of[i] % 13, i))
        return {"melds": melds, "deadwood": [self._card(c) for c in dead], "points": arr.points}

    def view(self, seat: int) -> dict[str, Any]:
        o = self.state.observation(seat)
        st = self.state
        return {
            "game": self.game,
            "round": o.round,
            "rounds": 11,
            "cards_dealt": o.cards_dealt,
            "wild_rank": o.wild_rank,
            "jokers": o.jokers,
            "dealer": o.dealer,
            "phase": o.phase,
            "hand": self._hand(o.hand, o.wild_rank),
            "drawn": o.drawn,
            "discard": [self._card(c) for c in o.discard_pile[-2:]],
            "discard_count": len(o.discard_pile),
            "stock": o.stock_size,
            "hand_sizes": list(o.hand_sizes),
            "out": o.out_seat,
            "totals": list(o.totals),
            "sheet": {
                "rows": [
                    {"label": f"{r + 1}", "scores": list(sc), "marked": st.went_out[r]}
                    for r, sc in enumerate(st.round_scores)
                ],
                "totals": list(st.totals),
                "final": st.over,
                "lower_wins": True,
            },
        }

    def describe(self, move: Any) -> dict[str, Any]:
        st = self.state
        if isinstance(move, DrawStock):
            return {"id": str(move), "src": "stock", "dst": "hand", "text": "drew from the stock"}
        if isinstance(move, DrawDiscard):
            top = st.discard_pile[-1] if st.discard_pile else None
            return {
                "id": str(move),
                "src": "discard",
                "dst": "hand",
                "text": "took the discard",
                "card": None if top is None else self._card(top),
            }
        assert isinstance(move, Discard)
        return {
            "id": str(move),
            "src": f"card:{move.card_id}",
            "dst": "discard",
            "text": "discarded",
            "card": self._card(move.card_id),
        }

    def parse(self, move_id: str) -> Any:
        return parse_move(move_id, self.options.num_decks)

    def apply(self, move: Any) -> bool:
        rounds = len(self.state.round_scores)
        self.state.apply(move)
        return len(self.state.round_scores) != rounds

    @property
    def outcome(self) -> Outcome | None:
        st = self.state
        if not st.over:
            return None
        res = st.result()
        return Outcome(
            [float(x) for x in st.totals],
            res["winner"],
            build_replay(st, self.setup.seed, self.agent_names),
            lower_is_better=True,
        )


def _table(setup: RoomSetup, agents: Sequence[str | None], ai_delay: float) -> TurnTable:
    return TurnTable(ThreeThirteenMatch(setup, agent_names(agents)), agents, ai_delay)


TABLES["three-thirteen"] = _table
