"""PostgreSQL storage: the same guarantees as SQLite (durable, ordered, a failed write
changes nothing), an append that is a compare-and-set on the action number, and
migrations that upgrade a database made by the previous schema.

Runs against a PostgreSQL server the tests start on loopback (``tests/services.py``);
skipped where PostgreSQL is not installed, except in CI.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gametable.server.app import Settings, create_app
from gametable.server.logname import log_name
from gametable.server.outage import Outage
from gametable.server.storage import EarlierOccupant, SeatRow, StorageError, TableRow
from tests.aio import run_async
from tests.server.storage_checks import (
    check_chat,
    check_created_by,
    check_deal_shown,
    check_expiry,
    check_first_action,
    check_number_taken,
    check_rematch,
    check_watching_at_creation,
)
from tests.server.test_http import HUMAN, create
from tests.server.test_socket import connect, hello, next_of
from tests.services import postgres_server

psycopg = pytest.importorskip("psycopg")

from gametable.server.postgres import PostgresStorage, migrate, migrations  # noqa: E402

pytestmark = pytest.mark.server


def table(table_id: str = "t1", seats: list[SeatRow] | None = None, *,
          created: float = 0.0, config: dict[str, Any] | None = None) -> TableRow:
    return TableRow(id=table_id, game="sequence-cats",
                    config=config or {"rules_version": 2}, seed=1, host_hash="h",
                    created=created,
                    seats=seats if seats is not None else [SeatRow(0, "human"),
                                                           SeatRow(1, "open")])


def test_many_concurrent_writes_are_all_stored_in_order(url: str) -> None:
    storage = PostgresStorage(url)

    async def write() -> None:
        await storage.create_table(table())
        for n in range(1, 101):  # an append waits for the one before, as a table does
            await storage.append_action("t1", n, n % 2, {"type": "pass", "n": n})

    run_async(write())
    storage.close()
    (row,) = PostgresStorage(url).load_tables()
    assert [a["n"] for _, a in row.actions] == list(range(1, 101))
    assert [s.kind for s in row.seats] == ["human", "open"]


def test_an_append_is_a_compare_and_set_on_the_action_number(url: str) -> None:
    """Two writers can never both store action N, nor can one skip a number."""
    storage = PostgresStorage(url)
    other = PostgresStorage(url)  # a second process's storage

    async def write() -> list[BaseException | None]:
        await storage.create_table(table())
        await storage.append_action("t1", 1, 0, {"type": "a"})
        results = await asyncio.gather(
            *(writer.append_action("t1", 2, 1, {"type": f"by {i}"})
              for i, writer in enumerate([storage, other] * 4)),
            return_exceptions=True)
        return list(results)

    results = run_async(write())
    assert sum(result is None for result in results) == 1
    assert all(isinstance(r, StorageError) for r in results if r is not None)
    with pytest.raises(StorageError, match="another action"):
        run_async(storage.append_action("t1", 5, 0, {"type": "skips 3 and 4"}))
    with pytest.raises(StorageError):
        run_async(storage.append_action("t1", 1, 0, {"type": "again"}))
    (row,) = storage.load_tables()
    assert len(row.actions) == 2
    storage.close()
    other.close()


def test_what_a_table_keeps_is_stored_and_read_back(url: str) -> None:
    storage = PostgresStorage(url)
    clock = {"seconds": 30, "deadline": 12.5}

    async def write() -> None:
        # Three seats: after Bea's join one is still open, so the table still waits
        # and may expire (found so after her join: its seats changed hands once).
        await storage.create_table(table("waiting", [SeatRow(0, "human"), SeatRow(1, "open"),
                                                     SeatRow(2, "open")], created=1.0))
        await storage.create_table(table("bots", [SeatRow(0, "bot", bot="easy"),
                                                  SeatRow(1, "bot", bot="hard")],
                                         created=2.0, config={"deck": "mine"}))
        await storage.create_table(table("done", created=3.0))
        await storage.create_table(table("changed", created=4.0))
        await storage.save_options("changed", {"edition": "PT"}, 77, clock)
        await storage.save_seat("waiting", SeatRow(1, "human", name="Bea", token_hash="x"))
        await storage.append_action("bots", 1, 0, {"type": "pass"}, clock=clock)
        await storage.save_host("bots", "new-host", 1)
        await storage.save_seat("bots", SeatRow(1, "bot", bot="hard", name="Ola",
                                                bot_since=1, removed=True))
        await storage.save_seat("bots", SeatRow(0, "human", name="Bea", token_hash="y",
                                                earlier=(EarlierOccupant(1, "Ola", "easy"),)))
        await storage.save_watching("bots", False)
        await storage.mark_ended("done", 9.0)
        assert await storage.mark_expired({"waiting": 1}, 8.0) == ["waiting"]

    run_async(write())
    rows = {row.id: row for row in storage.load_tables()}
    assert set(rows) == {"bots", "changed"}  # finished and expired tables are not loaded
    changed = rows["changed"]
    assert (changed.config, changed.seed, changed.clock) == ({"edition": "PT"}, 77, clock)
    bots = rows["bots"]
    assert (bots.host_hash, bots.host_seat, bots.watching, bots.clock) == (
        "new-host", 1, False, clock)
    assert bots.actions == [(0, {"type": "pass"})]
    assert bots.seats[1] == SeatRow(1, "bot", bot="hard", name="Ola", bot_since=1,
                                    removed=True)
    assert bots.seats[0] == SeatRow(0, "human", name="Bea", token_hash="y",
                                    earlier=(EarlierOccupant(1, "Ola", "easy"),))
    assert [row.id for row in storage.load_tables(active_only=True)] == ["bots"]
    waiting = storage.load_table("waiting")
    assert waiting is not None and waiting.expired == 8.0
    assert waiting.seats[1] == SeatRow(1, "human", name="Bea", token_hash="x")
    done = storage.load_table("done")
    assert done is not None and done.ended == 9.0
    assert storage.load_table("nothing") is None
    assert storage.unfinished_with("deck", "mine") == ["bots"]
    with pytest.raises(ValueError, match="not an option name"):
        storage.unfinished_with("deck'; DROP TABLE actions; --", "x")
    storage.close()


def test_a_database_of_the_previous_schema_is_upgraded_at_start(url: str) -> None:
    """Migration 1 made the first schema; a table stored then (options without
    ``rules_version``) is played by the first rules once migration 2 has run."""
    assert [number for number, _, _ in migrations()][:2] == [1, 2]
    assert migrate(url, upto=1) == 1
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO game_tables (id, game, config, seed, host_hash, created) "
                     "VALUES ('old', 'dixit', '{\"edition\": \"PT\"}', 1, 'h', 0)")
        conn.execute("INSERT INTO seats (table_id, seat, kind) VALUES ('old', 0, 'bot')")
    storage = PostgresStorage(url)
    assert storage.schema_version == len(migrations())
    (row,) = storage.load_tables()
    assert row.config == {"edition": "PT", "rules_version": 1}
    assert (row.clock, row.watching, row.host_seat) == (None, True, None)
    storage.close()
    assert migrate(url) == len(migrations())  # nothing more to do


def test_a_database_from_before_deal_shown_counts_tables_whose_seats_changed_as_shown(
        url: str) -> None:
    """Migration 8 added ``deal_shown`` false for every table stored before: a table
    whose deal had been shown and a seat opened again since came back not begun, and
    the host could deal again until the hands suited them."""
    assert migrate(url, upto=7) == 7
    with psycopg.connect(url, autocommit=True) as conn:
        for table_id, changes in (("changed", 2), ("untouched", 0)):
            conn.execute("INSERT INTO game_tables (id, game, config, seed, host_hash, "
                         "created, seat_changes) VALUES (%s, 'sequence-cats', "
                         "'{\"rules_version\": 2}', 1, 'h', 0, %s)", (table_id, changes))
            conn.execute("INSERT INTO seats (table_id, seat, kind) VALUES (%s, 0, 'human')",
                         (table_id,))
            conn.execute("INSERT INTO seats (table_id, seat, kind) VALUES (%s, 1, 'open')",
                         (table_id,))
    storage = PostgresStorage(url)
    try:
        assert [getattr(storage.load_table(t), "deal_shown", None)
                for t in ("changed", "untouched")] == [True, False]
    finally:
        storage.close()


def test_a_database_of_a_newer_gametable_is_refused(url: str) -> None:
    migrate(url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (9999, 'future.sql', 0)")
    with pytest.raises(StorageError, match="newer gametable"):
        PostgresStorage(url)


def test_an_unreachable_database_is_a_clear_error() -> None:
    with pytest.raises(StorageError, match="PostgreSQL"):
        PostgresStorage("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")


def test_the_server_plays_and_restarts_on_postgresql(url: str, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, database=url, bot_delay=0,
                        static_dir=tmp_path / "none")
    with TestClient(create_app(settings)) as client:
        created = create(client, [HUMAN, HUMAN])
        table_id = created["table"]["id"]
        friend = client.post(f"/api/tables/{table_id}/join", json={}).json()
        with connect(client, table_id) as ws:
            _, state = hello(ws, created["token"])
            ws.send_json({"type": "action", "action": state["legal"][0], "version": 0})
            assert next_of(ws, "state")["version"] == 1
    assert not (tmp_path / "gametable.sqlite3").exists()
    with TestClient(create_app(settings)) as client, connect(client, table_id) as ws:
        _, state = hello(ws, friend["token"])
        assert state["version"] == 1 and state["legal"]


def test_while_the_database_is_down_refusals_say_what_failed_and_nothing_is_lost(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A table that cannot be read was told "could not save that"; a move that could not
    be stored logged a traceback each time. Now a read says it cannot read, a move says
    it was not saved (in one log line with the cause), and after the outage the move is
    taken as if nothing had happened."""
    with postgres_server() as own:
        storage = PostgresStorage(own.database(), wait_seconds=1)
        settings = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none")
        with TestClient(create_app(settings, storage)) as client:
            created = create(client, [HUMAN, HUMAN])
            table_id = created["table"]["id"]
            client.post(f"/api/tables/{table_id}/join", json={})
            with connect(client, table_id) as ws:
                _, state = hello(ws, created["token"])
                own.pause()
                try:
                    unread = client.get("/api/tables/not-in-memory")
                    assert unread.status_code == 503
                    assert unread.json()["code"] == "storage_failed"
                    assert unread.json()["key"] == "server.errors.storage_unreadable"
                    assert "cannot read" in unread.json()["message"]
                    move = {"type": "action", "action": state["legal"][0], "version": 0}
                    ws.send_json(move)
                    refused = next_of(ws, "error")
                    assert refused["key"] == "server.errors.storage_failed"
                finally:
                    own.resume()
                # One line for the outage, at its first failure (the read), with the
                # cause; the move refused later is part of it.
                failed = [r for r in caplog.records if "does not answer" in r.getMessage()
                          and r.levelno >= logging.WARNING]
                assert len(failed) == 1 and failed[0].exc_info is None
                assert f"(table {log_name('not-in-memory')} not loaded): PostgreSQL: " in \
                    failed[0].getMessage(), failed[0].getMessage()
                assert not [r for r in caplog.records if "not stored" in r.getMessage()
                            and r.levelno >= logging.WARNING]
                # The pool reconnects within a few seconds of the database's return
                # (RECONNECT_SECONDS): a move sent before that is refused again, as the
                # one above, and taken once it is sent again.
                deadline = time.monotonic() + 30
                while True:
                    ws.send_json(move)
                    answer = next_of_either(ws, "state", "error")
                    if answer["type"] == "state":
                        break
                    assert answer["key"] == "server.errors.storage_failed", answer
                    assert time.monotonic() < deadline, "the move was never taken"
                    time.sleep(0.5)
                assert answer["version"] == 1
                assert "storage: the table storage answers again" in caplog.text


