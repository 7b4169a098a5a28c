"""Durable storage of tables, seats and game records.

:class:`Storage` is the one interface the server uses. :class:`SQLiteStorage` keeps
everything in one SQLite file (WAL mode, ``synchronous=FULL``): an awaited write has
been committed and fsynced, so a crash — even ``kill -9`` or a power cut — loses nothing
that was acknowledged. Writes from every table go through one writer thread that commits
them in batches ("group commit"), so many tables share each fsync. An append is a
compare-and-set on the table's action number: action N is stored only while the last
stored action is N − 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import queue
import secrets
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import orjson

from gametable.core.config import RULES_VERSION_FIELD, legacy_options

SCHEMA_VERSION = 4
"""1: the first schema. 2: every stored config carries ``rules_version``; tables stored
under schema 1 were made by the first rules and get ``rules_version: 1``. 3: seats keep
who held them before (``earlier``), with every column of :data:`ADDED_COLUMNS`. 4: seats
keep whether the host removed their person (``removed``). Raised
with every column added: a gametable of an older schema refuses the file rather than
write rows without what this one keeps (the PostgreSQL migrations do the same)."""
SCHEMA = """
CREATE TABLE IF NOT EXISTS game_tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    seed INTEGER NOT NULL,
    host_hash TEXT NOT NULL,
    created REAL NOT NULL,
    finished REAL,
    expired REAL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES game_tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    name TEXT,
    token_hash TEXT,
    bot_since INTEGER,
    earlier TEXT,
    removed INTEGER,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES game_tables(id),
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS chat_messages (
    id INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES game_tables(id),
    message TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_messages_table ON chat_messages (table_id, id);
CREATE TABLE IF NOT EXISTS storage_identity (id TEXT PRIMARY KEY);
"""


def token_hash(token: str) -> str:
    """The stored form of a secret token (SHA-256, hex)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class EarlierOccupant:
    """Who held a seat before its present occupant, once the game had begun: a person
    (``bot`` is ``None``) or a computer player, named ``name``, until the record held
    ``until`` actions (the seat's moves among those are theirs). ``bot_since`` as
    :attr:`SeatRow.bot_since`, for a computer player that had taken a person's seat
    over."""

    until: int
    name: str | None = None
    bot: str | None = None
    bot_since: int | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"until", "name", "bot"}``, and ``"bot_since"`` where it is set."""
        return {"until": self.until, "name": self.name, "bot": self.bot,
                **({"bot_since": self.bot_since} if self.bot_since is not None else {})}


def earlier_from_json(text: str | None) -> tuple[EarlierOccupant, ...]:
    """The stored ``earlier`` column (a JSON list of :meth:`EarlierOccupant.to_json`, or
    NULL for none) as occupants, oldest first."""
    if not text:
        return ()
    return tuple(EarlierOccupant(int(item["until"]), item.get("name"), item.get("bot"),
                                 item.get("bot_since"))
                 for item in orjson.loads(text))


def earlier_to_json(earlier: Sequence[EarlierOccupant]) -> str | None:
    """The ``earlier`` column's text for ``earlier`` (NULL for none)."""
    return orjson.dumps([occupant.to_json() for occupant in earlier]).decode() \
        if earlier else None


@dataclass
class SeatRow:
    """A seat as stored: ``kind`` is ``"open"``, ``"human"`` or ``"bot"``."""

    seat: int
    kind: str
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    bot_since: int | None = None
    """For a computer player that took a person's seat over mid-game: how many actions
    the record held then (the person, ``name``, made the seat's moves before them);
    ``None`` for a seat a computer player held from the start."""
    earlier: tuple[EarlierOccupant, ...] = ()
    """Who held the seat before, once the game had begun, oldest first (the host opened
    a person's seat and someone else took it, say): the record's earlier moves of the
    seat are theirs (:meth:`gametable.server.tables.TableManager.save_seat`)."""
    removed: bool = False
    """Whether the host removed the seat's person (:func:`gametable.server.hosting.remove`):
    the seat is open since, or a computer player plays it, and the pages say "the host
    removed Kari" rather than "Kari left", until someone else takes the seat."""


