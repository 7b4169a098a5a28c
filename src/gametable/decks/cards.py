"""Finding decks and their pictures: what the web server serves.

Every picture exists before anyone asks for it, and is served the same way whether or not
anyone asked before, so that neither a response's headers nor its timing tell which cards
other people have looked at:

- a bundled deck ships a thumbnail beside every card (``thumbs/<card id>.webp``, made by
  ``python -m tools.deckgen.thumbs``), and all its pictures are read into memory when the
  server starts (:func:`preload`);
- an uploaded deck got its thumbnails when it was made, and is read from disk; when a
  table starts showing it, every picture file of it is handed to the operating system's
  read-ahead at once (:func:`warm`).

A picture's validator is the SHA-256 of its bytes (:attr:`Picture.etag`); no time enters
any header.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gametable.decks as library
from gametable.decks import Deck, find_deck

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
    """The manifest as served: no owner hash, no local paths in the sources; ``language``
    is the descriptions' language, ``None`` when the deck does not say.

    An uploaded deck's name and its pictures' file names (a zip's folders included) are
    its owner's: served to anyone else (a player at a table using the deck) as ``name``
    ``None`` and sources without their ``name``."""
    private = deck.uploaded and not mine
    head = summary(deck, mine=mine)
    if private:
        head["name"] = None

    def source(value: Any) -> Any:
        public = _public_source(value)
        if private and isinstance(public, dict):
            public.pop("name", None)
        return public

    return {**head, "language": deck.language,
            "cards": [{"n": number, "id": card.id, "description": card.description,
                       "sources": [source(s) for s in card.sources]}
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


def thumb_file(deck: Deck, number: int) -> Path | None:
    """The stored thumbnail of card ``number`` (``thumbs/<card id>.webp``), or ``None``."""
    if not 0 <= number < len(deck):
        return None
    folder = deck.folder.resolve()
    path = (folder / "thumbs" / f"{deck.cards[number].id}.webp").resolve()
    if not path.is_relative_to(folder) or not path.is_file():
        return None
    return path


@dataclass(frozen=True)
class Picture:
    """A picture as served: its bytes, media type and validator.

    Attributes:
        data: the file's bytes.
        etag: a strong ETag made of the SHA-256 of ``data`` (quoted, 32 hex digits).
        media_type: ``image/webp`` (or what the file's name says for other files).
    """

    data: bytes
    etag: str
    media_type: str = "image/webp"


def content_tag(data: bytes) -> str:
    """The strong ETag of ``data``: its SHA-256 (the first 32 hex digits), quoted."""
    return '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


def _media_type(path: Path) -> str:
    return {".webp": "image/webp", ".png": "image/png", ".jpg": "image/jpeg",
            ".jpeg": "image/jpeg"}.get(path.suffix.lower(), "application/octet-stream")


def _read(path: Path) -> Picture:
    data = path.read_bytes()
    return Picture(data, content_tag(data), _media_type(path))


@dataclass(frozen=True)
class DeckPictures:
    """Every picture of a deck in memory: ``full[n]`` and ``thumb[n]`` for card ``n``
    (``None`` where the file is missing; a missing thumbnail is the card's picture)."""

    full: tuple[Picture | None, ...]
    thumb: tuple[Picture | None, ...]


_memory_lock = threading.Lock()
_in_memory: dict[tuple[str, Path], DeckPictures] = {}


def load_pictures(deck: Deck) -> DeckPictures:
    """Read every picture of ``deck`` (cards and thumbnails) into memory."""
    full: list[Picture | None] = []
    thumb: list[Picture | None] = []
    for number in range(len(deck)):
        card = card_path(deck, number)
        small = thumb_file(deck, number)
        full.append(None if card is None else _read(card))
        thumb.append(full[-1] if small is None else _read(small))
    return DeckPictures(tuple(full), tuple(thumb))


def _bundled_pictures(deck: Deck) -> DeckPictures:
    """A bundled deck's pictures, all read at once the first time (see :func:`preload`)."""
    key = (deck.id, deck.folder.resolve())
    with _memory_lock:
        pictures = _in_memory.get(key)
        if pictures is None:
            pictures = _in_memory[key] = load_pictures(deck)
        return pictures


def preload() -> int:
    """Read every bundled deck's pictures into memory (at start-up); returns how many
    decks."""
    decks = bundled_decks()
    for deck in decks:
        _bundled_pictures(deck)
    return len(decks)


def picture(deck: Deck, number: int, size: str) -> Picture | None:
    """Card ``number``'s picture in ``size`` (``"thumb"`` or ``"full"``), or ``None`` when
    there is no such card or file. A bundled deck's come from memory, an uploaded deck's
    from disk (a card without a thumbnail serves its picture as one).

    Raises:
        OSError: an uploaded deck's file could not be read.
    """
    if not 0 <= number < len(deck):
        return None
    if not deck.uploaded:
        pictures = _bundled_pictures(deck)
        return (pictures.thumb if size == "thumb" else pictures.full)[number]
    path = thumb_file(deck, number) if size == "thumb" else None
    path = path or card_path(deck, number)
    return None if path is None else _read(path)


WARM_AGAIN = 600.0
"""Seconds after which an uploaded deck is handed to read-ahead again."""
_warmed: dict[str, float] = {}


def warm(deck: Deck, now: float | None = None) -> bool:
    """Ask the operating system to read every picture file of the uploaded deck ``deck``
    into its cache at once (not more often than every :data:`WARM_AGAIN` seconds), so
    that reading one card takes as long as reading any other, whoever looked at it
    before. Returns whether it asked."""
    now = time.monotonic() if now is None else now
    with _memory_lock:
        if not deck.uploaded or now - _warmed.get(deck.id, -WARM_AGAIN) < WARM_AGAIN:
            return False
        _warmed[deck.id] = now
        if len(_warmed) > 10_000:
            _warmed.clear()
    advise = getattr(os, "posix_fadvise", None)
    if advise is None:  # not on every platform; the cache then fills as cards are read
        return False
    for number in range(len(deck)):
        for path in (card_path(deck, number), thumb_file(deck, number)):
            if path is None:
                continue
            try:
                with path.open("rb") as file:
                    advise(file.fileno(), 0, 0, os.POSIX_FADV_WILLNEED)
            except OSError:
                continue
    return True
