"""Host controls: removing a player, pausing the turn clock, ending the game early,
handing the host role on (and its passing on when the host leaves for good)."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient

from gametable.bots.base import _FACTORIES, register_bot
from gametable.core.records import GameRecord
from gametable.server import hosting
from gametable.server.app import Settings, create_app
from gametable.server.clock import ClockSettings
from gametable.server.logname import log_name
from gametable.server.refused import Refused
from gametable.server.storage import SQLiteStorage
from gametable.server.table import FINISHED, OPEN, PLAYING, WAITING, Table
from gametable.server.tables import SeatRequest, TableManager
from tests.aio import run_async
from tests.server.test_bot_failures import Hanging, failing_players  # noqa: F401 (fixture)
from tests.server.test_clock import messages, seated, until, with_manager

HUMAN = SeatRequest("human")


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    # A seat opens as soon as its person has gone (the grace that follows is tested with
    # its default below).
    app = create_app(Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none",
                              rates={}, reopen_after_seconds=0))
    with TestClient(app) as client:
        yield client


def two_players(client: TestClient, **extra: Any) -> dict[str, Any]:
    """A Sequence Cats table of Anna (seat 0, host) and Bruno (seat 1)."""
    made = client.post("/api/tables", json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}], **extra}).json()
    joined = client.post(f"/api/tables/{made['table']['id']}/join",
                         json={"name": "Bruno"}).json()
    return {"id": made["table"]["id"], "host": made["host_token"], "anna": made["token"],
            "bruno": joined["token"]}


def test_a_present_players_seat_goes_to_a_computer_player_not_to_someone_else(
        app_client: TestClient) -> None:
    """Mid-game the host could remove a connected player, take the open seat, read
    their hand (in Dixit also the card they gave and their vote) and hand it back: a
    present player's seat is never opened; a computer player may take it, and the
    player's connections are closed (4409)."""
    t = two_players(app_client)
    play_first_move(app_client, t["id"], t["anna"])
    url = f"/api/tables/{t['id']}/ws"
    headers = {"X-Host-Token": t["host"]}
    with app_client.websocket_connect(url) as bruno:
        bruno.send_json({"type": "hello", "token": t["bruno"]})
        assert bruno.receive_json()["seat"] == 1
        refused = app_client.post(f"/api/tables/{t['id']}/seats/1/remove", json={},
                                  headers={"X-Host-Token": t["anna"]})
        assert refused.status_code == 403 and refused.json()["code"] == "not_host"
        present = app_client.post(f"/api/tables/{t['id']}/seats/1/remove", json={},
                                  headers=headers)
        assert present.status_code == 409 and present.json()["code"] == "player_present"
        assert "Bruno is at the table" in present.json()["message"]
        info = app_client.get(f"/api/tables/{t['id']}").json()
        assert info["seats"][1]["kind"] == "human" and info["status"] == PLAYING
        taken = app_client.post(f"/api/tables/{t['id']}/join", json={"seat": 1})
        assert taken.status_code == 409  # nobody else may sit there
        removed = app_client.post(f"/api/tables/{t['id']}/seats/1/remove",
                                  json={"bot": "easy"}, headers=headers)
        assert removed.status_code == 200, removed.text
        assert removed.json()["seats"][1]["kind"] == "bot"
        assert close_code(bruno) == 4409


def close_code(ws: Any) -> int | None:
    """The code ``ws`` is closed with by the server (within its next ten messages)."""
    for _ in range(10):
        message = ws.receive()
        if message["type"] == "websocket.close":
            return int(message["code"])
    return None


def three_players(client: TestClient) -> dict[str, Any]:
    """A Sequence Cats table of Anna (seat 0, host), Bruno (1) and Carla (2)."""
    made = client.post("/api/tables", json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}] * 3}).json()
    table_id = made["table"]["id"]
    tokens = [client.post(f"/api/tables/{table_id}/join", json={"name": name}).json()["token"]
              for name in ("Bruno", "Carla")]
    return {"id": table_id, "host": made["host_token"], "anna": made["token"],
            "bruno": tokens[0],
            "carla": tokens[1]}


def wait_until_gone(client: TestClient, table_id: str, seat: int) -> None:
    deadline = time.monotonic() + 10  # the server notes that the player left
    while client.get(f"/api/tables/{table_id}").json()["seats"][seat]["connected"]:
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_a_present_players_seat_stays_theirs_while_another_seat_is_open(
        app_client: TestClient) -> None:
    """With one seat open mid-game the table waits (status ``waiting``), but the game has
    begun: the host still may not open a present player's seat and read their hand."""
    t = three_players(app_client)
    play_first_move(app_client, t["id"], t["anna"])
    url = f"/api/tables/{t['id']}/ws"
    headers = {"X-Host-Token": t["host"]}
    with app_client.websocket_connect(url) as bruno:
        bruno.send_json({"type": "hello", "token": t["bruno"]})
        assert bruno.receive_json()["seat"] == 1
        with app_client.websocket_connect(url) as carla:
            carla.send_json({"type": "hello", "token": t["carla"]})
            assert carla.receive_json()["seat"] == 2
        wait_until_gone(app_client, t["id"], 2)
        opened = app_client.post(f"/api/tables/{t['id']}/seats/2/remove", json={},
                                 headers=headers)
        assert opened.status_code == 200 and opened.json()["status"] == WAITING
        # Bruno's turn is held up: the state says whose it is, but offers no action
        # (each would be refused ``waiting``; docs/protocol.md).
        while (state := bruno.receive_json())["type"] != "state" or state["status"] != WAITING:
            pass
        assert state["to_act"] == [1] and state["legal"] == []
        present = app_client.post(f"/api/tables/{t['id']}/seats/1/remove", json={},
                                  headers=headers)
        assert present.status_code == 409 and present.json()["code"] == "player_present"
        assert "until the game is over" in present.json()["message"]
        seats = app_client.get(f"/api/tables/{t['id']}").json()["seats"]
        assert [s["kind"] for s in seats] == ["human", "human", OPEN]
        spy = app_client.post(f"/api/tables/{t['id']}/join", json={"seat": 1})
        assert spy.status_code == 409
        # A move waits for the seat: the game has begun, and is paused (it said "The game
        # starts when every seat is taken").
        bruno.send_json({"type": "action", "action": {"type": "pass"}, "version": 1})
        while (refused := bruno.receive_json())["type"] != "error":
            pass
        assert refused["code"] == "waiting"
        assert refused["message"] == (
            "The game is paused until every seat is taken again (1 still open).")


def test_before_the_first_move_the_host_changes_any_seat_and_every_hand_is_dealt_again(
        app_client: TestClient) -> None:
    """Before the first move the host may put the table right: a friend who joined the
    wrong table leaves it while still connected (their connections close, 4409), a
    computer player's seat opens for a friend who came late. Every hand is dealt again
    (the person leaving saw the seat's cards, which then tell nothing). Once the game has
    begun, a present player's seat no longer opens."""
    made = app_client.post("/api/tables", json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"},
                  {"kind": "human"}]}).json()
    table_id, headers = made["table"]["id"], {"X-Host-Token": made["host_token"]}
    bruno = app_client.post(f"/api/tables/{table_id}/join", json={"name": "Bruno"}).json()
    anna_before = deal_of(app_client, table_id, made["token"])
    with app_client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": bruno["token"]})
        assert ws.receive_json()["seat"] == 1
        present = app_client.post(f"/api/tables/{table_id}/seats/1/remove", json={},
                                  headers=headers)
        assert present.status_code == 200, present.text
        assert close_code(ws) == 4409
    opened = app_client.post(f"/api/tables/{table_id}/seats/2/remove", json={},
                             headers=headers)
    assert opened.status_code == 200, opened.text
    info = app_client.get(f"/api/tables/{table_id}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", OPEN, OPEN, OPEN]
    assert info["version"] == 0 and info["status"] == WAITING
    assert deal_of(app_client, table_id, made["token"]) != anna_before
    with app_client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": bruno["token"]})  # it opens nothing now
        assert ws.receive_json()["code"] == "bad_token"
    again = app_client.post(f"/api/tables/{table_id}/seats/2/remove", json={},
                            headers=headers)
    assert again.status_code == 409 and again.json()["code"] == "not_a_player"
    leveled = app_client.post(f"/api/tables/{table_id}/seats/3/bot", json={"bot": "hard"},
                              headers=headers)
    assert leveled.status_code == 200, leveled.text
    easier = app_client.post(f"/api/tables/{table_id}/seats/3/remove", json={"bot": "easy"},
                             headers=headers)
    assert easier.status_code == 200 and easier.json()["seats"][3]["bot"] == "easy"
    carla = app_client.post(f"/api/tables/{table_id}/join", json={"name": "Carla"}).json()
    dora = app_client.post(f"/api/tables/{table_id}/join", json={"name": "Dora"}).json()
    assert {carla["seat"], dora["seat"]} == {1, 2}
    play_first_move(app_client, table_id, made["token"])
    with app_client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": carla["token"]})
        assert ws.receive_json()["seat"] == carla["seat"]
        begun = app_client.post(f"/api/tables/{table_id}/seats/{carla['seat']}/remove",
                                json={}, headers=headers)
        assert begun.status_code == 409 and begun.json()["code"] == "player_present"
    bot_seat = app_client.post(f"/api/tables/{table_id}/seats/3/remove", json={},
                               headers=headers)
    assert bot_seat.status_code == 409 and bot_seat.json()["code"] == "not_a_player"


def hand_of(client: TestClient, table_id: str, token: str) -> list[Any]:
    """The hand ``token``'s seat is shown (its connection then closes)."""
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": token})
        while (message := ws.receive_json())["type"] != "state":
            pass
    hand: list[Any] = message["view"]["hand"]
    return hand


def deal_of(client: TestClient, table_id: str, token: str) -> int:
    """The deal (a keyed hash of the seed) ``token``'s seat is shown, with no hand while
    seats are open (its connection then closes)."""
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": token})
        while (message := ws.receive_json())["type"] != "state":
            pass
    if message["status"] == WAITING:
        assert message["view"] is None and message["legal"] == []  # no hand shown
    deal: int = message["deal"]
    return deal


