"""Fixtures: the app in-process (TestClient) and the real server in a subprocess."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from gametable.server.app import Settings, create_app
from tests.services import PostgresServer, postgres_server


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app with SQLite in a temporary folder and instant computer players, without
    per-client rate limits (``test_limits`` tests those on their own)."""
    app = create_app(Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none",
                              rates={}))
    with TestClient(app) as test_client:
        yield test_client


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


STARTUP_SECONDS = 120.0
"""How long a server may take to answer its first request: a few seconds on an idle
machine, much more on a loaded one (it only bounds a server that never comes up)."""


@dataclass
class LiveServer:
    """``gametable serve`` running in a subprocess; what it writes to stderr goes to
    :attr:`log` (a file: a pipe nobody reads fills up and stops the server)."""

    data_dir: Path
    bot_delay: float
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    options: list[str] = field(default_factory=list)
    """More ``gametable serve`` options."""
    name: str = ""
    """The log's name (default: the data folder's), for processes sharing a folder."""

    @property
    def log(self) -> Path:
        return self.data_dir.with_name(f"{self.name or self.data_dir.name}-server.log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the server and wait until it answers."""
        self.port = self.port or free_port()
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gametable.cli", "serve", "--port", str(self.port),
                 "--data-dir", str(self.data_dir), "--bot-delay", str(self.bot_delay),
                 *self.options],
                stdout=subprocess.DEVNULL, stderr=log,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        # Until it answers, ask again (a refused connection comes back at once; a slow
        # answer is waited for, up to the same bound).
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text(errors='replace')}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"server did not answer in {STARTUP_SECONDS:.0f} s")
            try:
                httpx.get(f"{self.url}/api/games", timeout=left)
                return
            except httpx.HTTPError:
                time.sleep(0.1)

    def kill(self) -> None:
        """Stop at once, as a crash would (SIGKILL)."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The real server, without per-client rate limits (games come fast from one address)."""
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=0.0, options=["--no-rate-limits"])
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server on loopback for the module's tests (skipped where PostgreSQL
    is not installed, except in CI)."""
    with postgres_server() as running:
        yield running


@pytest.fixture
def url(postgres: PostgresServer) -> str:
    """The URL of a new, empty PostgreSQL database."""
    return postgres.database()
