"""The turn clock in the browser (TR-TIME-1, and the same table option for every game):
chosen in the lobby, a countdown for the seat that must act, a computer player that
covers when the time runs out, and the person taking the seat back with one click."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import wait_for
from tests.browser.seats import SeatSocket
from tests.browser.test_dixit import choose_in_hand, give_clue
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser


def test_the_lobby_sets_a_turn_clock_and_the_table_counts_down(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(web_server.url)
    page.get_by_role("button", name="Sequence Cats").first.click()
    page.get_by_label("Your name").first.fill("Anna")
    page.get_by_label("Seat 2").select_option(label="Computer player (Easy)")
    page.get_by_label("Time per turn").select_option(label="1 minute")
    page.get_by_label("Computer player who covers").select_option(label="Hard")
    page.screenshot(path=str(shots / "clock-lobby.png"), full_page=True)
    page.get_by_role("button", name="Create table").click()

    expect(page.locator(".clock-seat.mine time")).to_be_visible()
    wait_for(page, "/^(0:5\\d|1:00)$/.test(document.querySelector('.clock-seat.mine time')"
                   "?.textContent ?? '')")
    table_id = page.url.rsplit("/", 1)[-1]
    info = httpx.get(f"{web_server.url}/api/tables/{table_id}").json()
    assert info["clock"]["turn_seconds"] == 60 and info["clock"]["cover"] == "hard"
    page.screenshot(path=str(shots / "clock-countdown.png"))
    page.close()


@pytest.fixture
def unhurried_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose computer players take a second a move, so that the test sees the
    covered moves one at a time."""
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=1.0)
    server.start()
    yield server
    server.stop()


def test_time_runs_out_a_computer_covers_and_the_person_takes_the_seat_back(
    browser: Browser, unhurried_server: LiveServer, shots: Path
) -> None:
    """Anna lets her time run out while Bruno plays on: a computer player moves for her
    until she is back. (With nobody else playing, the game would wait for her instead:
    ``tests/server/test_clock.py``.)"""
    web_server = unhurried_server
    with httpx.Client(base_url=web_server.url) as http:
        made = http.post("/api/tables", json={
            "game": "sequence-cats", "name": "Anna",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "clock": {"turn_seconds": 10, "cover": "easy"}}).json()
        table_id, token = made["table"]["id"], made["token"]
        bruno_token = http.post(f"/api/tables/{table_id}/join",
                                json={"seat": 1, "name": "Bruno"}).json()["token"]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{web_server.url}/t/{table_id}#seat={token}")
    with SeatSocket(web_server, table_id, bruno_token) as bruno:
        expect(page.locator('.sc-status[data-my-turn="true"]')).to_be_visible()
        expect(page.locator(".clock-seat.mine")).to_contain_text("You")

        # Anna does nothing: after 10 s she is away and a computer player moves for her;
        # Bruno answers, and it moves for her again.
        banner = page.locator(".away-banner")
        expect(banner).to_contain_text(
            "You are away: a computer player (Easy) plays for you.", timeout=60_000)
        bruno.act("play")
        bruno.wait(lambda state: state["version"] >= 3 and state["to_act"] == [1])
        # Her own page speaks to her; moves made for her in a row make one line.
        log = page.locator(".clock-log li")
        expect(log.first).to_contain_text(
            "Your time ran out: a computer player (Easy) moved for you.")
        expect(log).to_have_count(1)
        # The game's log says whose move it was not (it named her as if she had moved).
        moves = page.locator(".sc-log li")
        expect(moves.filter(has_text="(a computer player moved for you)")).to_have_count(2)
        page.screenshot(path=str(shots / "clock-away.png"))

        # One click and the seat is hers again: her next turn waits for her.
        page.get_by_role("button", name="I'm back").click()
        expect(banner).to_have_count(0)
        expect(log).to_have_count(0)  # past news once she is back
        bruno.act("play")
        expect(page.locator('.sc-status[data-my-turn="true"]')).to_be_visible()
        expect(page.locator(".clock-seat.mine time")).to_be_visible()
        before = int(page.evaluate(
            "fetch(location.pathname.replace('/t/', '/api/tables/')).then(r => r.json())"
            ".then(t => t.version)"))
        page.locator(".sc-card:not([disabled]):not(.dead)").first.click()
        page.locator('.sc-space[data-target="true"]').first.click()
        wait_for(page, f"fetch(location.pathname.replace('/t/', '/api/tables/'))"
                       f".then(r => r.json()).then(t => t.version > {before})")
        expect(banner).to_have_count(0)
        # Her own move is hers: no mark (the two covered ones keep theirs).
        expect(moves).to_have_count(5)
        expect(moves.first).not_to_contain_text("computer player")
        expect(moves.filter(has_text="(a computer player moved for you)")).to_have_count(2)
        page.screenshot(path=str(shots / "clock-back.png"))
    page.close()


