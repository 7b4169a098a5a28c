"""Tables made over the HTTP API and seats played from the test over the websocket.

A browser test that needs other seats to act at a moment of its choosing (not whenever a
computer player gets round to it) plays them here, without a browser.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from contextlib import ExitStack
from types import TracebackType
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect
from websockets.sync.client import ClientConnection, connect

from tests.server.conftest import LiveServer

WAIT = 60.0
"""Seconds a seat waits for a state it expects; generous, for a loaded machine."""


def create_table(server: LiveServer, game: str, config: dict[str, Any],
                 seats: list[str], names: dict[int, str]) -> tuple[str, dict[int, str]]:
    """A table whose ``seats`` are ``"human"`` or a bot's name; the humans named in
    ``names`` take their seats (the first human seat is the creator's).

    Returns:
        The table's id and the seat tokens by seat.
    """
    table, tokens, _ = create_hosted_table(server, game, config, seats, names)
    return table, tokens


def create_hosted_table(server: LiveServer, game: str, config: dict[str, Any],
                        seats: list[str], names: dict[int, str]
                        ) -> tuple[str, dict[int, str], str]:
    """:func:`create_table`, and the table's host token too."""
    specs = [{"kind": "human"} if kind == "human" else {"kind": "bot", "bot": kind}
             for kind in seats]
    humans = [seat for seat, kind in enumerate(seats) if kind == "human"]
    with httpx.Client(base_url=server.url, timeout=WAIT) as http:
        created = http.post("/api/tables", json={
            "game": game, "config": config, "seats": specs, "name": names[humans[0]]})
        assert created.status_code == 201, created.text
        table: str = created.json()["table"]["id"]
        tokens = {humans[0]: created.json()["token"]}
        for seat in humans[1:]:
            joined = http.post(f"/api/tables/{table}/join",
                               json={"seat": seat, "name": names[seat]})
            assert joined.status_code == 200, joined.text
            tokens[seat] = joined.json()["token"]
    host: str = created.json()["host_token"]
    return table, tokens, host


def take_a_seat(browser: Browser, server: LiveServer, table: str, name: str) -> Page:
    """Someone opens the table's invite link on an English page, types ``name`` and takes
    the first open seat; their page, once it shows them seated."""
    page = browser.new_context(locale="en-GB").new_page()
    page.goto(f"{server.url}/t/{table}")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take this seat").first.click()
    expect(page.locator(".seat-row.mine")).to_contain_text(name)
    return page


class SeatSocket:
    """One seat's connection: the latest state it was sent, its actions and chat. A
    context manager: leaving it closes the connection."""

    def __init__(self, server: LiveServer, table: str, token: str) -> None:
        self._stack = ExitStack()
        # Messages wait here until the test reads them (however many), and no keepalive
        # pings: a seat the test is not using reads nothing for a while.
        self.ws: ClientConnection = self._stack.enter_context(
            connect(f"{server.ws_url}/api/tables/{table}/ws", max_queue=None,
                    ping_interval=None))
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.seat: int | None = None
        self.state: dict[str, Any] = {}
        self.errors: list[dict[str, Any]] = []
        self.acted = -1
        """The last version whose events name this seat as the one who acted."""
        self.chat_lines: list[str] = []
        """The table chat's texts as they came, this seat's own included."""
        self.wait(lambda state: True)

    def _take(self, text: str | bytes) -> None:
        message = json.loads(text)
        if message["type"] == "welcome":
            self.seat = message["seat"]
        elif message["type"] == "state":
            self.state = message
            if any(event.get("by", event.get("seat")) == self.seat
                   for event in message["events"]):
                self.acted = message["version"]
        elif message["type"] == "chat":
            self.chat_lines.append(message["text"])
        elif message["type"] == "error":
            self.errors.append(message)

    def _drain(self) -> None:
        """Read what has arrived, without waiting."""
        while True:
            try:
                self._take(self.ws.recv(timeout=0))
            except TimeoutError:
                return

    def wait(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The newest state once ``done(state)`` holds for it."""
        self._drain()
        while not (self.state and done(self.state)):
            self._take(self.ws.recv(timeout=WAIT))
            self._drain()
        return self.state

    def act(self, kind: str, **fields: Any) -> int:
        """Wait until this seat may do an action of ``kind`` (with these ``fields``), do
        the first such, and wait until it is applied (a state whose events name this
        seat as the one who acted); the version that applied it."""
        def fits(action: dict[str, Any]) -> bool:
            return action["type"] == kind and all(action.get(k) == v for k, v in fields.items())

        state = self.wait(lambda state: any(fits(a) for a in state["legal"]))
        action = next(a for a in state["legal"] if fits(a))
        self.ws.send(json.dumps({"type": "action", "action": action,
                                 "version": state["version"]}))
        self.wait(lambda newer: self.acted > state["version"] or bool(self.errors))
        assert not self.errors, self.errors
        return self.acted

    def chat(self, text: str, *, patient: bool = False) -> None:
        """Write ``text`` in the table chat and wait until the table has it (so that
        messages from several connections keep their order). ``patient``: when the
        server says the seat writes too fast, wait for its allowance and write again."""
        while True:
            seen = len(self.chat_lines)
            self.ws.send(json.dumps({"type": "chat", "text": text}))
            self.wait(lambda state, seen=seen: text in self.chat_lines[seen:]  # type: ignore[misc]
                      or bool(self.errors))
            if patient and self.errors and self.errors[-1]["code"] in {"chat_too_fast",
                                                                       "rate_limited"}:
                params = self.errors.pop()["params"]
                # A rate limit can only be waited out: one message's share of its window.
                time.sleep(params["seconds"] / params.get("limit", 1))
                continue
            assert not self.errors, self.errors
            return

    def __enter__(self) -> SeatSocket:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._stack.close()
