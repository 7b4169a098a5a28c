"""Which database and which Redis a process of a cluster joins: a start command that
would split a cluster is refused, in a line (docs/deploy.md, "Several processes").

The processes of a cluster share one database and one Redis, and nothing in the two
URLs says that they belong together: ``redis://127.0.0.1:6379/0`` is another Redis on
each machine. Two mistakes were let in, and each split the cluster:

- **The cluster's database, another Redis.** The two groups each took the same tables
  over; every append then failed on the owner number, and play stopped. Each process
  notes the session holding its database lock (:mod:`gametable.server.databaselock`) in
  its Redis (:data:`SESSIONS`); a process whose database is held by other sessions, none
  of them noted in its Redis, is refused (:func:`other_redis`).
- **The cluster's Redis, another database.** The process answered 404 for tables that
  were playing and took orphaned tables off the cluster's list. Redis notes the
  database's identity (:data:`STORAGE`, the storage's random name); a process on another
  database is refused while processes of the cluster are alive
  (:func:`other_database`).

Neither check stops a cluster that moves as a whole: with no process alive, a new
database or a new Redis is taken as the cluster's.

A third mistake is told once the process serves: an ``--advertise`` address at which it
does not answer (:func:`unreachable`). It is not ready, and takes no table over, until
it answers there.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

import httpx

from gametable.server.storage import StorageError

if TYPE_CHECKING:
    import redis.asyncio as aioredis

    from gametable.server.databaselock import Holder

STORAGE = "gametable:storage"
"""The identity of the database the cluster's processes use (its storage's
``identity()``)."""
SESSIONS = "gametable:database-sessions"
"""A Redis set of the database lock sessions (PostgreSQL backend pids) of the cluster's
processes: each notes its own with every renewal of its leases, so that a process that
hangs (and keeps its session) stays noted, and after Redis lost its keys they are noted
again within a second. Sessions that no longer hold the lock are taken off as a process
joins."""
PROCESS = "gametable:process:"
"""Prefix of each process's heartbeat key (as :data:`gametable.server.cluster.PROCESS`)."""
JOIN_WAIT_SECONDS = 15.0
"""How long a process waits for the database's other lock holders to be noted in its
Redis before it is refused: processes of the cluster starting together note their
sessions as they join, and after Redis lost its keys they note them again within a
second."""


class DatabaseSessions(Protocol):
    """What the database's lock tells of its sessions
    (:class:`~gametable.server.databaselock.DatabaseLock`)."""

    def database_name(self) -> str:
        """The database as a person names it (``gametable on 127.0.0.1:5432``)."""
        ...

    def session(self) -> int | None:
        """This process's lock session (backend pid); ``None`` while lost."""
        ...

    def holders(self) -> list[Holder]:
        """The other sessions holding the lock.

        Raises:
            StorageError: the database does not answer.
        """
        ...


async def other_processes(redis: aioredis.Redis, own_id: str) -> int:
    """How many other processes of the cluster are alive (their heartbeat keys).

    Raises:
        RedisError, OSError: Redis does not answer.
    """
    found = 0
    async for key in redis.scan_iter(match=PROCESS + "*", count=500):
        if str(key) != PROCESS + own_id:
            found += 1
    return found


async def other_database(redis: aioredis.Redis, redis_name: str, storage_id: str,
                         own_id: str) -> str | None:
    """Note ``storage_id`` as the cluster's database in Redis, unless processes of the
    cluster are alive on another: then why this process is refused (a line saying what
    to do), and nothing is noted.

    Raises:
        RedisError, OSError: Redis does not answer.
    """
    theirs = await redis.get(STORAGE)
    if theirs is not None and str(theirs) != storage_id:
        alive = await other_processes(redis, own_id)
        if alive:
            who, uses = (("process", "uses") if alive == 1 else ("processes", "use"))
            return (f"the {alive} gametable {who} sharing Redis at {redis_name} {uses} "
                    "another database than this one: start this one with their "
                    "--database, or with a Redis of its own")
    await redis.set(STORAGE, storage_id)
    return None


async def note_session(redis: aioredis.Redis, sessions: DatabaseSessions) -> None:
    """Note this process's database lock session in Redis (with every renewal of the
    leases); nothing while the lock is lost.

    Raises:
        RedisError, OSError: Redis does not answer.
    """
    session = sessions.session()
    if session is not None:
        await redis.sadd(SESSIONS, str(session))


async def forget_session(redis: aioredis.Redis, sessions: DatabaseSessions) -> None:
    """Take this process's session off Redis (as it stops).

    Raises:
        RedisError, OSError: Redis does not answer.
    """
    session = sessions.session()
    if session is not None:
        await redis.srem(SESSIONS, str(session))


