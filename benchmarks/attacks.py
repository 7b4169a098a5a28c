"""The server under the attacks it was hardened against: memory, start-up time, presence.

Run: ``.venv/bin/python -m benchmarks.attacks {oversize,startup,watchers} [--src DIR]
[--serve-option=--no-rate-limits …]``

Each starts ``gametable serve`` on a free port of this machine with an empty data
folder (``--src``: the ``src`` folder of another checkout, to measure older code the
same way) and prints one JSON object.

- ``oversize``: the server's resident memory (VmRSS) before, during (the peak, sampled
  every 20 ms) and 5 s after an attack: ``--posts`` chunked ``POST /api/tables`` bodies
  of ``--megabytes`` MB each (a Sequence Cats board whose name is that long), then
  ``--watchers`` watchers connecting one after another to the biggest table that was
  accepted (or an ordinary one), reading everything they are sent, plus ``--stalled``
  watchers that read nothing. Also the bytes the watchers received.
- ``startup``: ``--tables`` stored tables (a database written directly: tables of two
  seats, one taken and one open, with the default board given in full as a layout —
  about 3 KB each; ``--bot-tables`` of them instead fully seated with a computer player,
  so they have work at start-up); then the seconds from starting the server to its
  first answer, and its VmRSS then.
- ``watchers``: ``--watchers`` watchers connect (50 at a time) to one table; the seconds
  until all are welcomed or refused (the server's caps on connections per address and
  spectators per table close the others with 1013: pass
  ``--serve-option=--max-connections-per-client=0`` and
  ``--serve-option=--max-watchers-per-table=0`` to measure without them), how many were
  refused, the bytes they received, and meanwhile the round-trip times (p50, p99, max) of
  pings on another table.
- ``slowloris``: ``--connections`` connections each send half a request's headers and
  then nothing; the server's open file handles before, with them, and ``--wait`` seconds
  later, and whether a whole request is still answered meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_BOARD = json.loads(
    (ROOT / "src/gametable/games/sequence_cats/data/board-default.json").read_text())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Server:
    """``gametable serve`` in a subprocess."""

    def __init__(self, data: Path, src: str | None, options: list[str]) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ)
        if src:
            env["PYTHONPATH"] = src
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gametable.cli", "serve", "--port", str(self.port),
             "--data-dir", str(data), "--bot-delay", "0.5", *options],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        for _ in range(3000):
            try:
                httpx.get(f"{self.url}/api/games", timeout=1)
                break
            except httpx.HTTPError:
                if self.process.poll() is not None:
                    raise SystemExit("the server exited") from None
                time.sleep(0.02)
        self.ready_after = time.monotonic() - self.started

    def rss(self) -> float:
        return rss_mb(self.process.pid)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


class Peak:
    """The highest VmRSS of a process while it runs, sampled in a thread."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self._stop = pid, 0.0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, rss_mb(self.pid))
            time.sleep(0.02)

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        return round(self.peak, 1)


def big_table_body(megabytes: float) -> bytes:
    board = {**DEFAULT_BOARD, "name": "x" * int(megabytes * 1_000_000)}
    return orjson.dumps({"game": "sequence-cats", "name": "A", "config": {"board": board},
                         "seats": [{"kind": "human"}, {"kind": "human"}]})


async def chunked_post(url: str, body: bytes) -> tuple[int, str | None]:
    """POST ``body`` in chunks (no Content-Length); the status (0: the connection was
    closed before the body's end) and the new table's id."""
    async def chunks() -> AsyncIterator[bytes]:
        for i in range(0, len(body), 65536):
            yield body[i:i + 65536]

    async with httpx.AsyncClient(timeout=120) as http:
        try:
            response = await http.post(f"{url}/api/tables", content=chunks(),
                                       headers={"Content-Type": "application/json"})
        except httpx.TransportError:  # answered (413) and closed before the body's end
            return 0, None
        table = response.json()["table"]["id"] if response.status_code == 201 else None
        return response.status_code, table


async def watch(ws_url: str, received: list[int], hold: asyncio.Event,
                read: bool = True) -> None:
    async with websockets.connect(ws_url, max_size=None, open_timeout=120,
                                  close_timeout=5) as ws:
        await ws.send('{"type": "hello"}')
        if not read:
            await hold.wait()
            return
        async def drain() -> None:
            async for text in ws:
                received[0] += len(text)
        task = asyncio.create_task(drain())
        await hold.wait()
        task.cancel()


