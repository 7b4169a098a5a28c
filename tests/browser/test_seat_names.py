"""A seat taken without a name has none: each reader's page calls it "Player n" in their
own language (the joining browser's default name was stored, in its language). A long
name without a space stays inside its column, and a long word that fits whole on a
line is not split."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.browser.seats import create_table
from tests.browser.test_rematch import finished_game, people
from tests.browser.test_sequence_cats_browser import stored_table
from tests.browser.text_layout import NAME_LAYOUT
from tests.server.conftest import LiveServer

#: A gamer tag of the longest name a seat takes (40 characters) and no space.
GAMER_TAG = "xXx_DragonSlayer_Destroyer_of_Worlds_xXx"


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


def test_a_friend_puts_a_mistyped_name_right_and_everyone_sees_it(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """Bruno typed "Brnuo": he changes it in the waiting room, and Anna changes hers
    mid-game, each seen at once on the other's page."""
    created = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "sequence-cats", "name": "Anna", "seats": [{"kind": "human"}] * 3}).json()
    table, anna_token, host = created["table"]["id"], created["token"], created["host_token"]
    joined = httpx.post(f"{web_server.url}/api/tables/{table}/join", timeout=30,
                        json={"seat": 1, "name": "Brnuo"}).json()
    anna = browser.new_context(locale="en-GB").new_page()
    anna.goto(f"{web_server.url}/t/{table}#seat={anna_token}")
    bruno = browser.new_context(locale="en-GB").new_page()
    bruno.goto(f"{web_server.url}/t/{table}#seat={joined['token']}")
    expect(anna.locator(".seat-row").nth(1)).to_contain_text("Brnuo")
    # Only one's own seat offers it.
    expect(bruno.locator(".seat-row").nth(0).get_by_role("button", name="Change my name")) \
        .to_have_count(0)
    bruno.locator(".seat-row.mine").get_by_role("button", name="Change my name").click()
    field = bruno.get_by_role("textbox", name="Your name")
    expect(field).to_have_value("Brnuo")
    bruno.screenshot(path=str(shots / "change-name.png"))
    field.fill("Bruno")
    field.press("Enter")
    expect(anna.locator(".seat-row").nth(1)).to_contain_text("Bruno")
    expect(anna.locator(".seat-row").nth(1)).not_to_contain_text("Brnuo")
    expect(bruno.get_by_role("textbox", name="Your name")).to_have_count(0)
    # The keyboard is back on the button (it fell to the page's start).
    expect(bruno.locator(".seat-row.mine").get_by_role("button", name="Change my name")) \
        .to_be_focused()
    # A computer player fills the last seat; mid-game Anna takes another player's name
    # and is told apart from him.
    seated = httpx.post(f"{web_server.url}/api/tables/{table}/seats/2/bot", timeout=30,
                        json={"bot": "easy"}, headers={"X-Host-Token": host})
    assert seated.status_code == 200, seated.text
    expect(anna.locator(".sc-board")).to_be_visible()
    anna.locator(".table-links").get_by_role("button", name="Change my name").click()
    anna.get_by_role("textbox", name="Your name").fill("bruno")
    anna.get_by_role("button", name="Save").click()
    expect(bruno.locator(".sc-player").nth(0)).to_contain_text("bruno (2)")
    assert httpx.get(f"{web_server.url}/api/tables/{table}", timeout=30
                     ).json()["seats"][0]["name"] == "bruno (2)"


