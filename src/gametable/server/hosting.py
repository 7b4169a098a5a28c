"""What the host of a table may do: change its options before the first move, remove a
player, pause and resume the turn clock, end the game early, let people watch or not, and
hand the host role to another seated person.

The host is whoever holds the table's host token (made for its creator; only its hash is
stored). When the host's seat is known and its person stays away while others are here,
the role passes on by itself (:func:`watch_host`). Nothing here knows which game is
played; every decision is taken under the table's lock.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import Any

from gametable.bots import bot_names, make_bot
from gametable.core.config import for_new_game, stored_options
from gametable.core.errors import GameError
from gametable.core.protocol import Seat
from gametable.server.clock import Clock, ClockSettings
from gametable.server.logname import log_name
from gametable.server.offers import HANDED, PASSED, derived_token, host_derived_as
from gametable.server.refused import Refused
from gametable.server.storage import StorageError, token_hash
from gametable.server.table import BOT, FINISHED, HUMAN, WATCHING_OFF_CLOSE, Table
from gametable.server.tables import TableManager, check_deck_owner, check_host

log = logging.getLogger("gametable.hosting")

REMOVED_CLOSE = (4409, "the host removed you from this seat")
"""The close code and reason of a removed player's connections (the seat changed hands)."""


def _player_seat(table: Table, seat: Seat) -> None:
    """Refuse a seat that does not exist (404) or where no person sits (409); before the
    game has begun, a computer player's seat may be changed too."""
    if not 0 <= seat < len(table.seats):
        raise Refused("no_seat", "errors.no_such_seat", status=404, seat=seat + 1,
                      seats=len(table.seats), count=len(table.seats))
    if table.seats[seat].kind != HUMAN and not (table.seats[seat].kind == BOT
                                                and not table.begun):
        raise Refused("not_a_player", "server.errors.not_a_player", status=409,
                      seat=seat + 1)


def _not_over(table: Table) -> None:
    if table.status == FINISHED:
        raise table.over()


