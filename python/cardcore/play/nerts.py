"""``cardcore play nerts``: real-time Nerts against 1–3 AI seats, a match to 100.

Each round is the embedding protocol's real-time state (``game.new_state(seed, agents=...)``, a
discrete-event simulation with an integer millisecond clock). The app drives that clock from a
Textual timer (the table's elapsed time, paused while a help or score screen is open) and
submits your actions with ``state.submit(0, action, now)``; the screen shows
``state.observation(0)``. :class:`NertsSession` holds the match (no Textual).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rich.text import Text

from cardcore.cards import deck_of, natural_face
from cardcore.errors import IllegalMoveError
from cardcore.games.base import GameRequest, get_game
from cardcore.nerts.engine import NertsObservation, PublicPlayer
from cardcore.nerts.game import game_for
from cardcore.nerts.rules import (
    CALL,
    FLIP,
    NERTS,
    RECYCLE,
    UNDO,
    WASTE,
    Action,
    CallNerts,
    Flip,
    Options,
    Recycle,
    ToFoundation,
    ToWork,
    Undo,
    parse_action,
)
from cardcore.nerts.spec import NertsMatch
from cardcore.play.common import (
    HUMAN,
    YOU,
    PlayConfig,
    card_label,
    card_text,
    play_agent,
    score_table,
    seat_names,
)
from cardcore.play.widgets import TableApp, TextPanel

__all__ = ["NertsApp", "NertsSession", "describe_action"]

GAME = "nerts"
TICK_S = 0.1


def _src_name(src: int) -> str:
    return "Nerts pile" if src == NERTS else "waste" if src == WASTE else f"work pile {src + 1}"


def source_top(player: PublicPlayer, src: int) -> int | None:
    """The card on top of a seat's pile ``src`` (Nerts pile, waste or a work pile)."""
    if src == NERTS:
        return player.nerts_top
    if src == WASTE:
        return player.waste_top
    pile = player.work[src] if 0 <= src < len(player.work) else ()
    return pile[-1] if pile else None


def describe_action(action: Action) -> str:
    """Words for an action, work piles numbered from 1 as on screen."""
    if isinstance(action, ToFoundation):
        return f"{_src_name(action.src)} to a foundation"
    if isinstance(action, ToWork):
        n = f"{action.depth} cards" if action.depth > 1 else "a card"
        return f"{n} from the {_src_name(action.src)} to work pile {action.pile + 1}"
    return {
        "flip": "flipped the stock",
        "recycle": "turned the waste over",
        "nerts": "called Nerts!",
        "undo": "undid the last move",
    }[str(action)]