@pytest.mark.parametrize("to", [{}, {"bot": "random"}])
def test_before_the_first_move_a_seat_that_changes_hands_is_dealt_again(
        app_client: TestClient, tmp_path: Path, to: dict[str, Any]) -> None:
    """The cards are dealt when the table is made. Someone who took a seat in the
    waiting room could look at its hand and leave, and once the host opened the seat (or
    gave it to a computer player) know the cards of whoever played it: no seat is shown
    a hand while seats are open, and a seat that changes hands then deals every hand
    again, from a new seed that is stored: the same deal comes back after a restart."""
    made = app_client.post("/api/tables", json={
        "game": "dixit", "name": "Anna", "seats": [{"kind": "human"}] * 4}).json()
    table_id, host = made["table"]["id"], made["host_token"]
    spy = app_client.post(f"/api/tables/{table_id}/join", json={"seat": 1}).json()
    peeked = deal_of(app_client, table_id, spy["token"])  # (and no hand)
    wait_until_gone(app_client, table_id, 1)
    wait_until_gone(app_client, table_id, 0)
    removed = app_client.post(f"/api/tables/{table_id}/seats/1/remove", json=to,
                              headers={"X-Host-Token": host})
    assert removed.status_code == 200, removed.text
    assert removed.json()["version"] == 0
    anna_after = deal_of(app_client, table_id, made["token"])
    assert anna_after not in (0, peeked)
    # The new seed was stored with the seat: a restarted server deals the same hands.
    again = create_app(Settings(data_dir=tmp_path, bot_delay=0,
                                static_dir=tmp_path / "none", rates={}))
    with TestClient(again) as restarted:
        assert deal_of(restarted, table_id, made["token"]) == anna_after


def test_a_seat_opens_for_someone_else_only_once_its_player_has_been_gone_a_while(
        tmp_path: Path) -> None:
    """A page reload, a phone asleep or a network changing closes a player's connection
    for a moment; a host who opened the seat then (and took it) would read their cards.
    The seat opens once its person has been gone ``reopen_after_seconds``; a computer
    player may take it at once."""
    app = create_app(Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none",
                              rates={}, reopen_after_seconds=0.8))
    with TestClient(app) as client:
        t = two_players(client)
        play_first_move(client, t["id"], t["anna"])
        headers = {"X-Host-Token": t["host"]}
        hand_of(client, t["id"], t["bruno"])
        wait_until_gone(client, t["id"], 1)
        early = client.post(f"/api/tables/{t['id']}/seats/1/remove", json={},
                            headers=headers)
        assert early.status_code == 409 and early.json()["code"] == "player_just_left"
        assert early.json()["params"]["seconds"] == 1
        assert "Bruno left moments ago" in early.json()["message"]
        assert client.get(f"/api/tables/{t['id']}").json()["seats"][1]["kind"] == "human"
        time.sleep(0.9)
        opened = client.post(f"/api/tables/{t['id']}/seats/1/remove", json={},
                             headers=headers)
        assert opened.status_code == 200, opened.text

        t = two_players(client)
        hand_of(client, t["id"], t["bruno"])
        wait_until_gone(client, t["id"], 1)
        to_bot = client.post(f"/api/tables/{t['id']}/seats/1/remove",
                             json={"bot": "random"}, headers={"X-Host-Token": t["host"]})
        assert to_bot.status_code == 200, to_bot.text


def test_the_log_names_a_table_without_its_id(app_client: TestClient,
                                              caplog: pytest.LogCaptureFixture) -> None:
    """A table's id is its invite link: whoever reads the server's log (a log collector)
    could take an open seat with it. The log names the table by a digest of its id."""
    caplog.set_level(logging.INFO)
    t = two_players(app_client)
    hand_of(app_client, t["id"], t["bruno"])
    wait_until_gone(app_client, t["id"], 1)
    headers = {"X-Host-Token": t["host"]}
    assert app_client.post(f"/api/tables/{t['id']}/seats/1/remove", json={},
                           headers=headers).status_code == 200
    assert app_client.post(f"/api/tables/{t['id']}/end", json={},
                           headers=headers).status_code == 200
    with app_client.websocket_connect(f"/api/tables/{t['id']}/ws") as anna:
        anna.send_json({"type": "hello", "token": t["anna"]})
        anna.send_json({"type": "rematch"})
        while (offer := anna.receive_json())["type"] != "rematch":
            pass
    logged = "\n".join(record.getMessage() for record in caplog.records
                       if record.name.startswith("gametable"))
    assert "the host removed seat 1" in logged and "asked to play again" in logged
    assert log_name(t["id"]) in logged and log_name(offer["table"]) in logged
    assert t["id"] not in logged and offer["table"] not in logged


def test_a_name_shows_what_it_says_and_is_nobody_elses_at_the_table(
        app_client: TestClient) -> None:
    """A name is cleaned as chat is (hidden characters, piled accents) and one that
    shows nothing is no name; a name someone at the table already has (case and accents
    aside) gets a number, so that nobody speaks under another's name."""
    made = app_client.post("/api/tables", json={
        "game": "dixit", "name": "Anna", "seats": [{"kind": "human"}] * 6}).json()
    url = f"/api/tables/{made['table']['id']}/join"
    names = [app_client.post(url, json={"name": name}).json()["seat"]
             for name in ("anna", "\u200b\u2060", "A\u0301nna", "Bru\u202eno"
                          + "\u0300" * 30, "anna")]
    seats = app_client.get(f"/api/tables/{made['table']['id']}").json()["seats"]
    assert names == [1, 2, 3, 4, 5]
    assert [s["name"] for s in seats] == [
        "Anna", "anna (2)", None, "Ánna (3)".replace("Á", "A\u0301"),
        "Bru no" + "\u0300" * 4, "anna (4)"]


def test_a_name_that_only_looks_like_anothers_gets_a_number_too(
        app_client: TestClient) -> None:
    """Look-alike letters (Cyrillic "А", mathematical bold "𝐀", full-width "Ａ") and
    blank letters after a name (a Hangul filler, the blank braille pattern) made seven
    names that all read "Anna" at one table: each now gets its number, and a blank
    letter is no part of a name."""
    made = app_client.post("/api/tables", json={
        "game": "dixit", "name": "Anna", "seats": [{"kind": "human"}] * 7}).json()
    url = f"/api/tables/{made['table']['id']}/join"
    tried = ["\u0410nna", "Ann\u0430", "\U0001d400nna", "Anna\u3164", "Anna\u2800",
             "\uff21nna"]
    for name in tried:
        assert app_client.post(url, json={"name": name}).status_code == 200
    seats = app_client.get(f"/api/tables/{made['table']['id']}").json()["seats"]
    names = [s["name"] for s in seats]
    assert names[0] == "Anna" and names[4:6] == ["Anna (5)", "Anna (6)"]
    assert all(name.endswith(f" ({i + 1})") for i, name in enumerate(names) if i), names


def test_marks_nobody_sees_and_ascii_look_alikes_do_not_make_another_anna(
        app_client: TestClient) -> None:
    """Invisible marks after a name (a variation selector, the combining grapheme joiner,
    a Mongolian free variation selector, a joiner) and ASCII that reads as another letter
    ("AIice" beside "Alice") made names that looked the same at one table: each gets a
    number now."""
    made = app_client.post("/api/tables", json={
        "game": "dixit", "name": "Anna", "seats": [{"kind": "human"}] * 8}).json()
    url = f"/api/tables/{made['table']['id']}/join"
    tried = ["Anna\ufe0f", "An\u034fna", "Anna\U000e0100", "Anna\u180b", "Anna\u200d",
             "Alice", "AIice"]
    for name in tried:
        assert app_client.post(url, json={"name": name}).status_code == 200
    names = [s["name"] for s in app_client.get(f"/api/tables/{made['table']['id']}").json()[
        "seats"]]
    assert all(name.endswith(f" ({i + 1})") for i, name in enumerate(names[1:6], 1)), names
    assert names[6] == "Alice" and names[7] == "AIice (2)"


def test_nobody_takes_the_name_a_page_gives_another_seat(app_client: TestClient) -> None:
    """A page calls a nameless person "Player 2": someone could take that name (in any
    language of the site) and speak as a nameless friend. Such a name gets a number;
    one's own seat's is one's own."""
    made = app_client.post("/api/tables", json={
        "game": "dixit", "name": "Player 6",
        "seats": [{"kind": "human"}] * 5 + [{"kind": "bot", "bot": "hard"}]
        + [{"kind": "human"}]}).json()
    url = f"/api/tables/{made['table']['id']}/join"
    assert made["table"]["seats"][0]["name"] == "Player 6 (2)"
    for name in ("", "Player 2", "Seat 2", "Jogador 2", "Player 7"):
        assert app_client.post(url, json={"name": name}).status_code == 200
    names = [s["name"] for s in app_client.get(f"/api/tables/{made['table']['id']}").json()[
        "seats"]]
    assert names == ["Player 6 (2)", None, "Player 2 (2)", "Seat 2 (2)",
                     "Jogador 2 (2)", None, "Player 7"], names


def test_a_player_who_left_is_removed_and_their_token_no_longer_acts(
        app_client: TestClient) -> None:
    t = two_players(app_client)
    url = f"/api/tables/{t['id']}/ws"
    with app_client.websocket_connect(url) as bruno:
        bruno.send_json({"type": "hello", "token": t["bruno"]})
        assert bruno.receive_json()["seat"] == 1
    deadline = time.monotonic() + 10  # the server notes that he left
    while app_client.get(f"/api/tables/{t['id']}").json()["seats"][1]["connected"]:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    removed = app_client.post(f"/api/tables/{t['id']}/seats/1/remove", json={},
                              headers={"X-Host-Token": t["host"]})
    assert removed.status_code == 200, removed.text
    info = removed.json()
    assert info["seats"][1]["kind"] == OPEN and info["status"] == WAITING
    with app_client.websocket_connect(url) as again:
        again.send_json({"type": "hello", "token": t["bruno"]})
        first = again.receive_json()
        assert first["type"] == "error" and first["code"] == "bad_token"
        welcome = again.receive_json()
        assert welcome["type"] == "welcome" and welcome["seat"] is None
        again.send_json({"type": "action", "action": {"type": "pass"}})
        while (reply := again.receive_json())["type"] != "error":
            pass
        assert reply["code"] == "not_seated"
    # Every seat was taken (the game has begun): the seat is kept for the link the
    # host sends; someone takes it with that link and play goes on.
    code = removed.json()["seat_code"]
    joined = app_client.post(f"/api/tables/{t['id']}/join",
                             json={"name": "Carla", "code": code})
    assert joined.json()["seat"] == 1, joined.text
    assert app_client.get(f"/api/tables/{t['id']}").json()["status"] == PLAYING


