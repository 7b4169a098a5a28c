"""Play again's tokens, derived so that the offer outlives the process that made it.

The offer to play again (``gametable.server.rematch``) gives each person at the old table
a seat token of the new one, and one of them the new host token. The tokens are keyed
digests (HMAC-SHA-256 with the server's secret) of the new table's id and the old seat's
stored token digest: a process that loads the old table again (after a restart, an hour
unvisited, or taking it over from another) rebuilds the same offer from what storage
holds, ``game_tables.rematch`` (the new table, who asked, the host's old seat and the
seats given tokens), and never makes a second new table that would split the friends.
Only the server's secret and the old seat's token digest make a token: whoever reads the
database alone cannot.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
from collections.abc import Sequence
from typing import Any, Final

from gametable.core.protocol import Seat
from gametable.server.storage import SeatRow, Storage, StorageError, token_hash
from gametable.server.table import OPEN


def derived_token(secret: bytes, new_table: str, purpose: str, old_hash: str) -> str:
    """A token of ``new_table`` for the old seat whose token digest is ``old_hash``
    (``purpose``: ``"seat"`` or ``"host"``; ``"handed"`` or ``"passed"`` for the host
    role handed or passed to the seat of that digest at ``new_table`` itself,
    :func:`hosting.handed_host_token`): 32
    URL-safe characters, as ``secrets.token_urlsafe(24)`` gives."""
    digest = hmac.new(secret, f"rematch\0{new_table}\0{purpose}\0{old_hash}".encode(),
                      hashlib.sha256).digest()[:24]
    return base64.urlsafe_b64encode(digest).decode()


HANDED: Final = "handed"
"""How a host token is derived for a host the table's creator chose: the role handed on
by the creator, or by a host so chosen (:func:`gametable.server.hosting.handed_host_token`)."""
PASSED: Final = "passed"
"""How it is derived for a host nobody chose: the role passed on by itself while the
host was away, or handed on by a host who got it so."""


def host_derived_as(secret: bytes, table: str, seat_hash: str, host_hash: str) -> str | None:
    """:data:`HANDED` or :data:`PASSED` where ``host_hash`` is the digest of the host token
    derived so for the seat whose token digest is ``seat_hash`` at ``table``; ``None``
    where it is neither (a table's creator holds the token the table was made with)."""
    for how in (HANDED, PASSED):
        token = derived_token(secret, table, how, seat_hash)
        if hmac.compare_digest(token_hash(token), host_hash):
            return how
    return None


def offer_of(link: dict[str, Any], seats: Sequence[SeatRow], secret: bytes
             ) -> dict[str, Any] | None:
    """The offer (as ``rematch`` keeps it in memory) of a stored ``link``
    (``{"table", "by", "host", "seats"}``) at a table whose seats are ``seats``; ``None``
    when a seat the link names has no token digest any more (nothing to derive from)."""
    count = len(seats)
    new_table: str = link["table"]
    tokens: dict[Seat, tuple[Seat, str]] = {}
    for old in link["seats"]:
        old_hash = seats[old].token_hash if 0 <= old < count else None
        if not old_hash:
            return None
        tokens[old] = ((old - 1) % count, derived_token(secret, new_table, "seat", old_hash))
    host_old: Seat = link["host"]
    host_hash = seats[host_old].token_hash if 0 <= host_old < count else None
    if not host_hash:
        return None
    return {"table": new_table, "by": link["by"], "tokens": tokens,
            "host": (host_old, derived_token(secret, new_table, "host", host_hash))}


async def offer_open(storage: Storage, offer: dict[str, Any]) -> bool:
    """Whether ``offer``'s new table can still be joined with the offer's tokens: it is
    stored and has not expired (a seat that stayed open ``waiting_hours`` expires it),
    and one of its seats, or its host role, still holds a token the offer gives (none
    does when the server's secret changed since, the tokens being derived from it, or
    once every friend's seat went to someone else). Storage that cannot answer now
    keeps the offer. An offer that is not open is forgotten, and *Play again* makes a
    new table (it repeated the dead offer for good)."""
    try:
        row = await asyncio.to_thread(storage.load_table, offer["table"])
    except StorageError:
        return True
    if row is None or row.expired is not None:
        return False
    held = {seat.token_hash for seat in row.seats if seat.token_hash} | {row.host_hash}
    given = [token for _, token in offer["tokens"].values()] + [offer["host"][1]]
    return any(token_hash(token) in held for token in given)


async def watchable_table(storage: Storage, offer: dict[str, Any]) -> str | None:
    """``offer``'s new table id where someone watching the old table may be told it: the
    new table lets people watch and has no open seat. Its id is its invite link and its
    watch link at once, so it is told only where it opens nothing but watching (an open
    seat, of a player who had left, would be anyone's to take). ``None`` otherwise, and
    when storage cannot answer now."""
    try:
        row = await asyncio.to_thread(storage.load_table, offer["table"])
    except StorageError:
        return None
    if row is None or row.expired is not None or not row.watching:
        return None
    if any(seat.kind == OPEN for seat in row.seats):
        return None
    return row.id
