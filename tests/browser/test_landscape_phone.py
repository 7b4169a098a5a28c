"""A phone held sideways (844 × 390): the board and one's hand both in sight, without
scrolling (the hand was below the window's edge, the board's last row too)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.seats import create_table
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser

SIDEWAYS = {"width": 844, "height": 390}


def sideways_page(browser: Browser, server: LiveServer, table: str, token: str) -> Page:
    context = browser.new_context(viewport={"width": 844, "height": 390}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2, locale="en-GB")
    page = context.new_page()
    page.goto(f"{server.url}/t/{table}#seat={token}")
    return page


def in_sight(locator: Locator) -> None:
    """The element is wholly inside the window, the page unscrolled."""
    box = locator.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= SIDEWAYS["height"] + 0.5, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= SIDEWAYS["width"] + 0.5, box


def test_sequence_cats_sideways_shows_the_whole_board_beside_the_hand(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    table, tokens = create_table(web_server, "sequence-cats", {}, ["human", "easy"],
                                 {0: "Anna"})
    page = sideways_page(browser, web_server, table, tokens[0])
    expect(page.locator(".sc-board")).to_be_visible()
    expect(page.locator(".sc-card").first).to_be_visible()
    page.wait_for_timeout(300)  # the board's size follows the measured layout
    assert page.evaluate("window.scrollY") == 0
    in_sight(page.locator(".sc-board-frame"))
    for card in page.locator(".sc-card").all():
        in_sight(card)
    page.screenshot(path=str(shots / "sideways-sequence-cats.png"))


def test_triominos_sideways_keeps_the_rack_under_the_board(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    table, tokens = create_table(web_server, "triominos", {}, ["human", "easy"],
                                 {0: "Anna"})
    page = sideways_page(browser, web_server, table, tokens[0])
    expect(page.locator(".tr-hand")).to_be_visible()
    page.wait_for_timeout(300)
    assert page.evaluate("window.scrollY") == 0
    in_sight(page.locator(".tr-hand"))
    in_sight(page.locator('[data-action="draw"]'))
    board = page.locator(".tr-board").bounding_box()
    assert board is not None and board["height"] >= 150, board
    page.screenshot(path=str(shots / "sideways-triominos.png"))
