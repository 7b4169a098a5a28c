"""What one client may do: body sizes as read, per-client rates and caps, waiting tables
that expire, start-up that loads only what must run, security headers, the websocket's
Origin, computer players' seeds, and refusals instead of server errors."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import websockets
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from gametable.core.i18n import translate
from gametable.decks.images import DeckRefused
from gametable.decks.uploads import parse_descriptions
from gametable.games.sequence_cats.board import bundled_board
from gametable.server import hosting, leaving
from gametable.server.app import Settings, create_app, server_secret
from gametable.server.caps import Caps
from gametable.server.fencing import FencedStorage
from gametable.server.guards import CONTENT_SECURITY_POLICY, INJECTED_STYLES, client_key
from gametable.server.limits import SEATED_PER_CAP, Limits, Rate, SharedUnavailable, Sockets
from gametable.server.refused import Refused
from gametable.server.socket import serve_client
from gametable.server.storage import SQLiteStorage, StorageError
from gametable.server.tables import SeatRequest, TableManager
from gametable.simulate import bot_seed
from tests.aio import run_async
from tests.decks.pictures import picture
from tests.server.conftest import LiveServer
from tests.server.test_chat import disk_full
from tests.server.test_http import GREEDY, HUMAN, create
from tests.server.test_races import FakeSocket
from tests.server.test_socket import connect, hello, next_of

LANGUAGES = ("en", "is", "nb", "pt")


def app_client(tmp_path: Path, **settings: Any) -> TestClient:
    settings.setdefault("bot_delay", 0)
    settings.setdefault("static_dir", tmp_path / "none")
    return TestClient(create_app(Settings(data_dir=tmp_path, **settings)))


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[TestClient]:
    """Two tables, two joins and one upload per client, then one more a minute."""
    rates = {"create": Rate(2, 60), "join": Rate(2, 60), "upload": Rate(1, 60),
             "chat": Rate(2, 60)}
    with app_client(tmp_path, rates=rates) as client:
        yield client


def manager_of(client: TestClient) -> TableManager:
    manager: TableManager = client.app.api.state.manager  # type: ignore[attr-defined]
    return manager


# -- request size (bodies counted as read) ---------------------------------------------

def test_a_chunked_body_over_the_limit_is_refused_and_stores_nothing(
        client: TestClient) -> None:
    """No Content-Length (chunked transfer): the bytes read are counted all the same."""
    board = {"name": "big", "spaces": bundled_board("default").to_json()["spaces"],
             "padding": "x" * 200_000}
    body = json.dumps({"game": "sequence-cats", "seats": [HUMAN, HUMAN], "name": "Anna",
                       "config": {"board": board}}).encode()
    chunks = (body[i:i + 8192] for i in range(0, len(body), 8192))
    response = client.post("/api/tables", content=chunks,
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"
    assert manager_of(client).tables == {}


@pytest.mark.parametrize("board", [
    {"spaces": "default-grid", "notes": "x" * 1000},  # a field a layout does not have
    {"spaces": [["free"] * 27] * 27},  # over 26 × 26
    {"spaces": [["x" * 100] * 2]},  # space names are breeds, not essays
    "x" * 100,  # not a bundled layout's name
    "../../etc/passwd",
])
def test_sc_comp_2_a_board_is_a_bundled_name_or_a_bounded_layout(
        client: TestClient, board: Any) -> None:
    if isinstance(board, dict) and board["spaces"] == "default-grid":
        board = {**board, "spaces": bundled_board("default").to_json()["spaces"]}
    response = client.post("/api/tables", json={
        "game": "sequence-cats", "seats": [HUMAN, HUMAN], "config": {"board": board}})
    assert response.status_code == 400, response.text
    assert "board" in response.json()["params"]["option"]


def test_sc_comp_2_a_layout_given_in_full_still_plays(client: TestClient) -> None:
    layout = bundled_board("default").to_json()
    created = create(client, [HUMAN, GREEDY], config={"board": layout})
    assert created["table"]["public"]["board"]["spaces"] == layout["spaces"]


# -- per-client rates ------------------------------------------------------------------

def assert_rate_limited(response: Any) -> None:
    assert response.status_code == 429, response.text
    error = response.json()
    assert (error["code"], error["key"]) == ("rate_limited", "server.errors.rate_limited")
    seconds = int(response.headers["Retry-After"])
    assert 1 <= seconds <= 60 and error["params"]["seconds"] == seconds
    assert f"{seconds} seconds" in error["message"]
    for language in LANGUAGES:
        assert str(seconds) in translate(error["key"], language, **error["params"])


def test_creating_tables_is_limited_per_client(limited: TestClient) -> None:
    for _ in range(2):
        create(limited, [HUMAN, GREEDY])
    assert_rate_limited(limited.post("/api/tables", json={
        "game": "sequence-cats", "seats": [HUMAN, GREEDY], "name": "Anna"}))


def test_joining_is_limited_per_client(limited: TestClient) -> None:
    table = create(limited, [HUMAN, HUMAN, HUMAN, HUMAN])["table"]
    for _ in range(2):
        assert limited.post(f"/api/tables/{table['id']}/join", json={}).status_code == 200
    assert_rate_limited(limited.post(f"/api/tables/{table['id']}/join", json={}))
    info = limited.get(f"/api/tables/{table['id']}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "human", "human", "open"]


def test_uploading_decks_is_limited_per_client(limited: TestClient) -> None:
    first = limited.post("/api/decks", data={"name": "x"})  # refused, but counted
    assert first.status_code == 400
    assert_rate_limited(limited.post("/api/decks", data={"name": "x"}))


def test_a_limit_per_client_leaves_other_clients_alone() -> None:
    limits = Limits({"create": Rate(1, 10)})
    limits.check("create", ["10.0.0.1"], now=0)
    with pytest.raises(Refused) as refused:
        limits.check("create", ["10.0.0.1"], now=1)
    assert refused.value.status == 429 and refused.value.retry_after == 9
    limits.check("create", ["10.0.0.2"], now=1)
    limits.check("create", ["10.0.0.1"], now=10)  # one more every 10 seconds
    # A request carrying a key is charged to it too: another address is not enough.
    limits.check("create", ["10.0.0.3", "deck:k"], now=10)
    with pytest.raises(Refused):
        limits.check("create", ["10.0.0.4", "deck:k"], now=11)


class FakeShared:
    """Shared buckets that answer ``wait`` seconds, or are away (``None``)."""

    def __init__(self, wait: float | None) -> None:
        self.wait = wait
        self.asked: list[tuple[str, Rate, list[str]]] = []

    async def take(self, kind: str, rate: Rate, keys: list[str]) -> float:
        self.asked.append((kind, rate, keys))
        if self.wait is None:
            raise SharedUnavailable("Redis is away")
        return self.wait


def test_with_several_processes_the_shared_buckets_decide() -> None:
    """Requests over HTTP are counted in the buckets every process shares; while those
    cannot be reached, this process's own buckets count (and nothing is held up)."""
    limits = Limits({"create": Rate(1, 10), "join": None})
    shared = limits.shared = FakeShared(0.0)
    for _ in range(3):  # the shared buckets had room each time: no local count
        run_async(limits.check_shared("create", ["10.0.0.1", None, "deck:k"]))
    assert shared.asked[0] == ("create", Rate(1, 10), ["10.0.0.1", "deck:k"])
    run_async(limits.check_shared("join", ["10.0.0.1"]))  # unlimited: not asked
    assert len(shared.asked) == 3
    shared.wait = 2.5
    with pytest.raises(Refused) as refused:
        run_async(limits.check_shared("create", ["10.0.0.1"]))
    assert refused.value.status == 429 and refused.value.retry_after == 3
    shared.wait = None  # Redis away: the local bucket (burst 1) is used
    run_async(limits.check_shared("create", ["10.0.0.1"]))
    with pytest.raises(Refused):
        run_async(limits.check_shared("create", ["10.0.0.1"]))


