"""The weight of a player's first load of a Dixit table, over the wire.

Run: ``.venv/bin/python -m benchmarks.first_load [--seats 6]``

Starts ``gametable serve`` with an empty data folder, creates a Dixit table (seat 1 a
person, the others computer players, the default deck), opens the seat's personal link
in a fresh headless Chromium (no cache) and waits until the hand's pictures are shown.
Prints the bytes received per kind of resource (as the server sent them, compressed
where it compressed), the number of requests, the largest picture, and whether every
picture carried cache headers. Then it opens the large view of one card, which fetches
the full-size picture on demand.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Response, sync_playwright

from benchmarks.server import free_port, start_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def measure(base: str, seats: int) -> dict[str, Any]:
    created = httpx.post(f"{base}/api/tables", json={
        "game": "dixit", "config": {"first_storyteller": "first_seat"}, "name": "Anna",
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * (seats - 1)},
        timeout=30).json()
    link = f"{base}/t/{created['table']['id']}#seat={created['token']}"
    sizes: dict[str, int] = defaultdict(int)
    counts: dict[str, int] = defaultdict(int)
    pictures: list[tuple[str, int, str | None]] = []

    def seen(response: Response) -> None:
        body = len(response.body()) if response.status < 300 else 0
        wire = int(response.headers.get("content-length", body) or body)
        kind = response.request.resource_type
        sizes[kind] += wire
        counts[kind] += 1
        if "/cards/" in response.url:
            pictures.append((response.url, wire, response.headers.get("cache-control")))

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.on("response", seen)
        page.goto(link)
        page.wait_for_selector(".dx-hand img", timeout=30_000)
        page.wait_for_load_state("networkidle")
        first = dict(sizes)
        first_pictures = list(pictures)
        page.locator(".dx-hand .dx-card-button").first.click()
        page.wait_for_function(
            "document.querySelector('.dx-zoom-card img')?.complete === true", timeout=30_000)
        page.wait_for_timeout(500)
        browser.close()
    full = [p for p in pictures[len(first_pictures):] if "size=full" in p[0]]
    return {
        "seats": seats,
        "first_load_bytes": sum(first.values()),
        "by_kind": first,
        "requests": sum(counts.values()),
        "pictures": len(first_pictures),
        "largest_picture_bytes": max((p[1] for p in first_pictures), default=0),
        "pictures_cached": all(p[2] and "max-age" in p[2] for p in pictures),
        "full_size_on_demand_bytes": sum(p[1] for p in full),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        server = start_server(Path(data), port)
        try:
            result = measure(f"http://127.0.0.1:{port}", args.seats)
        finally:
            server.terminate()
            server.wait(10)
    if args.json:
        print(json.dumps(result))
        return
    print(f"first load of a {result['seats']}-seat Dixit table: "
          f"{result['first_load_bytes'] / 1e6:.2f} MB in {result['requests']} requests")
    for kind, size in sorted(result["by_kind"].items(), key=lambda item: -item[1]):
        print(f"  {kind:<12}{size / 1e3:>10.1f} kB")
    print(f"  pictures: {result['pictures']} thumbnails, largest "
          f"{result['largest_picture_bytes'] / 1e3:.1f} kB; cache headers on every picture: "
          f"{result['pictures_cached']}")
    print(f"  the large view of one card then fetches "
          f"{result['full_size_on_demand_bytes'] / 1e3:.1f} kB (full size, on demand)")


if __name__ == "__main__":
    main()
