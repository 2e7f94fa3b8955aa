"""Game-neutral pieces of ``cardcore play`` that do not need Textual.

AI levels, seeds (``--seed`` / ``--daily``), replay files and card text with suit colours. The
per-game *sessions* (``cardcore.play.<game>``'s ``*Session`` classes) hold the engine state and
apply moves; they use only this module, so they are testable without a terminal.
"""

from __future__ import annotations

import datetime as _dt
import itertools
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Generic, Protocol, TypeVar

from rich.text import Text

from cardcore.cards import is_joker, is_red, rank_of, suit_of
from cardcore.errors import IllegalMoveError
from cardcore.games.base import HUMAN, Agent, GameSpec, get_game
from cardcore.games.levels import PLAY_LEVELS, agent_for_level, play_agent
from cardcore.outfiles import OutputBusyError, write_text
from cardcore.rng import Rng, derive_seed, new_seed

__all__ = [
    "AI_LEVELS",
    "HUMAN",
    "YOU",
    "PlayConfig",
    "TurnSession",
    "agent_for_level",
    "card_label",
    "card_text",
    "daily_seed",
    "default_replay_path",
    "play_agent",
    "rank_label",
    "score_table",
    "seat_names",
    "write_replay",
]

YOU: Final = 0
"""Your seat at every table."""

AI_LEVELS: Final = PLAY_LEVELS
"""The AI levels offered (``easy``, ``normal``, ``hard``, ``expert``): rungs of the ladder in
:mod:`cardcore.games.levels`; :func:`agent_for_level` names each level's agent."""
_SUITS: Final = "♣♦♥♠"
_RANKS: Final = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def daily_seed(day: _dt.date | None = None) -> int:
    """The seed of the daily deal: ``derive_seed(YYYYMMDD, 0, "daily")`` for ``day`` (UTC today
    by default), the same for everyone on that date."""
    d = day if day is not None else _dt.datetime.now(_dt.UTC).date()
    return derive_seed(int(d.strftime("%Y%m%d")), 0, "daily")


def seat_names(players: int) -> list[str]:
    """Display names: seat 0 is "You", the others clockwise from your left."""
    table = {
        2: ["Top"],
        3: ["Left", "Right"],
        4: ["Left", "Top", "Right"],
        5: ["Left", "Top-left", "Top-right", "Right"],
        6: ["Left", "Top-left", "Top", "Top-right", "Right"],
    }
    return ["You", *table.get(players, [f"Seat {s}" for s in range(1, players)])]


def score_table(
    names: Sequence[str],
    head: str,
    rows: Sequence[tuple[str, Sequence[object], str]],
    totals: Sequence[int],
    footer: str,
    *,
    after: str = "",
) -> Text:
    """A match's score sheet: a heading (``head``, whose width is the label column's, a column
    per seat, then ``after``), a line per game or round (its label, a cell per seat, then its
    tail), a rule, the totals and ``footer``."""
    w = max(len(n) for n in names) + 2
    width = len(head)
    lines = [head + "".join(n.rjust(w) for n in names) + after]
    for label, cells, tail in rows:
        lines.append(label.ljust(width) + "".join(str(c).rjust(w) for c in cells) + tail)
    lines.append("-" * len(lines[0]))
    lines.append("Total".ljust(width) + "".join(str(t).rjust(w) for t in totals))
    lines.append(footer)
    return Text("\n".join(lines))


def rank_label(rank: int) -> str:
    """``"A"``, ``"2"`` … ``"10"``, ``"J"``, ``"Q"``, ``"K"`` for 1..13."""
    return _RANKS[rank] if 1 <= rank <= 13 else "?"


def card_label(face: int) -> str:
    """Plain text of a face code: ``"7♥"``, ``"10♠"``, jokers ``"JK"``."""
    if is_joker(face):
        return "JK"
    return rank_label(rank_of(face)) + _SUITS[suit_of(face)]


def card_text(face: int, *, highlight: bool = False, wild: bool = False) -> Text:
    """A card as coloured text (red suits red, jokers and wild cards magenta)."""
    label = card_label(face)
    style = "bold red" if not is_joker(face) and is_red(face) else "bold"
    if is_joker(face) or wild:
        style = "bold magenta"
    if highlight:
        style += " reverse"
    return Text(label, style=style)