@pytest.mark.parametrize(("address", "key"), [
    ("192.0.2.7", "192.0.2.7"),
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
    ("2001:db8:1:2::", "2001:db8:1:2::/64"),
    ("::ffff:192.0.2.7", "192.0.2.7"),
    ("testclient", "testclient"),
])
def test_an_ipv6_client_is_counted_by_its_network(address: str, key: str) -> None:
    """One household or server holds a whole /64: its addresses are one client for the
    rates, the connection caps and the upload quotas."""
    assert client_key({"client": (address, 1234)}) == key
    assert client_key({}) == "-"


def test_the_chat_limit_survives_reconnecting(client: TestClient) -> None:
    """Five messages in five seconds per seat, however many connections it opens."""
    created = create(client, [HUMAN, HUMAN])
    table_id, token = created["table"]["id"], created["token"]
    with connect(client, table_id) as ws:
        hello(ws, token)
        for n in range(5):
            ws.send_json({"type": "chat", "text": f"hello {n}"})
            next_of(ws, "chat")
    with connect(client, table_id) as ws:
        hello(ws, token)
        ws.send_json({"type": "chat", "text": "again", "id": 6})
        error = next_of(ws, "error")
        assert (error["code"], error["id"]) == ("chat_too_fast", 6)


def test_the_chat_is_limited_per_address_too(limited: TestClient) -> None:
    created = create(limited, [HUMAN, HUMAN])
    with connect(limited, created["table"]["id"]) as ws:
        hello(ws, created["token"])
        for n in range(2):
            ws.send_json({"type": "chat", "text": f"hello {n}"})
            next_of(ws, "chat")
        ws.send_json({"type": "chat", "text": "third", "id": 3})
        error = next_of(ws, "error")
        assert (error["code"], error["id"]) == ("rate_limited", 3)


