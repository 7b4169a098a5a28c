"""A seat taken without a name has none: each reader's page calls it "Player n" in their
own language (the joining browser's default name was stored, in its language)."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, expect

from tests.server.conftest import LiveServer


def test_a_friend_who_gives_no_name_is_player_n_in_each_readers_language(
        browser: Browser, web_server: LiveServer) -> None:
    created = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "sequence-cats", "name": "Anna", "seats": [{"kind": "human"}] * 2}).json()
    table, anna_token = created["table"]["id"], created["token"]
    bea = browser.new_context(locale="pt-PT").new_page()
    bea.goto(f"{web_server.url}/t/{table}")
    bea.locator(".waiting-room button.primary").first.click()  # "Take this seat", no name
    expect(bea.locator(".sc-board")).to_be_visible()
    seats = httpx.get(f"{web_server.url}/api/tables/{table}", timeout=30).json()["seats"]
    assert seats[1]["name"] is None
    expect(bea.locator(".sc-player").nth(1)).to_contain_text("Jogador 2")
    anna = browser.new_context(locale="en-GB").new_page()
    anna.goto(f"{web_server.url}/t/{table}#seat={anna_token}")
    expect(anna.locator(".sc-player").nth(1)).to_contain_text("Player 2")