@dataclass(frozen=True, slots=True)
class PlayConfig:
    """Command-line choices shared by every game."""

    game: str
    players: int
    ai: str = "normal"
    seed: int | None = None
    daily: bool = False
    replay_file: str | None = None
    delay: float = 0.6
    """Seconds between two AI moves shown one by one (0 = instant; tests use 0)."""
    options: Mapping[str, Any] | None = None
    save_replay: bool = True

    def resolved_seed(self) -> int:
        if self.seed is not None:
            return self.seed
        if self.daily:
            return daily_seed()
        return new_seed()

    def spec(self) -> GameSpec:
        return get_game(self.game)


def default_replay_path(game: str, when: _dt.datetime | None = None) -> Path:
    """``~/.cardcore/replays/<game>-<UTC timestamp>.jsonl``."""
    t = when if when is not None else _dt.datetime.now(_dt.UTC)
    home = Path(os.path.expanduser("~"))
    return home / ".cardcore" / "replays" / f"{game}-{t.strftime('%Y%m%dT%H%M%S')}.jsonl"


def write_replay(record: Mapping[str, Any], path: str | Path | None, game: str) -> Path:
    """Writes ``record`` as one JSON line (the format ``cardcore replay`` reads); returns the
    path (parents created). Without ``path``, :func:`default_replay_path`, never replacing a
    replay there: a game ending in the same second gets ``-2``, ``-3``, ... appended."""
    text = json.dumps(record, separators=(",", ":")) + "\n"
    if path is not None:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        write_text(str(p), text)
        return p
    base = default_replay_path(game)
    base.parent.mkdir(parents=True, exist_ok=True)
    for k in itertools.count(1):
        p = base if k == 1 else base.with_name(f"{base.stem}-{k}{base.suffix}")
        try:
            write_text(str(p), text, exclusive=True)
        except (FileExistsError, OutputBusyError):
            continue
        return p
    raise AssertionError("unreachable")  # pragma: no cover


class _TurnState(Protocol):
    """What a turn-based engine state offers a session."""

    @property
    def over(self) -> bool: ...

    @property
    def current(self) -> int: ...

    def observation(self, seat: int) -> Any: ...

    def legal_moves(self) -> Sequence[Any]: ...


StateT = TypeVar("StateT", bound=_TurnState)


class TurnSession(Generic[StateT]):
    """The part the turn-based sessions share: you in seat :data:`YOU`, AIs of one level in the
    other seats, whose turn it is and the AIs' moves. Subclasses hold the engine ``state`` and
    the agents' ``rngs``, and apply a move with ``_apply(seat, move)`` (returning what
    happened, in words)."""

    state: StateT
    rngs: list[Rng]

    def __init__(self, game: str, players: int, ai: str, seed: int) -> None:
        spec = get_game(game)
        self.seed = seed
        self.ai_name = play_agent(spec, ai)
        self.agent_names = [HUMAN] + [self.ai_name] * (players - 1)
        self.agents: list[Agent | None] = [None] + [
            spec.make_agent(self.ai_name) for _ in range(1, players)
        ]
        self.names = seat_names(players)
        self.last: list[str] = [""] * players

    def _apply(self, seat: int, move: Any) -> str:
        raise NotImplementedError

    def _check_your_turn(self) -> None:
        """Raises :class:`IllegalMoveError` unless the game runs and it is your turn."""
        if self.state.over:
            raise IllegalMoveError("the game is over")
        if self.state.current != YOU:
            raise IllegalMoveError(f"it is {self.names[self.state.current]}'s turn")

    def ai_step(self) -> bool:
        """One AI move when an AI seat is to play; False otherwise."""
        st = self.state
        if st.over or st.current == YOU:
            return False
        seat = st.current
        agent = self.agents[seat]
        assert agent is not None
        move = agent.act(st.observation(seat), st.legal_moves(), self.rngs[seat])
        self._apply(seat, move)
        return True
