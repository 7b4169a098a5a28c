"""Card pictures: checked, normalised and stored as WebP; thumbnails cached on disk.

Every picture that enters a deck goes through :func:`prepare`, which reads nothing but
PNG, JPEG and WebP (told by the file's content, not its name) and refuses, with a message
naming the file and the limit:

- files over :data:`MAX_FILE_BYTES`;
- pictures over :data:`MAX_PIXELS`, judged from the header before anything is decoded;
- decompression bombs (Pillow's pixel limit is set to :data:`MAX_PIXELS` here, and its
  warning is turned into a refusal);
- anything Pillow cannot decode.

Accepted pictures are turned upright (EXIF orientation), converted to RGB (transparency
over white), shrunk to at most :data:`FULL_SIZE` pixels on the long side and stored as
WebP. Thumbnails (at most :data:`THUMB_SIZE` pixels) are made once per card and kept.
"""

from __future__ import annotations

import io
import os
import secrets
import threading
import warnings
from pathlib import Path
from typing import Any

from PIL import Image, ImageOps

from gametable.core.i18n import translate

MAX_FILE_BYTES = 10 * 1024 * 1024
"""Largest picture file accepted (10 MB)."""
MAX_PIXELS = 40_000_000
"""Largest picture accepted, in pixels (40 megapixels)."""
FULL_SIZE = 1024
"""Stored pictures are at most this many pixels on their long side."""
THUMB_SIZE = 320
"""Thumbnails are at most this many pixels on their long side."""
WEBP_QUALITY = 85
THUMB_QUALITY = 80

FORMATS = ("PNG", "JPEG", "WEBP")
"""The picture formats read (Pillow's names)."""

# Pillow warns above this many pixels and refuses above twice as many (a decompression
# bomb); the warning is caught below, so no picture over the limit is ever decoded.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS
_warnings_lock = threading.Lock()


class DeckRefused(ValueError):
    """A deck request refused with a translatable message (nothing was changed).

    Attributes:
        code: a stable machine-readable reason (``"too_big"``, ``"bad_type"`` …).
        key, params: the catalog message (under ``decks.errors``) and its parameters.
        status: the HTTP status that fits.
    """

    def __init__(self, code: str, *, status: int = 400, **params: Any) -> None:
        self.code = code
        self.key = f"decks.errors.{code}"
        self.params = params
        self.status = status
        super().__init__(translate(self.key, **params))


def megabytes(size: int) -> str:
    """``size`` bytes as megabytes for a message (``"10"``, ``"12.4"``)."""
    value = size / (1024 * 1024)
    return f"{value:.0f}" if value >= 100 or value == int(value) else f"{value:.1f}"


def sniff(head: bytes) -> str | None:
    """The picture format by its first bytes (``"PNG"``, ``"JPEG"``, ``"WEBP"``) or ``None``."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if head.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if len(head) >= 12 and head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WEBP"
    return None


def prepare(data: bytes, name: str) -> bytes:
    """The picture in ``data`` (from the file ``name``) as a stored card: WebP, RGB, upright,
    at most :data:`FULL_SIZE` pixels on its long side.

    Raises:
        DeckRefused: ``too_big``, ``bad_type``, ``too_many_pixels``, ``image_bomb`` or
            ``corrupt``; each names the file.
    """
    if len(data) > MAX_FILE_BYTES:
        raise DeckRefused("too_big", file=name, size=megabytes(len(data)),
                          limit=megabytes(MAX_FILE_BYTES))
    kind = sniff(data[:16])
    if kind is None:
        raise DeckRefused("bad_type", file=name)
    image = _decode(data, name, kind, FULL_SIZE)
    return _encode(image, FULL_SIZE, WEBP_QUALITY)


def thumbnail(data: bytes, name: str) -> bytes:
    """A WebP thumbnail (at most :data:`THUMB_SIZE` pixels) of the picture in ``data``.

    Raises:
        DeckRefused: ``data`` is not a picture that :func:`prepare` would accept.
    """
    if len(data) > MAX_FILE_BYTES:
        raise DeckRefused("too_big", file=name, size=megabytes(len(data)),
                          limit=megabytes(MAX_FILE_BYTES))
    kind = sniff(data[:16])
    if kind is None:
        raise DeckRefused("bad_type", file=name)
    return _encode(_decode(data, name, kind, THUMB_SIZE), THUMB_SIZE, THUMB_QUALITY)


def cached_thumbnail(source: Path, cache: Path, name: str) -> Path:
    """The thumbnail of the picture file ``source``, kept at ``cache`` (made on first use).

    The file is written under a temporary name and renamed, so a reader never sees half
    a thumbnail and two requests at once do no harm.
    """
    if not cache.is_file():
        with source.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
        write_atomic(cache, thumbnail(data, name))
    return cache


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _decode(data: bytes, name: str, kind: str, target: int) -> Image.Image:
    """Open and decode a picture of format ``kind`` safely; upright, RGB."""
    try:
        # Over twice the limit, opening raises DecompressionBombError; over the limit, it
        # warns: both are refused below, before any pixel is decoded. (Warning filters are
        # process-wide, hence the lock: uploads are checked in threads.)
        with _warnings_lock, warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=[kind])
        if image.format not in FORMATS:
            raise DeckRefused("bad_type", file=name)
        width, height = image.size
        if width * height > MAX_PIXELS or any(
                issubclass(w.category, Image.DecompressionBombWarning) for w in caught):
            raise DeckRefused("too_many_pixels", file=name, width=width, height=height,
                              limit=MAX_PIXELS // 1_000_000)
        if width < 1 or height < 1:
            raise DeckRefused("corrupt", file=name)
        if kind == "JPEG":
            image.draft("RGB", (target, target))  # decode big JPEGs at a lower scale
        image.load()
        return _rgb(ImageOps.exif_transpose(image))
    except DeckRefused:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning, MemoryError):
        raise DeckRefused("image_bomb", file=name, limit=MAX_PIXELS // 1_000_000) from None
    except Exception:  # Pillow raises many kinds of errors for a damaged file
        raise DeckRefused("corrupt", file=name) from None


def _rgb(image: Image.Image) -> Image.Image:
    """``image`` in RGB; transparent parts become white."""
    if image.mode == "RGB":
        return image
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGB", rgba.size, (255, 255, 255))
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        image = image.point(lambda value: value / 256).convert("L")
    return image.convert("RGB")


def _encode(image: Image.Image, size: int, quality: int) -> bytes:
    """``image`` shrunk to at most ``size`` pixels on its long side, as WebP bytes."""
    if max(image.size) > size:
        image = image.copy()
        image.thumbnail((size, size), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, "WEBP", quality=quality, method=4)
    return out.getvalue()
