"""Several gametable processes, one set of tables (``gametable serve --redis …``).

Every process shares the same PostgreSQL database and the same Redis. Each table is run
by exactly one process at a time, its **owner**, which holds the table's **lease** in
Redis: the key ``gametable:owner:<table id>`` whose value is ``"<process id> <URL>"``
(the URL other processes reach the owner at, ``--advertise``), set with ``NX`` and a
time to live of :data:`LEASE_SECONDS`, renewed every :data:`RENEW_SECONDS` by a script
that compares the value first. Only the owner applies actions, stores them, runs the
table's computer players and turn clock.

- **Routing.** A client may connect to any process. A request or websocket for a table
  that this process owns is served here as in a single process. For a table nobody owns,
  this process claims the lease and serves it (loading it from storage). For a table
  another process owns, this process is a **proxy**: the websocket is piped frame for
  frame to the owner's, HTTP requests are forwarded; the owner learns the client's
  address from the header :data:`CLIENT_HEADER`, trusted only along with the cluster's
  peer token (:data:`PEER_HEADER`, a random secret kept in Redis). A request that came
  from a peer is never forwarded again.
- **Failover.** A process that dies stops renewing; its leases expire after at most
  :data:`LEASE_SECONDS`. Every process looks for tables without an owner every
  :data:`TAKEOVER_SECONDS` (the Redis set :data:`TABLES` lists the tables that have had
  one) and claims and loads them from their stored records, computer players and clocks
  included; a process that runs ``--max-bot-tables`` computer-only tables already
  leaves the computer-only ones to the others (:meth:`Cluster.take_over`). The
  websockets that were piped to the dead process are closed with 1012 (service
  restart), so their clients reconnect and reach the new owner.
- **Fencing.** A process acts for a table only while its lease is surely valid: until
  :data:`LEASE_SECONDS` − :data:`MARGIN_SECONDS` after the renewal was sent. A process
  whose lease was lost (taken, deleted, Redis unreachable) drops the table from memory
  at once and closes its connections with 1012; an action stored by another owner
  meanwhile makes its next append fail (the append is a compare-and-set on the action
  number), and the table is then reloaded from storage. Every other write is fenced in
  PostgreSQL: a process that takes a table over raises the table's owner number before
  loading it, and a write carrying an older number (an earlier owner's, under way as the
  table changed hands) is refused (:mod:`gametable.server.fencing`). A websocket piped to
  an owner is closed with 1012 as soon as that owner's lease moves, even if the owner
  hangs without closing it.

Without ``--redis`` none of this runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Coroutine,
    Iterator,
    Mapping,
)
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import orjson
import redis.asyncio as aioredis
import websockets
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from redis.exceptions import RedisError
from starlette.types import Message, Receive, Scope, Send

from gametable.server import joining
from gametable.server.fencing import FencedStorage, FencesWrites
from gametable.server.limits import Pace, Rate, SharedUnavailable
from gametable.server.logname import log_name
from gametable.server.outage import Outage
from gametable.server.refused import Refused
from gametable.server.socket import Socket, Throttle
from gametable.server.storage import StorageError
from gametable.server.table import RESTART_CLOSE

if TYPE_CHECKING:
    from gametable.server.tables import TableManager

log = logging.getLogger("gametable.cluster")

LEASE_SECONDS = 3.0
"""Time to live of a table's lease in Redis."""
RENEW_SECONDS = 1.0
"""Seconds between two renewals of every lease this process holds."""
TAKEOVER_SECONDS = 0.5
"""Seconds between two looks for tables whose owner is gone."""
WAITING_LOG_SECONDS = 60.0
"""While computer-only tables wait for a process with room (every one is at its
``--max-bot-tables``), how often the sweep says so in the log."""
MARGIN_SECONDS = 0.5
"""A process stops acting for a table this long before its lease could expire in Redis."""
UNUSED_SECONDS = 5.0
"""A lease this process holds for a table not in its memory (left it when idle, or
refused to load) is given back after this long."""
ROUTE_WAIT_SECONDS = 8.0
"""How long a request or websocket waits for a table's owner to answer (or for a dead
owner's lease to expire and the table to be taken over) before it is refused (503) or
closed (1012)."""
KNOWN_OUTAGE_SECONDS = 2.0
"""Once Redis has not answered the sweeps for this long, a request or websocket about a
table that this process does not hold is refused at once instead of after
:data:`ROUTE_WAIT_SECONDS` (no owner can be found while Redis is away)."""
REDIS_TIMEOUT = 1.0
"""Seconds a Redis command may take."""
REACH_RETRY_SECONDS = 1.0
"""While this process does not answer at its ``--advertise`` address, how often it
tries again."""
REACH_LOG_SECONDS = 60.0
"""…and how often that is logged, from :data:`REACH_GRACE_SECONDS` after its start."""
REACH_GRACE_SECONDS = 5.0
OWNER_CHECK_SECONDS = 1.0
"""While a forwarded request waits for its owner's answer, how often the lease is looked
at: an owner that hangs (a stuck loop, a paused machine) loses its lease within
seconds, and the request stops waiting for it then."""
FORWARD_SECONDS = 30.0
"""The longest a forwarded request waits for an owner that still holds the lease."""
PIPE_CLOSE_SECONDS = 2.0
"""How long a stopping process waits for the owner to answer the close of a piped
websocket, and for its piped websockets to close."""
RESTARTING = '{"type":"restarting"}'
"""The last message a client gets before 1012 (docs/protocol.md)."""

PREFIX = "gametable:"
OWNER = PREFIX + "owner:"
"""Prefix of the lease keys: ``gametable:owner:<table id>`` → ``"<process> <URL>"``."""
TABLES = PREFIX + "tables"
"""A Redis set of the tables that have had an owner (those to take over if it dies)."""
PEER_TOKEN = PREFIX + "peer-token"
SECRETS = PREFIX + "secrets"
"""A fingerprint of the processes' secret keys (never the keys): the first process sets
it, and one whose keys differ is refused at start (its picture passes would not open
the pictures another process serves)."""
"""The secret that processes of the cluster show each other (made by the first one)."""
RATE = PREFIX + "rate:"
"""Prefix of the per-client token buckets (``rate:<kind>:<client key>``)."""
PROCESS = joining.PROCESS
"""Prefix of each process's heartbeat key (``→ URL``, with the lease's time to live)."""
PEER_HEADER = "x-gametable-peer"
CLIENT_HEADER = "x-gametable-client"

