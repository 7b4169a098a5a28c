"""The deck routes: listing, uploading, reading and deleting decks, and serving pictures.

==============================================  ===========================================
``GET    /api/decks``                           the bundled decks and one's own (``X-Deck-Key``)
``POST   /api/decks``                           upload a deck (multipart) → ``{deck, key}``
``GET    /api/decks/{id}``                      a deck's manifest (cards, descriptions)
``DELETE /api/decks/{id}``                      delete one's own deck (owner key)
``POST   /api/decks/{id}/pass``                 a seat's picture pass for its table's deck
``GET    /api/decks/{id}/cards/{n}``            a card's picture (``size=thumb|full``)
==============================================  ===========================================

Bundled decks are public. An uploaded deck (its manifest and pictures) is served only to
its owner key, or with a picture pass (:mod:`gametable.server.passes`) that a seat of a
table whose config's ``deck`` is that deck got for it. To anyone else it does not exist
(404). The server asks a table's config for ``deck`` and nothing else, whatever the game.

Pictures are served from memory (bundled decks) or disk (uploaded decks) the same way
whoever asked for them before: no picture is made on request, and their validator is the
hash of their bytes (:mod:`gametable.decks.cards`). Uploads are charged to their client's
share (:mod:`gametable.server.quotas`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import shutil
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import ClientDisconnect

from gametable import decks as library
from gametable.decks import Deck, find_deck
from gametable.decks.cards import (
    SIZES,
    bundled_decks,
    picture,
    preload,
    public_manifest,
    summary,
    warm,
)
from gametable.decks.images import DeckRefused, megabytes
from gametable.decks.uploads import (
    MAX_CARDS,
    MAX_DESCRIPTION_CHARS,
    MAX_KEYS,
    Upload,
    create_deck,
    delete_deck,
    index_owners,
    is_owner,
    owned_decks,
    parse_descriptions,
    remove_leftovers,
    split_keys,
)
from gametable.server.guards import client_key
from gametable.server.limits import Limits, secret_key
from gametable.server.messages import BODY
from gametable.server.passes import PassKeeper
from gametable.server.quotas import UploadQuota, UploadQuotas
from gametable.server.refused import Refused
from gametable.server.storage import StorageError, token_hash
from gametable.server.table import FINISHED, HUMAN
from gametable.server.tables import TableManager

log = logging.getLogger("gametable.decks")

MAX_UPLOAD_BYTES = 200 * 1024 * 1024
"""Largest upload request (all files together): 200 MB."""
SPOOL_BYTES = 64 * 1024
"""Uploaded files go to temporary files on disk beyond this many bytes each."""
MAX_FORM_FILES = 2000
NAMED_TABLES = 10
"""A refused deletion names at most this many of the tables that use the deck."""
PUBLIC_CACHE = "public, max-age=31536000, immutable"
PRIVATE_CACHE = "private, max-age=86400"
UPLOAD_PATH = "/api/decks"
OLD_THUMBNAIL_CACHE = "deck-cache"
"""Where earlier versions made bundled thumbnails on request (removed at start-up)."""

router = APIRouter()
PREPARING_THREADS = 2
"""Uploads whose pictures are prepared at once; the others wait their turn."""
_uploading = asyncio.Semaphore(PREPARING_THREADS)
# Always the same threads: each thread's allocator keeps the memory of the biggest picture
# it decoded for reuse, so a new thread for every upload would add that up many times.
_preparing = ThreadPoolExecutor(PREPARING_THREADS, thread_name_prefix="deck-upload")


def mount(app: FastAPI, data_dir: Path, limits: Limits | None = None,
          quota: UploadQuota | None = None) -> None:
    """Serve the deck routes in ``app``; uploaded decks live under ``data_dir / "decks"``.
    Uploads are counted against ``limits`` (kind ``upload``), if given, and each client's
    uploads are limited by ``quota``."""
    library.configure(data_dir)
    app.state.deck_limits = limits
    app.state.deck_quotas = UploadQuotas(quota)
    app.include_router(router)


def start(app: FastAPI, data_dir: Path) -> None:
    """Ready the decks before the server takes requests: remove what interrupted uploads
    left, read the bundled decks' pictures into memory, load the picture pass secret."""
    for name in remove_leftovers():
        log.info("removed %s, left by an interrupted upload or deletion", name)
    if marked := index_owners():
        log.info("listed %d uploaded decks under their owners", marked)
    shutil.rmtree(data_dir / OLD_THUMBNAIL_CACHE, ignore_errors=True)
    preload()
    app.state.deck_passes = PassKeeper.in_folder(data_dir)