async def remove_player(manager: TableManager, table_id: str, seat: Seat,
                        host_token: str | None, bot: str | None = None,
                        client: str | None = None) -> tuple[Table, str | None]:
    """Remove the person in ``seat`` (the host asking from address ``client``): their
    token stops working at once and their connections are closed (code 4409); the seat
    becomes open (the game waits for someone to take it) or, with ``bot``, a computer
    player's.

    Returns ``(table, code)``: once the game has begun, a seat opened is kept for whoever
    the host gives its link (``code``, see :meth:`TableManager.seat_link`; ``None``
    before the first move, when the invite link fills it as any open seat): whoever
    takes it sees the hand the game dealt, and a table's id is in its watch link, which
    may be shared widely.

    Before the first move the host may change any seat but their own: a person who
    joined the wrong table leaves it (even while connected), a computer player's seat
    opens for a friend who came late or gets another level.

    Once the game has begun, and until the table is finished, a seat whose person is
    connected may go to a computer player but is not opened for someone else
    (``player_present``), whether every seat is
    taken or another is open (the table then waits, but the game has begun) and before
    the first move too (the cards are dealt when the table is made): whoever took it
    would see that player's hand, and in Dixit the card they gave and their vote, so a
    host could look at a present player's cards by taking the seat themselves and handing
    it back. Nor is it opened until its person has been gone
    :attr:`TableManager.reopen_after_seconds` (``player_just_left``): a page reload, a
    phone asleep or a network changing is not leaving, and whoever took the seat in that
    moment would see the cards. Nor is it opened by a host nobody chose
    (``host_not_chosen``, 403: the role passed on by itself while the host was away,
    :func:`host_chosen`): any player who stayed connected would otherwise get it after
    :attr:`TableManager.host_gone_seconds`, open the seat of a friend whose phone fell
    asleep, take it by its link and see the cards; such a host may give the seat to a
    computer player.

    Before the first move the cards are dealt again from a new seed, for every seat
    (stored with the seat's change): the person removed saw the seat's hand, which
    someone could otherwise join, look at, leave and have opened or given to a computer
    player, to know the cards of whoever plays it.

    Raises:
        Refused: not the host (403), unknown bot, no such seat (404), no person there
            (a computer player's seat once the game has begun), the host's own seat
            (hand the role on first), the game is over, the game has begun and the
            person is at the table or left moments ago and the seat would open (409), or
            the seat would open for a host nobody chose (403), one
            all-bot table more than the caps allow (429), or storage failed (503).
    """
    table = await manager.get(table_id)
    check_host(table, host_token)
    if bot is not None and bot not in bot_names():
        raise Refused("bad_bot", "server.errors.unknown_bot", bot=bot,
                      bots=", ".join(bot_names()))
    async with table.lock:
        check_host(table, host_token)  # the role may have passed meanwhile
        _player_seat(table, seat)
        _not_over(table)
        if seat == table.host_seat:
            raise Refused("remove_host", "server.errors.remove_host", status=409)
        player = table.seats[seat].name or f"#{seat + 1}"
        # Before the game has begun nobody was shown a hand, and every hand is dealt
        # again (below); from then on the deal stands, and a seat whose person saw it
        # goes on as in a game under way.
        begun = table.saw_deal(seat)
        if bot is None and begun and table.connected(seat):
            raise Refused("player_present", "server.errors.player_present", status=409,
                          player=player)
        if bot is None and begun and not host_chosen(manager, table):
            raise Refused("host_not_chosen", "server.errors.host_not_chosen", status=403,
                          player=player)
        away = table.away_for(seat)
        if bot is None and begun and away < manager.reopen_after_seconds:
            raise Refused("player_just_left", "server.errors.player_just_left",
                          status=409, player=player,
                          seconds=max(1, math.ceil(manager.reopen_after_seconds - away)))
        bots_only = bot is not None and all(
            s.kind == BOT for s in table.seats if s.seat != seat)
        # Once the game has begun a seat opens for whoever the host gives its link, also
        # one whose person never came (a friend after *Play again*): opened to anyone
        # holding the invite link, it went to whoever was quickest, hand and all.
        code = secrets.token_urlsafe(12) if bot is None and table.begun else None
        async with manager.counter.leaving_to_bots(table, bots_only, client):
            await manager.hand_seat_over(table, seat, bot, REMOVED_CLOSE,
                                         deal_again=not table.begun,
                                         token_hash=token_hash(code) if code else None,
                                         removed=True)
        log.info("table %s: the host removed seat %d (%s)", log_name(table.id), seat, bot or "open")
    manager.seat_changed(table)
    return table, code


async def cover_player(manager: TableManager, table_id: str, seat: Seat,
                       host_token: str | None) -> Table:
    """Let a computer player play for the person in ``seat`` until they are back (the
    host asking): for a friend whose phone fell asleep, whom the host need not remove to
    play on. See :meth:`TableManager.cover_absent`; the person keeps the seat, and it is
    theirs again as their page connects.

    Raises:
        Refused: not the host (403), no such seat (404), no person there (409), the
            game not under way, the person at the table, or already covered (409), or
            storage failed (503).
    """
    table = await manager.get(table_id)
    check_host(table, host_token)
    async with table.lock:
        check_host(table, host_token)  # the role may have passed meanwhile
        if not 0 <= seat < len(table.seats):
            raise Refused("no_seat", "errors.no_such_seat", status=404, seat=seat + 1,
                          seats=len(table.seats), count=len(table.seats))
        if table.seats[seat].kind != HUMAN:
            raise Refused("not_a_player", "server.errors.cover_not_a_player", status=409,
                          seat=seat + 1)
        await manager.cover_absent(table, seat, table.seats[seat].name or f"#{seat + 1}")
    manager.wake_bots(table)
    return table


