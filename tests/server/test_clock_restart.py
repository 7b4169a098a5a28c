"""A server killed (SIGKILL) while a turn's clock runs comes back with the same deadline
(deadlines are stored with the table; TR-TIME-1 and the table clock of every game)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import websockets

from tests.aio import run_async
from tests.server.conftest import LiveServer


async def clock_when(url: str, token: str, done: Any, timeout: float = 120.0
                     ) -> dict[str, Any]:
    """Connect as the seat of ``token``; the first ``clock`` message that ``done`` accepts."""
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        deadline = time.monotonic() + timeout
        while True:
            text = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
            message = json.loads(text)
            if message["type"] == "clock" and done(message):
                return message


def test_kill_9_mid_turn_keeps_the_running_deadline(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url) as http:
        made = http.post("/api/tables", json={
            "game": "triominos", "name": "Anna",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
            "clock": {"turn_seconds": 600, "cover": "easy"}}).json()
    table_id, token = made["table"]["id"], made["token"]
    url = f"{live_server.ws_url}/api/tables/{table_id}/ws"

    before = run_async(clock_when(url, token, lambda m: "0" in m["deadlines"]))
    assert before["turn_seconds"] == 600 and before["away"] == {}
    assert 0 < before["deadlines"]["0"] - before["now"] <= 600_000
    time.sleep(1.0)  # the turn's time keeps running while the server is down
    live_server.kill()
    live_server.start()

    after = run_async(clock_when(url, token, lambda m: True))
    assert after["deadlines"] == before["deadlines"], "neither lost nor reset"
    assert after["now"] > before["now"] + 1000
    assert after["away"] == {}
