"""The web application: HTTP API, websocket and the browser client's static files.

Routes:

==========================================  =============================================
``GET  /api/games``                         every game's description and the bot names
``POST /api/tables``                        create a table (``CreateTable``)
``GET  /api/tables/{id}``                   seats, status and public setup of a table
``POST /api/tables/{id}/join``              take an open seat → ``{seat, token}``
``POST /api/tables/{id}/seats/{seat}/link``  the host: a link for a seat → ``{seat, code}``
``POST /api/tables/{id}/seats/{n}/bot``     a bot takes open seat n (``X-Host-Token``)
``POST /api/tables/{id}/seats/{n}/remove``  the host removes the player in seat n
``POST /api/tables/{id}/leave``             a seated person leaves (``X-Seat-Token``)
``POST /api/tables/{id}/name``              a seated person changes their name (``X-Seat-Token``)
``POST /api/tables/{id}/options``           the host changes options before the first move
``POST /api/tables/{id}/clock``             the host pauses or resumes the turn clock
``POST /api/tables/{id}/end``               the host ends the game early
``POST /api/tables/{id}/host``              the host hands the role to a seated person
``POST /api/tables/{id}/watching``          the host lets people watch, or not
``GET  /api/tables/{id}/record``            the game record, once the game is over
``GET  /api/tables/{id}/replay``            its steps as a seat saw them, once over
``POST /api/replay``                        the steps of a record file (the body)
``WS   /api/tables/{id}/ws``                play and watch (``docs/protocol.md``)
``/api/decks…``                             picture decks (``server/decks.py``)
``GET  /``, ``/t/{id}``                     the browser client
``GET  /t/{id}/screen``                     the table's big screen (the same client)
``GET  /t/{id}/watch``                      the table's watch link (the same client)
``GET  /replay``, ``/t/{id}/replay``          the replay viewer (the same client)
``GET  /healthz``, ``/readyz``                liveness, and readiness (tables loaded,
                                            storage answers, not shutting down)
``GET  /metrics``                           Prometheus metrics (``server/metrics.py``)
==========================================  =============================================
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import orjson
from fastapi import FastAPI, Header, Query, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send

from gametable.bots import bot_names
from gametable.bots.levels import level_players
from gametable.core import registry
from gametable.core.problems import problem_params
from gametable.decks.uploads import split_keys
from gametable.server import hosting, leaving, renaming
from gametable.server.caps import Caps
from gametable.server.clock import ClockSettings
from gametable.server.decks import MAX_UPLOAD_BYTES, UPLOAD_PATH, upload_too_large
from gametable.server.decks import mount as mount_decks
from gametable.server.decks import start as start_decks
from gametable.server.guards import (
    LOOPBACK,
    BodyLimit,
    HeadAsGet,
    SecurityHeaders,
    allowed,
    client_address,
    client_key,
    networks,
    origin_allowed,
)
from gametable.server.limits import Limits, Rate, Sockets, secret_key
from gametable.server.lobby import check_options
from gametable.server.messages import (
    ChangeOptions,
    CheckOptions,
    CreateTable,
    EndGame,
    HandHost,
    JoinTable,
    PauseClock,
    RemovePlayer,
    RenameSeat,
    SeatBot,
    SetWatching,
)
from gametable.server.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from gametable.server.nesting import json_refusal
from gametable.server.outage import Outage
from gametable.server.passes import fingerprint
from gametable.server.quotas import UploadQuota
from gametable.server.refused import Refused
from gametable.server.replays import (
    MAX_RECORD_BYTES,
    REPLAY_WORKERS,
    finished_record,
    parse_record,
    replay_steps,
)
from gametable.server.socket import Socket, serve_client
from gametable.server.static import ImmutableStatic
from gametable.server.storage import SQLiteStorage, Storage, StorageError
from gametable.server.table import RESTART_CLOSE
from gametable.server.tables import TABLE_ID, SeatRequest, TableManager, check_deck_owner

if TYPE_CHECKING:
    from gametable.server.cluster import Cluster
    from gametable.server.joining import DatabaseSessions

log = logging.getLogger("gametable.server")

MAX_BODY_BYTES = 64 * 1024
READY_SECONDS = 2.0
"""``/readyz`` answers 503 when the database or Redis takes longer than this (seconds)."""
REPLAY_PATH = "/api/replay"
DEFAULT_STATIC = Path(__file__).resolve().parents[3] / "frontend" / "dist"

PRIVATE = {"Cache-Control": "private, no-store"}
"""The headers of an answer given for a seat's or the host's token (a finished game's
record and replay): a shared cache in front of the server must not keep it for others."""


def default_rates() -> dict[str, Rate | None]:
    """Per-client rates (``BURST/SECONDS``: a burst, then one more every SECONDS)."""
    return {"create": Rate(10, 30.0), "join": Rate(30, 2.0), "upload": Rate(5, 120.0),
            "chat": Rate(20, 1.0), "replay": Rate(60, 0.5), "check": Rate(120, 0.25),
            "messages": Rate(800, 1 / 400)}


@dataclass
class Settings:
    """How the server runs.

    Attributes:
        data_dir: folder of the SQLite database (``gametable.sqlite3``) and of the
            server's secret key (``secret.key``).
        database: a PostgreSQL URL (``postgresql://…``) to keep tables in instead of
            SQLite (``None``: SQLite in ``data_dir``).
        bot_delay: seconds a computer player waits before acting.
        static_dir: the built browser client (``frontend/dist``).
        synchronous: SQLite ``synchronous`` pragma (``FULL`` fsyncs every commit).
        public_url: the address others reach this server at; invite links use it, and
            pages there may open table websockets.
        rates: per-client rates of ``create`` (tables), ``join``, ``upload`` (decks),
            ``chat``, ``replay`` (requests for replay steps) and ``messages`` (on the
            table websockets, all of one address's connections together: paced, not
            refused); a kind left out or ``None`` is not limited.
        caps: waiting and all-bot tables per client and in all, when waiting tables
            expire, and the table websockets one client address may hold open and
            spectators one table may have.
        body_timeout: seconds a request body (other than an upload) may take to arrive.
        read_timeout: seconds without a byte of a request body before it is refused.
        header_timeout: seconds a client may take to send a request's headers (the
            connection is closed after that); applied by ``gametable serve``.
        upload_quota: what one client may upload (decks, pictures, bytes, CPU time).
        absent_seconds: at tables whose clock covers for absent players, seconds a seat
            that must act may stay disconnected before a computer player acts for it.
        host_gone_seconds: seconds the host's seat may have nobody connected, while
            another player is, before the host role passes to that player.
        reopen_after_seconds: seconds a player must have been gone (no connection)
            before the host may open their seat for someone else, who would see their
            cards: a page reload or a phone asleep is not leaving the table.
        redis: a Redis URL (``redis://host:6379/0``) shared by several processes that
            serve the same tables (``gametable.server.cluster``; use it with
            ``database``); ``None``: this process serves every table alone.
        advertise: with ``redis``, the URL the other processes reach this one at
            (``http://10.0.0.5:8001``); ``gametable serve`` makes it from its host and
            port when not given.
        metrics_from: the networks (``10.0.0.0/8``, ``::1``) whose clients may read
            ``/metrics``; ``("all",)`` for everyone. Others get 403: its figures (such
            as each computer player's decision time) are for the server's operators.
    """

    data_dir: Path = Path("data")
    database: str | None = None
    bot_delay: float = 0.8
    static_dir: Path = DEFAULT_STATIC
    synchronous: str = "FULL"
    public_url: str | None = None
    rates: dict[str, Rate | None] = field(default_factory=default_rates)
    caps: Caps = field(default_factory=Caps)
    body_timeout: float = 30.0
    read_timeout: float = 15.0
    header_timeout: float = 10.0
    upload_quota: UploadQuota = field(default_factory=UploadQuota)
    absent_seconds: float = 30.0
    host_gone_seconds: float = 300.0
    reopen_after_seconds: float = 60.0
    redis: str | None = None
    advertise: str | None = None
    metrics_from: tuple[str, ...] = LOOPBACK


def server_secret(data_dir: Path) -> bytes:
    """The server's secret key, kept in ``data_dir / "secret.key"`` (made on first use,
    readable by its owner only). It never leaves the server."""
    path = data_dir / "secret.key"
    try:
        secret = path.read_bytes()
    except FileNotFoundError:
        data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        secret = secrets.token_bytes(32)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # made at the same moment by another process
            return path.read_bytes()
        with os.fdopen(descriptor, "wb") as file:
            file.write(secret)
    if len(secret) < 32:
        raise RuntimeError(f"{path} holds no usable key: remove it to make a new one")
    return secret


def open_storage(settings: Settings) -> Storage:
    """The storage ``settings`` name: PostgreSQL at ``settings.database``, else SQLite in
    ``settings.data_dir``.

    Raises:
        StorageError: the database cannot be opened, reached or migrated.
    """
    if settings.database:
        from gametable.server.postgres import PostgresStorage  # noqa: PLC0415

        return PostgresStorage(settings.database)
    return SQLiteStorage(settings.data_dir / "gametable.sqlite3",
                         synchronous=settings.synchronous)


class ErrorResponse(JSONResponse):
    """A refusal's JSON body, written with every character outside ASCII escaped: a
    refused value may hold what UTF-8 cannot encode (a lone surrogate sent as
    ``"\\ud800"``), and the refusal must still reach its sender."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode()


def cannot_start(error: BaseException) -> bool:
    """Whether ``error``, raised as the server starts, is one of the world around it
    (storage or Redis cannot be reached or used, processes sharing Redis hold other
    keys), told to the operator in a line, not a fault of the server's."""
    if isinstance(error, StorageError):
        return True
    try:
        from gametable.server.cluster import ClusterError  # noqa: PLC0415 (Redis only)
    except ImportError:
        return False
    return isinstance(error, ClusterError)


def create_app(settings: Settings | None = None, storage: Storage | None = None, *,
               database_lock: DatabaseSessions | None = None) -> Gametable:
    """The ASGI application. ``storage`` defaults to SQLite in ``settings.data_dir``;
    ``database_lock``: the PostgreSQL database's lock this process holds
    (:class:`~gametable.server.databaselock.DatabaseLock`), by which a process of a
    cluster started with another Redis is refused (:mod:`gametable.server.joining`)."""
    return Gametable(create_api(settings, storage, database_lock=database_lock))


def create_api(settings: Settings | None = None, storage: Storage | None = None, *,
               database_lock: DatabaseSessions | None = None) -> FastAPI:
    """The HTTP API and the client's pages (the websocket is routed by :class:`Gametable`;
    the arguments as :func:`create_app`)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            store, manager, cluster = await start(app)
        except Exception as error:
            if cannot_start(error):
                # Said in one line (the server's runner keeps uvicorn's traceback of it
                # out of the log: what is wrong is outside the server, not in it).
                said = " ".join(str(error).split())  # (a driver's message has lines)
                log.error("the server cannot start: %s", said)
                app.state.start_refused = said
            raise
        app.state.manager = manager
        app.state.cluster = cluster
        sweeper = asyncio.create_task(_sweep(manager))
        yield
        sweeper.cancel()
        if cluster is not None:
            await cluster.stop()
        await manager.stop()
        store.close()

    async def start(app: FastAPI) -> tuple[Storage, TableManager, Cluster | None]:
        """Open storage, load the tables (or join the other processes): the server's
        start. Raises what :func:`cannot_start` names when storage or Redis cannot be
        used."""
        start_decks(app, settings.data_dir)
        store = storage or open_storage(settings)
        secret = server_secret(settings.data_dir)
        manager = TableManager(store, bot_delay=settings.bot_delay,
                               secret=secret, caps=settings.caps,
                               absent_seconds=settings.absent_seconds,
                               host_gone_seconds=settings.host_gone_seconds,
                               reopen_after_seconds=settings.reopen_after_seconds)
        manager.watch_connections = partial(hosting.watch_host, manager)
        cluster: Cluster | None = None
        if settings.redis:
            # Several processes: each table is loaded by the one that claims its lease.
            from gametable.server.cluster import Cluster  # noqa: PLC0415 (only then)

            cluster = Cluster(settings.redis, settings.advertise or "http://127.0.0.1:8000")
            cluster.relay_rate = settings.rates.get("messages")
            limits.shared = cluster  # every process counts a client's requests together
            active = await asyncio.to_thread(store.load_tables, active_only=True)
            await cluster.start(manager, [row.id for row in active],
                                fingerprint=fingerprint(secret)
                                + app.state.deck_passes.fingerprint,
                                storage_id=await asyncio.to_thread(store.identity),
                                sessions=database_lock,
                                schema=int(getattr(store, "schema_version", 0) or 0))
            cluster.check_reach()
        else:
            count = manager.load()
            log.info("loaded %d %s from storage", count, "table" if count == 1 else "tables")
            await manager.note_ends()
            manager.start_bots()
        return store, manager, cluster

    limits = Limits(settings.rates)
    # No interactive documentation page: FastAPI's loads its script from a CDN, which
    # would run on this origin beside every seat and host token the browser keeps. The
    # schema is served; docs/protocol.md is the reference.
    app = FastAPI(title="gametable", lifespan=lifespan, docs_url=None,
                  openapi_url="/api/openapi.json", redoc_url=None)
    app.state.settings = settings
    app.state.limits = limits
    app.state.sockets = Sockets(settings.caps.connections_per_client,
                                settings.rates.get("messages"))
    # Uploads count their bytes themselves (refused as upload_too_large); this is a
    # backstop, which refuses one that says it is too large by the same words.
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES,
                       larger={UPLOAD_PATH: MAX_UPLOAD_BYTES,
                               REPLAY_PATH: MAX_RECORD_BYTES},
                       read_timeout=settings.read_timeout, body_timeout=settings.body_timeout,
                       refusals={UPLOAD_PATH: upload_too_large})
    app.add_middleware(SecurityHeaders)
    app.add_middleware(HeadAsGet)

    def manager_of(request: Request) -> TableManager:
        manager: TableManager = request.app.state.manager
        return manager

    @app.exception_handler(Refused)
    async def refused(_: Request, error: Refused) -> JSONResponse:
        headers = dict(error.headers)
        if error.retry_after is not None:
            headers["Retry-After"] = str(error.retry_after)
        return ErrorResponse(error.to_json(), status_code=error.status,
                             headers=headers or None)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0]
        if first.get("type") == "json_invalid":
            # Its "location" is a character offset, which read as a field ("1").
            refusal = Refused("bad_request", "server.errors.unreadable_body")
            return ErrorResponse(refusal.to_json(), status_code=400)
        field = ".".join(str(p) for p in first["loc"] if p != "body") or "body"
        if first.get("type") == "string_unicode":
            # pydantic's words were "unable to parse raw data as a unicode string".
            refusal = Refused("bad_request", "server.errors.lone_surrogate_in",
                              field=field)
        else:
            # What is wrong as a code and its values, which the catalogs say in the
            # reader's language (pydantic's English stood inside the translated message).
            refusal = Refused("bad_request", "server.errors.bad_request", field=field,
                              **problem_params(first))
        return ErrorResponse(refusal.to_json(), status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        """The framework's own refusals (no such address, a method the address does
        not take, a body that is not JSON) in the error format every other refusal
        has, so that a client can show them in its reader's language."""
        if error.status_code == 404:
            # A mistyped page address in a browser: the client's page says so in the
            # reader's language (a blank page of JSON did); the API answers as below.
            index = settings.static_dir / "index.html"
            if (request.method == "GET" and not request.url.path.startswith("/api/")
                    and "text/html" in request.headers.get("accept", "")
                    and index.is_file()):
                return FileResponse(index, status_code=404,
                                    headers={"Cache-Control": "no-cache"})
            refusal = Refused("not_found", "server.errors.not_found", status=404)
        elif error.status_code == 405:
            refusal = Refused("method_not_allowed", "server.errors.method_not_allowed",
                              status=405, method=request.method)
        elif error.status_code == 400:
            # A body the JSON reader refused: too deep or a number too large is told
            # as the websocket tells it (both are JSON); otherwise it is unreadable.
            cause = error.__cause__
            refusal = (json_refusal(cause, "bad_request", "server.errors.unreadable_body",
                                    not_utf8="server.errors.unreadable_body",
                                    depth_checked=False)
                       if cause is not None
                       else Refused("bad_request", "server.errors.unreadable_body"))
        else:
            return await http_exception_handler(request, error)
        return ErrorResponse(refusal.to_json(), status_code=refusal.status,
                             headers=error.headers)

    @app.get("/healthz", include_in_schema=False)
    async def healthz(request: Request) -> dict[str, str]:
        """Liveness: the process answers (``{"status": "ok"}``; with several processes
        also this ``process``, by which it finds itself at its ``--advertise`` address)."""
        cluster: Cluster | None = getattr(request.app.state, "cluster", None)
        if cluster is None:
            return {"status": "ok"}
        return {"status": "ok", "process": cluster.id}

    # A load balancer asks every few seconds: while the database or Redis is away, what
    # fails is logged once an outage, once a minute and at its end, not at every probe.
    not_ready = {service: Outage(service, log=log, prefix="not ready",
                                 stops="this process is not ready")
                 for service in ("the table storage", "Redis")}

    @app.get("/readyz", include_in_schema=False)
    async def readyz(request: Request) -> JSONResponse:
        """Readiness: 200 while tables are loaded, storage answers and the process is not
        shutting down; else 503 with the reason (``starting``, ``draining``,
        ``storage``; with several processes also ``redis``, and ``advertise`` while the
        process does not answer at its ``--advertise`` address). To a client of
        ``settings.metrics_from`` the answer also says how many ``tables`` are in memory
        and, with several processes, names this ``process`` and how many tables it
        ``owns``. A database or Redis that does not
        answer within ``READY_SECONDS`` (2 s) is not ready: a load balancer asks again
        rather than waiting on a pool's own, longer, timeout."""
        manager: TableManager | None = getattr(request.app.state, "manager", None)
        if manager is None:
            return JSONResponse({"status": "starting"}, status_code=503)
        if manager.draining:
            return JSONResponse({"status": "draining"}, status_code=503)
        try:
            await asyncio.wait_for(asyncio.to_thread(manager.storage.ping), READY_SECONDS)
        except (StorageError, TimeoutError) as error:
            not_ready["the table storage"].failed(
                "readiness check", str(error) or f"no answer in {READY_SECONDS:.0f} s")
            return JSONResponse({"status": "storage"}, status_code=503)
        not_ready["the table storage"].answered()
        # How many tables, and which process: for the monitors only (to anyone, the
        # count told when games began and ended).
        monitor = allowed(client_address(request.scope), monitors)
        ready: dict[str, Any] = {"status": "ready"}
        if monitor:
            ready["tables"] = len(manager.tables)
        cluster: Cluster | None = getattr(request.app.state, "cluster", None)
        if cluster is not None:
            from gametable.server.cluster import ClusterError  # noqa: PLC0415

            try:
                await asyncio.wait_for(cluster.ping(), READY_SECONDS)
            except (ClusterError, TimeoutError) as error:
                not_ready["Redis"].failed(
                    "readiness check", str(error) or f"no answer in {READY_SECONDS:.0f} s")
                return JSONResponse({"status": "redis"}, status_code=503)
            not_ready["Redis"].answered()
            if not cluster.reachable:
                return JSONResponse({"status": "advertise", "process": cluster.id},
                                    status_code=503)
            if monitor:
                ready.update(process=cluster.id, owns=len(cluster.held))
        return JSONResponse(ready)

    monitors = networks(settings.metrics_from)

    @app.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        """Prometheus metrics of this process (``gametable.server.metrics``), for clients
        of ``settings.metrics_from`` only (403 ``metrics_private`` to others)."""
        if not allowed(client_address(request.scope), monitors):
            raise Refused("metrics_private", "server.errors.metrics_private", status=403)
        return Response(manager_of(request).metrics.render(),
                        media_type=METRICS_CONTENT_TYPE)

    catalogue: dict[tuple[str, ...], bytes] = {}

    @app.get("/api/games", response_class=Response)
    async def games() -> Response:
        """Every game's description (seats, options schema, texts) with the bots that play
        it as themselves (``bots``), every bot name, the server's public address for
        invite links (``null``: the address in the browser) and how long a person must
        have been gone before the host may open or give away their seat
        (``reopen_after_seconds``).

        The answer is static (``Game.describe`` is), so it is encoded once per set of
        registered games and bots: building it (the options' JSON Schemas above all)
        took about 8 ms of CPU a request."""
        bots = bot_names()
        key = (*registry.names(), "", *bots)
        body = catalogue.get(key)
        if body is None:
            described = []
            for name in registry.names():
                game = registry.get(name)
                described.append({**game.describe(), "bots": bot_names(game),
                                  "levels": level_players(game)})
            body = orjson.dumps({"games": described, "bots": bots,
                                 "server": {"public_url": settings.public_url,
                                            "reopen_after_seconds":
                                                settings.reopen_after_seconds}})
            catalogue.clear()
            catalogue[key] = body
        return Response(body, media_type="application/json")

    @app.post("/api/games/{game_name}/check", response_class=ErrorResponse)
    async def check_new_table(game_name: str, body: CheckOptions, request: Request
                              ) -> dict[str, Any]:
        """Whether ``body``'s options and seat count make a table of ``game_name``, the
        rules' refusal if not, and the seat counts these options allow (the lobby asks
        as choices change; nothing is created). The answer is written as refusals are
        (:class:`ErrorResponse`): the refusal it holds may hold a refused value."""
        await limits.check_shared("check", [client_key(request.scope)])
        return check_options(game_name, body.config, body.seats,
                             split_keys(request.headers.get("x-deck-key")))

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Create a table; with ``name``, its creator takes the first human seat."""
        address = client_key(request.scope)
        deck_keys = split_keys(request.headers.get("x-deck-key"))
        await limits.check_shared(
            "create", [address, *(secret_key("deck", k) for k in deck_keys[:1])])
        table, host_token, seat, token = await manager_of(request).create(
            body.game, body.config,
            [SeatRequest(kind=s.kind, bot=s.bot, name=s.name) for s in body.seats],
            body.name, deck_keys, client=address,
            clock=None if body.clock is None else ClockSettings(
                turn_seconds=body.clock.turn_seconds, cover=body.clock.cover,
                cover_absent=body.clock.cover_absent,
                absent_seconds=settings.absent_seconds))
        return {"table": table.info(), "host_token": host_token, "seat": seat,
                "token": token}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, request: Request) -> dict[str, Any]:
        """A table's seats, status and public setup (no secrets)."""
        return (await manager_of(request).get(table_id)).info()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
        """Take an open seat; the answer's ``token`` is the key to that seat."""
        await limits.check_shared("join", [client_key(request.scope)])
        seat, token = await manager_of(request).join(table_id, body.seat, body.name,
                                                     body.code)
        return {"seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/seats/{seat}/bot")
    async def seat_bot(table_id: str, seat: int, body: SeatBot, request: Request,
                       x_host_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """Give an open seat to a computer player (needs the creator's host token)."""
        manager = manager_of(request)
        address = client_key(request.scope)
        await limits.check_shared("join", [address, secret_key("host", x_host_token)])
        await manager.seat_bot(table_id, seat, body.bot, x_host_token, client=address)
        return (await manager.get(table_id)).info()

    def host_call(request: Request, token: str | None) -> TableManager:
        limits.check("join", [client_key(request.scope), secret_key("host", token)])
        return manager_of(request)

    @app.post("/api/tables/{table_id}/seats/{seat}/remove")
    async def remove_player(table_id: str, seat: int, body: RemovePlayer, request: Request,
                            x_host_token: Annotated[str | None, Header()] = None
                            ) -> dict[str, Any]:
        """The host removes the player in a seat (it opens, or a computer player takes
        it): the table's info, with ``seat_code`` the code of the seat's link when the
        game has begun (the seat is kept for whoever the host gives it)."""
        manager = host_call(request, x_host_token)
        table, code = await hosting.remove_player(manager, table_id, seat, x_host_token,
                                                  body.bot, client=client_key(request.scope))
        return {**table.info(), "seat_code": code}

    @app.post("/api/tables/{table_id}/seats/{seat}/cover")
    async def cover_player(table_id: str, seat: int, request: Request,
                           x_host_token: Annotated[str | None, Header()] = None
                           ) -> dict[str, Any]:
        """The host lets a computer player play for a person who is not at the table
        until they are back (their page connects): the table's info."""
        manager = host_call(request, x_host_token)
        table = await hosting.cover_player(manager, table_id, seat, x_host_token)
        return table.info()

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, request: Request,
                    x_seat_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """The person holding ``X-Seat-Token`` leaves: before the first move their seat
        opens, afterwards a computer player (``bot``) takes it over. The table's info."""
        manager = manager_of(request)
        address = client_key(request.scope)
        await limits.check_shared("join", [address, secret_key("seat", x_seat_token)])
        table, bot = await leaving.leave_table(manager, table_id, x_seat_token,
                                               client=address)
        return {**table.info(), "bot": bot}

    @app.post("/api/tables/{table_id}/name")
    async def rename(table_id: str, body: RenameSeat, request: Request,
                     x_seat_token: Annotated[str | None, Header()] = None) -> dict[str, Any]:
        """The person holding ``X-Seat-Token`` is known by ``body.name`` from now on
        (cleaned, and told apart from the other seats' names): the table's info."""
        manager = manager_of(request)
        await limits.check_shared(
            "join", [client_key(request.scope), secret_key("seat", x_seat_token)])
        table = await renaming.rename_seat(manager, table_id, x_seat_token, body.name)
        return table.info()

    @app.post("/api/tables/{table_id}/seats/{seat}/link")
    async def seat_link(table_id: str, seat: int, request: Request,
                        x_host_token: Annotated[str | None, Header()] = None
                        ) -> dict[str, Any]:
        """A new link for an open seat, kept for whoever the host gives it (the seat's
        earlier link stops working): ``{"seat", "code"}``; ``/t/<id>#invite=<code>``."""
        manager = host_call(request, x_host_token)
        return {"seat": seat, "code": await manager.seat_link(table_id, seat, x_host_token)}

    @app.post("/api/tables/{table_id}/options")
    async def change_options(table_id: str, body: ChangeOptions, request: Request,
                             x_host_token: Annotated[str | None, Header()] = None
                             ) -> dict[str, Any]:
        """The host gives the table new options and turn clock before the first move
        (every hand is dealt again): the table's info."""
        manager = host_call(request, x_host_token)
        table = await hosting.change_options(
            manager, table_id, x_host_token, body.config,
            None if body.clock is None else ClockSettings(
                turn_seconds=body.clock.turn_seconds, cover=body.clock.cover,
                cover_absent=body.clock.cover_absent,
                absent_seconds=settings.absent_seconds),
            split_keys(request.headers.get("x-deck-key")))
        return table.info()

    @app.post("/api/tables/{table_id}/clock")
    async def pause_clock(table_id: str, body: PauseClock, request: Request,
                          x_host_token: Annotated[str | None, Header()] = None
                          ) -> dict[str, Any]:
        """The host pauses or resumes the table's turn clock."""
        manager = host_call(request, x_host_token)
        table = await hosting.pause_clock(manager, table_id, x_host_token, body.paused)
        return table.info()

    @app.post("/api/tables/{table_id}/end")
    async def end_game(table_id: str, body: EndGame, request: Request,
                       x_host_token: Annotated[str | None, Header()] = None
                       ) -> dict[str, Any]:
        """The host ends the game early; its record is kept, marked ``ended_early``."""
        manager = host_call(request, x_host_token)
        return (await hosting.end_game(manager, table_id, x_host_token)).info()

    @app.post("/api/tables/{table_id}/watching")
    async def set_watching(table_id: str, body: SetWatching, request: Request,
                           x_host_token: Annotated[str | None, Header()] = None
                           ) -> dict[str, Any]:
        """The host lets people without a seat watch the table (the watch link), or not."""
        manager = host_call(request, x_host_token)
        return (await hosting.set_watching(manager, table_id, x_host_token,
                                           body.allowed)).info()

    @app.post("/api/tables/{table_id}/host")
    async def hand_host(table_id: str, body: HandHost, request: Request,
                        x_host_token: Annotated[str | None, Header()] = None
                        ) -> dict[str, Any]:
        """The host gives the role to a connected seated person (their new host token
        reaches them over their websocket)."""
        manager = host_call(request, x_host_token)
        return (await hosting.hand_host(manager, table_id, x_host_token, body.seat)).info()

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request,
                     x_seat_token: Annotated[str | None, Header()] = None,
                     x_host_token: Annotated[str | None, Header()] = None) -> Response:
        """The game record (``docs/records.md``), once the game is over (with watching
        switched off, to its players and host only: ``X-Seat-Token``, ``X-Host-Token``)."""
        table = await manager_of(request).get(table_id)
        data = finished_record(table, x_seat_token, x_host_token)
        return Response(data.model_dump_json(indent=1), media_type="application/json",
                        headers={"Content-Disposition":
                                 f'attachment; filename="{table.game_name}-{table.id}.json"',
                                 **PRIVATE})

    # Replays are worked out one at a time: several at once, each in its thread, took
    # the interpreter from the event loop (every table) in turn with each of them.
    replaying = asyncio.Semaphore(REPLAY_WORKERS)

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str, request: Request, seat: int | None = None,
                           first: Annotated[int, Query(alias="from")] = 0,
                           count: int = 20,
                           x_seat_token: Annotated[str | None, Header()] = None,
                           x_host_token: Annotated[str | None, Header()] = None
                           ) -> Response:
        """Steps ``from … from + count − 1`` of a finished table's game as ``seat`` saw
        them (no seat: a spectator), as many as fit in an answer; see
        :func:`replays.replay_steps`. The JSON is written in a worker thread: an answer
        may be megabytes, which would hold up every table if written in the event loop."""
        await limits.check_shared("replay", [client_key(request.scope)])
        data = finished_record(await manager_of(request).get(table_id), x_seat_token,
                               x_host_token)
        async with replaying:
            return Response(await asyncio.to_thread(
                lambda: orjson.dumps(replay_steps(data, seat, first, count))),
                media_type="application/json", headers=PRIVATE)

    @app.post(REPLAY_PATH)
    async def record_replay(request: Request, seat: int | None = None,
                            first: Annotated[int, Query(alias="from")] = 0,
                            count: int = 20) -> Response:
        """The same for the record in the body (a record file's bytes as they are, up
        to :data:`replays.MAX_RECORD_BYTES`): nothing is stored. A record naming an
        uploaded deck replays only with its owner key in ``X-Deck-Key`` (otherwise
        ``no_deck``, 404, as everywhere else: even its size is its owner's to know)."""
        await limits.check_shared("replay", [client_key(request.scope)])
        body = await request.body()
        deck_keys = split_keys(request.headers.get("x-deck-key"))

        def answer() -> bytes:
            record = parse_record(body)
            check_deck_owner(record.config, deck_keys)
            return orjson.dumps(replay_steps(record, seat, first, count))

        async with replaying:
            return Response(await asyncio.to_thread(answer), media_type="application/json")

    mount_decks(app, settings.data_dir, limits, settings.upload_quota)
    _mount_client(app, settings.static_dir)
    return app