def page_top(page: Page) -> float:
    """The table's top on the page (not in the window: a click on a space near the
    bottom scrolls the page to it, which is no jump of the layout)."""
    top: float = page.locator(".sc-table").evaluate(
        "t => t.getBoundingClientRect().top + window.scrollY")
    return top


def test_the_table_stays_put_while_a_computer_player_takes_its_turn(
    browser: Browser, unhurried_server: LiveServer, shots: Path
) -> None:
    """With a time per turn, the clock's row showed a countdown on the person's turn and
    vanished on the computer player's: the table jumped up and down every turn (60 px
    on a phone). The row now says the time a turn while nobody's time runs."""
    server = unhurried_server
    created = httpx.post(f"{server.url}/api/tables", json={
        "game": "sequence-cats", "config": {}, "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
        "clock": {"turn_seconds": 60, "cover": "easy"}}).json()
    assert "table" in created, created
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server.url}/t/{created['table']['id']}#seat={created['token']}")
    expect(page.locator(".clock-seat.mine time")).to_be_visible()
    top = page_top(page)
    page.locator(".sc-card:not([disabled]):not(.dead)").first.click()
    page.locator('.sc-space[data-target="true"]').first.click()
    idle = page.locator(".clock-idle")
    expect(idle).to_have_text("1:00 a turn")  # the computer player's second of thought
    assert page_top(page) == top
    page.screenshot(path=str(shots / "clock-computer-turn.png"))
    expect(page.locator(".clock-seat.mine time")).to_be_visible()
    assert page_top(page) == top
    page.close()


def clocked_dixit(browser: Browser, server: LiveServer, seconds: int) -> Page:
    """Anna's page at a Dixit table where she tells first, with three random computer
    players and ``seconds`` a decision."""
    made = httpx.post(f"{server.url}/api/tables", json={
        "game": "dixit", "name": "Anna", "config": {"first_storyteller": "first_seat"},
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
        "clock": {"turn_seconds": seconds, "cover": "easy"}}).json()
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{server.url}/t/{made['table']['id']}#seat={made['token']}")
    return page


