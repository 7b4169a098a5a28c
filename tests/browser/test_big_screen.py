"""The big screen: a QR code of the invite link while seats are open, then the live
public table (no hand), reconnecting by itself after the server comes back."""

from __future__ import annotations

import io
import json
import random
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import Browser, expect

from gametable.core import registry
from gametable.server.storage import SeatRow, token_hash
from tests.browser import seats, waiting
from tests.browser.test_rematch import finished_game, steps_until
from tests.browser.test_sequence_cats_browser import stored_table
from tests.browser.text_layout import broken_words
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser

TABLE = ".sc-table"


def test_the_big_screen_shows_a_join_code_then_follows_the_game_without_hands(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    with httpx.Client(base_url=web_server.url, timeout=seats.WAIT) as http:
        created = http.post("/api/tables", json={
            "game": "sequence-cats", "config": {}, "name": "Anna",
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert created.status_code == 201, created.text
        table = created.json()["table"]["id"]
        anna = created.json()["token"]
        screen = browser.new_context(viewport={"width": 1600, "height": 900}).new_page()
        try:
            screen.goto(f"{web_server.url}/t/{table}/screen?hold=3")  # results stay 3 s
            code = screen.locator(".screen-qr")
            expect(code).to_be_visible()
            expect(screen.locator(".screen-seats li")).to_have_text(["Anna", "Seat 2: open"])
            # Read from across the room: a large code, what it is for beside it (the
            # localhost notice wrapped the text below a code a third of the height).
            box, text = code.bounding_box(), screen.locator(".screen-join-text").bounding_box()
            assert box is not None and text is not None
            assert box["height"] >= 0.6 * 900 and text["x"] >= box["x"] + box["width"]
            screen.screenshot(path=str(shots / "big-screen-join.png"))
            found = zxingcpp.read_barcodes(Image.open(io.BytesIO(code.screenshot())))
            assert [result.text for result in found] == [f"{web_server.url}/t/{table}"]

            joined = http.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "Bruno"})
            assert joined.status_code == 200, joined.text
            bruno = joined.json()["token"]
            expect(screen.locator(TABLE)).to_be_visible()
            expect(code).to_have_count(0)
            expect(screen.locator(".sc-hand, .sc-card")).to_have_count(0)  # nobody's hand

            with seats.SeatSocket(web_server, table, anna) as first:
                played = first.act("play")
                waiting.wait_for_version(screen, TABLE, played)
            web_server.kill()
            expect(screen.locator(".connection-banner")).to_be_visible()
            web_server.start()
            expect(screen.locator(".connection-banner")).to_have_count(0, timeout=30_000)
            with seats.SeatSocket(web_server, table, bruno) as second:
                played = second.act("play")
            waiting.wait_for_version(screen, TABLE, played)
            screen.screenshot(path=str(shots / "big-screen-game.png"))
        finally:
            screen.context.close()


def bot_table(server: LiveServer, game: str, players: int, bot: str = "greedy",
              config: dict[str, object] | None = None) -> str:
    """A table of ``game`` whose ``players`` seats are all computer players ``bot``; its
    id."""
    with httpx.Client(base_url=server.url, timeout=seats.WAIT) as http:
        created = http.post("/api/tables", json={
            "game": game, "config": config or {}, "name": "Anna",
            "seats": [{"kind": "bot", "bot": bot}] * players})
        assert created.status_code == 201, created.text
        return str(created.json()["table"]["id"])


def say_clue(storyteller: seats.SeatSocket, text: str) -> int:
    """The storyteller's clue ``text`` about the first card of its hand; the version
    that applied it."""
    state = storyteller.wait(lambda s: any(a["type"] == "clue" for a in s["legal"]))
    action = {**next(a for a in state["legal"] if a["type"] == "clue"), "text": text}
    storyteller.ws.send(json.dumps({"type": "action", "action": action,
                                    "version": state["version"]}))
    storyteller.wait(lambda newer: storyteller.acted > state["version"])
    return storyteller.acted


def test_the_big_screen_follows_a_dixit_round_while_two_phones_play(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX: the clue, the table's cards, the reveal and the scoring track on the big
    screen; the QR code is the invite link; no hand is ever shown there. While a result
    is held after the next clue, that clue shows in the status line."""
    with httpx.Client(base_url=web_server.url, timeout=seats.WAIT) as http:
        created = http.post("/api/tables", json={
            "game": "dixit", "config": {"first_storyteller": "first_seat"}, "name": "Anna",
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}]})
        assert created.status_code == 201, created.text
        table = created.json()["table"]["id"]
        anna = created.json()["token"]
        screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        try:
            # Results stay 30 s: between the result and the check that it stays a second
            # after the next clue, the test reads the history and takes two screenshots
            # (2.6 s on a busy machine: a hold of 3 s could end before the check); and
            # the next round's vote ends the hold long before.
            screen.goto(f"{web_server.url}/t/{table}/screen?hold=30")
            code = screen.locator(".screen-qr")
            expect(code).to_be_visible()
            found = zxingcpp.read_barcodes(Image.open(io.BytesIO(code.screenshot())))
            assert [result.text for result in found] == [f"{web_server.url}/t/{table}"]
            joined = http.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "Bruno"})
            assert joined.status_code == 200, joined.text
            bruno = joined.json()["token"]
            expect(screen.locator(".dx-table")).to_be_visible()
            expect(code).to_have_count(0)
            with seats.SeatSocket(web_server, table, anna) as first, \
                    seats.SeatSocket(web_server, table, bruno) as second:
                say_clue(first, "A long way home")
                expect(screen.locator(".dx-clue")).to_contain_text("A long way home")
                # The cards coming in fill the TV's table (they were 110 px wide in a
                # large empty board: the size beside one's hand on a laptop).
                given = screen.locator(".dx-submission").first.bounding_box()
                assert given is not None and given["width"] >= 250, given
                screen.screenshot(path=str(shots / "big-screen-dixit-given.png"))
                second.act("submit")
                second.act("vote")
                expect(screen.locator(".dx-reveal")).to_be_visible()
                # Its cards as large as the table's room allows too, the points below
                # them (they were held to a laptop's 150 px, the TV's table empty below).
                shown = screen.locator(".dx-reveal-slot").first.bounding_box()
                assert shown is not None and shown["width"] >= 200, shown
                expect(screen.locator('[data-action="continue"]')).to_have_count(0)
                expect(screen.locator(".dx-track")).to_be_visible()
                expect(screen.locator(".dx-hand-card")).to_have_count(0)
                # The history panel keeps the round once the next one is under way.
                history = screen.locator(".dx-history")
                history.locator("summary").click()
                expect(history.locator('.dx-history-round[data-round="1"]')).to_contain_text(
                    "A long way home")
                expect(history.locator(".dx-history-slots li")).to_have_count(5)  # DX-3P
                # Each player's points there carry their reasons, as the reveal gave them.
                points = history.locator(".dx-history-points li")
                expect(points).to_have_count(3)
                told = 0
                for seat in range(3):
                    reasons = screen.locator(
                        f'.dx-reveal-group[data-seats="{seat}"] li[data-reason] > span:first-child'
                    ).all_inner_texts()
                    for reason in reasons:
                        expect(points.nth(seat)).to_contain_text(reason.strip())
                    told += len(reasons)
                assert told > 0
                history.screenshot(path=str(shots / "big-screen-dixit-history.png"))
                screen.screenshot(path=str(shots / "big-screen-dixit-reveal.png"))
                # Nobody clicks "Continue" on a TV: the next clue takes the reveal's place,
                # once the room has had the time to read it (a computer storyteller tells
                # at once: the result was gone in a second).
                say_clue(second, "Under the bridge")
                screen.wait_for_timeout(1_000)
                expect(screen.locator(".dx-reveal")).to_be_visible()
                # Meanwhile the room reads the new clue in the status line (it showed
                # nowhere while the result was up).
                expect(screen.locator(".dx-status [data-next-clue]")).to_contain_text(
                    "Round 2: Bruno's clue")
                expect(screen.locator(".dx-status [data-next-clue] .dx-clue")).to_contain_text(
                    "Under the bridge")
                # The cards are given: the room sees the vote's cards at once, not the last
                # result for the rest of its time (the status line counted votes under it).
                first.act("submit")
                expect(screen.locator(".dx-reveal")).to_have_count(0, timeout=8_000)
                expect(screen.locator(".dx-slot").first).to_be_visible()
                expect(screen.locator(".dx-clue-box .dx-clue")).to_contain_text("Under the bridge")
                expect(screen.locator("[data-next-clue]")).to_have_count(0)
                # The round in play stays in the room's view: no "Previous round" to
                # swap it for the last result (the history above keeps that).
                expect(screen.locator('[data-action="show-reveal"]')).to_have_count(0)
        finally:
            screen.context.close()


def test_the_big_screen_says_the_host_ended_the_game_and_a_new_game_began(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """The host ended the game early: the big screen went on showing "Anna is playing…"
    for good, and when Anna then began a new game it said nothing of it. The room is
    told both, in the screen's type, and the screen follows to the new game (every seat
    there is taken, and it lets people watch)."""
    table, tokens, host = seats.create_hosted_table(
        web_server, "sequence-cats", {}, ["human", "greedy"], {0: "Anna"})
    screen = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    try:
        screen.goto(f"{web_server.url}/t/{table}/screen")
        expect(screen.locator(".sc-board")).to_be_visible()
        ended = httpx.post(f"{web_server.url}/api/tables/{table}/end", json={},
                           headers={"X-Host-Token": host})
        assert ended.status_code == 200, ended.text
        expect(screen.locator('.screen-news[data-news="ended"]')).to_have_text(
            "The host ended this game early. Its record is kept.")
        expect(screen.locator(".sc-status-text")).to_have_text("The game is over.")
        with seats.SeatSocket(web_server, table, tokens[0]) as anna:
            anna.ws.send(json.dumps({"type": "rematch"}))
            expect(screen.locator('.screen-news[data-news="rematch"]')).to_have_text(
                "Anna began a new game with the players of this table. This screen shows "
                "the new game in a moment. Show the new game")
        screen.screenshot(path=str(shots / "big-screen-ended-and-rematch.png"))
    finally:
        screen.context.close()


def test_the_big_screen_says_in_large_type_that_watching_was_switched_off(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """The host switched watching off: the screen said so at 20 px in a corner of an
    empty TV."""
    table, _, host = seats.create_hosted_table(
        web_server, "sequence-cats", {}, ["human", "greedy"], {0: "Anna"})
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    try:
        screen.goto(f"{web_server.url}/t/{table}/screen")
        expect(screen.locator(".sc-board")).to_be_visible()
        off = httpx.post(f"{web_server.url}/api/tables/{table}/watching",
                         json={"allowed": False}, headers={"X-Host-Token": host})
        assert off.status_code == 200, off.text
        notice = screen.locator(".screen-notice")
        expect(notice).to_contain_text("watching")
        size = notice.evaluate("element => parseFloat(getComputedStyle(element).fontSize)")
        assert size >= 40, size
        box = notice.bounding_box()
        assert box is not None and abs(box["x"] + box["width"] / 2 - 960) < 20, box
        screen.screenshot(path=str(shots / "big-screen-watching-off.png"))
    finally:
        screen.context.close()


@pytest.mark.parametrize(("game", "players", "board"), [
    ("sequence-cats", 2, ".sc-board-frame"),
    ("triominos", 2, ".tr-board"),
    ("dixit", 6, ".dx-table"),
])
@pytest.mark.parametrize(("width", "height"), [(1366, 768), (1920, 1080), (3840, 2160)])
def test_the_big_screen_holds_the_whole_table_without_scrolling(
    browser: Browser, web_server: LiveServer, shots: Path, game: str, players: int,
    board: str, width: int, height: int,
) -> None:
    """A TV has no scroll bar: the table, zoomed for reading across the room, ends at
    the window's bottom edge (it was drawn 15 % taller than the window: Sequence Cats'
    last row of spaces, the foot of Dixit's table and Triominos' board were cut off)."""
    table = bot_table(web_server, game, players)
    screen = browser.new_context(viewport={"width": width, "height": height}).new_page()
    screen.goto(f"{web_server.url}/t/{table}/screen")
    expect(screen.locator(board)).to_be_visible()
    expect(screen.locator(".sc-space, .tr-board svg, .dx-track").first).to_be_visible()
    ends = screen.evaluate(f"""[
        document.querySelector('{board}').getBoundingClientRect().bottom,
        [...document.querySelectorAll('.sc-space')].pop()?.getBoundingClientRect().bottom ?? 0,
        document.documentElement.scrollHeight]""")
    assert max(ends) <= height, f"the table, its last row, the page end at {ends} px"
    screen.screenshot(path=str(shots / f"big-screen-{game}-{width}x{height}.png"))


TEXT_SIZES = """() => [
        '.screen-header h1', '[data-status-line]', '.sc-space, .tr-players, .dx-track']
    .map((s) => document.querySelector(s))
    .filter(Boolean)
    .map((e) => parseFloat(getComputedStyle(e).fontSize) * (e.currentCSSZoom || 1))"""


@pytest.mark.parametrize(("game", "players", "board"), [
    ("sequence-cats", 4, ".sc-board-frame"),
    ("triominos", 2, ".tr-board"),
    ("dixit", 6, ".dx-table"),
])
def test_the_big_screen_on_a_4k_window_is_the_1080p_screen_twice_as_large(
    browser: Browser, web_server: LiveServer, game: str, players: int, board: str,
) -> None:
    """A 4K TV driven at 100 % (3840 × 2160, one pixel a pixel): the board grew with the
    window but the text stayed at its 1080p size, half as large from the sofa (Sequence
    Cats' breed names 12.6 px of 2160). Everything is now twice its 1080p size."""
    table = bot_table(web_server, game, players)
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    screen.goto(f"{web_server.url}/t/{table}/screen")
    expect(screen.locator(board)).to_be_visible()
    expect(screen.locator(".sc-space, .tr-board svg, .dx-track").first).to_be_visible()
    small = screen.evaluate(TEXT_SIZES)
    small_width = screen.locator(board).evaluate("e => e.getBoundingClientRect().width")
    screen.set_viewport_size({"width": 3840, "height": 2160})
    screen.wait_for_timeout(500)
    large = screen.evaluate(TEXT_SIZES)
    large_width = screen.locator(board).evaluate("e => e.getBoundingClientRect().width")
    for before, after in zip(small, large, strict=True):
        assert 1.8 <= after / before <= 2.2, (small, large)
    assert 1.8 <= large_width / small_width <= 2.2, (small_width, large_width)
    screen.context.close()


def test_the_big_screen_names_the_winner_over_the_final_board(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """SC-WIN-1: when the game ends the big screen keeps the board, with its SEQUENCE,
    in sight and says who won in its status line; a dialog over the board waiting for a
    click (on a TV nobody clicks) hid it for good."""
    table = bot_table(web_server, "sequence-cats", 2)
    screen = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    screen.goto(f"{web_server.url}/t/{table}/screen")
    # (Rarely, computer players end in a draw, SC-WIN-3: the line then says so.)
    status = screen.locator(".sc-status-text")
    expect(status).to_have_text(re.compile(r".+ wins! Winner: .+|.*draw.*", re.IGNORECASE))
    expect(screen.locator('[role="dialog"]')).to_have_count(0)
    if "wins!" in status.inner_text():
        expect(screen.locator(".sc-space.in-sequence").first).to_be_visible()
    screen.screenshot(path=str(shots / "big-screen-sequence-cats-end.png"))


def test_the_big_screen_keeps_a_finished_four_seat_board_inside_a_laptops_window(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """SC-WIN-1 with teams: "Orange wins! Winners: Computer 2 · Medium and Computer 4 ·
    Medium" took two lines over the board of a 1366 × 768 screen (a projector's size) and
    pushed its last row out of the window. The big screen names computer players there
    without their levels (the players' list says them), on one line."""
    table = bot_table(web_server, "sequence-cats", 4, "medium")
    screen = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    screen.goto(f"{web_server.url}/t/{table}/screen")
    status = screen.locator(".sc-status-text")
    expect(status).to_have_text(re.compile(r".+ wins! Winners: .+|.*draw.*", re.IGNORECASE),
                                timeout=120_000)
    if "wins!" in status.inner_text():
        expect(status).not_to_contain_text("Medium")
        expect(status).to_contain_text(re.compile(r"Winners: Computer \d and Computer \d"))
    screen.wait_for_timeout(300)
    bottom = screen.locator(".sc-board").evaluate("b => b.getBoundingClientRect().bottom")
    screen.screenshot(path=str(shots / "big-screen-sequence-cats-four-end.png"))
    assert bottom <= 768, bottom
    screen.context.close()


def play_one(sockets: list[seats.SeatSocket]) -> None:
    """The seat to act among ``sockets`` lays its first legal tile, else draws or
    passes (TR-DRAW-1..3); returns once every socket has the new state."""
    while True:
        for sock in sockets:
            sock._drain()
        ready = [sock for sock in sockets if sock.state.get("legal")]
        if ready:
            break
        sockets[0].wait(lambda state: True)
    sock = ready[0]
    legal = sock.state["legal"]
    action = next((a for a in legal if a["type"] == "place"), legal[0])
    sock.ws.send(json.dumps({"type": "action", "action": action,
                             "version": sock.state["version"]}))
    after = sock.state["version"] + 1
    for each in sockets:  # every seat has seen the action before the next is chosen
        each.wait(lambda newer: newer["version"] >= after)


def test_the_big_screen_shows_a_round_summary_until_the_next_round_is_played(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """TR-END-1..4: the round's summary opens on the big screen when a round ends and
    gives way to the board when the next round's first tile is laid (it stayed over
    the board until someone clicked, which nobody does on a TV), once it has been up a
    while (`?hold`, 20 s by default): a computer player starting the round left the
    room a second to read it."""
    table, tokens = seats.create_table(web_server, "triominos", {"rounds": 3},
                                       ["human", "human"], {0: "Anna", 1: "Bruno"})
    screen = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    # Results stay 10 s: between the summary and the check that it stays a second after
    # the next tile come a screenshot and that tile (1.5 s on a busy machine: a hold of
    # 3 s left little to spare).
    screen.goto(f"{web_server.url}/t/{table}/screen?hold=10")
    expect(screen.locator(".tr-board")).to_be_visible()
    with seats.SeatSocket(web_server, table, tokens[0]) as anna, \
            seats.SeatSocket(web_server, table, tokens[1]) as bruno:
        players = [anna, bruno]
        for _ in range(400):
            if anna.state["view"]["rounds"]:
                break
            play_one(players)
        assert anna.state["view"]["rounds"], "the first round never ended"
        summary = screen.locator('.tr-summary[data-round="1"]')
        expect(summary).to_be_visible()
        # Nothing to click there: the summary makes way by itself.
        expect(summary.locator('[data-action="close-summary"]')).to_have_count(0)
        screen.screenshot(path=str(shots / "big-screen-triominos-round.png"))
        play_one(players)  # the second round's first tile
        assert anna.state["view"]["board"]
        screen.wait_for_timeout(1_000)
        expect(summary).to_be_visible()  # the room reads it a while first
        expect(summary).to_have_count(0)
        expect(screen.locator(".tr-board")).to_be_visible()


def test_the_big_screen_shows_a_finished_dixit_game_whole_and_offers_nothing_to_click(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-END: at the end the big screen shows the ranking and the last round's cards,
    owners and points inside the window (a TV is not scrolled), and none of the links a
    player's page offers (replay, record, new game, play again)."""
    table = bot_table(web_server, "dixit", 4, config={"target_score": 6})
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    screen.goto(f"{web_server.url}/t/{table}/screen")
    expect(screen.locator('.dx-table[data-finished="true"]')).to_be_visible(timeout=120_000)
    expect(screen.locator(".dx-reveal-points")).to_be_visible()
    expect(screen.locator(".watch-replay, [download], .play-again")).to_have_count(0)
    bottoms = screen.evaluate("""[
        ...[...document.querySelectorAll('.dx-reveal-slot, .dx-reveal-group')]
            .map((e) => e.getBoundingClientRect().bottom),
        document.documentElement.scrollHeight]""")
    screen.screenshot(path=str(shots / "big-screen-dixit-end.png"))
    assert max(bottoms) <= 1080, bottoms


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_the_big_screen_shows_a_finished_triominos_game_whole(
    browser: Browser, web_server: LiveServer, shots: Path, width: int, height: int
) -> None:
    """TR-END: the end of a four-seat game on a 1920 × 1080 TV was 994 px of result in a
    939 px box that reached below the window: the winner's headline scrolled out of
    sight, the last button cut, the ranking's names on two lines. The whole result
    shows in the window, nothing to scroll, each name on one line; on a 720p TV too,
    where a "See the table" nobody presses covered the totals, and no board controls."""
    table = bot_table(web_server, "triominos", 4, "medium", config={"rounds": 1})
    screen = browser.new_context(viewport={"width": width, "height": height}).new_page()
    screen.goto(f"{web_server.url}/t/{table}/screen")
    summary = screen.locator('.tr-summary[data-finished="true"]')
    expect(summary).to_be_visible(timeout=120_000)
    screen.wait_for_timeout(500)
    box = summary.evaluate("""summary => {
        const r = summary.getBoundingClientRect();
        return [r.top, r.bottom, summary.scrollHeight - summary.clientHeight,
                summary.scrollTop];
    }""")
    screen.screenshot(path=str(shots / f"big-screen-triominos-end-{height}.png"))
    top, bottom, overflow, scrolled = box
    assert top >= 0 and bottom <= height, box
    expect(summary.locator("button:not(.link)")).to_have_count(0)
    expect(screen.locator(".tr-zoom")).to_have_count(0)
    assert overflow <= 1 and scrolled == 0, box
    names = screen.locator(".tr-ranking .tr-rank-name")
    expect(names).to_have_count(4)
    lines = names.evaluate_all("""names => names.map(n => Math.round(
        n.getBoundingClientRect().height / parseFloat(getComputedStyle(n).fontSize) / 1.2))""")
    assert lines == [1, 1, 1, 1], lines


def test_the_big_screen_writes_each_triominos_player_on_one_line(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """The players' side is wide enough for a name at the screen's reading size
    ("Computer 1 · Medium" took three lines beside the scores at 1920 × 1080)."""
    table = bot_table(web_server, "triominos", 3, "medium")
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    try:
        screen.goto(f"{web_server.url}/t/{table}/screen")
        names = screen.locator(".tr-player-name")
        expect(names).to_have_count(3)
        expect(names.first).to_contain_text("Medium")
        lines = screen.evaluate("""[...document.querySelectorAll('.tr-player-name')].map((e) =>
            e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).fontSize))""")
        screen.screenshot(path=str(shots / "big-screen-triominos-names.png"))
        assert max(lines) < 2.4, f"names {lines} font sizes tall: wrapped"
    finally:
        screen.context.close()


@pytest.mark.parametrize("locale", ["en-GB", "is-IS", "pt-PT"])
@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1366, 768)])
def test_the_big_screen_draws_the_triominos_column_heads_at_12_px(
    browser: Browser, web_server: LiveServer, shots: Path, width: int, height: int,
    locale: str,
) -> None:
    """On a 720p TV (and a 768 px laptop window) the heads over the players' numbers
    ("TILES", "ROUND", "SCORE") were drawn 11.2 px high, too small to read across the
    room: they are 12 px at least as drawn (zoom included), each in its own column."""
    table = bot_table(web_server, "triominos", 2)
    screen = browser.new_context(viewport={"width": width, "height": height},
                                 locale=locale).new_page()
    try:
        screen.goto(f"{web_server.url}/t/{table}/screen")
        heads = screen.locator(".tr-player.header > span:visible")
        expect(heads).to_have_count(3)
        screen.wait_for_timeout(500)  # the zoom that fits the window settles
        drawn = heads.evaluate_all("""heads => heads.map(head => {
            const words = document.createRange();
            words.selectNodeContents(head);
            const box = words.getBoundingClientRect();
            return {size: parseFloat(getComputedStyle(head).fontSize) * head.currentCSSZoom,
                    left: box.left, right: box.right};
        })""")
        assert min(head["size"] for head in drawn) >= 12 - 0.01, drawn
        panel = screen.locator(".tr-players").bounding_box()
        assert panel is not None
        for first, second in pairwise(drawn):
            assert first["right"] <= second["left"], drawn
        assert drawn[-1]["right"] <= panel["x"] + panel["width"], (drawn, panel)
        screen.locator(".tr-players").screenshot(
            path=str(shots / f"big-screen-triominos-heads-{width}-{locale}.png"))
    finally:
        screen.context.close()


@contextmanager
def finished_twelve(tmp_path: Path) -> Iterator[tuple[LiveServer, str]]:
    """A started server with a finished Dixit game of twelve people, "Player 1" to
    "Player 12", seat ``s`` holding token ``f"t{s}"``: ``(server, table id)``."""
    people = [SeatRow(s, "human", name=f"Player {s + 1}", token_hash=token_hash(f"t{s}"))
              for s in range(12)]
    with stored_table(tmp_path / "data", {}, people, 5, finished_game(5, "dixit", 12),
                      game="dixit") as found:
        yield found


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1366, 768), (1280, 720)])
def test_the_big_screen_shows_every_player_of_a_twelve_player_ranking(
    browser: Browser, tmp_path: Path, shots: Path, width: int, height: int
) -> None:
    """DX-END with twelve players: the final ranking beside the table held five rows and
    a half above the screen's edge (names on two lines, large rows), and nobody scrolls a
    TV. Each player is one line now, all twelve inside the window and their panel; on a
    720p TV and a laptop's 768 px window too, where no row of eight players' ranking
    showed, nor their points for the round."""
    with finished_twelve(tmp_path) as (server, table):
        screen = browser.new_context(viewport={"width": width, "height": height}).new_page()
        screen.goto(f"{server.url}/t/{table}/screen")
        rows = screen.locator(".dx-side .dx-ranking li")
        expect(rows).to_have_count(12)
        panel = screen.locator(".dx-side .dx-final").bounding_box()
        assert panel is not None
        for index in range(12):
            expect(rows.nth(index)).to_be_in_viewport(ratio=1)
            box = rows.nth(index).bounding_box()
            assert box is not None
            assert box["x"] + box["width"] <= panel["x"] + panel["width"] + 0.5, (box, panel)
        screen.screenshot(path=str(shots / f"big-screen-dixit-twelve-ranking-{height}.png"))
        # The last round's twelve cards, their owners and points, inside the window too
        # (two rows of cards ran 150 px past a TV's bottom edge).
        expect(screen.locator(".dx-reveal-slot")).to_have_count(12)
        bottoms = screen.evaluate("""[
            ...[...document.querySelectorAll(
                '.dx-reveal-slot, .dx-reveal-group, .dx-reveal-points > *')]
                .map((e) => e.getBoundingClientRect().bottom),
            document.documentElement.scrollHeight]""")
        assert max(bottoms) <= height, bottoms


