"""``cardcore play spite-malice``: you (seat 0) against 1–3 AI seats, a match to 50.

:class:`SpiteSession` holds the match, the engine state and the AI seats (no Textual);
:class:`SpiteMaliceApp` is the table on screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text

from cardcore.cards import JOKER0, face_of
from cardcore.errors import IllegalMoveError
from cardcore.games.base import GameRequest
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
from cardcore.rng import Rng, derive_seed
from cardcore.spite_malice.game import game_for
from cardcore.spite_malice.rules import (
    Discard,
    Move,
    Options,
    PlayHand,
    PlayPayOff,
    PlaySide,
    State,
    move_text,
)
from cardcore.spite_malice.spec import game_record, match_over, match_record

__all__ = ["SpiteMaliceApp", "SpiteSession"]

GAME = "spite-malice"
HAND_KEYS = "123456789"
SIDE_KEYS = "asdfghjk"
CENTRE_KEYS = "zxcvbnm,"


class SpiteSession(TurnSession[State]):
    """A match against the AIs: games until a total reaches ``target_score`` (`cardcore rules
    spite-malice`).

    Game ``g`` of a match seeded ``S`` is dealt from ``derive_seed(S, g, "match-game")``, as in
    ``GameSpec.play_match``; the match record it builds is what ``verify_replay`` checks.
    """

    def __init__(
        self,
        players: int = 2,
        ai: str = "normal",
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(GAME, players, ai, seed)
        self.options = Options.from_mapping(players, dict(options or {}))
        self.totals = [0] * players
        self.games: list[dict[str, Any]] = []
        self.game_index = -1
        self.new_game()

    @property
    def decks(self) -> int:
        return self.options.decks

    @property
    def match_over(self) -> bool:
        return match_over(self.totals, self.options.target_score)

    def new_game(self) -> None:
        """Deals the next game of the match."""
        self.game_index += 1
        self.game_seed = derive_seed(self.seed, self.game_index, "match-game")
        self.state = game_for(self.options).new_state(self.game_seed)
        p = self.options.num_players
        self.rngs = [Rng.for_stream(self.game_seed, s, "agent") for s in range(p)]
        self.log: list[list[Any]] = []
        self.last = [""] * p
        self.recorded = False

    @property
    def your_turn(self) -> bool:
        return not self.state.over and self.state.current == YOU

    def face(self, card_id: int) -> int:
        return min(face_of(card_id, self.decks), JOKER0)  # every joker shows as one face

    def label(self, card_id: int) -> str:
        return card_label(self.face(card_id))

    def describe(self, seat: int, move: Move) -> str:
        st = self.state
        if isinstance(move, PlayPayOff):
            card = st.payoffs[seat][-1]
            return f"played pay-off {self.label(card)} to C{move.center + 1}"
        if isinstance(move, PlaySide):
            card = st.sides[seat][move.side][-1]
            return f"played {self.label(card)} from S{move.side + 1} to C{move.center + 1}"
        if isinstance(move, PlayHand):
            return f"played {self.label(move.card_id)} to C{move.center + 1}"
        return f"discarded {self.label(move.card_id)} to S{move.side + 1}"

    def _apply(self, seat: int, move: Move) -> str:
        what = self.describe(seat, move)
        self.state.apply(move)  # raises IllegalMoveError, state unchanged
        self.log.append([seat, move_text(move, self.decks)])
        self.last[seat] = what
        if self.state.over:
            self._record()
        return what

    def play(self, move: Move) -> str:
        """Your move; raises :class:`IllegalMoveError` (nothing changes) when refused."""
        self._check_your_turn()
        why = self._misfit(move)
        if why is not None:
            raise IllegalMoveError(why)
        return self._apply(YOU, move)

    def _misfit(self, move: Move) -> str | None:
        """A plain-words reason when a card does not fit the centre stack it is played on."""
        st = self.state
        if not isinstance(move, PlayPayOff | PlaySide | PlayHand) or st.is_legal(move):
            return None
        if not 0 <= move.center < len(st.center):
            return None
        if isinstance(move, PlayPayOff):
            card = st.payoffs[YOU][-1] if st.payoffs[YOU] else None
        elif isinstance(move, PlaySide):
            side = st.sides[YOU][move.side] if 0 <= move.side < len(st.sides[YOU]) else []
            card = side[-1] if side else None
        else:
            card = move.card_id if move.card_id in st.hands[YOU] else None
        if card is None:
            return None
        eff = len(st.center[move.center])
        wild = "a king" if self.options.wild_mode == "kings" else "a joker"
        if eff == 0:
            need = f"an ace or {wild}" if self.options.king_can_start_stack else "an ace"
        else:
            need = f"a {rank_label(eff + 1)} or {wild}"
        return f"{self.label(card)} does not go on C{move.center + 1}: it needs {need}"

    def _record(self) -> None:
        if self.recorded:
            return
        self.recorded = True
        st = self.state
        o = self.options
        for s, pts in enumerate(st.scores):
            self.totals[s] += pts
        self.games.append(
            game_record(o, self.game_seed, self.game_index, self.agent_names, st, self.log)
        )

    def match_record(self) -> dict[str, Any]:
        """The match so far as a record ``cardcore replay`` verifies (every game replayed)."""
        head = GameRequest(0, self.seed, self.options.num_players, tuple(self.agent_names))
        return match_record(
            head.record_head(GAME), self.totals, self.games, self.options.target_score
        )

    def score_sheet(self) -> Text:
        rows = []
        for g in self.games:
            res = "tie" if g["winner"] is None else f"{self.names[g['winner']]} won"
            rows.append((str(g["index"] + 1), g["scores"], f"   {res} ({g['end_reason']})"))
        target = f"(match to {self.options.target_score})"
        return score_table(
            self.names, "Game".ljust(6), rows, self.totals, target, after="   result"
        )


HELP_SPITE = """
Spite & Malice: empty your pay-off pile first. Centre stacks are built up from A to Q, one rank
at a time, by everyone; a king is wild and stands for the rank the stack needs (it shows what it
stands for). A full stack (Q) is cleared.