def test_dixit_a_round_result_says_how_long_is_left_and_closes_by_itself(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-SCORE with a turn clock: the round's result covers the hand while the next
    decision's time already runs; read at leisure, it cost the seat. The result says how
    long is left beside Continue and closes by itself with 15 s to go, in time to act."""
    page = clocked_dixit(browser, web_server, 22)
    give_clue(page, "A quiet lantern")
    # The computer players give cards and vote; the next storyteller (seat 2) tells:
    # Anna's time to give a card runs while she reads the result.
    timer = page.locator(".dx-reveal .dx-reveal-clock")
    expect(timer).to_contain_text(re.compile(r"^Your turn: 0:(1[6-9]|2\d) left$"),
                                  timeout=30_000)
    page.screenshot(path=str(shots / "dixit-reveal-clock.png"))
    expect(page.locator(".dx-reveal")).to_have_count(0, timeout=15_000)
    left = int(page.locator(".clock-seat.mine time").inner_text().split(":")[1])
    assert 8 <= left <= 15, left
    expect(page.locator('[data-action="submit"]')).to_be_visible()
    expect(page.locator(".away-banner")).to_have_count(0)
    page.close()


def test_alone_with_computer_players_a_person_away_is_waited_for(
    browser: Browser, web_server: LiveServer
) -> None:
    """With every person away, the computer players covering for them played the game
    to its end in moments; now each covered turn waits out its time (TR-TIME-1), and
    the page says so, with the time left before the computer player moves (the page
    showed no countdown while it waited). The decision whose time ran out is played at
    once (it waited its whole time again, the page saying "in 0:00")."""
    made = five_second_table(web_server)
    table_id, token = made["table"]["id"], made["token"]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{web_server.url}/t/{table_id}#seat={token}")
    banner = page.locator(".away-banner")
    board = page.locator(".sc-board")
    expect(board).to_be_visible()
    top = (board.bounding_box() or {"y": -1.0})["y"]
    # Anna's first turn ran out: played for her at once, then the computer's; her next
    # turn waits out its time, counted down. She is the only person at the table:
    # "Everyone is away" read oddly to her.
    expect(banner).to_contain_text(re.compile(
        r"^You are away: a computer player \(Easy\) makes your move in 0:0[1-5]\."),
        timeout=30_000)
    # The notice lies over the page's header: the board stays where it was.
    assert abs((board.bounding_box() or {"y": -99.0})["y"] - top) <= 1
    version = httpx.get(f"{web_server.url}/api/tables/{table_id}").json()["version"]
    assert version >= 2  # hers, played at once, and the computer's
    page.wait_for_timeout(1500)
    assert httpx.get(f"{web_server.url}/api/tables/{table_id}").json()["version"] == version
    page.get_by_role("button", name="I'm back").click()
    expect(banner).to_have_count(0)
    expect(page.locator('.sc-status[data-my-turn="true"]')).to_be_visible()
    page.close()


def test_dixit_a_clue_typed_and_its_card_chosen_are_sent_as_the_time_runs_out(
    browser: Browser, unhurried_server: LiveServer
) -> None:
    """TR-TIME-1 with DX-ROUND-1: a storyteller who had chosen a card and typed a clue but
    not pressed Send lost both when the time ran out, a computer player telling a clue
    of its own. What is ready is sent just before the time runs out: the table hears the
    person's clue and their seat is not away."""
    web_server = unhurried_server  # the clue stays in sight while the others give cards
    page = clocked_dixit(browser, web_server, 8)
    send = page.locator('[data-action="send-clue"]')
    expect(send).to_be_disabled()
    choose_in_hand(page)
    page.fill("input[name=clue]", "A quiet lantern")  # and Send is not pressed
    expect(send).to_be_enabled()
    # The time left shows beside Send (the clock at the top is far from the clue field
    # and, on a phone, its keyboard).
    expect(page.locator(".dx-clue-form .dx-action-clock")).to_have_text(
        re.compile(r"^0:0\d left$"))
    expect(page.locator(".dx-clue-box .dx-clue")).to_contain_text("A quiet lantern",
                                                                  timeout=15_000)
    expect(page.locator(".away-banner")).to_have_count(0)
    table_id = page.url.split("/t/")[1].split("#")[0]
    assert httpx.get(f"{web_server.url}/api/tables/{table_id}").json()["version"] >= 1
    page.close()


def test_the_time_left_shows_beside_the_hand_once_it_runs_short(
    browser: Browser, web_server: LiveServer
) -> None:
    """On a phone the only warning was the small clock chip at the top of the page, far
    from the hand a player looks at: in the last 30 seconds the time left shows in the
    hand's bar too (Sequence Cats, Triominos; Dixit beside its button), red in the last
    ten."""
    for game, bar in (("sequence-cats", ".sc-hand-bar"), ("triominos", ".tr-turn-actions")):
        made = httpx.post(f"{web_server.url}/api/tables", json={
            "game": game, "name": "Anna",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
            "clock": {"turn_seconds": 12, "cover": "easy"}}).json()
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                   has_touch=True).new_page()
        page.goto(f"{web_server.url}/t/{made['table']['id']}#seat={made['token']}")
        chip = page.locator(f"{bar} .time-left-chip")
        expect(chip).to_have_text(re.compile(r"^0:(0\d|1[0-2]) left$"))
        expect(chip).to_have_class(re.compile(r"\burgent\b"), timeout=15_000)
        page.close()


def five_second_table(web_server: LiveServer) -> dict[str, Any]:
    """A Sequence Cats table of Anna and `greedy` with five seconds a turn, a computer
    player (`easy`) covering for her; the answer to its creation."""
    with httpx.Client(base_url=web_server.url) as http:
        made: dict[str, Any] = http.post("/api/tables", json={
            "game": "sequence-cats", "name": "Anna",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
            "clock": {"turn_seconds": 5, "cover": "easy"}}).json()
    return made


