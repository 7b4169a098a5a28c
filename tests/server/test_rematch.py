"""Play again: a finished game's table makes a new one with the same game, options and
people, the seats rotated by one; each person's new token reaches only them."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest

from gametable.server import hosting, rematch
from gametable.server.clock import ClockSettings
from gametable.server.leaving import leave_table
from gametable.server.limits import Limits, Rate
from gametable.server.refused import Refused
from gametable.server.rematch import play_again
from gametable.server.storage import SQLiteStorage, token_hash
from gametable.server.table import BOT, FINISHED, HUMAN, OPEN, Connection, Table
from gametable.server.tables import SeatRequest, TableManager
from tests.aio import run_async
from tests.server.test_clock import messages, seated, until, with_manager
from tests.server.test_races import FakeSocket


def test_play_again_rotates_the_seats_and_hands_each_person_their_token(
        tmp_path: Path) -> None:
    async def main() -> None:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=0)
        try:
            table, _, _, anna_token = await manager.create(
                "sequence-cats", {"sequences_to_win": 1},
                [SeatRequest("human"), SeatRequest("human"),
                 SeatRequest("bot", bot="greedy")], "Anna",
                clock=ClockSettings(turn_seconds=600, cover="easy"))
            _, bruno_token = await manager.join(table.id, 1, "Bruno")
            anna, anna_task = await seated(manager, table, anna_token)
            bruno, bruno_task = await seated(manager, table, bruno_token)
            watcher, watcher_task = await seated(manager, table, None)

            anna.say({"type": "rematch", "id": 1})
            await until(lambda: bool(messages(anna, "error")))
            assert messages(anna, "error")[0]["code"] == "not_over"

            # Anna and Bruno play random legal moves until the game is over.
            rng = random.Random(5)
            while table.status != FINISHED:
                to_act = table.game.to_act(table.state) - {2}
                if not to_act:
                    await until(lambda: table.status == FINISHED
                                or bool(table.game.to_act(table.state) - {2}))
                    continue
                seat = min(to_act)
                legal = table.game.legal_actions(table.state, seat)
                await manager.submit(table, seat, rng.choice(legal))
            assert table.status == FINISHED

            bruno.say({"type": "rematch"})
            await until(lambda: bool(messages(anna, "rematch"))
                        and bool(messages(watcher, "rematch")))
            offer_anna = messages(anna, "rematch")[0]
            offer_bruno = messages(bruno, "rematch")[0]
            offer_watcher = messages(watcher, "rematch")[0]
            new_id = offer_anna["table"]
            assert offer_bruno["table"] == new_id
            # Every seat of the new table is taken and it lets people watch: its id
            # (its invite link too) opens nothing more to those who watch, and a big
            # screen follows the players there.
            assert offer_watcher["table"] == offer_anna["table"]
            assert offer_anna["by"] == 1
            # New seat i is old seat i + 1: Bruno first, then the bot, then Anna.
            assert (offer_bruno["seat"], offer_anna["seat"]) == (0, 2)
            assert offer_watcher["seat"] is None and offer_watcher["token"] is None
            assert offer_anna["host_token"] and "host_token" not in offer_bruno
            assert offer_anna["token"] != offer_bruno["token"]
            new = manager.tables[new_id]
            assert [s.kind for s in new.seats] == [HUMAN, BOT, HUMAN]
            assert [s.name for s in new.seats] == ["Bruno", None, "Anna"]
            assert new.seat_of(offer_anna["token"]) == 2
            assert new.seat_of(offer_bruno["token"]) == 0
            assert new.game_name == table.game_name and new.options == table.options
            assert new.clock is not None and new.clock.settings.turn_seconds == 600
            assert new.host_seat == 2 and new.status == "playing"
            # Neither has come to the new table yet: "coming", not "offline" (Anna's
            # page still shows the last game's result and the offer).
            assert [s.get("coming", False) for s in new.info()["seats"]] == [
                True, False, True]
            first, first_task = await seated(manager, new, offer_bruno["token"])
            assert [s.get("coming", False) for s in new.info()["seats"]] == [
                False, False, True]
            first.inbox.put_nowait(None)
            await first_task
            # Bruno came and went: offline now, not coming.
            assert new.info()["seats"][0].get("coming") is None
            assert new.info()["seats"][0]["connected"] is False
            # Asking again gives the same table; a reconnecting player hears of it too.
            anna.say({"type": "rematch"})
            await until(lambda: len(messages(anna, "rematch")) == 2)
            assert messages(anna, "rematch")[1] == offer_anna
            again, again_task = await seated(manager, table, bruno_token)
            await until(lambda: bool(messages(again, "rematch")))
            assert messages(again, "rematch")[0] == offer_bruno
            for sock, task in ((anna, anna_task), (bruno, bruno_task),
                               (watcher, watcher_task), (again, again_task)):
                sock.inbox.put_nowait(None)
                await task
        finally:
            await manager.stop()
            storage.close()
    run_async(main())


async def ended_for_two(manager: TableManager) -> tuple[Table, str | None, str | None]:
    """A Triominos table of Anna (seat 0, host) and Bruno whose host ended the game:
    ``(table, Anna's token, Bruno's token)``; neither is connected."""
    table, host, _, anna_token = await manager.create(
        "triominos", {}, [SeatRequest("human"), SeatRequest("human")], "Anna")
    _, bruno_token = await manager.join(table.id, 1, "Bruno")
    await hosting.end_game(manager, table.id, host)
    return table, anna_token, bruno_token


Sockets = list[tuple[FakeSocket, asyncio.Task[None]]]


async def both_asked(manager: TableManager) -> tuple[dict[str, Any], dict[str, Any], Sockets]:
    """Anna and Bruno at their ended table (:func:`ended_for_two`), Anna asks to play
    again: ``(Anna's offer, Bruno's offer, their sockets)``."""
    table, anna_token, bruno_token = await ended_for_two(manager)
    anna = await seated(manager, table, anna_token)
    bruno = await seated(manager, table, bruno_token)
    anna[0].say({"type": "rematch"})
    await until(lambda: bool(messages(bruno[0], "rematch")))
    return messages(anna[0], "rematch")[0], messages(bruno[0], "rematch")[0], [anna, bruno]


async def leave_sockets(*sockets: tuple[FakeSocket, asyncio.Task[None]]) -> None:
    """Close each test socket and wait for its connection to end."""
    for sock, task in sockets:
        sock.inbox.put_nowait(None)
        await task


def test_a_player_who_left_gets_an_open_seat_in_the_new_game(tmp_path: Path) -> None:
    async def main() -> None:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=0)
        try:
            table, anna_token, _ = await ended_for_two(manager)  # Bruno is not connected
            anna, task = await seated(manager, table, anna_token)
            anna.say({"type": "rematch"})
            await until(lambda: bool(messages(anna, "rematch")))
            offer = messages(anna, "rematch")[0]
            new = manager.tables[offer["table"]]
            assert [s.kind for s in new.seats] == [OPEN, HUMAN]
            assert offer["seat"] == 1 and new.status == "waiting"
            anna.inbox.put_nowait(None)
            await task
        finally:
            await manager.stop()
            storage.close()
    run_async(main())


@pytest.mark.parametrize(("case", "told"), [
    ("all_here", True), ("bruno_left", False), ("new_watching_off", False)])
def test_those_watching_are_told_the_new_table_only_where_it_opens_nothing_but_watching(
        tmp_path: Path, case: str, told: bool) -> None:
    """A big screen on a device of its own (a client that watches) was never told the
    new table, and showed "… began a new game" for good. It is told the new table's id
    where that id (its invite link too) opens nothing but watching: the new table lets
    people watch and has no open seat. Never a token; told so at the rematch and when it
    connects later."""
    async def body(manager: TableManager) -> None:
        table, anna_token, bruno_token = await ended_for_two(manager)
        anna = await seated(manager, table, anna_token)
        bruno = await seated(manager, table, bruno_token)
        if case == "bruno_left":
            await leave_sockets(bruno)
            table.left_at[1] -= 2 * rematch.KEPT_FOR_SECONDS
        watcher = await seated(manager, table, None)
        anna[0].say({"type": "rematch"})
        await until(lambda: bool(messages(watcher[0], "rematch")))
        offer = messages(anna[0], "rematch")[0]
        first = messages(watcher[0], "rematch")[0]
        if case == "new_watching_off":
            assert first["table"] == offer["table"]  # as it was when the game began
            await hosting.set_watching(manager, offer["table"], offer["host_token"], False)
        later = await seated(manager, table, None)
        await until(lambda: bool(messages(later[0], "rematch")))
        again = messages(later[0], "rematch")[0]
        expected = offer["table"] if told else None
        assert again == {"type": "rematch", "table": expected, "by": 0, "seat": None,
                         "token": None}
        if case != "new_watching_off":
            assert first == again
        await leave_sockets(anna, watcher, later, *([] if case == "bruno_left" else [bruno]))

    with_manager(tmp_path, body)


@pytest.mark.parametrize("gone_seconds", [5.0, 61.0])
def test_a_player_whose_page_was_reloading_keeps_a_seat_in_the_new_game(
        tmp_path: Path, gone_seconds: float) -> None:
    """Bruno's page had closed its connection moments before Anna asked (a reload, a
    phone changing networks): his seat was opened to the invite link, and, had he been
    the host, Anna held the role at once. Within ``rematch.KEPT_FOR_SECONDS`` it is kept
    for him and his token reaches him as he reconnects; after that it is open."""
    async def main() -> None:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=0)
        try:
            table, anna_token, bruno_token = await ended_for_two(manager)
            anna, anna_task = await seated(manager, table, anna_token)
            await leave_sockets(await seated(manager, table, bruno_token))
            table.left_at[1] -= gone_seconds
            anna.say({"type": "rematch"})
            await until(lambda: bool(messages(anna, "rematch")))
            offer = messages(anna, "rematch")[0]
            new = manager.tables[offer["table"]]
            bruno, bruno_task = await seated(manager, table, bruno_token)
            mine = messages(bruno, "rematch")[0]
            if gone_seconds < rematch.KEPT_FOR_SECONDS:
                assert [s.kind for s in new.seats] == [HUMAN, HUMAN]
                assert mine["table"] == new.id and mine["seat"] == 0
                assert new.seats[0].token_hash == token_hash(mine["token"])
            else:
                assert [s.kind for s in new.seats] == [OPEN, HUMAN]
                assert mine["table"] == new.id and mine["token"] is None
            await leave_sockets((anna, anna_task), (bruno, bruno_task))
        finally:
            await manager.stop()
            storage.close()
    run_async(main())


def test_after_a_restart_or_a_takeover_play_again_offers_the_same_new_table(
        tmp_path: Path) -> None:
    """The offer lived in the old table's memory: once the table was loaded again (a
    restart, an hour unvisited, another process taking it over) nobody was offered the
    new table, and a second *Play again* made a second one, splitting the friends and
    giving its host role to whoever asked. The offer is stored; the same table and the
    same tokens are offered, to each their own."""
    async def body(manager: TableManager) -> None:
        table, anna_token, bruno_token = await ended_for_two(manager)
        anna, anna_task = await seated(manager, table, anna_token)
        bruno, bruno_task = await seated(manager, table, bruno_token)
        bruno.say({"type": "rematch"})
        await until(lambda: bool(messages(anna, "rematch"))
                    and bool(messages(bruno, "rematch")))
        first_anna, first_bruno = messages(anna, "rematch")[0], messages(bruno, "rematch")[0]
        await leave_sockets((anna, anna_task), (bruno, bruno_task))
        tables_before = len(manager.storage.load_tables())
        manager.unload(table.id)  # a restart, or another process, loads it again

        again = await manager.get(table.id)
        assert again is not table
        anna, anna_task = await seated(manager, again, anna_token)
        bruno, bruno_task = await seated(manager, again, bruno_token)
        await until(lambda: bool(messages(anna, "rematch"))
                    and bool(messages(bruno, "rematch")))
        assert messages(anna, "rematch")[0] == first_anna  # host token and all
        assert messages(bruno, "rematch")[0] == first_bruno
        anna.say({"type": "rematch"})  # asked again: the same table, none made
        await until(lambda: len(messages(anna, "rematch")) == 2)
        assert messages(anna, "rematch")[1] == first_anna
        assert len(manager.storage.load_tables()) == tables_before
        new = await manager.get(first_anna["table"])
        assert new.seat_of(first_anna["token"]) == first_anna["seat"]
        assert new.seat_of(first_bruno["token"]) == first_bruno["seat"]
        await leave_sockets((anna, anna_task), (bruno, bruno_task))

    with_manager(tmp_path, body)


def test_no_thanks_to_play_again_opens_the_seat_kept_at_the_new_table(
        tmp_path: Path) -> None:
    """Bruno never came to the new table: his "no thanks" opens his seat, its cards
    unseen (a table counted every seat of a shown deal as seen as it was made, as one
    loaded after a restart, and gave the seat to a computer player). It is kept for
    whoever the host gives its link: open to the invite link, which every player of the
    last game has, it let Anna take it too, see two hands and act for both."""
    async def body(manager: TableManager) -> None:
        mine, offer, sockets = await both_asked(manager)
        new, bot = await leave_table(manager, offer["table"], offer["token"])
        assert bot is None and new.seats[offer["seat"]].kind == OPEN
        assert new.info()["seats"][offer["seat"]].get("invited") is True
        with pytest.raises(Refused) as refused:
            await manager.join(new.id, offer["seat"], "Anna")
        assert refused.value.code == "seat_invited"
        code = await manager.seat_link(new.id, offer["seat"], mine["host_token"])
        assert await manager.join(new.id, offer["seat"], "Carla", code)
        await leave_sockets(*sockets)

    with_manager(tmp_path, body)


def test_play_again_keeps_watching_switched_off(tmp_path: Path) -> None:
    """A host who switched watching off (the pictures are private) found the new game
    open to anyone holding its link: Play again made it with watching on, unsaid."""
    async def main() -> tuple[bool, bool | None]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=0)
        try:
            table, host, _, anna_token = await manager.create(
                "triominos", {}, [SeatRequest("human"), SeatRequest("bot", bot="random")],
                "Anna")
            await hosting.set_watching(manager, table.id, host, False)
            await hosting.end_game(manager, table.id, host)
            anna, task = await seated(manager, table, anna_token)
            anna.say({"type": "rematch"})
            await until(lambda: bool(messages(anna, "rematch")))
            new_id = messages(anna, "rematch")[0]["table"]
            anna.inbox.put_nowait(None)
            await task
            stored = storage.load_table(new_id)
            return manager.tables[new_id].watching, None if stored is None else stored.watching
        finally:
            await manager.stop()
            storage.close()

    assert run_async(main()) == (False, False)


def test_play_again_counts_against_the_rate_of_tables_made(tmp_path: Path) -> None:
    """A solo table ended and played again, over and over, made a table every 2 s, where
    the lobby allows ten and then one every 30 s: the new table now counts against the
    asker's address's rate of tables made, and is refused (429) past it."""
    async def main() -> tuple[str, int]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=0)
        limits = Limits({"create": Rate(1, 600.0)})
        try:
            tables = []
            for _ in range(2):
                table, host, _, token = await manager.create(
                    "triominos", {}, [SeatRequest("human"),
                                      SeatRequest("bot", bot="random")], "Anna")
                await hosting.end_game(manager, table.id, host)
                tables.append((table, token))
            answers = []
            for table, token in tables:
                conn = Connection(_ignore, _close, "10.0.0.7")
                conn.seat, conn.holder = 0, token_hash(str(token))
                try:
                    await play_again(manager, table, conn, limits)
                    answers.append("made")
                except Refused as refusal:
                    answers.append(f"{refusal.code} {refusal.status}")
            return ", ".join(answers), len(manager.tables)
        finally:
            await manager.stop()
            storage.close()

    answers, count = run_async(main())
    assert answers == "made, rate_limited 429" and count == 3


async def _ignore(text: str) -> None:
    pass


async def _close(code: int, reason: str) -> None:
    pass


def test_a_seat_kept_at_the_new_table_opens_only_for_the_hosts_link(
        tmp_path: Path) -> None:
    """The new table's game has begun (every seat taken): a seat the host opens for a
    friend who has not come yet was open to anyone holding the invite link, which every
    player of the last game has, so one of them took two seats and saw two hands. It is
    kept for whoever the host gives its link."""
    async def body(manager: TableManager) -> None:
        mine, theirs, sockets = await both_asked(manager)
        new = manager.tables[mine["table"]]
        assert new.begun and not new.saw_deal(theirs["seat"])
        _, code = await hosting.remove_player(manager, new.id, theirs["seat"],
                                              mine["host_token"])
        assert code is not None
        with pytest.raises(Refused) as refused:
            await manager.join(new.id, theirs["seat"], "Mallory")
        assert refused.value.code == "seat_invited"
        await leave_sockets(*sockets)

    with_manager(tmp_path, body)


def test_an_offer_whose_new_table_expired_gives_way_to_a_new_one(tmp_path: Path) -> None:
    """The new table waited for a seat until it expired: the old table offered it again
    at every visit, and Play again repeated it, for good (it answered 410)."""
    async def body(manager: TableManager) -> None:
        table, anna_token, _ = await ended_for_two(manager)  # Bruno has gone home
        anna, anna_task = await seated(manager, table, anna_token)
        anna.say({"type": "rematch"})
        await until(lambda: bool(messages(anna, "rematch")))
        dead = messages(anna, "rematch")[0]["table"]
        await leave_sockets((anna, anna_task))
        assert await manager.expire_waiting(now=time.time() + 49 * 3600) == 1
        manager.unload(table.id)
        again = await manager.get(table.id)
        assert again.rematch is None  # not offered at the next visit
        anna, anna_task = await seated(manager, again, anna_token)
        anna.say({"type": "rematch"})
        await until(lambda: bool(messages(anna, "rematch")))
        fresh = messages(anna, "rematch")[0]["table"]
        assert fresh != dead and (await manager.get(fresh)).status == "waiting"
        stored = manager.storage.load_table(table.id)
        assert stored is not None and stored.rematch is not None
        assert stored.rematch["table"] == fresh
        await leave_sockets((anna, anna_task))

    with_manager(tmp_path, body)


def test_a_table_still_in_memory_does_not_welcome_with_a_dead_offer(tmp_path: Path
                                                                   ) -> None:
    """The offer was checked when the old table was loaded and when someone asked again,
    but not when a page came: while the old table stayed in memory (someone there), every
    page was welcomed with the expired new table, whose Join answered 410, and shown no
    Play again to ask with."""
    async def body(manager: TableManager) -> None:
        table, anna_token, bruno_token = await ended_for_two(manager)
        anna, anna_task = await seated(manager, table, anna_token)
        anna.say({"type": "rematch"})
        await until(lambda: bool(messages(anna, "rematch")))
        assert await manager.expire_waiting(now=time.time() + 49 * 3600) == 1
        assert manager.tables.get(table.id) is table  # Anna is still there
        bruno, bruno_task = await seated(manager, table, bruno_token)
        bruno.say({"type": "ping"})  # answered once the welcome is done
        await until(lambda: bool(messages(bruno, "pong")))
        assert messages(bruno, "rematch") == []
        assert table.rematch is None
        # Anna's page, which showed the offer, is told it is gone (her Join answered 410
        # until she reloaded).
        await until(lambda: bool(messages(anna, "rematch_gone")))
        assert messages(anna, "rematch_gone") == [{"type": "rematch_gone"}]
        await leave_sockets((anna, anna_task), (bruno, bruno_task))

    with_manager(tmp_path, body)


def test_a_dead_offer_found_by_play_again_is_taken_from_every_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Play again found the offer dead and made a new table; when it could not (the
    address's rate of tables made, a storage fault), the other pages went on showing the
    dead offer, whose Join answered 410."""
    async def body(manager: TableManager) -> None:
        table, anna_token, bruno_token = await ended_for_two(manager)
        anna, anna_task = await seated(manager, table, anna_token)
        bruno, bruno_task = await seated(manager, table, bruno_token)
        anna.say({"type": "rematch"})
        await until(lambda: bool(messages(bruno, "rematch")))

        async def dead(*args: object) -> bool:  # its new table expired, say
            return False

        async def refused(*args: object, **kwargs: object) -> None:
            raise Refused("rate_limited", "server.errors.rate_limited", status=429)

        monkeypatch.setattr(rematch, "offer_open", dead)
        monkeypatch.setattr(rematch, "_new_table", refused)
        bruno.say({"type": "rematch"})
        await until(lambda: bool(messages(bruno, "error")))
        assert messages(bruno, "error")[0]["code"] == "rate_limited"
        assert table.rematch is None
        for page in (anna, bruno):
            assert messages(page, "rematch_gone") == [{"type": "rematch_gone"}]
        await leave_sockets((anna, anna_task), (bruno, bruno_task))

    with_manager(tmp_path, body)


