"""Dixit as people play it: clues, cards given, votes, the reveal, Party and Team Dixit."""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, ElementHandle, Locator, Page, ViewportSize, expect

from gametable import decks
from gametable.core import registry
from gametable.core.records import GameRecord, SeatInfo, new_record, replay
from gametable.server.storage import SQLiteStorage
from tests.browser import waiting
from tests.browser.conftest import wait_for
from tests.browser.seats import SeatSocket
from tests.browser.seats import create_table as create_by_api
from tests.browser.taps import tapped_at
from tests.browser.test_big_screen import finished_twelve, say_clue
from tests.browser.test_rematch import finished_game, people, steps_until
from tests.browser.test_sequence_cats_browser import stored_table
from tests.browser.text_layout import HIDDEN_TEXT_OUTSIDE_ITS_SCROLLER, broken_words, settles_to
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser

TABLE = ".dx-table"
DESKTOP: ViewportSize = {"width": 1920, "height": 1080}
PHONE: ViewportSize = {"width": 390, "height": 844}
# A 1366 × 768 screen, the commonest laptop's, less the browser's bars.
SMALL_LAPTOP: ViewportSize = {"width": 1366, "height": 650}


@pytest.fixture
def picture_deck(tmp_path: Path) -> Iterator[None]:
    """The bundled default deck, or else a stand-in of 84 cards without pictures in the
    server's data folder (the client then shows card numbers and descriptions)."""
    if decks.find_deck(decks.DEFAULT_DECK) is not None:
        yield
        return
    folder = tmp_path / "data" / "decks" / decks.DEFAULT_DECK
    folder.mkdir(parents=True)
    cards = [{"id": f"{n:03d}", "file": f"{n:03d}.png", "description": f"Picture {n + 1}"}
             for n in range(84)]
    manifest = {"id": decks.DEFAULT_DECK, "name": "Test deck", "cards": cards}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    decks.configure(tmp_path / "data")  # the record is replayed in this process too
    yield
    decks.configure(None)


@pytest.fixture
def web_server(picture_deck: None, web_server: LiveServer) -> LiveServer:
    return web_server


ERRORS: list[str] = []


def watch(page: Page) -> Page:
    """Collect the page's uncaught errors (a broken render leaves an empty page)."""
    page.on("pageerror", lambda error: ERRORS.append(f"{error}\n{error.stack}"))
    return page


@pytest.fixture(autouse=True)
def no_page_errors() -> Iterator[None]:
    ERRORS.clear()
    yield
    assert ERRORS == []


def data(page: Page, name: str) -> str:
    return page.locator(TABLE).get_attribute(f"data-{name}") or ""


def version(page: Page) -> int:
    return waiting.version(page, TABLE)


def wait_for_new_state(page: Page, before: int) -> None:
    waiting.wait_for_version(page, TABLE, before + 1)


