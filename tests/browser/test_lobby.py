"""The lobby on a laptop."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser


def test_the_game_cards_line_up_their_titles(browser: Browser, web_server: LiveServer) -> None:
    """Each game's card centred its text in the row's height, so the titles of three
    cards with blurbs of different lengths stood at three heights."""
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(web_server.url)
    titles = page.locator(".game-card-title")
    expect(titles).to_have_count(3)
    tops = titles.evaluate_all("ts => ts.map(t => Math.round(t.getBoundingClientRect().top))")
    assert len(set(tops)) == 1, tops
