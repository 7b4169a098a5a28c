"""Tables made, loaded, joined and played: :class:`TableManager`, which the web layer
calls. One table (its game, seats, record, clients and computer players) is
:class:`gametable.server.table.Table`.

Everything here goes through the game protocol and never looks at which game a table
holds. The order of events for an action is fixed:

1. the table's lock is taken, so actions of one table are applied one at a time;
2. the rules validate and apply the action (a refusal changes nothing);
3. the action is appended to the record in storage and the write is awaited;
4. only then does each client receive its own ``view``.

If storage fails, the state is rebuilt from the stored record and the sender is told.
"""


from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import re
import secrets
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from typing import Any, Final

from gametable.bots import Bot, bot_names, make_bot
from gametable.bots.base import UnknownBot, thinking_budget
from gametable.bots.pace import think_time
from gametable.core import registry
from gametable.core.actions import copy_actions
from gametable.core.config import for_new_game, stored_options
from gametable.core.errors import GameError
from gametable.core.protocol import Game, HasPatience, Seat
from gametable.core.values import json_copy
from gametable.decks import find_deck
from gametable.decks.uploads import is_owner
from gametable.server.caps import CapCounter, Caps
from gametable.server.clock import ABSENT, ASKED, JOIN_GRACE_SECONDS, TURN, Clock, ClockSettings
from gametable.server.deciding import Deciders, DecisionFailed, fallback_action
from gametable.server.logname import log_name
from gametable.server.logtext import game_time, plural
from gametable.server.metrics import Metrics
from gametable.server.offers import PASSED, host_derived_as, offer_of, offer_open
from gametable.server.outage import Outage
from gametable.server.refused import Refused
from gametable.server.seatnames import clean_name, distinct_name
from gametable.server.storage import (
    NumberTaken,
    OwnerChanged,
    SeatRow,
    Storage,
    StorageError,
    TableRow,
    WriteClash,
    earlier_occupants,
    token_hash,
)
from gametable.server.table import (
    BOT,
    FINISHED,
    HUMAN,
    OPEN,
    PLAYING,
    RESTART_CLOSE,
    SEAT_CHANGED_CLOSE,
    WAITING,
    Connection,
    Table,
    all_bots,
)

log = logging.getLogger("gametable.tables")

BOT_RETRY_SECONDS = 2.0
"""A computer player whose move could not be stored (the database away for a moment)
decides again after this many seconds."""
ARRIVAL_POLL_SECONDS = 0.5
"""How often a computer player waiting for people to come to the table looks again."""

IDLE_FINISHED = 10 * 60.0
"""Seconds a finished table with nobody connected stays in memory."""
IDLE_PLAYING = 60 * 60.0
"""Seconds an unfinished table with nobody connected and no bot acting stays in memory."""
EXPIRE_AT_ONCE = 200
"""The most waiting tables one step of the expiry sweep takes the leases of, writes and
gives back: with several processes, a mass expiry holds few leases at a time."""


def game_named(name: str) -> Game[Any]:
    """The registered game called ``name``.

    Raises:
        Refused: ``unknown_game`` (400, ``errors.unknown_game`` naming the known games),
            the same answer wherever a request names a game: creating a table, checking
            its options, replaying a record.
    """
    try:
        return registry.get(name)
    except GameError as error:
        raise Refused("unknown_game", error.key, **error.params) from None


SEAT_WORDS = ((HUMAN, ("person", "people")), (BOT, ("computer player", "computer players")),
              (OPEN, ("open seat", "open seats")))
"""How the log names each kind of seat, one and several."""


@dataclass
class SeatRequest:
    """A seat asked for when creating a table."""

    kind: str  # "human" or "bot"
    bot: str | None = None
    name: str | None = None


