"""``cardcore play three-thirteen``: you (seat 0) against 1–5 AI seats.

:class:`ThreeThirteenSession` holds the engine state and the AI seats (no Textual);
:class:`ThreeThirteenApp` is the table on screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text

from cardcore.cards import JOKER0, rank_of
from cardcore.errors import IllegalMoveError
from cardcore.play.common import (
    YOU,
    PlayConfig,
    TurnSession,
    card_label,
    card_text,
    rank_label,
    score_table,
)
from cardcore.play.widgets import TableApp, TextPanel
from cardcore.rng import Rng
from cardcore.three_thirteen.game import game_for
from cardcore.three_thirteen.hand import HandView, arrange_hand
from cardcore.three_thirteen.rules import (
    DRAW_DISCARD,
    DRAW_STOCK,
    NUM_ROUNDS,
    Discard,
    DrawDiscard,
    DrawStock,
    Move,
    Options,
    State,
)
from cardcore.three_thirteen.spec import build_replay

__all__ = ["HandView", "ThreeThirteenApp", "ThreeThirteenSession"]

GAME = "three-thirteen"


class ThreeThirteenSession(TurnSession[State]):
    """One game against the AIs: the engine :class:`State`, the agents and your moves."""

    def __init__(
        self,
        players: int = 4,
        ai: str = "normal",
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(GAME, players, ai, seed)
        self.options = Options.from_mapping(players, dict(options or {}))
        self.state = game_for(self.options).new_state(seed)
        self.rngs = [Rng.for_stream(seed, s, "agent") for s in range(players)]

    @property
    def num_decks(self) -> int:
        return self.state.num_decks

    def face(self, card_id: int) -> int:
        return self.state.face_of[card_id]

    def text_of(self, card_id: int) -> str:
        return card_label(self.face(card_id))

    @property
    def your_turn(self) -> bool:
        return not self.state.over and self.state.current == YOU

    @property
    def rounds_done(self) -> int:
        return len(self.state.round_scores)

    def _describe(self, move: Move) -> str:
        if isinstance(move, DrawStock):
            return "drew from the stock"
        if isinstance(move, DrawDiscard):
            return f"took {self.text_of(self.state.discard_pile[-1])} from the discard pile"
        return f"discarded {self.text_of(move.card_id)}"

    def _apply(self, seat: int, move: Move) -> str:
        what = self._describe(move)
        rounds = self.rounds_done
        self.state.apply(move)  # raises IllegalMoveError, state unchanged
        if self.rounds_done != rounds:
            self.last = [""] * self.state.num_players
            return what
        if isinstance(move, Discard) and self.last[seat].startswith(("drew", "took")):
            self.last[seat] = f"{self.last[seat]}, {what}"
        else:
            self.last[seat] = what
        return what

    def play(self, move: Move) -> str:
        """Your move; raises :class:`IllegalMoveError` (nothing changes) when refused."""
        self._check_your_turn()
        phase = self.state.phase
        if phase == "draw" and isinstance(move, Discard):
            raise IllegalMoveError("draw first (s = stock, p = discard pile)")
        if phase == "discard" and not isinstance(move, Discard):
            raise IllegalMoveError("you already drew this turn; now discard a card")
        return self._apply(YOU, move)

    def draw_stock(self) -> str:
        return self.play(DRAW_STOCK)

    def draw_pile(self) -> str:
        return self.play(DRAW_DISCARD)

    def discard(self, card_id: int) -> str:
        return self.play(Discard(card_id))

    def hand_view(self) -> HandView:
        """Your hand's best arrangement (melds grouped, deadwood points) from the meld solver."""
        o = self.state.observation(YOU)
        return arrange_hand(o.hand, o.wild_rank, self.options)

    def replay(self) -> dict[str, Any]:
        """The finished game's replay (``cardcore replay`` verifies it)."""
        return build_replay(self.state, self.seed, list(self.agent_names))

    def score_sheet(self) -> Text:
        """Round-by-round scores and totals."""
        st = self.state
        rows = []
        for r, scores in enumerate(st.round_scores):
            out = st.went_out[r]
            cells = [("*" if s == out else "") + str(x) for s, x in enumerate(scores)]
            rows.append((f"{r + 1:<7}{rank_label(r + 3)}", cells, ""))
        head = "Round".ljust(7) + "Wild".ljust(6)
        return score_table(self.names, head, rows, st.totals, "(* went out)")


