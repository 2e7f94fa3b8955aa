"""``cardcore serve``: a web table for every game, against the AIs and with friends.

Needs the ``web`` extra (Starlette, uvicorn, websockets). The server holds the only copy of
each game and sends every browser its seat's observation; the page (``static/``, plain ES
modules, no build step, nothing from the network) draws it and sends action ids back. See
``docs/web.md``.
"""

from __future__ import annotations

__all__ = ["MISSING_WEB"]

MISSING_WEB = (
    "`cardcore serve` needs the web extra, which is not installed.\n"
    "Install it with:  pip install 'cardcore[web]'"
)
