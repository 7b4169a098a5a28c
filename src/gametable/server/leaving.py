"""A seated person leaves a table of their own accord.

While seats are still open (before the game has begun: nobody was shown a hand) their
seat opens for someone else, and every hand is dealt again. Once the game has begun
(every seat was taken: the seats saw their hands), a computer player takes the seat
over (the table's cover level when it has a turn clock, else ``medium``), so the others
play on at once instead of waiting for someone who is not coming back; the seat of a
person who never came and never saw its hand (a friend who says no thanks after *Play
again*) opens instead, kept for whoever the host gives its link. The host holds the table
and hands the role on before leaving. Nothing here knows which game is played; the
decision is taken under the table's lock.
"""

from __future__ import annotations

import logging
import secrets

from gametable.server.logname import log_name
from gametable.server.refused import Refused
from gametable.server.storage import token_hash
from gametable.server.table import BOT, Table
from gametable.server.tables import TableManager

log = logging.getLogger("gametable.leaving")

LEFT_CLOSE = (4409, "you left this seat")
"""The close code and reason of the leaving person's connections (the seat changed hands;
docs/protocol.md)."""

LEAVER_COVER = "medium"
"""The computer player who takes over a seat left mid-game at a table without a clock."""


async def leave_table(manager: TableManager, table_id: str, seat_token: str | None,
                      client: str | None = None) -> tuple[Table, str | None]:
    """The person holding ``seat_token`` (asking from address ``client``) leaves the
    table: the token stops working at once and their connections are closed (code 4409,
    reason :data:`LEFT_CLOSE`).

    Returns ``(table, bot)``: ``bot`` is the computer player (a level name) who took the
    seat over once the game had begun, ``None`` when the seat opened: before the game
    began, for the invite link, the cards dealt again from a new seed for every seat, as
    when the host removes a player (:func:`gametable.server.hosting.remove_player`); once
    it has begun (the person never came, so never saw the seat's hand), its cards unseen
    and kept for whoever the host gives its link (``invited``;
    :meth:`TableManager.seat_link`), as when the host opens such a seat.

    Raises:
        Refused: a token that holds no seat at this table (403 ``bad_token``), the host's
            own seat (409 ``leave_host``: hand the role on first, or end the game), a game
            that is over (409 ``ended``), a table left to computer players only past the
            creator's cap (429 ``too_many_tables``, which speaks of the table's maker
            unless ``client`` is theirs), or storage failed (503); nothing changed.
    """
    table = await manager.get(table_id)
    async with table.lock:
        seat = table.playing_seat(seat_token)
        if seat == table.host_seat:
            raise Refused("leave_host", "server.errors.leave_host", status=409)
        begun = table.saw_deal(seat)
        bot: str | None = None
        if begun:
            bot = table.clock.settings.cover if table.clock is not None else LEAVER_COVER
        bots_only = begun and all(s.kind == BOT for s in table.seats if s.seat != seat)
        # The others have seen their hands: opened to anyone holding the invite link
        # (every player of the game has it), the seat let one of them hold two hands.
        # Nobody is given this code; the host makes the seat's link when they choose.
        kept = token_hash(secrets.token_urlsafe(12)) if bot is None and table.begun else None
        async with manager.counter.leaving_to_bots(table, bots_only, client):
            await manager.hand_seat_over(table, seat, bot, LEFT_CLOSE,
                                         deal_again=not table.begun, token_hash=kept)
        log.info("table %s: seat %d left (%s)", log_name(table.id), seat, bot or "open")
    manager.seat_changed(table)
    return table, bot