def test_a_chat_message_storage_refused_does_not_use_up_the_address_s_allowance(
        limited: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Storage refusing a message gave back the seat's allowance but not the address's:
    during an outage a player spent it on messages nobody saw, then was ``rate_limited``."""
    created = create(limited, [HUMAN, HUMAN])
    with connect(limited, created["table"]["id"]) as ws:
        hello(ws, created["token"])
        monkeypatch.setattr(manager_of(limited).storage, "append_chat", disk_full)
        for n in range(3):
            ws.send_json({"type": "chat", "text": f"lost {n}", "id": n})
            assert next_of(ws, "error")["code"] == "storage_failed"
        monkeypatch.undo()
        for n in range(2):  # the address's two of the minute are still there
            ws.send_json({"type": "chat", "text": f"kept {n}"})
            assert next_of(ws, "chat")["text"] == f"kept {n}"
        ws.send_json({"type": "chat", "text": "third", "id": 3})
        error = next_of(ws, "error")
        assert (error["code"], error["id"]) == ("rate_limited", 3)


def test_a_request_given_back_never_fills_a_bucket_past_its_burst() -> None:
    limits = Limits({"chat": Rate(2, 60)})
    limits.check("chat", ["a"], now=0.0)
    for _ in range(3):
        limits.give_back("chat", ["a", None, "never-counted"], now=0.05)
    for now in (0.1, 0.2):
        limits.check("chat", ["a"], now=now)
    with pytest.raises(Refused):
        limits.check("chat", ["a"], now=0.3)


# -- caps on tables ----------------------------------------------------------------------

def test_a_client_may_keep_only_so_many_waiting_tables(tmp_path: Path) -> None:
    with app_client(tmp_path, caps=Caps(waiting_per_client=2)) as client:
        tables = [create(client, [HUMAN, HUMAN])["table"]["id"] for _ in range(2)]
        refused = client.post("/api/tables", json={"game": "sequence-cats", "name": "A",
                                                   "seats": [HUMAN, HUMAN]})
        assert refused.status_code == 429
        assert refused.json()["key"] == "server.errors.too_many_waiting"
        # Tables that need nobody else are not waiting ones.
        create(client, [HUMAN, GREEDY])
        # Once a waiting table fills, another may be created.
        client.post(f"/api/tables/{tables[0]}/join", json={})
        create(client, [HUMAN, HUMAN])


def test_a_restart_forgets_no_table_a_client_made(tmp_path: Path) -> None:
    """The tables a client made were counted in memory only: after a restart a client
    could make ``waiting_per_client`` more waiting tables. They are counted from storage,
    which keeps a keyed digest of the client's address with each table, never the
    address itself."""
    caps = Caps(waiting_per_client=2, bot_tables_per_client=1)
    with app_client(tmp_path, bot_delay=30, caps=caps) as client:
        for _ in range(2):
            create(client, [HUMAN, HUMAN])
        create(client, [GREEDY, GREEDY], name=None)
    with app_client(tmp_path, bot_delay=30, caps=caps) as client:
        refused = client.post("/api/tables", json={"game": "sequence-cats", "name": "A",
                                                   "seats": [HUMAN, HUMAN]})
        assert refused.status_code == 429, refused.text
        assert refused.json()["key"] == "server.errors.too_many_waiting"
        refused = client.post("/api/tables", json={"game": "sequence-cats",
                                                   "seats": [GREEDY, GREEDY]})
        assert refused.status_code == 429, refused.text
        assert refused.json()["key"] == "server.errors.too_many_bot_tables"
    storage = SQLiteStorage(tmp_path / "gametable.sqlite3")
    try:
        creators = {row.creator for row in storage.load_tables()}
    finally:
        storage.close()
    assert len(creators) == 1 and None not in creators
    (creator,) = creators
    assert creator is not None and len(creator) == 32 and "testclient" not in creator
    assert b"testclient" not in (tmp_path / "gametable.sqlite3").read_bytes()


def test_a_table_whose_game_is_over_no_longer_counts(tmp_path: Path) -> None:
    """A table counts against its creator while it waits or runs computer players only;
    once its game is over (here, the host ends it) it does not."""
    with app_client(tmp_path, caps=Caps(waiting_per_client=1)) as client:
        made = create(client, [HUMAN, HUMAN])
        assert client.post("/api/tables", json={"game": "sequence-cats", "name": "A",
                                                "seats": [HUMAN, HUMAN]}).status_code == 429
        ended = client.post(f"/api/tables/{made['table']['id']}/end", json={},
                            headers={"X-Host-Token": made["host_token"]})
        assert ended.status_code == 200, ended.text
        create(client, [HUMAN, HUMAN])


def test_one_client_s_tables_asked_for_at_once_are_counted_one_after_another(
        tmp_path: Path) -> None:
    """Each request counted the client's tables, then stored its own: eight requests
    arriving together all counted before any was stored, and all passed a cap of two."""
    async def scenario() -> tuple[list[str], int, dict[str, Any]]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        counted = storage.created_by

        def slow_count(creator: str) -> tuple[int, int]:
            time.sleep(0.02)  # every request's count overlaps the others' writes
            return counted(creator)

        storage.created_by = slow_count  # type: ignore[method-assign]
        manager = TableManager(storage, bot_delay=60, caps=Caps(waiting_per_client=2))
        seats = [SeatRequest("human"), SeatRequest("human")]
        answers = await asyncio.gather(*(
            manager.create("sequence-cats", {}, seats, "Anna", client="10.0.0.7")
            for _ in range(8)), return_exceptions=True)
        other = await manager.create("sequence-cats", {}, seats, "Bo", client="10.0.0.8")
        outcomes = ["made" if isinstance(a, tuple) else
                    a.code if isinstance(a, Refused) else repr(a) for a in answers]
        stored = storage.created_by(manager.counter.client_digest("10.0.0.7"))[0]
        held = dict(getattr(manager.counter, "_counting", {}))
        await manager.stop()
        storage.close()
        assert other[0].status == "waiting"
        return outcomes, stored, held

    outcomes, stored, held = run_async(scenario())
    assert sorted(outcomes) == ["made"] * 2 + ["too_many_tables"] * 6
    assert stored == 2
    assert held == {}  # nothing is kept per client once its requests are answered


class EndsUnnoted(SQLiteStorage):
    """Storage that notes no game's end apart from its last action: ``mark_finished``
    fails, and with ``old`` the action that ends a game does not note it either (as
    versions before the end was stored with it)."""

    old = False

    async def append_action(self, table_id: str, number: int, seat: int,
                            action: dict[str, Any], clock: dict[str, Any] | None = None,
                            finished: float | None = None) -> None:
        await super().append_action(table_id, number, seat, action, clock,
                                    None if self.old else finished)

    async def mark_finished(self, table_id: str, when: float) -> None:
        raise StorageError("database is locked")


BOTS_ONLY = [SeatRequest("bot", "random"), SeatRequest("bot", "random")]


async def play_bots_only_table(manager: TableManager, client: str) -> None:
    """Make a table of two ``random`` Triominos players for ``client``; return once its
    game is over."""
    table, *_ = await manager.create("triominos", {"rounds": 1}, BOTS_ONLY, None,
                                     client=client)
    deadline = time.monotonic() + 60
    while table.status != "finished":
        assert time.monotonic() < deadline, "the computer players' game did not end"
        await asyncio.sleep(0.02)


def test_a_game_s_end_is_stored_with_its_last_action_so_it_stops_counting_at_once(
        tmp_path: Path) -> None:
    """The end was noted by a write of its own after the last action; when that one
    write failed, the table counted against its creator's cap for good (and was replayed
    at every start-up)."""
    async def scenario() -> tuple[tuple[int, int], str]:
        storage = EndsUnnoted(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=0, caps=Caps(bot_tables_per_client=1))
        try:
            await play_bots_only_table(manager, "10.0.0.7")
            counted = storage.created_by(manager.counter.client_digest("10.0.0.7"))
            table, *_ = await manager.create("triominos", {}, BOTS_ONLY, None,
                                             client="10.0.0.7")
            return counted, table.status
        finally:
            await manager.stop()
            storage.close()

    counted, second = run_async(scenario())
    assert counted == (0, 0)
    assert second == "playing"


@pytest.mark.parametrize("loading", ["at_start_up", "on_demand"])
def test_a_game_stored_as_under_way_but_over_has_its_end_noted_once_loaded(
        tmp_path: Path, loading: str) -> None:
    """A table an earlier version stored as under way though its game is over (its end's
    own write failed) has its end noted once it is loaded, and then no longer counts:
    at start-up with one process, or when asked for (several processes load no table at
    start-up: their takeover sweep loads each as it is asked; there it counted for
    good)."""
    path = tmp_path / "db.sqlite3"

    async def before() -> tuple[str, str]:
        storage = EndsUnnoted(path, synchronous="NORMAL")
        storage.old = True
        manager = TableManager(storage, bot_delay=0, secret=b"k" * 32,
                               caps=Caps(bot_tables_per_client=1))
        try:
            await play_bots_only_table(manager, "10.0.0.7")
            assert storage.created_by(manager.counter.client_digest("10.0.0.7")) == (0, 1)
            return manager.counter.client_digest("10.0.0.7"), next(iter(manager.tables))
        finally:
            await manager.stop()
            storage.close()

    async def after(creator: str, table_id: str) -> tuple[tuple[int, int], int]:
        storage = SQLiteStorage(path, synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=0, secret=b"k" * 32)
        try:
            if loading == "at_start_up":
                assert manager.load() == 1
            else:
                await manager.get(table_id)
            noted = await manager.note_ends()
            return storage.created_by(creator), noted
        finally:
            await manager.stop()
            storage.close()

    creator, table_id = run_async(before())
    counted, noted = run_async(after(creator, table_id))
    assert (counted, noted) == ((0, 0), 1)


@pytest.mark.parametrize("how", ["lost", "left_memory"])
def test_an_end_noted_on_load_is_not_tried_again_where_the_table_is_run_elsewhere(
        tmp_path: Path, how: str) -> None:
    """Several processes: A loaded a game stored as under way but over, then lost the
    table (its lease moved) before its end was noted; B loaded the table and noted the
    end. A tried again at every sweep, for good, with a warning each time. A table A no
    longer runs is left to the process that does (it notes the end as it loads it):
    dropped as the lease goes, or at the first write refused for it."""
    path = tmp_path / "db.sqlite3"

    async def before() -> str:
        storage = EndsUnnoted(path, synchronous="NORMAL")
        storage.old = True
        manager = TableManager(storage, bot_delay=0, secret=b"k" * 32)
        try:
            await play_bots_only_table(manager, "10.0.0.7")
            return next(iter(manager.tables))
        finally:
            await manager.stop()
            storage.close()

    async def after(table_id: str) -> tuple[int, int]:
        inner = SQLiteStorage(path, synchronous="NORMAL")
        held = {table_id}
        fenced = FencedStorage(inner, held.__contains__)
        tries: list[str] = []
        noting = fenced.mark_finished

        async def counted(table_id: str, when: float) -> None:
            tries.append(table_id)
            await noting(table_id, when)

        fenced.mark_finished = counted  # type: ignore[method-assign]
        manager = TableManager(fenced, bot_delay=0, secret=b"k" * 32)
        manager.fence = held.__contains__
        try:
            await manager.get(table_id)
            held.clear()  # another process holds its lease now
            if how == "lost":
                manager.unload(table_id)  # as the cluster drops a table it lost
            else:
                assert manager.evict_idle(now=time.monotonic() + 3600) == 1
            noted = [await manager.note_ends() for _ in range(3)]
            return sum(noted), len(tries)
        finally:
            await manager.stop()
            inner.close()

    noted, tries = run_async(after(run_async(before())))
    assert noted == 0 and tries <= 1


def test_a_guest_refused_by_the_maker_s_cap_is_told_whose_cap_it_is(tmp_path: Path) -> None:
    """Leaving a table whose maker is at their cap of computer players' tables counts
    against the maker, not the guest: the refusal said "You already have 1 tables"."""
    async def scenario() -> tuple[Refused, Refused, str]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=30, caps=Caps(bot_tables_per_client=1))
        try:
            await manager.create("sequence-cats", {}, BOTS_ONLY, None, client="10.0.0.7")
            # The maker's table for a friend, with no seat of their own.
            table, host_token, *_ = await manager.create(
                "triominos", {}, [SeatRequest("human"), SeatRequest("bot", "random")],
                None, client="10.0.0.7")
            seat, token = await manager.join(table.id, None, "Bob")
            while table.version == 0:
                if seat in table.game.to_act(table.state):
                    await manager.submit(table, seat,
                                         table.game.legal_actions(table.state, seat)[0])
                await asyncio.sleep(0.01)
            with pytest.raises(Refused) as guest:
                await leaving.leave_table(manager, table.id, token, client="10.0.0.8")
            with pytest.raises(Refused) as maker:
                await manager.seat_bot(table.id, seat, "easy", host_token,
                                       client="10.0.0.7")
            assert table.seats[seat].kind == "human" and table.playing_seat(token) == seat
            return guest.value, maker.value, table.seats[seat].name or ""
        finally:
            await manager.stop()
            storage.close()

    guest, maker, name = run_async(scenario())
    assert (guest.status, guest.code, guest.key) == (
        429, "too_many_tables", "server.errors.creator_bot_tables")
    assert str(guest).startswith("The person who made this table already has 1 table ")
    assert (maker.code, maker.key) == ("too_many_tables", "server.errors.too_many_bot_tables")
    assert str(maker).startswith("You already have 1 table where only computer players")
    assert name == "Bob"
    for language in LANGUAGES[1:]:  # each has its own words, not English's
        for refusal in (guest, maker):
            assert translate(refusal.key, language, **refusal.params) != str(refusal)


def test_a_client_may_run_only_so_many_tables_of_computer_players(tmp_path: Path) -> None:
    with app_client(tmp_path, bot_delay=30,
                    caps=Caps(bot_tables_per_client=1, bot_tables=5)) as client:
        create(client, [GREEDY, GREEDY], name=None)
        refused = client.post("/api/tables", json={"game": "sequence-cats",
                                                   "seats": [GREEDY, GREEDY]})
        assert refused.status_code == 429
        assert refused.json()["key"] == "server.errors.too_many_bot_tables"
        assert create(client, [HUMAN, GREEDY])["table"]["status"] == "playing"


def test_waiting_tables_expire_and_are_not_loaded_again(tmp_path: Path) -> None:
    async def scenario() -> dict[str, Any]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=60, caps=Caps(waiting_hours=48))
        waiting, *_ = await manager.create(
            "sequence-cats", {}, [SeatRequest("human"), SeatRequest("human")], "Anna")
        playing, *_ = await manager.create(
            "sequence-cats", {}, [SeatRequest("human"), SeatRequest("bot", "random")], "Bo")
        soon = await manager.expire_waiting(now=time.time() + 47 * 3600)
        later = await manager.expire_waiting(now=time.time() + 49 * 3600)
        refusal = None
        try:
            await manager.get(waiting.id)
        except Refused as error:
            refusal = (error.code, error.status)
        await manager.stop()
        storage.close()
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        stored = [row.id for row in storage.load_tables()]
        row = storage.load_table(waiting.id)
        storage.close()
        return {"soon": soon, "later": later, "refusal": refusal, "stored": stored,
                "expired": row is not None and row.expired is not None,
                "playing": playing.id}

    result = run_async(scenario())
    assert (result["soon"], result["later"]) == (0, 1)
    assert result["refusal"] == ("table_expired", 410)
    assert result["stored"] == [result["playing"]] and result["expired"]


@pytest.mark.parametrize("in_memory", [True, False])
@pytest.mark.parametrize("moment", ["after_it_was_found", "as_it_is_written"])
def test_a_join_as_its_table_expires_takes_the_seat_or_is_told_it_expired_never_both(
        tmp_path: Path, in_memory: bool, moment: str) -> None:
    """Bea joined one of two open seats while the sweep expired the table: her join was
    answered 200 with a token and the table answered 410 from then on (the expiry was
    written over her seat, or her seat after the expiry), and a table kept by a join
    stored first was dropped from memory still running. Now either the join is stored
    first and the table stays, in memory and in storage alike, or the join is refused
    as expired; whether the table was in memory or only in storage."""
    async def scenario() -> tuple[Any, int, float | None, bool]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=60, secret=b"k" * 32,
                               caps=Caps(waiting_hours=48))
        loop = asyncio.get_running_loop()
        answers: list[Any] = []
        joining: list[asyncio.Task[None]] = []

        async def join() -> None:
            try:
                answers.append(await manager.join(table.id, None, "Bea"))
            except Refused as refusal:
                answers.append(refusal.code)

        try:
            table, *_ = await manager.create("triominos", {}, [SeatRequest("human")] * 3,
                                             "Anna")
            if not in_memory:
                del manager.tables[table.id]  # it left memory, nobody using it
            if moment == "after_it_was_found":
                finding = storage.waiting_before

                def found_then_joined(created: float) -> Any:
                    found = finding(created)
                    asyncio.run_coroutine_threadsafe(join(), loop).result(timeout=10)
                    return found

                storage.waiting_before = found_then_joined  # type: ignore[method-assign]
            else:
                writing = storage.mark_expired

                async def joined_as_written(*args: Any) -> Any:
                    joining.append(asyncio.create_task(join()))
                    await asyncio.wait(joining, timeout=0.3)
                    return await writing(*args)

                storage.mark_expired = joined_as_written  # type: ignore[method-assign,assignment]
            expired = await manager.expire_waiting(now=time.time() + 49 * 3600)
            await asyncio.wait_for(asyncio.gather(*joining), 10)
            row = storage.load_table(table.id)
            assert row is not None
            kept = manager.tables.get(table.id)
            same = kept is table if in_memory else kept is not None
            return answers[0], expired, row.expired, same and kept is not None and any(
                s.name == "Bea" for s in kept.seats)
        finally:
            await manager.stop()
            storage.close()

    answer, expired, when, kept_with_bea = run_async(scenario())
    if isinstance(answer, tuple):  # she took the seat: the table stays, her seat in it
        assert (expired, when, kept_with_bea) == (0, None, True)
    else:
        assert (answer, expired, kept_with_bea) == ("table_expired", 1, False)
        assert when is not None


def test_a_websocket_opened_as_its_table_expires_is_served_or_told_it_expired(
        tmp_path: Path) -> None:
    """Anna opened her table's websocket while the sweep wrote its expiry: she was
    welcomed at a copy of the table that had left memory, expired, with nothing to
    close her connection. Her hello waits for the expiry: the table either stays, and
    she is served, or she is told it expired and the connection closes with 4404."""
    async def scenario() -> tuple[list[str], int | None, float | None, bool]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=60, secret=b"k" * 32,
                               caps=Caps(waiting_hours=48))
        sock = FakeSocket()
        serving: list[asyncio.Task[None]] = []
        try:
            table, _, _, token = await manager.create(
                "triominos", {}, [SeatRequest("human")] * 3, "Anna")
            writing = storage.mark_expired

            async def opened_as_written(*args: Any) -> Any:
                serving.append(asyncio.create_task(serve_client(sock, manager, table.id)))
                sock.say({"type": "hello", "token": token})
                await asyncio.sleep(0.3)
                return await writing(*args)

            storage.mark_expired = opened_as_written  # type: ignore[method-assign,assignment]
            await manager.expire_waiting(now=time.time() + 49 * 3600)
            deadline = time.monotonic() + 10
            while not (sock.of("state") or sock.closed_with):
                assert time.monotonic() < deadline
                await asyncio.sleep(0.01)
            row = storage.load_table(table.id)
            assert row is not None
            kinds = [m["type"] if m["type"] != "error" else m["code"] for m in sock.received]
            return kinds, sock.closed_with, row.expired, manager.tables.get(table.id) is table
        finally:
            sock.inbox.put_nowait(None)
            await asyncio.gather(*serving, return_exceptions=True)
            await manager.stop()
            storage.close()

    kinds, closed, expired, kept = run_async(scenario())
    if "welcome" in kinds:
        assert (closed, expired, kept) == (None, None, True)
    else:
        assert ("table_expired" in kinds, closed, kept) == (True, 4404, False)
        assert expired is not None


def test_a_game_under_way_never_expires_while_a_reopened_seat_waits(tmp_path: Path) -> None:
    """Tables whose seats were not all taken 48 hours after they were made expired, and
    a game under way whose host had reopened an absent player's seat (a game of a turn a
    day, say) read as one: everyone away for the night, and its game, record and replay
    answered 410 for good. Only a table whose game has not started expires now, whether
    the table is in memory or only in storage."""

    async def scenario() -> tuple[int, int, int, str]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=60, caps=Caps(waiting_hours=48),
                               reopen_after_seconds=0)
        table, host_token, *_ = await manager.create(
            "triominos", {}, [SeatRequest("human"), SeatRequest("human")], "Anna")
        await manager.join(table.id, 1, "Bo")
        for _ in range(3):
            seat = min(table.game.to_act(table.state))
            await manager.submit(table, seat, table.game.legal_actions(table.state, seat)[0])
        _, code = await hosting.remove_player(manager, table.id, 1, host_token)
        assert code is not None  # the game has begun: the seat is kept for a link
        assert table.status == "waiting" and table.version == 3
        in_memory = await manager.expire_waiting(now=time.time() + 100 * 3600)
        await manager.stop()
        storage.close()
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=60, caps=Caps(waiting_hours=48))
        from_storage = await manager.expire_waiting(now=time.time() + 100 * 3600)
        # A table that never started still expires beside it.
        await manager.create(
            "triominos", {}, [SeatRequest("human"), SeatRequest("human")], "Cleo")
        fresh_expired = await manager.expire_waiting(now=time.time() + 100 * 3600)
        again = await manager.get(table.id)
        status = again.status
        await manager.stop()
        storage.close()
        return in_memory, from_storage, fresh_expired, status

    in_memory, from_storage, fresh_expired, status = run_async(scenario())
    assert (in_memory, from_storage, fresh_expired, status) == (0, 0, 1, "waiting")


def test_start_up_loads_only_tables_with_a_computer_player_to_run(tmp_path: Path) -> None:
    """Waiting tables and games of people only are loaded on their first request."""

    async def scenario() -> tuple[set[str], set[str], dict[str, str]]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=60)
        made = {}
        for kind, seats in {"waiting": [SeatRequest("human"), SeatRequest("human")],
                            "people": [SeatRequest("human")] * 2,
                            "bots": [SeatRequest("human"), SeatRequest("bot", "random")]
                            }.items():
            table, *_ = await manager.create("sequence-cats", {}, seats, "Anna")
            if kind == "people":
                await manager.join(table.id, 1, "Bo")
            made[kind] = table.id
        await manager.stop()
        storage.close()
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=60)
        manager.load()
        at_start = set(manager.tables)
        for table_id in made.values():
            await manager.get(table_id)
        later = set(manager.tables)
        await manager.stop()
        storage.close()
        return at_start, later, made

    at_start, later, made = run_async(scenario())
    assert at_start == {made["bots"]}
    assert later == set(made.values())


# -- caps on websocket connections ---------------------------------------------------

def refusal_of(ws: Any) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The error a websocket was sent before the server closed it, and the close."""
    told = None
    for _ in range(20):
        message = ws.receive()
        if message["type"] == "websocket.close":
            return told, message
        data = json.loads(message["text"])
        if data["type"] == "error":
            told = data
    raise AssertionError("the connection was not closed")


