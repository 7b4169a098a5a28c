"""Pictures, zips and small decks made on the fly for the deck tests."""

from __future__ import annotations

import io
import json
import os
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Any

from PIL import Image


def picture(width: int = 64, height: int = 48, fmt: str = "PNG", color: tuple[int, ...] =
            (200, 40, 40), mode: str = "RGB", **save: object) -> bytes:
    """A picture file of one colour with a darker top-left quarter (to see rotations)."""
    image = Image.new(mode, (width, height), color if mode != "L" else color[0])
    corner = tuple(c // 4 for c in color) if mode != "L" else color[0] // 4
    image.paste(corner, (0, 0, max(1, width // 2), max(1, height // 2)))
    out = io.BytesIO()
    image.save(out, fmt, **save)
    return out.getvalue()


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width`` × ``height`` pixels (a decompression bomb)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b""))


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
    """A small bundled deck in ``root`` shaped like the one that ships."""
    folder = root / deck_id
    (folder / "cards").mkdir(parents=True)
    entries: list[dict[str, Any]] = []
    manifest = {"id": deck_id, "name": name, "owner": None, "cards": entries}
    for n in range(cards):
        (folder / "cards" / f"{n:03d}.webp").write_bytes(
            picture(600, 400, "WEBP", color=(30 * n % 255, 120, 200)))
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
