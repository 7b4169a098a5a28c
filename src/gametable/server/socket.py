"""One websocket client's session at a table (the messages: ``docs/protocol.md``).

The first message must be ``hello`` (with the seat token, if any); every later message
is ``action``, ``chat``, ``back`` (take an away seat back from the computer player
covering for it), ``rematch`` (play again, once the game is over) or ``ping``.
Anything refused — malformed, oversized, out of turn, illegal — is answered with an
``error`` to this client only and changes nothing. A client that sends faster than
:data:`RATE_PER_SECOND` is slowed down, not cut off: its messages wait their turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from starlette.types import Receive, Send

from gametable.core.records import field_given_twice
from gametable.server import chat, hosting, rematch
from gametable.server.limits import SEAT_CONNECTIONS, SEATED_PER_CAP, Limits, Place, Sockets
from gametable.server.logname import log_name
from gametable.server.nesting import MAX_DEPTH, json_refusal, too_deep
from gametable.server.offers import offer_open
from gametable.server.refused import Refused
from gametable.server.storage import token_hash
from gametable.server.table import RESTART_CLOSE, WATCHING_OFF_CLOSE, Connection, Table
from gametable.server.tables import TableManager

log = logging.getLogger("gametable.socket")

MAX_MESSAGE_BYTES = 16 * 1024
"""Largest client message accepted; larger ones get a ``too_large`` error."""
HELLO_TIMEOUT = 30.0
RATE_PER_SECOND = 200.0
RATE_BURST = 400.0
ADDRESS_FULL_CLOSE = (1013, "too many connections from your address: try again later")
"""The close of a connection over ``Caps.connections_per_client`` (1013: try again later)."""
SEAT_FULL_CLOSE = (1013, "too many connections for your seat: try again later")
"""The close of a connection over ``limits.SEAT_CONNECTIONS`` for its seat."""
WATCHERS_FULL_CLOSE = (1013, "too many people are watching this table: try again later")
"""The close of a spectator over ``Caps.watchers_per_table``."""


class Throttle:
    """A token bucket: ``burst`` messages at once, then ``rate`` per second.

    :meth:`wait` delays a message that comes too early instead of refusing it, so a fast
    but honest client loses nothing and a flooding one only slows itself down.
    """

    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = RATE_BURST,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()
        self.sleep = sleep

    async def wait(self) -> None:
        """Return at once, or after the pause this message needs to keep the rate."""
        pause = self.take()
        if pause:
            await self.pause(pause)

    def take(self) -> float:
        """Count a message: the seconds to pause before handling it (0: none); after a
        pause, call :meth:`pause` (or :meth:`wait` does both)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return (1 - self.tokens) / self.rate
        self.tokens -= 1
        return 0.0

    async def pause(self, seconds: float) -> None:
        """Wait ``seconds`` (as :meth:`take` said), then count the message."""
        await self.sleep(seconds)
        self.tokens = 0.0
        self.stamp = time.monotonic()


MESSAGE_FIELDS: dict[str, tuple[str, ...]] = {
    "hello": ("type", "token", "id"),
    "action": ("type", "action", "version", "deal", "id"),
    "chat": ("type", "text", "id"),
    "ping": ("type", "id"),
    "back": ("type", "id"),
    "away": ("type", "id"),
    "rematch": ("type", "id"),
}
"""The fields each client message may hold (docs/protocol.md, "Client → server")."""