def refused(error: DeckRefused) -> Refused:
    """The server refusal for a deck refusal (same code, key, parameters and status;
    ``Retry-After`` when waiting helps)."""
    headers = {"Retry-After": str(error.retry_after)} if error.retry_after else None
    return Refused(error.code, error.key, status=error.status, headers=headers,
                   **error.params)


def no_deck(deck_id: str) -> Refused:
    """The answer for a deck that does not exist or that the asker may not see."""
    return Refused("no_deck", "decks.errors.no_deck", status=404, deck=deck_id)


def _keys(header: str | None, key: str | None) -> list[str]:
    keys = split_keys(header)
    if key:
        keys.append(key)
    return keys[:MAX_KEYS + 1]


def _passes(request: Request) -> PassKeeper:
    keeper: PassKeeper = request.app.state.deck_passes
    return keeper


def _may_see(request: Request, deck: Deck, keys: list[str], table_id: str | None,
             expires: str | None, signature: str | None) -> bool:
    """Whether this request may see ``deck``: it is bundled, or the request holds its owner
    key or a valid picture pass for it."""
    if not deck.uploaded or is_owner(deck, keys):
        return True
    return _passes(request).valid(deck.id, table_id, expires, signature)


def _find(deck_id: str) -> Deck | None:
    """The deck ``deck_id``, or ``None`` (also for an id no file could have)."""
    try:
        return find_deck(deck_id)
    except (OSError, ValueError):
        return None


def _visible(request: Request, deck_id: str, keys: list[str], table_id: str | None = None,
             expires: str | None = None, signature: str | None = None) -> Deck:
    deck = _find(deck_id)
    if deck is None or not _may_see(request, deck, keys, table_id, expires, signature):
        raise no_deck(deck_id)
    return deck


@router.get("/api/decks")
async def list_decks(x_deck_key: Annotated[str | None, Header()] = None) -> JSONResponse:
    """The bundled decks (the default deck first), then the uploaded decks owned by the
    keys in ``X-Deck-Key`` (comma-separated), newest first."""
    keys = split_keys(x_deck_key)
    own = await asyncio.to_thread(owned_decks, keys) if keys else []
    listed = [summary(deck) for deck in bundled_decks()]
    listed += [summary(deck, mine=True) for deck in own]
    return JSONResponse({"decks": listed},
                        headers={"Cache-Control": "private, no-cache", "Vary": "X-Deck-Key"})


LEAVING_POLL_SECONDS = 0.25
"""How often an upload being prepared checks that its client is still there (seconds)."""


async def _watch_for_leaving(request: Request, gone: threading.Event) -> None:
    """Set ``gone`` once the client of ``request`` has disconnected (its body read, the
    next message it can send is ``http.disconnect``); runs until cancelled."""
    while not await request.is_disconnected():
        await asyncio.sleep(LEAVING_POLL_SECONDS)
    gone.set()


