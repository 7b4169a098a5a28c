"""What the waiting room tells someone who came with the invite link, before they sit."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.conftest import wait_for
from tests.browser.seats import take_a_seat
from tests.browser.test_host_controls import open_as_host
from tests.browser.text_layout import broken_words
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
    # Someone about to sit down without a name is told what the others will call them
    # (a guest on a phone became "Player 2" unawares).
    help_text = page.locator('[data-help="no-name"]')
    expect(help_text).to_have_text("Without a name, the others see you as “Player 2”.")
    expect(friend.locator('[data-help="no-name"]')).to_have_text(
        "Sem nome, os outros veem-te como «Jogador 2».")
    page.get_by_label("Your name").fill("Bruno")
    expect(help_text).to_have_count(0)
    # The tab says what the page is (it read "gametable", as the lobby does).
    expect(page).to_have_title("Waiting for players · Dixit · gametable")
    expect(friend).to_have_title("À espera de jogadores · Dixit · gametable")
    page.get_by_role("button", name="Take this seat").first.click()
    expect(page).to_have_title(re.compile(r"Dixit · gametable$"))


def four_seat_dixit(web_server: LiveServer) -> dict[str, Any]:
    """A Dixit table of Anna, two open seats and an `easy` computer player, waiting; the
    answer to its creation (the creator's token and the host token)."""
    created: dict[str, Any] = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "dixit", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"},
                  {"kind": "bot", "bot": "easy"}]}).json()
    return created


def test_the_host_changes_the_options_before_the_first_move_and_a_friend_sees_them(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """A wrong option once meant a new table and a new link for everyone. In the waiting
    room the host changes the options and the turn clock as the lobby offered them; a
    combination the rules refuse for the seats is explained before saving (DX-PARTY:
    Dixit Party needs 6 players or more); the friend waiting at the table sees the new
    settings at once."""
    created = four_seat_dixit(web_server)
    table_id = created["table"]["id"]
    friend = take_a_seat(browser, web_server, table_id, "Bruno")
    settings = friend.locator(".waiting-room .table-settings")
    expect(settings).to_have_text("4 players")

    anna = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900}).new_page()
    anna.goto(f"{web_server.url}/t/{table_id}#seat={created['token']}")
    anna.evaluate(f"localStorage.setItem('gametable.host.{table_id}', "
                  f"{json.dumps(created['host_token'])})")
    anna.reload()
    anna.get_by_role("button", name="Change the options").click()
    form = anna.get_by_role("form", name="Change the options")
    def field(label: str) -> Locator:
        return form.locator(".field").filter(
            has=anna.locator(".field-label", has_text=label)).locator("select")

    field("Variant").select_option(label="Dixit Party")
    expect(form.locator(".options-refusal")).to_be_visible()
    expect(form.get_by_role("button", name="Save the options")).to_be_disabled()
    field("Variant").select_option(label="Base game")
    field("Edition").select_option(label="Portuguese (PT)")
    field("Time per turn").select_option(label="2 minutes")
    anna.screenshot(path=str(shots / "waiting-room-change-options.png"), full_page=True)
    form.get_by_role("button", name="Save the options").click()
    expect(form).to_have_count(0)
    expect(settings).to_have_text("4 players · Edition: Portuguese (PT) · 2:00 a turn")
    expect(anna.locator(".waiting-room .table-settings")).to_have_text(
        "4 players · Edition: Portuguese (PT) · 2:00 a turn")
    # Both are told, once, that the options changed (the host saw no "saved", the
    # friend only a grey line that differed); the host as the one who did (it read "The
    # host changed the options" to her too).
    expect(friend.locator("[data-notice=options-changed]")).to_have_text(
        "The host changed the options (above); every hand was dealt again.")
    expect(anna.locator("[data-notice=options-changed]")).to_have_text(
        "You changed the options (above); every hand was dealt again.")
    info = httpx.get(f"{web_server.url}/api/tables/{table_id}").json()
    assert info["config"]["edition"] == "PT" and info["clock"]["turn_seconds"] == 120
    # The friend does not hold the host's token: nothing to change there.
    expect(friend.get_by_role("button", name="Change the options")).to_have_count(0)