def parse(text: str | bytes) -> dict[str, Any]:
    """A client message as a JSON object with a string ``type``.

    Raises:
        Refused: ``too_large``; ``malformed`` (not JSON, no ``type``, nested more than
            :data:`~gametable.server.nesting.MAX_DEPTH` levels, or a number too large
            for a 64-bit float, or a field given twice in one object, each with its own
            message). A whole number beyond 64
            bits is read as the float nearest it (orjson's reading), which the fields
            that need a whole number (an action's ``version``, a card) refuse. The
            fields are checked apart (:func:`check_fields`), once the ``id`` to echo is
            read.
    """
    # The limit counts bytes (UTF-8), as docs/protocol.md says: a character may take four.
    size = len(text)
    if isinstance(text, str) and size * 4 > MAX_MESSAGE_BYTES:
        size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise Refused("too_large", "server.errors.too_large", size=size,
                      limit=MAX_MESSAGE_BYTES)
    try:
        message = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        raise json_refusal(error, "malformed", "server.errors.not_json") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise Refused("malformed", "server.errors.no_type")
    if isinstance(text, bytes):
        brackets = text.count(b"[") + text.count(b"{")
    else:
        brackets = text.count("[") + text.count("{")
    if too_deep(message, brackets):
        raise Refused("malformed", "server.errors.too_deep", limit=MAX_DEPTH)
    twice = field_given_twice(text)
    if twice is not None:
        # JSON readers keep the last of the two; a filter or log that read the first
        # would see another message than the table acts on (as records, refused).
        raise Refused("malformed", "server.errors.field_twice", field=twice[:40])
    return message


def check_fields(message: dict[str, Any]) -> None:
    """Refuse a field that ``message``'s type does not take (:data:`MESSAGE_FIELDS`; an
    unknown type is left to its own refusal): an action's ``"seat"`` was ignored, as if it
    were heeded.

    Raises:
        Refused: ``malformed`` / ``server.errors.unknown_field``, naming the field
            (at most 40 characters) and those the type takes.
    """
    fields = MESSAGE_FIELDS.get(message["type"])
    if fields is None:
        return
    for field in message:
        if field not in fields:
            shown = field if len(field) <= 40 else field[:39] + "…"
            raise Refused("malformed", "server.errors.unknown_field",
                          message_type=message["type"], field=shown,
                          fields=", ".join(f'"{name}"' for name in fields))


class Socket:
    """One client's websocket, spoken to in plain ASGI messages.

    Every action and every update of a game passes here, so it skips the framework's
    websocket wrapper; the messages are those of the ASGI websocket specification.
    """

    def __init__(self, receive: Receive, send: Send) -> None:
        self._receive = receive
        self._send = send

    async def accept(self) -> bool:
        """Complete the handshake; ``False`` if the client left before it."""
        event = await self._receive()
        if event["type"] != "websocket.connect":
            return False
        await self._send({"type": "websocket.accept"})
        return True

    async def next_frame(self) -> str | bytes | None:
        """The next text or binary frame, or ``None`` once the client has gone."""
        event = await self._receive()
        if event["type"] != "websocket.receive":
            return None
        text: str | bytes | None = event.get("text")
        if text is None:
            text = event.get("bytes") or b""
        return text

    async def send_text(self, text: str) -> None:
        """Send one text frame."""
        await self._send({"type": "websocket.send", "text": text})

    async def close(self, code: int, reason: str = "") -> None:
        """Close the connection (quietly, if it is already closed)."""
        with contextlib.suppress(Exception):
            await self._send({"type": "websocket.close", "code": code, "reason": reason})


async def serve_client(socket: Socket, manager: TableManager, table_id: str,
                       address: str = "-", limits: Limits | None = None,
                       sockets: Sockets | None = None) -> None:
    """Run one client's session until it disconnects (``address``: the client's, for
    the chat's per-client limit in ``limits`` and the caps on open connections in
    ``sockets``).

    A spectator whose address already holds ``sockets.per_client`` connections is sent
    the error ``too_many_connections`` (``params.limit``) and closed with
    :data:`ADDRESS_FULL_CLOSE`, at once when the address also has
    ``limits.WAITING_OVER_CAP`` connections waiting for their ``hello``, else after its
    ``hello``; a ``hello`` that opens a seat is admitted whatever the address holds,
    unless the seat holds ``limits.SEAT_CONNECTIONS`` (then ``too_many_connections``
    with ``server.errors.too_many_seat_connections`` and :data:`SEAT_FULL_CLOSE`); a
    spectator over the table's ``watchers_per_table`` is sent ``too_many_watchers``
    after its ``hello`` and closed with :data:`WATCHERS_FULL_CLOSE`. None of them
    changes anything at the table.
    """
    if not await socket.accept():
        return
    conn = Connection(socket.send_text, socket.close, address)
    place = sockets.enter(address) if sockets is not None else None
    if sockets is not None and place is None:
        _refuse_address(conn, manager, sockets)
        await conn.stop()
        return
    try:
        await _serve(socket, conn, manager, table_id, limits, sockets, place)
    finally:
        if sockets is not None and place is not None:
            sockets.leave(place)