_RENEW = """
local kept = {}
for i = 2, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
    redis.call('SADD', KEYS[1], string.sub(KEYS[i], #ARGV[3] + 1))
    kept[#kept + 1] = i - 1
  end
end
return kept
"""
"""Renew the leases (KEYS[2…]) whose value is still ours (ARGV[1]) to ARGV[2] ms, note
them in the set of tables (KEYS[1]); return the 1-based positions of those renewed."""
_TAKE = """
local now = redis.call('TIME')
now = tonumber(now[1]) + tonumber(now[2]) / 1000000
local burst, every = tonumber(ARGV[1]), tonumber(ARGV[2])
local wait, tokens = 0, {}
for i, key in ipairs(KEYS) do
  local kept = redis.call('HMGET', key, 'tokens', 'when')
  local left = tonumber(kept[1]) or burst
  local when = tonumber(kept[2]) or now
  left = math.min(burst, left + math.max(0, now - when) / every)
  tokens[i] = left
  if left < 1 then wait = math.max(wait, (1 - left) * every) end
end
if wait > 0 then return tostring(wait) end
for i, key in ipairs(KEYS) do
  redis.call('HSET', key, 'tokens', tostring(tokens[i] - 1), 'when', tostring(now))
  redis.call('PEXPIRE', key, math.ceil(burst * every * 1000))
end
return '0'
"""
"""Take a token from each bucket (KEYS, hashes of ``tokens`` and ``when``) of a rate of
ARGV[1] at once, then one every ARGV[2] seconds, on Redis's clock; or none when one is
empty. Returns the seconds until all have one ('0': taken). A bucket full again expires."""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
_GIVE_BACK = """
local given = 0
for i = 2, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then
    redis.call('DEL', KEYS[i])
    given = given + 1
    if ARGV[i + 1] == '1' then
      redis.call('SREM', KEYS[1], string.sub(KEYS[i], #ARGV[2] + 1))
    end
  end
end
return given
"""
"""Release the leases (KEYS[2…]) whose value is still ours (ARGV[1]); take those whose
flag (ARGV[3…], one per lease) is '1' off the set of tables (KEYS[1]; ARGV[2]: the
leases' prefix). Returns how many were released."""
_ORPHANS = """
local found = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. id) == 0 then found[#found + 1] = id end
end
return found
"""
"""The tables in the set KEYS[1] whose lease (prefix ARGV[1]) is missing."""


class ClusterError(Exception):
    """Redis cannot be reached, or the owner of a table does not answer."""


class StorageUnavailable(ClusterError):
    """The database did not answer while a table was taken over; logged as part of the
    storage's outage (``TableManager.storage_outage``), not once per attempt."""


