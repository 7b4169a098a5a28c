"""Leaving a table, and finding one's tables again from the lobby (docs/protocol.md,
"Leaving a table")."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.seats import SeatSocket, create_hosted_table, take_a_seat
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser


def seats_of(server: LiveServer, table_id: str) -> list[dict[str, object]]:
    seats: list[dict[str, object]] = httpx.get(f"{server.url}/api/tables/{table_id}",
                                               timeout=30).json()["seats"]
    return seats


def two_people(http: httpx.Client, game: str, host: str, friend: str
               ) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """A table of ``game`` for two people: ``host`` made it, ``friend`` joined. Returns
    the creation's answer, the table's id and the join's answer."""
    created: dict[str, Any] = http.post("/api/tables", json={
        "game": game, "name": host, "seats": [{"kind": "human"}] * 2}).json()
    table_id: str = created["table"]["id"]
    joined: dict[str, Any] = http.post(f"/api/tables/{table_id}/join",
                                       json={"name": friend}).json()
    return created, table_id, joined


def test_a_friend_who_took_a_seat_at_the_wrong_table_leaves_it(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """Bruno sat down at the wrong table: there was no way to stand up again but to ask
    the host. He leaves from the waiting room, after a question, and his seat is open."""
    created = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}] * 3}).json()
    table_id = created["table"]["id"]
    bruno = take_a_seat(browser, web_server, table_id, "Bruno")
    # His own page is here: it never calls him offline (the table's presence comes a
    # moment after the seat is taken).
    assert bruno.locator(".seat-row.mine .tag").all_inner_texts() == ["you"]
    # Where he sits comes before the links (they pushed the seats below a phone's fold).
    seats_box, links_box = (bruno.locator(name).bounding_box()
                            for name in (".seat-list", ".invite"))
    assert seats_box and links_box and seats_box["y"] < links_box["y"]
    # A second tab of his at the table (the browser keeps his seat for it).
    other_tab = bruno.context.new_page()
    other_tab.goto(f"{web_server.url}/t/{table_id}")
    expect(other_tab.locator(".seat-row.mine")).to_contain_text("Bruno")
    bruno.get_by_role("button", name="Leave the table").click()
    expect(bruno.locator(".leave-table")).to_contain_text(
        "Leave this table? Your seat opens for someone else.")
    bruno.screenshot(path=shots / "leave-waiting-room.png")
    bruno.locator(".leave-table").get_by_role("button", name="Leave", exact=True).click()
    expect(bruno.locator(".lobby")).to_be_visible()
    # The lobby says what became of his seat (he landed there without a word), once.
    expect(bruno.get_by_role("status").filter(has_text="You left the table")).to_have_text(
        "You left the table: your seat is open for someone else.")
    assert [s["kind"] for s in seats_of(web_server, table_id)] == ["human", "open", "open"]
    # The other tab is told he left (it said the seat went to a computer player "or
    # your connection was closed").
    expect(other_tab.locator(".toast")).to_have_text(re.compile(
        r"^You left this seat on another page: you are watching the table now\."))
    assert bruno.evaluate(f"localStorage.getItem('gametable.seat.{table_id}')") is None
    expect(bruno.locator(".your-tables")).to_have_count(0)
    bruno.reload()
    expect(bruno.locator(".lobby")).to_be_visible()
    expect(bruno.locator("[data-left]")).to_have_count(0)


