"""Spite & Malice at the web table: a match of games to ``target_score``; a sheet after each.

Game ``g`` of a match seeded ``S`` is dealt from ``derive_seed(S, g, "match-game")`` (as
``GameSpec.play_match``). Pile keys for the page: ``payoff``, ``card:<id>`` (a hand card),
``side:<i>`` (your side stack: a source and a discard target), ``center:<i>``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardcore.rng import Rng, derive_seed
from cardcore.spite_malice.rules import (
    Discard,
    Options,
    PlayHand,
    PlayPayOff,
    PlaySide,
    State,
    move_text,
    parse_move,
)
from cardcore.spite_malice.spec import game_record
from cardcore.web.games import TABLES
from cardcore.web.rooms import RoomSetup
from cardcore.web.tables import Outcome
from cardcore.web.turns import TurnMatch, TurnTable, agent_names

__all__ = ["SpiteMatch"]


class SpiteMatch(TurnMatch):
    game = "spite-malice"

    def __init__(self, setup: RoomSetup, names: Sequence[str]) -> None:
        super().__init__(setup, names)
        self.options = Options.from_mapping(setup.players, dict(setup.options))
        self.totals = [0] * setup.players
        self.games: list[dict[str, Any]] = []
        self.index = -1
        self.next_unit()

    def next_unit(self) -> None:
        if self.match_over:
            return
        self.index += 1
        self.seed = derive_seed(self.setup.seed, self.index, "match-game")
        self.state = State.new(self.options, self.seed)
        self.rngs = [Rng.for_stream(self.seed, s, "agent") for s in range(self.setup.players)]
        self.log: list[list[Any]] = []

    @property
    def match_over(self) -> bool:
        return max(self.totals) >= self.options.target_score

    @property
    def current(self) -> int | None:
        return None if self.state.over else self.state.current

    def observation(self, seat: int) -> Any:
        return self.state.observation(seat)

    def legal_moves(self) -> list[Any]:
        return list(self.state.legal_moves())

    def agent_rng(self, seat: int) -> Any:
        return self.rngs[seat]

    def _card(self, card_id: int | None) -> dict[str, int] | None:
        if card_id is None:
            return None
        face = card_id % 52 if card_id < 52 * self.options.decks else 52
        return {"id": card_id, "f": face}

    def view(self, seat: int) -> dict[str, Any]:
        o = self.state.observation(seat)
        c = self._card
        return {
            "game": self.game,
            "game_no": self.index + 1,
            "target": self.options.target_score,
            "wild": self.options.wild_mode,
            "hand": [c(x) for x in o.hand],
            "hand_sizes": list(o.hand_sizes),
            "payoff": [
                {"top": c(t), "count": n}
                for t, n in zip(o.payoff_tops, o.payoff_counts, strict=True)
            ],
            "sides": [
                [[c(x) for x in stack] for stack in seat_sides] for seat_sides in o.side_stacks
            ],
            "center": [
                {"top": c(stack[-1]) if stack else None, "rank": len(stack)} for stack in o.center
            ],
            "stock": o.stock_count,
            "totals": list(self.totals),
            "sheet": {
                "unit": "Game",
                "rows": [
                    {"label": str(g["index"] + 1), "scores": g["scores"], "marked": g["winner"]}
                    for g in self.games
                ],
                "totals": list(self.totals),
                "final": self.match_over,
                "footer": f"Match to {self.options.target_score}.",
            },
        }

    def describe(self, move: Any) -> dict[str, Any]:
        st = self.state
        seat = st.current
        out: dict[str, Any] = {"id": str(move)}
        if isinstance(move, PlayPayOff):
            card = st.payoffs[seat][-1]
            out |= {"src": "payoff", "dst": f"center:{move.center}", "text": "played the pay-off"}
        elif isinstance(move, PlaySide):
            card = st.sides[seat][move.side][-1]
            out |= {"src": f"side:{move.side}", "dst": f"center:{move.center}", "text": "played"}
        elif isinstance(move, PlayHand):
            card = move.card_id
            out |= {"src": f"card:{card}", "dst": f"center:{move.center}", "text": "played"}
        else:
            assert isinstance(move, Discard)
            card = move.card_id
            out |= {"src": f"card:{card}", "dst": f"side:{move.side}", "text": "discarded"}
        out["card"] = self._card(card)
        return out

    def parse(self, move_id: str) -> Any:
        return parse_move(move_id, self.options.decks)

    def apply(self, move: Any) -> bool:
        st = self.state
        seat = st.current
        st.apply(move)
        self.log.append([seat, move_text(move, self.options.decks)])
        if not st.over:
            return False
        for s, pts in enumerate(st.scores):
            self.totals[s] += pts
        self.games.append(
            game_record(self.options, self.seed, self.index, self.agent_names, st, self.log)
        )
        return True

    @property
    def outcome(self) -> Outcome | None:
        if not (self.state.over and self.match_over):
            return None
        best = max(self.totals)
        leaders = [s for s, t in enumerate(self.totals) if t == best]
        winner = leaders[0] if len(leaders) == 1 else None
        record = {
            "game": self.game,
            "index": 0,
            "seed": self.setup.seed,
            "players": self.setup.players,
            "agents": list(self.agent_names),
            "scores": list(self.totals),
            "winner": winner,
            "outcome": "tie" if winner is None else "win",
            "turns": sum(int(g["turns"]) for g in self.games),
            "games": [dict(g) for g in self.games],
        }
        return Outcome([float(t) for t in self.totals], winner, record)


def _table(setup: RoomSetup, agents: Sequence[str | None], ai_delay: float) -> TurnTable:
    return TurnTable(SpiteMatch(setup, agent_names(agents)), agents, ai_delay)


TABLES["spite-malice"] = _table
