"""'Your turn' alerts: a chime (with a remembered mute switch), the tab's title and icon,
and a desktop notification while the tab is hidden."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import seats
from tests.browser.conftest import wait_for
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser

# Counts what the page asks of the sound card and of the notification centre, and lets
# the test hide the tab (headless pages are never hidden on their own). The page counts
# as tapped only once it is, as in a person's browser (Playwright's pages count as
# tapped from the start).
RECORDER = """
let tapped = false;
addEventListener("pointerdown", () => { tapped = true; }, true);
addEventListener("keydown", () => { tapped = true; }, true);
Object.defineProperty(navigator, "userActivation", {
  get: () => ({hasBeenActive: tapped, isActive: tapped})});
window.__chimes = 0;
window.__notes = [];
window.__hidden = false;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() { window.__chimes += 0.5; return super.createOscillator(); }
};
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) { window.__notes.push({title, body: options?.body}); }
  close() {}
};
Object.defineProperty(document, "hidden", {get: () => window.__hidden});
"""


def chimes(page: Page) -> float:
    return float(page.evaluate("window.__chimes"))


def test_the_turn_is_announced_by_sound_title_icon_and_notification(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    table, tokens = seats.create_table(web_server, "sequence-cats", {},
                                       ["human", "human"], {0: "Anna", 1: "Bruno"})
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    context.add_init_script(RECORDER)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))

    def play() -> None:
        page.locator(".sc-card:not([disabled]):not(.dead)").first.click()
        page.locator('.sc-space[data-target="true"]').first.click()
        expect(page).to_have_title("Sequence Cats · gametable")

    try:
        with seats.SeatSocket(web_server, table, tokens[1]) as bruno:
            page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
            expect(page.locator('.sc-status[data-my-turn="true"]')).to_be_visible()
            # Anna's turn as the page opens: the title and the icon say so. No sound
            # before her first tap on the page: the browser would not play it (it
            # warned in the console, and played the notes late, at her first tap).
            expect(page).to_have_title("● Your turn · Sequence Cats · gametable")
            assert page.locator("link[rel~='icon']").get_attribute("href") == \
                "/favicon-turn.svg"
            # The title is set in the same commit that would have chimed.
            assert chimes(page) == 0
            assert not [text for text in console if "AudioContext" in text], console

            # Bruno's turn: title and icon back to normal (the tab names the game:
            # several open tables' tabs all read "gametable"). Anna's next turn chimes.
            play()
            assert page.locator("link[rel~='icon']").get_attribute("href") == "/favicon.svg"
            bruno.act("play")
            expect(page).to_have_title("● Your turn · Sequence Cats · gametable")
            wait_for(page, "window.__chimes === 1")
            assert page.evaluate("window.__notes") == []  # the tab is in view
            page.screenshot(path=str(shots / "turn-alert.png"))

            # Anna's tab hidden: her next turn also comes as a notification.
            play()
            page.evaluate("window.__hidden = true")
            bruno.act("play")
            expect(page).to_have_title("● Your turn · Sequence Cats · gametable")
            wait_for(page, "window.__notes.length === 1")
            # It says what to do, as the status line does (every turn said "The table
            # is waiting for you").
            assert page.evaluate("window.__notes") == [
                {"title": "Your turn at Sequence Cats",
                 "body": "Your turn: choose a card (or a highlighted space)."}]
            assert chimes(page) == 2
            page.evaluate("window.__hidden = false")

            # Muted, remembered across a reload: the turn comes silently.
            mute = page.get_by_role("button", name="Mute the turn sound")
            expect(mute).to_have_attribute("aria-pressed", "false")
            mute.click()
            expect(mute).to_have_attribute("aria-pressed", "true")
            page.reload()
            expect(mute).to_have_attribute("aria-pressed", "true")
            play()
            bruno.act("play")
            expect(page).to_have_title("● Your turn · Sequence Cats · gametable")
            assert chimes(page) == 0
            assert not [text for text in console if "AudioContext" in text], console
    finally:
        context.close()


def test_a_dixit_turn_notification_says_what_to_do_in_the_tables_language(
    browser: Browser, web_server: LiveServer
) -> None:
    """Dixit's turns differ (claim the storyteller's role, give a card, vote): the
    notification says which, as the status line does, in the page's language."""
    table, tokens = seats.create_table(web_server, "dixit", {}, ["human"] * 3,
                                       {0: "Anna", 1: "Bruno", 2: "Carla"})
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="pt-PT")
    context.add_init_script(RECORDER + "window.__hidden = true;")
    page = context.new_page()
    try:
        page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
        wait_for(page, "window.__notes.length === 1")
        note = page.evaluate("window.__notes[0]")
        assert note == {"title": "É a tua vez em Dixit",
                        "body": "Quem conta primeiro? Fica com o papel de narrador quando "
                                "tiveres uma frase."}
        page.evaluate("window.__hidden = false")
        expect(page.locator(".dx-status-text")).to_have_text(note["body"])
    finally:
        context.close()