def test_the_host_may_remove_a_player_for_a_computer_player_but_not_themselves(
        app_client: TestClient) -> None:
    t = two_players(app_client)
    play_first_move(app_client, t["id"], t["anna"])
    headers = {"X-Host-Token": t["host"]}
    own = app_client.post(f"/api/tables/{t['id']}/seats/0/remove", json={}, headers=headers)
    assert own.status_code == 409 and own.json()["code"] == "remove_host"
    unknown = app_client.post(f"/api/tables/{t['id']}/seats/1/remove", json={"bot": "zz"},
                              headers=headers)
    assert unknown.status_code == 400 and unknown.json()["code"] == "bad_bot"
    to_bot = app_client.post(f"/api/tables/{t['id']}/seats/1/remove",
                             json={"bot": "easy"}, headers=headers).json()
    # Mid-game the computer player plays under Bruno's name (his moves stay his); the
    # pages say the host removed him, not that he left.
    # the computer player took over after the first move (docs/protocol.md, bot_since)
    assert to_bot["seats"][1] == {"seat": 1, "kind": "bot", "name": "Bruno", "bot": "easy",
                                  "connected": True, "removed": True, "bot_since": 1}
    again = app_client.post(f"/api/tables/{t['id']}/seats/1/remove", json={},
                            headers=headers)
    assert again.status_code == 409 and again.json()["code"] == "not_a_player"


def test_ending_early_keeps_the_record_marked_and_refuses_further_actions(
        app_client: TestClient) -> None:
    t = two_players(app_client)
    url = f"/api/tables/{t['id']}/ws"
    with app_client.websocket_connect(url) as anna:
        anna.send_json({"type": "hello", "token": t["anna"]})
        while (state := anna.receive_json())["type"] != "state":
            pass
        anna.send_json({"type": "action", "action": state["legal"][0], "version": 0})
        while (state := anna.receive_json())["type"] != "state":
            pass
        assert state["version"] == 1
        hidden = app_client.get(f"/api/tables/{t['id']}/record")
        assert hidden.status_code == 403
        ended = app_client.post(f"/api/tables/{t['id']}/end", json={},
                                headers={"X-Host-Token": t["host"]})
        assert ended.status_code == 200 and ended.json()["ended_early"] is True
        assert ended.json()["status"] == "finished"
        while (message := anna.receive_json())["type"] != "state":
            pass
        assert message["status"] == "finished" and "outcome" not in message
        # Nobody is to act in a game its host ended (Bruno's turn was next), and nothing
        # is offered (docs/protocol.md).
        assert message["to_act"] == [] and message["legal"] == []
    twice = app_client.post(f"/api/tables/{t['id']}/end", json={},
                            headers={"X-Host-Token": t["host"]})
    assert twice.status_code == 409 and twice.json()["code"] == "ended"
    with app_client.websocket_connect(url) as bruno:
        bruno.send_json({"type": "hello", "token": t["bruno"]})
        while (state := bruno.receive_json())["type"] != "state":
            pass
        assert state["to_act"] == [] and state["legal"] == []
        bruno.send_json({"type": "action", "action": {"type": "pass"}})
        while (reply := bruno.receive_json())["type"] != "error":
            pass
        assert reply["code"] == "ended"
    record = GameRecord.model_validate(app_client.get(f"/api/tables/{t['id']}/record").json())
    assert record.meta["ended_early"] is True and len(record.actions) == 1


def anna_and_a_computer_player(client: TestClient, bot: str) -> dict[str, Any]:
    """A Sequence Cats table of Anna (seat 0, to play first) and the computer player
    ``bot``: the answer to its creation."""
    made: dict[str, Any] = client.post("/api/tables", json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": bot}]}).json()
    return made


def test_a_game_ended_while_a_computer_player_thinks_logs_no_error(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The host ended the game while a computer player waited out its think time with
    its move decided: its move was refused and the log said the rules had refused a
    computer player's move, an error for the operator to chase. Nothing is logged now."""
    settings = Settings(data_dir=tmp_path, bot_delay=1.0, static_dir=tmp_path / "none",
                        rates={})
    with TestClient(create_app(settings)) as client:
        made = anna_and_a_computer_player(client, "random")
        play_first_move(client, made["table"]["id"], made["token"])
        time.sleep(0.3)  # the computer player has decided and waits out its think time
        ended = client.post(f"/api/tables/{made['table']['id']}/end", json={},
                            headers={"X-Host-Token": made["host_token"]})
        assert ended.status_code == 200, ended.text
        time.sleep(1.2)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []


def test_an_ended_game_stays_ended_after_a_restart(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none",
                        rates={})
    with TestClient(create_app(settings)) as client:
        t = two_players(client)
        client.post(f"/api/tables/{t['id']}/end", json={}, headers={"X-Host-Token": t["host"]})
    with TestClient(create_app(settings)) as client:
        info = client.get(f"/api/tables/{t['id']}").json()
        assert info["ended_early"] is True and info["status"] == "finished"


def test_the_host_pauses_and_resumes_the_clock_and_deadlines_move_on(
        app_client: TestClient) -> None:
    t = two_players(app_client, clock={"turn_seconds": 600})
    headers = {"X-Host-Token": t["host"]}
    with app_client.websocket_connect(f"/api/tables/{t['id']}/ws") as anna:
        anna.send_json({"type": "hello", "token": t["anna"]})

        def next_clock(done: Any) -> dict[str, Any]:
            while (message := anna.receive_json())["type"] != "clock" or not done(message):
                pass
            return message

        clock = next_clock(lambda m: "0" in m["deadlines"])
        deadline = clock["deadlines"]["0"]
        assert clock["paused_at"] is None
        paused = app_client.post(f"/api/tables/{t['id']}/clock", json={"paused": True},
                                 headers=headers)
        assert paused.status_code == 200
        clock = next_clock(lambda m: m["paused_at"] is not None)
        assert clock["deadlines"]["0"] == deadline
        app_client.post(f"/api/tables/{t['id']}/clock", json={"paused": False},
                        headers=headers)
        clock = next_clock(lambda m: m["paused_at"] is None)
        assert clock["deadlines"]["0"] >= deadline
    no_clock = two_players(app_client)
    refused = app_client.post(f"/api/tables/{no_clock['id']}/clock", json={"paused": True},
                              headers={"X-Host-Token": no_clock["host"]})
    assert refused.status_code == 409 and refused.json()["code"] == "no_clock"


def test_a_paused_clock_sends_nobody_away(tmp_path: Path) -> None:
    async def main() -> None:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=0)
        try:
            table, host, _, ann = await manager.create(
                "sequence-cats", {}, [HUMAN, SeatRequest("bot", bot="greedy")], "Ann",
                clock=ClockSettings(turn_seconds=0.4, cover="greedy"))
            sock, task = await seated(manager, table, ann)  # her time runs once she is here
            await hosting.pause_clock(manager, table.id, host, True)
            await asyncio.sleep(0.8)
            assert table.version == 0 and table.clock is not None and not table.clock.away
            await hosting.pause_clock(manager, table.id, host, False)
            # Resumed, her time runs out (with nobody else at the table, the computer
            # player covering for her then waits out a turn's time before each move).
            await until(lambda: table.clock is not None and table.clock.away == {0: "turn"})
            sock.inbox.put_nowait(None)
            await task
        finally:
            await manager.stop()
            storage.close()
    run_async(main())


def test_the_host_role_is_handed_on_and_passes_on_when_the_host_leaves(
        tmp_path: Path) -> None:
    async def main() -> None:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=0, host_gone_seconds=0.3)
        manager.watch_connections = lambda table: hosting.watch_host(manager, table)
        try:
            table, host, _, anna_token = await manager.create(
                "triominos", {}, [HUMAN, HUMAN, HUMAN], "Anna")
            _, bruno_token = await manager.join(table.id, 1, "Bruno")
            await manager.join(table.id, 2, "Carla")  # never connects
            anna, anna_task = await seated(manager, table, anna_token)
            bruno, bruno_task = await seated(manager, table, bruno_token)
            with pytest.raises(Refused) as offline:
                await hosting.hand_host(manager, table.id, host, 2)
            assert offline.value.code == "not_connected"
            await hosting.hand_host(manager, table.id, host, 1)
            await until(lambda: bool(messages(bruno, "host")))
            bruno_host = messages(bruno, "host")[0]["host_token"]
            assert table.host_seat == 1 and not messages(anna, "host")
            with pytest.raises(Refused) as old:
                await hosting.end_game(manager, table.id, host)
            assert old.value.code == "not_host"
            # Bruno closes his page for good; Anna is here: the role passes to her.
            bruno.inbox.put_nowait(None)
            await bruno_task
            await until(lambda: table.host_seat == 0 and bool(messages(anna, "host")),
                        timeout=30)
            anna_host = messages(anna, "host")[-1]["host_token"]
            assert anna_host != bruno_host
            with pytest.raises(Refused):
                await hosting.pause_clock(manager, table.id, bruno_host, True)
            await hosting.end_game(manager, table.id, anna_host)
            assert table.ended is not None
            anna.inbox.put_nowait(None)
            await anna_task
        finally:
            await manager.stop()
            storage.close()
    run_async(main())


def test_the_host_switches_watching_off_and_spectators_are_closed_and_refused(
        tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none",
                        rates={})
    with TestClient(create_app(settings)) as client:
        t = two_players(client)
        url = f"/api/tables/{t['id']}/ws"
        assert client.get(f"/api/tables/{t['id']}").json()["watching"] is True
        with client.websocket_connect(url) as watcher, \
                client.websocket_connect(url) as anna:
            watcher.send_json({"type": "hello"})
            assert watcher.receive_json()["seat"] is None
            anna.send_json({"type": "hello", "token": t["anna"]})
            assert anna.receive_json()["seat"] == 0
            refused = client.post(f"/api/tables/{t['id']}/watching",
                                  json={"allowed": False}, headers={"X-Host-Token": "x"})
            assert refused.status_code == 403
            off = client.post(f"/api/tables/{t['id']}/watching", json={"allowed": False},
                              headers={"X-Host-Token": t["host"]})
            assert off.status_code == 200 and off.json()["watching"] is False
            told = None
            for _ in range(10):
                message = watcher.receive()
                if message["type"] == "websocket.close":
                    break
                data = json.loads(message["text"])
                if data["type"] == "error":
                    told = data
            assert told is not None and told["code"] == "watching_off"
            assert message["code"] == 4410
            # The players play on.
            while (state := anna.receive_json())["type"] != "state":
                pass
            anna.send_json({"type": "action", "action": state["legal"][0]})
            while (state := anna.receive_json())["type"] != "state":
                pass
            assert state["version"] == 1
    with TestClient(create_app(settings)) as client:  # after a restart, still off
        with client.websocket_connect(url) as again:
            again.send_json({"type": "hello", "token": "not-a-seat"})
            codes = [again.receive_json()["code"], again.receive_json()["code"]]
            assert codes == ["bad_token", "watching_off"]
        client.post(f"/api/tables/{t['id']}/watching", json={"allowed": True},
                    headers={"X-Host-Token": t["host"]})
        with client.websocket_connect(url) as welcome:
            welcome.send_json({"type": "hello"})
            assert welcome.receive_json()["type"] == "welcome"