HELP_3_13 = """
Three-Thirteen Rummy: 11 rounds. Round 1 deals 3 cards and 3s are wild, round 2 deals 4 and 4s
are wild, ... round 11 deals 13 and kings are wild. Jokers (option) are always wild.

On your turn draw one card (the stock or the top of the discard pile), then discard one.
Arrange your cards in melds: sets (3+ of a rank) and runs (3+ in sequence, same suit; ace low).
Wild cards stand for any card. Unmelded cards are deadwood: A=1, 2-10 face value, J/Q/K 10,
an unmelded wild 15, a joker 20.

When your whole hand melds after a discard you go out: everyone else gets one last turn, then
each hand's deadwood is added to its total (the player who went out scores 0).
Lowest total after 11 rounds wins. Your hand is shown in its best arrangement: [melds] | deadwood.
"""

KEYS_3_13 = (
    "s draw stock · p take discard pile · ←/→ (or h/l) select card · d/Enter discard selected · "
    "? help · Ctrl+Q quit"
)


class ThreeThirteenApp(TableApp):
    """The Three-Thirteen table."""

    TITLE = "cardcore · Three-Thirteen"
    HELP: ClassVar[str] = HELP_3_13
    RULES: ClassVar[str] = "three-thirteen"
    KEYS: ClassVar[str] = KEYS_3_13

    def __init__(self, config: PlayConfig) -> None:
        super().__init__(config)
        self.session = ThreeThirteenSession(config.players, config.ai, self.seed, config.options)
        self.opponents_panel = TextPanel(id="opponents", classes="box")
        self.table_panel = TextPanel(id="table", classes="box")
        self.hand_panel = TextPanel(id="hand", classes="box")
        self.cursor = 0
        self._rounds_seen = 0

    def game_panels(self) -> Sequence[TextPanel]:
        return (self.opponents_panel, self.table_panel, self.hand_panel)

    # -- view ---------------------------------------------------------------------------------

    def _order(self) -> list[int]:
        return self.session.hand_view().order

    def refresh_view(self) -> None:
        s = self.session
        st = s.state
        rnd = min(st.round, NUM_ROUNDS)
        self.title_panel.show(
            f"Three-Thirteen · round {rnd}/{NUM_ROUNDS} · {st.cards_dealt} cards · "
            f"wild rank {rank_label(st.wild_rank)}"
            + (" + jokers" if st.options.jokers else "")
            + f" · seed {self.seed} · AI {self.config.ai}"
        )
        opp = Text()
        for seat in range(1, st.num_players):
            mark = "▶ " if st.current == seat and not st.over else "  "
            line = (
                f"{mark}{s.names[seat]:<10} {len(st.hands[seat]):>2} cards  "
                f"total {st.totals[seat]:>3}"
            )
            if st.dealer == seat:
                line += "  (dealer)"
            if st.out_seat == seat:
                line += "  OUT"
            opp.append(line + "   " + s.last[seat] + "\n", style="bold" if mark.strip() else "")
        opp.rstrip()
        self.opponents_panel.show(opp)
        self.opponents_panel.border_title = "Opponents"
        table = Text(f"Stock: {len(st.stock)} cards    Discard pile: ")
        if st.discard_pile:
            top = st.discard_pile[-1]
            table.append_text(card_text(s.face(top), wild=self._is_wild(top)))
            table.append(f"  ({len(st.discard_pile)} cards)")
        else:
            table.append("empty")
        if st.out_seat is not None and not st.over:
            table.append(f"\n{s.names[st.out_seat]} went out: final turns!", style="bold yellow")
        self.table_panel.show(table)
        self.table_panel.border_title = "Table"
        self.hand_panel.show(self._hand_text())
        self.hand_panel.border_title = f"Your hand · total {st.totals[YOU]}" + (
            " · dealer" if st.dealer == YOU else ""
        )
        self.message_panel.show(self.message)

    def _is_wild(self, card_id: int) -> bool:
        f = self.session.face(card_id)
        return f >= JOKER0 or rank_of(f) == self.session.state.wild_rank

    def _hand_text(self) -> Text:
        s = self.session
        st = s.state
        view = s.hand_view()
        order = view.order
        if order:
            self.cursor = max(0, min(self.cursor, len(order) - 1))
        sel = order[self.cursor] if order and st.phase == "discard" and s.your_turn else None
        out = Text()
        for meld in view.melds:
            out.append("[")
            for k, (cid, stands) in enumerate(meld):
                if k:
                    out.append(" ")
                out.append_text(
                    card_text(s.face(cid), highlight=cid == sel, wild=self._is_wild(cid))
                )
                if stands is not None and stands != s.face(cid):
                    out.append(f"={card_label(stands)}", style="dim")
            out.append("] ")
        if view.deadwood:
            out.append("| ")
            for cid in view.deadwood:
                out.append_text(
                    card_text(s.face(cid), highlight=cid == sel, wild=self._is_wild(cid))
                )
                out.append(" ")
        out.append(f"   deadwood {view.points}")
        if st.drawn is not None and s.your_turn and st.phase == "discard":
            out.append(f"\nYou drew {s.text_of(st.drawn)}.", style="dim")
        if sel is not None:
            out.append(f"  Selected: {s.text_of(sel)}", style="bold")
        if st.over:
            out.append("\nThe game is over (Ctrl+Q quits).", style="bold")
        elif s.your_turn and st.phase == "draw":
            out.append("\nYour turn: draw (s = stock, p = discard pile).", style="bold green")
        elif s.your_turn:
            out.append(
                "\nYour turn: pick a card with ←/→ and discard it (d or Enter).",
                style="bold green",
            )
        else:
            out.append(f"\n{s.names[st.current]} is playing…", style="italic")
        return out

    # -- input ---------------------------------------------------------------------------------

    def game_key(self, key: str, char: str | None) -> bool:
        s = self.session
        if self.sheet_open:
            return False
        if key in ("left", "h", "right", "l"):
            n = len(s.state.hands[YOU])
            if n:
                step = -1 if key in ("left", "h") else 1
                self.cursor = (self.cursor + step) % n
            return True
        actions = {"s": "stock", "p": "pile", "d": "discard", "enter": "discard"}
        act = actions.get(key)
        if act is None:
            return False
        before = s.rounds_done
        try:
            if act == "stock":
                what = s.draw_stock()
            elif act == "pile":
                what = s.draw_pile()
            else:
                order = self._order()
                if not order:
                    raise IllegalMoveError("you have no card to discard")
                what = s.discard(order[min(self.cursor, len(order) - 1)])
        except IllegalMoveError as e:
            self.say(f"Not allowed: {e}")
            return True
        self.say(f"You {what}.")
        if act in ("stock", "pile") and s.state.drawn is not None:
            order = self._order()
            if s.state.drawn in order:
                self.cursor = order.index(s.state.drawn)
        if not self._check_round_end(before, prefix=f"You {what}. "):
            self.schedule_ai()
        return True

    # -- AI and round ends ----------------------------------------------------------------------

    def ai_step(self) -> bool:
        before = self.session.rounds_done
        if not self.session.ai_step():
            return False
        self._pending_round_check = before
        return True

    _pending_round_check = 0

    def after_ai_step(self) -> bool:
        return not self._check_round_end(self._pending_round_check)

    def _check_round_end(self, rounds_before: int, prefix: str = "") -> bool:
        """Opens the score sheet when a round (or the game) just ended; True if it did."""
        s = self.session
        if s.rounds_done == rounds_before:
            return False
        r = s.rounds_done
        out = s.state.went_out[r - 1]
        head = f"Round {r} over: " + (
            f"{s.names[out]} went out." if out is not None else "nobody went out."
        )
        if s.state.over:
            res = s.state.result()
            if res["winner"] is not None:
                who = s.names[res["winner"]]
                verdict = "You win!" if res["winner"] == YOU else f"{who} wins."
            else:
                verdict = "Tie: " + ", ".join(s.names[t] for t in res["tied"]) + "."
            self.show_final(
                s.replay(),
                title="Final scores",
                end=f"Game over. {verdict}",
                said=prefix,
                body=Text(head + "\n\n").append_text(s.score_sheet()),
            )
        else:
            self.say(prefix + head)
            self.show_sheet(
                f"Scores after round {r}",
                Text(head + "\n\n")
                .append_text(s.score_sheet())
                .append(f"\n\nNext: round {r + 1}, {r + 3} cards, {rank_label(r + 3)}s wild."),
            )
        return True