class RedisUnavailable(ClusterError):
    """Redis did not answer a command (``error``: what failed); logged as part of an
    outage (:attr:`Cluster.outage`), not once per attempt."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(f"Redis: {error}")
        self.error = error


@dataclass(frozen=True)
class Peer:
    """Who sent a request: a process of the cluster (``trusted``) or a client."""

    trusted: bool = False


class Cluster:
    """This process's part in a cluster of gametable processes sharing tables.

    Args:
        redis_url: the Redis server, e.g. ``redis://127.0.0.1:6379/0``.
        advertise: the URL other processes reach this one at, e.g.
            ``http://10.0.0.5:8001`` (no trailing slash needed).
        lease_seconds, renew_seconds, takeover_seconds: see the module's constants.

    Attributes:
        id: this process's random id (12 hex digits).
        held: for each table whose lease this process holds, until when (monotonic
            seconds) it may act for it.
    """

    def __init__(self, redis_url: str, advertise: str, *,
                 lease_seconds: float = LEASE_SECONDS, renew_seconds: float = RENEW_SECONDS,
                 takeover_seconds: float = TAKEOVER_SECONDS) -> None:
        self.redis_url = redis_url
        self.url = advertise.rstrip("/")
        self.id = secrets.token_hex(6)
        self.value = f"{self.id} {self.url}"
        self.lease_seconds = lease_seconds
        self.renew_seconds = renew_seconds
        self.takeover_seconds = takeover_seconds
        self.redis: aioredis.Redis = aioredis.Redis.from_url(
            redis_url, decode_responses=True, socket_timeout=REDIS_TIMEOUT,
            socket_connect_timeout=REDIS_TIMEOUT)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._give_back_all = self.redis.register_script(_GIVE_BACK)
        self._take = self.redis.register_script(_TAKE)
        self._orphans = self.redis.register_script(_ORPHANS)
        self.held: dict[str, float] = {}
        self._claimed: dict[str, float] = {}
        self.fences: dict[str, int] = {}
        """The owner number this process got in storage for each table it took over
        (with a storage that :class:`~gametable.server.fencing.FencesWrites`)."""
        self._fenced: FencesWrites | None = None
        self._refencing: set[str] = set()
        """Tables whose new owner number :meth:`refence` is taking now."""
        self._expiring: set[str] = set()
        """Tables whose lease :meth:`hold_to_expire` holds now (not given back as
        unused meanwhile)."""
        self._lost: dict[str, bool] = {}
        """Leases lost here that the next renewal gives back if Redis still has them as
        this process's: table id → whether to take it off the noted tables too."""
        self.relay_rate: Rate | None = None
        """The pace of the messages that one address's piped websockets send together
        (the server's ``messages`` rate); ``None``: each connection's own pace only."""
        self._relay_paces: dict[str, tuple[Pace, int]] = {}
        # The websockets piped to other processes, each with the event that ends its
        # pipe when this process stops (stop).
        self._pipes: dict[asyncio.Task[Any], asyncio.Event] = {}
        self._owners_seen: dict[str, tuple[float, str | None]] = {}
        self.peer_token = ""
        self.fingerprint = ""
        self.storage_id = ""
        """The identity of this process's database, noted in Redis (joining)."""
        self.sessions: joining.DatabaseSessions | None = None
        """The database's lock, whose session this process notes in Redis (joining)."""
        self.join_wait_seconds = joining.JOIN_WAIT_SECONDS
        self.schema = 0
        """The newest database schema this gametable knows (noted with the heartbeat)."""
        self.reachable = True
        """Whether this process answers at its own ``--advertise`` address (once
        :meth:`check_reach` was called; until then it is not ready and takes no table
        over)."""
        self.manager: TableManager | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._http: dict[str, httpx.AsyncClient] = {}
        """One connection pool per owner: an owner that hangs fills its own pool only."""
        self.outage = Outage(f"Redis at {without_password(redis_url)}", log=log,
                             prefix="cluster", stops="its tables stop")
        """The log of the sweeps' failures while Redis does not answer."""
        self.stopped = False
        self.takeovers = 0
        """Tables this process took over from a process that had gone."""
        self.losses = 0
        """Tables whose lease this process lost while it held them."""
        self.waiting_for_room = 0
        """Computer-only tables without an owner that the last takeover sweep left for
        other processes, this one being at its ``--max-bot-tables``."""
        self._waiting_logged = float("-inf")

    # -- starting and stopping --------------------------------------------------------

    async def start(self, manager: TableManager, active: list[str],
                    fingerprint: str = "", *, storage_id: str = "",
                    sessions: joining.DatabaseSessions | None = None,
                    schema: int = 0) -> None:
        """Join the cluster: fence ``manager``'s writes with the leases, note the stored
        tables that may have to act (``active``: their ids) so that one process takes
        each over, and start renewing and taking over.

        ``fingerprint``: of this process's secret keys (``app.secrets_fingerprint``);
        every process of a cluster must hold the same keys. ``storage_id``: the
        database's identity, and ``sessions``: its lock (PostgreSQL), which tell a
        process started with another database or another Redis than the cluster's
        (:mod:`gametable.server.joining`). ``schema``: the newest database schema this
        gametable knows; processes that know an older one (not yet upgraded) are warned
        of in the log.

        Raises:
            ClusterError: Redis does not answer, or the processes already in the cluster
                hold other secret keys than this one, use another database, or serve
                this database with another Redis.
        """
        try:
            if fingerprint:
                await self.redis.set(SECRETS, fingerprint, nx=True)
                theirs = await self.redis.get(SECRETS)
                if theirs is not None and str(theirs) != fingerprint:
                    raise ClusterError(
                        "the processes sharing Redis at "
                        f"{without_password(self.redis_url)} hold other secret "
                        "keys than this one (secret.key and picture-secret in its data "
                        "folder): give every process the same data folder, or copy both "
                        "files into each before it first starts (docs/deploy.md)")
            self.fingerprint = fingerprint
            await self._check_joining(storage_id, sessions)
            await self._tell_of_others(schema)
            await self.redis.set(PEER_TOKEN, secrets.token_urlsafe(24), nx=True)
            self.peer_token = str(await self.redis.get(PEER_TOKEN))
            if active:
                await self.redis.sadd(TABLES, *active)
        except (RedisError, OSError) as error:
            raise ClusterError(f"Redis at {without_password(self.redis_url)}: {error}"
                               ) from None
        self.manager = manager
        manager.fence = self.holds
        if isinstance(manager.storage, FencesWrites):
            manager.storage.fence_of = self.fences.get
            manager.storage.fence_refused = self.refence
            self._fenced = manager.storage
        manager.storage = FencedStorage(manager.storage, self.holds)
        manager.claim = self._claim_new
        manager.hold_to_expire = self.hold_to_expire
        manager.metrics.registry.register(_ClusterFigures(self))
        self._tasks = [asyncio.create_task(self._every(self.renew_seconds, self.renew)),
                       asyncio.create_task(self._every(self.takeover_seconds,
                                                       self.take_over))]
        log.info("cluster: process %s at %s joined (Redis %s)", self.id, self.url,
                 without_password(self.redis_url))

    async def _tell_of_others(self, schema: int) -> None:
        """Warn of the other live processes that look wrong beside this one: of an older
        gametable (not yet upgraded), or reached at a loopback address while others are
        not, or the other way round (:mod:`gametable.server.joining`).

        Raises:
            RedisError, OSError: Redis does not answer.
        """
        self.schema = schema
        beats = await joining.heartbeats(self.redis, self.id)
        older = joining.older(beats, schema) if schema else []
        mixed = joining.loopback_mixed(self.url, beats)
        if mixed:
            log.warning("cluster: this process is reached at %s, the others at %s: a "
                        "loopback address is reached from its own machine only; on "
                        "several machines give each process --advertise with an "
                        "address the others reach", self.url, ", ".join(mixed))
        if older:
            log.warning("cluster: %d %s of an older gametable (%s) %s this database, "
                        "now at schema %d: stop every process before an upgrade "
                        "(docs/deploy.md)", len(older),
                        "process" if len(older) == 1 else "processes", ", ".join(older),
                        "serves" if len(older) == 1 else "serve", schema)

    async def _check_joining(self, storage_id: str,
                             sessions: joining.DatabaseSessions | None) -> None:
        """Refuse a process started with another database or another Redis than the
        cluster's (:mod:`gametable.server.joining`).

        Raises:
            ClusterError: it was; RedisError, OSError: Redis does not answer.
        """
        named = without_password(self.redis_url)
        if storage_id:
            said = await joining.other_database(self.redis, named, storage_id, self.id)
            if said:
                raise ClusterError(said)
            self.storage_id = storage_id
        if sessions is not None:
            await joining.note_session(self.redis, sessions)
            said = await joining.other_redis(self.redis, sessions, self.id,
                                             wait_seconds=self.join_wait_seconds)
            if said:
                with contextlib.suppress(RedisError, OSError):
                    await joining.forget_session(self.redis, sessions)
                raise ClusterError(said)
            self.sessions = sessions

    def check_reach(self) -> None:
        """From now on, until this process answers at its ``--advertise`` address
        (:func:`joining.unreachable`), it is not ready and takes no table over; what is
        wrong is logged once a minute. Called once the process serves (after
        :meth:`start`)."""
        self.reachable = False
        self._tasks.append(asyncio.create_task(self._reach_itself()))

    async def _reach_itself(self) -> None:
        """Ask for this process's own ``/healthz`` at its ``--advertise`` address every
        :data:`REACH_RETRY_SECONDS` until it answers as this process (:meth:`check_reach`)."""
        logged = float("-inf")
        began = time.monotonic()
        while not self.stopped:
            said = await joining.unreachable(self.url, self.id)
            if said is None:
                self.reachable = True
                if logged > float("-inf"):
                    log.warning("cluster: this process answers at %s now: ready", self.url)
                return
            # (As it starts, the process may not serve yet: told after a few seconds.)
            if (time.monotonic() - began >= REACH_GRACE_SECONDS
                    and time.monotonic() - logged >= REACH_LOG_SECONDS):
                logged = time.monotonic()
                log.error("cluster: %s; it is not ready and takes no table over until it "
                          "answers there (give --advertise the address the others reach "
                          "it at)", said)
            await asyncio.sleep(REACH_RETRY_SECONDS)

    async def stop(self) -> None:
        """Stop renewing and give every lease back, so other processes take the tables
        over at once (at shutdown, after the tables were drained). Idempotent."""
        if self.stopped:
            return
        self.stopped = True
        await self._close_pipes()
        for task in self._tasks:
            task.cancel()
        held, self.held = list(self.held), {}
        self.fences.clear()
        await self._release_all(dict.fromkeys(held, False))
        clients, self._http = list(self._http.values()), {}
        for client in clients:
            await client.aclose()
        with contextlib.suppress(RedisError, OSError):
            await self.redis.delete(PROCESS + self.id)
            if self.sessions is not None:
                await joining.forget_session(self.redis, self.sessions)
            await self.redis.aclose()

    async def _close_pipes(self) -> None:
        """Close the websockets piped to other processes as the owners close theirs at
        shutdown: ``{"type": "restarting"}``, then 1012, so that their clients
        reconnect to a process that stays (docs/protocol.md). Waits for them up to
        :data:`PIPE_CLOSE_SECONDS`."""
        pipes, self._pipes = self._pipes, {}
        for leaving in pipes.values():
            leaving.set()
        if pipes:
            await asyncio.wait(pipes, timeout=PIPE_CLOSE_SECONDS)

    def _failed(self, error: ClusterError, doing: str, about: str = "",
                table_id: str = "") -> None:
        """Log ``error``: Redis not answering as part of the outage (at its start, then
        once a minute: every connection and request fails while it lasts), anything else
        at once, ``about`` the table (``"websocket of table"``) when one is given."""
        if isinstance(error, RedisUnavailable):
            self.outage.failed(doing, error.error)
        elif isinstance(error, StorageUnavailable) and self.manager is not None:
            log.debug("cluster: %s: %s", doing, error)  # the storage's outage log has it
        elif table_id:
            log.warning("cluster: %s %s: %s", about, log_name(table_id), error)
        else:
            log.warning("cluster: %s: %s", doing, error)

    async def _every(self, seconds: float, step: Callable[[], Awaitable[None]]) -> None:
        while True:
            try:
                await step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: %s failed", getattr(step, "__name__", step))
            await asyncio.sleep(seconds)

    # -- leases -----------------------------------------------------------------------

    def holds(self, table_id: str) -> bool:
        """Whether this process may act for ``table_id`` now (its lease is surely
        valid)."""
        return self.held.get(table_id, 0.0) > time.monotonic()

    def _valid_from(self, sent: float) -> float:
        return sent + self.lease_seconds - MARGIN_SECONDS

    async def claim(self, table_id: str) -> bool:
        """Take the lease of ``table_id`` if nobody holds it, and with it (in storage
        that :class:`~gametable.server.fencing.FencesWrites`) the table's next owner
        number; returns whether this process holds it now.

        Raises:
            ClusterError: Redis does not answer, or storage could not give the owner
                number (the lease is given back).
        """
        if self.stopped:
            return False
        if self.holds(table_id):
            return True
        sent = time.monotonic()
        try:
            taken = await self.redis.set(OWNER + table_id, self.value, nx=True,
                                         px=round(self.lease_seconds * 1000))
            if taken:
                await self.redis.sadd(TABLES, table_id)
        except (RedisError, OSError) as error:
            raise RedisUnavailable(error) from None
        if not taken:
            return False
        if self._fenced is not None:
            # Before the table is loaded: a write of its earlier owner still under way is
            # stored before this (and loaded) or refused after it.
            try:
                self.fences[table_id] = await self._fenced.take_table(table_id)
            except StorageError as error:
                with contextlib.suppress(RedisError, OSError):
                    await self._release(keys=[OWNER + table_id], args=[self.value])
                what = f"table {log_name(table_id)} not taken over"
                if self.manager is not None:
                    self.manager.storage_outage.failed(what, error)
                raise StorageUnavailable(f"{what}: {error}") from None
            if time.monotonic() >= self._valid_from(sent):
                # The owner number came later than the lease may have lasted: another
                # process may hold the table now. Keep it only if the lease is still this
                # process's (renewed from now on); else the number is another's to take.
                sent = time.monotonic()
                if not await self._still_mine(table_id):
                    self.fences.pop(table_id, None)
                    log.warning("cluster: table %s: its lease ran out while this process "
                                "took it over; left to the process holding it now",
                                log_name(table_id))
                    return False
        if self.manager is not None:
            # A copy of the table still in memory here dates from before another process
            # ran it: it has fallen behind, and the next get loads the stored table.
            self.manager.unload(table_id)
        self.held[table_id] = self._valid_from(sent)
        self._claimed[table_id] = sent
        return True

    async def _still_mine(self, table_id: str) -> bool:
        """Renew the lease of ``table_id`` if it is still this process's in Redis;
        whether it was (``False`` also when Redis does not answer)."""
        try:
            found = await self._renew(
                keys=[TABLES, OWNER + table_id],
                args=[self.value, round(self.lease_seconds * 1000), OWNER])
        except (RedisError, OSError):
            return False
        return bool(found)

    async def refence(self, table_id: str) -> None:
        """A write about ``table_id`` was refused by its owner number though this process
        holds the table's lease: a process whose lease had run out raised the number late
        (its takeover stalled). If Redis still gives the lease to this process, take a
        new number, so that its writes are stored again (the refused one stays refused);
        else leave the table to the process that holds it."""
        if table_id not in self.held or table_id in self._refencing or self._fenced is None:
            return
        self._refencing.add(table_id)
        try:
            sent = time.monotonic()
            if not await self._still_mine(table_id):
                return
            number = await self._fenced.take_table(table_id)
            if self.held.get(table_id, 0.0) <= time.monotonic():
                return  # lost, or ran out meanwhile: the next renewal drops the table
            self.fences[table_id] = number
            self.held[table_id] = self._valid_from(sent)
            log.warning("cluster: table %s: its owner number had moved on while this "
                        "process held its lease; it took number %d", log_name(table_id),
                        number)
        except StorageError as error:
            log.warning("cluster: table %s: no new owner number: %s", log_name(table_id),
                        error)
        finally:
            self._refencing.discard(table_id)

    async def _claim_new(self, table_id: str) -> bool:
        try:
            return await self.claim(table_id)
        except ClusterError as error:
            self._failed(error, "new tables not claimed", "new table", table_id)
            return False

    async def renew(self) -> None:
        """Renew every lease held; drop the tables whose lease was lost; then give back,
        at once, the leases lost and those of tables no longer in memory (live leases
        are renewed first, however many are given back)."""
        manager = self.manager
        if manager is None or self.stopped:
            return
        # A lease that ran out here was acted on as lost (a move was refused as
        # ``table_moved``, a computer player stopped): even if Redis still has it (a
        # renewal that reached it but answered late), drop the table, so that its clients
        # reconnect and the takeover sweep loads it again with its players and clock.
        now = time.monotonic()
        self._lost_in_time(now)
        unused = {t: t not in manager.load_failed for t in self.held
                  if t not in manager.tables and t not in manager.loading
                  and t not in self._expiring
                  and now - self._claimed.get(t, now) > UNUSED_SECONDS}
        # A table that could not be loaded (storage failed) stays noted: a process takes
        # it over once storage answers again, or its computer players and clock would
        # wait for someone to open it.
        for table_id in unused:
            self._forget(table_id)
            manager.load_failed.discard(table_id)
        ids = list(self.held)
        sent = time.monotonic()
        try:
            kept: list[int] = []
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                found = await self._renew(
                    keys=[TABLES, *(OWNER + t for t in chunk)],
                    args=[self.value, round(self.lease_seconds * 1000), OWNER])
                kept += [start + int(i) - 1 for i in found]
            await self.redis.set(PROCESS + self.id, joining.heartbeat(self.url, self.schema),
                                 px=round(self.lease_seconds * 1000))
            if self.sessions is not None:
                await joining.note_session(self.redis, self.sessions)
        except (RedisError, OSError) as error:
            self.outage.failed("leases not renewed", error)
        else:
            self.outage.answered()
            renewed = {ids[i] for i in kept}
            answered = time.monotonic()
            for table_id in ids:
                if table_id in renewed:
                    # A lease that ran out here while the renewal waited for Redis was
                    # acted on as lost meanwhile (a computer player's move refused as
                    # ``table_moved`` ended its turn): it is not extended, so that the
                    # table is dropped below and loaded again, as one that ran out
                    # before the renewal is.
                    until = self.held.get(table_id)
                    if until is not None and until > answered:
                        self.held[table_id] = max(until, self._valid_from(sent))
                else:
                    self.lost(table_id, "its lease was taken")
        self._lost_in_time(time.monotonic())
        lost, self._lost = self._lost, {}
        await self._release_all({**lost, **unused})

    def _lost_in_time(self, now: float) -> None:
        """:meth:`lost` for every lease that ran out by ``now`` (monotonic seconds), in
        one log line: a Redis outage ends all of them at once (a line per table was
        hundreds of lines in a millisecond)."""
        ended = [table_id for table_id, until in self.held.items() if until <= now]
        for table_id in ended:
            self.lost(table_id, "", logged=False)
        if ended:
            named = ", ".join(log_name(table_id) for table_id in ended[:5])
            more = f" and {len(ended) - 5} more" if len(ended) > 5 else ""
            log.warning("cluster: %d table%s lost: %s could not be renewed in time (%s%s)",
                        len(ended), "" if len(ended) == 1 else "s",
                        "its lease" if len(ended) == 1 else "their leases", named, more)

    def lost(self, table_id: str, why: str, *, logged: bool = True) -> None:
        """This process no longer owns ``table_id``: forget the lease and drop the table
        (its connections are closed with 1012 so that their clients reconnect). The
        next renewal gives the lease back if Redis still has it as this process's, so
        that the takeover sweep need not wait for it to expire; the table stays noted
        to be taken over if it was in memory here (or could not be loaded)."""
        if table_id not in self.held:
            return
        self._forget(table_id)
        self.losses += 1
        if logged:
            log.warning("cluster: table %s lost: %s", log_name(table_id), why)
        if self.manager is not None:
            manager = self.manager
            self._lost[table_id] = not (table_id in manager.tables
                                        or table_id in manager.loading
                                        or table_id in manager.load_failed)
            manager.unload(table_id)

    def _forget(self, table_id: str) -> None:
        """Stop acting for ``table_id`` here (its lease, when it was taken, its owner
        number); Redis is not told."""
        self.held.pop(table_id, None)
        self._claimed.pop(table_id, None)
        self.fences.pop(table_id, None)

    async def _give_back(self, table_id: str, *, forget: bool = True) -> None:
        """Release the lease of ``table_id``; with ``forget``, also take it off the noted
        tables (nobody is to take it over: it is gone, expired or unused here)."""
        self._forget(table_id)
        if self.manager is not None:
            self.manager.load_failed.discard(table_id)
        await self._release_all({table_id: forget})

    async def _release_all(self, leases: Mapping[str, bool]) -> None:
        """Release the leases of ``leases`` (table id → whether to take it off the noted
        tables too) still this process's in Redis, 500 to a command."""
        ids = list(leases)
        try:
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                await self._give_back_all(
                    keys=[TABLES, *(OWNER + t for t in chunk)],
                    args=[self.value, OWNER, *("1" if leases[t] else "0" for t in chunk)])
        except (RedisError, OSError) as error:
            log.warning("cluster: %s not given back: %s",
                        "lease of table " + log_name(ids[0]) if len(ids) == 1
                        else f"{len(ids)} leases", error)

    async def _rejoin(self, manager: TableManager) -> None:
        """Follow a Redis that restarted without its keys: the first process to notice
        (the peer token is gone) sets its own token again and notes the stored tables
        that may have to act (those with only computer players had stopped until a
        process started again); every process adopts the token it finds, so that
        processes trust each other's forwarded requests again.

        Raises:
            RedisError, OSError: Redis does not answer.
        """
        if not await self.redis.set(PEER_TOKEN, self.peer_token or secrets.token_urlsafe(24),
                                    nx=True):
            token = await self.redis.get(PEER_TOKEN)
            if token is not None and str(token) != self.peer_token:
                log.warning("cluster: Redis has another peer token (it restarted): "
                            "adopted")
                self.peer_token = str(token)
            return
        self.peer_token = str(await self.redis.get(PEER_TOKEN))
        try:
            active = [row.id for row in await asyncio.to_thread(
                manager.storage.load_tables, active_only=True)]
        except StorageError as error:
            log.warning("cluster: Redis restarted, stored tables not noted yet: %s", error)
            await self.redis.delete(PEER_TOKEN)  # the next sweep tries again
            return
        if active:
            await self.redis.sadd(TABLES, *active)
        if self.fingerprint:
            await self.redis.set(SECRETS, self.fingerprint, nx=True)
        if self.storage_id:
            await self.redis.set(joining.STORAGE, self.storage_id, nx=True)
        log.warning("cluster: Redis lost its keys (restarted?): %d stored tables noted "
                    "again to be taken over", len(active))

    async def take_over(self) -> None:
        """Claim and load every noted table whose lease is missing (its owner died, or
        nobody has run it since the cluster started); first, after a Redis restart,
        note the stored tables again (:meth:`_rejoin`).

        A table where computer players hold every seat is taken only while this process
        runs fewer such tables than its ``--max-bot-tables`` (``manager.bot_room()``);
        the rest are left without an owner for the other processes' sweeps, and wait
        while every process is at its cap: until a game ends at one of them, a process
        with room starts, or someone opens the table (a request claims it wherever it
        arrives). How many wait is logged (:meth:`_note_waiting`) and measured
        (``gametable_tables_waiting_for_room``)."""
        manager = self.manager
        if manager is None or self.stopped:
            return
        try:
            await self._rejoin(manager)
            if not self.reachable:
                return
            orphans = await self._orphans(keys=[TABLES], args=[OWNER])
        except (RedisError, OSError) as error:
            self.outage.failed("cannot look for tables to take over", error)
            return
        self.outage.answered()
        room = manager.bot_room()
        bots_only: set[str] = set()
        if room is not None and len(orphans) > room:
            try:
                bots_only = await asyncio.to_thread(manager.storage.bots_only, orphans)
            except StorageError as error:
                manager.storage_outage.failed("cannot look for tables to take over", error)
                return
        waiting = 0
        for table_id in orphans:
            if table_id in bots_only and not manager.bot_room():
                waiting += 1  # this process runs its most: left for one with room
                continue
            try:
                if not await self.claim(table_id):
                    continue
            except ClusterError as error:
                self._failed(error, "cannot take tables over")
                return
            started = time.monotonic()
            try:
                await manager.get(table_id)
            except Refused as refusal:
                if refusal.code == "storage_failed":
                    # Storage is down for now: the table stays noted, and the next sweep
                    # (of whichever process) tries again.
                    # (The storage's outage log says so, once.)
                    log.info("cluster: table %s not taken over yet: storage failed",
                             log_name(table_id))
                    await self._give_back(table_id, forget=False)
                    return
                # Gone or expired: nothing to run.
                log.info("cluster: table %s not taken over: %s", log_name(table_id), refusal.code)
                await self._give_back(table_id)
                continue
            self.takeovers += 1
            log.info("cluster: took over table %s (loaded in %.3f s)", log_name(table_id),
                     time.monotonic() - started)
        self._note_waiting(waiting)

    def _note_waiting(self, waiting: int) -> None:
        """Note how many computer-only tables this sweep left without an owner, this
        process being at its ``--max-bot-tables``: logged when some first wait, once a
        minute while they do, and when none waits any more."""
        now = time.monotonic()
        if waiting and (not self.waiting_for_room
                        or now - self._waiting_logged >= WAITING_LOG_SECONDS):
            self._waiting_logged = now
            cap = self.manager.caps.bot_tables if self.manager is not None else None
            log.info("cluster: %d %s without an owner left for other processes: this one "
                     "runs its most (--max-bot-tables %s); each waits until a process has "
                     "room (a game ends, a process starts) or someone opens it", waiting,
                     "computer-only table" if waiting == 1 else "computer-only tables", cap)
        elif not waiting and self.waiting_for_room:
            log.info("cluster: no computer-only table waits for room here any more")
        self.waiting_for_room = waiting

    async def take(self, kind: str, rate: Rate, keys: list[str]) -> float:
        """Take a token of ``kind`` from each client key's bucket shared by every process
        (:class:`~gametable.server.limits.SharedBuckets`); the seconds until all have
        one, 0.0 when taken.

        Raises:
            SharedUnavailable: Redis does not answer, or has not for a while (the sweeps
                found it away): the request is not held up waiting for it.
        """
        if not keys:
            return 0.0
        if self.outage.since is not None:
            raise SharedUnavailable("Redis is away")
        try:
            wait = await self._take(keys=[f"{RATE}{kind}:{key}" for key in keys],
                                    args=[rate.burst, rate.every])
        except (RedisError, OSError) as error:
            raise SharedUnavailable(f"Redis: {error}") from None
        return float(wait)

    @contextlib.asynccontextmanager
    async def hold_to_expire(self, table_ids: list[str]) -> AsyncIterator[set[str]]:
        """Hold the leases of those of ``table_ids`` that nobody else holds (taking them,
        and with them their next owner numbers) while the context lasts; it gives the
        set this process holds. A table expires only at its lease's holder, so that a
        person who joins it at another process at that moment reaches this one, and
        either takes the seat first (it no longer waits) or is told it expired. Those
        another process holds are left out, and the rest once Redis or storage fails
        (better not to expire a table someone may play at). On leaving, the leases
        taken here for tables not in memory (expired, or left as they were) are given
        back at once, in one command."""
        held: set[str] = set()
        taken: list[str] = []
        self._expiring.update(table_ids)
        try:
            for table_id in table_ids:
                try:
                    had = self.holds(table_id)
                    if await self.claim(table_id):
                        held.add(table_id)
                        if not had:
                            taken.append(table_id)
                except ClusterError as error:
                    self._failed(error, "waiting tables not expired now")
                    break
            yield held
        finally:
            self._expiring.difference_update(table_ids)
            manager = self.manager
            done = [t for t in taken if t in self.held
                    and (manager is None or t not in manager.tables)]
            for table_id in done:
                self._forget(table_id)
            await self._release_all({t: manager is None or t not in manager.load_failed
                                     for t in done})

    async def ping(self) -> None:
        """Check that Redis answers (for ``/readyz``).

        Raises:
            ClusterError: it does not.
        """
        try:
            await self.redis.ping()
        except (RedisError, OSError) as error:
            raise RedisUnavailable(error) from None

    async def owner(self, table_id: str) -> str | None:
        """The process id and URL holding ``table_id``'s lease (``"<id> <URL>"``), or
        ``None``.

        Raises:
            ClusterError: Redis does not answer.
        """
        try:
            value = await self.redis.get(OWNER + table_id)
        except (RedisError, OSError) as error:
            raise RedisUnavailable(error) from None
        return None if value is None else str(value)

    async def route(self, table_id: str, *, from_peer: bool = False) -> str | None:
        """Where ``table_id`` is served: ``None`` here (this process holds the lease, or
        has just claimed it, or storage has no such table: "no such table" is answered
        here, with no lease taken), else the owner's URL.

        Raises:
            ClusterError: Redis does not answer, the lease is another process's but the
                request came from a peer (it is never forwarded twice), or the lease is
                this process's in Redis but no longer valid here (wait for it to
                expire).
            Refused: ``storage_failed``: nobody holds the table and the database
                cannot say whether it exists (:meth:`_stored`).
        """
        if self.holds(table_id):
            return None
        value = await self.owner(table_id)
        if value is None:
            if not await self._stored(table_id):
                return None  # answered here: "no such table" (no lease for an unknown id)
            if await self.claim(table_id):
                return None
            value = await self.owner(table_id)
            if value is None:
                raise ClusterError("the lease changed hands; try again")
        process, _, url = value.partition(" ")
        if process == self.id:
            raise ClusterError("this process's lease has lapsed; try again")
        if from_peer:
            raise ClusterError(f"a peer forwarded table {log_name(table_id)}, owned by "
                               f"{process}")
        return url

    async def _stored(self, table_id: str) -> bool:
        """Whether storage holds ``table_id`` (an unknown id is answered where it was
        asked, without a lease in Redis).

        Raises:
            Refused: ``storage_failed`` (503, ``storage_unreadable``) when the database
                cannot answer now. It counted as holding the table: the claim went on
                and the load waited for the database again, 20–30 s in all where the
                docs say 10, the table's lease moving from process to process with
                each request. The outage is logged once (the storage's outage log).
        """
        if self.manager is None:
            return True
        try:
            return await asyncio.to_thread(self.manager.storage.has_table, table_id)
        except StorageError as error:
            self.manager.storage_outage.failed(
                f"table {log_name(table_id)} not looked up", error)
            raise Refused("storage_failed", "server.errors.storage_unreadable",
                          status=503, headers={"Retry-After": "5"}) from None

    # -- proxying ---------------------------------------------------------------------

    def peer_of(self, scope: Scope) -> tuple[Scope, Peer]:
        """``scope`` with the client's address a peer forwarded (when the peer token is
        right), and whether a peer sent it."""
        headers = dict(scope.get("headers") or [])
        token = headers.get(PEER_HEADER.encode())
        if token is None or not self.peer_token or not secrets.compare_digest(
                token, self.peer_token.encode()):
            return scope, Peer()
        client = headers.get(CLIENT_HEADER.encode(), b"-").decode("latin-1")
        return {**scope, "client": (client, 0)}, Peer(trusted=True)

    def _peer_headers(self, scope: Scope) -> list[tuple[str, str]]:
        client = scope.get("client")
        return [(PEER_HEADER, self.peer_token),
                (CLIENT_HEADER, str(client[0]) if client else "-")]

    async def _target(self, table_id: str, peer: Peer, deadline: float) -> str | None:
        """The owner's URL, or ``None`` to serve here, waiting up to ``deadline``.

        Raises:
            ClusterError: no owner could be found in time.
        """
        while True:
            try:
                return await self.route(table_id, from_peer=peer.trusted)
            except ClusterError:
                # Redis away for a while already: waiting out the lease tells no more.
                if (time.monotonic() >= deadline
                        or self.outage.lasted() >= KNOWN_OUTAGE_SECONDS):
                    raise
            await asyncio.sleep(0.2)

    async def serve_socket(self, socket: Socket, table_id: str, scope: Scope, peer: Peer,
                           local: Callable[[Socket], Awaitable[None]],
                           address: str = "-") -> None:
        """Serve a table websocket: here (``local``, with the handshake already done)
        when this process owns the table, else piped to the owner's. When the owner
        goes — its connection breaks, or its lease moves while it hangs — the client's
        socket is closed with 1012 so that it reconnects.

        Piped frames are paced here as the owner paces them (``socket.Throttle`` per
        connection; with :attr:`relay_rate`, one pace for all the connections of
        ``address``): a client sending as fast as it can slows itself down at this
        process instead of having every frame decoded and sent on."""
        if not await socket.accept():
            return
        deadline = time.monotonic() + ROUTE_WAIT_SECONDS
        while True:
            try:
                target = await self._target(table_id, peer, deadline)
            except ClusterError as error:
                self._failed(error, "websockets not routed", "websocket of table", table_id)
                await socket.close(*RESTART_CLOSE)
                return
            except Refused:  # storage down: the client tries again later
                await socket.close(*RESTART_CLOSE)
                return
            if target is None:
                await local(_Accepted(socket))
                return
            url = target.replace("http", "ws", 1) + scope["path"]
            try:
                upstream = await websockets.connect(
                    url, additional_headers=self._peer_headers(scope), max_size=None,
                    open_timeout=2, compression=None, proxy=None)
            except (OSError, TimeoutError, websockets.InvalidHandshake) as error:
                if time.monotonic() >= deadline:
                    log.warning("cluster: owner of table %s at %s: %s", log_name(table_id), target,
                                error)
                    await socket.close(*RESTART_CLOSE)
                    return
                await asyncio.sleep(0.2)
                continue
            break
        task, leaving = asyncio.current_task(), asyncio.Event()
        if self.stopped:
            leaving.set()
        elif task is not None:
            self._pipes[task] = leaving
        try:
            with self._relay_pace(address) as pace:
                await _pipe(socket, upstream, lambda: self._owner_moves(table_id, target),
                            pace, leaving=leaving)
        finally:
            if task is not None:
                self._pipes.pop(task, None)

    @contextlib.contextmanager
    def _relay_pace(self, address: str) -> Iterator[Pace | None]:
        """The pace the piped connections of ``address`` share, while one is open."""
        if self.relay_rate is None:
            yield None
            return
        pace, count = self._relay_paces.get(address) or (
            Pace(1 / self.relay_rate.every, self.relay_rate.burst), 0)
        self._relay_paces[address] = (pace, count + 1)
        try:
            yield pace
        finally:
            pace, count = self._relay_paces[address]
            if count > 1:
                self._relay_paces[address] = (pace, count - 1)
            else:
                del self._relay_paces[address]

    async def _owner_moves(self, table_id: str, target: str) -> None:
        """Return once ``target`` no longer holds ``table_id``'s lease (looked at every
        :data:`OWNER_CHECK_SECONDS`; the connections piped to one table share a look)."""
        while True:
            await asyncio.sleep(OWNER_CHECK_SECONDS)
            now = time.monotonic()
            seen = self._owners_seen.get(table_id)
            if seen is None or now - seen[0] >= OWNER_CHECK_SECONDS / 2:
                try:
                    value = await self.owner(table_id)
                except ClusterError:
                    continue  # Redis is slow to answer: the owner is not known to be gone
                self._owners_seen[table_id] = seen = (now, value)
                if len(self._owners_seen) > 10_000:
                    self._owners_seen = {t: v for t, v in self._owners_seen.items()
                                         if now - v[0] < OWNER_CHECK_SECONDS}
            if seen[1] is None or seen[1].partition(" ")[2] != target:
                log.warning("cluster: owner of table %s at %s: its lease moved; its piped "
                            "websockets are closed", log_name(table_id), target)
                return

    async def forward(self, scope: Scope, receive: Receive, send: Send, table_id: str,
                      peer: Peer, local: Callable[[Scope, Receive, Send], Awaitable[None]]
                      ) -> None:
        """Serve an HTTP request about a table: here (``local``) when this process owns
        it, else forwarded to the owner (503 with ``Retry-After`` when none answers)."""
        deadline = time.monotonic() + ROUTE_WAIT_SECONDS
        body: bytes | None = None
        while True:
            try:
                target = await self._target(table_id, peer, deadline)
            except ClusterError as error:
                self._failed(error, "requests not routed", "request for table", table_id)
                await _unavailable(send)
                return
            except Refused as refusal:  # storage down
                await _json(send, refusal.status, refusal.to_json(),
                            [(name.lower().encode(), value.encode())
                             for name, value in refusal.headers.items()])
                return
            if target is None:
                if body is None:
                    await local(scope, receive, send)
                else:
                    await local(scope, _replay_body(body, receive), send)
                return
            if body is None:
                try:
                    body = await _read_body(receive, MAX_FORWARDED_BODY)
                except _ClientGone:
                    return
                if body is None:
                    await _json(send, 413, Refused(
                        "too_large", "server.errors.too_large", status=413,
                        size=MAX_FORWARDED_BODY + 1, limit=MAX_FORWARDED_BODY).to_json())
                    return
            try:
                response = await self._send_watched(scope, target, body, table_id)
            except httpx.TransportError as error:
                # A request that may have reached the owner is not sent again unless
                # sending it twice does nothing more (GET): the owner may have died after
                # applying it, and a join would then take two seats.
                sent = not isinstance(error, (httpx.ConnectError, httpx.ConnectTimeout,
                                              httpx.PoolTimeout))
                if sent and scope["method"] not in _IDEMPOTENT:
                    log.warning("cluster: owner of table %s at %s failed during a %s: %s",
                                log_name(table_id), target, scope["method"], error)
                    await _json(send, 503, Refused(
                        "outcome_unknown", "server.errors.outcome_unknown",
                        status=503).to_json(), [(b"retry-after", b"2")])
                    return
                if time.monotonic() >= deadline:
                    log.warning("cluster: owner of table %s at %s: %s", log_name(table_id), target,
                                error)
                    await _unavailable(send)
                    return
                await asyncio.sleep(0.2)
                continue
            headers = [(k.encode("latin-1"), v.encode("latin-1"))
                       for k, v in response.headers.multi_items()
                       if k.lower() not in _HOP_HEADERS]
            headers.append((b"content-length", str(len(response.content)).encode()))
            await send({"type": "http.response.start", "status": response.status_code,
                        "headers": headers})
            await send({"type": "http.response.body", "body": response.content})
            return

    async def _send_watched(self, scope: Scope, target: str, body: bytes, table_id: str
                            ) -> httpx.Response:
        """Send a request to ``target``, the owner of ``table_id``, and wait for its
        answer while ``target`` holds the table's lease.

        Raises:
            httpx.TransportError: the owner did not answer, or its lease moved while the
                request waited (``ReadTimeout``: the request may have reached it).
        """
        request = asyncio.ensure_future(self._send_upstream(scope, target, body))
        try:
            while True:
                done, _ = await asyncio.wait({request}, timeout=OWNER_CHECK_SECONDS)
                if done:
                    return request.result()
                try:
                    value = await self.owner(table_id)
                except ClusterError:
                    continue  # Redis is slow to answer: keep waiting for the owner
                if value is None or value.partition(" ")[2] != target:
                    log.warning("cluster: owner of table %s at %s stopped answering; its "
                                "lease moved", log_name(table_id), target)
                    raise httpx.ReadTimeout("the table's lease moved while its owner "
                                            "did not answer")
        finally:
            if not request.done():
                request.cancel()

    def _client(self, target: str) -> httpx.AsyncClient:
        """The connection pool for requests to the owner at ``target``."""
        client = self._http.get(target)
        if client is None:
            client = self._http[target] = httpx.AsyncClient(
                timeout=httpx.Timeout(FORWARD_SECONDS, connect=2.0))
        return client

    async def _send_upstream(self, scope: Scope, target: str, body: bytes) -> httpx.Response:
        query = scope.get("query_string", b"").decode("latin-1")
        url = target + scope["path"] + (f"?{query}" if query else "")
        headers = [(k.decode("latin-1"), v.decode("latin-1"))
                   for k, v in scope.get("headers") or []
                   if k.decode("latin-1").lower() not in _DROPPED_HEADERS]
        headers += self._peer_headers(scope)
        return await self._client(target).request(scope["method"], url, headers=headers,
                                                  content=body)


