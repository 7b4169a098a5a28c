"""Sequence Cats as people play it: two browsers, computer players, a reload, the end."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, ElementHandle, Page, expect

from tests.browser import waiting
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser

TABLE = ".sc-table"


def version(page: Page) -> int:
    return waiting.version(page, TABLE)


def my_turn(page: Page) -> bool:
    return page.locator('.sc-status[data-my-turn="true"]').count() > 0


def finished(page: Page) -> bool:
    return page.locator(".result, .sc-result-reopen").count() > 0


def take_turn(page: Page) -> None:
    """One action through the interface: pass, exchange a dead card, or play a card."""
    before = version(page)
    if page.locator(".sc-pass").count():
        page.click(".sc-pass")
    elif page.locator(".sc-exchange").count():
        page.locator(".sc-exchange").first.click()
    else:
        page.locator(".sc-card:not([disabled]):not(.dead)").first.click()
        targets = page.locator('.sc-space[data-target="true"]')
        expect(targets.first).to_be_visible()
        targets.first.click()
    waiting.wait_for_version(page, TABLE, before + 1)


def create_table(page: Page, server: LiveServer, name: str, seats: list[str],
                 wait: bool = True) -> None:
    """Fill in the lobby and create the table; ``seats`` are the choices for seats 2, 3…
    (``wait``: until the table's page opens)."""
    page.goto(server.url)
    card = page.locator(".game-card", has_text="Sequence Cats")
    card.click()
    expect(card).to_have_attribute("aria-pressed", "true")
    page.fill("input[autocomplete=nickname]", name)
    counts = page.get_by_role("group", name="Players").get_by_role("button")
    expect(counts.get_by_text("2", exact=True)).to_have_attribute("aria-pressed", "true")
    counts.get_by_text(str(len(seats) + 1), exact=True).click()
    expect(page.locator(".seat-plan li")).to_have_count(len(seats) + 1)
    for index, choice in enumerate(seats, start=2):
        page.select_option(f".seat-plan li:nth-child({index}) select", choice)
    page.get_by_role("button", name="Create table").click()
    if wait:
        page.wait_for_url("**/t/*")


def test_two_friends_and_a_computer_play_a_whole_game(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    anna = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    # Two teams of two (SC-PLAY-1): three single-player teams that place without a plan
    # can fill the board with no sequence, and such a game crawls on MEOW cards for
    # hundreds of turns; with two teams the game ends in about 40 actions.
    create_table(anna, web_server, "Anna", ["friend", "bot:greedy", "bot:greedy"])
    expect(anna.get_by_text("The game starts when the last open seat is taken.")).to_be_visible()
    invite = anna.locator("#invite-url").input_value()
    assert invite == anna.url
    anna.screenshot(path=shots / "waiting-room.png")

    # A friend opens the invite link in another browser and takes the open seat.
    bjarni = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    bjarni.goto(invite)
    bjarni.fill(".waiting-room input[maxlength='40']", "Bjarni")
    bjarni.get_by_role("button", name="Take this seat").click()
    for page in (anna, bjarni):
        expect(page.locator(".sc-board")).to_be_visible()
    expect(anna.locator(".sc-player").nth(1)).to_contain_text("Bjarni")
    expect(anna.locator(".sc-player").nth(2)).to_contain_text("computer")
    expect(anna.locator(".sc-player").nth(3)).to_contain_text("computer")

    moves = {"anna": 0, "bjarni": 0}
    reloaded = False

    def turn() -> bool:
        nonlocal reloaded
        acted = False
        for who, page in (("anna", anna), ("bjarni", bjarni)):
            if not finished(page) and my_turn(page):
                take_turn(page)
                moves[who] += 1
                acted = True
        if not reloaded and moves["bjarni"] >= 3:
            # A reload mid-game keeps the seat: the token is in the browser's storage.
            seen = version(bjarni)
            bjarni.screenshot(path=shots / "mid-game.png")
            bjarni.reload()
            expect(bjarni.locator(".sc-board")).to_be_visible()  # the game may be over now
            expect(bjarni.locator('.sc-player[data-seat="1"] .tag').first).to_have_text("you")
            waiting.wait_for_version(bjarni, TABLE, seen)
            reloaded = acted = True
        return acted

    waiting.play_until((anna, bjarni), TABLE, done=lambda: finished(anna) and finished(bjarni),
                       turn=turn, most=400)
    assert moves["anna"] >= 3 and moves["bjarni"] >= 3 and reloaded
    anna.screenshot(path=shots / "game-over.png")
    for page in (anna, bjarni):
        dialog = page.locator(".result")
        expect(dialog).to_be_visible()
        expect(dialog.get_by_role("link", name="Download the game record")).to_be_visible()


def test_a_phone_sees_a_tall_board_and_its_hand(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    page = context.new_page()
    create_table(page, web_server, "Sól", ["bot:greedy"])
    board = page.locator(".sc-board")
    expect(board).to_have_class("sc-board transposed")
    expect(page.locator(".sc-hand")).to_be_in_viewport()
    box = board.bounding_box()
    assert box is not None and box["width"] <= 390
    page.locator(".sc-card:not([disabled]):not(.dead)").first.tap()
    expect(page.locator('.sc-space[data-target="true"]').first).to_be_visible()
    page.screenshot(path=shots / "phone.png")


def test_the_language_switch_changes_texts_and_card_names(
    browser: Browser, web_server: LiveServer
) -> None:
    page = browser.new_page()
    create_table(page, web_server, "Anna", ["bot:random"])
    manx = page.locator('.sc-space[data-breed="manx"]').first
    expect(manx).to_contain_text("Manx")
    page.select_option(".language-switch select", "is")
    expect(manx).to_contain_text("Manarköttur")
    expect(page.locator("html")).to_have_attribute("lang", "is")
    page.reload()
    expect(page.locator('.sc-space[data-breed="manx"]').first).to_contain_text("Manarköttur")


def test_a_seat_moves_to_another_device_with_its_personal_link(
    browser: Browser, web_server: LiveServer
) -> None:
    laptop = browser.new_context()
    laptop.grant_permissions(["clipboard-read", "clipboard-write"])
    page = laptop.new_page()
    create_table(page, web_server, "Anna", ["bot:greedy"])
    expect(page.locator(".sc-hand")).to_be_visible()
    page.get_by_role("button", name="Play on another device").click()
    link = page.evaluate("navigator.clipboard.readText()")
    assert link.startswith(page.url + "#seat=")

    phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(link)
    expect(phone.locator(".sc-hand")).to_be_visible()
    assert "#seat=" not in phone.url  # the secret leaves the address bar at once
    expect(phone.locator(".sc-player").first).to_contain_text("Anna")
    hand = page.locator(".sc-card").all_inner_texts()
    assert phone.locator(".sc-card").all_inner_texts() == hand


def attached(handle: ElementHandle) -> bool:
    return bool(handle.evaluate("element => element.isConnected"))


def test_sc_turn_2_the_other_cards_and_the_log_stay_put_through_a_turn(
    browser: Browser, web_server: LiveServer
) -> None:
    """Playing a card (SC-TURN-2) and drawing the next (SC-TURN-3) changes one card of
    the hand: the other cards stay the same buttons (re-created, a card slips from under
    a finger on a slow phone), and the lines already in the log stay as new ones come."""
    page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    create_table(page, web_server, "Anna", ["bot:greedy"])
    expect(page.locator('.sc-status[data-my-turn="true"]')).to_be_visible()
    cards = page.locator(".sc-card")
    names = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
    # A card that is not the last one and the only one of its breed in the hand: the
    # cards after it move up one place.
    index = next(i for i, name in enumerate(names[:-1])
                 if names.count(name) == 1 and cards.nth(i).is_enabled()
                 and "dead" not in (cards.nth(i).get_attribute("class") or ""))
    kept = [cards.nth(i).element_handle() for i in range(len(names)) if i != index]
    before = version(page)
    cards.nth(index).click()
    page.locator('.sc-space[data-target="true"]').first.click()
    waiting.wait_for_version(page, TABLE, before + 1)
    expect(cards).to_have_count(len(names))
    assert all(attached(card) for card in kept), "the cards kept in hand were re-created"

    # Once the computer player has moved, another turn: its line comes on top of the
    # log, and the lines that were there stay.
    expect(page.locator('.sc-status[data-my-turn="true"]')).to_be_visible()
    log = page.locator(".sc-log li")
    seen = version(page)
    expect(page.locator(f'.sc-log li[data-version="{seen}"]')).not_to_have_count(0)
    lines = log.element_handles()
    take_turn(page)
    expect(page.locator(f'.sc-log li[data-version="{seen + 1}"]')).not_to_have_count(0)
    assert all(attached(line) for line in lines), "the log's lines were re-created"