def earlier_occupants(old: SeatRow, new: SeatRow, actors: Sequence[int]
                      ) -> tuple[EarlierOccupant, ...]:
    """What ``new``, taking the place of ``old`` in a seat, keeps as the seat's
    :attr:`SeatRow.earlier`, ``actors`` being the seats of the record's actions in
    order: ``old``'s, and ``old``'s occupant (until ``len(actors)`` actions) where the
    seat changes hands (another kind or computer player) and they made a move from it
    (a computer player that took a person's seat over, since its ``bot_since``). An
    open seat makes none, a renamed person is the same person, and a computer player
    taking a person's seat over says since when itself (``bot_since``)."""
    start = max(old.earlier[-1].until if old.earlier else 0, old.bot_since or 0)
    same = old.kind == new.kind and old.bot == new.bot
    takeover = (old.kind == "human" and new.kind == "bot" and new.bot_since == len(actors)
                and new.name == old.name)
    if same or takeover or old.seat not in actors[start:]:
        return old.earlier
    return (*old.earlier, EarlierOccupant(len(actors), old.name, old.bot, old.bot_since))


@dataclass
class TableRow:
    """A table as stored, with its seats and its record's actions in order."""

    id: str
    game: str
    config: dict[str, Any]
    seed: int
    host_hash: str
    created: float
    seats: list[SeatRow]
    actions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    expired: float | None = None
    """When the table expired with seats still open (``None``: it did not)."""
    host_seat: int | None = None
    """The seat whose person holds the host role (``None``: the host has no seat)."""
    ended: float | None = None
    """When the host ended the game early (``None``: they did not)."""
    watching: bool = True
    """Whether people without a seat may watch (the host may switch it off)."""
    clock: dict[str, Any] | None = None
    """The table's turn clock (settings, deadlines, away seats; see
    ``gametable.server.clock``), or ``None`` for a table without one."""
    creator: str | None = None
    """Whose caps per client the table counts against while it waits for players or
    runs computer players only (``Caps``): a keyed digest of the address that made it,
    never the address; ``None`` for a table made before it was kept."""
    finished: float | None = None
    """When storage noted the game over (Unix seconds; ``None``: stored as under way)."""
    first_action: float | None = None
    """When the record's first action was stored (Unix seconds; ``None``: none yet)."""
    deal_shown: bool = False
    """Whether the deal was shown: the game has begun, and its cards are never dealt
    again, even with a seat open since (``Table.begun``)."""
    rematch: dict[str, Any] | None = None
    """The offer to play again once a player asked: ``{"table", "by", "host", "seats"}``
    (``gametable.server.offers``); ``None`` before."""


class StorageError(Exception):
    """A write that could not be made durable; nothing of it was stored."""


class OwnerChanged(StorageError):
    """A write about a table refused because another process runs the table now (with
    several processes: this one's lease or owner number is no longer the table's), not
    because storage failed; nothing of it was stored."""


class NumberTaken(StorageError):
    """An action refused because another action was stored under its number first (with
    several writers: another process ran the table a moment ago), not because storage
    failed; nothing of it was stored, and the stored record is the truth."""

    def __init__(self) -> None:
        super().__init__("another action was stored under that number")


class WriteClash(StorageError):
    """A write refused because it clashed with another write of the same table (the
    database broke a deadlock or a serialization conflict by failing it, each time it
    was tried), not because storage is down; nothing of it was stored."""


