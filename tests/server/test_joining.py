"""A process of a cluster started with another Redis or another database than the
cluster's is refused at start (server/joining.py; docs/deploy.md, "Several processes").
Both mistakes were let in: with another Redis, the two groups took the same tables over
and every append failed, so play stopped; with another database, tables that were
playing answered 404 and orphaned tables were taken off the cluster's list."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.aio import run_async
from tests.server.conftest import LiveServer
from tests.services import RedisServer, free_port, redis_server

pytest.importorskip("psycopg")
redis = pytest.importorskip("redis")

from prometheus_client import CollectorRegistry  # noqa: E402

from gametable.server.cluster import Cluster, ClusterError  # noqa: E402
from gametable.server.databaselock import DatabaseLock  # noqa: E402
from gametable.server.joining import PROCESS, SESSIONS, STORAGE  # noqa: E402

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def redis_one() -> Iterator[RedisServer]:
    with redis_server() as running:
        yield running


@pytest.fixture(scope="module")
def redis_two() -> Iterator[RedisServer]:
    with redis_server() as running:
        yield running


@pytest.fixture(autouse=True)
def empty_redis(redis_one: RedisServer, redis_two: RedisServer) -> None:
    for server in (redis_one, redis_two):
        redis.Redis.from_url(server.url).flushall()


class FakeManager:
    """What :meth:`Cluster.start` asks of a table manager."""

    def __init__(self) -> None:
        self.tables: dict[str, object] = {}
        self.loading: set[str] = set()
        self.load_failed: set[str] = set()
        self.storage = SimpleNamespace(load_tables=lambda active_only=False: [])
        self.metrics = SimpleNamespace(registry=CollectorRegistry())

    def bot_room(self) -> int | None:
        return None  # no --max-bot-tables


def Manager() -> Any:  # noqa: N802 (made as a class would be)
    return FakeManager()


def cluster(redis_url: str, port: int) -> Cluster:
    made = Cluster(redis_url, f"http://127.0.0.1:{port}")
    made.join_wait_seconds = 1.0
    return made


def test_a_process_on_the_clusters_database_with_another_redis_is_refused(
        url: str, redis_one: RedisServer, redis_two: RedisServer) -> None:
    """The database's lock is held by sessions none of which is noted in the new
    process's Redis: refused, naming them, and its own session is not left noted. A
    process with the cluster's Redis joins, as one does after Redis lost its keys (the
    processes note their sessions again with their next renewal)."""
    locks: list[DatabaseLock] = []

    def lock() -> DatabaseLock:
        locks.append(DatabaseLock.take(url, shared=True))
        return locks[-1]

    async def run() -> None:
        first, wrong, right, after = (cluster(server.url, port) for server, port in (
            (redis_one, 1), (redis_two, 2), (redis_one, 3), (redis_one, 4)))
        await first.start(Manager(), [], storage_id="db", sessions=lock())
        with pytest.raises(ClusterError) as refused:
            await wrong.start(Manager(), [], storage_id="db", sessions=lock())
        said = str(refused.value)
        assert "gametable servers sharing another Redis (gametable serve (pid" in said, said
        assert "start this one with their --redis, or with another --database" in said
        assert redis.Redis.from_url(redis_two.url).smembers(SESSIONS) == set()
        await right.start(Manager(), [], storage_id="db", sessions=lock())
        redis.Redis.from_url(redis_one.url).flushall()  # Redis restarted without its keys
        await first.renew()
        await after.start(Manager(), [], storage_id="db", sessions=lock())
        for each in (first, wrong, right, after):
            await each.stop()

    try:
        run_async(run())
    finally:
        for held in locks:
            held.release()


def test_a_process_that_hangs_keeps_its_cluster_known_to_a_process_joining(
        url: str, redis_one: RedisServer) -> None:
    """A process stopped (SIGSTOP) keeps its database session but renews nothing: a
    process joining beside it alone is not taken for one of another Redis."""
    locks = [DatabaseLock.take(url, shared=True)]

    async def run() -> None:
        first, second = cluster(redis_one.url, 1), cluster(redis_one.url, 2)
        await first.start(Manager(), [], sessions=locks[0])
        for task in first._tasks:  # it hangs: no renewal from now on
            task.cancel()
        redis.Redis.from_url(redis_one.url).delete(PROCESS + first.id)  # expired
        locks.append(DatabaseLock.take(url, shared=True))
        await second.start(Manager(), [], sessions=locks[1])
        await second.stop()

    try:
        run_async(run())
    finally:
        for lock in locks:
            lock.release()


def test_a_process_joins_beside_an_older_gametable_that_notes_no_session(
        url: str, redis_one: RedisServer) -> None:
    """A gametable from before sessions were noted holds the database's lock and beats
    its heartbeat in this Redis: it is of the cluster, and the new process joins."""
    older = DatabaseLock.take(url, shared=True)
    redis.Redis.from_url(redis_one.url).set(PROCESS + "older", "http://127.0.0.1:9",
                                             px=60_000)
    new = DatabaseLock.take(url, shared=True)

    async def run() -> None:
        joining = cluster(redis_one.url, 1)
        joining.join_wait_seconds = 0.0
        await joining.start(Manager(), [], storage_id="db", sessions=new)
        await joining.stop()

    try:
        run_async(run())
    finally:
        older.release()
        new.release()


def test_a_process_with_the_clusters_redis_and_another_database_is_refused(
        redis_one: RedisServer) -> None:
    """Redis notes the cluster's database; a process on another is refused while
    processes of the cluster are alive, and taken as the cluster's once none is (the
    cluster moved to a new database)."""

    async def run() -> None:
        client = redis.Redis.from_url(redis_one.url, decode_responses=True)
        first, other, same = (cluster(redis_one.url, port) for port in (1, 2, 3))
        await first.start(Manager(), [], storage_id="database-a")
        await first.renew()  # its heartbeat
        with pytest.raises(ClusterError) as refused:
            await other.start(Manager(), [], storage_id="database-b")
        said = str(refused.value)
        assert "the 1 gametable process sharing Redis at redis://127.0.0.1:" in said, said
        assert "uses another database than this one: start this one with their " \
               "--database" in said, said
        assert client.get(STORAGE) == "database-a"
        await same.start(Manager(), [], storage_id="database-a")
        client.flushall()  # Redis restarted without its keys: noted again
        await first.take_over()
        assert client.get(STORAGE) == "database-a"
        await first.stop()
        await same.stop()
        moved = cluster(redis_one.url, 4)
        await moved.start(Manager(), [], storage_id="database-b")
        assert client.get(STORAGE) == "database-b"
        await moved.stop()

    run_async(run())


def test_the_storages_identity_is_kept_and_each_database_has_its_own(
        postgres: Any, tmp_path: Path) -> None:
    from gametable.server.postgres import PostgresStorage  # noqa: PLC0415
    from gametable.server.storage import SQLiteStorage  # noqa: PLC0415

    one, two = postgres.database(), postgres.database()
    names = []
    for opened in (lambda: PostgresStorage(one), lambda: PostgresStorage(one),
                   lambda: PostgresStorage(two),
                   lambda: SQLiteStorage(tmp_path / "a.sqlite3"),
                   lambda: SQLiteStorage(tmp_path / "a.sqlite3"),
                   lambda: SQLiteStorage(tmp_path / "b.sqlite3")):
        storage = opened()
        try:
            names.append(storage.identity())
        finally:
            storage.close()
    assert names[0] == names[1] and names[3] == names[4]
    assert len({names[0], names[2], names[3], names[5]}) == 4
    assert all(len(name) == 32 for name in names)


def serve(tmp_path: Path, database: str, redis_url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gametable", "serve", "--port", str(free_port()),
         "--data-dir", str(tmp_path / "data"), "--database", database, "--redis",
         redis_url], capture_output=True, text=True, timeout=120, check=False)


def test_gametable_serve_refuses_another_redis_or_another_database_in_a_line(
        tmp_path: Path, postgres: Any, redis_one: RedisServer,
        redis_two: RedisServer) -> None:
    """Through ``gametable serve`` as an operator starts it: exit status 3, one line,
    and the cluster's process serves on."""
    database, other = postgres.database(), postgres.database()
    first = LiveServer(data_dir=tmp_path / "data", bot_delay=0.0,
                       options=["--no-rate-limits", "--database", database,
                                "--redis", redis_one.url])
    first.start()
    try:
        for done, expected in (
                (serve(tmp_path, other, redis_one.url), "uses another database"),
                (serve(tmp_path, database, redis_two.url), "sharing another Redis")):
            said = done.stdout + done.stderr
            assert done.returncode == 3, said
            assert "the server cannot start: " in said and expected in said, said
            assert "Traceback" not in said, said
        assert first.process is not None and first.process.poll() is None
        import httpx  # noqa: PLC0415

        assert httpx.get(first.url + "/readyz", timeout=10).status_code == 200
    finally:
        first.stop()


