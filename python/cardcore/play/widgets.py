"""Textual pieces shared by every game screen: text panels, the help and score-sheet screens and
the :class:`TableApp` base (keys, messages, paced AI turns, replay saving)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from cardcore.play.common import PlayConfig, write_replay

__all__ = ["HelpScreen", "SheetScreen", "TableApp", "TextPanel"]


class TextPanel(Static):
    """A Static that remembers the plain text it shows (``.plain``), for tests and captures."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes)
        self.plain = ""

    def show(self, text: Text | str) -> None:
        t = text if isinstance(text, Text) else Text(text)
        self.plain = t.plain
        self.update(t)


class _TextModal(ModalScreen[None]):
    """A modal page of text, closed by Enter, Space, Escape or q."""

    DEFAULT_CSS = """
    _TextModal { align: center middle; }
    _TextModal > VerticalScroll {
        width: 90%; height: auto; max-height: 90%; border: round $accent;
        background: $surface; padding: 0 1;
    }
    """
    CLOSE_KEYS: ClassVar[frozenset[str]] = frozenset({"enter", "space", "escape", "q"})
    # a modal screen stops the app's own bindings: Ctrl+Q quits from here too
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "app.quit", "Quit", show=False, priority=True)
    ]

    def __init__(self, title: str, body: Text | str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body if isinstance(body, Text) else Text(body)
        self.panel = TextPanel(classes="modal-body")

    def compose(self) -> ComposeResult:
        with VerticalScroll() as vs:
            vs.border_title = self.title_text
            yield self.panel

    def on_mount(self) -> None:
        footer = Text("\n[Enter] continue", style="dim")
        self.panel.show(Text.assemble(self.body, footer))

    def on_key(self, event: events.Key) -> None:
        if event.key in self.CLOSE_KEYS or event.character == "?":
            event.stop()
            self.dismiss(None)


class HelpScreen(_TextModal):
    """The rules summary and keys of a game (opened with ``?``)."""


class SheetScreen(_TextModal):
    """A score sheet after a round, a game or the match."""


class TableApp(App[None]):
    """Base of the three game apps.

    Subclasses build their panels, list them in :meth:`game_panels`, implement
    :meth:`refresh_view`, :meth:`game_key` (one key
    press of the player; return True when handled), :meth:`ai_step` (one AI move; False when
    it is not an AI's turn) and may call :meth:`show_sheet`. AI moves are shown one by one,
    ``config.delay`` seconds apart (0: all at once, as tests do).
    """

    CSS = """
    Screen { layout: vertical; }
    #title { background: $primary; color: $text; padding: 0 1; }
    .box { border: round $secondary; padding: 0 1; height: auto; }
    #message { color: $warning; padding: 0 1; height: auto; }
    #keys { color: $text-muted; padding: 0 1; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Quit", show=False)]
    HELP: ClassVar[str] = ""
    KEYS: ClassVar[str] = ""
    RULES: ClassVar[str] = ""  # the game's rules page: ``cardcore rules RULES``

    def __init__(self, config: PlayConfig) -> None:
        super().__init__()
        self.config = config
        self.seed = config.resolved_seed()
        self.title_panel = TextPanel(id="title")
        self.message_panel = TextPanel(id="message")
        self.keys_panel = TextPanel(id="keys")
        self.message = ""
        self.replay_path: Path | None = None
        self._replay_saved = False
        self.sheet_open = False
        self._ai_timer: Any = None

    # -- to implement ------------------------------------------------------------------------

    def game_panels(self) -> Sequence[TextPanel]:
        """The game's own panels, top to bottom, between the title and the message line."""
        raise NotImplementedError

    def refresh_view(self) -> None:
        raise NotImplementedError

    def game_key(self, key: str, char: str | None) -> bool:
        raise NotImplementedError

    def ai_step(self) -> bool:
        raise NotImplementedError

    def after_ai_step(self) -> bool:
        """Called after each AI move; return False to stop the AI loop (e.g. a sheet opened)."""
        return True

    # -- shared behaviour --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield self.title_panel
        yield from self.game_panels()
        yield self.message_panel
        yield self.keys_panel

    def on_mount(self) -> None:
        self.keys_panel.show(self.KEYS)
        self.refresh_view()
        self.schedule_ai()

    def say(self, text: str) -> None:
        """Shows a short message (a refused move, what just happened)."""
        self.message = text
        self.message_panel.show(text)

    def on_key(self, event: events.Key) -> None:
        if self.screen is not self.screen_stack[0]:
            return
        if event.character == "?" or event.key in ("question_mark", "f1"):
            event.stop()
            self.open_help()
            return
        if self.game_key(event.key, event.character):
            event.stop()
            self.refresh_view()

    def open_help(self) -> None:
        rules = f"\n\nThe complete rules: cardcore rules {self.RULES}" if self.RULES else ""
        body = Text(self.HELP.strip() + rules + "\n\nKeys\n" + self.KEYS.strip() + "\n")
        self.push_screen(HelpScreen("Help", body))

    def show_sheet(
        self, title: str, body: Text | str, then: Callable[[], None] | None = None
    ) -> None:
        """Opens a score sheet; AI moves wait until it is closed, then ``then()`` runs."""
        self.sheet_open = True

        def closed(_: None) -> None:
            self.sheet_open = False
            if then is not None:
                then()
            self.refresh_view()
            self.schedule_ai()

        self.push_screen(SheetScreen(title, body), closed)

    def schedule_ai(self) -> None:
        """Runs the AI seats until the player is to move (paced by ``config.delay``)."""
        if self.sheet_open or self._ai_timer is not None:
            return
        if self.config.delay <= 0:
            while not self.sheet_open and self.ai_step():
                if not self.after_ai_step():
                    break
            self.refresh_view()
            return
        self._ai_timer = self.set_timer(self.config.delay, self._ai_tick)

    def _ai_tick(self) -> None:
        self._ai_timer = None
        if self.sheet_open:
            return
        if self.ai_step():
            go_on = self.after_ai_step()
            self.refresh_view()
            if go_on:
                self.schedule_ai()
        else:
            self.refresh_view()

    def unfinished_note(self) -> str | None:
        """What to tell a player who left before the end (None once the game or match ended)."""
        if self._replay_saved:
            return None
        return (
            "left before the end: nothing was saved (the replay is saved when the game or "
            "match ends)"
        )

    def save_replay(self, record: dict[str, Any]) -> Path | None:
        """Writes the finished game's replay (unless disabled); returns its path."""
        if not self.config.save_replay:
            return None
        self.replay_path = write_replay(record, self.config.replay_file, self.config.game)
        return self.replay_path

    def show_final(
        self, record: dict[str, Any], *, title: str, end: str, said: str, body: Text
    ) -> None:
        """Ends the game or match: saves ``record`` as the replay (once), says ``said + end`` and
        shows ``body``, then ``end`` and where the replay went, on a sheet titled ``title``."""
        if not self._replay_saved:
            self._replay_saved = True
            self.save_replay(record)
        tail = f"\n\n{end}"
        if self.replay_path is not None:
            tail += f"\nReplay saved to {self.replay_path}"
        self.say(said + end)
        self.show_sheet(title, body.append(tail))