def test_on_a_phone_the_host_shares_the_invite_link_with_another_app(
        browser: Browser, web_server: LiveServer) -> None:
    """Copy and paste into a chat app is awkward on a phone: where the device can share
    (the Web Share API), "Share…" hands the invite link to its share sheet; where it
    cannot, there is no such button (Copy stays)."""
    created = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "triominos", "name": "Anna", "seats": [{"kind": "human"}] * 2}).json()
    table, token = created["table"]["id"], created["token"]
    phone = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844},
                                is_mobile=True, has_touch=True)
    phone.add_init_script("window.__shared = []; navigator.share = (data) => "
                          "{ window.__shared.push(data); return Promise.resolve(); };")
    page = phone.new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={token}")
    page.locator(".invite").get_by_role("button", name="Share…").click()
    shared = page.evaluate("window.__shared")
    assert len(shared) == 1, shared
    assert shared[0]["url"] == page.locator("#invite-url").input_value()
    assert shared[0]["url"].endswith(f"/t/{table}")
    assert shared[0]["text"] == "Come and play Triominos with me"
    laptop = browser.new_context(locale="en-GB")
    laptop.add_init_script("delete Navigator.prototype.share;")
    other = laptop.new_page()
    other.goto(f"{web_server.url}/t/{table}#seat={token}")
    expect(other.locator(".invite").get_by_role("button", name="Copy").first).to_be_visible()
    # A screen reader tells the two Copy buttons apart.
    expect(other.get_by_role("button", name="Copy: Invite link", exact=True)).to_be_visible()
    expect(other.get_by_role("button", name="Copy: Watch link", exact=True)).to_be_visible()
    expect(other.get_by_role("button", name="Share…")).to_have_count(0)


@pytest.mark.parametrize(("width", "language"), [(360, "pt"), (390, "en")])
def test_on_a_phone_that_can_share_the_waiting_room_fits_the_screen(
        browser: Browser, web_server: LiveServer, width: int, language: str) -> None:
    """Where the phone can share, the invite link's row holds the link, Copy and
    Share…: it held the page at 405–447 px on a 360 px phone, "Take this seat" and
    "Share…" past the screen's edge. The row wraps; the page is the screen's width."""
    created = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "sequence-cats", "name": "Anna", "seats": [{"kind": "human"}] * 2}).json()
    table, token = created["table"]["id"], created["token"]
    def phone() -> Page:
        context = browser.new_context(viewport={"width": width, "height": 740},
                                      is_mobile=True, has_touch=True)
        context.add_init_script(f"localStorage.setItem('gametable.lang', '{language}'); "
                                "navigator.share = () => Promise.resolve();")
        return context.new_page()

    host = phone()
    host.goto(f"{web_server.url}/t/{table}#seat={token}")
    expect(host.locator(".invite .invite-row").first).to_be_visible()
    assert host.locator(".invite button").count() >= 3  # Copy, Share…, Copy
    friend = phone()
    friend.goto(f"{web_server.url}/t/{table}")
    expect(friend.locator(".seat-list button.primary").first).to_be_visible()
    for page in (host, friend):
        widths = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert widths[0] <= width, widths
        for button in page.locator(".invite button, .seat-list button").all():
            box = button.bounding_box()
            assert box is not None and box["x"] + box["width"] <= width, box
        page.context.close()


