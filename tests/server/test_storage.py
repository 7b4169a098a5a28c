"""Storage: group commits are durable and ordered; a failed write changes nothing."""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from gametable.bots import base
from gametable.core.config import RULES_VERSION
from gametable.server import hosting, tables
from gametable.server.app import Settings, create_app
from gametable.server.storage import (
    ADDED_COLUMNS,
    SCHEMA,
    SCHEMA_VERSION,
    EarlierOccupant,
    SeatRow,
    SQLiteStorage,
    StorageError,
    TableRow,
    token_hash,
)
from gametable.server.tables import TableManager
from tests.aio import run_async
from tests.server.storage_checks import (
    check_chat,
    check_created_by,
    check_deal_shown,
    check_expiry,
    check_first_action,
    check_number_taken,
    check_rematch,
    check_tables_of_before_deal_shown,
    check_watching_at_creation,
    write_tables_of_before_deal_shown,
)
from tests.server.test_clock import messages, seated, until
from tests.server.test_http import HUMAN, create
from tests.server.test_socket import connect, hello, next_of


def test_many_concurrent_writes_are_all_stored_in_order(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "db.sqlite3")

    async def write() -> None:
        await storage.create_table(TableRow(id="t1", game="sequence-cats", config={}, seed=1,
                                            host_hash="h", created=0.0,
                                            seats=[SeatRow(0, "human"), SeatRow(1, "open")]))
        await asyncio.gather(*(storage.append_action("t1", n, n % 2, {"type": "pass", "n": n})
                               for n in range(1, 301)))

    run_async(write())
    assert storage.commits < 300  # writes shared commits
    storage.close()
    (row,) = SQLiteStorage(tmp_path / "db.sqlite3").load_tables()
    assert [a["n"] for _, a in row.actions] == list(range(1, 301))
    assert [s.kind for s in row.seats] == ["human", "open"]


def test_a_duplicate_action_number_fails_alone(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "db.sqlite3")

    async def write() -> tuple[BaseException | None, BaseException | None]:
        await storage.create_table(TableRow(id="t1", game="g", config={}, seed=1,
                                            host_hash="h", created=0.0, seats=[]))
        await storage.append_action("t1", 1, 0, {"type": "a"})
        return await asyncio.gather(storage.append_action("t1", 1, 0, {"type": "again"}),
                                    storage.append_action("t1", 2, 1, {"type": "b"}),
                                    return_exceptions=True)

    first, second = run_async(write())
    assert isinstance(first, StorageError) and second is None
    storage.close()


def test_an_append_is_a_compare_and_set_on_the_action_number(tmp_path: Path) -> None:
    """Action N is stored only after action N − 1: a writer cannot skip a number, and a
    refused append in a batch leaves the others stored."""
    storage = SQLiteStorage(tmp_path / "db.sqlite3")

    async def write() -> list[BaseException | None]:
        await storage.create_table(TableRow(id="t1", game="g", config={}, seed=1,
                                            host_hash="h", created=0.0, seats=[]))
        return list(await asyncio.gather(storage.append_action("t1", 1, 0, {"n": 1}),
                                          storage.append_action("t1", 3, 0, {"n": 3}),
                                          storage.append_action("t1", 2, 0, {"n": 2}),
                                          return_exceptions=True))

    first, skipping, second = run_async(write())
    assert first is None and second is None
    assert isinstance(skipping, StorageError) and "another action" in str(skipping)
    storage.close()
    (row,) = SQLiteStorage(tmp_path / "db.sqlite3").load_tables()
    assert [a["n"] for _, a in row.actions] == [1, 2]


class FlakyStorage(SQLiteStorage):
    """SQLite storage whose next action writes can be made to fail."""

    failing = False

    async def append_action(self, table_id: str, number: int, seat: int,
                            action: dict[str, Any], clock: dict[str, Any] | None = None,
                            finished: float | None = None) -> None:
        if self.failing:
            raise StorageError("disk full")
        await super().append_action(table_id, number, seat, action, clock,
                                     finished)


