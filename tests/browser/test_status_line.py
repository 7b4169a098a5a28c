"""The status line between one's move and the state that answers it: it keeps what it
said ("Place a chip for…") until the next seat's turn shows, where it said "Your turn:
choose a card" for a moment (the choice cleared before the answer came)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import seats
from tests.browser.conftest import wait_for
from tests.browser.test_triominos_browser import act, enabled, place_a_tile
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser

# Every text the status line shows, in order (a mutation observer sees each render's).
RECORDER = """(selector) => {
  window.__lines = [];
  const note = () => {
    const line = document.querySelector(selector)?.textContent ?? null;
    if (line !== null && window.__lines[window.__lines.length - 1] !== line) {
      window.__lines.push(line);
    }
  };
  new MutationObserver(note).observe(document.body,
    {subtree: true, childList: true, characterData: true});
  note();
}"""


# Starts the record again from the line as it reads now.
MARK = """(selector) => {
  window.__lines = [document.querySelector(selector)?.textContent ?? ""];
}"""


def open_seat(browser: Browser, server: LiveServer, game: str) -> Page:
    table, tokens = seats.create_table(server, game, {}, ["human", "easy"], {0: "Anna"})
    page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page.goto(f"{server.url}/t/{table}#seat={tokens[0]}")
    return page


def lines_after_move(page: Page, other_turn: str) -> list[str]:
    """The lines the status line showed since the mark, up to the other seat's turn.

    Waits on the recorded lines, not on the page: the computer player's turn may come
    and go (its delay is 0.15 s here) between two looks at the page."""
    wait_for(page, f"window.__lines.some(line => line.includes({other_turn!r}))")
    lines: list[str] = page.evaluate("() => window.__lines.splice(0)")
    return lines[:next(i for i, line in enumerate(lines) if other_turn in line)]


def test_sequence_cats_status_keeps_the_chosen_card_until_the_next_turn(
        browser: Browser, web_server: LiveServer) -> None:
    page = open_seat(browser, web_server, "sequence-cats")
    expect(page.locator(".sc-board")).to_be_visible()
    page.evaluate(RECORDER, ".sc-status")
    moves = 0
    while moves < 3:
        expect(page.locator('.sc-status[data-my-turn="true"]')).to_be_visible(timeout=30_000)
        if page.locator(".sc-exchange, .sc-pass").count():
            page.locator(".sc-exchange, .sc-pass").first.click()
            page.wait_for_timeout(300)
            continue
        page.locator(".sc-card:not([disabled]):not(.dead)").first.click()
        target = page.locator('.sc-space[data-target="true"]').first
        expect(target).to_be_visible()
        page.evaluate(MARK, ".sc-status")
        target.click()
        lines = lines_after_move(page, "is playing")
        assert not [line for line in lines if line.startswith("Your turn")], lines
        moves += 1


def test_triominos_status_keeps_the_placement_until_the_next_turn(
        browser: Browser, web_server: LiveServer) -> None:
    page = open_seat(browser, web_server, "triominos")
    my_turn = page.locator('.tr-status[data-my-turn="true"]')
    expect(my_turn).to_be_visible(timeout=30_000)
    page.evaluate(RECORDER, ".tr-status")
    for _ in range(3):
        expect(my_turn).to_be_visible(timeout=30_000)
        if not page.locator('.tr-hand-tile[data-playable="true"]').count():
            act(page, "draw" if enabled(page, "draw") else "pass")
            continue
        if page.locator(".tr-hand-tile.selected").count() == 0:
            page.locator('.tr-hand-tile[data-playable="true"]').first.click()
        expect(page.locator("[data-target]").first).to_be_visible()
        page.evaluate(MARK, ".tr-status")
        place_a_tile(page)  # the tile chosen: its place, then the rotation if asked
        lines = lines_after_move(page, "is playing")
        assert lines and not [line for line in lines if line.startswith("Your turn")], lines
