"""Server speed: accepted actions per second and action-to-update latency, under load.

Run: ``.venv/bin/python -m benchmarks.server [--game dixit --seats 12] [--tables 50]
[--seconds 20] [--think-ms 1000] [--database postgresql://…|local]``

Starts ``gametable serve`` (SQLite with ``synchronous=FULL``: every action is fsynced
before anyone hears of it; or PostgreSQL with ``--database``, ``local`` starting a
throwaway server on this machine as the tests do) on a free port with an empty data
folder. Then:

1. **Load**: ``--tables`` tables of ``--seats`` for ``--game`` (Sequence Cats for two by
   default, with ``--options``), each seat a websocket client on this machine playing a
   random legal move as soon as it may act, or after a random think time of
   ``--think-ms`` on average (people take seconds; without it the run measures the
   saturated server and load generator). A finished game is replaced by a new table. Counted
   over ``--seconds`` after a warm-up: accepted actions per second, and for each action
   the time from sending it to the moment the *last* client of that table has received
   the new state (p50, p99, max).
2. **Memory**: ``--open-tables`` tables, each with every seat connected and a few moves
   played, all kept open; then the server's resident memory (VmRSS).

Clients run in ``--client-processes`` processes (tables are split between them), so the
load generator is not the bottleneck on a small machine.

Several server processes (``gametable.server.cluster``): ``--processes 2 --redis local``
starts two ``gametable serve`` processes sharing a PostgreSQL database (``--database``,
``local`` when not given) and a Redis (``local``: a throwaway one on this machine). Each
table is created on process ``i mod N`` and its seats connect to processes in turn, so
most tables have clients on a process that does not own them (their frames are piped to
the owner). Load is measured as above, CPU summed over the server processes. With
``--failover``, ``--failover-tables`` tables of two people are created on the first
process, every seat connected through the second; the first is killed (SIGKILL) and each
client reconnects to the second until it is served again: the seconds from the kill to
the lease moving and to the last client being served.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

GAME = "sequence-cats"
OPTIONS: dict[str, Any] = {}
SEATS = 2
THINK_MS = 0.0


def start_server(data_dir: Path, port: int, database: str | None = None
                 ) -> subprocess.Popen[bytes]:
    more = ["--database", database] if database else []
    process = subprocess.Popen(
        [sys.executable, "-m", "gametable.cli", "serve", "--port", str(port), "--data-dir",
         str(data_dir), "--bot-delay", "0", "--no-rate-limits", "--max-waiting-tables", "0",
         "--max-connections-per-client", "0", *more],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def new_table(http: httpx.AsyncClient) -> tuple[str, list[str]]:
    created = (await http.post("/api/tables", json={
        "game": GAME, "config": OPTIONS, "name": "A",
        "seats": [{"kind": "human"}] * SEATS})).json()
    tokens = [created["token"]]
    for seat in range(1, SEATS):
        joined = (await http.post(f"/api/tables/{created['table']['id']}/join",
                                  json={"name": f"P{seat}"})).json()
        tokens.append(joined["token"])
    return created["table"]["id"], tokens


class Recorder:
    """Send times per (table, seat) and receive times per (table, version), inside one
    client process. A state's acting seat is read from its first event (``"seat"``), so
    that simultaneous actions (Dixit) are matched to the version that applied them."""

    def __init__(self, window: tuple[float, float]) -> None:
        self.window = window
        self.sent: dict[tuple[str, int], float] = {}
        self.received: dict[tuple[str, int], list[float]] = {}
        self.accepted = 0
        self.refusals = 0
        self.latencies: list[float] = []

    def on_send(self, table: str, seat: int) -> None:
        self.sent[(table, seat)] = time.perf_counter()

    def on_state(self, table: str, version: int, clients: int, actor: int | None) -> None:
        now = time.perf_counter()
        key = (table, version)
        times = self.received.setdefault(key, [])
        times.append(now)
        if len(times) < clients or actor is None:
            return
        del self.received[key]
        sent = self.sent.pop((table, actor), None)
        if sent is None or not self.window[0] <= sent <= self.window[1]:
            return
        self.accepted += 1
        self.latencies.append(max(times) - sent)


class SeatPlayer:
    """One seat's random player: answers each decision once, and decides again after a
    refusal (an action refused in a race would otherwise leave the table waiting)."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.latest: dict[str, Any] | None = None
        self.answered: Any = None  # others' states come in between: answer once
        self.refusals = 0

    def on_message(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The action to send after ``message``, or None."""
        if message["type"] == "error":
            self.refusals += 1
            self.answered = None
        elif message["type"] == "state":
            self.latest = message
            if any(event.get("seat") == self.seat for event in message["events"]):
                self.answered = None  # our own action was applied
        latest = self.latest
        if latest is None or "outcome" in latest or not latest["legal"] \
                or latest["legal"] == self.answered:
            return None
        self.answered = latest["legal"]
        return {"type": "action", "version": latest["version"],
                "action": self.rng.choice(latest["legal"])}


async def seat_client(url: str, token: str, seat: int, table: str, recorder: Recorder,
                      rng: random.Random, stop_at: float) -> bool:
    """Play one seat until the game ends (True) or time is up (False).

    With ``THINK_MS`` each action is sent after a random think time (exponential, that
    mean, in milliseconds) while the seat keeps reading, so that waiting never delays
    the moment a state is seen."""
    player = SeatPlayer(seat, rng)
    thinking: set[asyncio.Task[None]] = set()

    async def send(ws: Any, action: dict[str, Any], delay: float) -> None:
        await asyncio.sleep(delay)
        recorder.on_send(table, seat)
        await ws.send(orjson.dumps(action).decode())

    async with websockets.connect(url, max_size=None) as ws:
        await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
        while True:
            # The other seats may stop first: never wait for them past the end.
            try:
                text = await asyncio.wait_for(
                    ws.recv(), max(0.05, stop_at + 0.5 - time.perf_counter()))
            except TimeoutError:
                recorder.refusals += player.refusals
                for task in thinking:
                    task.cancel()
                return False
            message = orjson.loads(text)
            if message["type"] == "state" and message["version"]:
                events = message["events"]
                recorder.on_state(table, message["version"], SEATS,
                                  events[0].get("seat") if events else None)
            if "outcome" in message or time.perf_counter() > stop_at:
                recorder.refusals += player.refusals
                for task in thinking:
                    task.cancel()
                return "outcome" in message
            action = player.on_message(message)
            if action is None:
                continue
            if THINK_MS:
                task = asyncio.create_task(send(ws, action, rng.expovariate(1000 / THINK_MS)))
                thinking.add(task)
                task.add_done_callback(thinking.discard)
            else:
                await send(ws, action, 0)


async def table_loop(base: str, http: httpx.AsyncClient, recorder: Recorder, seed: int,
                     stop_at: float) -> int:
    """Keep one table busy until ``stop_at``; returns the games finished."""
    rng = random.Random(seed)
    games = 0
    while time.perf_counter() < stop_at:
        table, tokens = await new_table(http)
        url = f"{base.replace('http', 'ws')}/api/tables/{table}/ws"
        done = await asyncio.gather(*(seat_client(url, token, seat, table, recorder, rng,
                                                  stop_at)
                                      for seat, token in enumerate(tokens)))
        games += all(done)
    return games


def load_worker(base: str, tables: int, warmup: float, seconds: float, seed: int,
                out: Any) -> None:
    async def run() -> dict[str, Any]:
        start = time.perf_counter()
        window = (start + warmup, start + warmup + seconds)
        recorder = Recorder(window)
        limits = httpx.Limits(max_connections=tables)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
            games = await asyncio.gather(*(table_loop(base, http, recorder, seed + i,
                                                      window[1])
                                           for i in range(tables)))
        return {"accepted": recorder.accepted, "latencies": recorder.latencies,
                "games": sum(games), "refusals": recorder.refusals}

    out.put(asyncio.run(run()))


def cpu_seconds(pid: int) -> tuple[float, float]:
    """(user, system) CPU time of a process so far, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def measure_load(base: str, pid: int, tables: int, processes: int, warmup: float,
                 seconds: float) -> dict[str, Any]:
    queue: multiprocessing.Queue[dict[str, Any]] = multiprocessing.Queue()
    share = [tables // processes + (i < tables % processes) for i in range(processes)]
    workers = [multiprocessing.Process(target=load_worker,
                                       args=(base, n, warmup, seconds, 1000 * i, queue))
               for i, n in enumerate(share)]
    for worker in workers:
        worker.start()
    time.sleep(warmup)
    user_before, system_before = cpu_seconds(pid)
    time.sleep(seconds)
    user_after, system_after = cpu_seconds(pid)
    server_cpu = user_after - user_before + system_after - system_before
    system_share = (system_after - system_before) / max(server_cpu, 1e-9)
    parts = [queue.get() for _ in workers]
    for worker in workers:
        worker.join()
    return {
        "tables": tables, "client_processes": processes,
        **summarise(parts, seconds, server_cpu),
        "server_cpu_share": round(server_cpu / seconds, 2),
        "server_cpu_in_kernel": round(system_share, 2),
    }


def summarise(parts: list[dict[str, Any]], seconds: float, server_cpu: float
              ) -> dict[str, Any]:
    """The load figures from the client processes' ``parts``: actions a second, latency
    percentiles (milliseconds), games, refusals and server CPU per action (µs)."""
    latencies = sorted(x for part in parts for x in part["latencies"])
    accepted = sum(part["accepted"] for part in parts)

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    return {
        "seconds": seconds,
        "actions_per_second": round(accepted / seconds, 1),
        "latency_ms": {"p50": round(pct(0.50), 2), "p99": round(pct(0.99), 2),
                       "max": round(latencies[-1] * 1000, 2),
                       "mean": round(statistics.fmean(latencies) * 1000, 2)},
        "games_finished": sum(part["games"] for part in parts),
        "refused_actions": sum(part["refusals"] for part in parts),
        "server_cpu_us_per_action": round(server_cpu / max(accepted, 1) * 1e6, 1),
    }


def print_load(load: dict[str, Any]) -> None:
    """Print the load figures every deployment shares (see :func:`summarise`)."""
    print(f"  accepted actions/s     {load['actions_per_second']:>10,.0f}")
    lat = load["latency_ms"]
    print(f"  action → last update   p50 {lat['p50']:.1f} ms   p99 {lat['p99']:.1f} ms   "
          f"max {lat['max']:.1f} ms")
    print(f"  games finished         {load['games_finished']:>10}")
    print(f"  refused actions        {load['refused_actions']:>10} (races between seats)")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure_memory(base: str, pid: int, tables: int, moves: int) -> dict[str, Any]:
    async def run() -> float:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            made = await asyncio.gather(*(new_table(http) for _ in range(tables)))
        sockets = []
        for table, tokens in made:
            for seat, token in enumerate(tokens):
                ws = await websockets.connect(f"{base.replace('http', 'ws')}/api/tables/"
                                              f"{table}/ws", max_size=None)
                await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
                sockets.append((seat, ws))

        async def play(ws: Any, seat: int, rng: random.Random) -> None:
            player = SeatPlayer(seat, rng)
            async for text in ws:
                message = orjson.loads(text)
                if message["type"] == "state" and (message["version"] >= moves
                                                   or "outcome" in message):
                    return
                action = player.on_message(message)
                if action is not None:
                    await ws.send(orjson.dumps(action).decode())

        await asyncio.gather(*(play(ws, seat, random.Random(i))
                               for i, (seat, ws) in enumerate(sockets)))
        await asyncio.sleep(1)
        rss = rss_mb(pid)
        await asyncio.gather(*(ws.close() for _, ws in sockets))
        return rss

    before = rss_mb(pid)
    after = asyncio.run(run())
    return {"open_tables": tables, "connections": SEATS * tables, "moves_per_table": moves,
            "rss_mb_idle": round(before, 1), "rss_mb": round(after, 1)}


def main() -> None:
    global GAME, OPTIONS, SEATS, THINK_MS  # read by the forked client processes
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default=GAME, help="the game played at every table")
    parser.add_argument("--options", default="{}", help="the tables' options, as JSON")
    parser.add_argument("--seats", type=int, default=2, help="websocket players per table")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--think-ms", type=float, default=0,
                        help="mean think time before each action, in milliseconds "
                             "(0: act at once, the server's saturation)")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--client-processes", type=int, default=1)
    parser.add_argument("--open-tables", type=int, default=500)
    parser.add_argument("--moves", type=int, default=20, help="moves per open table")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--database", default=None,
                        help="a PostgreSQL URL for the server's storage, or 'local' for a "
                        "throwaway PostgreSQL server on this machine (default: SQLite)")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes sharing the tables (2 or more: needs "
                        "PostgreSQL and --redis)")
    parser.add_argument("--redis", default="local",
                        help="with --processes: a Redis URL, or 'local' for a throwaway "
                        "Redis on this machine")
    parser.add_argument("--failover", action="store_true",
                        help="with --processes: also measure the takeover after kill -9")
    parser.add_argument("--failover-tables", type=int, default=20)
    args = parser.parse_args()
    GAME, OPTIONS, SEATS = args.game, json.loads(args.options), args.seats
    THINK_MS = args.think_ms
    if args.processes > 1 or args.failover:
        cluster_main(args)
        return
    with tempfile.TemporaryDirectory() as data, contextlib.ExitStack() as stack:
        database = args.database
        if database == "local":
            from tests.services import postgres_server  # noqa: PLC0415

            database = stack.enter_context(postgres_server()).database()
        port = free_port()
        server = start_server(Path(data), port, database)
        base = f"http://127.0.0.1:{port}"
        try:
            load = measure_load(base, server.pid, args.tables, args.client_processes,
                                args.warmup, args.seconds)
            memory = measure_memory(base, server.pid, args.open_tables, args.moves)
            sqlite = Path(data) / "gametable.sqlite3"
            size = os.path.getsize(sqlite) if sqlite.exists() else None
        finally:
            server.terminate()
            server.wait(10)
    result = {"load": load, "memory": memory, "cpus": os.cpu_count(),
              "storage": "postgresql" if database else "sqlite", "database_bytes": size}
    if args.json:
        print(json.dumps(result))
        return
    print(f"game: {GAME} {json.dumps(OPTIONS)}, storage: {result['storage']}")
    pace = f"think time {THINK_MS:.0f} ms on average" if THINK_MS else "no think time"
    print(f"load: {load['tables']} tables × {SEATS} websocket seats, {load['seconds']:.0f} s, "
          f"{pace}, {load['client_processes']} client process(es)")
    print_load(load)
    print(f"  server CPU per action  {load['server_cpu_us_per_action']:>10.0f} µs "
          f"({load['server_cpu_share']:.0%} of a core, {load['server_cpu_in_kernel']:.0%} "
          "of it in the kernel)")
    print(f"memory: {memory['open_tables']} open tables, {memory['connections']} connections, "
          f"{memory['moves_per_table']} moves each")
    print(f"  server RSS             {memory['rss_mb']:>10.1f} MB "
          f"(idle before: {memory['rss_mb_idle']:.1f} MB)")


