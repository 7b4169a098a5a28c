"""What a person using a screen reader, or the keyboard alone, hears and where the focus
goes: the other seats' moves read out at every width, a Dixit clue read with what to do
about it, a card seen large keeping the focus, a host's question taking it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from gametable.server.storage import SeatRow, token_hash
from tests.browser import seats
from tests.browser.test_big_screen import say_clue
from tests.browser.test_keyboard import open_seat, version
from tests.browser.test_rematch import finished_game
from tests.browser.test_sequence_cats_browser import create_table, stored_table
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser

ANNOUNCER = "[data-move-announcer]"


def live_texts(page: Page) -> list[str]:
    """The texts of every live region on the page (what a screen reader may read out as
    it changes)."""
    texts: list[str] = page.locator("[aria-live]:not([aria-live=off]), [role=status], "
                                    "[role=alert], [role=log]").evaluate_all(
        "regions => regions.map(r => r.textContent.trim())")
    return texts


def test_a_laptop_reads_out_the_computer_players_moves_and_not_ones_own(
        browser: Browser, web_server: LiveServer) -> None:
    """Sequence Cats at 1280 px: "Computer 2 · Easy played Sphynx on E4" went only to the
    log, which is not read out (a phone's notice over the board was the only one read).
    The page reads out every other seat's move as it comes; its own moves are left out,
    and a page opened mid-game reads none of the moves before it."""
    table, tokens = seats.create_table(web_server, "sequence-cats", {}, ["human", "easy"],
                                       {0: "Anna"})
    with seats.SeatSocket(web_server, table, tokens[0]) as anna:
        page = open_seat(browser, web_server, table, tokens[0])
        expect(page.locator(".sc-board")).to_be_visible()
        announcer = page.locator(ANNOUNCER)
        expect(announcer).to_have_text("")
        # The sequences made are read with their teams' names, not by a dot's colour.
        expect(page.locator(".sc-score-item").first).to_have_text(
            re.compile(r"^\S.*: 0/1$"))
        mine = anna.act("play")
        anna.wait(lambda state: state["version"] > mine)  # the computer's move
        expect(announcer).to_have_text(re.compile(r"^Computer 2 · Easy (played|removed) .+"))
        expect(announcer).not_to_contain_text("You")
        # The notice over a phone's board is not read a second time.
        expect(page.locator(".sc-toast[role=status]")).to_have_count(0)

        later = open_seat(browser, web_server, table, tokens[0])
        expect(later.locator(".sc-board")).to_be_visible()
        expect(later.locator(".sc-log li").first).to_be_visible()
        later.wait_for_timeout(500)
        expect(later.locator(ANNOUNCER)).to_have_text("")  # history, not news
        later.context.close()
        page.context.close()


def test_triominos_reads_out_the_other_seats_moves_on_a_laptop(
        browser: Browser, web_server: LiveServer) -> None:
    """Triominos at 1280 px read out only bonuses (its notice of every move was a phone's);
    a computer player's tiles, draws and passes are read out too."""
    table, tokens = seats.create_table(web_server, "triominos", {}, ["human", "easy"],
                                       {0: "Anna"})
    with seats.SeatSocket(web_server, table, tokens[0]) as anna:
        page = open_seat(browser, web_server, table, tokens[0])
        expect(page.locator(".tr-table")).to_be_visible()
        start = version(web_server, table)
        announcer = page.locator(ANNOUNCER)
        for _ in range(6):  # until the computer player has moved since the page opened
            if version(web_server, table) > start and announcer.inner_text().strip():
                break
            state = anna.wait(lambda s: bool(s["legal"]) or s["version"] > start)
            if state["legal"]:
                kinds = {a["type"] for a in state["legal"]}
                anna.act(next(k for k in ("place", "draw", "pass") if k in kinds))
            page.wait_for_timeout(300)
        expect(announcer).to_have_text(re.compile(r"Computer 2 · Easy .+"))
        expect(announcer).not_to_contain_text("You ")
        expect(page.locator(".tr-toast[role=status]")).to_have_count(0)
        # A new language leaves no English sentence behind for a reader to find (the
        # region kept "Computer 2 · Easy played …" on an Icelandic page).
        page.get_by_label("Language").select_option("is")
        expect(page.locator("html")).to_have_attribute("lang", "is")
        expect(announcer).not_to_contain_text("Computer 2")
        page.context.close()


def test_a_dixit_listener_hears_the_clue_with_what_to_do(
        browser: Browser, web_server: LiveServer) -> None:
    """DX-TURN: "Give the card from your hand that fits the clue best." was read out
    without the clue, which stood in a paragraph nobody was sent to. The status line
    reads the clue first. The count of the clue's characters is not read out at every
    key (it was a live region)."""
    table, tokens = seats.create_table(web_server, "dixit", {}, ["human"] * 3,
                                       {0: "Anna", 1: "Bo", 2: "Cy"})
    with seats.SeatSocket(web_server, table, tokens[1]) as bo:
        page = open_seat(browser, web_server, table, tokens[0])
        expect(page.locator("[data-status-line]")).to_be_visible()
        bo.act("claim")
        say_clue(bo, "Far from home")
        status = page.locator("[data-status-line]")
        expect(status).to_contain_text("Bo's clue: “Far from home”. Give")
        page.context.close()

    table, tokens = seats.create_table(web_server, "dixit", {}, ["human"] * 3,
                                       {0: "Anna", 1: "Bo", 2: "Cy"})
    page = open_seat(browser, web_server, table, tokens[0])
    page.locator('[data-action="claim"]').click()
    clue = page.locator("input[name=clue]")
    page.locator('.dx-hand-card [data-action="choose"]').first.click()
    clue.fill("A quiet")
    expect(page.locator(".dx-hint")).to_contain_text("7")
    assert not any("7 of" in text or "7/" in text for text in live_texts(page)), \
        live_texts(page)
    page.context.close()


def test_a_dixit_card_seen_large_keeps_the_keyboard_inside(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """Tab went from the large card's buttons to "How to play" behind its overlay. It
    goes round the dialog's buttons; Escape puts the card away and gives the focus back
    to the button that opened it."""
    table, tokens = seats.create_table(web_server, "dixit", {}, ["human"] * 3,
                                       {0: "Anna", 1: "Bo", 2: "Cy"})
    page = open_seat(browser, web_server, table, tokens[0])
    expect(page.locator('[data-action="claim"]')).to_be_visible()
    look = page.locator(".dx-hand-card .dx-card-button").first
    expect(look).to_be_visible()
    look.focus()
    page.keyboard.press("Enter")
    dialog = page.locator(".dx-zoom-overlay[role=dialog]")
    expect(dialog).to_be_visible()
    for _ in range(6):
        page.keyboard.press("Tab")
        assert page.evaluate(
            "document.querySelector('.dx-zoom-overlay').contains(document.activeElement)"), \
            page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(
        "document.querySelector('.dx-zoom-overlay').contains(document.activeElement)")
    page.screenshot(path=str(shots / "screen-reader-dixit-zoom.png"))
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(look).to_be_focused()
    page.context.close()


NAMED_BY = """button => button.getAttribute('aria-labelledby').split(' ').map(id => {
    const part = document.getElementById(id);
    return [part.textContent, part.closest('[lang]').getAttribute('lang')];
})"""


def test_a_dixit_cards_english_description_is_read_as_english_on_an_icelandic_page(
        browser: Browser, web_server: LiveServer) -> None:
    """The default deck's card descriptions are English, and on an Icelandic page a
    screen reader read them with an Icelandic voice: the picture's words, the large
    card's caption and the hand's buttons ("Velja: In the moonlight, …"). Each is
    marked as English; the buttons take the description from an element so marked."""
    table, tokens = seats.create_table(web_server, "dixit", {}, ["human"] * 3,
                                       {0: "Anna", 1: "Bo", 2: "Cy"})
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.add_init_script("localStorage.setItem('gametable.lang', 'is')")
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator("html")).to_have_attribute("lang", "is")
    page.locator('[data-action="claim"]').click()
    card = page.locator(".dx-hand-card").first
    picture = card.locator("img")
    expect(picture).to_have_attribute("lang", "en")
    description = picture.get_attribute("alt") or ""
    assert len(description.split()) > 4, description  # the card's words, not "Spil 1"
    look = card.locator(".dx-card-button")
    choose = card.locator('[data-action="choose"]')
    expect(look).to_have_accessible_name(f"Skoða {description}")
    expect(choose).to_have_accessible_name(f"Velja: {description}")
    assert look.evaluate(NAMED_BY) == [["Skoða", "is"], [description, "en"]]
    assert choose.evaluate(NAMED_BY) == [["Velja:", "is"], [description, "en"]]
    look.click()
    caption = page.locator(".dx-zoom-description")
    expect(caption).to_have_text(description)
    expect(caption).to_have_attribute("lang", "en")
    page.context.close()


DESCRIPTION_OF = """button => document.getElementById(
    button.getAttribute('aria-describedby')).getAttribute('lang')"""


def test_a_dixit_card_on_the_table_is_described_by_its_picture(
        browser: Browser, web_server: LiveServer) -> None:
    """The cards on the table were read as "Look at card 2 on the table" and "Vote for
    card 2" and no more: the picture's words were the alt text of an image inside the
    button, which the button's own name overrides. Each button, in the vote and in the
    reveal, is described by the card's words, marked as English."""
    table, tokens = seats.create_table(web_server, "dixit", {}, ["human"] * 3,
                                       {0: "Anna", 1: "Bo", 2: "Cy"})
    with seats.SeatSocket(web_server, table, tokens[1]) as bo, \
            seats.SeatSocket(web_server, table, tokens[2]) as cy:
        page = open_seat(browser, web_server, table, tokens[0])
        expect(page.locator("[data-status-line]")).to_be_visible()
        bo.act("claim")
        say_clue(bo, "Far from home")
        cy.act("submit")
        for _ in range(2):  # three players: two cards each (DX-3P)
            page.locator('.dx-hand-card [data-action="choose"][aria-pressed="false"]'
                         ).first.click()
        page.locator('[data-action="submit"]').click()
        votes = page.locator('.dx-slot [data-action="vote-slot"]')
        expect(votes).to_have_count(3)  # five cards, two of them Anna's
        for slot in page.locator(".dx-slot").all():
            words = slot.locator("img").get_attribute("alt") or ""
            assert len(words.split()) > 4, words  # the card's words, not "Card 3"
            look = slot.locator(".dx-card-button")
            expect(look).to_have_accessible_description(words)
            assert look.evaluate(DESCRIPTION_OF) == "en"
            if slot.get_attribute("data-own") is None:
                expect(slot.locator('[data-action="vote-slot"]')
                       ).to_have_accessible_description(words)
        cy.act("vote")
        votes.first.click()
        page.click('[data-action="cast-vote"]')
        revealed = page.locator(".dx-reveal-slot")
        expect(revealed).to_have_count(5)
        for slot in revealed.all():
            words = slot.locator("img").get_attribute("alt") or ""
            expect(slot.locator(".dx-card-button")).to_have_accessible_description(words)
        page.context.close()


def test_the_hosts_question_takes_the_focus_and_escape_takes_it_back(
        browser: Browser, web_server: LiveServer) -> None:
    """Host controls: "End the game" put its question in place, but the focus fell to the
    status line above the window (27 Tabs back to Cancel), the question was not read, and
    Escape did nothing. The question takes the focus (read as its group's name), Tab
    reaches its buttons, and Escape cancels, the focus back on "End the game"."""
    table, tokens, host = seats.create_hosted_table(
        web_server, "sequence-cats", {}, ["human", "easy"], {0: "Anna"})
    page = browser.new_context(viewport={"width": 683, "height": 384},
                               device_scale_factor=2).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    page.evaluate(f"localStorage.setItem('gametable.host.{table}', {json.dumps(host)})")
    page.reload()
    expect(page.locator(".sc-board")).to_be_visible()
    page.locator(".host-controls summary").click()
    end = page.get_by_role("button", name="End the game")
    end.focus()
    page.keyboard.press("Enter")
    question = page.get_by_role("group", name=re.compile("End the game for everyone"))
    expect(question).to_be_focused()
    box = question.bounding_box()
    assert box is not None and 0 <= box["y"] <= 384, box
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Yes, end it")).to_be_focused()
    page.keyboard.press("Escape")
    expect(question).to_have_count(0)
    expect(page.get_by_role("button", name="End the game")).to_be_focused()
    # And the way back by keyboard after a version: the game goes on.
    assert version(web_server, table) >= 0
    page.context.close()


def test_a_control_disabled_while_it_has_the_focus_hands_it_to_the_status_line(
        browser: Browser, web_server: LiveServer) -> None:
    """Triominos' Draw, disabled after the third draw, and Pass once passed, dropped the
    focus to the page's body (the next Tab started over from the page's top), as a
    removed control did before the status line took it over. A disabled one now hands
    it over too."""
    table, tokens = seats.create_table(web_server, "triominos", {}, ["human", "human"],
                                       {0: "Anna", 1: "Bruno"})
    page = open_seat(browser, web_server, table, tokens[0])
    expect(page.locator(".tr-table")).to_be_visible()
    page.evaluate("""() => {
        const button = document.createElement("button");
        button.textContent = "Draw";
        button.id = "soon-disabled";
        document.querySelector(".tr-table").append(button);
        button.focus();
    }""")
    expect(page.locator("#soon-disabled")).to_be_focused()
    page.evaluate("document.getElementById('soon-disabled').disabled = true")
    expect(page.locator("[data-status-line]")).to_be_focused()
    page.context.close()


@pytest.mark.parametrize("history_late", [False, True])
def test_a_folded_chat_reads_out_a_friends_new_line(
        browser: Browser, web_server: LiveServer, history_late: bool) -> None:
    """Below 900 px (a laptop at 200 %) the chat starts folded, its log hidden from a
    screen reader too, and the notice of a new line is a plain button: a friend's "your
    move!" was never read out. A line from someone else is read out while it is folded;
    one's own and those there on opening are not. ``history_late``: the chat's history
    comes after the page has drawn the table (a busy machine): a line in it was read
    out, and shown over the page, as if just written."""
    table, tokens = seats.create_table(web_server, "sequence-cats", {}, ["human", "human"],
                                       {0: "Anna", 1: "Bruno"})
    with seats.SeatSocket(web_server, table, tokens[1]) as bruno:
        bruno.chat("hello early")
        page = browser.new_context(viewport={"width": 683, "height": 384},
                                   device_scale_factor=2).new_page()
        held: list[str] = []
        sockets: list[WebSocketRoute] = []
        if history_late:
            def route(socket: WebSocketRoute) -> None:
                sockets.append(socket)
                server = socket.connect_to_server()

                def from_server(message: str | bytes) -> None:
                    if isinstance(message, str) and '"chat_history"' in message and not sockets[1:]:
                        held.append(message)
                        return
                    socket.send(message)

                server.on_message(from_server)

            page.route_web_socket(re.compile(r"/api/tables/.*/ws"), route)
        page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
        expect(page.locator(".sc-board")).to_be_visible()
        expect(page.locator(".table-chat")).not_to_have_attribute("open", "")
        heard = page.locator("[data-chat-announcer]")
        if history_late:
            assert len(held) == 1, held
            sockets[0].send(held[0])
            # The history is in the folded chat's log.
            expect(page.locator(".table-chat")).to_contain_text("hello early")
        expect(heard).to_have_text("")
        expect(page.locator(".chat-toast")).to_have_count(0)
        bruno.chat("your move!")
        expect(heard).to_have_text("Bruno: your move!")
        page.context.close()


def test_a_page_opened_by_a_button_takes_the_focus_the_button_left(
        browser: Browser, web_server: LiveServer) -> None:
    """"Create table" (every other seat a computer player) opened the table with the
    focus on the page's body: nothing was read, and Tab started over from the top. The
    game's status line takes it (a page without one, its heading)."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    create_table(page, web_server, "Anna", ["bot:easy"])
    expect(page.locator(".sc-board")).to_be_visible()
    expect(page.locator("[data-status-line]")).to_be_focused()
    page.context.close()


def test_a_triominos_tile_on_the_table_is_read_as_the_tile_and_who_laid_it(
        browser: Browser, web_server: LiveServer) -> None:
    """TR-PLACE: the table read "+40 +50 5 5 5 1 5 5 4 …", each laid tile three bare
    numbers, and whose it was only by its colour. Each laid tile is one picture named
    "3-4-4, laid by Anna"; the open places' bonus figures are not read."""
    table, tokens = seats.create_table(web_server, "triominos", {}, ["human", "easy"],
                                       {0: "Anna"})
    with seats.SeatSocket(web_server, table, tokens[0]) as anna:
        page = open_seat(browser, web_server, table, tokens[0])
        state = anna.wait(lambda s: bool(s["legal"]) or bool(s["view"]["board"]))
        if not state["view"]["board"]:
            anna.act("place")
        tile = page.locator("g.tr-tile").first
        expect(tile).to_have_attribute("role", "img")
        expect(tile).to_have_attribute(
            "aria-label", re.compile(r"^\d-\d-\d, laid by (Anna|Computer 2 · Easy)( \(.+\))?$"))
        expect(page.locator("g.tr-open:not([aria-hidden=true])")).to_have_count(0)
        page.context.close()


def test_triominos_players_are_read_in_words(browser: Browser, web_server: LiveServer
                                             ) -> None:
    """The players' list read "Anna 9 0 0": its column heads are drawn for the eye only.
    Each number now comes with what it is."""
    table, tokens = seats.create_table(web_server, "triominos", {}, ["human", "human"],
                                       {0: "Anna", 1: "Bruno"})
    page = open_seat(browser, web_server, table, tokens[0])
    anna = page.locator('.tr-player[data-seat="0"]')
    expect(anna).to_be_visible()
    read = anna.evaluate("""row => {
      const walk = (n) => n.nodeType === 3 ? n.textContent
        : n.getAttribute('aria-hidden') === 'true' ? ' '
        : n.getAttribute('role') === 'img' ? ` ${n.getAttribute('aria-label')} `
        : [...n.childNodes].map(walk).join(' ');
      return walk(row).replace(/\\s+/g, ' ').trim();
    }""")
    assert re.fullmatch(r"Anna you (Started this round )?\d+ tiles in hand "
                        r"Points this round: 0 Score: 0", read), read
    page.context.close()


def test_sequence_cats_players_are_read_in_words_with_whose_turn_it_is(
        browser: Browser, web_server: LiveServer) -> None:
    """The players' list read "Player 1 you 🂠 5 Siberian" (the counts' meanings were
    titles, which are not read) and did not mark whose turn it was."""
    table, tokens = seats.create_table(web_server, "sequence-cats", {}, ["human", "human"],
                                       {0: "Anna", 1: "Bruno"})
    page = open_seat(browser, web_server, table, tokens[0])
    expect(page.locator(".sc-player.current")).to_have_count(1)
    expect(page.locator(".sc-player[aria-current=true]")).to_have_count(1)
    expect(page.locator(".sc-player.current")).to_have_attribute("aria-current", "true")
    anna = page.locator('.sc-player[data-seat="0"]')
    expect(anna.locator(".sc-player-cards .sr-only")).to_have_text("5 cards in hand")
    expect(anna.locator(".sc-discard .sr-only")).to_have_text(
        re.compile(r"^Discard pile: 0 cards:\s*$"))
    page.context.close()


@contextmanager
def anna_after_a_lost_game(browser: Browser, tmp_path: Path) -> Iterator[Page]:
    """Anna's page at a three-seat Sequence Cats game (seed 11) that two computer
    players won, its result dialog put away with Escape (its keys are listened to from
    when the focus comes into it, a moment after it shows)."""
    seats_ = [SeatRow(0, "human", name="Anna", token_hash=token_hash("anna-token")),
              SeatRow(1, "bot", bot="easy"), SeatRow(2, "bot", bot="easy")]
    with stored_table(tmp_path / "data", {}, seats_, 11, finished_game(11)) as (server, table):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.goto(f"{server.url}/t/{table}#seat=anna-token")
        expect(page.locator(".overlay[role=dialog]:focus-within")).to_be_visible()
        page.keyboard.press("Escape")
        yield page
        page.context.close()


def test_a_button_in_the_status_line_is_not_read_out_with_it(
        browser: Browser, tmp_path: Path) -> None:
    """The whole status line was live: a button in it ("Result", "Previous round",
    "Scores") was read out with the line's news whenever it came. Only the words are
    live now; the line is still where a new page's focus goes."""
    with anna_after_a_lost_game(browser, tmp_path) as page:
        line = page.locator("[data-status-line]")
        expect(line.locator(".sc-result-reopen")).to_be_visible()
        live = line.locator("[aria-live=polite]")
        expect(live).to_have_count(1)
        expect(live).to_have_text("You lost: Computer 3 · Easy (Purple) wins.")
        assert line.get_attribute("aria-live") in (None, "off")
        expect(page.locator("[aria-live=polite] button, [aria-live=assertive] button")
               ).to_have_count(0)


def test_a_sequences_chips_say_so_and_the_board_is_one_group(
        browser: Browser, tmp_path: Path) -> None:
    """SC-WIN-1: the five spaces of a sequence were named like any other ("E8: Maine
    Coon, Orange chip"), the log saying only "SEQUENCE for Orange!"; and the 88 spaces
    stood loose in the page, with no way to move to or past the board as a whole. Each
    chip of a sequence says so, and the board is a group named "Board"."""
    with anna_after_a_lost_game(browser, tmp_path) as page:
        board = page.get_by_role("group", name="Board", exact=True)
        expect(board).to_be_visible()
        in_sequence = board.locator(".sc-space.in-sequence[data-chip]")
        assert in_sequence.count() >= 4  # five, less a free corner that may be one
        for space in in_sequence.all():
            expect(space).to_have_accessible_name(re.compile(r", \w+ chip, in a sequence$"))
        other = board.locator(".sc-space[data-chip]:not(.in-sequence)").first
        expect(other).to_have_accessible_name(re.compile(r", \w+ chip$"))


def test_a_copied_link_is_said_to_be_copied(browser: Browser, web_server: LiveServer
                                             ) -> None:
    """"Copy" said it had copied only by renaming the focused button, which a screen
    reader does not read out: a live region says so."""
    table, tokens = seats.create_table(web_server, "sequence-cats", {}, ["human", "human"],
                                       {0: "Anna", 1: "Bruno"})
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator(".sc-board")).to_be_visible()
    said = page.locator("[data-copied-said]").first
    expect(said).to_have_text("")
    page.get_by_role("button", name="Copy the watch link").click()
    expect(page.locator("[data-copied-said]").filter(has_text="Copied")).to_have_count(1)
    context.close()


def test_a_lobby_option_is_named_by_its_label_and_described_by_its_help(
        browser: Browser, web_server: LiveServer) -> None:
    """The help under each option of a new table lay inside the option's <label>, so it
    was read as part of the name: "Variant Party (6–12 players) and Team (6, 8, 10, 12)
    exist in …", and a search for "Variant" found "Lone finder bonus" too (its help says
    "A variant of the Portuguese rulebook"). The name is the label alone, the help its
    description (also for the record's file field)."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(web_server.url)
    for game, label, help_start in [
            ("Dixit", "Variant", "Party (6–12 players)"),
            ("Dixit", "Lone finder bonus", "When only one player finds the card"),
            ("Sequence Cats", "Time per turn", "The time a player has for each move")]:
        page.locator(".game-card", has_text=game).click()
        option = page.get_by_role("combobox", name=label, exact=True)
        expect(option).to_have_count(1)
        expect(option).to_have_accessible_description(re.compile("^" + re.escape(help_start)))
        expect(page.get_by_role("combobox", name=re.compile("^" + label))).to_have_count(1)
    record = page.get_by_role("button", name="Open a game record (.json)", exact=True)
    expect(record).to_have_accessible_description(re.compile(r"^The file you downloaded"))
