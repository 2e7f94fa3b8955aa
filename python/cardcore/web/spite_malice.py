"""Spite & Malice at the web table: a match of games to ``target_score``; a sheet after each.

Game ``g`` of a match seeded ``S`` is dealt from ``derive_seed(S, g, "match-game")`` (as
``GameSpec.play_match``). Pile keys for the page: ``payoff``, ``card:<text>`` (a hand card by
its JSON text), ``side:<i>`` (your side stack: a source and a discard target),
``center:<i>``. Beyond the seat's observation the view adds the match: the game's number, the
target and the match totals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from cardcore.games.base import GameRequest
from cardcore.rng import Rng, derive_seed
from cardcore.spite_malice.game import SpiteMaliceGame
from cardcore.spite_malice.rules import Discard, PlayHand, PlayPayOff, PlaySide
from cardcore.spite_malice.spec import game_record, match_over, match_record
from cardcore.web.rooms import RoomSetup
from cardcore.web.tables import Outcome
from cardcore.web.turns import TurnMatch, TurnTable, agent_names

__all__ = ["SpiteMatch"]


class SpiteMatch(TurnMatch):
    def __init__(self, setup: RoomSetup, names: Sequence[str]) -> None:
        super().__init__(setup, names)
        self.rules = cast(SpiteMaliceGame, self.game).rules
        self.totals = [0] * setup.players
        self.games: list[dict[str, Any]] = []
        self.index = -1
        self._extras: tuple[object, dict[str, Any]] | None = None
        self.next_unit()

    def next_unit(self) -> None:
        if self.match_over:
            return
        self.index += 1
        self.seed = derive_seed(self.setup.seed, self.index, "match-game")
        self.state = self.game.new_state(self.seed)
        self.rngs = [Rng.for_stream(self.seed, s, "agent") for s in range(self.setup.players)]
        self.log: list[list[Any]] = []

    @property
    def match_over(self) -> bool:
        return match_over(self.totals, self.rules.target_score)

    def agent_rng(self, seat: int) -> Any:
        return self.rngs[seat]

    def extras(self, seat: int, observation: Mapping[str, Any]) -> dict[str, Any]:
        key = (self.index, tuple(self.totals))
        if self._extras is None or self._extras[0] != key:  # the same object until it changes
            self._extras = (
                key,
                {
                    "game_no": self.index + 1,
                    "target": self.rules.target_score,
                    "totals": list(self.totals),
                },
            )
        return self._extras[1]

    def sheet_key(self) -> object:
        return len(self.games)

    def sheet(self) -> dict[str, Any]:
        return {
            "unit": "Game",
            "rows": [
                {"label": str(g["index"] + 1), "scores": g["scores"], "marked": g["winner"]}
                for g in self.games
            ],
            "totals": list(self.totals),
            "final": self.match_over,
            "footer": f"Match to {self.rules.target_score}.",
        }

    def describe(self, move: Any) -> dict[str, Any]:
        seat = self.state.current_player
        o = self.state.observation(seat)
        if isinstance(move, PlayPayOff):
            card = o.payoff_tops[seat]
            out = {"src": "payoff", "dst": f"center:{move.center}", "text": "played the pay-off"}
        elif isinstance(move, PlaySide):
            card = o.side_stacks[seat][move.side][-1]
            out = {"src": f"side:{move.side}", "dst": f"center:{move.center}", "text": "played"}
        elif isinstance(move, PlayHand):
            card = move.card_id
            out = {"src": "", "dst": f"center:{move.center}", "text": "played"}
        else:
            assert isinstance(move, Discard)
            card = move.card_id
            out = {"src": "", "dst": f"side:{move.side}", "text": "discarded"}
        text = self.game.card_text(card) if card is not None else None
        if not out["src"]:
            out["src"] = f"card:{text}"
        return {**out, "card": text}

    def apply(self, move: Any) -> bool:
        st = self.state
        seat = st.current_player
        st.apply(move)
        self.log.append([seat, self.game.move_text(move)])
        if not st.is_over:
            return False
        for s, pts in enumerate(st.points()):
            self.totals[s] += pts
        self.games.append(
            game_record(self.rules, self.seed, self.index, self.agent_names, st, self.log)
        )
        return True

    @property
    def outcome(self) -> Outcome | None:
        if not (self.state.is_over and self.match_over):
            return None
        head = GameRequest(0, self.setup.seed, self.setup.players, tuple(self.agent_names))
        target = self.rules.target_score
        record = match_record(head.record_head(self.game.name), self.totals, self.games, target)
        return Outcome([float(t) for t in self.totals], record["winner"], record)


def make_table(setup: RoomSetup, agents: Sequence[str | None], ai_delay: float) -> TurnTable:
    return TurnTable(SpiteMatch(setup, agent_names(agents)), agents, ai_delay)