@contextmanager
def from_address(client: TestClient, address: str) -> Iterator[None]:
    """Connections opened meanwhile come from ``address`` (as a trusted proxy or the
    network would name the client)."""
    transport: Any = client._transport
    before = transport.client
    transport.client = (address, 50000)
    try:
        yield
    finally:
        transport.client = before


def open_sockets(client: TestClient) -> dict[str, int]:
    return dict(client.app.api.state.sockets.open)  # type: ignore[attr-defined]


def test_one_address_may_hold_only_so_many_connections(tmp_path: Path) -> None:
    with app_client(tmp_path, caps=Caps(connections_per_client=2),
                    metrics_from=("all",)) as client:
        created = create(client, [HUMAN, HUMAN])
        table_id = created["table"]["id"]
        with ExitStack() as stack:
            # Each says hello before the next connects.
            seated = stack.enter_context(connect(client, table_id))
            hello(seated, created["token"])
            for _ in range(2):
                hello(stack.enter_context(connect(client, table_id)))
            # A seat's connections count against the seat, not the address.
            assert open_sockets(client) == {"testclient": 2}
            # A third spectator from the same address: told why after its hello, closed
            # with "try again later".
            with connect(client, table_id) as third:
                third.send_json({"type": "hello"})
                told, closed = refusal_of(third)
            assert told is not None
            assert (told["code"], told["key"], told["params"]) == (
                "too_many_connections", "server.errors.too_many_connections", {"limit": 2})
            assert "at most 2 at once" in told["message"]
            for language in LANGUAGES:
                assert "2" in translate(told["key"], language, **told["params"])
            assert closed["code"] == 1013
            assert closed["reason"] == "too many connections from your address: try again later"
            # Nothing changed at the table, and the open connections go on.
            info = client.get(f"/api/tables/{table_id}").json()
            assert info["watchers"] == 2 and info["seats"][0]["connected"]
            seated.send_json({"type": "ping", "id": 1})
            assert next_of(seated, "pong")["id"] == 1
            # Another address is not affected.
            with from_address(client, "10.0.0.2"), connect(client, table_id) as other:
                welcome, _ = hello(other)
                assert welcome["seat"] is None
                assert open_sockets(client) == {"testclient": 2, "10.0.0.2": 1}
        # Closing frees the places.
        with connect(client, table_id) as again, connect(client, table_id) as twice:
            hello(again)
            hello(twice)
        metrics = client.get("/metrics").text
        assert 'gametable_connections_refused_total{code="too_many_connections"} 1.0' in metrics
    assert open_sockets(client) == {}


