"""The table chat under a game's table: two friends at a Sequence Cats table talk, one
on a laptop (the chat open), one on a phone (folded, its label counting what is new, and
a new line shown over the page while the chat is out of sight). Only Team Dixit shows
the chat in its own table (DX-TEAM-2)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Locator, Page, ViewportSize, WebSocketRoute, expect

from tests.browser.seats import SeatSocket, create_hosted_table, create_table
from tests.server.conftest import LiveServer

PHONE: ViewportSize = {"width": 390, "height": 844}


def is_open(page: Page) -> bool:
    return bool(page.locator("details.table-chat").evaluate("element => element.open"))


def say(page: Page, text: str) -> None:
    page.locator(".table-chat .chat-input").fill(text)
    page.locator(".table-chat .chat-input").press("Enter")


def test_two_friends_talk_under_a_sequence_cats_table(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    table, tokens = create_table(web_server, "sequence-cats", {}, ["human", "human"],
                                 {0: "Anna", 1: "Bjarni"})
    anna = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    anna.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    bjarni = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                 device_scale_factor=2).new_page()
    bjarni.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    for page in (anna, bjarni):
        expect(page.locator(".sc-board")).to_be_visible()
        expect(page.locator("details.table-chat")).to_have_count(1)
    assert is_open(anna) and not is_open(bjarni)
    # The status line's dot is the colour of the seat it speaks of (whose turn it is),
    # the same on both screens (it was each reader's own colour beside "Bjarni is
    # playing…").
    dots = [page.locator(".sc-status .sc-team-dot.large") for page in (anna, bjarni)]
    expect(dots[1]).to_have_attribute("data-team", dots[0].get_attribute("data-team") or "")

    say(anna, "Hello Bjarni, good luck!")
    expect(anna.locator(".table-chat .chat-log")).to_contain_text("Hello Bjarni, good luck!")
    expect(bjarni.locator(".table-chat-unread")).to_have_text("1 new")
    # Bjarni's chat is below the board, out of sight: the line shows over the page,
    # and a tap on it opens the chat there.
    toast = bjarni.locator(".chat-toast")
    expect(toast).to_contain_text("Anna: Hello Bjarni, good luck!")
    bjarni.screenshot(path=shots / "table-chat-phone-toast.png")
    toast.click()
    expect(toast).to_have_count(0)
    expect(bjarni.locator(".table-chat .chat-input")).to_be_in_viewport()
    assert is_open(bjarni)
    expect(bjarni.locator(".table-chat .chat-log")).to_contain_text("Hello Bjarni, good luck!")
    expect(bjarni.locator(".table-chat .chat-log")).to_contain_text("Anna")
    expect(bjarni.locator(".table-chat-unread")).to_have_count(0)
    say(bjarni, "Thanks, you too")
    expect(anna.locator(".table-chat .chat-log")).to_contain_text("Thanks, you too")
    expect(anna.locator(".table-chat-unread")).to_have_count(0)  # open: nothing unread
    bjarni.screenshot(path=shots / "table-chat-phone-open.png")
    anna.screenshot(path=shots / "table-chat-laptop.png", full_page=True)


def test_someone_on_the_watch_link_reads_the_chat_and_writes_nothing(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """README: seated players write in the chat and spectators read along; the watch
    link's page showed no chat at all, where someone watching from the invite link read
    it."""
    table, tokens = create_table(web_server, "sequence-cats", {}, ["human", "human"],
                                 {0: "Anna", 1: "Bjarni"})
    anna = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    anna.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(anna.locator(".sc-board")).to_be_visible()
    say(anna, "Before the watchers came")
    watcher = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    watcher.goto(f"{web_server.url}/t/{table}/watch")
    expect(watcher.locator(".sc-board")).to_be_visible()
    chat = watcher.locator(".table-chat")
    expect(chat.locator(".chat-log")).to_contain_text("Before the watchers came")
    say(anna, "Hello to the watchers")
    expect(chat.locator(".chat-log")).to_contain_text("Hello to the watchers")
    expect(chat.locator(".chat-input")).to_have_count(0)
    expect(chat).to_contain_text("only players can write")
    watcher.screenshot(path=shots / "table-chat-watch-link.png", full_page=True)


def test_a_line_read_in_the_chat_does_not_show_over_the_page_again(
        browser: Browser, web_server: LiveServer) -> None:
    """A line that comes while the chat is out of sight shows over the page for a few
    seconds. Once it had gone, the reader scrolled down to the chat, read the line and
    went back up to the board: it showed over the page again (a minute later too), the
    toast taking every line not on screen now for a new one."""
    table, tokens = create_table(web_server, "sequence-cats", {}, ["human", "human"],
                                 {0: "Anna", 1: "Bjarni"})
    bjarni = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    bjarni.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    expect(bjarni.locator(".sc-board")).to_be_visible()
    toast = bjarni.locator(".chat-toast")
    with SeatSocket(web_server, table, tokens[0]) as anna:
        anna.chat("Are you there?")
        expect(toast).to_contain_text("Anna: Are you there?")
        expect(toast).to_have_count(0, timeout=10_000)  # after its few seconds
        bjarni.locator(".table-chat summary").click()
        bjarni.locator(".table-chat .chat-input").scroll_into_view_if_needed()
        expect(bjarni.locator(".table-chat .chat-log")).to_contain_text("Are you there?")
        bjarni.wait_for_timeout(6500)  # read at leisure
        bjarni.evaluate("window.scrollTo(0, 0)")
        expect(bjarni.locator(".table-chat .chat-input")).not_to_be_in_viewport()
        bjarni.wait_for_timeout(1000)
        assert toast.count() == 0  # (expect would wait for it to go)
        anna.chat("Your turn!")  # a new line, out of sight: it shows
        expect(toast).to_contain_text("Anna: Your turn!")


def anna_at_the_table(browser: Browser, web_server: LiveServer) -> tuple[Page, Locator]:
    """Anna's page at a new two-seat Sequence Cats table on a laptop, and its chat box."""
    table, tokens = create_table(web_server, "sequence-cats", {}, ["human", "human"],
                                 {0: "Anna", 1: "Bjarni"})
    anna = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    anna.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(anna.locator(".sc-board")).to_be_visible()
    return anna, anna.locator(".table-chat .chat-input")


