"""Websocket peers that stop reading, on raw sockets against the real server: they are let
go of, their memory freed, their seat shown away (``server/wsprotocol.py``)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.protocol import State

from gametable.server.main import WS_MAX_FRAME_BYTES
from gametable.server.wsprotocol import BoundedWebSocketProtocol
from tests.aio import run_async
from tests.server.conftest import LiveServer
from tests.server.test_upload_memory import memory_mb

pytestmark = pytest.mark.server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(data_dir=tmp_path / "data", bot_delay=0.0, options=["--no-rate-limits"])
    live.start()
    yield live
    live.stop()


def frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """A client frame (masked, with a zero key: the payload as it is)."""
    first = (0x80 if fin else 0) | opcode
    size = len(payload)
    if size < 126:
        head = bytes([first, 0x80 | size])
    elif size < 65536:
        head = bytes([first, 0x80 | 126]) + struct.pack("!H", size)
    else:
        head = bytes([first, 0x80 | 127]) + struct.pack("!Q", size)
    return head + b"\0\0\0\0" + payload


def raw_socket(server: LiveServer, table: str, receive_buffer: int | None = None
               ) -> socket.socket:
    """A websocket to ``table`` after its handshake, as a plain socket (with a small
    receive buffer, set before connecting, for a peer that reads nothing)."""
    conn = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    conn.settimeout(5)
    conn.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    conn.sendall((f"GET /api/tables/{table}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = conn.recv(1)
        assert chunk, head
        head += chunk
    assert b" 101 " in head.split(b"\r\n")[0], head
    return conn


def two_seat_table(server: LiveServer) -> tuple[str, str]:
    """A Sequence Cats table of two people, both seated: its id and seat 0's token."""
    with httpx.Client(base_url=server.url) as http:
        created = http.post("/api/tables", json={
            "game": "sequence-cats", "config": {}, "name": "Anna",
            "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        table = created["table"]["id"]
        assert http.post(f"/api/tables/{table}/join", json={"name": "Bo"}).status_code == 200
    return table, created["token"]


def seat_connected(server: LiveServer, table: str, seat: int) -> bool:
    info: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table}").json()
    return bool(info["seats"][seat]["connected"])


def wait_until(check: Any, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return bool(check())


def test_a_peer_that_pings_and_never_reads_is_let_go_with_its_memory(
        server: LiveServer) -> None:
    """Every ping was answered with a pong kept for a peer that read nothing: the server
    grew by about 40 MB a second until the peer hung up (200 MB in 5 s), and its seat
    stayed "connected". Now the peer is dropped once 1 MiB waits for it."""
    assert server.process is not None
    table, token = two_seat_table(server)
    before = memory_mb(server.process.pid, "VmRSS")
    conn = raw_socket(server, table, receive_buffer=4096)
    conn.sendall(frame(1, json.dumps({"type": "hello", "token": token}).encode()))
    assert wait_until(lambda: seat_connected(server, table, 0), 5)
    pings = frame(9, b"x" * 125) * 500
    sent, started = 0, time.monotonic()
    with pytest.raises(OSError):  # the server let go: reset, broken pipe or time-out
        while time.monotonic() - started < 10:
            conn.sendall(pings)
            sent += len(pings)
    conn.close()
    assert sent < 60 * 1024 * 1024, sent  # well before the old growth had its fill
    assert memory_mb(server.process.pid, "VmRSS") - before < 40
    assert wait_until(lambda: not seat_connected(server, table, 0), 5)
    # The table goes on: the other seat plays.
    with httpx.Client(base_url=server.url) as http:
        assert http.get("/healthz").status_code == 200


def test_a_message_past_64_kib_closes_the_connection_however_it_is_split(
        server: LiveServer) -> None:
    """A client could hold 1 MiB on each of its connections by never finishing a
    message; the websocket layer now takes at most 64 KiB (1009, "message too big")."""
    table, _ = two_seat_table(server)
    conn = raw_socket(server, table)
    piece = b"x" * (16 * 1024)
    conn.sendall(frame(1, piece, fin=False))
    for _ in range(4):  # 80 KiB in all, never finished
        conn.sendall(frame(0, piece, fin=False))
    received = b""
    with pytest.raises(OSError):  # closed (or, as before, a time-out with nothing)
        while True:
            chunk = conn.recv(4096)
            if not chunk:
                raise ConnectionError("closed")
            received += chunk
    conn.close()
    assert WS_MAX_FRAME_BYTES == 64 * 1024
    assert received[:1] == b"\x88", received[:20]  # a close frame
    assert struct.unpack("!H", received[2:4])[0] == 1009


class Transport:
    """What the protocol writes to, recording whether it was let go of."""

    def __init__(self) -> None:
        self.buffered = 0
        self.closing = False
        self.aborted = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(
            name, default)

    def write(self, data: bytes) -> None:
        self.buffered += len(data)

    def get_write_buffer_size(self) -> int:
        return self.buffered

    def is_closing(self) -> bool:
        return self.closing or self.aborted

    def close(self) -> None:
        self.closing = True  # waits, like asyncio's, to hand over what is buffered

    def abort(self) -> None:
        self.aborted = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def open_protocol() -> tuple[Any, Transport]:
    """The server's websocket protocol on a :class:`Transport`, its handshake done."""
    async def app(scope: Any, receive: Any, send: Any) -> None:
        pass

    config = Config(app=app, lifespan="off", log_config=None)
    config.load()
    protocol = BoundedWebSocketProtocol(config, ServerState(), app_state={})
    transport = Transport()
    protocol.connection_made(transport)  # type: ignore[arg-type]  # a stand-in
    protocol.handshake_complete = True
    protocol.conn.state = State.OPEN
    return protocol, transport


def test_a_peer_that_misses_the_keepalive_is_let_go_at_once() -> None:
    """uvicorn closed such a connection with ``transport.close()``, which waits to hand
    over what is buffered: a peer that reads nothing was held, its seat "connected",
    for as long as it kept the socket open (90 s and more)."""

    async def scenario() -> bool:
        protocol, transport = open_protocol()
        protocol.keepalive_timeout()
        return transport.aborted

    assert run_async(scenario())


def test_a_close_while_nothing_sent_is_read_lets_go_at_once() -> None:
    """The application closes a client that fell too far behind (1008): the close frame
    would wait behind what the client never reads, the application's send with it."""

    async def scenario() -> tuple[bool, bool]:
        protocol, transport = open_protocol()
        protocol.writable.clear()  # the transport asked to stop writing
        await asyncio.wait_for(
            protocol.send({"type": "websocket.close", "code": 1008, "reason": "slow"}), 1)
        return transport.aborted, transport.closing

    assert run_async(scenario()) == (True, False)


def test_a_closing_handshake_the_peer_never_finishes_lets_go_after_its_time() -> None:
    async def scenario() -> list[bool]:
        protocol, transport = open_protocol()
        protocol.close_timeout = 0.05
        await protocol.send({"type": "websocket.close", "code": 1000, "reason": ""})
        seen = [transport.aborted]
        await asyncio.sleep(0.2)
        return [*seen, transport.aborted]

    assert run_async(scenario()) == [False, True]
