"""The deck routes: listing, uploading, reading and deleting decks, and serving pictures.

==============================================  ===========================================
``GET    /api/decks``                           the bundled decks and one's own (``X-Deck-Key``)
``POST   /api/decks``                           upload a deck (multipart) → ``{deck, key}``
``GET    /api/decks/{id}``                      a deck's manifest (cards, descriptions)
``DELETE /api/decks/{id}``                      delete one's own deck (owner key)
``GET    /api/decks/{id}/cards/{n}``            a card's picture (``size=thumb|full``)
==============================================  ===========================================

Bundled decks are public. An uploaded deck (its manifest and pictures) is served only to
its owner key, or to the seat token of a table whose config's ``deck`` is that deck —
checked as the websocket checks it. To anyone else it does not exist (404). The server
asks a table's config for ``deck`` and nothing else, whatever the game.
"""

from __future__ import annotations

import asyncio
import mimetypes
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header, Query, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import ClientDisconnect

from gametable import decks as library
from gametable.decks import Deck, find_deck
from gametable.decks.cards import (
    SIZES,
    bundled_decks,
    card_path,
    etag,
    public_manifest,
    summary,
    thumb_path,
)
from gametable.decks.images import DeckRefused, megabytes
from gametable.decks.uploads import (
    MAX_CARDS,
    MAX_KEYS,
    Upload,
    create_deck,
    delete_deck,
    is_owner,
    owned_decks,
    parse_descriptions,
    split_keys,
)
from gametable.server.guards import client_address
from gametable.server.limits import Limits, secret_key
from gametable.server.tables import FINISHED, Refused, TableManager

MAX_UPLOAD_BYTES = 200 * 1024 * 1024
"""Largest upload request (all files together): 200 MB."""
SPOOL_BYTES = 64 * 1024
"""Uploaded files go to temporary files on disk beyond this many bytes each."""
MAX_FORM_FILES = 2000
PUBLIC_CACHE = "public, max-age=31536000, immutable"
PRIVATE_CACHE = "private, max-age=86400"
UPLOAD_PATH = "/api/decks"

router = APIRouter()
_uploading = asyncio.Semaphore(2)  # pictures are decoded in threads: two uploads at a time


def mount(app: FastAPI, data_dir: Path, limits: Limits | None = None) -> None:
    """Serve the deck routes in ``app``; uploaded decks live under ``data_dir / "decks"``.
    Uploads are counted against ``limits`` (kind ``upload``), if given."""
    library.configure(data_dir)
    app.state.deck_limits = limits
    app.include_router(router)


def refused(error: DeckRefused) -> Refused:
    """The server refusal for a deck refusal (same code, key and parameters)."""
    return Refused(error.code, error.key, status=error.status, **error.params)


def no_deck(deck_id: str) -> Refused:
    """The answer for a deck that does not exist or that the asker may not see."""
    return Refused("no_deck", "decks.errors.no_deck", status=404, deck=deck_id)


def _keys(header: str | None, key: str | None) -> list[str]:
    keys = split_keys(header)
    if key:
        keys.append(key)
    return keys[:MAX_KEYS + 1]


async def _may_see(request: Request, deck: Deck, keys: list[str], table_id: str | None,
                   token: str | None) -> bool:
    """Whether this request may see ``deck``: it is bundled, or the request holds its owner
    key or a seat token of a table that plays with it."""
    if not deck.uploaded or is_owner(deck, keys):
        return True
    if not table_id or not token:
        return False
    manager: TableManager = request.app.state.manager
    try:
        table = await manager.get(table_id)
    except Refused:
        return False
    return getattr(table.config, "deck", None) == deck.id and table.seat_of(token) is not None


def _find(deck_id: str) -> Deck | None:
    """The deck ``deck_id``, or ``None`` (also for an id no file could have)."""
    try:
        return find_deck(deck_id)
    except (OSError, ValueError):
        return None


async def _visible(request: Request, deck_id: str, keys: list[str], table_id: str | None,
                   token: str | None) -> Deck:
    deck = _find(deck_id)
    if deck is None or not await _may_see(request, deck, keys, table_id, token):
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


@router.post("/api/decks", status_code=201)
async def upload_deck(request: Request) -> JSONResponse:
    """Make a deck from a multipart form: ``name``, ``files`` (pictures or a zip, one or
    more) and optional ``descriptions`` (a JSON list, one per card)."""
    limits: Limits | None = request.app.state.deck_limits
    if limits is not None:
        keys = split_keys(request.headers.get("x-deck-key"))[:1]
        limits.check("upload", [client_address(request.scope),
                                *(secret_key("deck", key) for key in keys)])
    form = await _read_form(request)
    try:
        name = form.get("name")
        raw = form.get("descriptions")
        files = [item for item in form.getlist("files") if isinstance(item, UploadFile)]
        descriptions = parse_descriptions(raw if isinstance(raw, str) else None)
        uploads = [Upload(item.filename or f"#{index + 1}", item.file)
                   for index, item in enumerate(files)]
        async with _uploading:
            deck, key = await asyncio.to_thread(
                create_deck, name if isinstance(name, str) else None, uploads, descriptions)
    except DeckRefused as error:
        raise refused(error) from None
    finally:
        await form.close()
    return JSONResponse({"deck": summary(deck, mine=True), "key": key}, status_code=201,
                        headers={"Cache-Control": "no-store"})