class TableManager:
    """Creates, loads and runs tables; the web layer calls only this.

    Args:
        storage: where tables and records are kept.
        bot_delay: seconds a computer player waits before acting, so people can follow
            (times a random factor, never anything about the cards: :func:`think_time`).
        secret: the server's secret key; computer players' seeds are derived from the
            table's seed with it (:meth:`bot_seed`), so neither can be worked out from
            the other. ``None``: a random one for this process.
        caps: how many waiting and all-bot tables there may be.
        absent_seconds: seconds a seat that must act may stay disconnected before a
            computer player covers for it, at tables whose clock asks for that
            (:attr:`ClockSettings.cover_absent`).
        host_gone_seconds: seconds the host's seat may have nobody connected, while
            someone else is, before the host role passes on.
        reopen_after_seconds: seconds a person must have had no connection before the
            host may open their seat for someone else (``gametable.server.hosting``).

    Attributes:
        watch_connections: called with a table whenever its connections change (the
            server sets it to ``gametable.server.hosting.watch_host``).
    """

    def __init__(self, storage: Storage, *, bot_delay: float = 0.8,
                 secret: bytes | None = None, caps: Caps | None = None,
                 absent_seconds: float = 30.0, host_gone_seconds: float = 300.0,
                 reopen_after_seconds: float = 60.0) -> None:
        self.storage = storage
        self.host_gone_seconds = host_gone_seconds
        self.reopen_after_seconds = reopen_after_seconds
        self.watch_connections: Callable[[Table], None] | None = None
        self.bot_delay = bot_delay
        self.absent_seconds = absent_seconds
        self._clock_tasks: set[asyncio.Task[None]] = set()
        self.deciders = Deciders()
        """Where computer players decide (threads of their own, a few at once)."""
        self._pace = random.Random()  # think-time jitter only, never a game's chance
        self.secret = secret if secret is not None else secrets.token_bytes(32)
        self.caps = caps or Caps()
        self.counter = CapCounter(storage, self.caps, self.secret, lambda: sum(
            1 for t in self.tables.values() if all_bots(t) and t.status != FINISHED))
        """Counts tables asked for against :attr:`caps`."""
        self._ends_unnoted: set[str] = set()
        """Games over whose end storage has not noted yet (:meth:`note_ends`)."""
        self.tables: dict[str, Table] = {}
        """The tables in memory; others are loaded from storage when asked for."""
        self._loading = asyncio.Lock()
        self.loading: set[str] = set()
        """Tables being loaded from storage now (or waiting to be): another process must
        not get their lease meanwhile, however slow storage is."""
        self.metrics = Metrics(
            lambda: len(self.tables),
            lambda: sum(len(table.connections) for table in self.tables.values()),
            lambda: sum(table.status != FINISHED for table in list(self.tables.values())))
        self.draining = False
        """Set at shutdown: no more actions are taken (``shutting_down``)."""
        self.storage_outage = Outage("the table storage", log=log, prefix="storage",
                                     stops="moves are refused")
        """The log of storage failing moves and clocks (one line, not one per move)."""
        self.fence: Callable[[str], bool] | None = None
        """With several processes (``gametable.server.cluster``): whether this process
        may still act for a table (it holds the table's lease); ``None``: always."""
        self.load_failed: set[str] = set()
        """Tables that could not be loaded (storage failed), or that left memory here
        because this process might no longer act for them (its lease had run out): with
        several processes, their leases are given back but they stay noted, so that one
        process takes each over (once storage answers again) and its computer players
        and clock start again."""
        self.claim: Callable[[str], Awaitable[bool]] | None = None
        """With several processes: take the lease of a new table before storing it
        (``False``: another process holds it); ``None``: nothing to take."""
        self.hold_to_expire: Callable[[list[str]],
                                      AbstractAsyncContextManager[set[str]]] | None = None
        """With several processes: hold the leases of these tables about to expire
        while the context lasts; it gives those this process holds (only those expire
        from here)."""

    def deal_of(self, seed: int) -> int:
        """The ``deal`` that states of a table seeded ``seed`` say (docs/protocol.md): a
        keyed hash of the seed (HMAC-SHA-256 with :attr:`secret`), 1 to 2**31 - 1, that
        tells nothing of the seed."""
        digest = hmac.new(self.secret, f"deal:{seed}".encode(), hashlib.sha256).digest()
        return int.from_bytes(digest[:4], "big") % (2**31 - 1) + 1

    def bot_seed(self, seed: int, seat: Seat) -> int:
        """The seed of the computer player in ``seat`` of a table seeded ``seed``: a keyed
        hash (HMAC-SHA-256 with :attr:`secret`), below 2**63."""
        digest = hmac.new(self.secret, f"bot-seed:{seed}:{seat}".encode(),
                          hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big") % 2**63

    # -- loading ------------------------------------------------------------------

    def load(self) -> int:
        """Rebuild the stored tables that have work to do at start-up by replaying their
        records: unfinished games whose every seat is taken and where a computer player
        sits or a turn clock runs (it may have to move, or a deadline pass). Every other
        table is loaded when someone asks for it. Returns how many loaded.
        """
        for row in self.storage.load_tables(active_only=True):
            try:
                table = self._replay(row)
            except Refused:
                continue  # logged; it stays in storage as it was
            if table is not None:
                self.tables[table.id] = table
        return len(self.tables)

    def _replay(self, row: TableRow) -> Table | None:
        """The table of ``row``, its record replayed; ``None`` when the record cannot be
        replayed (logged).

        Raises:
            Refused: ``bot_unavailable`` (503) when an unfinished game seats a computer
                player this process cannot make, or its turn clock covers away seats
                with one (a bot registered by a module given to ``--import`` when the
                table was made, and not given now); logged, the table left in storage
                as it was.
        """
        try:
            table = self._build(row)
            if table.clock is not None:
                # Stored again by the first change; until then a later loading moves
                # the same deadlines again, to no earlier a time.
                table.clock.loaded(time.time())
            for seat, action in row.actions:
                events = table.game.apply(table.state, seat, action)
                table.actions.append((seat, action))
                if events:
                    table.earlier_events.append((table.version, events, None))
        except GameError as error:
            log.error("table %s cannot be replayed: %s", log_name(row.id), error)
            return None
        table.committed = table.game.outcome(table.state)
        if table.status == FINISHED and row.finished is None and table.ended is None:
            # Stored as under way, replayed as over: see note_ends. Wherever it is loaded
            # (several processes load no table at start-up).
            self._ends_unnoted.add(table.id)
        self._seat_bots(table)
        return table

    def _seat_bots(self, table: Table) -> None:
        """Make the computer players of ``table``'s bot seats. A finished game's seats
        need none to show or replay it: a player that cannot be made is left out there.

        Raises:
            Refused: ``bot_unavailable``, as :meth:`_replay` says.
        """
        for seat in table.seats:
            if seat.kind != BOT or not seat.bot:
                continue
            try:
                table.bots[seat.seat] = make_bot(seat.bot, table.game,
                                                 self.bot_seed(table.seed, seat.seat))
            except UnknownBot:
                if table.status == FINISHED:
                    continue
                log.error("table %s not loaded: it seats the computer player %r, which "
                          "this server does not know (was it registered by a module "
                          "given to --import? start the server with that module again)",
                          log_name(table.id), seat.bot)
                raise Refused("bot_unavailable", "server.errors.bot_unavailable",
                              status=503, bot=seat.bot) from None
        cover = table.clock.settings.cover if table.clock is not None else None
        if cover is not None and table.status != FINISHED and cover not in bot_names():
            # Its turn clock's computer player would fail at every away seat's turn.
            log.error("table %s not loaded: its turn clock covers away seats with the "
                      "computer player %r, which this server does not know (was it "
                      "registered by a module given to --import? start the server with "
                      "that module again)", log_name(table.id), cover)
            raise Refused("bot_unavailable", "server.errors.cover_unavailable",
                          status=503, bot=cover)

    def start_bots(self) -> None:
        """Let computer players act where it is their turn, and turn clocks run (after a
        restart)."""
        for table in self.tables.values():
            self._start_clock(table)
            self._wake_bots(table)

    def _host_chosen(self, row: TableRow) -> bool:
        """Whether the stored table's host was chosen (:attr:`Table.host_chosen`): not
        where the host token is the one derived for a role passed on by itself."""
        seat = row.host_seat
        if seat is None or not 0 <= seat < len(row.seats) or row.host_hash is None:
            return True
        seat_hash = row.seats[seat].token_hash
        return seat_hash is None or host_derived_as(self.secret, row.id, seat_hash,
                                                    row.host_hash) != PASSED

    def _build(self, row: TableRow) -> Table:
        game = registry.get(row.game)
        config = game.make_config(row.config, len(row.seats))
        table = Table(id=row.id, game=game, game_name=row.game, options=row.config,
                      config=config, seed=row.seed, host_hash=row.host_hash,
                      created=row.created, seats=row.seats,
                      state=game.new_game(config, len(row.seats), row.seed),
                      host_seat=row.host_seat, ended=row.ended, watching=row.watching,
                      deal=self.deal_of(row.seed), creator=row.creator,
                      first_action=row.first_action)
        if row.clock is not None:
            try:
                table.clock = Clock.from_json(row.clock, self.absent_seconds)
            except (KeyError, TypeError, ValueError):
                log.error("table %s: its stored clock cannot be read; it runs without",
                          log_name(row.id))
        table.seated = table.status != WAITING
        table.host_chosen = self._host_chosen(row)
        table.shown = row.deal_shown
        table.note_seats()
        if table.shown:
            # Who was sent their hand is not stored: count every seat as having seen it
            # (:attr:`Table.shown_to`).
            table.shown_to.update(range(len(table.seats)))
        if row.rematch is not None:
            # The offer to play again made before: the same new table, the same tokens.
            try:
                table.rematch = offer_of(row.rematch, table.seats, self.secret)
            except (KeyError, TypeError, ValueError):
                log.error("table %s: its stored offer to play again cannot be read",
                          log_name(row.id))
        table.on_clock_due = self._clock_due
        table.on_clock_moved = self._store_clock_later
        table.on_connections = self._connections_changed
        return table

    # -- creating and joining -------------------------------------------------------

    async def get(self, table_id: str) -> Table:
        """The table ``table_id``, loaded from storage if it is not in memory.

        Raises:
            Refused: ``no_table`` (404) when there is no such table (also for an id no
                table can have, :data:`TABLE_ID`, which storage is not asked about: a
                NUL character made PostgreSQL's read fail), ``table_expired`` (410),
                ``storage_failed`` (503) when storage cannot read it now.
        """
        if not TABLE_ID.fullmatch(table_id):
            raise Refused("no_table", "server.errors.no_table", status=404, table=table_id)
        table = self.tables.get(table_id)
        if table is not None and self.fence is not None and not self.fence(table_id):
            # A copy left from before another process took the table over: it has fallen
            # behind (and its clock and computer players must not act).
            self.unload(table_id, table)
            self.load_failed.add(table_id)  # (taken over again should nobody hold it)
            table = None
        if table is None:
            self.loading.add(table_id)
            try:
                table = await self._load(table_id)
            except Refused as refusal:
                if refusal.code == "storage_failed":
                    self.load_failed.add(table_id)
                raise
            finally:
                self.loading.discard(table_id)
        if table is None:
            raise Refused("no_table", "server.errors.no_table", status=404, table=table_id)
        self.load_failed.discard(table_id)
        table.last_active = time.monotonic()
        return table

    async def _load(self, table_id: str) -> Table | None:
        """Load ``table_id`` from storage into memory (one table at a time); ``None`` when
        there is no such table. Raises :class:`Refused` as :meth:`get` says."""
        async with self._loading:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            try:
                row = await asyncio.to_thread(self.storage.load_table, table_id)
            except StorageError as error:
                # An outage fails every load: logged once, then once a minute.
                self.storage_outage.failed(f"table {log_name(table_id)} not loaded", error)
                # Not "could not save that": nothing was being saved.
                raise Refused("storage_failed", "server.errors.storage_unreadable",
                              status=503) from None
            if row is not None and row.expired is not None:
                raise self.expired_refusal()
            if row is not None and self.fence is not None and not self.fence(table_id):
                # Several processes: only the lease's holder keeps a table in memory (a
                # copy held elsewhere would fall behind the owner's and act on it).
                raise Refused("table_moved", "server.errors.table_moved", status=503)
            table = self._replay(row) if row is not None else None
            if table is not None and table.rematch is not None \
                    and not await offer_open(self.storage, table.rematch):
                table.rematch = None  # its new table can no longer be joined: Play again
            if table is not None:
                self.tables[table_id] = table
                self._start_clock(table)
                self._wake_bots(table)
            return table

    def bot_room(self) -> int | None:
        """How many more computer-only tables this process may run under its cap
        (``--max-bot-tables``: :attr:`Caps.bot_tables`; 0 at or past it), or ``None``
        without a cap. The takeover sweep of several processes leaves the rest to
        processes with room (:meth:`gametable.server.cluster.Cluster.take_over`)."""
        cap = self.caps.bot_tables
        return None if cap is None else max(0, cap - self.counter.running_bot_tables())

    def expired_refusal(self) -> Refused:
        """The answer about a table that expired (410 ``table_expired``)."""
        return Refused("table_expired", "server.errors.table_expired", status=410,
                       hours=_hours(self.caps.waiting_hours))

    def evict_idle(self, now: float | None = None) -> int:
        """Drop tables nobody uses from memory (they stay in storage); returns how many.

        A finished table goes after :data:`IDLE_FINISHED` seconds without a connection,
        an unfinished one after :data:`IDLE_PLAYING`; either comes back on next access.
        """
        now = time.monotonic() if now is None else now
        idle = [table_id for table_id, table in self.tables.items()
                if (idle_for := table.idle_for(now)) > 0 and idle_for >= (
                    IDLE_FINISHED if table.status == FINISHED else IDLE_PLAYING)]
        for table_id in idle:
            table = self.tables.pop(table_id)
            table.stop_clock()
            if table.host_check is not None:
                table.host_check.cancel()
                table.host_check = None
        return len(idle)

    async def expire_waiting(self, now: float | None = None) -> int:
        """Mark the tables whose seats are still not all taken :attr:`Caps.waiting_hours`
        after they were created, and whose game has not started, as expired (in storage;
        they leave memory and are no longer served), unless someone is connected to one.
        A game under way never expires, even while a seat its host reopened waits.
        Returns how many expired.

        A table expires only where its lease is held (:attr:`hold_to_expire`), and only
        while nothing changes it: one in memory is checked again and written under its
        lock, one only in storage is written while no table loads (a join or a websocket
        loads it first). The write itself leaves a table whose seats changed hands since
        the sweep found it (a join at another process, say): a join is either stored
        first, and the table stays, or refused as ``table_expired``."""
        hours = self.caps.waiting_hours
        if hours is None:
            return 0
        now = time.time() if now is None else now
        found = await asyncio.to_thread(self.storage.waiting_before, now - hours * 3600)
        candidates = [t for t in found if not _in_use(self.tables.get(t))]
        expired = 0
        for start in range(0, len(candidates), EXPIRE_AT_ONCE):
            chunk = candidates[start:start + EXPIRE_AT_ONCE]
            if self.hold_to_expire is None:
                expired += await self._expire_found({t: found[t] for t in chunk}, now)
                continue
            async with self.hold_to_expire(chunk) as held:
                expired += await self._expire_found(
                    {t: found[t] for t in chunk if t in held}, now)
        return expired

    async def _expire_found(self, found: Mapping[str, int], now: float) -> int:
        """Expire those of ``found`` (as :meth:`Storage.mark_expired` takes it) that
        still wait; returns how many did."""
        async with self._loading:
            away = {t: changes for t, changes in found.items() if t not in self.tables}
            expired = len(await self._mark_expired(away, now))
        for table_id in found:
            table = self.tables.get(table_id)
            if table is None or table_id in away:
                continue
            async with table.lock:
                if _in_use(table) or self.tables.get(table_id) is not table:
                    continue
                if await self._mark_expired({table_id: found[table_id]}, now):
                    table.expired = True
                    self.unload(table_id, table)
                    expired += 1
        return expired

    async def _mark_expired(self, found: Mapping[str, int], now: float) -> list[str]:
        if not found:
            return []
        try:
            return await self.storage.mark_expired(found, now)
        except StorageError as error:
            log.warning("could not mark %s as expired: %s",
                        plural(len(found), "waiting table", "waiting tables"), error)
            return []

    async def create(self, game_name: str, options: Mapping[str, Any] | None,
                     seats: list[SeatRequest], creator: str | None,
                     deck_keys: Sequence[str] = (), client: str = "-",
                     clock: ClockSettings | None = None
                     ) -> tuple[Table, str, Seat | None, str | None]:
        """A new table; the creator takes the first human seat when there is one.

        Args:
            deck_keys: owner keys of uploaded decks the creator holds: a table may use an
                uploaded picture deck (a config's ``deck``) only with its owner key.
            client: who asks (their address), for :class:`Caps`.
            clock: the table's turn clock (``None`` or one that is not
                :attr:`~ClockSettings.active`: no clock).

        Returns:
            ``(table, host_token, creator_seat, creator_token)``.

        Raises:
            Refused: unknown game (``unknown_game``, see :func:`game_named`) or bot
                (also the clock's ``cover``), invalid options or
                seat count, or an uploaded deck whose owner key is missing (404, as if
                there were no such deck).
        """
        check_deck_owner(options, deck_keys)
        game = game_named(game_name)
        try:
            config = game.make_config(for_new_game(options), len(seats))
        except GameError as error:
            raise Refused.from_game_error(error) from None
        for number, request in enumerate(seats, 1):
            if request.kind == BOT and request.bot is None:
                raise Refused("bad_bot", "server.errors.bot_missing", seat=number,
                              bots=", ".join(bot_names()))
            if request.kind == BOT and request.bot not in bot_names():
                raise Refused("bad_bot", "server.errors.unknown_bot", bot=str(request.bot),
                              bots=", ".join(bot_names()))
        if clock is not None and clock.cover not in bot_names():
            raise Refused("bad_bot", "server.errors.unknown_bot", bot=clock.cover,
                          bots=", ".join(bot_names()))
        human_seats = sum(1 for request in seats if request.kind != BOT)
        digest = self.counter.client_digest(client)
        host_token = secrets.token_urlsafe(24)
        creator_seat: Seat | None = None
        creator_token: str | None = None
        rows: list[SeatRow] = []
        for index, request in enumerate(seats):
            if request.kind == BOT:
                # A computer player's name is told apart like a person's (no two "Ada").
                named = clean_name(request.name)
                rows.append(SeatRow(index, BOT, bot=request.bot, name=distinct_name(
                    named, rows, index, person=False) or None))
            elif creator_seat is None and creator is not None:
                creator_seat = index
                creator_token = secrets.token_urlsafe(24)
                rows.append(SeatRow(index, HUMAN, name=clean_name(creator) or None,
                                    token_hash=token_hash(creator_token)))
            else:
                rows.append(SeatRow(index, OPEN))
        if creator_seat is not None and rows[creator_seat].name:
            # Not "Computer 2" beside a computer player of seat 2, nor a bot's own name.
            rows[creator_seat] = replace(rows[creator_seat], name=distinct_name(
                rows[creator_seat].name or "", rows, creator_seat) or None)
        row = TableRow(id=new_table_id(), game=game_name,
                       config=stored_options(config),
                       seed=secrets.randbits(63), host_hash=token_hash(host_token),
                       created=time.time(), seats=rows, host_seat=creator_seat,
                       clock=Clock(clock).to_json() if clock and clock.active else None,
                       creator=digest)
        async with self.counter.counting(digest):
            await self.counter.check(digest, waiting=human_seats > (creator is not None),
                                  bots_only=human_seats == 0)
            table = await self.add_table(row)
        return table, host_token, creator_seat, creator_token

    async def add_table(self, row: TableRow) -> Table:
        """Store a new table made of ``row`` and start it (its seats, clock and computer
        players as the row says).

        Raises:
            Refused: ``storage_failed`` (503), ``table_unavailable`` (503, with several
                processes: Redis does not answer, so the table's lease cannot be
                taken), or the rules refuse the row's options now (``bad_config``: an
                uploaded deck deleted since, say), or ``bot_unavailable`` (503,
                :meth:`_seat_bots`); nothing was stored.
        """
        try:
            table = self._build(row)
        except GameError as error:
            raise Refused.from_game_error(error) from None
        self._seat_bots(table)
        if self.claim is not None and not await self.claim(row.id):
            # Redis does not answer (logged by the claim), or (an id drawn twice) the
            # lease is another process's: the database was not asked.
            raise Refused("table_unavailable", "server.errors.new_table_unavailable",
                          status=503, retry_after=1)
        try:
            await self.storage.create_table(row)
        except StorageError:
            raise Refused("storage_failed", "server.errors.storage_failed", status=503) \
                from None
        self.tables[table.id] = table
        table.made_here = True
        # Made now: nobody has been sent a hand yet (a loaded table counts every seat of
        # a shown deal as seen; a seat kept after Play again for someone who never comes
        # opens when they say no thanks).
        table.shown_to.clear()
        kinds = Counter(seat.kind for seat in row.seats)
        log.info("table %s: made for %s: %s", log_name(table.id), row.game, ", ".join(
            plural(kinds[kind], *words) for kind, words in SEAT_WORDS if kinds[kind]))
        self._start_clock(table)
        self._wake_bots(table)
        return table

    async def join(self, table_id: str, seat: Seat | None, name: str | None,
                   code: str | None = None) -> tuple[Seat, str]:
        """Take an open seat (when ``seat`` is ``None``: the one ``code``'s link keeps, else
        the first one ``code`` may take).
        A seat kept for someone the host invited (``invited`` in :meth:`Table.info`: a
        seat opened once the game had begun, or given a seat link) is taken only with
        its link's ``code``.

        Returns:
            ``(seat, token)``: the token is the only key to act for that seat.

        Raises:
            Refused: no such table or seat, the seat is taken, or none is open;
                ``seat_invited`` (403) the seat is kept for someone the host invited and
                ``code`` is not its link's (but none or another kept seat's);
                ``seat_link_invalid`` (403) the seat is kept and ``code`` keeps no seat
                at the table (the host made the seat a new link: the old code is to be
                forgotten); ``seat_link_other`` (403) ``code`` keeps another open seat,
                named in ``seat`` (``seat`` 1-based); ``ended`` (409) the table's game is over
                (its host ended it while seats were open: nobody sits down at a finished
                table).
        """
        table = await self.get(table_id)
        async with table.lock:
            if table.status == FINISHED:
                raise table.over()
            # The open seat the host keeps for whoever holds ``code``'s link, if any.
            kept_for_code = next((s.seat for s in table.seats if s.kind == OPEN
                                  and s.token_hash is not None
                                  and _may_take(table, s.seat, code)), None)
            if seat is None:
                open_seats = [s.seat for s in table.seats if s.kind == OPEN]
                if not open_seats:
                    raise Refused("table_full", "server.errors.table_full", status=409)
                seat = kept_for_code if kept_for_code is not None else next(
                    (s for s in open_seats if _may_take(table, s, code)), open_seats[0])
            _check_open(table, seat)
            if not _may_take(table, seat, code):
                if kept_for_code is not None:
                    # The host keeps two seats or more; this link is another one's.
                    raise Refused("seat_link_other", "server.errors.seat_link_other",
                                  status=403, seat=kept_for_code + 1)
                if code:
                    # A seat link's code that keeps no seat here: the host made the
                    # seat a new link, or the link was never one of this table's.
                    raise Refused("seat_link_invalid", "server.errors.seat_link_invalid",
                                  status=403, seat=seat + 1)
                raise Refused("seat_invited", "server.errors.seat_invited", status=403,
                              seat=seat + 1)
            token = secrets.token_urlsafe(24)
            row = SeatRow(seat, HUMAN,
                          name=distinct_name(clean_name(name), table.seats, seat) or None,
                          token_hash=token_hash(token))
            await self.save_seat(table, row)
        self.seat_changed(table)
        return seat, token

    async def seat_link(self, table_id: str, seat: Seat, host_token: str | None) -> str:
        """Keep open ``seat`` for someone the host invites: a new code for its link (the
        seat's earlier link stops working), the table's host only.

        Returns:
            The code (``/t/<table id>#invite=<code>`` is the seat's link).

        Raises:
            Refused: wrong host token (403), no such seat (404), the seat is not open
                (409), the game is over (409), or storage failed (503).
        """
        table = await self.get(table_id)
        check_host(table, host_token)
        async with table.lock:
            check_host(table, host_token)  # the role may have passed meanwhile
            if table.status == FINISHED:
                raise table.over()
            _check_open(table, seat)
            code = secrets.token_urlsafe(12)
            await self.save_seat(table, SeatRow(seat, OPEN, token_hash=token_hash(code)))
        self.seat_changed(table)
        return code

    async def seat_bot(self, table_id: str, seat: Seat, bot: str, host_token: str | None,
                       client: str | None = None) -> None:
        """Put a computer player in a seat (the table's host only, asking from address
        ``client``): an open seat, the seat of a player who is offline while the game
        runs (their token stops working, and any connection still holding the seat is
        closed with code 4409), or a computer player's seat, before the game or during
        it, whose player is changed (another level: :meth:`_change_bot`).

        Raises:
            Refused: wrong host token, unknown bot, no such seat, the seat is taken by
                someone connected, or the table would be one more all-bot table than
                :class:`Caps` allows; ``ended`` (409) the table's game is over (its seats
                and record are final).
        """
        table = await self.get(table_id)
        check_host(table, host_token)
        if bot not in bot_names():
            raise Refused("bad_bot", "server.errors.unknown_bot", bot=bot,
                          bots=", ".join(bot_names()))
        async with table.lock:
            check_host(table, host_token)  # the role may have passed meanwhile
            if table.status == FINISHED:
                raise table.over()
            if 0 <= seat < len(table.seats) and table.seats[seat].kind == BOT:
                changed = await self._change_bot(table, seat, bot)
            else:
                changed = True
                await self._seat_new_bot(table, seat, bot, client)
        if changed:
            self.seat_changed(table)

    async def _change_bot(self, table: Table, seat: Seat, bot: str) -> bool:
        """Give computer player ``seat`` another player ``bot`` (under the lock): it keeps
        the seat's name and, where it took a person's seat over, since when; a decision
        the old player is making is dropped and the new one decides afresh. The record
        names the player seated at the end. Returns whether anything changed (the same
        player again changes nothing).

        Raises:
            Refused: ``storage_failed`` (503); nothing changed.
        """
        row = table.seats[seat]
        if row.bot == bot:
            return False
        # The pages still say the host removed its person (SeatRow.removed).
        await self.save_seat(table, SeatRow(seat, BOT, bot=bot, name=row.name,
                                            bot_since=row.bot_since, removed=row.removed))
        table.bots[seat] = make_bot(bot, table.game, self.bot_seed(table.seed, seat))
        table.bot_failures.pop(seat, None)
        _drop_decision(table, seat)
        log.info("table %s: the host gave seat %d the computer player %s",
                 log_name(table.id), seat, bot)
        return True

    async def _seat_new_bot(self, table: Table, seat: Seat, bot: str,
                            client: str | None) -> None:
        """:meth:`seat_bot` for an open seat or an offline person's (under the lock)."""
        if (0 <= seat < len(table.seats) and seat == table.host_seat
                and table.seats[seat].kind == HUMAN):
            # As on removing it: the role would stay with a computer player's seat.
            raise Refused("remove_host", "server.errors.remove_host", status=409)
        person = (0 <= seat < len(table.seats) and table.seats[seat].kind == HUMAN
                  and table.status == PLAYING and not table.connected(seat))
        if (not person and 0 <= seat < len(table.seats)
                and table.seats[seat].kind == HUMAN and table.status == PLAYING):
            # ("Seat 2 is already taken. Choose an open seat." was a joiner's answer.)
            raise Refused("player_present", "server.errors.seat_bot_present", status=409,
                          player=table.seats[seat].name or f"#{seat + 1}")
        if not person:
            _check_open(table, seat)
        bots_only = all(s.kind == BOT for s in table.seats if s.seat != seat)
        # A person's seat is taken over only once every seat is taken, when the game has
        # begun: the computer player keeps the person's hand and name (as on leaving).
        redeal = person and not table.begun
        taken_over = person and not redeal
        name = table.seats[seat].name if taken_over else None
        async with self.counter.leaving_to_bots(table, bots_only, client):
            await self.save_seat(table, SeatRow(
                seat, BOT, bot=bot, name=name,
                bot_since=len(table.actions) if taken_over else None),
                deal_again=redeal)
        table.bots[seat] = make_bot(bot, table.game, self.bot_seed(table.seed, seat))
        table.cover_bots.pop(seat, None)
        _drop_decision(table, seat)  # a covering player's, for the person offline
        table.drop_seat(seat, *SEAT_CHANGED_CLOSE)

    async def hand_seat_over(self, table: Table, seat: Seat, bot: str | None,
                             close: tuple[int, str], *, deal_again: bool,
                             token_hash: str | None = None, removed: bool = False) -> None:
        """A person's seat changes hands (under the lock): it goes to the computer player
        ``bot``, or opens (``None``; kept for a seat link's ``token_hash``, if given);
        whoever held it is closed out with ``close`` (code, reason), and ``removed`` says
        the host removed them (:attr:`SeatRow.removed`, stored with the seat). With
        ``deal_again``, see :meth:`save_seat`; without it (the game has begun) the
        computer player keeps the person's name.

        Raises:
            Refused: ``storage_failed`` (503); nothing changed.
        """
        # A computer player that takes over mid-game keeps the person's name: the rounds
        # they played, their points and the ranking stay theirs ("Dag", the pages add
        # that a computer player of a level now plays the seat).
        name = table.seats[seat].name if not deal_again else None
        since = None if deal_again else len(table.actions)
        await self.save_seat(table, SeatRow(seat, BOT, bot=bot, name=name, bot_since=since,
                                            removed=removed)
                             if bot is not None
                             else SeatRow(seat, OPEN, token_hash=token_hash, removed=removed),
                             deal_again=deal_again)
        table.cover_bots.pop(seat, None)
        _drop_decision(table, seat)  # a covering player's: the seat's own decides afresh
        if bot is not None and seat not in table.bots:
            table.bots[seat] = make_bot(bot, table.game, self.bot_seed(table.seed, seat))
        table.drop_seat(seat, *close)

    async def save_seat(self, table: Table, row: SeatRow, *, deal_again: bool = False
                        ) -> None:
        """Store a seat's new occupant, then change it in memory (under the lock). With
        ``deal_again`` (before the first move only), the cards are dealt again from a new
        seed, stored in the same transaction: the person who leaves the seat saw its hand,
        which nobody else may then play with. Once moves are recorded, an occupant who
        gives the seat up to someone else is kept in the row's ``earlier``
        (:func:`earlier_occupants`).

        Raises:
            Refused: ``storage_failed`` (503); ``table_expired`` (410) the table expired
                while the request waited for its lock; nothing changed.
        """
        if table.expired:
            raise self.expired_refusal()
        if not deal_again and 0 <= row.seat < len(table.seats):
            row = replace(row, earlier=earlier_occupants(
                table.seats[row.seat], row, [seat for seat, _ in table.actions]))
        seed = secrets.randbits(63) if deal_again else None
        try:
            if seed is None:
                # Shown once begun, or when this takes the last open seat (stored with
                # it, not at the next change of seats: a process taking the table over
                # reads it).
                shown = table.begun or (table.ended is None and all(
                    (row if s.seat == row.seat else s).kind != OPEN for s in table.seats))
                await self.storage.save_seat(table.id, row, shown=shown)
            else:
                await self.storage.save_seat(table.id, row, seed=seed)
        except StorageError:
            raise Refused("storage_failed", "server.errors.storage_failed", status=503) \
                from None
        table.seats[row.seat] = row
        if seed is not None:
            table.deal_again(seed, {
                s.seat: make_bot(s.bot, table.game, self.bot_seed(seed, s.seat))
                for s in table.seats if s.kind == BOT and s.bot}, self.deal_of(seed))

    def seat_changed(self, table: Table) -> None:
        """After a seat changed hands: tell everyone, arm the clock, wake computer
        players; the log says when every seat is taken."""
        seated = table.status == PLAYING
        table.note_seats()
        if seated and not table.seated:
            log.info("table %s: every seat is taken: the game %s", log_name(table.id),
                     "begins" if table.version == 0 else "goes on")
        table.seated = table.status != WAITING
        table.broadcast_info()
        table.broadcast_state()
        self._start_clock(table)
        self._wake_bots(table)

    # -- the turn clock -------------------------------------------------------------

    def _start_clock(self, table: Table) -> None:
        """Arm the clock after the seats changed or the table was loaded, store it if
        that changed it, tell everyone, and wait for its next deadline."""
        if table.clock is None:
            return
        if table.arm_clock():
            self._store_clock_later(table)
        else:
            table.clock_changed()

    def _store_clock_later(self, table: Table) -> None:
        """Store the clock, then tell everyone (a deadline is shown once it is stored).

        The write waits for the table's lock and stores the clock as it is then: every
        other write of a clock (a move's, the host's pause, an away seat's) is made and
        awaited under that lock, so storage gets them in the order memory had them. A
        copy of the clock taken now and written later landed over a newer one written
        meanwhile (the host's pause, say), and a restart or another process taking the
        table over found the older clock."""
        if table.clock is None:
            return

        async def store() -> None:
            async with table.lock:
                clock = table.clock
                current = self.tables.get(table.id)
                if clock is None or (current is not None and current is not table):
                    return  # no clock any more, or a newer copy of the table runs
                try:
                    await self.storage.save_clock(table.id, clock.to_json())
                except StorageError as error:
                    self._not_stored(f"table {log_name(table.id)}: clock not stored", error)
                table.clock_changed()

        self.keep(asyncio.create_task(store()))

    def _not_stored(self, what: str, error: StorageError) -> None:
        """Log a write storage refused: an outage once (:attr:`storage_outage`); a write
        refused because another process runs the table now (:class:`OwnerChanged`: its
        lease or owner number moved on) or ran it a moment ago (:class:`NumberTaken`:
        it stored an action under that number first) as that, storage being well; a
        write that clashed with another of the same table (:class:`WriteClash`) as a
        lost write, not as an outage."""
        if isinstance(error, (OwnerChanged, NumberTaken)):
            log.info("%s: %s", what, error)
        elif isinstance(error, WriteClash):
            log.warning("%s: %s", what, error)
        else:
            self.storage_outage.failed(what, error)

    def keep(self, task: asyncio.Task[None]) -> None:
        """Hold a background task of a table until it is done."""
        self._clock_tasks.add(task)
        task.add_done_callback(self._clock_tasks.discard)

    def _connections_changed(self, table: Table) -> None:
        if self.watch_connections is not None:
            self.watch_connections(table)

    def _clock_due(self, table: Table) -> None:
        self.keep(asyncio.create_task(self._expire(table)))

    async def _expire(self, table: Table) -> None:
        """A deadline passed: the first seat whose time ran out goes away and a computer
        player acts for it. One seat at a time: where any one seat may act (claiming
        Dixit's storyteller role), the others need not go away once it has."""
        if self.tables.get(table.id) is not table:
            return  # evicted meanwhile: the table in memory (if any) has its own clock
        if self.fence is not None and not self.fence(table.id):
            return  # another process runs it now
        async with table.lock:
            clock = table.clock
            if clock is None or table.status != PLAYING:
                return
            if any(seat in clock.away for seat in table.bot_tasks):
                return  # a cover is thinking; its action re-arms the clock
            if table.arm_clock():
                self._store_clock_later(table)
            due = clock.due(time.time())
            if due is None:
                table.schedule_clock()
                return
            seat, reason = due
            ran_out = reason == TURN
            if ran_out and not table.connected(seat):
                # Its time ran out while its person was gone (disconnected, or the server
                # was down): coming back takes the seat back, as after an absence.
                reason = ABSENT
            clock.send_away(seat, reason, table.turn_key() if ran_out else None)
            log.info("table %s: seat %d is away (%s); a computer player covers",
                     log_name(table.id), seat, reason)
            try:
                await self.storage.save_clock(table.id, clock.to_json())
            except StorageError as error:
                self._not_stored(f"table {log_name(table.id)}: clock not stored", error)
            table.clock_changed()
        self._wake_bots(table, timed_out=seat)

    async def back(self, table: Table, conn: Connection) -> None:
        """The person of ``conn``'s seat takes it back from the computer player that
        covered for it; when the seat must act now, its turn's time starts again. Within
        the turn whose time ran out, the computer player still makes that turn's move
        (:meth:`Clock.come_back`): a "back" each time gave the seat a new turn, for good.

        Raises:
            Refused: ``conn`` does not hold a seat (``not_seated``, ``seat_lost``), or the
                seat is not away (``not_away``). Nothing changed.
        """
        async with table.lock:
            seat = table.seat_held_by(conn)
            clock = table.clock
            if clock is None or not clock.come_back(seat, table.turn_key()):
                raise Refused("not_away", "server.errors.not_away")
            await self._clock_set(table, clock)

    async def _clock_set(self, table: Table, clock: Clock) -> None:
        """Bring ``table``'s changed clock up to date, store it and send it (under the
        table's lock); a storage failure is logged and counted, the change kept."""
        table.arm_clock()
        try:
            await self.storage.save_clock(table.id, clock.to_json())
        except StorageError as error:
            self._not_stored(f"table {log_name(table.id)}: clock not stored", error)
        table.clock_changed()

    async def step_away(self, table: Table, conn: Connection) -> None:
        """The person of ``conn``'s seat asks a computer player to play for them until
        they say they are back (:meth:`back`) or make a move themselves: the clock's
        cover level, ``medium`` at a table without a clock (which then gets one that
        never runs, to hold who is away). The computer player sees the seat's view only,
        as any does.

        Raises:
            Refused: ``conn`` does not hold a seat (``not_seated``, ``seat_lost``), the
                game is not under way (``not_playing``), the seat is away already
                (``already_away``), or it stepped away :data:`STEP_AWAY_COUNT` times in
                the last :data:`STEP_AWAY_SECONDS` (``away_too_fast``: each stores the
                clock and is sent to every page). Nothing changed.
        """
        async with table.lock:
            seat = table.seat_held_by(conn)
            if table.status != PLAYING:
                raise Refused("not_playing", "server.errors.not_playing")
            clock = table.clock
            if clock is not None and seat in clock.away:
                raise Refused("already_away", "server.errors.already_away")
            _count_step_away(table, seat)
            if clock is None:
                clock = table.clock = Clock(ClockSettings(absent_seconds=self.absent_seconds))
            clock.send_away(seat, ASKED)
            log.info("table %s: seat %d asked a computer player to play for it",
                     log_name(table.id), seat)
            await self._clock_set(table, clock)
        self._wake_bots(table)

    async def cover_absent(self, table: Table, seat: Seat, player: str) -> None:
        """The host lets a computer player play for the person of ``seat``, who is not at
        the table (a phone asleep, a friend in the kitchen), until they come back: the
        clock's cover level, ``medium`` at a table without a clock (which then gets one
        that never runs, to hold who is away), as if the clock had covered a seat whose
        person stayed disconnected (:data:`~gametable.server.clock.ABSENT`): the seat is
        theirs again as soon as their page connects. Their seat, name, cards and place
        in a Play again stay theirs. The caller checked the host token and the seat; this
        runs under the table's lock.

        Raises:
            Refused: the game is not under way (``not_playing``), the person is
                connected (``player_present``: only they may step away), or a computer
                player plays for the seat already (``already_away``); 409 each.
        """
        if table.status != PLAYING:
            raise Refused("not_playing", "server.errors.cover_not_playing", status=409,
                          player=player)
        if table.connected(seat):
            raise Refused("player_present", "server.errors.cover_present", status=409,
                          player=player)
        clock = table.clock
        if clock is not None and seat in clock.away:
            raise Refused("already_away", "server.errors.cover_already", status=409,
                          player=player)
        if clock is None:
            clock = table.clock = Clock(ClockSettings(absent_seconds=self.absent_seconds))
        clock.send_away(seat, ABSENT)
        log.info("table %s: the host let a computer player play for seat %d until its "
                 "person is back", log_name(table.id), seat)
        await self._clock_set(table, clock)

    def _covering(self, table: Table, seat: Seat) -> bool:
        """Whether ``seat``'s person is away, so that a computer player covers for it
        (at once, or see :meth:`_cover_wait`)."""
        clock = table.clock
        return (clock is not None and seat in clock.away
                and table.seats[seat].kind == HUMAN)

    def _nobody_here(self, table: Table) -> bool:
        """Whether every person at ``table`` is away (the clock's computer players
        cover for all of them)."""
        clock = table.clock
        return clock is not None and all(
            row.kind != HUMAN or row.seat in clock.away for row in table.seats)

    def _cover_wait(self, table: Table, seat: Seat) -> float:
        """Seconds a computer player covering for away ``seat`` waits before its turn:
        none while someone at the table plays on (it covers so that they need not wait,
        TR-TIME-1), but with every person away each turn is played only once its time
        has run out (the turn's time, or the absence allowed without one), as TR-TIME-1
        says, so that a game whose people all stepped away moves at the clock's pace
        instead of playing itself to the end in moments. (The decision whose time ran
        out as its seat went away is played at once: it has waited already.)"""
        clock = table.clock
        if (clock is None or seat in table.bots or not self._covering(table, seat)
                or not self._nobody_here(table)):
            return 0.0
        turn = clock.settings.turn_seconds
        return float(turn) if turn is not None else clock.settings.absent_seconds

    async def _wait_to_cover(self, table: Table, seat: Seat) -> None:
        """With every person away, wait until away ``seat``'s time has run out before its
        computer player decides (:meth:`_cover_wait`; at once otherwise). A new turn or
        phase that comes meanwhile gives the whole time again; while the host pauses the
        clock the time stands still; the wait ends early when the seat's person comes
        back, someone else does (then covered seats move at once) or the game ends. The
        ``clock`` message says when the move comes (``cover_at``)."""
        def over() -> bool:  # back, someone else back, the seat's own player, the end
            return (table.status != PLAYING or not self._cover_wait(table, seat)
                    or seat not in table.game.to_act(table.state))

        waiting = self._cover_wait(table, seat)
        while waiting:
            turn = table.turn_key()
            since = time.time()
            due = since + waiting
            while True:
                clock = table.clock
                if clock is not None and clock.paused_at is not None:
                    # What was left when the pause began, or the whole time where this
                    # wait began during the pause (or the table was loaded during one).
                    left = max(0.0, due - max(clock.paused_at, since))
                    self._cover_due(table, seat, None)
                    while (table.status == PLAYING and table.clock is not None
                           and table.clock.paused_at is not None):
                        await table.cover_event.wait()
                        if over():
                            return
                    since = time.time()
                    due = since + left
                self._cover_due(table, seat, due)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(table.cover_event.wait(),
                                           max(0.0, due - time.time()))
                if over():
                    return
                clock = table.clock
                if time.time() >= due and (clock is None or clock.paused_at is None):
                    break
            if table.turn_key() == turn:
                return
            waiting = self._cover_wait(table, seat)

    def _cover_due(self, table: Table, seat: Seat, at: float | None) -> None:
        """Say in the ``clock`` message when the computer player covering for ``seat``
        moves (``at``, seconds since 1970), or no longer (``None``), so that pages count
        down to the server's own time."""
        clock = table.clock
        if clock is None or clock.cover_at.get(seat) == at:
            return
        if at is None:
            del clock.cover_at[seat]
        else:
            clock.cover_at[seat] = at
        table.clock_changed(wake=False)

    def _actor(self, table: Table, seat: Seat) -> Bot | None:
        """The computer player that acts for ``seat`` now, if any."""
        bot = table.bots.get(seat)
        if bot is not None:
            return bot
        if not self._covering(table, seat) or table.clock is None:
            return None
        cover = table.cover_bots.get(seat)
        if cover is None:
            cover = make_bot(table.clock.settings.cover, table.game,
                             self.bot_seed(table.seed, seat))
            table.cover_bots[seat] = cover
        return cover

    # -- playing --------------------------------------------------------------------

    async def submit(self, table: Table, seat: Seat, action: Any,
                     version: int | None = None, conn: Connection | None = None,
                     *, by_bot: bool = False, deal: int | None = None,
                     player: Bot | None = None) -> None:
        """Apply, store, then broadcast one action of ``seat`` (sent by ``conn``, or by
        the seat's computer player when ``None``; ``by_bot``: by a computer player, the
        seat's own or one covering for its away person; ``player``: that computer
        player, refused ``seat_lost`` once it no longer plays the seat).

        A person's own action at a seat that is away takes the seat back (TR-TIME-1).
        ``deal``: the ``deal`` of the state the action was chosen on (0 or ``None``: not
        said); an action of another deal (the cards were dealt again before the first
        move) is refused as stale.

        Raises:
            Refused: ``conn`` no longer holds the seat (``seat_lost``), a computer player
                no longer plays for it (``seat_lost``: its person came back), the game
                has not started, ``version`` is not the current one, the rules refuse the
                action, or it could not be stored. Nothing changed.
        """
        started = time.perf_counter()
        try:
            await self._submit(table, seat, action, version, conn, by_bot=by_bot,
                               deal=deal, player=player)
        except Refused as refusal:
            self.metrics.refused(refusal.code, by_bot=by_bot)
            raise
        self.metrics.accepted(time.perf_counter() - started, by_bot=by_bot)
        self._wake_bots(table)

    async def _submit(self, table: Table, seat: Seat, action: Any, version: int | None,
                      conn: Connection | None, *, by_bot: bool, deal: int | None,
                      player: Bot | None = None) -> None:
        if self.draining:
            raise Refused("shutting_down", "server.errors.shutting_down", status=503)
        if not isinstance(action, dict):
            raise Refused("malformed", "errors.malformed_action")
        async with table.lock:
            if self.fence is not None and not self.fence(table.id):
                # Another process runs this table now (or may): never act for it here.
                # (Not "the server is restarting": nothing restarts.)
                raise Refused("table_moved", "server.errors.table_moved", status=503)
            if conn is not None and not table.holds(conn):
                raise Refused("seat_lost", "server.errors.seat_lost")
            covering = self._covering(table, seat)
            if by_bot and seat not in table.bots and not covering:
                raise Refused("seat_lost", "server.errors.seat_lost")
            if player is not None and player not in (table.bots.get(seat),
                                                     table.cover_bots.get(seat)):
                # The seat changed hands while it decided: its choice is not played.
                raise Refused("seat_lost", "server.errors.seat_lost")
            if table.ended is not None:
                raise Refused("ended", "server.errors.ended", status=409)
            status = table.status
            if status == WAITING:
                # Before the first move the game has not begun; after it, a seat the host
                # opened again holds it up.
                open_seats = sum(1 for s in table.seats if s.kind == OPEN)
                raise Refused("waiting", "server.errors.waiting" if table.version == 0
                              else "server.errors.waiting_again", count=open_seats)
            if deal and deal != table.deal:
                # The cards were dealt again since the state the action was chosen on:
                # the seat no longer holds that hand.
                raise Refused("stale_version", "server.errors.dealt_again",
                              version=version if version is not None else 0,
                              current=table.version)
            if version is not None and not table.current_for(seat, version):
                # Never applied to a position the player did not see; but where the
                # rules would refuse it now anyway (someone else claimed the Dixit
                # storyteller role first), their reason says more than "look again".
                try:
                    table.game.apply(table.game.clone(table.state), seat, action)
                except GameError as error:
                    raise Refused.from_game_error(error) from None
                raise Refused("stale_version", "server.errors.stale_version",
                              version=version, current=table.version)
            try:
                events = table.game.apply(table.state, seat, action)
            except GameError as error:
                raise Refused.from_game_error(error) from None
            number = table.version + 1
            clock = table.clock
            covered = None
            snapshot = None if clock is None else clock.to_json()
            if clock is not None and covering:
                if by_bot:
                    covered = {"seat": seat, "reason": clock.away[seat]}
                else:
                    clock.come_back(seat)
            over = table.game.outcome(table.state).finished
            clock_data = None
            if clock is not None:
                before = clock.to_json()
                clock.arm(set() if over else table.game.to_act(table.state),
                          table.people(), table.connected, time.time(),
                          table.seen.__contains__, table.turn_key())
                if clock.to_json() != before:
                    clock_data = clock.to_json()
            try:
                written = time.perf_counter()
                # The end of the game is noted with the action that ends it: the caps per
                # client stop counting the table at once, and never count a game over.
                await self.storage.append_action(table.id, number, seat, action,
                                                 clock=clock_data,
                                                 finished=time.time() if over else None)
                self.metrics.storage_seconds.observe(time.perf_counter() - written)
                self.storage_outage.answered()
            except StorageError as error:
                # A database that is down fails every move: the outage is logged once
                # (and once a minute), each move only at debug level.
                self._not_stored(f"table {log_name(table.id)}: action {number} not stored",
                                 error)
                log.debug("table %s: action %d not stored (%s); rebuilding",
                          log_name(table.id), number, error)
                table.state = self._replayed(table)
                if snapshot is not None:
                    table.clock = Clock.from_json(snapshot, self.absent_seconds)
                table.waiting_since.clear()
                table.note_waiting(None)
                table.committed = table.game.outcome(table.state)
                if self.fence is not None:
                    # Another process may have stored this action number: the stored
                    # record is the truth, so the table is loaded from it again.
                    asyncio.get_running_loop().call_soon(self._reload, table)
                raise Refused("storage_failed", "server.errors.storage_failed",
                              status=503) from None
            table.actions.append((seat, action))
            if table.first_action is None:
                table.first_action = time.time()
            table.note_waiting(seat)
            table.committed = table.game.outcome(table.state)
            table.last_events = events
            if events:
                table.earlier_events.append(
                    (table.version, events, seat if covered else None))
            table.last_covered = covered
            table.last_active = time.monotonic()
            table.broadcast_state()
            if clock is not None:
                table.clock_changed()
            if table.committed.finished:
                table.broadcast_info()  # its status is now "finished"
                log.info("table %s: game over after %s, %s", log_name(table.id),
                         plural(table.version, "action", "actions"), game_time(table))

    async def note_ends(self) -> int:
        """Note in storage the ends of the games that loading found over though storage
        had them under way (stored by an earlier version, which noted an end apart from
        the action that made it, and could fail to): until then the caps per client
        count them. Returns how many were noted; those that fail are tried again at the
        next call, except where another process runs the table now (it noted the end as
        it loaded the table, or will)."""
        noted = 0
        for table_id in list(self._ends_unnoted):
            try:
                await self.storage.mark_finished(table_id, time.time())
            except OwnerChanged:
                self._ends_unnoted.discard(table_id)
                continue
            except StorageError as error:
                log.warning("table %s: could not note the end of the game (%s); trying "
                            "again later", log_name(table_id), error)
                continue
            self._ends_unnoted.discard(table_id)
            noted += 1
        return noted

    def _replayed(self, table: Table) -> Any:
        state = table.game.new_game(table.config, len(table.seats), table.seed)
        for seat, action in table.actions:
            table.game.apply(state, seat, action)
        return state

    # -- computer players -----------------------------------------------------------

    def wake_bots(self, table: Table) -> None:
        """Let the computer players of ``table`` that must act now do so (after a change
        made outside this class, such as the host's
        :func:`~gametable.server.hosting.cover_player`)."""
        self._wake_bots(table)

    def _wake_bots(self, table: Table, timed_out: Seat | None = None) -> None:
        """Start the computer players that must act now (``timed_out``: a seat whose
        decision's time has just run out, which its cover plays without waiting it out
        again, see :meth:`_cover_wait`)."""
        if (not table.bots and table.clock is None) or table.status != PLAYING:
            return  # without a clock nobody is covered: only the table's bots may act
        for seat in table.game.to_act(table.state):
            if seat not in table.bot_tasks and (seat in table.bots
                                                or self._covering(table, seat)):
                task = asyncio.create_task(self._bot_turn(table, seat,
                                                          timed_out=seat == timed_out))
                table.bot_tasks[seat] = task

    def _patience(self, table: Table, seat: Seat) -> float:
        """Extra waiting, in bot delays, that the game asks of a computer player now (a
        Dixit bot lets people claim the storyteller role, or a teammate name the giver,
        first: DX-SETUP-4, DX-TEAM-2; a Dixit storyteller lets the last result be read)."""
        people = frozenset(s for s, row in enumerate(table.seats) if row.kind == HUMAN)
        if not isinstance(table.game, HasPatience):
            return 0.0
        return table.game.patience(table.game.view(table.state, seat), people)

    async def _wait_for_arrivals(self, table: Table) -> None:
        """Where the game asks a computer player to let people act first
        (:meth:`_patience`), it also waits for every person who has not come to the
        table yet (no connection to their seat since the table came into memory: the
        friends of a new game after *Play again*, still reading the last one's result;
        a computer player claimed the Dixit storyteller role before they had joined),
        for at most :data:`~gametable.server.clock.JOIN_GRACE_SECONDS` from then."""
        end = table.in_memory_since + JOIN_GRACE_SECONDS

        def expected() -> bool:  # (a seat a computer player covers is not waited for)
            away = table.clock.away if table.clock is not None else {}
            return any(row.kind == HUMAN and row.seat not in table.seen
                       and row.seat not in away for row in table.seats)

        while time.monotonic() < end and expected():
            await asyncio.sleep(min(ARRIVAL_POLL_SECONDS, max(0.0, end - time.monotonic())))

    def _think_time(self, table: Table, seat: Seat) -> float:
        """Seconds from the moment computer player ``seat`` may act to its move
        (:func:`think_time`; at least the player's thinking budget where that is longer
        than the bot delay); the same whatever the cards of ``table``'s seats."""
        bot = self._actor(table, seat)
        thinking = thinking_budget(bot) if bot is not None else 0.0
        return think_time(self.bot_delay, self._pace, thinking)

    async def _bot_turn(self, table: Table, seat: Seat, *, timed_out: bool = False) -> None:
        try:
            # The think time includes the decision itself (a search player's half second
            # of thought is not added to it), except where the game asks computer players
            # to let people act first: then they wait, and decide on what they see after.
            # It never depends on the seat's cards (see gametable.bots.pace). A decision
            # whose time has just run out has waited its time already.
            if not timed_out:
                await self._wait_to_cover(table, seat)
            delay = self._think_time(table, seat)
            if delay and self._patience(table, seat):
                await asyncio.sleep(delay)
                delay = 0.0
                patience = self._patience(table, seat)
                if patience:
                    await asyncio.sleep(patience * self.bot_delay)
                    await self._wait_for_arrivals(table)
            async with table.lock:
                bot = self._actor(table, seat)
                if (bot is None or table.status != PLAYING
                        or seat not in table.game.to_act(table.state)):
                    return
                # The bot may change what it is given: never the rules' own objects, nor
                # what other seats' views share with this one.
                view = json_copy(table.game.view(table.state, seat))
                legal = copy_actions(table.game.legal_actions(table.state, seat))
                version = table.version
            # What the seat plays should the player fail (it may change what it is given).
            spare = (json_copy(view), copy_actions(legal))
            deciding = time.perf_counter()
            # Whose action is tried: 0 the player's, 1 the ``greedy`` fallback's, 2 a
            # random one.
            stage = 0
            try:
                action = await self.deciders.decide(bot, view, legal)
            except DecisionFailed as failure:
                if table.status != PLAYING:
                    return  # nothing to play any more (the host ended the game)
                self._bot_failed(table, seat, bot, failure)
                action = fallback_action(table.game, *spare)
                stage = 1
            decided = time.perf_counter() - deciding
            self.metrics.bot_seconds.observe(decided)
            if delay > decided:
                await asyncio.sleep(delay - decided)
            while True:
                try:
                    await self.submit(table, seat, action, version, by_bot=True,
                                      player=bot)
                except Refused as refusal:
                    # Refused after others acted at the same moment (a teammate named
                    # the giver first): decide again. Its person came back: nothing to
                    # do. Refused with nothing changed: the player failed; the seat
                    # plays the fallback's action instead.
                    if refusal.code == "table_moved":
                        # This process's lease ran out, perhaps for a moment only: while
                        # the table stays here the seat still has to act, and nothing
                        # else would start its player again.
                        if not await self._may_act_again(table, seat):
                            return
                        break  # its turn is started afresh (below)
                    if refusal.code in ("seat_lost", "shutting_down", "ended"):
                        return  # (the host ended the game while it thought)
                    if refusal.code == "storage_failed":
                        if self.fence is not None:
                            return  # the table is loaded again from the stored record
                        log.debug("table %s: the move of the computer player in seat %d "
                                  "could not be stored; it decides again in %g s",
                                  log_name(table.id), seat, BOT_RETRY_SECONDS)
                        await asyncio.sleep(BOT_RETRY_SECONDS)
                    elif refusal.code != "stale_version" and table.version == version:
                        if stage == 2:
                            log.error("table %s: the rules refused a random legal move "
                                      "for seat %d too: %s", log_name(table.id), seat,
                                      refusal)
                            return
                        if stage == 0:
                            self._bot_failed(table, seat, bot,
                                             DecisionFailed("refused", str(refusal)))
                        else:
                            log.error("table %s: the rules refused the greedy player's "
                                      "move for seat %d: %s", log_name(table.id), seat,
                                      refusal)
                        action = fallback_action(table.game, *spare, careful=stage == 0)
                        stage += 1
                        continue
                break
        except asyncio.CancelledError:
            raise
        except Exception:
            # A fault of the server's own around the decision: try again in a while
            # rather than leave the seat's turn waiting for good. Logged the 1st, 10th,
            # 100th … time at a seat (a fault that stays wrote a traceback every 2 s).
            faults = table.turn_faults.get(seat, 0) + 1
            table.turn_faults[seat] = faults
            if faults == 10 ** (len(str(faults)) - 1):
                log.exception("table %s: the turn of the computer player in seat %d "
                              "failed (%d time%s so far); it is tried again in %g s",
                              log_name(table.id), seat, faults, "" if faults == 1 else "s",
                              BOT_RETRY_SECONDS)
            await asyncio.sleep(BOT_RETRY_SECONDS)
        finally:
            # A task cancelled by a new deal leaves its successor's place alone.
            if table.bot_tasks.get(seat) is asyncio.current_task():
                del table.bot_tasks[seat]
                self._cover_due(table, seat, None)
            if table.clock is not None:
                table.schedule_clock()
        self._wake_bots(table)

    async def _may_act_again(self, table: Table, seat: Seat) -> bool:
        """After a move of computer player ``seat`` was refused as ``table_moved``: wait
        until this process may act for ``table`` again (checked every
        :data:`BOT_RETRY_SECONDS`), and return ``True``; ``False`` once the table has
        left memory here (another process runs it: its lease was lost) or the server
        stops."""
        log.info("table %s: the move of the computer player in seat %d was refused: "
                 "this process may not act for the table now (its lease); it checks "
                 "again every %g s while the table stays here", log_name(table.id), seat,
                 BOT_RETRY_SECONDS)
        while self.tables.get(table.id) is table and not self.draining:
            await asyncio.sleep(BOT_RETRY_SECONDS)
            if (self.tables.get(table.id) is table and not self.draining
                    and (self.fence is None or self.fence(table.id))):
                return True
        return False

    def _bot_failed(self, table: Table, seat: Seat, bot: Bot,
                    failure: DecisionFailed) -> None:
        """Count a computer player's failed decision (its seat plays the ``greedy``
        player's choice instead: :mod:`gametable.server.deciding`), and log it: a seat's 1st,
        10th, 100th … failure, with how many so far (a player that fails every turn
        wrote a traceback a move)."""
        self.metrics.bot_failed(failure.reason)
        count = table.bot_failures.get(seat, 0) + 1
        table.bot_failures[seat] = count
        if count != 10 ** (len(str(count)) - 1):
            return
        log.error("table %s: the computer player %r in seat %d failed to decide (%s); the "
                  "greedy player's move is played for it (%d failure%s at this seat so far)",
                  log_name(table.id), getattr(bot, "name", "?"), seat, failure.detail,
                  count, "" if count == 1 else "s",
                  exc_info=failure.__cause__ is not None and failure)

    def unload(self, table_id: str, expected: Table | None = None) -> bool:
        """Let a table leave memory at once, because another process runs it now (this
        one lost its lease) or its stored record may have moved on: its computer players
        and clock stop here, and its connections are closed with 1012 so that their
        clients reconnect and reach it where it runs. Nothing is stored; the next
        :meth:`get` loads it again from storage. Returns whether it was in memory (and,
        with ``expected``, was that very table)."""
        table = self.tables.get(table_id)
        if table is None or (expected is not None and table is not expected):
            return False
        del self.tables[table_id]
        # Whoever loads it next notes its end, if it is still not noted (note_ends).
        self._ends_unnoted.discard(table_id)
        table.stop_clock()
        if table.host_check is not None:
            table.host_check.cancel()
            table.host_check = None
        for task in table.bot_tasks.values():
            task.cancel()
        for conn in list(table.connections):
            conn.finish({"type": "restarting"}, *RESTART_CLOSE)
        return True

    def _reload(self, table: Table) -> None:
        """Unload ``table`` and, while this process may still act for it, load it again
        from storage (its computer players and clock start again)."""
        if not self.unload(table.id, table) or self.fence is None:
            return
        if not self.fence(table.id):
            # Its lease ran out here meanwhile: it stays noted, so that the takeover
            # sweep loads it again (the renewal forgets a table that left memory).
            self.load_failed.add(table.id)
            return

        async def load() -> None:
            try:
                await self.get(table.id)
            except (Refused, StorageError) as error:
                log.warning("table %s could not be loaded again: %s", log_name(table.id), error)

        self.keep(asyncio.create_task(load()))

    async def drain(self) -> None:
        """Stop taking actions (they are refused as ``shutting_down``), wait for those
        being applied and stored, and close every connection with 1012 (service
        restart: clients reconnect, to this process once it is back or to another).
        Computer players and clocks stop."""
        self.draining = True
        for table in list(self.tables.values()):
            table.stop_clock()
            for task in table.bot_tasks.values():
                task.cancel()
            async with table.lock:  # the action being applied is stored and sent first
                for conn in list(table.connections):
                    conn.finish({"type": "restarting"}, *RESTART_CLOSE)
        for table in list(self.tables.values()):
            for conn in list(table.connections):
                await conn.stop()

    async def stop(self) -> None:
        """Cancel computer players and close connections (at shutdown)."""
        self.deciders.close()
        for table in self.tables.values():
            table.stop_clock()
            if table.host_check is not None:
                table.host_check.cancel()
            for task in table.bot_tasks.values():
                task.cancel()
            for conn in list(table.connections):
                await conn.stop()


def _in_use(table: Table | None) -> bool:
    """Whether a table in memory (``None``: not in memory) may not expire now: someone
    is connected, or its game has begun or is over."""
    return table is not None and bool(table.connections or table.status != WAITING
                                      or table.version > 0)


def _may_take(table: Table, seat: Seat, code: str | None) -> bool:
    """Whether ``code`` opens open ``seat``: any does, unless the host keeps the seat for
    someone they invited (its ``token_hash`` is then the hash of its link's code)."""
    kept = table.seats[seat].token_hash
    return kept is None or (bool(code) and secrets.compare_digest(kept, token_hash(code or "")))


def is_host(table: Table, host_token: str | None) -> bool:
    """Whether ``host_token`` is the table's current host token."""
    return bool(host_token) and secrets.compare_digest(token_hash(host_token or ""),
                                                       table.host_hash)


def check_host(table: Table, host_token: str | None) -> None:
    """Refuse (403 ``not_host``) anyone without the table's current host token."""
    if not is_host(table, host_token):
        raise Refused("not_host", "server.errors.not_host", status=403)


def _drop_decision(table: Table, seat: Seat) -> None:
    """Cancel the computer player's decision under way for ``seat`` (under the lock;
    the seat changed hands): its answer is never played, and the seat's player now
    decides afresh when :meth:`TableManager.seat_changed` wakes it."""
    deciding = table.bot_tasks.pop(seat, None)
    if deciding is not None and deciding is not asyncio.current_task():
        deciding.cancel()
    # Its wait's end, said in the clock message, goes with it (the cancelled task no
    # longer clears it: an opened seat kept a past "moves at" for its next person).
    clock = table.clock
    if clock is not None and clock.cover_at.pop(seat, None) is not None:
        table.clock_changed(wake=False)


def _check_open(table: Table, seat: Seat) -> None:
    """Refuse a seat that does not exist (404) or is not open (409)."""
    if not 0 <= seat < len(table.seats):
        raise Refused("no_seat", "errors.no_such_seat", status=404, seat=seat + 1,
                      seats=len(table.seats), count=len(table.seats))
    if table.seats[seat].kind != OPEN:
        raise Refused("seat_taken", "server.errors.seat_taken", status=409, seat=seat + 1)


def _hours(hours: float | None) -> int:
    return round(hours or 0)


def new_table_id() -> str:
    """A random, unguessable table id (it is also the invite link)."""
    return secrets.token_urlsafe(9)


TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a table id may be (those of :func:`new_table_id` and more): URL-safe letters,
digits, ``-`` and ``_``, as the table's websocket address allows."""


def check_deck_owner(options: Mapping[str, Any] | None, deck_keys: Sequence[str]) -> None:
    """Refuse an uploaded deck named in ``options`` (its ``"deck"``) unless one of
    ``deck_keys`` is its owner key, before the rules see it: their refusals name a deck
    as its owner named it, which is its owner's to know.

    A deck that does not exist is answered the same way (the rules' own refusal,
    ``unknown_deck``, would tell a hidden deck from no deck).

    Raises:
        Refused: ``no_deck`` (404), as if there were no such deck.
    """
    deck_id = (options or {}).get("deck")
    if isinstance(deck_id, str):
        deck = find_deck(deck_id)
        if deck is None or (deck.uploaded and not is_owner(deck, deck_keys)):
            raise Refused("no_deck", "decks.errors.no_deck", status=404, deck=deck_id)


def check_deck_installed(options: Mapping[str, Any] | None) -> None:
    """Refuse a new table (Play again) whose deck, named in ``options`` (its ``"deck"``),
    was deleted since the last game began: the rules take a deck they do not find when
    its size is given, as a record replayed elsewhere is.

    Raises:
        Refused: ``no_deck`` (404, ``decks.errors.deck_deleted``).
    """
    deck_id = (options or {}).get("deck")
    if isinstance(deck_id, str) and find_deck(deck_id) is None:
        raise Refused("no_deck", "decks.errors.deck_deleted", status=404, deck=deck_id)


def without_deck_name(params: Mapping[str, Any], options: Mapping[str, Any] | None
                      ) -> dict[str, Any]:
    """``params`` of a refusal with an uploaded deck's name (``"deck"``) replaced by the
    deck's id from ``options``: for answers to whoever asks (a record file's replay),
    who may not be the deck's owner."""
    deck_id = (options or {}).get("deck")
    deck = find_deck(deck_id) if isinstance(deck_id, str) else None
    if deck is not None and deck.uploaded and "deck" in params:
        return {**params, "deck": deck_id}
    return dict(params)


STEP_AWAY_COUNT = 4
STEP_AWAY_SECONDS = 60.0
"""A seat may step away :data:`STEP_AWAY_COUNT` times in any :data:`STEP_AWAY_SECONDS`
seconds (one seat's away and back, a thousand times a second, stored the clock and sent
it to every page each time)."""


def _count_step_away(table: Table, seat: Seat, now: float | None = None) -> None:
    """Count one step away of ``seat``, or refuse it (``away_too_fast``, not counted)."""
    now = time.monotonic() if now is None else now
    times = table.stepped_away.setdefault(seat, deque())
    while times and now - times[0] >= STEP_AWAY_SECONDS:
        times.popleft()
    if len(times) >= STEP_AWAY_COUNT:
        wait = int(STEP_AWAY_SECONDS - (now - times[0])) + 1
        raise Refused("away_too_fast", "server.errors.away_too_fast",
                      limit=STEP_AWAY_COUNT, seconds=int(STEP_AWAY_SECONDS), wait=wait,
                      count=wait)
    times.append(now)