SOCKET_PATH = re.compile(r"^/api/tables/([^/]+)/ws$")
"""A table's websocket. The id is checked after the handshake, so that an id no table
can have (:data:`TABLE_ID`: too long, or with other characters) is told "no such table"
(close code 4404) as an unknown one is, not refused at the handshake (403)."""
TABLE_PATH = re.compile(rf"^/api/tables/({TABLE_ID.pattern})(?:/.*)?$")
"""The HTTP routes of one table: with several processes, its owner answers them."""


def _dot_segments(path: str) -> bool:
    """Whether ``path`` (percent-decoded, as ASGI gives it) has a ``.`` or ``..``
    segment."""
    return any(segment in (".", "..") for segment in path.split("/"))


class Gametable:
    """The ASGI entry point: table websockets go straight to :func:`serve_client`.

    They are the hot path (every action and every update), so they skip the HTTP
    middleware and routing that the rest of the API goes through. A handshake whose
    ``Origin`` is another site's is closed at once with code :data:`ORIGIN_CLOSE` (4403).

    With several processes (``Settings.redis``), a table's websocket and HTTP routes are
    served by the process that owns the table; this one proxies them when another does
    (:class:`~gametable.server.cluster.Cluster`).
    """

    def __init__(self, api: FastAPI) -> None:
        self.api = api

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        cluster: Cluster | None = getattr(self.api.state, "cluster", None)
        if await self._draining(scope, receive, send):
            return
        if scope["type"] == "websocket":
            match = SOCKET_PATH.match(scope["path"])
            if match:
                state = self.api.state
                socket = Socket(receive, send)
                if not origin_allowed(scope, state.settings.public_url):
                    if await socket.accept():
                        await socket.close(*ORIGIN_CLOSE)
                    return
                table_id = match.group(1)
                if cluster is not None and TABLE_ID.fullmatch(table_id):
                    scope, peer = cluster.peer_of(scope)
                    address = client_key(scope)
                    await cluster.serve_socket(
                        socket, table_id, scope, peer,
                        lambda accepted: serve_client(accepted, state.manager, table_id,
                                                      address, state.limits, state.sockets),
                        address)
                    return
                await serve_client(socket, state.manager, table_id,
                                   client_key(scope), state.limits, state.sockets)
                return
        elif cluster is not None and scope["type"] == "http":
            match = TABLE_PATH.match(scope["path"])
            # A path with "." or ".." segments is not passed on: the owner would resolve
            # "/api/tables/<id>/../../metrics" to another route, asked by this process.
            if match and not _dot_segments(scope["path"]):
                scope, peer = cluster.peer_of(scope)
                table_id = match.group(1)

                async def forward(scope: Scope, receive: Receive, send: Send) -> None:
                    await cluster.forward(scope, receive, send, table_id, peer, self.api)

                # The body is read here before it is passed on: the same limits of size
                # and time as the API's own (408 for a body that trickles in).
                settings: Settings = self.api.state.settings
                await BodyLimit(forward, limit=MAX_BODY_BYTES,
                                read_timeout=settings.read_timeout,
                                body_timeout=settings.body_timeout)(scope, receive, send)
                return
        await self.api(scope, receive, send)


    async def _draining(self, scope: Scope, receive: Receive, send: Send) -> bool:
        """While the server drains at shutdown, take nothing new: a table's websocket is
        closed with "reconnect" (1012; the client comes back, to another process or
        after the restart) and a request that would change something (not a GET) is
        refused with 503 ``shutting_down``. Returns whether it answered."""
        manager: TableManager | None = getattr(self.api.state, "manager", None)
        if manager is None or not manager.draining:
            return False
        if scope["type"] == "websocket" and SOCKET_PATH.match(scope["path"]):
            socket = Socket(receive, send)
            if await socket.accept():
                await socket.close(*RESTART_CLOSE)
            return True
        if (scope["type"] == "http" and scope["path"].startswith("/api/")
                and scope["method"] not in ("GET", "HEAD", "OPTIONS")):
            refusal = Refused("shutting_down", "server.errors.shutting_down", status=503)
            await JSONResponse(refusal.to_json(), status_code=503,
                               headers={"Retry-After": "1"})(scope, receive, send)
            return True
        return False


