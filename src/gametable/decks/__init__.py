"""Picture decks: the bundled default deck and decks people upload.

A deck is data, not code (DX-DECK-1): a folder with ``manifest.json`` and one image per
card. Cards are addressed by their position in the manifest (``0 … len(cards) − 1``), so
a game only needs a deck's id and size. The library looks in two places: the decks that
ship inside this package (``default``) and the uploaded decks under the data dir given to
:func:`configure` (``<data_dir>/decks/<id>/``).
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BUNDLED_DIR = Path(__file__).parent
"""Where the decks that ship with gametable live (``<id>/manifest.json``)."""

DEFAULT_DECK = "default"
"""The id of the deck used when a table does not choose one."""


@dataclass(frozen=True)
class DeckCard:
    """One card of a deck.

    Attributes:
        id: stable id within the deck (``"042"``).
        file: the image path relative to the deck folder.
        description: what the picture shows (DX-DECK-3), or ``None``.
        sources: where the picture came from (files, licences), free-form JSON.
    """

    id: str
    file: str
    description: str | None = None
    sources: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Deck:
    """A deck: its id, display name, folder, cards and whether it was uploaded.

    Attributes:
        id: the deck id used in configs and URLs (``[a-z0-9-]``).
        name: the name people see.
        folder: the folder holding ``manifest.json`` and the images.
        cards: the cards in manifest order; a card's number (what views and actions
            hold) is its index here, from 0, and its ``id`` names its files (the default
            deck's card 59 has id ``"060"``: ``cards/060.webp``).
        uploaded: ``True`` for a deck of one's own (served only to its tables' players).
        owner: an opaque owner key for uploaded decks, else ``None``.
        language: the language of the card descriptions (a BCP 47 tag, ``"en"``), or
            ``None`` when the manifest does not say (an uploaded deck whose owner did not).
    """

    id: str
    name: str
    folder: Path
    cards: tuple[DeckCard, ...]
    uploaded: bool = False
    owner: str | None = None
    language: str | None = None

    def __len__(self) -> int:
        return len(self.cards)

    def descriptions(self) -> list[str | None]:
        """One description (or ``None``) per card number."""
        return [card.description for card in self.cards]


_lock = threading.Lock()
_data_dir: Path | None = None
_cache: dict[str, Deck] = {}


def configure(data_dir: Path | None) -> None:
    """Look for uploaded decks under ``data_dir / "decks"`` (``None``: bundled only)."""
    global _data_dir
    with _lock:
        _data_dir = data_dir
        _cache.clear()


def uploads_dir() -> Path | None:
    """The folder of uploaded decks, or ``None`` when no data dir is configured."""
    return None if _data_dir is None else _data_dir / "decks"


def load_manifest(folder: Path, *, uploaded: bool) -> Deck:
    """Read ``folder / "manifest.json"``.

    Raises:
        FileNotFoundError: there is no manifest.
        ValueError: the manifest is not a deck manifest.
    """
    raw = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    try:
        cards = tuple(
            DeckCard(id=str(c["id"]), file=str(c["file"]), description=c.get("description"),
                     sources=list(c.get("sources", [])))
            for c in raw["cards"])
        return Deck(id=str(raw["id"]), name=str(raw.get("name", raw["id"])), folder=folder,
                    cards=cards, uploaded=uploaded, owner=raw.get("owner"),
                    language=language_tag(raw.get("language")))
    except (KeyError, TypeError) as error:
        raise ValueError(f"{folder / 'manifest.json'} is not a deck manifest: {error}") \
            from error


def language_tag(value: Any) -> str | None:
    """``value`` if it is a language tag (BCP 47's shape: ``"en"``, ``"pt-PT"``), else
    ``None``: a manifest's ``language``, an upload's."""
    if (isinstance(value, str) and len(value) <= MAX_LANGUAGE_TAG
            and re.fullmatch(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*", value)):
        return value
    return None


MAX_LANGUAGE_TAG = 35
"""The longest language tag taken (RFC 5646 asks implementations to take at least 35
characters): a language of two or three letters, then subtags such as ``-PT``."""


def find_deck(deck_id: str) -> Deck | None:
    """The deck called ``deck_id``, or ``None`` when there is none (cached), also for an
    id no folder could have (longer than a file name may be)."""
    if not deck_id or not all(ch.isalnum() or ch == "-" for ch in deck_id):
        return None
    with _lock:
        cached = _cache.get(deck_id)
        if cached is not None:
            return cached
        for folder, uploaded in ((BUNDLED_DIR / deck_id, False),
                                 (None if _data_dir is None else _data_dir / "decks" / deck_id,
                                  True)):
            if folder is not None and _is_file(folder / "manifest.json"):
                deck = load_manifest(folder, uploaded=uploaded)
                _cache[deck_id] = deck
                return deck
    return None


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; ``False`` where the system refuses to look (a name
    too long for it, ``ENAMETOOLONG``), which :meth:`Path.is_file` raises for."""
    try:
        return path.is_file()
    except OSError:
        return False


def forget(deck_id: str) -> None:
    """Drop ``deck_id`` from the cache (after an upload replaced or removed it)."""
    with _lock:
        _cache.pop(deck_id, None)