def test_an_offer_whose_tokens_no_seat_holds_gives_way_to_a_new_one(tmp_path: Path) -> None:
    """The server's secret changed (its data folder lost, the database restored alone):
    the offer's tokens, derived from it, held no seat, and Play again repeated them."""
    async def main() -> None:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=0, secret=b"k" * 32)
        table, anna_token, bruno_token = await ended_for_two(manager)
        anna, anna_task = await seated(manager, table, anna_token)
        bruno, bruno_task = await seated(manager, table, bruno_token)
        anna.say({"type": "rematch"})
        await until(lambda: bool(messages(bruno, "rematch")))
        first = messages(anna, "rematch")[0]["table"]
        await leave_sockets((anna, anna_task), (bruno, bruno_task))
        await manager.stop()
        other = TableManager(storage, bot_delay=0, secret=b"z" * 32)
        try:
            again = await other.get(table.id)
            assert again.rematch is None
            anna, anna_task = await seated(other, again, anna_token)
            anna.say({"type": "rematch"})
            await until(lambda: bool(messages(anna, "rematch")))
            offer = messages(anna, "rematch")[0]
            assert offer["table"] != first
            assert (await other.get(offer["table"])).seat_of(offer["token"]) == offer["seat"]
            await leave_sockets((anna, anna_task))
        finally:
            await other.stop()
            storage.close()

    run_async(main())
