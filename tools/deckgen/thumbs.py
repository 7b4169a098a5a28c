"""Make the thumbnail of every card of a deck folder (``thumbs/<card id>.webp``).

Run from the repository root (``scripts/make-default-deck`` runs it after the cards)::

    python -m tools.deckgen.thumbs src/gametable/decks/default

Thumbnails are made by the code the server uses for uploaded decks
(:func:`gametable.decks.images.thumbnail`): the same cards and versions of Pillow and
libwebp give the same files. They ship beside the cards, so the server never makes a
picture when someone asks for it (what a first request costs would tell that nobody had
looked at that card before).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gametable.decks import load_manifest
from gametable.decks.images import thumbnail, write_atomic


def make_thumbs(folder: Path) -> tuple[int, int]:
    """Write ``thumbs/<card id>.webp`` for every card of the deck in ``folder`` and remove
    thumbnails of cards it no longer has; returns (thumbnails written, bytes in all)."""
    deck = load_manifest(folder, uploaded=False)
    thumbs = folder / "thumbs"
    thumbs.mkdir(exist_ok=True)
    wanted: set[str] = set()
    total = 0
    for card in deck.cards:
        source = folder / card.file
        data = thumbnail(source.read_bytes(), card.file)
        name = f"{card.id}.webp"
        wanted.add(name)
        path = thumbs / name
        if not path.is_file() or path.read_bytes() != data:
            write_atomic(path, data)
        total += len(data)
    for stale in thumbs.glob("*.webp"):
        if stale.name not in wanted:
            stale.unlink()
    return len(wanted), total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.deckgen.thumbs",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, nargs="?",
                        default=Path("src/gametable/decks/default"))
    args = parser.parse_args(argv)
    if not (args.folder / "manifest.json").is_file():
        print(f"{args.folder} has no manifest.json", file=sys.stderr)
        return 1
    count, size = make_thumbs(args.folder)
    print(f"{count} thumbnails, {size / 1e6:.1f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
