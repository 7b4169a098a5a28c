"""Half-sent requests on raw sockets: the real server drops them after its timeouts."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import LiveServer

pytestmark = pytest.mark.server


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=0.0,
                        options=["--header-timeout", "1", "--body-timeout", "1"])
    server.start()
    yield server
    server.stop()


def closed_after(conn: socket.socket, limit: float = 10.0) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and when it did."""
    started = time.monotonic()
    conn.settimeout(limit)
    received = b""
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            return received, time.monotonic() - started
        received += chunk


def test_a_request_whose_headers_never_end_is_dropped(quick_server: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", quick_server.port)) as conn:
        conn.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n")
        received, after = closed_after(conn)
    assert received == b"" and 0.5 <= after <= 5


def test_a_connection_that_sends_nothing_is_dropped(quick_server: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", quick_server.port)) as conn:
        received, after = closed_after(conn)
    assert received == b"" and after <= 5


def test_a_body_that_stops_arriving_is_answered_408_and_dropped(
        quick_server: LiveServer) -> None:
    with socket.create_connection(("127.0.0.1", quick_server.port)) as conn:
        conn.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                     b'{"game": ')
        received, after = closed_after(conn)
    assert received.startswith(b"HTTP/1.1 408") and b"too_slow" in received
    assert after <= 5
    # Whole requests are answered as ever.
    assert httpx.get(f"{quick_server.url}/api/games").status_code == 200


def sent_until_refused(conn: socket.socket, piece: bytes, most: int) -> int:
    """Send ``piece`` until the server stops reading (it closed), at most ``most``
    bytes; how many were sent."""
    sent = 0
    with contextlib.suppress(OSError):
        while sent < most:
            conn.sendall(piece)
            sent += len(piece)
    return sent


@pytest.mark.parametrize("start", [
    b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Endless: ",
    b"GET /api/games?",
])
def test_headers_or_an_address_too_long_are_answered_431_and_dropped(
        quick_server: LiveServer, start: bytes) -> None:
    """One endless header (or address) held memory and stalled the event loop that
    every table shares for seconds at a time: past 64 KiB the request is refused."""
    with socket.create_connection(("127.0.0.1", quick_server.port)) as conn:
        conn.sendall(start)
        sent = sent_until_refused(conn, b"a" * 4096, 16 * 1024 * 1024)
        received, _ = closed_after(conn)
    assert received.startswith(b"HTTP/1.1 431"), received[:80]
    assert sent < 8 * 1024 * 1024
    # A request with large but reasonable headers is served as ever.
    cookie = "x" * 30_000
    assert httpx.get(f"{quick_server.url}/api/games",
                     headers={"X-Big": cookie}).status_code == 200


@pytest.mark.parametrize("pieces", [1, 2])  # past 64 KiB in the last piece
def test_headers_past_64_kib_are_refused_however_they_are_sent(
        quick_server: LiveServer, pieces: int) -> None:
    """70 KB of headers in one or two pieces were served (the piece that ended the
    headers was never counted), in twenty refused: they are refused now. A body sent with the
    headers does not count, and the same connection's next request is counted afresh."""
    head = (b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + b"".join(b"X-Filler-%d: %s\r\n" % (n, b"a" * 990) for n in range(70)) + b"\r\n")
    with socket.create_connection(("127.0.0.1", quick_server.port)) as conn:
        step = -(-len(head) // pieces)
        with contextlib.suppress(OSError):
            for start in range(0, len(head), step):
                conn.sendall(head[start:start + step])
        received, _ = closed_after(conn)
    assert received.startswith(b"HTTP/1.1 431"), received[:80]
    # 10 KB of headers and a 60 KB body (under the bodies' own 64 KiB limit): 70 KB in
    # all, as much as the refused headers above.
    body = b'{"config": {}, "seats": 2}' + b" " * 60_000
    small = (b"POST /api/games/sequence-cats/check HTTP/1.1\r\nHost: 127.0.0.1\r\n"
             b"X-Filler: %s\r\nContent-Type: application/json\r\n"
             b"Content-Length: %d\r\n\r\n" % (b"a" * 10_000, len(body)))
    with socket.create_connection(("127.0.0.1", quick_server.port)) as conn:
        conn.sendall(small + body + small + body)  # two requests, one after the other
        conn.settimeout(10)
        received = b""
        while received.count(b"HTTP/1.1 ") < 2 or not received.endswith(b"}"):
            chunk = conn.recv(65536)
            if not chunk:
                break
            received += chunk
    assert received.count(b"HTTP/1.1 200") == 2, received[:200]
