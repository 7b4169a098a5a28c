"""Play again: at the end of a game, a new table with the same game, options, clock and
people, the seats rotated by one so that someone else goes first.

Any seated player of a finished table (or one the host ended) may ask, with the
websocket message ``{"type": "rematch"}``. The first request makes the new table; later
ones are answered with the same offer. Seat ``i`` of the new table is seat ``i + 1`` of
the old one (the last old seat comes first), so partners who sat opposite or alternated
stay partners. Computer players follow at once; each person connected at that moment
— or whose last connection closed less than :data:`KEPT_FOR_SECONDS` before (a page
reloading, a phone's connection changing) — gets a seat with a new token, sent over their
connection only (``{"type": "rematch", "table", "by", "seat", "token"}``, or at their
reconnection), and joins with one click; the seat of someone who had left before is
open, for the invite link. Clients that watch hear that a new game began, and its
table only where that opens nothing but watching (it lets people watch and has no open
seat): a big screen on a device of its own follows. The new host token goes to the old
host's seat (or, if the host is not here, to whoever asked). The offer is kept with the
old table, in memory and in storage (its tokens derived from the server's secret,
:mod:`gametable.server.offers`), and repeated to a player who reconnects to it, also
after a restart or in another process: there is never a second new table.
"""

from __future__ import annotations

import logging
import secrets
import time
from typing import Any

from gametable.core.config import RULES_VERSION, RULES_VERSION_FIELD
from gametable.core.protocol import Seat
from gametable.server.clock import Clock
from gametable.server.limits import Limits
from gametable.server.logname import log_name
from gametable.server.offers import derived_token, offer_open, watchable_table
from gametable.server.refused import Refused
from gametable.server.storage import SeatRow, Storage, StorageError, TableRow, token_hash
from gametable.server.table import BOT, FINISHED, HUMAN, OPEN, Connection, Table
from gametable.server.tables import TableManager, check_deck_installed, new_table_id

log = logging.getLogger("gametable.rematch")

KEPT_FOR_SECONDS = 60.0
"""A person whose last connection to the old table closed less than this many seconds
before *Play again* was asked for keeps a seat at the new table, as one connected does:
a page that was reloading just then got an open seat (and a host so lost the role)."""


OFFER_GONE: dict[str, Any] = {"type": "rematch_gone"}
"""Told to a table's pages when its offer was found dead (its new table expired): they
show *Play again* again instead of a Join the server would refuse."""


def drop_offer(table: Table) -> None:
    """Forget ``table``'s offer, found dead (:func:`~gametable.server.offers.offer_open`),
    and tell the pages that show it (:data:`OFFER_GONE`): their Join would be refused,
    and they show *Play again* instead."""
    table.rematch = None
    for conn in list(table.connections):
        conn.push_json(OFFER_GONE)


def offer_message(offer: dict[str, Any], seat: Seat | None,
                  watch: str | None = None) -> dict[str, Any]:
    """The ``rematch`` message for a client of ``seat`` (``None``: it watches): the new
    table, who asked, and — for a seat that has one — its new seat and token (and the
    host token for the host's seat). A client that watches is told the new table only
    as ``watch``, the id :func:`~gametable.server.offers.watchable_table` found safe to
    tell (``None``: that a new game began, not where): a table's id is its invite link,
    and a watch link may be shared widely (a big screen, a stream), so anyone watching
    could otherwise take the open seat of a player who had left, under that player's
    name. A watcher never gets a token."""
    mine = offer["tokens"].get(seat) if seat is not None else None
    message: dict[str, Any] = {"type": "rematch",
                               "table": offer["table"] if seat is not None else watch,
                               "by": offer["by"],
                               "seat": mine[0] if mine else None,
                               "token": mine[1] if mine else None}
    if seat is not None and seat == offer["host"][0]:
        message["host_token"] = offer["host"][1]
    return message


async def watcher_offer(storage: Storage, offer: dict[str, Any]) -> dict[str, Any]:
    """The ``rematch`` message for a client that watches (:func:`offer_message`), with
    the new table where it may be told."""
    return offer_message(offer, None, await watchable_table(storage, offer))