class NertsSession:
    """A Nerts match on the embedding protocol: each round is a
    :class:`~cardcore.nerts.game.NertsState` (AI seats driven by its clock, your seat by
    ``submit``), the match a :class:`~cardcore.nerts.spec.NertsMatch`: rounds until a total
    reaches ``target_score`` with a single leader.
    """

    def __init__(
        self,
        players: int = 2,
        ai: str = "normal",
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        spec = get_game(GAME)
        self.seed = seed
        self.options = Options.from_mapping(players, dict(options or {}))
        self.game = game_for(self.options)
        self.ai_name = play_agent(spec, ai)
        self.agent_names = [HUMAN] + [self.ai_name] * (players - 1)
        self.names = seat_names(players)
        self.match = NertsMatch(seed, self.options, self.agent_names, human_seats=[YOU])
        self.round_index = -1
        self.new_round()

    def new_round(self) -> None:
        self.round_index += 1
        self.round_seed = self.match.round_seed(self.round_index)
        agents = [None] + [self.ai_name] * (self.options.num_players - 1)
        self.state = self.game.new_state(self.round_seed, agents=agents)
        self.recorded = False
        self._seen = 0
        self.last: list[str] = [""] * self.options.num_players

    @property
    def totals(self) -> list[int]:
        return self.match.totals

    @property
    def rounds(self) -> list[dict[str, Any]]:
        return self.match.rounds

    @property
    def match_over(self) -> bool:
        return self.match.over

    def observation(self, seat: int = YOU) -> NertsObservation:
        return self.state.observation(seat)

    def advance(self, t_ms: int) -> None:
        """Moves the round's clock to ``t_ms`` (the AIs act on the way)."""
        st = self.state
        if not st.is_over:
            st.advance_to(max(t_ms, st.now))
        self._note_events()
        self._maybe_record()

    def _note_events(self) -> None:
        log = self.state.events
        for t, seat, action, status in log[self._seen :]:
            if seat > 0 and status == "ok":
                words = describe_action(parse_action(action))
                self.last[seat] = f"{words} ({t / 1000:.1f}s)"
        self._seen = len(log)

    def act(self, action: Action, t_ms: int) -> None:
        """Your action at ``t_ms``: validated now, submitted, executed at once. Raises
        :class:`IllegalMoveError` (nothing changes) when it is refused."""
        self.advance(t_ms)
        st = self.state
        if st.is_over:
            raise IllegalMoveError("the round is over")
        if self.game.move_to_action(action) not in st.legal_actions(YOU):
            raise IllegalMoveError(self.why_illegal(action))
        n = len(st.events)
        st.submit(YOU, action, st.now)
        st.advance_to(st.now)
        mine = [row for row in st.events[n:] if row[1] == YOU]
        self._note_events()
        self._maybe_record()
        if mine and mine[0][3] != "ok":
            raise IllegalMoveError("too slow: an opponent got there first")

    def why_illegal(self, action: Action) -> str:
        me = self.observation().me
        if isinstance(action, CallNerts):
            return f"your Nerts pile still has {me.nerts_count} cards"
        if isinstance(action, Undo):
            return "nothing to undo"
        if isinstance(action, Flip):
            return "the stock is empty (space recycles the waste)"
        if isinstance(action, Recycle):
            return "the waste cannot be turned over now"
        src = action.src
        card = source_top(me, src)
        if card is None:
            return f"the {_src_name(src)} is empty"
        if isinstance(action, ToFoundation):
            return f"{card_label(natural_face(card))} does not fit on a foundation"
        return f"that does not go on work pile {action.pile + 1}"

    def _maybe_record(self) -> None:
        if not self.state.is_over or self.recorded:
            return
        self.recorded = True
        self.match.add(self.state)

    def match_record(self) -> dict[str, Any]:
        """The match as a record with a ``replay`` (kind ``match``, human inputs included)."""
        head = GameRequest(0, self.seed, self.options.num_players, tuple(self.agent_names))
        return self.match.record(head.record_head(GAME))

    def score_sheet(self) -> Text:
        rows = []
        for r, rr in enumerate(self.rounds):
            end = rr["end"]
            if rr["caller"] is not None:
                end = f"Nerts! by {self.names[rr['caller']]}"
            rows.append((str(r + 1), rr["scores"], f"   {end} ({rr['duration_ms'] / 1000:.0f}s)"))
        target = f"(match to {self.options.target_score})"
        return score_table(self.names, "Round".ljust(7), rows, self.totals, target, after="   end")


HELP_NERTS = """
Nerts is a race: everyone plays at once. Get rid of your Nerts pile.

Foundations in the middle are shared: start one with any ace, then build up in suit (A, 2, 3 …
K). Your work piles build down in alternating colours (a red 6 on a black 7); you may move the
top part of a work pile onto another. Your Nerts pile's top card can go to a foundation or a
work pile. Turn the stock three at a time onto the waste (space); the waste's top card plays.
When the stock is empty, space turns the waste over again.

When your Nerts pile is empty, call Nerts (c): the round ends. Score: +1 for each of your cards
on the foundations, -2 for each card left in your Nerts pile. The match goes to 100.
You may undo your last action (u). The AI opponents play in real time at the table speed.
"""

KEYS_NERTS = (
    "select: n Nerts pile · w waste · 1-5 work pile; then 1-5 (to that work pile) or f "
    "(to a foundation) · space flip / recycle · u undo · c call Nerts · Esc clear · "
    "? help · Ctrl+Q quit"
)


class NertsApp(TableApp):
    """The Nerts table. With ``realtime=False`` (tests) the clock moves only by :meth:`advance`."""

    TITLE = "cardcore · Nerts"
    HELP: ClassVar[str] = HELP_NERTS
    RULES: ClassVar[str] = "nerts"
    KEYS: ClassVar[str] = KEYS_NERTS

    def __init__(self, config: PlayConfig, *, realtime: bool = True) -> None:
        super().__init__(config)
        self.session = NertsSession(config.players, config.ai, self.seed, config.options)
        self.realtime = realtime
        self.elapsed_ms = 0
        self._last_tick: float | None = None
        self.found_panel = TextPanel(id="foundations", classes="box")
        self.opponents_panel = TextPanel(id="opponents", classes="box")
        self.you_panel = TextPanel(id="you", classes="box")
        self.selected: int | None = None
        self._ended_shown = False

    def game_panels(self) -> Sequence[TextPanel]:
        return (self.found_panel, self.opponents_panel, self.you_panel)

    def on_mount(self) -> None:
        super().on_mount()
        if self.realtime:
            self._last_tick = time.monotonic()
            self.set_interval(TICK_S, self._tick)

    # -- clock --------------------------------------------------------------------------------

    def _paused(self) -> bool:
        return self.sheet_open or self.screen is not self.screen_stack[0]

    def _tick(self) -> None:
        now = time.monotonic()
        last = self._last_tick if self._last_tick is not None else now
        self._last_tick = now
        if self._paused():
            return
        self.advance(round((now - last) * 1000))

    def advance(self, ms: int) -> None:
        """Moves the table clock ``ms`` forward; the AIs act on the way."""
        if self._paused() or self.session.state.is_over:
            return
        self.elapsed_ms += max(0, ms)
        self.session.advance(self.elapsed_ms)
        self._check_round_end()
        self.refresh_view()

    def ai_step(self) -> bool:
        return False  # the AIs act as the clock runs

    # -- view ---------------------------------------------------------------------------------

    def _card(self, cid: int | None, highlight: bool = False) -> Text:
        if cid is None:
            return Text("-", style="dim")
        return card_text(natural_face(cid), highlight=highlight)

    def refresh_view(self) -> None:
        s = self.session
        st = s.state
        o = s.observation()
        self.title_panel.show(
            f"Nerts · round {s.round_index + 1} · {st.now / 1000:5.1f} s · speed "
            f"{s.options.speed} · match to {s.options.target_score} · seed {self.seed} · "
            f"AI {self.config.ai}"
        )
        found = Text()
        if not o.foundations:
            found.append("none yet (any ace starts one)", style="dim")
        for i, top in enumerate(o.foundations):
            if i:
                found.append(" ")
            found.append_text(self._card(top))
        self.found_panel.show(found)
        self.found_panel.border_title = f"Foundations ({len(o.foundations)})"
        counts = [0] * s.options.num_players
        for pile in o.foundation_piles:
            for c in pile:
                counts[deck_of(c)] += 1
        opp = Text()
        for seat in range(1, s.options.num_players):
            p = o.players[seat]
            opp.append(f"{s.names[seat]:<10} Nerts ")
            opp.append_text(self._card(p.nerts_top))
            opp.append(f" ({p.nerts_count} left)  work ")
            for k, pile in enumerate(p.work):
                if k:
                    opp.append(" ")
                opp.append_text(self._card(pile[-1] if pile else None))
            opp.append("  waste ")
            opp.append_text(self._card(p.waste_top))
            opp.append(f"  on foundations {counts[seat]}  total {s.totals[seat]}")
            if s.last[seat]:
                opp.append(f"   {s.last[seat]}", style="dim")
            opp.append("\n")
        opp.rstrip()
        self.opponents_panel.show(opp)
        self.opponents_panel.border_title = "Opponents"
        self.you_panel.show(self._you_text(o.me, counts[YOU], o.waste_fan))
        self.you_panel.border_title = f"You · total {s.totals[YOU]}"
        self.message_panel.show(self.message)

    def _you_text(self, p: PublicPlayer, on_foundations: int, fan: Sequence[int] = ()) -> Text:
        s = self.session
        sel = self.selected
        out = Text("Nerts [n]: ")
        out.append_text(self._card(p.nerts_top, sel == NERTS))
        out.append(f" ({p.nerts_count} left)    on foundations {on_foundations}\n")
        for k, pile in enumerate(p.work):
            out.append(f"[{k + 1}] ")
            if not pile:
                out.append("empty", style="dim")
            for j, c in enumerate(pile):
                if j:
                    out.append(" ")
                out.append_text(self._card(c, sel == k and j == len(pile) - 1))
            out.append("\n")
        out.append(f"Stock {p.stock_count} · waste [w]: ")
        if p.waste_top is None:
            out.append("empty", style="dim")
        else:  # the last cards turned, fanned (only the top one, last, plays)
            for c in fan[:-1]:
                below = self._card(c)
                below.stylize("dim")
                out.append_text(below)
                out.append(" ")
            out.append_text(self._card(p.waste_top, sel == WASTE))
        if p.waste_count > 1:
            out.append(f"  ({p.waste_count} cards)", style="dim")
        if sel is not None:
            top = source_top(p, sel)
            label = card_label(natural_face(top)) if top is not None else "-"
            out.append(
                f"\nSelected: {_src_name(sel)} {label} → 1-{len(p.work)} work pile, f foundation",
                style="bold",
            )
        if s.state.is_over:
            out.append("\nThe round is over.", style="bold")
        elif not p.nerts_count:
            out.append("\nYour Nerts pile is empty: press c to call Nerts!", style="bold green")
        return out

    # -- input ---------------------------------------------------------------------------------

    def game_key(self, key: str, char: str | None) -> bool:
        if self._paused():
            return False
        s = self.session
        p = s.observation().me
        c = char or ""
        if key == "escape":
            self.selected = None
            return True
        if c == "n":
            self.selected = NERTS
            return True
        if c == "w":
            self.selected = WASTE
            return True
        if c.isdigit() and 1 <= int(c) <= len(p.work):
            k = int(c) - 1
            if self.selected is None:
                self.selected = k
                return True
            if self.selected == k:
                self.selected = None
                return True
            return self._act(self._to_work(self.selected, k))
        if c == "f":
            if self.selected is None:
                self.say("Select a card first (n, w or 1-5), then f.")
                return True
            return self._act(ToFoundation(self.selected))
        if key == "space":
            return self._act(FLIP if p.stock_count else RECYCLE)
        if c == "u":
            return self._act(UNDO)
        if c == "c":
            return self._act(CALL)
        return False

    def _to_work(self, src: int, pile: int) -> Action:
        if src in (NERTS, WASTE):
            return ToWork(src, 1, pile)
        for a in self.session.state.legal_moves(YOU):
            if isinstance(a, ToWork) and a.src == src and a.pile == pile:
                return a
        return ToWork(src, 1, pile)

    def _act(self, action: Action) -> bool:
        s = self.session
        if self.realtime and self._last_tick is not None:
            now = time.monotonic()
            self.elapsed_ms += round((now - self._last_tick) * 1000)
            self._last_tick = now
        try:
            s.act(action, self.elapsed_ms)
        except IllegalMoveError as e:
            self.say(f"Not allowed: {e}")
            return True
        self.selected = None
        self.say(f"You: {describe_action(action)}.")
        self._check_round_end()
        return True

    def _check_round_end(self) -> None:
        s = self.session
        if not s.state.is_over or self._ended_shown:
            return
        self._ended_shown = True
        rr = s.rounds[-1]
        if rr["caller"] is not None:
            who = "You" if rr["caller"] == YOU else s.names[rr["caller"]]
            head = f"Round {s.round_index + 1}: {who} called Nerts!"
        else:
            head = f"Round {s.round_index + 1} ended ({rr['end']})."
        body = Text(head + "\n\n").append_text(s.score_sheet())
        if s.match_over:
            rec = s.match_record()
            w = rec["winner"]
            verdict = "You win the match!" if w == YOU else f"{s.names[w]} wins the match."
            self.show_final(
                rec, title="Match over", end=f"Match over. {verdict}", said=f"{head} ", body=body
            )
        else:
            self.say(head)
            self.show_sheet(
                f"After round {s.round_index + 1}",
                body.append("\n\nEnter: deal the next round."),
                then=self._next_round,
            )

    def _next_round(self) -> None:
        self.session.new_round()
        self.elapsed_ms = 0
        self.selected = None
        self._ended_shown = False
        self.say(f"Round {self.session.round_index + 1}: go!")
