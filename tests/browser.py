"""Headless Chromium for the tests (Playwright driving Debian's ``chromium``).

Playwright's own browser downloads are not used: :func:`chromium_path` finds the system
browser (``$CARDCORE_CHROMIUM``, else ``chromium`` / ``chromium-browser`` / ``google-chrome`` on
PATH; ``.ci/run`` installs Debian's ``chromium``). Tests call :func:`launch` through the
``browser`` fixture of ``conftest.py``, which skips with the reason when no browser is there.
:func:`live_server` runs an ASGI app with uvicorn on a free loopback port in a thread.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["chromium_path", "launch", "live_server"]


def chromium_path() -> str | None:
    """The system Chromium binary, or ``None``."""
    env = os.environ.get("CARDCORE_CHROMIUM")
    if env:
        return env if Path(env).exists() else None
    # Debian's /usr/bin/chromium is a shell wrapper; Playwright wants the real binary
    for real in ("/usr/lib/chromium/chromium",):
        if Path(real).exists():
            return real
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@contextmanager
def launch() -> Iterator[Any]:
    """A headless Chromium (Playwright ``Browser``); raises RuntimeError with the reason when
    Playwright or a browser is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:
        raise RuntimeError(f"playwright is not installed ({e})") from None
    path = chromium_path()
    if path is None:
        raise RuntimeError("no Chromium found (apt-get install chromium, or set CARDCORE_CHROMIUM)")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=path, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield browser
        finally:
            browser.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def live_server(app: Any) -> Iterator[str]:
    """Serves ``app`` on ``http://127.0.0.1:<free port>`` in a thread; yields the base URL."""
    import uvicorn

    from cardcore.web.app import uvicorn_options

    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, lifespan="on", **uvicorn_options())
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
