"""Card pictures: checked, normalised and stored as WebP with a thumbnail.

Every picture that enters a deck goes through :func:`prepare_card`, which reads nothing but
PNG, JPEG and WebP (told by the file's content, not its name) and refuses, with a message
naming the file and the limit:

- files over :data:`MAX_FILE_BYTES`;
- pictures over :data:`MAX_PIXELS`, judged from the header before anything is decoded;
- pictures whose decoding would take more than :data:`MAX_DECODED_BYTES` of memory
  (:func:`decoded_bytes`: width × height × the bytes per pixel of the picture's mode,
  :data:`BYTES_PER_PIXEL`, after a JPEG's reduced decoding), also judged from the header;
- decompression bombs (Pillow's pixel limit is set to :data:`MAX_PIXELS` here, and its
  warning is turned into a refusal);
- anything Pillow cannot decode.

A picture is never decoded larger than it must be: a JPEG is decoded at the smallest of
1/1, 1/2, 1/4 or 1/8 scale that still gives twice the stored size (``Image.draft``);
other formats are decoded in full and at once reduced by a whole factor (``Image.reduce``)
to about twice the stored size, before anything else is done with them. Accepted
pictures are then turned upright (EXIF orientation), converted to RGB (transparency
over white), shrunk to at most :data:`FULL_SIZE` pixels on the long side and stored as
WebP, with a thumbnail of at most :data:`THUMB_SIZE` pixels made from the same picture.
"""

from __future__ import annotations

import io
import os
import secrets
import threading
import warnings
from pathlib import Path
from typing import Any

from PIL import ExifTags, Image

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

MAX_DECODED_BYTES = 128 * 1024 * 1024
"""The most memory one picture may take while it is decoded at full size (128 MiB), as
counted by :func:`decoded_bytes`."""

BYTES_PER_PIXEL: dict[str, int] = {
    "1": 2,  # one byte a pixel, and a grey copy to be reduced
    "L": 1,
    "P": 5,  # the palette indexes and an RGB copy to be reduced (9 with transparency)
    "RGBA": 8,  # the white it is laid on (or, reduced, the alpha multiplied in)
    "LA": 10,  # an RGBA copy, and the white it is laid on
    "La": 4, "RGBa": 4,
    "PA": 12,  # an RGBA copy, and that copy's second one
    "I;16": 2, "I;16L": 2, "I;16B": 2, "I;16N": 2,
    "I": 4, "F": 4,
    "RGB": 4, "RGBX": 4, "CMYK": 4, "YCbCr": 4, "LAB": 4, "HSV": 4,
}
"""Memory a decoded picture takes per pixel, by Pillow mode, until it is reduced: Pillow
keeps every pixel of a colour picture in 4 bytes; the copies that reducing a mode needs
(a conversion, the alpha multiplied in) count too. Other modes count
:data:`UNKNOWN_MODE_BYTES`."""
UNKNOWN_MODE_BYTES = 8
WEBP_DECODER_BYTES = 12
"""Extra memory per pixel while a WebP picture is decoded: libwebp's canvas and previous
canvas (Pillow reads every WebP through the animation decoder) and the frame it hands
over, 4 bytes each."""
JPEG_PIXELS_PER_BYTE = 1000
"""The most pixels a JPEG may claim for each byte of its file: a baseline JPEG spends a
bit or more on each 8 × 8 block of each colour, about 170 pixels a byte for a picture all
of one colour (some 350 progressive); more is a file cut short, whose missing part the
decoder fills with grey rather than refuse it."""
REDUCING_GAP = 2
"""Pictures are reduced cheaply to at least this many times the size they are stored at,
then resampled properly (Pillow's ``reducing_gap``)."""

# Pillow warns above this many pixels and refuses above twice as many (a decompression
# bomb); the warning is caught below, so no picture over the limit is ever decoded.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS
_warnings_lock = threading.Lock()

_TRANSPOSE = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
"""How to turn a picture upright for each EXIF orientation (as ``ImageOps.exif_transpose``)."""


