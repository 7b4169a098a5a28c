"""Storage that writes a table only while this process holds the table's lease.

With several processes (:mod:`gametable.server.cluster`) each table is run by the one
that holds its lease. A process that lost a lease — it was paused, or its Redis link
was slow — may still have a message or a request for that table under way; what it
would store then (a seat, the clock, the host, the options, the end, the expiry) would
overwrite what the new owner stored. Every write about one table goes through
:class:`FencedStorage`, which refuses it (:class:`StorageError`, answered as
``storage_failed``) unless the lease is still this process's (an expiry, written for
many tables at once, leaves out those whose lease it does not hold). Actions are, besides, a
compare-and-set on the table's action number in storage.

That check is made before the write is sent: a write checked while the lease held may
still reach the database after another process took the table over (this one paused,
or its database link stalled). A storage that :class:`FencesWrites` (PostgreSQL) closes
that gap in the database itself: taking a table over raises the table's owner number
there, and every write carries the number its process got and is refused when it is no
longer the table's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from gametable.server.logname import log_name
from gametable.server.storage import OwnerChanged, SeatRow, Storage, TableRow


@runtime_checkable
class FencesWrites(Protocol):
    """A storage whose writes about a table can be fenced by an owner number kept with
    the table (:class:`~gametable.server.postgres.PostgresStorage`)."""

    fence_of: Callable[[str], int | None] | None
    """The number this process got for a table (``None``: it did not take the table
    over, and the write is refused); unset: writes are not fenced."""

    fence_refused: Callable[[str], Awaitable[None]] | None
    """Called with a table whose write the owner number refused, before the refusal
    (:class:`~gametable.server.storage.OwnerChanged`) is raised."""

    async def take_table(self, table_id: str) -> int:
        """Raise ``table_id``'s owner number and return it (0: not stored yet).

        Raises:
            StorageError: the storage failed.
        """
        ...


class FencedStorage:
    """``storage`` (any :class:`~gametable.server.storage.Storage`), writing a table
    only while ``holds(table_id)`` is true; reads and the sweeps over many tables go
    straight through."""

    def __init__(self, storage: Storage, holds: Callable[[str], bool]) -> None:
        self.inner = storage
        self.holds = holds

    def _check(self, table_id: str) -> None:
        if not self.holds(table_id):
            raise OwnerChanged(f"table {log_name(table_id)} is run by another process now "
                               "(this one no longer holds its lease)")

    async def create_table(self, table: TableRow) -> None:
        self._check(table.id)
        await self.inner.create_table(table)

    async def save_seat(self, table_id: str, seat: SeatRow, seed: int | None = None, *,
                        shown: bool = False) -> None:
        self._check(table_id)
        await self.inner.save_seat(table_id, seat, seed, shown=shown)

    async def save_options(self, table_id: str, config: dict[str, Any], seed: int,
                           clock: dict[str, Any] | None) -> None:
        self._check(table_id)
        await self.inner.save_options(table_id, config, seed, clock)

    async def append_action(self, table_id: str, number: int, seat: int,
                            action: dict[str, Any], clock: dict[str, Any] | None = None,
                            finished: float | None = None) -> None:
        self._check(table_id)
        await self.inner.append_action(table_id, number, seat, action, clock, finished)

    async def save_host(self, table_id: str, host_hash: str, host_seat: int | None) -> None:
        self._check(table_id)
        await self.inner.save_host(table_id, host_hash, host_seat)

    async def save_watching(self, table_id: str, allowed: bool) -> None:
        self._check(table_id)
        await self.inner.save_watching(table_id, allowed)

    async def mark_ended(self, table_id: str, when: float) -> None:
        self._check(table_id)
        await self.inner.mark_ended(table_id, when)

    async def save_clock(self, table_id: str, clock: dict[str, Any]) -> None:
        self._check(table_id)
        await self.inner.save_clock(table_id, clock)

    async def save_rematch(self, table_id: str, link: dict[str, Any] | None) -> None:
        self._check(table_id)
        await self.inner.save_rematch(table_id, link)

    async def mark_finished(self, table_id: str, when: float) -> None:
        self._check(table_id)
        await self.inner.mark_finished(table_id, when)

    async def mark_expired(self, found: Mapping[str, int], when: float) -> list[str]:
        """Only the tables whose lease this process holds are written (the others are
        left out, not refused: a sweep writes many tables at once)."""
        return await self.inner.mark_expired(
            {table_id: changes for table_id, changes in found.items() if self.holds(table_id)},
            when)

    async def append_chat(self, table_id: str, message: dict[str, Any], *, keep: int
                          ) -> None:
        self._check(table_id)
        await self.inner.append_chat(table_id, message, keep=keep)

    def load_chat(self, table_id: str, limit: int) -> list[dict[str, Any]]:
        return self.inner.load_chat(table_id, limit)

    def waiting_before(self, created: float) -> dict[str, int]:
        return self.inner.waiting_before(created)

    def load_tables(self, *, active_only: bool = False) -> list[TableRow]:
        return self.inner.load_tables(active_only=active_only)

    def load_table(self, table_id: str) -> TableRow | None:
        return self.inner.load_table(table_id)

    def has_table(self, table_id: str) -> bool:
        return self.inner.has_table(table_id)

    def unfinished_with(self, option: str, value: str) -> list[str]:
        return self.inner.unfinished_with(option, value)

    def created_by(self, creator: str) -> tuple[int, int]:
        return self.inner.created_by(creator)

    def bots_only(self, table_ids: Sequence[str]) -> set[str]:
        return self.inner.bots_only(table_ids)

    def identity(self) -> str:
        return self.inner.identity()

    def ping(self) -> None:
        self.inner.ping()

    def close(self) -> None:
        self.inner.close()