def next_of_either(ws: Any, *kinds: str) -> dict[str, Any]:
    """The next message of one of ``kinds``."""
    while True:
        message = ws.receive_json()
        if message["type"] in kinds:
            return dict(message)


def test_the_first_request_after_an_outage_is_served() -> None:
    """The pool reconnected with doubling waits for up to 5 minutes: after an outage of
    37 s its next attempt came 63 s after the first, and tables stayed stalled for about
    25 s after the database was back (after 75 s, about 50 s). Now the pool gives up
    after ``RECONNECT_SECONDS`` and the next request tries at once (its attempts at most
    4 s apart), so the first request after the outage is served within its 6 s wait."""
    with postgres_server() as own:
        storage = PostgresStorage(own.database(), wait_seconds=6)
        try:
            run_async(storage.create_table(table()))
            own.pause()
            try:
                failed = 0
                for _ in range(6):  # about 36 s of requests refused
                    with pytest.raises(StorageError):
                        storage.load_table("t1")
                    failed += 1
            finally:
                own.resume()
            assert failed == 6
            assert storage.load_table("t1") is not None
        finally:
            storage.close()


def test_connections_the_database_dropped_are_not_handed_out_again(url: str) -> None:
    """After a database restart the pool's connections are dead; each used to fail one
    request (an action refused, a table not loaded, /readyz flapping). Here the server
    ends every connection of the pool, as a restart does, and the next reads succeed."""
    storage = PostgresStorage(url, max_connections=4)
    try:
        run_async(storage.create_table(table()))
        assert storage.load_table("t1") is not None
        with psycopg.connect(url, autocommit=True) as admin:
            ended = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchone()
        assert ended is not None and ended[0] >= 1
        for _ in range(4):
            assert storage.load_table("t1") is not None
    finally:
        storage.close()


