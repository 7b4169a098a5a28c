"""Database servers on loopback for the tests that need them: PostgreSQL (Debian's
``postgresql`` package) and Redis (``redis-server``), started by the tests themselves in
a temporary folder.

``.ci/run`` (through ``scripts/test``) installs the packages, so in CI (``CI=true``) a
missing server is a failure; elsewhere the tests that need it are skipped, saying why.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def unavailable(what: str) -> None:
    """Fail in CI, skip elsewhere, naming what is missing and how to get it."""
    message = f"{what} (scripts/test installs it with apt-get)"
    if IN_CI:
        pytest.fail(message)
    pytest.skip(message)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PostgresServer:
    """A throwaway PostgreSQL cluster on 127.0.0.1 (trust authentication, user
    ``postgres``). :meth:`database` makes a new empty database and returns its URL."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="gametable-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self._as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self._as_user = ["runuser", "-u", "postgres", "--"]
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        subprocess.run([*self._as_user, *command], check=True, capture_output=True,
                       timeout=120)

    def start(self) -> None:
        self._run(str(self.bin_dir / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "--auth=trust", "--no-instructions", "-E", "UTF8")
        self.resume()

    def pause(self) -> None:
        """Stop the server as an outage would, keeping its data (:meth:`resume`)."""
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "fast",
                  "-w", "stop")

    def resume(self) -> None:
        """Start the server on its data folder and port."""
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-w", "-t", "60",
                  "-l", str(self.folder / "server.log"), "-o",
                  f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1", "start")

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.pause()
        shutil.rmtree(self.folder, ignore_errors=True)

    def database(self) -> str:
        import psycopg  # noqa: PLC0415 (only the tests that need PostgreSQL import it)

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"


@contextlib.contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    """Start a PostgreSQL server for the duration, or skip (fail in CI) without one."""
    bin_dir = _postgres_bin()
    if bin_dir is None:
        unavailable("PostgreSQL is not installed (Debian package postgresql)")
        raise AssertionError  # unreachable: unavailable() raises
    server = PostgresServer(bin_dir)
    try:
        server.start()
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, KeyError) as error:
        server.stop()
        unavailable(f"PostgreSQL did not start: {error}")
    try:
        yield server
    finally:
        server.stop()


class RedisServer:
    """A throwaway Redis on 127.0.0.1 (no persistence), in its own temporary folder."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.folder = Path(tempfile.mkdtemp(prefix="gametable-redis-"))
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        log = (self.folder / "server.log").open("wb")
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.folder), "--save", "", "--appendonly", "no"],
            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError((self.folder / "server.log").read_text(errors="replace"))
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", self.port), timeout=1) as probe:
                probe.sendall(b"PING\r\n")
                if probe.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.05)
        raise RuntimeError("Redis did not answer in 30 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def redis_server() -> Iterator[RedisServer]:
    """Start a Redis server for the duration, or skip (fail in CI) without one."""
    binary = shutil.which("redis-server")
    if binary is None:
        unavailable("Redis is not installed (Debian package redis-server)")
        raise AssertionError  # unreachable: unavailable() raises
    server = RedisServer(binary)
    try:
        server.start()
    except (OSError, RuntimeError) as error:
        server.stop()
        unavailable(f"Redis did not start: {error}")
    try:
        yield server
    finally:
        server.stop()
