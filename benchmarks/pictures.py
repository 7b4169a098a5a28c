"""Whether a card's picture tells that someone looked at it before: headers and timings.

Run: ``.venv/bin/python -m benchmarks.pictures [--cards 60] [--src other/src]``

Starts ``gametable serve`` (the code under ``--src``, this checkout's by default) with an
empty data folder, as after a fresh install. For each of ``--cards`` cards of the default
deck nobody has asked for, it times the first request of its thumbnail, then a repeated
one, over HTTP on this machine as a player's browser would; it prints the medians and
90th percentiles of both, and the headers of a first and of a repeated answer.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from benchmarks.server import free_port


def start(src: Path, data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "gametable.cli", "serve", "--port", str(port), "--data-dir",
         str(data_dir), "--bot-delay", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(src)})
    for _ in range(600):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            print(f"server answers after {time.monotonic() - started:.2f} s", flush=True)
            return process
        except httpx.HTTPError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("the server did not start")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src")
    parser.add_argument("--cards", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start(args.src, Path(folder), port)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
                http.get("/api/decks/default/cards/251?size=thumb")  # the server is in use
                firsts: list[float] = []
                repeats: list[float] = []
                headers = []
                for card in range(args.cards):
                    path = f"/api/decks/default/cards/{card}?size=thumb"
                    for times in (firsts, repeats):
                        started = time.perf_counter()
                        response = http.get(path)
                        times.append(time.perf_counter() - started)
                        if card == 0:
                            headers.append(dict(response.headers))
        finally:
            server.terminate()
            server.wait(30)
    for label, times in (("first request", firsts), ("repeated request", repeats)):
        print(f"{label}: median {statistics.median(times) * 1000:.1f} ms, "
              f"90th percentile {percentile(times, 0.9) * 1000:.1f} ms ({len(times)} cards)")
    for label, answer in zip(("first answer", "repeated answer"), headers, strict=True):
        shown = {k: v for k, v in answer.items() if k != "date"}
        print(f"{label} headers: {shown}")


if __name__ == "__main__":
    main()