def test_with_watching_off_a_finished_games_record_and_replay_are_for_its_players_only(
        app_client: TestClient) -> None:
    """A host who switched watching off kept strangers from the game while it ran, yet
    once it was over anyone with the table's link (every invite and watch link holds
    it) got the whole record and a replay with every hand. With watching off both go
    to the table's players and host only; with watching on, to anyone, as before."""
    t = two_players(app_client)
    table = f"/api/tables/{t['id']}"
    off = app_client.post(f"{table}/watching", json={"allowed": False},
                          headers={"X-Host-Token": t["host"]})
    assert off.status_code == 200
    play_first_move(app_client, t["id"], t["anna"])
    ended = app_client.post(f"{table}/end", json={}, headers={"X-Host-Token": t["host"]})
    assert ended.status_code == 200 and ended.json()["status"] == "finished"
    for path in ("record", "replay?seat=1"):
        for headers in ({}, {"X-Seat-Token": "not-a-seat"}, {"X-Host-Token": t["anna"]}):
            refused = app_client.get(f"{table}/{path}", headers=headers)
            assert refused.status_code == 403, (path, headers)
            assert refused.json()["code"] == "watching_off"
            assert "for its players only" in refused.json()["message"]
        for headers in ({"X-Seat-Token": t["anna"]}, {"X-Seat-Token": t["bruno"]},
                        {"X-Host-Token": t["host"]}):
            given = app_client.get(f"{table}/{path}", headers=headers)
            assert given.status_code == 200
            # A shared cache in front of the server kept none of them for strangers.
            assert given.headers["cache-control"] == "private, no-store", (path, headers)
    record = GameRecord.model_validate(
        app_client.get(f"{table}/record", headers={"X-Seat-Token": t["bruno"]}).json())
    assert len(record.actions) == 1
    on = app_client.post(f"{table}/watching", json={"allowed": True},
                         headers={"X-Host-Token": t["host"]})
    assert on.status_code == 200
    assert app_client.get(f"{table}/record").status_code == 200
    assert app_client.get(f"{table}/replay?seat=1").status_code == 200


def test_nobody_sits_down_at_a_table_its_host_ended_while_seats_were_open(
        app_client: TestClient) -> None:
    """A stranger could still take an open seat of a table ended in its waiting room
    (200 and a token), and then, seated at a finished table, ask for a rematch."""
    made = app_client.post("/api/tables", json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    table_id = made["table"]["id"]
    ended = app_client.post(f"/api/tables/{table_id}/end", json={},
                            headers={"X-Host-Token": made["host_token"]})
    assert ended.status_code == 200 and ended.json()["status"] == "finished"
    joined = app_client.post(f"/api/tables/{table_id}/join", json={"name": "Stranger"})
    assert joined.status_code == 409 and joined.json()["code"] == "ended"
    assert joined.json()["message"] == "This game is over: the host ended it."
    # Nor a computer player: its host seated one and rewrote the finished record's seats.
    seated = app_client.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "hard"},
                             headers={"X-Host-Token": made["host_token"]})
    assert seated.status_code == 409 and seated.json()["code"] == "ended"
    info = app_client.get(f"/api/tables/{table_id}").json()
    assert info["seats"][1]["kind"] == OPEN and info["seats"][1]["bot"] is None


def play_first_move(client: TestClient, table_id: str, token: str) -> None:
    """The seat of ``token`` (to play first) plays its first legal action."""
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": token})
        while not (message := ws.receive_json()).get("legal"):
            pass
        ws.send_json({"type": "action", "action": message["legal"][0],
                      "version": message["version"]})
        while (ws.receive_json())["type"] != "state":
            pass


def test_a_seat_link_the_host_replaced_is_refused_as_no_longer_valid(
        app_client: TestClient) -> None:
    """The host made seat 2 a new link: the old link was refused with "Seat 2 is kept
    for the player the host invited to it", the words for someone who came with no
    link, and a page had no way to tell that its code would never work. A code that
    keeps no seat at the table is refused as ``seat_link_invalid`` (the page forgets
    it); the link of another kept seat is still its seat's: its holder, who pressed the
    wrong seat's button, is told which seat the link keeps (they were told to ask the
    host for a link, the one they held)."""
    made = app_client.post("/api/tables", json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]}).json()
    table = made["table"]["id"]
    headers = {"X-Host-Token": made["host_token"]}
    old = app_client.post(f"/api/tables/{table}/seats/1/link", headers=headers).json()["code"]
    new = app_client.post(f"/api/tables/{table}/seats/1/link", headers=headers).json()["code"]
    other = app_client.post(f"/api/tables/{table}/seats/2/link",
                            headers=headers).json()["code"]
    join = f"/api/tables/{table}/join"
    for body in ({"seat": 1, "code": old}, {"code": old}):
        refused = app_client.post(join, json={**body, "name": "Carla"})
        assert refused.status_code == 403, refused.text
        assert refused.json()["code"] == "seat_link_invalid"
        assert refused.json()["message"] == (
            "This link is not valid for seat 2, or no longer is: ask the host for the "
            "seat's new link.")
    kept = app_client.post(join, json={"seat": 1, "code": other, "name": "Carla"})
    assert kept.status_code == 403 and kept.json()["code"] == "seat_link_other"
    assert kept.json()["message"] == "Your link keeps seat 3 for you: take that one."
    taken = app_client.post(join, json={"code": new, "name": "Carla"})
    assert taken.status_code == 200 and taken.json()["seat"] == 1, taken.text


def test_a_seat_link_without_a_seat_named_takes_the_seat_it_keeps(
        app_client: TestClient) -> None:
    """A join with a seat link's code and no seat took the first open seat the code
    might take, an ordinary open one before the seat kept for the link's holder, which
    then stayed kept for nobody."""
    made = app_client.post("/api/tables", json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]}).json()
    table = made["table"]["id"]
    headers = {"X-Host-Token": made["host_token"]}
    code = app_client.post(f"/api/tables/{table}/seats/2/link", headers=headers).json()["code"]
    taken = app_client.post(f"/api/tables/{table}/join", json={"code": code, "name": "Bea"})
    assert taken.status_code == 200 and taken.json()["seat"] == 2, taken.text
    seats = app_client.get(f"/api/tables/{table}").json()["seats"]
    assert [(s["kind"], s.get("invited", False)) for s in seats] == [
        ("human", False), ("open", False), ("human", False)]


def test_a_seat_opened_once_the_game_has_begun_is_kept_for_its_link(
        app_client: TestClient) -> None:
    """Mid-game the host opens the seat of a player who left, for someone to go on with
    their hand; anyone with the table's id could take it first — a table's id is in its
    watch link, which may be shared widely (a stream, a big screen), and every player
    has the invite link, so one of them could hold two seats and see two hands. Such a
    seat is now kept for whoever the host gives its link: the join needs the link's
    code; the host can make a new link (the old one then stops working); the code is no
    seat token."""
    app = app_client.app.api  # type: ignore[attr-defined]
    app.state.manager.reopen_after_seconds = 0
    t = two_players(app_client)
    first = app.state.manager.tables[t["id"]].game.to_act(
        app.state.manager.tables[t["id"]].state)
    play_first_move(app_client, t["id"], t["anna"] if 0 in first else t["bruno"])
    hand_of(app_client, t["id"], t["bruno"])
    wait_until_gone(app_client, t["id"], 1)
    headers = {"X-Host-Token": t["host"]}
    opened = app_client.post(f"/api/tables/{t['id']}/seats/1/remove", json={},
                             headers=headers)
    assert opened.status_code == 200, opened.text
    code = opened.json()["seat_code"]
    assert code and opened.json()["seats"][1] == {
        "seat": 1, "kind": "open", "name": None, "bot": None, "connected": False,
        "invited": True, "removed": True}
    join = f"/api/tables/{t['id']}/join"
    for body in ({"seat": 1}, {}):
        refused = app_client.post(join, json={**body, "name": "Eve"})
        assert refused.status_code == 403, refused.text
        assert refused.json()["code"] == "seat_invited"
        assert "ask the host for the seat's link" in refused.json()["message"]
    wrong = app_client.post(join, json={"seat": 1, "code": "wrong", "name": "Eve"})
    assert wrong.status_code == 403 and wrong.json()["code"] == "seat_link_invalid"
    # The code opens no seat as a token would.
    with app_client.websocket_connect(f"/api/tables/{t['id']}/ws") as ws:
        ws.send_json({"type": "hello", "token": code})
        while (welcome := ws.receive_json())["type"] != "welcome":
            pass
        assert welcome["seat"] is None
    # Only the host makes a new link; the old one stops working.
    assert app_client.post(f"/api/tables/{t['id']}/seats/1/link",
                           headers={"X-Host-Token": t["anna"]}).status_code == 403
    assert app_client.post(f"/api/tables/{t['id']}/seats/0/link",
                           headers=headers).json()["code"] == "seat_taken"
    fresh = app_client.post(f"/api/tables/{t['id']}/seats/1/link", headers=headers)
    assert fresh.status_code == 200 and fresh.json()["code"] != code
    stale = app_client.post(join, json={"seat": 1, "code": code})
    assert stale.status_code == 403 and stale.json()["code"] == "seat_link_invalid"
    taken = app_client.post(join, json={"code": fresh.json()["code"], "name": "Cleo"})
    assert taken.status_code == 200, taken.text
    assert taken.json()["seat"] == 1
    assert hand_of(app_client, t["id"], taken.json()["token"])
    info = app_client.get(f"/api/tables/{t['id']}").json()
    assert info["seats"][1]["name"] == "Cleo" and "invited" not in info["seats"][1]
    assert "removed" not in info["seats"][1]  # Cleo's seat: nobody removed her