def _refuse_address(conn: Connection, manager: TableManager, sockets: Sockets,
                    limit: int | None = None) -> None:
    manager.metrics.refused_connection("too_many_connections")
    conn.finish(Refused("too_many_connections", "server.errors.too_many_connections",
                        status=429, limit=limit or sockets.per_client).to_json(),
                *ADDRESS_FULL_CLOSE)


async def _serve(socket: Socket, conn: Connection, manager: TableManager, table_id: str,
                 limits: Limits | None, sockets: Sockets | None,
                 place: Place | None) -> None:
    try:
        table = await manager.get(table_id)
    except Refused as refusal:
        conn.push_json(refusal.to_json())
        await asyncio.sleep(0.05)
        await conn.stop()
        # Storage cannot read it now, or its computer player cannot be made now
        # (bot_unavailable): come back soon.
        if refusal.status == 503:
            await socket.close(*RESTART_CLOSE)
        else:
            await socket.close(4404, "no such table")
        return
    throttle = Throttle()
    try:
        if not await _hello(socket, table, conn, manager, throttle, sockets, place):
            return
        shared = sockets.pace(place) if sockets is not None and place is not None else None
        while not conn.closed:
            text = await socket.next_frame()
            if text is None:
                return
            pause = throttle.take()
            if pause:
                await throttle.pause(pause)
            wait = shared.reserve() if shared is not None else 0.0
            if wait:  # the address's (or seat's) connections together send too much
                await asyncio.sleep(wait)
            await _handle(text, table, manager, conn, limits)
    finally:
        table.remove_connection(conn)
        table.last_active = time.monotonic()
        await conn.stop()


