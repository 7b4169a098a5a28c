"""A deck of one's own, uploaded from the lobby: chosen, described, uploaded, selected."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import wait_for
from tests.browser.seats import SeatSocket
from tests.browser.test_big_screen import say_clue
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser


def pictures(folder: Path, count: int) -> list[Path]:
    paths = []
    for n in range(count):
        path = folder / f"holiday-{n + 1}.png"
        image = Image.new("RGB", (300 + 40 * n, 450), (40 + 60 * n, 120, 200 - 50 * n))
        image.paste((250, 220, 90), (20, 20, 150, 150))
        image.save(path, "PNG")
        paths.append(path)
    return paths


def upload_garden(server: LiveServer, folder: Path, count: int) -> tuple[str, str]:
    """A deck "Garden" of ``count`` pictures uploaded through the API: its id and key."""
    files = [("files", (path.name, path.read_bytes(), "image/png"))
             for path in pictures(folder, count)]
    made = httpx.post(f"{server.url}/api/decks", data={"name": "Garden"}, files=files,
                      timeout=60)
    assert made.status_code == 201, made.text
    return made.json()["deck"]["id"], made.json()["key"]


def open_dixit_lobby(page: Page, server: LiveServer) -> None:
    page.goto(server.url)
    games = httpx.get(f"{server.url}/api/games").json()["games"]
    if not any(game["name"] == "dixit" for game in games):
        pytest.fail("the Dixit game is not registered: the deck field is one of its options")
    page.locator(".game-card", has_text="Dixit").click()
    expect(page.locator("select[name=deck]")).to_be_visible()


def test_upload_a_deck_from_the_lobby_and_see_it_selected(
        browser: Browser, web_server: LiveServer, shots: Path, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.add_init_script("localStorage.setItem('gametable.lang', 'en')")
    open_dixit_lobby(page, web_server)
    picker = page.locator("select[name=deck]")
    page.locator(".deck-picker").screenshot(path=str(shots / "deck-picker.png"))

    # A file that only pretends to be a picture is refused, naming the file.
    fake = tmp_path / "not-really.png"
    Image.new("RGB", (20, 20)).save(fake, "GIF")
    page.click('[data-action="upload-deck"]')
    dialog = page.locator("dialog.deck-upload")
    expect(dialog).to_be_visible()
    dialog.locator("input[name=deck-name]").fill("Beach pictures")
    # A file that is no picture by its name is refused as it is chosen, before any upload.
    notes = tmp_path / "notes.txt"
    notes.write_text("not a picture")
    dialog.locator("input[type=file]").set_input_files([str(notes)])
    expect(dialog.get_by_role("alert")).to_contain_text(
        "notes.txt is not a PNG, JPEG or WebP picture")
    expect(dialog.locator("button[type=submit]")).to_be_disabled()
    # Several such files are named at once, not one per attempt; nothing was sent yet,
    # so nothing is said to have failed to save (it said "so nothing was saved").
    memo = tmp_path / "memo.pdf"
    memo.write_bytes(b"%PDF-1.4")
    dialog.locator("input[type=file]").set_input_files([str(notes), str(memo)])
    expect(dialog.get_by_role("alert")).to_have_text(
        "2 of the chosen files cannot be used: notes.txt is not a PNG, JPEG or WebP "
        "picture. memo.pdf is not a PNG, JPEG or WebP picture. Remove or replace them "
        "before uploading.")
    # A picture by its name that is none inside (a GIF renamed ".png") is refused as it
    # is chosen too, by its first bytes: it was refused only after the whole upload.
    good = pictures(tmp_path, 1)[0]
    dialog.locator("input[type=file]").set_input_files([str(good), str(fake)])
    expect(dialog.get_by_role("alert")).to_have_text(
        "not-really.png is not a PNG, JPEG or WebP picture.")
    expect(dialog.locator("button[type=submit]")).to_be_disabled()
    expect(dialog.locator('.deck-upload-picture[data-not-picture="true"]')).to_have_count(1)
    dialog.get_by_role("button", name="Remove picture 2").click()
    expect(dialog.get_by_role("alert")).to_have_count(0)
    expect(dialog.locator("button[type=submit]")).to_be_enabled()
    # The server names every bad picture it finds too (damaged inside).
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0 half a picture")
    cut = tmp_path / "cut.png"
    cut.write_bytes(good.read_bytes()[:60])
    dialog.locator("input[type=file]").set_input_files([str(broken), str(good), str(cut)])
    expect(dialog.get_by_role("alert")).to_have_count(0)
    dialog.locator("button[type=submit]").click()
    expect(dialog.get_by_role("alert")).to_contain_text("2 of the pictures cannot be used")
    expect(dialog.get_by_role("alert")).to_contain_text("broken.jpg is damaged")
    expect(dialog.get_by_role("alert")).to_contain_text("cut.png is damaged")
    page.screenshot(path=str(shots / "deck-upload-refused-several.png"))
    page.screenshot(path=str(shots / "deck-upload-refused.png"))

    # A zip says its size as people read it ("0.0 MB" for 24 KB before).
    archive = tmp_path / "beach.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        for picture_file in pictures(tmp_path, 2):
            bundle.write(picture_file, picture_file.name)
    dialog.locator("input[type=file]").set_input_files([str(archive)])
    expect(dialog).to_contain_text(re.compile(r"beach\.zip \(\d+ KB\): the pictures in the zip"))
    expect(dialog.locator("[data-notice=too-few-pictures]")).to_have_count(0)  # counted later

    # A picture too small to look sharp is pointed out, not refused.
    tiny = tmp_path / "tiny.png"
    Image.new("RGB", (60, 90), (200, 40, 40)).save(tiny, "PNG")
    dialog.locator("input[type=file]").set_input_files([str(tiny)])
    expect(dialog.locator("[data-notice=small-pictures]")).to_have_text(
        "tiny.png is small (under 400 pixels on its long side): its card will look "
        "blurred when enlarged. A larger picture looks sharp.")
    expect(dialog.locator("button[type=submit]")).to_be_enabled()

    # Three real pictures, the first described: too few for any table, which the
    # dialog says before the upload (only the lobby said so, after it).
    files = pictures(tmp_path, 3)
    dialog.locator("input[type=file]").set_input_files([str(p) for p in files])
    expect(dialog.locator(".deck-upload-picture")).to_have_count(3)
    expect(dialog.locator("[data-notice=too-few-pictures]")).to_have_text(
        "3 pictures are too few for a game: the smallest table (three players) needs 26 "
        "cards, six players 42.")
    expect(dialog.get_by_role("alert")).to_have_count(0)
    expect(dialog.locator("[data-notice=small-pictures]")).to_have_count(0)
    language = dialog.get_by_label("The descriptions are written in")
    expect(language).to_have_count(0)  # asked once there is a description
    dialog.get_by_label("Description of picture 1 (optional)").fill("A yellow sun")
    expect(language).to_have_value("en")  # the page's language
    language.select_option("pt")
    language.select_option("en")
    wait_for(page,
        "[...document.querySelectorAll('.deck-upload-picture img')].every(i => i.complete "
        "&& i.naturalWidth > 0)")
    page.screenshot(path=str(shots / "deck-upload-dialog.png"))
    dialog.locator("button[type=submit]").click()
    expect(dialog).to_be_hidden()

    keys = json.loads(page.evaluate("localStorage.getItem('gametable.deckKeys')"))
    ((deck_id, key),) = keys.items()
    expect(picker).to_have_value(deck_id)
    expect(picker.locator("option:checked")).to_have_text("Beach pictures (yours, 3 cards)")
    page.locator(".new-table").screenshot(path=str(shots / "deck-selected.png"))

    # The server has the deck with its description, for the owner key only.
    manifest = httpx.get(f"{web_server.url}/api/decks/{deck_id}",
                         headers={"X-Deck-Key": key}).json()
    assert [c["description"] for c in manifest["cards"]] == ["A yellow sun", None, None]
    assert manifest["language"] == "en"
    assert httpx.get(f"{web_server.url}/api/decks/{deck_id}").status_code == 404

    # After a reload the deck is still offered (its key is kept in this browser).
    page.reload()
    page.locator(".game-card", has_text="Dixit").click()
    expect(page.locator("select[name=deck] option", has_text="Beach pictures")).to_have_count(1)
    page.close()


def test_a_small_picture_far_down_the_list_and_a_reversed_name_are_told_at_once(
    browser: Browser, web_server: LiveServer, tmp_path: Path
) -> None:
    """A picture was measured when its thumbnail loaded, and thumbnails load as they
    scroll into view: a small one at the end of 31 was never pointed out to someone who
    named the deck and pressed Upload. A file name holding a right-to-left override
    ("\u202egnp.exe", shown "exe.png") turned the whole message around it backwards."""
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.add_init_script("localStorage.setItem('gametable.lang', 'en')")
    open_dixit_lobby(page, web_server)
    page.click('[data-action="upload-deck"]')
    dialog = page.locator("dialog.deck-upload")
    tiny = tmp_path / "tiny.png"
    Image.new("RGB", (200, 300), (200, 40, 40)).save(tiny, "PNG")
    chosen = [str(p) for p in pictures(tmp_path, 30)] + [str(tiny)]
    dialog.locator("input[type=file]").set_input_files(chosen)
    expect(dialog.locator(".deck-upload-picture")).to_have_count(31)
    assert not dialog.locator(".deck-upload-picture").last.evaluate(
        "e => e.getBoundingClientRect().top < innerHeight"), "the last is out of sight"
    expect(dialog.locator("[data-notice=small-pictures]")).to_contain_text("tiny.png is small")

    spoof = tmp_path / "\u202egnp.exe"
    Image.new("RGB", (20, 20)).save(spoof, "PNG")
    dialog.locator("input[type=file]").set_input_files([str(spoof)])
    alert = dialog.get_by_role("alert")
    expect(alert).to_have_text("gnp.exe is not a PNG, JPEG or WebP picture.")
    # A zip's name too: the line about it read backwards ("…:(BK 1) piz.live.zip").
    zipped = tmp_path / "\u202epiz.evil.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.write(pictures(tmp_path, 1)[0], "a.png")
    dialog.locator("input[type=file]").set_input_files([str(zipped)])
    expect(dialog.locator(".deck-upload-zip")).to_have_text(
        re.compile(r"^piz\.evil\.zip \(.*\): the pictures in the zip become the cards"))


def test_a_table_with_an_uploaded_deck_shows_its_pictures_by_pass_not_by_seat_token(
        browser: Browser, web_server: LiveServer, shots: Path, tmp_path: Path) -> None:
    # A deck of 26 pictures (the fewest for three players), uploaded from this browser.
    deck_id, key = upload_garden(web_server, tmp_path, 26)
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    keys = json.dumps({deck_id: key})
    page.add_init_script("localStorage.setItem('gametable.lang', 'en'); "
                         f"localStorage.setItem('gametable.deckKeys', '{keys}')")
    open_dixit_lobby(page, web_server)
    page.fill("input[autocomplete=nickname]", "Anna")
    counts = page.get_by_role("group", name="Players").get_by_role("button")
    counts.get_by_text("3", exact=True).click()
    expect(page.locator(".seat-plan li")).to_have_count(3)
    for index in (2, 3):
        page.select_option(f".seat-plan li:nth-child({index}) select", "bot:random")
    page.locator("select[name=deck]").select_option(deck_id)
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/*")

    hand = page.locator(".dx-hand-card img")
    expect(hand).to_have_count(7)  # three players hold seven cards (DX-3P-1)
    wait_for(page,
        "[...document.querySelectorAll('.dx-hand-card img')].every(i => i.complete "
        "&& i.naturalWidth > 0)")
    page.screenshot(path=str(shots / "deck-uploaded-at-table.png"))
    table = page.url.rstrip("/").split("/t/")[1]
    token = json.loads(page.evaluate(f"localStorage.getItem('gametable.seat.{table}')"))["token"]
    addresses = page.evaluate("[...document.querySelectorAll('img')].map(i => i.src)")
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.reload()
    expect(hand).to_have_count(7)
    wait_for(page,
        "[...document.querySelectorAll('.dx-hand-card img')].every(i => i.complete "
        "&& i.naturalWidth > 0)")
    card_addresses = [a for a in addresses if f"/api/decks/{deck_id}/cards/" in a]
    assert len(card_addresses) == 7
    for address in card_addresses + requested:
        assert token not in address and key not in address, address
    assert all("sig=" in a and f"table={table}" in a for a in card_addresses)

    # The deck is in use: deleting it is refused, and the refusal goes once another
    # deck is chosen (it stayed under a deck uploaded or chosen since).
    open_dixit_lobby(page, web_server)
    picker = page.locator("select[name=deck]")
    picker.select_option(deck_id)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Delete this deck").click()
    refusal = page.locator(".deck-picker").get_by_text("is in use")
    expect(refusal).to_be_visible()
    picker.select_option(index=0)
    expect(refusal).to_have_count(0)
    page.close()


def enlarge_a_card(browser: Browser, server: LiveServer, files: list[Any],
                   form: dict[str, str]) -> Page:
    """A deck uploaded through the API from ``files`` and ``form`` (its name, perhaps
    its descriptions), a table of three with it, and its first seat's page (holding the
    deck's key) with the first card of the hand enlarged."""
    made = httpx.post(f"{server.url}/api/decks", data=form, files=files, timeout=60)
    assert made.status_code == 201, made.text
    deck_id, key = made.json()["deck"]["id"], made.json()["key"]
    table = httpx.post(f"{server.url}/api/tables", headers={"X-Deck-Key": key}, json={
        "game": "dixit", "name": "Anna", "config": {"deck": deck_id},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                  {"kind": "bot", "bot": "random"}]}).json()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.add_init_script("localStorage.setItem('gametable.lang', 'en'); "
                         f"localStorage.setItem('gametable.deckKeys', "
                         f"'{json.dumps({deck_id: key})}')")
    page.goto(f"{server.url}/t/{table['table']['id']}#seat={table['token']}")
    page.locator(".dx-hand-card .dx-card-button").first.click()
    return page