def test_someone_alone_can_play_at_once_from_the_top_of_the_waiting_room(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """A newcomer pressed "Create table" with the lobby's default seats (seat 2 for a
    friend) and waited for nobody: the "Computer player" buttons were below the links,
    past the bottom of a laptop's window, and focus fell to the page's body. The room
    offers computer players under what it waits for, starts at its heading, and once
    the game begins shows it from the top (it stayed scrolled down), its status line
    focused. The notice on
    restarting the server is the host's: a guest on the same computer is not given it."""
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(web_server.url)
    page.locator(".game-card", has_text="Sequence Cats").click()
    page.get_by_label("Your name").fill("Anna")
    page.get_by_role("button", name="Create table").click()
    heading = page.get_by_role("heading", name="Sequence Cats", level=1)
    expect(heading).to_be_focused()
    fill = page.get_by_role("button", name="Let a computer player take the open seat")
    expect(fill).to_be_in_viewport(ratio=1)
    expect(page.locator(".notice", has_text="localhost")).to_be_visible()
    # The big screen's link, in a sentence, reads in the site's colours (it was the
    # browser's underlined blue among the page's buttons) and opens in a new tab.
    screen = page.get_by_role("link", name="Big screen")
    expect(screen).to_have_attribute("target", "_blank")
    assert screen.evaluate("a => getComputedStyle(a).color") != "rgb(0, 0, 238)"
    page.screenshot(path=str(shots / "waiting-room-play-at-once.png"))

    guest = browser.new_context().new_page()
    guest.goto(page.url.split("#")[0])
    expect(guest.get_by_role("button", name="Take this seat")).to_be_visible()
    expect(guest.locator("#invite-url")).to_be_visible()
    expect(guest.locator(".notice", has_text="localhost")).to_have_count(0)
    expect(guest.get_by_role("button", name="Let a computer player take the open seat")
           ).to_have_count(0)  # the host's to do
    guest.context.close()

    page.mouse.wheel(0, 600)
    wait_for(page, "window.scrollY > 0")
    fill.click()
    expect(page.locator(".sc-status")).to_be_in_viewport()
    assert page.evaluate("window.scrollY") == 0
    # The game's status line takes the focus from the button that started it.
    expect(page.locator(".sc-status")).to_be_focused()
    page.screenshot(path=str(shots / "waiting-room-game-began.png"))


def test_the_computer_player_for_the_open_seat_plays_at_the_tables_level(
    browser: Browser, web_server: LiveServer
) -> None:
    """The lobby seated Hard computer players and kept a seat for a friend; "Let a
    computer player take the open seat" then added a Medium one, the room's own default,
    which nobody had chosen. It plays at the level of those already seated."""
    created = httpx.post(f"{web_server.url}/api/tables", json={
        "game": "dixit", "config": {}, "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "hard"},
                  {"kind": "bot", "bot": "hard"}]}).json()
    table = created["table"]["id"]
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    open_as_host(page, web_server, created)
    page.get_by_role("button", name="Let a computer player take the open seat").click()
    expect(page.locator(".dx-table")).to_be_visible()
    seats = httpx.get(f"{web_server.url}/api/tables/{table}").json()["seats"]
    assert [(s["kind"], s["bot"]) for s in seats[1:]] == [("bot", "hard")] * 3


def test_the_host_hands_the_role_on_in_the_waiting_room_and_leaves(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """The waiting room told the host "To leave the table, first hand the host role to
    another player" and had no way to do it (the host controls come with the game):
    a host whose plans changed could only close the page. Beside a friend's seat the
    host makes them host, then leaves; the friend is told that the buttons beside the
    seats are theirs now (it said the host controls were under the table)."""
    created = four_seat_dixit(web_server)
    table_id = created["table"]["id"]
    bruno = take_a_seat(browser, web_server, table_id, "Bruno")

    anna = browser.new_context(locale="en-GB").new_page()
    open_as_host(anna, web_server, created)
    expect(anna.locator('[data-hint="host-leaves"]')).to_have_text(
        "To leave the table, first hand the host role to another player.")
    expect(anna.get_by_role("button", name="Leave the table")).to_have_count(0)
    anna.get_by_role("button", name="Make Bruno host").click()
    anna.screenshot(path=str(shots / "waiting-room-make-host.png"))
    anna.locator(".seat-list").get_by_role("button", name="Make host").click()
    expect(bruno.locator(".toast", has_text="You are the host now")).to_contain_text(
        "You are the host now: the buttons beside the seats are yours.")
    expect(bruno.get_by_role("button", name="Let a computer player take the open seat")
           ).to_be_visible()
    expect(anna.get_by_role("button", name="Make Bruno host")).to_have_count(0)
    anna.get_by_role("button", name="Leave the table").click()
    anna.get_by_role("button", name="Leave", exact=True).click()
    expect(bruno.locator(".seat-list")).not_to_contain_text("Anna")
    assert httpx.get(f"{web_server.url}/api/tables/{table_id}").json()["host_seat"] == 1


def test_on_a_touch_screen_the_controls_under_the_table_are_a_fingers_height(
        browser: Browser, web_server: LiveServer) -> None:
    """On a phone the turn sound, notify me, let a computer play for me and Big screen
    were 37 px high, the Big screen link in the waiting room's text 15 px: each is 44 px
    at least (the link by the room a tap beside it takes)."""
    created = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    table, token = created["table"]["id"], created["token"]
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True)
    page = phone.new_page()
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    page.goto(f"{web_server.url}/t/{table}#seat={token}")
    link = page.locator("a.screen-link:not(.button)").first
    expect(link).to_be_visible()
    reach = link.evaluate("a => { const r = a.getBoundingClientRect(); "
                          "const s = getComputedStyle(a, '::after'); "
                          "return r.height - 2 * parseFloat(s.top); }")
    assert reach >= 40, reach
    joined = httpx.post(f"{web_server.url}/api/tables/{table}/join", timeout=30,
                        json={"seat": 1, "name": "Bo"})
    assert joined.status_code == 200, joined.text
    controls = page.locator(".turn-alerts button, a.screen-link.button")
    expect(controls.first).to_be_visible()
    heights = controls.evaluate_all("cs => cs.map(c => [c.textContent, "
                                    "c.getBoundingClientRect().height])")
    # (a hundredth of a pixel allowed for the float error of a fractional layout)
    assert len(heights) >= 2 and all(h >= 44 - 0.01 for _, h in heights), heights
    phone.close()


