"""A seated person changes their name (``POST /api/tables/{id}/name``)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.test_hosting import (
    app_client,  # noqa: F401 (a fixture)
    hand_of,
    play_first_move,
    two_players,
)


def rename(client: TestClient, table_id: str, token: str | None, name: Any) -> Any:
    headers = {} if token is None else {"X-Seat-Token": token}
    return client.post(f"/api/tables/{table_id}/name", json={"name": name}, headers=headers)


def names(client: TestClient, table_id: str) -> list[str | None]:
    return [s.get("name") for s in client.get(f"/api/tables/{table_id}").json()["seats"]]


def test_a_player_renamed_mid_game_is_shown_so_to_everyone_and_plays_on(
        app_client: TestClient) -> None:  # noqa: F811
    """Bruno typed "Brnuo": he puts it right mid-game; every page at the table is sent
    the new seat list, his token still acts, and nothing of the game changes."""
    t = two_players(app_client)
    play_first_move(app_client, t["id"], t["anna"])
    hand = hand_of(app_client, t["id"], t["bruno"])
    version = app_client.get(f"/api/tables/{t['id']}").json()["version"]
    with app_client.websocket_connect(f"/api/tables/{t['id']}/ws") as ws:
        ws.send_json({"type": "hello", "token": t["anna"]})
        assert ws.receive_json()["type"] == "welcome"
        renamed = rename(app_client, t["id"], t["bruno"], "  Bruno\u202e the Bold ")
        assert renamed.status_code == 200, renamed.text
        assert renamed.json()["seats"][1]["name"] == "Bruno the Bold"
        while (message := ws.receive_json())["type"] != "table":
            pass
        assert message["table"]["seats"][1]["name"] == "Bruno the Bold"
    assert names(app_client, t["id"]) == ["Anna", "Bruno the Bold"]
    assert app_client.get(f"/api/tables/{t['id']}").json()["version"] == version
    assert hand_of(app_client, t["id"], t["bruno"]) == hand
    play_first_move(app_client, t["id"], t["bruno"])
    assert app_client.get(f"/api/tables/{t['id']}").json()["version"] == version + 1


def test_a_name_another_seat_has_gets_a_number_and_an_empty_one_none(
        app_client: TestClient) -> None:  # noqa: F811
    """Nobody takes another seat's name (or a name the pages give a seat: "Player 1"),
    as when taking a seat; an empty name leaves the seat nameless ("Player 2")."""
    t = two_players(app_client)
    assert rename(app_client, t["id"], t["bruno"], "ANNA").json()["seats"][1]["name"] \
        == "ANNA (2)"
    assert rename(app_client, t["id"], t["bruno"], "Player 1").json()["seats"][1]["name"] \
        == "Player 1 (2)"
    assert rename(app_client, t["id"], t["bruno"], "").json()["seats"][1].get("name") is None
    assert rename(app_client, t["id"], t["anna"], "Anna").json()["seats"][0]["name"] == "Anna"


def test_a_bad_token_a_long_name_or_a_finished_game_is_refused_and_changes_nothing(
        app_client: TestClient) -> None:  # noqa: F811
    t = two_players(app_client)
    wrong = rename(app_client, t["id"], "not-a-token", "Mallory")
    assert wrong.status_code == 403 and wrong.json()["code"] == "bad_token"
    missing = rename(app_client, t["id"], None, "Mallory")
    assert missing.status_code == 403 and missing.json()["code"] == "bad_token"
    other = app_client.post("/api/tables", json={
        "game": "sequence-cats", "name": "Carla",
        "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    across = rename(app_client, t["id"], other["token"], "Mallory")
    assert across.status_code == 403 and across.json()["code"] == "bad_token"
    long = rename(app_client, t["id"], t["bruno"], "B" * 41)
    assert long.status_code == 400 and "name" in long.text
    assert names(app_client, t["id"]) == ["Anna", "Bruno"]
    ended = app_client.post(f"/api/tables/{t['id']}/end", json={},
                            headers={"X-Host-Token": t["host"]})
    assert ended.status_code == 200, ended.text
    late = rename(app_client, t["id"], t["bruno"], "Brian")
    assert late.status_code == 409 and late.json()["code"] == "ended"
    assert names(app_client, t["id"]) == ["Anna", "Bruno"]
