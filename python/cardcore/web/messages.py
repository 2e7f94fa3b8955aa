"""What a browser may send, validated before anything acts on it.

Every WebSocket text frame is one JSON object with a ``type``. :func:`parse_message` turns a
frame into a :class:`Message` or raises :class:`BadMessage` with a short reason (sent back to
the client as an ``error``; the room is untouched). Unknown types, unknown or missing keys,
wrong types, out-of-range numbers and oversized frames are all refused.

Client to server:

==========  ======================================  =============================================
type        keys                                    meaning
==========  ======================================  =============================================
``join``    ``room``, ``name``                      take an open seat of a room (invite link)
``resume``  ``room``, ``token``                     (re)attach to the seat that ``token`` names
``move``    ``move``, optional ``seq``              play the legal move ``move`` (id or text)
``start``   —                                       host: AIs take the seats still open; start
``next``    —                                       close the score sheet: deal the next round
``hand``    ``seat``                                host: an AI plays that friend's seat for good
``rematch`` —                                       after the game: the same table, a new deal
``ping``    ``seq``                                 answered by ``pong`` with the same ``seq``
==========  ======================================  =============================================
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "MAX_MESSAGE_BYTES",
    "MAX_NAME_CHARS",
    "BadMessage",
    "Message",
    "clean_name",
    "parse_message",
]

MAX_MESSAGE_BYTES: Final = 2048
"""Largest frame a client may send (the biggest legal one is well under 200 bytes)."""
MAX_NAME_CHARS: Final = 24
_MAX_SEQ: Final = 2**53
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{16,64}")
_MOVE: Final = re.compile(r"[A-Za-z0-9:#>@_. -]{1,40}")
_MAX_ACTION: Final = 1 << 20
_MAX_SEATS: Final = 16
_NAME_BAD: Final = re.compile(r"[\x00-\x1f\x7f<>&\"'`\\]")

_SCHEMA: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    # type: (required keys, optional keys)
    "join": (frozenset({"room", "name"}), frozenset()),
    "resume": (frozenset({"room", "token"}), frozenset()),
    "move": (frozenset({"move"}), frozenset({"seq"})),
    "start": (frozenset(), frozenset()),
    "next": (frozenset(), frozenset()),
    "hand": (frozenset({"seat"}), frozenset()),
    "rematch": (frozenset(), frozenset()),
    "ping": (frozenset({"seq"}), frozenset()),
}


class BadMessage(ValueError):
    """A frame that is not a valid client message; the text says why."""


@dataclass(frozen=True, slots=True)
class Message:
    """One validated client message. Fields a type does not use are ``None``."""

    type: str
    room: str | None = None
    name: str | None = None
    token: str | None = None
    move: int | str | None = None
    seq: int | None = None
    seat: int | None = None


def _shown(ch: str) -> bool:
    """Whether ``ch`` may stay in a name: not a control, format (bidi overrides and isolates,
    zero-width characters), surrogate, private-use or unassigned character."""
    return ch.isspace() or unicodedata.category(ch)[0] != "C"


def clean_name(name: object) -> str:
    """A display name: control, bidi and other invisible format characters removed, spaces
    collapsed, 1..24 characters, no markup characters."""
    if not isinstance(name, str):
        raise BadMessage("name must be a string")
    name = " ".join("".join(ch for ch in name if _shown(ch)).split())
    if not 1 <= len(name) <= MAX_NAME_CHARS:
        raise BadMessage(f"name must have 1 to {MAX_NAME_CHARS} characters")
    if _NAME_BAD.search(name):
        raise BadMessage("name has characters that are not allowed")
    return name


def _token(value: object, key: str) -> str:
    if not isinstance(value, str) or not _TOKEN.fullmatch(value):
        raise BadMessage(f"{key} is not a valid token")
    return value


def _move(value: object) -> int | str:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < _MAX_ACTION:
        return value
    if not isinstance(value, str) or not _MOVE.fullmatch(value):
        raise BadMessage("move must be an action id or a move's text")
    return value


def _int(value: object, key: str, limit: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise BadMessage(f"{key} must be an integer in 0..{limit - 1}")
    return value


def parse_message(frame: str | bytes) -> Message:
    """Validates one client frame (see the module table)."""
    if len(frame) > MAX_MESSAGE_BYTES:
        raise BadMessage(f"message larger than {MAX_MESSAGE_BYTES} bytes")
    try:
        data: Any = json.loads(frame)
    except (ValueError, RecursionError):
        raise BadMessage("message is not JSON") from None
    if not isinstance(data, dict):
        raise BadMessage("message must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _SCHEMA:
        raise BadMessage(f"unknown message type {str(kind)[:20]!r}")
    required, optional = _SCHEMA[kind]
    keys = set(data) - {"type"}
    if missing := required - keys:
        raise BadMessage(f"{kind}: missing {', '.join(sorted(missing))}")
    if extra := keys - required - optional:
        raise BadMessage(f"{kind}: unknown key {sorted(extra)[0][:20]!r}")
    return Message(
        type=kind,
        room=_token(data["room"], "room") if "room" in data else None,
        name=clean_name(data["name"]) if "name" in data else None,
        token=_token(data["token"], "token") if "token" in data else None,
        move=_move(data["move"]) if "move" in data else None,
        seq=_int(data["seq"], "seq", _MAX_SEQ) if "seq" in data else None,
        seat=_int(data["seat"], "seat", _MAX_SEATS) if "seat" in data else None,
    )