def test_a_wide_picture_shows_whole_when_its_card_is_enlarged(
        browser: Browser, web_server: LiveServer, shots: Path, tmp_path: Path) -> None:
    """An uploaded deck's wide pictures (holiday photos) were cropped to the cards'
    upright frame everywhere, the enlarged card too: a detail the storyteller spoke of
    could be out of sight for everyone else. Enlarged, a picture now shows whole."""
    files = []
    for n in range(26):
        image = Image.new("RGB", (900, 600), (200, 200, 200 - n))  # each its own
        image.paste((200, 30, 30), (0, 0, 60, 600))  # a red band at the left edge
        image.paste((30, 30, 200), (840, 0, 900, 600))  # a blue one at the right
        path = tmp_path / f"wide-{n}.png"
        image.save(path, "PNG")
        files.append(("files", (path.name, path.read_bytes(), "image/png")))
    page = enlarge_a_card(browser, web_server, files, {"name": "Wide"})
    picture = page.get_by_role("dialog").locator(".dx-zoom-card img")
    wait_for(page, "(() => { const i = document.querySelector('.dx-zoom-card img'); "
                   "return i && i.complete && i.naturalWidth > 0; })()")
    shown = picture.evaluate("i => [i.clientWidth, i.clientHeight, i.naturalWidth, "
                             "i.naturalHeight, getComputedStyle(i).objectFit]")
    width, height, natural_width, natural_height, fit = shown
    assert fit == "contain"
    assert abs(width / height - natural_width / natural_height) < 0.03, shown  # whole
    page.screenshot(path=str(shots / "deck-wide-picture-enlarged.png"))


