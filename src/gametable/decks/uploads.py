"""Decks of one's own: made from uploaded pictures or a zip, kept under the data dir.

:func:`create_deck` checks every picture (see :mod:`gametable.decks.images`), writes the
deck into a hidden staging folder and renames it into place only when everything went
well, so a refused or failed upload leaves nothing behind. A zip is read entry by entry
in memory (never extracted to disk) within limits on its entries and sizes.

An uploaded deck is stored as ``<data_dir>/decks/<id>/`` with ``manifest.json``
(``id, name, owner, created, cards: [{id, file, description, sources}]``, and
``language`` where the owner said the descriptions' language),
``cards/NNN.webp`` and ``thumbs/NNN.webp``. ``owner`` is the SHA-256 of a random owner
key that only the uploader gets. Decks never change once made; their owner may delete
them (:func:`delete_deck`). A staging or deleted folder that a crash left behind is
removed when the server starts (:func:`remove_leftovers`).

So that listing one's decks (:func:`owned_decks`) reads only one's own, each deck has an
empty marker file ``<data_dir>/deck-owners/<owner>/<id>`` (``owner`` as in the
manifest), written once the deck is in place and removed with it. The deck folders stay
the truth: a marker whose deck is gone is dropped when listed, and the server gives
every deck its marker when it starts (:func:`index_owners`: decks made before markers,
or a crash between the two writes).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import secrets
import shutil
import time
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, Any

import gametable.decks as library
from gametable.core.i18n import translate
from gametable.core.text import one_line, shows_something
from gametable.decks import Deck, find_deck, forget, language_tag, load_manifest, uploads_dir
from gametable.decks.images import (
    MAX_FILE_BYTES,
    DeckRefused,
    megabytes,
    prepare_card,
    sniff,
)

log = logging.getLogger(__name__)

MAX_CARDS = 500
"""Most pictures in one deck."""
MAX_ZIP_ENTRIES = 2000
"""Most entries (files, folders, hidden files) a zip may list."""
MAX_ZIP_TOTAL_BYTES = 400 * 1024 * 1024
"""Most bytes the files of one upload may hold once unzipped."""
MAX_NAME_CHARS = 60
MAX_DESCRIPTION_CHARS = 500
MAX_DESCRIPTIONS_BYTES = 512 * 1024
MAX_KEYS = 50
"""Most owner keys one listing looks at."""

PICTURE_PROBLEMS = frozenset({"bad_type", "too_big", "too_many_pixels", "decoded_too_big",
                              "image_bomb", "corrupt", "encrypted", "empty_file",
                              "same_picture", "same_picture_twice"})
"""Refusals of one picture: the upload goes on checking the others, so that every bad
picture is named at once (``bad_pictures``)."""
MAX_PROBLEMS_LISTED = 10
"""Most bad pictures named in one refusal (the rest are counted)."""

ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
IGNORED_NAMES = {"thumbs.db", "desktop.ini"}
STAGING_PREFIX = ".incoming-"
DELETED_PREFIX = ".deleted-"
OWNERS_DIR = "deck-owners"
"""The folder (in the data dir, beside the folder of uploaded decks) of the owners'
markers, one per deck."""
OWNER_HASH = re.compile(r"[0-9a-f]{64}")


@dataclass
class Upload:
    """One uploaded file: its name as the uploader called it, and its contents (seekable)."""

    name: str
    file: IO[bytes]


def owner_hash(key: str) -> str:
    """What a deck's manifest keeps of its owner key (SHA-256, hex)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def shown_name(name: str, limit: int = 120) -> str:
    """A file name fit for a message: printable, not too long."""
    clean = "".join(ch for ch in name if ch.isprintable()).strip() or "?"
    return clean if len(clean) <= limit else "…" + clean[-(limit - 1):]


def clean_deck_name(name: str | None) -> str:
    """The deck's display name, or a ``bad_name`` refusal."""
    clean = one_line(name or "")
    if not 1 <= len(clean) <= MAX_NAME_CHARS or not shows_something(clean):
        raise DeckRefused("bad_name", limit=MAX_NAME_CHARS)
    return clean