def test_a_seat_that_changed_hands_names_its_earlier_moves_after_who_made_them(
        tmp_path: Path) -> None:
    """Bruno moved, went away, and the host opened his seat for Cleo: the pages named
    Bruno's move after the open seat ("Open seat played …"), then after Cleo, from the
    seat's one occupant. The table says who held a seat before (``earlier``,
    docs/protocol.md), after a restart too, and so do the record and its replay. Cleo
    renaming herself is no change of hands; a computer player taking her seat over
    says since when itself (``bot_since``)."""
    settings = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none",
                        rates={}, reopen_after_seconds=0)
    bruno = {"until": 2, "name": "Bruno", "bot": None}
    with TestClient(create_app(settings)) as client:
        t = two_players(client)
        manager = client.app.api.state.manager  # type: ignore[attr-defined]
        tokens = {0: t["anna"], 1: t["bruno"]}

        def move() -> None:
            table = manager.tables[t["id"]]
            (seat,) = table.game.to_act(table.state)
            play_first_move(client, t["id"], tokens[seat])

        move()
        move()  # one move each
        wait_until_gone(client, t["id"], 1)
        headers = {"X-Host-Token": t["host"]}
        opened = client.post(f"/api/tables/{t['id']}/seats/1/remove", json={},
                             headers=headers)
        assert opened.status_code == 200, opened.text
        assert opened.json()["seats"][1]["earlier"] == [bruno]
        assert "earlier" not in opened.json()["seats"][0]
        taken = client.post(f"/api/tables/{t['id']}/join",
                            json={"code": opened.json()["seat_code"], "name": "Cleo"})
        assert taken.status_code == 200, taken.text
        tokens[1] = taken.json()["token"]
        renamed = client.post(f"/api/tables/{t['id']}/name", json={"name": "Cleo B."},
                              headers={"X-Seat-Token": tokens[1]})
        assert renamed.status_code == 200, renamed.text
        move()
        move()  # Anna's, then Cleo's: 4 actions
        seat = client.get(f"/api/tables/{t['id']}").json()["seats"][1]
        assert (seat["name"], seat["earlier"]) == ("Cleo B.", [bruno])
    with TestClient(create_app(settings)) as client:
        seat = client.get(f"/api/tables/{t['id']}").json()["seats"][1]
        assert (seat["name"], seat["earlier"]) == ("Cleo B.", [bruno])
        wait_until_gone(client, t["id"], 1)
        over = client.post(f"/api/tables/{t['id']}/seats/1/remove", json={"bot": "easy"},
                           headers=headers)
        assert over.status_code == 200, over.text
        seat = over.json()["seats"][1]
        assert (seat["name"], seat["bot"], seat["bot_since"], seat["earlier"]) == (
            "Cleo B.", "easy", 4, [bruno])
        assert client.post(f"/api/tables/{t['id']}/end", json={},
                           headers=headers).status_code == 200
        record = client.get(f"/api/tables/{t['id']}/record").json()
        assert record["seats"][1] == {"name": "Cleo B.", "bot": "easy", "bot_since": 4,
                                      "earlier": [bruno]}
        assert "earlier" not in record["seats"][0]
        GameRecord.model_validate(record)
        steps = client.get(f"/api/tables/{t['id']}/replay",
                           headers={"X-Seat-Token": t["anna"]}).json()
        assert steps["seats"][1]["earlier"] == [bruno]
        again = client.post("/api/replay", content=json.dumps(record))
        assert again.status_code == 200, again.text
        assert again.json()["seats"][1]["earlier"] == [bruno]


def test_a_seat_whose_person_the_host_removed_says_so_after_a_restart(
        tmp_path: Path) -> None:
    """docs/protocol.md: a seat whose person the host removed says ``"removed": true``
    until it changes hands again, so that the pages say "the host removed Bruno", not
    that he left. It was kept in memory only: after a restart (or another process taking
    the table over) both seats read as ones their people left. It is stored with the
    seat: a computer player given another level keeps it, someone taking the seat drops
    it."""
    settings = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none",
                        rates={}, reopen_after_seconds=0)
    headers: dict[str, str] = {}
    with TestClient(create_app(settings)) as client:
        t = three_players(client)
        headers["X-Host-Token"] = t["host"]
        play_first_move(client, t["id"], t["anna"])
        for seat in (1, 2):
            wait_until_gone(client, t["id"], seat)
        to_bot = client.post(f"/api/tables/{t['id']}/seats/1/remove", json={"bot": "easy"},
                             headers=headers)
        assert to_bot.status_code == 200, to_bot.text
        level = client.post(f"/api/tables/{t['id']}/seats/1/bot", json={"bot": "hard"},
                            headers=headers)
        assert level.status_code == 200, level.text
        opened = client.post(f"/api/tables/{t['id']}/seats/2/remove", json={},
                             headers=headers)
        assert opened.status_code == 200, opened.text
        code = opened.json()["seat_code"]
        seats = client.get(f"/api/tables/{t['id']}").json()["seats"]
        assert [(s["kind"], s["bot"], s.get("removed")) for s in seats] == [
            ("human", None, None), ("bot", "hard", True), ("open", None, True)]
    with TestClient(create_app(settings)) as client:
        seats = client.get(f"/api/tables/{t['id']}").json()["seats"]
        assert [(s["kind"], s["bot"], s.get("removed")) for s in seats] == [
            ("human", None, None), ("bot", "hard", True), ("open", None, True)]
        taken = client.post(f"/api/tables/{t['id']}/join",
                            json={"code": code, "name": "Dora"})
        assert taken.status_code == 200, taken.text
    with TestClient(create_app(settings)) as client:
        seats = client.get(f"/api/tables/{t['id']}").json()["seats"]
        assert [(s["kind"], s["name"], s.get("removed")) for s in seats] == [
            ("human", "Anna", None), ("bot", "Bruno", True), ("human", "Dora", None)]


def test_before_the_first_move_the_host_changes_the_options_and_every_hand_is_dealt_again(
        app_client: TestClient, tmp_path: Path) -> None:
    """A wrong option (the edition, the target, the turn clock) once meant a new table and
    a new link for everyone. Before the first move the host gives the table new options:
    its info says them, every hand is dealt again (stored, so a restart deals the same),
    and only the host may; options the rules refuse for the seats change nothing
    (DX-7P-1: Team Dixit needs an even count); once every seat is taken (the seats see
    their hands) they are refused."""
    made = app_client.post("/api/tables", json={
        "game": "dixit", "name": "Anna",
        "config": {"edition": "IS", "first_storyteller": "first_seat"},  # Anna tells first
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"},
                  {"kind": "human"}]}).json()
    table_id, headers = made["table"]["id"], {"X-Host-Token": made["host_token"]}
    bruno = app_client.post(f"/api/tables/{table_id}/join", json={"name": "Bruno"}).json()
    before = deal_of(app_client, table_id, made["token"])
    url = f"/api/tables/{table_id}/options"
    wanted = {"config": {"edition": "PT", "target_score": 20, "first_storyteller": "first_seat"},
              "clock": {"turn_seconds": 60, "cover": "easy"}}
    refused = app_client.post(url, json=wanted, headers={"X-Host-Token": bruno["token"]})
    assert refused.status_code == 403 and refused.json()["code"] == "not_host"
    bad = app_client.post(url, json={"config": {"variant": "team", "first_storyteller":
                                                "first_seat"}},
                          headers=headers)
    assert bad.status_code == 400, bad.text
    assert "variant" not in app_client.get(f"/api/tables/{table_id}").json()["config"]
    assert deal_of(app_client, table_id, made["token"]) == before

    with app_client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": bruno["token"]})
        assert ws.receive_json()["type"] == "welcome"
        changed = app_client.post(url, json=wanted, headers=headers)
        assert changed.status_code == 200, changed.text
        info = changed.json()
        assert info["config"]["edition"] == "PT" and info["config"]["target_score"] == 20
        assert info["clock"]["turn_seconds"] == 60 and info["version"] == 0
        told = [ws.receive_json() for _ in range(3)]
        table = next(m for m in told if m["type"] == "table")
        assert table["table"]["config"]["edition"] == "PT"
    after = deal_of(app_client, table_id, made["token"])
    assert after not in (0, before)
    # The same options again change nothing: asking deals no new hand.
    for _ in range(3):
        same = app_client.post(url, json=wanted, headers=headers)
        assert same.status_code == 200 and same.json()["config"] == info["config"]
        assert deal_of(app_client, table_id, made["token"]) == after
    again = create_app(Settings(data_dir=tmp_path, bot_delay=0,
                                static_dir=tmp_path / "none", rates={}))
    with TestClient(again) as restarted:
        info = restarted.get(f"/api/tables/{table_id}").json()
        assert info["config"]["edition"] == "PT" and info["clock"]["turn_seconds"] == 60
        assert deal_of(restarted, table_id, made["token"]) == after
    # Once every seat is taken the seats see their hands: the options stand.
    app_client.post(f"/api/tables/{table_id}/join", json={"name": "Carla"})
    assert len(hand_of(app_client, table_id, made["token"])) == 6
    late = app_client.post(url, json={"config": {}}, headers=headers)
    assert late.status_code == 409 and late.json()["code"] == "options_begun"
    assert "The game has begun" in late.json()["message"]


def test_a_computer_player_given_an_absent_persons_seat_once_every_seat_was_taken_keeps_the_deal(
        app_client: TestClient) -> None:
    """Every seat was taken, so the seats saw their hands: the host giving an absent
    person's seat to a computer player ("take over") before the first move deals nothing
    again (dealing again on every change of hands let the others deal until a hand
    suited them); the computer player plays the seat's hand."""
    made = app_client.post("/api/tables", json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"},
                  {"kind": "bot", "bot": "easy"}]}).json()
    table_id, host = made["table"]["id"], made["host_token"]
    mallory = app_client.post(f"/api/tables/{table_id}/join", json={"seat": 1}).json()
    assert hand_of(app_client, table_id, mallory["token"])
    anna_before = hand_of(app_client, table_id, made["token"])
    deal = deal_of(app_client, table_id, made["token"])
    wait_until_gone(app_client, table_id, 1)
    taken = app_client.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "easy"},
                            headers={"X-Host-Token": host})
    assert taken.status_code == 200, taken.text
    assert taken.json()["seats"][1]["kind"] == "bot"
    assert deal_of(app_client, table_id, made["token"]) == deal
    if taken.json()["version"] == 0:
        assert hand_of(app_client, table_id, made["token"]) == anna_before


def test_a_host_token_handed_on_while_a_request_waits_no_longer_acts(
        tmp_path: Path) -> None:
    """The host token was checked before the table's lock was taken: a request sent with
    it while the role was being handed on ran afterwards with the old token's authority.
    It is checked again under the lock."""
    async def body(manager: TableManager) -> None:
        table, host, _, _ = await manager.create(
            "triominos", {}, [HUMAN, HUMAN, HUMAN], "Anna")
        await manager.join(table.id, 1, "Bruno")
        calls: list[Callable[[], Awaitable[Any]]] = [
            lambda: hosting.remove_player(manager, table.id, 1, host),
            lambda: hosting.end_game(manager, table.id, host),
            lambda: hosting.set_watching(manager, table.id, host, False),
            lambda: manager.seat_bot(table.id, 2, "easy", host),
            lambda: manager.seat_link(table.id, 2, host),
        ]
        for call in calls:
            async with table.lock:  # a hand-over holds the lock while it is stored
                waiting = asyncio.ensure_future(call())
                await asyncio.sleep(0.05)  # the request passed the first check
                previous, table.host_hash = table.host_hash, "someone-else"
            with pytest.raises(Refused) as refused:
                await waiting
            assert refused.value.code == "not_host"
            table.host_hash = previous
        assert table.seats[1].name == "Bruno" and table.ended is None
        assert table.watching and table.seats[2].kind == OPEN

    with_manager(tmp_path, body)