def test_only_tables_whose_game_has_not_started_are_candidates_to_expire(url: str) -> None:
    """As in SQLite: a game under way whose host reopened a seat never expires."""
    storage = PostgresStorage(url)

    async def write() -> None:
        await storage.create_table(table("never-started", created=1.0))
        await storage.create_table(table("under-way", created=1.0))
        await storage.append_action("under-way", 1, 0, {"type": "pass"})
        await storage.create_table(table("full", [SeatRow(0, "human"), SeatRow(1, "human")],
                                         created=1.0))
        await storage.create_table(table("young", created=50.0))

    run_async(write())
    assert storage.waiting_before(10.0) == {"never-started": 0}
    storage.close()



def test_a_write_of_an_earlier_owner_arriving_after_a_takeover_is_refused(url: str) -> None:
    """Several processes (``gametable.server.fencing``): process A ran a table; its
    lease moved to B (A paused, or Redis lost its keys) while a write of A's was still
    on its way. Only actions were a compare-and-set, so A's late seat, options or host
    were stored over B's: two people held one seat, and the one A stored was shown the
    hand the other had played. B's takeover raises the table's owner number first, and
    every later write of A, which carries the number A got, is refused; nothing of it
    is stored."""
    a, b = PostgresStorage(url), PostgresStorage(url)
    fences_a: dict[str, int] = {}
    fences_b: dict[str, int] = {}
    a.fence_of, b.fence_of = fences_a.get, fences_b.get

    async def run() -> None:
        fences_a["t1"] = await a.take_table("t1")
        assert fences_a["t1"] == 0  # not stored yet: created with 0
        await a.create_table(table(seats=[SeatRow(0, "human"), SeatRow(1, "open"),
                                          SeatRow(2, "open")]))
        await a.save_seat("t1", SeatRow(1, "human", name="Xavier", token_hash="x"))
        fences_b["t1"] = await b.take_table("t1")  # B takes the table over
        assert fences_b["t1"] == 1
        late = [a.save_seat("t1", SeatRow(2, "human", name="Xavier", token_hash="x2")),
                a.save_options("t1", {"rules_version": 2, "sequences_to_win": 2}, 7, None),
                a.save_host("t1", "a-host", 1), a.save_clock("t1", {"late": True}),
                a.save_watching("t1", False), a.mark_ended("t1", 5.0),
                a.mark_finished("t1", 5.0), a.append_action("t1", 1, 0, {"type": "late"})]
        for write in late:
            with pytest.raises(StorageError, match="taken over by another process"):
                await write
        await b.save_seat("t1", SeatRow(2, "human", name="Yvonne", token_hash="y"))
        await b.append_action("t1", 1, 0, {"type": "b"})
        with pytest.raises(StorageError, match="run by another process"):
            await b.save_seat("t2", SeatRow(0, "open"))  # a table B did not take over

    run_async(run())
    row = b.load_table("t1")
    assert row is not None
    assert [(s.name, s.token_hash) for s in row.seats] == [
        (None, None), ("Xavier", "x"), ("Yvonne", "y")]
    assert row.config == {"rules_version": 2} and row.seed == 1 and row.host_hash == "h"
    assert row.clock is None and row.watching and row.ended is None
    assert row.actions == [(0, {"type": "b"})]
    # One process (no fence_of): writes are not fenced, as before.
    single = PostgresStorage(url)
    run_async(single.save_host("t1", "h2", None))
    assert single.load_table("t1").host_hash == "h2"  # type: ignore[union-attr]
    for storage in (a, b, single):
        storage.close()


