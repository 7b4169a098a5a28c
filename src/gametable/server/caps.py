"""The caps on tables per client and per process (:class:`Caps`), counted by
:class:`CapCounter` for the table manager (``gametable.server.tables``): how many tables
one client (address) may keep waiting for players or running computer players only, and
how many computer-only tables a process runs. Nothing here knows which game a table
holds."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from gametable.server.refused import Refused
from gametable.server.storage import Storage, StorageError
from gametable.server.table import Table


@dataclass
class Caps:
    """How many tables of some kinds, and websocket connections, there may be (``None``:
    no cap).

    Attributes:
        waiting_per_client: tables with open seats one client (address) created.
        bot_tables_per_client: unfinished tables with computer players in every seat one
            client created.
        bot_tables: unfinished tables with computer players in every seat, all clients.
        waiting_hours: hours after which a table whose seats are still not all taken
            expires (it is kept as expired and no longer served).
        connections_per_client: table websockets one client address may hold open at
            once to watch (more are closed with 1013; one that opens a seat counts
            against its seat, ``limits.SEAT_CONNECTIONS``, never its address).
        watchers_per_table: connections without a seat watching one table at once (more
            are closed with 1013; seated players are never refused for it).
    """

    waiting_per_client: int | None = 20
    bot_tables_per_client: int | None = 3
    bot_tables: int | None = 100
    waiting_hours: float | None = 48.0
    connections_per_client: int | None = 100
    watchers_per_table: int | None = 200


class CapCounter:
    """Counts a table asked for against the :class:`Caps`.

    Args:
        storage: where the tables are kept; the caps per client count the tables stored
            (:meth:`Storage.created_by`).
        caps: the caps.
        secret: the server's secret key, which keys :meth:`client_digest`.
        running_bot_tables: how many unfinished computer-only tables this process runs
            now (for :attr:`Caps.bot_tables`).
    """

    def __init__(self, storage: Storage, caps: Caps, secret: bytes,
                 running_bot_tables: Callable[[], int]) -> None:
        self.storage = storage
        self.caps = caps
        self.secret = secret
        self.running_bot_tables = running_bot_tables
        self._counting: dict[str, tuple[asyncio.Lock, int]] = {}
        """Per creator: the lock of :meth:`counting` and how many hold or await it."""

    def client_digest(self, client: str) -> str:
        """The stored form of a client's address (``TableRow.creator``): HMAC-SHA256
        keyed with the server's secret, 32 hex digits. Every process of a cluster has the
        same secret, so they agree on it; the address cannot be read back from it."""
        return hmac.new(self.secret, f"client:{client}".encode(),
                        hashlib.sha256).hexdigest()[:32]

    @asynccontextmanager
    async def counting(self, creator: str | None) -> AsyncIterator[None]:
        """Held from a count of :meth:`check` until the table it allowed is stored:
        one client's requests that arrive together in this process are counted one after
        another, each seeing the tables the ones before it made (without it, ten made at
        once would all pass a cap with one place left). ``None``: nothing is held."""
        if creator is None:
            yield
            return
        lock, users = self._counting.get(creator, (asyncio.Lock(), 0))
        self._counting[creator] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._counting[creator]
            if users == 1:
                del self._counting[creator]
            else:
                self._counting[creator] = (lock, users - 1)

    @asynccontextmanager
    async def leaving_to_bots(self, table: Table, bots_only: bool, client: str | None
                              ) -> AsyncIterator[None]:
        """Held while a change of seat is checked and stored that may leave ``table`` to
        computer players alone (``bots_only``): then it must pass the cap of its creator
        (:meth:`check`, under :meth:`counting`). ``client`` is the address of
        whoever asks (``None``: unknown), so that only the table's maker is told "you".

        Raises:
            Refused: as :meth:`check`, on entering; nothing changed.
        """
        if not bots_only:
            yield
            return
        asker = None if client is None else self.client_digest(client)
        async with self.counting(table.creator):
            await self.check(table.creator, waiting=False, bots_only=True,
                                  by_creator=asker is not None and asker == table.creator)
            yield

    async def check(self, creator: str | None, waiting: bool, bots_only: bool, *,
                    by_creator: bool = True) -> None:
        """Refuse a table that would pass a cap. The caps per client count the tables
        ``creator`` (:meth:`client_digest`; ``None``: none of them apply) made, as
        stored, so that every process sharing the storage, and this one after a
        restart, count alike; :attr:`Caps.bot_tables` counts this process's tables (it
        guards this process's cores). Hold :meth:`counting` from the count until
        the change it allows is stored.

        Args:
            waiting: the table will wait for players (a seat open).
            bots_only: computer players will hold every seat.
            by_creator: whether ``creator`` asks (the refusal says "you"); else someone
                else at the table does, and it speaks of the table's maker.

        Raises:
            Refused: ``too_many_tables`` (429 over a cap per client, 503 over
                :attr:`Caps.bot_tables`; ``limit`` and ``count``: the cap),
                ``storage_failed`` (503) when storage cannot say how many tables the
                client has.
        """
        caps = self.caps
        if creator is not None and (
                (waiting and caps.waiting_per_client is not None)
                or (bots_only and caps.bot_tables_per_client is not None)):
            try:
                waiting_now, bots_now = await asyncio.to_thread(self.storage.created_by,
                                                                creator)
            except StorageError:
                raise Refused("storage_failed", "server.errors.storage_failed",
                              status=503) from None
            if waiting and caps.waiting_per_client is not None \
                    and waiting_now >= caps.waiting_per_client:
                raise Refused("too_many_tables", "server.errors.too_many_waiting",
                              status=429, limit=caps.waiting_per_client,
                              count=caps.waiting_per_client)
            if bots_only and caps.bot_tables_per_client is not None \
                    and bots_now >= caps.bot_tables_per_client:
                raise Refused("too_many_tables", "server.errors.too_many_bot_tables"
                              if by_creator else "server.errors.creator_bot_tables",
                              status=429, limit=caps.bot_tables_per_client,
                              count=caps.bot_tables_per_client)
        if bots_only and caps.bot_tables is not None \
                and self.running_bot_tables() >= caps.bot_tables:
            raise Refused("too_many_tables", "server.errors.server_bot_tables",
                          status=503, limit=caps.bot_tables, count=caps.bot_tables)