def test_a_move_chosen_on_a_hand_dealt_again_is_refused_as_stale(
        app_client: TestClient) -> None:
    """The version stays 0 when the cards are dealt again before the game begins, so a
    move chosen on an old hand was played on the new one, which its player had not seen.
    No hand is shown before every seat is taken, and none is dealt again after; a state
    still says its deal and an action the deal it was chosen on: one of another deal is
    refused as stale."""
    made = app_client.post("/api/tables", json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    table_id = made["table"]["id"]
    app_client.post(f"/api/tables/{table_id}/join", json={"name": "Bruno"})
    with app_client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        ws.send_json({"type": "hello", "token": made["token"]})
        while (shown := ws.receive_json())["type"] != "state":
            pass
        assert shown["deal"] and shown["legal"]
        ws.send_json({"type": "action", "action": shown["legal"][-1], "version": 0,
                      "deal": shown["deal"] + 1})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["code"] == "stale_version"
        # Not "you saw move 0, it is now 0": the hand it was chosen from is gone.
        assert refused["message"].startswith("Everything was dealt again since you looked")
        assert app_client.get(f"/api/tables/{table_id}").json()["version"] == 0
        ws.send_json({"type": "action", "action": shown["legal"][-1], "version": 0,
                      "deal": shown["deal"]})
        while (applied := ws.receive_json())["type"] != "state":
            assert applied["type"] != "error", applied
        assert applied["version"] == 1 and applied["deal"] == shown["deal"]


def test_the_deal_a_state_says_is_the_same_wherever_the_table_is_loaded_again(
        tmp_path: Path) -> None:
    """The deal was counted in memory: after a restart, or another process taking the
    table over, a move chosen on the hand before a re-deal passed as current. The deal
    is now made from the stored seed (a keyed hash that tells nothing of it)."""
    async def body(manager: TableManager) -> None:
        table, host, _, _ = await manager.create(
            "sequence-cats", {}, [SeatRequest("human"), SeatRequest("human")], "Anna")
        first = table.deal
        assert first and first != table.seed
        await hosting.change_options(manager, table.id, host, {"sequences_to_win": 2}, None)
        second = table.deal
        assert second not in (0, first)
        await manager.join(table.id, 1, "Bruno")
        manager.unload(table.id)  # another process, or a restart, loads it from storage
        again = await manager.get(table.id)
        assert again is not table and again.deal == second
        action = next(iter(again.game.legal_actions(again.state, 0)))
        with pytest.raises(Refused) as refused:
            await manager.submit(again, 0, action, 0, deal=first)
        assert refused.value.code == "stale_version" and again.version == 0
        await manager.submit(again, 0, action, 0, deal=second)
        assert again.version == 1
    with_manager(tmp_path, body)


def test_a_host_who_has_not_come_to_the_table_keeps_the_role_the_usual_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A host who had never come to a table held the role for 30 s only: after *Play
    again* the friend who asked (whose page joins by itself) became the host while the
    others still read the last game's result, opened their seats and took them, hands
    and all. The role passes after ``host_gone_seconds``, as for any host. (The half
    minute, where it is still there, is made short: it must not apply.)"""
    monkeypatch.setattr(hosting, "HOST_NEVER_CAME_SECONDS", 0.3, raising=False)

    async def body(manager: TableManager) -> None:
        manager.watch_connections = lambda table: hosting.watch_host(manager, table)
        table, _, _, _ = await manager.create("triominos", {}, [HUMAN, HUMAN], "Anna")
        _, bruno_token = await manager.join(table.id, 1, "Bruno")
        bruno, bruno_task = await seated(manager, table, bruno_token)
        await asyncio.sleep(1.0)
        assert table.host_seat == 0 and not messages(bruno, "host")
        bruno.inbox.put_nowait(None)
        await bruno_task

    with_manager(tmp_path, body, host_gone_seconds=300)


def test_after_a_restart_an_absent_host_keeps_the_role_the_usual_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Who came to a table lives in memory: after a restart (or an hour unvisited, or
    another process taking the table over) every host counted as one who never came,
    and any player who connected first had the role, and could end the game, in half a
    minute instead of five."""
    monkeypatch.setattr(hosting, "HOST_NEVER_CAME_SECONDS", 0.3, raising=False)

    async def body(manager: TableManager) -> None:
        manager.watch_connections = lambda table: hosting.watch_host(manager, table)
        table, _, _, _ = await manager.create("triominos", {}, [HUMAN, HUMAN], "Anna")
        _, bruno_token = await manager.join(table.id, 1, "Bruno")
        manager.unload(table.id)  # a restart, or another process, loads it from storage
        again = await manager.get(table.id)
        bruno, bruno_task = await seated(manager, again, bruno_token)
        await asyncio.sleep(1.0)
        assert again.host_seat == 0 and not messages(bruno, "host")
        bruno.inbox.put_nowait(None)
        await bruno_task

    with_manager(tmp_path, body, host_gone_seconds=300)


def test_capitals_and_latin_look_alikes_do_not_make_another_bjarni(
        app_client: TestClient) -> None:
    """Case aside, "BJARNI" is "Bjarni" (a capital "I" read as "l" had given the two
    different keys); the dotless "ı", the Latin alpha "ɑ" and small capitals ("ʙ") are
    Latin letters that read as "i", "a" and "b": each such name gets a number."""
    made = app_client.post("/api/tables", json={
        "game": "dixit", "name": "Bjarni", "seats": [{"kind": "human"}] * 6}).json()
    url = f"/api/tables/{made['table']['id']}/join"
    for name in ("BJARNI", "Bjarnı", "\u0299jarni", "Inga", "inga"):
        assert app_client.post(url, json={"name": name}).status_code == 200
    names = [s["name"] for s in app_client.get(f"/api/tables/{made['table']['id']}").json()[
        "seats"]]
    assert names == ["Bjarni", "BJARNI (2)", "Bjarnı (3)", "\u0299jarni (4)", "Inga",
                     "inga (2)"], names


def test_nobody_takes_the_name_a_page_gives_a_computer_player_or_an_open_seat(
        app_client: TestClient) -> None:
    """A computer player of a bot that is not a level is shown "Random 3"; a seat nobody
    holds "Open seat". A person took such names and passed for them: each gets a number
    now. Computer players named at creation are told apart as people are."""
    made = app_client.post("/api/tables", json={
        "game": "dixit", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "medium", "name": "Ada"},
                  {"kind": "bot", "bot": "random"},
                  {"kind": "bot", "bot": "easy", "name": "ada"}]
        + [{"kind": "human"}] * 3}).json()
    table = made["table"]["id"]
    assert [s["name"] for s in made["table"]["seats"][1:4]] == ["Ada", None, "ada (2)"]
    url = f"/api/tables/{table}/join"
    for name in ("Ada", "Random 3", "Open seat"):
        assert app_client.post(url, json={"name": name}).status_code == 200
    names = [s["name"] for s in app_client.get(f"/api/tables/{table}").json()["seats"]]
    assert names[4:] == ["Ada (3)", "Random 3 (2)", "Open seat (2)"]


def test_nobody_passes_for_a_computer_player(app_client: TestClient) -> None:
    """A person called "Computer (hard)" sat among "Computer 5 · Hard" and "Computer 6 ·
    Hard": "Computer (hard)'s card" in Dixit's reveal, a team "Computer (hard) & Computer
    6 · Hard". A person's name holding the word for computer players, in any language of
    the site, is refused with a message saying which word, at creation, joining and
    renaming, and nothing changes; a computer player named so at creation keeps its name;
    a word that only begins so ("ComputerKid") is a name like any other. A person in seat
    2 called "Greedy 2" looked exactly like that seat's computer player: it gets a
    number."""
    refused = app_client.post("/api/tables", json={
        "game": "dixit", "name": "Computer 1 · Hard", "seats": [{"kind": "human"}] * 3})
    assert refused.status_code == 400
    assert refused.json()["code"] == "name_computer"
    assert '"Computer"' in refused.json()["message"]
    made = app_client.post("/api/tables", json={
        "game": "dixit", "name": "Anna",
        "seats": [{"kind": "human"}] * 4 + [{"kind": "bot", "bot": "hard",
                                             "name": "Computer 5 · Hard"}]}).json()
    table = made["table"]["id"]
    url = f"/api/tables/{table}/join"
    for name, word in (("Computer (hard)", "Computer"), ("🤖 COMPUTADOR", "Computador"),
                       ("Tolva 3 · Erfið", "Tölva"), ("Dag (datamaskin: Vanskelig)",
                                                      "Datamaskin")):
        joined = app_client.post(url, json={"name": name, "seat": 1})
        assert joined.status_code == 400, joined.text
        assert joined.json()["code"] == "name_computer"
        assert joined.json()["params"] == {"word": word}
    tokens = [app_client.post(url, json={"name": name, "seat": seat}).json()["token"]
              for seat, name in ((1, "Player 2"), (2, "ComputerKid"))]
    renamed = app_client.post(f"/api/tables/{table}/name", json={"name": "Computer Kid"},
                              headers={"X-Seat-Token": tokens[1]})
    assert renamed.status_code == 400 and renamed.json()["code"] == "name_computer"
    renamed = app_client.post(f"/api/tables/{table}/name", json={"name": "Greedy 2"},
                              headers={"X-Seat-Token": tokens[0]})
    assert renamed.status_code == 200 and renamed.json()["seats"][1]["name"] == "Greedy 2 (2)"
    names = [s["name"] for s in app_client.get(f"/api/tables/{table}").json()["seats"]]
    assert names == ["Anna", "Greedy 2 (2)", "ComputerKid", None, "Computer 5 · Hard"], names


def test_a_game_over_by_its_rules_is_not_said_to_be_ended_by_its_host(
        tmp_path: Path) -> None:
    """After a game's own end (SC-WIN-1) a join, a leave or a host's change was refused
    with "This game is over: the host ended it", which the host had not."""
    async def body(manager: TableManager) -> None:
        table, host, _, anna = await manager.create(
            "sequence-cats", {}, [SeatRequest("human"), SeatRequest("human")], "Anna")
        await manager.join(table.id, 1, "Bruno")
        rng = random.Random(3)
        while table.status != FINISHED:
            seat = min(table.game.to_act(table.state))
            await manager.submit(table, seat, rng.choice(
                table.game.legal_actions(table.state, seat)))
        refusals = []
        for attempt in (lambda: manager.join(table.id, None, "Eve"),
                        lambda: hosting.remove_player(manager, table.id, 1, host, "easy")):
            with pytest.raises(Refused) as refused:
                await attempt()
            refusals.append(refused.value)
        with pytest.raises(Refused) as refused:
            table.playing_seat(anna)
        refusals.append(refused.value)
        assert [(r.code, r.status, str(r)) for r in refusals] == [
            ("ended", 409, "This game is over.")] * 3
        assert table.ended is None and table.status == FINISHED
    with_manager(tmp_path, body)


