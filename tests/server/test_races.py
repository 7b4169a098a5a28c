"""Seats that change hands, slow clients and presence, driven step by step in one event
loop: the storage write of a seat can be held open, a client can stop reading."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gametable.server import table as table_module
from gametable.server.refused import Refused
from gametable.server.socket import Socket, serve_client
from gametable.server.storage import SeatRow, SQLiteStorage
from gametable.server.table import Connection
from gametable.server.tables import SeatRequest, TableManager
from tests.aio import run_async


class SlowSeats(SQLiteStorage):
    """SQLite storage whose seat writes wait for :attr:`gate` while :attr:`slow` is set."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, synchronous="NORMAL")
        self.slow = False
        self.gate = asyncio.Event()
        self.entered = asyncio.Event()

    async def save_seat(self, table_id: str, seat: SeatRow, seed: int | None = None, *,
                        shown: bool = False) -> None:
        if self.slow:
            self.entered.set()
            await self.gate.wait()
        await super().save_seat(table_id, seat, seed, shown=shown)


class FakeSocket(Socket):
    """A client: frames to send go into :attr:`inbox`; what the server sends lands in
    :attr:`received` (only while :attr:`reading` is set)."""

    def __init__(self, *, reading: bool = True) -> None:
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.received: list[dict[str, Any]] = []
        self.reading = asyncio.Event()
        if reading:
            self.reading.set()
        self.closed_with: int | None = None

    def say(self, message: dict[str, Any]) -> None:
        self.inbox.put_nowait(json.dumps(message))

    async def accept(self) -> bool:
        return True

    async def next_frame(self) -> str | bytes | None:
        return await self.inbox.get()

    async def send_text(self, text: str) -> None:
        await self.reading.wait()
        self.received.append(json.loads(text))

    async def close(self, code: int, reason: str = "") -> None:
        self.closed_with = code
        self.inbox.put_nowait(None)  # the client sees the close and goes

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.received if m["type"] == kind]


async def settle(seconds: float = 0.05) -> None:
    await asyncio.sleep(seconds)


async def until(condition: Callable[[], object], timeout: float = 30.0) -> None:
    """Wait until ``condition()`` holds (checked every 10 ms): on a busy machine the
    server's side may take longer than any fixed pause."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never held")
        await asyncio.sleep(0.01)


async def two_seat_game(manager: TableManager) -> tuple[str, str, list[str]]:
    """A Sequence Cats game of two people, both seated by their links, made by a host who
    sits out (a big screen's, say: the host's own seat may not go to a computer player,
    and these tests hand either seat to one); (table id, host token, tokens)."""
    table, host, _, _ = await manager.create(
        "sequence-cats", {}, [SeatRequest("human"), SeatRequest("human")], None)
    _, token0 = await manager.join(table.id, 0, "Anna")
    _, token1 = await manager.join(table.id, 1, "Bjarni")
    assert table.host_seat is None and table.status == "playing"
    return table.id, host, [token0, token1]


def test_a_hello_during_a_seat_handover_does_not_get_the_seat(tmp_path: Path) -> None:
    """The host gives offline seat 0 to a computer player; while that is being stored,
    the seat's old token says hello. It must not be welcomed to the seat, nor act."""

    async def scenario() -> dict[str, Any]:
        storage = SlowSeats(tmp_path / "db.sqlite3")
        manager = TableManager(storage, bot_delay=60)  # the bot waits: only the old token acts
        table_id, host, tokens = await two_seat_game(manager)
        table = await manager.get(table_id)
        storage.slow = True
        handover = asyncio.create_task(manager.seat_bot(table_id, 0, "random", host))
        await storage.entered.wait()  # the seat's write is under way
        old = FakeSocket()
        client = asyncio.create_task(serve_client(old, manager, table_id))
        old.say({"type": "hello", "token": tokens[0]})
        await settle()
        storage.gate.set()
        await handover
        await until(lambda: old.of("welcome"))
        legal = table.game.legal_actions(table.state, 0)
        old.say({"type": "action", "action": legal[0], "id": 1})
        await until(lambda: any(e["code"] == "not_seated" for e in old.of("error")))
        result = {"welcome": old.of("welcome"), "errors": old.of("error"),
                  "version": table.version, "kind": table.seats[0].kind}
        await manager.stop()
        old.inbox.put_nowait(None)
        await client
        storage.close()
        return result

    result = run_async(scenario())
    assert result["kind"] == "bot"
    assert result["version"] == 0, "the replaced player's action was applied"
    assert [w["seat"] for w in result["welcome"]] == [None]
    assert {e["code"] for e in result["errors"]} >= {"bad_token", "not_seated"}


def test_a_connection_too_slow_to_read_is_closed_and_acts_no_more(tmp_path: Path) -> None:
    """A client that stops reading is dropped after MAX_OUTBOX unread messages: its socket
    is closed (1008), and what it sent after that is not applied."""

    async def scenario() -> dict[str, Any]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=60)
        table_id, host, tokens = await two_seat_game(manager)
        table = await manager.get(table_id)
        slow = FakeSocket(reading=False)
        client = asyncio.create_task(serve_client(slow, manager, table_id))
        slow.say({"type": "hello", "token": tokens[0]})
        await until(lambda: table.connected(0))
        for n in range(table_module.MAX_OUTBOX + 10):
            slow.say({"type": "ping", "id": n})
        legal = table.game.legal_actions(table.state, 0)
        slow.say({"type": "action", "action": legal[0]})
        await asyncio.wait_for(client, 30)
        result = {"closed": slow.closed_with, "version": table.version,
                  "connected": table.connected(0)}
        # Now offline: the host may hand the seat to a computer player.
        await manager.seat_bot(table_id, 0, "random", host)
        await manager.stop()
        storage.close()
        return result

    result = run_async(scenario())
    assert result == {"closed": 1008, "version": 0, "connected": False}