async def _hello(socket: Socket, table: Table, conn: Connection, manager: TableManager,
                 throttle: Throttle, sockets: Sockets | None = None,
                 place: Place | None = None) -> bool:
    """Wait for ``hello``, seat the client if its token fits, send welcome and state;
    ``False`` (the connection is closed) when it may not watch, or its seat or its
    address holds too many connections."""
    # One deadline for the whole wait: a client that keeps sending something else is
    # not given another HELLO_TIMEOUT with each message.
    deadline = asyncio.get_running_loop().time() + HELLO_TIMEOUT
    while True:
        try:
            async with asyncio.timeout_at(deadline):
                text = await socket.next_frame()
        except TimeoutError:
            await socket.close(4408, "no hello")
            return False
        if text is None:
            return False
        try:
            message = parse(text)
            if message["type"] != "hello":
                raise Refused("hello_first", "server.errors.hello_first")
            check_fields(message)
        except Refused as refusal:
            conn.push_json(refusal.to_json())
            await throttle.wait()  # refusals before the hello are paced like the rest
            continue
        break
    token = message.get("token")
    try:
        said = await chat.history(table, manager.storage)
    except Refused:
        said = None  # storage cannot read it now: the game goes on without it
    # Under the lock: a seat changing hands (a computer player taking it over) is decided
    # under it too, so a token is checked either before the change, and its connection is
    # closed by it, or after, and it no longer opens the seat. Nor is a state shown whose
    # last action is not yet stored.
    async with table.lock:
        if table.expired:  # while this connection waited for the lock
            conn.finish(manager.expired_refusal().to_json(), 4404, "no such table")
            return False
        if token is not None and token != "":  # "" is no token: a spectator's hello
            seat = table.seat_of(token) if isinstance(token, str) else None
            if seat is None:
                conn.push_json(Refused("bad_token", "server.errors.bad_token").to_json())
            else:
                conn.seat, conn.holder = seat, token_hash(str(token))
        if sockets is not None and place is not None:
            full = sockets.sit(place, table.id, conn.seat) if conn.seat is not None else None
            if full == "seat":
                manager.metrics.refused_connection("too_many_connections")
                conn.finish(Refused("too_many_connections",
                                    "server.errors.too_many_seat_connections", status=429,
                                    limit=SEAT_CONNECTIONS).to_json(), *SEAT_FULL_CLOSE)
                return False
            if full == "address":
                _refuse_address(conn, manager, sockets,
                                SEATED_PER_CAP * (sockets.per_client or 0))
                return False
            if conn.seat is None and place.over_cap:
                _refuse_address(conn, manager, sockets)
                return False
        if conn.seat is None and not table.watching:
            conn.finish(Refused("watching_off", "server.errors.watching_off",
                                status=403).to_json(), *WATCHING_OFF_CLOSE)
            return False
        most = manager.caps.watchers_per_table
        if conn.seat is None and most is not None and table.watchers >= most:
            manager.metrics.refused_connection("too_many_watchers")
            conn.finish(Refused("too_many_watchers", "server.errors.too_many_watchers",
                                status=503, limit=most).to_json(), *WATCHERS_FULL_CLOSE)
            return False
        conn.push_json({"type": "welcome", "seat": conn.seat, "table": table.info()})
        conn.push(table.welcome_state_message(conn.seat))
        if said:
            conn.push_json(chat.history_message(said))
        host_token = hosting.host_token_again(manager, table, conn.seat)
        if host_token is not None:
            conn.push_json({"type": "host", "host_token": host_token})
        table.add_connection(conn)
        clock = table.clock_message()
        if clock is not None:
            conn.push(clock)
        if table.rematch is not None and not await offer_open(manager.storage, table.rematch):
            rematch.drop_offer(table)  # its new table expired, or its seats went
        if table.rematch is not None:
            conn.push_json(rematch.offer_message(table.rematch, conn.seat)
                           if table.holds(conn)
                           else await rematch.watcher_offer(manager.storage, table.rematch))
    return True


async def _handle(text: str | bytes, table: Table, manager: TableManager,
                  conn: Connection, limits: Limits | None = None) -> None:
    request_id: Any = None
    try:
        message = parse(text)
        request_id = message.get("id")
        check_fields(message)
        kind = message["type"]
        if kind == "ping":
            conn.push_json({"type": "pong", "id": request_id})
        elif kind == "action":
            if conn.seat is None:
                raise Refused("not_seated", "server.errors.not_seated")
            version, deal = message.get("version"), message.get("deal")
            for field, number in (("version", version), ("deal", deal)):
                if number is not None and (isinstance(number, bool)
                                           or not isinstance(number, int) or number < 0):
                    raise Refused("malformed", "server.errors.bad_version", field=field)
            await manager.submit(table, conn.seat, message.get("action"), version, conn,
                                 deal=deal)
        elif kind == "chat":
            await chat.post(table, conn, message.get("text"), manager.storage, limits)
        elif kind == "back":
            await manager.back(table, conn)
        elif kind == "away":
            await manager.step_away(table, conn)
        elif kind == "rematch":
            await rematch.play_again(manager, table, conn, limits)
        elif kind == "hello":
            raise Refused("hello_again", "server.errors.hello_again")
        else:
            raise Refused("unknown_type", "server.errors.unknown_type", message_type=kind)
    except Refused as refusal:
        reply = refusal.to_json()
        reply["id"] = request_id
        conn.push_json(reply)
    except Exception:  # a fault of the server's: said, logged, and the connection kept
        log.exception("table %s: a message could not be handled", log_name(table.id))
        reply = Refused("server_error", "server.errors.server_error", status=500).to_json()
        reply["id"] = request_id
        conn.push_json(reply)
