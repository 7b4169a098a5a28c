"""The HTTP API: creating, joining and filling tables; refusals that change nothing."""

from __future__ import annotations

import logging
import re
import time
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gametable.bots import base
from gametable.core.records import GameRecord, replay
from gametable.server.logname import log_name
from gametable.server.logtext import duration, game_time

HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "bot": "greedy"}


def create(client: TestClient, seats: list[dict[str, Any]], name: str | None = "Anna",
           **extra: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": "sequence-cats", "seats": seats,
                                                "name": name, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def test_games_lists_sequence_cats_with_its_schema_and_bots(client: TestClient) -> None:
    data = client.get("/api/games").json()
    (game,) = [g for g in data["games"] if g["name"] == "sequence-cats"]
    assert game["seats"]["allowed"] == [2, 3, 4, 6]
    assert "sequences_to_win" in game["config_schema"]["properties"]
    assert game["messages"]["is"]["sequence_cats"]["cards"]["manx"]["name"] == "Manarköttur"
    assert set(data["bots"]) >= {"greedy", "random"}
    # Invite links use the browser's address; a seat opens a minute after its person left.
    assert data["server"] == {"public_url": None, "reopen_after_seconds": 60.0}


def test_create_seats_the_creator_and_leaves_friends_seats_open(client: TestClient) -> None:
    created = create(client, [HUMAN, HUMAN, GREEDY])
    table = created["table"]
    assert created["seat"] == 0 and created["token"] and created["host_token"]
    assert [s["kind"] for s in table["seats"]] == ["human", "open", "bot"]
    assert table["seats"][0]["name"] == "Anna"
    assert table["status"] == "waiting"
    assert table["invite"] == f"/t/{table['id']}"
    info = client.get(f"/api/tables/{table['id']}").json()
    assert info["seats"] == table["seats"]
    # Tokens are secrets: the public table info never names them.
    assert "token" not in str(info) and "hash" not in str(info)


def test_a_table_with_every_seat_taken_plays_at_once(client: TestClient) -> None:
    table = create(client, [HUMAN, GREEDY])["table"]
    assert table["status"] == "playing"


def test_create_refuses_five_seats_with_the_rule(client: TestClient) -> None:
    response = client.post("/api/tables", json={"game": "sequence-cats", "seats": [HUMAN] * 5})
    assert response.status_code == 400
    error = response.json()
    assert error["rule"] == "SC-PLAY-1" and "5 players" in error["message"]


def test_create_refuses_unknown_games_bots_and_options(client: TestClient) -> None:
    unknown_game = client.post("/api/tables", json={"game": "chess", "seats": [HUMAN] * 2})
    assert unknown_game.status_code == 400 and "chess" in unknown_game.json()["message"]
    unknown_bot = client.post("/api/tables", json={
        "game": "sequence-cats", "seats": [HUMAN, {"kind": "bot", "bot": "deep-blue"}]})
    assert unknown_bot.status_code == 400 and "deep-blue" in unknown_bot.json()["message"]
    # A computer player's seat without a name was told there is none "called None".
    unnamed = client.post("/api/tables", json={
        "game": "sequence-cats", "seats": [HUMAN, {"kind": "bot", "bot": None}]})
    assert unnamed.status_code == 400 and unnamed.json()["code"] == "bad_bot"
    assert unnamed.json()["message"].startswith(
        "Seat 2 is for a computer player: say which one. Available: ")
    bad_option = client.post("/api/tables", json={
        "game": "sequence-cats", "seats": [HUMAN] * 2, "config": {"sequences_to_win": 9}})
    assert bad_option.status_code == 400 and "sequences_to_win" in bad_option.json()["message"]
    malformed = client.post("/api/tables", content=b"{not json",
                            headers={"Content-Type": "application/json"})
    assert malformed.status_code == 400


def test_a_dixit_deck_size_other_than_the_decks_is_refused(client: TestClient) -> None:
    """DX-DECK-1: a table's ``deck_size`` is its deck's number of cards; another one is
    refused (it was replaced without a word), and no table is made."""
    refused = client.post("/api/tables", json={
        "game": "dixit", "seats": [HUMAN] * 4, "config": {"deck_size": 300}})
    assert refused.status_code == 400
    error = refused.json()
    assert error["code"] == "bad_config" and error["rule"] == "DX-DECK-1"
    assert error["key"] == "dixit.errors.deck_size_not_the_decks"
    assert error["params"]["given"] == 300 and "not 300" in error["message"]
    created = client.post("/api/tables", json={
        "game": "dixit", "seats": [HUMAN] * 4,
        "config": {"deck_size": error["params"]["cards"]}})
    assert created.status_code == 201
    assert created.json()["table"]["public"]["deck_size"] == error["params"]["cards"]


def test_oversized_bodies_are_refused_before_reading(client: TestClient) -> None:
    body = b'{"game": "sequence-cats", "seats": [], "name": "' + b"x" * 100_000 + b'"}'
    response = client.post("/api/tables", content=body,
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert "too large" in response.json()["message"]


def test_join_takes_an_open_seat_and_refuses_taken_ones(client: TestClient) -> None:
    table = create(client, [HUMAN, HUMAN, HUMAN])["table"]
    joined = client.post(f"/api/tables/{table['id']}/join", json={"name": "Bjarni"}).json()
    assert joined["seat"] == 1 and joined["token"]
    taken = client.post(f"/api/tables/{table['id']}/join", json={"seat": 1, "name": "Eve"})
    assert taken.status_code == 409 and "already taken" in taken.json()["message"]
    client.post(f"/api/tables/{table['id']}/join", json={"seat": 2, "name": "Cara"})
    full = client.post(f"/api/tables/{table['id']}/join", json={"name": "Dan"})
    assert full.status_code == 409
    info = client.get(f"/api/tables/{table['id']}").json()
    assert [s["name"] for s in info["seats"]] == ["Anna", "Bjarni", "Cara"]
    assert info["status"] == "playing"


def test_a_seat_of_the_wrong_json_type_is_refused_not_read_as_a_number(
        client: TestClient) -> None:
    """``"seat": "1"`` or ``true`` is not seat 1: refused (400, the field named), and
    the seat stays open."""
    table = create(client, [HUMAN, HUMAN, HUMAN])["table"]
    for seat in ("1", True, 1.0):
        refused = client.post(f"/api/tables/{table['id']}/join",
                              json={"seat": seat, "name": "Eve"})
        assert refused.status_code == 400, (seat, refused.text)
        assert refused.json()["params"]["field"] == "seat"
    info = client.get(f"/api/tables/{table['id']}").json()
    assert [s["name"] for s in info["seats"]][1:] == [None, None]


def test_unknown_tables_are_404(client: TestClient) -> None:
    assert client.get("/api/tables/nope").status_code == 404
    response = client.post("/api/tables/nope/join", json={})
    assert response.status_code == 404 and "no table" in response.json()["message"]


def test_only_the_host_can_seat_computer_players(client: TestClient) -> None:
    created = create(client, [HUMAN, HUMAN])
    table_id = created["table"]["id"]
    refused = client.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "greedy"},
                          headers={"X-Host-Token": created["token"]})
    assert refused.status_code == 403
    seated = client.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "random"},
                         headers={"X-Host-Token": created["host_token"]})
    assert seated.status_code == 200
    assert seated.json()["seats"][1]["bot"] == "random"
    assert seated.json()["status"] == "playing"
    # A computer player's seat gets another one (another level).
    again = client.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "greedy"},
                        headers={"X-Host-Token": created["host_token"]})
    assert again.status_code == 200 and again.json()["seats"][1]["bot"] == "greedy"


