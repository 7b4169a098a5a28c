"""The table chat: seated players write, everyone at the table (spectators too) reads.

Messages are stored (``Storage.append_chat``), the last :data:`HISTORY` per table, and
committed before anyone is sent them: a table that left memory, was restarted or moved
to another process (docs/deploy.md) has its chat back when it is loaded again. A seat
may send :data:`RATE_COUNT` messages per
:data:`RATE_SECONDS`, however many connections it opens one after another; more are
refused, not queued, and so are a client address's messages past its ``chat`` limit
(``server.limits``). The chat is the same for every game.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections import deque
from typing import Any

import orjson

from gametable.core.protocol import Seat
from gametable.core.text import one_line, shows_something
from gametable.server.limits import Limits
from gametable.server.refused import Refused
from gametable.server.storage import Storage, StorageError
from gametable.server.table import Connection, Table, occupant_tag

MAX_CHARS = 300
"""Longest message, after trimming."""
HISTORY = 100
"""Messages kept per table (and sent to a client that connects)."""
RATE_COUNT = 5
RATE_SECONDS = 5.0

_logs: dict[int, deque[dict[str, Any]]] = {}
_seat_limits: dict[int, dict[tuple[Seat, str | None], ChatLimit]] = {}
_posting: dict[int, asyncio.Lock] = {}


async def history(table: Table, storage: Storage) -> deque[dict[str, Any]]:
    """The last messages of ``table``, oldest first: read from ``storage`` the first time
    this table object asks (unless it was made here, :attr:`Table.made_here`: none
    yet), then kept beside it in memory.

    Raises:
        Refused: ``storage_failed`` (503) when storage cannot read them now (nothing is
            kept, so the next call reads again).
    """
    log = _logs.get(id(table))
    if log is not None:
        return log
    try:
        stored = [] if table.made_here else await asyncio.to_thread(
            storage.load_chat, table.id, HISTORY)
    except StorageError:
        raise Refused("storage_failed", "server.errors.storage_failed", status=503) \
            from None
    log = _logs.get(id(table))  # another client's read may have come back first
    if log is None:
        log = _logs[id(table)] = deque(stored, maxlen=HISTORY)
        # Tables are plain objects held by the table manager; the log lives as long as
        # the table does, and goes with it.
        weakref.finalize(table, _logs.pop, id(table), None)
    return log


def seat_limit(table: Table, seat: Seat) -> ChatLimit:
    """The allowance of the person in ``seat`` at ``table``: the same across their
    connections and reconnections, and a fresh one for whoever holds the seat next (who
    was refused a first line for the lines of the person before)."""
    limits = _seat_limits.get(id(table))
    if limits is None:
        limits = _seat_limits[id(table)] = {}
        weakref.finalize(table, _seat_limits.pop, id(table), None)
    holder = (seat, table.seats[seat].token_hash)
    limit = limits.get(holder)
    if limit is None:
        for old in [key for key in limits if key[0] == seat]:
            del limits[old]  # (the seat's earlier people: none will write again)
        limit = limits[holder] = ChatLimit()
    return limit


def posting(table: Table) -> asyncio.Lock:
    """Held while one message of ``table`` is stored and sent, so that every client, the
    history in memory and storage have the messages in one order."""
    lock = _posting.get(id(table))
    if lock is None:
        lock = _posting[id(table)] = asyncio.Lock()
        weakref.finalize(table, _posting.pop, id(table), None)
    return lock


def history_message(messages: deque[dict[str, Any]]) -> dict[str, Any]:
    """The ``chat_history`` message sent right after a client's ``welcome``."""
    return {"type": "chat_history", "messages": list(messages)}


class ChatLimit:
    """One seat's allowance: :data:`RATE_COUNT` messages in any :data:`RATE_SECONDS`
    seconds."""

    def __init__(self, count: int | None = None, seconds: float | None = None) -> None:
        self.count = RATE_COUNT if count is None else count
        self.seconds = RATE_SECONDS if seconds is None else seconds
        self.sent: deque[float] = deque()

    def check(self, now: float | None = None, *, dry: bool = False) -> float:
        """Count one message, or refuse it with ``chat_too_fast`` (it is not counted);
        ``dry``: only refuse, count nothing.

        Returns:
            The moment counted (``time.monotonic()`` seconds), for :meth:`give_back`.
        """
        now = time.monotonic() if now is None else now
        while self.sent and now - self.sent[0] >= self.seconds:
            self.sent.popleft()
        if len(self.sent) >= self.count:
            raise Refused("chat_too_fast", "ui.chat.errors.too_fast", limit=self.count,
                          seconds=int(self.seconds), count=int(self.seconds))
        if not dry:
            self.sent.append(now)
        return now

    def give_back(self, counted: float) -> None:
        """Uncount the message counted at ``counted`` (one that was not sent after all)."""
        with contextlib.suppress(ValueError):  # it has already left the window
            self.sent.remove(counted)


def clean_text(text: Any) -> str:
    """The message text: one line, trimmed, 1–:data:`MAX_CHARS` characters that show
    something, without control characters, direction marks or other invisible characters
    and with at most a few accents on a letter (:func:`gametable.core.text.one_line`).

    Raises:
        Refused: ``malformed`` (not a string) or ``chat_length``.
    """
    if not isinstance(text, str):
        raise Refused("malformed", "ui.chat.errors.not_text")
    clean = one_line(text)
    length = len(clean) if shows_something(clean) else 0
    if not 1 <= length <= MAX_CHARS:
        raise Refused("chat_length", "ui.chat.errors.length", length=length,
                      limit=MAX_CHARS)
    return clean


async def post(table: Table, conn: Connection, text: Any, storage: Storage,
               limits: Limits | None = None) -> None:
    """Store a chat message from ``conn``'s seat, then send it to every client of
    ``table``.

    Raises:
        Refused: the sender is a spectator or no longer holds its seat, the text is not
            1–300 characters, the seat (``chat_too_fast``) or the client's address
            (``rate_limited``, from ``limits``) writes too fast, or storage cannot keep
            it now (``storage_failed``, 503). Nothing is sent or kept, and a message
            storage refused counts against neither the seat's allowance nor the
            address's.
    """
    if conn.seat is None:
        raise Refused("not_seated", "ui.chat.errors.spectator")
    if not table.holds(conn):
        raise Refused("seat_lost", "server.errors.seat_lost")
    clean = clean_text(text)
    seat = conn.seat
    limit = seat_limit(table, seat)
    limit.check(dry=True)
    if limits is not None:
        limits.check("chat", [conn.address])
    counted = limit.check()
    row = table.seats[seat]  # held by conn: table.holds
    async with posting(table):
        # ``tag``: who wrote it, as the seat's ``tag`` says while they hold it; and
        # ``version``, the game's action count then (``earlier``'s ``until``), for
        # lines kept from before messages had tags.
        message = {"type": "chat", "seat": seat, "name": row.name, "text": clean,
                   "at": int(time.time() * 1000), "version": table.version,
                   "tag": occupant_tag(row)}
        try:
            log = await history(table, storage)  # Refused: storage_failed
            try:
                await storage.append_chat(table.id, message, keep=HISTORY)
            except StorageError:
                raise Refused("storage_failed", "server.errors.storage_failed",
                              status=503) from None
        except Refused:
            limit.give_back(counted)
            if limits is not None:
                limits.give_back("chat", [conn.address])
            raise
        log.append(message)
        encoded = orjson.dumps(message).decode()
        for client in list(table.connections):
            client.push(encoded)
