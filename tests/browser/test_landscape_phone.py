"""A phone held sideways (844 × 390): the board and one's hand both in sight, without
scrolling (the hand was below the window's edge, the board's last row too)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, FloatRect, Locator, Page, ViewportSize, expect

from gametable.core import registry
from gametable.core.i18n import translate
from gametable.games.triominos import TRIOMINOS
from gametable.server.storage import SeatRow, token_hash
from gametable.simulate import play_bot_game
from tests.browser.seats import create_table
from tests.browser.test_rematch import finished_game, people
from tests.browser.test_sequence_cats_browser import stored_table
from tests.browser.test_triominos_browser import act, enabled, place_a_tile
from tests.browser.test_triominos_browser import stored_table as stored_triominos
from tests.browser.text_layout import broken_words
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser

SIDEWAYS: ViewportSize = {"width": 844, "height": 390}


def sideways_page(browser: Browser, server: LiveServer, table: str, token: str) -> Page:
    context = browser.new_context(viewport={"width": 844, "height": 390}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2, locale="en-GB")
    page = context.new_page()
    page.goto(f"{server.url}/t/{table}#seat={token}")
    return page


def in_sight(locator: Locator) -> None:
    """The element is wholly inside the window, the page unscrolled."""
    box = locator.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= SIDEWAYS["height"] + 0.5, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= SIDEWAYS["width"] + 0.5, box


def finger_sized(buttons: Locator, height: float = 40, width: float = 0) -> None:
    """Every one of ``buttons`` is ``height`` px tall at least (2.5rem: Draw and Pass were
    32 px, the hand's cards and "Choose" 35, the view's buttons 38), ``width`` wide."""
    boxes = [button.bounding_box() for button in buttons.all()]
    assert boxes, "no buttons"
    small = [box for box in boxes
             if box is None or box["height"] < height - 0.01 or box["width"] < width - 0.01]
    assert small == [], small


def test_sequence_cats_sideways_shows_the_whole_board_beside_the_hand(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    table, tokens = create_table(web_server, "sequence-cats", {}, ["human", "easy"],
                                 {0: "Anna"})
    page = sideways_page(browser, web_server, table, tokens[0])
    expect(page.locator(".sc-board")).to_be_visible()
    expect(page.locator(".sc-card").first).to_be_visible()
    page.wait_for_timeout(300)  # the board's size follows the measured layout
    assert page.evaluate("window.scrollY") == 0
    in_sight(page.locator(".sc-board-frame"))
    for card in page.locator(".sc-card").all():
        in_sight(card)
    finger_sized(page.locator(".sc-card"))
    # Every space a finger's size (it was 23 × 25 px when the board kept its upright
    # proportions): the board takes the column's width, its spaces wider than tall.
    sizes = page.locator(".sc-space").evaluate_all(
        "spaces => spaces.map(s => [s.getBoundingClientRect().width,"
        " s.getBoundingClientRect().height])")
    assert len(sizes) == 88
    assert min(w for w, _ in sizes) >= 30 and min(h for _, h in sizes) >= 27, sizes[:3]
    page.screenshot(path=str(shots / "sideways-sequence-cats.png"))


# Each of the elements matched, wholly in the window and on top at its middle (not under
# the hand bar at an upright phone's foot): the ones that are not, with their boxes.
OUT_OF_SIGHT = """selector => [...document.querySelectorAll(selector)].filter(element => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return !(box.top >= -0.01 && box.left >= -0.01 && box.bottom <= innerHeight + 0.01
             && box.right <= innerWidth + 0.01 && element.contains(hit));
}).map(element => [element.dataset.space || element.textContent,
                   JSON.stringify(element.getBoundingClientRect())])"""


@pytest.mark.parametrize("size", [(667, 375), (844, 390), (360, 740)],
                         ids=["667x375", "844x390", "360x740"])
def test_sequence_cats_on_a_phone_the_boards_last_row_and_the_hand_are_in_the_window(
        browser: Browser, web_server: LiveServer, shots: Path, size: tuple[int, int]) -> None:
    """Held sideways at 667 × 375 the status line took two lines and the board's last row
    ended 14 px below the window, the hand bar ("Offer a draw" under five cards) 32 px
    below; upright at 360 × 740 the board's last row lay half under the hand bar and the
    fifth card past the window's edge. Every space and every card of the hand is in the
    window, the page unscrolled, and the breeds' names keep their sizes (9 px at least
    held sideways, 6.5 px upright)."""
    width, height = size
    table, tokens = create_table(web_server, "sequence-cats", {}, ["human", "easy"],
                                 {0: "Anna"})
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=True, has_touch=True, device_scale_factor=2,
                                  locale="en-GB")
    page = context.new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    # Anna's turn: the longest status line ("Your turn: choose a card (or a highlighted
    # space).") and "Offer a draw".
    expect(page.locator('.sc-status[data-my-turn="true"]')).to_be_visible()
    expect(page.locator(".sc-card")).to_have_count(5)
    expect(page.locator(".sc-offer-draw")).to_be_visible()
    page.wait_for_timeout(300)  # the board's size follows the measured layout
    page.screenshot(path=str(shots / f"sequence-cats-in-the-window-{width}x{height}.png"))
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate(OUT_OF_SIGHT, ".sc-space") == []
    assert page.evaluate(OUT_OF_SIGHT, ".sc-card") == []
    hand = page.locator(".sc-hand-bar").bounding_box()
    assert hand is not None and hand["y"] + hand["height"] <= height + 0.01, hand
    sizes = page.locator(".sc-space-short, .sc-space-name").evaluate_all(
        """names => names.filter(name => getComputedStyle(name).display !== 'none')
            .map(name => parseFloat(getComputedStyle(name).fontSize))""")
    assert len(sizes) == 84
    assert min(sizes) >= (6.5 if width < height else 9) - 0.01, min(sizes)


def test_triominos_sideways_keeps_the_rack_under_the_board(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    table, tokens = create_table(web_server, "triominos", {}, ["human", "easy"],
                                 {0: "Anna"})
    page = sideways_page(browser, web_server, table, tokens[0])
    expect(page.locator(".tr-hand")).to_be_visible()
    page.wait_for_timeout(300)
    assert page.evaluate("window.scrollY") == 0
    in_sight(page.locator(".tr-hand"))
    in_sight(page.locator('[data-action="draw"]'))
    board = page.locator(".tr-board").bounding_box()
    assert board is not None and board["height"] >= 165, board
    # The view controls inside the board (stacked, "Centre the table" stood past its
    # foot, cut).
    for button in page.locator(".tr-zoom button").all():
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= board["y"] + board["height"]
    finger_sized(page.locator(".tr-zoom button"), width=40)
    finger_sized(page.locator(".tr-turn-actions button"))
    page.screenshot(path=str(shots / "sideways-triominos.png"))
    # The whole rack, first tile to last, stays in sight once a tile is chosen (the
    # "more tiles fit" chip took the rack's width: no tile showed), and the buttons stay
    # inside their bar.
    # (The computer player may start the round: Anna's turn comes after its move. A
    # rack with no tile that fits draws one instead, which grows the rack too.)
    expect(page.locator('.tr-status[data-my-turn="true"]')).to_be_visible(timeout=30_000)
    if page.locator(".tr-hand-tile.playable").count():
        page.locator(".tr-hand-tile.playable").first.click()
    else:
        page.locator('[data-action="draw"]').click()
    page.wait_for_timeout(300)
    # The rack itself stays in the window; its tiles are in sight as far as they fit its
    # width (a longer rack, after a draw, scrolls sideways to the tile drawn): at least
    # seven, every tile wholly inside the rack or scrolled past its edge, none under
    # the chip.
    rack = page.locator(".tr-hand")
    in_sight(rack)
    rack_box = rack.bounding_box()
    assert rack_box is not None
    inside = 0
    for tile in page.locator(".tr-hand-tile").all():
        box = tile.bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= SIDEWAYS["height"] + 0.5, box
        if box["x"] >= rack_box["x"] - 0.5 and (
                box["x"] + box["width"] <= rack_box["x"] + rack_box["width"] + 0.5):
            inside += 1
    assert inside >= 7, (inside, rack_box)
    if page.locator(".tr-just-drawn").count():
        drawn = page.locator(".tr-just-drawn .tr-hand-tile").last.bounding_box()
        assert drawn is not None and drawn["x"] >= rack_box["x"] - 0.5
        assert drawn["x"] + drawn["width"] <= rack_box["x"] + rack_box["width"] + 0.5
    bar = page.locator(".tr-hand-bar").bounding_box()
    assert bar is not None
    for button in page.locator(".tr-turn-actions button").all():
        box = button.bounding_box()
        assert box is not None and box["x"] + box["width"] <= bar["x"] + bar["width"] + 0.5
    page.screenshot(path=str(shots / "sideways-triominos-chosen.png"))


def test_triominos_sideways_scrolls_each_drawn_tile_wholly_into_the_rack(
        browser: Browser, web_server: LiveServer) -> None:
    # Anna draws three times (TR-DRAW-1 allows it even with a tile that fits): a sorted
    # rack of nine or ten tiles is wider than the window, and each tile drawn, wherever
    # it sorts, is brought wholly into the rack's box. (The rack is 539.6 px wide: its
    # rounded width scrolled the last tile 0.07 px short of the edge.)
    table, tokens = create_table(web_server, "triominos", {}, ["human", "easy"],
                                 {0: "Anna"})
    page = sideways_page(browser, web_server, table, tokens[0])
    my_turn = page.locator('.tr-status[data-my-turn="true"]')
    expect(my_turn).to_be_visible(timeout=30_000)
    if not enabled(page, "draw"):
        # Anna opens the round: no draw before the first tile (TR-SETUP-3).
        place_a_tile(page)
        expect(my_turn).to_be_visible(timeout=30_000)
    rack = page.locator(".tr-hand")
    for number in (1, 2, 3):
        count = page.locator(".tr-hand-tile").count()
        act(page, "draw")
        expect(page.locator(".tr-hand-tile")).to_have_count(count + 1)
        expect(page.locator(".tr-just-drawn")).to_have_count(number)
        page.wait_for_timeout(200)
        rack_box = rack.bounding_box()
        drawn = page.locator(".tr-just-drawn .tr-hand-tile").last.bounding_box()
        assert rack_box is not None and drawn is not None
        assert drawn["x"] >= rack_box["x"] - 0.01, (number, drawn, rack_box)
        assert drawn["x"] + drawn["width"] <= rack_box["x"] + rack_box["width"] + 0.01, (
            number, drawn, rack_box)


def test_dixit_sideways_shows_the_hand_beside_the_table(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    # Anna tells first (the clue field and her hand), then gives a card to a computer
    # storyteller's clue (the clue, her hand and the button to give it).
    table, tokens = create_table(web_server, "dixit", {"first_storyteller": "first_seat"},
                                 ["human", "easy", "easy", "easy"], {0: "Anna"})
    page = sideways_page(browser, web_server, table, tokens[0])
    expect(page.locator(".dx-clue-field input")).to_be_visible()
    page.wait_for_timeout(300)
    assert page.evaluate("window.scrollY") == 0
    in_sight(page.locator(".dx-clue-field input"))
    in_sight(page.locator('[data-action="send-clue"]'))
    cards = page.locator(".dx-hand-card")
    expect(cards).to_have_count(6)
    # Six "Choose" buttons: a screen reader hears each with its card.
    expect(page.get_by_role("button", name=re.compile(r"^Choose: \w"))).to_have_count(6)
    for card in cards.all()[:3]:
        in_sight(card)
    finger_sized(page.locator('.dx-hand-card [data-action="choose"]'))
    in_sight(page.locator(".dx-prompt"))
    page.screenshot(path=str(shots / "sideways-dixit-clue.png"))

    table, tokens = create_table(web_server, "dixit", {"first_storyteller": "first_seat"},
                                 ["easy", "human", "easy", "easy"], {1: "Anna"})
    page = sideways_page(browser, web_server, table, tokens[1])
    expect(page.locator('[data-action="submit"]')).to_be_visible()
    page.wait_for_timeout(300)
    assert page.evaluate("window.scrollY") == 0
    in_sight(page.locator(".dx-clue"))
    in_sight(page.locator('[data-action="submit"]'))
    for card in page.locator(".dx-hand-card").all()[:3]:
        in_sight(card)
    page.locator('.dx-hand-card [data-action="choose"]').first.click()
    page.locator('[data-action="submit"]').click()
    expect(page.locator(".dx-table")).to_have_attribute("data-phase", "vote", timeout=30_000)
    page.wait_for_timeout(300)
    # The vote: the cards on the table, and the button to cast it.
    page.screenshot(path=str(shots / "sideways-dixit-vote.png"))
    in_sight(page.locator('[data-action="cast-vote"]'))
    for slot in page.locator(".dx-slot").all():
        in_sight(slot)
    face = page.locator(".dx-slot .dx-card-face").first.bounding_box()
    assert face is not None and face["width"] >= 72, face  # 56 px was too small to judge
    finger_sized(page.locator('[data-action="vote-slot"]'))
    page.locator('[data-action="vote-slot"]').first.click()
    page.locator('[data-action="cast-vote"]').click()
    # The round's result reads down the page; "Continue" brings back the hand.
    expect(page.locator(".dx-table")).to_have_attribute("data-reveal", "true", timeout=30_000)
    page.screenshot(path=str(shots / "sideways-dixit-reveal.png"), full_page=True)
    page.get_by_role("button", name="Continue").click()
    expect(page.locator(".dx-table")).to_have_attribute("data-reveal", "false")
    expect(page.locator(".dx-hand-card").first).to_be_visible()


def test_dixit_sideways_brings_a_play_again_question_into_sight(
        browser: Browser, tmp_path: Path, shots: Path) -> None:
    """At the end of a Dixit game held sideways the ranking fills the window and its
    buttons lie below the fold: when another player asks to play again, the question and
    its buttons come into sight (it waited below, unseen)."""
    seats = people(["Anna", "Bruno", "Carla", "Dag"])
    with stored_table(tmp_path / "data", {}, seats, 11, finished_game(11, "dixit", 4),
                      game="dixit") as (server, table):
        pages = []
        for name in ("Anna", "Bruno"):
            context = browser.new_context(viewport=SIDEWAYS, is_mobile=True, has_touch=True,
                                          device_scale_factor=2, locale="en-GB")
            page = context.new_page()
            page.goto(f"{server.url}/t/{table}#seat={name}-token")
            expect(page.locator(".dx-final")).to_be_visible()
            pages.append(page)
        anna, bruno = pages
        join = bruno.get_by_role("button", name="Join the new game")
        expect(bruno.get_by_role("button", name="Play again")).not_to_be_in_viewport()
        anna.get_by_role("button", name="Play again").click()
        expect(join).to_be_in_viewport()
        expect(bruno.get_by_role("button", name="No thanks")).to_be_in_viewport(ratio=1)
        expect(bruno.get_by_role("status").filter(has_text="Anna wants to play again.")
               ).to_have_count(1)
        bruno.screenshot(path=str(shots / "sideways-dixit-play-again.png"))
        for page in pages:
            page.context.close()


def three_seat_page(browser: Browser, server: LiveServer, game: str, size: tuple[int, int],
                    locale: str) -> Page:
    """The first seat's page of a new table of ``game`` with an ``easy`` and a ``medium``
    computer player, in a window of ``size`` (width, height) at twice the pixel density."""
    table, tokens = create_table(server, game, {}, ["human", "easy", "medium"], {0: "Ana"})
    page = browser.new_context(viewport={"width": size[0], "height": size[1]},
                               device_scale_factor=2, locale=locale).new_page()
    page.goto(f"{server.url}/t/{table}#seat={tokens[0]}")
    return page


def _overlap(a: FloatRect, b: FloatRect) -> float:
    """The width two boxes share on the same line (0 when apart)."""
    if a["y"] + a["height"] <= b["y"] + 0.5 or b["y"] + b["height"] <= a["y"] + 0.5:
        return 0.0
    return max(0.0, min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]))


@pytest.mark.parametrize("locale", ["pt-PT", "is-IS"])
def test_triominos_sideways_players_keep_names_and_numbers_apart(
        browser: Browser, web_server: LiveServer, shots: Path, locale: str) -> None:
    """In the 250 px side panel the column heads ran together ("JOGADORESPEÇAS"), a
    computer player's name lay under its tile count and "you" over one's own: each
    head, name, tag and number now has a place of its own, and the numbers read."""
    table, tokens = create_table(web_server, "triominos", {},
                                 ["human", "easy", "medium"], {0: "Joana"})
    context = browser.new_context(viewport=SIDEWAYS, is_mobile=True, has_touch=True,
                                  device_scale_factor=2, locale=locale)
    page = context.new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator(".tr-player[data-seat='2']")).to_be_visible()
    page.wait_for_timeout(300)
    # The heads' words, not their cells: a word wider than its cell spills out of it.
    panel = page.locator(".tr-players").bounding_box()
    assert panel is not None
    heads = [box for box in page.locator(".tr-player.header > span").evaluate_all(
        """cells => cells.map(cell => {
            const words = document.createRange();
            words.selectNodeContents(cell);
            const box = words.getBoundingClientRect();
            return {x: box.x, y: box.y, width: box.width, height: box.height};
        })""") if box["width"]]
    for i, first in enumerate(heads):
        assert first["x"] + first["width"] <= panel["x"] + panel["width"] - 4, (first, panel)
        for second in heads[i + 1:]:
            assert _overlap(first, second) <= 0.5, (first, second)
    for row in page.locator(".tr-player:not(.header)").all():
        parts = [row.locator(selector) for selector in (
            ".tr-player-label", ".tr-player-tags > *", ".tr-player-tiles",
            ".tr-player-round", ".tr-player-score")]
        boxes = [box for part in parts for box in
                 (item.bounding_box() for item in part.all()) if box and box["width"]]
        for i, first in enumerate(boxes):
            assert first["x"] >= panel["x"] - 0.5, first
            assert first["x"] + first["width"] <= panel["x"] + panel["width"] + 0.5, first
            for second in boxes[i + 1:]:
                assert _overlap(first, second) <= 0.5, (row.inner_text(), first, second)
    # A name breaks between its words, never inside one ("Computad / or").
    assert page.evaluate(broken_words(".tr-player-label")) == []
    page.locator(".tr-players").screenshot(
        path=str(shots / f"sideways-triominos-players-{locale}.png"))
    context.close()


@pytest.mark.parametrize("size", [(667, 375), (683, 384)], ids=["small-phone", "laptop-200"])
def test_triominos_short_and_narrow_window_lays_the_board_beside_the_players(
        browser: Browser, web_server: LiveServer, shots: Path, size: tuple[int, int]) -> None:
    """A small phone held sideways (667 × 375) and a laptop at 200 % (683 × 384) are under
    700 px wide: stacked like an upright phone's, the board was 145 px high under the
    players, and the page scrolled to the rack. They take the sideways layout: the board
    beside the players, the whole table and the rack in the window."""
    width, height = size
    page = three_seat_page(browser, web_server, "triominos", size, "en-GB")
    context = page.context
    expect(page.locator(".tr-hand")).to_be_visible()
    page.wait_for_timeout(300)
    page.screenshot(path=str(shots / f"short-narrow-triominos-{width}.png"))
    expect(page.locator(".tr-table")).not_to_have_class(re.compile(r"\bnarrow\b"))
    board = page.locator(".tr-board").bounding_box()
    players = page.locator(".tr-players").bounding_box()
    rack = page.locator(".tr-hand").bounding_box()
    assert board is not None and players is not None and rack is not None
    assert board["height"] >= 150, board
    assert players["x"] >= board["x"] + board["width"] - 0.5, (board, players)
    assert rack["y"] + rack["height"] <= height + 0.5, rack
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # The "more tiles fit" chip, when there is one, stays in the buttons' line.
    page.evaluate("""() => {
        if (document.querySelector(".tr-hand-more")) return;
        const chip = document.createElement("button");
        chip.className = "tr-hand-more";
        chip.textContent = "2 more tiles fit ›";
        document.querySelector(".tr-hand").after(chip);
    }""")
    chip = page.locator(".tr-hand-more").bounding_box()
    draw = page.locator('[data-action="draw"]').bounding_box()
    assert chip is not None and draw is not None
    assert abs((chip["y"] + chip["height"] / 2) - (draw["y"] + draw["height"] / 2)) < 4, (
        chip, draw)
    context.close()


@pytest.mark.parametrize("size", [(667, 375), (683, 384)], ids=["small-phone", "laptop-200"])
def test_sequence_cats_short_and_narrow_window_breaks_names_between_words(
        browser: Browser, web_server: LiveServer, shots: Path, size: tuple[int, int]) -> None:
    """In the 180 px side panel of a small phone held sideways or a laptop at 200 %, the
    players' names broke inside their words ("Computad / or 3 · Fácil", the tag "computado
    / r"): the hand's count goes under the name, and names break between words. A
    computer player's level is a tag, so that no line ends at the "·" ("Computador 3 · /
    Médio")."""
    width, _ = size
    page = three_seat_page(browser, web_server, "sequence-cats", size, "pt-PT")
    context = page.context
    bot = page.locator(".sc-player[data-seat='2']")
    expect(bot.locator(".sc-player-label")).to_have_text("Computador 3")
    expect(bot.locator(".sc-level")).to_have_text("· Médio")  # the "·" is read, not shown
    expect(bot.locator(".sc-player-name")).to_contain_text("Computador 3 · Médio")
    page.wait_for_timeout(300)
    page.locator(".sc-players").screenshot(path=str(shots / f"short-narrow-sc-players-{width}.png"))
    page.screenshot(path=str(shots / f"short-narrow-sc-{width}.png"))
    assert page.evaluate(broken_words(".sc-player-name, .sc-player-name .tag")) == []
    for row in page.locator(".sc-player").all():
        name, cards = row.locator(".sc-player-name"), row.locator(".sc-player-cards")
        name_box, cards_box = name.bounding_box(), cards.bounding_box()
        assert name_box is not None and cards_box is not None
        assert _overlap(name_box, cards_box) <= 0.5, (row.inner_text(), name_box, cards_box)
    context.close()


