"""One server per PostgreSQL database, or the processes of one cluster: the database's
counterpart of the data folder's lock (:mod:`gametable.server.folderlock`), for servers
that share a database but not a folder.

The lock is PostgreSQL's advisory lock, held by a connection of its own for the life of
the process: it goes with the process (or its connection), so a server that crashed or
was killed leaves nothing to clean up. As with the folder, the processes that share
Redis hold it shared, a process without Redis holds it alone: two lone servers on one
database, each with its own folder, served the same tables without fencing (two people
could be given one seat). Taken by ``gametable serve``
(:func:`gametable.server.main.run`), not by the application: a program may open several
applications on one database (the tests do).

If the connection is lost (the database restarted, the session was ended), the lock is
gone with it: a thread of the lock's own looks at the connection every
:data:`CHECK_SECONDS` and, once the database answers again, takes the lock again in the
same way; a server that took the database meanwhile is named in the log, once a minute,
until the lock is held again. The lock's connection is otherwise idle for the process's
life, so it asks PostgreSQL (14 and later) not to end it for idleness
(``idle_session_timeout = 0`` for this session alone, whatever the server's setting) and
keeps TCP keepalives on, so that a firewall does not drop it.

The processes of a cluster also tell each other apart from other servers by the lock:
:meth:`DatabaseLock.session` is this process's session, which it notes in Redis, and
:meth:`DatabaseLock.holders` the other sessions holding the lock (see
:mod:`gametable.server.joining`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from dataclasses import dataclass

import psycopg
from psycopg.conninfo import conninfo_to_dict

from gametable.server.storage import StorageError

LOCK_KEY = (0x67746162, 0x6C65)
"""The advisory lock's two keys (``"gtab"``, ``"le"``): PostgreSQL's pg_locks names them
``classid`` and ``objid``."""
ENDING_SESSION_SECONDS = 1.0
"""How long a refused lock is asked for again before the refusal: a closed session's
locks go when PostgreSQL has ended it, a moment after its client closed it."""
CONNECT_SECONDS = 5
"""How long the lock's connection may take to open."""
KEEPALIVE_SECONDS = 60
"""Idle seconds before the lock's connection sends TCP keepalives (libpq's
``keepalives_idle``)."""
CHECK_SECONDS = 2.0
"""How often the lock's connection is looked at, and taken again once lost."""
REFUSED_LOG_SECONDS = 60.0
"""While another server keeps the lock from being taken again, how often that is logged."""

log = logging.getLogger("gametable.server")


@dataclass(frozen=True)
class Holder:
    """A session holding the database's lock: its PostgreSQL backend pid and its
    ``application_name`` (``gametable serve (pid N on HOST)``; may be empty)."""

    session: int
    name: str


class DatabaseInUse(StorageError):
    """Another process serves the database in the other way (the message names it, by
    its ``application_name``, and says what to do)."""


class DatabaseLock:
    """The database's lock, held until :meth:`release` (or the process's end), and taken
    again after its connection was lost (the module's docstring)."""

    def __init__(self, connection: psycopg.Connection[tuple[object, ...]], url: str,
                 shared: bool, *, check_seconds: float = CHECK_SECONDS) -> None:
        self._connection: psycopg.Connection[tuple[object, ...]] | None = connection
        self._url = url
        self._shared = shared
        self._using = threading.Lock()
        self._released = threading.Event()
        self._check_seconds = check_seconds
        self._session: int | None = connection.info.backend_pid
        self._keeper = threading.Thread(target=self._keep, name="gametable-database-lock",
                                         daemon=True)
        self._keeper.start()

    @classmethod
    def take(cls, url: str, *, shared: bool = False,
             check_seconds: float = CHECK_SECONDS) -> DatabaseLock:
        """Lock the PostgreSQL database at ``url`` for this process: alone, or with
        ``shared`` beside the other processes of a cluster (those sharing Redis).
        ``check_seconds``: how often the lock's connection is looked at
        (:data:`CHECK_SECONDS`).

        Raises:
            DatabaseInUse: the database is served in the other way, or (alone) by
                another process; the message names it and what to do.
            StorageError: the database cannot be reached (the storage says so again, in
                its words, as it starts).
        """
        return cls(_locked(url, shared), url, shared, check_seconds=check_seconds)

    def database_name(self) -> str:
        """The database as a person names it, without its password
        (``gametable on 127.0.0.1:5432``)."""
        return _name(self._url)

    def session(self) -> int | None:
        """The PostgreSQL backend pid of the session holding the lock for this process;
        ``None`` while the lock is lost (or released)."""
        return self._session

    def holders(self) -> list[Holder]:
        """The other sessions holding the lock on this database (each process of a
        cluster, or the lone server), by backend pid; ``[]`` while the lock's
        connection is lost.

        Raises:
            StorageError: the database does not answer.
        """
        with self._using:
            connection = self._connection
            if connection is None or self._session is None:
                return []
            try:
                rows = _holders(connection)
            except psycopg.Error as error:
                raise StorageError(f"PostgreSQL: {error}") from None
        return [holder for holder in rows if holder.session != self._session]

    def release(self) -> None:
        """Let another process serve the database (idempotent)."""
        self._released.set()
        with self._using:
            if self._connection is not None:
                self._connection.close()  # the session's end drops its advisory locks
                self._connection = None
            self._session = None

    def _keep(self) -> None:
        """The keeper thread: look at the connection; once it is lost, take the lock
        again as soon as the database answers."""
        refused_logged = float("-inf")
        while not self._released.wait(self._check_seconds):
            with self._using:
                if self._released.is_set():
                    return
                if self._connection is not None and _alive(self._connection):
                    continue
                if self._connection is not None:
                    with contextlib.suppress(psycopg.Error):
                        self._connection.close()
                    self._connection, self._session = None, None
                    log.warning("PostgreSQL: the database's lock was lost with its "
                                "connection; it is taken again once the database answers")
                try:
                    connection = _locked(self._url, self._shared)
                except DatabaseInUse as error:
                    if time.monotonic() - refused_logged >= REFUSED_LOG_SECONDS:
                        refused_logged = time.monotonic()
                        log.error("PostgreSQL: the database's lock cannot be taken again: "
                                  "%s", error)
                    continue
                except StorageError:
                    continue  # not answering yet: the storage's log says so
                self._connection, self._session = connection, connection.info.backend_pid
                refused_logged = float("-inf")
                log.warning("PostgreSQL: the database's lock is held again")