def test_a_process_not_answering_at_its_advertise_address_is_not_ready_and_says_why(
        tmp_path: Path, postgres: Any, redis_one: RedisServer) -> None:
    """A mistyped ``--advertise`` was let in: the process was ready, and its tables
    answered 503 through every other process. It is not ready (``advertise``), and logs
    why, until it answers there; a process whose address is right is ready."""
    import httpx  # noqa: PLC0415

    database = postgres.database()
    wrong = LiveServer(data_dir=tmp_path / "data", bot_delay=0.0, name="wrong",
                       options=["--database", database, "--redis", redis_one.url,
                                "--advertise", f"http://127.0.0.1:{free_port()}"])
    right = LiveServer(data_dir=tmp_path / "data", bot_delay=0.0, name="right",
                       options=["--database", database, "--redis", redis_one.url])
    wrong.start()
    right.start()
    try:
        deadline = time.monotonic() + 30
        while "--advertise address" not in wrong.log.read_text() and \
                time.monotonic() < deadline:
            time.sleep(0.2)
        answer = httpx.get(wrong.url + "/readyz", timeout=10)
        assert answer.status_code == 503 and answer.json()["status"] == "advertise"
        said = wrong.log.read_text()
        assert "this process cannot reach itself at its --advertise address " \
               "http://127.0.0.1:" in said, said
        assert "it is not ready and takes no table over" in said, said
        assert httpx.get(right.url + "/readyz", timeout=10).status_code == 200
    finally:
        wrong.stop()
        right.stop()


