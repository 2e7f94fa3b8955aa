"""Three-Thirteen at the web table: one game of 11 rounds; a score sheet after each round.

Pile keys for the page: ``stock``, ``discard``, ``hand``, ``card:<text>`` (a card of your hand,
by its JSON text such as ``7h@1``). Beyond the seat's observation the view adds only that
seat's own hand in its best arrangement (the meld solver's, remembered per hand).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

from cardcore.rng import Rng
from cardcore.three_thirteen.game import ThreeThirteenGame
from cardcore.three_thirteen.hand import arrange_hand
from cardcore.three_thirteen.rules import Discard, DrawDiscard, DrawStock
from cardcore.three_thirteen.spec import build_replay
from cardcore.web.rooms import RoomSetup
from cardcore.web.tables import Outcome
from cardcore.web.turns import TurnMatch, TurnTable, agent_names

__all__ = ["ThreeThirteenMatch"]

ROUNDS = 11


class ThreeThirteenMatch(TurnMatch):
    lower_is_better = True

    def __init__(self, setup: RoomSetup, names: Sequence[str]) -> None:
        super().__init__(setup, names)
        self.rules = cast(ThreeThirteenGame, self.game).rules
        self.state = self.game.new_state(setup.seed)
        self.rounds_done = 0
        self.rngs = [Rng.for_stream(setup.seed, s, "agent") for s in range(setup.players)]
        self._extras: dict[int, tuple[object, dict[str, Any]]] = {}
        self.reveal: dict[str, Any] | None = None
        """Every hand of the round last ended, face up with its melds and deadwood (public
        once the round is over; ``None`` before the first round ends)."""

    def agent_rng(self, seat: int) -> Any:
        return self.rngs[seat]

    def extras(self, seat: int, observation: Mapping[str, Any]) -> dict[str, Any]:
        key = (tuple(observation["hand"]), observation["wild_rank"], self.rounds_done)
        kept = self._extras.get(seat)
        if kept is not None and kept[0] == key:
            return kept[1]  # the same hand: the same object, skipped when the room diffs
        st = self.state
        out = {"rounds": ROUNDS, "hand": self._arranged(st.hands[seat], st.wild_rank)}
        if self.reveal is not None:
            out["reveal"] = self.reveal
        self._extras[seat] = (key, out)
        return out

    def _arranged(self, cards: Sequence[int], wild_rank: int) -> dict[str, Any]:
        """A hand in its best arrangement: ``melds`` ([card, stands-for]), ``deadwood``,
        ``points``."""
        hand = arrange_hand(cards, wild_rank, self.rules)
        text = self.game.card_text
        return {
            "melds": [[[text(c), stands] for c, stands in meld] for meld in hand.melds],
            "deadwood": [text(c) for c in hand.deadwood],
            "points": hand.points,
        }

    def sheet_key(self) -> object:
        return self.rounds_done

    def sheet(self) -> dict[str, Any]:
        # the scores are public: every seat's observation document carries them
        o = json.loads(self.state.observation_json(0))["observation"]
        return {
            "rows": [
                {"label": f"{r + 1}", "scores": sc, "marked": o["went_out"][r]}
                for r, sc in enumerate(o["round_scores"])
            ],
            "totals": o["totals"],
            "final": self.state.is_over,
            "lower_wins": True,
        }

    def describe(self, move: Any) -> dict[str, Any]:
        text = self.game.card_text
        if isinstance(move, DrawStock):
            return {"src": "stock", "dst": "hand", "text": "drew from the stock"}
        if isinstance(move, DrawDiscard):
            pile = self.state.discard_pile  # public: the seat's observation shows it too
            top = {"card": text(pile[-1])} if pile else {}
            return {"src": "discard", "dst": "hand", "text": "took the discard", **top}
        assert isinstance(move, Discard)
        card = text(move.card_id)
        return {"src": f"card:{card}", "dst": "discard", "text": "discarded", "card": card}

    def apply(self, move: Any) -> bool:
        st = self.state
        before = len(st.went_out)  # one entry a round played
        # a round ends on a discard: every hand as it stands then is shown once it is over
        hands = st.hands if isinstance(move, Discard) else None
        wild, out = st.wild_rank, st.out_seat
        seat = st.current_player
        st.apply(move)
        if st.is_over or len(st.went_out) != before:
            self.rounds_done += 1
            if hands is not None:
                hands[seat] = [c for c in hands[seat] if c != move.card_id]
                scores = st.round_scores[-1] if st.round_scores else None
                self.reveal = {
                    "round": before + 1,
                    "went_out": out,
                    "wild_rank": wild,
                    "hands": [
                        {
                            "seat": s,
                            **self._arranged(h, wild),
                            **({"score": scores[s]} if scores is not None else {}),
                        }
                        for s, h in enumerate(hands)
                    ],
                }
            return True
        return False

    @property
    def outcome(self) -> Outcome | None:
        st = self.state
        if not st.is_over:
            return None
        res = st.result()
        return Outcome(
            [float(x) for x in st.points()],
            res["winner"],
            build_replay(st, self.setup.seed, self.agent_names),
            lower_is_better=True,
        )


def make_table(setup: RoomSetup, agents: Sequence[str | None], ai_delay: float) -> TurnTable:
    return TurnTable(ThreeThirteenMatch(setup, agent_names(agents)), agents, ai_delay)