def test_a_long_word_in_a_description_wraps_inside_the_enlarged_card(
        browser: Browser, web_server: LiveServer, shots: Path, tmp_path: Path) -> None:
    """An uploaded deck's description of one long word (or an address) ran on one line
    past both edges of the enlarged card's dialog, for every player who opened it."""
    files = [("files", (path.name, path.read_bytes(), "image/png"))
             for path in pictures(tmp_path, 26)]
    words = ["W" * 400, "https://example.com/" + "x" * 300] * 13
    page = enlarge_a_card(browser, web_server, files,
                          {"name": "Long words", "descriptions": json.dumps(words)})
    description = page.get_by_role("dialog").locator(".dx-zoom-description")
    expect(description).to_contain_text(re.compile("WWWW|xxxx"))
    edges = description.evaluate(
        "p => { const d = p.closest('[role=dialog]').getBoundingClientRect(); "
        "const r = p.getBoundingClientRect(); "
        "return [r.left - d.left, d.right - r.right, p.scrollWidth - p.clientWidth, "
        "document.documentElement.scrollWidth - innerWidth]; }")
    assert min(edges[:2]) >= 0 and max(edges[2:]) <= 0, edges
    page.screenshot(path=str(shots / "deck-long-word-enlarged.png"))


def test_the_big_screen_shows_an_uploaded_decks_cards(
        browser: Browser, web_server: LiveServer, shots: Path, tmp_path: Path) -> None:
    """The big screen (a browser with neither the deck's key nor a seat) showed the cards
    of a table playing with an uploaded deck as blank tiles, their pictures answering
    404: someone watching gets the players' picture pass while the host lets people
    watch."""
    deck_id, key = upload_garden(web_server, tmp_path, 30)
    created = httpx.post(f"{web_server.url}/api/tables", headers={"X-Deck-Key": key}, json={
        "game": "dixit", "name": "Anna",
        "config": {"deck": deck_id, "first_storyteller": "first_seat"},
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3}, timeout=30)
    assert created.status_code == 201, created.text
    table = created.json()["table"]["id"]
    screen = browser.new_page(viewport={"width": 1920, "height": 1080})
    screen.goto(f"{web_server.url}/t/{table}/screen")
    with SeatSocket(web_server, table, created.json()["token"]) as anna:
        say_clue(anna, "A garden path")
        cards = screen.locator(".dx-table img")
        expect(cards).to_have_count(4)  # the vote: the table's cards face up
        # The pictures shown (the computer players may have moved on to the reveal and
        # the next round meanwhile: the closed history's thumbnails load lazily, once
        # opened, and are left out).
        wait_for(screen, "[...document.querySelectorAll('.dx-table img')].filter(i => "
                         "!i.closest('.dx-history-card')).every(i => "
                         "i.complete && i.naturalWidth > 0)")
    screen.screenshot(path=str(shots / "deck-uploaded-big-screen.png"))
    screen.close()