def test_an_action_that_cannot_be_stored_is_refused_and_changes_nothing(tmp_path: Path
                                                                        ) -> None:
    storage = FlakyStorage(tmp_path / "db.sqlite3")
    app = create_app(Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path),
                     storage=storage)
    with TestClient(app) as client:
        created = create(client, [HUMAN, HUMAN])
        table_id = created["table"]["id"]
        friend = client.post(f"/api/tables/{table_id}/join", json={}).json()
        with connect(client, table_id) as ws, connect(client, table_id) as other:
            _, state = hello(ws, created["token"])
            hello(other, friend["token"])
            storage.failing = True
            ws.send_json({"type": "action", "action": state["legal"][0]})
            error = next_of(ws, "error")
            assert error["code"] == "storage_failed" and "nothing changed" in error["message"]
            storage.failing = False
            # The same move is still legal: the state was rebuilt from the stored record.
            ws.send_json({"type": "action", "action": state["legal"][0], "version": 0})
            assert next_of(ws, "state")["version"] == 1
            # The other player never heard of the failed move: its next news is move 1
            # (after the table's and the seats' presence news, which may come late).
            news = other.receive_json()
            while news["type"] in ("table", "presence"):
                news = other.receive_json()
            assert (news["type"], news["version"]) == ("state", 1)


class BriefOutage(SQLiteStorage):
    """SQLite storage whose next ``failures`` action writes of seat 1 fail (a database
    away for a moment), counting every write asked for."""

    failures = 0
    writes = 0

    async def append_action(self, table_id: str, number: int, seat: int,
                            action: dict[str, Any], clock: dict[str, Any] | None = None,
                            finished: float | None = None) -> None:
        self.writes += 1
        if self.failures and seat == 1:
            self.failures -= 1
            raise StorageError("database restarting")
        await super().append_action(table_id, number, seat, action, clock,
                                     finished)


def test_a_computer_player_whose_move_was_not_stored_decides_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A computer player's move refused because storage failed for a moment was logged
    as "bot refused" and never tried again: its table stopped for good. It decides again
    after ``BOT_RETRY_SECONDS`` and the game goes on. The log says once that storage
    failed and once that it works again (it said so twice for every attempt)."""
    caplog.set_level(logging.WARNING, logger="gametable.tables")
    monkeypatch.setattr(tables, "BOT_RETRY_SECONDS", 0.05)
    storage = BriefOutage(tmp_path / "db.sqlite3")
    storage.failures = 3
    app = create_app(Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path),
                     storage=storage)
    bot = {"kind": "bot", "bot": "greedy"}
    with TestClient(app) as client:
        created = create(client, [HUMAN, bot])
        table_id = created["table"]["id"]
        with connect(client, table_id) as ws:
            _, state = hello(ws, created["token"])
            while 1 not in state["to_act"]:
                ws.send_json({"type": "action", "action": state["legal"][0],
                              "version": state["version"]})
                state = next_of(ws, "state")
            before = state["version"]
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and storage.failures:
                time.sleep(0.05)
            while time.monotonic() < deadline and len(stored_actions(storage, table_id)) == before:
                time.sleep(0.05)
        assert storage.failures == 0  # three refused writes…
        assert stored_actions(storage, table_id)[before:before + 1] == [1]  # …then stored
    lines = [r.getMessage() for r in caplog.records if r.name == "gametable.tables"]
    assert [line.split(" (")[0].split(", after")[0] for line in lines] == [
        "storage: the table storage does not answer",
        "storage: the table storage answers again"], lines
    assert lines[1].endswith(" s (3 attempts failed)")


def stored_actions(storage: SQLiteStorage, table_id: str) -> list[int]:
    """The seats of the table's stored actions, in order."""
    row = storage.load_table(table_id)
    assert row is not None
    return [seat for seat, _ in row.actions]


class UnreadableStorage(SQLiteStorage):
    """SQLite storage that cannot read a table back while ``failing``."""

    failing = False

    def load_table(self, table_id: str) -> TableRow | None:
        if self.failing:
            raise StorageError("database restarting")
        return super().load_table(table_id)


def test_a_table_storage_cannot_read_now_is_a_503_not_a_server_error(tmp_path: Path
                                                                     ) -> None:
    """Loading a table not in memory while storage fails was a bare 500 with a
    traceback in the log, and a websocket cut without a close frame."""
    storage = UnreadableStorage(tmp_path / "db.sqlite3")
    app = create_app(Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path),
                     storage=storage)
    with TestClient(app, raise_server_exceptions=False) as client:
        table_id = create(client, [HUMAN, HUMAN])["table"]["id"]
        manager = client.app.api.state.manager  # type: ignore[attr-defined]
        manager.unload(table_id)  # out of memory, as after an idle spell or a takeover
        storage.failing = True
        answer = client.get(f"/api/tables/{table_id}")
        assert answer.status_code == 503, answer.text
        assert answer.json()["code"] == "storage_failed"
        # A websocket is told, then closed with "reconnect" (1012), not "no such table".
        with connect(client, table_id) as ws:
            assert ws.receive_json()["code"] == "storage_failed"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1012
        storage.failing = False
        assert client.get(f"/api/tables/{table_id}").status_code == 200


