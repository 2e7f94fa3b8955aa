"""The daily deal: the same deal for everyone on one server on one day, unknown to clients.

Its seed is an HMAC of the date under a secret kept in the server's data folder (created on
first use, readable by its owner only). A client never receives the seed, and without the
secret nobody can compute it from the date (the public ``derive_seed(YYYYMMDD, 0, "daily")``
of ``cardcore play`` would let any guest re-create every hidden card).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Final

from cardcore.errors import StateFormatError

__all__ = ["SECRET_FILE", "DailyDeals"]

SECRET_FILE: Final = "daily-secret"
_SECRET_BYTES: Final = 32


class DailyDeals:
    """Seeds of the daily deals under one secret."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise StateFormatError(f"the daily secret ({SECRET_FILE}) must have at least 16 bytes")
        self._secret = secret

    @classmethod
    def load(cls, folder: Path | None) -> DailyDeals:
        """The secret kept in ``folder`` (made on first use); ``None``: a secret of this
        process only (the daily deal then changes when the server restarts)."""
        if folder is None:
            return cls(secrets.token_bytes(_SECRET_BYTES))
        path = folder / SECRET_FILE
        try:
            return cls(path.read_bytes())
        except FileNotFoundError:
            pass
        folder.mkdir(parents=True, exist_ok=True)
        secret = secrets.token_bytes(_SECRET_BYTES)
        tmp = folder / f".{SECRET_FILE}.{secrets.token_hex(8)}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(secret)
        try:  # a complete file appears at once; two servers starting together agree
            os.link(tmp, path)
        except FileExistsError:
            secret = path.read_bytes()
        finally:
            tmp.unlink()
        return cls(secret)

    def seed(self, day: _dt.date | None = None) -> int:
        """The seed of ``day``'s deal (UTC today by default), in ``0..2**63-1``."""
        d = day if day is not None else _dt.datetime.now(_dt.UTC).date()
        mac = hmac.new(self._secret, b"cardcore-daily-v1:" + d.isoformat().encode(), hashlib.sha256)
        return int.from_bytes(mac.digest()[:8], "big") >> 1