def test_a_takeover_does_not_wait_long_for_a_stalled_write_of_the_earlier_owner(
        url: str) -> None:
    """A write of the earlier owner holds the table's row until it commits; when its
    database link stalls, taking the table over is refused after a moment (and tried
    again by the cluster) instead of hanging every request for the table meanwhile."""
    storage = PostgresStorage(url)
    run_async(storage.create_table(table()))
    with psycopg.connect(url) as stalled:
        stalled.execute("SELECT 1 FROM game_tables WHERE id = 't1' FOR SHARE")
        with pytest.raises(StorageError, match="lock timeout"):
            run_async(storage.take_table("t1"))
        stalled.rollback()
    assert run_async(storage.take_table("t1")) == 1
    storage.close()


def test_an_address_that_cannot_name_a_table_is_no_table_on_postgresql(
        url: str, tmp_path: Path) -> None:
    """PostgreSQL text holds no NUL character: a table address holding one
    (``/api/tables/a%00b``) made reading it fail, answered ``503 storage_failed`` ("try
    again") and was noted as a table storage could not read. No table has such an id
    (ids are URL-safe, as the websocket's address allows): it is ``404 no_table``, as
    on SQLite, and storage is not asked."""
    settings = Settings(data_dir=tmp_path, database=url, bot_delay=0,
                        static_dir=tmp_path / "none")
    with TestClient(create_app(settings)) as client:
        for address in ("a%00b", "%00", "caf%C3%A9", "x" * 65):
            answer = client.get(f"/api/tables/{address}")
            assert answer.status_code == 404, (address, answer.text)
            assert answer.json()["code"] == "no_table"
            joined = client.post(f"/api/tables/{address}/join", json={})
            assert joined.status_code == 404 and joined.json()["code"] == "no_table"
        assert not client.app.api.state.manager.load_failed  # type: ignore[attr-defined]
        created = create(client, [HUMAN, HUMAN])
        assert client.get(f"/api/tables/{created['table']['id']}").status_code == 200


