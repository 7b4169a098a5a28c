"""What the waiting room tells someone who came with the invite link, before they sit."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser


def test_an_invited_friend_sees_the_tables_options_and_clock_before_sitting(
        browser: Browser, web_server: LiveServer) -> None:
    """The join page showed the game and the seats alone: someone joining a timed Dixit
    Party did not know that a computer player would play for them after a minute. The
    players, the options chosen (as the lobby words them) and the time a turn are said
    under the game's name, in the reader's language."""
    created = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "dixit", "name": "Anna", "config": {"variant": "party"},
        "clock": {"turn_seconds": 60, "cover": "medium"},
        "seats": [{"kind": "human"}, {"kind": "human"}]
        + [{"kind": "bot", "bot": "easy"}] * 4}).json()
    page = browser.new_context(locale="en-GB").new_page()
    page.goto(f"{web_server.url}/t/{created['table']['id']}")
    settings = page.locator(".waiting-room .table-settings")
    expect(settings).to_have_text("6 players · Variant: Dixit Party · 1:00 a turn")
    friend = browser.new_context(locale="pt-PT").new_page()
    friend.goto(f"{web_server.url}/t/{created['table']['id']}")
    expect(friend.locator(".waiting-room .table-settings")).to_have_text(
        "6 jogadores · Variante: Dixit Festa · 1:00 por jogada")