def test_the_record_is_hidden_until_the_game_is_over(client: TestClient) -> None:
    created = create(client, [HUMAN, GREEDY])
    response = client.get(f"/api/tables/{created['table']['id']}/record")
    assert response.status_code == 403
    assert "once the game is over" in response.json()["message"]


def finished_bot_table(client: TestClient) -> str:
    created = create(client, [GREEDY, {"kind": "bot", "bot": "random"}], name=None)
    assert created["seat"] is None
    table_id: str = created["table"]["id"]
    # Watch the table until a state carries the outcome (however long the bots take).
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello"})
        while (message := ws.receive_json())["type"] != "state" or "outcome" not in message:
            pass
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"
    return table_id


def test_an_all_bot_table_plays_to_the_end_and_its_record_replays(client: TestClient) -> None:
    table_id = finished_bot_table(client)
    record = GameRecord.model_validate(client.get(f"/api/tables/{table_id}/record").json())
    result = replay(record)
    assert result.game.outcome(result.state).finished
    assert [s.bot for s in record.seats] == ["greedy", "random"]


def test_pages_are_served_for_the_lobby_and_invite_links(client: TestClient) -> None:
    # No client is built in this test app: the page explains how to build it.
    response = client.get("/t/abc")
    assert response.status_code == 503 and "not built" in response.text