def test_a_link_to_another_seat_asks_before_this_browser_changes_seats(
        browser: Browser, web_server: LiveServer) -> None:
    """Opening someone else's "Play on another device" link silently swapped the seat
    this browser holds at the table for theirs (its own seat then went unattended): the
    page stays at its seat and asks; "Take the link's seat" moves it."""
    table, tokens = create_table(web_server, "sequence-cats", {}, ["human", "human"],
                                 {0: "Anna", 1: "Bruno"})
    bruno = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    bruno.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    expect(bruno.locator(".sc-hand")).to_be_visible()
    bruno.goto("about:blank")  # the link opened as a new page would be
    bruno.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    choice = bruno.get_by_role("alert").filter(has_text="another seat")
    expect(choice).to_contain_text("already plays here as Bruno")
    expect(bruno.locator(".sc-player").filter(has_text="you")).to_contain_text("Bruno")
    bruno.get_by_role("button", name="Keep my seat").click()
    expect(choice).to_have_count(0)
    bruno.reload()
    expect(bruno.locator(".sc-hand")).to_be_visible()
    expect(bruno.get_by_role("alert").filter(has_text="another seat")).to_have_count(0)
    bruno.goto("about:blank")
    bruno.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    bruno.get_by_role("button", name="Take the link's seat").click()
    expect(bruno.locator(".sc-player").filter(has_text="you")).to_contain_text("Anna")
    bruno.reload()  # the browser holds Anna's seat now
    expect(bruno.locator(".sc-player").filter(has_text="you")).to_contain_text("Anna")
    bruno.context.close()


def test_a_name_with_an_emoji_keeps_all_forty_characters(
        browser: Browser, web_server: LiveServer) -> None:
    """The name fields' ``maxLength`` counted UTF-16 units, so an emoji took two of the
    40 characters and "… of Reykjavík" lost its last letter, though the server counts
    characters and keeps all 40; the fields now count as the server does."""
    name = "Bea 🌸 the Great Storyteller of Reykjavík"  # 40 characters, 41 units
    created = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "sequence-cats", "name": "Anna", "seats": [{"kind": "human"}] * 2}).json()
    page = browser.new_context(locale="en-GB").new_page()
    page.goto(f"{web_server.url}/t/{created['table']['id']}")
    field = page.locator(".waiting-room input").first
    field.fill(name + "!")
    expect(field).to_have_value(name)
    page.locator(".waiting-room button.primary").first.click()
    expect(page.locator(".sc-board")).to_be_visible()
    seats = httpx.get(f"{web_server.url}/api/tables/{created['table']['id']}",
                      timeout=30).json()["seats"]
    assert seats[1]["name"] == name
    page.close()