def polled(check: Callable[[], bool], timeout: float = 20.0) -> None:
    """Wait, asking every 50 ms, until ``check()`` holds; fail after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the table did not get there in time"
        time.sleep(0.05)


def test_the_host_gives_a_computer_players_seat_another_level_mid_game(
        app_client: TestClient) -> None:
    """A computer player that took Bruno's seat over plays on at another level: it
    keeps his name and since when it plays, the game goes on, and the record names the
    player seated at the end; the same level again changes nothing."""
    t = two_players(app_client)
    play_first_move(app_client, t["id"], t["anna"])
    headers = {"X-Host-Token": t["host"]}
    url = f"/api/tables/{t['id']}/seats/1"
    app_client.post(f"{url}/remove", json={"bot": "easy"}, headers=headers)

    def until_version(version: int) -> None:
        polled(lambda: app_client.get(f"/api/tables/{t['id']}").json()["version"] >= version)

    changed = app_client.post(f"{url}/bot", json={"bot": "hard"}, headers=headers)
    assert changed.status_code == 200, changed.text
    seat = changed.json()["seats"][1]
    # The easy player may have made Bruno's move first: the seat then says until when.
    assert seat.pop("earlier", []) in (
        [], [{"until": 2, "name": "Bruno", "bot": "easy", "bot_since": 1}])
    assert seat == {
        "seat": 1, "kind": "bot", "name": "Bruno", "bot": "hard", "connected": True,
        "removed": True, "bot_since": 1}
    same = app_client.post(f"{url}/bot", json={"bot": "hard"}, headers=headers)
    assert same.status_code == 200 and same.json()["seats"][1]["bot"] == "hard"
    not_host = app_client.post(f"{url}/bot", json={"bot": "easy"},
                               headers={"X-Host-Token": t["anna"]})
    assert not_host.status_code == 403
    until_version(2)  # the new player made Bruno's move
    play_first_move(app_client, t["id"], t["anna"])
    until_version(4)
    app_client.post(f"/api/tables/{t['id']}/end", json={}, headers=headers)
    record = GameRecord.model_validate(app_client.get(f"/api/tables/{t['id']}/record").json())
    assert (record.seats[1].bot, record.seats[1].name, record.seats[1].bot_since) == (
        "hard", "Bruno", 1)


@pytest.mark.usefixtures("failing_players")
def test_a_computer_player_stuck_in_its_decision_is_replaced_and_its_seat_moves_at_once(
        tmp_path: Path) -> None:
    """The host could not replace a computer player once the game had begun (409
    ``not_a_player``): one that hung kept the table waiting up to its 30 s. Given
    another player, the seat's decision is made afresh at once, and the old one's
    answer, when it comes, is dropped."""
    settings = Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none",
                        rates={})
    with TestClient(create_app(settings)) as client:
        made = anna_and_a_computer_player(client, "hanging")
        table_id = made["table"]["id"]
        play_first_move(client, table_id, made["token"])
        time.sleep(0.3)  # the hanging player is deciding
        assert client.get(f"/api/tables/{table_id}").json()["version"] == 1
        changed = client.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "random"},
                              headers={"X-Host-Token": made["host_token"]})
        assert changed.status_code == 200, changed.text
        polled(lambda: client.get(f"/api/tables/{table_id}").json()["version"] == 2,
               timeout=5.0)
        Hanging.release.set()  # the old decision answers now: nobody plays it
        time.sleep(0.3)
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["version"] == 2 and info["seats"][1]["bot"] == "random"


def test_a_present_players_seat_given_to_a_computer_player_says_to_remove_them(
        app_client: TestClient) -> None:
    """The host giving a connected player's seat to a computer player read a joiner's
    answer, "Seat 2 is already taken. Choose an open seat."; it now says what to do."""
    t = two_players(app_client)
    with app_client.websocket_connect(f"/api/tables/{t['id']}/ws") as bruno:
        bruno.send_json({"type": "hello", "token": t["bruno"]})
        while bruno.receive_json()["type"] != "state":
            pass
        refused = app_client.post(f"/api/tables/{t['id']}/seats/1/bot",
                                  json={"bot": "easy"}, headers={"X-Host-Token": t["host"]})
    assert refused.status_code == 409 and refused.json()["code"] == "player_present"
    assert refused.json()["message"] == ("Bruno is at the table: to give their seat to a "
                                         "computer player, remove them in the host controls.")
    assert app_client.get(f"/api/tables/{t['id']}").json()["seats"][1]["kind"] == "human"


class SlowCover:
    """Covers an absent person: takes 1 s and plays the last legal action."""

    name = "slow-cover"
    decided: ClassVar[int] = 0

    def __init__(self, game: Any, rng: random.Random) -> None:
        pass

    def choose(self, view: Any, legal: Any) -> Any:
        time.sleep(1.0)
        SlowCover.decided += 1
        return legal[-1]


class FirstLegal(SlowCover):
    """Plays the first legal action at once."""

    name = "first-legal"

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[0]


@pytest.fixture
def slow_cover() -> Iterator[None]:
    for player in (SlowCover, FirstLegal):
        register_bot(player.name, player)
    SlowCover.decided = 0
    yield
    for player in (SlowCover, FirstLegal):
        _FACTORIES.pop(player.name, None)


async def came_and_went(manager: TableManager, table: Table, name: str) -> None:
    """``name`` takes seat 1, opens the table and closes it again: gone, after having
    come (a person who has not come yet has a minute first, JOIN_GRACE_SECONDS)."""
    _, token = await manager.join(table.id, 1, name)
    sock, task = await seated(manager, table, token)
    sock.inbox.put_nowait(None)
    await task


@pytest.mark.usefixtures("slow_cover")
def test_a_seat_handed_on_while_its_cover_decides_plays_its_new_players_move(
        tmp_path: Path) -> None:
    """Bo was offline and the turn clock's computer player was deciding his move when
    the host gave his seat to another computer player: the cover's move was played,
    shown and recorded as the new player's. The cover's decision is dropped; the new
    player decides the move."""
    async def body(manager: TableManager) -> None:
        table, host, _, ann = await manager.create(
            "sequence-cats", {}, [HUMAN, HUMAN], "Ann",
            clock=ClockSettings(cover="slow-cover", cover_absent=True,
                                absent_seconds=0.3))
        await came_and_went(manager, table, "Bo")
        sock, task = await seated(manager, table, ann)
        legal = table.game.legal_actions(table.state, 0)
        await manager.submit(table, 0, legal[0], table.version, by_bot=False)
        await until(lambda: 1 in table.bot_tasks, timeout=5)  # the cover decides for Bo
        await asyncio.sleep(0.3)
        expected = table.game.legal_actions(table.state, 1)[0]  # the new player's
        await manager.seat_bot(table.id, 1, "first-legal", host)
        await until(lambda: table.version >= 2, timeout=5)
        await asyncio.sleep(1.2)  # the cover's answer has come meanwhile
        assert SlowCover.decided == 1
        assert table.actions[1] == (1, expected)
        sock.inbox.put_nowait(None)
        await task

    with_manager(tmp_path, body, absent_seconds=0.3)


def test_a_seat_opened_while_its_cover_waits_leaves_no_time_of_its_move_behind(
        tmp_path: Path) -> None:
    """Everyone away, Bo's computer player was waiting out his turn's time when the host
    opened his seat: the clock message kept saying when that player would move, and
    whoever took the seat next read "Everyone is away: a computer player makes your move
    in 0:00" while others were there."""
    async def body(manager: TableManager) -> None:
        table, host, _, ann = await manager.create(
            "sequence-cats", {}, [HUMAN, HUMAN], "Ann",
            clock=ClockSettings(turn_seconds=3, cover="greedy", cover_absent=True,
                                absent_seconds=0.3))
        await came_and_went(manager, table, "Bo")
        sock, task = await seated(manager, table, ann)
        legal = table.game.legal_actions(table.state, 0)
        await manager.submit(table, 0, legal[0], table.version)
        sock.inbox.put_nowait(None)  # Ann's page closes too: everyone is away
        await task
        clock = table.clock
        assert clock is not None
        await until(lambda: 1 in clock.cover_at, timeout=10)
        await hosting.remove_player(manager, table.id, 1, host)
        assert table.seats[1].kind == OPEN
        assert 1 not in clock.cover_at

    with_manager(tmp_path, body, absent_seconds=0.3, reopen_after_seconds=0)


def test_a_host_who_came_back_keeps_the_role_after_a_later_short_absence(
        tmp_path: Path) -> None:
    """The check started while the host was away was left running when she came back:
    gone again a moment before it fired, she lost the role after a fraction of
    ``host_gone_seconds`` (a page reload, a phone locked twice). Her absence counts from
    its start."""
    async def body(manager: TableManager) -> None:
        manager.watch_connections = lambda table: hosting.watch_host(manager, table)
        table, _, _, anna_token = await manager.create("triominos", {}, [HUMAN, HUMAN],
                                                       "Anna")
        _, bruno_token = await manager.join(table.id, 1, "Bruno")
        bruno, bruno_task = await seated(manager, table, bruno_token)  # a check starts
        anna, anna_task = await seated(manager, table, anna_token)  # she is here
        await asyncio.sleep(0.7)
        anna.inbox.put_nowait(None)  # gone again, 0.7 s into the first check's second
        await anna_task
        await asyncio.sleep(0.6)  # the first check would have fired 0.3 s ago
        assert table.host_seat == 0 and not messages(bruno, "host")
        await until(lambda: table.host_seat == 1, timeout=5)  # a whole second away
        assert messages(bruno, "host")
        bruno.inbox.put_nowait(None)
        await bruno_task

    with_manager(tmp_path, body, host_gone_seconds=1.0)