def test_idle_tables_leave_memory_and_come_back_when_asked_for(client: TestClient) -> None:
    table_id = finished_bot_table(client)
    waiting = create(client, [HUMAN, HUMAN])["table"]["id"]
    manager = client.app.api.state.manager  # type: ignore[attr-defined]
    before = client.get(f"/api/tables/{table_id}").json()
    assert manager.evict_idle(now=time.monotonic() + 60) == 0  # not idle long enough
    assert manager.evict_idle(now=time.monotonic() + 2 * 3600) == 2
    assert table_id not in manager.tables and waiting not in manager.tables
    assert client.get(f"/api/tables/{table_id}").json() == before
    assert client.get(f"/api/tables/{table_id}/record").status_code == 200
    assert client.get(f"/api/tables/{waiting}").json()["status"] == "waiting"


def test_the_host_can_hand_an_offline_players_seat_to_a_computer(client: TestClient) -> None:
    created = create(client, [HUMAN, HUMAN])
    table_id = created["table"]["id"]
    friend = client.post(f"/api/tables/{table_id}/join", json={"name": "Bjarni"}).json()
    host = {"X-Host-Token": created["host_token"]}
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": friend["token"]})
        ws.receive_json()
        # Bjarni is connected: his seat stays his.
        busy = client.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "greedy"},
                           headers=host)
        assert busy.status_code == 409
    # Bjarni left: a computer player takes over, and his token no longer acts.
    taken = client.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "greedy"},
                        headers=host)
    assert taken.status_code == 200 and taken.json()["seats"][1]["kind"] == "bot"
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": friend["token"]})
        assert ws.receive_json()["code"] == "bad_token"


def test_games_list_triominos_and_a_solo_table_plays_at_once(client: TestClient) -> None:
    data = client.get("/api/games").json()
    (game,) = [g for g in data["games"] if g["name"] == "triominos"]
    assert game["seats"]["allowed"] == [1, 2, 3, 4, 5, 6]
    assert {"edition", "target_score", "rounds"} <= set(game["config_schema"]["properties"])
    response = client.post("/api/tables", json={"game": "triominos", "seats": [HUMAN],
                                                "name": "Solo", "config": {"rounds": 1}})
    assert response.status_code == 201, response.text
    table = response.json()["table"]
    assert table["status"] == "playing" and table["public"]["tiles_per_player"] == 9


def test_triominos_options_are_validated(client: TestClient) -> None:
    response = client.post("/api/tables", json={"game": "triominos", "seats": [HUMAN] * 2,
                                                "config": {"target_score": 10}})
    assert response.status_code == 400
    assert "target_score" in response.json()["message"]


def test_a_level_is_a_bot_name_and_the_seat_shows_it(client: TestClient) -> None:
    """``easy``/``medium``/``hard`` work wherever a bot name does, and stay on the seat."""
    table = create(client, [HUMAN, {"kind": "bot", "bot": "hard"}])["table"]
    assert table["seats"][1]["bot"] == "hard"
    assert client.get("/api/games").json()["bots"][:3] == ["easy", "medium", "hard"]


def test_each_game_names_the_bots_its_levels_seat_unchanged(client: TestClient) -> None:
    """The lobby offered "Hard" and "Simulator" in Sequence Cats as two opponents, one
    player under two names: ``levels`` says which of a game's bots a level is, so that
    the lobby can say so."""
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert games["sequence-cats"]["levels"] == {"medium": "greedy", "hard": "rollout"}
    assert games["triominos"]["levels"] == {"medium": "greedy", "hard": "search"}
    # Dixit's medium and easy play the strategy player at other temperatures.
    assert games["dixit"]["levels"] == {"hard": "semantic"}
    for game in games.values():
        assert set(game["levels"].values()) <= set(game["bots"])


