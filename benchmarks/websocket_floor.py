"""The websocket layer's own cost: server CPU per "action" of a bare ASGI application.

Run: ``.venv/bin/python -m benchmarks.websocket_floor [--pairs 50] [--seconds 15]
[--setups 500]``

Starts uvicorn as ``gametable serve`` configures it (uvloop, httptools, the
``websockets`` sans-I/O protocol, no compression) on an application that does nothing
but what every action costs the websocket layer: it receives one small frame and sends
a 1.3 KB text frame to both sockets of its "table" (the size of a Sequence Cats
``state`` message). No rules, views, storage or HTTP requests. The same kind of load as
``benchmarks/server.py`` (``--pairs`` tables of two clients, no think time, the clients
taking turns) then measures actions a second and the server's CPU per action (user and
kernel time of its process, in microseconds). This is the floor under
``benchmarks/server.py``'s CPU per action: what the server stack costs before any
gametable code runs. Then ``--setups`` websocket connections opened and closed, and as
many HTTP requests, one after another: the stack's own share of a table's set-up.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

PAD = "x" * 1300
_tables: dict[str, list[Any]] = {}


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The bare application: every frame received goes, 1.3 KB larger, to both sockets
    of the path's table; an HTTP request is answered ``ok``."""
    if scope["type"] == "http":
        await receive()
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"ok"})
        return
    if scope["type"] != "websocket":
        return
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    group = _tables.setdefault(scope["path"], [])
    group.append(send)
    try:
        while True:
            event = await receive()
            if event["type"] != "websocket.receive":
                return
            number = orjson.loads(event["text"])["v"]
            text = orjson.dumps({"type": "state", "version": number, "pad": PAD}).decode()
            for peer in list(group):
                await peer({"type": "websocket.send", "text": text})
    finally:
        group.remove(send)


def cpu_seconds(pid: int) -> float:
    """User plus kernel CPU seconds of process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def load(port: int, pairs: int, seconds: float, pid: int) -> tuple[float, float]:
    """``(actions per second, server CPU µs per action)`` under ``pairs`` tables."""
    count = 0

    async def table(number: int) -> None:
        nonlocal count
        url = f"ws://127.0.0.1:{port}/t{number}"
        first = await websockets.connect(url, compression=None)
        second = await websockets.connect(url, compression=None)
        await asyncio.sleep(0.5)
        version = 0
        while True:
            sender = (first, second)[version % 2]
            await sender.send(orjson.dumps({"v": version}).decode())
            await first.recv()
            await second.recv()
            version += 1
            count += 1

    tasks = [asyncio.create_task(table(n)) for n in range(pairs)]
    await asyncio.sleep(2.0)
    cpu, done, started = cpu_seconds(pid), count, time.perf_counter()
    await asyncio.sleep(seconds)
    cpu, done = cpu_seconds(pid) - cpu, count - done
    elapsed = time.perf_counter() - started
    for task in tasks:
        task.cancel()
    return done / elapsed, cpu / max(done, 1) * 1e6


async def setup_costs(port: int, count: int, pid: int) -> tuple[float, float]:
    """``(server CPU µs per websocket connect and close, per HTTP GET)``, ``count`` of
    each one after another: what the stack costs a table's set-up before any gametable
    code runs (``benchmarks/table_setup.py`` measures the whole)."""
    async def connect() -> None:
        async with websockets.connect(f"ws://127.0.0.1:{port}/setup", compression=None):
            pass

    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
        async def get() -> None:
            (await http.get("/")).raise_for_status()

        costs = []
        for step in (connect, get):
            for _ in range(20):  # warm-up
                await step()
            before = cpu_seconds(pid)
            for _ in range(count):
                await step()
            costs.append((cpu_seconds(pid) - before) / count * 1e6)
    return costs[0], costs[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--setups", type=int, default=500,
                        help="websocket handshakes and HTTP requests timed after the load")
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "benchmarks.websocket_floor:app", "--port",
         str(port), "--loop", "uvloop", "--http", "httptools", "--ws", "websockets-sansio",
         "--ws-per-message-deflate", "false", "--log-level", "warning"],
        cwd=Path(__file__).resolve().parent.parent)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        rate, cpu = asyncio.run(load(port, args.pairs, args.seconds, server.pid))
        handshake, request = asyncio.run(setup_costs(port, args.setups, server.pid))
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"bare uvicorn websocket application, {args.pairs} tables × 2 clients, "
          f"{args.seconds:.0f} s")
    print(f"  actions/s {rate:,.0f}")
    print(f"  server CPU per action {cpu:.1f} µs (one frame in, two 1.3 KB frames out)")
    print(f"  server CPU per websocket connect and close {handshake:.0f} µs, "
          f"per HTTP GET {request:.0f} µs ({args.setups} of each, one after another)")


if __name__ == "__main__":
    main()