def _locked(url: str, shared: bool) -> psycopg.Connection[tuple[object, ...]]:
    """A new connection holding the lock (:meth:`DatabaseLock.take`).

    Raises:
        DatabaseInUse, StorageError: as :meth:`DatabaseLock.take`.
    """
    try:
        connection = psycopg.connect(
            url, autocommit=True, connect_timeout=CONNECT_SECONDS,
            keepalives=1, keepalives_idle=KEEPALIVE_SECONDS,
            application_name=f"gametable serve (pid {os.getpid()} on "
                             f"{socket.gethostname()})"[:63])
    except psycopg.Error as error:
        raise StorageError(f"PostgreSQL: {error}") from None
    try:
        _keep_when_idle(connection)
        function = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
        # A session whose client has just closed it ends a moment later, its locks
        # with it (a server stopped and started at once, a lock just released): asked
        # again for a second before the refusal.
        deadline = time.monotonic() + ENDING_SESSION_SECONDS
        while True:
            row = connection.execute(f"SELECT {function}(%s, %s)", LOCK_KEY).fetchone()
            if row is not None and row[0]:
                return connection
            if time.monotonic() >= deadline:
                break
            time.sleep(0.1)
        said = _refusal(connection, _name(url), shared)
    except psycopg.Error as error:
        connection.close()
        raise StorageError(f"PostgreSQL: {error}") from None
    connection.close()
    raise DatabaseInUse(said)


def _alive(connection: psycopg.Connection[tuple[object, ...]]) -> bool:
    """Whether the lock's connection still answers (its session, and so the lock, live)."""
    if connection.closed:
        return False
    try:
        connection.execute("SELECT 1")
    except psycopg.Error:
        return False
    return True


def _holders(connection: psycopg.Connection[tuple[object, ...]]) -> list[Holder]:
    """Every session holding the lock on this connection's database."""
    rows = connection.execute(
        "SELECT l.pid, COALESCE(a.application_name, '') FROM pg_locks l "
        "LEFT JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' "
        "AND l.granted AND l.classid = %s AND l.objid = %s AND l.objsubid = 2 "
        "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        LOCK_KEY).fetchall()
    return [Holder(int(str(pid)), str(name)) for pid, name in rows]


def _keep_when_idle(connection: psycopg.Connection[tuple[object, ...]]) -> None:
    """Ask PostgreSQL not to end the lock's session for idleness: a server whose
    ``idle_session_timeout`` is set would otherwise drop the lock silently. Before
    PostgreSQL 14 the setting does not exist, and sessions are not ended so."""
    with contextlib.suppress(psycopg.errors.UndefinedObject):
        connection.execute("SET idle_session_timeout = 0")


def _name(url: str) -> str:
    """The database as a person names it, without its password: ``gametable on
    127.0.0.1:5432``."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.Error:
        return "given by --database"
    where = str(parts.get("host") or "localhost")
    if parts.get("port"):
        where += f":{parts['port']}"
    return f"{parts.get('dbname') or parts.get('user') or '(default)'} on {where}"


def _refusal(connection: psycopg.Connection[tuple[object, ...]], database: str,
             shared: bool) -> str:
    """Why the lock was refused, and what to do, in a line: the holders, by their
    ``application_name`` where PostgreSQL shows it, alone or sharing Redis."""
    names = sorted({holder.name for holder in _holders(connection) if holder.name})
    holder = f" ({', '.join(names)})" if names else ""
    if shared:
        return (f"a gametable server without --redis{holder} is serving the PostgreSQL "
                f"database {database}: stop it, or start this one with another --database")
    row = connection.execute("SELECT pg_try_advisory_lock_shared(%s, %s)", LOCK_KEY
                             ).fetchone()
    if row is None or not row[0]:
        return (f"another gametable server{holder} is serving the PostgreSQL database "
                f"{database}: stop it, or start this one with another --database")
    return (f"gametable servers sharing Redis{holder} are serving the PostgreSQL database "
            f"{database}: start this one with their --redis, or with another --database")