class DeckRefused(ValueError):
    """A deck request refused with a translatable message (nothing was changed).

    Attributes:
        code: a stable machine-readable reason (``"too_big"``, ``"bad_type"`` …).
        key, params: the catalog message (under ``decks.errors``) and its parameters.
        status: the HTTP status that fits.
        retry_after: seconds after which the same request may succeed, or ``None``.
    """

    def __init__(self, code: str, *, status: int = 400, retry_after: int | None = None,
                 **params: Any) -> None:
        self.code = code
        self.key = f"decks.errors.{code}"
        self.params = params
        self.status = status
        self.retry_after = retry_after
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


def decoded_bytes(kind: str, mode: str, width: int, height: int, *,
                  transparency: bool = False) -> int:
    """The memory, in bytes, that decoding a ``width`` × ``height`` picture of format
    ``kind`` and Pillow mode ``mode`` takes before it can be reduced (``transparency``: a
    palette picture with a transparent colour, which becomes RGBA)."""
    per_pixel = BYTES_PER_PIXEL.get(mode, UNKNOWN_MODE_BYTES)
    if mode == "P" and transparency:
        per_pixel = 1 + BYTES_PER_PIXEL["RGBA"]
    if kind == "WEBP":
        per_pixel += WEBP_DECODER_BYTES
    return width * height * per_pixel


def webp_header(data: bytes) -> tuple[str, int, int] | None:
    """A WebP picture's mode (``"RGB"`` or ``"RGBA"``) and canvas size from its first 30
    bytes (``None`` when they cannot be told).

    Pillow's WebP reader sets up its decoder for the whole canvas as it opens a file, so
    the size is checked before opening.
    """
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        return ("RGB", int.from_bytes(data[26:28], "little") & 0x3FFF,
                int.from_bytes(data[28:30], "little") & 0x3FFF)
    if chunk == b"VP8X" and len(data) >= 30:
        return ("RGBA" if data[20] & 0x10 else "RGB",
                int.from_bytes(data[24:27], "little") + 1,
                int.from_bytes(data[27:30], "little") + 1)
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return ("RGBA" if bits >> 28 & 1 else "RGB", (bits & 0x3FFF) + 1,
                ((bits >> 14) & 0x3FFF) + 1)
    return None


def prepare_card(data: bytes, name: str) -> tuple[bytes, bytes]:
    """The picture in ``data`` (from the file ``name``) as a stored card and its thumbnail:
    WebP, RGB, upright, at most :data:`FULL_SIZE` and :data:`THUMB_SIZE` pixels on the long
    side.

    Raises:
        DeckRefused: ``too_big``, ``bad_type``, ``too_many_pixels``, ``decoded_too_big``,
            ``image_bomb`` or ``corrupt``; each names the file.
    """
    image = _open_checked(data, name, FULL_SIZE)
    card = _fit(image, FULL_SIZE)
    small = _fit(card, THUMB_SIZE)
    return _webp(card, WEBP_QUALITY), _webp(small, THUMB_QUALITY)


def prepare(data: bytes, name: str) -> bytes:
    """The stored card of :func:`prepare_card` alone."""
    image = _open_checked(data, name, FULL_SIZE)
    return _webp(_fit(image, FULL_SIZE), WEBP_QUALITY)


def thumbnail(data: bytes, name: str) -> bytes:
    """A WebP thumbnail (at most :data:`THUMB_SIZE` pixels) of the picture in ``data``.

    Raises:
        DeckRefused: ``data`` is not a picture that :func:`prepare_card` would accept.
    """
    image = _open_checked(data, name, THUMB_SIZE)
    return _webp(_fit(image, THUMB_SIZE), THUMB_QUALITY)


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _open_checked(data: bytes, name: str, target: int) -> Image.Image:
    """The picture in ``data``, checked, decoded no larger than needed for ``target``
    pixels on the long side, upright and RGB."""
    if len(data) > MAX_FILE_BYTES:
        raise DeckRefused("too_big", file=name, size=megabytes(len(data)),
                          limit=megabytes(MAX_FILE_BYTES))
    if not data:
        raise DeckRefused("empty_file", file=name)
    kind = sniff(data[:16])
    if kind is None:
        raise DeckRefused("bad_type", file=name)
    if kind == "WEBP":
        # Check the canvas before Pillow's WebP reader sets up its decoder for it.
        header = webp_header(data[:30])
        if header is not None:
            _check_size(kind, *header, name)
    return _decode(data, name, kind, target)