def test_a_line_written_too_fast_comes_back_to_the_box(
        browser: Browser, web_server: LiveServer) -> None:
    """A seat may write five lines in five seconds: the sixth is refused, and it was
    erased from the box all the same, to be written again (and of two refused at once,
    only the last came back)."""
    anna, box = anna_at_the_table(browser, web_server)
    for n in range(1, 6):  # (quickly: all five within the five seconds)
        say(anna, f"Line {n}")
    say(anna, "One line too many,")
    # Typed as a person types, after whatever came back meanwhile: both come back.
    box.press("End")
    box.press_sequentially(" and another")
    box.press("Enter")
    expect(anna.get_by_text(re.compile("Slow down")).first).to_be_visible()
    # The refusal stands clear of the box one types in (it lay over it).
    toast = anna.locator(".toast").bounding_box()
    field = box.bounding_box()
    assert toast and field and (toast["y"] + toast["height"] <= field["y"]
                                or toast["y"] >= field["y"] + field["height"]), (toast, field)
    # (In which order depends on when the first refusal arrives.)
    expect(box).to_have_value(re.compile(r"^(?=.*One line too many,)(?=.*and another)"))
    log = anna.locator(".table-chat .chat-log")
    expect(log).to_contain_text("Line 5")
    expect(log).not_to_contain_text("One line too many")


def test_a_line_refused_while_its_writer_types_comes_back_before_the_typing(
        browser: Browser, web_server: LiveServer) -> None:
    """A refusal that arrived while a key was being pressed lost its line: the key's text
    (the box as it was, without the line) was applied after the line had been put back.
    The line comes back before, or around, what is being typed. (The keys race the
    refusal: on the old page one try in six or so lost the line; here two tries.)"""
    anna, box = anna_at_the_table(browser, web_server)
    for attempt in range(2):
        if attempt:
            box.fill("")
            anna.wait_for_timeout(5500)  # the five seconds pass
        for n in range(1, 6):  # (quickly: all five within the five seconds)
            say(anna, f"Line {n}")
        say(anna, "One line too many,")
        box.press_sequentially("x" * 120, delay=2)  # typing while the refusal comes
        expect(box).to_have_value(re.compile(r"^One line too many, ?x{120}$"))