@router.post("/api/decks", status_code=201)
async def upload_deck(request: Request,
                      x_deck_key: Annotated[str | None, Header()] = None) -> JSONResponse:
    """Make a deck from a multipart form: ``name``, ``files`` (pictures or a zip, one or
    more), optional ``descriptions`` (a JSON list, one per card) and ``language`` (their
    language, a tag such as ``en``; else refused ``bad_language``). Limited by the
    per-client upload rate, then charged to the client's address and the owner keys in
    ``X-Deck-Key`` (quotas)."""
    limits: Limits | None = request.app.state.deck_limits
    if limits is not None:
        keys = split_keys(x_deck_key)[:1]
        await limits.check_shared("upload", [client_key(request.scope),
                                             *(secret_key("deck", key) for key in keys)])
    quotas: UploadQuotas = request.app.state.deck_quotas
    clients = quotas.clients(client_key(request.scope), split_keys(x_deck_key))
    try:
        quotas.begin(clients)
    except DeckRefused as error:
        raise refused(error) from None
    try:
        form = await _read_form(request, lambda size: quotas.charge(
            clients, "megabytes", size / (1024 * 1024)))
        try:
            name = form.get("name")
            raw = form.get("descriptions")
            language = form.get("language")
            files = [item for item in form.getlist("files") if isinstance(item, UploadFile)]
            # Sent as a file, a text field was read as absent: refused as what it is.
            if isinstance(language, UploadFile):
                raise DeckRefused("bad_language")
            if isinstance(raw, UploadFile):
                raise DeckRefused("bad_descriptions", limit=MAX_DESCRIPTION_CHARS)
            descriptions = parse_descriptions(raw if isinstance(raw, str) else None)
            uploads = [Upload(item.filename or f"#{index + 1}", item.file)
                       for index, item in enumerate(files)]

            # A client that leaves while its cards are prepared (Cancel, a lost
            # connection) stops the work: a deck finished for nobody had an owner key
            # nobody held, was charged to the quota and stayed on disk for good.
            gone = threading.Event()

            def stop_if_gone() -> None:
                if gone.is_set():
                    raise DeckRefused("upload_cancelled")

            def on_card(seconds: float) -> None:
                quotas.charge(clients, "cpu_seconds", seconds)
                quotas.charge(clients, "cards", 1)
                stop_if_gone()

            def on_cpu(seconds: float) -> None:  # the descriptions' vectors
                quotas.charge(clients, "cpu_seconds", seconds)
                stop_if_gone()

            watcher = asyncio.create_task(_watch_for_leaving(request, gone))
            try:
                async with _uploading:
                    stop_if_gone()
                    deck, key = await asyncio.get_running_loop().run_in_executor(
                        _preparing, create_deck, name if isinstance(name, str) else None,
                        uploads, descriptions, on_card, on_cpu,
                        language if isinstance(language, str) else None)
            finally:
                watcher.cancel()
            if gone.is_set() or await request.is_disconnected():
                # Left after the last card: the deck is undone, as if never made.
                await asyncio.to_thread(delete_deck, deck.id, key)
                log.info("deck upload cancelled by the client after it was made: removed")
                raise DeckRefused("upload_cancelled")
            quotas.charge(clients, "decks", 1, refuse=False)  # made: the next one waits
        except DeckRefused as error:
            raise refused(error) from None
        finally:
            await form.close()
    finally:
        quotas.end(clients)
    return JSONResponse({"deck": summary(deck, mine=True), "key": key}, status_code=201,
                        headers={"Cache-Control": "no-store"})


async def _read_form(request: Request,
                     received_bytes: Callable[[int], None] | None = None) -> Any:
    """The multipart form, its files spooled to disk, the whole body at most
    :data:`MAX_UPLOAD_BYTES` (counted as it arrives, whatever ``Content-Length`` says);
    ``received_bytes(n)`` is told of every chunk as it arrives and may refuse it
    (:class:`DeckRefused`)."""
    content_type = request.headers.get("content-type", "")
    if not content_type.startswith("multipart/form-data"):
        # (Its English words, "expected multipart/form-data", stood inside the
        # translated message; the message names the form itself.)
        raise Refused("bad_upload", "decks.errors.bad_upload")
    received = 0

    async def chunks() -> Any:
        nonlocal received
        try:
            async for chunk in request.stream():
                received += len(chunk)
                if received > MAX_UPLOAD_BYTES:
                    raise upload_too_large(received)
                if received_bytes is not None:
                    try:
                        received_bytes(len(chunk))
                    except DeckRefused as error:
                        raise refused(error) from None
                yield chunk
        except ClientDisconnect:
            # The client left mid-upload (or its body was refused as too slow): a form
            # error, so that the parser closes the files it spooled; nobody reads it.
            raise MultiPartException("the upload stopped before its end") from None

    parser = MultiPartParser(request.headers, chunks(), max_files=MAX_FORM_FILES,
                             max_fields=16, max_part_size=1024 * 1024)
    parser.spool_max_size = SPOOL_BYTES
    try:
        return await parser.parse()
    except MultiPartException as error:
        if "Too many files" in error.message:
            raise Refused("too_many_files", "decks.errors.too_many_files",
                          count=f"{MAX_FORM_FILES}+", limit=MAX_CARDS) from None
        # The parser's English words go to the log, not into the translated message.
        log.info("a deck upload's form could not be read: %s", error.message)
        raise Refused("bad_upload", "decks.errors.bad_upload") from None