def parse_descriptions(raw: str | None) -> list[str | None]:
    """The ``descriptions`` field: a JSON list of strings (or nulls), one per card."""
    if raw is None or raw.strip() == "":
        return []
    if len(raw.encode("utf-8")) > MAX_DESCRIPTIONS_BYTES:
        raise DeckRefused("bad_descriptions", limit=MAX_DESCRIPTION_CHARS)
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # nested too deep for the parser
        raise DeckRefused("bad_descriptions", limit=MAX_DESCRIPTION_CHARS) from None
    if not isinstance(data, list) or not all(d is None or isinstance(d, str) for d in data):
        raise DeckRefused("bad_descriptions", limit=MAX_DESCRIPTION_CHARS)
    return [clean_description(text, number) for number, text in enumerate(data, 1)]


def clean_description(text: str | None, number: int) -> str | None:
    """Card ``number``'s description on one line, trimmed, by the rules of every text
    others read (:func:`gametable.core.text.one_line`: hidden characters as spaces, at
    most a few accents on a letter); ``None`` when nothing of it shows.

    Raises:
        DeckRefused: ``description_too_long`` above :data:`MAX_DESCRIPTION_CHARS`.
    """
    clean = one_line(text) if text else ""
    if len(clean) > MAX_DESCRIPTION_CHARS:
        raise DeckRefused("description_too_long", number=number, limit=MAX_DESCRIPTION_CHARS)
    return clean if shows_something(clean) else None


def _read_limited(file: IO[bytes], name: str) -> bytes:
    data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise DeckRefused("too_big", file=name, size=f"> {megabytes(MAX_FILE_BYTES)}",
                          limit=megabytes(MAX_FILE_BYTES))
    return data


def _ignored(entry: str) -> bool:
    parts = PurePosixPath(entry.replace("\\", "/")).parts
    return (any(part.startswith(".") or part == "__MACOSX" for part in parts)
            or (bool(parts) and parts[-1].lower() in IGNORED_NAMES))


def _natural(name: str) -> list[Any]:
    return [int(part) if part.isdigit() else part.lower()
            for part in re.split(r"(\d+)", name)]


@dataclass
class _Picture:
    name: str
    read: Any  # () -> bytes


def _refusing(problem: DeckRefused) -> Callable[[], bytes]:
    """A picture's reader that refuses it (it is named with the other bad ones)."""
    def read() -> bytes:
        raise problem
    return read


def refuse_pictures(problems: Sequence[DeckRefused]) -> DeckRefused:
    """One refusal naming every bad picture of an upload: the problem itself when there
    is one, else ``bad_pictures`` with ``count``, ``list`` (the first
    :data:`MAX_PROBLEMS_LISTED` problems' messages, in English), ``problems`` (each one's
    ``code``, ``key`` and ``params``, for a client to say them in its reader's language)
    and ``more`` (those not listed)."""
    if len(problems) == 1:
        return problems[0]
    shown = problems[:MAX_PROBLEMS_LISTED]
    more = len(problems) - len(shown)
    listed = " ".join(str(problem) for problem in shown)
    if more:
        listed += " " + translate("decks.errors.and_more", count=more)
    return DeckRefused("bad_pictures", count=len(problems), list=listed, more=more,
                       problems=[{"code": problem.code, "key": problem.key,
                                  "params": problem.params} for problem in shown])


def _pictures(uploads: Sequence[Upload]) -> list[_Picture]:
    """Every picture of the upload, zips opened, in order, without decoding anything yet."""
    pictures: list[_Picture] = []
    total = 0
    for upload in uploads:
        name = shown_name(upload.name)
        upload.file.seek(0)
        head = upload.file.read(16)
        upload.file.seek(0)
        if head.startswith(ZIP_MAGIC):
            entries, size = _zip_entries(upload, name)
            total += size
            pictures.extend(entries)
        elif sniff(head) is None:
            code = "empty_file" if not head else "bad_type"
            pictures.append(_Picture(name, _refusing(DeckRefused(code, file=name))))
        else:
            file = upload.file

            def read(file: IO[bytes] = file, name: str = name) -> bytes:
                file.seek(0)
                return _read_limited(file, name)

            pictures.append(_Picture(name, read))
        if len(pictures) > MAX_CARDS:
            raise DeckRefused("too_many_files", count=len(pictures), limit=MAX_CARDS)
    if total > MAX_ZIP_TOTAL_BYTES:
        raise DeckRefused("zip_too_big", file=shown_name(uploads[-1].name),
                          size=megabytes(total), limit=megabytes(MAX_ZIP_TOTAL_BYTES))
    return pictures