def test_tables_stored_under_schema_1_are_given_the_first_rules(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    conn.execute("INSERT INTO game_tables (id, game, config, seed, host_hash, created) "
                 "VALUES ('old', 'dixit', '{\"edition\": \"PT\"}', 1, 'h', 0)")
    conn.execute("INSERT INTO game_tables (id, game, config, seed, host_hash, created) "
                 "VALUES ('odd', 'dixit', '{\"rules_version\": 2}', 1, 'h', 1)")
    conn.execute("PRAGMA user_version=1")
    conn.commit()
    conn.close()
    storage = SQLiteStorage(path)
    configs = {row.id: row.config for row in storage.load_tables()}
    storage.close()
    assert configs == {"old": {"edition": "PT", "rules_version": 1},
                       "odd": {"rules_version": 2}}
    with sqlite3.connect(path) as again:
        assert again.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_file_written_by_a_newer_gametable_is_refused_and_left_as_it_was(
        tmp_path: Path) -> None:
    """docs/deploy.md: a database written by a newer gametable is refused. The SQLite
    schema's version stayed 2 while columns were added (the seats' ``earlier`` among
    them), so an older gametable opened a newer file and wrote seats without them: the
    seat's earlier occupants were lost. The version now rises with every column."""
    path = tmp_path / "db.sqlite3"
    SQLiteStorage(path).close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    with pytest.raises(StorageError, match=f"newer gametable \\(schema {SCHEMA_VERSION + 1}\\)"):
        SQLiteStorage(path)
    assert path.read_bytes() == before
    # Each column added to SQLite since schema 2, by the schema that added them: one
    # more here needs SCHEMA_VERSION raised (and a line here).
    columns = {(table, name) for table, added in ADDED_COLUMNS.items() for name in added}
    assert columns == {(table, name) for table, name, since in ADDED_SINCE_2
                       if since <= SCHEMA_VERSION}, "a column added raises SCHEMA_VERSION"


ADDED_SINCE_2 = [("game_tables", name, 2) for name in (
    "expired", "clock", "host_seat", "ended", "watchers_off", "creator", "seat_changes",
    "deal_shown", "rematch")] + [("seats", "bot_since", 2), ("seats", "earlier", 3),
                                         ("seats", "removed", 4)]


def test_a_new_table_is_stored_with_its_rules_version(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(data_dir=tmp_path, bot_delay=0))) as client:
        table = create(client, [HUMAN, HUMAN])
        assert table["table"]["config"]["rules_version"] == RULES_VERSION
    (row,) = SQLiteStorage(tmp_path / "gametable.sqlite3").load_tables()
    assert row.config["rules_version"] == RULES_VERSION


@pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="Linux scheduling policy")
def test_the_writer_thread_waits_for_a_free_core_when_woken(tmp_path: Path) -> None:
    """The SQLite writer runs as a batch thread, so that handing it writes does not take
    the event loop's core (docs/deploy.md); the event loop's thread keeps its policy."""
    storage = SQLiteStorage(tmp_path / "db.sqlite3")
    try:
        native = storage._thread.native_id
        assert native is not None
        assert os.sched_getscheduler(native) == os.SCHED_BATCH
        assert os.sched_getscheduler(0) == os.SCHED_OTHER
    finally:
        storage.close()


