"""A seated person changes the name the table knows them by (a typo, a nickname).

The name is cleaned and told apart from the other seats' names as when taking a seat
(:func:`gametable.server.seatnames.clean_name`, :func:`~gametable.server.seatnames.distinct_name`),
stored, and every page at the table is sent the new seat list. Chat lines already sent
keep the name they were sent under. Nothing here knows which game is played.
"""

from __future__ import annotations

import logging

from gametable.server.logname import log_name
from gametable.server.seatnames import clean_name, distinct_name
from gametable.server.storage import SeatRow
from gametable.server.table import HUMAN, Table
from gametable.server.tables import TableManager

log = logging.getLogger("gametable.renaming")


async def rename_seat(manager: TableManager, table_id: str, seat_token: str | None,
                      name: str | None) -> Table:
    """The person holding ``seat_token`` is called ``name`` from now on (``""`` or
    ``None``: no name, the pages say "Player n").

    Returns:
        The table (its :meth:`~gametable.server.table.Table.info` has the new name,
        perhaps with a number added when another seat reads the same: "Anna (2)").

    Raises:
        Refused: a token that holds no seat at this table (403 ``bad_token``), a game
            that is over (409 ``ended``: its record keeps the names it was played
            under), or storage failed (503); nothing changed.
    """
    table = await manager.get(table_id)
    async with table.lock:
        seat = table.playing_seat(seat_token)
        held = table.seats[seat]
        new = distinct_name(clean_name(name), table.seats, seat) or None
        if new != held.name:
            await manager.save_seat(table, SeatRow(seat, HUMAN, name=new,
                                                   token_hash=held.token_hash))
            table.broadcast_info()
            log.info("table %s: seat %d renamed", log_name(table.id), seat)
    return table
