"""The table chat: seated players write, everyone at the table (spectators too) reads.

Messages are kept in memory only, the last :data:`HISTORY` per table, and go when the
table leaves memory. A connection may send :data:`RATE_COUNT` messages per
:data:`RATE_SECONDS`; more are refused, not queued. The chat is the same for every game.
"""

from __future__ import annotations

import time
import weakref
from collections import deque
from typing import Any

import orjson

from gametable.server.tables import Connection, Refused, Table

MAX_CHARS = 300
"""Longest message, after trimming."""
HISTORY = 100
"""Messages kept per table (and sent to a client that connects)."""
RATE_COUNT = 5
RATE_SECONDS = 5.0

_logs: dict[int, deque[dict[str, Any]]] = {}


def history(table: Table) -> deque[dict[str, Any]]:
    """The last messages of ``table``, oldest first (made empty on first use)."""
    log = _logs.get(id(table))
    if log is None:
        log = deque(maxlen=HISTORY)
        _logs[id(table)] = log
        # Tables are plain objects held by the table manager; the log lives as long as
        # the table does, and goes with it.
        weakref.finalize(table, _logs.pop, id(table), None)
    return log


def history_message(table: Table) -> dict[str, Any]:
    """The ``chat_history`` message sent right after a client's ``welcome``."""
    return {"type": "chat_history", "messages": list(history(table))}


class ChatLimit:
    """One connection's allowance: :data:`RATE_COUNT` messages in any
    :data:`RATE_SECONDS` seconds."""

    def __init__(self, count: int | None = None, seconds: float | None = None) -> None:
        self.count = RATE_COUNT if count is None else count
        self.seconds = RATE_SECONDS if seconds is None else seconds
        self.sent: deque[float] = deque()

    def check(self, now: float | None = None) -> None:
        """Count one message, or refuse it with ``chat_too_fast`` (it is not counted)."""
        now = time.monotonic() if now is None else now
        while self.sent and now - self.sent[0] >= self.seconds:
            self.sent.popleft()
        if len(self.sent) >= self.count:
            raise Refused("chat_too_fast", "ui.chat.errors.too_fast", limit=self.count,
                          seconds=int(self.seconds))
        self.sent.append(now)


def clean_text(text: Any) -> str:
    """The message text: one line, printable, trimmed, 1–:data:`MAX_CHARS` characters.

    Raises:
        Refused: ``malformed`` (not a string) or ``chat_length``.
    """
    if not isinstance(text, str):
        raise Refused("malformed", "ui.chat.errors.not_text")
    clean = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    if not 1 <= len(clean) <= MAX_CHARS:
        raise Refused("chat_length", "ui.chat.errors.length", length=len(clean),
                      limit=MAX_CHARS)
    return clean


def post(table: Table, conn: Connection, text: Any, limit: ChatLimit) -> None:
    """Post a chat message from ``conn``'s seat to every client of ``table``.

    Raises:
        Refused: the sender is a spectator, the text is not 1–300 characters, or the
            sender writes too fast. Nothing is sent or kept.
    """
    if conn.seat is None:
        raise Refused("not_seated", "ui.chat.errors.spectator")
    clean = clean_text(text)
    limit.check()
    seat = conn.seat
    name = table.seats[seat].name if 0 <= seat < len(table.seats) else None
    message = {"type": "chat", "seat": seat, "name": name, "text": clean,
               "at": int(time.time() * 1000)}
    history(table).append(message)
    encoded = orjson.dumps(message).decode()
    for client in list(table.connections):
        client.push(encoded)
