"""Finding decks and their picture files: what the web server serves.

Bundled decks live in the package and never change while it runs; their thumbnails are
made on first request and kept under ``<data_dir>/deck-cache/<deck>/`` (the package
folder may be read-only). Uploaded decks got their thumbnails when they were made.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import gametable.decks as library
from gametable.decks import Deck, find_deck
from gametable.decks.images import cached_thumbnail, thumbnail

SIZES = ("thumb", "full")
"""The picture sizes served: a thumbnail, or the stored picture."""


def bundled_decks() -> list[Deck]:
    """The decks that ship with gametable, the default deck first, then by name."""
    decks: list[Deck] = []
    folder = library.BUNDLED_DIR
    if folder.is_dir():
        for entry in sorted(folder.iterdir()):
            if entry.is_dir() and (entry / "manifest.json").is_file():
                try:
                    deck = find_deck(entry.name)
                except (OSError, ValueError):
                    continue
                if deck is not None and not deck.uploaded:
                    decks.append(deck)
    decks.sort(key=lambda deck: (deck.id != library.DEFAULT_DECK, deck.name.lower()))
    return decks


def summary(deck: Deck, *, mine: bool = False) -> dict[str, Any]:
    """A deck as listed: ``{id, name, cards (count), described (cards with a
    description, which computer players read), uploaded, mine}``."""
    return {"id": deck.id, "name": deck.name, "cards": len(deck),
            "described": sum(1 for card in deck.cards if card.description),
            "uploaded": deck.uploaded, "mine": mine}


LOCAL_KEYS = {"path", "local", "local_path", "abs_path", "absolute_path", "file", "folder"}


def _public_source(source: Any) -> Any:
    """A card source without local file paths."""
    if not isinstance(source, dict):
        return source
    return {key: value for key, value in source.items()
            if key not in LOCAL_KEYS
            and not (isinstance(value, str) and (value.startswith(("/", "~", "file:"))
                                                 or (len(value) > 2 and value[1] == ":"
                                                     and value[2] in "\\/")))}


def public_manifest(deck: Deck, *, mine: bool = False) -> dict[str, Any]:
    """The manifest as served: no owner hash, no local paths in the sources."""
    return {**summary(deck, mine=mine),
            "cards": [{"n": number, "id": card.id, "description": card.description,
                       "sources": [_public_source(s) for s in card.sources]}
                      for number, card in enumerate(deck.cards)]}


def card_path(deck: Deck, number: int) -> Path | None:
    """The stored picture of card ``number``, or ``None`` (no such card, file missing, or a
    manifest path that leads out of the deck's folder)."""
    if not 0 <= number < len(deck):
        return None
    folder = deck.folder.resolve()
    path = (folder / deck.cards[number].file).resolve()
    if not path.is_relative_to(folder) or not path.is_file():
        return None
    return path


def cache_dir() -> Path | None:
    """Where thumbnails of bundled decks are kept (``None``: no data dir configured)."""
    uploads = library.uploads_dir()
    return None if uploads is None else uploads.parent / "deck-cache"


def thumb_path(deck: Deck, number: int) -> Path | bytes | None:
    """Card ``number``'s thumbnail: a file, or (without a data dir for a bundled deck) the
    WebP bytes; ``None`` when there is no such card.

    Raises:
        DeckRefused: the stored picture cannot be read as one.
    """
    source = card_path(deck, number)
    if source is None:
        return None
    card = deck.cards[number]
    name = f"{deck.id}/{card.file}"
    if deck.uploaded:
        return cached_thumbnail(source, deck.folder / "thumbs" / f"{card.id}.webp", name)
    root = cache_dir()
    if root is None:
        return thumbnail(source.read_bytes(), name)
    # A new version of the package may bring new pictures: the file's size and time are
    # part of the cached thumbnail's name.
    stat = source.stat()
    stamp = hashlib.sha256(f"{card.file}:{stat.st_size}:{stat.st_mtime_ns}".encode()) \
        .hexdigest()[:16]
    return cached_thumbnail(source, root / deck.id / f"{number}-{stamp}.webp", name)


def etag(path: Path, *parts: object) -> str:
    """A strong ETag for a picture file (its size and time, and ``parts``)."""
    stat = path.stat()
    text = ":".join(str(part) for part in (*parts, stat.st_size, stat.st_mtime_ns))
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'
