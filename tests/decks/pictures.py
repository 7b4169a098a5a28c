"""Pictures, zips and small decks made on the fly for the deck tests."""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path
from typing import Any

from PIL import Image

from gametable.decks.images import thumbnail


def picture(width: int = 64, height: int = 48, fmt: str = "PNG", color: tuple[int, ...] =
            (200, 40, 40), mode: str = "RGB", **save: object) -> bytes:
    """A picture file of one colour with a darker top-left quarter (to see rotations)."""
    image = Image.new(mode, (width, height), color if mode != "L" else color[0])
    corner = tuple(c // 4 for c in color) if mode != "L" else color[0] // 4
    image.paste(corner, (0, 0, max(1, width // 2), max(1, height // 2)))
    out = io.BytesIO()
    image.save(out, fmt, **save)
    return out.getvalue()


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return (struct.pack(">I", len(body)) + kind + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))


def png_claiming(width: int, height: int, depth: int = 8, colour: int = 2) -> bytes:
    """A tiny PNG whose header claims ``width`` × ``height`` pixels (a decompression bomb)
    of bit ``depth`` and PNG colour type ``colour`` (2: RGB, 6: RGBA, 0: grey)."""
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + _png_chunk(b"IEND", b""))


def deep_png(width: int, height: int) -> bytes:
    """A real 16-bit RGB PNG of one colour (it decodes to ``width × height`` pixels)."""
    row = b"\0" + b"\x12\x34\x56\x78\x9a\xbc" * width
    packer = zlib.compressobj(6)
    data = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 16, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", data)
            + _png_chunk(b"IEND", b""))


def webp_claiming(width: int, height: int, alpha: bool = True) -> bytes:
    """A tiny lossless WebP whose header claims ``width`` × ``height`` pixels."""
    bits = (width - 1) | (height - 1) << 14 | int(alpha) << 28
    body = b"\x2f" + struct.pack("<I", bits) + b"\0" * 16
    chunk = b"VP8L" + struct.pack("<I", len(body)) + body
    return b"RIFF" + struct.pack("<I", 4 + len(chunk)) + b"WEBP" + chunk


def one_colour(width: int, height: int, fmt: str, mode: str = "RGB",
               colour: int | tuple[int, ...] = 1, **save: Any) -> bytes:
    """A real picture of one colour: a few kilobytes however many pixels it has."""
    Image.MAX_IMAGE_PIXELS, limit = None, Image.MAX_IMAGE_PIXELS
    try:
        image = Image.new(mode, (width, height), colour)
        out = io.BytesIO()
        image.save(out, fmt, **save)
        return out.getvalue()
    finally:
        Image.MAX_IMAGE_PIXELS = limit


def numbered(png: bytes, number: int) -> bytes:
    """The PNG ``png`` with a text chunk holding ``number`` before its end: the same
    picture in a file of its own (a deck refuses the same file twice, ``same_picture``),
    at no cost in decoding."""
    end = png.rindex(b"IEND") - 4
    return png[:end] + _png_chunk(b"tEXt", b"number\0" + str(number).encode()) + png[end:]


def zip_of(entries: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as archive:
        for name, data in entries.items():
            if name.endswith("/"):
                archive.writestr(zipfile.ZipInfo(name), b"")
            else:
                archive.writestr(name, data)
    return out.getvalue()


def make_bundled_deck(root: Path, deck_id: str = "default", cards: int = 3,
                      name: str = "Test deck") -> Path:
    """A small bundled deck in ``root`` shaped like the one that ships (with thumbnails)."""
    folder = root / deck_id
    (folder / "cards").mkdir(parents=True)
    entries: list[dict[str, Any]] = []
    manifest = {"id": deck_id, "name": name, "owner": None, "cards": entries}
    (folder / "thumbs").mkdir()
    for n in range(cards):
        card = picture(600, 400, "WEBP", color=(30 * n % 255, 120, 200))
        (folder / "cards" / f"{n:03d}.webp").write_bytes(card)
        (folder / "thumbs" / f"{n:03d}.webp").write_bytes(thumbnail(card, f"{n:03d}.webp"))
        entries.append({"id": f"{n:03d}", "file": f"cards/{n:03d}.webp",
                                  "description": f"Picture {n}",
                                  "sources": [{"path": f"/home/someone/pictures/{n}.png",
                                               "licence": "CC0"}]})
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def noise(width: int, height: int) -> bytes:
    """A grey PNG of random pixels (it does not compress: about ``width × height`` bytes)."""
    image = Image.frombytes("L", (width, height), os.urandom(width * height))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


_MEASURE = """
import json, resource, sys
from gametable.decks.images import DeckRefused, prepare_card
data = open(sys.argv[1], "rb").read()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    prepare_card(data, "picture")
    outcome = "ok"
except DeckRefused as error:
    outcome = error.code
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"outcome": outcome, "megabytes": (peak - before) / 1024}))
"""


def preparing_costs(path: Path) -> tuple[str, float]:
    """Prepare the picture file ``path`` as a card in a fresh process: the outcome
    (``"ok"`` or the refusal's code) and how many megabytes the process's peak memory
    grew by while it did."""
    done = subprocess.run([sys.executable, "-c", _MEASURE, str(path)], capture_output=True,
                          text=True, timeout=120, check=True)
    result = json.loads(done.stdout)
    return str(result["outcome"]), float(result["megabytes"])