@pytest.mark.parametrize("language", ["en", "is", "nb", "pt"])
def test_on_a_360_px_phone_every_word_of_a_seat_row_reads_whole(
        browser: Browser, web_server: LiveServer, shots: Path, language: str) -> None:
    """On a 360 px phone the seat's buttons took the row and left its name the width of
    a few letters: "Op/en/se/at" a letter pair a line, "host" written downwards,
    "Compute/r 4 · Hard". A row breaks between words, or puts its buttons on a line of
    their own: for the host (a computer player for the open seat, a computer player's
    level, opening its seat, removing a friend, and asked to confirm) and for a guest,
    with the long names of Dixit's and Sequence Cats' computer players and team tags."""
    dixit = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "dixit", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"},
                  {"kind": "bot", "bot": "semantic"}, {"kind": "bot", "bot": "hard"}]}).json()
    joined = httpx.post(f"{web_server.url}/api/tables/{dixit['table']['id']}/join",
                        timeout=30, json={"seat": 1, "name": "Bruno"})
    assert joined.status_code == 200, joined.text
    cats = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "rollout"},
                  {"kind": "bot", "bot": "hard"}]}).json()
    def phone() -> Page:
        context = browser.new_context(viewport={"width": 360, "height": 780},
                                      is_mobile=True, has_touch=True)
        context.add_init_script(f"localStorage.setItem('gametable.lang', '{language}');")
        return context.new_page()

    def words_whole(page: Page, what: str) -> None:
        expect(page.locator(".seat-list .seat-row").first).to_be_visible()
        broken = page.evaluate(broken_words(".seat-list .seat-row *"))
        assert broken == [], (what, broken)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, (what, width)

    for name, created in (("dixit", dixit), ("cats", cats)):
        host = phone()
        open_as_host(host, web_server, created)
        expect(host.locator(".seat-list select").first).to_be_visible()
        words_whole(host, f"{name}, the host")
        if name == "dixit":
            remove = host.locator(".seat-list .seat-row").nth(1).get_by_role("button")
            expect(remove).to_have_count(1)
            remove.click()
            expect(host.locator(".seat-list .seat-row").nth(1).get_by_role("button")
                   ).to_have_count(2)
            words_whole(host, f"{name}, the host removing Bruno")
        host.screenshot(path=str(shots / f"waiting-room-360-{name}-{language}.png"),
                        full_page=True)
        guest = phone()  # (a browser without the host's token)
        guest.goto(f"{web_server.url}/t/{created['table']['id']}")
        expect(guest.locator(".seat-list button.primary").first).to_be_visible()
        words_whole(guest, f"{name}, a guest")
        host.context.close()
        guest.context.close()