class Storage(Protocol):
    """Where tables live between restarts."""

    async def create_table(self, table: TableRow) -> None:
        """Store a new table with its seats (no actions), and whether it may be watched."""
        ...

    async def save_seat(self, table_id: str, seat: SeatRow, seed: int | None = None, *,
                        shown: bool = False) -> None:
        """Store a seat's new occupant; with ``seed``, the table's new seed in the same
        transaction (its cards dealt again before the first move); with ``shown``, that
        the deal has been shown, for good (a seat opened once the game has begun leaves
        it begun after a restart).

        Raises:
            StorageError: it could not be stored (then neither is).
        """
        ...

    async def save_options(self, table_id: str, config: dict[str, Any], seed: int,
                           clock: dict[str, Any] | None) -> None:
        """Store a table's new options (before the first move only): its game config
        (JSON-ready), the seed its cards are dealt again from and its turn clock (``None``:
        none), in one transaction.

        Raises:
            StorageError: they could not be stored (then none is).
        """
        ...

    async def append_action(self, table_id: str, number: int, seat: int,
                            action: dict[str, Any], clock: dict[str, Any] | None = None,
                            finished: float | None = None) -> None:
        """Append action ``number`` (1-based) to a table's record, durably; with
        ``clock``, the table's turn clock is stored in the same transaction, and with
        ``finished`` (Unix seconds) the end of the game the action ended, as
        :meth:`mark_finished` notes it: the caps per client (:meth:`created_by`) stop
        counting the table with the action that ends it, or not at all.

        Raises:
            StorageError: the action could not be stored.
        """
        ...

    async def save_host(self, table_id: str, host_hash: str, host_seat: int | None) -> None:
        """Store who holds a table's host role: the hash of the host token, and the seat
        of the person it was given to.

        Raises:
            StorageError: it could not be stored.
        """
        ...

    async def save_watching(self, table_id: str, allowed: bool) -> None:
        """Store whether people without a seat may watch the table.

        Raises:
            StorageError: it could not be stored.
        """
        ...

    async def mark_ended(self, table_id: str, when: float) -> None:
        """Note that the host ended a table's game early (it is over, its record kept).

        Raises:
            StorageError: it could not be stored.
        """
        ...

    async def save_clock(self, table_id: str, clock: dict[str, Any]) -> None:
        """Store a table's turn clock (JSON-ready), durably.

        Raises:
            StorageError: it could not be stored.
        """
        ...

    async def save_rematch(self, table_id: str, link: dict[str, Any] | None) -> None:
        """Store a finished table's offer to play again (JSON-ready, see
        :attr:`TableRow.rematch`); ``None`` forgets it (its new table can no longer be
        joined).

        Raises:
            StorageError: it could not be stored.
        """
        ...

    async def mark_finished(self, table_id: str, when: float) -> None:
        """Note that a table's game is over (so start-up need not replay it, and the caps
        per client no longer count it), unless an end is noted already.

        Raises:
            StorageError: it could not be stored.
        """
        ...

    async def append_chat(self, table_id: str, message: dict[str, Any], *, keep: int
                          ) -> None:
        """Add a chat message (a ``chat`` message of docs/protocol.md) to a table's
        chat, keeping only its last ``keep`` messages.

        Raises:
            StorageError: it could not be stored (nothing was).
        """
        ...

    def load_chat(self, table_id: str, limit: int) -> list[dict[str, Any]]:
        """A table's last ``limit`` chat messages, oldest first.

        Raises:
            StorageError: they could not be read.
        """
        ...

    async def mark_expired(self, found: Mapping[str, int], when: float) -> list[str]:
        """Note that tables expired at ``when`` with seats still open (they are not
        served again): those of ``found`` (table id → its count of seat changes, as
        :meth:`waiting_before` gave it) that still wait for players, their game not
        begun, and whose seats have not changed hands since (checked as it writes: one
        that someone joined meanwhile is left as it is). Returns the ids noted.

        Raises:
            StorageError: nothing was noted.
        """
        ...

    def waiting_before(self, created: float) -> dict[str, int]:
        """The unexpired tables created before ``created`` with a seat still open and no
        action played (a game under way never expires, even while a seat its host
        reopened waits for someone): table id → how many times a seat of it changed
        hands (what :meth:`mark_expired` compares)."""
        ...

    def load_tables(self, *, active_only: bool = False) -> list[TableRow]:
        """Every table whose game is not known to be over and that has not expired, with
        seats and actions; with ``active_only``, only those whose every seat is taken and
        where a computer player sits or a turn clock runs (those that may have to act at
        start-up)."""
        ...

    def load_table(self, table_id: str) -> TableRow | None:
        """One table with seats and actions, or ``None``."""
        ...

    def has_table(self, table_id: str) -> bool:
        """Whether a table ``table_id`` is stored (expired and finished ones too): one
        indexed lookup, without its seats and actions.

        Raises:
            StorageError: the database cannot be read now.
        """
        ...

    def unfinished_with(self, option: str, value: str) -> list[str]:
        """The ids of the tables whose game is not known to be over and whose config has
        ``value`` (a string) under its top-level key ``option``, oldest first.

        Raises:
            ValueError: ``option`` is not a plain name (letters, digits, ``_``).
        """
        ...

    def created_by(self, creator: str) -> tuple[int, int]:
        """How many unfinished, unexpired tables ``creator`` (:attr:`TableRow.creator`)
        made that are ``(waiting, computer players only)``: waiting, a seat is open;
        computer players only, every seat is a computer player's.

        Raises:
            StorageError: it could not be read.
        """
        ...

    def bots_only(self, table_ids: Sequence[str]) -> set[str]:
        """Those of ``table_ids`` where computer players hold every seat (one read, for
        the takeover sweep of several processes: ``--max-bot-tables``).

        Raises:
            StorageError: it could not be read.
        """
        ...

    def identity(self) -> str:
        """The database's identity: a random name made with it and kept with its tables
        (and by its backups); processes sharing Redis must share it
        (:mod:`gametable.server.joining`).

        Raises:
            StorageError: the database does not answer.
        """
        ...

    def ping(self) -> None:
        """Check that the database answers (for ``/readyz``).

        Raises:
            StorageError: it does not.
        """
        ...

    def close(self) -> None:
        """Finish pending writes and release the database."""
        ...