def test_a_new_game_is_never_dealt_by_the_rules_before_the_audit(tmp_path: Path) -> None:
    """``rules_version`` 1 (the rules as first released, which departed from the
    rulebooks: SC-DEAD-1, SC-WIN-2/3, TR-DRAW-3, DX-SCORE-4, DX-DECK-4…) is for replaying
    the records of games played by it. A client could still ask for it when creating a
    table, and a table stored before the audit played again by it: a new game is now
    always dealt by the current rules."""
    with TestClient(create_app(Settings(data_dir=tmp_path, bot_delay=0))) as client:
        old = client.post("/api/tables", json={
            "game": "sequence-cats", "name": "Anna", "config": {"rules_version": 1},
            "seats": [HUMAN, HUMAN]})
        assert old.status_code == 400, old.text
        assert old.json()["key"] == "errors.old_rules"
        assert f"current rules (version {RULES_VERSION})" in old.json()["message"]
        checked = client.post("/api/games/sequence-cats/check",
                              json={"config": {"rules_version": 1}, "seats": 2}).json()
        assert checked["ok"] is False and checked["error"]["key"] == "errors.old_rules"
        current = client.post("/api/tables", json={
            "game": "sequence-cats", "name": "Anna", "config": {"rules_version": 2},
            "seats": [HUMAN, HUMAN]})
        assert current.status_code == 400, current.text  # the audit's rules, since revised
        current = client.post("/api/tables", json={
            "game": "sequence-cats", "name": "Anna",
            "config": {"rules_version": RULES_VERSION}, "seats": [HUMAN, HUMAN]})
        assert current.status_code == 201, current.text

    async def replay_an_old_table() -> tuple[int, int]:
        storage = SQLiteStorage(tmp_path / "old.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=0)
        try:
            row = TableRow(id="before-audit", game="sequence-cats",
                           config={"rules_version": 1}, seed=3, host_hash=token_hash("h"),
                           created=time.time(), seats=[
                               SeatRow(0, "human", name="Anna", token_hash=token_hash("a")),
                               SeatRow(1, "bot", bot="random")], host_seat=0)
            table = await manager.add_table(row)
            await hosting.end_game(manager, table.id, "h")
            conn, task = await seated(manager, table, "a")
            conn.say({"type": "rematch"})
            await until(lambda: bool(messages(conn, "rematch")))
            new = manager.tables[messages(conn, "rematch")[0]["table"]]
            task.cancel()
            return table.config.rules_version, new.config.rules_version  # type: ignore[attr-defined]
        finally:
            await manager.stop()
            storage.close()

    assert run_async(replay_an_old_table()) == (1, RULES_VERSION)


def test_when_a_computer_player_took_a_seat_over_is_stored(tmp_path: Path) -> None:
    """``bot_since`` and ``earlier`` (docs/records.md) survive a restart, and a database
    made before the columns existed gains them, its seats read as held from the start
    by their one occupant."""
    path = tmp_path / "db.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA.replace("    bot_since INTEGER,\n", "")
                       .replace("    earlier TEXT,\n", ""))
    conn.execute("INSERT INTO game_tables (id, game, config, seed, host_hash, created) "
                 "VALUES ('old', 'sequence-cats', '{}', 1, 'h', 0)")
    conn.execute("INSERT INTO seats (table_id, seat, kind, bot) "
                 "VALUES ('old', 0, 'bot', 'easy')")
    conn.commit()
    conn.close()
    storage = SQLiteStorage(path)

    async def write() -> None:
        await storage.create_table(TableRow(id="t1", game="sequence-cats", config={},
                                            seed=1, host_hash="h", created=1.0,
                                            seats=[SeatRow(0, "human"), SeatRow(1, "human")]))
        await storage.save_seat("t1", SeatRow(1, "bot", bot="medium", name="Bruno",
                                              bot_since=7))
        await storage.save_seat("t1", SeatRow(0, "human", name="Cleo", earlier=(
            EarlierOccupant(3, "Anna"), EarlierOccupant(5, "Dag", "easy", bot_since=4))))

    run_async(write())
    storage.close()
    old, new = SQLiteStorage(path).load_tables()
    assert old.seats[0].bot == "easy" and old.seats[0].bot_since is None
    assert old.seats[0].earlier == ()
    assert new.seats[1] == SeatRow(1, "bot", bot="medium", name="Bruno", bot_since=7)
    assert new.seats[0] == SeatRow(0, "human", name="Cleo", earlier=(
        EarlierOccupant(3, "Anna"), EarlierOccupant(5, "Dag", "easy", bot_since=4)))