@router.get("/api/decks/{deck_id}")
async def deck_manifest(
    deck_id: str, request: Request,
    x_deck_key: Annotated[str | None, Header()] = None,
    key: Annotated[str | None, Query(max_length=200)] = None,
    table: Annotated[str | None, Query(max_length=64)] = None,
    expires: Annotated[str | None, Query(max_length=20)] = None,
    sig: Annotated[str | None, Query(max_length=100)] = None,
) -> JSONResponse:
    """A deck's cards with their descriptions and sources (no local paths, no owner;
    ``mine`` for its owner, so the answer varies with ``X-Deck-Key``)."""
    keys = _keys(x_deck_key, key)
    deck = _visible(request, deck_id, keys, table, expires, sig)
    cache = PRIVATE_CACHE if deck.uploaded else "public, max-age=3600"
    return JSONResponse(public_manifest(deck, mine=is_owner(deck, keys)),
                        headers={"Cache-Control": cache, "Vary": "X-Deck-Key"})


@router.delete("/api/decks/{deck_id}")
async def remove_deck(
    deck_id: str, request: Request,
    x_deck_key: Annotated[str | None, Header()] = None,
    key: Annotated[str | None, Query(max_length=200)] = None,
) -> dict[str, Any]:
    """Delete one's own uploaded deck (``X-Deck-Key``: its owner key). Refused
    (``deck_in_use``, 409) while a game that is not over uses it, whether its table is in
    memory or only stored; the refusal's ``tables`` names those tables (oldest first, at
    most :data:`NAMED_TABLES`) and ``count`` how many there are, so that their games can
    be ended from the tables."""
    keys = _keys(x_deck_key, key)
    deck = _find(deck_id)
    if deck is None or not is_owner(deck, keys):
        raise no_deck(deck_id)
    manager: TableManager = request.app.state.manager
    using = await _tables_using(manager, deck.id)
    if using:
        raise Refused("deck_in_use", "decks.errors.deck_in_use", status=409, name=deck.name,
                      count=len(using), tables=using[:NAMED_TABLES])
    owner = next(k for k in keys if is_owner(deck, [k]))
    if not await asyncio.to_thread(delete_deck, deck.id, owner):
        raise no_deck(deck_id)
    return {"deleted": deck.id}


async def _tables_using(manager: TableManager, deck_id: str) -> list[str]:
    """The ids of the tables whose game is not over and that play with ``deck_id``, those
    in storage first (oldest first), then those only in memory: a table that left memory
    while idle comes back when it is opened."""
    stored = await asyncio.to_thread(manager.storage.unfinished_with, "deck", deck_id)
    using = [table_id for table_id in stored
             if (table := manager.tables.get(table_id)) is None or table.status != FINISHED]
    using += [table_id for table_id, table in list(manager.tables.items())
              if getattr(table.config, "deck", None) == deck_id
              and table.status != FINISHED and table_id not in using]
    return using


class PassRequest(BaseModel):
    """``POST /api/decks/{id}/pass``: a table that plays with the deck and a seat's token
    (``None``: someone watching the table, which its host lets people do)."""

    model_config = BODY

    table: str = Field(min_length=1, max_length=64)
    token: str | None = Field(default=None, min_length=1, max_length=200)