async def oversize(args: argparse.Namespace) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="gametable-bench-"))
    server = Server(data, args.src, args.serve_option)
    await asyncio.sleep(1)
    before = round(server.rss(), 1)
    peak = Peak(server.process.pid)
    started = time.monotonic()
    statuses = []
    big = None
    for _ in range(args.posts):
        status, table = await chunked_post(server.url, big_table_body(args.megabytes))
        statuses.append(status)
        big = table or big
    if big is None:  # the largest table this server accepts
        async with httpx.AsyncClient(base_url=server.url) as http:
            created = await http.post("/api/tables", json={
                "game": "sequence-cats", "name": "A", "config": {"board": DEFAULT_BOARD},
                "seats": [{"kind": "human"}, {"kind": "human"}]})
            big = created.json()["table"]["id"]
    ws_url = f"ws://127.0.0.1:{server.port}/api/tables/{big}/ws"
    received = [0]
    hold = asyncio.Event()
    tasks = [asyncio.create_task(watch(ws_url, received, hold, read=False))
             for _ in range(args.stalled)]
    for _ in range(args.watchers):
        tasks.append(asyncio.create_task(watch(ws_url, received, hold)))
        await asyncio.sleep(0.2)
    await asyncio.sleep(3)
    during = round(server.rss(), 1)
    hold.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    seconds = time.monotonic() - started
    top = peak.stop()
    await asyncio.sleep(5)
    after = round(server.rss(), 1)
    server.stop()
    return {"posts": statuses, "post_megabytes": args.megabytes,
            "watchers": args.watchers, "stalled": args.stalled,
            "rss_mb": {"before": before, "during_peak": top, "with_watchers": during,
                       "after_5s": after},
            "bytes_to_watchers": received[0], "attack_seconds": round(seconds, 1)}


def write_tables(path: Path, tables: int, bot_tables: int) -> None:
    conn = sqlite3.connect(path)
    conn.executescript("""
CREATE TABLE game_tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, config TEXT NOT NULL,
    seed INTEGER NOT NULL, host_hash TEXT NOT NULL, created REAL NOT NULL, finished REAL);
CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES game_tables(id), seat INTEGER NOT NULL,
    kind TEXT NOT NULL, bot TEXT, name TEXT, token_hash TEXT, PRIMARY KEY (table_id, seat));
CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES game_tables(id),
    number INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,
    created REAL NOT NULL, PRIMARY KEY (table_id, number));
PRAGMA user_version=1;
""")
    config = orjson.dumps({"board": DEFAULT_BOARD}).decode()
    now = time.time()
    rows: list[tuple[Any, ...]] = []
    seats: list[tuple[Any, ...]] = []
    for n in range(tables):
        table_id = f"t{n:07d}"
        rows.append((table_id, "sequence-cats", config, n, "0" * 64, now - 60 + n * 1e-4))
        seats.append((table_id, 0, "human", None, "Anna", f"{n:064x}"))
        if n < bot_tables:
            seats.append((table_id, 1, "bot", "random", None, None))
        else:
            seats.append((table_id, 1, "open", None, None, None))
    conn.executemany("INSERT INTO game_tables VALUES (?, ?, ?, ?, ?, ?, NULL)", rows)
    conn.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)", seats)
    conn.commit()
    conn.close()


async def startup(args: argparse.Namespace) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="gametable-bench-"))
    write_tables(data / "gametable.sqlite3", args.tables, args.bot_tables)
    size = (data / "gametable.sqlite3").stat().st_size
    server = Server(data, args.src, args.serve_option)
    ready, rss = server.ready_after, server.rss()
    await asyncio.sleep(2)
    settled = server.rss()
    server.stop()
    return {"tables": args.tables, "bot_tables": args.bot_tables,
            "database_mb": round(size / 1e6, 1), "seconds_to_first_answer": round(ready, 2),
            "rss_mb_at_first_answer": round(rss, 1), "rss_mb_2s_later": round(settled, 1)}