def test_the_big_screens_ranking_names_computer_players_whole_on_a_720p_tv(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """DX-END, twelve computer players on a 1280 × 720 TV: the ranking's one line a
    player cut "Computer 10 · Medium" to "Computer 10 · …". Its rows name them without
    the level (the headline keeps it), whole."""
    bots = [SeatRow(s, "bot", bot="medium" if s % 2 else "hard") for s in range(12)]
    with stored_table(tmp_path / "data", {}, bots, 5, finished_game(5, "dixit", 12),
                      game="dixit") as (server, table):
        screen = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        screen.goto(f"{server.url}/t/{table}/screen")
        names = screen.locator(".dx-side .dx-ranking .dx-rank-name")
        expect(names).to_have_count(12)
        assert "Computer 10" in names.all_inner_texts()
        cut = names.evaluate_all("(all) => all.filter((n) => n.scrollWidth > n.clientWidth)"
                                 ".map((n) => n.textContent)")
        assert cut == []
        expect(screen.locator(".dx-side .dx-final h2")).to_contain_text(" · ")
        screen.screenshot(path=str(shots / "big-screen-dixit-twelve-computers-720.png"))
        screen.context.close()


def test_the_big_screen_pages_through_a_long_final_ranking(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """DX-END, twelve players, six of them reaching the target at once: the line naming
    them took five lines beside the table (with each computer player's level), and the
    ranking's last five rows were below the side panel's edge for good. The line names
    them short, and the panel shows the rest a page at a time."""
    bots = [SeatRow(s, "bot", bot="medium" if s % 2 else "hard") for s in range(12)]
    steps = finished_game(5, "dixit", 12, {"target_score": 3})
    with stored_table(tmp_path / "data", {"target_score": 3}, bots, 5, steps,
                      game="dixit") as (server, table):
        # (A small TV: at 1280 × 720 the shorter line lets the twelve rows fit.)
        screen = browser.new_context(viewport={"width": 1024, "height": 576}).new_page()
        screen.goto(f"{server.url}/t/{table}/screen")
        rows = screen.locator(".dx-side .dx-ranking li")
        expect(rows).to_have_count(12)
        expect(screen.locator(".dx-side .dx-final-ended")).not_to_contain_text(" · ")
        assert screen.evaluate("() => { const side = document.querySelector('.dx-side');"
                               " return side.scrollHeight - side.clientHeight; }") > 20
        last_row_shown = """() => {
            const side = document.querySelector('.dx-side').getBoundingClientRect();
            const row = [...document.querySelectorAll('.dx-side .dx-ranking li')].pop()
                .getBoundingClientRect();
            return row.bottom <= side.bottom + 1 && row.top >= side.top;
        }"""
        screen.wait_for_function(last_row_shown, timeout=30_000)
        screen.screenshot(path=str(shots / "big-screen-dixit-long-ranking.png"))
        screen.context.close()


def test_the_big_screen_pages_through_a_result_taller_than_the_board(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """Nobody scrolls a TV: with nine to twelve players a round's votes and points may be
    taller than the board (on a 1080p TV the last five players' points were cut off
    under its edge, and stayed so for the whole hold). The board shows them a page at a
    time by itself, then comes back to the top. (A 1280 × 720 screen now holds a round
    of twelve in one row of cards: here a projector's 1024 × 600.)"""
    people = [SeatRow(s, "human", name=f"Player {s + 1}", token_hash=token_hash(f"t{s}"))
              for s in range(12)]
    game = registry.get("dixit")
    state = game.new_game(game.make_config({}, 12), 12, 5)
    rng = random.Random(5)
    steps: list[tuple[int, dict[str, Any]]] = []
    while not game.outcome(state).finished:
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        # Everyone votes for the first two cards they may: two columns of ten voters.
        votes = [action for action in legal if action["type"] == "vote"]
        action = min(votes, key=lambda vote: vote["slots"]) if votes else rng.choice(legal)
        game.apply(state, seat, action)
        steps.append((seat, action))
    with stored_table(tmp_path / "data", {}, people, 5, steps, game="dixit") as (server, table):
        screen = browser.new_context(viewport={"width": 1024, "height": 600}).new_page()
        screen.goto(f"{server.url}/t/{table}/screen")
        expect(screen.locator(".dx-reveal-group")).to_have_count(12)
        last_shown = """() => {
            const board = document.querySelector('.dx-board').getBoundingClientRect();
            const last = [...document.querySelectorAll('.dx-reveal-group')].pop()
                .getBoundingClientRect();
            return last.bottom <= board.bottom + 1 && last.top >= board.top;
        }"""
        assert screen.evaluate("() => document.querySelector('.dx-board').scrollHeight"
                               " - document.querySelector('.dx-board').clientHeight") > 20
        assert not screen.evaluate(last_shown)
        screen.wait_for_function(last_shown, timeout=60_000)
        screen.screenshot(path=str(shots / "big-screen-dixit-twelve-paged.png"))
        screen.wait_for_function("() => document.querySelector('.dx-board').scrollTop === 0",
                                 timeout=30_000)
        screen.context.close()


def test_the_big_screen_shows_the_turn_clock_and_who_is_away(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """The room reads whose time runs from the screen, and that a computer player moves
    for someone whose time ran out (the screen showed neither: only the phones did)."""
    with httpx.Client(base_url=web_server.url, timeout=seats.WAIT) as http:
        created = http.post("/api/tables", json={
            "game": "sequence-cats", "config": {}, "name": "Anna",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "clock": {"turn_seconds": 12, "cover": "easy"}})
        assert created.status_code == 201, created.text
        table, anna = created.json()["table"]["id"], created.json()["token"]
        joined = http.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "Bruno"})
        assert joined.status_code == 200, joined.text
    screen = browser.new_context(viewport={"width": 1600, "height": 900}).new_page()
    # Anna at the table (her time starts when she comes) and doing nothing.
    with seats.SeatSocket(web_server, table, anna), \
            seats.SeatSocket(web_server, table, joined.json()["token"]):
        screen.goto(f"{web_server.url}/t/{table}/screen")
        clock = screen.locator(".screen-header .turn-clock")
        countdown = clock.locator('.clock-seat[data-seat="0"]')
        expect(countdown).to_contain_text("Anna")
        expect(countdown.locator("time")).to_have_text(re.compile(r"^0:(0[1-9]|1[0-2])$"))
        # Large enough to read across the room (the table's own clock is small print).
        size = countdown.evaluate("li => parseFloat(getComputedStyle(li).fontSize)")
        assert size >= 20, size
        # Anna's time runs out: a computer player moves for her, and the screen says so.
        expect(clock.locator('.clock-away[data-seat="0"]')).to_have_text(
            "Anna is away (Easy plays)", timeout=30_000)
        expect(clock.locator('.clock-seat[data-seat="1"]')).to_contain_text("Bruno")
        screen.screenshot(path=str(shots / "big-screen-clock.png"))
        # The table below still fits the window (the clock sits beside the game's name).
        assert screen.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")
        # Paused by the host: the words as large as the countdown's, in their pill's
        # middle (they were small print at the top of a pill stretched to its height).
        paused = httpx.post(f"{web_server.url}/api/tables/{table}/clock",
                            json={"paused": True},
                            headers={"X-Host-Token": created.json()["host_token"]})
        assert paused.status_code == 200, paused.text
        label = clock.locator(".clock-paused")
        expect(label).to_have_text("Clock paused by the host")
        pill = clock.locator('.clock-seat[data-seat="1"]')
        sizes = [item.evaluate("li => parseFloat(getComputedStyle(li).fontSize)")
                 for item in (label, pill)]
        assert sizes[0] == sizes[1], sizes
        middle = "e => { const r = e.getBoundingClientRect(); return r.top + r.height / 2; }"
        words = label.evaluate("""li => { const range = document.createRange();
            range.selectNodeContents(li); const r = range.getBoundingClientRect();
            return r.top + r.height / 2; }""")
        assert abs(words - label.evaluate(middle)) <= 1.5, (words, label.evaluate(middle))
        screen.screenshot(path=str(shots / "big-screen-clock-paused.png"))
    screen.context.close()


def test_the_big_screen_opened_on_a_phone_keeps_the_breed_names_whole(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """A phone's "Big screen ↗" link opens the page made for a TV, zoomed by 1.15 for
    reading across a room: on a 390 px phone the board's names no longer fit their
    spaces and broke at letters ("Somal i", "Munc hkin"). A phone reads it unzoomed."""
    table = bot_table(web_server, "sequence-cats", 2)
    screen = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                 has_touch=True, device_scale_factor=2).new_page()
    screen.goto(f"{web_server.url}/t/{table}/screen")
    expect(screen.locator(".sc-space-name")).to_have_count(84)
    assert screen.evaluate(broken_words(".sc-space-name")) == []
    screen.screenshot(path=str(shots / "big-screen-sequence-cats-phone.png"))


def test_a_big_screen_in_a_players_browser_follows_them_to_the_new_game(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """After Play again the big screen stayed on the finished game for good: the TV's
    window, beside the host's on one laptop, had to be given the new table's screen by
    hand. A big screen in the browser of a player who went to the new game now says so,
    and follows a little later (or at once, with its button); so does one on a device of
    its own (a TV of its own, with no keyboard), told the new table by the server since
    every seat there is taken and it lets people watch."""
    seats_ = [SeatRow(0, "human", name="Anna", token_hash=token_hash("anna-token")),
              SeatRow(1, "bot", bot="easy")]
    with stored_table(tmp_path / "data", {}, seats_, 5, finished_game(5, seats=2)) as (
            server, old):
        laptop = browser.new_context(viewport={"width": 1280, "height": 720})
        tv = browser.new_context(viewport={"width": 1280, "height": 720})
        try:
            anna, screen = laptop.new_page(), laptop.new_page()
            elsewhere = tv.new_page()
            screen.goto(f"{server.url}/t/{old}/screen")
            elsewhere.goto(f"{server.url}/t/{old}/screen")
            anna.goto(f"{server.url}/t/{old}#seat=anna-token")
            expect(screen.locator(".sc-board")).to_be_visible()
            anna.locator(".result").get_by_role("button", name="Play again").click()
            expect(anna).to_have_url(re.compile(rf"/t/(?!{old}$)[A-Za-z0-9_-]+$"))
            new = anna.url.rsplit("/", 1)[-1]
            following = ("Anna began a new game with the players of this table. This screen "
                         "shows the new game in a moment. Show the new game")
            news = screen.locator('.screen-news[data-news="rematch"]')
            expect(news).to_have_text(following)
            screen.screenshot(path=str(shots / "big-screen-follows-play-again.png"))
            expect(elsewhere.locator('.screen-news[data-news="rematch"]')).to_have_text(
                following)
            for page in (screen, elsewhere):
                expect(page).to_have_url(f"{server.url}/t/{new}/screen", timeout=30_000)
                expect(page.locator(".sc-board")).to_be_visible()
                expect(page.locator(".screen-news")).to_have_count(0)
            assert "#" not in elsewhere.url  # the new table's address, no seat's token
        finally:
            laptop.close()
            tv.close()


def test_a_big_screen_of_its_own_says_how_to_show_a_new_game_it_may_not_be_told(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """Bruno had left when Anna asked to play again: his seat at the new table is open to
    its invite link, so the new table is not named to those watching (its id would let
    anyone take that seat). The TV stays on the old game and says how to show the new
    one there, instead of only that it began."""
    table, tokens, host = seats.create_hosted_table(
        web_server, "sequence-cats", {}, ["human", "human"], {0: "Anna", 1: "Bruno"})
    screen = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    try:
        screen.goto(f"{web_server.url}/t/{table}/screen")
        expect(screen.locator(".sc-board")).to_be_visible()
        ended = httpx.post(f"{web_server.url}/api/tables/{table}/end", json={},
                           headers={"X-Host-Token": host})
        assert ended.status_code == 200, ended.text
        with seats.SeatSocket(web_server, table, tokens[0]) as anna:
            anna.ws.send(json.dumps({"type": "rematch"}))
            news = screen.locator('.screen-news[data-news="rematch"]')
            expect(news).to_have_text(
                "Anna began a new game with the players of this table. To show it here, "
                "open “Big screen” on the new table's page.")
            expect(news.get_by_role("button")).to_have_count(0)
        screen.screenshot(path=str(shots / "big-screen-rematch-by-hand.png"))
        assert screen.url == f"{web_server.url}/t/{table}/screen"
    finally:
        screen.context.close()


def test_the_big_screen_comes_back_by_itself_when_watching_is_on_again(
    browser: Browser, web_server: LiveServer
) -> None:
    """A TV has no keyboard: a big screen shut by "Watching is off" stayed shut for good
    once the host let people watch again, until someone reloaded it on the TV."""
    table, _, host = seats.create_hosted_table(web_server, "sequence-cats", {},
                                               ["human", "greedy"], {0: "Anna"})
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    screen.goto(f"{web_server.url}/t/{table}/screen")
    expect(screen.locator(TABLE)).to_be_visible()

    def watching(allowed: bool) -> None:
        answer = httpx.post(f"{web_server.url}/api/tables/{table}/watching",
                            json={"allowed": allowed}, headers={"X-Host-Token": host})
        assert answer.status_code == 200, answer.text

    watching(False)
    expect(screen.locator('[data-gone="watching_off"]')).to_contain_text(
        "The host has switched watching off for this table.")
    watching(True)
    expect(screen.locator('[data-gone="watching_off"]')).to_have_count(0, timeout=15_000)
    expect(screen.locator(TABLE)).to_be_visible()
    screen.context.close()


def test_the_news_over_a_sequence_cats_table_leaves_the_whole_board_on_the_screen(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """"The host ended this game early." and "… began a new game" stand over the table
    on the big screen: they pushed the board's last rows below the screen's edge, and
    nobody scrolls a TV."""
    table, tokens, host = seats.create_hosted_table(
        web_server, "sequence-cats", {}, ["human", "human", "greedy", "greedy"],
        {0: "Anna", 1: "Bjarni"})
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    screen.goto(f"{web_server.url}/t/{table}/screen")
    expect(screen.locator(TABLE)).to_be_visible()
    ended = httpx.post(f"{web_server.url}/api/tables/{table}/end", json={},
                       headers={"X-Host-Token": host})
    assert ended.status_code == 200, ended.text
    expect(screen.locator('[data-news="ended"]')).to_be_visible()
    bottom = """() => Math.max(...[...document.querySelectorAll('.sc-space')]
        .map(space => space.getBoundingClientRect().bottom))"""
    assert screen.evaluate(bottom) <= 1080, screen.evaluate(bottom)
    with seats.SeatSocket(web_server, table, tokens[1]) as bjarni:
        bjarni.ws.send(json.dumps({"type": "rematch"}))
        expect(screen.locator('[data-news="rematch"]')).to_be_visible()
    assert screen.evaluate(bottom) <= 1080, screen.evaluate(bottom)
    screen.screenshot(path=str(shots / "big-screen-news-whole-board.png"))
    screen.context.close()


REVEAL_TEXT_SIZES = """() => [...document.querySelectorAll(
        '.dx-reveal-group li, .dx-reveal-total, .dx-reveal-owner-text, .dx-voter')]
    .filter((e) => e.getClientRects().length)
    .map((e) => parseFloat(getComputedStyle(e).fontSize) * (e.currentCSSZoom || 1))"""


def test_a_six_player_reveal_on_a_720p_screen_is_drawn_as_large_as_fits(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """At 1280 × 720 a Dixit table was zoomed to 0.75 by the window's height alone: a
    six-player Dixit Party reveal left the board's lower third empty while its reasons,
    "Score now", owners and voters were 9–11 px. The zoom now depends on the content
    fitting: this reveal fits at 1, its text 12 px or more, and the page still ends at
    the window's edge with nothing hidden in a box that scrolls."""
    options = {"variant": "party"}
    steps = finished_game(4, "dixit", 6, options)[:27]  # round 2 revealed, round 3 begun
    names = [f"Player {seat + 1}" for seat in range(6)]
    seats_ = [SeatRow(s, "human", name=name, token_hash=token_hash(f"t{s}"))
              for s, name in enumerate(names)]
    with stored_table(tmp_path / "data", options, seats_, 4, steps, game="dixit") as (
            server, table):
        screen = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        screen.goto(f"{server.url}/t/{table}/screen")
        expect(screen.locator(".dx-reveal-group")).to_have_count(6)
        expect(screen.locator(".screen-table")).to_have_attribute("data-zoom", "1")
        screen.screenshot(path=str(shots / "big-screen-dixit-party-reveal-720p.png"))
        sizes = screen.evaluate(REVEAL_TEXT_SIZES)
        assert sizes and min(sizes) >= 12, sorted(sizes)[:5]
        assert screen.evaluate("document.documentElement.scrollHeight") <= 720
        hidden = screen.evaluate("""() => [...document.querySelectorAll('.screen-table *')]
            .filter((e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowY)
                && e.scrollHeight > e.clientHeight + 2).map((e) => e.className)""")
        assert hidden == []
        screen.context.close()


# Each piece of text on the big screen that shows: its size as drawn (the font's size
# times the zoom it is under, and inside a drawing such as the score track, times the
# drawing's scale: its width as drawn over its own).
SCREEN_TEXT_SIZES = """() => [...document.querySelectorAll('.screen-page *')]
    .filter((e) => e.checkVisibility() && !e.closest('.sr-only')
        && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
    .map((e) => {
        const svg = e.closest('svg');
        const scale = svg && svg.viewBox.baseVal && svg.viewBox.baseVal.width
            ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width
            : (e.currentCSSZoom || 1);
        return {text: e.textContent, kind: e.getAttribute('class'),
                drawn: parseFloat(getComputedStyle(e).fontSize) * scale};
    })"""


@pytest.mark.parametrize("phase", ["vote", "reveal"])
@pytest.mark.parametrize("players", [6, 12])
def test_a_dixit_table_on_a_720p_screen_is_read_at_12_px(
    browser: Browser, tmp_path: Path, shots: Path, players: int, phase: str
) -> None:
    """At 1280 × 720 a twelve-player Dixit table was zoomed to 0.6 (the reveal) or 0.8 (the
    vote) to fit the window: the owners, voters and points of a round were 7 to 9 px, and
    the clue's teller 11 px. The board's text is drawn 12 px or more whatever the zoom;
    the cards are smaller for it (the storyteller's badge a mark where its word is wider
    than the card), and the page still ends at the window's edge. So is the side's, with
    six players too: the players, the track's numbers and what ends the game, the history
    once opened, and the round's facts above the table were 6 to 11.8 px (a rabbit's
    number 6 px, a player's "offline" 8.5 px); the side still shows whole."""
    stop = {"vote": lambda state, game: state.phase == "vote" and state.round == 2,
            "reveal": lambda state, game: state.phase == "clue" and state.round == 2}[phase]
    steps, _ = steps_until(players, stop)
    people = [SeatRow(s, "human", name=f"Player {s + 1}", token_hash=token_hash(f"t{s}"))
              for s in range(players)]
    with stored_table(tmp_path / "data", {}, people, 4, steps, game="dixit") as (
            server, table):
        screen = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        screen.goto(f"{server.url}/t/{table}/screen")
        shown = ".dx-reveal-group" if phase == "reveal" else ".dx-slot"
        expect(screen.locator(shown)).to_have_count(players)
        expect(screen.locator(".dx-side .dx-player")).to_have_count(players)
        expect(screen.locator(".screen-table")).to_have_attribute("data-zoom", re.compile("."))
        sizes = settled(screen, SCREEN_TEXT_SIZES)
        screen.screenshot(
            path=str(shots / f"big-screen-dixit-{players}-{phase}-720p.png"))
        kinds = " ".join(str(size["kind"]) for size in sizes)
        for part in ("dx-slot-number", "dx-player-label", "dx-rabbit-number", "dx-target",
                     "dx-facts"):
            assert part in kinds, part
        assert any(size["text"] == "30" and size["kind"] is None for size in sizes)
        small = [size for size in sizes if size["drawn"] < 12 - 0.01]
        assert small == [], small[:5]
        assert screen.evaluate("document.documentElement.scrollHeight") <= 720
        assert screen.locator(".dx-side").evaluate("s => s.scrollHeight <= s.clientHeight + 1")
        if phase == "reveal":
            # The storyteller's badge inside its card: the word, or the mark.
            badge = screen.locator(".dx-card-badge.teller")
            assert badge.evaluate("b => b.getBoundingClientRect().width <= "
                                  "b.parentElement.getBoundingClientRect().width")
            expect(badge.locator(".fit-label:not(.measuring), .fit-label-short")) \
                .to_have_text(re.compile(r"^(Storyteller's card|Storyteller|✎)$"))
            # Each word of the points whole on its line.
            assert screen.evaluate(broken_words(".dx-reveal-group li > span")) == []
        # The history, opened, at the side's size.
        screen.locator(".dx-history summary").click()
        expect(screen.locator(".dx-history-points li").first).to_be_visible()
        opened = [size for size in screen.evaluate(SCREEN_TEXT_SIZES)
                  if "dx-history" in str(size["kind"])]
        assert opened and min(size["drawn"] for size in opened) >= 12 - 0.01, opened[:5]
        screen.context.close()


def test_team_dixit_s_side_on_a_720p_screen_is_read_at_12_px_and_shows_whole(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """Team Dixit at 1280 × 720, zoomed to 0.75: its teams beside the table were 9.4 to
    11.4 px and each player's team 8.3 px. They are 12 px or more as drawn, and the side,
    taller for it, still shows whole, down to its history."""
    options = {"variant": "team"}
    steps = finished_game(3, "dixit", 6, options)[:30]  # round 4, the cards coming in
    people = [SeatRow(s, "human", name=f"Player {s + 1}", token_hash=token_hash(f"t{s}"))
              for s in range(6)]
    with stored_table(tmp_path / "data", options, people, 3, steps, game="dixit") as (
            server, table):
        screen = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        screen.goto(f"{server.url}/t/{table}/screen")
        expect(screen.locator(".dx-side .dx-team")).to_have_count(3)
        expect(screen.locator(".screen-table")).to_have_attribute("data-zoom", re.compile("."))
        sizes = settled(screen, SCREEN_TEXT_SIZES)
        screen.screenshot(path=str(shots / "big-screen-dixit-team-720p.png"))
        kinds = " ".join(str(size["kind"]) for size in sizes)
        assert "dx-team-name" in kinds and "dx-team-tag" in kinds, kinds
        small = [size for size in sizes if size["drawn"] < 12 - 0.01]
        assert small == [], small[:5]
        assert screen.locator(".dx-side").evaluate("s => s.scrollHeight <= s.clientHeight + 1")
        assert screen.evaluate("document.documentElement.scrollHeight") <= 720
        screen.context.close()


def settled(page: Any, script: str, seconds: float = 5.0) -> Any:
    """``script``'s result once the page has settled: the same twice in a row, a fifth
    of a second apart (the big screen tries larger zooms, and lays the table out again
    for each), or its last result after ``seconds``."""
    deadline = time.monotonic() + seconds
    seen = page.evaluate(script)
    while time.monotonic() < deadline:
        page.wait_for_timeout(200)
        again = page.evaluate(script)
        if again == seen:
            break
        seen = again
    return seen


# Each voter's chip under a revealed card: the name it stands for, the text it shows,
# the size that text is drawn at, how many lines it takes, whether it is cut, and how
# far the chip runs past the start of the next card's column (negative: short of it).
VOTER_CHIPS = """() => [...document.querySelectorAll('.dx-reveal-slot .dx-voter')].map((chip) => {
    const shown = chip.querySelector('.fit-label-short, .fit-label:not(.measuring)') ?? chip;
    const range = document.createRange();
    range.selectNodeContents(shown);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    const slot = chip.closest('.dx-reveal-slot');
    const end = slot.nextElementSibling?.getBoundingClientRect().left
        ?? slot.parentElement.getBoundingClientRect().right;
    return {name: chip.title, text: shown.textContent, lines: tops.size,
            drawn: parseFloat(getComputedStyle(shown).fontSize) * (shown.currentCSSZoom || 1),
            cut: chip.scrollWidth > chip.clientWidth + 1,
            past: chip.getBoundingClientRect().right - end};
})"""


@pytest.mark.parametrize(("width", "height"), [
    (1920, 1080), (1366, 768), (1280, 720), (1024, 600)])
def test_a_twelve_player_reveal_on_the_big_screen_writes_each_voter_on_one_line(
    browser: Browser, tmp_path: Path, shots: Path, width: int, height: int
) -> None:
    """Twelve revealed cards in one row on the big screen: a voter's chip under a card
    narrower than its name took two lines ("Player" / "11" under a 66 px card at 720p).
    Each chip is one line, 12 px or more as drawn and clear of the next card's chips: the
    name whole where the card leaves room for it (from 720p up), else its initials
    ("P11" under a projector's 48 px cards)."""
    steps, _ = steps_until(12, lambda state, game: state.phase == "clue" and state.round == 2)
    people = [SeatRow(s, "human", name=f"Player {s + 1}", token_hash=token_hash(f"t{s}"))
              for s in range(12)]
    with stored_table(tmp_path / "data", {}, people, 4, steps, game="dixit") as (
            server, table):
        screen = browser.new_context(viewport={"width": width, "height": height}).new_page()
        screen.goto(f"{server.url}/t/{table}/screen")
        expect(screen.locator(".dx-reveal-group")).to_have_count(12)
        expect(screen.locator(".screen-table")).to_have_attribute("data-zoom", re.compile("."))
        chips = settled(screen, VOTER_CHIPS)
        screen.screenshot(path=str(shots / f"big-screen-dixit-twelve-voters-{height}.png"))
        assert "Player 11" in [chip["name"] for chip in chips], chips
        for chip in chips:
            short = "P" + chip["name"].removeprefix("Player ")
            assert chip["text"] == (chip["name"] if height >= 720 else short), chip
            assert chip["lines"] == 1 and not chip["cut"], chip
            assert chip["drawn"] >= 12 - 0.01, chip
            assert chip["past"] <= 0, chip
        screen.context.close()



# Each card's owner under a revealed card: the tooltip, the text shown, the size it is
# drawn at, and how far the name runs past the start of the next card's column.
CARD_OWNERS = """() => [...document.querySelectorAll('.dx-reveal-slot .dx-reveal-owner-text')]
    .map((owner) => {
        const shown = owner.querySelector('.fit-label-short, .fit-label:not(.measuring)')
            ?? owner;
        const slot = owner.closest('.dx-reveal-slot');
        const end = slot.nextElementSibling?.getBoundingClientRect().left
            ?? slot.parentElement.getBoundingClientRect().right;
        return {title: owner.title, text: shown.textContent,
                drawn: parseFloat(getComputedStyle(shown).fontSize) * (shown.currentCSSZoom || 1),
                past: shown.getBoundingClientRect().right - end};
    })"""


@pytest.mark.parametrize(("locale", "kind", "named"), [
    ("pt-PT", "bot", "Computador"), ("en-GB", "human", "Player")])
def test_a_twelve_player_reveal_on_a_projector_names_each_card_s_owner_without_breaking_a_word(
    browser: Browser, tmp_path: Path, shots: Path, locale: str, kind: str, named: str
) -> None:
    """Twelve revealed cards in one row at 1024 × 600 are 43 px wide as drawn: the name
    under each broke inside its words ("Com" / "puta" / "dor…", "Playe" / "r 5"). A name
    with a word wider than the card is its initials, as the voters' chips are ("C10",
    "P5"), drawn 12 px or more, inside the card's column; its tooltip names the owner."""
    steps, _ = steps_until(12, lambda state, game: state.phase == "clue" and state.round == 2)
    people = ([SeatRow(s, "bot", bot="medium" if s % 2 else "hard") for s in range(12)]
              if kind == "bot" else
              [SeatRow(s, "human", name=f"Player {s + 1}", token_hash=token_hash(f"t{s}"))
               for s in range(12)])
    with stored_table(tmp_path / "data", {}, people, 4, steps, game="dixit") as (
            server, table):
        screen = browser.new_context(viewport={"width": 1024, "height": 600},
                                     locale=locale).new_page()
        screen.goto(f"{server.url}/t/{table}/screen")
        expect(screen.locator(".dx-reveal-group")).to_have_count(12)
        expect(screen.locator(".screen-table")).to_have_attribute("data-zoom", re.compile("."))
        owners = settled(screen, CARD_OWNERS)
        screen.screenshot(path=str(shots / f"big-screen-dixit-twelve-owners-{locale}.png"))
        assert screen.evaluate(broken_words(".dx-reveal-owner-text")) == []
        assert len(owners) == 12
        for owner in owners:
            number = re.search(rf"{named} (\d+)", owner["title"])
            assert number, owner
            assert owner["text"] == named[0] + number[1], owner
            assert owner["drawn"] >= 12 - 0.01, owner
            assert owner["past"] <= 0, owner
        screen.context.close()


def test_a_twelve_player_ranking_on_a_projector_is_read_at_12_px_and_shows_whole(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """DX-END with twelve players at 1024 × 600, the table zoomed to 0.6: the ranking's
    places, names and points were 10 px as drawn, and the side ran 24 px past its
    panel's foot. They are 12 px or more, and all twelve rows, the side (down to its
    history) and the page show whole, nothing scrolled."""
    with finished_twelve(tmp_path) as (server, table):
        screen = browser.new_context(viewport={"width": 1024, "height": 600}).new_page()
        screen.goto(f"{server.url}/t/{table}/screen")
        rows = screen.locator(".dx-side .dx-ranking li")
        expect(rows).to_have_count(12)
        expect(screen.locator(".screen-table")).to_have_attribute("data-zoom", re.compile("."))
        sizes = [size for size in settled(screen, SCREEN_TEXT_SIZES)
                 if re.search(r"\bdx-rank", str(size["kind"]))]
        screen.screenshot(path=str(shots / "big-screen-dixit-twelve-ranking-600.png"))
        assert len(sizes) == 36, sizes  # each row's place, name and points
        small = [size for size in sizes if size["drawn"] < 12 - 0.01]
        assert small == [], small[:5]
        for index in range(12):
            expect(rows.nth(index)).to_be_in_viewport(ratio=1)
        assert screen.locator(".dx-side").evaluate("s => s.scrollHeight <= s.clientHeight + 1")
        expect(screen.locator(".dx-side .dx-history")).to_be_in_viewport(ratio=1)
        assert screen.evaluate("document.documentElement.scrollHeight") <= 600
        screen.context.close()


# Each count of runners sharing a space on the score track ("×3") with any other text of
# the track (a space's number, a rabbit's, a lap's "+30", another count) closer to it
# than 2 px (negative: overlapping), and each count whose box is not inside the track's
# drawing.
TRACK_COUNTS_TOUCHING = """() => {
    const svg = document.querySelector('.dx-track svg').getBoundingClientRect();
    const texts = [...document.querySelectorAll('.dx-track text')]
        .filter((e) => e.checkVisibility());
    const touching = [], outside = [];
    for (const count of texts.filter((e) => e.classList.contains('dx-track-count'))) {
        const a = count.getBoundingClientRect();
        if (a.left < svg.left || a.right > svg.right || a.top < svg.top
                || a.bottom > svg.bottom) outside.push(count.parentElement.dataset.space);
        for (const other of texts) {
            if (other === count) continue;
            const b = other.getBoundingClientRect();
            const gap = Math.max(b.left - a.right, a.left - b.right,
                                 b.top - a.bottom, a.top - b.bottom);
            if (gap < 2) touching.push([count.parentElement.dataset.space, count.textContent,
                                        other.textContent, Math.round(gap * 10) / 10]);
        }
    }
    return {counts: texts.filter((e) => e.classList.contains('dx-track-count')).length,
            touching, outside};
}"""


@pytest.mark.parametrize("round_", [2, 5])
def test_the_counts_on_a_twelve_player_score_track_stand_clear_of_its_numbers(
    browser: Browser, tmp_path: Path, shots: Path, round_: int
) -> None:
    """Twelve rabbits on the big screen's score track at 1024 × 600: where several share
    a space their count ("×4") stood beside the ring, and its box touched the next
    space's number (0.3 px apart, -0.9 px over "12"), and in the first row it ran past
    the drawing's top edge, cut. Each count stands in the gap
    between two rows, at a corner of its space that no other count, lap mark or rabbit
    holds, 2 px or more clear of every other text of the track and inside it."""
    steps, _ = steps_until(12, lambda state, game: state.phase == "clue"
                           and state.round == round_)
    people = [SeatRow(s, "human", name=f"Player {s + 1}", token_hash=token_hash(f"t{s}"))
              for s in range(12)]
    with stored_table(tmp_path / "data", {}, people, 4, steps, game="dixit") as (
            server, table):
        screen = browser.new_context(viewport={"width": 1024, "height": 600}).new_page()
        screen.goto(f"{server.url}/t/{table}/screen")
        expect(screen.locator(".dx-side .dx-player")).to_have_count(12)
        expect(screen.locator(".screen-table")).to_have_attribute("data-zoom", re.compile("."))
        found = settled(screen, TRACK_COUNTS_TOUCHING)
        screen.locator(".dx-track").screenshot(
            path=str(shots / f"big-screen-dixit-track-counts-{round_}.png"))
        assert found["counts"] >= 3, found
        assert found["touching"] == [], found
        assert found["outside"] == [], found
        screen.context.close()
