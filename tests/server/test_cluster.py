"""Several processes, one set of tables: two ``gametable serve`` processes sharing
PostgreSQL and Redis (``gametable.server.cluster``).

Each test starts its processes itself, against a PostgreSQL and a Redis that the tests
start on loopback (``tests/services.py``); skipped where either is not installed, except
in CI.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import signal
import time
from collections.abc import AsyncIterator, Coroutine, Iterator, MutableMapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import httpx
import orjson
import pytest
import websockets

from gametable.core import registry
from tests.aio import run_async
from tests.server.conftest import LiveServer
from tests.services import PostgresServer, redis_server

psycopg = pytest.importorskip("psycopg")
redis = pytest.importorskip("redis")

from gametable.server.cluster import (  # noqa: E402
    KNOWN_OUTAGE_SECONDS,
    OWNER,
    PEER_TOKEN,
    TABLES,
    Cluster,
    ClusterError,
    Peer,
)
from gametable.server.outage import Outage  # noqa: E402
from gametable.server.postgres import PostgresStorage  # noqa: E402
from gametable.server.refused import Refused  # noqa: E402
from gametable.server.storage import SeatRow, StorageError, TableRow  # noqa: E402

pytestmark = pytest.mark.server

FAILOVER_SECONDS = 5.0
"""The longest a table may stay without an owner after its owner was killed."""


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with redis_server() as running:
        yield running.url


@pytest.fixture
def database(postgres: PostgresServer, redis_url: str) -> str:
    redis.Redis.from_url(redis_url).flushall()
    return postgres.database()


def process(tmp_path: Path, name: str, database: str, redis_url: str,
            bot_delay: float = 0.0, limits: list[str] | None = None) -> LiveServer:
    """A server process of the cluster, its log under ``name``. The processes of one
    test share a data folder (its secret keys), as docs/deploy.md asks. Without rate
    limits unless ``limits`` gives the options (``["--limit-tables", "2/3600"]``)."""
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=bot_delay, name=name,
                        options=[*(limits or ["--no-rate-limits"]), "--database", database,
                                 "--redis", redis_url])
    server.start()
    return server


def owner_url(redis_url: str, table_id: str) -> str | None:
    value = redis.Redis.from_url(redis_url, decode_responses=True).get(OWNER + table_id)
    return None if value is None else str(value).split(" ", 1)[1]


def stored(database: str, table_id: str) -> TableRow:
    storage = PostgresStorage(database)
    try:
        row = storage.load_table(table_id)
    finally:
        storage.close()
    assert row is not None
    return row


def views_of(row: TableRow, seat: int | None) -> list[Any]:
    """What ``seat`` should see at each version of the stored record (0: as dealt)."""
    game = registry.get(row.game)
    state = game.new_game(game.make_config(row.config, len(row.seats)), len(row.seats),
                          row.seed)
    views = [orjson.loads(orjson.dumps(game.view(state, seat)))]
    for seat_acting, action in row.actions:
        game.apply(state, seat_acting, action)
        views.append(orjson.loads(orjson.dumps(game.view(state, seat))))
    return views


class Client:
    """A websocket client of one seat (or a watcher) that keeps every message."""

    def __init__(self, url: str, token: str | None) -> None:
        self.url = url
        self.token = token
        self.ws: Any = None
        self.messages: list[dict[str, Any]] = []
        self.seat: int | None = None

    async def connect(self) -> None:
        self.ws = await websockets.connect(self.url, max_size=None, proxy=None)
        hello = {"type": "hello", "token": self.token} if self.token else {"type": "hello"}
        await self.ws.send(orjson.dumps(hello).decode())
        welcome = await self.next("welcome")
        self.seat = welcome["seat"]
        await self.next("state")

    async def next(self, kind: str, timeout: float = 30.0) -> dict[str, Any]:
        while True:
            message = orjson.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            self.messages.append(message)
            if message["type"] == kind:
                return dict(message)

    async def state_at(self, version: int, timeout: float = 30.0) -> dict[str, Any]:
        """The state message of ``version`` (waiting for it)."""
        for message in self.states():
            if message["version"] == version:
                return message
        while True:
            message = await self.next("state", timeout)
            if message["version"] >= version:
                assert message["version"] == version, (message["version"], version)
                return message

    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "state"]

    def latest(self) -> dict[str, Any]:
        return self.states()[-1]

    async def act(self, rng: random.Random) -> dict[str, Any]:
        state = self.latest()
        action = rng.choice(state["legal"])
        await self.ws.send(orjson.dumps({"type": "action", "action": action,
                                         "version": state["version"]}).decode())
        return dict(action)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def create(base: str, seats: list[dict[str, Any]], clock: dict[str, Any] | None = None
                 ) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        response = await http.post("/api/tables", json={
            "game": "sequence-cats", "name": "Anna", "seats": seats, "clock": clock})
        assert response.status_code == 201, response.text
        return dict(response.json())


def metric_values(base: str) -> dict[str, float]:
    """The unlabelled figures of a process's ``/metrics``, by name."""
    text = httpx.get(base + "/metrics", timeout=30).text
    values = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if line and not line.startswith("#") and "{" not in name:
            values[name] = float(value)
    return values


def check_views(client: Client, row: TableRow) -> None:
    """Every state ``client`` received is its seat's view of the stored record at that
    version: no acknowledged action lost, none applied twice, no other seat's secrets."""
    expected = views_of(row, client.seat)
    for state in client.states():
        assert state["version"] < len(expected), (state["version"], len(row.actions))
        assert state["view"] == expected[state["version"]], state["version"]


def test_two_processes_play_one_table_each_client_on_either(
        tmp_path: Path, database: str, redis_url: str) -> None:
    a = process(tmp_path, "a", database, redis_url)
    b = process(tmp_path, "b", database, redis_url)
    try:
        async def play() -> tuple[str, list[Client]]:
            created = await create(a.url, [{"kind": "human"}, {"kind": "human"}])
            table_id = created["table"]["id"]
            assert owner_url(redis_url, table_id) == a.url
            async with httpx.AsyncClient(base_url=b.url, timeout=30) as http:
                # Joining through B: forwarded to the owner, A.
                joined = (await http.post(f"/api/tables/{table_id}/join",
                                          json={"name": "Bea"})).json()
                assert joined["seat"] == 1
                info = (await http.get(f"/api/tables/{table_id}")).json()
                assert info["status"] == "playing"
                missing = await http.get("/api/tables/no-such-table")
                assert missing.status_code == 404 and missing.json()["code"] == "no_table"
                assert owner_url(redis_url, "no-such-table") is None
            path = f"/api/tables/{table_id}/ws"
            clients = [Client(a.ws_url + path, created["token"]),
                       Client(b.ws_url + path, joined["token"]),
                       Client(b.ws_url + path, None)]
            for client in clients:
                await client.connect()
            assert [c.seat for c in clients] == [0, 1, None]
            rng = random.Random(7)
            for version in range(12):
                states = [await c.state_at(version) for c in clients]
                assert len({orjson.dumps(s["to_act"]) for s in states}) == 1
                (seat,) = states[0]["to_act"]
                await clients[seat].act(rng)
            for client in clients:
                await client.state_at(12)
            # The same action again, through B: refused, applied once.
            last = clients[1].latest()
            if last["legal"]:
                await clients[1].ws.send(orjson.dumps({
                    "type": "action", "action": last["legal"][0],
                    "version": last["version"] - 1}).decode())
                error = await clients[1].next("error")
                assert error["code"] in {"stale_version", "illegal_action"}
            for client in clients:
                await client.close()
            return table_id, clients

        table_id, clients = run_async(play())
        row = stored(database, table_id)
        assert len(row.actions) == 12
        for client in clients:
            assert [s["version"] for s in client.states()] == list(range(13))
            check_views(client, row)
        # Each seat saw only its own hand.
        assert clients[0].latest()["view"] != clients[1].latest()["view"]
        ready = httpx.get(f"{b.url}/readyz").json()
        assert ready["status"] == "ready" and ready["owns"] == 0
        # A stopped the usual way (SIGTERM) gives its leases back: B takes over at once.
        stopped = time.monotonic()
        a.stop()
        while owner_url(redis_url, table_id) != b.url:
            assert time.monotonic() - stopped < 3.0
            time.sleep(0.05)
        assert httpx.get(f"{b.url}/api/tables/{table_id}").json()["version"] == 12
    finally:
        a.stop()
        b.stop()


def test_a_process_that_stops_tells_the_clients_it_piped_to_reconnect(
        tmp_path: Path, database: str, redis_url: str) -> None:
    """A process stopping the usual way (SIGTERM) sends the websockets it pipes to
    another owner ``{"type": "restarting"}`` and closes them with 1012, as the owner
    does its own (docs/protocol.md); the owner's clients stay connected."""
    a = process(tmp_path, "a", database, redis_url)
    b = process(tmp_path, "b", database, redis_url)
    try:
        async def stop_b() -> tuple[list[dict[str, Any]], int | None, bool]:
            created = await create(a.url, [{"kind": "human"}, {"kind": "human"}])
            table_id = created["table"]["id"]
            assert owner_url(redis_url, table_id) == a.url
            async with httpx.AsyncClient(base_url=a.url, timeout=30) as http:
                joined = (await http.post(f"/api/tables/{table_id}/join",
                                          json={"name": "Bea"})).json()
            path = f"/api/tables/{table_id}/ws"
            anna = Client(a.ws_url + path, created["token"])
            bea = Client(b.ws_url + path, joined["token"])
            await anna.connect()
            await bea.connect()
            seen = len(bea.messages)
            await asyncio.to_thread(b.stop)
            code = None
            try:
                while True:
                    bea.messages.append(orjson.loads(await asyncio.wait_for(
                        bea.ws.recv(), 30)))
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else None
            await asyncio.wait_for(await anna.ws.ping(), 10)  # still connected
            open_at_a = anna.ws.close_code is None
            await anna.close()
            return bea.messages[seen:], code, open_at_a

        after, code, open_at_a = run_async(stop_b())
        assert {"type": "restarting"} in after and code == 1012, (after, code)
        assert open_at_a
    finally:
        a.stop()
        b.stop()