ORIGIN_CLOSE = (4403, "this page may not open a table here (Origin)")


async def _sweep(manager: TableManager, every: float = 60.0) -> None:
    """Now and then, let tables nobody uses leave memory (they stay stored), note the ends
    of games storage did not note yet, and expire waiting tables that nobody joined in
    time."""
    while True:
        await asyncio.sleep(every)
        await manager.note_ends()
        evicted = manager.evict_idle()
        if evicted:
            left = len(manager.tables)
            log.info("%d idle %s left memory; %d %s", evicted,
                     "table" if evicted == 1 else "tables", left,
                     "remains" if left == 1 else "remain")
        try:
            expired = await manager.expire_waiting()
        except StorageError as error:
            log.warning("expiring waiting tables failed: %s", error)
            continue
        except Exception:
            log.exception("expiring waiting tables failed")
            continue
        if expired:
            log.info("%d waiting tables expired", expired)


def _mount_client(app: FastAPI, static_dir: Path) -> None:
    index = static_dir / "index.html"
    assets = static_dir / "assets"
    if assets.is_dir():
        app.mount("/assets", ImmutableStatic(directory=assets), name="assets")

    async def page() -> Response:
        if not index.is_file():
            return HTMLResponse(
                "<h1>gametable</h1><p>The browser client is not built. "
                "Run <code>scripts/serve</code> (or <code>npm run build</code> in "
                "<code>frontend/</code>).</p>", status_code=503)
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.add_api_route("/", page, include_in_schema=False)
    app.add_api_route("/t/{table_id}", page, include_in_schema=False)
    app.add_api_route("/t/{table_id}/screen", page, include_in_schema=False)
    app.add_api_route("/t/{table_id}/watch", page, include_in_schema=False)
    app.add_api_route("/t/{table_id}/replay", page, include_in_schema=False)
    app.add_api_route("/replay", page, include_in_schema=False)
    for name in ("favicon.svg", "favicon-turn.svg", "robots.txt"):
        path = static_dir / name
        if path.is_file():
            app.add_api_route(f"/{name}", _file_route(path), include_in_schema=False)


def _file_route(path: Path):  # type: ignore[no-untyped-def]
    async def route() -> FileResponse:
        return FileResponse(path, headers={"Cache-Control": "public, max-age=86400"})

    return route