@pytest.mark.parametrize(("game", "options", "seats", "stage", "width", "points"), [
    ("triominos", {}, 2, "mid", 1280, ".tr-player-score"),
    ("triominos", {}, 2, "end", 390, ".tr-rank-score"),
    ("dixit", {}, 5, "end", 390, ".dx-rank-score"),
    ("dixit", {"variant": "team", "edition": "IS"}, 6, "end", 390, ".dx-rank-score"),
])
def test_a_forty_letter_name_without_a_space_stays_inside_its_column(
        browser: Browser, tmp_path: Path, game: str, options: dict[str, Any], seats: int,
        stage: str, width: int, points: str) -> None:
    """A 40-letter gamer tag ran over Triominos' tiles, round and score columns (the page
    1,417 px wide in a 1,280 px window) and pushed Dixit's final ranking, its points too,
    past a phone's edge (573 px in 390): a long word now breaks where it must."""
    steps = finished_game(4, game, seats, options)
    if stage == "mid":
        steps = steps[: len(steps) // 2]
    names = [GAMER_TAG, "Bruno", "Carla", "Dag", "Eva", "Finn"][:seats]
    with stored_table(tmp_path / "data", options, people(names), 4, steps, game=game) as (
            server, table):
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        page.goto(f"{server.url}/t/{table}#seat=Bruno-token")
        expect(page.locator(points).first).to_be_visible()
        page.wait_for_timeout(300)  # the layout settles
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # Every row of scores ends inside the window.
        rights = page.locator(points).evaluate_all(
            "els => els.map(el => el.getBoundingClientRect().right)")
        assert rights and max(rights) <= width, rights
        # The whole name is there to read, as typed.
        assert GAMER_TAG in page.locator("body").inner_text()
        context.close()


@pytest.mark.parametrize(("game", "label"), [("dixit", ".dx-player-name"),
                                             ("triominos", ".tr-player-label")])
def test_a_right_to_left_name_cut_short_keeps_its_first_letters(
        browser: Browser, tmp_path: Path, game: str, label: str) -> None:
    """On a phone the players' strip cuts a long name short with an ellipsis. A Hebrew
    name showed its last letters ("…טיכלמנסעפצקרשת"), so two names ending alike looked
    the same: the name is laid out right to left, and its ellipsis stands at its end."""
    hebrew = "אבגדהוזחטיכלמנסעפצקרשת אבגדהוזחטיכלמנסעפצ"  # 40 letters
    names = ["Anna", hebrew, "Carla", "Dag", "Eva", "Finn"]
    with stored_table(tmp_path / "data", {}, people(names), 4, [], game=game) as (
            server, table):
        context = browser.new_context(viewport={"width": 390, "height": 844},
                                      is_mobile=True, has_touch=True)
        page = context.new_page()
        page.goto(f"{server.url}/t/{table}#seat=Anna-token")
        labels = page.locator(label)  # (Dixit: the name and its tags)
        expect(labels).to_have_count(6)
        directions = labels.evaluate_all(
            "els => els.map(el => [el.textContent, el.matches(':dir(rtl)'),"
            " el.scrollWidth > el.clientWidth])")
        by_name = {text.strip("\u2068\u2069").replace("\u200b", ""): (rtl, cut)
                   for text, rtl, cut in directions}
        assert by_name[hebrew] == (True, True), directions  # cut short, right to left
        assert not any(rtl for name, (rtl, _) in by_name.items() if name != hebrew)
        context.close()


def test_the_name_field_says_it_keeps_forty_characters_and_a_blank_name_is_none(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """A name typed past 40 characters was cut with no word said; a name of a blank
    letter only (the Hangul filler) hid the hint "Without a name, the others see you as
    Player 2", though the server keeps it as no name."""
    created = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "sequence-cats", "name": "Anna", "seats": [{"kind": "human"}] * 2}).json()
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{web_server.url}/t/{created['table']['id']}")
    field = page.get_by_label("Your name")
    hint = page.locator("[data-help=no-name]")
    expect(hint).to_contain_text("Player 2")
    field.fill("\u3164")
    expect(hint).to_contain_text("Player 2")
    field.fill("Maximilian Alexander von Hohenzollern-Sigmaringen III")
    expect(field).to_have_value("Maximilian Alexander von Hohenzollern-Si")
    expect(page.locator("[data-help=name-limit]")).to_have_text(
        "A name has at most 40 characters.")
    expect(hint).to_have_count(0)
    field.fill("Maximilian")
    expect(page.locator("[data-help=name-limit]")).to_have_count(0)
    page.screenshot(path=shots / "name-field-limit.png")
    page.context.close()


#: Twelve names of an Icelandic table, with long patronymics, and a gamer tag.
ICELANDIC = ["Sigurbjörg Hallgrímsdóttir", GAMER_TAG, "Anna-Katrín Þórhallsdóttir",
             "Guðmundur Sigurðsson", "Margrét Ólafsdóttir Hansen",
             "Kristjánsdóttir Guðmundsdóttir", "Jón", "Þorgerður Brynjólfsdóttir",
             "Aðalsteinn Hrafnkelsson", "Ingibjörg Sólrún Gísladóttir", "Bjarni",
             "Vilhjálmur Vilhjálmsson"]


