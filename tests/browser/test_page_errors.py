"""A page that cannot go on says so and offers a reload, instead of going blank (a game's
table is loaded on first use, and a site updated meanwhile no longer has the file the
page asks for)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Route, expect

from tests.browser.seats import create_table
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser


def test_a_table_whose_game_cannot_load_offers_a_reload(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    table, tokens = create_table(web_server, "triominos", {}, ["human", "easy"], {0: "Anna"})
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    gone = {"yes": True}

    def missing(route: Route) -> None:
        if gone["yes"]:
            route.fulfill(status=404, body="Not found")
        else:
            route.continue_()

    page.route("**/assets/TriominosTable-*.js", missing)
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    notice = page.get_by_role("alert")
    expect(notice).to_contain_text("This page stopped working: the site may have been "
                                   "updated meanwhile. Reload it to go on; nothing is lost.")
    expect(page.locator(".topbar")).to_be_visible()  # the header and language switch stay
    page.screenshot(path=str(shots / "page-failed.png"))
    # The file is back (the new version): the reload shows the table, the seat kept.
    gone["yes"] = False
    page.get_by_role("button", name="Reload").click()
    expect(page.locator(".tr-hand")).to_be_visible()
    expect(page.get_by_role("alert")).to_have_count(0)
