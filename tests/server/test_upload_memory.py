"""Ten clients upload pictures that cost far more than they weigh, all at once, to the real
server (a subprocess): its memory stays under 500 MB and every upload gets its answer.

The pictures: a 34-byte WebP of 40 megapixels with transparency (it would decode to
640 MB), a 16-bit PNG of 39.7 megapixels (318 MB of samples), zips of 40-megapixel 1-bit
PNGs of 11 KB each, which are accepted: decoded one byte a pixel and reduced at once, and
zips of about the largest pictures accepted (a 33-megapixel RGB PNG, a 25-megapixel
palette PNG and a 16-megapixel RGBA PNG, each just under the 128 MB decoding limit). The
server runs with quotas wide enough to let every upload in.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.decks.pictures import deep_png, numbered, one_colour, zip_of
from tests.server.conftest import LiveServer

LIMIT_MB = 500
CLIENTS = 10
WIDE_QUOTA = "decks=1000,cards=100000,megabytes=100000,cpu-seconds=100000,at-once=100"


def memory_mb(pid: int, field: str) -> float:
    """``VmRSS`` (now) or ``VmHWM`` (the peak so far) of process ``pid``, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise LookupError(field)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(data_dir=tmp_path / "data", bot_delay=0.0,
                      options=["--upload-quota", WIDE_QUOTA, "--no-rate-limits"])
    live.start()
    yield live
    live.stop()


def test_ten_clients_uploading_costly_pictures_at_once_stay_under_500_mb(
        server: LiveServer) -> None:
    assert server.process is not None
    pid = server.process.pid
    lines = one_colour(7300, 5470, "PNG", mode="1", optimize=True)
    uploads = {
        "bomb.webp": one_colour(7280, 5460, "WEBP", mode="RGBA", colour=0, lossless=True,
                                method=0),
        "deep.png": deep_png(7280, 5460),
        "lines.zip": zip_of({f"lines-{n}.png": numbered(lines, n) for n in range(3)}),
        "largest.zip": zip_of({"rgb.png": one_colour(6600, 5000, "PNG", colour=(9, 9, 9)),
                               "palette.png": one_colour(5000, 5000, "PNG", mode="P")}),
        "alpha.zip": zip_of({"rgba.png": one_colour(4000, 4000, "PNG", mode="RGBA",
                                                    colour=(0, 0, 0, 0))}),
    }
    assert len(uploads["bomb.webp"]) < 1400 and len(uploads["lines.zip"]) < 100_000
    before = memory_mb(pid, "VmRSS")
    answers: dict[tuple[int, str], tuple[int, str]] = {}
    highest = before
    done = threading.Event()

    def sample() -> None:
        nonlocal highest
        while not done.is_set():
            highest = max(highest, memory_mb(pid, "VmRSS"))
            time.sleep(0.02)

    def client(number: int) -> None:
        with httpx.Client(base_url=server.url, timeout=300) as http:
            for name in sorted(uploads, key=lambda n: (hash((n, number)), n)):
                response = http.post("/api/decks", data={"name": f"Client {number}"},
                                     files=[("files", (name, uploads[name], "image/png"))])
                answers[number, name] = (response.status_code,
                                         response.json().get("code", "made"))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    workers = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(600)
    done.set()
    sampler.join()
    peak = memory_mb(pid, "VmHWM")
    figures = (f"server memory: {before:.0f} MB before, {highest:.0f} MB at most while "
               f"sampled, {peak:.0f} MB peak, {memory_mb(pid, 'VmRSS'):.0f} MB after")
    assert len(answers) == CLIENTS * len(uploads), answers
    for (_, name), answer in answers.items():
        expected = (201, "made") if name.endswith(".zip") else (413, "decoded_too_big")
        assert answer == expected, (name, answer)
    print(figures)
    assert peak < LIMIT_MB, figures


def test_kill_9_in_mid_upload_leaves_nothing_after_a_restart(live_server: LiveServer) -> None:
    lines = one_colour(7300, 5470, "PNG", mode="1", optimize=True)
    archive = zip_of({f"lines-{n}.png": numbered(lines, n) for n in range(200)})  # a minute of work
    decks = live_server.data_dir / "decks"

    def send() -> None:
        with contextlib.suppress(httpx.HTTPError):  # the server is killed under it
            httpx.post(f"{live_server.url}/api/decks", data={"name": "Interrupted"},
                       files=[("files", ("lines.zip", archive, "application/zip"))],
                       timeout=120)

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    deadline = time.monotonic() + 60
    while not (decks.is_dir() and any(p.name.startswith(".incoming-") for p in decks.iterdir())):
        assert time.monotonic() < deadline, "the upload never started"
        time.sleep(0.05)
    live_server.kill()
    sender.join(30)
    assert [p.name[:10] for p in decks.iterdir()] == [".incoming-"]
    live_server.start()
    assert list(decks.iterdir()) == []
    made = httpx.post(f"{live_server.url}/api/decks", data={"name": "Afterwards"},
                      files=[("files", ("lines.png", lines, "image/png"))], timeout=60)
    assert made.status_code == 201
    assert [p.name for p in decks.iterdir()] == [made.json()["deck"]["id"]]