@router.post("/api/decks/{deck_id}/pass")
async def deck_pass(deck_id: str, body: PassRequest, request: Request) -> JSONResponse:
    """A picture pass for ``deck_id`` (``{deck, table, expires, query}``) for a seat of a
    table that plays with it, or for someone watching it while its host lets people
    watch (the watch link, the big screen: the table's cards are shown to them as to the
    players); the pictures' and manifest's addresses carry ``query`` instead of the seat
    token. A bundled deck needs none (``query`` is empty)."""
    deck = _find(deck_id) if deck_id.isascii() else None
    if deck is None:
        raise no_deck(deck_id)
    headers = {"Cache-Control": "no-store"}
    if not deck.uploaded:
        return JSONResponse({"deck": deck.id, "table": body.table, "expires": None,
                             "query": ""}, headers=headers)
    manager: TableManager = request.app.state.manager
    if await _table_deck(manager, body.table, body.token) != deck.id:
        raise no_deck(deck_id)
    issued = _passes(request).issue(deck.id, body.table)
    await asyncio.to_thread(warm, deck)
    return JSONResponse({"deck": deck.id, "table": body.table, "expires": issued.expires,
                         "query": issued.query()}, headers=headers)


async def _table_deck(manager: TableManager, table_id: str, token: str | None
                      ) -> str | None:
    """The uploaded deck the table ``table_id`` plays with, when ``token`` holds a seat
    there, or (``token`` ``None``) when its host lets people watch it; ``None`` otherwise
    (no such table or seat, watching switched off, or storage cannot tell now).

    With several processes, a table another process runs is read from storage, never
    loaded here: a copy in this process's memory would fall behind the owner's, and
    serve stale seats and hands should this process take the table over later."""
    if manager.fence is None or manager.fence(table_id):
        try:
            table = await manager.get(table_id)
        except Refused:
            return None
        allowed = table.watching if token is None else table.seat_of(token) is not None
        deck = getattr(table.config, "deck", None) if allowed else None
        return deck if isinstance(deck, str) else None
    try:
        row = await asyncio.to_thread(manager.storage.load_table, table_id)
    except StorageError:
        return None
    if row is None or row.expired is not None:
        return None
    if token is None:
        if not row.watching:
            return None
    elif not any(seat.kind == HUMAN and seat.token_hash is not None
                 and secrets.compare_digest(seat.token_hash, token_hash(token))
                 for seat in row.seats):
        return None
    deck = row.config.get("deck")
    return deck if isinstance(deck, str) else None


@router.get("/api/decks/{deck_id}/cards/{number}")
async def card_picture(
    deck_id: str, number: int, request: Request,
    size: Annotated[str, Query()] = "full",
    x_deck_key: Annotated[str | None, Header()] = None,
    key: Annotated[str | None, Query(max_length=200)] = None,
    table: Annotated[str | None, Query(max_length=64)] = None,
    expires: Annotated[str | None, Query(max_length=20)] = None,
    sig: Annotated[str | None, Query(max_length=100)] = None,
) -> Response:
    """Card ``number`` (0-based, manifest order) of a deck, as a thumbnail or in full.

    The answer never depends on whether anyone asked for the picture before: the same
    headers (``ETag`` = the hash of the bytes; no ``Last-Modified``), from memory for a
    bundled deck."""
    if size not in SIZES:
        raise Refused("bad_size", "decks.errors.bad_size", size=size[:20],
                      sizes=", ".join(SIZES))
    deck = _visible(request, deck_id, _keys(x_deck_key, key), table, expires, sig)
    try:
        found = (picture(deck, number, size) if not deck.uploaded
                 else await asyncio.to_thread(picture, deck, number, size))
    except OSError:
        found = None
    if found is None:
        raise Refused("no_card", "decks.errors.no_card", status=404, card=number,
                      cards=len(deck))
    headers = {"Cache-Control": PRIVATE_CACHE if deck.uploaded else PUBLIC_CACHE,
               "ETag": found.etag, "X-Content-Type-Options": "nosniff"}
    if found.etag in _etags(request.headers.get("if-none-match")):
        return Response(status_code=304, headers=headers)
    return Response(found.data, media_type=found.media_type, headers=headers)


def _etags(header: str | None) -> set[str]:
    if not header:
        return set()
    return {part.strip().removeprefix("W/") for part in header.split(",")}


def upload_too_large(_size: int = 0) -> Refused:
    """The refusal of an upload over :data:`MAX_UPLOAD_BYTES` (``_size`` bytes, or so its
    ``Content-Length`` says), however it is found out."""
    return Refused("upload_too_large", "decks.errors.upload_too_large", status=413,
                   limit=megabytes(MAX_UPLOAD_BYTES))