def holding_refusals(page: Page, holding: list[bool]
                     ) -> tuple[list[str], list[WebSocketRoute]]:
    """Route ``page``'s table websocket so that the server's chat refusals
    (``chat_too_fast``) are held back while ``holding[0]`` is true: ``(held, sockets)``,
    the refusals held and the routed sockets, whose last sends one on
    (``sockets[-1].send(held[0])``) at the moment the test chooses."""
    held: list[str] = []
    sockets: list[WebSocketRoute] = []

    def route(socket: WebSocketRoute) -> None:
        sockets.append(socket)
        server = socket.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if holding[0] and isinstance(message, str) and "chat_too_fast" in message:
                held.append(message)
                return
            socket.send(message)

        server.on_message(from_server)

    page.route_web_socket(re.compile(r"/api/tables/.*/ws"), route)
    return held, sockets


def test_words_typed_around_a_refused_line_coming_back_stay_apart(
        browser: Browser, web_server: LiveServer) -> None:
    """The refusal came back while the writer was between two words: the space just
    typed was trimmed away with the rest of the box, and the next word stuck to the last
    ("andanother"); and a line come back to an empty box had nothing after it, so that
    typing on glued the words to it."""
    table, tokens = create_table(web_server, "sequence-cats", {}, ["human", "human"],
                                 {0: "Anna", 1: "Bjarni"})
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    held, sockets = holding_refusals(page, [True])
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator(".sc-board")).to_be_visible()
    box = page.locator(".table-chat .chat-input")
    for n in range(1, 6):  # (quickly: all five within the five seconds)
        say(page, f"Line {n}")
    say(page, "One line too many,")
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline
        page.wait_for_timeout(50)
    box.press_sequentially("and ")
    sockets[-1].send(held[0])
    expect(box).to_have_value("One line too many, and ")
    box.press_sequentially("another")
    expect(box).to_have_value("One line too many, and another")
    # Come back to an empty box, the line ends with a space to type on after (typed on
    # at once, it read "One line too many,and more").
    box.fill("")
    page.wait_for_timeout(5500)  # the five seconds pass
    for n in range(6, 11):
        say(page, f"Line {n}")
    say(page, "Too many,")
    deadline = time.monotonic() + 10
    while len(held) < 2:
        assert time.monotonic() < deadline
        page.wait_for_timeout(50)
    sockets[-1].send(held[1])
    expect(box).to_have_value("Too many, ")
    box.press_sequentially("and more")
    expect(box).to_have_value("Too many, and more")


def test_refused_lines_too_long_for_the_box_together_wait_their_turn(
        browser: Browser, web_server: LiveServer) -> None:
    """Two long lines refused together were joined and cut at the box's 300 characters:
    the end of the second was lost without a word. The first comes back to the box; the
    second waits, and comes into the box once the first is sent."""
    table, tokens = create_table(web_server, "sequence-cats", {}, ["human", "human"],
                                 {0: "Anna", 1: "Bjarni"})
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    # The refusals are held back until both lines are sent: they then arrive together,
    # whatever the timing.
    holding = [True]
    held, sockets = holding_refusals(page, holding)
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator(".sc-board")).to_be_visible()
    box = page.locator(".table-chat .chat-input")
    for n in range(1, 6):  # (quickly: all five within the five seconds)
        say(page, f"Line {n}")
    first = "First " + "a" * 190 + " END-OF-FIRST"
    second = "Second " + "b" * 190 + " END-OF-SECOND"
    say(page, first)
    say(page, second)
    deadline = time.monotonic() + 10
    while len(held) < 2:
        assert time.monotonic() < deadline, held
        page.wait_for_timeout(50)
    holding[0] = False
    for message in held:
        sockets[-1].send(message)
    expect(box).to_have_value(first + " ")  # (a space after it, to type on)
    page.wait_for_timeout(5500)  # the five seconds pass
    assert box.input_value() == first + " "  # (and not a moment's value on the way)
    box.press("Enter")
    expect(box).to_have_value(second + " ")
    box.press("Enter")
    log = page.locator(".table-chat .chat-log")
    expect(log).to_contain_text("END-OF-FIRST")
    expect(log).to_contain_text("END-OF-SECOND")
    expect(box).to_have_value("")