def test_on_a_phone_the_away_notice_keeps_to_one_row_above_the_board(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """On a phone the notice that a computer player covers for the person, its "I'm
    back" button under it, took about 110 px above the status line and pushed the
    board's last rows under the hand: the button stands beside the words now. (Whether
    it counts a move down or not: "…plays for you, each turn once its time has run
    out." took four lines, 93 px, when the decision that went away was played at once.)"""
    made = five_second_table(web_server)
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True,
                            has_touch=True, device_scale_factor=2)
    page.goto(f"{web_server.url}/t/{made['table']['id']}#seat={made['token']}")
    banner = page.locator(".away-banner")
    expect(banner).to_be_visible(timeout=30_000)
    page.screenshot(path=str(shots / "phone-away-notice.png"))
    words = banner.locator("span").first.bounding_box()
    button = banner.get_by_role("button", name="I'm back").bounding_box()
    whole = banner.bounding_box()
    assert words and button and whole
    assert button["x"] > words["x"] + words["width"] - 1, (words, button)  # beside
    assert whole["height"] <= 80, whole
    # Over the header, where it sits, it covered the status line's top too: the page
    # now starts below it (its language menu under it, as on a laptop).
    page.wait_for_function(
        """() => document.querySelector(".table-page").getBoundingClientRect().top
                 >= document.querySelector(".away-banner").getBoundingClientRect().bottom""",
        timeout=5_000)
    page.screenshot(path=str(shots / "phone-away-notice-room.png"))
    # The same words while nothing is counted down (the decision played at once). They
    # show only while the computer opponent thinks (its bot delay): looked for at every
    # frame, and measured in the same frame.
    height = page.wait_for_function(
        """() => {
            const banner = document.querySelector(".away-banner");
            return banner && banner.textContent.includes("plays for you when time runs out")
                ? banner.getBoundingClientRect().height : null;
        }""", polling="raf", timeout=15_000).json_value()
    assert height <= 80, height
    page.close()


def test_while_the_clock_is_paused_the_away_notice_says_time_runs_again_first(
    browser: Browser, web_server: LiveServer
) -> None:
    """With the clock paused no time runs out: the notice said the computer player plays
    "when time runs out" beside "Clock paused by the host"."""
    made = five_second_table(web_server)
    table = made["table"]["id"]
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{web_server.url}/t/{table}#seat={made['token']}")
    banner = page.locator(".away-banner")
    expect(banner).to_be_visible(timeout=30_000)
    paused = httpx.post(f"{web_server.url}/api/tables/{table}/clock", json={"paused": True},
                        headers={"X-Host-Token": made["host_token"]})
    assert paused.status_code == 200, paused.text
    expect(page.locator(".clock-paused")).to_be_visible()
    expect(banner).to_contain_text(
        "You are away: a computer player (Easy) plays for you when time runs out, once "
        "the host resumes the clock.")
    page.close()


def test_on_a_small_phone_the_back_button_stays_inside_the_screen(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """On a 320 px phone in Icelandic "Ég er komin(n) aftur" kept to one line beside the
    notice and ran 13 px past the screen's edge. Its words wrap."""
    made = five_second_table(web_server)
    context = browser.new_context(viewport={"width": 320, "height": 658}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    context.add_init_script("localStorage.setItem('gametable.lang', 'is');")
    page = context.new_page()
    page.goto(f"{web_server.url}/t/{made['table']['id']}#seat={made['token']}")
    button = page.locator(".away-banner").get_by_role("button", name="Ég er komin(n) aftur")
    expect(button).to_be_visible(timeout=30_000)
    box = button.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 320, box
    page.screenshot(path=str(shots / "phone-away-notice-320-is.png"))
    context.close()


def test_a_new_turn_never_shows_more_time_than_the_clock_gives(
    browser: Browser, web_server: LiveServer
) -> None:
    """A countdown showed "0:11" of a 10-second clock for up to a quarter second at each
    new decision: the page's quarter-second tick still held the time from before the
    clock message came, so the time left was counted from a moment already past. Here
    the page's time moves on 240 ms without a tick, then Bruno plays and Anna's turn
    begins: it shows the clock's 10 seconds."""
    with httpx.Client(base_url=web_server.url) as http:
        created = http.post("/api/tables", json={
            "game": "sequence-cats", "seats": [{"kind": "human"}, {"kind": "human"}],
            "name": "Bruno", "clock": {"turn_seconds": 10}}).json()
        table = created["table"]["id"]
        anna = http.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "Anna"}).json()
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.clock.install()
    page.goto(f"{web_server.url}/t/{table}#seat={anna['token']}")
    with SeatSocket(web_server, table, created["token"]) as bruno:
        expect(page.locator(".clock-seat time")).to_have_count(1)  # Bruno's turn
        page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)  # seconds
        page.clock.set_system_time(page.evaluate("Date.now()") / 1000 + 0.24)
        legal = bruno.wait(lambda s: any(a["type"] == "play" for a in s["legal"]))["legal"]
        bruno.act("play", **{k: v for k, v in next(a for a in legal if a["type"] == "play")
                             .items() if k != "type"})
        mine = page.locator(".clock-seat.mine time")
        expect(mine).to_be_visible()
        expect(mine).to_have_text("0:10")
    page.context.close()