@pytest.mark.parametrize(("game", "options", "seats", "stage", "where", "size"), [
    ("dixit", {}, 12, "mid", "#seat=Bjarni-token", (1920, 1080)),
    ("dixit", {}, 12, "mid", "#seat=Bjarni-token", (390, 844)),
    ("dixit", {}, 12, "end", "#seat=Bjarni-token", (1366, 768)),
    ("dixit", {}, 12, "end", "#seat=Bjarni-token", (390, 844)),
    ("dixit", {}, 12, "mid", "/screen", (1920, 1080)),
    ("dixit", {}, 12, "end", "/screen", (1280, 720)),
    ("dixit", {"variant": "team", "edition": "IS"}, 8, "end", "#seat=Bjarni-token",
     (390, 844)),
    ("triominos", {}, 4, "mid", "#seat=Jón-token", (1366, 768)),
    ("sequence-cats", {}, 4, "end", "#seat=Jón-token", (1366, 768)),
])
def test_long_names_break_between_words_and_stay_inside_their_boxes(
        browser: Browser, tmp_path: Path, game: str, options: dict[str, Any], seats: int,
        stage: str, where: str, size: tuple[int, int]) -> None:
    """A zero-width space every 7 letters of a long word broke "Sigurbjörg
    Hallgrímsdóttir" as "Sigurbjörg Hallgrí / msdóttir" in the player list although
    "Hallgrímsdóttir" fitted whole on the next line, and went with the name into its
    tooltip and a copy. A name now breaks between its words first, inside a word only
    where the word alone is too long for its box (the gamer tag), and no name runs out
    of its box or widens the page: in the player list, the reveal's owners and voters,
    the history, the end ranking, Team Dixit's teams, the big screen, Triominos and
    Sequence Cats."""
    steps = finished_game(4, game, seats, options)
    if stage == "mid":
        steps = steps[: len(steps) // 2]
    names = ICELANDIC if seats == 12 else [*ICELANDIC[:seats - 2], "Jón", "Bjarni"]
    with stored_table(tmp_path / "data", options, people(names), 4, steps, game=game) as (
            server, table):
        width, height = size
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        page.goto(f"{server.url}/t/{table}{where}")
        expect(page.locator(".dx-table, .tr-table, .sc-table").first).to_be_visible()
        earlier = page.get_by_role("button", name="Previous round")
        if stage == "mid" and game == "dixit" and where.startswith("#"):
            earlier.first.click()  # the last round's reveal: its owners and voters
            expect(page.locator(".dx-reveal")).to_be_visible()
        page.wait_for_timeout(300)  # the layout settles
        layout = page.evaluate(NAME_LAYOUT, names)
        assert layout["zero_width"] == []
        assert layout["needless"] == []
        assert layout["overflow"] == []
        assert layout["scroll_width"] <= width
        page.context.close()


def test_a_levels_player_by_its_own_name_reads_as_that_level_at_the_table(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """Sequence Cats' Simulator is its Hard (and Greedy its Medium): a table of
    "Computer 4 · Hard" and "Simulator 3" looked like two opponents. The seat chosen by
    name says its level in the waiting room and at the table ("Simulator 3 · Hard",
    tagged Hard beside the board as "Computer 4" is), and its level menu tells a screen
    reader which level it is."""
    from tests.browser.test_host_controls import open_as_host  # noqa: PLC0415

    created = httpx.post(f"{web_server.url}/api/tables", timeout=30, json={
        "game": "sequence-cats", "name": "Anna", "seats": [
            {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "rollout"},
            {"kind": "bot", "bot": "hard"}]}).json()
    anna = browser.new_context(viewport={"width": 1280, "height": 900},
                               locale="en-GB").new_page()
    open_as_host(anna, web_server, created)
    rows = anna.locator(".waiting-room .seat-row")
    expect(rows.nth(2).locator(".seat-name")).to_have_text("Simulator 3 · Hard")
    expect(rows.nth(3).locator(".seat-name")).to_have_text("Computer 4 · Hard")
    chosen = rows.nth(2).locator("select option:checked")
    expect(chosen).to_have_text("Simulator")
    expect(chosen).to_have_attribute(
        "aria-label", "Simulator, the same player as Computer player (Hard)")
    anna.screenshot(path=str(shots / "twin-waiting-room.png"))
    table = created["table"]["id"]
    httpx.post(f"{web_server.url}/api/tables/{table}/join", timeout=30,
               json={"seat": 1, "name": "Bea"})
    players = anna.locator(".sc-player")
    expect(players.nth(2).locator(".sc-level")).to_have_text("· Hard")
    expect(players.nth(3).locator(".sc-level")).to_have_text("· Hard")
    expect(players.nth(2)).to_contain_text("Simulator 3")
    # (a computer player all the same, which "Simulator" alone does not say)
    expect(players.nth(2)).to_contain_text("computer")
    anna.screenshot(path=str(shots / "twin-table.png"))
    icelandic = browser.new_context(locale="is").new_page()
    icelandic.add_init_script("localStorage.setItem('gametable.lang', 'is');")
    icelandic.goto(f"{web_server.url}/t/{table}")
    expect(icelandic.locator(".sc-player").nth(2).locator(".sc-level")).to_have_text("· Erfið")
