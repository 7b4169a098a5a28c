"""One server per PostgreSQL database, or the processes of one cluster
(server/databaselock.py): the lone servers that shared a database with folders of their
own served its tables without fencing."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import LiveServer
from tests.services import PostgresServer, free_port

pytest.importorskip("psycopg")

import psycopg

from gametable.server.databaselock import LOCK_KEY, DatabaseInUse, DatabaseLock
from gametable.server.storage import StorageError

pytestmark = pytest.mark.server


def test_a_database_served_alone_refuses_a_second_server_naming_the_first(url: str
                                                                          ) -> None:
    first = DatabaseLock.take(url)
    with pytest.raises(DatabaseInUse, match=rf"another gametable server \(gametable serve "
                                            rf"\(pid {os.getpid()} on .*\)\) is serving "
                                            r"the PostgreSQL database t_\w+ on 127\.0\.0\.1:"
                                            r"\d+: .*another --database"):
        DatabaseLock.take(url)
    first.release()
    DatabaseLock.take(url).release()  # free again once the first stopped


def test_a_clusters_processes_share_a_database_and_a_lone_server_is_refused(url: str
                                                                            ) -> None:
    one, two = DatabaseLock.take(url, shared=True), DatabaseLock.take(url, shared=True)
    with pytest.raises(DatabaseInUse, match=r"gametable servers sharing Redis .* are "
                                            r"serving the PostgreSQL database .*their --redis"):
        DatabaseLock.take(url)
    one.release()
    two.release()
    alone = DatabaseLock.take(url)
    with pytest.raises(DatabaseInUse, match=r"a gametable server without --redis .* is "
                                            r"serving the PostgreSQL database"):
        DatabaseLock.take(url, shared=True)
    alone.release()


def test_a_lock_just_released_is_taken_by_the_next_server_at_once(url: str) -> None:
    """A session whose client closed it ends a moment later, its lock with it: a lock
    taken right after a release was refused now and then (a server stopped and started
    at once), naming the server that had just stopped."""
    for shared in (False, True, False) * 10:
        DatabaseLock.take(url, shared=shared).release()
    # However long PostgreSQL takes to end the session (longer on a busy machine): a
    # lock freed a moment after the next server asked for it is taken, not refused.
    ending = DatabaseLock.take(url)
    timer = threading.Timer(0.3, ending.release)
    timer.start()
    try:
        DatabaseLock.take(url).release()
    finally:
        timer.join()


def test_the_lock_outlives_an_idle_session_timeout(url: str) -> None:
    """The lock's connection is idle for the server's life: a PostgreSQL whose
    ``idle_session_timeout`` is set ended it, and a second server was let in silently."""
    held = DatabaseLock.take(f"{url}?options=-c%20idle_session_timeout%3D300")
    try:
        time.sleep(1.0)
        with pytest.raises(DatabaseInUse):
            DatabaseLock.take(url)
    finally:
        held.release()


def test_only_the_holders_of_this_database_are_named(postgres: PostgresServer) -> None:
    """Advisory locks are a database's own, but every holder of the key on the server
    was named, those serving other databases too."""
    this, other = postgres.database(), postgres.database()
    with psycopg.connect(other, autocommit=True,
                         application_name="the server of another database") as elsewhere:
        elsewhere.execute("SELECT pg_advisory_lock(%s, %s)", LOCK_KEY)
        first = DatabaseLock.take(this)
        try:
            with pytest.raises(DatabaseInUse) as refused:
                DatabaseLock.take(this)
            assert "another database" not in str(refused.value)
            assert f"pid {os.getpid()}" in str(refused.value)
        finally:
            first.release()


def test_a_database_that_does_not_answer_is_a_storage_error() -> None:
    with pytest.raises(StorageError, match="PostgreSQL: ") as refused:
        DatabaseLock.take(f"postgresql://nobody@127.0.0.1:{free_port()}/nothing")
    assert not isinstance(refused.value, DatabaseInUse)


def test_a_second_lone_server_on_the_database_with_its_own_folder_refuses_to_start(
        tmp_path: Path, url: str) -> None:
    """Both started and served the same tables, each without the other's seats taken:
    two people could be given one seat. The second refuses in one line now."""
    first = LiveServer(data_dir=tmp_path / "a", bot_delay=0.0,
                       options=["--database", url])
    first.start()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "gametable", "serve", "--port", str(free_port()),
             "--data-dir", str(tmp_path / "b"), "--database", url],
            capture_output=True, text=True, timeout=60, check=False)
        said = done.stdout + done.stderr
        assert done.returncode == 3, said
        assert "the server cannot start: another gametable server (gametable serve (pid " \
               f"{first.process.pid if first.process else ''} on" in said, said
        assert "Traceback" not in said and "in your browser" not in said, said
        assert len(said.strip().splitlines()) == 1, said
        with httpx.Client(base_url=first.url, timeout=30) as http:
            assert http.get("/healthz").status_code == 200
    finally:
        first.stop()


def test_the_lock_is_taken_again_once_its_connection_is_back(url: str) -> None:
    """The lock went with its connection when PostgreSQL restarted and was not taken
    again: a lone server started then was let in beside the cluster, and both gave one
    seat to two people. The lock's thread takes it again once the database answers, and
    a lone server is refused again."""
    held = DatabaseLock.take(url, shared=True, check_seconds=0.1)
    try:
        before = held.session()
        assert before is not None
        with psycopg.connect(url, autocommit=True) as admin:  # as a restart would
            admin.execute("SELECT pg_terminate_backend(%s)", (before,))
        deadline = time.monotonic() + 10
        while held.session() in (before, None) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert held.session() not in (before, None)
        with pytest.raises(DatabaseInUse, match="gametable servers sharing Redis"):
            DatabaseLock.take(url)
        other = DatabaseLock.take(url, shared=True)
        assert [holder.session for holder in other.holders()] == [held.session()]
        other.release()
    finally:
        held.release()
    assert held.session() is None
    DatabaseLock.take(url).release()  # released: free again
