"""Fuzz the table websocket of a real server with many messages, and count the answers.

Run: ``.venv/bin/python -m tools.fuzz_socket [--messages 1000000] [--tables 6]
[--seconds 1800] [--seed 0] [--url http://127.0.0.1:8000]``

Without ``--url`` it starts ``gametable serve`` on a free port of this machine (an empty
data folder, no per-client rate limits, instant computer players) and reads its log.
It creates ``--tables`` tables (Sequence Cats, Triominos and Dixit in turn), takes every
seat, and opens a connection per seat, one that watches and one with a wrong token per
table. Each connection then sends its share of ``--messages``: malformed JSON, binary
frames, wrong types, huge numbers, unknown message types, oversized messages, chat
(too long, too fast), random actions, out-of-turn actions (another seat's legal ones),
repeated ``hello``s and now and then a legal action, so the games move on. A dropped
connection is opened again.

Prints one JSON object: messages sent, answers by type, refusals by code, connections
closed by code and reason, and server errors: connections closed with code 1011,
answers of 5xx, and tracebacks or ``ERROR`` lines in the server's log (target: 0).
Stops by itself after ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

WINDOW = 100
"""Messages a connection may have sent beyond those answered: the server reads 200 a
second per connection (the rest wait in the socket), so flooding further would only
delay the websocket's keepalive pongs behind the backlog until it times out (1011)."""
SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("sequence-cats", 2, {}), ("triominos", 2, {}), ("dixit", 3, {}),
]
HUGE = [10**30, -(10**30), 2**63, 1e308, -1e308, 10**400]


@dataclass
class Tally:
    """What was sent and what came back."""

    sent: int = 0
    answers: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    closes: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    http_errors: int = 0


@dataclass
class Seat:
    """One connection's view: what it may do, and what others may (for out of turn)."""

    table: str
    token: str | None
    legal: list[Any] = field(default_factory=list)
    version: int = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fuzz_message(rng: random.Random, seat: Seat, others: list[Seat]) -> str | bytes:
    """One message to send, drawn from the mix described above."""
    pick = rng.random()
    if pick < 0.08:  # not JSON at all
        return rng.choice(["{", "}", "[1,", '{"type": "act', "nul", "\x00\xff", "",
                           "'single'", '{"type": "action", "action": {"type":}}'])
    if pick < 0.12:
        return bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 64)))
    if pick < 0.22:  # JSON, but not a message
        return json.dumps(rng.choice([[], 1, "hello", None, {"type": 5}, {"type": None},
                                      {"type": ["action"]}, {"no": "type"}]))
    if pick < 0.30:
        return json.dumps({"type": rng.choice(["act", "ACTION", "hello ", "pong", "state",
                                               "welcome", "error", "x" * 200]),
                           "id": rng.randint(0, 99)})
    if pick < 0.40:  # huge numbers and wrong types in the right places
        return json.dumps({"type": "action", "version": rng.choice([*HUGE, "1", 1.5, []]),
                           "action": {"type": rng.choice(["play", "place", "draw", "vote"]),
                                      "space": rng.choice(HUGE), "card": rng.choice(HUGE),
                                      "tile": [rng.choice(HUGE)]}},
                          default=str) if rng.random() < 0.5 else (
            '{"type": "action", "version": 1' + "0" * 400 + ', "action": {}}')
    if pick < 0.50:  # random actions
        return json.dumps({"type": "action", "action": random_value(rng, 3),
                           "id": random_value(rng, 1)})
    if pick < 0.62:  # another seat's legal action: out of turn, or not ours
        other = rng.choice(others)
        action = rng.choice(other.legal) if other.legal else {"type": "pass"}
        return json.dumps({"type": "action", "action": action, "version": other.version})
    if pick < 0.70 and seat.legal:  # a legal action, so the game goes on
        return json.dumps({"type": "action", "action": rng.choice(seat.legal),
                           "version": seat.version, "id": seat.version})
    if pick < 0.78:
        text = rng.choice(["hi", "", " ", "x" * 400, "\u202e\u0000", 5, None])
        return json.dumps({"type": "chat", "text": text})
    if pick < 0.82:
        return json.dumps({"type": "hello", "token": rng.choice([seat.token, "x", 5, None])})
    if pick < 0.86:
        return json.dumps({"type": "chat", "text": "y" * rng.choice([20_000, 100_000])})
    if pick < 0.88:
        return "[" * 5000 + "]" * 5000
    return json.dumps({"type": "ping", "id": random_value(rng, 2)})


def random_value(rng: random.Random, depth: int) -> Any:
    kind = rng.randrange(7 if depth > 0 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 1, 7, rng.randint(-(10**9), 10**9), 2**64, 1e300])
    if kind == 3:
        return rng.choice(["", "play", "A1", "purrr", "meow", "é", "\u0000", "x" * 50])
    if kind == 4:
        return rng.random()
    if kind == 5:
        return [random_value(rng, depth - 1) for _ in range(rng.randrange(4))]
    keys = ["type", "card", "space", "tile", "slot", "clue", "vote", "seat", "rotation",
            "position", "giver", "x"]
    return {rng.choice(keys): random_value(rng, depth - 1) for _ in range(rng.randrange(5))}


