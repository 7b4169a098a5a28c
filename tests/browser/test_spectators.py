"""Spectators in the browser: the watch link shows the players' names and the live public
table, and every websocket frame its page receives is free of hands, other seats' cards
and tokens; the table shows how many watch; the host switches watching off and the
spectator is told."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect

from tests.browser import seats
from tests.browser.test_big_screen import say_clue
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser

SECRET_KEYS = {"hand", "hand_hidden", "own_slots", "my_vote", "my_submission", "token",
               "host_token"}
"""Keys only a seat's own view (or its own connection) may carry."""
CARD_KEYS = {"table", "card", "cards", "hand"}


def frames_of(page: Page) -> list[str]:
    """Every text frame the page's websockets receive from now on."""
    received: list[str] = []

    def listen(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: received.append(
            payload if isinstance(payload, str) else payload.decode()))

    page.on("websocket", listen)
    return received


def walk(value: Any, key: str | None = None) -> Iterator[tuple[str | None, Any]]:
    """Every (key, value) pair in a JSON value, nested ones included."""
    yield key, value
    if isinstance(value, dict):
        for inner, item in value.items():
            yield from walk(item, inner)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item, key)


def cards_in(value: Any) -> set[int]:
    """The numbers under card-like keys of a Dixit message."""
    found: set[int] = set()
    for key, item in walk(value):
        if key in CARD_KEYS and isinstance(item, int) and not isinstance(item, bool):
            found.add(item)
    return found


def check_frames(received: list[str], secrets: list[str]) -> list[dict[str, Any]]:
    """The spectator's messages, after checking that none carries a secret: no key of a
    seat's own view or connection, no token's text, and every state is a spectator's
    (``view.seat`` null, no legal actions)."""
    messages = [json.loads(text) for text in received]
    assert messages, "the spectator page received nothing"
    for text in received:
        for secret in secrets:
            assert secret not in text
    for message in messages:
        leaked = {key for key, _ in walk(message) if key in SECRET_KEYS}
        assert not leaked, (leaked, message["type"])
        if message["type"] == "welcome":
            assert message["seat"] is None
        if message["type"] == "state":
            # (no view at all while seats are open: nobody is shown the deal yet)
            view = message["view"]
            assert (view is None or view.get("seat") is None) and message["legal"] == []
    return messages