async def play_again(manager: TableManager, table: Table, conn: Connection,
                     limits: Limits | None = None) -> None:
    """Answer a seated player's ``rematch`` request (see the module's description). The
    new table counts against the asker's address's rate of tables made, as one made in
    the lobby (a solo table ended and played again, over and over, made one every 2 s).

    Raises:
        Refused: the client watches (``not_seated``) or lost its seat (``seat_lost``),
            the game is not over (``not_over``), the address made too many tables of
            late (``rate_limited``, 429), the table's deck was deleted since
            (``no_deck``, 404), or the new table could not be stored or would pass the
            creator's caps. Nothing changed.
    """
    async with table.lock:
        seat = table.seat_held_by(conn)
        if table.status != FINISHED:
            raise Refused("not_over", "server.errors.not_over", status=409)
        offer = table.rematch
        if offer is not None:
            if await offer_open(manager.storage, offer):
                conn.push_json(offer_message(offer, seat))
                return
            drop_offer(table)  # whether or not a new table can be made now
        if limits is not None:
            await limits.check_shared("create", [conn.address])
        offer = await _new_table(manager, table, seat, conn.address)
        table.rematch = offer
        # Stored with the old table: a process that loads it again offers the same new
        # table (the tokens are derived again, gametable.server.offers).
        link = {"table": offer["table"], "by": offer["by"], "host": offer["host"][0],
                "seats": sorted(offer["tokens"])}
        try:
            await manager.storage.save_rematch(table.id, link)
        except StorageError:
            log.warning("table %s: the offer to play again was not stored",
                        log_name(table.id))
        watchers = await watcher_offer(manager.storage, offer)
        for other in list(table.connections):
            other.push_json(offer_message(offer, other.seat) if table.holds(other)
                            else watchers)


def _here_of_late(table: Table, seat: Seat) -> bool:
    """Whether ``seat``'s person is connected, or was less than :data:`KEPT_FOR_SECONDS`
    ago (a connection of theirs closed since the table came into memory)."""
    return table.connected(seat) or (
        seat in table.left_at and table.away_for(seat) < KEPT_FOR_SECONDS)


async def _new_table(manager: TableManager, table: Table, asked_by: Seat,
                     client: str) -> dict[str, Any]:
    count = len(table.seats)
    new_id = new_table_id()
    rows: list[SeatRow] = []
    tokens: dict[Seat, tuple[Seat, str]] = {}
    for new in range(count):
        old = table.seats[(new + 1) % count]
        if old.kind == BOT:
            # A computer player that took over a person's seat played under their name;
            # the new game's is its own.
            rows.append(SeatRow(new, BOT, bot=old.bot))
        elif old.kind == HUMAN and _here_of_late(table, old.seat) and old.token_hash:
            token = derived_token(manager.secret, new_id, "seat", old.token_hash)
            tokens[old.seat] = (new, token)
            rows.append(SeatRow(new, HUMAN, name=old.name, token_hash=token_hash(token)))
        else:
            rows.append(SeatRow(new, OPEN))
    creator = manager.counter.client_digest(client)
    host_old = table.host_seat if table.host_seat in tokens else asked_by
    host_token = derived_token(manager.secret, new_id, "host",
                               table.seats[host_old].token_hash or "")
    clock = table.clock
    # A table stored before the rules' audit plays again by the current rules (its
    # record keeps the version it was played by).
    options = {**table.options, RULES_VERSION_FIELD: RULES_VERSION}
    check_deck_installed(options)
    row = TableRow(id=new_id, game=table.game_name, config=options,
                   seed=secrets.randbits(63), host_hash=token_hash(host_token),
                   created=time.time(), seats=rows,
                   host_seat=tokens[host_old][0] if host_old in tokens else None,
                   # (A clock only someone's stepping away made holds no settings.)
                   clock=(Clock(clock.settings).to_json()
                          if clock is not None and clock.settings.active else None),
                   creator=creator,
                   # The host's choice stays: a table whose watching they switched off
                   # played again open to anyone holding its link.
                   watching=table.watching)
    async with manager.counter.counting(creator):
        await manager.counter.check(creator, waiting=any(row.kind == OPEN for row in rows),
                                 bots_only=False)
        new_table = await manager.add_table(row)
    log.info("table %s: seat %d asked to play again: table %s", log_name(table.id), asked_by,
             log_name(new_table.id))
    return {"table": new_table.id, "by": asked_by, "tokens": tokens,
            "host": (host_old, host_token)}