def test_a_handed_host_token_comes_again_when_its_holder_reconnects(
        tmp_path: Path) -> None:
    """The token of a role handed on was pushed once: into a connection that had died
    unnoticed (a phone's lost network) it was lost, and with it the table's host. Each
    new connection of the holder's seat gets it again; the creator's seat, whose token
    came with the table, gets none, nor does the seat's next person."""
    async def body(manager: TableManager) -> None:
        table, host, _, anna_token = await manager.create("triominos", {},
                                                          [HUMAN, HUMAN], "Anna")
        _, bruno_token = await manager.join(table.id, 1, "Bruno")
        anna, anna_task = await seated(manager, table, anna_token)
        bruno, bruno_task = await seated(manager, table, bruno_token)
        await hosting.hand_host(manager, table.id, host, 1)
        await until(lambda: bool(messages(bruno, "host")))
        first = messages(bruno, "host")[0]["host_token"]
        bruno.inbox.put_nowait(None)  # (had it not reached him, the same)
        await bruno_task
        again, again_task = await seated(manager, table, bruno_token)
        kinds = [m["type"] for m in again.received]
        assert kinds.index("host") == kinds.index("welcome") + 2  # after the state
        assert messages(again, "host") == [{"type": "host", "host_token": first}]
        with pytest.raises(Refused) as old:
            await hosting.end_game(manager, table.id, host)
        assert old.value.code == "not_host"
        # Back to Anna: her page gets the token of the role handed to her, and Bruno's
        # next connection nothing.
        await hosting.hand_host(manager, table.id, first, 0)
        await until(lambda: bool(messages(anna, "host")))
        again.inbox.put_nowait(None)
        await again_task
        later, later_task = await seated(manager, table, bruno_token)
        assert not messages(later, "host")
        anna_host = messages(anna, "host")[0]["host_token"]
        with pytest.raises(Refused):
            await hosting.end_game(manager, table.id, first)
        await hosting.end_game(manager, table.id, anna_host)
        for sock, task in ((anna, anna_task), (later, later_task)):
            sock.inbox.put_nowait(None)
            await task

    with_manager(tmp_path, body)


def test_the_creators_page_gets_no_host_message_on_reconnecting(tmp_path: Path) -> None:
    async def body(manager: TableManager) -> None:
        table, _, _, anna_token = await manager.create("triominos", {}, [HUMAN, HUMAN],
                                                       "Anna")
        anna, anna_task = await seated(manager, table, anna_token)
        assert not messages(anna, "host")
        anna.inbox.put_nowait(None)
        await anna_task

    with_manager(tmp_path, body)


def test_the_host_role_goes_only_to_another_person(app_client: TestClient) -> None:
    """A computer player's seat was refused as "not connected", and the host's own seat
    was given a new token, which left a tool holding the old one without the role."""
    made = app_client.post("/api/tables", json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"},
                  {"kind": "human"}]}).json()
    table, host = made["table"]["id"], made["host_token"]
    headers = {"X-Host-Token": host}
    bot = app_client.post(f"/api/tables/{table}/host", json={"seat": 2}, headers=headers)
    assert bot.status_code == 409 and bot.json()["code"] == "not_a_player"
    assert "Seat 3 has no player" in bot.json()["message"]
    own = app_client.post(f"/api/tables/{table}/host", json={"seat": 0}, headers=headers)
    assert own.status_code == 409 and own.json()["code"] == "already_host"
    assert own.json()["message"] == "You hold the host role already."
    # Seat numbers in refusals count from 1, as everywhere a person reads them.
    none = app_client.post(f"/api/tables/{table}/host", json={"seat": 4}, headers=headers)
    assert none.status_code == 404
    assert none.json()["message"] == "There is no seat 5 at a table of 4 seats."
    # The old token still holds the role.
    assert app_client.get(f"/api/tables/{table}").json()["host_seat"] == 0
    assert app_client.post(f"/api/tables/{table}/seats/2/bot", json={"bot": "hard"},
                           headers=headers).status_code == 200


def test_the_host_cannot_give_their_own_seat_to_a_computer_player(
        app_client: TestClient) -> None:
    """Removing one's own seat is refused (hand the role on first); giving it to a
    computer player was not: the role stayed with a computer player's seat, then passed
    to whoever the server chose."""
    t = two_players(app_client)
    headers = {"X-Host-Token": t["host"]}
    # (The game has begun and nobody is connected: a seat of someone away may go to a
    # computer player.)
    assert app_client.post(f"/api/tables/{t['id']}/seats/1/bot", json={"bot": "easy"},
                           headers=headers).status_code == 200
    own = app_client.post(f"/api/tables/{t['id']}/seats/0/bot", json={"bot": "easy"},
                          headers=headers)
    assert own.status_code == 409 and own.json()["code"] == "remove_host"
    info = app_client.get(f"/api/tables/{t['id']}").json()
    assert info["host_seat"] == 0 and info["seats"][0]["kind"] == "human"


def test_the_host_lets_a_computer_player_play_for_an_absent_friend_until_they_are_back(
        app_client: TestClient) -> None:
    """A friend's phone fell asleep at a table without a turn clock: the table waited,
    and the host's only way on was to remove them (their seat a computer player's for
    good, and no seat for them after Play again). The host may instead let a computer
    player play for the seat until its person's page connects again: it makes the
    seat's moves, the seat stays theirs, and coming back ends it."""
    t = two_players(app_client)
    play_first_move(app_client, t["id"], t["anna"])  # Bruno to play
    table_url = f"/api/tables/{t['id']}"
    cover = f"{table_url}/seats/1/cover"
    headers = {"X-Host-Token": t["host"]}
    with app_client.websocket_connect(f"{table_url}/ws") as bruno:
        bruno.send_json({"type": "hello", "token": t["bruno"]})
        assert bruno.receive_json()["seat"] == 1
        present = app_client.post(cover, json={}, headers=headers)
        assert present.status_code == 409 and present.json()["code"] == "player_present"
        assert present.json()["message"] == (
            "Bruno is at the table: only they can let a computer player play for them.")
    wait_until_gone(app_client, t["id"], 1)
    not_host = app_client.post(cover, json={}, headers={"X-Host-Token": t["anna"]})
    assert not_host.status_code == 403 and not_host.json()["code"] == "not_host"
    no_seat = app_client.post(f"{table_url}/seats/5/cover", json={}, headers=headers)
    assert no_seat.status_code == 404
    assert app_client.get(table_url).json()["version"] == 1  # nothing changed

    covered = app_client.post(cover, json={}, headers=headers)
    assert covered.status_code == 200, covered.text
    assert covered.json()["seats"][1]["kind"] == "human"  # still Bruno's seat
    polled(lambda: app_client.get(table_url).json()["version"] >= 2)  # his move, made
    again = app_client.post(cover, json={}, headers=headers)
    assert again.status_code == 409 and again.json()["code"] == "already_away"
    assert again.json()["message"] == "A computer player already plays for Bruno."

    # Bruno's page is back: the seat is his again.
    with app_client.websocket_connect(f"{table_url}/ws") as bruno:
        bruno.send_json({"type": "hello", "token": t["bruno"]})
        while (message := bruno.receive_json())["type"] != "clock" or message["away"]:
            pass
        assert message["away"] == {}
    info = app_client.get(table_url).json()
    assert info["seats"][1]["name"] == "Bruno" and info["status"] == PLAYING


def test_a_host_nobody_chose_gives_an_absent_players_seat_to_a_computer_only(
        tmp_path: Path) -> None:
    """The role passed by itself to Bruno, who stayed while Anna (the host) and Carla
    were away: he may not open Carla's seat, take it by its link and read her hand; he
    may give it to a computer player. Handed on by him, the role stays unchosen."""
    async def body(manager: TableManager) -> None:
        manager.watch_connections = lambda table: hosting.watch_host(manager, table)
        table, _, _, anna_token = await manager.create(
            "sequence-cats", {}, [HUMAN, HUMAN, HUMAN, HUMAN], "Anna")
        _, bruno_token = await manager.join(table.id, 1, "Bruno")
        _, carla_token = await manager.join(table.id, 2, "Carla")
        _, dora_token = await manager.join(table.id, 3, "Dora")
        anna, anna_task = await seated(manager, table, anna_token)
        bruno, bruno_task = await seated(manager, table, bruno_token)
        carla, carla_task = await seated(manager, table, carla_token)
        dora, dora_task = await seated(manager, table, dora_token)
        assert table.begun
        for sock, task in ((carla, carla_task), (anna, anna_task)):
            sock.inbox.put_nowait(None)
            await task
        await until(lambda: table.host_seat == 1 and bool(messages(bruno, "host")),
                    timeout=30)
        bruno_host = messages(bruno, "host")[-1]["host_token"]
        assert not hosting.host_chosen(manager, table)
        # The pages are told, so that they do not offer what would be refused; a table
        # loaded again from storage says the same.
        assert table.info()["host_chosen"] is False
        stored = manager.storage.load_table(table.id)
        assert stored is not None and manager._build(stored).host_chosen is False
        with pytest.raises(Refused) as refused:
            await hosting.remove_player(manager, table.id, 2, bruno_host)
        assert refused.value.code == "host_not_chosen" and refused.value.status == 403
        assert "not open it for someone else" in str(refused.value)
        assert table.seats[2].name == "Carla" and table.seats[2].kind == "human"
        # Handed on by Bruno, the role is no more chosen than his.
        await hosting.hand_host(manager, table.id, bruno_host, 3)
        await until(lambda: bool(messages(dora, "host")))
        dora_host = messages(dora, "host")[-1]["host_token"]
        with pytest.raises(Refused) as again:
            await hosting.remove_player(manager, table.id, 2, dora_host)
        assert again.value.code == "host_not_chosen"
        _, code = await hosting.remove_player(manager, table.id, 2, dora_host, bot="medium")
        assert code is None and table.seats[2].kind == "bot"
        for sock, task in ((bruno, bruno_task), (dora, dora_task)):
            sock.inbox.put_nowait(None)
            await task
    with_manager(tmp_path, body, host_gone_seconds=0.3, reopen_after_seconds=0)


def test_a_host_the_creator_chose_may_open_an_absent_players_seat(tmp_path: Path) -> None:
    async def body(manager: TableManager) -> None:
        table, host, _, anna_token = await manager.create(
            "sequence-cats", {}, [HUMAN, HUMAN, HUMAN], "Anna")
        _, bruno_token = await manager.join(table.id, 1, "Bruno")
        _, carla_token = await manager.join(table.id, 2, "Carla")
        anna, anna_task = await seated(manager, table, anna_token)
        bruno, bruno_task = await seated(manager, table, bruno_token)
        carla, carla_task = await seated(manager, table, carla_token)
        carla.inbox.put_nowait(None)
        await carla_task
        await hosting.hand_host(manager, table.id, host, 1)
        await until(lambda: bool(messages(bruno, "host")))
        bruno_host = messages(bruno, "host")[-1]["host_token"]
        assert hosting.host_chosen(manager, table) and table.info()["host_chosen"] is True
        _, code = await hosting.remove_player(manager, table.id, 2, bruno_host)
        assert code is not None and table.seats[2].kind == "open"
        for sock, task in ((anna, anna_task), (bruno, bruno_task)):
            sock.inbox.put_nowait(None)
            await task
    with_manager(tmp_path, body, reopen_after_seconds=0)