def test_postgresql_counts_a_creators_tables_keeps_the_chat_and_the_first_action(url: str) -> None:
    storage = PostgresStorage(url)
    try:
        check_created_by(storage)
        check_chat(storage)
        check_first_action(storage)
        check_number_taken(storage)
        check_expiry(storage)
        check_watching_at_creation(storage)
        check_deal_shown(storage)
        check_rematch(storage)
    finally:
        storage.close()


def test_an_expiry_written_after_a_takeover_is_left_out_by_the_owner_number(
        url: str) -> None:
    """Process A took a waiting table's lease to expire it, and stalled past its lease;
    B took the table over and served it. A's expiry carried no owner number and was
    stored: the table B served answered 410. It is fenced like every other write: A's
    number is no longer the table's, so its expiry leaves the table as it is, and B's
    own expiry, with the current number, is written."""
    setup, a, b = PostgresStorage(url), PostgresStorage(url), PostgresStorage(url)
    fences_a: dict[str, int] = {}
    fences_b: dict[str, int] = {}
    a.fence_of, b.fence_of = fences_a.get, fences_b.get

    async def run() -> tuple[Any, float | None, Any]:
        await setup.create_table(table("waits", [SeatRow(0, "human"), SeatRow(1, "open"),
                                                 SeatRow(2, "open")], created=1.0))
        found = setup.waiting_before(10.0)
        fences_a["waits"] = await a.take_table("waits")
        fences_b["waits"] = await b.take_table("waits")  # B takes the table over
        by_a = await a.mark_expired(found, 5.0)
        row = setup.load_table("waits")
        assert row is not None
        return by_a, row.expired, await b.mark_expired(found, 6.0)

    try:
        by_a, expired_then, by_b = run_async(run())
    finally:
        for storage in (setup, a, b):
            storage.close()
    assert (by_a, expired_then, by_b) == ([], None, ["waits"])