def test_triominos_sideways_the_column_beside_the_board_stays_in_the_table(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """On a small phone held sideways in Icelandic, the round's facts and the log under
    the players ran out of the table's foot, over the chat and the links below it. The
    column scrolls within the table."""
    page = three_seat_page(browser, web_server, "triominos", (667, 375), "is-IS")
    expect(page.locator(".tr-log li").first).to_be_visible()
    page.wait_for_timeout(300)
    table = page.locator(".tr-table").bounding_box()
    side = page.locator(".tr-side").bounding_box()
    assert table is not None and side is not None
    assert side["y"] + side["height"] <= table["y"] + table["height"] + 0.5, (side, table)
    # Below the table, across the column's width, nothing of the column shows.
    below = table["y"] + table["height"] + 8
    for x in range(int(side["x"]) + 8, int(side["x"] + side["width"]), 40):
        hit = page.evaluate(
            "([x, y]) => Boolean(document.elementFromPoint(x, y)?.closest('.tr-side'))",
            [x, below])
        assert not hit, x
    # What does not fit is there to scroll to.
    page.locator(".tr-side").evaluate("side => side.scrollTo(0, side.scrollHeight)")
    expect(page.locator(".tr-log")).to_be_in_viewport()
    page.screenshot(path=str(shots / "sideways-triominos-side-scrolled.png"))
    page.context.close()


def test_dixit_sideways_a_card_seen_large_shows_whole_beside_its_words(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """Held sideways (750 × 342), a card of the hand seen large was squeezed under its
    heading, words and button to a 141 × 108 crop of the picture's top, smaller than in
    the hand. The whole card stands at the window's height, its words and button beside
    it."""
    table, tokens = create_table(web_server, "dixit", {}, ["human", "easy", "easy"],
                                 {0: "Anna"})
    page = browser.new_context(viewport={"width": 750, "height": 342}, is_mobile=True,
                               has_touch=True, device_scale_factor=2).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    page.locator(".dx-hand-card .dx-card-button").first.click()
    picture = page.locator(".dx-zoom-card img")
    expect(picture).to_be_visible()
    page.wait_for_timeout(300)
    box = picture.bounding_box()
    natural = picture.evaluate("img => img.naturalWidth / img.naturalHeight")
    assert box is not None and box["height"] >= 250, box
    assert abs(box["width"] / box["height"] - natural) < 0.03, (box, natural)  # uncropped
    words = page.locator(".dx-zoom-description").bounding_box()
    assert words is not None and words["x"] >= box["x"] + box["width"], (words, box)
    for element in (picture, page.locator(".dx-zoom-close")):
        found = element.bounding_box()
        assert found is not None and found["y"] >= 0 and found["y"] + found["height"] <= 342
    page.screenshot(path=str(shots / "sideways-dixit-card-large.png"))
    page.context.close()


def test_dixit_sideways_seven_cards_to_vote_on_stand_in_one_row(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """Seven players, a phone held sideways (740 × 360): the seventh card to vote on stood
    in a second row below the board's edge, beside a column mostly empty. The vote's
    column is narrower, and the seven cards and their Vote buttons are in sight."""
    table, tokens = create_table(web_server, "dixit", {"first_storyteller": "first_seat"},
                                 ["easy", "human"] + ["easy"] * 5, {1: "Carla"})
    context = browser.new_context(viewport={"width": 740, "height": 360}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    context.add_init_script("localStorage.setItem('gametable.lang', 'is');")
    page = context.new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    page.locator('.dx-hand-card [data-action="choose"]').first.click()
    page.locator('[data-action="submit"]').click()
    expect(page.locator(".dx-table")).to_have_attribute("data-phase", "vote", timeout=30_000)
    page.wait_for_timeout(300)
    slots = page.locator(".dx-slot")
    expect(slots).to_have_count(7)
    board = page.locator(".dx-board").bounding_box()
    assert board is not None
    for slot in slots.all():
        box = slot.bounding_box()
        assert box is not None and box["y"] + box["height"] <= board["y"] + board["height"], box
    for button in page.locator('[data-action="vote-slot"]').all():
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 360, box
    cast = page.locator('[data-action="cast-vote"]').bounding_box()
    assert cast is not None and cast["x"] + cast["width"] <= 740, cast
    page.screenshot(path=str(shots / "sideways-dixit-seven-vote.png"))
    context.close()


def carla_at_dixit(browser: Browser, web_server: LiveServer, players: int,
                   viewport: ViewportSize, language: str) -> Page:
    """Carla's page on a phone (``viewport``, the interface in ``language``), in the third
    seat of a Dixit game of ``players`` whose other seats are ``easy`` computer players;
    the first seat tells first."""
    table, tokens = create_table(web_server, "dixit", {"first_storyteller": "first_seat"},
                                 ["easy", "easy", "human"] + ["easy"] * (players - 3),
                                 {2: "Carla"})
    context = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    context.add_init_script(f"localStorage.setItem('gametable.lang', '{language}');")
    page = context.new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[2]}")
    return page


def vote_boards_of_two_rounds(page: Page, check: Callable[[FloatRect], None]
                              ) -> list[float]:
    """Plays the page's seat through the first two rounds' cards and votes up to the
    second vote: the board's height at each vote, ``check`` called with its box."""
    heights = []
    for round_number in (1, 2):
        expect(page.locator(".dx-table")).to_have_attribute("data-round", str(round_number),
                                                            timeout=30_000)
        page.locator('.dx-hand-card [data-action="choose"]').first.click()
        page.locator('[data-action="submit"]').click()
        expect(page.locator(".dx-table")).to_have_attribute("data-phase", "vote",
                                                            timeout=30_000)
        page.wait_for_timeout(300)
        board = page.locator(".dx-board").bounding_box()
        assert board is not None
        heights.append(board["height"])
        check(board)
        if round_number == 1:
            page.locator('[data-action="vote-slot"]').first.click()
            page.locator('[data-action="cast-vote"]').click()
            page.locator('[data-action="continue"]').click(timeout=30_000)
    return heights


def test_dixit_sideways_cards_to_vote_on_stay_in_sight_from_the_second_round(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """From the second round on, the history's fold under the table and the status line's
    "Previous round" button (which wrapped the line in two) took the board's height, at a
    phone held sideways (740 × 360, Norwegian): the seven cards to vote on showed through
    a slit, and none of their Vote buttons. Both stand below the table now, and the
    board keeps the first round's room."""
    page = carla_at_dixit(browser, web_server, 7, {"width": 740, "height": 360}, "nb")

    def all_in_sight(board: FloatRect) -> None:
        for slot in page.locator(".dx-slot").all():
            box = slot.bounding_box()
            assert box is not None and box["y"] + box["height"] <= board["y"] + board["height"]
        for button in page.locator('[data-action="vote-slot"]').all():
            box = button.bounding_box()
            assert box is not None and box["y"] + box["height"] <= min(
                360, board["y"] + board["height"]), (box, board)

    heights = vote_boards_of_two_rounds(page, all_in_sight)
    page.screenshot(path=str(shots / "sideways-dixit-second-round-vote.png"))
    assert heights[1] >= heights[0] - 2, heights
    # The last round's result is a scroll below, beside the history, and back up in sight.
    last = page.locator('.dx-below [data-action="show-reveal"]')
    last.scroll_into_view_if_needed()
    expect(page.locator(".dx-below .dx-history summary")).to_be_in_viewport()
    page.screenshot(path=str(shots / "sideways-dixit-below-the-table.png"))
    last.click()
    expect(page.locator(".dx-reveal h2")).to_be_in_viewport()
    page.context.close()


def test_dixit_upright_phone_keeps_the_cards_room_from_the_second_round(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """Twelve players on an upright phone (390 × 844, Portuguese): from the second round
    the history's fold and the "Turno anterior" button, on a line of its own in the
    status box, took 54 px of the board, where three of the twelve cards to vote on
    were in sight. They stand below the table now, and the round's number in the status
    line says so."""
    page = carla_at_dixit(browser, web_server, 12, {"width": 390, "height": 844}, "pt")
    # (The status box's facts may take a second line once the draw pile is empty: the
    # board and the status box together keep their room.)
    status: list[float] = []

    def note_status(board: FloatRect) -> None:
        box = page.locator(".dx-status").bounding_box()
        assert box is not None
        status.append(box["height"])

    heights = vote_boards_of_two_rounds(page, note_status)
    page.screenshot(path=str(shots / "upright-dixit-twelve-second-round-vote.png"))
    assert heights[1] + status[1] >= heights[0] + status[0] - 2, (heights, status)
    expect(page.locator('.dx-status [data-action="show-reveal"]')).to_have_count(0)
    expect(page.locator('.dx-below [data-action="show-reveal"]')).to_have_count(1)
    # Nothing in the window said that anything stood below the table: the round's number
    # now does, in the status line's facts, and takes the page down to them.
    cue = page.locator('.dx-status [data-action="to-below"]')
    expect(cue).to_have_accessible_name(
        "Turno 2: o turno anterior e o histórico estão por baixo da mesa")
    history = page.locator(".dx-below .dx-history summary")
    expect(history).not_to_be_in_viewport()
    cue.click()
    expect(history).to_be_in_viewport()
    expect(page.locator('.dx-below [data-action="show-reveal"]')).to_be_in_viewport()
    # (the page scrolls smoothly: until the history is at the top, or the page's end)
    page.wait_for_function(
        "() => document.querySelector('.dx-below').getBoundingClientRect().top < 40"
        " || window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2")
    page.screenshot(path=str(shots / "upright-dixit-twelve-below-the-table.png"))
    page.context.close()


def test_dixit_sideways_the_storytellers_prompt_is_whole(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """A phone held sideways (740 × 360, Norwegian): the storyteller's prompt was cut to
    two lines ("… gi en ledetråd til det: et ord, en lyd, en li…") over an empty board;
    the rest could be read nowhere."""
    table, tokens = create_table(web_server, "dixit", {"first_storyteller": "first_seat"},
                                 ["human"] + ["easy"] * 6, {0: "Åsmund"})
    context = browser.new_context(viewport={"width": 740, "height": 360}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    context.add_init_script("localStorage.setItem('gametable.lang', 'nb');")
    page = context.new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    prompt = page.locator(".dx-prompt p")
    expect(prompt).to_contain_text("ledetråd")
    assert prompt.evaluate("p => p.scrollHeight <= p.clientHeight + 1"), prompt.inner_text()
    box, board = prompt.bounding_box(), page.locator(".dx-board").bounding_box()
    assert box is not None and board is not None
    assert box["y"] + box["height"] <= board["y"] + board["height"], (box, board)
    page.screenshot(path=str(shots / "sideways-dixit-storyteller-prompt.png"))
    context.close()


def test_sequence_cats_sideways_every_space_shows_its_name(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """On a small phone held sideways in Icelandic, 14 of the 84 spaces showed a cat and no
    name ("Burmaköttur", "Manarköttur", "Tonkinköttur": a name of three lines, held to
    two lines' height, showed none at all), and the cats look alike. Every space shows
    its breed (there, its short form: "Burm", "Mana", "Tonk"), in sight."""
    page = three_seat_page(browser, web_server, "sequence-cats", (667, 375), "is-IS")
    expect(page.locator(".sc-board")).to_be_visible()
    page.wait_for_timeout(300)
    names = page.locator(".sc-space-short").evaluate_all(
        """names => names.map(n => {
            const box = n.getBoundingClientRect(), space = n.parentElement.getBoundingClientRect();
            return [n.textContent, box.height, box.top - space.top];
        })""")
    assert len(names) == 84
    hidden = [name for name, height, _ in names if height < 5]
    assert not hidden, hidden
    cut = [name for name, _, top in names if top < 0]
    assert not cut, cut
    page.screenshot(path=str(shots / "sideways-sequence-cats-names-is.png"))
    page.context.close()


def far_apart_places() -> tuple[int, list[tuple[int, dict[str, Any]]], str]:
    """Three ``greedy`` players' first round, up to a turn of seat 0 with a tile whose
    places lie four rows apart or more (five rows of 0.87 side: 182 px at the smallest
    side, 42 px, taller than the board strip): (seed, the actions so far, the tile)."""
    for seed in range(1, 30):
        record, _ = play_bot_game("triominos", {"rounds": 1}, ["greedy"] * 3, seed)
        state = TRIOMINOS.new_game(TRIOMINOS.make_config(record.config, 3), 3, record.seed)
        for number, step in enumerate(record.actions):
            if state.current == 0 and state.draws == 0 and state.board_json:
                rows: dict[str, list[int]] = {}
                for action in TRIOMINOS.legal_actions(state, 0):
                    if action["type"] == "place":
                        rows.setdefault(action["tile"], []).append(action["position"][0])
                for tile, places in rows.items():
                    if max(places) - min(places) >= 4:
                        return record.seed, [(s.seat, s.action)
                                             for s in record.actions[:number]], tile
            TRIOMINOS.apply(state, step.seat, step.action)
    raise AssertionError("no seed gives places four rows apart")


WHOLLY_IN_THE_BOARD = """() => {
    const frame = document.querySelector('.tr-board').getBoundingClientRect();
    return [...document.querySelectorAll('[data-target]')].map(place => {
        const box = place.getBoundingClientRect();
        return box.top >= frame.top - 0.5 && box.bottom <= frame.bottom + 0.5
            && box.left >= frame.left - 0.5 && box.right <= frame.right + 0.5;
    });
}"""


@contextmanager
def far_places_table(tmp_path: Path) -> Iterator[tuple[LiveServer, str, str, str]]:
    """A served three-seat Triominos table (two `greedy` players) at the turn where the
    person's tile has places rows apart: (server, table id, the person's seat token,
    the tile); the server stops after."""
    seed, actions, tile = far_apart_places()
    table, token = stored_triominos(tmp_path / "data", {"rounds": 1}, seed,
                                    [None, "greedy", "greedy"], actions)
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=0.15)
    server.start()
    try:
        yield server, table, token, tile
    finally:
        server.stop()


def test_triominos_sideways_a_tiles_far_apart_places_one_whole_and_the_rest_counted(
        browser: Browser, tmp_path: Path, shots: Path) -> None:
    """TR-PLACE-1 held sideways (844 × 390): the board is a strip about 175 px high, and
    a tile whose places lay rows apart had them all cut in half by its edges, also after
    "Centre the table" (they were brought in as one box, too tall for the strip). The
    place nearest the view's middle now comes wholly into sight, and a button says how
    many more lie out of it; pressed, it brings one of those wholly into sight."""
    with far_places_table(tmp_path) as (server, table, token, tile):
        page = sideways_page(browser, server, table, token)
        expect(page.locator('.tr-status[data-my-turn="true"]')).to_be_visible()
        page.locator(f'.tr-hand-tile[data-tile="{tile}"]').tap()
        expect(page.locator("[data-target]").first).to_be_attached()
        more = page.locator('[data-action="more-places"]')
        for step in ("chosen", "more", "centred"):
            if step == "more":
                hidden_before = page.evaluate(WHOLLY_IN_THE_BOARD)
                more.tap()
            elif step == "centred":
                page.get_by_role("button", name="Centre the table").tap()
            page.wait_for_timeout(500)  # the view glides (280 ms)
            whole = page.evaluate(WHOLLY_IN_THE_BOARD)
            assert len(whole) >= 2 and any(whole), (step, whole)
            out = whole.count(False)
            assert out >= 1, (step, whole)  # too far apart for the strip
            expect(more).to_contain_text(
                f"{out} more place{'s' if out > 1 else ''} out of sight")
            finger = more.bounding_box()
            assert finger is not None and finger["height"] >= 40, finger
            if step == "more":
                # A place that was out of sight is wholly in it now.
                assert any(now and not before
                           for now, before in zip(whole, hidden_before, strict=True)), (
                    hidden_before, whole)
            page.screenshot(path=str(shots / f"sideways-triominos-far-places-{step}.png"))


def _overlaps(a: FloatRect, b: FloatRect) -> bool:
    """Whether two boxes share any area (more than half a pixel each way)."""
    return (min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 0.5
            and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 0.5)


@pytest.mark.parametrize(("size", "locale"), [((844, 390), "is-IS"), ((667, 375), "pt-PT")],
                         ids=["844-is", "667-pt"])
def test_triominos_sideways_the_count_of_places_out_of_sight_covers_no_tile(
        browser: Browser, tmp_path: Path, shots: Path, size: tuple[int, int],
        locale: str) -> None:
    """TR-PLACE-1 held sideways: the button that counts a tile's places out of sight stood
    over the board's bottom-left corner, over the tiles and places there. It stands in the
    rack's bar, in the line of Draw and Pass, outside the board: the board keeps its
    height (all but a few pixels at 667 px) and the rack stays in the window."""
    with far_places_table(tmp_path) as (server, table, token, tile):
        width, height = size
        context = browser.new_context(viewport={"width": width, "height": height},
                                      is_mobile=True, has_touch=True, device_scale_factor=2,
                                      locale=locale)
        page = context.new_page()
        page.goto(f"{server.url}/t/{table}#seat={token}")
        expect(page.locator('.tr-status[data-my-turn="true"]')).to_be_visible()
        page.wait_for_timeout(300)
        board_before = page.locator(".tr-board").bounding_box()
        page.locator(f'.tr-hand-tile[data-tile="{tile}"]').tap()
        more = page.locator('[data-action="more-places"]')
        expect(more).to_be_visible()
        page.wait_for_timeout(500)  # the view glides (280 ms)
        page.screenshot(path=str(shots / f"sideways-triominos-more-places-{width}-{locale}.png"))
        board, button = page.locator(".tr-board").bounding_box(), more.bounding_box()
        draw = page.locator('[data-action="draw"]').bounding_box()
        assert board is not None and button is not None and draw is not None
        assert not _overlaps(button, board), (button, board)
        # The board keeps its height (at 667 px the button's words take up to three
        # lines beside the buttons: the bar grows by a few pixels, not by a line).
        assert board_before is not None
        assert board["height"] >= 0.95 * board_before["height"], (board, board_before)
        if width >= 844:
            assert board["height"] >= board_before["height"] - 0.01, (board, board_before)
        # Beside Draw, a finger's size, wholly in the window; so is the rack.
        assert abs((button["y"] + button["height"] / 2) - (draw["y"] + draw["height"] / 2)) < 4
        assert button["height"] >= 40 - 0.01, button
        assert button["x"] + button["width"] <= draw["x"] + 0.5, (button, draw)
        assert button["y"] + button["height"] <= height + 0.5, button
        in_window = page.locator(".tr-hand").bounding_box()
        assert in_window is not None and in_window["y"] + in_window["height"] <= height + 0.5
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # Its words whole (two lines at most in a narrow bar), and it still works.
        assert more.evaluate("b => b.scrollWidth <= b.clientWidth + 0.5"), more.inner_text()
        hidden_before = page.evaluate(WHOLLY_IN_THE_BOARD)
        more.tap()
        page.wait_for_timeout(500)
        whole = page.evaluate(WHOLLY_IN_THE_BOARD)
        assert any(now and not before
                   for now, before in zip(whole, hidden_before, strict=True)), (
            hidden_before, whole)
        context.close()


# Each space's breed as shown (the short form or the name, whichever shows): its font
# size, whether its text lies wholly inside the space, and whether it holds more than it
# shows (clipped, or cut by an ellipsis or a line clamp).
SPACE_NAMES = """() => [...document.querySelectorAll('.sc-space-short, .sc-space-name')]
    .filter(name => getComputedStyle(name).display !== 'none')
    .map(name => {
        const space = name.closest('.sc-space').getBoundingClientRect();
        const words = document.createRange();
        words.selectNodeContents(name);
        const box = words.getBoundingClientRect();
        return {text: name.textContent, size: parseFloat(getComputedStyle(name).fontSize),
                inside: box.left >= space.left - 0.01 && box.right <= space.right + 0.01
                    && box.top >= space.top - 0.01 && box.bottom <= space.bottom + 0.01,
                // (whole pixels, rounded each on its own)
                cut: name.scrollWidth > name.clientWidth + 1
                    || name.scrollHeight > name.clientHeight + 1};
    })"""

# A box of text whose words are all in sight: nothing beyond its box, no ellipsis, no
# line clamp, inside the window.
WHOLE_TEXT = """element => {
    const style = getComputedStyle(element), box = element.getBoundingClientRect();
    return element.scrollWidth <= element.clientWidth + 0.5
        && element.scrollHeight <= element.clientHeight + 0.5
        && style.textOverflow !== 'ellipsis' && style.webkitLineClamp === 'none'
        && box.left >= 0 && box.right <= innerWidth + 0.5 && box.bottom <= innerHeight + 0.5;
}"""


@pytest.mark.parametrize("locale", ["en-GB", "is-IS", "nb-NO", "pt-PT"])
def test_sequence_cats_sideways_every_space_reads_its_breed_at_9_px(
        browser: Browser, web_server: LiveServer, shots: Path, locale: str) -> None:
    """Held sideways (667 × 375, 844 × 390) the breeds' names on the board's spaces were
    4.7 to 6 px, too small to read, and long ones lost words ("Gato da Floresta" without
    "Norueguesa", "Exótico de Pelo.."). Each space shows its breed's short form ("Abys",
    "Noru") on one line, 9 px at least, whole inside the space."""
    table, tokens = create_table(web_server, "sequence-cats", {}, ["human", "easy"],
                                 {0: "Ana"})
    context = browser.new_context(viewport={"width": 667, "height": 375}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2, locale=locale)
    page = context.new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator(".sc-space").first).to_be_visible()
    language = locale[:2]
    for width, height in ((667, 375), (844, 390)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        names = page.evaluate(SPACE_NAMES)
        assert len(names) == 84, len(names)
        spilled = [name["text"] for name in names if not name["inside"] or name["cut"]]
        assert not spilled, (width, spilled)
        small = [(name["text"], name["size"]) for name in names if name["size"] < 9 - 0.01]
        assert not small, (width, small[:5])
        page.screenshot(path=str(shots / f"sideways-sequence-cats-short-{width}-{locale}.png"))
    # Each is the short form of the space's breed, in the page's language.
    shown = page.locator(".sc-space[data-breed='norwegian-forest-cat'] .sc-space-short").first
    expect(shown).to_have_text(
        translate("sequence_cats.cards.norwegian-forest-cat.short", language))
    context.close()


def seed_with_the_longest_name(in_hand: bool) -> int:
    """A seed whose two-seat game starts at seat 0 with the Norwegian Forest Cat ("Gato da
    Floresta Norueguesa") in seat 0's hand (``in_hand``) or not in it."""
    game = registry.get("sequence-cats")
    for seed in range(500):
        state = game.new_game(game.make_config({}, 2), 2, seed)
        holds = "norwegian-forest-cat" in game.view(state, 0)["hand"]
        if holds == in_hand and game.to_act(state) == {0}:
            return seed
    raise AssertionError("no such seed")


@pytest.mark.parametrize("locale", ["en-GB", "is-IS", "nb-NO", "pt-PT"])
def test_sequence_cats_on_a_small_phone_sideways_every_breed_name_shows_whole(
        browser: Browser, tmp_path: Path, shots: Path, locale: str) -> None:
    """A small phone held sideways (667 × 375): "Gato da Floresta Norueguesa" lost its last
    word on the board. Wherever a whole breed name shows (a card in the hand, the tag of a
    space tapped, the refusal in the status line) every letter is in sight."""
    language = locale[:2]
    name = translate("sequence_cats.cards.norwegian-forest-cat.name", language)
    seats = [SeatRow(0, "human", name="Ana", token_hash=token_hash("ana")),
             SeatRow(1, "bot", bot="easy")]
    for in_hand in (True, False):
        data = tmp_path / f"data-{in_hand}"
        with stored_table(data, {}, seats, seed_with_the_longest_name(in_hand), []) as (
                server, table):
            context = browser.new_context(viewport={"width": 667, "height": 375},
                                          is_mobile=True, has_touch=True,
                                          device_scale_factor=2, locale=locale)
            page = context.new_page()
            page.goto(f"{server.url}/t/{table}#seat=ana")
            expect(page.locator(".sc-card")).to_have_count(5)
            page.wait_for_timeout(300)
            if in_hand:
                cards = page.locator(".sc-card-name")
                expect(cards.filter(has_text=name.split(" ")[0])).not_to_have_count(0)
                for card in cards.all():
                    assert card.evaluate(WHOLE_TEXT), card.inner_text()
                    inside = card.evaluate("""name => {
                        const box = name.getBoundingClientRect();
                        const card = name.closest('.sc-card').getBoundingClientRect();
                        return box.left >= card.left && box.right <= card.right
                            && box.top >= card.top && box.bottom <= card.bottom;
                    }""")
                    assert inside, card.inner_text()
                page.screenshot(path=str(shots / f"small-sideways-sc-hand-{locale}.png"))
            else:
                space = page.locator(".sc-space[data-breed='norwegian-forest-cat']").first
                label = space.get_attribute("data-space")
                space.tap(force=True)  # no card of the hand goes there: refused, named
                tag = page.locator(".sc-name-tag")
                expect(tag).to_have_text(f"{label} · {name}")
                assert tag.evaluate(WHOLE_TEXT), tag.bounding_box()
                status = page.locator(".sc-status-text")
                expect(status).to_contain_text(name)
                assert status.evaluate(WHOLE_TEXT), status.bounding_box()
                page.screenshot(path=str(shots / f"small-sideways-sc-refusal-{locale}.png"))
            context.close()