def test_a_table_with_no_one_to_talk_to_shows_no_chat(
        browser: Browser, web_server: LiveServer) -> None:
    """Alone with computer players there is nobody to read it."""
    table, tokens = create_table(web_server, "triominos", {}, ["human", "greedy"],
                                 {0: "Sól"})
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator(".tr-table")).to_be_visible()
    expect(page.locator("details.table-chat")).to_have_count(0)


def test_a_line_stays_its_writers_when_their_seat_changes_hands(
        browser: Browser, web_server: LiveServer) -> None:
    """The chat named a line by whoever holds its seat now: once the host had reopened
    Bjarni's seat and Dora had taken it, everything Bjarni wrote read as hers ("Anna is
    cheating…" under her name). A line keeps the name it was written under."""
    table, tokens, host = create_hosted_table(web_server, "sequence-cats", {},
                                              ["human", "human"], {0: "Anna", 1: "Bjarni"})
    anna = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    anna.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    anna.locator(".sc-card:not([disabled]):not(.dead)").first.click()
    anna.locator('.sc-space[data-target="true"]').first.click()  # the game has begun
    with SeatSocket(web_server, table, tokens[1]) as bjarni:
        bjarni.chat("Anna is cheating, I saw her cards")
    log = anna.locator(".table-chat .chat-log")
    expect(log).to_contain_text("Bjarni")
    with httpx.Client(base_url=web_server.url, timeout=30) as http:
        deadline = time.monotonic() + 15
        while (removed := http.post(f"/api/tables/{table}/seats/1/remove", json={},
                                    headers={"X-Host-Token": host})).status_code == 409:
            assert time.monotonic() < deadline, removed.text  # until he has left
            time.sleep(0.1)
        assert removed.status_code == 200, removed.text
        joined = http.post(f"/api/tables/{table}/join", json={
            "seat": 1, "name": "Dora", "code": removed.json()["seat_code"]})
        assert joined.status_code == 200, joined.text
    expect(anna.locator(".sc-players")).to_contain_text("Dora")
    line = log.locator(".chat-message", has_text="I saw her cards")
    expect(line).to_contain_text("Bjarni")
    expect(line).not_to_contain_text("Dora")


def test_a_line_from_before_the_game_is_not_the_next_person_s_in_the_seat(
        browser: Browser, web_server: LiveServer) -> None:
    """In the waiting room Bjarni says hello and leaves; Dora takes his seat, and Eli
    the last one. Once the game began, Bjarni's line showed on Dora's page as hers,
    tagged "you" (no move had been made: the line's action count could not tell them
    apart). It is Bjarni's."""
    with httpx.Client(base_url=web_server.url, timeout=30) as http:
        created = http.post("/api/tables", json={
            "game": "sequence-cats", "seats": [{"kind": "human"}] * 3, "name": "Anna"})
        assert created.status_code == 201, created.text
        table = created.json()["table"]["id"]
        joined = http.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "Bjarni"})
        assert joined.status_code == 200, joined.text
        with SeatSocket(web_server, table, joined.json()["token"]) as bjarni:
            bjarni.chat("Hello, anyone here?")
        left = http.post(f"/api/tables/{table}/leave",
                         headers={"X-Seat-Token": joined.json()["token"]})
        assert left.status_code == 200, left.text
        dora = http.post(f"/api/tables/{table}/join", json={"seat": 1, "name": "Dora"})
        assert dora.status_code == 200, dora.text
        eli = http.post(f"/api/tables/{table}/join", json={"seat": 2, "name": "Eli"})
        assert eli.status_code == 200, eli.text
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={dora.json()['token']}")
    expect(page.locator(".sc-board")).to_be_visible()
    line = page.locator(".table-chat .chat-message", has_text="Hello, anyone here?")
    expect(line).to_contain_text("Bjarni")
    expect(line.locator(".tag")).to_have_count(0)
    expect(line).not_to_have_class(re.compile(r"\bmine\b"))
    say(page, "Hi, Dora here")
    mine = page.locator(".table-chat .chat-message", has_text="Dora here")
    expect(mine.locator(".tag")).to_have_text("you")


