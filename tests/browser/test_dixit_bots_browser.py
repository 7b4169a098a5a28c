"""The lobby and Dixit's computer players: the lobby proposes the hard level (the player
that understands clues), pre-selects the language of its clues, and says when a deck leaves
computer players blind (no descriptions, DX-DECK-3); a hard storyteller at the table."""

from __future__ import annotations

import io
import json

import httpx
import pytest
from PIL import Image
from playwright.sync_api import Browser, expect

from gametable import decks
from gametable.games.dixit.semantic import copies
from gametable.server.storage import SQLiteStorage
from tests.browser.seats import create_table
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser


def png(number: int = 0) -> bytes:
    """A picture of its own for each ``number`` (a deck refuses the same one twice)."""
    out = io.BytesIO()
    Image.new("RGB", (300, 450), (90, 140, 200 - number)).save(out, "PNG")
    return out.getvalue()


def test_lobby_proposes_the_hard_level_and_warns_of_a_blind_deck(
        browser: Browser, web_server: LiveServer) -> None:
    created = httpx.post(f"{web_server.url}/api/decks", data={"name": "Bare pictures"},
                         files=[("files", (f"{n}.png", png(n), "image/png")) for n in range(3)])
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

    # Computer seats start at the hard level (the player that understands clues at its
    # strongest), the levels first and translated, clues in Portuguese.
    seat = page.get_by_label("Lugar 3")
    expect(seat).to_have_value("bot:hard")
    expect(seat.locator("option:checked")).to_have_text("Computador (Difícil)")
    expect(seat.locator("optgroup").first.locator("option")).to_have_text(
        ["Computador (Fácil)", "Computador (Médio)",
         "Computador (Difícil)"])
    language = page.locator(".field", has_text="Frases dos jogadores do computador")
    expect(language.locator("select option:checked")).to_have_text("Português")

    # The default deck is described: no warning. The bare deck: computer players are blind.
    expect(page.locator("[data-notice=blind-bots]")).to_have_count(0)
    picker.select_option(deck["deck"]["id"])
    expect(page.locator("[data-notice=blind-bots]")).to_contain_text("às cegas")
    picker.select_option("default")
    expect(page.locator("[data-notice=blind-bots]")).to_have_count(0)
    page.close()


def test_dx_score_1_a_hard_computer_storyteller_does_not_repeat_its_card_description(
        browser: Browser, web_server: LiveServer) -> None:
    """A ``hard`` computer player tells first; the table names its level, and its clue
    shares no content word with its card's description (so that some, not all, find it)."""
    table, tokens = create_table(web_server, "dixit", {"first_storyteller": "first_seat"},
                                 ["hard", "human", "hard"], {1: "Anna"})
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    clue = page.locator(".dx-clue-box")
    expect(clue).to_contain_text("Computer 1's clue", timeout=60_000)
    expect(page.locator('.dx-player[data-seat="0"]')).to_contain_text("Computer 1 · Hard")
    storage = SQLiteStorage(web_server.data_dir / "gametable.sqlite3")
    try:
        row = storage.load_table(table)
    finally:
        storage.close()
    assert row is not None
    told = [action for seat, action in row.actions if action["type"] == "clue"]
    assert len(told) == 1 and told[0]["text"]
    expect(clue).to_contain_text(told[0]["text"])
    deck = decks.find_deck(decks.DEFAULT_DECK)
    assert deck is not None
    description = deck.cards[told[0]["card"]].description
    assert description
    assert not copies(told[0]["text"], description), (told[0]["text"], description)
    page.close()