async def change_options(manager: TableManager, table_id: str, host_token: str | None,
                         options: Mapping[str, Any], clock: ClockSettings | None,
                         deck_keys: Sequence[str] = ()) -> Table:
    """Give the table new options before the first move: its game's config (the same
    number of seats) and its turn clock (``None``, or one not
    :attr:`~ClockSettings.active`: none). The cards are dealt again from a new seed,
    stored with the options in one transaction; everyone at the table is sent the new
    ``table`` info and their new hand. Options and clock the same as the table's change
    nothing: the cards stay as dealt and nobody is told.

    Args:
        options: the game's options as at creation (``POST /api/tables``'s ``config``).
        deck_keys: owner keys the host holds; an uploaded deck needs its key, unless the
            table already plays with it.

    Raises:
        Refused: not the host (403), an uploaded deck without its key (404), options the
            rules refuse for this many seats (``bad_config`` and the like, 400), an
            unknown computer player to cover (400), the first move was made or the game
            is over (409), or storage failed (503); nothing changed.
    """
    table = await manager.get(table_id)
    check_host(table, host_token)
    if options.get("deck") != table.options.get("deck"):
        check_deck_owner(options, deck_keys)
    if clock is not None and clock.cover not in bot_names():
        raise Refused("bad_bot", "server.errors.unknown_bot", bot=clock.cover,
                      bots=", ".join(bot_names()))
    async with table.lock:
        check_host(table, host_token)  # the role may have passed meanwhile
        _not_over(table)
        if table.begun:
            raise Refused("options_begun", "server.errors.options_begun", status=409)
        try:
            config = table.game.make_config(for_new_game(options), len(table.seats))
        except GameError as error:
            raise Refused.from_game_error(error) from None
        settings = Clock(clock) if clock is not None and clock.active else None
        stored = stored_options(config)
        if stored == table.options and (None if settings is None else settings.settings) == (
                None if table.clock is None else table.clock.settings):
            # Nothing changes, so the cards stay as dealt: dealing again on every ask
            # let the host deal until their own hand (or the first storyteller) suited them.
            return table
        seed = secrets.randbits(63)
        try:
            await manager.storage.save_options(
                table.id, stored, seed, None if settings is None else settings.to_json())
        except StorageError:
            raise Refused("storage_failed", "server.errors.storage_failed",
                          status=503) from None
        table.stop_clock()
        table.options, table.config, table.clock = stored, config, settings
        table.public = table.game.public_info(config, len(table.seats))
        table.deal_again(seed, {
            s.seat: make_bot(s.bot, table.game, manager.bot_seed(seed, s.seat))
            for s in table.seats if s.kind == BOT and s.bot}, manager.deal_of(seed))
        log.info("table %s: the host changed its options", log_name(table.id))
    manager.seat_changed(table)
    return table


async def pause_clock(manager: TableManager, table_id: str, host_token: str | None,
                      paused: bool) -> Table:
    """Pause (``paused``) or resume the table's turn clock. While paused no seat's time
    runs; on resuming, every deadline moves on by the pause's length.

    Raises:
        Refused: not the host (403), the table has no clock or its game is over (409),
            or storage failed (503).
    """
    table = await manager.get(table_id)
    check_host(table, host_token)
    async with table.lock:
        check_host(table, host_token)  # the role may have passed meanwhile
        clock = table.clock
        if clock is None:
            raise Refused("no_clock", "server.errors.no_clock", status=409)
        _not_over(table)
        now = time.time()
        if clock.pause(now) if paused else clock.resume(now):
            try:
                await manager.storage.save_clock(table.id, clock.to_json())
            except StorageError:
                (clock.resume if paused else clock.pause)(now)
                raise Refused("storage_failed", "server.errors.storage_failed",
                              status=503) from None
            table.clock_changed()
    return table


