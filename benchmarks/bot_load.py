"""Many tables of ``hard`` computer players in one server process: how often each
moves, and whether the event loop's own thread pool (storage reads, the caps' counts,
``/readyz``) still answers at once.

Run: ``.venv/bin/python -m benchmarks.bot_load [--tables 24] [--seconds 20]
[--threads 2 4 8] [--game dixit --seats 6]``

For each decision-pool size in ``--threads``, a :class:`~gametable.server.tables.
TableManager` on a fresh SQLite database seats ``--tables`` tables of ``--game`` (by
default two-seat Sequence Cats tables, ``--seats``) of ``hard`` players (Sequence Cats:
half a second of thought a move) with the default bot delay, lets
them play ``--seconds``, and prints the seconds per move at each table (median and
slowest), the decisions made, and how long a call on the event loop's default pool took
(median and slowest of one a second), and how late the event loop woke from a 20 ms
sleep (median, 99th percentile, slowest: every message to every client waits as long).
A searching player thinks for a set time, so a bigger pool makes more moves of less
thought each; a decision queued for a thread waits. The server uses
``gametable.server.deciding.decider_threads()``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from gametable.server.caps import Caps
from gametable.server.deciding import Deciders, decider_threads
from gametable.server.storage import SQLiteStorage
from gametable.server.tables import SeatRequest, TableManager


async def loop_lag(lags: list[float], nap: float = 0.02) -> None:
    """Append, until cancelled, how much later than asked (seconds) each ``nap`` ends."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(nap)
        lags.append(loop.time() - asked - nap)


def percentile(values: list[float], share: float) -> float:
    """The value ``share`` (0–1) of the way up ``values`` sorted."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def measure(tables: int, seconds: float, threads: int, game: str = "sequence-cats",
                  seats: int = 2) -> dict[str, float]:
    """One run: figures as printed (seconds)."""
    with tempfile.TemporaryDirectory() as folder:
        storage = SQLiteStorage(Path(folder) / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, caps=Caps(bot_tables_per_client=None, bot_tables=None))
        manager.deciders = Deciders(threads)
        try:
            made = [(await manager.create(
                game, {}, [SeatRequest("bot", bot="hard") for _ in range(seats)], "Ann"))[0]
                for _ in range(tables)]
            await asyncio.sleep(3.0)  # every table under way
            before = [table.version for table in made]
            loop = asyncio.get_running_loop()
            pool: list[float] = []
            lags: list[float] = []
            lagging = asyncio.create_task(loop_lag(lags))
            ends = loop.time() + seconds
            while loop.time() < ends:
                asked = loop.time()
                await asyncio.to_thread(lambda: None)
                pool.append(loop.time() - asked)
                await asyncio.sleep(1.0)
            lagging.cancel()
            moves = [table.version - start for table, start in zip(made, before, strict=True)]
            per_move = [seconds / max(1, count) for count in moves]
            return {"median": statistics.median(per_move), "slowest": max(per_move),
                    "decisions": float(sum(moves)), "pool_median": statistics.median(pool),
                    "pool_max": max(pool), "lag_median": statistics.median(lags),
                    "lag_p99": percentile(lags, 0.99), "lag_max": max(lags)}
        finally:
            await manager.stop()
            storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--threads", type=int, nargs="+", default=[2, decider_threads(), 8])
    parser.add_argument("--game", default="sequence-cats", help="the tables' game")
    parser.add_argument("--seats", type=int, default=2, help="computer players a table")
    args = parser.parse_args()
    print(f"{args.tables} {args.game} tables of {args.seats} `hard` players, "
          f"{args.seconds:g} s each run (the server's pool here: {decider_threads()} threads)")
    for threads in args.threads:
        started = time.perf_counter()
        figures = asyncio.run(measure(args.tables, args.seconds, threads, args.game,
                                      args.seats))
        print(f"  {threads:2d} decision threads: a move every {figures['median']:.2f} s "
              f"(slowest table {figures['slowest']:.2f} s), {figures['decisions']:.0f} "
              f"decisions; default pool answered in {figures['pool_median'] * 1000:.1f} ms "
              f"(at most {figures['pool_max'] * 1000:.1f} ms); event loop late by "
              f"{figures['lag_median'] * 1000:.1f} ms (p99 {figures['lag_p99'] * 1000:.1f}, "
              f"at most {figures['lag_max'] * 1000:.1f} ms)  "
              f"[{time.perf_counter() - started:.0f} s]")


if __name__ == "__main__":
    main()