def test_a_server_started_without_an_imported_computer_player_still_starts(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """docs/bots.md: a player registered by a module given to ``--import`` sat at a
    table; the server, started again without that module, failed to start at all
    (``UnknownBot`` in ``load``). It starts and serves every other table; the
    unfinished game answers ``503 bot_unavailable`` naming the player, stays in storage
    as it was, and plays on once the player is registered again; a finished game with
    that player opens without it."""
    base.register_bot("imported-bot", base.bot_factory("random"))  # type: ignore[arg-type]
    try:
        with TestClient(create_app(Settings(data_dir=tmp_path, bot_delay=0))) as client:
            waiting = create(client, [HUMAN, {"kind": "bot", "bot": "imported-bot"}])
            finished = create(client, [{"kind": "bot", "bot": "imported-bot"},
                                       {"kind": "bot", "bot": "greedy"}])
            other = create(client, [HUMAN, {"kind": "bot", "bot": "greedy"}])
            deadline = time.monotonic() + 30
            while client.get(f"/api/tables/{finished['table']['id']}"
                             ).json()["status"] != "finished":
                assert time.monotonic() < deadline, "the computer players never finished"
                time.sleep(0.05)
    finally:
        base._FACTORIES.pop("imported-bot", None)
        base._PLAYS.pop("imported-bot", None)
    stored = {row.id: len(row.actions) for row in
              SQLiteStorage(tmp_path / "gametable.sqlite3").load_tables()}

    with TestClient(create_app(Settings(data_dir=tmp_path, bot_delay=0)),
                    raise_server_exceptions=False) as client:
        assert "imported-bot" in caplog.text and "--import" in caplog.text
        table = waiting["table"]["id"]
        answer = client.get(f"/api/tables/{table}")
        assert answer.status_code == 503, answer.text
        assert answer.json()["code"] == "bot_unavailable"
        assert "imported-bot" in answer.json()["message"]
        assert client.get(f"/api/tables/{other['table']['id']}").status_code == 200
        shown = client.get(f"/api/tables/{finished['table']['id']}")
        assert shown.status_code == 200 and shown.json()["status"] == "finished"
    assert {row.id: len(row.actions) for row in
            SQLiteStorage(tmp_path / "gametable.sqlite3").load_tables()} == stored

    base.register_bot("imported-bot", base.bot_factory("random"))  # type: ignore[arg-type]
    try:
        with TestClient(create_app(Settings(data_dir=tmp_path, bot_delay=0))) as client:
            assert client.get(f"/api/tables/{table}").status_code == 200
    finally:
        base._FACTORIES.pop("imported-bot", None)
        base._PLAYS.pop("imported-bot", None)


def test_a_table_whose_clock_covers_with_a_player_no_longer_known_is_not_loaded(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A turn clock covering away seats with a player registered by ``--import``
    loaded without it: at the first away seat the server retried the turn every 2 s
    for good, a traceback each time, and the game stood still. It answers ``503
    bot_unavailable`` as for a seat's player, logged once, the table kept as it was."""
    base.register_bot("imported-cover", base.bot_factory("random"))  # type: ignore[arg-type]
    try:
        with TestClient(create_app(Settings(data_dir=tmp_path, bot_delay=0))) as client:
            made = create(client, [HUMAN, {"kind": "bot", "bot": "greedy"}],
                          clock={"turn_seconds": 30, "cover": "imported-cover"})
    finally:
        base._FACTORIES.pop("imported-cover", None)
        base._PLAYS.pop("imported-cover", None)
    with TestClient(create_app(Settings(data_dir=tmp_path, bot_delay=0)),
                    raise_server_exceptions=False) as client:
        answer = client.get(f"/api/tables/{made['table']['id']}")
        assert answer.status_code == 503, answer.text
        assert answer.json()["code"] == "bot_unavailable"
        assert answer.json()["message"] == (
            "This table's turn clock covers away players with a computer player this "
            "server cannot run now (imported-cover). Please try again later.")
    assert "turn clock" in caplog.text and "imported-cover" in caplog.text


def test_sqlite_counts_a_creators_tables_keeps_the_chat_and_the_first_action(
        tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "db.sqlite3")
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


def test_a_sqlite_file_from_before_deal_shown_counts_tables_whose_seats_changed_as_shown(
        tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "db.sqlite3")
    try:
        write_tables_of_before_deal_shown(storage)
    finally:
        storage.close()
    with sqlite3.connect(tmp_path / "db.sqlite3") as conn:  # as the older file had it
        conn.execute("ALTER TABLE game_tables DROP COLUMN deal_shown")
    storage = SQLiteStorage(tmp_path / "db.sqlite3")
    try:
        check_tables_of_before_deal_shown(storage)
    finally:
        storage.close()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts /proc/self/fd")
def test_reads_leave_no_database_file_open(tmp_path: Path) -> None:
    """``with sqlite3.connect(...)`` commits but never closes: every ``/readyz``, table
    read and sweep left two files open until the cycle collector ran (rarely, with the
    server's thresholds), and about 500 requests took a server with the usual limit of
    1024 files past it: it then answered nobody. Reads close their connections."""
    storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
    try:
        gc.disable()
        before = len(os.listdir("/proc/self/fd"))
        for _ in range(50):
            storage.ping()
            storage.has_table("nosuchtable")
            storage.load_table("nosuchtable")
            storage.waiting_before(0.0)
        after = len(os.listdir("/proc/self/fd"))
    finally:
        gc.enable()
        storage.close()
    assert after - before < 5, (before, after)