# -- several server processes (gametable.server.cluster) ----------------------------------


def start_cluster_server(data_dir: Path, port: int, database: str, redis_url: str
                         ) -> subprocess.Popen[bytes]:
    """``gametable serve`` as one process of a cluster (same options as
    :func:`start_server`, plus ``--redis``)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "gametable.cli", "serve", "--port", str(port), "--data-dir",
         str(data_dir), "--bot-delay", "0", "--no-rate-limits", "--database", database,
         "--redis", redis_url, "--max-connections-per-client", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).raise_for_status()
            return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("a server process did not start")


async def cluster_table_loop(bases: list[str], https: list[httpx.AsyncClient],
                             recorder: Recorder, seed: int, stop_at: float) -> int:
    """:func:`table_loop` over several processes: table ``seed`` is created on process
    ``seed mod N``, its seat ``s`` plays through process ``(seed + s) mod N``."""
    rng = random.Random(seed)
    games = 0
    count = len(bases)
    while time.perf_counter() < stop_at:
        table, tokens = await new_table(https[seed % count])
        urls = [f"{bases[(seed + seat) % count].replace('http', 'ws')}/api/tables/{table}/ws"
                for seat in range(len(tokens))]
        done = await asyncio.gather(*(seat_client(urls[seat], token, seat, table, recorder,
                                                  rng, stop_at)
                                      for seat, token in enumerate(tokens)))
        games += all(done)
    return games


def cluster_load_worker(bases: list[str], tables: int, warmup: float, seconds: float,
                        seed: int, out: Any) -> None:
    async def run() -> dict[str, Any]:
        start = time.perf_counter()
        window = (start + warmup, start + warmup + seconds)
        recorder = Recorder(window)
        limits = httpx.Limits(max_connections=tables)
        async with contextlib.AsyncExitStack() as stack:
            https = [await stack.enter_async_context(
                httpx.AsyncClient(base_url=base, timeout=60, limits=limits))
                for base in bases]
            games = await asyncio.gather(*(cluster_table_loop(bases, https, recorder,
                                                              seed + i, window[1])
                                           for i in range(tables)))
        return {"accepted": recorder.accepted, "latencies": recorder.latencies,
                "games": sum(games), "refusals": recorder.refusals}

    out.put(asyncio.run(run()))


def measure_cluster_load(bases: list[str], pids: list[int], tables: int, processes: int,
                         warmup: float, seconds: float) -> dict[str, Any]:
    """:func:`measure_load` with the tables spread over several server processes; CPU
    is summed over them."""
    queue: multiprocessing.Queue[dict[str, Any]] = multiprocessing.Queue()
    share = [tables // processes + (i < tables % processes) for i in range(processes)]
    workers = [multiprocessing.Process(target=cluster_load_worker,
                                       args=(bases, n, warmup, seconds, 1000 * i, queue))
               for i, n in enumerate(share)]
    for worker in workers:
        worker.start()
    time.sleep(warmup)
    before = [cpu_seconds(pid) for pid in pids]
    time.sleep(seconds)
    after = [cpu_seconds(pid) for pid in pids]
    per_process = [a[0] - b[0] + a[1] - b[1] for a, b in zip(after, before, strict=True)]
    server_cpu = sum(per_process)
    parts = [queue.get() for _ in workers]
    for worker in workers:
        worker.join()
    return {
        "tables": tables, "server_processes": len(pids), "client_processes": processes,
        **summarise(parts, seconds, server_cpu),
        "server_cpu_share_per_process": [round(cpu / seconds, 2) for cpu in per_process],
    }


def measure_failover(bases: list[str], victim: subprocess.Popen[bytes], redis_url: str,
                     tables: int) -> dict[str, Any]:
    """Kill the first process (SIGKILL) while ``tables`` tables it owns have both seats
    connected through the second; time the lease moving and every client being served
    again (welcome and state), then check each table takes an action."""
    import redis  # noqa: PLC0415

    from gametable.server.cluster import OWNER  # noqa: PLC0415

    store = redis.Redis.from_url(redis_url, decode_responses=True)
    owner, other = bases
    ws_base = other.replace("http", "ws")

    async def reconnect(table: str, token: str, killed: float) -> tuple[float, Any, Any]:
        while True:
            try:
                ws = await websockets.connect(f"{ws_base}/api/tables/{table}/ws",
                                              max_size=None, proxy=None)
                await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
                while True:
                    message = orjson.loads(await ws.recv())
                    if message["type"] == "state":
                        return time.perf_counter() - killed, ws, message
            except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake):
                await asyncio.sleep(0.1)

    async def run() -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=owner, timeout=60) as http:
            made = [await new_table(http) for _ in range(tables)]
        sockets = []
        for table, tokens in made:
            for token in tokens:
                ws = await websockets.connect(f"{ws_base}/api/tables/{table}/ws",
                                              max_size=None, proxy=None)
                await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
                sockets.append(ws)
        await asyncio.sleep(1)
        killed = time.perf_counter()
        victim.kill()
        moved: dict[str, float] = {}

        async def watch_leases() -> None:
            while len(moved) < len(made):
                for table, _ in made:
                    value = store.get(OWNER + table)
                    if table not in moved and value and str(value).split(" ", 1)[1] == other:
                        moved[table] = time.perf_counter() - killed
                await asyncio.sleep(0.02)

        results = await asyncio.gather(
            watch_leases(),
            *(reconnect(table, token, killed) for table, tokens in made for token in tokens))
        served = [seconds for seconds, _, _ in results[1:]]
        # Each table goes on: the seat to act plays a legal move, and it is accepted.
        acted = 0
        for _seconds, ws, state in results[1:]:
            if state["legal"]:
                await ws.send(orjson.dumps({"type": "action", "version": state["version"],
                                            "action": state["legal"][0]}).decode())
                while True:
                    message = orjson.loads(await ws.recv())
                    if message["type"] in ("state", "error"):
                        acted += message["type"] == "state"
                        break
        for _seconds, ws, _state in results[1:]:
            await ws.close()
        for ws in sockets:
            with contextlib.suppress(Exception):
                await ws.close()
        return {"tables": tables, "clients": len(served),
                "lease_moved_s": {"median": round(statistics.median(moved.values()), 2),
                                  "max": round(max(moved.values()), 2)},
                "served_again_s": {"median": round(statistics.median(served), 2),
                                   "max": round(max(served), 2)},
                "tables_acting_after": acted}

    return asyncio.run(run())


def cluster_main(args: argparse.Namespace) -> None:
    """Run the load (and with ``--failover`` the failover) measurement on
    ``--processes`` server processes sharing PostgreSQL and Redis."""
    processes = max(2, args.processes)
    with tempfile.TemporaryDirectory() as data, contextlib.ExitStack() as stack:
        database = args.database
        if database in (None, "local"):
            from tests.services import postgres_server  # noqa: PLC0415

            database = stack.enter_context(postgres_server()).database()
        redis_url = args.redis
        if redis_url == "local":
            from tests.services import redis_server  # noqa: PLC0415

            redis_url = stack.enter_context(redis_server()).url
        ports = [free_port() for _ in range(processes)]
        servers = [start_cluster_server(Path(data), port, database, redis_url)
                   for port in ports]
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        try:
            load = measure_cluster_load(bases, [server.pid for server in servers],
                                        args.tables, args.client_processes, args.warmup,
                                        args.seconds)
            failover = (measure_failover(bases[:2], servers[0], redis_url,
                                         args.failover_tables) if args.failover else None)
        finally:
            for server in servers:
                if server.poll() is None:
                    server.terminate()
                    server.wait(15)
    result = {"load": load, "failover": failover, "cpus": os.cpu_count(),
              "storage": "postgresql", "processes": processes}
    if args.json:
        print(json.dumps(result))
        return
    print(f"game: {GAME} {json.dumps(OPTIONS)}, storage: postgresql, "
          f"{processes} server processes sharing Redis")
    pace = f"think time {THINK_MS:.0f} ms on average" if THINK_MS else "no think time"
    print(f"load: {load['tables']} tables × {SEATS} websocket seats spread over the "
          f"processes, {load['seconds']:.0f} s, {pace}")
    print_load(load)
    shares = ", ".join(f"{share:.0%}" for share in load["server_cpu_share_per_process"])
    print(f"  server CPU per action  {load['server_cpu_us_per_action']:>10.0f} µs "
          f"(all processes; of a core each: {shares})")
    if failover is not None:
        print(f"failover: kill -9 of the owner of {failover['tables']} tables "
              f"({failover['clients']} clients, connected through the other process)")
        print(f"  leases moved after     median {failover['lease_moved_s']['median']:.2f} s"
              f"   max {failover['lease_moved_s']['max']:.2f} s")
        print(f"  clients served again   median {failover['served_again_s']['median']:.2f} s"
              f"   max {failover['served_again_s']['max']:.2f} s")
        print(f"  tables acting after    {failover['tables_acting_after']:>10} "
              f"of {failover['tables']}")


if __name__ == "__main__":
    main()