def test_people_behind_one_address_keep_their_seats_when_it_is_full(tmp_path: Path) -> None:
    """The cap on an address's connections was checked before ``hello``: one person on a
    venue's Wi-Fi holding its places with spectator sockets kept everyone else behind it
    from their seats (shown away, a computer player covering for them, the host free to
    reopen the seat and read the hand). A ``hello`` that opens a seat is now admitted
    whatever the address holds, counted against its seat (at most eight a seat); only
    a few connections may wait for their ``hello`` over the cap."""
    with app_client(tmp_path, caps=Caps(connections_per_client=2)) as client:
        created = create(client, [HUMAN, HUMAN])
        table_id = created["table"]["id"]
        joined = client.post(f"/api/tables/{table_id}/join",
                             json={"seat": 1, "name": "Bo"}).json()
        with connect(client, table_id) as one, connect(client, table_id) as two:
            hello(one)
            hello(two)  # the address is full of spectators
            with connect(client, table_id) as bo:
                welcome, state = hello(bo, joined["token"])
                assert welcome["seat"] == 1 and state["view"]["hand"]
                info = client.get(f"/api/tables/{table_id}").json()
                assert [s["connected"] for s in info["seats"]] == [False, True]
            # Eight connections wait for their hello over the cap; the ninth is refused
            # at once, before its hello.
            with ExitStack() as stack:
                waiting = [stack.enter_context(connect(client, table_id)) for _ in range(8)]
                with connect(client, table_id) as ninth:
                    told, closed = refusal_of(ninth)
                    assert told is not None and told["code"] == "too_many_connections"
                    assert closed["code"] == 1013
                assert hello(waiting[0], created["token"])[0]["seat"] == 0
            # A seat holds at most eight connections.
            with ExitStack() as stack:
                for _ in range(8):
                    ws = stack.enter_context(connect(client, table_id))
                    assert hello(ws, created["token"])[0]["seat"] == 0
                with connect(client, table_id) as ninth:
                    ninth.send_json({"type": "hello", "token": created["token"]})
                    told, closed = refusal_of(ninth)
                assert told is not None
                assert (told["code"], told["key"], told["params"]) == (
                    "too_many_connections", "server.errors.too_many_seat_connections",
                    {"limit": 8})
                assert closed["reason"] == "too many connections for your seat: try again later"
            assert open_sockets(client) == {"testclient": 2}
        sockets = client.app.api.state.sockets  # type: ignore[attr-defined]
        assert (dict(sockets.open), dict(sockets.seated), dict(sockets.waiting)) == ({}, {}, {})


