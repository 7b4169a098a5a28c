"""Headless Chromium (Debian's, driven by Playwright) against the real server."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    expect,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError

from tests.server.conftest import LiveServer

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "frontend" / "dist" / "index.html"
SHOTS = ROOT / "test-results" / "screenshots"
CHROMIUM = os.environ.get("GAMETABLE_CHROMIUM", "/usr/bin/chromium")
# Flags for a headless Chromium on a machine without network access or a GPU.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage"]

# Tests wait on states (locators, expect, the table's version), never on the clock. On a
# loaded machine (other work on two cores) a state comes later, not differently: every
# `expect` waits up to 30 s for it (Playwright's default is 5 s), as actions and
# `wait_for_function` do by default.
WAIT_MS = 30_000
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: run scripts/test, which "
                    "installs Debian's chromium, or set GAMETABLE_CHROMIUM")
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    yield browser
    browser.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder is a browser test (``-m "not browser"`` leaves them all
    out): a file that forgot its ``pytestmark`` was collected without the built client."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here in item.path.resolve().parents:
            item.add_marker(pytest.mark.browser)


def wait_for(page: Page, expression: str, timeout: float = 30.0) -> None:
    """Wait until the JavaScript ``expression`` is true in ``page``.

    ``page.wait_for_function`` would compile it inside the page, which the server's
    Content-Security-Policy forbids (no ``eval``); ``page.evaluate`` runs it from outside.
    """
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still not true after {timeout} s: {expression}")
        page.wait_for_timeout(50)


@pytest.fixture(autouse=True)
def no_policy_violations(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Fail a test whose pages broke the server's Content-Security-Policy: Chromium says
    so on the console of every page opened through the ``browser`` fixture. The test's
    contexts and pages are closed after it: the browser lives for the whole run, and a page
    left open goes on drawing and reconnecting to its stopped server (seventy of them kept
    two cores busy)."""
    seen: list[str] = []
    opened: list[BrowserContext] = []

    def listen(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            seen.append(message.text)

    new_context, new_page = Browser.new_context, Browser.new_page

    def context_listening(self: Browser, *args: Any, **kwargs: Any) -> BrowserContext:
        context = new_context(self, *args, **kwargs)
        context.on("console", listen)
        opened.append(context)
        return context

    def page_listening(self: Browser, *args: Any, **kwargs: Any) -> Page:
        page = new_page(self, *args, **kwargs)
        page.on("console", listen)
        opened.append(page.context)
        return page

    monkeypatch.setattr(Browser, "new_context", context_listening)
    monkeypatch.setattr(Browser, "new_page", page_listening)
    yield seen
    for context in opened:
        with contextlib.suppress(PlaywrightError):  # closed by the test, or no browser
            context.close()
    assert not seen, f"Content-Security-Policy violations: {seen}"


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[LiveServer]:
    if not CLIENT.exists():
        pytest.fail("the browser client is not built: run scripts/test (or `npm run build` "
                    "in frontend/)")
    # A seat the host opens may open as soon as its person has gone.
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=0.15,
                        options=["--reopen-after-seconds", "0"])
    server.start()
    yield server
    server.stop()


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