_Statement = tuple[str, Sequence[Any]]
_Write = tuple[list[_Statement], "asyncio.Future[None] | None"]
"""Statements committed together, and the future to settle once they are durable."""
_APPEND = ("INSERT INTO actions (table_id, number, seat, action, created) "
           "SELECT ?, ?, ?, ?, ? WHERE COALESCE((SELECT MAX(number) FROM actions "
           "WHERE table_id = ?), 0) = ?")
"""Append action N only while the table's last stored action is N − 1 (compare-and-set;
the primary key refuses a second action N too)."""
_STOP: list[_Write] = []
"""Queued (as an empty batch) to stop the writer thread."""


class SQLiteStorage:
    """:class:`Storage` in one SQLite file, with a group-committing writer thread.

    Args:
        path: the database file (created with its folder when missing).
        synchronous: SQLite's ``synchronous`` pragma; ``FULL`` (default) fsyncs every
            commit, ``NORMAL`` survives process crashes but not power loss.
        max_batch: the most writes committed together.
    """

    def __init__(self, path: Path, *, synchronous: str = "FULL", max_batch: int = 512) -> None:
        if synchronous not in {"FULL", "NORMAL", "EXTRA"}:
            raise ValueError("synchronous must be FULL, NORMAL or EXTRA")
        # The database holds the seeds of unfinished games (every hand): its folder and
        # file are its owner's only (SQLite gives its -wal and -shm files the file's mode).
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            with contextlib.suppress(FileExistsError):
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except OSError as error:
            raise StorageError(f"SQLite: {path} cannot be created: "
                               f"{error.strerror or error}") from error
        self.path = path
        self.max_batch = max_batch
        self._synchronous = synchronous
        self._queue: queue.SimpleQueue[list[_Write]] = queue.SimpleQueue()
        self._pending: list[_Write] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._writing = False
        """Whether the writer thread runs (read on every write: cheaper than asking the
        thread)."""
        self._thread = threading.Thread(target=self._writer, name="sqlite-writer", daemon=True)
        try:
            with contextlib.closing(self._connect()) as conn:
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version > SCHEMA_VERSION:
                    raise StorageError(
                        f"{path} was written by a newer gametable (schema {version}); "
                        f"this one reads schema {SCHEMA_VERSION}")
                conn.executescript(SCHEMA)
                conn.execute("INSERT INTO storage_identity (id) SELECT ? WHERE NOT EXISTS "
                             "(SELECT 1 FROM storage_identity)", (secrets.token_hex(16),))
                _add_columns(conn)
                _migrate(conn, version)
                conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.Error as error:
            # A damaged or foreign file, or one that cannot be written: the operator's
            # to mend (from a backup, or by moving it away to start empty); nothing in
            # it was changed.
            raise StorageError(
                f"SQLite: {path} cannot be used: {error} (restore it from a backup, "
                "or move it away to start with no tables)") from error
        self._thread.start()
        self._ready.wait()
        self.commits = 0
        self.writes = 0

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self._synchronous}")
        conn.execute("PRAGMA foreign_keys=ON")
        return conn

    # -- the writer thread --------------------------------------------------------

    def _writer(self) -> None:
        _yield_on_wake_up()
        conn = self._connect()
        self._writing = True
        self._ready.set()
        try:
            while True:
                batches = [self._queue.get()]
                while sum(len(b) for b in batches) < self.max_batch:
                    try:
                        batches.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                writes = [write for batch in batches for write in batch]
                if writes:
                    self._commit(conn, writes)
                if any(batch is _STOP for batch in batches):
                    conn.close()
                    return
        finally:
            self._writing = False

    def _commit(self, conn: sqlite3.Connection, writes: list[_Write]) -> None:
        try:
            conn.execute("BEGIN IMMEDIATE")
            for statements, _ in writes:
                for sql, params in statements:
                    _execute(conn, sql, params)
            conn.execute("COMMIT")
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            # One bad write must not sink the others: retry them one by one.
            for write in writes:
                self._commit_one(conn, write)
            return
        self.commits += 1
        self.writes += len(writes)
        # One wake-up of the event loop for the whole batch.
        futures = [future for _, future in writes if future is not None]
        if futures and self._loop is not None:
            self._loop.call_soon_threadsafe(_settle_all, futures)

    def _commit_one(self, conn: sqlite3.Connection, write: _Write) -> None:
        statements, future = write
        try:
            conn.execute("BEGIN IMMEDIATE")
            for sql, params in statements:
                _execute(conn, sql, params)
            conn.execute("COMMIT")
        except sqlite3.Error as error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self._resolve(future, NumberTaken() if isinstance(error, _NumberTakenHere)
                          else StorageError(str(error)))
            return
        self._resolve(future, None)

    def _resolve(self, future: asyncio.Future[None] | None, error: Exception | None) -> None:
        if future is None or self._loop is None:
            return
        self._loop.call_soon_threadsafe(_settle, future, error)

    async def _write(self, *statements: _Statement) -> None:
        if not self._writing:
            raise StorageError("storage is closed")
        loop = asyncio.get_running_loop()
        self._loop = loop
        future: asyncio.Future[None] = loop.create_future()
        # Writes asked for in the same turn of the event loop go to the writer together:
        # one wake-up of the thread, one commit.
        if not self._pending:
            loop.call_soon(self._hand_over)
        self._pending.append((list(statements), future))
        await future

    def _hand_over(self) -> None:
        batch, self._pending = self._pending, []
        self._queue.put(batch)

    # -- the interface ------------------------------------------------------------

    async def create_table(self, table: TableRow) -> None:
        await self._write(
            ("INSERT INTO game_tables (id, game, config, seed, host_hash, created, clock, "
             "host_seat, creator, watchers_off) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
             (table.id, table.game, orjson.dumps(table.config).decode(), table.seed,
              table.host_hash, table.created,
              None if table.clock is None else orjson.dumps(table.clock).decode(),
              table.host_seat, table.creator, None if table.watching else 1)),
            *(_seat_statement(table.id, seat) for seat in table.seats),
        )

    async def save_seat(self, table_id: str, seat: SeatRow, seed: int | None = None, *,
                        shown: bool = False) -> None:
        statements = [_seat_statement(table_id, seat),
                      (COUNT_SEAT_CHANGE.replace("%s", "?"), (table_id,))]
        if seed is not None:
            statements.append(("UPDATE game_tables SET seed = ? WHERE id = ?",
                               (seed, table_id)))
        if shown:
            statements.append((DEAL_SHOWN.replace("%s", "?"), (table_id,)))
        await self._write(*statements)

    async def save_options(self, table_id: str, config: dict[str, Any], seed: int,
                           clock: dict[str, Any] | None) -> None:
        await self._write(("UPDATE game_tables SET config = ?, seed = ?, clock = ? "
                           "WHERE id = ?",
                           (orjson.dumps(config).decode(), seed,
                            None if clock is None else orjson.dumps(clock).decode(),
                            table_id)))

    async def append_action(self, table_id: str, number: int, seat: int,
                            action: dict[str, Any], clock: dict[str, Any] | None = None,
                            finished: float | None = None) -> None:
        statements: list[_Statement] = [(
            _APPEND,
            (table_id, number, seat, orjson.dumps(action).decode(), time.time(), table_id,
             number - 1),
        )]
        if clock is not None:
            statements.append(_clock_statement(table_id, clock))
        if finished is not None:
            statements.append((MARK_FINISHED.replace("%s", "?"), (finished, table_id)))
        await self._write(*statements)

    async def save_clock(self, table_id: str, clock: dict[str, Any]) -> None:
        await self._write(_clock_statement(table_id, clock))

    async def save_rematch(self, table_id: str, link: dict[str, Any] | None) -> None:
        await self._write(("UPDATE game_tables SET rematch = ? WHERE id = ?",
                           (None if link is None else orjson.dumps(link).decode(), table_id)))

    async def save_host(self, table_id: str, host_hash: str, host_seat: int | None) -> None:
        await self._write(("UPDATE game_tables SET host_hash = ?, host_seat = ? WHERE id = ?",
                           (host_hash, host_seat, table_id)))

    async def save_watching(self, table_id: str, allowed: bool) -> None:
        await self._write(("UPDATE game_tables SET watchers_off = ? WHERE id = ?",
                           (None if allowed else 1, table_id)))

    async def mark_ended(self, table_id: str, when: float) -> None:
        await self._write(("UPDATE game_tables SET ended = ?, finished = ? WHERE id = ?",
                           (when, when, table_id)))

    async def mark_finished(self, table_id: str, when: float) -> None:
        await self._write((MARK_FINISHED.replace("%s", "?"), (when, table_id)))

    async def append_chat(self, table_id: str, message: dict[str, Any], *, keep: int
                          ) -> None:
        await self._write(*(
            (sql.replace("%s", "?"), params)
            for sql, params in chat_statements(table_id, message, keep)))

    def load_chat(self, table_id: str, limit: int) -> list[dict[str, Any]]:
        try:
            conn = self._connect()
            try:
                rows = conn.execute(LOAD_CHAT.replace("%s", "?"), (table_id, limit)).fetchall()
            finally:
                conn.close()
        except sqlite3.Error as error:
            raise StorageError(str(error)) from None
        return [orjson.loads(row[0]) for row in rows]

    async def mark_expired(self, found: Mapping[str, int], when: float) -> list[str]:
        if not found:
            return []
        await self._write(*((MARK_EXPIRED.replace("%s", "?"), (when, table_id, changes))
                            for table_id, changes in found.items()))
        # Only this process writes the file, and the caller keeps these tables from
        # changing meanwhile: those now expired at ``when`` are the ones just noted.
        ids = list(found)
        try:
            with contextlib.closing(self._connect()) as conn:
                return [row[0] for start in range(0, len(ids), 500) for row in conn.execute(
                    "SELECT id FROM game_tables WHERE expired = ? AND id IN "
                    f"({', '.join('?' * len(ids[start:start + 500]))})",
                    (when, *ids[start:start + 500]))]
        except sqlite3.Error as error:
            raise StorageError(str(error)) from None

    def waiting_before(self, created: float) -> dict[str, int]:
        with contextlib.closing(self._connect()) as conn:
            return dict(conn.execute(WAITING_BEFORE.replace("%s", "?"), (created,)))

    def load_tables(self, *, active_only: bool = False) -> list[TableRow]:
        where = "WHERE t.finished IS NULL AND t.expired IS NULL"
        if active_only:
            where += (" AND NOT EXISTS (SELECT 1 FROM seats o WHERE o.table_id = t.id AND "
                      "o.kind = 'open') AND (t.clock IS NOT NULL OR EXISTS (SELECT 1 "
                      "FROM seats b WHERE b.table_id = t.id AND b.kind = 'bot'))")
        return self._load(where, ())

    def load_table(self, table_id: str) -> TableRow | None:
        rows = self._load("WHERE t.id = ?", (table_id,))
        return rows[0] if rows else None

    def has_table(self, table_id: str) -> bool:
        try:
            with contextlib.closing(self._connect()) as conn:
                return conn.execute("SELECT 1 FROM game_tables WHERE id = ?",
                                    (table_id,)).fetchone() is not None
        except sqlite3.Error as error:
            raise StorageError(str(error)) from None

    def unfinished_with(self, option: str, value: str) -> list[str]:
        if not option.isidentifier() or not option.isascii():
            raise ValueError(f"not an option name: {option!r}")
        conn = self._connect()
        try:
            return [row[0] for row in conn.execute(
                "SELECT id FROM game_tables WHERE finished IS NULL "
                "AND json_type(config, ?) = 'text' AND json_extract(config, ?) = ? "
                "ORDER BY created", (f"$.{option}", f"$.{option}", value))]
        finally:
            conn.close()

    def created_by(self, creator: str) -> tuple[int, int]:
        try:
            conn = self._connect()
            try:
                waiting, bots_only = conn.execute(CREATED_BY.replace("%s", "?"),
                                                  (creator,)).fetchone()
            finally:
                conn.close()
        except sqlite3.Error as error:
            raise StorageError(str(error)) from None
        return int(waiting or 0), int(bots_only or 0)

    def bots_only(self, table_ids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        try:
            with contextlib.closing(self._connect()) as conn:
                for start in range(0, len(table_ids), 500):
                    chunk = list(table_ids[start:start + 500])
                    found.update(row[0] for row in conn.execute(
                        BOTS_ONLY.format(ids=f"t.id IN ({', '.join('?' * len(chunk))})"), chunk))
        except sqlite3.Error as error:
            raise StorageError(str(error)) from None
        return found

    def _load(self, where: str, params: Sequence[Any]) -> list[TableRow]:
        with contextlib.closing(self._connect()) as conn:
            tables = {
                row[0]: TableRow(id=row[0], game=row[1], config=orjson.loads(row[2]),
                                 seed=row[3], host_hash=row[4], created=row[5], seats=[],
                                 expired=row[6],
                                 clock=None if row[7] is None else orjson.loads(row[7]),
                                 host_seat=row[8], ended=row[9], watching=not row[10],
                                 creator=row[11], finished=row[12],
                                 deal_shown=bool(row[13]),
                                 rematch=None if row[14] is None else orjson.loads(row[14]))
                for row in conn.execute(
                    "SELECT id, game, config, seed, host_hash, created, expired, clock, "
                    "host_seat, ended, watchers_off, creator, finished, deal_shown, rematch "
                    f"FROM game_tables t {where} ORDER BY created", params)
            }
            for row in conn.execute(
                "SELECT s.table_id, s.seat, s.kind, s.bot, s.name, s.token_hash, s.bot_since, "
                "s.earlier, s.removed FROM seats s "
                f"JOIN game_tables t ON t.id = s.table_id {where} ORDER BY s.table_id, s.seat",
                params,
            ):
                tables[row[0]].seats.append(SeatRow(
                    row[1], row[2], row[3], row[4], row[5], row[6], earlier_from_json(row[7]),
                    bool(row[8])))
            for table_id, seat, action, stored in conn.execute(
                "SELECT a.table_id, a.seat, a.action, a.created FROM actions a "
                f"JOIN game_tables t ON t.id = a.table_id {where} ORDER BY a.table_id, a.number",
                params,
            ):
                loaded = tables[table_id]
                if not loaded.actions:
                    loaded.first_action = stored
                loaded.actions.append((seat, orjson.loads(action)))
        return list(tables.values())

    def identity(self) -> str:
        try:
            with contextlib.closing(self._connect()) as conn:
                row = conn.execute("SELECT id FROM storage_identity LIMIT 1").fetchone()
        except sqlite3.Error as error:
            raise StorageError(str(error)) from None
        if row is None:
            raise StorageError(f"{self.path} has no identity")
        return str(row[0])

    def ping(self) -> None:
        if not self._thread.is_alive():
            raise StorageError("storage is closed")
        try:
            with contextlib.closing(self._connect()) as conn:
                conn.execute("SELECT 1 FROM game_tables LIMIT 1").fetchall()
        except sqlite3.Error as error:
            raise StorageError(str(error)) from None

    def close(self) -> None:
        if self._thread.is_alive():
            if self._pending:
                self._hand_over()
            self._queue.put(_STOP)
            self._thread.join(timeout=10)


def _yield_on_wake_up() -> None:
    """Schedule the calling thread as a batch thread (Linux ``SCHED_BATCH``), where the
    platform has it: woken by the event loop handing it writes, it then waits for a free
    core instead of taking the loop's, which holds the interpreter lock the writer needs
    anyway. Under load this saves about 6 % of the server's CPU per action
    (docs/deploy.md); elsewhere nothing changes."""
    policy = getattr(os, "SCHED_BATCH", None)
    if policy is None:
        return
    try:
        os.sched_setscheduler(0, policy, os.sched_param(0))
    except OSError:
        return


def _migrate(conn: sqlite3.Connection, version: int) -> None:
    """Bring a database of schema ``version`` (0: new) to :data:`SCHEMA_VERSION`."""
    if 1 <= version < 2:
        # Schema 2: configs carry rules_version; older tables played by the first rules.
        conn.execute("BEGIN IMMEDIATE")
        for table_id, config in conn.execute("SELECT id, config FROM game_tables").fetchall():
            options = orjson.loads(config)
            if isinstance(options, dict) and RULES_VERSION_FIELD not in options:
                conn.execute("UPDATE game_tables SET config = ? WHERE id = ?",
                             (orjson.dumps(legacy_options(options)).decode(), table_id))
        conn.execute("COMMIT")


ADDED_COLUMNS = {"game_tables": {"expired": "REAL", "clock": "TEXT", "host_seat": "INTEGER",
                                  "ended": "REAL", "watchers_off": "INTEGER",
                                  "creator": "TEXT", "seat_changes": "INTEGER",
                                  "deal_shown": "INTEGER", "rematch": "TEXT"},
                 "seats": {"bot_since": "INTEGER", "earlier": "TEXT", "removed": "INTEGER"}}
"""Columns added to a table since it was first made (nullable: old rows read as NULL).
A column added here raises :data:`SCHEMA_VERSION`."""


def _add_columns(conn: sqlite3.Connection) -> None:
    for table, columns in ADDED_COLUMNS.items():
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        for name, kind in columns.items():
            if name not in present:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
                if name == "deal_shown":
                    conn.execute(DEAL_SHOWN_BEFORE)
    conn.execute(CREATOR_INDEX)


def chat_statements(table_id: str, message: dict[str, Any], keep: int) -> list[_Statement]:
    """:meth:`Storage.append_chat`'s statements (PostgreSQL's parameter style): add the
    message, forget the table's older ones past the last ``keep``."""
    return [("INSERT INTO chat_messages (table_id, message) VALUES (%s, %s)",
             (table_id, orjson.dumps(message).decode())),
            ("DELETE FROM chat_messages WHERE table_id = %s AND id NOT IN (SELECT id FROM "
             "chat_messages WHERE table_id = %s ORDER BY id DESC LIMIT %s)",
             (table_id, table_id, keep))]


LOAD_CHAT = ("SELECT message FROM (SELECT id, message FROM chat_messages WHERE table_id = %s "
             "ORDER BY id DESC LIMIT %s) AS last ORDER BY id")
""":meth:`Storage.load_chat`'s query (PostgreSQL's parameter style)."""


STILL_WAITING = ("t.finished IS NULL AND t.expired IS NULL AND EXISTS (SELECT 1 FROM seats s "
                 "WHERE s.table_id = t.id AND s.kind = 'open') AND NOT EXISTS (SELECT 1 "
                 "FROM actions a WHERE a.table_id = t.id)")
"""Whether the table ``t`` still waits for players before its game has begun (what
:meth:`Storage.waiting_before` finds)."""

WAITING_BEFORE = ("SELECT id, COALESCE(seat_changes, 0) FROM game_tables t "
                  f"WHERE t.created < %s AND {STILL_WAITING}")
""":meth:`Storage.waiting_before`'s query (PostgreSQL's parameter style): each table
found with its count of seat changes."""

MARK_EXPIRED = ("UPDATE game_tables AS t SET expired = %s WHERE t.id = %s AND "
                f"COALESCE(t.seat_changes, 0) = %s AND {STILL_WAITING}")
""":meth:`Storage.mark_expired`'s statement for one table (PostgreSQL's parameter style):
it still waits, and no seat changed hands since the sweep found it (a seat taken, one
that opens and another taken, a computer player seated all count)."""

DEAL_SHOWN_BEFORE = ("UPDATE game_tables SET deal_shown = 1 "
                     "WHERE finished IS NULL AND COALESCE(seat_changes, 0) > 0")
"""Tables stored before ``deal_shown`` was: one whose seats changed hands may have shown
its deal and had a seat open again since, and counts as shown (PostgreSQL's migration 8
does the same); the rest were shown only if every seat is taken, read off the seats."""
DEAL_SHOWN = "UPDATE game_tables SET deal_shown = TRUE WHERE id = %s"
"""Note for good that a table's deal was shown (:meth:`Storage.save_seat`'s ``shown``)."""
COUNT_SEAT_CHANGE = ("UPDATE game_tables SET seat_changes = COALESCE(seat_changes, 0) + 1 "
                     "WHERE id = %s")
"""Counts a seat's change of hands, in the same transaction as the seat's write."""

MARK_FINISHED = "UPDATE game_tables SET finished = %s WHERE id = %s AND finished IS NULL"
""":meth:`Storage.mark_finished`'s statement (PostgreSQL's parameter style): the first
end noted stays (a host's end, ``mark_ended``, sets it too)."""


CREATOR_INDEX = ("CREATE INDEX IF NOT EXISTS game_tables_creator ON game_tables (creator) "
                 "WHERE finished IS NULL AND expired IS NULL")
"""The unfinished tables by creator, for :meth:`Storage.created_by`."""
CREATED_BY = """
SELECT
    SUM(CASE WHEN EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind = 'open')
        THEN 1 ELSE 0 END),
    SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind <> 'bot')
        THEN 1 ELSE 0 END)
FROM game_tables t
WHERE t.creator = %s AND t.finished IS NULL AND t.expired IS NULL
"""
""":meth:`Storage.created_by`'s query (PostgreSQL's parameter style; SQLite's is ``?``).
A host's end of the game sets ``finished`` too (``mark_ended``)."""
BOTS_ONLY = ("SELECT t.id FROM game_tables t WHERE {ids} AND NOT EXISTS "
             "(SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.kind <> 'bot')")
""":meth:`Storage.bots_only`'s query, ``{ids}`` filled with the test of ``t.id``
(SQLite: ``t.id IN (?, ?, …)``; PostgreSQL: ``t.id = ANY(%s)``); computer-only as
:data:`CREATED_BY` counts."""


def _execute(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> None:
    """Run one statement; an append whose compare-and-set fails raises."""
    cursor = conn.execute(sql, params)
    if sql is _APPEND and cursor.rowcount != 1:
        raise _NumberTakenHere("another action was stored under that number")


class _NumberTakenHere(sqlite3.IntegrityError):
    """:class:`NumberTaken`, raised inside a transaction."""


def _clock_statement(table_id: str, clock: dict[str, Any]) -> _Statement:
    return ("UPDATE game_tables SET clock = ? WHERE id = ?",
            (orjson.dumps(clock).decode(), table_id))


def _seat_statement(table_id: str, seat: SeatRow) -> _Statement:
    return ("INSERT OR REPLACE INTO seats (table_id, seat, kind, bot, name, token_hash, "
            "bot_since, earlier, removed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, seat.seat, seat.kind, seat.bot, seat.name, seat.token_hash,
             seat.bot_since, earlier_to_json(seat.earlier), 1 if seat.removed else None))


def _settle_all(futures: list[asyncio.Future[None]]) -> None:
    for future in futures:
        if not future.done():
            future.set_result(None)


def _settle(future: asyncio.Future[None], error: Exception | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