def _zip_entries(upload: Upload, name: str) -> tuple[list[_Picture], int]:
    try:
        archive = zipfile.ZipFile(upload.file)
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise DeckRefused("corrupt", file=name) from None
    if len(infos) > MAX_ZIP_ENTRIES:
        raise DeckRefused("zip_entries", file=name, count=len(infos), limit=MAX_ZIP_ENTRIES)
    chosen = sorted((info for info in infos if not info.is_dir() and not _ignored(info.filename)),
                    key=lambda info: _natural(info.filename))
    if len(chosen) > MAX_CARDS:
        raise DeckRefused("too_many_files", count=len(chosen), limit=MAX_CARDS)
    total = 0
    pictures: list[_Picture] = []
    for info in chosen:
        entry = shown_name(f"{name}/{info.filename}")
        if info.flag_bits & 0x1:
            pictures.append(_Picture(entry, _refusing(DeckRefused("encrypted", file=entry))))
            continue
        if info.file_size > MAX_FILE_BYTES:
            pictures.append(_Picture(entry, _refusing(DeckRefused(
                "too_big", file=entry, size=megabytes(info.file_size),
                limit=megabytes(MAX_FILE_BYTES)))))
            continue
        total += info.file_size
        if total > MAX_ZIP_TOTAL_BYTES:
            raise DeckRefused("zip_too_big", file=name, size=f"> {megabytes(total)}",
                              limit=megabytes(MAX_ZIP_TOTAL_BYTES))

        def read(info: zipfile.ZipInfo = info, entry: str = entry) -> bytes:
            try:
                # The reader stops at the size the zip declares; reading one byte more
                # than the limit catches an entry that lies about its size.
                with archive.open(info) as member:
                    return _read_limited(member, entry)
            except DeckRefused:
                raise
            except (zipfile.BadZipFile, OSError, ValueError, EOFError,
                    NotImplementedError, RuntimeError):
                raise DeckRefused("corrupt", file=entry) from None

        pictures.append(_Picture(entry, read))
    return pictures, total


def new_deck_id() -> str:
    """A random deck id (lower-case hex, never a bundled deck's)."""
    while True:
        deck_id = secrets.token_hex(8)
        if not (library.BUNDLED_DIR / deck_id).exists():
            return deck_id


