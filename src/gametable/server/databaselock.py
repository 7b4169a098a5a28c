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

If the connection is lost (the database restarted), the lock is gone with it and is not
taken again: a second server started then is not refused (docs/deploy.md). The lock's
connection is idle for the process's life, so it asks PostgreSQL (14 and later) not to
end it for idleness (``idle_session_timeout = 0`` for this session alone, whatever the
server's setting) and keeps TCP keepalives on, so that a firewall does not drop it.
"""

from __future__ import annotations

import contextlib
import os
import socket

import psycopg
from psycopg.conninfo import conninfo_to_dict

from gametable.server.storage import StorageError

LOCK_KEY = (0x67746162, 0x6C65)
"""The advisory lock's two keys (``"gtab"``, ``"le"``): PostgreSQL's pg_locks names them
``classid`` and ``objid``."""
CONNECT_SECONDS = 5
"""How long the lock's connection may take to open."""
KEEPALIVE_SECONDS = 60
"""Idle seconds before the lock's connection sends TCP keepalives (libpq's
``keepalives_idle``)."""


class DatabaseInUse(StorageError):
    """Another process serves the database in the other way (the message names it, by
    its ``application_name``, and says what to do)."""


class DatabaseLock:
    """The database's lock, held until :meth:`release` (or the process's end)."""

    def __init__(self, connection: psycopg.Connection[tuple[object, ...]]) -> None:
        self._connection: psycopg.Connection[tuple[object, ...]] | None = connection

    @classmethod
    def take(cls, url: str, *, shared: bool = False) -> DatabaseLock:
        """Lock the PostgreSQL database at ``url`` for this process: alone, or with
        ``shared`` beside the other processes of a cluster (those sharing Redis).

        Raises:
            DatabaseInUse: the database is served in the other way, or (alone) by
                another process; the message names it and what to do.
            StorageError: the database cannot be reached (the storage says so again, in
                its words, as it starts).
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
            row = connection.execute(f"SELECT {function}(%s, %s)", LOCK_KEY).fetchone()
            if row is not None and row[0]:
                return cls(connection)
            said = _refusal(connection, _name(url), shared)
        except psycopg.Error as error:
            connection.close()
            raise StorageError(f"PostgreSQL: {error}") from None
        connection.close()
        raise DatabaseInUse(said)

    def release(self) -> None:
        """Let another process serve the database (idempotent)."""
        if self._connection is not None:
            self._connection.close()  # the session's end drops its advisory locks
            self._connection = None


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
    rows = connection.execute(
        "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a "
        "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted "
        "AND l.classid = %s AND l.objid = %s AND l.objsubid = 2 AND l.database = "
        "(SELECT oid FROM pg_database WHERE datname = current_database())", LOCK_KEY
    ).fetchall()
    names = sorted({str(name) for (name,) in rows if name})
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
