"""The lobby and Dixit's computer players: the lobby proposes the player that understands
clues, pre-selects the language of its clues, and says when a deck leaves computer players
blind (no descriptions, DX-DECK-3)."""

from __future__ import annotations

import io
import json

import httpx
import pytest
from PIL import Image
from playwright.sync_api import Browser, expect

from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (300, 450), (90, 140, 200)).save(out, "PNG")
    return out.getvalue()


def test_lobby_proposes_the_semantic_player_and_warns_of_a_blind_deck(
        browser: Browser, web_server: LiveServer) -> None:
    created = httpx.post(f"{web_server.url}/api/decks", data={"name": "Bare pictures"},
                         files=[("files", (f"{n}.png", png(), "image/png")) for n in range(3)])
    assert created.status_code == 201, created.text
    deck = created.json()
    assert deck["deck"]["described"] == 0
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    keys = json.dumps({deck["deck"]["id"]: deck["key"]})
    page.add_init_script("localStorage.setItem('gametable.lang', 'pt');"
                         f"localStorage.setItem('gametable.deckKeys', {json.dumps(keys)})")
    page.goto(web_server.url)
    page.locator(".game-card", has_text="Dixit").click()
    picker = page.locator("select[name=deck]")
    expect(picker).to_be_visible()

    # Computer seats start as the player that understands clues, clues in Portuguese.
    seat = page.get_by_label("Lugar 3")
    expect(seat).to_have_value("bot:semantic")
    language = page.locator("label.field", has_text="Pistas dos jogadores do computador")
    expect(language.locator("select option:checked")).to_have_text("Português")

    # The default deck is described: no warning. The bare deck: computer players are blind.
    expect(page.locator("[data-notice=blind-bots]")).to_have_count(0)
    picker.select_option(deck["deck"]["id"])
    expect(page.locator("[data-notice=blind-bots]")).to_contain_text("às cegas")
    picker.select_option("default")
    expect(page.locator("[data-notice=blind-bots]")).to_have_count(0)
    page.close()
