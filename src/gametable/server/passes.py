"""Picture passes: short-lived signatures that show a table's players its uploaded deck.

A seat token is the key to a seat, so it never goes into a URL (an address is copied,
logged and kept in the browser's history). A player's browser trades its seat token for a
*pass* instead (``POST /api/decks/{deck}/pass``) and puts that in the addresses of the
deck's pictures and manifest. A pass is an HMAC-SHA256, under a secret that the server
keeps in its data dir (:data:`SECRET_FILE`, made on first start), of the deck id, the
table id and the time the pass expires. It opens that deck's pictures and manifest
until then, and nothing else: not the seat, not the table, not another deck.

Passes issued within the same :data:`STEP` expire together, so every player of a table
loads the same addresses for an hour and the browser's cache keeps serving them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

SECRET_FILE = "picture-secret"
"""The server secret's file in the data dir (32 random bytes, readable by its owner only)."""
LIFETIME = 2 * 3600
"""Seconds a pass lasts at least."""
STEP = 3600
"""Expiry times are rounded up to a multiple of this many seconds."""


@dataclass(frozen=True)
class DeckPass:
    """A pass for the pictures of ``deck`` at ``table`` until ``expires`` (Unix time)."""

    deck: str
    table: str
    expires: int
    signature: str

    def query(self) -> str:
        """The query string the pictures' addresses carry (``table=…&expires=…&sig=…``)."""
        return f"table={self.table}&expires={self.expires}&sig={self.signature}"


def fingerprint(secret: bytes) -> str:
    """16 hex digits that tell two secrets apart without telling anything of either."""
    return hmac.new(secret, b"gametable: which secret", hashlib.sha256).hexdigest()[:16]


class PassKeeper:
    """Issues and checks passes with one secret."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 32:
            raise ValueError("a pass secret needs at least 32 bytes")
        self._secret = secret

    @property
    def fingerprint(self) -> str:
        """The secret's :func:`fingerprint`."""
        return fingerprint(self._secret)

    @classmethod
    def in_folder(cls, data_dir: Path) -> PassKeeper:
        """The keeper whose secret is in ``data_dir / SECRET_FILE`` (made if missing or
        damaged)."""
        path = data_dir / SECRET_FILE
        missing = False
        try:
            secret = path.read_bytes()
        except FileNotFoundError:
            secret, missing = b"", True
        if len(secret) < 32:
            secret = secrets.token_bytes(32)
            data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            temporary = path.with_name(f".{SECRET_FILE}.{secrets.token_hex(4)}")
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                with os.fdopen(descriptor, "wb") as file:
                    file.write(secret)
                    file.flush()
                    os.fsync(file.fileno())
                if not missing:
                    os.replace(temporary, path)  # a damaged one
                else:
                    try:
                        os.link(temporary, path)
                    except FileExistsError:  # made at the same moment by another process
                        return cls.in_folder(data_dir)
            finally:
                temporary.unlink(missing_ok=True)
        return cls(secret)

    def _sign(self, deck: str, table: str, expires: int) -> str:
        message = f"deck-pass\n{deck}\n{table}\n{expires}".encode()
        digest = hmac.new(self._secret, message, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    def issue(self, deck: str, table: str, now: float | None = None) -> DeckPass:
        """A pass for ``deck`` at ``table``, valid for :data:`LIFETIME` to
        :data:`LIFETIME` + :data:`STEP` seconds."""
        now = time.time() if now is None else now
        expires = math.ceil((now + LIFETIME) / STEP) * STEP
        return DeckPass(deck, table, expires, self._sign(deck, table, expires))

    def valid(self, deck: str, table: str | None, expires: str | int | None,
              signature: str | None, now: float | None = None) -> bool:
        """Whether ``signature`` is a pass for ``deck`` at ``table`` that has not expired."""
        if not table or expires is None or not signature:
            return False
        try:
            until = int(expires)
        except ValueError:
            return False
        now = time.time() if now is None else now
        if not now < until <= now + LIFETIME + STEP:
            return False
        return hmac.compare_digest(self._sign(deck, table, until), signature)