async def _read_form(request: Request) -> Any:
    """The multipart form, its files spooled to disk, the whole body at most
    :data:`MAX_UPLOAD_BYTES` (counted as it arrives, whatever ``Content-Length`` says)."""
    content_type = request.headers.get("content-type", "")
    if not content_type.startswith("multipart/form-data"):
        raise Refused("bad_upload", "decks.errors.bad_upload",
                      problem="expected multipart/form-data")
    received = 0

    async def chunks() -> Any:
        nonlocal received
        try:
            async for chunk in request.stream():
                received += len(chunk)
                if received > MAX_UPLOAD_BYTES:
                    raise Refused("upload_too_large", "decks.errors.upload_too_large",
                                  status=413, limit=megabytes(MAX_UPLOAD_BYTES))
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
        raise Refused("bad_upload", "decks.errors.bad_upload", problem=error.message) \
            from None


@router.get("/api/decks/{deck_id}")
async def deck_manifest(
    deck_id: str, request: Request,
    x_deck_key: Annotated[str | None, Header()] = None,
    key: Annotated[str | None, Query(max_length=200)] = None,
    table: Annotated[str | None, Query(max_length=64)] = None,
    token: Annotated[str | None, Query(max_length=200)] = None,
) -> JSONResponse:
    """A deck's cards with their descriptions and sources (no local paths, no owner)."""
    keys = _keys(x_deck_key, key)
    deck = await _visible(request, deck_id, keys, table, token)
    cache = PRIVATE_CACHE if deck.uploaded else "public, max-age=3600"
    return JSONResponse(public_manifest(deck, mine=is_owner(deck, keys)),
                        headers={"Cache-Control": cache})


@router.delete("/api/decks/{deck_id}")
async def remove_deck(
    deck_id: str, request: Request,
    x_deck_key: Annotated[str | None, Header()] = None,
    key: Annotated[str | None, Query(max_length=200)] = None,
) -> dict[str, Any]:
    """Delete one's own uploaded deck (``X-Deck-Key``: its owner key). Refused while a
    game that is not over uses it."""
    keys = _keys(x_deck_key, key)
    deck = _find(deck_id)
    if deck is None or not is_owner(deck, keys):
        raise no_deck(deck_id)
    manager: TableManager = request.app.state.manager
    if any(getattr(t.config, "deck", None) == deck.id and t.status != FINISHED
           for t in list(manager.tables.values())):
        raise Refused("deck_in_use", "decks.errors.deck_in_use", status=409, name=deck.name)
    owner = next(k for k in keys if is_owner(deck, [k]))
    if not await asyncio.to_thread(delete_deck, deck.id, owner):
        raise no_deck(deck_id)
    return {"deleted": deck.id}


@router.get("/api/decks/{deck_id}/cards/{number}")
async def card_picture(
    deck_id: str, number: int, request: Request,
    size: Annotated[str, Query()] = "full",
    x_deck_key: Annotated[str | None, Header()] = None,
    key: Annotated[str | None, Query(max_length=200)] = None,
    table: Annotated[str | None, Query(max_length=64)] = None,
    token: Annotated[str | None, Query(max_length=200)] = None,
) -> Response:
    """Card ``number`` (0-based, manifest order) of a deck, as a thumbnail or in full."""
    if size not in SIZES:
        raise Refused("bad_size", "decks.errors.bad_size", size=size[:20],
                      sizes=", ".join(SIZES))
    deck = await _visible(request, deck_id, _keys(x_deck_key, key), table, token)
    try:
        found = (await asyncio.to_thread(thumb_path, deck, number) if size == "thumb"
                 else card_path(deck, number))
    except DeckRefused as error:
        raise refused(error) from None
    if found is None:
        raise Refused("no_card", "decks.errors.no_card", status=404, card=number,
                      cards=len(deck))
    headers = {"Cache-Control": PRIVATE_CACHE if deck.uploaded else PUBLIC_CACHE,
               "X-Content-Type-Options": "nosniff"}
    if isinstance(found, bytes):
        return Response(found, media_type="image/webp", headers=headers)
    tag = etag(found, deck.id, deck.cards[number].id, size)
    headers["ETag"] = tag
    if tag in _etags(request.headers.get("if-none-match")):
        return Response(status_code=304, headers=headers)
    media = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
    if found.suffix == ".webp":
        media = "image/webp"
    return FileResponse(found, media_type=media, headers=headers)


def _etags(header: str | None) -> set[str]:
    if not header:
        return set()
    return {part.strip().removeprefix("W/") for part in header.split(",")}
