"""What costly deck uploads do to the server: its memory and CPU time.

Run: ``.venv/bin/python -m benchmarks.uploads [--zip-pictures 500] [--clients 10] [--quota …]
[--serve-option=--no-rate-limits]``

Starts ``gametable serve`` (the code under ``--src``, this checkout's by default) with an
empty data folder and uploads pictures that weigh little and decode to much:

- ``bomb.webp``: 34 bytes, 7280 × 5460 pixels with transparency;
- ``deep.png``: a 16-bit RGB PNG of 7280 × 5460 pixels (360 KB);
- ``lines.zip``: ``--zip-pictures`` 1-bit PNGs of 7300 × 5470 pixels (11 KB each).

Each step runs on a freshly started server: each of them alone, then ``--clients`` clients
at once, each uploading all three (with a
zip of ``--parallel-pictures``), then ``--clients`` clients at once with the largest
pictures the server accepts (a zip of two 33-megapixel RGB PNGs, a 25-megapixel palette
PNG and an 8.3-megapixel WebP). For every step it prints the answers, the seconds it
took, the server's CPU seconds, and its memory (resident set) before, at its peak
(``VmHWM``, reset before each step) and after. ``--quota`` is passed to the server as
``--upload-quota`` (for servers that know it).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from tests.decks.pictures import deep_png, numbered, one_colour, zip_of

from benchmarks.server import free_port

TICKS = os.sysconf("SC_CLK_TCK")


def memory_mb(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise LookupError(field)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def start(src: Path, data_dir: Path, port: int, options: list[str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    process = subprocess.Popen(
        [sys.executable, "-m", "gametable.cli", "serve", "--port", str(port), "--data-dir",
         str(data_dir), "--bot-delay", "0", *options],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def upload(base: str, name: str, data: bytes) -> str:
    with httpx.Client(base_url=base, timeout=1800) as http:
        response = http.post("/api/decks", data={"name": "Costly"},
                             files=[("files", (name, data, "application/octet-stream"))])
    try:
        code = response.json().get("code", "made")
    except ValueError:
        code = "?"
    return f"{response.status_code} {code}"


def step(pid: int, label: str, clients: list[list[tuple[str, bytes]]], base: str
         ) -> dict[str, Any]:
    """Upload at once for each of ``clients`` (its uploads one after another) and measure."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # reset the peak (VmHWM)
    before, cpu, started = memory_mb(pid, "VmRSS"), cpu_seconds(pid), time.monotonic()
    answers: Counter[str] = Counter()
    lock = threading.Lock()

    def client(uploads: list[tuple[str, bytes]]) -> None:
        for name, data in uploads:
            answer = upload(base, name, data)
            with lock:
                answers[f"{name}: {answer}"] += 1

    threads = [threading.Thread(target=client, args=(uploads,)) for uploads in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    time.sleep(0.5)
    result = {"step": label, "answers": dict(answers),
              "seconds": round(time.monotonic() - started, 1),
              "cpu_seconds": round(cpu_seconds(pid) - cpu, 1),
              "rss_before_mb": round(before), "rss_peak_mb": round(memory_mb(pid, "VmHWM")),
              "rss_after_mb": round(memory_mb(pid, "VmRSS"))}
    print(result, flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src")
    parser.add_argument("--zip-pictures", type=int, default=500)
    parser.add_argument("--parallel-pictures", type=int, default=20)
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--quota", default=None, help="--upload-quota for the server")
    parser.add_argument("--skip-big-zip", action="store_true")
    parser.add_argument("--serve-option", action="append", default=[],
                        help="a further option for the server, e.g. "
                        "--serve-option=--no-rate-limits")
    args = parser.parse_args()

    lines = one_colour(7300, 5470, "PNG", mode="1", optimize=True)
    bomb = one_colour(7280, 5460, "WEBP", mode="RGBA", colour=0, lossless=True, method=0)
    deep = deep_png(7280, 5460)
    big_zip = zip_of({f"lines-{n}.png": numbered(lines, n) for n in range(args.zip_pictures)})
    small_zip = zip_of({f"lines-{n}.png": numbered(lines, n)
                        for n in range(args.parallel_pictures)})
    rgb = one_colour(6600, 5000, "PNG", colour=(10, 20, 30))
    largest = zip_of({"a.png": rgb, "b.webp": one_colour(3200, 2600, "WEBP", quality=50),
                      "c.png": one_colour(5000, 5000, "PNG", mode="P", colour=3),
                      "d.png": numbered(rgb, 1)})  # the same picture, a file of its own
    print(f"bomb.webp {len(bomb)} B, deep.png {len(deep)} B, "
          f"lines.zip {len(big_zip)} B ({args.zip_pictures} pictures), "
          f"{len(small_zip)} B ({args.parallel_pictures})", flush=True)
    options = (["--upload-quota", args.quota] if args.quota else []) + args.serve_option
    steps: list[tuple[str, list[list[tuple[str, bytes]]]]] = [
        ("one bomb.webp", [[("bomb.webp", bomb)]]),
        ("one deep.png", [[("deep.png", deep)]]),
    ]
    if not args.skip_big_zip:
        steps.append((f"one lines.zip of {args.zip_pictures}", [[("lines.zip", big_zip)]]))
    steps.append((f"{args.clients} clients at once",
                  [[("bomb.webp", bomb), ("deep.png", deep), ("lines.zip", small_zip)]
                   for _ in range(args.clients)]))
    steps.append((f"{args.clients} clients at once, the largest accepted pictures",
                  [[("largest.zip", largest)] for _ in range(args.clients)]))
    for label, clients in steps:  # each on a freshly started server
        with tempfile.TemporaryDirectory() as folder:
            port = free_port()
            server = start(args.src, Path(folder), port, options)
            try:
                step(server.pid, label, clients, f"http://127.0.0.1:{port}")
            finally:
                server.terminate()
                server.wait(30)

if __name__ == "__main__":
    main()
