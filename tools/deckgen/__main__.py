"""Generate the default Dixit deck.

Run from the repository root::

    python -m tools.deckgen --seed 2026 --cards 252 --out src/gametable/decks/default

It reads the public-domain SVGs of Debian's ``openclipart-svg`` package, curates
single-object motifs, paints one dreamlike scene per card and writes
``cards/NNN.webp``, ``manifest.json`` and a thumbnail of every card, ``thumbs/NNN.webp``
(:mod:`tools.deckgen.thumbs`). The same seed and package versions give the same deck.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from PIL import Image
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from . import catalogue
from .compose import Scene, paint
from .describe import describe
from .plan import Picker, plan
from .thumbs import make_thumbs

DECK_ID = "default"
DECK_NAME = "Dreamwork"
LICENCE = "Public domain (CC0 1.0); motifs from Openclipart via Debian openclipart-svg"
WEBP_QUALITY = 78


DEFAULT_DECK_SEED = 2026
"""The seed the default deck is made with (src/gametable/decks/default)."""
CORRECTED: dict[str, str] = json.loads(
    (Path(__file__).parent / "corrected.json").read_text(encoding="utf-8"))
"""Descriptions of the default deck written by hand (card id → text) where the generated
one misnames what its picture shows — a clip art's title that says another thing ("Giraffe
Cichlid" is a fish, "seal" a walrus, "ship" a ship in a bottle) — or names a motif hidden
behind a bigger one. The pictures stay as made."""


def render_card(job: tuple[Scene, str, Path]) -> int:
    """Paint one card and write it as WebP; returns the file size."""
    scene, seed, path = job
    image: Image.Image = paint(scene, random.Random(seed))
    image.save(path, "WEBP", quality=WEBP_QUALITY, method=6)
    return path.stat().st_size


def progress(console: Console) -> Progress:
    return Progress(TextColumn("[bold]{task.description:<10}"), BarColumn(),
                    MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                    console=console)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.deckgen", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cards", type=int, default=252)
    parser.add_argument("--out", type=Path, default=Path("src/gametable/decks/default"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes used to paint cards")
    args = parser.parse_args(argv)
    if not catalogue.SVG_ROOT.is_dir():
        print(f"{catalogue.SVG_ROOT} is missing: apt-get install openclipart-svg",
              file=sys.stderr)
        return 1

    console = Console(stderr=True)
    started = time.monotonic()
    total, candidates = catalogue.scan()
    console.print(f"{total} SVGs, {len(candidates)} candidates by title")
    with progress(console) as bar:
        task = bar.add_task("motifs", total=len(candidates))
        motifs, rejected = catalogue.curate(candidates, workers=max(2, args.jobs * 2),
                                            advance=lambda: bar.advance(task))
    nouns = {m.noun for m in motifs}
    console.print(f"{len(motifs)} motifs ({len(nouns)} nouns) kept; rejected: "
                  + ", ".join(f"{k} {v}" for k, v in sorted(rejected.items())))

    rng = random.Random(args.seed)
    picker = Picker(motifs)
    out: Path = args.out
    cards_dir = out / "cards"
    cards_dir.mkdir(parents=True, exist_ok=True)
    jobs: list[tuple[Scene, str, Path]] = []
    entries: list[dict[str, object]] = []
    for number in range(1, args.cards + 1):
        card_id = f"{number:03d}"
        scene = plan(rng, picker)
        text = describe(scene, random.Random(f"{args.seed}-text-{card_id}"))
        if args.seed == DEFAULT_DECK_SEED:
            text = CORRECTED.get(card_id, text)
        jobs.append((scene, f"{args.seed}-paint-{card_id}", cards_dir / f"{card_id}.webp"))
        entries.append({"id": card_id, "file": f"cards/{card_id}.webp", "description": text,
                        "sources": [p.motif.source() for p in scene.placements]})
    for stale in cards_dir.glob("*.webp"):
        if stale.stem.isdigit() and int(stale.stem) > args.cards:
            stale.unlink()

    size = 0
    with progress(console) as bar:
        task = bar.add_task("cards", total=len(jobs))
        with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for written in pool.map(render_card, jobs, chunksize=2):
                size += written
                bar.advance(task)

    manifest = {
        "id": DECK_ID, "name": DECK_NAME, "language": "en", "licence": LICENCE,
        "generator": f"python -m tools.deckgen --seed {args.seed} --cards {args.cards}",
        "cards": entries,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False)
                                       + "\n", encoding="utf-8")
    thumbs, thumb_bytes = make_thumbs(out)
    used = {s["file"] for e in entries for s in e["sources"]}  # type: ignore[attr-defined]
    console.print(f"{args.cards} cards, {size / 1e6:.1f} MB of images, {thumbs} thumbnails "
                  f"({thumb_bytes / 1e6:.1f} MB), {len(used)} motifs used, "
                  f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
