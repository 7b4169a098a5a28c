"""Every kind of action of the three games made with the keyboard alone: Tab reaches the
control, Enter or Space (or typing) uses it; no mouse."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from gametable.server.storage import SeatRow, token_hash
from tests.browser import seats
from tests.browser.test_big_screen import say_clue
from tests.browser.test_rematch import finished_game
from tests.browser.test_sequence_cats_browser import stored_table
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser

MAX_TABS = 400


def tab_to(page: Page, selector: str) -> int:
    """Press Tab until the focused element matches ``selector`` (fails after MAX_TABS);
    returns how many presses it took."""
    for presses in range(1, MAX_TABS + 1):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return presses
    raise AssertionError(f"Tab never reached {selector}")


def version(server: LiveServer, table: str) -> int:
    return int(httpx.get(f"{server.url}/api/tables/{table}").json()["version"])


def wait_for_version(page: Page, server: LiveServer, table: str, above: int) -> None:
    for _ in range(600):
        if version(server, table) > above:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the table stayed at version {above}")


def open_seat(browser: Browser, server: LiveServer, table: str, token: str) -> Page:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{server.url}/t/{table}#seat={token}")
    return page


@pytest.mark.parametrize("viewport", [(1280, 900), (1366, 768)])
def test_sequence_cats_by_keyboard(browser: Browser, web_server: LiveServer,
                                   shots: Path, viewport: tuple[int, int]) -> None:
    """At 1280 × 900 the hand shows under the board, at 1366 × 768 left of it; either
    way the keyboard reaches it first (it came after every space a card could take and
    the move log)."""
    table, tokens = seats.create_table(web_server, "sequence-cats", {}, ["human", "easy"],
                                       {0: "Anna"})
    page = open_seat(browser, web_server, table, tokens[0])
    page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    expect(page.locator('.sc-status[data-my-turn="true"]')).to_be_visible()
    before = version(web_server, table)
    # The hand comes before the board (one chooses a card, then its space): the first
    # tab stop of the table is a card, not one of the spaces a card could take.
    tab_to(page, ".sc-card, .sc-space, .sc-log")
    assert page.evaluate("document.activeElement.matches('.sc-card')")
    tab_to(page, ".sc-card:not([disabled]):not(.dead)")
    page.keyboard.press("Enter")
    # The card chosen, focus is on the first space it may go to.
    expect(page.locator('.sc-space[data-target="true"]').first).to_be_focused()
    page.screenshot(path=str(shots / f"keyboard-sequence-cats-{viewport[0]}.png"))
    # The arrow keys walk the whole board from there (each space's name is read), and
    # back: across a row, down a column, to a row's ends.
    target = focused_space(page)
    column, row = target[0], int(target[1:])
    corner = page.locator(".sc-space").last.get_attribute("data-space") or ""
    last_column, rows = corner[0], int(corner[1:])
    down = "ArrowDown" if row < rows else "ArrowUp"
    page.keyboard.press(down)
    assert focused_space(page) == f"{column}{row + 1 if row < rows else row - 1}"
    page.keyboard.press("End")
    assert focused_space(page)[0] == last_column
    page.keyboard.press("Home")
    assert focused_space(page)[0] == "A"
    page.keyboard.press("ArrowLeft")  # a row's first space stays
    assert focused_space(page)[0] == "A"
    for _ in range(ord(column) - ord("A")):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp" if down == "ArrowDown" else "ArrowDown")
    assert focused_space(page) == target
    page.keyboard.press("Enter")
    wait_for_version(page, web_server, table, before)


def test_sequence_cats_board_is_walked_by_keyboard_between_turns(
        browser: Browser, web_server: LiveServer) -> None:
    """While another seat plays no space may be played, so none was a tab stop and the
    board could not be studied with the arrow keys: one space stays a tab stop."""
    table, tokens = seats.create_table(web_server, "sequence-cats", {}, ["human", "human"],
                                       {0: "Anna", 1: "Bruno"})
    page = open_seat(browser, web_server, table, tokens[1])  # Anna (seat 0) plays first
    expect(page.locator(".sc-board")).to_be_visible()
    expect(page.locator('.sc-space[data-target="true"]')).to_have_count(0)
    tab_to(page, ".sc-space")
    start = focused_space(page)
    page.keyboard.press("ArrowRight")
    assert focused_space(page) != start
    page.keyboard.press("ArrowLeft")
    assert focused_space(page) == start


def focused_space(page: Page) -> str:
    """The label ("C4") of the board space that has the focus."""
    label = page.evaluate("document.activeElement?.dataset?.space ?? ''")
    assert label, "no board space has the focus"
    return str(label)


def test_triominos_by_keyboard(browser: Browser, web_server: LiveServer, shots: Path) -> None:
    table, tokens = seats.create_table(web_server, "triominos", {}, ["human", "easy"],
                                       {0: "Anna"})
    page = open_seat(browser, web_server, table, tokens[0])
    expect(page.locator('.tr-status[data-my-turn="true"]')).to_be_visible()
    before = version(web_server, table)
    if page.locator("button.tr-hand-tile.playable").count() == 0:
        tab_to(page, '[data-action="draw"], [data-action="pass"]')
        page.keyboard.press("Enter")
        wait_for_version(page, web_server, table, before)
        return
    tab_to(page, "button.tr-hand-tile.playable")
    if page.evaluate("document.activeElement.getAttribute('aria-pressed')") != "true":
        page.keyboard.press("Enter")
        # The tile chosen, the focus is on its first place: the places come before the
        # rack in the page (Tab went on to Draw and the chat).
        expect(page.locator("g.tr-target").first).to_be_focused()
    else:  # the only tile that fits is chosen already
        tab_to(page, "g.tr-target")
    one_way = page.evaluate("document.activeElement.getAttribute('data-rotations') === '1'")
    page.keyboard.press("Enter")  # a tile that fits one way only is laid at once
    if not one_way:
        # Several ways: the place bar asks which; R turns the tile, the bar's button lays it.
        expect(page.locator('[data-action="confirm"]')).to_be_visible()
        assert version(web_server, table) == before
        page.keyboard.press("r")
        tab_to(page, '[data-action="confirm"]')
        page.screenshot(path=str(shots / "keyboard-triominos.png"))
        page.keyboard.press("Enter")
    wait_for_version(page, web_server, table, before)
    # The tile laid, focus stays at the table, on the rack (it fell to the page's top,
    # a dozen Tabs from the next turn's tiles).
    expect(page.locator(".tr-hand")).to_be_focused()


def test_dixit_by_keyboard(browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """The storyteller's turn: claim the role, choose a card, write the clue, send it;
    then a listener's: give a card and vote. The other two seats are played from the
    test over the websocket, so nobody claims the role before the page is ready."""
    table, tokens = seats.create_table(web_server, "dixit", {}, ["human"] * 3,
                                       {0: "Anna", 1: "Bo", 2: "Cy"})
    with seats.SeatSocket(web_server, table, tokens[1]) as bo, \
            seats.SeatSocket(web_server, table, tokens[2]) as cy:
        page = open_seat(browser, web_server, table, tokens[0])
        claim = page.locator('[data-action="claim"]')
        expect(claim).to_be_visible()
        before = version(web_server, table)
        tab_to(page, '[data-action="claim"]')
        page.keyboard.press("Enter")
        wait_for_version(page, web_server, table, before)
        send = page.locator('[data-action="send-clue"]')
        expect(send).to_be_visible()
        tab_to(page, '.dx-hand-card[data-choosable="true"] [data-action="choose"]')
        page.keyboard.press("Enter")
        expect(page.locator('.dx-hand-card[data-chosen="true"]')).to_have_count(1)
        # The chosen card rises; the buttons under the cards stay in one line (the
        # chosen card's rose with it).
        # (The card glides up; on a busy machine its 300 ms can take longer: the tops are
        # read until they are one, for up to five seconds.)
        tops: list[int] = []
        for _ in range(50):
            page.wait_for_timeout(100)
            tops = page.locator('.dx-hand-card [data-action="choose"]').evaluate_all(
                "buttons => buttons.map(b => Math.round(b.getBoundingClientRect().top))")
            if len(set(tops)) == 1:
                break
        assert len(set(tops)) == 1, tops
        # The card chosen, the focus goes on to the clue's field (it lay past every
        # other card's two buttons).
        expect(page.locator("input[name=clue]")).to_be_focused()
        page.keyboard.type("A quiet lantern")
        tab_to(page, '[data-action="send-clue"]')
        before = version(web_server, table)
        page.screenshot(path=str(shots / "keyboard-dixit.png"))
        page.keyboard.press("Enter")
        wait_for_version(page, web_server, table, before)
        expect(page.locator(".dx-clue-box .dx-clue")).to_contain_text("A quiet lantern")
        for listener in (bo, cy):
            listener.act("submit")
        for listener in (bo, cy):
            listener.act("vote")

        # Round 2: Bo tells; Anna gives a card and votes, by keyboard.
        tab_to(page, '[data-action="continue"]')
        page.keyboard.press("Enter")
        # A control gone with the focus hands it to the status line, which says what
        # comes next (it fell to the page's body: Tab started over from the page's top).
        status = page.locator("[data-status-line]")
        expect(status).to_be_focused()
        say_clue(bo, "Far from home")
        submit = page.locator('[data-action="submit"]')
        expect(submit).to_be_visible(timeout=60_000)
        chosen = page.locator('.dx-hand-card[data-chosen="true"]')
        while not submit.is_enabled():  # one card, or two at a table of three (DX-3P)
            count = chosen.count()
            tab_to(page, '.dx-hand-card[data-choosable="true"]:not([data-chosen="true"]) '
                         '[data-action="choose"]')
            page.keyboard.press("Enter")
            # The page has drawn the choice before the test looks on (on a busy machine
            # the next Tab could start from a card not yet marked chosen).
            expect(chosen).to_have_count(count + 1)
            if not submit.is_enabled():
                # One card of two: the focus stays in the hand for the second.
                expect(page.locator('.dx-hand-card[data-chosen="true"] '
                                    '[data-action="choose"]')).to_be_focused()
        # The choice complete, the focus is on Give (it lay a dozen presses on).
        expect(submit).to_be_focused()
        before = version(web_server, table)
        page.keyboard.press("Enter")
        wait_for_version(page, web_server, table, before)
        expect(status).to_be_focused()
        cy.act("submit")
        cast = page.locator('[data-action="cast-vote"]')
        expect(cast).to_be_visible(timeout=60_000)
        # From the status line the cards to vote on are a few presses away (12, round
        # the page's footer and header, from the body).
        presses = tab_to(page, '.dx-slot:not([data-own]) [data-action="vote-slot"]')
        assert presses <= 6, presses
        page.keyboard.press("Enter")
        # The vote chosen, the focus is on Cast my vote (past the scores and history).
        expect(cast).to_be_focused()
        before = version(web_server, table)
        page.keyboard.press("Enter")
        wait_for_version(page, web_server, table, before)


def test_dixit_two_quick_keyboard_choices_still_take_the_focus_on(
        browser: Browser, web_server: LiveServer) -> None:
    """DX-3P: the second card chosen by keyboard before the page has finished with the
    first (a busy machine, a quick hand) still takes the focus on to "Give these 2
    cards". (The second request named the same controls as the first, whose reset the
    page had not yet drawn: the two left the state unchanged, and the focus stayed on
    the card.) A button's ``click()`` is a click of ``detail`` 0, as Enter's is; the
    second comes after the page has drawn the first choice, before anything else."""
    table, tokens = seats.create_table(web_server, "dixit", {}, ["human"] * 3,
                                       {0: "Anna", 1: "Bo", 2: "Cy"})
    with seats.SeatSocket(web_server, table, tokens[1]) as bo, \
            seats.SeatSocket(web_server, table, tokens[2]):
        page = open_seat(browser, web_server, table, tokens[0])
        expect(page.locator('[data-action="claim"]')).to_be_visible()
        bo.act("claim")
        say_clue(bo, "Far from home")
        submit = page.locator('[data-action="submit"]')
        expect(submit).to_be_visible()
        page.evaluate("""async () => {
            const buttons = [...document.querySelectorAll('.dx-hand-card [data-action="choose"]')];
            buttons[0].focus();
            buttons[0].click();
            // The first choice drawn (its update runs in a microtask), the second made.
            for (let i = 0; i < 5; i++) await Promise.resolve();
            buttons[1].focus();
            buttons[1].click();
        }""")
        expect(page.locator('.dx-hand-card[data-chosen="true"]')).to_have_count(2)
        expect(submit).to_be_enabled()
        expect(submit).to_be_focused()


def test_a_finished_games_result_dialog_holds_the_keyboard(
        browser: Browser, tmp_path: Path, shots: Path) -> None:
    """Sequence Cats' result: focus comes into the dialog and Tab goes round inside it
    (the first Tab reached the log behind the overlay, later ones the watch link);
    Escape closes it and the board is there again."""
    seats_ = [SeatRow(0, "human", name="Anna", token_hash=token_hash("anna-token")),
              SeatRow(1, "bot", bot="easy"), SeatRow(2, "bot", bot="easy")]
    with stored_table(tmp_path / "data", {}, seats_, 11, finished_game(11)) as (server, table):
        page = open_seat(browser, server, table, "anna-token")
        dialog = page.locator(".overlay[role=dialog]")
        expect(dialog).to_be_visible()
        expect(dialog.get_by_role("button", name="See the board")).to_be_focused()
        for _ in range(12):
            page.keyboard.press("Tab")
            assert page.evaluate(
                "document.activeElement.closest('.overlay[role=dialog]') !== null")
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.activeElement.closest('.overlay[role=dialog]') !== null")
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
        expect(page.locator(".sc-result-reopen")).to_be_visible()


def test_a_dialog_opened_by_the_first_state_hears_escape_from_its_first_paint(
        browser: Browser, tmp_path: Path) -> None:
    """A finished game's result opens with the page's first state, and it listened to
    its keys only from a moment after it showed: an Escape in that moment went unheard.
    Here Escape is pressed as soon as the dialog is in the page, before it is painted,
    and it closes the dialog."""
    seats_ = [SeatRow(0, "human", name="Anna", token_hash=token_hash("anna-token")),
              SeatRow(1, "bot", bot="easy"), SeatRow(2, "bot", bot="easy")]
    with stored_table(tmp_path / "data", {}, seats_, 11, finished_game(11)) as (server, table):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.add_init_script("""
            new MutationObserver((changes, observer) => {
              if (!document.querySelector('.overlay[role=dialog]')) return;
              observer.disconnect();
              (document.activeElement ?? document).dispatchEvent(
                new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));
              window.escapePressed = true;
            }).observe(document, {childList: true, subtree: true});""")
        page.goto(f"{server.url}/t/{table}#seat=anna-token")
        expect(page.locator(".sc-result-reopen")).to_be_visible()
        assert page.evaluate("window.escapePressed === true")
        expect(page.locator(".overlay[role=dialog]")).to_have_count(0)
        page.context.close()


def test_triominos_keys_turn_lay_and_put_back_a_tile_from_its_place(
        browser: Browser, tmp_path: Path) -> None:
    """On a place the tile fits in several ways, the focus stays on the place: R and
    Escape did nothing there, and Enter turned the tile instead of laying it (five Tabs
    away from "Place"). There R turns it, Escape puts it back, and Enter lays it."""
    seats_ = [SeatRow(0, "human", name="Anna", token_hash=token_hash("anna-token")),
              SeatRow(1, "bot", bot="easy")]
    # Seed 2: Anna opens, so every way of the first tile fits the middle of the table.
    with stored_table(tmp_path / "data", {}, seats_, 2, [], "triominos") as (server, table):
        page = open_seat(browser, server, table, "anna-token")
        expect(page.locator('.tr-status[data-my-turn="true"]')).to_be_visible()
        tab_to(page, "button.tr-hand-tile.playable")
        page.keyboard.press("Enter")
        # A place is said by where it is, not by grid numbers ("Lay the tile at 0,0").
        expect(page.locator("g.tr-target").first).to_have_attribute(
            "aria-label", re.compile(r"^Lay the tile in the middle of the table"))
        tab_to(page, 'g.tr-target[data-rotations="3"]')
        page.keyboard.press("Enter")
        rotate = page.locator('[data-action="rotate"]')
        expect(rotate).to_contain_text("1/3")
        page.keyboard.press("r")
        expect(rotate).to_contain_text("2/3")
        page.keyboard.press("Escape")
        expect(rotate).to_have_count(0)
        assert version(server, table) == 0
        page.keyboard.press("Enter")  # the place again: the tile is shown there
        expect(rotate).to_contain_text("1/3")
        page.keyboard.press("Enter")  # and laid as shown
        wait_for_version(page, server, table, 0)


def test_triominos_places_are_named_by_the_tiles_they_touch(
        browser: Browser, tmp_path: Path) -> None:
    """A screen reader said each place by its grid numbers ("Lay the tile at 0,-2"),
    which tell a player nothing: it names the laid tiles the place touches."""
    seats_ = [SeatRow(0, "human", name="Anna", token_hash=token_hash("anna-token")),
              SeatRow(1, "bot", bot="easy")]
    # Seed 5: Anna opened with 0-1-2, the computer player laid 0-2-3 beside it, and a
    # tile of Anna's fits.
    steps = [(0, {"type": "place", "tile": "0-1-2", "position": [0, 0], "rotation": 0}),
             (1, {"type": "place", "tile": "0-2-3", "position": [0, -1], "rotation": 2})]
    with stored_table(tmp_path / "data", {}, seats_, 5, steps, "triominos") as (server, table):
        page = open_seat(browser, server, table, "anna-token")
        expect(page.locator('.tr-status[data-my-turn="true"]')).to_be_visible()
        tab_to(page, "button.tr-hand-tile.playable")
        if page.evaluate("document.activeElement.getAttribute('aria-pressed')") != "true":
            page.keyboard.press("Enter")
        expect(page.locator("g.tr-target").first).to_be_visible()
        labels = page.locator("g.tr-target").evaluate_all(
            "targets => targets.map(t => t.getAttribute('aria-label'))")
        assert labels
        side = r"(?:left of|right of|above|below) (?:0-1-2|0-2-3)"
        for label in labels:
            assert re.match(rf"^Lay the tile {side}(?: and {side})?", label), label


@contextmanager
def beside_a_lone_tile(browser: Browser, tmp_path: Path
                       ) -> Iterator[tuple[LiveServer, str, Page, Locator]]:
    """Anna's turn at a Triominos table where the computer player opened with 0-0-0
    (seed 13), and her tile 0-0-1, which fits all three of its sides: the server, the
    table, her page and that tile in her rack."""
    seats_ = [SeatRow(0, "human", name="Anna", token_hash=token_hash("anna-token")),
              SeatRow(1, "bot", bot="easy")]
    steps = [(1, {"type": "place", "tile": "0-0-0", "position": [0, 0], "rotation": 0})]
    with stored_table(tmp_path / "data", {}, seats_, 13, steps, "triominos") as (server, table):
        page = open_seat(browser, server, table, "anna-token")
        expect(page.locator('.tr-status[data-my-turn="true"]')).to_be_visible()
        tile = page.locator('button.tr-hand-tile.playable[data-tile="0-0-1"]')
        expect(tile).to_have_count(1)
        yield server, table, page, tile


def test_triominos_places_are_one_tab_stop_walked_by_the_arrow_keys(
        browser: Browser, tmp_path: Path) -> None:
    """Every place a tile fits was a Tab stop of its own, before the zoom buttons and the
    rack: the places are one stop, and the arrow keys (Home, End) go from place to place
    and reach them all."""
    with beside_a_lone_tile(browser, tmp_path) as (server, table, page, tile):
        if tile.get_attribute("aria-pressed") == "true":
            tile.click()  # put it back, to choose it by keyboard
        tile.focus()
        page.keyboard.press("Enter")
        places = page.locator("g.tr-target")
        expect(places).to_have_count(3)
        expect(places.first).to_be_focused()
        assert places.evaluate_all("gs => gs.map(g => g.tabIndex)") == [0, -1, -1]
        focused = "document.activeElement.getAttribute('data-target')"
        first = page.evaluate(focused)
        # Tab leaves the places at once; Shift+Tab comes back to the one left.
        page.keyboard.press("Tab")
        assert not page.evaluate("document.activeElement.matches('g.tr-target')")
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(focused) == first
        # The arrows reach every place from the first; End and Home the last and first.
        keys = [k or "" for k in places.evaluate_all(
            "gs => gs.map(g => g.getAttribute('data-target'))")]
        seen = {first}
        todo = [first]
        while todo:
            at = todo.pop()
            for arrow in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"):
                page.locator(f'g.tr-target[data-target="{at}"]').focus()
                page.keyboard.press(arrow)
                now = page.evaluate(focused)
                if now not in seen:
                    seen.add(now)
                    todo.append(now)
        assert seen == set(keys), (seen, keys)
        page.keyboard.press("End")
        assert page.evaluate(focused) == keys[-1]
        # The place visited last is the one Tab comes back to.
        page.keyboard.press("Tab")
        page.keyboard.press("Shift+Tab")
        assert page.evaluate(focused) == keys[-1]
        page.keyboard.press("Home")
        assert page.evaluate(focused) == keys[0]
        assert version(server, table) == 1  # walking lays nothing


def test_triominos_the_places_beside_a_lone_tile_each_have_their_own_name(
        browser: Browser, tmp_path: Path) -> None:
    """Beside a lone tile a screen reader named all three places alike, "Lay the tile
    next to 0-0-0": each says on which side of it the place lies (an upward tile's
    places are left of, right of and below it)."""
    with beside_a_lone_tile(browser, tmp_path) as (_, _, page, tile):
        if tile.get_attribute("aria-pressed") != "true":
            tile.click()
        places = page.get_by_role("button", name=re.compile(r"^Lay the tile"))
        expect(places).to_have_count(3)
        names = [place.get_attribute("aria-label") or "" for place in places.all()]
        assert sorted(names) == ["Lay the tile below 0-0-0", "Lay the tile left of 0-0-0",
                                 "Lay the tile right of 0-0-0"], names


# Seed 1, fifteen moves in: Anna's turn, and of her tiles only 1-3-3 fits anywhere.
ONE_FITS: list[tuple[int, dict[str, Any]]] = [
    (1, {"type": "place", "tile": "0-1-4", "position": [0, 0], "rotation": 1}),
    (0, {"type": "draw"}), (0, {"type": "draw"}), (0, {"type": "draw"}), (0, {"type": "pass"}),
    (1, {"type": "place", "tile": "0-4-5", "position": [1, 0], "rotation": 0}),
    (0, {"type": "place", "tile": "4-5-5", "position": [1, 1], "rotation": 0}),
    (1, {"type": "draw"}), (1, {"type": "draw"}), (1, {"type": "draw"}), (1, {"type": "pass"}),
    (0, {"type": "place", "tile": "4-4-5", "position": [1, 2], "rotation": 0}),
    (1, {"type": "place", "tile": "0-4-4", "position": [0, 2], "rotation": 0}),
    (0, {"type": "place", "tile": "3-5-5", "position": [2, 1], "rotation": 1}),
    (1, {"type": "place", "tile": "3-3-5", "position": [2, 2], "rotation": 2}),
]


def test_triominos_the_only_tile_that_fits_stays_chosen_when_pressed(
        browser: Browser, tmp_path: Path) -> None:
    """When only one tile fits it is chosen already; pressing it, as on any other turn,
    turned it off and its places with it (8 of 19 keyboard turns). It stays chosen."""
    seats_ = [SeatRow(0, "human", name="Anna", token_hash=token_hash("anna-token")),
              SeatRow(1, "bot", bot="easy")]
    with stored_table(tmp_path / "data", {}, seats_, 1, ONE_FITS, "triominos") as (
            server, table):
        page = open_seat(browser, server, table, "anna-token")
        tile = page.locator("button.tr-hand-tile.playable")
        expect(tile).to_have_count(1)
        expect(tile).to_have_attribute("aria-pressed", "true")
        expect(page.locator("g.tr-target").first).to_be_visible()
        tile.click()
        expect(tile).to_have_attribute("aria-pressed", "true")
        expect(page.locator("g.tr-target").first).to_be_visible()
        tab_to(page, "button.tr-hand-tile.playable")
        page.keyboard.press("Enter")
        expect(tile).to_have_attribute("aria-pressed", "true")
        # ... and the focus goes on to its places, as when a tile is chosen (it stayed
        # on the tile, the places 18 Tabs away round the page).
        expect(page.locator("g.tr-target").first).to_be_focused()


def test_escape_puts_a_chosen_card_or_tile_back(browser: Browser,
                                                 web_server: LiveServer) -> None:
    """A card chosen in Sequence Cats stayed chosen, its spaces glowing, whatever keys
    were pressed ("Place a chip for Siberian…" remained); a Triominos tile likewise.
    Escape puts it back, the focus on it again."""
    table, tokens = seats.create_table(web_server, "sequence-cats", {}, ["human", "easy"],
                                       {0: "Anna"})
    page = open_seat(browser, web_server, table, tokens[0])
    expect(page.locator('.sc-status[data-my-turn="true"]')).to_be_visible()
    tab_to(page, ".sc-card:not([disabled]):not(.dead)")
    card = page.evaluate("document.activeElement.dataset.card")
    page.keyboard.press("Enter")
    expect(page.locator('.sc-space[data-target="true"]').first).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator('.sc-space[data-target="true"]')).to_have_count(0)
    chosen = page.locator(f'.sc-card[data-card="{card}"]').first
    expect(chosen).to_be_focused()
    expect(chosen).to_have_attribute("aria-pressed", "false")
    page.context.close()

    # Triominos: the round's starter may lay any of its tiles (TR-SETUP-3).
    table, tokens = seats.create_table(web_server, "triominos", {}, ["human", "human"],
                                       {0: "Anna", 1: "Bruno"})
    page = open_seat(browser, web_server, table, tokens[0])
    other = open_seat(browser, web_server, table, tokens[1])
    for each in (page, other):
        expect(each.locator(".tr-status")).to_be_visible()
    mover = page if page.locator('.tr-status[data-my-turn="true"]').count() else other
    expect(mover.locator('.tr-status[data-my-turn="true"]')).to_be_visible()
    expect(mover.locator("button.tr-hand-tile.playable")).not_to_have_count(0)
    assert mover.locator("button.tr-hand-tile.playable").count() >= 2
    tab_to(mover, "button.tr-hand-tile.playable")
    tile = mover.evaluate("document.activeElement.dataset.tile")
    mover.keyboard.press("Enter")
    expect(mover.locator("g.tr-target").first).to_be_focused()
    mover.keyboard.press("Escape")
    expect(mover.locator("g.tr-target")).to_have_count(0)
    expect(mover.locator(f'button.tr-hand-tile[data-tile="{tile}"]')).to_be_focused()
    page.context.close()
    other.context.close()


@pytest.mark.parametrize("game, width, height", [
    ("dixit", 1366, 768), ("dixit", 390, 844), ("sequence-cats", 1366, 768),
    ("sequence-cats", 390, 844), ("triominos", 1366, 768), ("triominos", 390, 844)])
def test_every_tab_stop_of_a_game_table_has_a_name(
        browser: Browser, web_server: LiveServer, game: str, width: int, height: int
) -> None:
    # Chromium makes a box that scrolls a tab stop of its own: on a phone Dixit's players'
    # strip was one, and a screen reader could only say "group" or nothing there.
    others = ["easy", "easy", "easy"] if game == "dixit" else ["easy"]
    table, tokens = seats.create_table(web_server, game, {}, ["human", *others],
                                       {0: "Anna"})
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator("[data-status-line]")).to_be_visible()
    page.wait_for_timeout(500)
    unnamed = []
    for _ in range(60):
        page.keyboard.press("Tab")
        focused = page.evaluate("""() => {
          const e = document.activeElement;
          if (!e || e === document.body) return null;
          const named = e.getAttribute('aria-label') || e.getAttribute('aria-labelledby')
            || ['BUTTON', 'A', 'INPUT', 'SELECT', 'TEXTAREA', 'SUMMARY'].includes(e.tagName)
            || e.hasAttribute('data-status-line');
          return named ? null : `${e.tagName}.${e.className}`;
        }""")
        if focused is not None and focused not in unnamed:
            unnamed.append(focused)
    assert not unnamed, unnamed
    page.context.close()


def test_triominos_a_place_chosen_by_keyboard_is_brought_into_the_window(
        browser: Browser, web_server: LiveServer) -> None:
    """Tabbing to the rack scrolls the page down to it; a tile chosen there with Enter
    gives the focus to its first place on the board, which stayed where the page was
    scrolled: half above the window's top edge. The place is brought into sight."""
    table, tokens = seats.create_table(web_server, "triominos", {}, ["human", "human"],
                                       {0: "Anna", 1: "Bruno"})
    pages = [open_seat(browser, web_server, table, tokens[seat]) for seat in (0, 1)]
    for page in pages:
        page.set_viewport_size({"width": 1366, "height": 768})
        expect(page.locator(".tr-status")).to_be_visible()
    # The round's starter may lay any tile (TR-SETUP-3): the first place is the middle.
    mover = next(p for p in pages if p.locator('.tr-status[data-my-turn="true"]').count())
    expect(mover.locator("button.tr-hand-tile.playable")).not_to_have_count(0)
    # Scrolled down as far as the page goes, as Tab presses past the rack leave it.
    mover.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    mover.locator("button.tr-hand-tile.playable").first.focus()
    mover.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert mover.evaluate("window.scrollY") > 0
    mover.keyboard.press("Enter")
    place = mover.locator("g.tr-target").first
    expect(place).to_be_focused()
    # (to_be_in_viewport passed an SVG place 5 px above the edge)
    for _ in range(50):
        box = place.bounding_box()
        assert box is not None
        if box["y"] >= 0 and box["y"] + box["height"] <= 768:
            break
        mover.wait_for_timeout(100)
    else:
        raise AssertionError(f"the place stayed out of the window: {box}")
    for page in pages:
        page.context.close()