def test_the_file_choosers_speak_the_pages_language(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """A Portuguese page on an English browser showed the browser's own "Choose File / No
    file chosen" beside "Abrir um registo de jogo (.json)" and in the deck upload. The
    choosers say it in the page's language, and a click on them opens the chooser."""
    page = browser.new_context(locale="en-GB", viewport={"width": 1100, "height": 900}
                               ).new_page()
    page.add_init_script("localStorage.setItem('gametable.lang', 'pt')")
    open_dixit_lobby(page, web_server)
    record = page.locator(".record-file")
    expect(record.locator(".file-picker-face")).to_have_text("Escolher um ficheiro…")
    with page.expect_file_chooser() as chosen:
        record.locator(".file-picker").click()  # where the face is
    assert not chosen.value.is_multiple()
    record.screenshot(path=str(shots / "record-file-pt.png"))

    page.click('[data-action="upload-deck"]')
    dialog = page.locator("dialog.deck-upload")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".file-picker-face")).to_have_text("Escolher ficheiros…")
    with page.expect_file_chooser() as chosen:
        dialog.locator(".file-picker").click()
    assert chosen.value.is_multiple()
    # Named for a screen reader by its field's label, and reached by the keyboard.
    files = dialog.get_by_label("Imagens ou um ficheiro zip")
    expect(files).to_have_attribute("type", "file")
    dialog.screenshot(path=str(shots / "deck-upload-pt.png"))


