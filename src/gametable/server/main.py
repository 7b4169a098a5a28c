"""Running the server with uvicorn (``gametable serve``)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import logging
import signal
import socket
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NoReturn

import uvicorn
from pythonjsonlogger.json import JsonFormatter
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from gametable.server.app import Gametable, Settings, create_app
from gametable.server.folderlock import FolderLock, FolderUnlockable
from gametable.server.storage import StorageError
from gametable.server.wsprotocol import BoundedWebSocketProtocol

if TYPE_CHECKING:
    from gametable.server.databaselock import DatabaseLock

GC_THRESHOLD = (20_000, 50, 100)
"""The cyclic garbage collector's thresholds while serving. Every action allocates a
few hundred short-lived objects (views, messages), which Python's default (700, 10,
10) answers with a young-generation collection every few actions and a full one every
few thousand; the objects made at start-up (the application, the games' tables) are
frozen out of every collection."""

WS_MAX_FRAME_BYTES = 64 * 1024
"""Messages above this are dropped by the websocket layer (close code 1009), however
they are split into frames; smaller ones above ``socket.MAX_MESSAGE_BYTES`` (16 KiB) get
a readable ``too_large`` error. (At 1 MiB, a client could hold a megabyte on each of its
connections by never finishing a message.)"""


MAX_HEAD_BYTES = 64 * 1024
"""Most bytes of a request line and headers (browsers send under 8 KiB): httptools sets
no limit, and a client streaming one endless header held memory and, as the parser joins
the pieces, the event loop that every table shares."""

_HEAD_REFUSAL = b"The request's headers are too large.\n"
HEAD_TOO_LARGE = (b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                  b"Content-Type: text/plain; charset=utf-8\r\n"
                  b"Content-Length: %d\r\nConnection: close\r\n\r\n%s"
                  % (len(_HEAD_REFUSAL), _HEAD_REFUSAL))
"""The answer to a request whose headers pass :data:`MAX_HEAD_BYTES`."""


def header_timeout_protocol(seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools), closing a connection whose request headers
    have not all arrived ``seconds`` after it opened or after the request began, or that
    sends more than :data:`MAX_HEAD_BYTES` of them (answered ``431``).

    uvicorn's own timeouts start only once a response is sent (``timeout_keep_alive``),
    so without this a client could hold a connection — a file handle — for ever by
    sending half a request.
    """

    class HeaderTimeout(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None
        _head_bytes = 0
        _head_tail = b""
        _in_head = True  # a request's line and headers are what comes next

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            # Counted before the parser reads it (which ends the headers): what arrives
            # while the headers are still coming, up to their blank line, so that a
            # piece that ends them counts too, and a body sent with them never does.
            if self._in_head and not self.transport.is_closing():
                seen = self._head_tail + data
                end = seen.find(b"\r\n\r\n")
                self._head_bytes += len(data) if end < 0 else end + 4 - len(self._head_tail)
                self._head_tail = seen[-3:]
                if self._head_bytes > MAX_HEAD_BYTES:
                    self._disarm()
                    self.transport.write(HEAD_TOO_LARGE)
                    self.transport.close()
                    return
            super().data_received(data)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            self._in_head = False
            self._head_bytes = 0
            self._head_tail = b""
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._in_head = True  # the next request on this connection
            super().on_message_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

    return HeaderTimeout


class DrainingServer(uvicorn.Server):
    """uvicorn's server, which on SIGTERM or SIGINT first drains the tables
    (:meth:`TableManager.drain <gametable.server.tables.TableManager.drain>`: no more
    actions, those under way stored and sent, every websocket closed with 1012 so its
    client reconnects), then shuts down as usual (requests under way finish, storage is
    closed). With several processes, the tables' leases are given back right after the
    drain, so that another process takes them over at once. Once started it sets the
    garbage collector for serving (:data:`GC_THRESHOLD`)."""

    def __init__(self, config: uvicorn.Config, app: Gametable, banner: str = "", *,
                 log_banner: bool = False) -> None:
        super().__init__(config)
        self.gametable = app
        self.banner = banner
        self.log_banner = log_banner
        """The banner goes to the log (JSON logs: every line is one object), else to
        standard output."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)  # exits (status 3) when the server cannot start
        if self.banner and self.log_banner:
            logging.getLogger("gametable.server").info("%s", self.banner)
        elif self.banner:
            print(self.banner, flush=True)
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLD)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        manager = getattr(self.gametable.api.state, "manager", None)
        if manager is not None:
            logging.getLogger("gametable.server").info("draining: no more actions")
            await manager.drain()
        cluster = getattr(self.gametable.api.state, "cluster", None)
        if cluster is not None:
            await cluster.stop()
        await super().shutdown(sockets)
        if manager is not None:
            logging.getLogger("gametable.server").info("stopped: every table stored")


def configure_logging(json_logs: bool) -> None:
    """Log to standard error at INFO: readable lines, or one JSON object a line
    (``python-json-logger``: ``time`` in ISO 8601 UTC, ``level``, ``logger``,
    ``message`` and the exception, if any) for a log collector."""
    handler = logging.StreamHandler()
    if json_logs:
        handler.setFormatter(JsonFormatter(  # time: ISO 8601 in UTC, to the microsecond
            "%(levelname)s %(name)s %(message)s", timestamp="time",
            rename_fields={"levelname": "level", "name": "logger"}))
    else:
        handler.setFormatter(logging.Formatter(
            "%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
    # httpx logs every request another process forwards at INFO, the table's id (its
    # invite) included; the access log is off for the same reason.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("uvicorn.error").addFilter(ClientFaultFilter())


class StartRefusedFilter(logging.Filter):
    """A server that cannot start for a reason outside it (storage or Redis cannot be
    reached, processes sharing Redis hold other keys) says so in one line of its own
    (``the server cannot start: …``); uvicorn's traceback of the same error, and its
    "Application startup failed", are left out."""

    def __init__(self, app: Gametable) -> None:
        super().__init__()
        self.app = app

    def filter(self, record: logging.LogRecord) -> bool:
        refused = getattr(self.app.api.state, "start_refused", None)
        return not (refused and record.levelno >= logging.ERROR)


class ClientFaultFilter(logging.Filter):
    """A client's malformed websocket frame (text that is not UTF-8) is uvicorn's ERROR
    with a traceback, once per connection: anyone could fill the log with them. It is a
    WARNING of one line; the connection is closed (1007) as before."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR and record.exc_info and isinstance(
                record.exc_info[1], UnicodeDecodeError):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        return True


def advertised_host(host: str) -> str:
    """The host other processes reach this one at when it listens on ``host``: loopback
    for the wildcard addresses (give ``--advertise`` when processes run on several
    machines)."""
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


LISTEN_BACKLOG = 2048
"""Connections the operating system queues for a listening socket (uvicorn's default)."""

SEND_BUFFER_BYTES = 128 * 1024
"""The kernel's send buffer of each connection (``SO_SNDBUF``, set on the listening
socket, whose accepted connections inherit it; Linux keeps twice as much for its own
bookkeeping). Left to itself the kernel grew a connection's buffer up to ``tcp_wmem``'s
maximum (4 MiB): a client that stopped reading held about 2.7 MB there before the
server's own limits on unread messages (docs/protocol.md) began to count, 270–400 MB for
the 100 connections one address may hold. 256 KiB still sends a Dixit state of 280 KB
across a 100 ms link in about a tenth of a second."""


def listening_sockets(host: str, port: int) -> list[socket.socket]:
    """The TCP sockets ``host``:``port`` is served on, bound and listening, made before
    the server starts: a port in use is then told before the server joins its cluster or
    loads its tables. One socket per address ``host`` stands for, as asyncio (and so
    uvicorn) binds: ``""`` is every address of both families, a name each of its
    addresses; an IPv6 socket takes IPv6 only (``IPV6_V6ONLY``), so that IPv4 clients
    keep their own addresses for ``--metrics-from`` and ``--forwarded-allow-ips``.
    ``SO_REUSEADDR`` as uvicorn; listening at once, so that a second server bound to the
    same port in the same moment is refused here, not left bound and deaf.

    An address this machine cannot take (IPv6 switched off, so ``::1`` of
    ``localhost`` is ``EADDRNOTAVAIL``, or its family unsupported) is left out as long as
    another of ``host``'s addresses is bound.

    Raises:
        OSError: an address cannot be bound (in use, a port below 1024 without the
            right), none of the name's addresses is this machine's, or the name is not
            known (``socket.gaierror``); nothing is left open.
    """
    found = socket.getaddrinfo(host or None, port, socket.AF_UNSPEC, socket.SOCK_STREAM,
                               flags=socket.AI_PASSIVE)
    sockets: list[socket.socket] = []
    unusable: list[OSError] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(
                (f, k, p, "", a) for f, k, p, _, a in found):
            try:
                sockets.append(_bound_socket(family, kind, proto, address))
            except OSError as error:
                if error.errno not in UNUSABLE_ADDRESS:
                    raise
                unusable.append(error)
        if not sockets and unusable:
            raise unusable[0]
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


UNUSABLE_ADDRESS = (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT)
"""Why an address of a name is left out when another of its addresses can be bound."""


def _bound_socket(family: int, kind: int, proto: int,
                  address: tuple[Any, ...]) -> socket.socket:
    """One listening socket on ``address`` (:func:`listening_sockets`); closed again if
    it cannot be bound.

    Raises:
        OSError: the socket cannot be made, bound or listen.
    """
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(LISTEN_BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


def shown_host(host: str) -> str:
    """How the address to open names ``host`` in a URL: ``localhost`` for IPv4's
    loopback and wildcards, ``[::1]`` for IPv6's wildcard (its socket takes IPv6 only),
    brackets around another IPv6 address."""
    if host in ("127.0.0.1", "0.0.0.0", "", "localhost"):
        return "localhost"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def address_to_open(host: str, port: int, public_url: str | None = None) -> str:
    """The address the start-up banner gives: ``public_url`` (``--public-url``, the
    address others reach the server at) when set, else the one it listens on."""
    if public_url:
        return public_url.rstrip("/") + "/"
    return f"http://{shown_host(host)}:{port}/"


def _refuse(message: str, *args: object) -> NoReturn:
    """Log why the server cannot start (one line) and exit with status 3."""
    logging.getLogger("gametable.server").error("the server cannot start: " + message, *args)
    raise SystemExit(3)


def _lock_folder(settings: Settings, held: contextlib.ExitStack) -> None:
    """One server per data folder, or the processes of one cluster (docs/deploy.md):
    the folder's lock, held until ``held`` closes; a read-only folder, or one without
    ``flock``, is served unlocked with a warning."""
    try:
        folder = FolderLock.take(settings.data_dir, shared=bool(settings.redis))
    except FolderUnlockable as error:
        logging.getLogger("gametable.server").warning(
            "%s: nothing stops a second server on this data folder", error)
        return
    except StorageError as error:
        _refuse("%s", error)
    held.callback(folder.release)


def _listen(host: str, port: int, held: contextlib.ExitStack) -> list[socket.socket]:
    """The listening sockets (:func:`listening_sockets`), closed when ``held`` closes."""
    try:
        listeners = listening_sockets(host, port)
    except OSError as error:
        why = ("is in use (another server?): choose another --port"
               if error.errno == errno.EADDRINUSE
               else f"cannot be used: {error.strerror or error}")
        _refuse("port %d on %s %s", port, host, why)
    for listener in listeners:
        held.callback(listener.close)
    return listeners


def _lock_database(settings: Settings, held: contextlib.ExitStack) -> DatabaseLock | None:
    """With ``--database``, the PostgreSQL database's lock, as the folder's
    (:mod:`gametable.server.databaselock`), held until ``held`` closes. A database that
    cannot be reached is left to the storage, which says so in its own words as the
    server starts."""
    if not settings.database:
        return None
    from gametable.server.databaselock import DatabaseInUse, DatabaseLock  # noqa: PLC0415

    try:
        database = DatabaseLock.take(settings.database, shared=bool(settings.redis))
    except DatabaseInUse as error:
        _refuse("%s", error)
    except StorageError:
        return None
    held.callback(database.release)
    return database


def run(*, host: str, port: int, settings: Settings, forwarded_allow_ips: str | None = None,
        json_logs: bool = False) -> None:
    """Serve until interrupted; prints the address to open. The data folder, the port
    and the PostgreSQL database (with ``--database``) are taken first, each refused in
    one line (exit status 3) when another server has it.

    Args:
        forwarded_allow_ips: addresses of reverse proxies whose ``X-Forwarded-For`` names
            the client (``None``: the header is ignored, every client is the address it
            connects from — else anyone could claim any address and pass per-client
            limits).
    """
    configure_logging(json_logs)
    with _terminated_by_sigterm(), contextlib.ExitStack() as held:
        _lock_folder(settings, held)
        listeners = _listen(host, port, held)
        database = _lock_database(settings, held)
        _serve(host, port, settings, listeners, forwarded_allow_ips, json_logs, database)


class _Terminated(BaseException):
    """SIGTERM came: what :func:`run` holds is let go before the process ends by it."""


@contextlib.contextmanager
def _terminated_by_sigterm() -> Iterator[None]:
    """Within it, SIGTERM (systemd's stop) unwinds as an exception, so that the folder's
    and the database's locks are released and the process's file in ``serve.holders``
    taken away (docs/deploy.md); the process then ends by SIGTERM as before (exit status
    143). uvicorn catches the signal while it serves, drains and stops, then raises it
    again: it ended the process at once, the locks' files left behind."""
    def unwind(_signum: int, _frame: object) -> None:
        raise _Terminated

    previous = signal.signal(signal.SIGTERM, unwind)
    try:
        yield
    except _Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTERM)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _serve(host: str, port: int, settings: Settings, listeners: list[socket.socket],
           forwarded_allow_ips: str | None, json_logs: bool,
           database: DatabaseLock | None) -> None:
    """Make the application and serve it on ``listeners`` until interrupted."""
    if settings.redis and not settings.advertise:
        settings.advertise = f"http://{advertised_host(host)}:{port}"
    app = create_app(settings, database_lock=database)
    banner = (f"gametable: open {address_to_open(host, port, settings.public_url)} in "
              f"your browser (data in {settings.data_dir.resolve()})")
    logging.getLogger("uvicorn.error").addFilter(StartRefusedFilter(app))
    options: dict[str, Any] = {}
    if forwarded_allow_ips:
        options = {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips}
    else:
        options = {"proxy_headers": False}
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", log_config=None,
        ws=BoundedWebSocketProtocol, ws_max_size=WS_MAX_FRAME_BYTES,
        ws_per_message_deflate=False, ws_ping_interval=20,
        ws_ping_timeout=20, http=header_timeout_protocol(settings.header_timeout),
        timeout_keep_alive=5, timeout_graceful_shutdown=10, **options)
    DrainingServer(config, app, banner, log_banner=json_logs).run(sockets=listeners)