def test_one_address_s_connections_share_one_pace_of_messages() -> None:
    """Each connection was paced alone (200 a second), so one address holding 100 of
    them could send 20,000 a second and slow every table. All the connections of an
    address now share one pace: its burst at once, then its rate, turns queued in
    order; another address has its own; the pace goes with the last connection."""
    now = [0.0]
    sockets = Sockets(per_client=100, pace=Rate(4, 0.1))
    places = [sockets.enter("10.0.0.1"), sockets.enter("10.0.0.1"), sockets.enter("10.0.0.2")]
    assert None not in places
    a, b, c = (place for place in places if place is not None)
    first, second, other = sockets.pace(a), sockets.pace(b), sockets.pace(c)
    assert first is not None and second is not None and other is not None
    assert first is second and other is not first
    for pace in (first, other):
        pace.clock = lambda: now[0]
        pace.stamp = 0.0
    waits = [first.reserve() for _ in range(4)] + [second.reserve() for _ in range(3)]
    assert waits == pytest.approx([0, 0, 0, 0, 0.1, 0.2, 0.3])
    assert other.reserve() == 0  # not slowed by the other address
    now[0] = 1.0  # a second later the debt is paid and six turns are back
    assert first.reserve() == 0
    sockets.leave(a)
    assert sockets.pace(b) is first
    sockets.leave(b)
    assert "10.0.0.1" not in sockets.paces and "10.0.0.2" in sockets.paces
    # A connection whose hello opens a seat shares its seat's pace from then on.
    seated = sockets.enter("10.0.0.2")
    assert seated is not None and sockets.sit(seated, "t1", 0) is None
    assert sockets.pace(seated) is not other and sockets.pace(seated) is not None
    # Without the rate (--no-rate-limits: a benchmark's hundred clients on one machine)
    # nothing is paced.
    unpaced = Sockets(per_client=100, pace=None)
    place = unpaced.enter("10.0.0.1")
    assert place is not None and unpaced.pace(place) is None


def test_one_address_holds_at_most_four_times_its_cap_of_seated_connections() -> None:
    """Seated connections left their address's count, and seats are cheap (every table
    made gives one): one address held a thousand websockets within every rate limit,
    until the server could open no file and answered nobody. Seats of one address now
    hold at most four times its cap; its other connections, and other addresses, are
    not held up, and places given back are counted out."""
    sockets = Sockets(per_client=2, pace=None)
    places = []
    for number in range(SEATED_PER_CAP * 2):
        place = sockets.enter("10.0.0.1")
        assert place is not None and sockets.sit(place, f"t{number}", 0) is None
        places.append(place)
    place = sockets.enter("10.0.0.1")
    assert place is not None and sockets.sit(place, "t99", 0) == "address"
    other = sockets.enter("10.0.0.2")
    assert other is not None and sockets.sit(other, "t99", 0) is None
    sockets.leave(places.pop())
    assert sockets.sit(place, "t99", 1) is None
    for each in [*places, place, other]:
        sockets.leave(each)
    assert not sockets.seated_from and not sockets.seated and not sockets.open


def test_connections_that_end_in_any_way_free_their_place(tmp_path: Path) -> None:
    with app_client(tmp_path, caps=Caps(connections_per_client=1,
                                        watchers_per_table=1)) as client:
        created = create(client, [HUMAN, HUMAN])
        table_id = created["table"]["id"]
        with connect(client, "nosuchtable") as gone:  # no such table: closed with 4404
            assert refusal_of(gone)[1]["code"] == 4404
        with connect(client, table_id):  # left before its hello
            pass
        with connect(client, table_id) as ws:  # refused a message, then left
            ws.send_text("not json")
            assert next_of(ws, "error")["code"] == "malformed"
        with connect(client, table_id) as ws:  # played its part and left
            hello(ws, created["token"])
        with from_address(client, "10.0.0.3"), connect(client, table_id) as watcher:
            hello(watcher)
            # A spectator refused by the table's cap gives its address's place back.
            with connect(client, table_id) as refused:
                refused.send_json({"type": "hello"})
                assert refusal_of(refused)[1]["code"] == 1013
            assert open_sockets(client) == {"10.0.0.3": 1}
        assert open_sockets(client) == {}
        with connect(client, table_id) as ws:
            welcome, _ = hello(ws, created["token"])
            assert welcome["seat"] == 0


def test_a_table_may_have_only_so_many_spectators(tmp_path: Path) -> None:
    with app_client(tmp_path, caps=Caps(watchers_per_table=2),
                    metrics_from=("all",)) as client:
        created = create(client, [HUMAN, HUMAN])
        table_id = created["table"]["id"]
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()
        other_table = create(client, [HUMAN, HUMAN])["table"]["id"]
        with connect(client, table_id) as one, connect(client, table_id) as two:
            hello(one)
            hello(two)
            with connect(client, table_id) as three:
                three.send_json({"type": "hello"})
                told, closed = refusal_of(three)
            assert told is not None
            assert (told["code"], told["key"], told["params"]) == (
                "too_many_watchers", "server.errors.too_many_watchers", {"limit": 2})
            for language in LANGUAGES:
                assert "2" in translate(told["key"], language, **told["params"])
            assert closed["code"] == 1013
            assert closed["reason"] == ("too many people are watching this table: "
                                        "try again later")
            # A seated player is never refused for it, not even with a second connection.
            with connect(client, table_id) as anna, connect(client, table_id) as bo, \
                    connect(client, table_id) as anna_again:
                assert hello(anna, created["token"])[0]["seat"] == 0
                assert hello(bo, joined["token"])[0]["seat"] == 1
                assert hello(anna_again, created["token"])[0]["seat"] == 0
                info = client.get(f"/api/tables/{table_id}").json()
                assert info["watchers"] == 2
                assert [s["connected"] for s in info["seats"]] == [True, True]
            # Another table has places of its own.
            with connect(client, other_table) as elsewhere:
                assert hello(elsewhere)[0]["seat"] is None
        # Once a spectator leaves, another may watch.
        with connect(client, table_id) as one, connect(client, table_id) as two:
            hello(one)
            hello(two)
        metrics = client.get("/metrics").text
        assert 'gametable_connections_refused_total{code="too_many_watchers"} 1.0' in metrics


def test_the_caps_on_connections_count_the_address_a_trusted_proxy_names(
        tmp_path: Path) -> None:
    """``gametable serve`` with small caps behind a proxy (``--forwarded-allow-ips``):
    the clients it names are counted apart, each up to the cap."""
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=0.0, options=[
        "--forwarded-allow-ips", "127.0.0.1", "--max-connections-per-client", "2",
        "--max-watchers-per-table", "0"])
    server.start()
    try:
        created = httpx.post(f"{server.url}/api/tables", json={
            "game": "sequence-cats", "name": "Anna", "seats": [HUMAN, HUMAN]}).json()
        url = f"{server.ws_url}/api/tables/{created['table']['id']}/ws"

        async def watch(address: str) -> Any:
            ws = await websockets.connect(
                url, additional_headers={"X-Forwarded-For": address})
            await ws.send(json.dumps({"type": "hello"}))
            while json.loads(await ws.recv())["type"] != "welcome":
                pass
            return ws

        async def scenario() -> tuple[dict[str, Any], int | None, str | None]:
            held = [await watch("10.0.0.1"), await watch("10.0.0.1"),
                    await watch("10.0.0.2")]
            refused: Any = await websockets.connect(
                url, additional_headers={"X-Forwarded-For": "10.0.0.1"})
            await refused.send(json.dumps({"type": "hello"}))
            told = json.loads(await refused.recv())
            with pytest.raises(websockets.ConnectionClosed):
                await refused.recv()
            close = refused.close_code, refused.close_reason
            await held[0].close()
            held[0] = await watch("10.0.0.1")
            # An IPv6 client is its /64 network: its other addresses share its cap.
            held += [await watch("2001:db8:0:1::a"), await watch("2001:db8:0:1::b")]
            other: Any = await websockets.connect(
                url, additional_headers={"X-Forwarded-For": "2001:db8:0:1:ffff::c"})
            await other.send(json.dumps({"type": "hello"}))
            assert json.loads(await other.recv())["code"] == "too_many_connections"
            held.append(await watch("2001:db8:0:2::a"))  # another network
            for ws in [*held, other]:
                await ws.close()
            return told, *close

        told, code, reason = run_async(scenario())
        assert told["code"] == "too_many_connections"
        assert (code, reason) == (1013, "too many connections from your address: "
                                        "try again later")
    finally:
        server.stop()