async def end_game(manager: TableManager, table_id: str, host_token: str | None) -> Table:
    """End the game now: it is over (no more actions, computer players stop), its record
    is kept and marked ``ended_early`` (``GET /api/tables/{id}/record``).

    Raises:
        Refused: not the host (403), the game is already over (409), or storage failed
            (503).
    """
    table = await manager.get(table_id)
    check_host(table, host_token)
    async with table.lock:
        check_host(table, host_token)  # the role may have passed meanwhile
        _not_over(table)
        now = time.time()
        try:
            await manager.storage.mark_ended(table.id, now)
        except StorageError:
            raise Refused("storage_failed", "server.errors.storage_failed",
                          status=503) from None
        table.ended = now
        table.stop_clock()
        table.wake_covers()  # computer players waiting out an away seat's time stop
        table.broadcast_info()
        table.broadcast_state()
        log.info("table %s: the host ended the game at action %d", log_name(table.id),
                 table.version)
    return table


async def set_watching(manager: TableManager, table_id: str, host_token: str | None,
                       allowed: bool) -> Table:
    """Let people without a seat watch the table, or not. Switched off, every watcher's
    connection is told (``watching_off``) and closed with code 4410, and new ones are
    refused the same way — the big screen too, which is a spectator.

    Raises:
        Refused: not the host (403), or storage failed (503).
    """
    table = await manager.get(table_id)
    check_host(table, host_token)
    async with table.lock:
        check_host(table, host_token)  # the role may have passed meanwhile
        if table.watching != allowed:
            try:
                await manager.storage.save_watching(table.id, allowed)
            except StorageError:
                raise Refused("storage_failed", "server.errors.storage_failed",
                              status=503) from None
            table.watching = allowed
        if not allowed:
            refusal = Refused("watching_off", "server.errors.watching_off", status=403)
            for conn in [c for c in table.connections if c.seat is None]:
                conn.finish(refusal.to_json(), *WATCHING_OFF_CLOSE)
        table.broadcast_info()
    return table


async def hand_host(manager: TableManager, table_id: str, host_token: str | None,
                    seat: Seat) -> Table:
    """Give the host role to the person in ``seat``, who must be connected: their
    connections receive the new host token (``{"type": "host", "host_token"}``, again on
    each reconnection, :func:`host_token_again`) and the old one stops working.

    Raises:
        Refused: not the host (403), no such seat (404), no person there, they are not
            connected, or they hold the role already (409), or storage failed (503).
    """
    table = await manager.get(table_id)
    check_host(table, host_token)
    async with table.lock:
        check_host(table, host_token)  # the role may have passed meanwhile
        _player_seat(table, seat)
        if table.seats[seat].kind != HUMAN:  # (a computer player's, before the game)
            raise Refused("not_a_player", "server.errors.not_a_player", status=409,
                          seat=seat + 1)
        if seat == table.host_seat:
            # (A new token would have replaced the one the host's tools hold.)
            raise Refused("already_host", "server.errors.already_host", status=409)
        if not table.connected(seat):
            raise Refused("not_connected", "server.errors.not_connected", status=409,
                          seat=seat + 1)
        # A host nobody chose hands on a role nobody chose.
        await _give_host(manager, table, seat,
                         HANDED if host_chosen(manager, table) else PASSED)
    return table


def handed_host_token(manager: TableManager, table: Table, seat: Seat,
                      how: str = HANDED) -> str | None:
    """The host token of the person now in ``seat`` once the role was handed or passed
    to them: derived from the server's secret, the table, ``how``
    (:data:`~gametable.server.offers.HANDED` or :data:`~gametable.server.offers.PASSED`)
    and their seat token's digest, so that it is sent again when they reconnect (pushed
    once, into a connection that had died unnoticed, it was lost, and the table had no
    host). ``None`` for a seat without a person."""
    row = table.seats[seat]
    if row.kind != HUMAN or row.token_hash is None:
        return None
    return derived_token(manager.secret, table.id, how, row.token_hash)