async def other_redis(redis: aioredis.Redis, sessions: DatabaseSessions, own_id: str,
                      *, wait_seconds: float = JOIN_WAIT_SECONDS) -> str | None:
    """Why this process is refused when the database's lock is held by other sessions
    and none of them is noted in this process's Redis (they share another Redis), after
    waiting up to ``wait_seconds`` for one to be; ``None``: it may join. Call after
    :func:`note_session` and :func:`other_database`: other live processes in this
    Redis are on this database, and let it join too (a gametable from before sessions
    were noted notes none).

    Raises:
        RedisError, OSError: Redis does not answer.
    """
    deadline = time.monotonic() + wait_seconds
    while True:
        try:
            holders = await asyncio.to_thread(sessions.holders)
        except StorageError:
            return None  # the storage's own checks say so
        if not holders:
            await _forget_gone(redis, sessions, holders)
            return None
        noted = await redis.smismember(SESSIONS, [str(holder.session) for holder in holders])
        if any(noted) or await other_processes(redis, own_id):
            await _forget_gone(redis, sessions, holders)
            return None
        if time.monotonic() >= deadline:
            names = sorted({holder.name for holder in holders if holder.name})
            named = f" ({', '.join(names)})" if names else ""
            return (f"gametable servers sharing another Redis{named} are serving the "
                    f"PostgreSQL database {sessions.database_name()}: start this one with their "
                    "--redis, or with another --database")
        await asyncio.sleep(0.25)


async def _forget_gone(redis: aioredis.Redis, sessions: DatabaseSessions,
                       holders: list[Holder]) -> None:
    """Take the sessions that no longer hold the lock (processes that stopped or lost
    it) off :data:`SESSIONS`.

    Raises:
        RedisError, OSError: Redis does not answer.
    """
    keep = {str(holder.session) for holder in holders} | {str(sessions.session())}
    gone = [str(member) for member in await redis.smembers(SESSIONS)
            if str(member) not in keep]
    if gone:
        await redis.srem(SESSIONS, *gone)


REACH_SECONDS = 2.0
"""How long the check of this process's own ``--advertise`` address waits for an answer."""


async def unreachable(url: str, own_id: str) -> str | None:
    """Why the other processes cannot reach this one at ``url`` (its ``--advertise``): it
    does not answer there, or another process does; ``None``: it answers there as
    itself (``GET /healthz`` names the process).

    A mistyped ``--advertise`` was let in: the process said it was ready, and the tables
    it took over answered ``503 table_unavailable`` through every other process.
    """
    try:
        async with httpx.AsyncClient(timeout=REACH_SECONDS, trust_env=False) as client:
            answer = await client.get(url + "/healthz")
        theirs = answer.json().get("process") if answer.status_code == 200 else None
    except (httpx.HTTPError, ValueError, AttributeError) as error:
        why = str(error) or type(error).__name__
        return (f"this process cannot reach itself at its --advertise address {url} "
                f"({why}): the other processes could not reach the tables it runs")
    if theirs == own_id:
        return None
    whom = f"process {theirs}" if theirs else f"something else (HTTP {answer.status_code})"
    return (f"{url}, this process's --advertise address, is answered by {whom}, not by "
            "this process: the other processes could not reach the tables it runs")


def heartbeat(url: str, schema: int) -> str:
    """The value of a process's heartbeat key (:data:`PROCESS`): its ``--advertise`` URL
    and the newest database schema its gametable knows (``"http://10.0.0.5:8001 10"``)."""
    return f"{url} {schema}" if schema else url


async def heartbeats(redis: aioredis.Redis, own_id: str) -> list[tuple[str, int | None]]:
    """The other live processes' heartbeats: each one's ``--advertise`` URL and the
    newest schema its gametable knows (``None``: a gametable from before it was noted).

    Raises:
        RedisError, OSError: Redis does not answer.
    """
    found: list[tuple[str, int | None]] = []
    async for key in redis.scan_iter(match=PROCESS + "*", count=500):
        if str(key) == PROCESS + own_id:
            continue
        value = await redis.get(key)
        if value is None:
            continue
        url, _, known = str(value).partition(" ")
        found.append((url, int(known) if known.isdigit() else None))
    return sorted(found, key=lambda beat: beat[0])


def older(beats: list[tuple[str, int | None]], schema: int) -> list[str]:
    """The URLs of the processes (:func:`heartbeats`) whose gametable knows an older
    database schema than ``schema``, or does not say (from before it was noted): e.g.
    processes not yet upgraded while this one migrated the database."""
    return [url for url, known in beats if known is None or known < schema]


def loopback_mixed(own_url: str, beats: list[tuple[str, int | None]]) -> list[str]:
    """The other processes' URLs (:func:`heartbeats`) when some of the processes, this
    one or others, advertise a loopback address and others do not: on several machines,
    a loopback ``--advertise`` (the default) is reached by nobody else. ``[]`` when all
    agree."""
    urls = [url for url, _ in beats]
    kinds = {_loopback(url) for url in [own_url, *urls]}
    return urls if len(kinds) > 1 else []


def _loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"