async def watchers(args: argparse.Namespace) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="gametable-bench-"))
    server = Server(data, args.src, args.serve_option)
    async with httpx.AsyncClient(base_url=server.url) as http:
        ids = []
        for _ in range(2):
            created = await http.post("/api/tables", json={
                "game": "sequence-cats", "name": "A",
                "seats": [{"kind": "human"}, {"kind": "human"}]})
            ids.append(created.json()["table"]["id"])
    base = f"ws://127.0.0.1:{server.port}/api/tables"
    received = [0]
    hold = asyncio.Event()
    welcomed = 0
    refused = 0
    gate = asyncio.Semaphore(50)
    rtts: list[float] = []
    done = asyncio.Event()

    async def pinger() -> None:
        async with websockets.connect(f"{base}/{ids[1]}/ws", max_size=None) as ws:
            await ws.send('{"type": "hello"}')
            for _ in range(2):  # welcome, state
                await ws.recv()
            n = 0
            while not done.is_set():
                n += 1
                sent = time.monotonic()
                await ws.send(json.dumps({"type": "ping", "id": n}))
                while json.loads(await ws.recv()).get("type") != "pong":
                    pass
                rtts.append(time.monotonic() - sent)
                await asyncio.sleep(0.02)

    async def watcher() -> None:
        nonlocal welcomed, refused
        async with gate:
            ws = await websockets.connect(f"{base}/{ids[0]}/ws", max_size=None,
                                          open_timeout=300)
            await ws.send('{"type": "hello"}')
            try:
                while True:
                    text = await ws.recv()
                    received[0] += len(text)
                    if '"welcome"' in text[:20]:
                        break
            except websockets.ConnectionClosed:
                refused += 1
                return
            welcomed += 1

        async def drain() -> None:
            async for text in ws:
                received[0] += len(text)
        task = asyncio.create_task(drain())
        await hold.wait()
        task.cancel()
        await ws.close()

    ping_task = asyncio.create_task(pinger())
    await asyncio.sleep(0.5)
    started = time.monotonic()
    tasks = [asyncio.create_task(watcher()) for _ in range(args.watchers)]
    while welcomed + refused < args.watchers:
        await asyncio.sleep(0.01)
    connected = time.monotonic() - started
    await asyncio.sleep(1)
    done.set()
    await ping_task
    hold.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    server.stop()
    rtts.sort()
    return {"watchers": args.watchers, "refused": refused,
            "seconds_to_welcome_all": round(connected, 2),
            "bytes_to_watchers": received[0], "pings": len(rtts),
            "other_table_ping_ms": {
                "p50": round(statistics.median(rtts) * 1000, 1),
                "p99": round(rtts[int(len(rtts) * 0.99) - 1] * 1000, 1),
                "max": round(rtts[-1] * 1000, 1)}}


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


async def slowloris(args: argparse.Namespace) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="gametable-bench-"))
    server = Server(data, args.src, args.serve_option)
    pid = server.process.pid
    before = open_files(pid)
    conns = []
    for _ in range(args.connections):
        conn = socket.create_connection(("127.0.0.1", server.port))
        conn.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n")
        conns.append(conn)
    await asyncio.sleep(1)
    during = open_files(pid)
    started = time.monotonic()
    answered = httpx.get(f"{server.url}/api/games", timeout=30).status_code
    answer_seconds = time.monotonic() - started
    await asyncio.sleep(args.wait)
    after = open_files(pid)
    closed = 0
    for conn in conns:
        conn.setblocking(False)
        try:
            closed += conn.recv(1) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        conn.close()
    server.stop()
    return {"connections": args.connections, "server_open_files": {
        "before": before, "with_half_requests": during, f"after_{args.wait:g}s": after},
        "closed_by_server": closed, "whole_request_meanwhile": answered,
        "its_seconds": round(answer_seconds, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("attack", choices=["oversize", "startup", "watchers", "slowloris"])
    parser.add_argument("--src", help="the src folder of the code to measure")
    parser.add_argument("--serve-option", action="append", default=[],
                        help="an option for gametable serve (repeat)")
    parser.add_argument("--posts", type=int, default=4)
    parser.add_argument("--megabytes", type=float, default=5.0)
    parser.add_argument("--watchers", type=int, default=None)
    parser.add_argument("--stalled", type=int, default=5)
    parser.add_argument("--tables", type=int, default=20_000)
    parser.add_argument("--bot-tables", type=int, default=100)
    parser.add_argument("--connections", type=int, default=3000)
    parser.add_argument("--wait", type=float, default=15.0)
    args = parser.parse_args()
    if args.watchers is None:
        args.watchers = 1000 if args.attack == "watchers" else 20
    run = {"oversize": oversize, "startup": startup, "watchers": watchers,
           "slowloris": slowloris}[args.attack]
    print(json.dumps(asyncio.run(run(args)), indent=1))


if __name__ == "__main__":
    main()
