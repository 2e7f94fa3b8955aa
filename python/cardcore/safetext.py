"""Text from files and messages, shown safely: control characters escaped.

Agent names, move text and version strings come from files anyone may have written. Printed
as they are, a terminal obeys the escape sequences in them (set the clipboard with OSC 52,
retitle the window, clear the screen) and Unicode's bidirectional controls reorder a line.
:func:`printable` writes every C0 and C1 control, DEL, the bidirectional controls, the
zero-width characters and the line separators as a visible escape (``\\x1b``, ``\\u202e``).
"""

from __future__ import annotations

import html
import re
from typing import Final

__all__ = ["markdown_cell", "printable"]

_UNSAFE: Final = re.compile(
    "[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]"
)


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object) -> str:
    """``str(text)`` with every control character (newlines and tabs too) escaped."""
    s = str(text)
    return _UNSAFE.sub(_escape, s) if _UNSAFE.search(s) else s


def markdown_cell(text: object) -> str:
    """:func:`printable` text for a Markdown table cell: HTML escaped (``<script>`` stays
    text), ``|`` and backslashes escaped so the cell stays one cell."""
    s = printable(text).replace("\\", "\\\\")
    return html.escape(s, quote=False).replace("|", "\\|")