def test_a_player_finds_the_table_again_in_the_lobby_and_leaves_it_mid_game(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """Carla closed the tab mid-game: the lobby lists her tables still to play, one click
    from each. Later she leaves the game, and a computer player takes her seat over so
    Anna plays on. A table the server no longer knows is forgotten by the browser."""
    created = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}] * 2}).json()
    table_id = created["table"]["id"]
    carla = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844},
                                is_mobile=True, has_touch=True).new_page()
    carla.goto(f"{web_server.url}/t/{table_id}")
    carla.get_by_label("Your name").fill("Carla")
    carla.get_by_role("button", name="Take this seat").first.click()
    expect(carla.locator(".sc-board")).to_be_visible()
    carla.evaluate("localStorage.setItem('gametable.seat.gone0table', "
                   "JSON.stringify({seat: 0, token: 'old'}))")

    carla.goto(f"{web_server.url}/")
    row = carla.locator(f".your-table[data-table='{table_id}']")
    expect(row).to_contain_text("Sequence Cats")
    expect(row).to_contain_text("In play")
    expect(row).to_contain_text("with Anna")
    carla.screenshot(path=shots / "your-tables-phone.png")
    expect(carla.locator(".your-table")).to_have_count(1)
    assert carla.evaluate("localStorage.getItem('gametable.seat.gone0table')") is None
    row.get_by_role("button", name="Back to the table").click()
    expect(carla.locator(".sc-board")).to_be_visible()

    # Anna plays the first move (the game has begun); then Carla leaves.
    anna_page = browser.new_context(locale="en-GB").new_page()
    anna_page.goto(f"{web_server.url}/t/{table_id}#seat={created['token']}")
    expect(anna_page.locator(".sc-board")).to_be_visible()
    with SeatSocket(web_server, table_id, created["token"]) as anna:
        state = anna.wait(lambda state: bool(state["legal"]))
        anna.ws.send(json.dumps({"type": "action", "action": state["legal"][0],
                                 "version": state["version"]}))
        anna.wait(lambda newer: newer["version"] > state["version"])
        carla.get_by_role("button", name="Leave the table").click()
        expect(carla.locator(".leave-table")).to_contain_text(
            "Leave the game? A computer player takes over your seat for the rest of the game "
            "and the others play on: you cannot come back to it.")
        carla.locator(".leave-table").get_by_role("button", name="Leave", exact=True).click()
        expect(carla.locator(".lobby")).to_be_visible()
        expect(carla.locator("[data-left]")).to_have_text(
            "You left the game: a computer player has taken over your seat, and the others "
            "play on.")
        expect(carla.locator(".your-tables")).to_have_count(0)
        seat = seats_of(web_server, table_id)[1]
        assert seat["kind"] == "bot" and seat["bot"] == "medium"
        # Anna is told, and the seat keeps Carla's name (her moves stay hers).
        expect(anna_page.locator('[data-notice="taken-over"]')).to_have_text(
            "Carla left the game: a computer player (Medium) plays on for them.")
        expect(anna_page.locator(".sc-player").nth(1)).to_contain_text(
            "Carla (computer: Medium)")
        anna_page.screenshot(path=shots / "left-taken-over.png")
        # The computer player plays Carla's turn: Anna plays on.
        anna.wait(lambda newer: newer["version"] >= 2)