def test_a_process_that_migrated_the_database_warns_of_older_processes_still_serving(
        redis_one: RedisServer, caplog: pytest.LogCaptureFixture) -> None:
    """docs/deploy.md says to stop every process before an upgrade; a new process
    migrated the database while an old one served, and nothing was logged. The
    heartbeat notes the newest schema each process's gametable knows."""
    client = redis.Redis.from_url(redis_one.url, decode_responses=True)
    client.set(PROCESS + "old", "http://127.0.0.1:9", px=60_000)  # before schemas were noted
    client.set(PROCESS + "older", "http://127.0.0.1:8 9", px=60_000)
    client.set(PROCESS + "same", "http://127.0.0.1:7 10", px=60_000)

    async def run() -> str | None:
        new = cluster(redis_one.url, 1)
        await new.start(Manager(), [], schema=10)
        await new.renew()
        noted = client.get(PROCESS + new.id)
        await new.stop()
        return noted

    with caplog.at_level("WARNING", logger="gametable.cluster"):
        assert run_async(run()) == "http://127.0.0.1:1 10"
    said = [record.getMessage() for record in caplog.records if "older" in record.getMessage()]
    assert said == ["cluster: 2 processes of an older gametable (http://127.0.0.1:8, "
                    "http://127.0.0.1:9) serve this database, now at schema 10: stop every "
                    "process before an upgrade (docs/deploy.md)"], said


def test_a_loopback_advertise_address_beside_others_that_are_not_is_warned_of(
        redis_one: RedisServer, caplog: pytest.LogCaptureFixture) -> None:
    """On several machines, the default ``--advertise`` (loopback) is reached from its
    own machine only; it passes the process's check of itself. A process whose address
    is loopback while the others' are not (or the other way round) says so at start."""
    from gametable.server.joining import loopback_mixed  # noqa: PLC0415

    assert loopback_mixed("http://127.0.0.1:8001", [("http://10.0.0.5:8001", 10)]) == [
        "http://10.0.0.5:8001"]
    assert loopback_mixed("http://10.0.0.6:8001", [("http://localhost:8002", 10)]) == [
        "http://localhost:8002"]
    assert loopback_mixed("http://[::1]:8001", [("http://127.0.0.1:8002", None)]) == []
    assert loopback_mixed("http://10.0.0.6:8001", [("http://10.0.0.5:8001", 10)]) == []
    client = redis.Redis.from_url(redis_one.url, decode_responses=True)
    client.set(PROCESS + "there", "http://10.0.0.5:8001 10", px=60_000)

    async def run() -> None:
        new = cluster(redis_one.url, 8002)
        await new.start(Manager(), [], schema=10)
        await new.stop()

    with caplog.at_level("WARNING", logger="gametable.cluster"):
        run_async(run())
    said = [record.getMessage() for record in caplog.records if "loopback" in
            record.getMessage()]
    assert said == ["cluster: this process is reached at http://127.0.0.1:8002, the others "
                    "at http://10.0.0.5:8001: a loopback address is reached from its own "
                    "machine only; on several machines give each process --advertise with "
                    "an address the others reach"], said
