"""Waiting on what the pages show, never on the clock.

Every game's table element carries ``data-version``: how many actions the state it shows
includes. A test that drives several pages waits until all of them show the newest state
before it looks for something to do, and when nobody at the pages can act, the next
state can only come from elsewhere (a computer player): it waits for that state. How
long a loaded machine takes to get there does not matter; a game that stops moving fails
at the wait's timeout, and one that goes on too long fails at a bound on its actions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from playwright.sync_api import Error, Page

from tests.browser.conftest import wait_for


def version(page: Page, table: str) -> int:
    """The version of the state ``page`` shows now (0 before the first)."""
    return int(page.locator(table).get_attribute("data-version") or 0)


def wait_for_version(page: Page, table: str, at_least: int) -> None:
    """Wait until ``page`` shows a state of version ``at_least`` or later."""
    wait_for(page, f"Number(document.querySelector({table!r})?.dataset.version) >= {at_least}")


def settle(pages: Sequence[Page], table: str) -> int:
    """Wait until every page shows the newest state any of them shows; its version."""
    newest = max(version(page, table) for page in pages)
    for page in pages:
        wait_for_version(page, table, newest)
    return newest


def play_until(pages: Sequence[Page], table: str, done: Callable[[], bool],
               turn: Callable[[], bool], most: int) -> None:
    """Let ``turn`` do through the pages what they may do, until ``done()``.

    Each step waits until every page shows the same, newest state, then asks ``done``,
    then ``turn`` (true when it did something). When it did nothing, the table waits for
    someone who is not at these pages, so the step waits for the next state.

    Raises:
        AssertionError: the table passed ``most`` actions before ``done()``.
    """
    while True:
        newest = settle(pages, table)
        if done():
            return
        assert newest <= most, f"still not done after {newest} actions"
        if not turn():
            wait_for_version(pages[0], table, newest + 1)


def click_if_there(page: Page, selector: str) -> bool:
    """Click what ``selector`` finds now; false if nothing, or if it left the page before
    the click landed: a choice another seat may make first (the team's giver, the
    storyteller's role) is gone once made."""
    handle = page.query_selector(selector)
    if handle is None:
        return False
    try:
        handle.click()
    except Error:
        if handle.evaluate("element => element.isConnected"):
            raise
        return False
    return True