def test_concurrent_fenced_writes_of_one_table_take_turns_without_a_deadlock(
        url: str) -> None:
    """Several processes (``gametable.server.fencing``): every write about a table
    checked the table's owner number with ``SELECT … FOR SHARE`` and then updated the
    same row. Two writes of the owner at once (a clock stored in the background beside
    the next move's append, or beside another clock) each held the shared lock and
    waited for the other's: PostgreSQL broke the deadlock by failing one ("deadlock
    detected"), the write was lost and the log reported the database as down. The
    owner's own writes now take turns: every one is stored."""
    storage = PostgresStorage(url)
    fences: dict[str, int] = {}
    storage.fence_of = fences.get
    failures: list[str] = []

    async def run() -> None:
        fences["t1"] = await storage.take_table("t1")
        await storage.create_table(table())

        async def write(n: int) -> None:
            try:
                if n % 4 == 0:
                    await storage.save_host("t1", f"h{n}", 0)
                elif n % 4 == 1:
                    await storage.save_watching("t1", n % 8 == 1)
                else:
                    await storage.save_clock("t1", {"turn_seconds": 30, "n": n})
            except StorageError as error:
                failures.append(str(error))

        await asyncio.gather(*(write(n) for n in range(60)))
        # An append (with its clock) beside clock saves, as a move and the clock do.
        for number in range(1, 6):
            clocks = [write(4 * number + 2) for _ in range(3)]
            results = await asyncio.gather(
                storage.append_action("t1", number, 0, {"type": "pass"},
                                      clock={"turn_seconds": 30, "move": number}),
                *clocks, return_exceptions=True)
            failures.extend(str(r) for r in results if isinstance(r, BaseException))

    try:
        run_async(run())
        row = storage.load_table("t1")
    finally:
        storage.close()
    assert failures == []
    assert row is not None and len(row.actions) == 5


def test_a_write_the_database_fails_to_break_a_clash_is_tried_again_then_named(
        url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A write PostgreSQL fails to break a deadlock or a serialization clash (nothing of
    it stored) is tried again; one that keeps clashing is refused as a clash with
    another write of the table (``WriteClash``), and the log says so, not that the
    database does not answer."""
    from gametable.server.storage import WriteClash  # noqa: PLC0415
    from gametable.server.tables import TableManager  # noqa: PLC0415

    storage = PostgresStorage(url)
    run_async(storage.create_table(table()))
    real = storage._commit_once
    clashes = [psycopg.errors.DeadlockDetected("deadlock detected"),
               psycopg.errors.SerializationFailure("could not serialize access")]

    def clashing(*args: Any) -> None:
        if clashes:
            raise clashes.pop(0)
        real(*args)

    monkeypatch.setattr(storage, "_commit_once", clashing)
    run_async(storage.save_host("t1", "h2", None))  # two clashes, then stored
    assert storage.load_table("t1").host_hash == "h2"  # type: ignore[union-attr]
    clashes.extend(psycopg.errors.DeadlockDetected("deadlock detected") for _ in range(3))
    with pytest.raises(WriteClash, match="clash with another write") as refused:
        run_async(storage.save_host("t1", "h3", None))
    storage.close()
    outage = TableManager.__new__(TableManager)
    outage.storage_outage = Outage("the table storage", log=logging.getLogger("t"),
                                   prefix="storage", stops="moves are refused")
    with caplog.at_level(logging.INFO):
        TableManager._not_stored(outage, "table t1: host not stored", refused.value)
    assert outage.storage_outage.since is None
    assert "does not answer" not in caplog.text and "clash" in caplog.text


def test_a_clock_stored_in_the_background_never_lands_over_a_newer_one(url: str) -> None:
    """As on SQLite (test_clock): the clock armed as Bo's arrival began the game was
    stored in the background, and on PostgreSQL each write runs in a thread of its own,
    so that one could commit after the host's pause and store the clock unpaused. Here
    a write of an unpaused clock is held until a paused one was stored, as a slow
    thread would."""
    from gametable.server.tables import TableManager  # noqa: PLC0415
    from tests.server.test_clock import pause_as_the_clock_is_stored  # noqa: PLC0415

    async def main() -> None:
        storage = PostgresStorage(url)
        paused_stored = asyncio.Event()
        save_clock = storage.save_clock

        async def slow_unless_paused(table_id: str, clock: dict[str, Any]) -> None:
            if clock.get("paused_at") is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(paused_stored.wait(), 5)
            await save_clock(table_id, clock)
            if clock.get("paused_at") is not None:
                paused_stored.set()

        storage.save_clock = slow_unless_paused  # type: ignore[method-assign]
        manager = TableManager(storage, bot_delay=0.0)
        try:
            await pause_as_the_clock_is_stored(manager)
        finally:
            await manager.stop()
            storage.close()

    run_async(main())