def test_a_lines_time_follows_the_readers_region(
        browser: Browser, web_server: LiveServer) -> None:
    """The page's language is English for the first two, but a reader in Britain reads a
    24-hour time ("15:04") and one in the United States "03:04 PM" (every English reader
    got the latter). A reader in the United States who reads the page in Icelandic reads
    a 24-hour time, as Icelandic writes it: this browser has no time data for Icelandic
    and fell back to its region's "03:04 PM"."""
    table, tokens = create_table(web_server, "sequence-cats", {},
                                 ["human", "human", "human", "human"],
                                 {0: "Anna", 1: "Bjarni", 2: "Dora", 3: "Eyja"})
    pages = []
    for seat, locale in ((0, "en-GB"), (1, "en-US"), (2, "en-US")):
        page = browser.new_context(viewport={"width": 1366, "height": 768},
                                   locale=locale).new_page()
        if seat == 2:
            page.add_init_script("localStorage.setItem('gametable.lang', 'is')")
        page.goto(f"{web_server.url}/t/{table}#seat={tokens[seat]}")
        expect(page.locator("details.table-chat")).to_have_count(1)
        pages.append(page)
    say(pages[0], "Tea?")
    for page in pages:
        expect(page.locator(".table-chat .chat-time")).to_have_count(1)
    expect(pages[0].locator(".table-chat .chat-time")).to_have_text(
        re.compile(r"^[0-2]\d:[0-5]\d$"))
    expect(pages[1].locator(".table-chat .chat-time")).to_have_text(re.compile(r"[AP]M$"))
    expect(pages[2].locator("html")).to_have_attribute("lang", "is")
    expect(pages[2].locator(".table-chat .chat-time")).to_have_text(
        re.compile(r"^[0-2]\d:[0-5]\d$"))
    for page in pages:
        page.context.close()


def test_on_a_laptop_a_new_line_shows_while_only_the_chats_edge_is_in_sight(
        browser: Browser, web_server: LiveServer) -> None:
    """At 1280 × 800 the chat starts open under the board, its heading inside the
    window's foot and its lines below it: a new line there went unnoticed (the chat
    counted as in sight as soon as any of it was). It shows over the page until the
    chat's foot, where the newest line is, is in sight."""
    table, tokens = create_table(web_server, "sequence-cats", {}, ["human", "human"],
                                 {0: "Anna", 1: "Bjarni"})
    pages = []
    for seat in (0, 1):
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        page.goto(f"{web_server.url}/t/{table}#seat={tokens[seat]}")
        expect(page.locator(".sc-board")).to_be_visible()
        pages.append(page)
    anna, bjarni = pages
    assert is_open(bjarni)
    fold = bjarni.locator("details.table-chat").bounding_box()
    line = bjarni.locator(".table-chat .chat-form").bounding_box()
    assert fold is not None and line is not None and fold["y"] < 800 < line["y"], (fold, line)
    say(anna, "Hi Bjarni! Good luck")
    toast = bjarni.locator(".chat-toast")
    expect(toast).to_contain_text("Anna: Hi Bjarni! Good luck")
    toast.click()
    expect(bjarni.locator(".table-chat .chat-log")).to_be_in_viewport()
    # Once the chat is in sight, a new line needs no notice over the page.
    say(anna, "Your turn")
    expect(bjarni.locator(".table-chat .chat-log")).to_contain_text("Your turn")
    expect(toast).to_have_count(0)


# Where the text "12" lies on the screen in the line, and where the writer's name ends.
NUMBER_AND_NAME = """element => {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf("12");
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 2);
    const name = element.querySelector("strong").getBoundingClientRect();
    return [range.getBoundingClientRect().left, name.left, name.right];
  }
  return null;
}"""