def test_after_kill_9_the_other_process_takes_over_with_bots_and_clock(
        tmp_path: Path, database: str, redis_url: str) -> None:
    a = process(tmp_path, "a", database, redis_url, bot_delay=0.2)
    b = process(tmp_path, "b", database, redis_url, bot_delay=0.2)
    try:
        async def play() -> tuple[str, Client, Client, float, float, int]:
            created = await create(a.url, [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
                                   clock={"turn_seconds": 8, "cover": "easy"})
            table_id = created["table"]["id"]
            # And a table of computer players only, that nobody watches.
            bots_only = (await create(a.url, [{"kind": "bot", "bot": "random"}] * 2,
                                      ))["table"]["id"]
            path = f"/api/tables/{table_id}/ws"
            player = Client(a.ws_url + path, created["token"])
            watcher = Client(b.ws_url + path, None)  # piped to A
            await player.connect()
            await watcher.connect()
            rng = random.Random(3)
            version = 0
            for _ in range(3):  # the person moves, then the computer player answers
                state = await player.state_at(version)
                assert state["to_act"] == [0]
                await player.act(rng)
                await player.state_at(version + 2)
                version += 2
            await watcher.state_at(version)
            # A word in the chat, stored before it is sent: B has it after the takeover.
            await player.ws.send(orjson.dumps({"type": "chat", "text": "brb"}).decode())
            await player.next("chat")
            # Seat 0 must act now and its turn's clock runs: kill the owner.
            assert owner_url(redis_url, table_id) == owner_url(redis_url, bots_only) == a.url
            killed = time.monotonic()
            a.kill()
            bots_at_kill = len(stored(database, bots_only).actions)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await watcher.next("state", timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012

            async def lease_moves() -> float:
                while owner_url(redis_url, table_id) != b.url:
                    assert time.monotonic() - killed < FAILOVER_SECONDS + 5
                    await asyncio.sleep(0.02)
                return time.monotonic() - killed

            moving = asyncio.create_task(lease_moves())
            # The clients reconnect at once, to B: it waits for A's lease to expire.
            player = Client(b.ws_url + path, created["token"])
            await player.connect()
            served = time.monotonic() - killed
            said = (await player.next("chat_history", timeout=10))["messages"]
            assert [(m["seat"], m["text"]) for m in said] == [(0, "brb")]
            lease_moved = await moving
            assert player.latest()["version"] == version
            watcher = Client(b.ws_url + path, None)
            await watcher.connect()
            # Nobody acts for seat 0: its clock runs out on B and the seat is away (its
            # person is the table's only one, so the computer player covering for it
            # waits out another turn's time before it plays, docs/protocol.md).
            away: dict[str, Any] = {}
            while not away:
                away = (await player.next("clock", timeout=30))["away"]
            assert away == {"0": "turn"} and player.latest()["version"] == version
            # The person takes the seat back by acting; then the computer player moves.
            await player.act(rng)
            await player.state_at(version + 2)
            assert any(event.get("seat") == 1
                       for event in player.latest()["events"])
            await watcher.state_at(version + 2)
            await player.close()
            await watcher.close()
            # The computer players' table went on at B too, with nobody asking for it.
            assert owner_url(redis_url, bots_only) == b.url
            while len(stored(database, bots_only).actions) < bots_at_kill + 2:
                assert time.monotonic() - killed < 30
                await asyncio.sleep(0.2)
            return table_id, player, watcher, lease_moved, served, version

        table_id, player, watcher, lease_moved, served, version = run_async(play())
        print(f"\nfailover after kill -9: lease on B after {lease_moved:.2f} s, "
              f"client served by B after {served:.2f} s")
        assert served < FAILOVER_SECONDS
        row = stored(database, table_id)
        assert len(row.actions) >= version + 2
        check_views(player, row)
        check_views(watcher, row)
        assert row.actions[version][0] == 0  # the person's own action, once
        assert row.actions[version + 1][0] == 1
        figures = metric_values(b.url)
        assert figures["gametable_table_takeovers_total"] >= 1  # the unwatched table
        assert figures["gametable_leases_held"] >= 2
    finally:
        a.stop()
        b.stop()


def test_a_process_that_loses_a_lease_stops_acting_for_that_table(
        tmp_path: Path, database: str, redis_url: str) -> None:
    a = process(tmp_path, "a", database, redis_url, bot_delay=0.15)
    store = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        async def play() -> None:
            created = await create(a.url, [{"kind": "bot", "bot": "random"},
                                           {"kind": "bot", "bot": "random"}])
            table_id = created["table"]["id"]
            watcher = Client(f"{a.ws_url}/api/tables/{table_id}/ws", None)
            await watcher.connect()
            await watcher.state_at(3)
            # Another process "takes" the lease (as after a long pause of this one).
            store.set(OWNER + table_id, "intruder http://127.0.0.1:9")
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await watcher.next("state", timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            assert metric_values(a.url)["gametable_leases_lost_total"] == 1
            await asyncio.sleep(0.5)
            frozen = len(stored(database, table_id).actions)
            await asyncio.sleep(2.0)
            assert len(stored(database, table_id).actions) == frozen
            # The intruder goes: A takes the table over again and its bots go on.
            assert store.sismember(TABLES, table_id)
            store.delete(OWNER + table_id)
            watcher = Client(f"{a.ws_url}/api/tables/{table_id}/ws", None)
            await watcher.connect()
            await watcher.state_at(frozen + 2)
            await watcher.close()
            check_views(watcher, stored(database, table_id))

        run_async(play())
    finally:
        a.stop()


def test_while_redis_is_away_no_table_acts_and_play_goes_on_when_it_is_back(
        tmp_path: Path, postgres: PostgresServer) -> None:
    """Redis holds the leases: while it does not answer, a process cannot know that it
    still owns a table, so it stops acting (its connections get 1012, requests 503,
    ``/readyz`` says ``redis``), and nothing is stored; once Redis is back (empty, as
    after a restart without persistence) the table is claimed again on the next request
    and its computer players go on from the stored record."""
    with redis_server() as own_redis:
        database = postgres.database()
        a = process(tmp_path, "a", database, own_redis.url, bot_delay=0.15)
        try:
            async def play() -> None:
                created = await create(a.url, [{"kind": "bot", "bot": "random"},
                                               {"kind": "bot", "bot": "random"}])
                table_id = created["table"]["id"]
                path = f"/api/tables/{table_id}/ws"
                watcher = Client(a.ws_url + path, None)
                await watcher.connect()
                await watcher.state_at(3)
                assert own_redis.process is not None
                own_redis.process.terminate()
                own_redis.process.wait(10)
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    while True:
                        await watcher.next("state", timeout=15)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
                frozen = len(stored(database, table_id).actions)
                async with httpx.AsyncClient(base_url=a.url, timeout=30) as http:
                    ready = await http.get("/readyz")
                    assert ready.status_code == 503 and ready.json()["status"] == "redis"
                    asked = await http.get(f"/api/tables/{table_id}")
                    assert asked.status_code == 503, asked.text
                    assert "retry-after" in asked.headers
                    # Not "restarting; your move was not taken" (for a read), nor
                    # "could not save" (the database answers): the table cannot be
                    # reached, and nothing was done.
                    assert asked.json()["code"] == "table_unavailable", asked.text
                    made = await http.post("/api/tables", json={
                        "game": "sequence-cats", "seats": [{"kind": "human"}] * 2})
                    assert made.status_code == 503 and made.headers["retry-after"] == "1"
                    assert made.json()["key"] == "server.errors.new_table_unavailable"
                assert len(stored(database, table_id).actions) == frozen

                own_redis.start()  # back on the same port, without the old keys
                # The computer players go on by themselves: nobody needs to ask.
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline and \
                        len(stored(database, table_id).actions) <= frozen:
                    await asyncio.sleep(0.2)
                assert len(stored(database, table_id).actions) > frozen
                watcher = Client(a.ws_url + path, None)
                await watcher.connect()
                await watcher.state_at(frozen + 2)
                await watcher.close()
                assert owner_url(own_redis.url, table_id) == a.url
                check_views(watcher, stored(database, table_id))
                # The sweeps failed several times a second; the log says so once, and
                # once that Redis is back (and /readyz, asked above, once of its own).
                log_text = a.log.read_text()
                assert len(re.findall(r"cluster: Redis at \S+ does not answer \(",
                                      log_text)) == 1, log_text[-3000:]
                assert log_text.count("not ready: Redis does not answer (") <= 1, \
                    log_text[-3000:]
                assert "answers again, after" in log_text
                assert "leases not renewed:" not in log_text

            run_async(play())
        finally:
            a.stop()


@pytest.mark.parametrize("away", [0.0, 5.0])
def test_a_request_waits_for_an_owner_unless_redis_is_known_to_be_away(away: float
                                                                       ) -> None:
    """Through a process that did not hold the table, a request asked Redis for its
    owner again and again for 8 s (``ROUTE_WAIT_SECONDS``) while Redis was away, then
    got its 503. A blip is still waited out; once the sweeps have found Redis away for
    ``KNOWN_OUTAGE_SECONDS``, the request is refused at its first failure."""
    cluster = Cluster("redis://127.0.0.1:9/0", "http://127.0.0.1:9")
    if away:
        assert away >= KNOWN_OUTAGE_SECONDS
        cluster.outage.since = cluster.outage.clock() - away
    asked: list[str] = []

    async def route(table_id: str, *, from_peer: bool = False) -> str | None:
        asked.append(table_id)
        raise ClusterError("Redis: Connection refused")

    cluster.route = route  # type: ignore[method-assign]
    with pytest.raises(ClusterError):
        run_async(cluster._target("t1", Peer(), time.monotonic() + 1.0))
    if away:
        assert asked == ["t1"]  # refused at once
    else:
        assert len(asked) >= 4  # asked again every 0.2 s until the deadline


def test_while_redis_is_away_connections_and_requests_are_logged_once_a_minute(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Each websocket and request about a table that could not be routed while Redis
    was away logged a warning of its own (a line per reconnecting client, every second
    or two); docs/deploy.md says the outage is logged when it begins and once a minute.
    A failure that is not Redis's is still logged each time."""
    import logging  # noqa: PLC0415

    import gametable.server.cluster as cluster_module  # noqa: PLC0415
    from gametable.server.socket import Socket  # noqa: PLC0415
    from tests.services import free_port  # noqa: PLC0415

    monkeypatch.setattr(cluster_module, "ROUTE_WAIT_SECONDS", 0.0)  # one try each
    cluster = Cluster(f"redis://127.0.0.1:{free_port()}/0", "http://127.0.0.1:9")
    closed: list[int] = []

    async def connect() -> None:
        async def receive() -> dict[str, Any]:
            return {"type": "websocket.connect"}

        async def send(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "websocket.close":
                closed.append(message["code"])

        async def local(socket: Any) -> None:
            raise AssertionError("served here without a lease")

        await cluster.serve_socket(Socket(receive, send), "t1", {"path": "/ws"}, Peer(),
                                   local)

    async def request() -> int:
        sent: list[MutableMapping[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: MutableMapping[str, Any]) -> None:
            sent.append(message)

        async def local(scope: Any, receive: Any, send: Any) -> None:
            raise AssertionError("served here without a lease")

        await cluster.forward({"type": "http", "method": "GET", "path": "/api/tables/t1",
                               "headers": []}, receive, send, "t1", Peer(), local)
        return int(sent[0]["status"])

    async def run() -> list[int]:
        try:
            for _ in range(5):
                await connect()
            return [await request() for _ in range(5)]
        finally:
            await cluster.redis.aclose()

    with caplog.at_level(logging.WARNING, logger="gametable"):
        statuses = run_async(run())
    assert closed == [1012] * 5 and statuses == [503] * 5
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 1, lines
    assert "does not answer (websockets not routed)" in lines[0], lines
    assert cluster.outage.since is not None

    caplog.clear()

    async def lapsed(table_id: str, *, from_peer: bool = False) -> str | None:
        raise ClusterError("this process's lease has lapsed; try again")

    cluster.route = lapsed  # type: ignore[method-assign]
    with caplog.at_level(logging.WARNING, logger="gametable"):
        run_async(connect())
        run_async(connect())
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2 and all("lease has lapsed" in line for line in lines), lines


def test_a_client_gets_the_same_rate_limit_from_every_process(
        tmp_path: Path, database: str, redis_url: str) -> None:
    """Each process counted a client's requests on its own: behind a load balancer that
    spreads them over N processes, a client could make N times as many tables as the
    limit allows. The buckets now live in Redis: two tables through one process use up a
    limit of two, and the third is refused by the other too."""
    limits = ["--limit-tables", "2/3600"]
    a = process(tmp_path, "a", database, redis_url, limits=limits)
    b = process(tmp_path, "b", database, redis_url, limits=limits)
    try:
        async def make() -> None:
            seats = [{"kind": "human"}, {"kind": "human"}]
            await create(a.url, seats)
            await create(a.url, seats)
            async with httpx.AsyncClient(base_url=b.url, timeout=30) as http:
                third = await http.post("/api/tables", json={
                    "game": "sequence-cats", "seats": seats})
            assert third.status_code == 429, third.text
            assert third.json()["code"] == "rate_limited"
            assert 3590 <= int(third.headers["retry-after"]) <= 3600  # one every 3,600 s

        run_async(make())
        # The buckets are Redis's, under the client's address, and go when full again.
        keys = redis.Redis.from_url(redis_url, decode_responses=True).keys("gametable:rate:*")
        assert keys == ["gametable:rate:create:127.0.0.1"], keys
    finally:
        a.stop()
        b.stop()


def test_a_client_s_caps_on_tables_are_counted_alike_by_every_process(
        tmp_path: Path, database: str, redis_url: str) -> None:
    """Each process counted the tables a client made in its own memory: through N
    processes a client could keep N times ``--max-waiting-tables`` tables waiting, and
    N times ``--max-bot-tables-per-client`` tables of computer players running. The
    tables are now counted in the database, by a keyed digest of the client's address:
    two waiting tables made through one process use up a cap of two, and the other
    refuses the third; likewise one table of computer players."""
    caps = ["--no-rate-limits", "--max-waiting-tables", "2", "--max-bot-tables-per-client", "1"]
    a = process(tmp_path, "a", database, redis_url, bot_delay=30, limits=caps)
    b = process(tmp_path, "b", database, redis_url, bot_delay=30, limits=caps)
    try:
        async def make() -> None:
            waiting = [{"kind": "human"}, {"kind": "human"}]
            bots = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
            await create(a.url, waiting)
            await create(a.url, waiting)
            await create(a.url, bots)
            async with httpx.AsyncClient(base_url=b.url, timeout=30) as http:
                third = await http.post("/api/tables", json={
                    "game": "sequence-cats", "seats": waiting})
                assert third.status_code == 429, third.text
                assert third.json()["key"] == "server.errors.too_many_waiting"
                second = await http.post("/api/tables", json={
                    "game": "sequence-cats", "seats": bots})
                assert second.status_code == 429, second.text
                assert second.json()["key"] == "server.errors.too_many_bot_tables"
                # A table with a person and a computer player counts against neither.
                mixed = await http.post("/api/tables", json={
                    "game": "sequence-cats", "name": "Ann",
                    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]})
                assert mixed.status_code == 201, mixed.text

        run_async(make())
    finally:
        a.stop()
        b.stop()


def test_an_action_stored_by_another_owner_first_wins_and_the_table_reloads(
        tmp_path: Path, database: str, redis_url: str) -> None:
    """A late write of a previous owner: the append's compare-and-set refuses this
    process's action under the same number (logged as that, not as storage failing); the
    table is loaded again from the stored record, its clients reconnect and see the
    stored action, applied once."""
    a = process(tmp_path, "a", database, redis_url)
    try:
        async def play() -> tuple[str, Client]:
            created = await create(a.url, [{"kind": "human"}, {"kind": "human"}])
            table_id = created["table"]["id"]
            async with httpx.AsyncClient(base_url=a.url, timeout=30) as http:
                await http.post(f"/api/tables/{table_id}/join", json={"name": "Bea"})
            url = f"{a.ws_url}/api/tables/{table_id}/ws"
            player = Client(url, created["token"])
            await player.connect()
            await player.state_at(0)
            legal = player.latest()["legal"]
            storage = PostgresStorage(database)
            try:
                await storage.append_action(table_id, 1, 0, legal[0])
            finally:
                storage.close()
            await player.ws.send(orjson.dumps({"type": "action", "action": legal[-1],
                                               "version": 0}).decode())
            error = await player.next("error")
            assert error["code"] == "storage_failed"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await player.next("state", timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            again = Client(url, created["token"])
            await again.connect()
            assert again.latest()["version"] == 1
            await again.close()
            return table_id, again

        table_id, again = run_async(play())
        row = stored(database, table_id)
        assert len(row.actions) == 1
        check_views(again, row)
        # Storage answered: the log says another writer stored first, not an outage.
        log = a.log.read_text()
        assert "another action was stored under that number" in log, log
        assert "does not answer" not in log, log
    finally:
        a.stop()


class FakeStorage:
    """Stored tables by id, and the lookups asked for; ``down``: every lookup fails."""

    def __init__(self, stored: set[str]) -> None:
        self.stored = stored
        self.asked: list[str] = []
        self.down = False

    def has_table(self, table_id: str) -> bool:
        self.asked.append(table_id)
        if self.down:
            raise StorageError("PostgreSQL: couldn't get a connection after 10.00 sec")
        return table_id in self.stored

    def load_tables(self, *, active_only: bool = False) -> list[Any]:
        return [SimpleNamespace(id=table_id) for table_id in sorted(self.stored)]


class FakeManager:
    """What a :class:`Cluster` asks of its table manager, noted."""

    def __init__(self, stored: set[str] | None = None) -> None:
        self.tables: dict[str, object] = {}
        self.loading: set[str] = set()
        self.load_failed: set[str] = set()
        self.unloaded: list[str] = []
        self.storage = FakeStorage(stored or set())
        self.storage_outage = Outage("the table storage", log=logging.getLogger("test"),
                                     prefix="storage", stops="nothing")

    async def get(self, table_id: str) -> object:
        return self.tables.setdefault(table_id, object())

    def bot_room(self) -> int | None:
        return None  # no --max-bot-tables

    def unload(self, table_id: str) -> bool:
        self.unloaded.append(table_id)
        return self.tables.pop(table_id, None) is not None


def test_leases_are_exclusive_renewed_by_value_and_lost_when_taken(redis_url: str) -> None:
    from gametable.server.cluster import Cluster  # noqa: PLC0415

    async def run() -> None:
        redis.Redis.from_url(redis_url).flushall()
        one = Cluster(redis_url, "http://127.0.0.1:1")
        two = Cluster(redis_url, "http://127.0.0.1:2")
        managers = [FakeManager(), FakeManager()]
        one.manager, two.manager = (cast(Any, m) for m in managers)
        managers[0].tables["t1"] = object()
        assert await one.claim("t1") and one.holds("t1")
        # A copy left in memory from before the claim has fallen behind: dropped.
        assert managers[0].unloaded == ["t1"] and "t1" not in managers[0].tables
        managers[0].unloaded.clear()
        assert not await two.claim("t1") and not two.holds("t1")
        assert managers[1].unloaded == []
        assert await two.route("t1") == "http://127.0.0.1:1"
        assert await one.route("t1") is None
        # Only the lease's holder expires a table: "t2", which nobody held, is taken.
        async with two.hold_to_expire(["t1", "t2"]) as held:
            assert held == {"t2"}
        assert await two.owner("t2") is None  # given back as the expiry ends
        async with one.hold_to_expire(["t1"]) as held:
            assert held == {"t1"}
        managers[0].tables["t1"] = object()
        await one.renew()
        assert one.holds("t1") and managers[0].unloaded == []
        # Taken by someone else: the next renewal finds out, the table is dropped.
        await one.redis.set(OWNER + "t1", "intruder http://127.0.0.1:9")
        await one.renew()
        assert not one.holds("t1") and managers[0].unloaded == ["t1"]
        # Gone: whoever looks for tables to take over first gets it.
        await one.redis.delete(OWNER + "t1")
        assert await two.claim("t1")
        for cluster in (one, two):
            cluster._tasks = []
            await cluster.stop()
        assert await Cluster(redis_url, "http://x").owner("t1") is None  # given back

    run_async(run())


def test_after_redis_lost_the_lease_a_late_write_of_the_old_owner_is_refused(
        database: str, redis_url: str) -> None:
    """The helper's race: Redis restarts without its keys while process A runs a table;
    B, asked about it, finds no lease and takes the table over while A still believes
    its lease good for a moment. A join through A then was stored over B's (two people
    on one seat). B's claim raises the table's owner number in PostgreSQL before it
    loads the table, and A's write, carrying the number A got, is refused."""
    from gametable.server.cluster import Cluster  # noqa: PLC0415

    async def run() -> None:
        setup = PostgresStorage(database)
        await setup.create_table(TableRow(
            id="t1", game="sequence-cats", config={"rules_version": 2}, seed=1,
            host_hash="h", created=0.0, seats=[SeatRow(0, "human"), SeatRow(1, "open")]))
        setup.close()
        clusters, storages = [], []
        for port in (1, 2):
            cluster = Cluster(redis_url, f"http://127.0.0.1:{port}")
            storage = PostgresStorage(database)
            cluster.manager = cast(Any, FakeManager({"t1"}))
            cluster._fenced, storage.fence_of = storage, cluster.fences.get
            clusters.append(cluster)
            storages.append(storage)
        one, two = clusters
        assert await one.claim("t1") and one.fences == {"t1": 1}
        await storages[0].save_seat("t1", SeatRow(1, "human", name="Xavier", token_hash="x"))
        await one.redis.flushall()  # Redis restarted without its keys
        assert await two.claim("t1") and two.fences == {"t1": 2}
        assert one.holds("t1")  # A does not know yet
        with pytest.raises(StorageError, match="taken over by another process"):
            await storages[0].save_seat("t1", SeatRow(1, "human", name="Ann", token_hash="a"))
        await storages[1].save_seat("t1", SeatRow(1, "human", name="Yvonne", token_hash="y"))
        await one.renew()  # A finds out: the table is dropped, its number forgotten
        assert not one.holds("t1") and one.fences == {}
        for cluster in clusters:
            cluster._tasks = []
            await cluster.stop()
        assert two.fences == {}
        row = storages[1].load_table("t1")
        assert row is not None and row.seats[1].name == "Yvonne"
        for storage in storages:
            storage.close()

    run_async(run())


def cluster_of_one(redis_url: str, stored: set[str]
                   ) -> tuple[Any, Cluster, FakeManager]:
    """A flushed Redis, and one process's cluster over a fake manager whose storage holds
    ``stored``: ``(redis client, cluster, manager)``."""
    client = redis.Redis.from_url(redis_url)
    client.flushall()
    cluster = Cluster(redis_url, "http://127.0.0.1:1")
    manager = FakeManager(stored=stored)
    cluster.manager = cast(Any, manager)
    return client, cluster, manager


def test_an_unknown_table_id_is_answered_here_without_a_lease(redis_url: str) -> None:
    """Asking any process for a table that does not exist made it take a lease in Redis
    and note the id among the cluster's tables (cleaned up seconds later; a stream of
    made-up ids kept Redis busy): it is now answered where asked (404), nothing noted."""

    async def run() -> None:
        client, cluster, manager = cluster_of_one(redis_url, {"t1"})
        assert await cluster.route("made-up") is None
        assert not cluster.holds("made-up") and client.get(OWNER + "made-up") is None
        assert not client.sismember(TABLES, "made-up")
        # A stored table nobody holds is still claimed by whoever is asked first.
        assert await cluster.route("t1") is None and cluster.holds("t1")
        assert client.sismember(TABLES, "t1")
        assert manager.storage.asked == ["made-up", "t1"]
        cluster._tasks = []
        await cluster.stop()

    run_async(run())


def test_a_table_asked_for_while_the_database_is_down_is_refused_at_once_unclaimed(
        redis_url: str) -> None:
    """While PostgreSQL was down, a lookup that could not answer counted as a stored
    table: the process claimed its lease and waited for the database again to load it,
    20–30 s in all (docs/deploy.md says 10), through another process with the wrong
    refusal (``table_unavailable``), the lease moving to whichever process a client
    asked next. It is now refused at the lookup (503 ``storage_failed``), no lease taken,
    the outage logged once."""
    async def run() -> None:
        client, cluster, manager = cluster_of_one(redis_url, {"t1"})
        manager.storage.down = True
        for _ in range(3):
            with pytest.raises(Refused) as refused:
                await cluster.route("t1")
            assert refused.value.code == "storage_failed"
            assert refused.value.key == "server.errors.storage_unreadable"
        assert not cluster.holds("t1") and client.get(OWNER + "t1") is None
        assert manager.storage_outage.since is not None
        manager.storage.down = False
        assert await cluster.route("t1") is None and cluster.holds("t1")
        cluster._tasks = []
        await cluster.stop()

    run_async(run())


def test_leases_that_ran_out_together_are_logged_in_one_line(
        caplog: pytest.LogCaptureFixture) -> None:
    """A Redis outage ends every lease a process holds at once: a line per table was
    23 lines in one millisecond here, hundreds at the tables docs/deploy.md measures."""
    cluster = Cluster("redis://127.0.0.1:1", "http://127.0.0.1:1")
    manager = FakeManager()
    cluster.manager = cast(Any, manager)
    ids = [f"table{n:02}" for n in range(23)]
    for table_id in ids:
        cluster.held[table_id] = 1.0
        manager.tables[table_id] = object()
    cluster.held["later"] = time.monotonic() + 60
    with caplog.at_level(logging.WARNING, logger="gametable"):
        cluster._lost_in_time(time.monotonic())
    lines = [r.getMessage() for r in caplog.records if "lost" in r.getMessage()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("cluster: 23 tables lost: their leases could not be renewed")
    assert lines[0].endswith("and 18 more)"), lines
    assert set(cluster.held) == {"later"} and cluster.losses == 23
    assert sorted(manager.unloaded) == ids


def test_after_redis_lost_its_keys_the_tables_are_noted_again_and_one_token_agreed(
        redis_url: str) -> None:
    """A Redis restart (without persistence) lost the noted tables and the peer token:
    tables with only computer players stopped until a process was restarted, and a
    process started afterwards made a token the others did not know. The first sweep
    after the restart notes the stored tables again, and every process adopts the token
    it finds."""
    from gametable.server.cluster import Cluster  # noqa: PLC0415

    async def run() -> None:
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        client.flushall()
        one = Cluster(redis_url, "http://127.0.0.1:1")
        two = Cluster(redis_url, "http://127.0.0.1:2")
        one.manager, two.manager = (cast(Any, FakeManager(stored={"t1", "t2"}))
                                    for _ in range(2))
        one.peer_token, two.peer_token = "before", "made-after-the-restart"
        await one.take_over()
        assert client.get(PEER_TOKEN) == "before"
        assert client.smembers(TABLES) == {"t1", "t2"}  # noted again…
        assert one.holds("t1") and one.holds("t2")  # …and taken over
        await two.take_over()
        assert two.peer_token == "before"  # adopted
        for cluster in (one, two):
            cluster._tasks = []
            await cluster.stop()

    run_async(run())


def test_a_process_with_other_secret_keys_is_refused_at_start(redis_url: str) -> None:
    """Processes with data folders of their own made keys of their own: a picture pass
    one of them signed did not open the pictures another served, and nothing said why.
    The first process's keys are noted (as a fingerprint); a process with other keys is
    refused at start, with what to do; a process with the same keys joins, and after a
    Redis restart the fingerprint is noted again."""
    from prometheus_client import CollectorRegistry  # noqa: PLC0415

    from gametable.server.cluster import SECRETS, Cluster, ClusterError  # noqa: PLC0415

    def manager() -> Any:
        fake: Any = FakeManager()
        fake.metrics = SimpleNamespace(registry=CollectorRegistry())
        return fake

    async def run() -> None:
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        client.flushall()
        first, same = Cluster(redis_url, "http://127.0.0.1:1"), Cluster(
            redis_url, "http://127.0.0.1:2")
        other = Cluster(redis_url, "http://127.0.0.1:3")
        await first.start(manager(), [], fingerprint="aaaa")
        with pytest.raises(ClusterError) as refused:
            await other.start(manager(), [], fingerprint="bbbb")
        assert "other secret keys" in str(refused.value)
        assert "same data folder" in str(refused.value)
        await same.start(manager(), [], fingerprint="aaaa")
        assert client.get(SECRETS) == "aaaa"
        client.flushall()  # Redis restarted without its keys
        await first.take_over()
        assert client.get(SECRETS) == "aaaa"
        for cluster in (first, same, other):
            await cluster.stop()

    run_async(run())


class BrokenStorageManager(FakeManager):
    """A manager whose storage cannot read tables now."""

    def __init__(self) -> None:
        super().__init__(stored={"t1"})
        self.asked: list[str] = []

    async def get(self, table_id: str) -> object:
        from gametable.server.refused import Refused  # noqa: PLC0415

        self.asked.append(table_id)
        raise Refused("storage_failed", "server.errors.storage_failed", status=503)


def test_a_table_storage_cannot_load_now_is_taken_over_later(redis_url: str) -> None:
    """A takeover whose load failed (PostgreSQL restarting) gave the lease back and took
    the table off the noted tables: nobody ever took it over again, and it stopped."""
    from gametable.server.cluster import Cluster  # noqa: PLC0415

    async def run() -> None:
        client = redis.Redis.from_url(redis_url)
        client.flushall()
        client.sadd(TABLES, "t1")  # its owner died: no lease
        cluster = Cluster(redis_url, "http://127.0.0.1:1")
        manager = BrokenStorageManager()
        cluster.manager = cast(Any, manager)
        await cluster.take_over()
        assert manager.asked == ["t1"]
        assert not cluster.holds("t1") and client.get(OWNER + "t1") is None
        assert client.sismember(TABLES, "t1")  # still noted: the next sweep tries again
        await cluster.take_over()
        assert manager.asked == ["t1", "t1"]
        cluster._tasks = []
        await cluster.stop()

    run_async(run())


async def forward_once(cluster: Any, method: str, path: str, body: bytes) -> list[dict[str, Any]]:
    """Pass one HTTP request about table ``t1`` through ``cluster`` (which must not run
    it here); the ASGI messages of its answer."""
    from gametable.server.cluster import Peer  # noqa: PLC0415

    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def local(*_: Any) -> None:
        raise AssertionError("not this process's table")

    scope = {"type": "http", "method": method, "path": path, "headers": [],
             "query_string": b""}
    await cluster.forward(cast(Any, scope), cast(Any, receive), cast(Any, send), "t1",
                          Peer(), local)
    return sent


def test_a_forwarded_post_is_not_sent_again_once_it_may_have_reached_the_owner(
        redis_url: str) -> None:
    """The owner died after storing a join but before answering: sending the join again
    to the next owner gave the person two seats. Now only a request that surely did not
    reach the owner (no connection) is sent again; else the answer is 503
    ``outcome_unknown``."""
    from gametable.server.cluster import Cluster  # noqa: PLC0415

    async def run(error: Exception, method: str) -> tuple[int, dict[str, Any], int]:
        redis.Redis.from_url(redis_url).flushall()
        cluster = Cluster(redis_url, "http://127.0.0.1:1")
        cluster.manager = cast(Any, FakeManager())
        tries = 0

        async def target(table_id: str, peer: Peer, deadline: float) -> str:
            return "http://127.0.0.1:2"

        async def upstream(scope: Any, target: str, body: bytes) -> httpx.Response:
            nonlocal tries
            tries += 1
            if tries == 1:
                raise error
            return httpx.Response(200, json={"ok": True})

        cluster._target = target  # type: ignore[method-assign]
        cluster._send_upstream = upstream  # type: ignore[method-assign]
        sent = await forward_once(cluster, method, "/api/tables/t1/join", b'{"seat": 1}')
        cluster._tasks = []
        await cluster.stop()
        body = orjson.loads(sent[1]["body"])
        return sent[0]["status"], body, tries

    status, body, tries = run_async(run(httpx.ReadError("owner gone"), "POST"))
    assert (status, body["code"], tries) == (503, "outcome_unknown", 1)
    assert "may or may not" in body["message"]
    # Never connected: nothing reached the owner, so the request goes again.
    status, body, tries = run_async(run(httpx.ConnectError("refused"), "POST"))
    assert (status, body, tries) == (200, {"ok": True}, 2)
    # A read goes again whatever happened.
    status, body, tries = run_async(run(httpx.ReadError("owner gone"), "GET"))
    assert (status, tries) == (200, 2)


def test_a_lease_is_kept_while_its_table_loads_however_long(redis_url: str) -> None:
    """A table still loading (storage slow for longer than the 5 s a lease is kept for
    a table not in memory) lost its lease: it then came into memory unowned, every
    action refused, while another process could run it too."""
    from gametable.server import cluster as cluster_module  # noqa: PLC0415

    async def run() -> None:
        redis.Redis.from_url(redis_url).flushall()
        cluster = cluster_module.Cluster(redis_url, "http://127.0.0.1:1")
        manager = FakeManager()
        cluster.manager = cast(Any, manager)
        assert await cluster.claim("t1")
        manager.loading.add("t1")
        cluster._claimed["t1"] -= cluster_module.UNUSED_SECONDS + 1  # loading for long
        await cluster.renew()
        assert cluster.holds("t1")
        assert await cluster.owner("t1") == cluster.value
        # Loaded: it stays. Never loaded (no longer loading, not in memory): given back.
        manager.loading.clear()
        await cluster.renew()
        assert not cluster.holds("t1") and await cluster.owner("t1") is None
        cluster._tasks = []
        await cluster.stop()

    run_async(run())


def test_a_table_that_could_not_be_loaded_stays_noted_when_its_lease_is_given_back(
        redis_url: str) -> None:
    """After a long PostgreSQL outage a table whose reload failed left memory, and its
    lease was given back and the table taken off the noted tables: nobody took it over
    again, and its computer players stopped for good. A table unused here is still
    forgotten (nobody plays at it)."""
    from gametable.server import cluster as cluster_module  # noqa: PLC0415

    async def run() -> None:
        client = redis.Redis.from_url(redis_url)
        client.flushall()
        cluster = cluster_module.Cluster(redis_url, "http://127.0.0.1:1")
        manager = FakeManager()
        cluster.manager = cast(Any, manager)
        for table_id in ("failed", "unused"):
            assert await cluster.claim(table_id)
            cluster._claimed[table_id] -= cluster_module.UNUSED_SECONDS + 1
        manager.load_failed.add("failed")
        await cluster.renew()
        assert not cluster.holds("failed") and not cluster.holds("unused")
        assert client.get(OWNER + "failed") is None
        assert client.sismember(TABLES, "failed")  # a process takes it over later
        assert not client.sismember(TABLES, "unused")
        assert manager.load_failed == set()
        cluster._tasks = []
        await cluster.stop()

    run_async(run())


def test_a_request_stops_waiting_for_an_owner_that_hangs_once_its_lease_moves(
        redis_url: str) -> None:
    """An owner that hung (a stuck loop, a paused machine) held every request forwarded
    to it for 30 s, though its lease moved within seconds: a read now goes to the new
    owner, and a write is answered 503 ``outcome_unknown`` (it may have reached the hung
    owner), each within a second or two of the lease moving."""
    from gametable.server.cluster import Cluster  # noqa: PLC0415

    hung, alive = "http://127.0.0.1:2", "http://127.0.0.1:3"

    async def run(method: str) -> tuple[int, float]:
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        client.flushall()
        client.set(OWNER + "t1", f"p2 {hung}")
        cluster = Cluster(redis_url, "http://127.0.0.1:1")
        cluster.manager = cast(Any, FakeManager())

        async def target(table_id: str, peer: Peer, deadline: float) -> str:
            return str(client.get(OWNER + table_id)).partition(" ")[2]

        async def upstream(scope: Any, target: str, body: bytes) -> httpx.Response:
            if target == hung:
                await asyncio.sleep(60)
            return httpx.Response(200, json={"ok": True})

        cluster._target = target  # type: ignore[method-assign]
        cluster._send_upstream = upstream  # type: ignore[method-assign]

        async def lease_moves() -> None:
            await asyncio.sleep(1.0)
            client.set(OWNER + "t1", f"p3 {alive}")

        mover = asyncio.create_task(lease_moves())
        started = time.monotonic()
        sent = await forward_once(cluster, method, "/api/tables/t1", b"{}")
        waited = time.monotonic() - started
        await mover
        cluster._tasks = []
        await cluster.stop()
        status = sent[0]["status"]
        if status == 503:
            assert orjson.loads(sent[1]["body"])["code"] == "outcome_unknown"
        return status, waited

    status, waited = run_async(run("GET"))
    assert status == 200 and waited < 5, waited
    status, waited = run_async(run("POST"))
    assert status == 503 and waited < 5, waited


def test_a_websocket_piped_to_an_owner_that_hangs_is_closed_once_its_lease_moves(
        tmp_path: Path, database: str, redis_url: str) -> None:
    """A client piped through B to owner A, which then hangs (a stuck loop, a paused
    machine: SIGSTOP), saw nothing for 50 s — the moves made at B, which took the table
    over within seconds, included — until the websockets library's keep-alive gave up.
    B now closes it with 1012 as soon as A's lease moves (here: expires), and the
    client reconnects to B, which takes the table over."""
    a = process(tmp_path, "a", database, redis_url)
    b = process(tmp_path, "b", database, redis_url)
    try:
        async def play() -> float:
            created = await create(a.url, [{"kind": "human"}, {"kind": "human"}])
            table_id = created["table"]["id"]
            async with httpx.AsyncClient(base_url=a.url, timeout=30) as http:
                joined = (await http.post(f"/api/tables/{table_id}/join",
                                          json={"name": "Bea"})).json()
            path = f"/api/tables/{table_id}/ws"
            bea = Client(b.ws_url + path, joined["token"])  # piped to A
            await bea.connect()
            assert owner_url(redis_url, table_id) == a.url
            assert a.process is not None
            a.process.send_signal(signal.SIGSTOP)
            try:
                started = time.monotonic()
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    while True:
                        await bea.next("state", timeout=30)
                waited = time.monotonic() - started
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
                again = Client(b.ws_url + path, joined["token"])  # as the page does
                await again.connect()
                assert owner_url(redis_url, table_id) == b.url
                assert again.latest()["version"] == 0 and again.seat == 1
                await again.close()
            finally:
                a.process.send_signal(signal.SIGCONT)
            return waited

        waited = run_async(play())
        assert waited < 12, waited  # the lease's 3 s, a look a second, not 50 s
    finally:
        a.stop()
        b.stop()


class FloodingClient:
    """A client socket that sends ``frames`` frames as fast as it can, then leaves."""

    def __init__(self, frames: int) -> None:
        self.left = frames

    async def next_frame(self) -> str | None:
        await asyncio.sleep(0)
        if self.left == 0:
            return None
        self.left -= 1
        return '{"type": "ping"}'


class QuietOwner:
    """The owner's end of a piped websocket: keeps what it is sent, says nothing."""

    def __init__(self) -> None:
        self.received = 0
        self.protocol = SimpleNamespace(close_rcvd=None)

    async def send(self, frame: str) -> None:
        self.received += 1

    def __aiter__(self) -> QuietOwner:
        return self

    async def __anext__(self) -> str:
        await asyncio.sleep(3600)
        raise StopAsyncIteration

    async def close(self) -> None:
        pass


def test_a_flood_piped_through_another_process_is_paced_there() -> None:
    """Frames a client sent through a process that does not own the table were passed
    on as fast as they came: the owner paced them only after millions had been decoded
    and sent on, and the piping process, busy, could lose every lease it held. They are
    paced where they arrive now, as the owner paces them: each connection at 200 a
    second after a burst of 400 (``socket.Throttle``), and the connections of one
    address together at the server's ``messages`` rate (here 100 a second after 100)."""
    from gametable.server.cluster import _pipe  # noqa: PLC0415
    from gametable.server.limits import Pace  # noqa: PLC0415

    async def flood(clients: int, frames: int, pace: Pace | None
                    ) -> tuple[list[float], list[QuietOwner]]:
        waits: list[float] = []

        async def sleep(seconds: float) -> None:  # note the wait instead of waiting
            waits.append(seconds)
            await asyncio.sleep(0)

        owners = [QuietOwner() for _ in range(clients)]
        await asyncio.gather(*(
            _pipe(cast(Any, FloodingClient(frames)), owner, None, pace, sleep)
            for owner in owners))
        return waits, owners

    waits, owners = run_async(flood(1, 1000, None))
    assert owners[0].received == 1000  # nothing is lost, only delayed
    assert sum(waits) >= (1000 - 400) / 200 * 0.95, sum(waits)
    waits, owners = run_async(flood(1, 400, None))
    assert waits == []  # an honest client's burst is not slowed down
    waits, owners = run_async(flood(3, 300, Pace(100, 100)))
    assert [owner.received for owner in owners] == [300] * 3
    assert max(waits) >= (900 - 100) / 100 * 0.95, max(waits)


class HangingOwner(QuietOwner):
    """An owner that never answers a close."""

    async def close(self) -> None:
        await asyncio.sleep(3600)


class WaitingClient:
    """A client socket that sends nothing and keeps what it is sent and its close."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None

    async def next_frame(self) -> str | None:
        await asyncio.sleep(3600)
        return None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int, reason: str = "") -> None:
        self.closed = (code, reason)


def test_a_stopping_process_tells_its_piped_clients_before_closing_a_hanging_owner(
        ) -> None:
    """The owner's connection was closed first, and an owner that did not answer kept
    the client waiting past the shutdown's bound: it never heard ``restarting``."""
    from gametable.server.cluster import RESTARTING, _pipe  # noqa: PLC0415
    from gametable.server.table import RESTART_CLOSE  # noqa: PLC0415

    async def stop_while_piping() -> WaitingClient:
        client, leaving = WaitingClient(), asyncio.Event()
        pipe = asyncio.create_task(_pipe(cast(Any, client), HangingOwner(), leaving=leaving))
        await asyncio.sleep(0.05)
        leaving.set()
        await asyncio.sleep(0.2)  # well within PIPE_CLOSE_SECONDS
        pipe.cancel()
        return client

    client = run_async(stop_while_piping())
    assert client.sent == [RESTARTING] and client.closed == RESTART_CLOSE


def test_a_path_with_dot_segments_is_not_passed_on_to_the_owner(
        tmp_path: Path, database: str, redis_url: str) -> None:
    """``/api/tables/<id>/../../../metrics`` through a process that does not own the
    table reached the owner as ``/metrics``, asked by a cluster process (past
    ``--metrics-from``, and other routes charged to that process's rates)."""
    import http.client  # noqa: PLC0415 (sends a path as it is)

    a = process(tmp_path, "a", database, redis_url)
    b = process(tmp_path, "b", database, redis_url)
    try:
        created = run_async(create(a.url, [{"kind": "human"}, {"kind": "human"}]))
        table_id = created["table"]["id"]
        for path in (f"/api/tables/{table_id}/../../../metrics",
                     f"/api/tables/{table_id}/..%2f..%2f..%2fmetrics",
                     f"/api/tables/{table_id}/%2e%2e/%2e%2e/%2e%2e/metrics",
                     f"/api/tables/{table_id}/./../../tables"):
            connection = http.client.HTTPConnection("127.0.0.1", b.port, timeout=30)
            connection.request("GET", path)
            answer = connection.getresponse()
            body = answer.read().decode()
            connection.close()
            assert answer.status == 404, (path, answer.status, body[:200])
            assert "gametable_actions_total" not in body
        # The table's own routes still pass through B.
        info = httpx.get(f"{b.url}/api/tables/{table_id}", timeout=30)
        assert info.status_code == 200 and info.json()["id"] == table_id
    finally:
        a.stop()
        b.stop()


def test_a_body_that_trickles_in_through_another_process_is_refused_in_time(
        tmp_path: Path, database: str, redis_url: str) -> None:
    """The process that passes a request on read its body without a time limit: a
    client sending a byte now and then held a connection (and a task) for ever there,
    while the owner itself answers 408 after ``--body-timeout``."""
    a = process(tmp_path, "a", database, redis_url)
    b = LiveServer(data_dir=tmp_path / "data", bot_delay=0.0, name="b",
                   options=["--no-rate-limits", "--database", database, "--redis", redis_url,
                            "--body-timeout", "2"])
    try:
        b.start()  # inside: a process that does not start leaves none running

        async def trickle() -> tuple[bytes, float]:
            created = await create(a.url, [{"kind": "human"}, {"kind": "human"}])
            table_id = created["table"]["id"]
            reader, writer = await asyncio.open_connection("127.0.0.1", b.port)
            writer.write((f"POST /api/tables/{table_id}/join HTTP/1.1\r\n"
                          f"Host: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          f"Content-Length: 40\r\n\r\n{{").encode())
            await writer.drain()
            started = time.monotonic()
            answer = b""
            for _ in range(20):  # a byte a second, never the whole body
                try:
                    answer = await asyncio.wait_for(reader.read(4096), 1.0)
                    break
                except TimeoutError:
                    writer.write(b" ")
                    await writer.drain()
            writer.close()
            seats = httpx.get(f"{a.url}/api/tables/{table_id}", timeout=30).json()["seats"]
            assert seats[1]["kind"] == "open"  # nothing was passed on
            return answer, time.monotonic() - started

        answer, waited = run_async(trickle())
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert waited < 10
    finally:
        a.stop()
        b.stop()


class SlowTakeover:
    """The storage as one process's claim sees it, its owner number given ``delay``
    seconds late (a busy pool, a paused process)."""

    def __init__(self, inner: PostgresStorage, delay: float) -> None:
        self.inner, self.delay = inner, delay

    async def take_table(self, table_id: str) -> int:
        await asyncio.sleep(self.delay)
        return await self.inner.take_table(table_id)


def fenced_cluster(redis_url: str, port: int, storage: PostgresStorage, table_id: str
                   ) -> Cluster:
    """A :class:`Cluster` whose table manager is a :class:`FakeManager`, fencing the
    writes of ``storage`` as ``Cluster.start`` does."""
    cluster = Cluster(redis_url, f"http://127.0.0.1:{port}")
    cluster.manager = cast(Any, FakeManager({table_id}))
    cluster._fenced = storage
    storage.fence_of = cluster.fences.get
    storage.fence_refused = cluster.refence
    return cluster


def test_a_takeover_that_stalls_past_its_lease_leaves_the_table_to_the_next_owner(
        database: str, redis_url: str) -> None:
    """A process whose owner number came after its lease had run out raised the number
    past that of the process that took the table meanwhile: it claimed a table it did not
    hold, and the other, holding the lease, had every write refused for good."""
    from gametable.server.storage import OwnerChanged  # noqa: PLC0415
    from gametable.server.tables import new_table_id  # noqa: PLC0415

    table_id = new_table_id()

    async def run() -> tuple[bool, bool, int, int]:
        setup = PostgresStorage(database)
        await setup.create_table(TableRow(
            id=table_id, game="sequence-cats", config={"rules_version": 2}, seed=1,
            host_hash="h", created=0.0, seats=[SeatRow(0, "human"), SeatRow(1, "open")]))
        storages = [PostgresStorage(database), PostgresStorage(database)]
        a, b = (fenced_cluster(redis_url, port, storage, table_id)
                for port, storage in zip((1, 2), storages, strict=True))
        try:
            a._fenced = cast(Any, SlowTakeover(storages[0], a.lease_seconds + 0.3))
            late = asyncio.create_task(a.claim(table_id))
            await asyncio.sleep(a.lease_seconds + 0.1)  # a's lease ran out in Redis
            assert await b.claim(table_id) and b.fences == {table_id: 1}
            claimed = await late  # a's number, 2, is stored now
            refused = 0
            for _ in range(2):
                try:
                    await storages[1].save_seat(
                        table_id, SeatRow(1, "human", name="Bea", token_hash="x"))
                except OwnerChanged:
                    refused += 1
            row = setup.load_table(table_id)
            assert row is not None and row.seats[1].name == "Bea"
            return claimed, a.holds(table_id), refused, b.fences[table_id]
        finally:
            for cluster in (a, b):
                await cluster.stop()
            for storage in (*storages, setup):
                storage.close()

    claimed, a_holds, refused, number = run_async(run())
    assert (claimed, a_holds) == (False, False)
    assert refused == 1  # the write the late number refused; the next one is stored
    assert number == 3


def test_the_log_names_no_table_id_nor_the_redis_password(
        database: str, redis_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """A table's id is its invite link, and the Redis URL may hold a password: a start
    that cannot reach Redis, and a takeover held up by a stalled write, named them."""
    import logging  # noqa: PLC0415

    from gametable.server.logname import log_name  # noqa: PLC0415
    from gametable.server.tables import new_table_id  # noqa: PLC0415
    from tests.services import free_port  # noqa: PLC0415

    table_id = new_table_id()

    async def run() -> str:
        unreachable = Cluster(f"redis://:hunter2-secret@127.0.0.1:{free_port()}/0",
                              "http://127.0.0.1:1")
        try:
            await unreachable.start(cast(Any, FakeManager()), [])
        except ClusterError as error:
            started = str(error)
        else:
            started = "started"
        setup = PostgresStorage(database)
        await setup.create_table(TableRow(
            id=table_id, game="sequence-cats", config={"rules_version": 2}, seed=1,
            host_hash="h", created=0.0, seats=[SeatRow(0, "human"), SeatRow(1, "open")]))
        storage = PostgresStorage(database)
        cluster = fenced_cluster(redis_url, 1, storage, table_id)
        try:
            await cluster.redis.sadd(TABLES, table_id)
            # An earlier owner's write whose database link stalled holds the table's row.
            with psycopg.connect(database) as stalled:
                stalled.execute("SELECT 1 FROM game_tables WHERE id = %s FOR UPDATE",
                                (table_id,))
                with caplog.at_level(logging.INFO, logger="gametable"):
                    await cluster.take_over()
        finally:
            await cluster.stop()
            storage.close()
            setup.close()
        return started

    started = run_async(run())
    assert started.startswith("Redis at redis://:***@127.0.0.1:") and "hunter2" not in started
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert log_name(table_id) in logged
    assert table_id not in logged


def test_a_move_at_a_process_that_lost_the_table_s_lease_says_the_table_moved(
        tmp_path: Path) -> None:
    """It was refused as ``shutting_down``: "The server is restarting", though nothing
    restarted."""
    from gametable.server.refused import Refused  # noqa: PLC0415
    from gametable.server.storage import SQLiteStorage  # noqa: PLC0415
    from gametable.server.tables import SeatRequest, TableManager  # noqa: PLC0415

    async def run() -> tuple[Refused, int]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=60)
        try:
            table, _host, seat, _token = await manager.create(
                "triominos", {}, [SeatRequest("human"), SeatRequest("human")], "Anna")
            assert seat is not None
            manager.fence = lambda _table_id: False  # its lease went to another process
            first = sorted(table.game.to_act(table.state))[0]
            try:
                await manager.submit(table, first,
                                     table.game.legal_actions(table.state, first)[0])
            except Refused as refusal:
                return refusal, table.version
            raise AssertionError("the move was taken")
        finally:
            await manager.stop()
            storage.close()

    refusal, version = run_async(run())
    assert (refusal.code, refusal.status, refusal.key) == (
        "table_moved", 503, "server.errors.table_moved")
    assert version == 0


def test_a_table_whose_lease_ran_out_here_is_loaded_again_and_plays_on(
        database: str, redis_url: str) -> None:
    """A renewal that reached Redis but answered late let the process's own deadline pass
    while Redis still gave it the lease: a computer player's move was refused as
    ``table_moved`` and it stopped; the next renewal kept the lease, so the table stayed
    in memory with nobody to move and no client told to reconnect. A table of computer
    players only stopped for good."""
    from gametable.server.tables import SeatRequest, TableManager  # noqa: PLC0415

    async def run() -> tuple[int, int, bool]:
        storage = PostgresStorage(database)
        manager = TableManager(storage, bot_delay=0.05, secret=b"k" * 32)
        cluster = Cluster(redis_url, "http://127.0.0.1:1")
        await cluster.start(manager, [])
        try:
            table, *_ = await manager.create(
                "triominos", {}, [SeatRequest("bot", "random")] * 2, None, client="10.0.0.9")
            await asyncio.sleep(0.5)
            cluster.held[table.id] = time.monotonic() - 0.01  # its deadline here passed
            await asyncio.sleep(0.3)
            stopped = table.version
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                again = manager.tables.get(table.id)
                if again is not None and again is not table and again.version > stopped:
                    return stopped, again.version, cluster.holds(table.id)
                await asyncio.sleep(0.2)
            return stopped, table.version, cluster.holds(table.id)
        finally:
            await cluster.stop()
            await manager.stop()
            storage.close()

    stopped, version, holds = run_async(run())
    assert version > stopped and holds, (stopped, version)


def test_a_table_whose_lease_ran_out_while_a_renewal_waited_is_loaded_again(
        database: str, redis_url: str) -> None:
    """A renewal that waited long for Redis (a busy machine) let the process's own
    deadline for a lease pass while it waited: a computer player's move was refused as
    ``table_moved`` meanwhile, and its turn ended. Redis then renewed the lease, and the
    renewal extended it, so neither of its checks for a lease run out saw this one: the
    table stayed in memory with nobody to move, and a table of computer players only
    stopped for good, with nothing logged. The renewal now leaves such a lease run out,
    and the table is dropped and loaded again, its players woken."""
    from gametable.server.tables import SeatRequest, TableManager  # noqa: PLC0415

    async def run() -> tuple[int, int, bool, bool]:
        storage = PostgresStorage(database)
        manager = TableManager(storage, bot_delay=0.05, secret=b"k" * 32)
        cluster = Cluster(redis_url, "http://127.0.0.1:1")
        await cluster.start(manager, [])
        try:
            table, *_ = await manager.create(
                "triominos", {}, [SeatRequest("bot", "random")] * 2, None, client="10.0.0.9")
            await asyncio.sleep(0.5)
            real = cluster._renew
            waited: list[bool] = []

            async def slow_renewal(*, keys: list[str], args: list[Any]) -> Any:
                found = await real(keys=keys, args=args)
                if not waited and OWNER + table.id in keys:
                    waited.append(True)
                    # The answer is late: this process's deadline passes meanwhile, and
                    # the computer player's next move is refused.
                    cluster.held[table.id] = time.monotonic() - 0.01
                    await asyncio.sleep(0.3)
                return found

            cluster._renew = slow_renewal  # type: ignore[assignment]
            while not waited:
                await asyncio.sleep(0.05)
            stopped = table.version
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                again = manager.tables.get(table.id)
                if again is not None and again is not table and again.version > stopped:
                    return stopped, again.version, cluster.holds(table.id), True
                await asyncio.sleep(0.2)
            return stopped, table.version, cluster.holds(table.id), False
        finally:
            await cluster.stop()
            await manager.stop()
            storage.close()

    stopped, version, holds, reloaded = run_async(run())
    assert reloaded and version > stopped and holds, (stopped, version)


def test_a_table_dropped_here_as_its_lease_ran_out_is_taken_over_again(
        database: str, redis_url: str) -> None:
    """A move whose storing failed reloads the table (the stored record is the truth);
    when the process's lease had just run out, it dropped the table without loading it
    again. The next renewal then found the table not in memory and forgot it: its lease
    was given back and it was no longer noted to be taken over, so a table of computer
    players only stopped for good. Such a table now stays noted, and the takeover sweep
    loads it again with its players."""
    from gametable.server.tables import SeatRequest, TableManager  # noqa: PLC0415

    async def run() -> tuple[int, int, bool]:
        storage = PostgresStorage(database)
        manager = TableManager(storage, bot_delay=0.05, secret=b"k" * 32)
        cluster = Cluster(redis_url, "http://127.0.0.1:1")
        await cluster.start(manager, [])
        try:
            table, *_ = await manager.create(
                "triominos", {}, [SeatRequest("bot", "random")] * 2, None, client="10.0.0.9")
            await asyncio.sleep(0.5)
            cluster.held[table.id] = time.monotonic() - 0.01  # its deadline here passed
            manager._reload(table)  # as a move that could not be stored does
            stopped = table.version
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                again = manager.tables.get(table.id)
                if again is not None and again is not table and again.version > stopped:
                    return stopped, again.version, True
                await asyncio.sleep(0.2)
            return stopped, table.version, False
        finally:
            await cluster.stop()
            await manager.stop()
            storage.close()

    stopped, version, reloaded = run_async(run())
    assert reloaded and version > stopped, (stopped, version)


@contextlib.asynccontextmanager
async def two_processes(database: str, redis_url: str) -> AsyncIterator[
        tuple[list[PostgresStorage], tuple[Any, Any], list[Cluster]]]:
    """Two server processes, A and B, on one PostgreSQL database and one Redis: their
    storages, table managers and clusters (stopped and closed at the end)."""
    from gametable.server.tables import TableManager  # noqa: PLC0415

    storages = [PostgresStorage(database), PostgresStorage(database)]
    a, b = (TableManager(storage, bot_delay=60, secret=b"k" * 32) for storage in storages)
    clusters = [Cluster(redis_url, f"http://127.0.0.1:{port}") for port in (1, 2)]
    await clusters[0].start(a, [])
    await clusters[1].start(b, [])
    try:
        yield storages, (a, b), clusters
    finally:
        for cluster in clusters:
            await cluster.stop()
        for manager in (a, b):
            await manager.stop()
        for storage in storages:
            storage.close()


def joined_after(manager: Any, join: Coroutine[Any, Any, None]) -> None:
    """Have ``manager``'s next expiry sweep run ``join`` (in the event loop, to its end)
    right after it found the waiting tables, before it takes their leases."""
    loop = asyncio.get_running_loop()
    finding = manager.storage.waiting_before

    def found_then_joined(created: float) -> Any:
        found = finding(created)
        asyncio.run_coroutine_threadsafe(join, loop).result(timeout=30)
        return found

    manager.storage.waiting_before = found_then_joined


def test_a_table_joined_at_another_process_as_it_expires_here_plays_on(
        database: str, redis_url: str) -> None:
    """Expiring a waiting table looked up who held its lease, then wrote the expiry: a
    person who joined it at another process in between, and began the game, found it
    expired ("its seats were not all taken within 48 hours") once it was loaded again.
    Only the lease's holder expires a table, and the write checks that it still waits."""
    from gametable.server.refused import Refused  # noqa: PLC0415
    from gametable.server.tables import SeatRequest  # noqa: PLC0415

    async def run() -> tuple[int, float | None, int, str]:
        async with two_processes(database, redis_url) as (storages, (a, b), clusters):
            table, *_ = await a.create(
                "triominos", {}, [SeatRequest("human"), SeatRequest("human")], "Anna",
                client="10.0.0.1")
            # Two days on, nobody uses it at A: it left memory and A gave its lease back.
            a.unload(table.id)
            await clusters[0]._give_back(table.id, forget=False)
            async def join_at_b() -> None:
                # Bea joins at B (which takes the lease, as a request routed there does)
                # and makes the first move, after A found the table waiting.
                assert await clusters[1].route(table.id) is None
                await b.join(table.id, None, "Bea")
                there = await b.get(table.id)
                first = sorted(there.game.to_act(there.state))[0]
                await b.submit(there, first, there.game.legal_actions(there.state, first)[0])

            joined_after(a, join_at_b())
            expired = await a.expire_waiting(now=time.time() + 49 * 3600)
            row = storages[0].load_table(table.id)
            assert row is not None
            b.unload(table.id)
            try:
                status = (await b.get(table.id)).status
            except Refused as refusal:
                status = refusal.code
            return expired, row.expired, len(row.actions), status

    expired, when, actions, status = run_async(run())
    assert (expired, when, actions, status) == (0, None, 1, "playing")


def test_a_table_whose_open_seat_was_taken_at_another_process_as_it_expires_here_waits_on(
        database: str, redis_url: str) -> None:
    """A's sweep found a table of three seats waiting; Bea joined one of its two open
    seats at B before A held the lease. A still expired it (it still had a seat open),
    under her: her join had been answered 200, and the table answered 410. The expiry
    is written only while no seat changed hands since the sweep found the table."""
    from gametable.server.refused import Refused  # noqa: PLC0415
    from gametable.server.tables import SeatRequest  # noqa: PLC0415

    async def run() -> tuple[int, float | None, list[str], str]:
        async with two_processes(database, redis_url) as (storages, (a, b), clusters):
            table, *_ = await a.create("triominos", {}, [SeatRequest("human")] * 3, "Anna",
                                       client="10.0.0.1")
            a.unload(table.id)
            await clusters[0]._give_back(table.id, forget=False)
            async def join_at_b() -> None:
                assert await clusters[1].route(table.id) is None
                await b.join(table.id, None, "Bea")
                b.unload(table.id)  # B leaves it (idle) and gives its lease back
                await clusters[1]._give_back(table.id, forget=False)

            joined_after(a, join_at_b())
            expired = await a.expire_waiting(now=time.time() + 49 * 3600)
            row = storages[0].load_table(table.id)
            assert row is not None
            assert await clusters[0].route(table.id) is None  # Bea comes back through A
            try:
                status = (await a.get(table.id)).status
            except Refused as refusal:
                status = refusal.code
            return expired, row.expired, [s.kind for s in row.seats], status

    assert run_async(run()) == (0, None, ["human", "human", "open"], "waiting")


def test_the_leases_an_expiry_took_are_given_back_as_it_ends(
        database: str, redis_url: str) -> None:
    """A sweep that expired many waiting tables kept their leases until a renewal gave
    them back one by one, long enough for this process's live tables' leases to run out
    meanwhile. They are given back as the expiry ends, and the expired tables are no
    longer noted to be taken over; the leases held before stay held."""
    from gametable.server.tables import SeatRequest, TableManager  # noqa: PLC0415

    async def run() -> tuple[int, list[str | None], set[str], set[str], bool]:
        storage = PostgresStorage(database)
        manager = TableManager(storage, bot_delay=60, secret=b"k" * 32)
        cluster = Cluster(redis_url, "http://127.0.0.1:1")
        await cluster.start(manager, [])
        try:
            waiting = []
            for _ in range(3):
                table, *_ = await manager.create(
                    "triominos", {}, [SeatRequest("human")] * 2, "Anna", client="10.0.0.1")
                manager.unload(table.id)
                await cluster._give_back(table.id, forget=False)
                waiting.append(table.id)
            live, *_ = await manager.create(
                "triominos", {}, [SeatRequest("human"), SeatRequest("bot", "random")],
                "Bo", client="10.0.0.2")
            expired = await manager.expire_waiting(now=time.time() + 49 * 3600)
            owners = [await cluster.owner(t) for t in waiting]
            noted = {str(t) for t in await cluster.redis.smembers(TABLES)}
            return expired, owners, set(cluster.held), noted & set(waiting), \
                cluster.holds(live.id)
        finally:
            await cluster.stop()
            await manager.stop()
            storage.close()

    expired, owners, held, noted, live_held = run_async(run())
    assert (expired, owners, noted, live_held) == (3, [None] * 3, set(), True)
    assert len(held) == 1


def test_a_renewal_keeps_the_live_leases_however_many_unused_ones_it_gives_back(
        redis_url: str) -> None:
    """Unused leases were given back one command at a time before the live ones were
    renewed: with 800 of them and a Redis 3 ms away, the renewal came after the live
    table's lease had run out here, and the table was dropped. The live leases are
    renewed first, the unused ones given back in one command."""
    async def run() -> tuple[bool, list[str], int]:
        redis.Redis.from_url(redis_url).flushall()
        cluster = Cluster(redis_url, "http://127.0.0.1:1")
        manager = FakeManager()
        cluster.manager = cast(Any, manager)
        try:
            idle = [f"idle-{n}" for n in range(800)]
            for table_id in ["live", *idle]:
                assert await cluster.claim(table_id)
            manager.tables["live"] = object()
            manager.unloaded.clear()  # (a claim drops any copy it finds)
            long_ago = time.monotonic() - 10
            for table_id in idle:
                cluster._claimed[table_id] = long_ago
            cluster.held["live"] = time.monotonic() + 1.0  # renewed 1.5 s ago
            command: Any = cluster.redis.execute_command

            async def far(*args: Any, **options: Any) -> Any:
                await asyncio.sleep(0.003)
                return await command(*args, **options)

            cluster.redis.execute_command = far  # type: ignore[method-assign]
            await cluster.renew()
            cluster.redis.execute_command = command  # type: ignore[method-assign]
            left = sum([await cluster.redis.exists(OWNER + t) for t in idle])
            return cluster.holds("live"), manager.unloaded, left
        finally:
            await cluster.stop()

    assert run_async(run()) == (True, [], 0)


def test_a_lease_lost_here_is_given_back_so_its_table_is_taken_over_at_once(
        redis_url: str) -> None:
    """A lease that ran out here (its renewal came too late) while Redis still had it
    as this process's stayed there until it expired: the takeover sweep waited for it,
    and a waiting table's lease of an expiry that ran late went through the takeover
    sweep. The renewal gives it back; a table that was in memory stays noted to be
    taken over, one that was not is forgotten."""
    async def run() -> tuple[list[str | None], set[str], list[str]]:
        redis.Redis.from_url(redis_url).flushall()
        cluster = Cluster(redis_url, "http://127.0.0.1:1")
        manager = FakeManager()
        cluster.manager = cast(Any, manager)
        try:
            for table_id in ("running", "left"):
                assert await cluster.claim(table_id)
                cluster.held[table_id] = time.monotonic() - 0.1  # ran out here
            manager.tables["running"] = object()
            manager.unloaded.clear()  # (a claim drops any copy it finds)
            await cluster.renew()
            owners = [await cluster.owner(t) for t in ("running", "left")]
            noted = {str(t) for t in await cluster.redis.smembers(TABLES)}
            return owners, noted, manager.unloaded
        finally:
            await cluster.stop()

    owners, noted, unloaded = run_async(run())
    assert (owners, noted) == ([None, None], {"running"})
    assert sorted(unloaded) == ["left", "running"]


def test_a_takeover_leaves_computer_only_tables_past_max_bot_tables_to_other_processes(
        database: str, redis_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """After every process restarted, the first one up took every table over, computer-
    only ones far past its ``--max-bot-tables`` (90 against a cap of 40), and the
    processes that started after it ran none. A sweep now takes computer-only tables only
    while the process has room; the others are left to the next process, and while every
    process is full they wait, each taken as soon as one has room. A table where a person
    sits is taken over at once, cap or not."""
    from gametable.server.caps import Caps  # noqa: PLC0415
    from gametable.server.tables import TableManager  # noqa: PLC0415
    from tests.server.test_clock import until  # noqa: PLC0415

    bots = [f"bots{n}" for n in range(5)]

    async def run() -> None:
        setup = PostgresStorage(database)
        for table_id in bots:
            await setup.create_table(TableRow(
                id=table_id, game="sequence-cats", config={"rules_version": 2}, seed=1,
                host_hash="h", created=0.0,
                seats=[SeatRow(0, "bot", "easy"), SeatRow(1, "bot", "easy")]))
        await setup.create_table(TableRow(
            id="person", game="sequence-cats", config={"rules_version": 2}, seed=1,
            host_hash="h", created=0.0,
            seats=[SeatRow(0, "human", None, "Ann", "x"), SeatRow(1, "bot", "easy")]))
        assert setup.bots_only(["person", *bots, "no-such-table"]) == set(bots)
        setup.close()
        storages = [PostgresStorage(database), PostgresStorage(database)]
        a, b = (TableManager(storage, bot_delay=60, secret=b"k" * 32,
                             caps=Caps(bot_tables=2)) for storage in storages)
        clusters = [Cluster(redis_url, f"http://127.0.0.1:{port}") for port in (1, 2)]
        try:
            caplog.set_level(logging.INFO, logger="gametable.cluster")
            await clusters[0].start(a, ["person", *bots])  # the first process up
            await until(lambda: "person" in a.tables and len(a.tables) == 3)
            await until(lambda: clusters[0].waiting_for_room == 3)
            assert a.bot_room() == 0 and len(clusters[0].held) == 3
            assert ("3 computer-only tables without an owner left for other processes: "
                    "this one runs its most (--max-bot-tables 2)") in caplog.text
            assert all(owner_url(redis_url, t) is None for t in bots if t not in a.tables)
            await clusters[1].start(b, [])  # the next one takes what the first left
            await until(lambda: len(b.tables) == 2)
            await until(lambda: clusters[0].waiting_for_room == 1
                        and clusters[1].waiting_for_room == 1)
            left = [t for t in bots if t not in a.tables and t not in b.tables]
            assert len(left) == 1 and owner_url(redis_url, left[0]) is None
            a.caps.bot_tables = 3  # room at last (a game ended there, say)
            await until(lambda: left[0] in a.tables)
            await until(lambda: clusters[0].waiting_for_room == 0)
            assert len(a.tables) == 4 and len(b.tables) == 2
            assert "no computer-only table waits for room here any more" in caplog.text
        finally:
            for cluster in clusters:
                await cluster.stop()
            for manager in (a, b):
                await manager.stop()
            for storage in storages:
                storage.close()

    run_async(run())