def test_browsing_the_languages_with_the_keys_changes_the_page_only_when_chosen(
        browser: Browser, web_server: LiveServer) -> None:
    """WCAG 3.2.2: an arrow key on the closed language list moved the whole page into
    Icelandic, the next one into Norwegian. A choice browsed to with the keys waits for
    Enter, or for the focus to leave; each language's name is read in its language."""
    page = browser.new_context(locale="en-GB").new_page()
    page.goto(web_server.url)
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_be_visible()
    english = heading.inner_text()
    switch = page.get_by_label("Language")
    expect(switch.locator('option[value="is"]')).to_have_attribute("lang", "is")
    expect(switch.locator('option[value="pt"]')).to_have_attribute("lang", "pt")
    switch.focus()
    page.keyboard.press("ArrowDown")
    expect(switch).to_have_value("is")
    page.wait_for_timeout(300)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(heading).to_have_text(english)
    page.keyboard.press("Tab")  # the focus leaves: Íslenska is chosen
    expect(page.locator("html")).to_have_attribute("lang", "is")
    expect(heading).not_to_have_text(english)
    switch = page.locator(".language-switch select")  # its label is Icelandic now
    switch.focus()
    page.keyboard.press("ArrowDown")
    expect(switch).to_have_value("nb")
    page.wait_for_timeout(300)
    expect(page.locator("html")).to_have_attribute("lang", "is")
    page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", "nb")
    page.context.close()