# -- read timeouts at the ASGI level --------------------------------------------------

async def _call(app: Any, scope: dict[str, Any], chunks: list[bytes | None]
                ) -> list[dict[str, Any]]:
    """Call ``app`` with the first ``chunks`` of a body that never ends: after them the
    client is gone (or, at a ``None``, stops sending for ever). Returns what it sent."""
    sent: list[dict[str, Any]] = []
    pieces = list(chunks)

    async def receive() -> dict[str, Any]:
        if not pieces:
            return {"type": "http.disconnect"}
        piece = pieces.pop(0)
        if piece is None:
            await asyncio.sleep(3600)
        return {"type": "http.request", "body": piece, "more_body": True}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent


def _scope(path: str, content_type: bytes) -> dict[str, Any]:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
            "root_path": "", "query_string": b"", "server": ("testserver", 80),
            "client": ("127.0.0.1", 5000),
            "headers": [(b"host", b"testserver"), (b"content-type", content_type),
                        (b"transfer-encoding", b"chunked")]}


def test_a_body_that_stops_arriving_is_refused_after_the_timeout(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path, static_dir=tmp_path / "none",
                              body_timeout=0.3, read_timeout=0.3))
    started = time.monotonic()
    sent = run_async(_call(app, _scope("/api/tables", b"application/json"),
                           [b'{"game": "seq', None]))
    assert time.monotonic() - started < 5
    assert sent[0]["status"] == 408
    assert json.loads(sent[1]["body"])["code"] == "too_slow"


def test_a_client_leaving_mid_upload_is_no_server_error(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path, static_dir=tmp_path / "none"))
    part = (b"--XyZ\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.png\"\r\n"
            b"Content-Type: image/png\r\n\r\n" + b"\x89PNG" + b"0" * 5000)
    sent = run_async(_call(app, _scope("/api/decks", b"multipart/form-data; boundary=XyZ"),
                           [part]))  # then the client is gone
    assert sent and sent[0]["status"] == 400


# -- errors that were server errors --------------------------------------------------

def test_deleting_a_deck_with_a_very_long_id_is_a_404(client: TestClient) -> None:
    response = client.delete("/api/decks/" + "x" * 300, headers={"X-Deck-Key": "k"})
    assert response.status_code == 404 and response.json()["code"] == "no_deck"


def test_a_deck_pass_for_a_very_long_deck_id_is_a_404(client: TestClient) -> None:
    response = client.post("/api/decks/" + "a" * 300 + "/pass",
                           json={"table": "x", "token": "y"})
    assert response.status_code == 404 and response.json()["code"] == "no_deck"