MAX_FORWARDED_BODY = 64 * 1024
"""Largest request body forwarded to a table's owner (the table routes take at most
64 KiB)."""
_IDEMPOTENT = {"GET", "HEAD", "OPTIONS"}
"""Methods a forwarded request may be sent again with (the table routes' GETs only read)."""
_HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "content-length",
                "content-encoding", "upgrade"}
_DROPPED_HEADERS = _HOP_HEADERS | {"host", PEER_HEADER, CLIENT_HEADER, "x-forwarded-for",
                                   "forwarded"}


class _Accepted(Socket):
    """A socket whose handshake the proxy already completed."""

    def __init__(self, socket: Socket) -> None:
        super().__init__(socket._receive, socket._send)

    async def accept(self) -> bool:
        return True


async def _pipe(socket: Socket, upstream: Any,
                owner_moves: Callable[[], Coroutine[Any, Any, None]] | None = None,
                pace: Pace | None = None,
                sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                leaving: asyncio.Event | None = None) -> None:
    """Copy frames both ways until one side closes; the owner's close code reaches the
    client, or 1012 when the owner's connection broke (it died) or ``owner_moves``
    returned (its lease moved: it hangs). When ``leaving`` is set (this process stops)
    the owner's connection is closed and the client is sent ``{"type": "restarting"}``
    and 1012, as the owner's own clients are. Frames from the client are paced as the
    owner paces them (:class:`~gametable.server.socket.Throttle`, and ``pace`` shared
    with the address's other connections)."""

    async def down() -> None:
        async for message in upstream:
            if isinstance(message, str):
                await socket.send_text(message)

    async def up() -> None:
        throttle = Throttle(sleep=sleep)
        while True:
            frame = await socket.next_frame()
            if frame is None:
                return
            await throttle.wait()
            wait = pace.reserve() if pace is not None else 0.0
            if wait:
                await sleep(wait)
            await upstream.send(frame)

    downstream = asyncio.create_task(down())
    upstream_task = asyncio.create_task(up())
    tasks = {downstream, upstream_task}
    watcher: asyncio.Task[None] | None = (
        asyncio.create_task(owner_moves()) if owner_moves is not None else None)
    if watcher is not None:
        tasks.add(watcher)
    stopping: asyncio.Task[Any] | None = (
        asyncio.create_task(leaving.wait()) if leaving is not None else None)
    if stopping is not None:
        tasks.add(stopping)
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*tasks, return_exceptions=True)
    if upstream_task in done:  # the client left
        with contextlib.suppress(Exception):
            await upstream.close()
        return
    if stopping is not None and stopping in done and downstream not in done:
        # The client first: an owner slow to answer the close must not keep it waiting
        # past the shutdown's bound.
        with contextlib.suppress(Exception):
            await socket.send_text(RESTARTING)
        await socket.close(*RESTART_CLOSE)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(upstream.close(), PIPE_CLOSE_SECONDS)
        return
    if watcher is not None and watcher in done and downstream not in done:
        # The owner hangs: its connection is dropped, not closed politely (that would
        # wait for its answer).
        with contextlib.suppress(Exception):
            upstream.transport.abort()
        await socket.close(*RESTART_CLOSE)
        return
    received = upstream.protocol.close_rcvd
    if received is None or received.code in (1006, 1011, 1001):
        await socket.close(*RESTART_CLOSE)
    else:
        await socket.close(received.code, received.reason)