def test_notifications_refused_in_the_browser_are_said_and_keep_the_keyboards_place(
    browser: Browser, web_server: LiveServer
) -> None:
    """Asked and refused, the "Notify me" button simply went, nothing said why, and the
    keyboard's place fell to the page."""
    table, tokens = seats.create_table(web_server, "sequence-cats", {},
                                       ["human", "human"], {0: "Anna", 1: "Bruno"})
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    context.add_init_script("""
window.Notification = class {
  static permission = "default";
  static requestPermission() { window.Notification.permission = "denied";
                               return Promise.resolve("denied"); }
};""")
    page = context.new_page()
    try:
        page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
        ask = page.get_by_role("button", name="Notify me on my turn")
        ask.focus()
        page.keyboard.press("Enter")
        note = page.locator(".turn-alerts [role=status]")
        expect(note).to_have_text("Notifications are blocked for this site: your "
                                  "browser's site settings can allow them.")
        expect(note).to_be_focused()
        expect(ask).to_have_count(0)
    finally:
        context.close()


def test_a_player_lets_a_computer_play_for_them_and_comes_back(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """Someone who must go for a while (a table without a turn clock) could only leave,
    or be removed by the host, for good: a computer player now plays for them until
    they are back."""
    table, tokens = seats.create_table(web_server, "sequence-cats", {},
                                       ["human", "human"], {0: "Anna", 1: "Bruno"})
    page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    page.add_init_script(RECORDER)
    try:
        with seats.SeatSocket(web_server, table, tokens[1]) as bruno:
            page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
            expect(page.locator('.sc-status[data-my-turn="true"]')).to_be_visible()
            step_away = page.get_by_role("button", name="Let a computer play for me")
            step_away.focus()
            page.keyboard.press("Enter")
            chimed = chimes(page)
            banner = page.locator(".away-banner")
            expect(banner).to_contain_text("You are away: a computer player (Medium) plays "
                                           "for you.")
            back = banner.get_by_role("button", name="I'm back")
            expect(back).to_be_focused()  # the button pressed is gone
            expect(step_away).to_have_count(0)
            # Anna's turn was hers: the computer player made it (Bruno is here).
            expect(page.locator(".clock-log")).to_contain_text(
                "You stepped away: a computer player (Medium) moved for you.")
            page.screenshot(path=str(shots / "stepped-away.png"))
            bruno.act("play")
            expect(page.locator(".clock-log")).to_contain_text("(×2)")
            # Her turns while away were the computer player's: no chime, no "Your turn"
            # in the tab's title (every covered turn chimed).
            assert chimes(page) == chimed
            assert not page.title().startswith("●"), page.title()
            back.click()
            expect(banner).to_have_count(0)
            expect(step_away).to_be_visible()
            bruno.act("play")
            expect(page.locator('.sc-status[data-my-turn="true"]')).to_be_visible()
            # The clock that held her away changed no option of the host's: the table's
            # next news (Bruno's new name) said "The host changed the options (2
            # players); every hand was dealt again." to everyone.
            renamed = httpx.post(f"{web_server.url}/api/tables/{table}/name",
                                 json={"name": "Bruno B"}, headers={"X-Seat-Token": tokens[1]})
            assert renamed.status_code == 200, renamed.text
            assert renamed.json()["clock"]["turn_seconds"] is None
            expect(page.locator('.sc-player[data-seat="1"]')).to_contain_text("Bruno B")
            expect(page.locator("[data-notice=options-changed]")).to_have_count(0)
    finally:
        page.context.close()


@pytest.fixture
def slow_cover_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose computer players wait four seconds a move: the test reads what the
    other player sees while a computer player covers."""
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=4.0)
    server.start()
    yield server
    server.stop()


def test_the_others_read_that_a_computer_plays_for_a_player_who_stepped_away(
        browser: Browser, slow_cover_server: LiveServer) -> None:
    """While Anna was away and a computer player made her move, Bruno's status line said
    "Anna is playing…", as if she were there: it says a computer player plays for her."""
    table, tokens = seats.create_table(slow_cover_server, "sequence-cats", {},
                                       ["human", "human"], {0: "Anna", 1: "Bruno"})
    page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    try:
        with seats.SeatSocket(slow_cover_server, table, tokens[0]) as anna:
            page.goto(f"{slow_cover_server.url}/t/{table}#seat={tokens[1]}")
            status = page.locator(".sc-status-text")
            expect(status).to_have_text("Anna is playing…")
            anna.ws.send(json.dumps({"type": "away"}))
            expect(status).to_have_text("A computer player is playing for Anna…")
            expect(page.locator('.sc-status[data-my-turn="true"]')).to_be_visible(
                timeout=20_000)  # the computer player moved for her
    finally:
        page.context.close()
