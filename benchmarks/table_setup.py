"""Server CPU to set up and take down one table, apart from its actions.

Run: ``.venv/bin/python -m benchmarks.table_setup [--tables 500] [--seats 2]``

Starts ``gametable serve`` as ``benchmarks/server.py`` does (SQLite, fsynced), then, ten
at a time, does for each table what a game of the server benchmark does before its
first action and after its last: create the table with its first seat taken, join the
other seats (HTTP), connect a websocket client per seat, say ``hello`` and read the
``welcome`` and ``state`` messages, close. Prints the server's CPU time (user + system)
per table, and per request of the lobby's game list (``GET /api/games``, 200 requests
one after another). ``benchmarks/server.py`` counts this too in its CPU per action, spread over
the actions of each game; dividing the games it finished times this figure by its
actions tells how much of its CPU per action is table setup.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import httpx
import orjson
import websockets

from benchmarks import server as bench

LOBBY_REQUESTS = 200


async def set_up(base: str, http: httpx.AsyncClient) -> None:
    table, tokens = await bench.new_table(http)
    for token in tokens:
        async with websockets.connect(f"{base.replace('http', 'ws')}/api/tables/{table}/ws",
                                      max_size=None) as ws:
            await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
            await ws.recv()  # welcome
            await ws.recv()  # state


async def lobby(base: str, requests: int) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for _ in range(requests):
            (await http.get("/api/games")).raise_for_status()


async def run(base: str, tables: int) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for _ in range(tables // 10):
            await asyncio.gather(*(set_up(base, http) for _ in range(10)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seats", type=int, default=2)
    args = parser.parse_args()
    bench.SEATS = args.seats
    with tempfile.TemporaryDirectory() as data:
        port = bench.free_port()
        server = bench.start_server(Path(data), port)
        base = f"http://127.0.0.1:{port}"
        try:
            asyncio.run(run(base, 10))  # warm-up
            user, system = bench.cpu_seconds(server.pid)
            started = time.perf_counter()
            asyncio.run(run(base, args.tables))
            seconds = time.perf_counter() - started
            user_after, system_after = bench.cpu_seconds(server.pid)
            asyncio.run(lobby(base, 10))  # warm-up
            lobby_before = sum(bench.cpu_seconds(server.pid))
            asyncio.run(lobby(base, LOBBY_REQUESTS))
            lobby_cpu = (sum(bench.cpu_seconds(server.pid)) - lobby_before) / LOBBY_REQUESTS
        finally:
            server.terminate()
            server.wait(10)
    tables = args.tables // 10 * 10
    cpu = (user_after - user + system_after - system) / tables
    print(f"{tables} tables of {args.seats} seats set up and closed in {seconds:.1f} s")
    print(f"  server CPU per table   {cpu * 1e6:>10.0f} µs")
    print(f"  server CPU per GET /api/games {lobby_cpu * 1e6:>7.0f} µs")


if __name__ == "__main__":
    main()