def test_the_moves_made_before_leaving_stay_the_persons_on_later_pages_and_the_replay(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """Bruno moved, then left, and a computer player plays on under his name. A page
    opened after that, and the game's replay, named his own move the computer
    player's ("Bruno (computer: Medium) placed …"): the table says from which move on
    the computer player plays (``bot_since``), and his move stays his."""
    with httpx.Client(base_url=web_server.url, timeout=30) as http:
        created, table_id, bruno = two_people(http, "sequence-cats", "Anna", "Bruno")

        def play(seat: SeatSocket) -> None:
            state = seat.wait(lambda state: bool(state["legal"]))
            seat.ws.send(json.dumps({"type": "action", "action": state["legal"][0],
                                     "version": state["version"]}))
            seat.wait(lambda newer: newer["version"] > state["version"])

        with SeatSocket(web_server, table_id, created["token"]) as anna:
            play(anna)
            with SeatSocket(web_server, table_id, bruno["token"]) as bruno_seat:
                play(bruno_seat)
            left = http.post(f"/api/tables/{table_id}/leave",
                             headers={"X-Seat-Token": bruno["token"]})
            assert left.status_code == 200, left.text
            play(anna)
            anna.wait(lambda state: state["version"] >= 4)  # the computer player's move

        page = browser.new_context(locale="en-GB").new_page()
        page.goto(f"{web_server.url}/t/{table_id}#seat={created['token']}")
        his = page.locator('.sc-log li[data-version="2"]')
        expect(his).to_contain_text("Bruno ")
        assert "computer" not in his.inner_text()
        expect(page.locator('.sc-log li[data-version="4"]')).to_contain_text(
            "Bruno (computer: Medium) ")
        page.screenshot(path=shots / "left-log-names.png")

        assert http.post(f"/api/tables/{table_id}/end", json={},
                         headers={"X-Host-Token": created["host_token"]}).status_code == 200
    page.goto(f"{web_server.url}/t/{table_id}/replay")
    page.get_by_label("Move number").fill("2")
    expect(page.locator(".replay-page")).to_have_attribute("data-step", "2")
    expect(page.locator(".replay-move")).to_contain_text("Move 2 of ")
    expect(page.locator(".replay-move")).to_contain_text(": Bruno ")
    assert "computer" not in page.locator(".replay-move").inner_text()
    expect(page.locator(".sc-player").nth(1)).to_contain_text("Bruno")
    assert "computer" not in page.locator(".sc-player").nth(1).inner_text()
    page.get_by_label("Move number").fill("4")
    expect(page.locator(".replay-move")).to_contain_text("Move 4 of ")
    expect(page.locator(".replay-move")).to_contain_text("Bruno (computer: Medium)")
    expect(page.locator(".sc-player").nth(1)).to_contain_text("Bruno (computer: Medium)")
    # Said once: no "computer" tag beside a name that says so.
    assert page.locator(".sc-player").nth(1).inner_text().count("computer") == 1
    page.screenshot(path=shots / "left-replay-names.png")


def show_last_reveal(page: Page) -> Locator:
    """The last round's reveal: shown on the table, or opened by "Previous round"."""
    expect(page.locator(".dx-table")).to_be_visible()
    reveal = page.locator(".dx-reveal")
    if not reveal.count():
        page.get_by_role("button", name="Previous round").click()
    return reveal


def act_first(seat: SeatSocket, state: dict[str, Any]) -> None:
    """``seat`` takes its first legal action in ``state`` and waits for its answer."""
    seat.ws.send(json.dumps({"type": "action", "action": state["legal"][0],
                             "version": state["version"]}))
    seat.wait(lambda newer: newer["version"] > state["version"] or bool(seat.errors))
    seat.errors.clear()  # both may claim the storyteller's role at once: one is refused


def play_until_round_ends(seats: list[SeatSocket], number: int) -> None:
    """The ``seats`` take their first legal actions until Dixit's round ``number`` ends."""
    while True:
        for seat in seats:
            state = seat.wait(lambda state: True)
            last = state["view"]["last_round"]
            if last and last["round"] == number:
                return
            if state["legal"]:
                act_first(seat, state)
        time.sleep(0.05)


def test_a_dixit_round_played_before_leaving_stays_the_persons_in_the_history(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """Bruno played Dixit's first round and left; a computer player played the second for
    him. The history named the first round's card and votes the computer player's too,
    as the seat is now ("Bruno (computer: Medium)"): each round carries the game's action
    count at its end (docs/dixit.md), and a round names its seats as they were when it
    began."""
    table_id, tokens, _ = create_hosted_table(
        web_server, "dixit", {}, ["human", "human", "greedy"], {0: "Anna", 1: "Bruno"})
    page = browser.new_context(locale="en-GB").new_page()
    with SeatSocket(web_server, table_id, tokens[0]) as anna:
        with SeatSocket(web_server, table_id, tokens[1]) as bruno:
            play_until_round_ends([anna, bruno], 1)
        left = httpx.post(f"{web_server.url}/api/tables/{table_id}/leave",
                          headers={"X-Seat-Token": tokens[1]}, timeout=30)
        assert left.status_code == 200, left.text
        # The first round's reveal, opened after he left, names him.
        page.goto(f"{web_server.url}/t/{table_id}#seat={tokens[0]}")
        reveal = show_last_reveal(page)
        expect(reveal).to_contain_text("Bruno")
        assert "computer" not in reveal.inner_text()
        page.screenshot(path=shots / "left-dixit-reveal.png")
        play_until_round_ends([anna], 2)

    page.reload()
    expect(page.locator(".dx-table")).to_be_visible()
    history = page.locator(".dx-history")
    history.locator("summary").click()
    first = history.locator('.dx-history-round[data-round="1"]')
    second = history.locator('.dx-history-round[data-round="2"]')
    expect(first.locator('[data-owner="1"] .dx-history-owner').first).to_contain_text("Bruno")
    assert "computer" not in first.inner_text()
    expect(first.locator('.dx-history-points [data-seat="1"]')).to_contain_text("Bruno +")
    expect(second.locator('[data-owner="1"] .dx-history-owner').first).to_contain_text(
        "Bruno (computer: Medium)")
    # The previous round's reveal is the second round's, the computer player's.
    expect(show_last_reveal(page)).to_contain_text("Bruno (computer: Medium)")
    page.screenshot(path=shots / "left-dixit-history.png", full_page=True)

    # Under a card and on a vote, where room is short, the computer player's card and
    # vote are its own too: they read "Bruno's card" and "Bruno", the person's.
    with SeatSocket(web_server, table_id, tokens[0]) as anna:
        play_until_round_ends([anna], 3)
    page.reload()
    reveal = show_last_reveal(page)
    expect(reveal.locator('.dx-voter[data-voter="1"]')).to_have_text("Bruno (computer)")
    expect(reveal.locator(".dx-reveal-owner-text", has_text="Bruno")).to_have_text(
        ["Bruno (computer)'s card"] * 2)  # two cards each with three players (DX-3P)


def test_on_a_phone_a_triominos_seat_taken_over_says_a_computer_plays_it(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """Ola left mid-game and a computer player took his seat over; the phone's strip of
    players still read "Ola ⚑ 13", as if he played. It says "computer" beside him."""
    with httpx.Client(base_url=web_server.url, timeout=30) as http:
        created, table_id, ola = two_people(http, "triominos", "Sigga", "Ola")
        with SeatSocket(web_server, table_id, created["token"]), \
                SeatSocket(web_server, table_id, ola["token"]):
            pass  # both seats were shown their hands: the game has begun
        page = browser.new_context(viewport={"width": 390, "height": 844},
                                   is_mobile=True, has_touch=True).new_page()
        page.goto(f"{web_server.url}/t/{table_id}#seat={created['token']}")
        his = page.locator('.tr-player[data-seat="1"]')
        expect(his).to_contain_text("Ola")
        expect(his.locator("[data-taken-over]")).to_have_count(0)
        left = http.post(f"/api/tables/{table_id}/leave",
                         headers={"X-Seat-Token": ola["token"]})
        assert left.status_code == 200 and left.json()["bot"], left.text
        expect(his.locator("[data-taken-over]")).to_have_text("computer")
        expect(page.locator('.tr-player[data-seat="0"] [data-taken-over]')).to_have_count(0)
        page.screenshot(path=shots / "triominos-phone-taken-over.png")


def test_a_dixit_seat_taken_over_after_a_round_is_not_you_for_that_round(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """Bruno played the first round, told the second's clue and went; the host opened
    his seat. While it stood open the status line read "Waiting for the cards: 3 of 4
    in.", as if the game went on. Carla took the seat: the first round's reveal told
    her "You: +0 · Did not find the card" of Bruno's round."""
    table_id, tokens, host = create_hosted_table(
        web_server, "dixit", {"first_storyteller": "first_seat"},
        ["human", "human", "greedy", "greedy"], {0: "Anna", 1: "Bruno"})
    with SeatSocket(web_server, table_id, tokens[0]) as anna:
        with SeatSocket(web_server, table_id, tokens[1]) as bruno:
            play_until_round_ends([anna, bruno], 1)
            bruno.act("clue")  # round 2's storyteller
        deadline = time.monotonic() + 15
        while seats_of(web_server, table_id)[1]["connected"]:
            assert time.monotonic() < deadline, "Bruno still counts as connected"
            time.sleep(0.05)
        removed = httpx.post(f"{web_server.url}/api/tables/{table_id}/seats/1/remove",
                             json={}, headers={"X-Host-Token": host}, timeout=30)
        assert removed.status_code == 200, removed.text
        page = browser.new_context(locale="en-GB").new_page()
        page.goto(f"{web_server.url}/t/{table_id}#seat={tokens[0]}")
        expect(page.locator(".dx-table")).to_be_visible()
        status = page.locator(".dx-status")
        expect(status).to_contain_text("Waiting for someone to take the open seat…")
        assert "in." not in status.inner_text()  # "Waiting for the cards: 3 of 4 in."
        page.screenshot(path=shots / "dixit-open-seat-status.png")
    carla = browser.new_context(locale="en-GB").new_page()
    carla.goto(f"{web_server.url}/t/{table_id}#invite={removed.json()['seat_code']}&seat=2")
    carla.get_by_label("Your name").fill("Carla")
    carla.get_by_role("button", name="Take this seat").first.click()
    reveal = show_last_reveal(carla)
    expect(reveal).to_have_attribute("data-round", "1")
    expect(reveal.locator('.dx-reveal-slot[data-owner="1"]')).to_contain_text("Bruno")
    expect(reveal.locator(".dx-reveal-mine")).to_have_count(0)
    expect(reveal.locator(".dx-reveal-slot.mine")).to_have_count(0)
    carla.screenshot(path=shots / "dixit-reveal-after-taking-a-seat.png")
