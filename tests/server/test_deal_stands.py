"""No seat can deal the cards again until a hand suits it.

The cards were dealt when a table was made, and every seat was shown its hand in the
waiting room; a seat changing hands, or the host changing the options, dealt them again
before the first move. So a player could leave and join again (and the host switch an
option back and forth) until they held 5-5-5, the strong cards, or the first clue. Now
no seat is shown a hand, who starts or what it may play until every seat is taken, and
from then on the deal stands: the game has begun."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from gametable.server.app import Settings, create_app
from tests.server.test_hosting import app_client, two_players  # noqa: F401 (a fixture)
from tests.server.test_leaving import leave


def first_state(client: TestClient, table_id: str, token: str | None) -> dict[str, Any]:
    """The first ``state`` message a connection of ``token`` (``None``: a spectator)
    receives."""
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": token} if token else {"type": "hello"})
        while (message := ws.receive_json())["type"] != "state":
            pass
    return message


def test_while_a_seat_is_open_no_seat_is_shown_a_hand_or_who_starts(
        app_client: TestClient) -> None:  # noqa: F811
    made = app_client.post("/api/tables", json={
        "game": "triominos", "name": "Anna", "seats": [{"kind": "human"}] * 3}).json()
    table_id = made["table"]["id"]
    bruno = app_client.post(f"/api/tables/{table_id}/join", json={"name": "Bruno"}).json()
    assert made["table"]["begun"] is False
    for token in (made["token"], bruno["token"], None):
        hidden = first_state(app_client, table_id, token)
        assert hidden["status"] == "waiting"
        assert hidden["view"] is None and hidden["to_act"] == [] and hidden["legal"] == []
        assert hidden["events"] == [] and "earlier" not in hidden
    carla = app_client.post(f"/api/tables/{table_id}/join", json={"name": "Carla"}).json()
    shown = first_state(app_client, table_id, carla["token"])
    assert shown["status"] == "playing" and len(shown["view"]["hand"]) == 7
    assert shown["to_act"] and app_client.get(f"/api/tables/{table_id}").json()["begun"]


def test_once_every_seat_was_taken_leaving_hands_the_seat_over_and_the_deal_stands(
        app_client: TestClient) -> None:  # noqa: F811
    """Bruno saw his hand and leaves before anyone moved: a computer player takes his
    seat with that hand (it was open, and every hand dealt again, so he could join again
    with a new hand as often as he liked)."""
    t = two_players(app_client)
    shown = first_state(app_client, t["id"], t["anna"])
    assert first_state(app_client, t["id"], t["bruno"])["view"]["hand"]  # he saw it
    left = leave(app_client, t["id"], t["bruno"])
    assert left.status_code == 200, left.text
    assert left.json()["bot"] == "medium" and left.json()["seats"][1]["kind"] == "bot"
    after = first_state(app_client, t["id"], t["anna"])
    assert after["deal"] == shown["deal"]
    assert after["view"]["hand"] == shown["view"]["hand"]  # (Anna has not moved)
    again = app_client.post(f"/api/tables/{t['id']}/join", json={"name": "Bruno"})
    assert again.status_code == 409


def test_a_seat_whose_person_never_saw_the_deal_opens_with_its_cards_unseen(
        app_client: TestClient) -> None:  # noqa: F811
    """Bruno's seat was kept for him (after *Play again*, say) and he never came: when he
    says no thanks, his seat opens with his unseen cards; nothing is dealt again, since
    Anna has seen her hand. The seat is kept for whoever the host gives its link: open to
    the invite link, which every player has, Anna could take it and hold two hands."""
    t = two_players(app_client)
    shown = first_state(app_client, t["id"], t["anna"])
    left = leave(app_client, t["id"], t["bruno"])
    assert left.status_code == 200, left.text
    assert left.json()["bot"] is None and left.json()["seats"][1]["kind"] == "open"
    assert left.json()["begun"] is True
    waiting = first_state(app_client, t["id"], t["anna"])
    assert waiting["status"] == "waiting" and waiting["deal"] == shown["deal"]
    assert waiting["view"]["hand"] == shown["view"]["hand"]
    assert left.json()["seats"][1].get("invited") is True
    anna = app_client.post(f"/api/tables/{t['id']}/join", json={"name": "Anna", "seat": 1})
    assert anna.status_code == 403 and anna.json()["code"] == "seat_invited", anna.text
    link = app_client.post(f"/api/tables/{t['id']}/seats/1/link",
                           headers={"X-Host-Token": t["host"]})
    assert link.status_code == 200, link.text
    carla = app_client.post(f"/api/tables/{t['id']}/join",
                            json={"name": "Carla", "seat": 1, "code": link.json()["code"]})
    assert carla.status_code == 200 and carla.json()["seat"] == 1, carla.text
    playing = first_state(app_client, t["id"], t["anna"])
    assert playing["status"] == "playing" and playing["deal"] == shown["deal"]


def test_once_every_seat_was_taken_the_host_cannot_deal_again(
        app_client: TestClient) -> None:  # noqa: F811
    """Options switched back and forth dealt every hand again: refused once the seats
    saw their hands, as after the first move; removing a present player is refused too
    (their seat may go to a computer player, with its hand)."""
    t = two_players(app_client)
    shown = first_state(app_client, t["id"], t["anna"])
    headers = {"X-Host-Token": t["host"]}
    changed = app_client.post(f"/api/tables/{t['id']}/options",
                              json={"config": {"free_corners": False}}, headers=headers)
    assert changed.status_code == 409 and changed.json()["code"] == "options_begun"
    assert "The game has begun" in changed.json()["message"]
    with app_client.websocket_connect(f"/api/tables/{t['id']}/ws") as bruno:
        bruno.send_json({"type": "hello", "token": t["bruno"]})
        assert bruno.receive_json()["seat"] == 1
        removed = app_client.post(f"/api/tables/{t['id']}/seats/1/remove", json={},
                                  headers=headers)
        assert removed.status_code == 409 and removed.json()["code"] == "player_present"
        given = app_client.post(f"/api/tables/{t['id']}/seats/1/remove",
                                json={"bot": "easy"}, headers=headers)
        assert given.status_code == 200, given.text
    assert first_state(app_client, t["id"], t["anna"])["deal"] == shown["deal"]


def test_the_deal_stands_after_a_restart_with_a_seat_open_again(
        app_client: TestClient, tmp_path: Path) -> None:  # noqa: F811
    """Anna saw her hand, and Bruno's unseen seat opened again: the game has begun. A
    restarted server (or another process taking the table over) knew only the open seat
    and no move, so the host could change the options and Anna see a second deal."""
    t = two_players(app_client)
    shown = first_state(app_client, t["id"], t["anna"])
    opened = leave(app_client, t["id"], t["bruno"])
    assert opened.status_code == 200 and opened.json()["seats"][1]["kind"] == "open"
    again = create_app(Settings(data_dir=tmp_path, bot_delay=0,
                                static_dir=tmp_path / "none", rates={}))
    with TestClient(again) as restarted:
        assert restarted.get(f"/api/tables/{t['id']}").json()["begun"] is True
        changed = restarted.post(f"/api/tables/{t['id']}/options",
                                 json={"config": {"free_corners": False}},
                                 headers={"X-Host-Token": t["host"]})
        assert changed.status_code == 409 and changed.json()["code"] == "options_begun"
        after = first_state(restarted, t["id"], t["anna"])
        assert after["deal"] == shown["deal"]
        assert after["view"]["hand"] == shown["view"]["hand"]


def test_after_a_restart_a_seat_that_saw_the_deal_and_leaves_goes_to_a_computer_player(
        app_client: TestClient, tmp_path: Path) -> None:  # noqa: F811
    """Bruno saw his hand; the server restarts; he leaves before the first move. Which
    seats were sent their hand lived in memory only, so his seat opened with the hand
    he saw, dealt to whoever took it next while he watched. Now a seat of a shown deal
    loaded from storage counts as seen: a computer player takes it, as without the
    restart."""
    t = two_players(app_client)
    first_state(app_client, t["id"], t["anna"])
    seen = first_state(app_client, t["id"], t["bruno"])["view"]["hand"]
    assert seen
    again = create_app(Settings(data_dir=tmp_path, bot_delay=0,
                                static_dir=tmp_path / "none", rates={}))
    with TestClient(again) as restarted:
        left = leave(restarted, t["id"], t["bruno"])
        assert left.status_code == 200, left.text
        assert left.json()["bot"] == "medium" and left.json()["seats"][1]["kind"] == "bot"
        carla = restarted.post(f"/api/tables/{t['id']}/join", json={"name": "Carla"})
        assert carla.status_code == 409, carla.text


def test_the_seat_that_completes_the_table_stores_that_the_deal_was_shown(
        app_client: TestClient, tmp_path: Path) -> None:  # noqa: F811
    """The last seat taken shows every hand: that is stored with that seat, not at the
    next change of seats (a process taking the table over reads it)."""
    from gametable.server.storage import SQLiteStorage  # noqa: PLC0415

    t = two_players(app_client)
    storage = SQLiteStorage(tmp_path / "gametable.sqlite3")
    try:
        row = storage.load_table(t["id"])
        assert row is not None and row.deal_shown is True
    finally:
        storage.close()


def test_after_a_restart_the_host_cannot_open_a_seat_that_saw_the_deal_at_once(
        app_client: TestClient, tmp_path: Path) -> None:  # noqa: F811
    """Before the first move, after a restart, the host opened the seat of a player who
    had seen their hand and not yet come back, and took it from a second browser with
    the invite link: the player's hand, read. The seat counts as seen: it opens only
    after the player has been away the usual time, with a seat link, as without the
    restart."""
    t = two_players(app_client)
    first_state(app_client, t["id"], t["anna"])
    assert first_state(app_client, t["id"], t["bruno"])["view"]["hand"]
    again = create_app(Settings(data_dir=tmp_path, bot_delay=0,
                                static_dir=tmp_path / "none", rates={}))
    with TestClient(again) as restarted:
        removed = restarted.post(f"/api/tables/{t['id']}/seats/1/remove", json={},
                                 headers={"X-Host-Token": t["host"]})
        assert removed.status_code == 409, removed.text
        assert removed.json()["code"] == "player_just_left"
        taken = restarted.post(f"/api/tables/{t['id']}/join", json={"name": "Mallory"})
        assert taken.status_code == 409, taken.text
