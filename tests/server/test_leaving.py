"""A seated person leaves a table of their own accord (``POST /api/tables/{id}/leave``)."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from tests.server.test_hosting import (
    app_client,  # noqa: F401 (a fixture)
    deal_of,
    hand_of,
    play_first_move,
    two_players,
)


def leave(client: TestClient, table_id: str, token: str | None) -> Any:
    headers = {} if token is None else {"X-Seat-Token": token}
    return client.post(f"/api/tables/{table_id}/leave", headers=headers)


def test_before_the_first_move_a_seat_left_opens_and_every_hand_is_dealt_again(
        app_client: TestClient) -> None:  # noqa: F811
    """Bruno joined the wrong table: he leaves it, his connection is closed (4409, "you
    left this seat"), his token no longer acts, and the seat is open for a friend. No
    hand was shown while seats were open, and every hand is dealt again, as when the
    host removes a player."""
    made = app_client.post("/api/tables", json={
        "game": "dixit", "name": "Anna", "seats": [{"kind": "human"}] * 4}).json()
    table_id = made["table"]["id"]
    bruno = app_client.post(f"/api/tables/{table_id}/join",
                            json={"seat": 1, "name": "Bruno"}).json()
    peeked = deal_of(app_client, table_id, bruno["token"])  # (and no hand)
    with app_client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": bruno["token"]})
        assert ws.receive_json()["seat"] == 1
        left = leave(app_client, table_id, bruno["token"])
        assert left.status_code == 200, left.text
        assert left.json()["bot"] is None and left.json()["version"] == 0
        assert left.json()["seats"][1]["kind"] == "open"
        while (message := ws.receive())["type"] != "websocket.close":
            pass
        assert message["code"] == 4409 and message["reason"] == "you left this seat"
    again = leave(app_client, table_id, bruno["token"])
    assert again.status_code == 403 and again.json()["code"] == "bad_token"
    with app_client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": bruno["token"]})
        assert ws.receive_json()["code"] == "bad_token"
    assert deal_of(app_client, table_id, made["token"]) not in (0, peeked)


def test_once_the_game_has_begun_a_computer_player_takes_the_seat_left(
        app_client: TestClient) -> None:  # noqa: F811
    """Mid-game the others play on at once: a computer player takes over the seat left
    (``medium`` at a table without a clock) and plays its turns."""
    t = two_players(app_client)
    play_first_move(app_client, t["id"], t["anna"])
    left = leave(app_client, t["id"], t["bruno"])
    assert left.status_code == 200, left.text
    assert left.json()["bot"] == "medium"
    seat = left.json()["seats"][1]
    assert seat["kind"] == "bot" and seat["bot"] == "medium"
    # It plays under Bruno's name: the moves he made and his points stay his.
    assert seat["name"] == "Bruno"
    deadline = time.monotonic() + 10
    while app_client.get(f"/api/tables/{t['id']}").json()["version"] < 2:
        assert time.monotonic() < deadline, "the computer player did not play Bruno's turn"
        time.sleep(0.02)


def test_a_table_with_a_clock_gives_the_seat_left_to_its_cover_level(
        app_client: TestClient) -> None:  # noqa: F811
    t = two_players(app_client, clock={"turn_seconds": 120, "cover": "easy"})
    play_first_move(app_client, t["id"], t["anna"])
    left = leave(app_client, t["id"], t["bruno"])
    assert left.status_code == 200, left.text
    assert left.json()["seats"][1]["bot"] == "easy"


def test_the_host_a_stranger_and_a_finished_game_are_refused_and_nothing_changes(
        app_client: TestClient) -> None:  # noqa: F811
    """The host holds the table (hand the role on first, or end the game); a token of no
    seat here, or none, leaves nothing; nobody leaves a game that is over."""
    t = two_players(app_client)
    other = two_players(app_client)
    before = app_client.get(f"/api/tables/{t['id']}").json()
    host = leave(app_client, t["id"], t["anna"])
    assert host.status_code == 409 and host.json()["code"] == "leave_host"
    assert "hand the host's role" in host.json()["message"]
    for token in (other["bruno"], "not-a-token", None):
        refused = leave(app_client, t["id"], token)
        assert refused.status_code == 403 and refused.json()["code"] == "bad_token"
    assert app_client.get(f"/api/tables/{t['id']}").json() == before
    assert hand_of(app_client, t["id"], t["bruno"])  # Bruno still holds his seat
    ended = app_client.post(f"/api/tables/{t['id']}/end", json={},
                            headers={"X-Host-Token": t["host"]})
    assert ended.status_code == 200, ended.text
    over = leave(app_client, t["id"], t["bruno"])
    assert over.status_code == 409 and over.json()["code"] == "ended"
    missing = leave(app_client, "no-such-table", t["bruno"])
    assert missing.status_code == 404


def test_the_record_names_the_person_for_the_moves_made_before_they_left(
        app_client: TestClient) -> None:  # noqa: F811
    """Bruno makes one move and leaves; a computer player plays on under his name. The
    table and the record say from which action on (``bot_since``): the record does not
    say a computer player held the seat from the start (docs/records.md)."""
    t = two_players(app_client)
    play_first_move(app_client, t["id"], t["anna"])
    play_first_move(app_client, t["id"], t["bruno"])
    left = leave(app_client, t["id"], t["bruno"])
    assert left.status_code == 200, left.text
    assert left.json()["seats"][1]["bot_since"] == 2
    assert "bot_since" not in left.json()["seats"][0]
    play_first_move(app_client, t["id"], t["anna"])
    deadline = time.monotonic() + 10
    while app_client.get(f"/api/tables/{t['id']}").json()["version"] < 4:
        assert time.monotonic() < deadline, "the computer player did not play Bruno's turn"
        time.sleep(0.02)
    assert app_client.post(f"/api/tables/{t['id']}/end", json={},
                           headers={"X-Host-Token": t["host"]}).status_code == 200
    record = app_client.get(f"/api/tables/{t['id']}/record").json()
    assert record["seats"] == [{"name": "Anna", "bot": None},
                               {"name": "Bruno", "bot": "medium", "bot_since": 2}]
    assert [a["seat"] for a in record["actions"]][:4] == [0, 1, 0, 1]
    replay = app_client.get(f"/api/tables/{t['id']}/replay", params={"count": 1}).json()
    assert replay["seats"][1] == {"seat": 1, "name": "Bruno", "bot": "medium",
                                  "bot_since": 2}
