"""Nerts at the web table, in real time: the server's clock drives the round.

The engine is a discrete-event simulation with a millisecond clock (``Round.advance_to``); the
table maps wall time since the round began onto it, so the AI seats play at the table speed
(the ``speed`` option: chill, classic, frantic) and every browser sees their plays as they
happen (a state is pushed whenever the event log grows). A person's action is submitted at
the current table time and executed at once (``Round.submit``); a card an opponent took first
is refused ("too slow"). Rounds continue to ``target_score`` (``derive_seed(S, r, "round")``).

Pile keys for the page: ``nerts``, ``waste``, ``stock``, ``work:<p>`` (a pile, as a target),
``work:<p>:<d>`` (the top ``d`` cards of pile ``p``, as a source), ``foundations``, ``call``,
``undo``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cardcore.errors import IllegalMoveError
from cardcore.games.base import get_game
from cardcore.nerts.engine import NertsAgent, Round
from cardcore.nerts.rules import (
    NERTS,
    WASTE,
    Action,
    CallNerts,
    Flip,
    Options,
    Recycle,
    ToFoundation,
    ToWork,
    Undo,
    card_text,
    parse_action,
)
from cardcore.nerts.spec import REPLAY_HEAD
from cardcore.rng import RNG_VERSION, derive_seed
from cardcore.web.games import TABLES
from cardcore.web.rooms import RoomSetup
from cardcore.web.tables import Outcome, Table
from cardcore.web.turns import agent_names

__all__ = ["NertsTable"]

TICK_S: Final = 0.05
"""How often the clock moves while a round runs (seconds)."""


def _src(src: int, depth: int = 1) -> str:
    return "nerts" if src == NERTS else "waste" if src == WASTE else f"work:{src}:{depth}"


def describe(action: Action) -> dict[str, Any]:
    """``{"id", "src", "dst", "text"}`` of an action (pile keys of the module docstring)."""
    out: dict[str, Any] = {"id": str(action)}
    if isinstance(action, ToFoundation):
        return out | {"src": _src(action.src), "dst": "foundations", "text": "to a foundation"}
    if isinstance(action, ToWork):
        return out | {
            "src": _src(action.src, action.depth),
            "dst": f"work:{action.pile}",
            "text": f"to work pile {action.pile + 1}",
        }
    if isinstance(action, Flip | Recycle):
        return out | {"src": "stock", "dst": "waste", "text": str(action)}
    if isinstance(action, CallNerts):
        return out | {"src": "call", "dst": "call", "text": "called Nerts!"}
    assert isinstance(action, Undo)
    return out | {"src": "undo", "dst": "undo", "text": "undid a move"}


class NertsTable(Table):
    """A Nerts match with people and AI seats, on the server's clock."""

    def __init__(self, setup: RoomSetup, agents: Sequence[str | None]) -> None:
        self.setup = setup
        self.players = setup.players
        self.options = Options.from_mapping(setup.players, dict(setup.options))
        self.spec = get_game("nerts")
        self.agent_list = list(agents)
        self.agent_names = agent_names(agents)
        self.humans = {s for s, a in enumerate(agents) if a is None}
        self.totals = [0] * self.players
        self.rounds: list[dict[str, Any]] = []
        self.index = -1
        self.waiting: set[int] = set()
        self.t0: float | None = None
        self._new_round()

    def _new_round(self) -> None:
        self.index += 1
        self.seed = derive_seed(self.setup.seed, self.index, "round")
        agents: list[NertsAgent | None] = [
            None if a is None else self.spec.make_agent(a) for a in self.agent_list
        ]
        self.round = Round(self.options, self.seed, agents)
        self.t0 = None
        self.last: list[dict[str, Any] | None] = [None] * self.players
        self._seen = 0

    # -- clock --------------------------------------------------------------------------------

    def _ms(self, now: float) -> int:
        if self.t0 is None:
            self.t0 = now
        return int((now - self.t0) * 1000)

    def _advance(self, now: float) -> bool:
        """Moves the round to ``now``; True when anything happened."""
        rnd = self.round
        if rnd.running:
            rnd.advance_to(max(self._ms(now), rnd.now))
        changed = self._note()
        if not rnd.running and not self.waiting and len(self.rounds) == self.index:
            self._finish_round()
            changed = True
        return changed

    def _note(self) -> bool:
        log = self.round.log
        for _t, seat, action, status in log[self._seen :]:
            if status == "ok" and ":" not in action:  # "stalemate:..." rows are the table's
                self.last[seat] = describe(parse_action(action))
        changed = len(log) != self._seen
        self._seen = len(log)
        return changed

    def _finish_round(self) -> None:
        rnd = self.round
        scores = rnd.scores()
        self.totals = [a + b for a, b in zip(self.totals, scores, strict=True)]
        self.rounds.append(
            {
                "seed": self.seed,
                "rng": RNG_VERSION,
                "decks": [" ".join(card_text(c) for c in d) for d in rnd.decks],
                "events": [list(e) for e in rnd.log],
                "inputs": [list(i) for i in rnd.inputs],
                "scores": scores,
                "end": rnd.end,
                "caller": rnd.caller,
                "duration_ms": rnd.now,
            }
        )
        if not self.match_over:
            self.waiting = set(self.humans)

    @property
    def match_over(self) -> bool:
        top = max(self.totals)
        return top >= self.options.target_score and self.totals.count(top) == 1

    # -- Table ----------------------------------------------------------------------------------

    def due(self) -> float | None:
        if not self.round.running or self.waiting:
            return None
        if self.t0 is None:
            return 0.0
        return self.t0 + (self.round.now / 1000) + TICK_S

    def tick(self, now: float) -> bool:
        return self._advance(now)

    def act(self, seat: int, move: str, now: float) -> None:
        if self.waiting:
            raise IllegalMoveError("close the score sheet first")
        self._advance(now)
        rnd = self.round
        if not rnd.running:
            raise IllegalMoveError("the round is over")
        action = parse_action(move)
        if not rnd.is_legal(seat, action):
            raise IllegalMoveError(f"{describe(action)['text']}: not possible now")
        n = len(rnd.log)
        rnd.submit(seat, action, rnd.now)
        rnd.advance_to(rnd.now)
        mine = [row for row in rnd.log[n:] if row[1] == seat]
        self._advance(now)
        if mine and mine[0][3] != "ok":
            raise IllegalMoveError("too slow: an opponent got there first")

    def proceed(self, seat: int, now: float) -> bool:
        if seat not in self.waiting:
            return False
        self.waiting.discard(seat)
        if not self.waiting and not self.match_over:
            self._new_round()
        return True

    def view(self, seat: int) -> dict[str, Any]:
        o = self.round.observation(seat)

        def card(cid: int | None) -> dict[str, int] | None:
            return None if cid is None else {"id": cid, "f": cid % 52, "owner": cid // 52}

        legal = [] if self.waiting else [describe(a) for a in self.round.legal(seat)]
        return {
            "game": "nerts",
            "round_no": self.index + 1,
            "speed": self.options.speed,
            "clock_ms": self.round.now,
            "running": self.round.running and not self.waiting,
            "foundations": [card(p[-1]) for p in o.foundation_piles],
            "players": [
                {
                    "nerts_top": card(p.nerts_top),
                    "nerts_count": p.nerts_count,
                    "stock": p.stock_count,
                    "waste_top": card(p.waste_top),
                    "waste_count": p.waste_count,
                    "work": [[card(c) for c in w] for w in p.work],
                    "on_foundations": sum(1 for f in o.foundation_piles for c in f if c // 52 == s),
                }
                for s, p in enumerate(o.players)
            ],
            "legal": legal,
            "last": self.last,
            "current": None,
            "totals": list(self.totals),
            "sheet_open": seat in self.waiting,
            "sheet": {
                "rows": [
                    {"label": str(r + 1), "scores": rr["scores"], "marked": rr["caller"]}
                    for r, rr in enumerate(self.rounds)
                ],
                "totals": list(self.totals),
                "final": self.match_over,
                "footer": f"Match to {self.options.target_score}. ★ called Nerts.",
            },
        }

    @property
    def outcome(self) -> Outcome | None:
        if not self.match_over or len(self.rounds) <= self.index:
            return None
        top = max(self.totals)
        winner = self.totals.index(top)
        rounds = [
            {
                "round": r,
                "seed": rr["seed"],
                "scores": rr["scores"],
                "end": rr["end"],
                "caller": rr["caller"],
                "winner": rr["caller"],
                "duration_ms": rr["duration_ms"],
                "events": len(rr["events"]),
            }
            for r, rr in enumerate(self.rounds)
        ]
        record = {
            "game": "nerts",
            "index": 0,
            "seed": self.setup.seed,
            "players": self.players,
            "agents": list(self.agent_names),
            "scores": list(self.totals),
            "winner": winner,
            "rounds": rounds,
            "games": rounds,
            "replay": {
                **REPLAY_HEAD,
                "game": "nerts",
                "kind": "match",
                "seed": self.setup.seed,
                "rng": RNG_VERSION,
                "players": self.players,
                "agents": list(self.agent_names),
                "human_seats": sorted(self.humans),
                "options": self.options.as_dict(),
                "rounds": [dict(r) for r in self.rounds],
                "scores": list(self.totals),
                "winner": winner,
            },
        }
        return Outcome([float(t) for t in self.totals], winner, record)


def _table(setup: RoomSetup, agents: Sequence[str | None], ai_delay: float) -> NertsTable:
    return NertsTable(setup, agents)


TABLES["nerts"] = _table
