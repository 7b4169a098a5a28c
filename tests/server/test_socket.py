"""The websocket: seats by token, views per seat, refusals to the sender only."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from gametable.server import socket as socket_module
from gametable.server.app import Settings, create_app
from tests.server.test_http import GREEDY, HUMAN, create


def connect(client: TestClient, table_id: str) -> Any:
    return client.websocket_connect(f"/api/tables/{table_id}/ws")


def hello(ws: WebSocketTestSession, token: str | None = None) -> tuple[dict[str, Any], ...]:
    ws.send_json({"type": "hello", "token": token} if token else {"type": "hello"})
    welcome = ws.receive_json()
    while welcome["type"] != "welcome":
        welcome = ws.receive_json()
    state = ws.receive_json()
    assert state["type"] == "state"
    return welcome, state


def next_of(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return message


@pytest.fixture
def two_humans(client: TestClient) -> dict[str, Any]:
    created = create(client, [HUMAN, HUMAN])
    table_id = created["table"]["id"]
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bjarni"}).json()
    return {"id": table_id, "tokens": [created["token"], joined["token"]]}


def test_each_seat_sees_its_own_hand_and_spectators_none(client: TestClient,
                                                         two_humans: dict[str, Any]) -> None:
    with connect(client, two_humans["id"]) as ws0, connect(client, two_humans["id"]) as ws1, \
            connect(client, two_humans["id"]) as spectator:
        welcome0, state0 = hello(ws0, two_humans["tokens"][0])
        welcome1, state1 = hello(ws1, two_humans["tokens"][1])
        welcome2, state2 = hello(spectator)
        assert (welcome0["seat"], welcome1["seat"], welcome2["seat"]) == (0, 1, None)
        assert len(state0["view"]["hand"]) == 5 and len(state1["view"]["hand"]) == 5
        assert "hand" not in state2["view"]
        assert state0["to_act"] == [0] and state0["legal"] and state1["legal"] == []


def test_an_accepted_action_reaches_every_client(client: TestClient,
                                                 two_humans: dict[str, Any]) -> None:
    with connect(client, two_humans["id"]) as ws0, connect(client, two_humans["id"]) as ws1:
        _, state0 = hello(ws0, two_humans["tokens"][0])
        hello(ws1, two_humans["tokens"][1])
        action = state0["legal"][0]
        ws0.send_json({"type": "action", "action": action, "version": 0})
        seen0 = next_of(ws0, "state")
        seen1 = next_of(ws1, "state")
        assert seen0["version"] == seen1["version"] == 1
        assert seen1["to_act"] == [1] and seen1["legal"]
        assert seen1["events"][0]["type"] == "place"


def test_refusals_go_to_the_sender_only_and_change_nothing(client: TestClient,
                                                           two_humans: dict[str, Any]) -> None:
    with connect(client, two_humans["id"]) as ws0, connect(client, two_humans["id"]) as ws1:
        _, state0 = hello(ws0, two_humans["tokens"][0])
        hello(ws1, two_humans["tokens"][1])
        # Out of turn: seat 1 tries seat 0's move.
        ws1.send_json({"type": "action", "action": state0["legal"][0], "id": 7})
        error = next_of(ws1, "error")
        assert (error["code"], error["rule"], error["id"]) == ("illegal_action", "SC-TURN-1", 7)
        assert error["message"] == "It is not seat 1's turn: seat 0 is to play."
        assert error["key"] == "errors.not_your_turn" and error["params"]["to_play"] == 0
        # Malformed, unknown and oversized messages.
        ws1.send_text("{nope")
        assert next_of(ws1, "error")["code"] == "malformed"
        ws1.send_json({"type": "dance"})
        assert next_of(ws1, "error")["code"] == "unknown_type"
        ws1.send_text(json.dumps({"type": "action", "action": {"type": "x" * 20_000}}))
        assert next_of(ws1, "error")["code"] == "too_large"
        # The limit is 16 KiB of the message's bytes, not of its characters: 9,000
        # two-byte letters are 18,000 bytes (docs/protocol.md).
        ws1.send_text(json.dumps({"type": "dance", "id": "é" * 9_000}, ensure_ascii=False))
        too_large = next_of(ws1, "error")
        assert too_large["code"] == "too_large", too_large
        assert too_large["params"]["size"] > 16 * 1024
        ws1.send_json({"type": "action", "action": "play"})
        assert next_of(ws1, "error")["code"] == "malformed"
        # Seat 0 then plays normally: its first message is the new state, not an error.
        ws0.send_json({"type": "action", "action": state0["legal"][0]})
        after = ws0.receive_json()
        while after["type"] == "table":
            after = ws0.receive_json()
        assert after["type"] == "state" and after["version"] == 1


def test_a_stale_version_is_refused(client: TestClient, two_humans: dict[str, Any]) -> None:
    with connect(client, two_humans["id"]) as ws0:
        _, state0 = hello(ws0, two_humans["tokens"][0])
        ws0.send_json({"type": "action", "action": state0["legal"][0], "version": 3})
        error = next_of(ws0, "error")
        assert error["code"] == "stale_version"


def test_a_late_claim_of_the_storyteller_role_says_someone_was_first(
        client: TestClient) -> None:
    """DX-SETUP-4: two people press "I tell first" at the same moment (both at version
    0). The second is told that someone is already the storyteller (the rules' reason),
    not "the table has moved on … look again and retry", with nothing to retry; an
    action the rules would still take at a version one has not seen is refused as
    stale."""
    created = client.post("/api/tables", json={
        "game": "dixit", "name": "Anna", "seats": [HUMAN, HUMAN, HUMAN]}).json()
    table_id = created["table"]["id"]
    tokens = [created["token"]] + [
        client.post(f"/api/tables/{table_id}/join", json={"name": name}).json()["token"]
        for name in ("Bjarni", "Carla")]
    with connect(client, table_id) as ws0, connect(client, table_id) as ws1:
        _, state0 = hello(ws0, tokens[0])
        _, state1 = hello(ws1, tokens[1])
        assert state0["version"] == state1["version"] == 0
        claim = {"type": "claim"}
        ws0.send_json({"type": "action", "action": claim, "version": 0})
        assert next_of(ws0, "state")["version"] == 1
        ws1.send_json({"type": "action", "action": claim, "version": 0})
        error = next_of(ws1, "error")
        assert (error["code"], error["key"]) == ("illegal_action",
                                                 "dixit.errors.already_claimed")
        assert error["params"]["storyteller"] == 0  # (the page names Anna)
        assert client.get(f"/api/tables/{table_id}").json()["version"] == 1


def test_a_version_that_is_not_a_whole_number_is_refused(
        client: TestClient, two_humans: dict[str, Any]) -> None:
    """``false`` is not version 0 (JSON's booleans are not numbers), nor is ``"0"``:
    refused as malformed, and the game stays at version 0."""
    with connect(client, two_humans["id"]) as ws0:
        _, state0 = hello(ws0, two_humans["tokens"][0])
        for version in (False, "0", 0.0, -1):
            ws0.send_json({"type": "action", "action": state0["legal"][0],
                           "version": version})
            error = next_of(ws0, "error")
            assert error["code"] == "malformed", version
            assert error["params"] == {"field": "version"}, error
        # The same of the deal, named as such (it was "version must be a whole number",
        # and -1 got "you saw move 0, it is now 0").
        for deal in (True, 1.5, -1):
            ws0.send_json({"type": "action", "action": state0["legal"][0], "version": 0,
                           "deal": deal})
            error = next_of(ws0, "error")
            assert (error["code"], error["params"]) == ("malformed", {"field": "deal"}), deal
        assert client.get(f"/api/tables/{two_humans['id']}").json()["version"] == 0


def test_a_field_a_message_does_not_take_is_refused_not_ignored(
        client: TestClient, two_humans: dict[str, Any]) -> None:
    """An action sent with ``"seat": 0`` from seat 1 was refused by the rules for seat 1,
    its ``seat`` silently dropped, as if one could be named: a field the message type
    does not take is refused as malformed, named with those it takes, and the game does
    not move. The seat is always the connection's."""
    with connect(client, two_humans["id"]) as ws0, connect(client, two_humans["id"]) as ws1:
        _, state0 = hello(ws0, two_humans["tokens"][0])
        hello(ws1, two_humans["tokens"][1])
        ws1.send_json({"type": "action", "seat": 0, "action": state0["legal"][0], "id": 3})
        error = next_of(ws1, "error")
        assert (error["code"], error["id"]) == ("malformed", 3), error
        assert error["message"] == ('The "action" message has no field "seat"; its fields are '
                                    '"type", "action", "version", "deal", "id".')
        ws0.send_json({"type": "ping", "id": 1, "x" * 60: True})
        error = next_of(ws0, "error")
        assert error["params"]["field"] == "x" * 39 + "…", error
        assert client.get(f"/api/tables/{two_humans['id']}").json()["version"] == 0
        # The message types in MESSAGE_FIELDS take what docs/protocol.md shows them with.
        ws0.send_json({"type": "ping", "id": 2})
        assert next_of(ws0, "pong")["id"] == 2


def test_a_client_that_never_says_hello_is_closed_however_much_else_it_sends(
        client: TestClient, two_humans: dict[str, Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """protocol.md: 4408 when no ``hello`` came within 30 seconds (here 0.6). Each other
    message restarted the wait, so a client that sent one every 20 seconds stayed."""
    monkeypatch.setattr(socket_module, "HELLO_TIMEOUT", 0.6)
    with connect(client, two_humans["id"]) as ws:
        started = time.monotonic()
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(20):
                ws.send_json({"type": "ping"})
                assert next_of(ws, "error")["code"] == "hello_first"
                time.sleep(0.2)
        assert closed.value.code == 4408
        assert time.monotonic() - started < 2.0


@pytest.mark.parametrize("token", ["", None])
def test_an_empty_token_is_a_spectators_hello_not_a_wrong_token(
        client: TestClient, two_humans: dict[str, Any], token: str | None) -> None:
    """docs/protocol.md, ``hello``: ``"token": ""`` was told ``bad_token`` before its
    spectator's welcome, as if it had named someone else's seat."""
    with connect(client, two_humans["id"]) as ws:
        ws.send_json({"type": "hello", "token": token})
        first = ws.receive_json()
        assert first["type"] == "welcome" and first["seat"] is None, first
        assert ws.receive_json()["type"] == "state"


def test_a_wrong_token_watches_and_cannot_act(client: TestClient,
                                              two_humans: dict[str, Any]) -> None:
    with connect(client, two_humans["id"]) as ws:
        ws.send_json({"type": "hello", "token": "not-a-token"})
        error = next_of(ws, "error")
        assert error["code"] == "bad_token"
        welcome = next_of(ws, "welcome")
        assert welcome["seat"] is None
        ws.send_json({"type": "action", "action": {"type": "pass"}})
        assert next_of(ws, "error")["code"] == "not_seated"


def test_hello_must_come_first(client: TestClient, two_humans: dict[str, Any]) -> None:
    with connect(client, two_humans["id"]) as ws:
        ws.send_json({"type": "action", "action": {"type": "pass"}})
        assert next_of(ws, "error")["code"] == "hello_first"
        welcome, _ = hello(ws, two_humans["tokens"][0])
        assert welcome["seat"] == 0


def test_the_same_token_reconnects_to_the_same_seat(client: TestClient,
                                                    two_humans: dict[str, Any]) -> None:
    with connect(client, two_humans["id"]) as ws:
        _, state = hello(ws, two_humans["tokens"][0])
        ws.send_json({"type": "action", "action": state["legal"][0]})
        next_of(ws, "state")
    with connect(client, two_humans["id"]) as again:
        welcome, state = hello(again, two_humans["tokens"][0])
        assert welcome["seat"] == 0 and state["version"] == 1


def test_actions_wait_for_every_seat_to_be_taken(client: TestClient) -> None:
    """No hand, nothing to do and nobody to act is shown while a seat is open, and an
    action sent anyway is refused (``waiting``)."""
    created = create(client, [HUMAN, HUMAN])
    with connect(client, created["table"]["id"]) as ws:
        _, state = hello(ws, created["token"])
        assert state["status"] == "waiting"
        assert state["view"] is None and state["legal"] == [] and state["to_act"] == []
        ws.send_json({"type": "action", "action": {"type": "pass"}})
        error = next_of(ws, "error")
        assert error["code"] == "waiting" and "1 still open" in error["message"]


def test_a_bot_answers_a_human_move(client: TestClient) -> None:
    created = create(client, [HUMAN, GREEDY])
    with connect(client, created["table"]["id"]) as ws:
        _, state = hello(ws, created["token"])
        ws.send_json({"type": "action", "action": state["legal"][0]})
        assert next_of(ws, "state")["version"] == 1
        bot_move = next_of(ws, "state")
        assert bot_move["version"] == 2 and bot_move["events"][0]["seat"] == 1
        assert bot_move["to_act"] == [0]


def test_sc_win_3_a_draw_offer_out_of_turn_wakes_the_computer_player_to_answer(
        client: TestClient) -> None:
    """SC-WIN-3 b through the server, which knows nothing of draws: a seat offers out of
    turn, ``to_act`` becomes the seats that answer, the computer player among them is
    woken and declines (the board is not full), and the turn goes on."""
    created = create(client, [HUMAN, HUMAN, GREEDY])
    table_id = created["table"]["id"]
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bjarni"}).json()
    with connect(client, table_id) as ws0, connect(client, table_id) as ws1:
        _, state0 = hello(ws0, created["token"])
        _, state1 = hello(ws1, joined["token"])
        assert state1["to_act"] == [0] and state1["view"]["may_offer_draw"] is True
        ws1.send_json({"type": "action", "action": {"type": "offer_draw"}, "version": 0})
        offered = next_of(ws0, "state")
        assert offered["version"] == 1 and offered["to_act"] == [0, 2]
        assert offered["legal"] == [{"type": "accept_draw"}, {"type": "decline_draw"}]
        assert offered["view"]["draw_offer"] == {"by": 1, "accepted": [], "waiting": [0, 2]}
        declined = next_of(ws0, "state")
        assert declined["events"] == [{"type": "draw_declined", "seat": 2, "by": 1}]
        assert declined["to_act"] == [0] and declined["view"]["draw_offer"] is None
        assert declined["legal"] == state0["legal"]


def test_sc_win_3_a_draw_accepted_by_everyone_finishes_the_table(client: TestClient,
                                                                 two_humans: dict[str, Any]
                                                                 ) -> None:
    with connect(client, two_humans["id"]) as ws0, connect(client, two_humans["id"]) as ws1:
        hello(ws0, two_humans["tokens"][0])
        hello(ws1, two_humans["tokens"][1])
        ws0.send_json({"type": "action", "action": {"type": "offer_draw"}, "version": 0})
        assert next_of(ws1, "state")["to_act"] == [1]
        ws1.send_json({"type": "action", "action": {"type": "accept_draw"}, "version": 1})
        final = next_of(ws1, "state")
        assert final["status"] == "finished" and final["to_act"] == []
        assert final["outcome"]["draw"] is True and final["view"]["draw_reason"] == "agreed"
        # The table's public info follows (its status), so that a page offers what a
        # finished table offers (play again, no host controls) without a reload.
        for ws in (ws0, ws1):
            assert next_of(ws, "table")["table"]["status"] == "finished"


@pytest.mark.parametrize("table_id", ["missing", "a" * 65, "bad.id"])
def test_unknown_table_closes_with_an_error(client: TestClient, table_id: str) -> None:
    """An id no table has is "no such table" (4404), and so is one no table can have
    (longer than 64 characters, or with a dot), which was refused at the handshake."""
    with connect(client, table_id) as ws:
        error = ws.receive_json()
        assert error["code"] == "no_table" and error["params"] == {"table": table_id}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_a_page_opened_mid_game_gets_the_last_moves_for_its_log(tmp_path: Path) -> None:
    """A reloaded page's log was empty but for the last move: the first state after
    ``hello`` now carries ``earlier``, the events of up to 15 states before it (oldest
    first), exactly those every client was sent at the time; the same for a seat and a
    watcher, never in the states that follow, and the same after a restart."""
    settings = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none",
                        rates={})
    with TestClient(create_app(settings)) as client:
        # Four sequences to win: no game ends within 20 moves (with one, about one deal
        # in a hundred did when every move is the first legal one).
        created = create(client, [HUMAN, HUMAN], config={"sequences_to_win": 4})
        table_id = created["table"]["id"]
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bjarni"}).json()
        tokens = [created["token"], joined["token"]]
        sent: dict[int, list[dict[str, Any]]] = {}
        with connect(client, table_id) as ws0, connect(client, table_id) as ws1:
            _, state = hello(ws0, tokens[0])
            _, other = hello(ws1, tokens[1])
            sockets = [ws0, ws1]
            states = [state, other]
            for _ in range(20):
                seat = state["to_act"][0]
                # the acting seat's own state: after a line longer than five it chooses
                # which five (SC-WIN-2) and acts again
                state = states[seat]
                sockets[seat].send_json({"type": "action", "action": state["legal"][0],
                                         "version": state["version"]})
                states = [next_of(ws, "state") for ws in sockets]
                assert all("earlier" not in each for each in states)
                sent[states[0]["version"]] = states[0]["events"]
                state = states[0]
            assert state["version"] == 20
        with connect(client, table_id) as seat0, connect(client, table_id) as watcher:
            _, mine = hello(seat0, tokens[0])
            _, watched = hello(watcher)
        expected = [{"version": v, "events": sent[v]} for v in range(5, 20) if sent[v]]
        assert len(expected) >= 10
        assert mine["earlier"] == watched["earlier"] == expected
        assert mine["events"] == watched["events"] == sent[20]
    with TestClient(create_app(settings)) as client, connect(client, table_id) as again:
        _, restarted = hello(again, tokens[1])
        assert restarted["version"] == 20
        assert restarted["earlier"] == expected


def test_dx_setup_4_computer_players_let_people_who_have_not_come_yet_tell_first(
        tmp_path: Path) -> None:
    """After Play again a computer player claimed the storyteller role within seconds,
    while the friends, still reading the last game's result, had not joined the new
    table: none of them could tell first. Where the game asks computer players to let
    people act first, they also wait for the people who have not come yet (at most
    ``JOIN_GRACE_SECONDS``); once everyone is here, they claim after the usual wait."""
    app = create_app(Settings(data_dir=tmp_path, bot_delay=0.01,
                              static_dir=tmp_path / "none", rates={}))
    with TestClient(app) as client:
        created = client.post("/api/tables", json={
            "game": "dixit", "name": "Anna",
            "seats": [HUMAN, HUMAN, {"kind": "bot", "bot": "random"},
                      {"kind": "bot", "bot": "random"}]}).json()
        table_id = created["table"]["id"]
        bjarni = client.post(f"/api/tables/{table_id}/join",
                             json={"name": "Bjarni"}).json()["token"]

        def version() -> int:
            return int(client.get(f"/api/tables/{table_id}").json()["version"])

        with connect(client, table_id) as anna:
            _, state = hello(anna, created["token"])
            assert state["view"]["phase"] == "claim"
            time.sleep(1.0)  # 15 bot delays are 0.15 s: Bjarni has not come
            assert version() == 0
            with connect(client, table_id) as ws:
                hello(ws, bjarni)
                deadline = time.monotonic() + 10
                while version() == 0:
                    assert time.monotonic() < deadline, "no computer player claimed"
                    time.sleep(0.05)