@pytest.mark.parametrize("body", [
    {"game": "\ud800", "seats": [HUMAN]},
    {"game": "sequence-cats", "seats": [{"kind": "bot", "bot": "\ud800"}, HUMAN]},
])
def test_a_lone_surrogate_in_a_new_tables_fields_is_refused_not_a_500(
        client: TestClient, body: dict[str, Any]) -> None:
    """A lone surrogate is valid in JSON's escapes but not in UTF-8: the refusal naming
    it is still written (it was a 500 and a reset connection), and says what is wrong
    under a key of its own, which clients show in their reader's language (it was
    pydantic's "unable to parse raw data as a unicode string")."""
    response = client.post("/api/tables", content=json.dumps(body),
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.json()
    refusal = response.json()
    assert refusal["type"] == "error" and refusal["key"] == "server.errors.lone_surrogate_in"
    field = "game" if body["game"] != "sequence-cats" else "seats.0.bot"
    assert refusal["params"] == {"field": field}
    assert f'field "{field}" holds half of a surrogate pair' in refusal["message"]
    assert client.get("/api/games").status_code == 200


def test_the_frameworks_own_refusals_have_the_error_format(client: TestClient) -> None:
    """No such address, a method an address does not take, a body that is not JSON:
    each in the format every refusal has, in the reader's language."""
    missing = client.get("/api/no-such-thing")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    wrong = client.delete("/api/games")
    assert wrong.status_code == 405 and wrong.json()["code"] == "method_not_allowed"
    assert "DELETE" in wrong.json()["message"]
    unreadable = client.post("/api/tables", content=b"\xff\xfe{",
                             headers={"Content-Type": "application/json"})
    assert unreadable.status_code == 400
    assert unreadable.json()["key"] == "server.errors.unreadable_body"
    # UTF-8 that is not JSON: its error's place (a character offset) read as a field,
    # 'The request field "1" is not valid'.
    broken = client.post("/api/tables", content=b"{bad",
                         headers={"Content-Type": "application/json"})
    assert broken.status_code == 400
    assert broken.json()["key"] == "server.errors.unreadable_body", broken.json()
    icelandic = client.get("/api/no-such-thing", headers={"Accept-Language": "is"})
    assert icelandic.json()["key"] == "server.errors.not_found"
    # JSON that Python's reader gives up on is told as the websocket tells it: both are
    # JSON, so "could not be read as JSON" was untrue; but not as nested past the
    # websocket's 32 levels, which HTTP bodies may be (500 levels are read).
    for text, key in ((b'{"game": 1' + b"0" * 5000 + b"}", "server.errors.number_too_large"),
                      (b"[" * 3000 + b"]" * 3000, "server.errors.too_deep_to_read")):
        deep = client.post("/api/tables", content=text,
                           headers={"Content-Type": "application/json"})
        assert deep.status_code == 400 and deep.json()["key"] == key, deep.json()
        assert "32" not in deep.json()["message"]


def test_a_message_nested_too_deep_is_refused_and_the_seat_plays_on(
        client: TestClient) -> None:
    """A message's ``id`` is sent back with its answer, and encoders stop at 254 levels:
    a deep one closed the connection without a word. Now it is refused, as is a deep
    action, and the connection goes on."""
    created = create(client, [HUMAN, GREEDY])
    with connect(client, created["table"]["id"]) as ws:
        _, state = hello(ws, created["token"])
        deep: Any = 1
        for _ in range(300):
            deep = [deep]
        ws.send_json({"type": "ping", "id": deep})
        error = next_of(ws, "error")
        assert error["code"] == "malformed" and error["key"] == "server.errors.too_deep"
        ws.send_json({"type": "action", "action": {"type": "play", "card": deep}})
        assert next_of(ws, "error")["key"] == "server.errors.too_deep"
        # Deeper than the JSON reader goes, or a number no float holds: told so, not
        # "not valid JSON" (it is).
        ws.send_text('{"type": "ping", "id": ' + "[" * 2000 + "]" * 2000 + "}")
        assert next_of(ws, "error")["key"] == "server.errors.too_deep"
        ws.send_text('{"type": "ping", "id": 1' + "0" * 400 + "}")
        told = next_of(ws, "error")
        assert told["key"] == "server.errors.number_too_large" and "64 bits" in told["message"]
        ws.send_text('{"type": "chat", "text": "a\\ud800"}')
        told = next_of(ws, "error")
        assert told["key"] == "server.errors.lone_surrogate", told
        assert told["code"] == "malformed" and "surrogate pair" in told["message"]
        # Bytes that are not UTF-8 are told so (they read as a lone surrogate).
        ws.send_bytes(b'{"type": "ping", "id": "\xc3"}')
        told = next_of(ws, "error")
        assert (told["code"], told["key"]) == ("malformed", "server.errors.not_utf8"), told
        ws.send_json({"type": "action", "action": state["legal"][0], "version": 0})
        assert next_of(ws, "state")["version"] == 1


def test_a_message_that_gives_a_field_twice_is_refused_and_nothing_is_done(
        client: TestClient) -> None:
    """JSON readers keep the last of two equal names: ``{"type": "ping", "type":
    "chat", …}`` was posted to the chat, though a filter or log reading the first saw a
    ping. A field given twice is refused, as in uploaded records; the seat plays on."""
    created = create(client, [HUMAN, GREEDY])
    with connect(client, created["table"]["id"]) as ws:
        _, state = hello(ws, created["token"])
        ws.send_text('{"type": "ping", "type": "chat", "text": "twice"}')
        told = next_of(ws, "error")
        assert (told["code"], told["key"]) == ("malformed", "server.errors.field_twice"), told
        assert '"type" twice' in told["message"]
        action = orjson.dumps(state["legal"][0]).decode()
        ws.send_text('{"type": "action", "action": ' + action[:-1]
                     + ', "card": 0, "card": 1}, "version": 0}')
        assert next_of(ws, "error")["key"] == "server.errors.field_twice"
        ws.send_json({"type": "action", "action": state["legal"][0], "version": 0})
        assert next_of(ws, "state")["version"] == 1
        ws.send_json({"type": "ping", "id": 5})
        since: list[str] = []
        while (message := ws.receive_json())["type"] != "pong":
            since.append(message["type"])
        assert "chat" not in since, "the chat has no line"


def test_descriptions_nested_very_deep_are_refused() -> None:
    with pytest.raises(DeckRefused) as refused:
        parse_descriptions("[" * 100_000 + "]" * 100_000)
    assert refused.value.code == "bad_descriptions"


# -- security headers and the websocket's Origin --------------------------------------

def test_answers_carry_security_headers(tmp_path: Path) -> None:
    static = tmp_path / "dist"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>gametable</title>")
    with app_client(tmp_path, static_dir=static) as client:
        # /api/docs was FastAPI's page, without the policy, with a script from a CDN
        # that could read every token the site's pages keep: there is none now.
        for path in ("/", "/t/abc", "/api/games", "/api/tables/nope", "/api/docs",
                     "/api/openapi.json"):
            answer = client.get(path)
            assert "cdn." not in answer.text
            headers = answer.headers
            policy = headers["Content-Security-Policy"]
            assert "script-src 'self';" in policy and "'unsafe-inline'" not in policy
            assert "unsafe-eval" not in policy
            assert "frame-ancestors 'none'" in policy
            assert headers["X-Content-Type-Options"] == "nosniff"
            assert headers["Referrer-Policy"] == "no-referrer"


def test_the_policy_lets_in_exactly_the_style_the_built_client_adds() -> None:
    """The Triominos board's pan-and-zoom library adds one style element (empty, then
    its CSS); the policy must name both hashes, or the board loses that CSS. A new
    version of the library changes the hash: this test says so."""
    dist = Path(__file__).resolve().parents[2] / "frontend" / "dist" / "assets"
    bundles = [path.read_text("utf-8") for path in dist.glob("*.js")]
    if not bundles:
        pytest.skip("the browser client is not built")
    styles = [match.group(1) for bundle in bundles for match in re.finditer(
        r"`(\.transform-component-module_wrapper[^`]*)`", bundle)]
    assert len(styles) == 1
    for text in ("", styles[0]):
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in CONTENT_SECURITY_POLICY
        assert digest in INJECTED_STYLES
    assert len(INJECTED_STYLES) == 2


@pytest.mark.parametrize(("origin", "allowed"), [
    (None, True),  # a program, not a page
    ("http://testserver", True),  # the page's own server
    ("https://games.example.org", True),  # the configured public address
    ("http://evil.example", False),
    ("null", False),
])
def test_the_websocket_refuses_pages_of_other_sites(tmp_path: Path, origin: str | None,
                                                    allowed: bool) -> None:
    with app_client(tmp_path, public_url="https://games.example.org") as client:
        table_id = create(client, [HUMAN, HUMAN])["table"]["id"]
        headers = {"origin": origin} if origin else {}
        with client.websocket_connect(f"/api/tables/{table_id}/ws", headers=headers) as ws:
            if allowed:
                welcome, _ = hello(ws)
                assert welcome["seat"] is None
            else:
                with pytest.raises((WebSocketDisconnect, WebSocketDenialResponse)) as closed:
                    ws.send_json({"type": "hello"})
                    ws.receive_json()
                assert getattr(closed.value, "code", None) == 4403


# -- computer players' seeds -----------------------------------------------------------

def test_bot_seeds_are_keyed_with_the_servers_secret(tmp_path: Path) -> None:
    secret = server_secret(tmp_path)
    assert len(secret) == 32 and server_secret(tmp_path) == secret  # kept, not remade
    assert stat.S_IMODE(os.stat(tmp_path / "secret.key").st_mode) == 0o600
    storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
    try:
        ours = TableManager(storage, secret=secret)
        other = TableManager(storage, secret=b"k" * 32)
        seeds = [ours.bot_seed(12345, seat) for seat in range(4)]
        assert seeds == [ours.bot_seed(12345, seat) for seat in range(4)]
        assert all(0 <= s < 2**63 for s in seeds) and len(set(seeds)) == 4
        # Not the public derivation the command line uses, nor another server's.
        assert seeds != [bot_seed(12345, seat) for seat in range(4)]
        assert seeds != [other.bot_seed(12345, seat) for seat in range(4)]
    finally:
        storage.close()


def test_the_data_folder_and_database_are_the_owners_only(tmp_path: Path) -> None:
    """The database holds the seeds of unfinished games, from which every hand can be
    dealt again, and the folder holds uploaded pictures: other users of the machine may
    read neither (whatever the umask)."""
    data = tmp_path / "data"
    old = os.umask(0o022)
    try:
        with app_client(data) as client:
            create(client, [HUMAN, GREEDY])
            made = client.post("/api/decks", data={"name": "Holiday"}, files=[
                ("files", ("a.png", picture(40, 30), "image/png"))])
            assert made.status_code == 201, made.text
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(data).st_mode) == 0o700
    stored = [path for path in data.iterdir() if path.name.startswith("gametable.sqlite3")]
    assert stored and all(stat.S_IMODE(os.stat(p).st_mode) == 0o600 for p in stored)
    decks = [path for path in data.iterdir() if path.is_dir()]
    assert decks and all(stat.S_IMODE(os.stat(p).st_mode) == 0o700 for p in decks)


def test_the_secret_never_reaches_a_client(client: TestClient, tmp_path: Path) -> None:
    secret = (tmp_path / "secret.key").read_bytes()
    created = create(client, [HUMAN, GREEDY])
    answers = [json.dumps(created), client.get("/api/games").text,
               client.get(f"/api/tables/{created['table']['id']}").text]
    with connect(client, created["table"]["id"]) as ws:
        answers += [json.dumps(m) for m in hello(ws, created["token"])]
    for text in answers:
        assert secret.hex() not in text and str(int.from_bytes(secret, "big")) not in text