def test_an_action_is_applied_only_while_its_connection_holds_the_seat(
        tmp_path: Path) -> None:
    """A connection whose seat went to a computer player is closed (4409), and an action
    it had sent is refused, not applied for the computer player's seat."""

    async def scenario() -> dict[str, Any]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=60)
        table_id, host, _ = await two_seat_game(manager)
        table = await manager.get(table_id)
        conn = Connection(_noop_send, _noop_close)
        conn.seat, conn.holder = 0, table.seats[0].token_hash
        assert table.holds(conn)
        await manager.seat_bot(table_id, 0, "random", host)  # nobody counted connected
        legal = table.game.legal_actions(table.state, 0)
        refused = None
        try:
            await manager.submit(table, 0, legal[0], None, conn)
        except Refused as refusal:
            refused = refusal.code
        await manager.stop()
        storage.close()
        return {"refused": refused, "version": table.version, "holds": table.holds(conn)}

    assert run_async(scenario()) == {"refused": "seat_lost", "version": 0, "holds": False}


def test_the_connections_of_a_seat_that_changes_hands_are_closed(tmp_path: Path) -> None:
    async def scenario() -> int | None:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=60)
        table_id, _, tokens = await two_seat_game(manager)
        table = await manager.get(table_id)
        old = FakeSocket()
        client = asyncio.create_task(serve_client(old, manager, table_id))
        old.say({"type": "hello", "token": tokens[1]})
        await until(lambda: table.connected(1))
        table.drop_seat(1, *table_module.SEAT_CHANGED_CLOSE)
        await asyncio.wait_for(client, 30)
        await manager.stop()
        storage.close()
        return old.closed_with

    assert run_async(scenario()) == 4409


async def _noop_send(text: str) -> None:
    return None


async def _noop_close(code: int, reason: str) -> None:
    return None


def test_unsent_bytes_are_bounded_as_well_as_messages() -> None:
    """A few huge messages close a client that does not read, long before 256 of them."""

    async def scenario() -> tuple[bool, int | None]:
        closed: list[int] = []
        blocked = asyncio.Event()

        async def send(text: str) -> None:
            await blocked.wait()

        async def close(code: int, reason: str) -> None:
            closed.append(code)

        conn = Connection(send, close)
        big = "x" * (1024 * 1024)
        for _ in range(8):
            conn.push(big)
        await until(lambda: conn.closed and closed)
        return conn.closed, closed[0] if closed else None

    assert run_async(scenario()) == (True, 1008)


def test_presence_is_a_small_message_sent_at_most_once_per_interval(tmp_path: Path) -> None:
    """Fifty watchers arriving at once: the first hears a few ``presence`` messages (the
    last one counting everyone), not fifty copies of the table's info."""

    async def scenario() -> list[dict[str, Any]]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=60)
        table_id, _, _ = await two_seat_game(manager)
        sockets = [FakeSocket() for _ in range(50)]
        clients = []
        for socket in sockets:
            clients.append(asyncio.create_task(serve_client(socket, manager, table_id)))
            socket.say({"type": "hello"})
            await asyncio.sleep(0)
        await until(lambda: [m for m in sockets[0].received if m["type"] == "presence"
                             and m["watchers"] == 50])
        await settle(2 * table_module.PRESENCE_INTERVAL)  # nothing more should come
        first = sockets[0].received
        for socket in sockets:
            socket.inbox.put_nowait(None)
        await asyncio.gather(*clients)
        await manager.stop()
        storage.close()
        return first

    received = run_async(scenario())
    after_welcome = [m["type"] for m in received[received.index(
        next(m for m in received if m["type"] == "welcome")) + 1:]]
    assert "table" not in after_welcome
    presence = [m for m in received if m["type"] == "presence"]
    assert 1 <= len(presence) <= 3
    assert presence[-1] == {"type": "presence", "seats": {"0": False, "1": False},
                            "watchers": 50}


def test_presence_tells_of_a_seat_that_left(tmp_path: Path) -> None:
    async def scenario() -> list[dict[str, Any]]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=60)
        table_id, _, tokens = await two_seat_game(manager)
        watcher, player = FakeSocket(), FakeSocket()
        clients = [asyncio.create_task(serve_client(s, manager, table_id))
                   for s in (watcher, player)]
        watcher.say({"type": "hello"})
        player.say({"type": "hello", "token": tokens[1]})
        await until(lambda: [m for m in watcher.received if m["type"] == "presence"
                             and m["seats"]["1"]])
        before = len(watcher.received)
        player.inbox.put_nowait(None)
        await until(lambda: [m for m in watcher.received[before:] if m["type"] == "presence"
                             and not m["seats"]["1"]])
        seen = [m for m in watcher.received if m["type"] == "presence"]
        watcher.inbox.put_nowait(None)
        await asyncio.gather(*clients)
        await manager.stop()
        storage.close()
        return seen

    seen = run_async(scenario())
    assert {"0": False, "1": True} in [m["seats"] for m in seen]
    assert seen[-1] == {"type": "presence", "seats": {"0": False, "1": False}, "watchers": 1}
