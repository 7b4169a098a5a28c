""":class:`~gametable.server.storage.Storage` in PostgreSQL, for deployments that outgrow
one SQLite file (``gametable serve --database postgresql://…``).

The same guarantees as SQLite: an awaited write has been committed (PostgreSQL's
``synchronous_commit`` decides how durably; its default flushes the WAL to disk), and an
append is a compare-and-set on the table's action number: action N is stored only while
the table's last stored action is N − 1, and the primary key (table, number) refuses a
second action N even when two writers try at the same moment. Whoever loses is told
with :class:`StorageError` and nothing of its write is stored.

With several processes (:mod:`gametable.server.cluster`) every write about a table is
also **fenced**: a process that takes a table over first raises the table's owner number
(:meth:`PostgresStorage.take_table`), and each of its writes is stored only while the
number is still the one it got (:attr:`PostgresStorage.fence_of`). A write of an earlier
owner that was under way when the table changed hands — a seat, the options, the host,
the clock, the end, the expiry — is refused rather than stored over the new owner's work.

The schema is made and upgraded at start by the numbered SQL files in
``migrations/postgresql/`` (``0001_tables.sql``, …), each applied once, in order, in its
own transaction, and noted in ``schema_migrations``; an advisory lock lets only one
starting process migrate at a time. A database migrated by a newer gametable is refused.

Connections come from a pool (``psycopg_pool``); writes run in worker threads so the
event loop never waits on the network.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from importlib import resources
from typing import Any

import orjson
import psycopg
from psycopg_pool import ConnectionPool

from gametable.server.logname import log_name
from gametable.server.outage import FewerRepeats
from gametable.server.storage import (
    BOTS_ONLY,
    COUNT_SEAT_CHANGE,
    CREATED_BY,
    DEAL_SHOWN,
    LOAD_CHAT,
    MARK_EXPIRED,
    MARK_FINISHED,
    WAITING_BEFORE,
    NumberTaken,
    OwnerChanged,
    SeatRow,
    StorageError,
    TableRow,
    WriteClash,
    chat_statements,
    earlier_from_json,
    earlier_to_json,
)

MIGRATIONS = "migrations/postgresql"
"""Package folder (in ``gametable.server``) of the numbered migration files."""
TAKE_LOCK_SECONDS = 2.0
"""How long taking a table over waits for an earlier owner's write to the table's row."""
POOL_WAIT_SECONDS = 10.0
"""How long a read or write waits for a connection: a database restart of a few seconds
is waited out, and while it is down a request is refused in 10 s (the pool's own
default, 30 s, kept people waiting half a minute for "try again")."""
RECONNECT_SECONDS = 10.0
"""How long the pool tries to open a connection again after the database stopped
answering (attempts 1, 2, 4… s apart) before it gives up until a request needs one. The
pool's default, 5 minutes of doubling waits, left tables stalled for up to a minute
after the database was back (an attempt 64 s after the one before)."""
WRITE_ATTEMPTS = 3
"""How many times a write is tried when PostgreSQL fails it to break a deadlock or a
serialization clash with another write (nothing of it stored), before it is refused
with :class:`~gametable.server.storage.WriteClash`."""
MIGRATION_LOCK = 0x6761_6D65  # "game"
"""Key of the advisory lock held while migrating."""

# The pool warns at each attempt to reconnect: a line every second or two while the
# database is away. The tables' own line says what stopped (``TableManager.storage_outage``).
logging.getLogger("psycopg.pool").addFilter(FewerRepeats())

_Statement = tuple[str, Sequence[Any]]


def migrations() -> list[tuple[int, str, str]]:
    """The migration files as ``(number, name, sql)``, in order of their numbers.

    Raises:
        ValueError: two files share a number, or a name does not start with one.
    """
    folder = resources.files("gametable.server").joinpath(MIGRATIONS)
    found: dict[int, tuple[int, str, str]] = {}
    for entry in folder.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        number_text = entry.name.split("_", 1)[0]
        if not number_text.isdigit():
            raise ValueError(f"migration without a number: {entry.name}")
        number = int(number_text)
        if number in found:
            raise ValueError(f"two migrations numbered {number}")
        found[number] = (number, entry.name, entry.read_text(encoding="utf-8"))
    return [found[n] for n in sorted(found)]


def migrate(url: str, *, upto: int | None = None) -> int:
    """Apply the migrations a database lacks (all, or those numbered up to ``upto``);
    return its schema version after.

    Raises:
        StorageError: the database cannot be reached, a migration fails (it is then
            rolled back whole), or the database has a migration this gametable lacks.
    """
    known = migrations()
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
            try:
                conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                             "version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                             "applied DOUBLE PRECISION NOT NULL)")
                row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"
                                   ).fetchone()
                version = int(row[0]) if row else 0
                newest = known[-1][0] if known else 0
                if version > newest:
                    raise StorageError(
                        f"the database was migrated by a newer gametable (schema {version}); "
                        f"this one knows schema {newest}")
                for number, name, sql in known:
                    if number <= version or (upto is not None and number > upto):
                        continue
                    with conn.transaction():
                        conn.execute(sql)
                        conn.execute("INSERT INTO schema_migrations (version, name, applied) "
                                     "VALUES (%s, %s, %s)", (number, name, time.time()))
                    version = number
                return version
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
    except psycopg.Error as error:
        raise StorageError(f"PostgreSQL: {error}") from None


class PostgresStorage:
    """:class:`~gametable.server.storage.Storage` in a PostgreSQL database.

    Args:
        url: a libpq connection string or URL, e.g. ``postgresql://user@host/gametable``.
        max_connections: the most connections the pool opens.
        wait_seconds: how long a read or write waits for a connection before it fails
            with :class:`StorageError` (:data:`POOL_WAIT_SECONDS`).

    Raises:
        StorageError: the database cannot be reached or migrated.
    """

    def __init__(self, url: str, *, max_connections: int = 8,
                 wait_seconds: float = POOL_WAIT_SECONDS) -> None:
        self.url = url
        self.schema_version = migrate(url)
        # A connection is checked as it leaves the pool: after the database restarted,
        # the pool's old connections are dead, and each would fail one request.
        self._pool = ConnectionPool(url, min_size=1, max_size=max_connections, open=False,
                                    name="gametable", check=ConnectionPool.check_connection,
                                    timeout=wait_seconds,
                                    reconnect_timeout=RECONNECT_SECONDS)
        try:
            self._pool.open(wait=True, timeout=15)
        except Exception as error:
            raise StorageError(f"PostgreSQL: {error}") from None
        self.writes = 0
        self.fence_of: Callable[[str], int | None] | None = None
        """With several processes: the owner number this process got for a table when it
        took the table over (:meth:`take_table`), or ``None`` (not taken: the write is
        refused). ``None`` here (one process): writes are not fenced."""
        self.fence_refused: Callable[[str], Awaitable[None]] | None = None
        """With several processes: called with a table whose write its owner number
        refused (:class:`OwnerChanged`), before the refusal is raised, so that a process
        that still holds the table's lease takes a new number
        (:meth:`gametable.server.cluster.Cluster.refence`)."""

    async def take_table(self, table_id: str) -> int:
        """Take ``table_id`` over: raise its owner number by one and return the new
        number (0 for a table not stored yet: it is stored with 0). From then on a write
        fenced with an older number is refused.

        A write of the earlier owner under way holds the table's row until it commits;
        should that take longer than :data:`TAKE_LOCK_SECONDS` (its database link
        stalled), the takeover is refused rather than left waiting, and tried again.

        Raises:
            StorageError: the database failed, or the row stayed locked too long.
        """
        if self._pool.closed:
            raise StorageError("storage is closed")
        return await asyncio.to_thread(self._take, table_id)

    def _take(self, table_id: str) -> int:
        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute(f"SET LOCAL lock_timeout = '{round(TAKE_LOCK_SECONDS * 1000)}ms'")
                row = conn.execute(
                    "UPDATE game_tables SET owner_fence = owner_fence + 1 WHERE id = %s "
                    "RETURNING owner_fence", (table_id,)).fetchone()
        except psycopg.Error as error:
            raise StorageError(f"PostgreSQL: {error}") from None
        return int(row[0]) if row else 0

    # -- writing ---------------------------------------------------------------------

    def _commit(self, statements: Sequence[_Statement], expect_rows: bool,
                fence: tuple[str, int] | None) -> None:
        for attempt in range(1, WRITE_ATTEMPTS + 1):
            try:
                self._commit_once(statements, expect_rows, fence)
            except (psycopg.errors.DeadlockDetected,
                    psycopg.errors.SerializationFailure) as error:
                # Nothing of it was stored (the transaction was rolled back): try again.
                if attempt == WRITE_ATTEMPTS:
                    raise WriteClash(
                        f"PostgreSQL broke a clash with another write of the table "
                        f"{attempt} times ({error.sqlstate}); this one is not stored"
                    ) from None
            else:
                self.writes += 1
                return

    def _commit_once(self, statements: Sequence[_Statement], expect_rows: bool,
                     fence: tuple[str, int] | None) -> None:
        try:
            with self._pool.connection() as conn, conn.transaction():
                # The row stays locked until the commit: a process taking the table over
                # (take_table) waits for this write, or this one sees its number. It is
                # locked for update from the start: two writes that each held a shared
                # lock and then updated the row waited for each other (a deadlock, which
                # PostgreSQL broke by failing one); now the second waits for the first.
                if fence is not None and not conn.execute(
                        "SELECT 1 FROM game_tables WHERE id = %s AND owner_fence = %s "
                        "FOR NO KEY UPDATE", fence).fetchone():
                    raise _Fenced
                for sql, params in statements:
                    cursor = conn.execute(sql, params)
                    if expect_rows and cursor.rowcount == 0:
                        raise _Conflict
        except _Conflict:
            raise NumberTaken() from None
        except _Fenced:
            raise OwnerChanged(f"table {log_name(fence[0]) if fence else ''} was taken over "
                               "by another process: this one's write is not stored"
                               ) from None
        except (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure):
            raise
        except psycopg.Error as error:
            raise StorageError(f"PostgreSQL: {error}") from None

    async def _write(self, table_id: str | None, *statements: _Statement,
                     expect_rows: bool = False) -> None:
        """Commit ``statements`` in one transaction; fenced for ``table_id`` (see
        :attr:`fence_of`)."""
        if self._pool.closed:
            raise StorageError("storage is closed")
        fence: tuple[str, int] | None = None
        if self.fence_of is not None and table_id is not None:
            number = self.fence_of(table_id)
            if number is None:
                raise OwnerChanged(f"table {log_name(table_id)} is run by another process now")
            fence = (table_id, number)
        try:
            await asyncio.to_thread(self._commit, statements, expect_rows, fence)
        except OwnerChanged:
            if table_id is not None and self.fence_refused is not None:
                await self.fence_refused(table_id)
            raise

    async def create_table(self, table: TableRow) -> None:
        fence = self.fence_of(table.id) if self.fence_of is not None else 0
        if fence is None:
            raise OwnerChanged(f"table {log_name(table.id)} is run by another process now")
        await self._write(
            None,  # a new row: its primary key refuses a second one
            ("INSERT INTO game_tables (id, game, config, seed, host_hash, created, clock, "
             "host_seat, owner_fence, creator, watchers_off) "
             "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
             (table.id, table.game, orjson.dumps(table.config).decode(), table.seed,
              table.host_hash, table.created,
              None if table.clock is None else orjson.dumps(table.clock).decode(),
              table.host_seat, fence, table.creator, None if table.watching else 1)),
            *(_seat_statement(table.id, seat) for seat in table.seats),
        )

    async def save_seat(self, table_id: str, seat: SeatRow, seed: int | None = None, *,
                        shown: bool = False) -> None:
        statements = [_seat_statement(table_id, seat), (COUNT_SEAT_CHANGE, (table_id,))]
        if seed is not None:
            statements.append(("UPDATE game_tables SET seed = %s WHERE id = %s",
                               (seed, table_id)))
        if shown:
            statements.append((DEAL_SHOWN, (table_id,)))
        await self._write(table_id, *statements)

    async def save_options(self, table_id: str, config: dict[str, Any], seed: int,
                           clock: dict[str, Any] | None) -> None:
        await self._write(table_id, (
            "UPDATE game_tables SET config = %s, seed = %s, clock = %s WHERE id = %s",
            (orjson.dumps(config).decode(), seed,
             None if clock is None else orjson.dumps(clock).decode(), table_id)))

    async def append_action(self, table_id: str, number: int, seat: int,
                            action: dict[str, Any], clock: dict[str, Any] | None = None,
                            finished: float | None = None) -> None:
        statements: list[_Statement] = [(
            "INSERT INTO actions (table_id, number, seat, action, created) "
            "SELECT %s, %s, %s, %s, %s WHERE COALESCE((SELECT MAX(number) FROM actions "
            "WHERE table_id = %s), 0) = %s",
            (table_id, number, seat, orjson.dumps(action).decode(), time.time(),
             table_id, number - 1),
        )]
        if clock is not None:
            statements.append(_clock_statement(table_id, clock))
        if finished is not None:
            statements.append((MARK_FINISHED, (finished, table_id)))
        await self._write(table_id, *statements, expect_rows=True)

    async def save_clock(self, table_id: str, clock: dict[str, Any]) -> None:
        await self._write(table_id, _clock_statement(table_id, clock))

    async def save_rematch(self, table_id: str, link: dict[str, Any] | None) -> None:
        stored = None if link is None else orjson.dumps(link).decode()
        await self._write(table_id, ("UPDATE game_tables SET rematch = %s WHERE id = %s",
                                     (stored, table_id)))

    async def save_host(self, table_id: str, host_hash: str, host_seat: int | None) -> None:
        await self._write(table_id, ("UPDATE game_tables SET host_hash = %s, host_seat = %s "
                                     "WHERE id = %s", (host_hash, host_seat, table_id)))

    async def save_watching(self, table_id: str, allowed: bool) -> None:
        await self._write(table_id, ("UPDATE game_tables SET watchers_off = %s WHERE id = %s",
                                     (None if allowed else 1, table_id)))

    async def mark_ended(self, table_id: str, when: float) -> None:
        await self._write(table_id, ("UPDATE game_tables SET ended = %s, finished = %s "
                                     "WHERE id = %s", (when, when, table_id)))

    async def mark_finished(self, table_id: str, when: float) -> None:
        await self._write(table_id, (MARK_FINISHED, (when, table_id)))

    async def append_chat(self, table_id: str, message: dict[str, Any], *, keep: int
                          ) -> None:
        await self._write(table_id, *chat_statements(table_id, message, keep))

    def load_chat(self, table_id: str, limit: int) -> list[dict[str, Any]]:
        return [orjson.loads(row[0]) for row in self._rows(LOAD_CHAT, (table_id, limit))]

    async def mark_expired(self, found: Mapping[str, int], when: float) -> list[str]:
        """As :meth:`Storage.mark_expired` says; fenced like every write about a table
        (:attr:`fence_of`): a table whose owner number is not the one this process got
        is left as it is (another process took it over), and so is one it got none
        for."""
        if self._pool.closed:
            raise StorageError("storage is closed")
        statements: list[_Statement] = []
        for table_id, changes in found.items():
            sql, params = MARK_EXPIRED, [when, table_id, changes]
            if self.fence_of is not None:
                number = self.fence_of(table_id)
                if number is None:
                    continue
                sql, params = sql + " AND t.owner_fence = %s", [*params, number]
            statements.append((sql + " RETURNING t.id", params))
        if not statements:
            return []
        return await asyncio.to_thread(self._expire, statements)

    def _expire(self, statements: Sequence[_Statement]) -> list[str]:
        expired: list[str] = []
        try:
            with self._pool.connection() as conn, conn.transaction():
                for sql, params in statements:
                    expired += [row[0] for row in conn.execute(sql, params).fetchall()]
        except psycopg.Error as error:
            raise StorageError(f"PostgreSQL: {error}") from None
        self.writes += 1
        return expired

    # -- reading (called in worker threads) -------------------------------------------

    def _rows(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        try:
            with self._pool.connection() as conn:
                return conn.execute(sql, params).fetchall()
        except psycopg.Error as error:
            raise StorageError(f"PostgreSQL: {error}") from None

    def created_by(self, creator: str) -> tuple[int, int]:
        waiting, bots_only = self._rows(CREATED_BY, (creator,))[0]
        return int(waiting or 0), int(bots_only or 0)

    def bots_only(self, table_ids: Sequence[str]) -> set[str]:
        if not table_ids:
            return set()
        return {row[0] for row in self._rows(BOTS_ONLY.format(ids="t.id = ANY(%s)"),
                                             (list(table_ids),))}

    def waiting_before(self, created: float) -> dict[str, int]:
        return {row[0]: int(row[1]) for row in self._rows(WAITING_BEFORE, (created,))}

    def load_tables(self, *, active_only: bool = False) -> list[TableRow]:
        where = "WHERE t.finished IS NULL AND t.expired IS NULL"
        if active_only:
            where += (" AND NOT EXISTS (SELECT 1 FROM seats o WHERE o.table_id = t.id AND "
                      "o.kind = 'open') AND (t.clock IS NOT NULL OR EXISTS (SELECT 1 "
                      "FROM seats b WHERE b.table_id = t.id AND b.kind = 'bot'))")
        return self._load(where, ())

    def load_table(self, table_id: str) -> TableRow | None:
        rows = self._load("WHERE t.id = %s", (table_id,))
        return rows[0] if rows else None

    def has_table(self, table_id: str) -> bool:
        return bool(self._rows("SELECT 1 FROM game_tables WHERE id = %s", (table_id,)))

    def unfinished_with(self, option: str, value: str) -> list[str]:
        if not option.isidentifier() or not option.isascii():
            raise ValueError(f"not an option name: {option!r}")
        return [row[0] for row in self._rows(
            "SELECT id FROM game_tables WHERE finished IS NULL "
            "AND jsonb_typeof(config::jsonb -> %s) = 'string' AND config::jsonb ->> %s = %s "
            "ORDER BY created", (option, option, value))]

    def _load(self, where: str, params: Sequence[Any]) -> list[TableRow]:
        try:
            with self._pool.connection() as conn, conn.transaction():
                # One snapshot for the three reads.
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                tables = {
                    row[0]: TableRow(id=row[0], game=row[1], config=orjson.loads(row[2]),
                                     seed=row[3], host_hash=row[4], created=row[5],
                                     seats=[], expired=row[6],
                                     clock=None if row[7] is None else orjson.loads(row[7]),
                                     host_seat=row[8], ended=row[9],
                                     watching=not row[10], creator=row[11],
                                     finished=row[12], deal_shown=bool(row[13]),
                                     rematch=None if row[14] is None
                                     else orjson.loads(row[14]))
                    for row in conn.execute(
                        "SELECT id, game, config, seed, host_hash, created, expired, clock, "
                        "host_seat, ended, watchers_off, creator, finished, deal_shown, "
                        "rematch "
                        f"FROM game_tables t {where} ORDER BY created",
                        params)
                }
                for row in conn.execute(
                    "SELECT s.table_id, s.seat, s.kind, s.bot, s.name, s.token_hash, "
                    "s.bot_since, s.earlier, s.removed FROM seats s JOIN game_tables t "
                    f"ON t.id = s.table_id {where} ORDER BY s.table_id, s.seat", params):
                    tables[row[0]].seats.append(SeatRow(
                        row[1], row[2], row[3], row[4], row[5], row[6], earlier_from_json(row[7]),
                        row[8]))
                for table_id, seat, action, stored in conn.execute(
                    "SELECT a.table_id, a.seat, a.action, a.created FROM actions a "
                    f"JOIN game_tables t ON t.id = a.table_id {where} "
                    "ORDER BY a.table_id, a.number", params):
                    loaded = tables[table_id]
                    if not loaded.actions:
                        loaded.first_action = stored
                    loaded.actions.append((seat, orjson.loads(action)))
        except psycopg.Error as error:
            raise StorageError(f"PostgreSQL: {error}") from None
        return list(tables.values())

    def identity(self) -> str:
        rows = self._rows("SELECT id FROM storage_identity LIMIT 1", ())
        if not rows:
            raise StorageError("PostgreSQL: the database has no identity (storage_identity)")
        return str(rows[0][0])

    def ping(self) -> None:
        self._rows("SELECT 1", ())

    def close(self) -> None:
        """Close the pool (writes in progress finish first)."""
        self._pool.close(timeout=10)


class _Conflict(Exception):
    """The compare-and-set of an append found another last action."""


class _Fenced(Exception):
    """A fenced write found another owner number: the table was taken over."""


def _clock_statement(table_id: str, clock: dict[str, Any]) -> _Statement:
    return ("UPDATE game_tables SET clock = %s WHERE id = %s",
            (orjson.dumps(clock).decode(), table_id))


def _seat_statement(table_id: str, seat: SeatRow) -> _Statement:
    return ("INSERT INTO seats (table_id, seat, kind, bot, name, token_hash, bot_since, "
            "earlier, removed) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (table_id, seat) "
            "DO UPDATE SET kind = EXCLUDED.kind, bot = EXCLUDED.bot, name = EXCLUDED.name, "
            "token_hash = EXCLUDED.token_hash, bot_since = EXCLUDED.bot_since, "
            "earlier = EXCLUDED.earlier, removed = EXCLUDED.removed",
            (table_id, seat.seat, seat.kind, seat.bot, seat.name, seat.token_hash,
             seat.bot_since, earlier_to_json(seat.earlier), seat.removed))
