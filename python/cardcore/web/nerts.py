"""Nerts at the web table, in real time: the server's clock drives the round.

Each round is the embedding protocol's real-time state (``game.new_state(seed, agents=...)``,
a discrete-event simulation with a millisecond clock); the table maps wall time since the round
began onto it with ``advance_to``, so the AI seats play at the table speed (the ``speed``
option: chill, classic, frantic) and every browser sees their plays as they happen (a state is
pushed whenever the event log grows). A person's action is ``submit``-ted at the current table
time and executed at once; a card an opponent took first is refused ("too slow"). Rounds
continue to ``target_score`` (:class:`~cardcore.nerts.spec.NertsMatch`).

A seat's view is its ``observation_json(seat)`` document plus its legal moves (action id, move
text, pile keys), each seat's last move and the score sheet. Pile keys for the page:
``nerts``, ``waste``, ``stock``, ``work:<p>`` (a pile, as a target), ``work:<p>:<d>`` (the top
``d`` cards of pile ``p``, as a source), ``foundations``, ``call``, ``undo``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, cast

from cardcore.errors import IllegalMoveError
from cardcore.games.api import load_game
from cardcore.games.base import GameRequest, get_game
from cardcore.nerts.game import NertsGame
from cardcore.nerts.options import SpeedProfile
from cardcore.nerts.rules import (
    NERTS,
    WASTE,
    Action,
    CallNerts,
    Flip,
    Recycle,
    ToFoundation,
    ToWork,
    Undo,
)
from cardcore.nerts.spec import NertsMatch
from cardcore.rng import Rng
from cardcore.web.rooms import RoomSetup
from cardcore.web.tables import Outcome, RestoreError, Table
from cardcore.web.turns import agent_names

__all__ = ["NertsTable"]

TICK_S: Final = 0.05
"""How often the clock moves while a round runs (seconds)."""
SHEET_GRACE_S: Final = 15.0
"""After a round, the next one starts when every person has closed the score sheet, or this
many seconds after the first of them did (nobody holds the table up for long)."""
_NEXT_ROUND: Final = (
    "The next round starts when everyone has closed this sheet,"
    f" or {SHEET_GRACE_S:.0f} s after the first did."
)


def _src(src: int, depth: int = 1) -> str:
    return "nerts" if src == NERTS else "waste" if src == WASTE else f"work:{src}:{depth}"


def describe(action: Action) -> dict[str, Any]:
    """``{"src", "dst", "text"}`` of an action (pile keys of the module docstring)."""
    if isinstance(action, ToFoundation):
        return {"src": _src(action.src), "dst": "foundations", "text": "to a foundation"}
    if isinstance(action, ToWork):
        return {
            "src": _src(action.src, action.depth),
            "dst": f"work:{action.pile}",
            "text": f"to work pile {action.pile + 1}",
        }
    if isinstance(action, Flip | Recycle):
        return {"src": "stock", "dst": "waste", "text": str(action)}
    if isinstance(action, CallNerts):
        return {"src": "call", "dst": "call", "text": "called Nerts!"}
    assert isinstance(action, Undo)
    return {"src": "undo", "dst": "undo", "text": "undid a move"}


class NertsTable(Table):
    """A Nerts match with people and AI seats, on the server's clock."""

    logs = ("rounds", "replays")

    def __init__(self, setup: RoomSetup, agents: Sequence[str | None]) -> None:
        self.setup = setup
        self.players = setup.players
        self.game = cast(NertsGame, load_game("nerts", players=setup.players, **setup.options))
        self.rules = self.game.rules
        self.agent_list = list(agents)
        self.humans = {s for s, a in enumerate(agents) if a is None}
        self.match = NertsMatch(
            setup.seed, self.rules, agent_names(agents), human_seats=sorted(self.humans)
        )
        self.index = -1
        self.waiting: set[int] = set()
        """People whose score sheet is open between two rounds."""
        self.between = False
        """A round is over and the next is not dealt yet."""
        self.next_at: float | None = None
        self.stand_ins: dict[int, tuple[Any, Rng]] = {}
        """Person's seats an AI plays for (its owner away, or the host handed it over): its
        moves are submitted from outside, as the person's are (the replay's inputs)."""
        self._stand_in_at: dict[int, float] = {}
        self.t0: float | None = None
        self._sheet: tuple[int, dict[str, Any]] | None = None
        self._new_round()

    def _new_round(self) -> None:
        self.index += 1
        self.waiting, self.next_at, self.between = set(), None, False
        self._stand_in_at = {}
        self.state = self.game.new_state(self.match.round_seed(self.index), agents=self.agent_list)
        self.t0 = None
        self.last: list[dict[str, Any] | None] = [None] * self.players
        self._seen = 0
        self._piles = self._public_piles()

    def entry(self, action: Action) -> dict[str, Any]:
        game = self.game
        return {
            "id": game.move_to_action(action),
            "move": game.move_text(action),
            **describe(action),
        }

    # -- clock --------------------------------------------------------------------------------

    def _ms(self, now: float) -> int:
        if self.t0 is None:
            self.t0 = now
        return int((now - self.t0) * 1000)

    def _advance(self, now: float) -> bool:
        """Moves the round to ``now``; True when anything happened."""
        st = self.state
        if not st.is_over:
            st.advance_to(max(self._ms(now), st.now))
        changed = self._note()
        if st.is_over and not self.between and len(self.match.rounds) == self.index:
            self.match.add(st)
            if not self.match.over:
                self.between = True
                self.waiting = self.humans - set(self.stand_ins)
                if not self.waiting:  # nobody to wait for
                    self.next_at = now + SHEET_GRACE_S
            changed = True
        return changed

    def _public_piles(self) -> list[dict[str, Any]]:
        """Every seat's face-up piles now (``nerts_top``, ``waste_top``, ``work``)."""
        return list(self.state.observation_document(0)["observation"]["players"])

    def _card(self, seat: int, action: Action) -> str | None:
        """The card ``seat``'s move ``action`` takes, from the piles before it (all face up:
        the Nerts pile's top, the waste's top, a work pile's cards); ``None`` for other moves."""
        if not isinstance(action, ToFoundation | ToWork):
            return None
        piles = self._piles[seat]
        if action.src == NERTS:
            return cast(str | None, piles["nerts_top"])
        if action.src == WASTE:
            return cast(str | None, piles["waste_top"])
        work = piles["work"][action.src]
        depth = action.depth if isinstance(action, ToWork) else 1
        return cast(str, work[-depth]) if len(work) >= depth else None

    def _note(self) -> bool:
        log = self.state.events
        named: set[int] = set()
        for n, (_t, seat, action, status) in enumerate(log[self._seen :], start=self._seen + 1):
            if status == "ok" and seat >= 0:  # seat -1: the table's own rows
                move = self.game.parse_move(action)
                # n orders the moves: the page rings a pile with the latest of those onto it
                line = {**self.entry(move), "n": n}
                # the card it moved, known from the piles before it: a seat's first move since
                # they were read (a second one may take a card the first uncovered)
                card = self._card(seat, move) if seat not in named else None
                named.add(seat)
                if card is not None:
                    line["card"] = card
                self.last[seat] = line
        changed = len(log) != self._seen
        self._seen = len(log)
        if changed:
            self._piles = self._public_piles()
        return changed

    # -- Table ----------------------------------------------------------------------------------

    def due(self) -> float | None:
        if self.between:
            return self.next_at
        if self.state.is_over:
            return None
        if self.t0 is None:
            return 0.0
        return self.t0 + (self.state.now / 1000) + TICK_S

    def tick(self, now: float) -> bool:
        if self.between:
            if self.next_at is None or now < self.next_at:
                return False
            self._new_round()
            return True
        changed = self._advance(now)
        if self.stand_ins and not self.state.is_over and self._stand_ins_play(now):
            changed = self._advance(now) or changed
        return changed

    # -- stand-ins ------------------------------------------------------------------------------

    def live_since(self) -> float | None:
        return self.t0 if not self.between and not self.state.is_over else None

    def stand_in(self, seat: int, on: bool) -> bool:
        if seat not in self.humans or on == (seat in self.stand_ins):
            return False
        if on:
            agent = get_game("nerts").make_agent(self.setup.agent)
            self.stand_ins[seat] = (agent, Rng.for_stream(self.setup.seed, seat, "stand-in"))
            if self.waiting:  # an AI does not read score sheets
                self.waiting.discard(seat)
                if not self.waiting and self.next_at is None:
                    self.next_at = 0.0
        else:
            del self.stand_ins[seat]
            self._stand_in_at.pop(seat, None)
        return True

    def _stand_ins_play(self, now: float) -> bool:
        """Each stand-in whose time has come chooses a move and submits it now; the next one
        follows after the table speed's median reaction time for that kind of move."""
        st, speed = self.state, self.rules.profile
        played = False
        for seat, (agent, rng) in self.stand_ins.items():
            at = self._stand_in_at.setdefault(seat, now + speed.m_play / 1000)
            if now < at or st.pending(seat):
                continue
            action = agent.act(st.observation(seat), st.legal_moves(seat), rng)
            if action is None:
                self._stand_in_at[seat] = now + speed.retry_ms / 1000
                continue
            st.submit(seat, action, st.now)
            st.advance_to(st.now)
            self._stand_in_at[seat] = now + _reaction_ms(action, speed) / 1000
            played = True
        return played

    def act(self, seat: int, move: int | str, now: float) -> None:
        if self.between:
            raise IllegalMoveError("close the score sheet first")
        if seat in self.stand_ins:
            raise IllegalMoveError("an AI plays this seat")
        self._advance(now)
        st = self.state
        if st.is_over:
            raise IllegalMoveError("the round is over")
        game = self.game
        action = game.parse_move(move) if isinstance(move, str) else game.action_to_move(move)
        if game.move_to_action(action) not in st.legal_actions(seat):
            raise IllegalMoveError(f"{describe(action)['text']}: not possible now")
        n = len(st.events)
        st.submit(seat, action, st.now)
        st.advance_to(st.now)
        mine = [row for row in st.events[n:] if row[1] == seat]
        self._advance(now)
        if mine and mine[0][3] != "ok":
            raise IllegalMoveError("too slow: an opponent got there first")

    def proceed(self, seat: int, now: float) -> bool:
        if seat not in self.waiting:
            return False
        self.waiting.discard(seat)
        if not self.waiting and not self.match.over:
            self._new_round()
        elif self.next_at is None:
            self.next_at = now + SHEET_GRACE_S
        return True

    def _legal(self, seat: int) -> list[dict[str, Any]]:
        if self.between or seat in self.stand_ins:
            return []
        seen: set[int] = set()
        out = []
        for a in self.state.legal_moves(seat):
            e = self.entry(a)
            if e["id"] not in seen:  # foundation plays: one per source, whichever foundation
                seen.add(e["id"])
                out.append(e)
        return out

    def sheet(self) -> dict[str, Any]:
        """The score sheet (the same object until a round is added)."""
        m = self.match
        if self._sheet is None or self._sheet[0] != len(m.rounds):
            self._sheet = (
                len(m.rounds),
                {
                    "rows": [
                        {"label": str(r + 1), "scores": rr["scores"], "marked": rr["caller"]}
                        for r, rr in enumerate(m.rounds)
                    ],
                    "totals": list(m.totals),
                    "final": m.over,
                    "footer": f"Match to {self.rules.target_score}. ★ called Nerts."
                    + ("" if m.over else f" {_NEXT_ROUND}"),
                },
            )
        return self._sheet[1]

    def view(self, seat: int) -> dict[str, Any]:
        st = self.state
        return {
            "observation": st.observation_document(seat),
            "game": "nerts",
            "round_no": self.index + 1,
            "speed": self.rules.speed,
            "running": not st.is_over and not self.between,
            "totals": list(self.match.totals),
            "legal": self._legal(seat),
            "last": list(self.last),
            "current": None,
            "sheet_open": seat in self.waiting,
            "sheet": self.sheet(),
        }

    def snapshot(self) -> dict[str, Any]:
        """The finished rounds (a round in play is dealt again on restore: the clock of a
        real-time round does not survive a restart)."""
        m = self.match
        return {
            "rounds": m.rounds,
            "replays": m.replays,
            "totals": m.totals,
            "stand_ins": sorted(self.stand_ins),
        }

    def restore(self, snapshot: Mapping[str, Any], now: float) -> None:
        m = self.match
        totals = [int(t) for t in snapshot["totals"]]
        if len(totals) != self.players or len(snapshot["rounds"]) != len(snapshot["replays"]):
            raise RestoreError("the saved Nerts match does not fit this room")
        m.rounds, m.replays = list(snapshot["rounds"]), list(snapshot["replays"])
        m.totals = totals
        self.index = len(m.rounds) - 1
        self._sheet = None
        self._new_round()
        for seat in snapshot.get("stand_ins", []):
            self.stand_in(int(seat), True)

    @property
    def outcome(self) -> Outcome | None:
        m = self.match
        if not m.over or len(m.rounds) <= self.index:
            return None
        head = GameRequest(0, self.setup.seed, self.players, tuple(m.agents))
        record = m.record(head.record_head("nerts"))
        return Outcome([float(t) for t in m.totals], record["winner"], record)


def _reaction_ms(action: Action, speed: SpeedProfile) -> int:
    """The median reaction time of the table speed for a move like ``action``."""
    if isinstance(action, ToWork):
        return speed.m_seq if action.depth > 1 else speed.m_build
    if isinstance(action, Flip | Recycle):
        return speed.m_flip
    if isinstance(action, CallNerts):
        return speed.m_call
    return speed.m_play


def make_table(setup: RoomSetup, agents: Sequence[str | None], ai_delay: float) -> NertsTable:
    return NertsTable(setup, agents)
