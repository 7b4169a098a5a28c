"""The table chat: seated players write, every client of the table reads, with limits."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from gametable.server import chat
from gametable.server.app import Settings, create_app
from gametable.server.refused import Refused
from gametable.server.storage import StorageError
from gametable.server.tables import TableManager
from tests.server.test_http import HUMAN, create
from tests.server.test_socket import connect, hello, next_of


@pytest.fixture
def table(client: TestClient) -> dict[str, Any]:
    created = create(client, [HUMAN, HUMAN])
    table_id = created["table"]["id"]
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bjarni"}).json()
    return {"id": table_id, "tokens": [created["token"], joined["token"]]}


def say(ws: WebSocketTestSession, text: Any, request_id: int | None = None) -> None:
    message: dict[str, Any] = {"type": "chat", "text": text}
    if request_id is not None:
        message["id"] = request_id
    ws.send_json(message)


def test_a_message_reaches_every_client_of_the_table(client: TestClient,
                                                     table: dict[str, Any]) -> None:
    other = create(client, [HUMAN, HUMAN])["table"]["id"]
    with connect(client, table["id"]) as ws0, connect(client, table["id"]) as ws1, \
            connect(client, table["id"]) as spectator, connect(client, other) as elsewhere:
        hello(ws0, table["tokens"][0])
        hello(ws1, table["tokens"][1])
        hello(spectator)
        hello(elsewhere)
        before = int(time.time() * 1000)
        say(ws1, "  Hello\n everyone!  ")
        for ws in (ws0, ws1, spectator):
            message = next_of(ws, "chat")
            assert message["seat"] == 1 and message["name"] == "Bjarni"
            assert message["text"] == "Hello everyone!"
            assert before - 1000 <= message["at"] <= int(time.time() * 1000) + 1000
        # Another table hears nothing: its next message is the answer to a ping.
        elsewhere.send_json({"type": "ping", "id": 1})
        assert next_of(elsewhere, "pong")["id"] == 1
        ws0.send_json({"type": "ping", "id": 2})
        seen = ws0.receive_json()
        while seen["type"] in ("table", "presence"):
            seen = ws0.receive_json()
        assert seen == {"type": "pong", "id": 2}


def test_the_history_follows_hello(client: TestClient, table: dict[str, Any]) -> None:
    with connect(client, table["id"]) as ws0:
        hello(ws0, table["tokens"][0])
        for n in range(3):
            say(ws0, f"message {n}")
            next_of(ws0, "chat")
    with connect(client, table["id"]) as late:
        late.send_json({"type": "hello"})
        kinds = []
        while True:
            message = late.receive_json()
            kinds.append(message["type"])
            if message["type"] == "chat_history":
                break
        assert kinds == ["welcome", "state", "chat_history"]
        assert [m["text"] for m in message["messages"]] == ["message 0", "message 1",
                                                            "message 2"]
        assert message["messages"][0]["seat"] == 0 and message["messages"][0]["name"] == "Anna"


def test_the_history_keeps_the_last_100(client: TestClient, table: dict[str, Any],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chat, "RATE_COUNT", 1000)
    with connect(client, table["id"]) as ws0:
        hello(ws0, table["tokens"][0])
        for n in range(105):
            say(ws0, f"m{n}")
            assert next_of(ws0, "chat")["text"] == f"m{n}"
    with connect(client, table["id"]) as ws1:
        ws1.send_json({"type": "hello", "token": table["tokens"][1]})
        history = next_of(ws1, "chat_history")["messages"]
        assert len(history) == 100 and history[0]["text"] == "m5" and history[-1]["text"] == "m104"


def test_length_limits(client: TestClient, table: dict[str, Any]) -> None:
    with connect(client, table["id"]) as ws0:
        hello(ws0, table["tokens"][0])
        for text in ("", "   \n ", "x" * 301):
            say(ws0, text, 9)
            error = next_of(ws0, "error")
            assert (error["code"], error["key"], error["id"]) == (
                "chat_length", "ui.chat.errors.length", 9)
            assert error["params"]["limit"] == 300
        say(ws0, 42)
        assert next_of(ws0, "error")["code"] == "malformed"
        say(ws0, "  " + "y" * 300 + "  ")
        assert len(next_of(ws0, "chat")["text"]) == 300


def test_a_message_shows_what_everyone_sees(client: TestClient,
                                            table: dict[str, Any]) -> None:
    """Hidden characters (zero-width spaces, a byte-order mark, direction marks that
    turn the text around, tags carrying words nobody sees) count as spaces, a letter
    keeps at most four accents, and a message that shows nothing is refused as empty;
    emoji stay whole (a family of four, Scotland's flag)."""
    family, scotland = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466", (
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f")
    with connect(client, table["id"]) as ws0:
        hello(ws0, table["tokens"][0])
        for text in ("\u200b\u200b\ufeff\u2060", "\U000e0068\U000e0069", "\u0301" * 50,
                     "\u3164\u2800"):
            say(ws0, text, 4)
            error = next_of(ws0, "error")
            assert error["code"] == "chat_length" and error["params"]["length"] == 0
        say(ws0, "Hi\u202e olleh\u200b there " + "a" + "\u0301" * 40
            + f" {family} {scotland}\U000e0073\U000e0065\U000e0063\U000e0072\U000e0065")
        accents = "\u0301" * 4
        assert next_of(ws0, "chat")["text"] == (
            f"Hi olleh there a{accents} {family} {scotland}")


def test_at_most_five_messages_in_five_seconds(client: TestClient,
                                               table: dict[str, Any]) -> None:
    with connect(client, table["id"]) as ws0, connect(client, table["id"]) as ws1:
        hello(ws0, table["tokens"][0])
        hello(ws1, table["tokens"][1])
        for n in range(6):
            say(ws0, f"spam {n}", n)
        for n in range(5):
            assert next_of(ws1, "chat")["text"] == f"spam {n}"
        error = next_of(ws0, "error")
        assert (error["code"], error["id"]) == ("chat_too_fast", 5)
        assert error["params"] == {"limit": 5, "seconds": 5, "count": 5}
        assert error["message"] == "Slow down: at most 5 messages every 5 seconds."
        # The other seat has its own allowance.
        say(ws1, "still here")
        assert next_of(ws0, "chat")["text"] == "still here"


def test_the_allowance_comes_back_after_five_seconds() -> None:
    limit = chat.ChatLimit()
    for n in range(5):
        limit.check(100.0 + n * 0.1)
    with pytest.raises(Refused):
        limit.check(104.0)
    limit.check(105.01)  # the first has left the window
    with pytest.raises(Refused):
        limit.check(105.02)


def test_spectators_read_but_do_not_write(client: TestClient, table: dict[str, Any]) -> None:
    with connect(client, table["id"]) as ws0, connect(client, table["id"]) as spectator:
        hello(ws0, table["tokens"][0])
        hello(spectator)
        say(spectator, "Let me in", 3)
        error = next_of(spectator, "error")
        assert (error["code"], error["key"], error["id"]) == (
            "not_seated", "ui.chat.errors.spectator", 3)
        say(ws0, "Hi")
        assert next_of(spectator, "chat")["text"] == "Hi"
        assert next_of(ws0, "chat")["text"] == "Hi"
    with connect(client, table["id"]) as late:
        late.send_json({"type": "hello"})
        assert [m["text"] for m in next_of(late, "chat_history")["messages"]] == ["Hi"]


def test_players_chat_while_the_table_waits(client: TestClient) -> None:
    created = create(client, [HUMAN, HUMAN])
    with connect(client, created["table"]["id"]) as ws0:
        welcome, _ = hello(ws0, created["token"])
        assert welcome["table"]["status"] == "waiting"
        say(ws0, "Waiting for Bjarni")
        assert next_of(ws0, "chat")["seat"] == 0


def test_the_chat_is_back_after_a_restart_and_after_the_table_left_memory(
        tmp_path: Path) -> None:
    """The chat was kept in memory only: a restart, or a table nobody opened for a while
    (it leaves memory), forgot it, and so did another process taking the table over. It
    is stored now, committed before anyone is sent a message."""
    def app() -> TestClient:
        return TestClient(create_app(Settings(data_dir=tmp_path, bot_delay=0, rates={},
                                              static_dir=tmp_path / "none")))

    with app() as client:
        created = create(client, [HUMAN, HUMAN])
        table_id = created["table"]["id"]
        client.post(f"/api/tables/{table_id}/join", json={"name": "Bjarni"})
        with connect(client, table_id) as ws0:
            hello(ws0, created["token"])
            for text in ("Good luck!", "You too"):
                say(ws0, text)
                next_of(ws0, "chat")
    with app() as client:
        for _ in range(2):
            with connect(client, table_id) as late:
                late.send_json({"type": "hello"})
                messages = next_of(late, "chat_history")["messages"]
                assert [(m["seat"], m["name"], m["text"]) for m in messages] == [
                    (0, "Anna", "Good luck!"), (0, "Anna", "You too")]
            manager: TableManager = client.app.api.state.manager  # type: ignore[attr-defined]
            assert manager.evict_idle(now=time.monotonic() + 2 * 3600) == 1


async def disk_full(*_args: Any, **_kwargs: Any) -> None:
    """``Storage.append_chat`` on a full disk."""
    raise StorageError("disk full")


def test_a_message_storage_cannot_keep_is_refused_and_sent_to_nobody(
        client: TestClient, table: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    manager: TableManager = client.app.api.state.manager  # type: ignore[attr-defined]
    with connect(client, table["id"]) as ws0, connect(client, table["id"]) as ws1:
        hello(ws0, table["tokens"][0])
        hello(ws1, table["tokens"][1])
        say(ws0, "kept")
        next_of(ws1, "chat")
        monkeypatch.setattr(manager.storage, "append_chat", disk_full)
        say(ws0, "lost", request_id=7)
        error = next_of(ws0, "error")
        assert (error["code"], error["id"]) == ("storage_failed", 7)
        monkeypatch.undo()
        say(ws0, "kept again")
        assert next_of(ws1, "chat")["text"] == "kept again"  # "lost" never reached it
    assert [m["text"] for m in manager.storage.load_chat(table["id"], 100)] == [
        "kept", "kept again"]


def test_a_message_storage_refused_does_not_use_up_the_seat_s_allowance(
        client: TestClient, table: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    manager: TableManager = client.app.api.state.manager  # type: ignore[attr-defined]
    with connect(client, table["id"]) as ws0, connect(client, table["id"]) as ws1:
        hello(ws0, table["tokens"][0])
        hello(ws1, table["tokens"][1])
        monkeypatch.setattr(manager.storage, "append_chat", disk_full)
        for n in range(5):
            say(ws0, f"lost {n}", request_id=n)
            assert next_of(ws0, "error")["code"] == "storage_failed"
        monkeypatch.undo()
        # The five refused left all five places of the five seconds free.
        for n in range(5):
            say(ws0, f"kept {n}", request_id=10 + n)
        assert [next_of(ws1, "chat")["text"] for _ in range(5)] == [
            f"kept {n}" for n in range(5)]
        say(ws0, "one too many", request_id=20)
        error = next_of(ws0, "error")
        assert (error["code"], error["id"]) == ("chat_too_fast", 20)


def test_a_place_given_back_twice_or_late_changes_nothing() -> None:
    limit = chat.ChatLimit(count=2, seconds=5.0)
    first = limit.check(100.0)
    limit.check(100.5)
    limit.give_back(first)
    limit.give_back(first)  # once only
    limit.check(101.0)
    with pytest.raises(Refused):
        limit.check(101.5)


def test_messages_stored_slowly_keep_their_order_everywhere(
        client: TestClient, table: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """While one message is being stored, a second waits for it: every client, the
    history and storage have them in the order they were written (a slow write of the
    first let the second overtake it)."""
    manager: TableManager = client.app.api.state.manager  # type: ignore[attr-defined]
    store = manager.storage.append_chat
    slow = {"first"}

    async def slowly(table_id: str, message: dict[str, Any], *, keep: int) -> None:
        if message["text"] in slow:
            await asyncio.sleep(0.3)
        await store(table_id, message, keep=keep)

    monkeypatch.setattr(manager.storage, "append_chat", slowly)
    with connect(client, table["id"]) as ws0, connect(client, table["id"]) as ws1:
        hello(ws0, table["tokens"][0])
        hello(ws1, table["tokens"][1])
        say(ws0, "first")
        time.sleep(0.05)
        say(ws1, "second")
        for ws in (ws0, ws1):
            assert [next_of(ws, "chat")["text"] for _ in range(2)] == ["first", "second"]
    with connect(client, table["id"]) as late:
        late.send_json({"type": "hello"})
        assert [m["text"] for m in next_of(late, "chat_history")["messages"]] == [
            "first", "second"]
    assert [m["text"] for m in manager.storage.load_chat(table["id"], 100)] == [
        "first", "second"]


def test_a_line_carries_its_writer_s_tag_which_the_next_person_in_the_seat_does_not_hold(
        client: TestClient) -> None:
    """Before the game, Bjarni writes, renames himself and leaves; Cleo takes his seat.
    His lines keep his seat's tag, which stayed his through the new name, and Cleo's
    seat has another: her page does not take his lines for hers (an action count, the
    lines' ``version``, cannot tell them apart before the first move)."""
    created = create(client, [HUMAN, HUMAN, HUMAN])
    table_id = created["table"]["id"]

    def tag_of(seat: int) -> str | None:
        tag: str | None = client.get(f"/api/tables/{table_id}").json()["seats"][seat].get("tag")
        return tag

    bjarni = client.post(f"/api/tables/{table_id}/join", json={"name": "Bjarni"}).json()
    assert bjarni["seat"] == 1
    his = tag_of(1)
    assert his is not None and tag_of(2) is None  # an open seat is nobody's
    assert his != tag_of(0)
    with connect(client, table_id) as ws:
        hello(ws, bjarni["token"])
        say(ws, "Hi, I'm Bjarni")
        first = next_of(ws, "chat")
    assert first["tag"] == his and first["version"] == 0
    headers = {"X-Seat-Token": bjarni["token"]}
    assert client.post(f"/api/tables/{table_id}/name", json={"name": "Bjarni B."},
                       headers=headers).status_code == 200
    assert tag_of(1) == his
    assert client.post(f"/api/tables/{table_id}/leave", headers=headers).status_code == 200
    cleo = client.post(f"/api/tables/{table_id}/join", json={"name": "Cleo"}).json()
    assert cleo["seat"] == 1
    hers = tag_of(1)
    assert hers is not None and hers != his
    with connect(client, table_id) as ws:
        hello(ws, cleo["token"])
        (kept,) = next_of(ws, "chat_history")["messages"]
        assert kept["text"] == "Hi, I'm Bjarni" and kept["tag"] == his
        say(ws, "Cleo here")
        assert next_of(ws, "chat")["tag"] == hers


def test_whoever_takes_a_seat_next_has_their_own_allowance(client: TestClient) -> None:
    """Bjarni wrote five lines and left the waiting room; Cleo, who took his seat at
    once, was refused her first line as "too fast" for his."""
    created = create(client, [HUMAN, HUMAN, HUMAN])
    table_id = created["table"]["id"]
    bjarni = client.post(f"/api/tables/{table_id}/join", json={"name": "Bjarni"}).json()
    with connect(client, table_id) as ws:
        hello(ws, bjarni["token"])
        for n in range(6):
            say(ws, f"Line {n}", n)
        for n in range(5):
            assert next_of(ws, "chat")["text"] == f"Line {n}"
        assert next_of(ws, "error")["code"] == "chat_too_fast"  # (his allowance is spent)
    assert client.post(f"/api/tables/{table_id}/leave",
                       headers={"X-Seat-Token": bjarni["token"]}).status_code == 200
    cleo = client.post(f"/api/tables/{table_id}/join", json={"name": "Cleo"}).json()
    assert cleo["seat"] == 1
    with connect(client, table_id) as ws:
        hello(ws, cleo["token"])
        say(ws, "Hello!", 1)
        assert next_of(ws, "chat")["text"] == "Hello!"