class _ClientGone(Exception):
    """The client went away (or was cut off for a body too slow) before its whole body
    arrived: nothing of it is passed on."""


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The request body, or ``None`` when it is larger than ``limit`` bytes.

    Raises:
        _ClientGone: the body stopped before its end.
    """
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            raise _ClientGone
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay_body(body: bytes, receive: Receive) -> Receive:
    """``receive`` for a request whose body was already read: the body, then what the
    client's connection says (its disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _json(send: Send, status: int, data: Mapping[str, Any],
                headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = orjson.dumps(data)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": body})


async def _unavailable(send: Send) -> None:
    """503 ``table_unavailable`` with ``Retry-After: 1``: no process could be found to
    run the table in time (Redis does not answer, or its owner does not), and nothing
    was done. It was ``shutting_down``, whose words ("your move was not taken") were
    wrong for a read and named a restart that was not happening."""
    refusal = Refused("table_unavailable", "server.errors.table_unavailable", status=503)
    await _json(send, 503, refusal.to_json(), [(b"retry-after", b"1")])


class _ClusterFigures:
    """The cluster's figures at ``/metrics``: ``gametable_leases_held`` and
    ``gametable_tables_waiting_for_room`` (gauges), ``gametable_table_takeovers_total``
    and ``gametable_leases_lost_total`` (counters)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    def describe(self) -> list[Metric]:
        return list(self.collect())

    def collect(self) -> list[Metric]:
        cluster = self.cluster
        return [
            GaugeMetricFamily("gametable_leases_held",
                              "Table leases this process holds.", value=len(cluster.held)),
            CounterMetricFamily("gametable_table_takeovers",
                                "Tables without an owner (their process had gone) that "
                                "this process's sweep claimed and loaded.",
                                value=cluster.takeovers),
            CounterMetricFamily("gametable_leases_lost",
                                "Table leases lost while held (taken, or not renewed in "
                                "time).", value=cluster.losses),
            GaugeMetricFamily("gametable_tables_waiting_for_room",
                              "Computer-only tables without an owner that this process's "
                              "last takeover sweep left for others, being at its "
                              "--max-bot-tables.", value=cluster.waiting_for_room),
        ]


def without_password(url: str) -> str:
    """``url`` with its password, if any, written ``***`` (for logs and messages):
    ``redis://:secret@host:6379/0`` → ``redis://:***@host:6379/0``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