async def connection(url: str, seat: Seat, others: list[Seat], quota: int, tally: Tally,
                     rng: random.Random, deadline: float) -> None:
    """Send ``quota`` messages over one connection (opened again when dropped)."""
    sent = 0
    while sent < quota and time.monotonic() < deadline:
        try:
            async with websockets.connect(url, max_size=None, open_timeout=30,
                                          close_timeout=5) as ws:
                await ws.send(json.dumps({"type": "hello", "token": seat.token}
                                         if seat.token else {"type": "hello"}))
                tally.sent += 1
                sent += 1
                here = 1
                received = [0]
                reader = asyncio.create_task(read(ws, seat, tally, received))
                try:
                    while sent < quota and time.monotonic() < deadline:
                        while here - received[0] > WINDOW and not reader.done():
                            await asyncio.sleep(0.005)
                        await ws.send(fuzz_message(rng, seat, others))
                        tally.sent += 1
                        sent += 1
                        here += 1
                finally:
                    await ws.close()
                    await asyncio.wait_for(reader, 10)
        except (websockets.ConnectionClosed, OSError, TimeoutError) as error:
            tally.closes[close_of(error)] += 1
            tally.reconnects += 1
            await asyncio.sleep(0.1)


def close_of(error: Exception) -> str:
    """``"code reason"`` of a closed connection (who closed it, and why)."""
    if isinstance(error, websockets.ConnectionClosed):
        frame = error.rcvd or error.sent
        side = "server" if error.rcvd is not None else "client"
        if frame is not None:
            return f"{frame.code} {frame.reason} ({side})".strip()
    return type(error).__name__


async def read(ws: Any, seat: Seat, tally: Tally, received: list[int]) -> None:
    try:
        async for text in ws:
            received[0] += 1
            message = json.loads(text)
            kind = message.get("type", "?")
            tally.answers[kind] += 1
            if kind == "error":
                tally.refusals[message["code"]] += 1
            elif kind == "state":
                seat.legal, seat.version = message["legal"], message["version"]
    except websockets.ConnectionClosed as closed:
        if closed.rcvd is not None and closed.rcvd.code != 1000:
            tally.closes[close_of(closed)] += 1


async def setup_tables(base: str, count: int, tally: Tally) -> list[list[Seat]]:
    tables: list[list[Seat]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for index in range(count):
            game, seats, options = SETUPS[index % len(SETUPS)]
            created = await http.post("/api/tables", json={
                "game": game, "config": options, "name": "P1",
                "seats": [{"kind": "human"}] * seats})
            if created.status_code >= 500:
                tally.http_errors += 1
            body = created.json()
            table_id = body["table"]["id"]
            tokens: list[str | None] = [body["token"]]
            for seat in range(1, seats):
                joined = await http.post(f"/api/tables/{table_id}/join",
                                         json={"name": f"P{seat + 1}"})
                if joined.status_code >= 500:
                    tally.http_errors += 1
                tokens.append(joined.json()["token"])
            tokens += [None, "not-a-token"]  # a watcher, a wrong token
            tables.append([Seat(table_id, token) for token in tokens])
    return tables


async def fuzz(base: str, messages: int, tables: int, seconds: float, seed: int) -> Tally:
    tally = Tally()
    layout = await setup_tables(base, tables, tally)
    seats = [(seat, group) for group in layout for seat in group]
    quota = messages // len(seats)
    ws_base = base.replace("http", "ws", 1)
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(
        connection(f"{ws_base}/api/tables/{seat.table}/ws", seat, group,
                   quota + (1 if n < messages % len(seats) else 0), tally,
                   random.Random(seed * 1000 + n), deadline)
        for n, (seat, group) in enumerate(seats)))
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=1800.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--url", help="a running server (default: start one here)")
    args = parser.parse_args()
    process = None
    log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)  # noqa: SIM115
    base = args.url
    if base is None:
        port = free_port()
        data = tempfile.mkdtemp(prefix="gametable-fuzz-")
        process = subprocess.Popen(
            [sys.executable, "-m", "gametable.cli", "serve", "--port", str(port),
             "--data-dir", data, "--bot-delay", "0", "--no-rate-limits"],
            stdout=subprocess.DEVNULL, stderr=log)
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                httpx.get(f"{base}/api/games", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
    started = time.monotonic()
    try:
        tally = asyncio.run(fuzz(base, args.messages, args.tables, args.seconds, args.seed))
    finally:
        if process is not None:
            process.terminate()
            process.wait(30)
    elapsed = time.monotonic() - started
    text = Path(log.name).read_text() if process is not None else ""
    tracebacks = text.count("Traceback")
    error_lines = sum(1 for line in text.splitlines() if " ERROR " in line)
    server_errors = (sum(n for close, n in tally.closes.items() if close.startswith("1011"))
                     + tally.http_errors + tracebacks + error_lines)
    print(json.dumps({
        "messages_sent": tally.sent, "seconds": round(elapsed, 1),
        "messages_per_second": round(tally.sent / elapsed),
        "answers": dict(tally.answers.most_common()),
        "refusals": dict(tally.refusals.most_common()),
        "closes": dict(tally.closes.most_common()), "reconnects": tally.reconnects,
        "server_errors": server_errors, "tracebacks": tracebacks,
        "error_log_lines": error_lines, "server_log": log.name if process else None,
    }, indent=1))


if __name__ == "__main__":
    main()