def test_the_game_list_is_encoded_once_and_follows_a_bot_registered_later(
        client: TestClient) -> None:
    """``GET /api/games`` answers from one encoding (the same bytes each time), made
    again when a bot is registered after the first answer."""
    first = client.get("/api/games")
    assert first.headers["content-type"] == "application/json"
    assert client.get("/api/games").content == first.content
    assert "late-bot" not in first.json()["bots"]
    base.register_bot("late-bot", base.bot_factory("random"),  # type: ignore[arg-type]
                      plays=lambda game: game.describe()["name"] == "triominos")
    try:
        data = client.get("/api/games").json()
    finally:
        base._FACTORIES.pop("late-bot", None)
        base._PLAYS.pop("late-bot", None)
    assert "late-bot" in data["bots"]
    offered = {g["name"]: g["bots"] for g in data["games"]}
    assert "late-bot" in offered["triominos"] and "late-bot" not in offered["dixit"]
    assert "late-bot" not in client.get("/api/games").json()["bots"]


def test_each_game_lists_only_the_bots_that_play_it(client: TestClient) -> None:
    """The lobby offers a game only the bots that play it as themselves: Dixit's clue
    reader is not offered for Triominos (where it would only play ``greedy``)."""
    data = client.get("/api/games").json()
    offered = {g["name"]: g["bots"] for g in data["games"]}
    assert "semantic" in offered["dixit"] and "semantic" not in offered["triominos"]
    assert "rollout" in offered["sequence-cats"] and "rollout" not in offered["triominos"]
    assert "search" in offered["triominos"] and "search" not in offered["dixit"]
    for bots in offered.values():
        assert bots[:3] == ["easy", "medium", "hard"] and {"random", "greedy"} <= set(bots)
        assert set(bots) <= set(data["bots"])


def test_the_log_tells_a_table_s_life_by_its_log_name(client: TestClient,
                                                       caplog: pytest.LogCaptureFixture
                                                       ) -> None:
    """The server's log said nothing of a table between start-up and shut-down: now it
    says when one is made (its game and seats), when every seat is taken, and when its
    game is over; always by its log name, never its id (the invite link)."""
    caplog.set_level(logging.INFO)
    made = create(client, [HUMAN, HUMAN])
    table_id = made["table"]["id"]
    name = log_name(table_id)
    assert client.post(f"/api/tables/{table_id}/join", json={"name": "Bea"}).status_code == 200
    bots = create(client, [GREEDY, GREEDY], name=None)["table"]["id"]
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{bots}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the computer players' game did not end"
        time.sleep(0.05)
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("gametable")]
    assert f"table {name}: made for sequence-cats: 1 person, 1 open seat" in lines
    assert f"table {name}: every seat is taken: the game begins" in lines
    assert f"table {log_name(bots)}: made for sequence-cats: 2 computer players" in lines
    over = [line for line in lines if line.startswith(f"table {log_name(bots)}: game over")]
    assert len(over) == 1 and re.fullmatch(
        r"table t-\w+: game over after \d+ actions, \d+ s of play, "
        r"\d+ s after the table was made",
        over[0]), over
    assert not any(table_id in line or bots in line for line in lines)


@pytest.mark.parametrize(("seconds", "said"), [
    (0.4, "0 s"), (42, "42 s"), (59.4, "59 s"), (60, "1 min"), (719, "12 min"),
    (3599, "1 h"), (3600 + 5 * 60, "1 h 5 min"), (-1, "0 s")])
def test_a_duration_in_the_log_reads_as_people_say_it(seconds: float, said: str) -> None:
    assert duration(seconds) == said


def test_the_game_s_time_counts_its_play_apart_from_the_wait_for_players() -> None:
    table = SimpleNamespace(created=1000.0, first_action=None)
    assert game_time(table, now=1000.0 + 16 * 60) == (  # type: ignore[arg-type]
        "16 min after the table was made")
    table.first_action = 1000.0 + 13 * 60  # three players waited for 13 min
    assert game_time(table, now=1000.0 + 16 * 60) == (  # type: ignore[arg-type]
        "3 min of play, 16 min after the table was made")