def test_a_right_to_left_name_leaves_the_line_after_it_in_its_order(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    # Sarah writes her name in Hebrew. Set into "שרה: 12 points to me" without isolation,
    # the bidirectional algorithm drew the line as "12 :שרה points to me": a name written
    # right to left took the colon and the number beside it along. Her name is held apart
    # (a first-strong isolate), and so is what she writes.
    table, tokens = create_table(web_server, "sequence-cats", {}, ["human", "human"],
                                 {0: "Anna", 1: "שרה"})
    anna = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                               device_scale_factor=2).new_page()
    anna.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    sarah = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    sarah.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    for page in (anna, sarah):
        expect(page.locator(".sc-board")).to_be_visible()
    say(sarah, "12 points to me")
    toast = anna.locator(".chat-toast")
    expect(toast).to_contain_text("12 points to me")
    places = toast.evaluate(NUMBER_AND_NAME)
    assert places is not None
    number, _, name_right = places
    assert number >= name_right - 1, places
    # Anna's own line reads left to right, as typed: nothing is added to it.
    toast.click()
    say(anna, "Anna 12")
    expect(sarah.locator(".table-chat .chat-log")).to_contain_text("Anna 12")
    anna.screenshot(path=str(shots / "table-chat-right-to-left-name.png"))


def test_a_reader_hides_a_players_messages_and_shows_them_again(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """The host's only answer to abusive chat was to remove the person, whose lines
    stayed and popped up over everyone's page. Each reader may hide a person's messages:
    they leave the log, pop up no more and count as nothing new, after a reload too;
    their writer, and the others, still see them; "Show them" brings them back."""
    table, tokens = create_table(web_server, "sequence-cats", {},
                                 ["human", "human", "human"], {0: "Anna", 1: "Bjarni", 2: "Cai"})
    anna = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    anna.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(anna.locator(".sc-board")).to_be_visible()
    with SeatSocket(web_server, table, tokens[1]) as bjarni, \
            SeatSocket(web_server, table, tokens[2]) as cai:
        bjarni.chat("YOU ARE ALL IDIOTS")
        cai.chat("Good luck, all")
        expect(anna.locator(".table-chat-unread")).to_have_text("2 new")
        anna.locator("summary[data-action=toggle-chat]").click()
        log = anna.locator(".table-chat .chat-log")
        expect(log).to_contain_text("YOU ARE ALL IDIOTS")
        anna.get_by_label("Hide a player's messages").select_option(label="Bjarni")
        expect(log).not_to_contain_text("YOU ARE ALL IDIOTS")
        expect(log).to_contain_text("Good luck, all")
        expect(anna.locator(".chat-muted")).to_have_text(
            "Messages from Bjarni are hidden. Show them")
        anna.screenshot(path=shots / "table-chat-hidden-writer.png", full_page=True)
        # Folded again: a new line of his neither pops up nor counts; Cai's does.
        anna.locator("summary[data-action=toggle-chat]").click()
        bjarni.chat("spam spam spam")
        cai.chat("Your turn, Anna")
        expect(anna.locator(".chat-toast")).to_contain_text("Your turn, Anna")
        expect(anna.locator(".table-chat-unread")).to_have_text("1 new")
        assert "spam" not in anna.locator("[data-chat-announcer]").inner_text()
        anna.reload()
        anna.locator("summary[data-action=toggle-chat]").click()
        expect(log).to_contain_text("Your turn, Anna")
        expect(log).not_to_contain_text("spam spam spam")
        # With every line hidden the log is empty, and "No messages yet" would be untrue.
        anna.get_by_label("Hide a player's messages").select_option(label="Cai")
        expect(anna.locator(".chat-muted")).to_have_count(2)
        expect(log).not_to_contain_text("Your turn, Anna")
        expect(anna.locator(".chat-empty")).to_have_count(0)
        anna.get_by_role("button", name="Show them").first.click()
        anna.get_by_role("button", name="Show them").click()
        expect(log).to_contain_text("spam spam spam")
        expect(log).to_contain_text("YOU ARE ALL IDIOTS")
        # Cai's page never hid anything.
        other = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        other.goto(f"{web_server.url}/t/{table}#seat={tokens[2]}")
        expect(other.locator(".table-chat .chat-log")).to_contain_text("spam spam spam")
        other.context.close()
    anna.context.close()