def create_deck(name: str | None, uploads: Sequence[Upload],
                descriptions: Sequence[str | None] = (),
                on_card: Callable[[float], None] | None = None,
                on_cpu: Callable[[float], None] | None = None,
                language: str | None = None) -> tuple[Deck, str]:
    """Make a deck from pictures and zips; returns the deck and its owner key.

    Args:
        name: the deck's display name (1–60 characters).
        uploads: picture files (PNG, JPEG, WebP) and zips of such pictures, in card order
            (a zip's pictures in the natural order of their names).
        descriptions: optional descriptions, one per card in that order (fewer is fine).
        on_card: called after each picture is prepared (or refused) with the CPU seconds
            this thread spent on it; it may raise :class:`DeckRefused` to stop.
        on_cpu: called with the CPU seconds of each few descriptions made into vectors
            for computer players; it may raise :class:`DeckRefused` to stop.
        language: the descriptions' language, a language tag (``"en"``, ``"pt-PT"``),
            kept in the manifest; ``None`` or ``""`` when not said.

    Raises:
        DeckRefused: anything refused; nothing is left on disk. Every picture is
            checked, and the bad ones are named together (:func:`refuse_pictures`).
    """
    root = uploads_dir()
    if root is None:
        raise DeckRefused("no_uploads", status=503)
    deck_name = clean_deck_name(name)
    if not uploads:
        raise DeckRefused("empty_deck")
    pictures = _pictures(uploads)
    if not pictures:
        raise DeckRefused("empty_deck")
    if len(descriptions) > len(pictures):
        raise DeckRefused("too_many_descriptions", count=len(descriptions),
                          cards=len(pictures))
    texts = [clean_description(text, number) for number, text in enumerate(descriptions, 1)]
    tag = language_tag(language)
    if language and tag is None:
        raise DeckRefused("bad_language")
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    deck_id = new_deck_id()
    key = secrets.token_urlsafe(24)
    staging = root / f"{STAGING_PREFIX}{deck_id}"
    try:
        (staging / "cards").mkdir(parents=True)
        (staging / "thumbs").mkdir()
        cards: list[dict[str, Any]] = []
        width = max(3, len(str(len(pictures) - 1)))
        problems: list[DeckRefused] = []
        # each picture's digest: the first file that had it, and its number (from 1)
        seen: dict[bytes, tuple[str, int]] = {}
        for number, picture in enumerate(pictures):
            card_id = f"{number:0{width}d}"
            started = time.thread_time()
            try:
                data = picture.read()
                # The same picture twice makes two cards nobody can tell apart: both on
                # the table in one round, the vote means nothing (DX-ROUND-3).
                digest = hashlib.sha256(data).digest()
                if data and digest in seen:
                    first, first_number = seen[digest]
                    if first == picture.name:  # "a.png is the same picture as a.png"
                        raise DeckRefused("same_picture_twice", file=picture.name,
                                          number=number + 1, first_number=first_number)
                    raise DeckRefused("same_picture", file=picture.name, first=first)
                seen.setdefault(digest, (picture.name, number + 1))
                stored, thumb = prepare_card(data, picture.name)
            except DeckRefused as problem:
                if problem.code not in PICTURE_PROBLEMS:
                    raise
                problems.append(problem)
                continue
            finally:
                if on_card is not None:
                    on_card(time.thread_time() - started)
            if problems:
                continue  # nothing will be kept: the pictures are only checked
            (staging / "cards" / f"{card_id}.webp").write_bytes(stored)
            (staging / "thumbs" / f"{card_id}.webp").write_bytes(thumb)
            description = texts[number] if number < len(texts) else None
            cards.append({"id": card_id, "file": f"cards/{card_id}.webp",
                          "description": description,
                          "sources": [{"type": "upload", "name": picture.name}]})
        if problems:
            raise refuse_pictures(problems)
        manifest = {"id": deck_id, "name": deck_name, "owner": owner_hash(key),
                    "created": int(time.time()), "cards": cards}
        if tag is not None:
            manifest["language"] = tag
        (staging / "manifest.json").write_text(
            json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
        _write_vectors(staging, texts, len(pictures), on_cpu)
        staging.rename(root / deck_id)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _mark_owner(root, deck_id, owner_hash(key))
    forget(deck_id)
    return load_manifest(root / deck_id, uploaded=True), key


def _write_vectors(folder: Path, texts: list[str | None], cards: int,
                   on_cpu: Callable[[float], None] | None) -> None:
    """The description vectors computer players read (:mod:`gametable.decks.vectors`),
    made once at upload; a deck without them still works (they are made on first use).

    Raises:
        DeckRefused: what ``on_cpu`` raised (an upload's CPU quota spent).
    """
    descriptions = [*texts, *[None] * (cards - len(texts))]
    if not any(descriptions):
        return
    try:
        from gametable.decks.vectors import write_vectors  # noqa: PLC0415 (loads the model)

        write_vectors(folder, descriptions, on_cpu)
    except DeckRefused:
        raise
    except (ImportError, OSError, RuntimeError, ValueError):
        log.exception("deck %s: the description vectors could not be made", folder.name)


def is_owner(deck: Deck, keys: Sequence[str]) -> bool:
    """Whether one of ``keys`` is the owner key of the uploaded deck ``deck``."""
    if not deck.uploaded or not deck.owner:
        return False
    return any(secrets.compare_digest(owner_hash(key), deck.owner) for key in keys if key)


def split_keys(header: str | None) -> list[str]:
    """Owner keys from a comma-separated header value (at most :data:`MAX_KEYS`)."""
    if not header:
        return []
    return [key.strip() for key in header.split(",") if key.strip()][:MAX_KEYS]


def owned_decks(keys: Sequence[str]) -> list[Deck]:
    """The uploaded decks owned by any of ``keys``, newest first (read through the
    owners' markers: the time it takes grows with one's own decks, not everyone's)."""
    hashes = {owner_hash(key) for key in keys if key}
    folder = uploads_dir()
    if not hashes or folder is None or not folder.is_dir():
        return []
    found: list[tuple[float, Deck]] = []
    for owner in sorted(hashes):
        marks = folder.parent / OWNERS_DIR / owner
        if not marks.is_dir():
            continue
        for mark in marks.iterdir():
            try:
                deck = find_deck(mark.name)
                made = (deck.folder / "manifest.json").stat().st_mtime if deck else 0.0
            except (OSError, ValueError):  # a damaged manifest hides only that deck
                continue
            if deck is None or not deck.uploaded or deck.owner != owner:
                mark.unlink(missing_ok=True)  # its deck was deleted
                continue
            found.append((made, deck))
    found.sort(key=lambda pair: -pair[0])
    return [deck for _, deck in found]


def index_owners() -> int:
    """Give every uploaded deck its owner's marker (see the module's notes); call it
    before the server takes requests. Returns how many markers were missing."""
    folder = uploads_dir()
    if folder is None or not folder.is_dir():
        return 0
    added = 0
    for entry in _deck_folders(folder):
        try:
            deck = find_deck(entry.name)
        except (OSError, ValueError):
            continue
        if deck is None or not deck.uploaded or not deck.owner \
                or not OWNER_HASH.fullmatch(deck.owner):
            continue
        if not (folder.parent / OWNERS_DIR / deck.owner / deck.id).is_file():
            _mark_owner(folder, deck.id, deck.owner)
            added += 1
    return added


def _mark_owner(root: Path, deck_id: str, owner: str) -> None:
    """Write the marker of ``root``'s deck ``deck_id`` (``root``: the folder of uploaded
    decks)."""
    owners = root.parent / OWNERS_DIR
    owners.mkdir(mode=0o700, exist_ok=True)
    (owners / owner).mkdir(mode=0o700, exist_ok=True)
    (owners / owner / deck_id).touch(mode=0o600)


def _deck_folders(folder: Path) -> Iterator[Path]:
    for entry in folder.iterdir():
        if not entry.name.startswith(".") and entry.is_dir() \
                and (entry / "manifest.json").is_file():
            yield entry


def delete_deck(deck_id: str, key: str | None) -> bool:
    """Delete the uploaded deck ``deck_id`` if ``key`` is its owner key.

    Returns ``False`` (and changes nothing) when there is no such uploaded deck or the
    key does not own it: the two are not told apart.
    """
    deck = find_deck(deck_id)
    if deck is None or not deck.uploaded or not key or not is_owner(deck, [key]):
        return False
    trash = deck.folder.with_name(f"{DELETED_PREFIX}{deck.id}-{secrets.token_hex(4)}")
    deck.folder.rename(trash)
    forget(deck.id)
    if deck.owner and OWNER_HASH.fullmatch(deck.owner):
        (trash.parent.parent / OWNERS_DIR / deck.owner / deck.id).unlink(missing_ok=True)
    shutil.rmtree(trash, ignore_errors=True)
    return True


def remove_leftovers() -> list[str]:
    """Remove what an interrupted upload or deletion left in the folder of uploaded decks
    (``.incoming-*`` and ``.deleted-*`` folders); call it before the server takes
    requests. Returns the names removed."""
    folder = uploads_dir()
    if folder is None or not folder.is_dir():
        return []
    removed: list[str] = []
    for entry in folder.iterdir():
        if entry.name.startswith((STAGING_PREFIX, DELETED_PREFIX)) and entry.is_dir() \
                and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry.name)
    return removed