On your turn play cards to the centre from the top of your pay-off pile, your hand or the tops
of your side stacks, as many as you can or like. End your turn by discarding one hand card to
one of your side stacks. If you play your whole hand you draw five more.

When your pay-off pile is empty you win the game and score 1 point per card left in the other
players' pay-off piles. The match goes on until someone reaches 50.
"""

KEYS_SPITE = (
    "select: p pay-off · 1-9 hand card · a s d f side stack · then z x c v … centre stack "
    "(play) or a s d f side stack (discard a hand card) · Esc clear · ? help · Ctrl+Q quit"
)


class SpiteMaliceApp(TableApp):
    """The Spite & Malice table."""

    TITLE = "cardcore · Spite & Malice"
    HELP: ClassVar[str] = HELP_SPITE
    RULES: ClassVar[str] = "spite-malice"
    KEYS: ClassVar[str] = KEYS_SPITE

    def __init__(self, config: PlayConfig) -> None:
        super().__init__(config)
        self.session = SpiteSession(config.players, config.ai, self.seed, config.options)
        self.opponents_panel = TextPanel(id="opponents", classes="box")
        self.centre_panel = TextPanel(id="centre", classes="box")
        self.you_panel = TextPanel(id="you", classes="box")
        self.selected: tuple[str, int] | None = None

    def game_panels(self) -> Sequence[TextPanel]:
        return (self.opponents_panel, self.centre_panel, self.you_panel)

    # -- view ---------------------------------------------------------------------------------

    def _card(self, card_id: int | None, highlight: bool = False) -> Text:
        if card_id is None:
            return Text("-", style="dim")
        s = self.session
        wild = s.state.rank(card_id) == 0
        return card_text(s.face(card_id), highlight=highlight, wild=wild)

    def refresh_view(self) -> None:
        s = self.session
        st = s.state
        o = s.options
        self.title_panel.show(
            f"Spite & Malice · game {s.game_index + 1} · match to {o.target_score} · "
            f"seed {self.seed} · AI {self.config.ai} · turn {st.turn}"
        )
        opp = Text()
        for seat in range(1, o.num_players):
            mark = "▶ " if st.current == seat and not st.over else "  "
            opp.append(f"{mark}{s.names[seat]:<10} pay-off ")
            pay = st.payoffs[seat]
            opp.append_text(self._card(pay[-1] if pay else None))
            opp.append(f" ({len(pay)} left)  hand {len(st.hands[seat])}  sides ")
            for i, side in enumerate(st.sides[seat]):
                if i:
                    opp.append(" ")
                opp.append_text(self._card(side[-1] if side else None))
            opp.append(f"  match {s.totals[seat]}")
            if s.last[seat]:
                opp.append(f"   {s.last[seat]}", style="dim")
            opp.append("\n")
        opp.rstrip()
        self.opponents_panel.show(opp)
        self.opponents_panel.border_title = "Opponents"
        centre = Text()
        for i, stack in enumerate(st.center):
            key = CENTRE_KEYS[i] if i < len(CENTRE_KEYS) else " "
            centre.append(f"C{i + 1}[{key}]: ")
            if not stack:
                centre.append("empty", style="dim")
            else:
                eff = len(stack)
                top = stack[-1]
                centre.append(f"{rank_label(eff)} (top ")
                centre.append_text(self._card(top))
                if st.rank(top) == 0:
                    centre.append(f" as {rank_label(eff)}", style="magenta")
                centre.append(")")
            centre.append("   ")
        centre.append(f"\nStock {len(st.stock)} cards")
        self.centre_panel.show(centre)
        self.centre_panel.border_title = "Centre stacks"
        self.you_panel.show(self._you_text())
        self.you_panel.border_title = f"You · match {s.totals[YOU]}"
        self.message_panel.show(self.message)

    def _you_text(self) -> Text:
        s = self.session
        st = s.state
        sel = self.selected
        out = Text("Pay-off [p]: ")
        pay = st.payoffs[YOU]
        out.append_text(self._card(pay[-1] if pay else None, sel == ("pay", 0)))
        out.append(f" ({len(pay)} left)\nSide stacks: ")
        for i, side in enumerate(st.sides[YOU]):
            out.append(f" S{i + 1}[{SIDE_KEYS[i]}]: ")
            if not side:
                out.append("-", style="dim")
            for k, c in enumerate(side):
                if k:
                    out.append(" ")
                out.append_text(self._card(c, sel == ("side", i) and k == len(side) - 1))
        out.append("\nHand: ")
        for i, c in enumerate(st.hands[YOU]):
            out.append(f" [{HAND_KEYS[i] if i < len(HAND_KEYS) else ' '}] ")
            out.append_text(self._card(c, sel == ("hand", i)))
        if sel is not None:
            out.append(f"\nSelected: {self._selected_text()}", style="bold")
        if st.over:
            out.append("\nThe game is over.", style="bold")
        elif s.your_turn:
            hint = (
                "play it on a centre stack (z x c …)"
                + (" or discard it to a side stack (a s d f)" if sel and sel[0] == "hand" else "")
                if sel is not None
                else "select a card to play (p, 1-9, a s d f)"
            )
            out.append(f"\nYour turn: {hint}.", style="bold green")
        else:
            out.append(f"\n{s.names[st.current]} is playing…", style="italic")
        return out

    def _selected_text(self) -> str:
        s = self.session
        st = s.state
        if self.selected is None:
            return ""
        kind, i = self.selected
        if kind == "pay":
            return f"pay-off {s.label(st.payoffs[YOU][-1])}"
        if kind == "side":
            return f"S{i + 1} {s.label(st.sides[YOU][i][-1])}"
        return f"hand {s.label(st.hands[YOU][i])}"

    # -- input ---------------------------------------------------------------------------------

    def game_key(self, key: str, char: str | None) -> bool:
        s = self.session
        st = s.state
        if self.sheet_open:
            return False
        if key == "escape":
            self.selected = None
            return True
        c = char or ""
        if c == "p":
            if not st.payoffs[YOU]:
                self.say("Your pay-off pile is empty.")
            else:
                self.selected = ("pay", 0)
            return True
        if c and c in HAND_KEYS:
            i = HAND_KEYS.index(c)
            if i >= len(st.hands[YOU]):
                self.say(f"You have no hand card {i + 1}.")
            else:
                self.selected = ("hand", i)
            return True
        if c and c in SIDE_KEYS:
            i = SIDE_KEYS.index(c)
            if i >= s.options.num_side_stacks:
                self.say(f"There is no side stack S{i + 1}.")
                return True
            if self.selected is not None and self.selected[0] == "hand":
                card = st.hands[YOU][self.selected[1]]
                return self._play(Discard(card, i))
            if not st.sides[YOU][i]:
                self.say(f"Side stack S{i + 1} is empty.")
            else:
                self.selected = ("side", i)
            return True
        if c and c in CENTRE_KEYS:
            i = CENTRE_KEYS.index(c)
            if self.selected is None:
                self.say("Select a card first (p, 1-9 or a s d f).")
                return True
            kind, k = self.selected
            move: Move
            if kind == "pay":
                move = PlayPayOff(i)
            elif kind == "side":
                move = PlaySide(k, i)
            else:
                move = PlayHand(st.hands[YOU][k], i)
            return self._play(move)
        return False

    def _play(self, move: Move) -> bool:
        s = self.session
        try:
            what = s.play(move)
        except IllegalMoveError as e:
            self.say(f"Not allowed: {e}")
            return True
        self.selected = None
        self.say(f"You {what}.")
        if not self._check_game_end():
            self.schedule_ai()
        return True

    def ai_step(self) -> bool:
        return self.session.ai_step()

    def after_ai_step(self) -> bool:
        return not self._check_game_end()

    def _check_game_end(self) -> bool:
        s = self.session
        st = s.state
        if not st.over:
            return False
        if st.winner is None:
            head = f"Game {s.game_index + 1}: a tie ({st.end_reason})."
        else:
            who = "You" if st.winner == YOU else s.names[st.winner]
            head = f"Game {s.game_index + 1}: {who} won, {st.scores[st.winner]} points."
        body = Text(head + "\n\n").append_text(s.score_sheet())
        if s.match_over:
            rec = s.match_record()
            if rec["winner"] is not None:
                verdict = (
                    "You win the match!"
                    if rec["winner"] == YOU
                    else (f"{s.names[rec['winner']]} wins the match.")
                )
            else:
                verdict = "The match is tied."
            self.show_final(
                rec, title="Match over", end=f"Match over. {verdict}", said=f"{head} ", body=body
            )
        else:
            self.say(head)
            self.show_sheet(
                f"After game {s.game_index + 1}",
                body.append("\n\nEnter: deal the next game."),
                then=self._next_game,
            )
        return True

    def _next_game(self) -> None:
        self.session.new_game()
        self.selected = None
        self.say(f"Game {self.session.game_index + 1} dealt.")