def _check_size(kind: str, mode: str, width: int, height: int, name: str, *,
                transparency: bool = False) -> None:
    if width < 1 or height < 1:
        raise DeckRefused("corrupt", file=name)
    if width * height > MAX_PIXELS:
        raise DeckRefused("too_many_pixels", file=name, width=width, height=height,
                          limit=MAX_PIXELS // 1_000_000)
    need = decoded_bytes(kind, mode, width, height, transparency=transparency)
    if need > MAX_DECODED_BYTES:
        raise DeckRefused("decoded_too_big", status=413, file=name, width=width,
                          height=height, size=megabytes(need),
                          limit=megabytes(MAX_DECODED_BYTES))


def _decode(data: bytes, name: str, kind: str, target: int) -> Image.Image:
    """Open, check and decode a picture of format ``kind``; reduced, upright, RGB."""
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
        if kind == "JPEG" and width * height > JPEG_PIXELS_PER_BYTE * len(data):
            raise DeckRefused("corrupt", file=name)
        if kind == "JPEG":
            # Decode a big JPEG at 1/2, 1/4 or 1/8 scale: no larger than needed.
            image.draft(None, _scaled(image.size, target * REDUCING_GAP))
        _check_size(kind, image.mode, *image.size, name,
                    transparency="transparency" in image.info)
        image.load()
        orientation = image.getexif().get(ExifTags.Base.Orientation, 1)
        small = _reduced(image, target * REDUCING_GAP)
        if small is not image:
            image.close()
        method = _TRANSPOSE.get(orientation if isinstance(orientation, int) else 1)
        if method is not None:
            small = small.transpose(method)
        return _rgb(small)
    except DeckRefused:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning, MemoryError):
        raise DeckRefused("image_bomb", file=name, limit=MAX_PIXELS // 1_000_000) from None
    except Exception:  # Pillow raises many kinds of errors for a damaged file
        raise DeckRefused("corrupt", file=name) from None


def _scaled(size: tuple[int, int], bound: int) -> tuple[int, int]:
    """``size`` shrunk (never grown) to fit a ``bound`` × ``bound`` square, at least 1 × 1."""
    width, height = size
    scale = min(1.0, bound / max(width, height))
    return max(1, round(width * scale)), max(1, round(height * scale))


def _reduced(image: Image.Image, bound: int) -> Image.Image:
    """``image`` made smaller by a whole factor while both sides stay at least as long as
    a ``bound`` × ``bound`` square requires (``image`` itself when it is small enough)."""
    if image.mode == "P":
        image = image.convert("RGBA" if "transparency" in image.info else "RGB")
    elif image.mode == "PA":
        image = image.convert("RGBA")
    elif image.mode == "1":
        image = image.convert("L")
    factor = max(image.size) // bound
    if factor < 2:
        return image
    if image.mode.startswith("I;16"):
        size = (max(1, image.width // factor), max(1, image.height // factor))
        return image.resize(size, Image.Resampling.BOX)
    return image.reduce(factor)


def _rgb(image: Image.Image) -> Image.Image:
    """``image`` in RGB; transparent parts become white."""
    if image.mode == "RGB":
        return image
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        # One copy beside the picture, the white it is laid on (as BYTES_PER_PIXEL counts
        # it): no RGBA copy of an RGBA picture, nor of its alpha for the mask (an RGBA
        # picture at the limit took half as much again).
        rgba = image if image.mode == "RGBA" else image.convert("RGBA")
        background = Image.new("RGB", rgba.size, (255, 255, 255))
        background.paste(rgba, mask=rgba)
        return background
    if image.mode in ("I;16", "I;16B", "I;16L", "I;16N", "I"):
        image = image.point(lambda value: value / 256).convert("L")
    return image.convert("RGB")


def _fit(image: Image.Image, size: int) -> Image.Image:
    """``image`` shrunk to at most ``size`` pixels on its long side (a new picture when
    shrunk; ``image`` is left as it is)."""
    if max(image.size) <= size:
        return image
    return image.resize(_scaled(image.size, size), Image.Resampling.LANCZOS)


def _webp(image: Image.Image, quality: int) -> bytes:
    """``image`` as WebP bytes."""
    out = io.BytesIO()
    image.save(out, "WEBP", quality=quality, method=4)
    return out.getvalue()
