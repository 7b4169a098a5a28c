"""Headless Chromium (Debian's, driven by Playwright) against the real server."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, expect, sync_playwright

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


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[LiveServer]:
    if not CLIENT.exists():
        pytest.fail("the browser client is not built: run scripts/test (or `npm run build` "
                    "in frontend/)")
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=0.15)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
