"""Many tables of ``hard`` computer players in one server process: how often each
moves, and whether the event loop's own thread pool (storage reads, the caps' counts,
``/readyz``) still answers at once.

Run: ``.venv/bin/python -m benchmarks.bot_load [--tables 24] [--seconds 20]
[--threads 2 4 8]``

For each decision-pool size in ``--threads``, a :class:`~gametable.server.tables.
TableManager` on a fresh SQLite database seats ``--tables`` two-seat Sequence Cats tables
of ``hard`` players (half a second of thought a move) with the default bot delay, lets
them play ``--seconds``, and prints the seconds per move at each table (median and
slowest), the decisions made, and how long a call on the event loop's default pool took
(median and slowest of one a second). A searching player thinks for a set time, so a
bigger pool makes more moves of less thought each; a decision queued for a thread
waits. The server uses ``gametable.server.deciding.decider_threads()``.
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


async def measure(tables: int, seconds: float, threads: int) -> dict[str, float]:
    """One run: figures as printed (seconds)."""
    with tempfile.TemporaryDirectory() as folder:
        storage = SQLiteStorage(Path(folder) / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, caps=Caps(bot_tables_per_client=None, bot_tables=None))
        manager.deciders = Deciders(threads)
        try:
            made = [(await manager.create(
                "sequence-cats", {}, [SeatRequest("bot", bot="hard"),
                                      SeatRequest("bot", bot="hard")], "Ann"))[0]
                for _ in range(tables)]
            await asyncio.sleep(3.0)  # every table under way
            before = [table.version for table in made]
            loop = asyncio.get_running_loop()
            pool: list[float] = []
            ends = loop.time() + seconds
            while loop.time() < ends:
                asked = loop.time()
                await asyncio.to_thread(lambda: None)
                pool.append(loop.time() - asked)
                await asyncio.sleep(1.0)
            moves = [table.version - start for table, start in zip(made, before, strict=True)]
            per_move = [seconds / max(1, count) for count in moves]
            return {"median": statistics.median(per_move), "slowest": max(per_move),
                    "decisions": float(sum(moves)), "pool_median": statistics.median(pool),
                    "pool_max": max(pool)}
        finally:
            await manager.stop()
            storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--threads", type=int, nargs="+", default=[2, decider_threads(), 8])
    args = parser.parse_args()
    print(f"{args.tables} tables of two `hard` players, {args.seconds:g} s each run "
          f"(the server's pool here: {decider_threads()} threads)")
    for threads in args.threads:
        started = time.perf_counter()
        figures = asyncio.run(measure(args.tables, args.seconds, threads))
        print(f"  {threads:2d} decision threads: a move every {figures['median']:.2f} s "
              f"(slowest table {figures['slowest']:.2f} s), {figures['decisions']:.0f} "
              f"decisions; default pool answered in {figures['pool_median'] * 1000:.1f} ms "
              f"(at most {figures['pool_max'] * 1000:.1f} ms)  "
              f"[{time.perf_counter() - started:.0f} s]")


if __name__ == "__main__":
    main()
