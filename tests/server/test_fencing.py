"""Several processes: a process that does not hold a table's lease keeps no copy of it
and stores nothing about it (``gametable.server.fencing``; the cluster's leases are
stood in for by a ``holds`` function)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from gametable.server import hosting
from gametable.server.decks import _table_deck
from gametable.server.fencing import FencedStorage
from gametable.server.refused import Refused
from gametable.server.storage import SeatRow, TableRow, token_hash
from gametable.server.tables import SeatRequest, TableManager
from tests.server.test_clock import with_manager

pytestmark = pytest.mark.server

HUMAN = SeatRequest("human")


def test_a_table_this_process_does_not_hold_is_not_loaded_or_kept_here(
        tmp_path: Path) -> None:
    """A request for a table another process runs (a picture pass sent to any process)
    loaded it here, outside the lease: should this process take the table over later,
    it served that copy, fallen behind — revoked tokens, an old deal, stalled computer
    players. Now it is refused (503 ``table_moved``) and nothing stays in memory; a copy
    already here is dropped."""
    async def body(manager: TableManager) -> None:
        table, _, _, _ = await manager.create("sequence-cats", {}, [HUMAN, HUMAN], "Ann")
        held = {table.id}
        manager.fence = lambda table_id: table_id in held
        assert await manager.get(table.id) is table
        held.clear()  # another process took the table over
        with pytest.raises(Refused) as refused:
            await manager.get(table.id)
        assert refused.value.code == "table_moved" and refused.value.status == 503
        assert table.id not in manager.tables
        with pytest.raises(Refused):
            await manager.get(table.id)
        assert table.id not in manager.tables
        # Unknown tables are still "no such table" wherever they are asked.
        with pytest.raises(Refused) as unknown:
            await manager.get("no-such-table")
        assert unknown.value.code == "no_table"
        held.add(table.id)  # the lease came back: the stored table is loaded afresh
        again = await manager.get(table.id)
        assert again is not table and again.id == table.id
    with_manager(tmp_path, body)


def test_a_picture_pass_for_a_table_held_elsewhere_is_checked_in_storage(
        tmp_path: Path) -> None:
    """The seat's token (or whether people may watch) and the table's deck are read from
    storage, without loading the table into this process (a table stored with an
    uploaded deck's id)."""
    async def body(manager: TableManager) -> None:
        await manager.storage.create_table(TableRow(
            id="t-deck", game="dixit", config={"deck": "up-123"}, seed=1, host_hash="-",
            created=time.time(), seats=[SeatRow(0, "human", name="Ann",
                                                token_hash=token_hash("ann-token")),
                                        SeatRow(1, "open"), SeatRow(2, "open")]))
        manager.fence = lambda table_id: False
        assert await _table_deck(manager, "t-deck", "ann-token") == "up-123"
        assert await _table_deck(manager, "t-deck", "not-a-seat-token") is None
        assert await _table_deck(manager, "no-such-table", "ann-token") is None
        # Someone watching gets the table's deck while its host lets people watch.
        assert await _table_deck(manager, "t-deck", None) == "up-123"
        await manager.storage.save_watching("t-deck", False)
        assert await _table_deck(manager, "t-deck", None) is None
        assert await _table_deck(manager, "t-deck", "ann-token") == "up-123"
        assert "t-deck" not in manager.tables
    with_manager(tmp_path, body)


def test_a_process_that_lost_a_lease_stores_nothing_about_the_table(tmp_path: Path) -> None:
    """Only actions were checked against the lease: a process paused while another took
    a table over stored, once it ran again, a seat, the clock or the host's decisions
    over the new owner's. Every write about a table now needs its lease."""
    async def body(manager: TableManager) -> None:
        lease = {"held": False}
        manager.storage = FencedStorage(manager.storage, lambda table_id: lease["held"])
        with pytest.raises(Refused) as refused:  # not even a new table without its lease
            await manager.create("sequence-cats", {}, [HUMAN, HUMAN, HUMAN], "Ann")
        assert refused.value.code == "storage_failed"
        lease["held"] = True
        table, host, _, _ = await manager.create(
            "sequence-cats", {}, [HUMAN, HUMAN, HUMAN], "Ann")
        lease["held"] = False  # another process took the table over
        with pytest.raises(Refused) as joining:
            await manager.join(table.id, 1, "Bo")
        assert joining.value.code == "storage_failed"
        with pytest.raises(Refused) as ending:
            await hosting.end_game(manager, table.id, host)
        assert ending.value.code == "storage_failed"
        row = manager.storage.load_table(table.id)
        assert row is not None and row.seats[1].kind == "open"
        assert table.seats[1].kind == "open" and table.ended is None
    with_manager(tmp_path, body)


def test_a_computer_player_refused_while_the_lease_lapsed_for_a_moment_plays_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A computer player's move refused as ``table_moved`` (this process's lease ran
    out for a moment) ended its turn, and nothing started it again: when the lease
    held again and the table stayed in memory here, a table of computer players only
    stopped for good. The player now checks again while the table is still here, and
    plays on once this process may act for the table."""
    monkeypatch.setattr("gametable.server.tables.BOT_RETRY_SECONDS", 0.05)

    async def body(manager: TableManager) -> None:
        refusals: list[str] = []
        lapsed = [True]

        def holds(table_id: str) -> bool:
            if lapsed and table_id == created.id:
                lapsed.clear()  # one check sees the lease run out, then it holds again
                refusals.append(table_id)
                return False
            return True

        created, *_ = await manager.create(
            "triominos", {}, [SeatRequest("bot", "random")] * 2, None)
        manager.fence = holds
        while not refusals:
            await asyncio.sleep(0.01)
        refused_at = created.version
        for _ in range(400):  # (at most 20 s: it moves again within a fraction of that)
            if created.version > refused_at:
                break
            await asyncio.sleep(0.05)
        assert manager.tables.get(created.id) is created
        assert created.version > refused_at, "the computer players stopped"
    with_manager(tmp_path, body, bot_delay=0.05)