def test_a_spectator_watches_a_dixit_round_without_a_secret_until_watching_is_off(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX: two people and a computer player play a round while a spectator watches by the
    watch link; the host then switches watching off."""
    with httpx.Client(base_url=web_server.url, timeout=seats.WAIT) as http:
        created = http.post("/api/tables", json={
            "game": "dixit", "config": {"first_storyteller": "first_seat"}, "name": "Anna",
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}]})
        assert created.status_code == 201, created.text
        table = created.json()["table"]["id"]
        anna_token, host_token = created.json()["token"], created.json()["host_token"]

        # Anna, the host, in the waiting room: the watch link beside the invite link.
        anna = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        anna.goto(f"{web_server.url}/t/{table}#seat={anna_token}")
        anna.evaluate(f"localStorage.setItem('gametable.host.{table}', {json.dumps(host_token)})")
        anna.reload()
        watch_url = anna.locator("#watch-url")
        expect(watch_url).to_have_value(f"{web_server.url}/t/{table}/watch")
        # Before the game the link is the invite's with "/watch": the room says so.
        expect(anna.locator(".field-help").filter(has_text="Whoever opens this link")
               ).to_contain_text("Until the game begins it also leads to the open seats")
        anna.screenshot(path=str(shots / "watch-link-waiting-room.png"), full_page=True)

        # The spectator opens it before the game starts: names, and no seat to take.
        watcher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        received = frames_of(watcher)
        watcher.goto(watch_url.input_value())
        expect(watcher.locator(".seat-list")).to_contain_text("Anna")
        expect(watcher.get_by_role("button", name="Take this seat")).to_have_count(0)
        watcher.screenshot(path=str(shots / "watch-waiting.png"))
        expect(watcher.get_by_label("Your name")).to_have_count(0)
        assert watcher.evaluate(f"localStorage.getItem('gametable.seat.{table}')") is None

        joined = http.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "Bruno"})
        assert joined.status_code == 200, joined.text
        bruno_token = joined.json()["token"]
        expect(watcher.locator(".dx-table")).to_be_visible()
        expect(watcher.locator(".watch-bar")).to_contain_text("Anna")
        expect(watcher.locator(".watch-bar")).to_contain_text("Bruno")
        # Anna's table shows that someone watches, and a button copies the watch link.
        expect(anna.locator(".table-links .watchers")).to_contain_text("1 watching")
        expect(anna.get_by_role("button", name="Copy the watch link")).to_be_visible()

        with seats.SeatSocket(web_server, table, anna_token) as first, \
                seats.SeatSocket(web_server, table, bruno_token) as second:
            say_clue(first, "A quiet harbour")
            expect(watcher.locator(".dx-clue")).to_contain_text("A quiet harbour")
            second.act("submit")
            second.act("vote")
            expect(watcher.locator(".dx-reveal")).to_be_visible()
            expect(watcher.locator(".dx-hand-card")).to_have_count(0)
            watcher.screenshot(path=str(shots / "watch-dixit-reveal.png"))
            # Cards the two people still hold were never shown to the spectator.
            held = set(first.state["view"]["hand"]) | set(second.state["view"]["hand"])
        messages = check_frames(received, [anna_token, bruno_token, host_token])
        states = [m for m in messages if m["type"] == "state" and m["view"] is not None]
        assert states and any(s["view"].get("phase") == "reveal" or s["view"].get("last_round")
                              for s in states)
        shown: set[int] = set()
        for state in states:
            shown |= cards_in(state["view"])
        assert shown, "the spectator saw no card on the table"
        assert not shown & held, shown & held

        # The host switches watching off: the spectator is told, the link says so.
        anna.get_by_text("Host controls").click()
        switch = anna.get_by_label("Let people watch (the watch link)")
        expect(switch).to_be_checked()
        anna.screenshot(path=str(shots / "watch-host-switch.png"), full_page=True)
        switch.uncheck()
        expect(watcher.get_by_role("heading", name="Watching is off")).to_be_visible()
        expect(watcher.locator(".notice-panel")).to_contain_text(
            "The host has switched watching off for this table.")
        expect(anna.locator(".table-links .watch-off-note")).to_be_visible()
        expect(switch).not_to_be_checked()
        watcher.screenshot(path=str(shots / "watch-off.png"))
        assert http.get(f"/api/tables/{table}").json()["watching"] is False
        # Switched on again, the watcher's page comes back by itself (it asks every
        # 10 s; it stayed shut until reloaded by hand).
        switch.check()
        expect(watcher.get_by_role("heading", name="Watching is off")).to_have_count(
            0, timeout=15_000)
        expect(watcher.locator(".dx-table")).to_be_visible()
        watcher.context.close()
        anna.context.close()


@pytest.mark.parametrize("game", ["sequence-cats", "triominos"])
def test_a_spectator_of_each_game_never_receives_a_hand(
    browser: Browser, web_server: LiveServer, shots: Path, game: str
) -> None:
    table, tokens = seats.create_table(web_server, game, {}, ["human", "human"],
                                       {0: "Anna", 1: "Bruno"})
    watcher = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    received = frames_of(watcher)
    watcher.goto(f"{web_server.url}/t/{table}/watch")
    expect(watcher.locator(".watch-bar")).to_contain_text("Anna")
    expect(watcher.locator(".watch-bar")).to_contain_text("Bruno")
    table_class = ".sc-table" if game == "sequence-cats" else ".tr-table"
    expect(watcher.locator(table_class)).to_be_visible()
    with seats.SeatSocket(web_server, table, tokens[0]) as first, \
            seats.SeatSocket(web_server, table, tokens[1]) as second:
        for _ in range(2):
            for seat in (first, second):
                state = seat.wait(lambda s: bool(s["to_act"]))
                if seat.seat in state["to_act"]:
                    kind = state["legal"][0]["type"]
                    seat.act(kind, **{k: v for k, v in state["legal"][0].items() if k != "type"})
        version = max(first.state["version"], second.state["version"])
    expect(watcher.locator(table_class)).to_have_attribute("data-version", str(version))
    watcher.screenshot(path=str(shots / f"watch-{game}-phone.png"))
    check_frames(received, list(tokens.values()))
    watcher.context.close()


def test_with_watching_off_the_invite_link_still_seats_a_friend(
    browser: Browser, web_server: LiveServer
) -> None:
    with httpx.Client(base_url=web_server.url, timeout=seats.WAIT) as http:
        created = http.post("/api/tables", json={
            "game": "sequence-cats", "config": {}, "name": "Anna",
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert created.status_code == 201, created.text
        table = created.json()["table"]["id"]
        off = http.post(f"/api/tables/{table}/watching", json={"allowed": False},
                        headers={"X-Host-Token": created.json()["host_token"]})
        assert off.status_code == 200 and off.json()["watching"] is False
    watcher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    watcher.goto(f"{web_server.url}/t/{table}/watch")
    expect(watcher.get_by_role("heading", name="Watching is off")).to_be_visible()
    bruno = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    bruno.goto(f"{web_server.url}/t/{table}")
    bruno.get_by_label("Your name").fill("Bruno")
    bruno.get_by_role("button", name="Take this seat").click()
    expect(bruno.locator(".sc-table")).to_be_visible()
    expect(bruno.locator(".table-links .watch-off-note")).to_have_text(
        "Watching is off at this table.")
    watcher.context.close()
    bruno.context.close()


def test_someone_who_comes_to_a_full_table_is_told_why_they_watch(
    browser: Browser, web_server: LiveServer
) -> None:
    """The invite link of a table whose seats are all taken made the newcomer a
    spectator with only "You are watching this game.": they are told that every seat is
    taken, and offered a table of their own."""
    made = httpx.post(f"{web_server.url}/api/tables", json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}).json()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{web_server.url}/t/{made['table']['id']}")
    bar = page.locator(".spectator-bar")
    expect(bar).to_contain_text("Every seat is taken: you are watching this game.")
    bar.get_by_role("button", name="Start a table of your own").click()
    expect(page.get_by_role("button", name="Create table")).to_be_visible()
    page.close()


def test_the_watch_page_lists_the_players_as_the_language_does(
    browser: Browser, web_server: LiveServer
) -> None:
    """"Players: Anna, Bruno, Computer 3 · Easy" read as a list cut short: the last two
    are joined by the language's "and", as the reader's region writes it (no comma
    before "and" in Britain, one in the United States). A browser without list data for
    the language (Debian's Chromium has none for Icelandic: "Anna, Bruno and Tölva 3")
    takes the catalogue's word."""
    made = httpx.post(f"{web_server.url}/api/tables", json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}]}).json()
    httpx.post(f"{web_server.url}/api/tables/{made['table']['id']}/join",
               json={"seat": 1, "name": "Bruno"})
    for locale, words in (("en-GB", "Players: Anna, Bruno and Computer 3 · Easy"),
                          ("en-US", "Players: Anna, Bruno, and Computer 3 · Easy"),
                          ("pt-PT", "Jogadores: Anna, Bruno e Computador 3 · Fácil"),
                          ("is-IS", "Leikmenn: Anna, Bruno og Tölva 3 · Auðveld")):
        page = browser.new_context(locale=locale).new_page()
        page.goto(f"{web_server.url}/t/{made['table']['id']}/watch")
        expect(page.locator(".watch-players")).to_have_text(words)
        page.close()



@pytest.mark.parametrize("game", ["sequence-cats", "triominos", "dixit"])
def test_a_long_name_never_widens_a_phones_page(
    browser: Browser, web_server: LiveServer, game: str
) -> None:
    """A name of 40 letters without a space made a 390 px phone's page 580–680 px wide
    (it scrolled sideways): in the watch page's "Players: …", the status line's "… is
    playing" and the table's "… is the host"."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * (3 if game == "dixit" else 1)
    made = httpx.post(f"{web_server.url}/api/tables", json={
        "game": game, "name": "W" * 40, "seats": seats}).json()
    url = f"{web_server.url}/t/{made['table']['id']}"
    for page_url in (f"{url}/watch", f"{url}#seat={made['token']}"):
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                   has_touch=True).new_page()
        page.goto(page_url)
        expect(page.locator(".table-links, .watch-players").first).to_contain_text("W" * 40)
        expect(page.locator(".sc-status, .tr-status, .dx-status").first).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{page_url}: the page is {width} px wide"
        page.context.close()