def create_table(page: Page, server: LiveServer, name: str, seats: list[str],
                 options: dict[str, str]) -> None:
    """Create a Dixit table in the lobby; ``seats`` are the choices for seats 2, 3…"""
    page.goto(server.url)
    card = page.locator(".game-card", has_text="Dixit")
    expect(card).to_contain_text("3–12 players")
    card.click()
    page.fill("input[autocomplete=nickname]", name)
    counts = page.get_by_role("group", name="Players").get_by_role("button")
    expect(counts.get_by_text("4", exact=True)).to_have_attribute("aria-pressed", "true")
    counts.get_by_text(str(len(seats) + 1), exact=True).click()
    expect(page.locator(".seat-plan li")).to_have_count(len(seats) + 1)
    for index, choice in enumerate(seats, start=2):
        page.select_option(f".seat-plan li:nth-child({index}) select", choice)
    for label, value in options.items():
        field = page.locator(".config-form .field",
                             has=page.locator(".field-label", has_text=label))
        field.locator("select").select_option(label=value)
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/*")


def join(browser: Browser, invite: str, name: str, seat: int,
         viewport: ViewportSize = DESKTOP) -> Page:
    page = watch(browser.new_context(viewport=viewport).new_page())
    page.goto(invite)
    page.fill(".waiting-room input[name=name]", name)
    page.locator(".seat-row", has=page.locator(".seat-number", has_text=f"Seat {seat + 1}")) \
        .get_by_role("button", name="Take this seat").click()
    return page


def table_id(page: Page) -> str:
    return page.url.rstrip("/").split("/t/")[1].split("#")[0]


def choose_in_hand(page: Page, count: int = 1) -> list[str]:
    """Choose the first ``count`` cards that may be chosen, by the buttons under them."""
    cards = page.locator('.dx-hand-card[data-choosable="true"]')
    expect(cards.first).to_be_visible()
    chosen = []
    for i in range(count):
        card = cards.nth(i)
        card.locator('[data-action="choose"]').click()
        expect(card).to_have_attribute("data-chosen", "true")
        chosen.append(card.get_attribute("data-card") or "")
    return chosen


def give_clue(page: Page, text: str) -> None:
    continue_reveal(page)
    before = version(page)
    send = page.locator('[data-action="send-clue"]')
    if data(page, "variant") != "party":
        expect(send).to_be_disabled()  # no card chosen yet
        choose_in_hand(page)
    page.fill("input[name=clue]", text)
    expect(send).to_be_enabled()
    send.click()
    wait_for_new_state(page, before)
    expect(page.locator(".dx-clue-box .dx-clue")).to_contain_text(text)


def submit(page: Page) -> None:
    before = version(page)
    button = page.locator('[data-action="submit"]')
    expect(button).to_be_disabled()
    choose_in_hand(page)
    button.click()
    wait_for_new_state(page, before)


def vote(page: Page) -> int:
    """Vote for the first slot that is not one's own (DX-ROUND-5); returns its number."""
    continue_reveal(page)
    before = version(page)
    slots = page.locator(".dx-slot:not([data-own])")
    if data(page, "variant") != "party":  # Party allows a vote for one's own card
        expect(page.locator('.dx-slot[data-own] [data-action="vote-slot"]')).to_have_count(0)
    slot = int(slots.first.get_attribute("data-slot") or 0)
    slots.first.locator('[data-action="vote-slot"]').click()
    page.click('[data-action="cast-vote"]')
    wait_for_new_state(page, before)
    return slot


def continue_reveal(page: Page) -> None:
    button = page.locator('[data-action="continue"]')
    if button.count():
        button.click()
        expect(page.locator(".dx-reveal")).to_have_count(0)


def act(page: Page, clue: str) -> str | None:
    """Do through the page whatever this seat may do now; returns what was done."""
    if page.locator('[data-action="continue"]').count():
        continue_reveal(page)
        return "continue"
    if data(page, "my-turn") != "true":
        return None
    if page.locator('[data-action="send-clue"]').count():
        give_clue(page, clue)
        return "clue"
    if page.locator('[data-action="giver"]').count():
        # The teammate (a computer player, say) may name the giver first: then the
        # buttons are gone before the click lands, and there is nothing to do.
        before = version(page)
        me = page.locator(".dx-player.mine").get_attribute("data-seat")
        if not waiting.click_if_there(page, f'[data-action="giver"][data-seat="{me}"]'):
            return None
        wait_for_new_state(page, before)
        return "giver"
    if page.locator('[data-action="submit"]').count():
        submit(page)
        return "submit"
    if page.locator('[data-action="cast-vote"]').count():
        vote(page)
        return "vote"
    return None


def page_scores(page: Page, seats: int) -> list[int]:
    return [int(page.locator(f'.dx-player[data-seat="{s}"]').get_attribute("data-score") or -1)
            for s in range(seats)]


def rules_scores(server: LiveServer, table: str) -> list[int]:
    """The scores the rules give: the table's record replayed by the engine. A running
    Dixit game's record is not served (it would reveal the cards), so it is read from the
    server's storage; once the game is over it comes from ``GET /api/tables/{id}/record``."""
    response = httpx.get(f"{server.url}/api/tables/{table}/record")
    if response.status_code == 200:
        record = GameRecord.model_validate(response.json())
    else:
        assert response.status_code == 403
        storage = SQLiteStorage(server.data_dir / "gametable.sqlite3")
        try:
            row = storage.load_table(table)
        finally:
            storage.close()
        assert row is not None
        record = new_record(row.game, row.config,
                            [SeatInfo(name=s.name, bot=s.bot) for s in row.seats], row.seed)
        for seat, action in row.actions:
            record.append(seat, action)
    result = replay(record)
    return [int(s) for s in result.game.outcome(result.state).scores]


def test_two_people_and_two_computers_play_two_rounds(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    anna = watch(browser.new_context(viewport=DESKTOP).new_page())
    create_table(anna, web_server, "Anna", ["friend", "bot:greedy", "bot:greedy"],
                 {"First storyteller": "The first seat"})
    invite = anna.locator("#invite-url").input_value()
    bjarni = join(browser, invite, "Bjarni", 1, PHONE)
    for page in (anna, bjarni):
        expect(page.locator(TABLE)).to_have_attribute("data-phase", "clue")
        expect(page.locator(".dx-hand-card")).to_have_count(6)
    expect(anna.locator(".dx-player.storyteller")).to_have_attribute("data-seat", "0")
    expect(bjarni.locator(".dx-status")).to_contain_text("Anna is thinking of a clue")
    anna.screenshot(path=shots / "dixit-hand-desktop.png")
    bjarni.screenshot(path=shots / "dixit-hand-phone.png")

    # The zoomed preview: a click opens it, Escape closes it.
    anna.locator(".dx-hand-card .dx-card-button").first.click()
    zoom = anna.get_by_role("dialog")
    expect(zoom).to_be_visible()
    expect(zoom.locator(".dx-zoom-description")).not_to_be_empty()
    anna.keyboard.press("Escape")
    expect(zoom).to_have_count(0)

    # Round 1: Anna tells, Bjarni gives a card and votes.
    choose_in_hand(anna)
    anna.fill("input[name=clue]", "A quiet lantern")
    anna.screenshot(path=shots / "dixit-clue-desktop.png")
    before = version(anna)
    anna.click('[data-action="send-clue"]')
    wait_for_new_state(anna, before)
    expect(bjarni.locator(".dx-clue").first).to_contain_text("A quiet lantern")
    expect(bjarni.locator(TABLE)).to_have_attribute("data-phase", "submit")
    # Anna's card is in: she shows as done, never which card.
    expect(bjarni.locator('.dx-submission[data-seat="0"]')).to_have_attribute(
        "data-submitted", "true")
    submit(bjarni)
    expect(bjarni.locator(TABLE)).to_have_attribute("data-phase", "vote")
    expect(bjarni.locator(".dx-slot")).to_have_count(4)
    bjarni.screenshot(path=shots / "dixit-vote-phone.png")
    anna.screenshot(path=shots / "dixit-vote-desktop.png")
    expect(anna.locator('.dx-slot [data-action="vote-slot"]')).to_have_count(0)  # storyteller
    vote(bjarni)

    # The reveal: whose card was where, who voted where, the points with their reasons.
    for page in (anna, bjarni):
        reveal = page.locator(".dx-reveal")
        expect(reveal).to_be_visible()
        expect(reveal).to_have_attribute("data-round", "1")
        expect(reveal.locator('.dx-reveal-slot[data-storyteller="true"]')).to_have_attribute(
            "data-owner", "0")
        expect(reveal.locator('.dx-voter[data-voter="1"]')).to_have_count(1)
        expect(reveal.locator(".dx-reveal-group li[data-reason]").first).not_to_contain_text(
            "dixit.reasons")
    # Each reader's own result is in the heading (the breakdown can lie far below the
    # cards), and a link brings everyone's points into sight.
    for page, me in ((anna, 0), (bjarni, 1)):
        mine = page.locator(".dx-reveal-mine")
        points = page.locator(f'.dx-reveal-group[data-seats="{me}"]').get_attribute("data-points")
        expect(mine).to_have_attribute("data-points", points or "")
        expect(mine).to_contain_text(f"You: +{points}")
    # On the phone the points lie below the cards: the link brings them up.
    bjarni.locator(".dx-reveal-mine").get_by_role("button", name="Everyone's points").click()
    expect(bjarni.locator(".dx-reveal-points")).to_be_in_viewport()
    bjarni.evaluate("window.scrollTo(0, 0)")
    anna.screenshot(path=shots / "dixit-reveal-desktop.png")
    bjarni.screenshot(path=shots / "dixit-reveal-phone.png")
    for page in (anna, bjarni):  # the reveal scrolls down only, never sideways
        assert page.locator(".dx-board").evaluate("b => b.scrollWidth <= b.clientWidth")

    # Round 2: Bjarni tells; on his phone the clue line sits above his cards.
    continue_reveal(bjarni)
    expect(bjarni.locator('[data-action="send-clue"]')).to_be_visible()
    bjarni.locator(".dx-hand-card .dx-card-button").nth(1).click()
    expect(bjarni.get_by_role("dialog")).to_be_visible()
    bjarni.screenshot(path=shots / "dixit-zoom-phone.png")
    bjarni.locator('[data-action="zoom-choose"]').click()
    expect(bjarni.get_by_role("dialog")).to_have_count(0)
    expect(bjarni.locator(".dx-hand-card").nth(1)).to_have_attribute("data-chosen", "true")
    bjarni.fill("input[name=clue]", "Far from home")
    box = bjarni.locator(".dx-hand-bar").bounding_box()
    assert box is not None and box["y"] + box["height"] == pytest.approx(844, abs=2)
    bjarni.screenshot(path=shots / "dixit-clue-phone.png")
    before = version(bjarni)
    bjarni.click('[data-action="send-clue"]')
    wait_for_new_state(bjarni, before)

    # The rest of round 2 (Anna gives a card and votes) and the start of round 3.
    people = (anna, bjarni)
    waiting.play_until(
        people, TABLE,
        done=lambda: all(data(page, "round") == "3" and not page.locator(".dx-reveal").count()
                         for page in people),
        turn=lambda: any([act(page, "Home again") for page in people]), most=40)

    # The scores on both pages are those of the rules, replayed from the record (they
    # change only at a reveal, which waits for Anna and Bjarni).
    waiting.settle(people, TABLE)
    expected = rules_scores(web_server, table_id(anna))
    assert sum(expected) > 0
    assert page_scores(anna, 4) == expected
    assert page_scores(bjarni, 4) == expected
    for seat, score in enumerate(expected):
        token = anna.locator(f'.dx-track-token[data-runner="seat-{seat}"]')
        expect(token).to_have_attribute("data-score", str(score))
        # The rabbit carries its space's number, which it covers on the track (three
        # or more on one space stand round it, its number in sight).
        number = anna.locator(f'.dx-track [data-space="{score}"] .dx-rabbit-number, '
                              f'.dx-track-space:nth-of-type({score + 1}) text')
        expect(number.first).to_have_text(str(score))
    # The last round comes back on demand, with the same totals.
    anna.click('[data-action="show-reveal"]')
    groups = anna.locator(".dx-reveal-group")
    expect(groups).to_have_count(4)
    for seat, score in enumerate(expected):
        expect(anna.locator(f'.dx-reveal-group[data-seats="{seat}"]')).to_have_attribute(
            "data-total", str(score))


def test_the_reveal_fits_a_laptop_window(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """In a window 650 pixels high the reveal shows every card, with its owner and the
    first of its votes under it, without scrolling the table: its cards shrink to fit,
    and each player's points for the round (DX-SCORE-1 to DX-SCORE-3) stand beside
    them, their headings in sight too."""
    anna = watch(browser.new_context(viewport=SMALL_LAPTOP).new_page())
    create_table(anna, web_server, "Anna", ["bot:random"] * 3,
                 {"First storyteller": "The first seat"})
    give_clue(anna, "A quiet lantern")
    expect(anna.locator(".dx-reveal")).to_be_visible()  # the others give cards and vote
    expect(anna.locator(".dx-reveal-slot")).to_have_count(4)
    # The next round goes on behind the reveal (the computer storyteller's clue): Anna's
    # hand and its buttons make room for the reveal until she continues.
    expect(anna.locator(TABLE)).to_have_attribute("data-phase", "submit")
    expect(anna.locator(".dx-hand-bar")).to_be_hidden()
    wait_for(anna, """(() => {
        const board = document.querySelector('.dx-board').getBoundingClientRect();
        const under = [...document.querySelectorAll(
            '.dx-reveal-owner, .dx-reveal-votes > :first-child')];
        return under.length >= 8 && under.every(e => {
            const box = e.getBoundingClientRect();
            return box.top >= board.top && box.bottom <= board.bottom; });
    })()""")
    wait_for(anna, """(() => {
        const board = document.querySelector('.dx-board').getBoundingClientRect();
        const sums = [...document.querySelectorAll('.dx-reveal-group h3')];
        return sums.length === 4 && sums.every(e => {
            const box = e.getBoundingClientRect();
            return box.top >= board.top && box.bottom <= board.bottom; });
    })()""")
    anna.screenshot(path=shots / "dixit-reveal-laptop.png")
    width = anna.locator(".dx-reveal-slot").first.bounding_box()
    assert width is not None and width["width"] >= 96  # still a card one can make out
    continue_reveal(anna)
    expect(anna.locator('[data-action="submit"]')).to_be_in_viewport(ratio=1)


def fits_the_window(page: Page) -> bool:
    """The whole table lies in the window with the page scrolled to its top (the links
    below the table may lie further down)."""
    return bool(page.evaluate("""(() => {
        const table = document.querySelector('.dx-table').getBoundingClientRect();
        return table.top + window.scrollY >= 0
            && table.bottom + window.scrollY <= window.innerHeight + 1; })()"""))


def test_a_laptop_window_holds_the_table_in_every_phase(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """In a 1366 × 650 window (a 1366 × 768 laptop's browser) with six players nothing
    needs the page scrolled: the clue's field and button and every card's button while
    telling (DX-ROUND-1) and giving a card (DX-ROUND-3); while voting (DX-ROUND-4) the
    hand makes room for the table, every vote button and the cast button in sight."""
    anna = watch(browser.new_context(viewport=SMALL_LAPTOP).new_page())
    create_table(anna, web_server, "Anna", ["bot:random"] * 5,
                 {"First storyteller": "The first seat"})
    expect(anna.locator('[data-action="send-clue"]')).to_be_in_viewport(ratio=1)
    expect(anna.locator(".dx-hand-card").last.locator('[data-action="choose"]')
           ).to_be_in_viewport(ratio=1)
    assert fits_the_window(anna)
    anna.screenshot(path=shots / "dixit-laptop-clue.png")
    give_clue(anna, "A quiet lantern")
    expect(anna.locator(".dx-reveal")).to_be_visible()  # the others give cards and vote
    continue_reveal(anna)

    # A computer storyteller's round: Anna gives a card, then votes.
    expect(anna.locator('[data-action="submit"]')).to_be_in_viewport(ratio=1)
    # The givers' names under the cards coming in are whole ("Comp…" was cut to 80 px).
    names = anna.locator(".dx-submission-name-text")
    expect(names.first).to_be_visible()
    assert names.evaluate_all("""names => names.every(name =>
        name.scrollHeight <= name.clientHeight + 1 && name.scrollWidth <= name.clientWidth + 1)""")
    expect(anna.locator(".dx-hand-card").last.locator('[data-action="choose"]')
           ).to_be_in_viewport(ratio=1)
    assert fits_the_window(anna)
    submit(anna)
    cast = anna.locator('[data-action="cast-vote"]')
    expect(cast).to_be_in_viewport(ratio=1)
    expect(anna.locator(".dx-hand-card").first).to_be_hidden()
    buttons = anna.locator('[data-action="vote-slot"]')
    expect(buttons).to_have_count(5)  # six cards, one of them Anna's (DX-ROUND-5)
    for index in range(5):
        expect(buttons.nth(index)).to_be_in_viewport(ratio=1)
    assert fits_the_window(anna)
    anna.screenshot(path=shots / "dixit-laptop-vote.png")


@pytest.mark.parametrize("locale", ["en-GB", "nb-NO", "pt-PT"])
def test_on_a_laptop_six_players_points_of_a_round_lie_in_one_row(
    browser: Browser, web_server: LiveServer, shots: Path, locale: str
) -> None:
    """DX-SCORE-1 to DX-SCORE-3 on a 1366 × 768 laptop with six players: the round's
    result gave five boxes of points a row, and the sixth lay under them, below the
    window. The six boxes lie in one row, each player's points in the window, and the
    computer players' names ("Datamaskin 2 · Vanskelig") break between their words."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "hard", "medium", "hard", "medium", "hard"],
                                  {0: "Anna"})
    page = watch(browser.new_context(viewport={"width": 1366, "height": 768},
                                     locale=locale).new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    with SeatSocket(web_server, table, tokens[0]) as seat:
        say_clue(seat, "Harbour lights")
    groups = page.locator(".dx-reveal-group")
    expect(groups).to_have_count(6, timeout=60_000)
    page.wait_for_timeout(300)  # the reveal's cards take their size
    tops, sums = page.evaluate("""(() => {
        const groups = [...document.querySelectorAll('.dx-reveal-group')];
        return [groups.map(group => Math.round(group.getBoundingClientRect().top)),
                groups.map(group => group.querySelector('.dx-reveal-sum')
                                         .getBoundingClientRect().bottom)]; })()""")
    page.screenshot(path=shots / f"dixit-laptop-six-points-{locale}.png")
    assert max(tops) - min(tops) <= 1, tops
    assert max(sums) <= 768, sums  # even with all five votes under one card
    assert page.evaluate(broken_words(".dx-reveal-name")) == []


def test_on_a_1280_px_screen_a_computer_player_s_points_lie_beside_its_name(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-SCORE-1 to DX-SCORE-3 at 1280 × 800 in Portuguese, six players: the boxes of
    points lie two a row beside the cards, and "+0" went under "Computador 2" in five
    boxes of six (the name was sized to fit beside its dot only). Each computer player's
    points lie on its name's line."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "hard", "medium", "hard", "medium", "hard"],
                                  {0: "Ana"})
    page = watch(browser.new_context(viewport={"width": 1280, "height": 800},
                                     locale="pt-PT").new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    with SeatSocket(web_server, table, tokens[0]) as seat:
        say_clue(seat, "Luzes do porto")
    expect(page.locator(".dx-reveal-group")).to_have_count(6, timeout=60_000)
    page.wait_for_timeout(300)  # the reveal's cards take their size
    page.screenshot(path=shots / "dixit-1280-points-pt-PT.png")
    lines = page.evaluate("""[...document.querySelectorAll('.dx-reveal-group h3.whole')].map(h =>
        Math.round(h.querySelector('.dx-reveal-sum').getBoundingClientRect().top
                   - h.querySelector('.dx-reveal-name').getBoundingClientRect().top))""")
    assert len(lines) == 5 and max(lines) < 8, lines


def test_on_a_phone_the_hand_makes_room_for_the_table_while_voting(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-ROUND-4 on a phone: the hand is of no use while the cards on the table are
    voted on, and it took half the screen, leaving the table a strip scrolled inside
    itself. It makes room: a whole row of cards with their vote buttons and the cast
    button are in sight at once."""
    anna = watch(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                     device_scale_factor=2).new_page())
    create_table(anna, web_server, "Anna", ["bot:random"] * 5,
                 {"First storyteller": "The first seat"})
    give_clue(anna, "A quiet lantern")
    expect(anna.locator(".dx-reveal")).to_be_visible()  # the others give cards and vote
    continue_reveal(anna)
    expect(anna.locator('[data-action="submit"]')).to_be_visible()
    expect(anna.locator(".dx-hand")).to_be_visible()  # giving a card: the hand shows
    submit(anna)
    cast = anna.locator('[data-action="cast-vote"]')
    expect(cast).to_be_in_viewport(ratio=1)
    expect(anna.locator(".dx-hand")).to_be_hidden()
    buttons = anna.locator('[data-action="vote-slot"]')
    expect(buttons).to_have_count(5)
    for index in range(2):  # the first row: slots 1–3, one of them maybe Anna's own
        expect(buttons.nth(index)).to_be_in_viewport(ratio=1)
    board = anna.locator(".dx-board").bounding_box()
    assert board is not None and board["height"] >= 430, board
    anna.screenshot(path=shots / "dixit-phone-vote.png")


def test_on_a_small_phone_three_players_vote_on_a_row_of_three_cards(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-3P-2 at 360 px: five cards to vote on stood two to a row, and their Vote
    buttons below the board's edge (it scrolls): nothing to vote with in sight. Three
    stand to a row, as at 390 px, the first row's buttons in sight."""
    anna = watch(browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                     has_touch=True, device_scale_factor=2).new_page())
    create_table(anna, web_server, "Anna", ["bot:random"] * 2,
                 {"First storyteller": "The first seat"})
    give_clue(anna, "A quiet lantern")
    expect(anna.locator(".dx-reveal")).to_be_visible()  # the others give cards and vote
    continue_reveal(anna)
    give = anna.locator('[data-action="submit"]')
    expect(give).to_be_visible()
    before = version(anna)
    choose_in_hand(anna, 2)  # three players each give two cards (DX-3P-2)
    give.click()
    wait_for_new_state(anna, before)
    slots = anna.locator(".dx-slot")
    expect(slots).to_have_count(5)
    tops = [round((slots.nth(i).bounding_box() or {"y": -1})["y"]) for i in range(3)]
    assert len(set(tops)) == 1, tops
    first_row = anna.locator(
        '.dx-slot:nth-child(-n+3) [data-action="vote-slot"]')
    expect(first_row.first).to_be_in_viewport(ratio=1)
    anna.screenshot(path=shots / "dixit-small-phone-vote.png")


def test_on_a_phone_a_long_name_under_a_revealed_card_takes_two_lines_at_most(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """On a phone the reveal's columns are narrow: a card's owner line ends in an
    ellipsis after two lines (the whole name is its tooltip), so that the votes stay
    close under their card."""
    name = "Anna Sigríður Jónsdóttir"
    anna = watch(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                     device_scale_factor=2).new_page())
    create_table(anna, web_server, name, ["bot:random"] * 3,
                 {"First storyteller": "The first seat"})
    give_clue(anna, "A quiet lantern")
    expect(anna.locator(".dx-reveal-slot")).to_have_count(4)
    owners = anna.locator(".dx-reveal-owner-text")
    expect(owners).to_have_count(4)
    expect(owners.filter(has_text=name)).to_have_attribute("title", f"{name}'s card")
    assert owners.evaluate_all("""names => names.every(
        name => name.getBoundingClientRect().height
                <= 2 * 1.5 * parseFloat(getComputedStyle(name).fontSize))""")
    anna.screenshot(path=shots / "dixit-reveal-phone-long-name.png")


def test_on_a_norwegian_phone_computer_players_are_named_whole_under_their_cards(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """On a phone, under a revealed card and in a voter's chip, a computer player is
    "Datamaskin 3" (its level is in the players' list and the tooltip) and the
    storyteller's card says "Forteller": "Kortet til Datamaskin 3 · Vanskelig" was cut
    to "Kortet til Datama…" and "Fortellerens kort" to "Fortellere…"."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "easy", "medium", "hard"], {0: "Anna"})
    anna = watch(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                     locale="nb-NO").new_page())
    anna.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    give_clue(anna, "Et stille lys")
    expect(anna.locator(".dx-reveal-slot")).to_have_count(4)
    owners = anna.locator(".dx-reveal-owner-text")
    expect(owners.filter(has_text="Datamaskin 4")).to_have_attribute(
        "title", "Kortet til Datamaskin 4 · Vanskelig")
    texts = owners.all_inner_texts()
    assert sorted(texts) == ["Anna", "Datamaskin 2", "Datamaskin 3", "Datamaskin 4"], texts
    words = owners.evaluate_all("""owners => owners.map(owner => {
        const range = document.createRange();
        range.selectNodeContents(owner);
        return range.getClientRects().length;  // one box per line
    })""")
    assert max(words) <= 2, words  # "Datamaskin" whole on its line, "4" on the next
    expect(anna.locator(".dx-card-badge.teller")).to_have_text("Forteller")
    cut = anna.evaluate("""() => [...document.querySelectorAll(
            '.dx-reveal-owner-text, .dx-voter')]
        .filter(e => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1)
        .map(e => [e.textContent, e.scrollHeight, e.clientHeight, e.scrollWidth, e.clientWidth])""")
    anna.screenshot(path=shots / "dixit-reveal-phone-nb-computers.png")
    assert cut == []
    badge = anna.locator(".dx-card-badge.teller").evaluate(
        "b => [b.scrollWidth <= b.clientWidth + 1, b.getBoundingClientRect().width <= "
        "b.parentElement.getBoundingClientRect().width]")
    assert badge == [True, True]
    expect(anna.locator(".dx-voter").first).to_have_text(re.compile(r"^Datamaskin [234]$"))
    anna.screenshot(path=shots / "dixit-reveal-phone-nb-computers.png")


@pytest.mark.parametrize("width", [320, 360])
def test_on_a_small_phone_the_storytellers_card_says_storyteller_whole(
    browser: Browser, web_server: LiveServer, shots: Path, width: int
) -> None:
    """DX-ROUND-5 on a 320 px phone in English: the reveal's columns are 88 px, and the
    badge on the storyteller's card, held to 92 % of it, left "Storyteller" half a pixel
    to spare, so that any wider drawing of the word cut it to "Storytell…". The badge
    takes the card's width less 2 px each side: the whole word shows with room to
    spare, inside its card; at 360 px too."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "easy", "easy", "easy"], {0: "Anna"})
    page = watch(browser.new_context(viewport={"width": width, "height": 568},
                                     is_mobile=True, has_touch=True, device_scale_factor=2,
                                     locale="en-GB").new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    give_clue(page, "A quiet lantern")
    badge = page.locator(".dx-reveal-slot.storyteller .dx-card-badge.teller")
    expect(badge).to_have_text("Storyteller")  # the word, not the pencil that stands in
    badge.scroll_into_view_if_needed()
    page.wait_for_timeout(300)  # the reveal's columns laid out
    shown = badge.evaluate("""badge => {
        const style = getComputedStyle(badge);
        const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
        const words = document.createRange();
        words.selectNodeContents(badge.querySelector('.fit-label'));
        const word = words.getBoundingClientRect(), box = badge.getBoundingClientRect();
        const card = badge.closest('.dx-card-button').getBoundingClientRect();
        // The widest the badge may grow: the room a longer word would have.
        badge.style.width = '100vw';
        const room = badge.clientWidth - padding;
        badge.style.width = '';
        return {whole: badge.scrollWidth <= badge.clientWidth
                    && word.left >= box.left && word.right <= box.right,
                inside: box.left >= card.left && box.right <= card.right,
                spare: room - word.width};
    }""")
    page.screenshot(path=shots / f"dixit-reveal-phone-{width}-storyteller.png")
    assert shown["whole"] and shown["inside"], shown
    assert shown["spare"] >= 4, shown


@pytest.mark.parametrize(("width", "height", "locale", "seats"),
                         [(360, 640, "nb-NO", 5), (390, 664, "en-GB", 4)])
def test_on_a_phone_the_reveal_names_owners_and_voters_at_12_px_at_least(
    browser: Browser, web_server: LiveServer, shots: Path, width: int, height: int,
    locale: str, seats: int
) -> None:
    """DX-ROUND-5: who gave which card and who voted for it is what a round's reveal is
    for. On a phone the owners' names under the cards were 9.6 px and the voters' chips
    10.9 px; both are 12 px (0.75rem) now, a name that does not fit beside its dot going
    under it and a chip taking a second line, never cut and never past its column."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human"] + ["easy"] * (seats - 1), {0: "Anna"})
    page = watch(browser.new_context(viewport={"width": width, "height": height},
                                     is_mobile=True, has_touch=True,
                                     locale=locale).new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    give_clue(page, "A quiet lantern")
    expect(page.locator(".dx-reveal-slot")).to_have_count(seats)
    expect(page.locator(".dx-voter")).to_have_count(seats - 1)  # each other seat votes
    shown = page.evaluate("""() => [...document.querySelectorAll(
            '.dx-reveal-owner-text, .dx-voter')].map(e => {
        const box = e.getBoundingClientRect();
        const column = e.closest('.dx-reveal-slot').getBoundingClientRect();
        return [e.textContent, parseFloat(getComputedStyle(e).fontSize),
                e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1,
                box.left >= column.left - 0.5 && box.right <= column.right + 0.5];
    })""")
    page.locator(".dx-reveal-slots").scroll_into_view_if_needed()
    page.screenshot(path=shots / f"dixit-reveal-phone-{width}-names.png")
    assert len(shown) == 2 * seats - 1, shown
    assert [(text, size) for text, size, _, _ in shown if size < 12] == []
    assert [text for text, _, cut, _ in shown if cut] == []
    assert [text for text, _, _, inside in shown if not inside] == []


def test_on_a_phone_the_board_opens_at_its_top_after_a_round_read_to_its_end(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """A person reads a round's points to their end (on a phone the result scrolls as a
    page) and continues: the next phase opens at the board's top, the clue and the
    cards, not at the score track where the reading left it. The points say which of
    "everyone" or "no one" found the card (DX-SCORE-1), and a bonus speaks of the card's
    votes, not of "your" card in everyone's box."""
    anna = watch(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                     device_scale_factor=2).new_page())
    create_table(anna, web_server, "Anna", ["bot:random"] * 7,
                 {"First storyteller": "The first seat"})
    give_clue(anna, "A quiet lantern")
    expect(anna.locator(".dx-reveal")).to_be_visible()
    reasons = anna.locator(".dx-reveal-points li").all_inner_texts()
    assert reasons and not any("or no one" in line for line in reasons), reasons
    assert not any("your card" in line for line in reasons), reasons
    board = anna.locator(".dx-board")
    last = anna.locator(".dx-reveal-group").last
    last.scroll_into_view_if_needed()
    assert anna.evaluate("window.scrollY") > 0
    # The reading stays put while the next round begins behind the result (a computer
    # storyteller's clue comes at once).
    anna.wait_for_timeout(500)
    expect(last).to_be_in_viewport()
    continue_reveal(anna)
    expect(anna.locator(".dx-reveal")).to_have_count(0)
    assert board.evaluate("b => b.scrollTop") == 0
    assert anna.evaluate("window.scrollY") == 0
    expect(anna.locator(".dx-clue-box, .dx-round").first).to_be_in_viewport()
    anna.screenshot(path=shots / "dixit-phone-after-continue.png")


def test_on_a_phone_the_history_opens_below_a_whole_table(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """On a phone the history opened inside the table's column of the window's height:
    the board shrank to a strip 26 px high, the status line spilled over it and the
    history lay over the buttons below the table. The page grows instead, and brings the
    history into sight."""
    anna = watch(browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                     has_touch=True, device_scale_factor=2).new_page())
    create_table(anna, web_server, "Anna", ["bot:random"] * 3,
                 {"First storyteller": "The first seat"})
    give_clue(anna, "A quiet lantern")
    expect(anna.locator(".dx-reveal")).to_be_visible()
    continue_reveal(anna)
    history = anna.locator(".dx-history")
    history.locator("summary").tap()
    expect(history).to_have_attribute("open", "")
    expect(history.locator("summary")).to_be_in_viewport()
    board = anna.locator(".dx-board").bounding_box()
    assert board is not None and board["height"] > 200, board
    # (Both at one moment: the computer players play on, and the history grows.)
    ends = anna.evaluate("""() => {
        const how = [...document.querySelectorAll('button')]
            .find((button) => button.textContent.trim() === 'How to play');
        return [how.getBoundingClientRect().top,
                document.querySelector('.dx-history').getBoundingClientRect().bottom];
    }""")
    assert ends[0] >= ends[1], ends
    anna.screenshot(path=shots / "dixit-phone-history-open.png")


def test_dx_round_3_ones_own_given_card_and_the_told_card_show_their_faces(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-ROUND-2/3: once given, a card left the hand and its place among the cards
    coming in showed a card back, so it seemed gone (while "Take back my card" was
    offered), the storyteller's card too. To oneself only, one's given card shows its
    face in one's place."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human"] * 4,
                                  {0: "Anna", 1: "Bruno", 2: "Carla", 3: "Dóra"})
    anna = watch(browser.new_context(viewport=SMALL_LAPTOP).new_page())
    anna.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    bruno = watch(browser.new_context(viewport=SMALL_LAPTOP).new_page())
    bruno.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    # Carla and Dóra give nothing yet.
    with SeatSocket(web_server, table, tokens[2]), SeatSocket(web_server, table, tokens[3]):
        give_clue(anna, "A quiet lantern")
        told = anna.locator('.dx-submission[data-seat="0"] .dx-own-given')
        expect(told).to_be_visible()
        told_card = told.get_attribute("data-card")
        assert told_card is not None
        assert told_card not in anna.locator(".dx-hand-card").evaluate_all(
            "cards => cards.map(c => c.dataset.card)")
        expect(bruno.locator('.dx-submission[data-seat="0"] .dx-card-back')).to_be_visible()

        submit(bruno)
        mine = bruno.locator('.dx-submission[data-seat="1"] .dx-own-given')
        expect(mine).to_be_visible()
        given = mine.get_attribute("data-card")
        assert given is not None and given != told_card
        bruno.screenshot(path=shots / "dixit-own-given-card.png")
        # Everyone else sees a card back there.
        expect(anna.locator('.dx-submission[data-seat="1"] .dx-card-back')).to_be_visible()
        expect(anna.locator(".dx-own-given")).to_have_count(1)  # hers only


def test_names_under_the_cards_coming_in_break_only_between_words(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-ROUND-3 with three players, in Portuguese: under the narrow cards coming in,
    "Computador 2" read "Computado / r 2". A name's word that fits the card and the gap
    beside it keeps whole (a person's "Bartolomeu 2", as wide: a person's name may not
    hold the word for computer players)."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human"] * 3,
                                  {0: "João", 1: "Bartolomeu 2", 2: "Maximiliano"})
    context = browser.new_context(viewport=SMALL_LAPTOP, locale="pt-PT")
    joao = watch(context.new_page())
    joao.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    with SeatSocket(web_server, table, tokens[1]) as second, \
            SeatSocket(web_server, table, tokens[2]):
        give_clue(joao, "falling")
        names = joao.locator(".dx-submission-name-text")
        expect(names).to_have_count(3)
        assert joao.evaluate(broken_words(".dx-submission-name-text")) == []
        joao.screenshot(path=shots / "dixit-names-under-cards-pt.png")
        # On a phone "carta entregue" is wider than a column: it takes two lines rather
        # than lie over its neighbour's badge.
        phone = watch(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                          locale="pt-PT").new_page())
        phone.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
        second.act("submit")  # two cards in side by side
        badges = phone.locator(".dx-submission .dx-progress")
        expect(badges.nth(1)).to_have_text("carta entregue")
        widths = badges.evaluate_all(
            "bs => bs.map(b => [b.getBoundingClientRect().width,"
            " b.closest('.dx-submission').getBoundingClientRect().width])")
        assert all(badge <= column + 10.5 for badge, column in widths), widths
        phone.screenshot(path=shots / "dixit-names-under-cards-pt-phone.png")


@pytest.mark.parametrize("viewport", [PHONE, SMALL_LAPTOP], ids=["phone", "laptop"])
def test_a_computer_player_s_name_under_the_cards_coming_in_keeps_its_word_whole(
    browser: Browser, web_server: LiveServer, shots: Path, viewport: ViewportSize
) -> None:
    """DX-ROUND-2 in Portuguese: "Computador" (81 px) read "Computado / r 4" under the
    74 px column of a phone and the 80 px one of a 1366 px laptop, as a flex item's width
    stopped at its column's; the name takes the gap beside its card now."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "human", "human", "hard"],
                                  {0: "Anna", 1: "Rui", 2: "Eva"})
    anna = watch(browser.new_context(viewport=viewport, locale="pt-PT").new_page())
    anna.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    give_clue(anna, "Um sonho")
    names = anna.locator(".dx-submission-name-text")
    expect(names).to_have_text(["Anna", "Rui", "Eva", "Computador 4"])
    anna.screenshot(path=shots / f"dixit-computer-names-coming-in-{viewport['width']}.png")
    assert anna.evaluate(broken_words(".dx-submission-name-text")) == []


NAME_GAPS = """() => {
    // Each name's text as drawn (its lines' extent), row by row under the cards.
    const names = [...document.querySelectorAll('.dx-submission-name-text')].map(e => {
        const range = document.createRange();
        range.selectNodeContents(e);
        const lines = [...range.getClientRects()];
        return {top: Math.min(...lines.map(r => r.top)),
                left: Math.min(...lines.map(r => r.left)),
                right: Math.max(...lines.map(r => r.right))};
    });
    const gaps = [];
    for (let i = 1; i < names.length; i++)
        if (Math.abs(names[i].top - names[i - 1].top) < 2)
            gaps.push(Math.round((names[i].left - names[i - 1].right) * 10) / 10);
    return gaps;
}"""


@pytest.mark.parametrize(("locale", "viewport"), [
    ("pt-PT", PHONE), ("pt-PT", {"width": 1366, "height": 768}),
    ("nb-NO", {"width": 1366, "height": 768})], ids=["pt-phone", "pt-laptop", "nb-laptop"])
def test_names_under_the_cards_coming_in_keep_apart(
    browser: Browser, web_server: LiveServer, shots: Path, locale: str,
    viewport: ViewportSize
) -> None:
    """DX-ROUND-2 with five computer players: each name under the cards coming in could
    take the whole gap beside its card, so neighbours ran together: on a 390 px phone
    "Computador 3" and "Computador 4" were 4.5 px apart, and at 1366 × 768 in Norwegian
    "Datamaskin 2Datamaskin 3" read as one (1 px). Neighbouring names keep at least
    6 px apart, their words whole."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human"] + ["hard"] * 5, {0: "Anna"})
    phone = viewport["width"] < 500
    page = watch(browser.new_context(viewport=viewport, locale=locale, is_mobile=phone,
                                     has_touch=phone).new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    give_clue(page, "Um sonho")
    names = page.locator(".dx-submission-name-text")
    word = "Computador" if locale == "pt-PT" else "Datamaskin"
    expect(names).to_have_text(["Anna"] + [f"{word} {n}" for n in range(2, 7)])
    if phone:  # four cards a row, as before
        assert page.evaluate("() => new Set([...document.querySelectorAll('.dx-submission')]"
                             ".map(s => Math.round(s.getBoundingClientRect().top))).size") == 2
    page.screenshot(path=shots / f"dixit-names-coming-in-{locale}-{viewport['width']}.png")
    gaps = page.evaluate(NAME_GAPS)
    assert len(gaps) >= 3 and min(gaps) >= 6, gaps
    assert page.evaluate(broken_words(".dx-submission-name-text")) == []


# Whether the cards coming in and their givers' names lie whole inside the table's box,
# nothing of it to scroll (where it scrolls, its bottom fades out), and the hand's width.
BOARD_HOLDS_THE_NAMES = """() => {
    const board = document.querySelector('.dx-board');
    const bottom = board.getBoundingClientRect().bottom;
    const names = [...document.querySelectorAll('.dx-submission-name')];
    return {scrolls: board.scrollHeight - board.clientHeight,
            below: Math.max(...names.map(name => name.getBoundingClientRect().bottom - bottom)),
            hand: document.querySelector('.dx-hand-card').getBoundingClientRect().width};
}"""


@pytest.mark.parametrize("locale", ["en-GB", "pt-PT"])
def test_dx_team_2_with_a_prompt_on_two_lines_the_givers_names_stay_inside_the_table(
    browser: Browser, web_server: LiveServer, shots: Path, locale: str
) -> None:
    """DX-TEAM-2 at 1366 × 768: the storyteller's teammate gives a card, told so in a
    prompt of two lines ("Your teammate Computer 1 · Hard is the storyteller: give the
    card … does not vote this round."). The prompt took 23 px of the table, whose content
    then scrolled by 2 px (English) and 18 px ("Computador / 1" on two lines): the names
    under the cards coming in were cut at its bottom edge and faded. The hand's cards give
    up the height the table lacks, no more: they stay well over 120 px wide."""
    table, tokens = create_by_api(
        web_server, "dixit", {"variant": "team", "first_storyteller": "first_seat"},
        ["hard", "hard", "hard", "human", "hard", "hard"], {3: "Anna"})
    page = watch(browser.new_context(viewport={"width": 1366, "height": 768},
                                     locale=locale).new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[3]}")
    expect(page.locator('[data-action="submit"]')).to_be_visible()
    expect(page.locator(".dx-submission-name")).to_have_count(4)
    status = page.locator(".dx-status-text")
    expect(status).to_contain_text("Computador 1" if locale == "pt-PT" else "Computer 1")
    assert status.evaluate("e => e.getBoundingClientRect().height") > 40  # two lines
    deadline = time.monotonic() + 5  # measured again while the names' lines settle
    seen = page.evaluate(BOARD_HOLDS_THE_NAMES)
    while (seen["scrolls"] > 1 or seen["below"] > 0) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        seen = page.evaluate(BOARD_HOLDS_THE_NAMES)
    page.screenshot(path=shots / f"dixit-team-teammate-submit-{locale}.png")
    assert seen["scrolls"] <= 1 and seen["below"] <= 0, seen
    assert seen["hand"] >= 125, seen


STRIP_PLAYERS_IN_SIGHT = """() => {
    const strip = document.querySelector('.dx-strip').getBoundingClientRect();
    return [...document.querySelectorAll('.dx-strip .dx-player')]
        .filter(p => p.getBoundingClientRect().right <= strip.right + 0.5).length;
}"""


@pytest.mark.parametrize(("language", "width", "height"),
                         [("en", 360, 640), ("nb", 360, 640), ("is", 320, 568)])
def test_on_a_small_phone_the_storytellers_prompt_shows_whole(
    browser: Browser, web_server: LiveServer, shots: Path, language: str, width: int,
    height: int
) -> None:
    """DX-ROUND-1 on a 360 × 640 phone: the table's box told the storyteller what to do
    under a large pencil, and its last lines were cut off at the box's foot ("You are
    the storyteller. Choose one…"). The prompt is set smaller there, beside a smaller
    pencil, and shows whole; on a 320 × 568 phone, whose box is 60 px high once a card
    is chosen, its lines that fit end with an ellipsis (it was cut through a line)."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=True, has_touch=True, device_scale_factor=2)
    anna = watch(context.new_page())
    create_table(anna, web_server, "Anna", ["bot:medium"] * 3,
                 {"First storyteller": "The first seat"})
    anna.select_option(".language-switch select", language)
    expect(anna.locator("html")).to_have_attribute("lang", language)
    prompt = anna.locator(".dx-prompt p")
    expect(prompt).to_be_visible()
    if width == 320:  # a card chosen: the clue's box opens under the table's
        choose_in_hand(anna)
        expect(anna.locator("input[name=clue]")).to_be_visible()
    board = anna.locator(".dx-board").bounding_box()
    text = prompt.bounding_box()
    assert board and text and text["y"] + text["height"] <= board["y"] + board["height"], (
        text, board)
    anna.screenshot(path=shots / f"dixit-small-phone-prompt-{language}-{width}.png")


def test_on_a_phone_the_players_strip_shows_players_not_their_levels_and_badges(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-ROUND-2 on a phone: the strip of players over the table showed one player and
    a half ("Anna · choosing", then "Computer 2 · Medium · card in"). Computer players
    are "Computer 2" there (the level is the name's tooltip), and whether a player has
    given a card is a sign (✓ or …) whose words are its tooltip and are read out."""
    anna = watch(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                     device_scale_factor=2).new_page())
    create_table(anna, web_server, "Anna", ["bot:medium"] * 4,
                 {"First storyteller": "The first seat"})
    # Six cards are wider than a phone: the hand fades out where there are more.
    expect(anna.locator(".dx-hand-card")).to_have_count(6)
    assert settles_to(anna.locator(".dx-hand"), (False, True)) == (False, True)
    give_clue(anna, "A quiet lantern")
    strip = anna.locator(".dx-strip")
    expect(strip.locator('.dx-progress[data-progress="done"]').first).to_be_visible()
    labels = strip.locator(".dx-player-label")
    expect(labels.nth(1)).to_have_text("Computer 2")
    expect(labels.nth(1)).to_have_attribute("title", "Computer 2 · Medium")
    # One reading of a ✓ sign: the computer players go on without Anna (DX-ROUND-3/4),
    # so by now they may have voted ("voted") or begun round 2 ("card in" again).
    sign = anna.wait_for_function("""() => {
        const sign = document.querySelector('.dx-strip .dx-progress[data-progress="done"]');
        return sign && {title: sign.title, shown: sign.querySelector('[aria-hidden]').textContent,
                        read: sign.querySelector('.sr-only').textContent};
    }""", timeout=30_000).json_value()
    assert sign["title"] in ("card in", "voted"), sign
    assert sign["shown"] == "✓" and sign["read"] == sign["title"], sign
    assert anna.evaluate(STRIP_PLAYERS_IN_SIGHT) >= 2
    # A score is a chip of its own, apart from the name ("Computador 2 4" read as one).
    apart = strip.locator(".dx-player").nth(1).evaluate("""row => {
        const label = row.querySelector('.dx-player-label').getBoundingClientRect();
        const score = row.querySelector('.dx-player-score');
        return {gap: score.getBoundingClientRect().left - label.right,
                chip: getComputedStyle(score).backgroundColor,
                row: getComputedStyle(row).backgroundColor};
    }""")
    assert apart["gap"] >= 3 and apart["chip"] not in (apart["row"], "rgba(0, 0, 0, 0)"), apart
    anna.screenshot(path=shots / "dixit-phone-strip.png")
    # More players are past the edge: the strip fades out there (nothing said it
    # scrolled), and at its start once scrolled to its end.
    # A screen reader hears the round and the draw pile apart ("Round 1, 60 cards…").
    # (Round 1 may be over by now: the computer players give their cards and vote
    # without Anna, DX-ROUND-3/4, in under a second once their model has loaded.)
    expect(anna.locator(".dx-facts")).to_have_text(re.compile(r"^Round \d+·, \d+ cards"))
    assert settles_to(strip, (False, True)) == (False, True)
    strip.evaluate("strip => { strip.scrollLeft = strip.scrollWidth; }")
    assert settles_to(strip, (True, False)) == (True, False)


def test_on_a_laptop_the_storytellers_score_stays_inside_the_players_list(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """Beside the table a storyteller's row carries the "Storyteller" badge and its
    progress ("card in") as well as a long name: the badges go under the name and the
    score keeps its place inside the list (it was pushed past the list's edge)."""
    anna = watch(browser.new_context(viewport={"width": 1366, "height": 768}).new_page())
    create_table(anna, web_server, "Anna Sigríður", ["bot:medium"] * 7,
                 {"First storyteller": "The first seat"})
    give_clue(anna, "A quiet lantern")
    expect(anna.locator(".dx-player.storyteller .dx-teller")).to_be_visible()
    clipped = anna.locator(".dx-players").evaluate("""list => {
        const edge = list.getBoundingClientRect().right;
        return [...list.querySelectorAll('.dx-player-score')]
            .filter(score => score.getBoundingClientRect().right > edge + 0.5)
            .map(score => score.closest('.dx-player').dataset.seat);
    }""")
    anna.screenshot(path=shots / "dixit-laptop-storyteller-row.png")
    assert clipped == []


def test_a_party_round_with_the_clue_before_the_hand_and_the_red_vote(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    anna = watch(browser.new_context(viewport=DESKTOP).new_page())
    create_table(anna, web_server, "Anna",
                 ["friend", "bot:greedy", "bot:greedy", "bot:greedy", "bot:greedy"],
                 {"Variant": "Dixit Party", "First storyteller": "The first seat"})
    invite = anna.locator("#invite-url").input_value()
    bjarni = join(browser, invite, "Bjarni", 1)

    # The storyteller gives the clue before seeing the hand (DX-PARTY-2).
    expect(anna.locator(TABLE)).to_have_attribute("data-phase", "clue")
    expect(anna.locator(".dx-hand-hidden")).to_be_visible()
    expect(anna.locator(".dx-hand-card")).to_have_count(0)
    expect(bjarni.locator(".dx-hand-card")).to_have_count(5)
    # Said by the status line, the table and the face-down cards: not a fourth time
    # above the clue field.
    expect(anna.get_by_text(re.compile("before you see your cards|face down until|"
                                       "your cards are shown after|see your cards after"))
           ).to_have_count(3)
    anna.screenshot(path=shots / "dixit-party-clue-desktop.png")
    give_clue(anna, "Midnight")
    expect(anna.locator(".dx-hand-card")).to_have_count(5)

    # Everyone, the storyteller included, gives a card.
    submit(anna)
    submit(bjarni)
    for page in (anna, bjarni):
        expect(page.locator(TABLE)).to_have_attribute("data-phase", "vote")
        expect(page.locator(".dx-slot")).to_have_count(6)
    # No storyteller's card to find: the card that fits the clue best (DX-PARTY-4).
    expect(bjarni.locator(".dx-status-text")).to_contain_text("fits the clue best")
    expect(bjarni.locator(".dx-hand-bar .dx-hint")).to_have_text(
        "Choose the card that fits the clue best.")
    expect(bjarni.locator(".dx-status-text")).not_to_contain_text("storyteller's")

    # Bjarni votes; Anna puts her green vote and the red one on two other cards.
    vote(bjarni)
    before = version(anna)
    slots = anna.locator(".dx-slot:not([data-own])")
    green = slots.nth(0)
    red = slots.nth(1)
    expect(anna.locator('[data-action="red-slot"]').first).to_be_visible()
    green.locator('[data-action="vote-slot"]').click()
    expect(anna.locator('[data-action="cast-vote"]')).to_be_disabled()  # the red vote is missing
    # The red vote put on the green vote's card takes the green away, and says why.
    green.locator('[data-action="red-slot"]').click()
    expect(anna.locator(".dx-hand-bar .dx-hint")).to_contain_text(
        "The red vote is now on the card your green vote was on")
    green.locator('[data-action="vote-slot"]').click()  # the green back, the red off
    expect(anna.locator(".dx-hand-bar .dx-hint")).to_have_text(
        "Now place the red vote on another card.")
    red.locator('[data-action="red-slot"]').click()
    expect(red).to_have_class(re.compile(r"\bred\b"))
    red_slot = red.get_attribute("data-slot")
    anna.screenshot(path=shots / "dixit-party-vote-desktop.png")
    anna.click('[data-action="cast-vote"]')
    wait_for_new_state(anna, before)

    reveal = anna.locator(".dx-reveal")
    expect(reveal).to_be_visible()
    expect(reveal.locator(".dx-reveal-slot.red")).to_have_attribute("data-slot", red_slot or "")
    expect(reveal.locator(".dx-card-badge.red")).to_have_attribute(
        "title", "The storyteller's red vote: a green vote on this card scores nothing.")
    expect(reveal.locator(".dx-reveal-group")).to_have_count(6)
    anna.screenshot(path=shots / "dixit-party-reveal-desktop.png")
    continue_reveal(anna)
    expect(anna.locator(TABLE)).to_have_attribute("data-round", "2")
    expected = rules_scores(web_server, table_id(anna))
    assert page_scores(anna, 6) == expected
    # Every hand passed to the left (DX-PARTY-6): Anna's is now seat 6's, and says so.
    right = anna.locator('.dx-player[data-seat="5"] .dx-player-label').inner_text()
    expect(anna.locator('[data-hand-note="passed"]')).to_have_text(
        f"Hands passed to the left: these were {right}'s cards.")
    anna.screenshot(path=shots / "dixit-party-round-2-desktop.png")


def test_dx_party_4_the_storytellers_vote_and_red_buttons_stay_put_when_chosen(
    browser: Browser, web_server: LiveServer
) -> None:
    """DX-PARTY-4 on a 1280 × 800 laptop: the storyteller's card with the green vote
    stacked "Chosen ✓" over "Red" (every card of the row grew 49 px), and the red one
    wrapped "Red ✓" on two lines. Choosing changes the buttons' colours, not their
    size or the table's rows; a person using a screen reader hears it (aria-pressed)."""
    table, tokens = create_by_api(
        web_server, "dixit", {"variant": "party", "first_storyteller": "first_seat"},
        ["human"] + ["easy"] * 5, {0: "Anna"})
    page = watch(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    give_clue(page, "Midnight")
    submit(page)
    expect(page.locator(TABLE)).to_have_attribute("data-phase", "vote", timeout=30_000)
    expect(page.locator('[data-action="red-slot"]').first).to_be_visible()
    measure = """() => [...document.querySelectorAll('.dx-slot')].map(slot => {
        const box = slot.getBoundingClientRect();
        const buttons = [...slot.querySelectorAll('.dx-slot-buttons button')]
            .map(b => b.getBoundingClientRect())
            .map(r => [r.x, r.y, r.width, r.height]);
        return [box.height, ...buttons.flat()].map(Math.round).join(' ');
    })"""
    before = page.evaluate(measure)
    slots = page.locator(".dx-slot:not([data-own])")
    slots.nth(0).locator('[data-action="vote-slot"]').click()
    slots.nth(1).locator('[data-action="red-slot"]').click()
    expect(slots.nth(0).locator('[data-action="vote-slot"]')).to_have_attribute(
        "aria-pressed", "true")
    expect(slots.nth(1).locator('[data-action="red-slot"]')).to_have_attribute(
        "aria-pressed", "true")
    expect(page.locator('[data-action="cast-vote"]')).to_be_enabled()
    assert page.evaluate(measure) == before


def test_on_a_phone_a_party_red_vote_leaves_the_green_votes_card_in_sight(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-PARTY-4 on a 390 × 844 phone: the green vote on a card of the first row, then
    the red vote on the second row's last card, whose button lay below the table's box.
    Brought into sight by the browser (a click, Tab), that card was centred in the box
    and the board scrolled 277 px: the green vote's card lay wholly under the clue pinned
    at the box's top. The red vote's card stays whole in sight, and the board scrolls
    back as far as that allows, so that the green vote's card shows under the clue."""
    table, tokens = create_by_api(
        web_server, "dixit", {"variant": "party", "edition": "IS",
                              "first_storyteller": "first_seat"},
        ["human"] + ["easy"] * 5, {0: "Anna"})
    page = watch(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                     device_scale_factor=2).new_page())
    page.emulate_media(reduced_motion="reduce")  # the scroll jumps: measured at once
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    give_clue(page, "Midnight")
    submit(page)
    expect(page.locator(TABLE)).to_have_attribute("data-phase", "vote", timeout=30_000)
    expect(page.locator(".dx-slot")).to_have_count(6)
    columns = page.evaluate("() => new Set([...document.querySelectorAll('.dx-slot')]"
                            ".map(s => Math.round(s.getBoundingClientRect().x))).size")
    assert columns == 3, columns
    slots = page.locator(".dx-slot")
    green = slots.nth(0)
    green.locator('[data-action="vote-slot"]').click()
    expect(green).to_have_class(re.compile(r"\bvoted\b"))
    red = slots.nth(5)  # the second row's last card (one's own card may take a vote)
    red.locator('[data-action="red-slot"]').click()
    expect(red).to_have_class(re.compile(r"\bred\b"))
    page.wait_for_timeout(300)
    clue = page.locator(".dx-round > .dx-clue-box").bounding_box()
    board = page.locator(".dx-board").bounding_box()
    green_box = green.locator(".dx-card-button").bounding_box()
    red_box = red.bounding_box()
    assert clue and board and green_box and red_box
    page.screenshot(path=str(shots / "dixit-party-red-vote-phone.png"))
    # The red vote's card, with its buttons, whole between the clue and the box's foot.
    assert red_box["y"] >= clue["y"] + clue["height"] - 1, (red_box, clue)
    assert red_box["y"] + red_box["height"] <= board["y"] + board["height"] + 1, (red_box, board)
    # A good part of the green vote's picture shows under the clue.
    shown = green_box["y"] + green_box["height"] - (clue["y"] + clue["height"])
    assert shown >= 0.4 * green_box["height"], (shown, green_box, clue)


def test_the_lobby_offers_turns_as_storyteller_only_where_the_game_has_them(
    browser: Browser, web_server: LiveServer
) -> None:
    """DX-PARTY-7, DX-TEAM-6: turns as storyteller end Party and Team games; the base
    game ends by points or the draw pile (DX-END), so the option is not offered there."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(web_server.url)
    page.locator(".game-card", has_text="Dixit").click()
    turns = page.locator(".config-form .field",
                         has=page.locator(".field-label", has_text="Turns as storyteller"))
    variant = page.locator(".config-form .field",
                           has=page.locator(".field-label", has_text="Variant"))
    expect(variant).to_be_visible()
    expect(turns).to_have_count(0)
    variant.locator("select").select_option(label="Team Dixit")
    expect(turns).to_be_visible()
    variant.locator("select").select_option(label="Base game")
    expect(turns).to_have_count(0)


def test_the_lobby_explains_a_refused_edition_and_player_count_before_create(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-SETUP-3 (edition table), DX-PARTY-1: the lobby says at once why eight players
    and the EN rulebook do not go together, marks the seat counts that do not fit, and
    offers "Create table" again once the choice fits."""
    page = watch(browser.new_context(viewport=DESKTOP).new_page())
    page.goto(web_server.url)
    page.locator(".game-card", has_text="Dixit").click()
    counts = page.get_by_role("group", name="Players").get_by_role("button")
    counts.get_by_text("8", exact=True).click()
    create = page.get_by_role("button", name="Create table")
    refusal = page.locator(".options-refusal")
    expect(create).to_be_enabled()
    expect(refusal).to_have_count(0)
    edition = page.locator(".config-form .field",
                           has=page.locator(".field-label", has_text="Edition"))
    edition.locator("select").select_option(label="English (EN)")
    expect(refusal).to_have_text("Dixit by the EN rulebook is for 3–6 players, not 8.")
    expect(create).to_be_disabled()
    for n in range(3, 13):
        button = counts.get_by_text(str(n), exact=True)
        if n <= 6:
            expect(button).not_to_have_class(re.compile("unfit"))
        else:
            expect(button).to_have_class(re.compile("unfit"))
    page.screenshot(path=shots / "dixit-lobby-edition-refused.png", full_page=True)
    counts.get_by_text("5", exact=True).click()
    expect(refusal).to_have_count(0)
    expect(create).to_be_enabled()
    counts.get_by_text("6", exact=True).click()
    variant = page.locator(".config-form .field",
                           has=page.locator(".field-label", has_text="Variant"))
    variant.locator("select").select_option(label="Dixit Party")
    expect(refusal).to_have_text(
        "Dixit Party exists only in the Icelandic edition (IS), not in EN.")
    expect(counts.get_by_text("6", exact=True)).to_have_class(re.compile("unfit"))
    edition.locator("select").select_option(label="Icelandic (IS)")
    expect(refusal).to_have_count(0)
    expect(counts.get_by_text("5", exact=True)).to_have_class(re.compile("unfit"))
    create.click()
    page.wait_for_url("**/t/*")


def test_dx_party_2_no_hand_shows_while_the_first_storyteller_is_claimed(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-PARTY-2: in Party anyone may claim the storyteller role, so nobody sees a hand
    before the claim; then only the storyteller's stays hidden until the clue. The game is
    played with 84 cards (DX-COMP-1): 84 − 6 × 5 are left to draw. The lobby offers up to
    10 turns as storyteller (DX-PARTY-7)."""
    anna = watch(browser.new_context(viewport=DESKTOP).new_page())
    create_table(anna, web_server, "Anna", ["friend"] * 5,
                 {"Variant": "Dixit Party", "First storyteller": "Whoever claims it first",
                  "Turns as storyteller": "10"})
    invite = anna.locator("#invite-url").input_value()
    bjarni = join(browser, invite, "Bjarni", 1, PHONE)
    for name in ("Carla", "Dagur", "Edda", "Fannar"):  # people who have not looked yet
        joined = httpx.post(f"{web_server.url}/api/tables/{table_id(anna)}/join",
                            json={"name": name})
        assert joined.status_code == 200, joined.text
    people = (anna, bjarni)
    for page in people:
        expect(page.locator(TABLE)).to_have_attribute("data-phase", "claim")
        expect(page.locator('[data-action="claim"]')).to_be_enabled()
        hidden = page.locator('.dx-hand-hidden[data-hand-hidden="true"]')
        expect(hidden).to_contain_text("nobody looks at their hand")
        expect(hidden.locator(".dx-card-back")).to_have_count(5)
        expect(page.locator(".dx-hand-card")).to_have_count(0)
        expect(page.locator(".dx-facts")).to_contain_text("54 cards left to draw")
        expect(page.locator(".dx-facts")).to_contain_text("Round 1 of 60")
        # On a phone too: when the game ends depends on them.
        expect(page.locator(".dx-facts")).to_be_visible()
    # Under the score track: when the game ends (DX-PARTY-7: six players tell ten
    # times each), and no goal marked at 30 (Party plays no target score).
    expect(anna.locator(".dx-target")).to_have_text("The game ends after round 60.")
    expect(anna.locator(".dx-track-space.mark")).to_have_count(1)  # the start only
    anna.screenshot(path=shots / "dixit-party-claim-desktop.png")
    bjarni.screenshot(path=shots / "dixit-party-claim-phone.png")

    before = version(bjarni)
    bjarni.click('[data-action="claim"]')
    wait_for_new_state(bjarni, before)
    expect(bjarni.locator(TABLE)).to_have_attribute("data-phase", "clue")
    expect(bjarni.locator(".dx-hand-hidden")).to_contain_text("until you have given your clue")
    expect(bjarni.locator(".dx-hand-card")).to_have_count(0)
    expect(anna.locator(TABLE)).to_have_attribute("data-phase", "clue")
    expect(anna.locator(".dx-hand-card")).to_have_count(5)
    give_clue(bjarni, "Midsummer")
    expect(bjarni.locator(".dx-hand-card")).to_have_count(5)


def test_a_team_round_with_the_chat_and_the_choice_of_giver(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    anna = watch(browser.new_context(viewport=DESKTOP).new_page())
    # Teammates sit opposite (DX-TEAM-1): Anna (seat 1) and Bjarni (seat 4) are a team;
    # Carla and Dagur each play with a computer player.
    create_table(anna, web_server, "Anna",
                 ["friend", "friend", "friend", "bot:greedy", "bot:greedy"],
                 {"Variant": "Team Dixit", "First storyteller": "The first seat"})
    invite = anna.locator("#invite-url").input_value()
    # Choosing a seat chooses a teammate: the waiting room names each seat's team.
    teams = anna.locator(".waiting-room .seat-team")
    expect(teams).to_have_text(["Team 1", "Team 2", "Team 3", "Team 1", "Team 2", "Team 3"])
    anna.screenshot(path=shots / "dixit-team-waiting-room-desktop.png")
    carla = join(browser, invite, "Carla", 1)
    dagur = join(browser, invite, "Dagur", 2)
    bjarni = join(browser, invite, "Bjarni", 3, PHONE)
    expect(anna.locator(".dx-team")).to_have_count(3)
    expect(anna.locator('.dx-team[data-team="0"]')).to_contain_text("Anna")
    expect(anna.locator('.dx-team[data-team="0"]')).to_contain_text("Bjarni")
    # A team is named as the round's results and the end name it, not "Team 1: …".
    expect(anna.locator('.dx-team[data-team="0"] .dx-team-name')).to_have_text(
        "Team 1 (Anna & Bjarni)")
    expect(anna.locator(".dx-hand-card")).to_have_count(4)
    # Beside the table the teams and their chat come before the players' list (below it,
    # the chat was out of sight in a laptop's window); "Team 1" stays on one line.
    assert anna.evaluate("""() => {
        const side = document.querySelector('.dx-side');
        const [teams, chat, players] = ['.dx-teams', '.chat', '.dx-players']
            .map(part => side.querySelector(part));
        const before = (a, b) =>
            !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
        return before(teams, chat) && before(chat, players);
    }""")
    assert anna.locator(".dx-side .dx-team-tag").evaluate_all("""tags => tags.every(tag =>
        tag.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(tag).fontSize))""")
    others = (carla, dagur)

    # Round 1: Anna tells; her teammate gives the team's card without a choice.
    give_clue(anna, "Old friends")
    expect(bjarni.locator(TABLE)).to_have_attribute("data-phase", "submit")
    expect(bjarni.locator('[data-action="giver"]')).to_have_count(0)
    submit(bjarni)

    # Round 2: Carla tells; Anna and Bjarni talk it over and choose who gives.
    everyone = (anna, bjarni, carla, dagur)

    def others_act() -> bool:
        """Carla and Dagur do what they may (their teammates are computer players)."""
        return any([act(page, "Far away") for page in others])

    def others_act_and_continue() -> bool:
        for page in (anna, bjarni):
            continue_reveal(page)
        return others_act()

    waiting.play_until(everyone, TABLE,
                       done=lambda: anna.locator('[data-action="giver"]').count() > 0,
                       turn=others_act_and_continue, most=40)
    expect(anna.locator(TABLE)).to_have_attribute("data-round", "2")
    for page in (anna, bjarni):  # the choice comes with the last round's result: close it
        continue_reveal(page)
    chat = anna.locator(".chat")
    chat.locator("input, textarea").first.fill("Let Bjarni give, he has a good one")
    chat.locator("input, textarea").first.press("Enter")
    expect(bjarni.locator(".chat")).to_contain_text("Let Bjarni give")
    # On Bjarni's phone the chat lies below the cards: the line shows over the table,
    # and a tap brings the chat into view (the writer sees no such notice).
    toast = bjarni.locator('[data-action="open-chat"]')
    expect(toast).to_contain_text("Anna: Let Bjarni give, he has a good one")
    expect(toast).to_be_in_viewport()
    expect(anna.locator('[data-action="open-chat"]')).to_have_count(0)
    bjarni.screenshot(path=shots / "dixit-team-chat-toast-phone.png")
    toast.click()
    expect(toast).to_have_count(0)
    expect(bjarni.locator(".dx-chat")).to_be_in_viewport()
    expect(anna.locator('[data-action="giver"]')).to_have_count(2)
    anna.screenshot(path=shots / "dixit-team-giver-desktop.png")
    bjarni.screenshot(path=shots / "dixit-team-giver-phone.png")
    before = version(anna)
    anna.locator('[data-action="giver"][data-seat="3"]').click()
    wait_for_new_state(anna, before)
    expect(anna.locator('.dx-team[data-team="0"] [data-giver="3"]')).to_be_visible()
    expect(bjarni.locator('[data-action="giver"]')).to_have_count(0)
    continue_reveal(bjarni)
    submit(bjarni)

    # Anna votes for the team (the giver does not vote, DX-TEAM-4).
    waiting.play_until(everyone, TABLE, done=lambda: data(anna, "phase") == "vote",
                       turn=others_act, most=60)
    expect(bjarni.locator('[data-action="vote-slot"]')).to_have_count(0)
    vote(anna)
    waiting.play_until(everyone, TABLE,
                       done=lambda: anna.locator('.dx-reveal[data-round="2"]').count() > 0,
                       turn=others_act, most=60)
    reveal = anna.locator(".dx-reveal")
    expect(reveal.locator(".dx-reveal-group")).to_have_count(3)
    anna.screenshot(path=shots / "dixit-team-reveal-desktop.png")
    # In a laptop's window the points lie under the cards: the three teams share the
    # row's width (their long names took four lines in narrow columns beside an empty
    # half).
    anna.set_viewport_size({"width": 1280, "height": 800})
    expect(reveal.locator(".dx-reveal-body.beside")).to_have_count(0)
    widths = reveal.locator(".dx-reveal-group").evaluate_all(
        "gs => gs.map(g => g.getBoundingClientRect().width)")
    row = reveal.locator(".dx-reveal-points").evaluate("e => e.getBoundingClientRect().width")
    assert sum(widths) >= 0.9 * row, (widths, row)
    anna.screenshot(path=shots / "dixit-team-reveal-laptop.png")
    anna.set_viewport_size(DESKTOP)
    expected = rules_scores(web_server, table_id(anna))
    assert page_scores(anna, 6) == expected


LAPTOP: ViewportSize = {"width": 1440, "height": 900}


def test_claiming_the_storyteller_role_and_a_clue_mimed_at_the_table(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-SETUP-4 (whoever claims first tells first) and the PT "mime or music" clue
    (DX-ROUND-1), by three people; then the reveal on a laptop screen."""
    anna = watch(browser.new_context(viewport=LAPTOP).new_page())
    create_table(anna, web_server, "Anna", ["friend", "friend"],
                 {"Edition": "Portuguese (PT)", "Mime or music": "Allowed",
                  "First storyteller": "Whoever claims it first"})
    invite = anna.locator("#invite-url").input_value()
    bjarni = join(browser, invite, "Bjarni", 1)
    carla = join(browser, invite, "Carla", 2, PHONE)
    people = (anna, bjarni, carla)

    # Nobody tells yet: everyone may claim the role, and nobody has a card to give.
    for page in people:
        expect(page.locator(TABLE)).to_have_attribute("data-phase", "claim")
        expect(page.locator('[data-action="claim"]')).to_be_enabled()
        expect(page.locator(".dx-player.storyteller")).to_have_count(0)
    anna.screenshot(path=shots / "dixit-claim-desktop.png")
    before = version(bjarni)
    bjarni.click('[data-action="claim"]')
    wait_for_new_state(bjarni, before)
    for page in people:
        expect(page.locator(TABLE)).to_have_attribute("data-phase", "clue")
        expect(page.locator('[data-action="claim"]')).to_have_count(0)
        expect(page.locator('.dx-player.storyteller[data-seat="1"]')).to_be_visible()
    expect(anna.locator('[data-action="send-clue"]')).to_have_count(0)

    # Bjarni mimes his clue: the words are not needed, the card is.
    send = bjarni.locator('[data-action="send-clue"]')
    clue = bjarni.locator("input[name=clue]")
    choose_in_hand(bjarni)
    expect(send).to_be_disabled()  # neither words nor a mime yet
    bjarni.check("input[name=mime]")
    expect(clue).to_be_disabled()
    expect(send).to_be_enabled()
    bjarni.screenshot(path=shots / "dixit-mime-clue-desktop.png")
    before = version(bjarni)
    send.click()
    wait_for_new_state(bjarni, before)
    for page in people:
        expect(page.locator(".dx-clue-box .dx-clue")).to_have_attribute("data-mime", "true")
    expect(anna.locator(".dx-clue-box .dx-clue")).to_have_text(
        "The clue was given at the table (mime or music).")

    # With three players the others give two cards each (DX-3P), then vote.
    for page in (anna, carla):
        before = version(page)
        choose_in_hand(page, 2)
        page.click('[data-action="submit"]')
        wait_for_new_state(page, before)
    for page in (anna, carla):
        expect(page.locator(TABLE)).to_have_attribute("data-phase", "vote")
        vote(page)

    # The reveal fits a laptop screen: its heading and Continue stay in sight.
    reveal = anna.locator(".dx-reveal")
    expect(reveal).to_be_visible()
    expect(reveal.locator(".dx-clue")).to_have_attribute("data-mime", "true")
    expect(anna.locator('[data-action="continue"]')).to_be_in_viewport()
    expect(reveal.locator(".dx-reveal-group").last).to_be_in_viewport()
    anna.screenshot(path=shots / "dixit-mime-reveal-laptop.png")
    assert page_scores(anna, 3) == rules_scores(web_server, table_id(anna))
    # The status line said what to do with a hand the result hides: it says how to get
    # back to it first, then what comes — as the next round's (two tasks in one line
    # read as one: "… when you have seen it. Tell a clue …").
    status = anna.locator(".dx-status-text")
    expect(status).to_contain_text(
        "Round 1's result: press Continue when you have seen it. Round 2 has begun: ")
    continue_reveal(anna)
    expect(status).not_to_contain_text("press Continue")
    expect(anna.locator(".dx-hand-card").last).to_be_in_viewport()  # all 7 cards (DX-3P)


def test_while_a_result_shows_the_next_rounds_clue_is_said_with_what_to_do(
        browser: Browser, web_server: LiveServer) -> None:
    """Round 2 begun behind round 1's result, the status line (read out as it changes)
    said "Give the 2 cards … that fit the clue best" and named no clue: the result covers
    it, and a screen reader heard it nowhere. It says whose clue and which first."""
    anna = watch(browser.new_context(viewport=DESKTOP).new_page())
    create_table(anna, web_server, "Anna", ["bot:greedy", "bot:greedy"],
                 {"First storyteller": "The first seat"})
    give_clue(anna, "A quiet lantern")
    expect(anna.locator(".dx-reveal")).to_be_visible()
    expect(anna.locator(TABLE)).to_have_attribute("data-phase", "submit")
    status = anna.locator(".dx-status-text")
    expect(status).to_have_text(re.compile(
        r"^Round 1's result: press Continue when you have seen it\. Round 2 has begun: "
        r".+'s clue: “.+”\. Give the 2 cards from your hand that fit the clue best\.$"))
    said = re.search(r"clue: “(.+)”\.", status.inner_text())
    continue_reveal(anna)
    assert said and said[1] in anna.locator(".dx-clue-box .dx-clue").first.inner_text()


TEAM = {"variant": "team", "first_storyteller": "first_seat"}


def open_seat(browser: Browser, server: LiveServer, table: str, token: str) -> Page:
    """A browser at ``table`` in the seat of ``token`` (its personal link)."""
    page = watch(browser.new_context(viewport=DESKTOP).new_page())
    page.goto(f"{server.url}/t/{table}#seat={token}")
    expect(page.locator(TABLE)).to_be_visible()
    return page


def attached(handle: ElementHandle) -> bool:
    return bool(handle.evaluate("element => element.isConnected"))


def test_dx_team_2_the_cards_awaited_count_the_teams_still_naming_their_giver(
    browser: Browser, web_server: LiveServer
) -> None:
    """Six players in three teams: four cards come in (the storyteller's, the teammate's,
    one from each other team). While the other teams named their giver the status line
    said "1 of 2 in", then "3 of 4 in" once they had."""
    table, tokens = create_by_api(
        web_server, "dixit", {"variant": "team", "first_storyteller": "first_seat"},
        ["human", "human", "human", "human", "human", "human"],
        {0: "Anna", 1: "Bjarni", 2: "Carla", 3: "Dagur", 4: "Edda", 5: "Finnur"})
    anna = watch(browser.new_context(viewport=SMALL_LAPTOP).new_page())
    anna.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    give_clue(anna, "A quiet dream")
    expect(anna.locator(".dx-status-text")).to_contain_text("Waiting for the cards: 1 of 4 in.")
    expect(anna.locator(".dx-submissions")).to_have_attribute("aria-label", "1 of 4 cards in")
    with SeatSocket(web_server, table, tokens[1]) as bjarni:
        bjarni.act("giver", seat=1)
        expect(anna.locator('.dx-submission[data-seat="1"]')).to_have_count(1)
    expect(anna.locator(".dx-status-text")).to_contain_text("Waiting for the cards: 1 of 4 in.")


def test_dx_team_2_in_a_laptops_window_the_chat_line_is_in_sight(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-TEAM-2: teammates decide in the table chat. In a 1366 × 650 window its line to
    write on is in sight beside the table and the hand without scrolling (it was a
    scroll of the side column away: the track listed again the teams' scores the
    teams' panel shows, and an empty chat kept a box for messages)."""
    table, tokens = create_by_api(web_server, "dixit",
                                  {"variant": "team", "first_storyteller": "first_seat"},
                                  ["human"] + ["greedy"] * 5, {0: "Anna"})
    page = browser.new_context(viewport=SMALL_LAPTOP).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    line = page.locator(".dx-side .chat-input")
    expect(page.locator('[data-action="send-clue"]')).to_be_visible()  # Anna tells first
    expect(page.locator(".dx-team")).to_have_count(3)
    side = page.locator(".dx-side")
    assert side.evaluate("side => side.scrollTop") == 0
    bottom = line.evaluate("line => line.getBoundingClientRect().bottom")
    assert bottom <= side.evaluate("side => side.getBoundingClientRect().bottom"), \
        f"the chat's line ends at {bottom} px, under the side column"
    page.screenshot(path=shots / "dixit-team-laptop-chat.png")


def test_dx_team_2_with_a_computer_teammate_the_giver_hint_says_so(
    browser: Browser, web_server: LiveServer
) -> None:
    """DX-TEAM-2: a person whose teammate is a computer player was asked to "talk it
    over in the chat" with nobody to talk to, and the computer player then named the
    giver by itself. The hint names the teammate as a computer player and says that it
    chooses after a while."""
    table, tokens = create_by_api(web_server, "dixit", TEAM,
                                  ["easy", "human", "easy", "easy", "easy", "easy"],
                                  {1: "Anna"})
    anna = open_seat(browser, web_server, table, tokens[1])
    expect(anna.locator('[data-action="giver"][data-seat="1"]')).to_be_visible()
    hint = anna.locator(".dx-giver .dx-giver-help")
    expect(hint).to_contain_text(
        "Your teammate Computer 5 · Easy is a computer player: choose who gives it")
    expect(hint).not_to_contain_text("chat")


def test_dx_team_2_on_a_small_phone_the_giver_choice_leaves_the_clue_in_sight(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-TEAM-2 on a 320 px phone: the choice's help took seven lines above the buttons,
    and the table above it shrank to 55 px: the clue being decided on was cut off. The
    help is one line there, the rest under it on demand."""
    table, tokens = create_by_api(web_server, "dixit", TEAM,
                                  ["easy", "human", "easy", "easy", "easy", "easy"],
                                  {1: "Anna"})
    anna = watch(browser.new_context(viewport={"width": 320, "height": 658}, is_mobile=True,
                                     has_touch=True).new_page())
    anna.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    expect(anna.locator('[data-action="giver"][data-seat="1"]')).to_be_visible()
    more = anna.locator(".dx-giver-more")
    expect(more.locator("summary")).to_have_text("Your team gives one card: who gives it?")
    expect(anna.locator(".dx-giver-help")).to_be_hidden()
    anna.evaluate("window.scrollTo(0, 0)")
    clue = anna.locator(".dx-clue")
    expect(clue).to_be_visible()
    box = clue.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 658, box
    anna.screenshot(path=shots / "dixit-team-giver-phone.png")
    more.locator("summary").tap()
    expect(more.locator(".dx-hint")).to_contain_text("is a computer player")


def test_dx_team_2_the_giver_buttons_stay_put_while_the_chat_and_other_seats_go_on(
    browser: Browser, web_server: LiveServer
) -> None:
    """Choosing the team's giver (DX-TEAM-2) is a button a person must be able to tap
    while the table goes on: chat lines and other seats' actions arrive, and the button
    stays the same element (one re-created for every message slips from under a finger
    on a slow phone, and from under a test's click)."""
    # Anna plays in the browser. Her teammate Bjarni (DX-TEAM-1: opposite) and the team
    # of Dagur and Eva play from here, each when the test says; the third team is two
    # computer players.
    table, tokens = create_by_api(
        web_server, "dixit", TEAM, ["human", "greedy", "human", "human", "greedy", "human"],
        {0: "Anna", 2: "Dagur", 3: "Bjarni", 5: "Eva"})
    anna = open_seat(browser, web_server, table, tokens[0])
    # Bjarni's seat is open in a page too (the socket plays it): the result is read there.
    bjarni_page = open_seat(browser, web_server, table, tokens[3])
    with ExitStack() as stack:
        bjarni, dagur, eva = (stack.enter_context(SeatSocket(web_server, table, tokens[seat]))
                              for seat in (3, 2, 5))
        # Round 1: Anna tells, Bjarni gives his card, Dagur gives for his team, Eva votes.
        expect(anna.locator(".dx-hand-card")).to_have_count(4)
        expect(bjarni_page.locator(".dx-hand-card")).to_have_count(4)
        give_clue(anna, "Old friends")
        bjarni.act("submit")
        dagur.act("giver", seat=2)
        dagur.act("submit")
        # Eva votes for Bjarni's card: his own line (a vote on it) is in his heading.
        bjarnis = bjarni.wait(lambda state: state["view"]["phase"] == "vote")["view"]["own_slots"]
        eva.act("vote", slots=bjarnis[:1])

        # Round 2: the computer player after Anna tells; Anna's team chooses its giver.
        giver = anna.locator('[data-action="giver"][data-seat="0"]')
        expect(anna.locator(TABLE)).to_have_attribute("data-round", "2")
        expect(anna.locator(".dx-reveal")).to_be_visible()
        # DX-TEAM-5: the heading's points are the team's, the teammate's lines named.
        mine = anna.locator(".dx-reveal-mine")
        expect(mine.locator("strong")).to_have_text(re.compile(r"^Your team: \+\d+$"))
        expect(mine).to_contain_text("Storyteller")
        # Anna's own lines first, then Bjarni's after his name, each seat's apart (a
        # line of Anna's after Bjarni's read as his).
        told = mine.inner_text().split(" · ")[1:]
        assert told[0].startswith("Storyteller"), told
        assert all(part.startswith("Bjarni: ") for part in told[1:]), told
        # Read from Bjarni's seat (after Anna's), his own lines still come first.
        theirs = bjarni_page.locator(".dx-reveal-mine")
        expect(theirs.locator("strong")).to_have_text(re.compile(r"^Your team: \+\d+$"))
        told = theirs.inner_text().split(" · ")[1:]
        assert not told[0].startswith("Anna: ") and told[-1].startswith("Anna: Storyteller"), told
        assert all(part.startswith("Anna: ") for part in told[1:]), told
        bjarni_page.context.close()
        continue_reveal(anna)
        expect(giver).to_be_visible()
        # DX-TEAM-2: one's own button says so ("Anna gives", said to Anna, read as if
        # about someone else); the teammate's names them.
        expect(giver).to_have_text("I give")
        expect(anna.locator('[data-action="giver"][data-seat="3"]')).to_have_text(
            "Bjarni gives")
        expect(anna.locator(".dx-giver .dx-giver-help")).to_contain_text("Talk it over in the chat")
        button = giver.element_handle()
        lines = anna.locator(".chat-message")
        bjarni.chat("Shall I give one?")
        expect(lines).to_have_count(1)
        first_line = lines.first.element_handle()

        # Dagur names Eva, she gives her card; Bjarni writes between their actions.
        dagur.act("giver", seat=5)
        bjarni.chat("Or will you?")
        given = eva.act("submit")
        bjarni.chat("You have the better one")
        waiting.wait_for_version(anna, TABLE, given)
        expect(anna.locator('.dx-team[data-team="2"] [data-giver="5"]')).to_be_visible()
        expect(anna.locator('.dx-submission[data-seat="5"]')).to_have_attribute(
            "data-submitted", "true")
        expect(lines).to_have_count(3)
        assert attached(button), "the giver button was re-created"
        assert attached(first_line), "the chat's first line was re-created"

        # The same button takes the tap.
        before = version(anna)
        button.click()
        wait_for_new_state(anna, before)
        expect(anna.locator('.dx-team[data-team="0"] [data-giver="0"]')).to_be_visible()
        assert not attached(button)  # chosen: the choice is gone


@pytest.fixture
def unlimited_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server with no per-address rates (each seat's own chat allowance still holds)."""
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=0.15,
                        options=["--no-rate-limits"])
    server.start()
    yield server
    server.stop()


def test_dx_team_2_a_full_table_chat_keeps_its_lines_as_new_ones_come(
    browser: Browser, unlimited_server: LiveServer
) -> None:
    """The table chat where a team decides (DX-TEAM-2) shows its last 100 messages; once
    it is full, a new message drops the oldest line and leaves every other line as it is,
    the same element (re-created, each line would cost a slow phone the whole list for
    every message, and lose what a reader had selected)."""
    web_server = unlimited_server
    names = {0: "Anna", 1: "Bjarni", 2: "Dagur", 3: "Edda", 4: "Fríða", 5: "Gunnar"}
    table, tokens = create_by_api(web_server, "dixit", TEAM, ["human"] * 6, names)
    anna = open_seat(browser, web_server, table, tokens[0])
    lines = anna.locator(".chat-message")
    # A seat may write 5 messages in 5 seconds: five seats take turns, five lines each.
    with ExitStack() as stack:
        writers = [stack.enter_context(SeatSocket(web_server, table, tokens[seat]))
                   for seat in range(1, 6)]
        for n in range(105):
            writers[(n // 5) % 5].chat(f"Line {n + 1}", patient=True)
        expect(lines).to_have_count(100)
        expect(lines.first.locator(".chat-text")).to_have_text("Line 6")
        expect(lines.last.locator(".chat-text")).to_have_text("Line 105")
        oldest = lines.first.element_handle()
        kept = [lines.nth(i).element_handle() for i in (1, 50, 99)]

        writers[1].chat("Line 106", patient=True)
        expect(lines.last.locator(".chat-text")).to_have_text("Line 106")
        expect(lines.first.locator(".chat-text")).to_have_text("Line 7")
        expect(lines).to_have_count(100)
        assert not attached(oldest)
        assert all(attached(line) for line in kept), "the chat's lines were re-created"


def test_dx_round_6_where_discards_are_reshuffled_the_empty_draw_pile_says_so(
        browser: Browser, web_server: LiveServer) -> None:
    """DX-ROUND-6 (IS): a draw pile too short for the next round is refilled from the
    discard pile, so the facts line says that rather than "0 cards left to draw", which
    reads as the end (DX-END-2/3) that the IS edition does not have. Twelve players of
    84 cards hold 72 after the deal (6 each) and draw the last 12 after round 1."""
    created = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "dixit", "config": {"edition": "IS"},
        "seats": [{"kind": "bot", "bot": "greedy"}] * 12})
    assert created.status_code == 201, created.text
    table = created.json()["table"]["id"]
    page = watch(browser.new_context(viewport=DESKTOP).new_page())
    page.goto(f"{web_server.url}/t/{table}/watch")
    facts = page.locator(".dx-facts")
    expect(facts).to_contain_text("12 cards left to draw", timeout=30_000)
    expect(facts).not_to_contain_text("shuffled")
    expect(facts).to_contain_text("0 cards left to draw, then the discard pile is shuffled in",
                                  timeout=90_000)


def test_a_card_and_a_vote_are_taken_back_while_others_are_still_deciding(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """docs/dixit.md "Taking back": until every card is in (DX-ROUND-2/3) a player may
    take theirs back, and until every vote is in (DX-ROUND-4) change their vote; the
    last card or vote of a phase lays the table or reveals at once."""
    from tests.browser.test_big_screen import say_clue  # noqa: PLC0415

    table, tokens = create_by_api(
        web_server, "dixit", {"first_storyteller": "first_seat"},
        ["human", "human", "human"], {0: "Anna", 1: "Bjarni", 2: "Carla"})
    with SeatSocket(web_server, table, tokens[0]) as anna, \
            SeatSocket(web_server, table, tokens[2]) as carla:
        page = watch(browser.new_context(viewport=DESKTOP).new_page())
        page.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
        say_clue(anna, "Far from home")
        hand = page.locator(".dx-hand-card")
        expect(hand).to_have_count(7)  # DX-3P-1
        before = version(page)
        choose_in_hand(page, 2)  # DX-3P-2: two cards each
        page.click('[data-action="submit"]')
        wait_for_new_state(page, before)
        expect(hand).to_have_count(5)
        take_back = page.locator('[data-action="take-back"]')
        expect(take_back).to_have_text("Take back my cards")
        page.screenshot(path=shots / "dixit-take-back-cards.png")
        before = version(page)
        take_back.click()
        wait_for_new_state(page, before)
        expect(hand).to_have_count(7)
        expect(page.locator(TABLE)).to_have_attribute("data-my-turn", "true")
        # The cards taken back stay chosen: one is changed by putting it back first.
        chosen = page.locator(".dx-hand-card[data-chosen]")
        expect(chosen).to_have_count(2)
        given = chosen.first.get_attribute("data-card")
        chosen.first.locator('[data-action="choose"]').click()
        expect(chosen).to_have_count(1)
        other = page.locator('.dx-hand-card[data-choosable="true"]:not([data-chosen])'
                             f':not([data-card="{given}"])').first
        other.locator('[data-action="choose"]').click()
        expect(chosen).to_have_count(2)
        submit_two = page.locator('[data-action="submit"]')
        before = version(page)
        submit_two.click()
        wait_for_new_state(page, before)
        # Once a phase: the button is gone, and the page says why.
        expect(take_back).to_have_count(0)
        expect(page.locator(".dx-actions.waiting .dx-hint")).to_have_text(
            "Waiting for the others. You took your cards back once: they stay now.")
        carla.act("submit")  # the last cards: the table is laid
        expect(page.locator(TABLE)).to_have_attribute("data-phase", "vote")
        expect(take_back).to_have_count(0)

        first = vote(page)
        expect(take_back).to_have_text("Change my vote")
        before = version(page)
        take_back.click()
        wait_for_new_state(page, before)
        expect(page.locator(TABLE)).to_have_attribute("data-my-turn", "true")
        slots = page.locator(".dx-slot:not([data-own])")
        second = int(slots.nth(1).get_attribute("data-slot") or 0)
        assert second != first
        slots.nth(1).locator('[data-action="vote-slot"]').click()
        before = version(page)
        page.click('[data-action="cast-vote"]')
        wait_for_new_state(page, before)
        carla.act("vote")
        reveal = page.locator(".dx-reveal")
        expect(reveal).to_be_visible()
        voters = '.dx-reveal-slot[data-slot="{}"] .dx-voter'
        expect(reveal.locator(voters.format(second), has_text="Bjarni")).to_have_count(1)
        expect(reveal.locator(voters.format(first), has_text="Bjarni")).to_have_count(0)


def test_a_game_its_host_ended_shows_nobody_at_work(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """After "End the game" the last position stays, but no seat is "thinking" or
    "giving", no hand waits for a card, no storyteller badge stands and no turn alerts
    are offered: nothing will happen at this table any more."""
    anna = watch(browser.new_context(viewport=DESKTOP).new_page())
    create_table(anna, web_server, "Anna", ["friend", "friend"],
                 {"First storyteller": "The first seat"})
    invite = anna.locator("#invite-url").input_value()
    bjarni = join(browser, invite, "Bjarni", 1, PHONE)
    carla = join(browser, invite, "Carla", 2)
    give_clue(anna, "Midsummer")
    for page in (bjarni, carla):
        expect(page.locator(TABLE)).to_have_attribute("data-phase", "submit")
    expect(bjarni.locator(".dx-progress").first).to_be_visible()
    expect(bjarni.locator(".turn-alerts")).to_be_visible()

    anna.get_by_text("Host controls").click()
    anna.get_by_role("button", name="End the game").click()
    anna.get_by_role("button", name="Yes, end it").click()
    for page in (anna, bjarni, carla):
        expect(page.locator(".ended-banner")).to_contain_text(
            "You ended this game early." if page is anna else "The host ended this game early.")
        expect(page.locator(".dx-progress")).to_have_count(0)
        expect(page.locator(".dx-hand-bar")).to_have_count(0)
        expect(page.locator(".dx-teller")).to_have_count(0)
        expect(page.locator(".turn-alerts")).to_have_count(0)
        expect(page.locator(".dx-clue-box .dx-clue")).to_contain_text("Midsummer")
    bjarni.screenshot(path=shots / "dixit-ended-early-phone.png")


def test_a_game_ended_before_the_clue_tells_the_storyteller_to_do_nothing(
    browser: Browser, web_server: LiveServer
) -> None:
    """Ended while the storyteller had still to give the clue, the table went on saying
    "You are the storyteller. Choose one of your cards and give a clue for it…" under "The
    game is over." (and to the others that the storyteller was thinking of one)."""
    anna = watch(browser.new_context(viewport=DESKTOP).new_page())
    create_table(anna, web_server, "Anna", ["friend", "friend"],
                 {"First storyteller": "The first seat"})
    invite = anna.locator("#invite-url").input_value()
    bjarni = join(browser, invite, "Bjarni", 1)
    join(browser, invite, "Carla", 2)
    expect(anna.locator(".dx-prompt p")).to_contain_text("Choose one of your cards")
    expect(bjarni.locator(".dx-prompt p")).to_have_text(
        "Anna is the storyteller and is thinking of a clue.")
    anna.get_by_text("Host controls").click()
    anna.get_by_role("button", name="End the game").click()
    anna.get_by_role("button", name="Yes, end it").click()
    expect(anna.locator(".ended-banner")).to_be_visible()
    expect(anna.locator(".dx-prompt p")).to_have_text("You are the storyteller.")
    expect(bjarni.locator(".dx-prompt p")).to_have_text("Anna is the storyteller.")


@pytest.mark.parametrize(("language", "marks"), [
    ("en", ("“", "”")), ("is", ("„", "“")), ("nb", ("«", "»")), ("pt", ("«", "»"))])
def test_the_clue_stands_in_the_readers_quotation_marks(
    browser: Browser, web_server: LiveServer, language: str, marks: tuple[str, str]
) -> None:
    """An Icelandic page showed the clue in English quotation marks (“…”): each
    language has its own („…“ in Icelandic, «…» in Norwegian and Portuguese)."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "easy", "easy"], {0: "Anna"})
    with SeatSocket(web_server, table, tokens[0]) as anna:
        say_clue(anna, "Heima")
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.add_init_script(f"localStorage.setItem('gametable.lang', '{language}')")
    page.goto(f"{web_server.url}/t/{table}")
    expect(page.locator(".dx-clue q").first).to_be_visible()
    shown = page.evaluate("getComputedStyle(document.querySelector('.dx-clue q')).quotes")
    assert shown == f'"{marks[0]}" "{marks[1]}"', shown
    # and so does the status line's clue, which stood in English marks in every language
    # (the bots may have told the next round's by now)
    expect(page.locator(".dx-status-text")).to_contain_text(
        re.compile(f": {re.escape(marks[0])}[^{marks[0]}{marks[1]}]+{re.escape(marks[1])}"))


def test_a_long_name_in_the_rounds_points_leaves_the_points_whole(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-SCORE: "Sigríður Guðmundsdóttir" beside her points cut "+3" to "+" in the
    round's result: the name wraps, the points stay whole and inside their box."""
    name = "Sigríður Guðmundsdóttir"
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "easy", "easy"], {0: name})
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    with SeatSocket(web_server, table, tokens[0]) as seat:
        say_clue(seat, "Harbour lights")
    group = page.locator('.dx-reveal-group[data-seats="0"]')
    expect(group).to_be_visible(timeout=30_000)
    fits = page.evaluate("""() => {
        const g = document.querySelector('.dx-reveal-group[data-seats="0"]');
        const sum = g.querySelector('.dx-reveal-sum');
        const box = g.getBoundingClientRect(), at = sum.getBoundingClientRect();
        return [sum.scrollWidth <= sum.clientWidth + 1, at.right <= box.right + 1,
                sum.textContent]; }""")
    page.screenshot(path=str(shots / "dixit-long-name-points.png"))
    assert fits[0] and fits[1] and fits[2].startswith("+"), fits


def test_a_teams_score_stays_on_its_row_beside_a_note(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-TEAM: the team panel during the cards' giving: each team's score stands on its
    name's row, what the team is doing on a line of its own (beside a long name the
    score fell onto the note's line)."""
    table, tokens = create_by_api(
        web_server, "dixit", {"variant": "team", "first_storyteller": "first_seat"},
        ["human", "medium", "medium", "medium", "medium", "medium"], {0: "Anna"})
    with SeatSocket(web_server, table, tokens[0]) as anna:
        say_clue(anna, "A quiet dream")
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(f"{web_server.url}/t/{table}")
    notes = page.locator(".dx-team-note")
    expect(notes.first).to_be_visible()
    rows = page.evaluate("""() => [...document.querySelectorAll('.dx-team')].map((team) => {
        const top = (s) => team.querySelector(s)?.getBoundingClientRect().top ?? null;
        return [top('.dx-team-name'), top('.dx-team-score'), top('.dx-team-note')]; })""")
    page.locator(".dx-teams").screenshot(path=str(shots / "dixit-team-panel.png"))
    for name, score, note in rows:
        assert abs(score - name) < 12, rows  # the score on the name's (first) line
        assert note is None or note > score, rows


def test_team_dixits_chat_field_beside_the_table_is_wide_enough_to_read(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-TEAM-2: teammates talk in the chat in the side column; there its button took
    half the width and the field showed "Skriv en meldin". The button goes under the
    field, which keeps the column's width."""
    table, tokens = create_by_api(
        web_server, "dixit", {"variant": "team", "first_storyteller": "first_seat"},
        ["human", "medium", "medium", "medium", "medium", "medium"], {0: "Kari"})
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.add_init_script("localStorage.setItem('gametable.lang', 'nb')")
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    field = page.locator(".dx-side .chat-input")
    expect(field).to_be_visible()
    widths = field.evaluate("""(input) => [input.clientWidth,
        input.closest('.chat-form').clientWidth]""")
    page.locator(".dx-side .chat").screenshot(path=str(shots / "dixit-team-chat-nb.png"))
    assert widths[0] >= 0.9 * widths[1], widths
    # At 1280 × 800 the column is narrower still: "Send melding" goes under the field, and
    # it hung below the chat's panel, over the players' list. The panel holds its button
    # and a line of messages.
    page.set_viewport_size({"width": 1280, "height": 800})
    with SeatSocket(web_server, table, tokens[0]) as kari:
        kari.chat("Hei! Lykke til alle sammen, dette er en lang melding for å se hvordan "
                  "den brytes ved siden av brettet")
    expect(page.locator(".dx-side .chat-message")).to_have_count(1)
    page.locator(".dx-side .chat").screenshot(path=str(shots / "dixit-team-chat-nb-1280.png"))
    panel, button, log, line = page.evaluate("""(() => {
        const chat = document.querySelector('.dx-side .chat');
        const box = (e) => e.getBoundingClientRect();
        return [box(chat).bottom, box(chat.querySelector('.chat-form button')).bottom,
                box(chat.querySelector('.chat-log')).height,
                parseFloat(getComputedStyle(chat.querySelector('.chat-text')).lineHeight)];
    })()""")
    assert button <= panel and log >= line, (button, panel, log, line)


def test_on_a_phone_the_names_over_a_rounds_points_break_between_words(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-SCORE on a phone in Portuguese: the points of a round stand in two columns,
    and "Computador 2 · Médio" over them broke as "Computado / r 2"."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "medium", "hard"], {0: "Anna"})
    page = watch(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                     locale="pt-PT").new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    with SeatSocket(web_server, table, tokens[0]) as seat:
        say_clue(seat, "Harbour lights")
    expect(page.locator(".dx-reveal-name").nth(2)).to_contain_text("Computador")
    page.screenshot(path=str(shots / "dixit-phone-points-names-pt.png"), full_page=True)
    assert page.evaluate(broken_words(".dx-reveal-name")) == []


def test_a_tablet_held_upright_shows_the_whole_hand(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """On a tablet held upright (820 × 1180) the hand stood beside the button in the
    board's column, next to the 340 px side panel: one card and a half in sight, while
    the table's cards filled a third of a large empty board. Such a window stacks the
    table, the hand and the players as a phone does: every card of the hand is in sight."""
    table, tokens = create_by_api(web_server, "dixit", {},
                                  ["human", "easy", "easy", "easy"], {0: "Filipa"})
    page = browser.new_context(viewport={"width": 820, "height": 1180}, is_mobile=True,
                               has_touch=True).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator(".dx-table")).to_have_class(re.compile(r"\bnarrow\b"))
    cards = page.locator(".dx-hand-card")
    expect(cards).to_have_count(6)
    for index in range(6):
        expect(cards.nth(index)).to_be_in_viewport(ratio=0.9)
    page.screenshot(path=shots / "dixit-tablet-upright.png")



def test_a_tablet_held_sideways_shows_the_whole_hand_and_the_players_first(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """On a tablet held sideways (1024 × 768) the hand stood beside the 340 px side
    panel: three cards and a half in sight, scrolling, under an empty table while the
    storyteller chose. The hand takes the width under table and panel, every card in
    sight, and the panel shows the players before the score track."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "easy", "easy", "easy", "easy"], {0: "Filipa"})
    page = browser.new_context(viewport={"width": 1024, "height": 768}, is_mobile=True,
                               has_touch=True).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator(".dx-table")).not_to_have_class(re.compile(r"\bnarrow\b"))
    cards = page.locator(".dx-hand-card")
    expect(cards).to_have_count(6)
    for index in range(6):
        expect(cards.nth(index)).to_be_in_viewport(ratio=0.9)
    players = page.locator(".dx-side .dx-player").last.bounding_box()
    track = page.locator(".dx-side .dx-track").bounding_box()
    assert players is not None and track is not None and players["y"] < track["y"]
    page.screenshot(path=shots / "dixit-tablet-sideways.png")

def test_on_a_laptop_the_cards_coming_in_keep_inside_the_table_in_portuguese(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """"carta entregue" is wider than the 80 px slots of a laptop's short window: the
    badges of cards coming in ran into each other ("carta entregu carta entregue"); on
    two lines, under names of two lines ("Computador / 3"), they were cut at the table's
    bottom edge. In a short window the slots show card backs and names, and the badges
    are read out only; the players beside the table say who has given in words."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["easy", "human", "easy", "easy", "easy", "easy"],
                                  {1: "Ana"})
    page = browser.new_context(locale="pt-PT", viewport={"width": 1366, "height": 768}
                               ).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    badges = page.locator(".dx-submission .dx-progress.done")
    expect(badges).to_have_count(5, timeout=30_000)  # the storyteller and four more
    expect(page.locator(".dx-side .dx-player .dx-progress", has_text="carta entregue")
           ).to_have_count(5)
    page.screenshot(path=shots / "dixit-laptop-pt-card-in.png")
    board = page.locator(".dx-board").bounding_box()
    assert board is not None
    for part in page.locator(".dx-submission-card, .dx-submission-name").all():
        box = part.bounding_box()
        assert box is not None
        assert box["y"] + box["height"] <= board["y"] + board["height"] + 0.5, (box, board)
    assert page.locator(".dx-board").evaluate("b => b.scrollHeight <= b.clientHeight + 1")


def test_on_a_phone_eight_cards_to_vote_on_show_that_more_are_below(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """With eight players the vote's last cards lie below the phone's table, in a box
    that scrolls inside the page, with no sign of them: the box fades out at its bottom
    while there is more, and at its top once scrolled down."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["easy", "human", *["easy"] * 6], {1: "Ana"})
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                               device_scale_factor=2).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    page.locator('.dx-hand-card [data-action="choose"]').first.click()
    page.locator('[data-action="submit"]').click()
    expect(page.locator(".dx-table")).to_have_attribute("data-phase", "vote", timeout=30_000)
    expect(page.locator(".dx-slot")).to_have_count(8)
    board = page.locator(".dx-board")
    assert board.evaluate("box => box.scrollHeight > box.clientHeight + 20")
    assert settles_to(board, (False, True)) == (False, True)
    page.screenshot(path=shots / "dixit-phone-eight-vote.png")
    board.evaluate("box => { box.scrollTop = box.scrollHeight; }")
    assert settles_to(board, (True, False)) == (True, False)


@pytest.mark.parametrize("locale", ["en-GB", "is-IS", "nb-NO", "pt-PT"])
def test_the_clue_fields_hint_fits_the_field_on_a_laptop(
    browser: Browser, web_server: LiveServer, locale: str
) -> None:
    """The empty clue field read "A word, a sound, a line of a" on a 1366 × 768 laptop
    (the Portuguese hint was half cut): its hint fits."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "easy", "easy"], {0: "Anna"})
    page = browser.new_context(viewport={"width": 1366, "height": 768}, locale=locale
                               ).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    field = page.locator(".dx-clue-field input")
    expect(field).to_be_visible()
    fits = """input => {
        const style = getComputedStyle(input);
        const context = document.createElement("canvas").getContext("2d");
        context.font = style.font;
        const room = input.clientWidth - parseFloat(style.paddingLeft)
            - parseFloat(style.paddingRight);
        return [context.measureText(input.placeholder).width, room, input.placeholder];
    }"""
    width, room, hint = field.evaluate(fits)
    assert hint and width <= room, f"{hint!r} is {width:.0f} px in a field of {room:.0f}"


@pytest.mark.parametrize(("size", "least"),
                         [((1280, 800), 120), ((1366, 768), 120), ((1920, 1080), 170)])
def test_on_a_laptop_the_hand_is_large_while_the_clue_is_given_and_cards_come_in(
    browser: Browser, web_server: LiveServer, shots: Path, size: tuple[int, int], least: int
) -> None:
    """While the storyteller chooses a card (DX-ROUND-1) and the others give theirs
    (DX-ROUND-3), the table holds little: a 1280 × 800 laptop drew the hand 88 px wide
    beside the actions over an empty table (a 1920 × 1080 screen 146 px). The hand takes
    the room (its cards at least 120 and 170 px wide), the clue and the cards coming in
    stay whole on the table, and the whole table with every button stays in the window.
    At 1366 × 768 the badges under the cards coming in were cut at the table's edge."""
    width, height = size
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "human", "easy", "easy", "easy"],
                                  {0: "Anna", 1: "Bjarni"})

    def hand_is_large(page: Page) -> None:
        pictures = page.locator(".dx-hand-card .dx-card-face")
        expect(pictures).to_have_count(6)
        widths = pictures.evaluate_all(
            "faces => faces.map(face => face.getBoundingClientRect().width)")
        assert min(widths) >= least, widths
        expect(page.locator(".dx-hand-card").last.locator('[data-action="choose"]')
               ).to_be_in_viewport(ratio=1)
        assert fits_the_window(page)

    anna = watch(browser.new_context(viewport={"width": width, "height": height}).new_page())
    anna.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(anna.locator(".dx-prompt")).to_be_visible()
    hand_is_large(anna)
    expect(anna.locator('[data-action="send-clue"]')).to_be_in_viewport(ratio=1)
    anna.screenshot(path=shots / f"dixit-large-hand-clue-{width}.png")

    bjarni = watch(browser.new_context(viewport={"width": width, "height": height}).new_page())
    bjarni.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    give_clue(anna, "Far from home")
    expect(bjarni.locator(".dx-clue-box")).to_contain_text("Far from home")
    hand_is_large(bjarni)
    expect(bjarni.locator('[data-action="submit"]')).to_be_in_viewport(ratio=1)
    # The clue and every card coming in, with its giver's name, inside the table.
    expect(bjarni.locator(".dx-submission")).to_have_count(5)
    inside = bjarni.evaluate("""(() => {
        const board = document.querySelector('.dx-board').getBoundingClientRect();
        const parts = [document.querySelector('.dx-clue-box'),
                       ...document.querySelectorAll('.dx-submission')];
        return parts.every(part => {
            const box = part.getBoundingClientRect();
            return box.top >= board.top - 1 && box.bottom <= board.bottom + 1;
        }); })()""")
    assert inside, bjarni.evaluate("""(() => [document.querySelector('.dx-board'),
        document.querySelector('.dx-clue-box'), document.querySelector('.dx-submission')]
        .map(part => { const box = part.getBoundingClientRect();
                       return [Math.round(box.top), Math.round(box.bottom)]; }))()""")
    bjarni.screenshot(path=shots / f"dixit-large-hand-submit-{width}.png")


def test_with_more_than_eight_players_the_table_keeps_its_room_for_the_cards_coming_in(
    browser: Browser, web_server: LiveServer
) -> None:
    """The large hand of a laptop (above) with ten players left the cards coming in, two
    rows of them, a table too low: there the hand keeps its place beside the actions."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human"] + ["easy"] * 9, {0: "Ana"})
    page = watch(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator(".dx-prompt")).to_be_visible()
    expect(page.locator(TABLE)).not_to_have_class(re.compile(r"\bbig-hand\b"))
    width = page.locator(".dx-hand-card .dx-card-face").first.evaluate(
        "face => face.getBoundingClientRect().width")
    assert width < 100, width


def test_on_a_portuguese_tablet_eight_revealed_cards_name_their_owners_and_voters_whole(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-ROUND-5's reveal with eight players on a 1024 × 768 tablet in Portuguese: every
    owner read "Carta de Comput…" and every voter "Computad…", told apart by colour
    alone. Cards this narrow name their owner alone, as a phone does, and a voter's name
    takes a second line rather than an ellipsis."""
    page = watch(browser.new_context(viewport={"width": 1024, "height": 768}).new_page())
    owners, cut = portuguese_reveal(page, web_server, 8)
    page.screenshot(path=str(shots / "dixit-eight-reveal-tablet-pt.png"))
    assert cut == [], cut
    assert "Computador 2" in owners.all_inner_texts()


def portuguese_reveal(page: Page, server: LiveServer, seats: int) -> tuple[Locator, list[str]]:
    """``page`` as the storyteller of a Portuguese table of ``seats`` (the others
    computer players) at its first round's reveal: the owners' names under the cards,
    and those of them or of the voters cut at their box's edge."""
    table, tokens = create_by_api(server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human"] + ["easy"] * (seats - 1), {0: "Prófari"})
    page.add_init_script("localStorage.setItem('gametable.lang', 'pt')")
    page.goto(f"{server.url}/t/{table}#seat={tokens[0]}")
    give_clue(page, "Viagem ao estrangeiro")
    expect(page.locator(".dx-reveal")).to_be_visible(timeout=60_000)
    owners = page.locator(".dx-reveal-owner-text")
    expect(owners).to_have_count(seats)
    cut = page.evaluate("""() => [...document.querySelectorAll(
            '.dx-reveal-owner-text, .dx-voter')]
        .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
        .map(e => `${e.textContent}: ${e.scrollWidth} × ${e.scrollHeight} px in `
                  + `${e.clientWidth} × ${e.clientHeight}`)""")
    return owners, list(cut)


def test_on_a_portuguese_phone_the_revealed_cards_name_their_owners_whole(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-ROUND-5's reveal with five players on a 390 px phone in Portuguese: the owner
    under a card read "Computadoı", its last letter cut by the column's edge."""
    page = watch(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                     device_scale_factor=2).new_page())
    _, cut = portuguese_reveal(page, web_server, 5)
    page.screenshot(path=str(shots / "dixit-five-reveal-phone-pt.png"), full_page=True)
    assert cut == [], cut


def test_on_a_phone_the_clue_stays_in_sight_over_the_cards_voted_on(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-ROUND-5 with six players on a 390 px phone: the table's six cards do not fit
    its box, and scrolling down to the last ones scrolled the clue out of sight, so one
    compared cards 4–6 with a clue one could no longer read. The clue stays at the top
    of the box while the cards pass under it."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["easy", "human"] + ["easy"] * 4, {1: "Bjarni"})
    # A phone whose browser bars take their room (or a status line of two rows).
    page = watch(browser.new_context(viewport={"width": 390, "height": 700}, is_mobile=True,
                                     has_touch=True, device_scale_factor=2).new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    expect(page.locator(TABLE)).to_have_attribute("data-phase", "submit", timeout=60_000)
    choose_in_hand(page)
    page.click('[data-action="submit"]')
    expect(page.locator(TABLE)).to_have_attribute("data-phase", "vote", timeout=60_000)
    clue = page.locator(".dx-round .dx-clue")
    expect(clue).to_be_in_viewport()
    last = page.locator(".dx-slot").last
    last.scroll_into_view_if_needed()
    expect(last).to_be_in_viewport()
    expect(clue).to_be_in_viewport()
    page.screenshot(path=str(shots / "dixit-vote-phone-clue-in-sight.png"))


def test_on_a_phone_the_clue_field_keeps_its_name_for_a_screen_reader(
    browser: Browser, web_server: LiveServer
) -> None:
    """DX-ROUND-1 on a 390 px phone: the field's "Clue" label is out of sight there to
    save room, but it was hidden from screen readers too, which read the field as an
    unnamed text box (its placeholder gone once typing began)."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human"] + ["easy"] * 3, {0: "Anna"})
    page = watch(browser.new_context(viewport=PHONE, is_mobile=True,
                                     has_touch=True).new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator(".dx-table")).to_have_class(re.compile(r"\bnarrow\b"))
    field = page.get_by_role("textbox", name="Clue")
    expect(field).to_have_count(1)
    field.fill("A quiet lantern")
    expect(page.get_by_role("textbox", name="Clue")).to_have_value("A quiet lantern")
    label = page.locator(".dx-clue-field .field-label").bounding_box()
    assert label is not None and label["height"] <= 1, label  # out of sight still


def test_the_storytellers_badges_keep_to_the_right_of_the_players_list(
    browser: Browser, web_server: LiveServer
) -> None:
    """In the players' list of a laptop's window the storyteller's row holds two badges,
    "✎ Storyteller" and "card in": the second wrapped alone to the row's left, under the
    dot, out of line with every other row's. They keep together at the right."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["hard", "human"] + ["hard"] * 4, {1: "Bjarni"})
    page = watch(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    expect(page.locator(TABLE)).to_have_attribute("data-phase", "submit", timeout=60_000)
    teller = page.locator(".dx-player.storyteller")
    expect(teller.locator(".dx-teller")).to_be_visible()
    expect(teller.locator(".dx-progress")).to_be_visible()
    other = page.locator(".dx-player:not(.storyteller):not(.mine) .dx-progress").first
    expect(other).to_be_visible()
    right = [box["x"] + box["width"] for box in (
        teller.locator(".dx-progress").bounding_box(), other.bounding_box()) if box]
    assert len(right) == 2 and abs(right[0] - right[1]) <= 2, right


def test_a_long_clue_in_the_history_wraps_between_its_words(
    browser: Browser, web_server: LiveServer
) -> None:
    """The history beside the table showed a past round's clue in the table's large
    type: in its narrow column a long word broke inside itself. It is set smaller
    there, and wraps between its words."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human"] + ["easy"] * 5, {0: "Anna"})
    page = watch(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    give_clue(page, "Antidisestablishmentarianism of extraordinary circumstances")
    expect(page.locator(".dx-reveal")).to_be_visible(timeout=60_000)
    continue_reveal(page)
    page.locator(".dx-history summary").click()
    clue = page.locator(".dx-history-round .dx-clue q")
    expect(clue).to_contain_text("Antidisestablishmentarianism")
    clue.scroll_into_view_if_needed()
    assert page.evaluate(broken_words(".dx-history-round .dx-clue q")) == []
    # The history's screen-reader-only texts stay inside its scrolling panel.
    assert page.evaluate(HIDDEN_TEXT_OUTSIDE_ITS_SCROLLER) == []


def to_the_vote(page: Page, server: LiveServer, table: str, tokens: dict[int, str]) -> None:
    """Bjarni's page (seat 1) at ``table``, where Anna (seat 0, by websocket) tells
    "Distance" and Bjarni gives a card: the vote has begun."""
    page.goto(f"{server.url}/t/{table}#seat={tokens[1]}")
    with SeatSocket(server, table, tokens[0]) as anna:
        say_clue(anna, "Distance")
    expect(page.locator(TABLE)).to_have_attribute("data-phase", "submit")
    submit(page)
    expect(page.locator(TABLE)).to_have_attribute("data-phase", "vote", timeout=30_000)


def test_on_a_laptop_cast_my_vote_keeps_its_size_as_its_hint_changes(
    browser: Browser, web_server: LiveServer
) -> None:
    """DX-ROUND-4 on a 1280 × 800 laptop: "Cast my vote" grew from 580 to 757 px (and
    moved) as its hint "Choose the card…" became "Ready to vote." when a card was
    chosen. It keeps its size and place."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "human", "easy", "easy"], {0: "Anna", 1: "Bjarni"})
    page = watch(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
    to_the_vote(page, web_server, table, tokens)
    cast = page.locator('[data-action="cast-vote"]')
    expect(cast).to_be_disabled()
    before = cast.bounding_box()
    page.locator('.dx-slot:not([data-own]) [data-action="vote-slot"]').first.click()
    expect(cast).to_be_enabled()
    after = cast.bounding_box()
    assert before and after
    assert abs(after["width"] - before["width"]) <= 1, (before, after)
    assert abs(after["x"] - before["x"]) <= 1, (before, after)
    expect(cast).to_be_in_viewport(ratio=1)


@pytest.mark.parametrize(("size", "players", "clock"), [
    ((1024, 768), 12, False), ((1366, 768), 12, False), ((1024, 768), 5, True)])
def test_the_cards_to_vote_on_fit_a_tablets_window_whole(
    browser: Browser, web_server: LiveServer, shots: Path, size: tuple[int, int],
    players: int, clock: bool
) -> None:
    """DX-ROUND-5 with 12 players: on a tablet held sideways (1024 × 768) the table showed
    eight of the twelve cards, the rest in a box that scrolled; with five and a turn
    clock, whose row takes some of the board, the fifth card's Vote button was below the
    box's edge. The cards are fitted whole under the clue, each with its Vote button
    (a size smaller where full-size ones leave no room), still large enough to read."""
    kinds = ["human", "human"] + ["easy"] * (players - 2)
    specs = [{"kind": "human"} if kind == "human" else {"kind": "bot", "bot": kind}
             for kind in kinds]
    with httpx.Client(base_url=web_server.url, timeout=30) as http:
        created = http.post("/api/tables", json={
            "game": "dixit", "config": {"first_storyteller": "first_seat"}, "seats": specs,
            "name": "Anna", **({"clock": {"turn_seconds": 120, "cover": "easy"}}
                               if clock else {})})
        assert created.status_code == 201, created.text
        table = created.json()["table"]["id"]
        joined = http.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "Bjarni"})
        tokens = {0: created.json()["token"], 1: joined.json()["token"]}
    width, height = size
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    to_the_vote(page, web_server, table, tokens)
    slots = page.locator(".dx-slot")
    expect(slots).to_have_count(players)
    if clock:
        expect(page.locator(".turn-clock .clock-seat")).to_have_count(1)
    board = page.locator(".dx-board")
    page.wait_for_timeout(300)  # the cards' size settles as the clue is measured
    assert board.evaluate("box => box.scrollHeight <= box.clientHeight + 1")  # no scrolling
    buttons = page.locator('.dx-slot [data-action="vote-slot"]')
    expect(buttons).to_have_count(players - 1)  # not on one's own card
    for index in range(players - 1):
        expect(buttons.nth(index)).to_be_in_viewport(ratio=1)
    for index in range(players):
        card = slots.nth(index).bounding_box()
        assert card is not None and card["width"] >= 84, card
    page.screenshot(path=shots / f"dixit-vote-{players}-{width}.png")
    buttons.first.click()
    expect(page.locator('[data-action="cast-vote"]')).to_be_enabled()


def test_on_a_phone_everyones_points_is_easy_to_tap(
    browser: Browser, web_server: LiveServer
) -> None:
    """DX-SCORE on a 390 px phone: "Everyone's points", a link in the line of one's own
    result, was 22 px high, half a finger. A tap a little above or below it presses it
    too, and it brings the points into sight."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "human", "easy", "easy"], {0: "Anna", 1: "Bjarni"})
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True).new_page()
    to_the_vote(page, web_server, table, tokens)
    vote(page)
    expect(page.locator(".dx-reveal")).to_be_visible(timeout=30_000)
    link = page.locator('[data-action="see-points"]')
    expect(link).to_be_visible()
    assert tapped_at(page, link, -7) == tapped_at(page, link, 7) == "see-points"
    box = link.bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] + 6)
    expect(page.locator(".dx-reveal-points")).to_be_in_viewport()


def test_everyones_points_start_under_the_results_heading_on_a_tablet(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-SCORE with 12 players on a tablet (1024 × 768): "Everyone's points" scrolled the
    first row of points under the result's heading, which stays in sight, and the
    heading's faded edge let its text lie over the second row. (A window a little lower
    than the tablet's, browser bars and all, makes the points taller than the table.)"""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "human"] + ["easy"] * 10, {0: "Anna", 1: "Bjarni"})
    page = browser.new_context(viewport={"width": 1024, "height": 660}).new_page()
    to_the_vote(page, web_server, table, tokens)
    vote(page)
    expect(page.locator(".dx-reveal")).to_be_visible(timeout=30_000)
    board = page.locator(".dx-board")
    assert board.evaluate("box => box.scrollHeight > box.clientHeight")  # it scrolls
    points = page.locator(".dx-reveal-points").bounding_box()
    box = board.bounding_box()
    assert points and box and points["height"] > box["height"] * 0.8, (points, box)
    window_before = page.evaluate("scrollY")
    page.locator('[data-action="see-points"]').click()
    head = page.locator(".dx-reveal-head")
    first = page.locator(".dx-reveal-group").first
    # Once the scroll has come to rest (it may glide there).
    page.evaluate("""() => new Promise((done) => {
        const board = document.querySelector('.dx-board');
        let last = -1, still = 0;
        const look = () => {
            still = board.scrollTop === last ? still + 1 : 0;
            last = board.scrollTop;
            if (still >= 10 && last > 0) done(); else setTimeout(look, 50);
        };
        look();
    })""")
    ends = page.evaluate("""() => [
        document.querySelector('.dx-reveal-head').getBoundingClientRect().bottom,
        document.querySelector('.dx-reveal-group').getBoundingClientRect().top]""")
    assert ends[0] <= ends[1] <= ends[0] + 40, ends
    # The first row starts below the heading, not under it.
    head_box, first_box = head.bounding_box(), first.bounding_box()
    assert head_box and first_box and first_box["y"] >= head_box["y"] + head_box["height"]
    assert page.evaluate("scrollY") == window_before  # the page itself did not move
    page.screenshot(path=shots / "dixit-twelve-points-tablet.png")


def test_dx_team_2_the_chat_line_stays_in_sight_on_a_tablet(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-TEAM-2's talk on a tablet held sideways (1024 × 768), whose hand takes the
    window's foot: each message pushed the line to write on further below the side
    panel. The messages scroll above it; it stays in sight."""
    table, tokens = create_by_api(web_server, "dixit", TEAM, ["human"] + ["easy"] * 5,
                                  {0: "Anna"})
    page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    field = page.locator(".dx-side .chat-input")
    expect(field).to_be_in_viewport(ratio=1)
    for number in range(1, 6):
        field.fill(f"Message {number}: I have a ship, let me give")
        field.press("Enter")
        expect(page.locator(".chat-message")).to_have_count(number)
        expect(field).to_be_in_viewport(ratio=1)
    side = page.locator(".dx-side").bounding_box()
    line = field.bounding_box()
    assert side and line and line["y"] + line["height"] <= side["y"] + side["height"] + 1
    page.screenshot(path=shots / "dixit-team-chat-tablet.png")


def test_a_twelve_player_ranking_keeps_play_again_in_a_tablets_window(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """DX-END with twelve players on a tablet (1024 × 768): "New game" and "Play again"
    under the ranking were cut in half by the table's edge. Its rows are tighter now, and
    the names stand in one column ("10." pushed rows 10–12 to the right)."""
    with finished_twelve(tmp_path) as (server, table):
        page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
        page.goto(f"{server.url}/t/{table}#seat=t0")
        expect(page.locator(".dx-final .dx-ranking li")).to_have_count(12)
        expect(page.get_by_role("button", name="Play again")).to_be_in_viewport(ratio=1)
        lefts = page.locator(".dx-final .dx-rank-name").evaluate_all(
            "names => names.map(n => Math.round(n.getBoundingClientRect().left))")
        assert len(set(lefts)) == 1, lefts
        page.screenshot(path=shots / "dixit-twelve-ranking-tablet.png")


def test_ones_own_row_stays_in_sight_among_twelve_players_on_a_tablet(
    browser: Browser, web_server: LiveServer
) -> None:
    """With twelve players on a tablet (1024 × 768) seat 12's row, with its status and
    score, was below the side panel's edge: the panel shows it."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["easy"] * 11 + ["human"], {11: "Anna"})
    page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[11]}")
    expect(page.locator(TABLE)).to_have_attribute("data-phase", "submit", timeout=30_000)
    side = page.locator(".dx-side")
    assert side.evaluate("panel => panel.scrollHeight > panel.clientHeight")  # it scrolls
    mine = page.locator(".dx-player.mine")
    wait_for(page, """() => {
        const panel = document.querySelector('.dx-side').getBoundingClientRect();
        const row = document.querySelector('.dx-player.mine').getBoundingClientRect();
        return row.top >= panel.top - 1 && row.bottom <= panel.bottom + 1;
    }""", timeout=5)
    expect(mine).to_be_in_viewport(ratio=1)


CHOSEN_LABELS = """() => [...document.querySelectorAll('.dx-choose.selected, .dx-vote.selected')]
    .map(b => ({text: b.innerText.trim(), over: b.scrollWidth - b.clientWidth}))"""


def test_a_party_hand_keeps_its_size_beside_whose_cards_it_was_and_says_chosen_in_its_width(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-PARTY-6 on a 1366 × 768 laptop: from the second round the note of whose cards
    the hand was stood beside it in a second column, and the cards went from 153 to 85 px
    wide, too narrow for "Chosen ✓", which ran past its button's edges. It named the
    cards' owner "Computer 6 · Easy's" (the level's, it read). Under the hand the note
    takes a line of the table's height: the cards give up that much (153 to 132 px), the
    givers' names under the cards coming in stay inside the table (they were cut)."""
    anna = watch(browser.new_context(viewport={"width": 1366, "height": 768}).new_page())
    create_table(anna, web_server, "Anna", ["bot:easy"] * 5,
                 {"Variant": "Dixit Party", "First storyteller": "The first seat"})
    give_clue(anna, "Midnight")
    expect(anna.locator('[data-action="submit"]')).to_be_visible()
    first = anna.locator(".dx-hand-card").first.bounding_box()
    submit(anna)
    continue_reveal(anna)
    slots = anna.locator(".dx-slot:not([data-own])")
    slots.nth(0).locator('[data-action="vote-slot"]').click()
    slots.nth(1).locator('[data-action="red-slot"]').click()
    before = version(anna)
    anna.click('[data-action="cast-vote"]')
    wait_for_new_state(anna, before)
    expect(anna.locator(TABLE)).to_have_attribute("data-round", "2", timeout=60_000)
    continue_reveal(anna)
    expect(anna.locator('[data-action="submit"]')).to_be_visible()
    # "Computer 2's clue", not "Computer 2 · Easy's clue" (the level's, it read).
    expect(anna.locator(".dx-clue-by")).to_have_text("Computer 2's clue")
    note = anna.locator('[data-hand-note="passed"]')
    expect(note).to_have_text("Hands passed to the left: these were Computer 6's cards.")
    card = anna.locator('.dx-hand-card[data-choosable="true"]').first
    card.locator('[data-action="choose"]').click()
    expect(card).to_have_attribute("data-chosen", "true")
    box = card.bounding_box()
    assert first is not None and box is not None
    assert box["width"] >= 0.8 * first["width"], (first, box)
    held = anna.evaluate(BOARD_HOLDS_THE_NAMES)
    assert held["scrolls"] <= 1 and held["below"] <= 0, held
    note_box = note.bounding_box()
    assert note_box is not None and note_box["y"] >= box["y"] + box["height"] - 1, note_box
    assert anna.evaluate(CHOSEN_LABELS) == [{"text": "Chosen ✓", "over": 0}]
    anna.screenshot(path=shots / "dixit-party-round-2-laptop.png")


def test_on_a_portuguese_phone_a_chosen_card_says_so_within_its_button(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """On a 390 px phone a hand card is 82 px wide and "Escolhida ✓" 93 px: it was cut at
    both ends ("scolhida ·"). Where the words do not fit, the button says "✓" (its name
    for a screen reader stays "Escolhida ✓: …")."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human"] + ["greedy"] * 5, {0: "Maria Fernanda"})
    page = watch(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                     device_scale_factor=2).new_page())
    page.add_init_script("localStorage.setItem('gametable.lang', 'pt')")
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    card = page.locator('.dx-hand-card[data-choosable="true"]').first
    card.locator('[data-action="choose"]').click()
    expect(card).to_have_attribute("data-chosen", "true")
    labels = page.evaluate(CHOSEN_LABELS)
    assert labels == [{"text": "✓", "over": 0}], labels
    expect(card.locator('[data-action="choose"]')).to_have_accessible_name(
        re.compile(r"^Escolhida ✓: \w"))
    page.screenshot(path=shots / "dixit-phone-pt-chosen.png")


def test_on_a_phone_a_name_of_one_long_word_under_a_revealed_card_ends_in_an_ellipsis(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """"Guðrún Sigurðardóttir" under her revealed card on a 390 px phone read "Guðrún
    Sigurðardótti", its last letter cut at the column's edge with nothing to say so."""
    name = "Guðrún Sigurðardóttir"
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human"] + ["easy"] * 5, {0: name})
    page = watch(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                     device_scale_factor=2).new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    give_clue(page, "Far away")
    expect(page.locator(".dx-reveal")).to_be_visible(timeout=60_000)
    owner = page.locator(".dx-reveal-owner-text", has_text="Guðrún")
    expect(owner).to_have_count(1)
    sizes = owner.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert sizes[0] <= sizes[1], sizes
    page.screenshot(path=shots / "dixit-phone-long-word-name.png")


def test_on_a_phone_a_teams_points_name_its_computer_players_without_their_levels(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-TEAM-5's points on a 390 px phone in Portuguese: "Equipa 2 (Computador 2 ·
    Difícil & Computador 5 · Médio)" broke before a "·" and took four lines. In narrow
    columns a computer player is "Computador 5" (its level is in the players' list), as
    under its card."""
    table, tokens = create_by_api(
        web_server, "dixit", {"variant": "team", "first_storyteller": "first_seat"},
        ["human", "medium", "hard", "medium", "hard", "medium"], {0: "Maria"})
    page = watch(browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                     device_scale_factor=2).new_page())
    page.add_init_script("localStorage.setItem('gametable.lang', 'pt')")
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    give_clue(page, "Lua de mel")
    names = page.locator(".dx-reveal-group .dx-reveal-name")
    expect(names).to_have_count(3, timeout=60_000)
    expect(names.nth(1)).to_have_text("Equipa 2 (Computador 2 & Computador 5)")
    assert not [text for text in names.all_inner_texts() if "·" in text]
    page.locator(".dx-reveal-points").screenshot(path=str(shots / "dixit-team-points-phone-pt.png"))


# Each box of points' heading: its name's text, tooltip and lines, and whether its dot
# stands on the name's first line.
POINTS_HEADINGS = """() => [...document.querySelectorAll('.dx-reveal-group h3')].map(h3 => {
    const name = h3.querySelector('.dx-reveal-name');
    const dot = h3.querySelector('.dx-dot').getBoundingClientRect();
    const first = name.getClientRects()[0];
    return {text: name.textContent.replace(/\\s+/gu, ' '), title: name.title,
            lines: name.getClientRects().length,
            dotBeside: dot.top < first.bottom && dot.bottom > first.top};
})"""


def test_on_a_laptop_a_rounds_points_name_computer_players_on_one_line(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """DX-SCORE's boxes of points under six cards at 1366 × 768, in Portuguese: every
    computer player's box began "Computador 2 · / Difícil", its line ending at the "·".
    There a computer player is "Computador 2" (its level is in the players' list and the
    name's tooltip), on one line beside its dot, its number never alone on a line; in the
    players' list its level is a tag beside it."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "hard", "medium", "easy", "medium", "hard"],
                                  {0: "Anna Sigríður"})
    page = watch(browser.new_context(viewport={"width": 1366, "height": 768}).new_page())
    page.add_init_script("localStorage.setItem('gametable.lang', 'pt')")
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    with SeatSocket(web_server, table, tokens[0]) as seat:
        say_clue(seat, "Lanterna")
    expect(page.locator(".dx-reveal-group")).to_have_count(6, timeout=60_000)
    page.locator(".dx-reveal-points").screenshot(path=str(shots / "dixit-laptop-points-pt.png"))
    headings = page.evaluate(POINTS_HEADINGS)
    levels = ["Difícil", "Médio", "Fácil", "Médio", "Difícil"]
    assert [h["text"] for h in headings] == ["Anna Sigríður"] + [
        f"Computador {n}" for n in range(2, 7)], headings
    assert [h["title"] for h in headings[1:]] == [
        f"Computador {n} · {level}" for n, level in zip(range(2, 7), levels, strict=True)]
    assert all(h["lines"] == 1 and h["dotBeside"] for h in headings[1:]), headings
    # Beside the table, "Computador 3 · / Médio" broke after its "·" too: the level is a
    # tag beside the name there, and the row still reads "Computador 3 · Médio".
    rows = page.locator(".dx-players .dx-player")
    for n, level in zip(range(2, 7), levels, strict=True):
        row = rows.nth(n - 1)
        expect(row.locator(".dx-player-label")).to_have_text(f"Computador {n}")
        expect(row.locator(".dx-level")).to_have_text(f"· {level}")
        expect(row).to_contain_text(f"Computador {n} · {level}")
        assert row.locator(".dx-player-label").evaluate("e => e.getClientRects().length") == 1
    page.locator(".dx-players").screenshot(path=str(shots / "dixit-laptop-players-pt.png"))


def test_a_card_chosen_and_a_clue_written_come_back_after_a_reload(
    browser: Browser, web_server: LiveServer
) -> None:
    """A phone brings a tab back from the background by reloading it: the storyteller's
    chosen card and half-written clue were gone, then a listener's chosen card."""
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human", "human", "human", "greedy"],
                                  {0: "Anna", 1: "Bjarni", 2: "Carla"})
    anna = watch(browser.new_context(viewport=PHONE, is_mobile=True,
                                     has_touch=True).new_page())
    anna.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(anna.locator(TABLE)).to_have_attribute("data-phase", "clue")
    (card,) = choose_in_hand(anna)
    anna.fill("input[name=clue]", "Half a thought")
    anna.reload()
    expect(anna.locator(f'.dx-hand-card[data-card="{card}"]')).to_have_attribute(
        "data-chosen", "true")
    expect(anna.locator("input[name=clue]")).to_have_value("Half a thought")
    before = version(anna)
    anna.click('[data-action="send-clue"]')
    wait_for_new_state(anna, before)
    expect(anna.locator(".dx-clue-box .dx-clue")).to_contain_text("Half a thought")

    bjarni = watch(browser.new_context(viewport=DESKTOP).new_page())
    bjarni.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    expect(bjarni.locator(TABLE)).to_have_attribute("data-phase", "submit")
    (given,) = choose_in_hand(bjarni)
    bjarni.reload()
    expect(bjarni.locator(f'.dx-hand-card[data-card="{given}"]')).to_have_attribute(
        "data-chosen", "true")
    expect(bjarni.locator('.dx-hand-card[data-chosen="true"]')).to_have_count(1)
    submit_button = bjarni.locator('[data-action="submit"]')
    expect(submit_button).to_be_enabled()
    before = version(bjarni)
    submit_button.click()
    wait_for_new_state(bjarni, before)
    bjarni.reload()  # sent: the seat waits (for Carla), and nothing shows chosen
    expect(bjarni.locator(TABLE)).to_have_attribute("data-phase", "submit")
    expect(bjarni.locator(TABLE)).to_have_attribute("data-my-turn", "false")
    expect(bjarni.locator('.dx-hand-card[data-chosen="true"]')).to_have_count(0)


def test_a_game_to_15_fades_the_tracks_spaces_past_its_finish(
    browser: Browser, web_server: LiveServer
) -> None:
    """DX-END-1 with a target of 15: the track still ran bright to 30, and players
    misread how far the finish was."""
    table, tokens = create_by_api(web_server, "dixit",
                                  {"first_storyteller": "first_seat", "target_score": 15},
                                  ["human", "greedy", "greedy"], {0: "Anna"})
    page = watch(browser.new_context(viewport=DESKTOP).new_page())
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator(".dx-track-space.mark")).to_have_count(2)  # the start, 15
    expect(page.locator(".dx-track-space.beyond")).to_have_count(15)  # 16 … 30
    expect(page.locator(".dx-track-space.beyond").first).to_have_css("opacity", "0.35")


def test_dx_party_5_the_reveal_says_the_bonus_for_players_on_the_same_card_was_capped(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """DX-PARTY-5: six players on one card score 5 each, not 6; the reveal says "5 points
    at most" as the base game's capped bonus does (it said only "Players on the same
    card: 6 +5", as if a point were lost)."""
    steps: list[tuple[int, dict[str, Any]]] = [
        (0, {"type": "clue", "text": "Sunny", "mime": False}),
        (0, {"type": "submit", "cards": [59]}), (1, {"type": "submit", "cards": [3]}),
        (2, {"type": "submit", "cards": [113]}), (3, {"type": "submit", "cards": [35]}),
        (4, {"type": "submit", "cards": [14]}), (5, {"type": "submit", "cards": [7]}),
        (6, {"type": "submit", "cards": [86]}),
        (0, {"type": "vote", "slots": [1], "red": 2}),
        # Everyone else on Bea's card (slot 6 of the table seed 3 lays out).
        *[(seat, {"type": "vote", "slots": [6]}) for seat in range(1, 7)],
    ]
    names = ["Anna", "Bea", "Carl", "Dina", "Egill", "Fríða", "Gunnar"]
    options = {"variant": "party", "edition": "IS", "first_storyteller": "first_seat"}
    with stored_table(tmp_path / "data", options, people(names), 3, steps,
                      game="dixit") as (server, table):
        page = open_seat(browser, server, table, "Bea-token")
        page.evaluate("localStorage.setItem('gametable.lang', 'en')")
        page.reload()
        same = page.locator('.dx-reveal-group[data-seats="1"] li[data-reason]',
                            has_text="Players on the same card")
        expect(same).to_contain_text("Players on the same card: 6 (5 points at most)")
        page.locator(".dx-reveal").screenshot(path=str(shots / "dixit-party-capped.png"))
        page.context.close()


def team_steps(until_phase: str) -> list[tuple[int, dict[str, Any]]]:
    """A six-seat Team Dixit game (seed 3, the first seat tells) played until its first
    round reaches ``until_phase``: Anna (seat 0) tells, each team gives a card."""
    game = registry.get("dixit")
    state = game.new_game(game.make_config(TEAM, 6), 6, 3)
    steps: list[tuple[int, dict[str, Any]]] = []
    while state.phase != until_phase:
        seat = min(game.to_act(state))
        action = dict(game.legal_actions(state, seat)[0])
        if action["type"] == "clue":
            action["text"] = "Old friends"
        game.apply(state, seat, action)
        steps.append((seat, action))
    return steps


@pytest.mark.parametrize(("phase", "status"), [
    ("submit", "Your teammate Anna is the storyteller: give the card from your hand that "
               "fits their clue best. Whoever gives a card does not vote this round."),
    ("vote", "You gave your team's card, so you do not vote this round. Voting: 0 of 2 "
             "have voted."),
])
def test_dx_team_4_the_storytellers_teammate_is_told_they_give_and_do_not_vote(
    browser: Browser, tmp_path: Path, phase: str, status: str
) -> None:
    """DX-TEAM-2, DX-TEAM-4: the storyteller's teammate always gives and never votes; the
    status line told them only "Give the card…", then "Voting: 0 of 2 have voted." as if
    they had been forgotten."""
    names = ["Anna", "Bruno", "Carla", "Bjarni", "Dagur", "Eva"]  # Bjarni: Anna's teammate
    with stored_table(tmp_path / "data", TEAM, people(names), 3, team_steps(phase),
                      game="dixit") as (server, table):
        page = open_seat(browser, server, table, "Bjarni-token")
        page.evaluate("localStorage.setItem('gametable.lang', 'en')")
        page.reload()
        expect(page.locator(TABLE)).to_have_attribute("data-phase", phase)
        expect(page.locator(".dx-status-text")).to_contain_text(status)
        page.context.close()


def test_twelve_namesakes_votes_show_each_voters_whole_name_on_a_wide_screen(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """At twelve players on a 1920 px screen each voter's chip was cut to one line
    ("Guðmundur Sigurðs…"): two namesakes' chips read alike, the server's "(2)" lost
    (it tells them apart). A long name takes a second line instead."""
    long_names = ["Guðmundur Sigurðsson", "Anna-Katrín Þórhallsdóttir",
                  "Margrét Ólafsdóttir Hansen"]
    names = {0: "Prófari"} | {seat: long_names[seat % 3] for seat in range(1, 12)}
    table, tokens = create_by_api(web_server, "dixit", {"first_storyteller": "first_seat"},
                                  ["human"] * 12, names)
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    with ExitStack() as stack:
        others = [stack.enter_context(SeatSocket(web_server, table, tokens[seat]))
                  for seat in range(1, 12)]
        give_clue(page, "Old friends")
        for other in others:
            other.act("submit")
        for other in others:
            other.act("vote")
    expect(page.locator(".dx-reveal")).to_be_visible(timeout=60_000)
    voters = page.locator(".dx-voter")
    expect(voters).to_have_count(11)
    shown = voters.evaluate_all("""chips => chips.map(c => [c.textContent, c.title,
        c.scrollWidth > c.clientWidth + 1 || c.scrollHeight > c.clientHeight + 1])""")
    page.screenshot(path=str(shots / "dixit-twelve-namesakes-votes.png"))
    assert [text for text, _, cut in shown if cut] == []
    assert any("(2)" in text for text, _, _ in shown), shown
    # The owners under the cards keep their number too (three lines at most).
    owners = page.locator(".dx-reveal-owner-text").evaluate_all(
        "texts => texts.filter(e => e.scrollHeight > e.clientHeight + 1)"
        ".map(e => e.textContent)")
    assert owners == [], owners
    page.context.close()


TRACK_BADGES = """() => [...document.querySelectorAll('.dx-track-token')].map(token => {
    const badge = token.querySelector('.dx-rabbit-number, .dx-track-dot');
    const box = badge.getBoundingClientRect();
    const stack = token.classList.contains('stacked')
        ? document.querySelector(`.dx-track-stack[data-space="${token.dataset.space}"]`)
        : null;
    return {runner: token.dataset.runner, score: Number(token.dataset.score),
            space: Number(token.dataset.space), shown: badge.textContent,
            count: stack ? stack.querySelector('.dx-track-count').textContent : null,
            box: [box.left, box.top, box.right, box.bottom]};
})"""


@pytest.mark.parametrize("stage", ["start", "end"])
def test_dx_score_every_seats_place_on_the_track_can_be_read_at_twelve_players(
    browser: Browser, tmp_path: Path, shots: Path, stage: str
) -> None:
    """DX-SCORE at twelve players: rabbits on one space covered each other's numbers
    (twelve on 0 at the start read as one; three on 25 at the end, the middle one
    hidden). Two on a space stand side by side, three or more make a ring of dots in
    their colours round the space with their count: no two marks overlap, and each
    seat's mark stands on its score."""
    names = [f"Player {seat + 1}" for seat in range(12)]
    steps = finished_game(4, "dixit", 12) if stage == "end" else []
    with stored_table(tmp_path / "data", {}, people(names), 4, steps, game="dixit") as (
            server, table):
        page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        page.goto(f"{server.url}/t/{table}#seat=Player 1-token")
        expect(page.locator(".dx-track-token")).to_have_count(12)
        scores = page_scores(page, 12)
        badges = page.evaluate(TRACK_BADGES)
        page.locator(".dx-track").screenshot(path=str(shots / f"dixit-track-twelve-{stage}.png"))
        # Each seat once, on its score (no one past 30 here: its space is its score).
        assert sorted((b["runner"], b["score"], b["space"]) for b in badges) == sorted(
            (f"seat-{seat}", score, score) for seat, score in enumerate(scores))
        for a, b in ((a, b) for i, a in enumerate(badges) for b in badges[i + 1:]):
            if a["count"] and b["count"]:  # two dots: round, apart by their radii
                (ax, ay, ar), (bx, by, br) = (
                    ((x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2)
                    for x0, y0, x1, y1 in (a["box"], b["box"]))
                apart = math.dist((ax, ay), (bx, by)) >= ar + br
            else:
                apart = (a["box"][2] <= b["box"][0] or b["box"][2] <= a["box"][0]
                         or a["box"][3] <= b["box"][1] or b["box"][3] <= a["box"][1])
            assert apart, (a, b)
        on_space: dict[int, int] = {}
        for badge in badges:
            on_space[badge["space"]] = on_space.get(badge["space"], 0) + 1
        for badge in badges:
            if on_space[badge["space"]] >= 3:
                assert badge["count"] == f"×{on_space[badge['space']]}", badge
            else:
                assert badge["shown"] == str(badge["space"]), badge
        if stage == "start":
            assert on_space == {0: 12}
        page.context.close()


# Each card badge and each number on the track: its text, its size as drawn (the font's
# size times the track's scale), whether it is cut, and its card's width.
DRAWN_SIZES = """() => [...document.querySelectorAll(
        '.dx-card-badge, .dx-rabbit-number, .dx-lap, .dx-track-count')]
    .filter((e) => e.getClientRects().length).map((e) => {
        const scale = e.getScreenCTM ? e.getScreenCTM().a : 1;
        const card = e.closest('.dx-card-button');
        return {text: e.textContent, kind: e.getAttribute('class'),
                drawn: parseFloat(getComputedStyle(e).fontSize) * scale,
                cut: e.scrollWidth > e.clientWidth + 1,
                width: e.getBoundingClientRect().width,
                card: card ? card.getBoundingClientRect().width : null};
    })"""


@pytest.mark.parametrize("phase", ["start", "vote", "reveal"])
@pytest.mark.parametrize(("width", "height", "locale"), [
    (390, 844, "en-GB"), (360, 780, "en-GB"), (360, 780, "is-IS"), (360, 780, "nb-NO"),
    (360, 780, "pt-PT")])
def test_on_a_phone_card_badges_and_the_tracks_numbers_are_readable(
    browser: Browser, tmp_path: Path, shots: Path, phase: str, width: int, height: int,
    locale: str
) -> None:
    """On a phone the "Yours" badge on one's card in the vote and the storyteller's
    badge in the reveal were 10 px, and the numbers on the track's rabbits 7 px (8.5 px
    in a track drawn at 0.83 of its size). The badges are 12 px, whole on their card in
    every language; the track winds in fewer columns there, its rabbits' numbers (and a
    stack's count) 11 px or more as drawn, and the page no wider than the phone."""
    names = ["Anna", "Bruno", "Carla", "Dora", "Emil", "Frida"]
    stop = {"start": lambda state, game: state.phase == "vote" and state.round == 1,
            "vote": lambda state, game: state.phase == "vote" and state.round == 2,
            "reveal": lambda state, game: state.round == 2 and state.phase == "clue"}[phase]
    steps, state = steps_until(6, stop)
    reader = names[min(registry.get("dixit").to_act(state)) if phase != "reveal" else 0]
    with stored_table(tmp_path / "data", {}, people(names), 4, steps, game="dixit") as (
            server, table):
        page = watch(browser.new_context(viewport={"width": width, "height": height},
                                         is_mobile=True, has_touch=True,
                                         locale=locale).new_page())
        page.goto(f"{server.url}/t/{table}#seat={reader}-token")
        badge = {"start": ".dx-card-badge.own", "vote": ".dx-card-badge.own",
                 "reveal": ".dx-card-badge.teller"}[phase]
        expect(page.locator(badge)).to_have_count(1)
        expect(page.locator(".dx-track-token")).to_have_count(6)
        page.locator(".dx-track").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"dixit-phone-{phase}-{locale}-{width}.png"),
                        full_page=True)
        sizes = page.evaluate(DRAWN_SIZES)
        badges = [s for s in sizes if s["card"] is not None]
        numbers = [s for s in sizes if s["card"] is None]
        assert len(badges) == 1 and numbers, sizes
        for shown in badges:
            assert shown["drawn"] >= 12 - 0.01 and not shown["cut"], str(shown)
            assert shown["width"] <= shown["card"], shown
        for shown in numbers:
            assert shown["drawn"] >= 11 - 0.01, shown
        if phase == "start":  # everyone on 0: a ring of dots and "×6"
            assert [s["text"] for s in numbers] == ["×6"], numbers
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.context.close()