def _held_as(manager: TableManager, table: Table, seat: Seat | None) -> tuple[str, str] | None:
    """``(how, token)`` where ``seat`` holds the host role handed or passed to its person
    (:func:`handed_host_token`), else ``None`` (a table's creator holds the token the
    table was made with)."""
    if seat is None or seat != table.host_seat or table.host_hash is None:
        return None
    row = table.seats[seat]
    if row.kind != HUMAN or row.token_hash is None:
        return None
    how = host_derived_as(manager.secret, table.id, row.token_hash, table.host_hash)
    token = None if how is None else handed_host_token(manager, table, seat, how)
    return None if how is None or token is None else (how, token)


def host_token_again(manager: TableManager, table: Table, seat: Seat | None) -> str | None:
    """The host token to send again to a connection of ``seat`` that has just joined:
    that of the role handed or passed to its person, ``None`` when the seat does not hold
    the role that way (a table's creator keeps the token the table was made with)."""
    held = _held_as(manager, table, seat)
    return held[1] if held is not None else None


def host_chosen(manager: TableManager, table: Table) -> bool:
    """Whether the table's host was chosen: its creator, or a person the role was handed
    to by a host so chosen. ``False`` where the role passed on by itself while the host
    was away (:func:`watch_host`), and where such a host handed it on: nobody chose to
    trust them with a seat's cards (:func:`remove_player`)."""
    held = _held_as(manager, table, table.host_seat)
    return held is None or held[0] == HANDED


async def _give_host(manager: TableManager, table: Table, seat: Seat, how: str) -> None:
    """Give the host role to the person in ``seat`` (:func:`handed_host_token`, derived
    ``how``) and send the token to their connections (under the table's lock)."""
    token = handed_host_token(manager, table, seat, how)
    assert token is not None  # (a person's seat: the callers check)
    digest = token_hash(token)
    try:
        await manager.storage.save_host(table.id, digest, seat)
    except StorageError:
        raise Refused("storage_failed", "server.errors.storage_failed", status=503) \
            from None
    table.host_hash, table.host_seat = digest, seat
    table.host_chosen = how == HANDED
    for conn in list(table.connections):
        if conn.seat == seat and table.holds(conn):
            conn.push_json({"type": "host", "host_token": token})
    table.broadcast_info()
    log.info("table %s: the host role went to seat %d", log_name(table.id), seat)


def watch_host(manager: TableManager, table: Table) -> None:
    """If the host's seat has nobody connected while someone else is, check again after
    :attr:`TableManager.host_gone_seconds`; if it is still so, the role passes to the
    first seat whose person is connected. Called when connections come and go.

    A host who has not yet come to a new table after *Play again* waits the same time:
    with the role in half a minute, the friend who asked (whose page joins by itself)
    could open the seats of friends still reading the last game's result and take
    them, their hands with them."""
    seat = table.host_seat
    if (seat is None or table.status == FINISHED or table.connected(seat)
            or not any(table.connected(s.seat) for s in table.seats if s.kind == HUMAN)):
        # The host came back (or nobody is here to take the role): a check started
        # while they were away is off; the next absence counts from its start. (Left
        # running, it passed the role moments after a later, short absence.)
        if table.host_check is not None:
            table.host_check.cancel()
            table.host_check = None
        return
    if table.host_check is not None:
        return

    def check() -> None:
        table.host_check = None
        task = asyncio.ensure_future(_pass_host(manager, table))
        manager.keep(task)

    table.host_check = asyncio.get_running_loop().call_later(manager.host_gone_seconds,
                                                            check)


async def _pass_host(manager: TableManager, table: Table) -> None:
    async with table.lock:
        seat = table.host_seat
        if seat is None or table.status == FINISHED or table.connected(seat):
            return
        heirs = [s.seat for s in table.seats if s.kind == HUMAN and s.seat != seat
                 and table.connected(s.seat)]
        if not heirs:
            return
        try:
            await _give_host(manager, table, heirs[0], PASSED)
        except Refused:
            log.warning("table %s: the host role could not be passed on", log_name(table.id))