def test_a_dismissed_file_chooser_keeps_the_deck_being_made(
        browser: Browser, web_server: LiveServer, tmp_path: Path) -> None:
    """Dismissing the file chooser (or choosing the same files again) sends the file
    input a "cancel" that bubbles up to the dialog: it closed, and the name, pictures
    and descriptions typed were gone. Only Escape on the dialog itself closes it."""
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.add_init_script("localStorage.setItem('gametable.lang', 'en')")
    open_dixit_lobby(page, web_server)
    page.click('[data-action="upload-deck"]')
    dialog = page.locator("dialog.deck-upload")
    dialog.locator("input[name=deck-name]").fill("Beach pictures")
    dialog.locator("input[type=file]").set_input_files([str(p) for p in pictures(tmp_path, 3)])
    dialog.get_by_label("Description of picture 1 (optional)").fill("A yellow sun")
    dialog.locator("input[type=file]").dispatch_event("cancel", {"bubbles": True})
    expect(dialog).to_be_visible()
    expect(dialog.locator("input[name=deck-name]")).to_have_value("Beach pictures")
    expect(dialog.locator(".deck-upload-picture")).to_have_count(3)
    expect(dialog.get_by_label("Description of picture 1 (optional)")).to_have_value(
        "A yellow sun")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.close()


def test_a_deck_in_use_cannot_be_deleted_and_the_refusal_links_its_table(
        browser: Browser, web_server: LiveServer, shots: Path, tmp_path: Path) -> None:
    deck_id, key = upload_garden(web_server, tmp_path, 26)  # 3 players (DX-DECK-2)
    made = httpx.post(f"{web_server.url}/api/tables", json={
        "game": "dixit", "config": {"deck": deck_id}, "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                  {"kind": "bot", "bot": "random"}]}, headers={"X-Deck-Key": key})
    assert made.status_code == 201, made.text
    table = made.json()["table"]["id"]
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    keys = json.dumps({deck_id: key})
    page.add_init_script("localStorage.setItem('gametable.lang', 'en');"
                         f"localStorage.setItem('gametable.deckKeys', '{keys}')")
    open_dixit_lobby(page, web_server)
    page.locator("select[name=deck]").select_option(deck_id)
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".deck-picker-delete").click()
    alert = page.locator(".deck-picker [role=alert]")
    expect(alert).to_contain_text('The deck "Garden" is in use at a table whose game is not '
                                  "over. End that game (its host can, at the table)")
    link = alert.get_by_role("link", name=table)
    expect(link).to_have_attribute("href", f"/t/{table}")
    page.locator(".deck-picker").screenshot(path=str(shots / "deck-in-use.png"))
    link.click()
    page.wait_for_url(f"**/t/{table}")
    page.close()
