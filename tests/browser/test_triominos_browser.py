"""Triominos as people play it: tiles laid by clicking, draws, passes, round results."""

from __future__ import annotations

import copy
import re
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, ElementHandle, Locator, Page, expect

from gametable.bots.base import make_bot
from gametable.core.config import stored_options
from gametable.core.records import GameRecord, replay
from gametable.games.triominos import TRIOMINOS as GAME
from gametable.games.triominos.state import TriominosState
from gametable.server.storage import SeatRow, SQLiteStorage, TableRow, token_hash
from gametable.simulate import play_bot_game
from tests.aio import run_async
from tests.browser import seats, waiting
from tests.browser.conftest import wait_for
from tests.browser.taps import tapped_at
from tests.browser.text_layout import broken_words, fades
from tests.games.triominos.helpers import opening_choice_seeds
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser

TABLE = ".tr-table"


def version(page: Page) -> int:
    return waiting.version(page, TABLE)


def my_turn(page: Page) -> bool:
    return page.locator(f'{TABLE}[data-my-turn="true"]').count() > 0


def finished(page: Page) -> bool:
    return page.locator(f'{TABLE}[data-finished="true"]').count() > 0


def enabled(page: Page, action: str) -> bool:
    return page.locator(
        f'[data-action="{action}"]:not([disabled]):not([aria-disabled="true"])').count() > 0


def wait_for_new_state(page: Page, before: int) -> None:
    waiting.wait_for_version(page, TABLE, before + 1)


def press(locator: Locator, touch: bool) -> None:
    if touch:
        locator.tap()
    else:
        locator.click()


def place_a_tile(page: Page, touch: bool = False) -> dict[str, str]:
    """Select a tile that fits, click a glowing position, confirm the rotation if asked."""
    before = version(page)
    if page.locator(".tr-hand-tile.selected").count() == 0:
        press(page.locator('.tr-hand-tile[data-playable="true"]').first, touch)
    tile = page.locator(".tr-hand-tile.selected").get_attribute("data-tile") or ""
    target = page.locator("[data-target]").first
    expect(target).to_be_visible()
    position = target.get_attribute("data-target") or ""
    rotations = int(target.get_attribute("data-rotations") or 1)
    press(target, touch)
    if rotations > 1:
        # Several ways fit: a preview appears, the rotate button cycles them.
        expect(page.locator(".tr-preview")).to_be_visible()
        first = page.locator(".tr-preview").get_attribute("data-rotation")
        press(page.locator('[data-action="rotate"]'), touch)
        expect(page.locator(".tr-preview")).not_to_have_attribute("data-rotation", first or "")
        press(page.locator('[data-action="confirm"]'), touch)
    wait_for_new_state(page, before)
    laid = page.locator(f'.tr-tile[data-position="{position}"]')
    expect(laid).to_have_attribute("data-tile", tile)
    return {"tile": tile, "position": position}


def act(page: Page, action: str) -> None:
    before = version(page)
    fits = page.locator('.tr-hand-tile[data-playable="true"]').count() > 0
    page.click(f'[data-action="{action}"]')
    if action == "draw" and fits:
        # A tile fits: the page asks before the points go (TR-DRAW-1).
        question = page.locator(".tr-draw-question")
        expect(question).to_contain_text("A tile of yours fits the table. Draw anyway (−5)?")
        assert version(page) == before
        question.locator('[data-action="draw-anyway"]').click()
    wait_for_new_state(page, before)


def place_on_my_turn(page: Page, touch: bool = False) -> dict[str, str]:
    """Wait for my turn, draw until a tile fits (or pass and wait again), then place it."""
    while True:
        wait_for(page, f"document.querySelector('{TABLE}')?.dataset.myTurn === 'true'")
        if page.locator('.tr-hand-tile[data-playable="true"]').count():
            return place_a_tile(page, touch)
        act(page, "draw" if enabled(page, "draw") else "pass")


def choose_game(page: Page, server: LiveServer, name: str, seats: list[str],
                options: dict[str, str] | None = None) -> None:
    """Create a Triominos table in the lobby; ``seats`` are the choices for seats 2, 3…"""
    page.goto(server.url)
    card = page.locator(".game-card", has_text="Triominos")
    expect(card).to_contain_text("1–6 players")
    card.click()
    page.fill("input[autocomplete=nickname]", name)
    counts = page.get_by_role("group", name="Players").get_by_role("button")
    expect(counts).to_have_text(["1", "2", "3", "4", "5", "6"])
    counts.get_by_text(str(len(seats) + 1), exact=True).click()
    expect(page.locator(".seat-plan li")).to_have_count(len(seats) + 1)
    for index, choice in enumerate(seats, start=2):
        page.select_option(f".seat-plan li:nth-child({index}) select", choice)
    for label, value in (options or {}).items():
        option = page.locator(".config-form .field",
                              has=page.locator(".field-label", has_text=label))
        option.locator("select").select_option(label=value)
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/*")


def table_id(page: Page) -> str:
    return page.url.rstrip("/").split("/t/")[1].split("#")[0]


def test_the_lobby_offers_a_target_only_while_no_number_of_rounds_is_chosen(
    browser: Browser, web_server: LiveServer
) -> None:
    """TR-END-4: a game ends at a target score *or* after a number of rounds. With a
    number of rounds chosen the lobby offered "Play to" as well, which the game then did
    not read; the field now shows only while the game plays to a score."""
    page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    page.goto(web_server.url)
    page.locator(".game-card", has_text="Triominos").click()
    field = page.locator(".config-form .field")
    target = field.filter(has=page.locator(".field-label", has_text="Play to"))
    rounds = field.filter(has=page.locator(".field-label", has_text="Rounds"))
    expect(target).to_have_count(1)
    rounds.locator("select").select_option(label="3")
    expect(target).to_have_count(0)
    rounds.locator("select").select_option(label="No limit: play to the score")
    expect(target).to_have_count(1)
    page.context.close()


def test_a_whole_round_against_the_computer_by_clicking(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    # "Rounds" offers the suggested values of a wide integer option.
    page.goto(web_server.url)
    page.locator(".game-card", has_text="Triominos").click()
    rounds = page.locator(".config-form .field",
                          has=page.locator(".field-label", has_text="Rounds"))
    expect(rounds.locator("option")).to_have_text(
        ["No limit: play to the score", "1", "2", "3", "4", "5", "6", "8", "10"])
    choose_game(page, web_server, "Anna", ["bot:greedy"], {"Rounds": "1"})
    expect(page.locator(".tr-board-svg")).to_be_visible()
    # Who starts the first round and why (TR-SETUP-3): it happened with the game itself,
    # before the page could hear of it. The drawn tiles go back: the starter may then lay
    # another tile, which the log said nothing of.
    expect(page.locator('.tr-log li[data-event="round_start"]')).to_contain_text(
        re.compile(r"Round 1: .+ starts \(drew \d-\d-\d, the highest; "
                   r"the drawn tiles went back into the pool\)"))
    expect(page.locator(".tr-hand-tile")).to_have_count(9)
    expect(page.locator(".tr-facts")).to_contain_text("Round 1 of 1")
    expect(page.locator('[data-action="draw"]')).to_have_text("Draw (−5)")

    done = {"place": 0, "draw": 0, "pass": 0, "asked": 0}

    def turn() -> bool:
        if page.locator(".tr-summary").count() or not my_turn(page):
            return False
        if page.locator('.tr-hand-tile[data-playable="true"]').count():
            if not done["asked"] and enabled(page, "draw"):
                # Draw while a tile fits: the page asks first (it cost 5 points without
                # a word); Cancel draws nothing.
                before = version(page)
                # (a tile drawn earlier in the turn may be the one that fits)
                drawn = page.locator(".tr-draw-count").inner_text()
                page.click('[data-action="draw"]')
                question = page.locator(".tr-draw-question")
                expect(question).to_contain_text(
                    "A tile of yours fits the table. Draw anyway (−5)?")
                question.get_by_role("button", name="Cancel").click()
                expect(question).to_have_count(0)
                assert version(page) == before
                expect(page.locator(".tr-draw-count")).to_have_text(drawn)
                done["asked"] = 1
            place_a_tile(page)
            done["place"] += 1
            if done["place"] == 3:
                page.screenshot(path=shots / "triominos-mid-round.png")
        elif enabled(page, "draw"):
            act(page, "draw")
            done["draw"] += 1
        else:
            expect(page.locator('[data-action="pass"]')).to_be_enabled()
            act(page, "pass")
            done["pass"] += 1
        return True

    waiting.play_until([page], TABLE, done=lambda: finished(page), turn=turn, most=200)
    assert done["place"] >= 3 and done["asked"] == 1

    # The round's summary and the final ranking, with the server's numbers.
    summary = page.locator(".tr-summary")
    expect(summary).to_be_visible()
    expect(summary).to_have_attribute("data-finished", "true")
    page.screenshot(path=shots / "triominos-round-over.png")
    # Once the game is over no tile goes anywhere: the board shows no open place, no
    # "+50" (they stayed, as if a move were still to come).
    expect(page.locator(".tr-open")).to_have_count(0)
    record = GameRecord.model_validate(
        httpx.get(f"{web_server.url}/api/tables/{table_id(page)}/record").json())
    state = replay(record).state
    history = state.history[0]
    assert [a.action["type"] for a in record.actions if a.seat == 0].count("place") == done["place"]
    for seat in (0, 1):
        expect(summary.locator(f'.tr-ranking li[data-seat="{seat}"]')).to_have_attribute(
            "data-score", str(state.scores[seat]))
        expect(summary.locator(f'tfoot td[data-seat="{seat}"]')).to_have_text(
            re.sub("^-", "−", str(state.scores[seat])))
        expect(summary.locator(f'.tr-round-seat[data-seat="{seat}"]')).to_have_attribute(
            "data-round-total", str(history["round_totals"][seat]))
        expect(summary.locator(".tr-left[data-tiles-left]").nth(seat)).to_have_attribute(
            "data-tiles-left", str(history["tiles_left"][seat]))
    expect(summary.locator(".tr-summary-end")).to_have_attribute("data-end", history["end"])
    expect(summary.get_by_role("link", name="Download the game record")).to_be_visible()
    # Closed, the summary comes back on demand; the players panel has the same totals.
    summary.locator('[data-action="close-summary"]').click()
    expect(summary).to_be_hidden()
    for seat in (0, 1):
        expect(page.locator(f'.tr-player[data-seat="{seat}"]')).to_have_attribute(
            "data-score", str(state.scores[seat]))
    page.click('[data-action="show-summary"]')
    expect(page.locator(".tr-summary")).to_be_visible()


@dataclass
class Player:
    name: str
    page: Page
    done: dict[str, int] = field(default_factory=lambda: {"place": 0, "draw": 0, "pass": 0})
    wants_pass: bool = False


def take_turn(player: Player) -> None:
    """Draw once early on, lay tiles, and (for whoever wants it) draw three times and pass."""
    page = player.page
    done = player.done
    if enabled(page, "pass") and (player.wants_pass or not page.locator(
            '.tr-hand-tile[data-playable="true"]').count()):
        pass_button = page.locator('[data-action="pass"]')
        expect(pass_button).to_have_text(re.compile(r"Pass \((−10|0)\)"))
        # The button to urge is the move that makes sense: not a pass while a tile fits.
        if page.locator('.tr-hand-tile[data-playable="true"]').count():
            expect(pass_button).not_to_have_class(re.compile(r"\bprimary\b"))
            done["pass_with_a_fit"] = done.get("pass_with_a_fit", 0) + 1
        else:
            expect(pass_button).to_have_class(re.compile(r"\bprimary\b"))
        act(page, "pass")
        done["pass"] += 1
    elif enabled(page, "draw") and (done["draw"] == 0 or player.wants_pass or not page.locator(
            '.tr-hand-tile[data-playable="true"]').count()):
        drawn = int(page.locator(".tr-draw-count").get_attribute("data-draws") or 0)
        act(page, "draw")
        expect(page.locator(".tr-draw-count")).to_have_text(f"{drawn + 1} of 3 drawn")
        done["draw"] += 1
    elif page.locator('.tr-hand-tile[data-playable="true"]').count():
        place_a_tile(page)
        done["place"] += 1
    else:
        act(page, "pass")
        done["pass"] += 1


def test_two_people_and_a_computer_place_draw_and_pass(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    anna = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    choose_game(anna, web_server, "Anna", ["friend", "bot:greedy"])
    invite = anna.locator("#invite-url").input_value()
    bjarni = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
    bjarni.goto(invite)
    bjarni.fill(".waiting-room input[name=name]", "Bjarni")
    bjarni.get_by_role("button", name="Take this seat").click()
    for page in (anna, bjarni):
        expect(page.locator(".tr-board-svg")).to_be_visible()
        expect(page.locator(".tr-hand-tile")).to_have_count(7)  # 3 players: 7 tiles each
    expect(anna.locator('.tr-player[data-seat="1"]')).to_contain_text("Bjarni")

    players = [Player("Anna", anna), Player("Bjarni", bjarni)]

    def goals_met() -> bool:
        return (all(p.done["place"] >= 1 and p.done["draw"] >= 1 for p in players)
                and any(p.done["pass"] for p in players))

    def turn() -> bool:
        acted = False
        for player in players:
            if not finished(player.page) and my_turn(player.page) and not player.page.locator(
                    ".tr-summary").count():
                # Bjarni, once he has laid a tile, draws three times and passes.
                player.wants_pass = player.name == "Bjarni" and player.done["place"] >= 1
                take_turn(player)
                acted = True
                # Whose draws "N of 3 drawn" counts: under the other's tiles it read as
                # theirs, who had drawn nothing.
                other = next(p for p in players if p is not player)
                if my_turn(player.page) and player.page.locator(".tr-draw-count").count():
                    expect(other.page.locator(".tr-draw-count")).to_have_count(0)
        return acted

    pages = (anna, bjarni)
    waiting.play_until(pages, TABLE, done=goals_met, turn=turn, most=200)
    bjarni.screenshot(path=shots / "triominos-three-players.png")

    # Once the computer has moved, both tables show the same layout, scores and events
    # (nothing changes until Anna or Bjarni acts).
    waiting.play_until(pages, TABLE, done=lambda: my_turn(anna) or my_turn(bjarni),
                       turn=lambda: False, most=200)
    assert anna.locator(".tr-tile").count() == bjarni.locator(".tr-tile").count() > 0
    for seat in range(3):
        score = bjarni.locator(f'.tr-player[data-seat="{seat}"]').get_attribute("data-score")
        expect(anna.locator(f'.tr-player[data-seat="{seat}"]')).to_have_attribute(
            "data-score", score or "")
    expect(anna.locator(".tr-log")).to_contain_text("Bjarni drew a tile (−5)")
    expect(anna.locator(".tr-log")).to_contain_text(re.compile(r"(Anna|Bjarni) passed"))
    expect(bjarni.locator(".tr-log")).to_contain_text(re.compile(r"Anna laid \d-\d-\d"))


def test_a_phone_has_the_board_on_screen_and_the_tiles_at_the_bottom(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    page = context.new_page()
    choose_game(page, web_server, "Sól", ["bot:greedy"])
    expect(page.locator(".tr-table.narrow")).to_be_visible()
    hand = page.locator(".tr-hand-bar")
    expect(hand).to_be_in_viewport()
    bar = hand.bounding_box()
    board = page.locator(".tr-board-area").bounding_box()
    assert bar is not None and board is not None
    assert bar["y"] + bar["height"] == pytest.approx(844, abs=2)  # at the bottom edge
    assert board["width"] >= 360 and board["height"] >= 380
    assert board["y"] + board["height"] <= bar["y"]
    tile = page.locator(".tr-hand-tile").first.bounding_box()
    assert tile is not None and tile["width"] >= 48 and tile["height"] >= 44

    placed = place_on_my_turn(page, touch=True)
    laid = page.locator(f'.tr-tile[data-position="{placed["position"]}"]')
    settled_view(page)  # measured once the view has glided to the new layout
    box = laid.bounding_box()
    assert box is not None and box["width"] >= 44  # big enough to see and to tap around
    expect(laid).to_be_in_viewport()
    page.screenshot(path=shots / "triominos-phone.png")


def settled_view(page: Page) -> str:
    """The board's transform once it has stopped moving: the same for ten frames in a
    row (a glide after a placement, a wheel or a drag runs for a few hundred
    milliseconds, one step every frame)."""
    return str(page.locator(".tr-board-content").evaluate("""content => new Promise(done => {
        let last = content.getAttribute("style"), same = 0;
        const frame = () => {
            const now = content.getAttribute("style");
            same = now === last ? same + 1 : 0;
            last = now;
            if (same >= 10) done(now); else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
    })"""))


def test_the_table_pans_zooms_and_recentres(browser: Browser, web_server: LiveServer) -> None:
    page = browser.new_context(viewport={"width": 1200, "height": 800}).new_page()
    choose_game(page, web_server, "Anna", ["bot:greedy"])
    place_on_my_turn(page)
    content = page.locator(".tr-board-content")
    centred = settled_view(page)  # the view settles on the layout

    box = page.locator(".tr-board").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.wheel(0, 300)  # zoom out: the few tiles and their places stay in sight
    expect(content).not_to_have_attribute("style", centred)
    page.mouse.down()
    page.mouse.move(x + 30, y - 20, steps=10)
    page.mouse.up()
    moved = settled_view(page)  # after the drag, and any glide after it
    assert moved != centred
    # Tiles keep coming in while the view stays where the player put it…
    before = version(page)
    place_on_my_turn(page)
    waiting.wait_for_version(page, TABLE, before + 2)
    assert settled_view(page) == moved
    # …until the recentre button brings the layout back.
    page.click(".tr-recentre")
    expect(content).not_to_have_attribute("style", moved)
    settled_view(page)
    tiles = page.locator(".tr-tile")
    for i in range(tiles.count()):
        expect(tiles.nth(i)).to_be_in_viewport()


def test_a_tile_pressed_after_the_view_was_moved_brings_its_places_into_sight(
        browser: Browser, web_server: LiveServer) -> None:
    """On a phone the player moved the board away, then pressed a tile that fits: the
    status said "choose a glowing space", and none was in sight (pressed again, the only
    tile that fits, chosen already, changed nothing; and the view's glide to the places
    was undone one time in two). Its places come into sight, the zoom kept."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True).new_page()
    choose_game(page, web_server, "Anna", ["bot:greedy"])
    while True:
        wait_for(page, f"document.querySelector('{TABLE}')?.dataset.myTurn === 'true'")
        if page.locator('.tr-hand-tile[data-playable="true"]').count():
            break
        act(page, "draw" if enabled(page, "draw") else "pass")
    settled_view(page)
    board = page.locator(".tr-board").bounding_box()
    assert board is not None
    x, y = board["x"] + board["width"] / 2, board["y"] + board["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 300, y - 350, steps=12)
    page.mouse.up()
    scale = settled_view(page).split("scale(")[-1]
    in_sight = """() => { const b = document.querySelector('.tr-board').getBoundingClientRect();
        return [...document.querySelectorAll('.tr-target')].some(t => {
            const r = t.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
            return x >= b.left && x <= b.right && y >= b.top && y <= b.bottom; }); }"""
    assert not page.evaluate(in_sight)  # (moved off them, or there were none yet)
    press(page.locator('.tr-hand-tile[data-playable="true"]').first, True)
    expect(page.locator(".tr-target").first).to_be_attached()
    page.wait_for_timeout(600)
    assert page.evaluate(in_sight)
    assert settled_view(page).split("scale(")[-1] == scale  # the zoom is the player's


def attached(handle: ElementHandle) -> bool:
    return bool(handle.evaluate("element => element.isConnected"))


def test_the_log_keeps_its_lines_as_the_game_goes_on(
    browser: Browser, web_server: LiveServer
) -> None:
    """Each state puts its events on top of the log; the lines already there stay the
    same elements (re-created for every state, the whole log was redone each time)."""
    page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    choose_game(page, web_server, "Anna", ["bot:greedy"])
    place_on_my_turn(page)
    # On Anna's turn again (the computer has moved), the log has both moves.
    wait_for(page, f"document.querySelector('{TABLE}')?.dataset.myTurn === 'true'")
    seen = version(page)
    expect(page.locator(f'.tr-log li[data-version="{seen}"]')).not_to_have_count(0)
    lines = page.locator(".tr-log li").element_handles()
    assert len(lines) >= 2
    place_on_my_turn(page)
    expect(page.locator(f'.tr-log li[data-version="{seen + 1}"]')).not_to_have_count(0)
    assert all(attached(line) for line in lines), "the log's lines were re-created"


# The page's socket handing state messages over two at a time, in one task: states
# that arrive together (a busy page, a slow network) are drawn once, as the second.
STATES_IN_PAIRS = """
(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    set onmessage(handler) {
      let held = null;
      let timer;
      super.onmessage = (event) => {
        if (JSON.parse(event.data).type !== "state") return handler.call(this, event);
        if (held === null) {
          held = event;  // handed over alone if no other state follows soon
          timer = setTimeout(() => {
            const alone = held;
            held = null;
            handler.call(this, alone);
          }, 800);
          return;
        }
        clearTimeout(timer);
        const first = held;
        held = null;
        handler.call(this, first);
        handler.call(this, event);
      };
    }
    get onmessage() { return super.onmessage; }
  };
})();
"""


def test_states_that_arrive_together_lose_no_line_of_the_log(
    browser: Browser, web_server: LiveServer
) -> None:
    """Every action's events reach the log, also when two states are drawn as one (the
    log read the drawn state's events only: the first state's were lost)."""
    page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    page.add_init_script(STATES_IN_PAIRS)
    choose_game(page, web_server, "Anna", ["bot:greedy", "bot:greedy"])
    for _ in range(2):
        place_on_my_turn(page)
    wait_for(page, f"document.querySelector('{TABLE}')?.dataset.myTurn === 'true'")
    now = version(page)
    logged = {int(v) for v in page.locator(".tr-log li").evaluate_all(
        "lines => lines.map(line => line.dataset.version)")}
    # Each action (a tile laid, drawn, or a pass) logs at least one line.
    assert set(range(1, now + 1)) <= logged, f"no line for {set(range(1, now + 1)) - logged}"


def stored_table(data_dir: Path, options: dict[str, Any], seed: int, seats: list[str | None],
                 actions: list[tuple[int, dict[str, Any]]] | None = None, name: str = "Anna"
                 ) -> tuple[str, str]:
    """A Triominos table with a chosen seed, written into the server's storage before the
    server starts (the server gives the tables it creates a random seed). ``seats``: a
    bot's name, or ``None`` for the person (``name``), whose seat link token is returned
    with the table's id. ``actions`` are the record so far; the server replays them on
    start."""
    config = GAME.make_config(options, len(seats))
    token = secrets.token_urlsafe(24)
    table = TableRow(
        id=secrets.token_urlsafe(9), game="triominos", config=stored_options(config),
        seed=seed, host_hash=token_hash(secrets.token_urlsafe(24)), created=time.time(),
        seats=[SeatRow(seat, "bot", bot=bot) if bot else
               SeatRow(seat, "human", name=name, token_hash=token_hash(token))
               for seat, bot in enumerate(seats)])
    data_dir.mkdir(parents=True, exist_ok=True)
    storage = SQLiteStorage(data_dir / "gametable.sqlite3")

    async def write() -> None:
        await storage.create_table(table)
        for number, (seat, action) in enumerate(actions or [], start=1):
            await storage.append_action(table.id, number, seat, action)

    try:
        run_async(write())
    finally:
        storage.close()
    return table.id, token


def serve_as_starter(data_dir: Path, options: dict[str, Any], seed: int
                     ) -> tuple[LiveServer, str, str]:
    """A started server with a two-seat table of ``seed`` where the person sits at the
    seat that starts the round and ``greedy`` at the other: ``(server, table, token)``."""
    state = GAME.new_game(GAME.make_config(options, 2), 2, seed)
    (starter,) = GAME.to_act(state)
    seats: list[str | None] = ["greedy", "greedy"]
    seats[starter] = None
    table, token = stored_table(data_dir, options, seed, seats)
    server = LiveServer(data_dir=data_dir, bot_delay=0.15)
    server.start()
    return server, table, token


def test_tr_setup_4_the_starter_chooses_to_open_with_0_0_0(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """A PRESSMAN starter holding 0-0-0 and a higher triple sees both openings with
    their points, and opens with 0-0-0 for +40 (rules version 2)."""
    (seed,) = opening_choice_seeds(2)
    options = {"edition": "PRESSMAN"}
    state = GAME.new_game(GAME.make_config(options, 2), 2, seed)
    (starter,) = GAME.to_act(state)
    high = GAME.view(state, starter)["forced"]
    value = sum(int(n) for n in high.split("-"))
    server, table, token = serve_as_starter(tmp_path / "data", options, seed)
    try:
        page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        page.goto(f"{server.url}/t/{table}#seat={token}")
        expect(page.locator(TABLE)).to_have_attribute("data-my-turn", "true")
        expect(page.locator(".tr-status")).to_contain_text(
            f"You start the round: choose whether to lay {high} or 0-0-0 in the middle.")
        openings = page.get_by_role("group", name="Opening tile").locator(
            '[data-action="open"]')
        expect(openings).to_have_text([f"Open with {high} (+{value + 10})",
                                       "Open with 0-0-0 (+40)"])
        # Both tiles are highlighted in the hand; nothing else may open the round, and
        # a greyed tile says so (it said "fits nowhere on the table now", on an empty
        # table).
        expect(page.locator('.tr-hand-tile[data-playable="true"]')).to_have_count(2)
        expect(page.locator('.tr-hand-tile[data-playable="false"]').first).to_have_attribute(
            "title", re.compile(r"^Tile \S+ \(\d+ points?\): not the tile that opens the round$"))
        page.screenshot(path=shots / "triominos-opening-choice.png")

        before = version(page)
        openings.filter(has_text="0-0-0").click()
        wait_for_new_state(page, before)
        expect(page.locator('.tr-tile[data-position="0,0"]')).to_have_attribute(
            "data-tile", "0-0-0")
        expect(page.locator(f'.tr-player[data-seat="{starter}"]')).to_have_attribute(
            "data-score", "40")
        expect(page.locator(".tr-openings")).to_have_count(0)
        expect(page.locator(".tr-log")).to_contain_text("Anna laid 0-0-0: +40")
        # Who starts and why, without the points of an opening she did not make (it
        # said "starts with the triple 4-4-4 (+10)" above "laid 0-0-0: +40").
        expect(page.locator('.tr-log li[data-event="round_start"]')).to_have_text(
            f"Round 1: Anna holds the highest triple, {high}, and starts.")
        expect(page.locator(f'.tr-hand-tile[data-tile="{high}"]')).to_be_visible()
    finally:
        server.stop()


@pytest.mark.parametrize(("rules_version", "shown"), [(2, "Pass (0)"), (1, "Pass (−10)")])
def test_tr_draw_3_the_pass_button_after_a_third_draw_that_emptied_the_pool(
    browser: Browser, tmp_path: Path, rules_version: int, shown: str
) -> None:
    """The shared record's solo game up to its last action: three draws emptied the pool
    and nothing fits. The pass button shows what the pass costs by the table's rules."""
    fixture = Path(__file__).parents[1] / "games" / "triominos" / "records" / \
        "tri_pass_after_pool_emptied.json"
    record = GameRecord.model_validate_json(fixture.read_text())
    table, token = stored_table(
        tmp_path / "data", {**record.config, "rules_version": rules_version}, record.seed,
        [None], [(step.seat, step.action) for step in record.actions[:-1]])
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=0.15)
    server.start()
    try:
        page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        page.goto(f"{server.url}/t/{table}#seat={token}")
        expect(page.locator(".tr-draw-count")).to_have_text("3 of 3 drawn")
        expect(page.locator('[data-action="draw"]')).to_be_disabled()
        expect(page.locator('[data-action="pass"]')).to_have_text(shown)
        before = version(page)
        page.click('[data-action="pass"]')
        wait_for_new_state(page, before)
        expect(page.locator('.tr-player[data-seat="0"]')).to_have_attribute(
            "data-score", "151" if rules_version == 2 else "141")
        if rules_version == 2:
            # The game is over. Alone at the table nobody wins against anyone: the score
            # is the news (it said "You win!").
            expect(page.locator("#tr-summary-title")).to_have_text(
                re.compile(r"^Game over: .+ scored 151 points\.$"))
            # So does the status line once the result is closed.
            page.locator('[data-action="close-summary"]').click()
            expect(page.locator(".tr-status-text")).to_have_text(
                re.compile(r"^Game over: .+ scored 151 points\.$"))
    finally:
        server.stop()


def test_a_phone_scrolls_the_hand_to_the_tile_chosen_for_the_player(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """On a phone the hand is one row that scrolls sideways. When only one tile can be
    laid (here the highest triple that must open the round, TR-SETUP-4's
    ``highest_triple`` rule; also the tile just drawn, TR-DRAW-1) the table chooses it
    for the player, and the row scrolls so that the chosen tile is in sight."""
    options = {"start_rule": "highest_triple"}
    seed = 0
    state = GAME.new_game(GAME.make_config(options, 2), 2, seed)
    (starter,) = GAME.to_act(state)
    hand = GAME.view(state, starter)["hand"]
    (only,) = {a["tile"] for a in GAME.legal_actions(state, starter) if a["type"] == "place"}
    assert hand.index(only) == len(hand) - 1  # the last of nine: past a phone's edge
    server, table, token = serve_as_starter(tmp_path / "data", options, seed)
    try:
        context = browser.new_context(viewport={"width": 390, "height": 844},
                                      is_mobile=True, has_touch=True, device_scale_factor=2)
        page = context.new_page()
        page.goto(f"{server.url}/t/{table}#seat={token}")
        expect(page.locator(".tr-table.narrow")).to_have_attribute("data-my-turn", "true")
        chosen = page.locator(".tr-hand-tile.selected")
        expect(chosen).to_have_attribute("data-tile", only)
        row = page.locator(".tr-hand")
        assert row.evaluate("list => list.scrollWidth > list.clientWidth")  # it overflows
        wait_for(page, """(() => {
            const row = document.querySelector('.tr-hand').getBoundingClientRect();
            const tile = document.querySelector('.tr-hand-tile.selected')
                .getBoundingClientRect();
            return tile.left >= row.left - 1 && tile.right <= row.right + 1;
        })()""")
        page.screenshot(path=shots / "triominos-phone-chosen-tile.png")
        # A tap on a greyed tile did nothing (its reason was a tooltip, which a phone
        # never shows): it says why, and leaves the chosen tile chosen.
        greyed = page.locator('.tr-hand-tile[data-playable="false"]').last  # in sight
        tile = greyed.get_attribute("data-tile")
        expect(greyed).to_be_disabled()  # as assistive technology is told (aria-disabled)
        greyed.tap(force=True)  # which a person's finger does not know
        expect(page.locator('[data-hint="fits-nowhere"]')).to_contain_text(
            f"Tile {tile} (")
        # On the empty table it is not that the tile fits nowhere (TR-SETUP-4).
        expect(page.locator('[data-hint="fits-nowhere"]')).to_contain_text(
            "not the tile that opens the round")
        expect(chosen).to_have_attribute("data-tile", only)
        expect(chosen).to_be_in_viewport()  # the rack stays in sight under the note
        page.screenshot(path=shots / "triominos-phone-greyed-tile-tapped.png")
        # So did a tap on Pass before it is allowed (TR-DRAW-2/3): it says when it is.
        pass_button = page.locator('[data-action="pass"]')
        expect(pass_button).to_be_disabled()
        pass_button.tap(force=True)
        note = page.locator('[data-note="pass-not-yet"]')
        expect(note).to_have_text("End your turn without laying a tile: after three draws, "
                                  "or when the pool is empty and nothing fits.")
        expect(note).to_be_in_viewport()
        expect(page.locator(".tr-table")).to_have_attribute("data-my-turn", "true")
    finally:
        server.stop()


# A four-seat table (the person at seat 0, the computer at the others) whose seed 7 has
# the computer's seat 2 start, and whose one round ends with points scored in an order
# that differs from seat to seat ("Tiles drawn" before "Tiles placed" for seat 0).
FOUR_OPTIONS: dict[str, Any] = {"rounds": 1}
FOUR_SEED = 7
FOUR_SEATS: list[str | None] = [None, "hard", "medium", "easy"]
Actions = list[tuple[int, dict[str, Any]]]


def played(options: dict[str, Any], seats: int, seed: int,
           stop: Callable[[TriominosState], bool] | None = None) -> Actions:
    """The actions of a game of ``seed`` played by ``greedy`` at every seat, up to its end
    or until ``stop`` says so (checked before each action)."""
    state = GAME.new_game(GAME.make_config(options, seats), seats, seed)
    bots = [make_bot("greedy", GAME, seed + seat) for seat in range(seats)]
    actions: Actions = []
    while GAME.to_act(state) and not (stop and stop(state)):
        seat = min(GAME.to_act(state))
        action = dict(bots[seat].choose(GAME.view(state, seat),
                                        GAME.legal_actions(state, seat)))
        GAME.apply(state, seat, action)
        actions.append((seat, action))
    return actions


def serve_played(data_dir: Path, options: dict[str, Any], seed: int, seats: list[str | None],
                 stop: Callable[[TriominosState], bool] | None = None, bot_delay: float = 0.15,
                 name: str = "Anna") -> tuple[LiveServer, str]:
    """A started server with a table of ``seed`` played by ``greedy`` (see :func:`played`)
    and Anna (or ``name``) at the seat that is ``None``: ``(server, her address)``."""
    actions = played(options, len(seats), seed, stop)
    table, token = stored_table(data_dir, options, seed, seats, actions, name)
    server = LiveServer(data_dir=data_dir, bot_delay=bot_delay)
    server.start()
    return server, f"{server.url}/t/{table}#seat={token}"


def serve_four(data_dir: Path, stop: Callable[[TriominosState], bool] | None = None,
               bot_delay: float = 0.15) -> tuple[LiveServer, str]:
    return serve_played(data_dir, FOUR_OPTIONS, FOUR_SEED, FOUR_SEATS, stop, bot_delay)


def phone(browser: Browser) -> Page:
    return browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True, device_scale_factor=2).new_page()


def test_at_200_percent_tab_brings_each_round_above_the_results_actions(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """A laptop's 1366 × 768 window at 200 % (683 × 384 CSS pixels): the final result's
    buttons stay at the dialog's foot while it scrolls, and a round's number brought
    into view by Tab lay under them, out of sight. Each one stops above them now."""
    server, url = serve_played(tmp_path / "data", {"rounds": 6}, 7,
                               [None, "greedy", "greedy"])
    try:
        page = browser.new_context(viewport={"width": 683, "height": 384}).new_page()
        page.goto(url)
        expect(page.locator(".tr-summary")).to_have_attribute("data-finished", "true")
        rounds = page.locator(".tr-summary tbody th button")
        expect(rounds).to_have_count(6)
        expect(page.locator('[data-action="close-summary"]')).to_be_focused()
        bar = page.locator(".tr-summary .result-actions")
        focused = page.locator(".tr-summary tbody th button:focus")
        for _ in range(8):  # past the result's buttons, round to the dialog's top
            page.keyboard.press("Tab")
            if focused.count():
                break
        seen = [focused.inner_text()]
        for key in ["Tab"] * 5 + ["Shift+Tab"] * 5:
            page.keyboard.press(key)
            expect(focused).to_have_count(1)
            seen.append(focused.inner_text())
            page.wait_for_timeout(50)  # the scroll that brings it into view
            button, actions = focused.bounding_box(), bar.bounding_box()
            assert button is not None and actions is not None
            assert button["y"] >= 0 and button["y"] + button["height"] <= actions["y"], (
                seen[-1], button, actions)
        assert seen == ["1", "2", "3", "4", "5", "6", "5", "4", "3", "2", "1"]
        page.screenshot(path=shots / "triominos-200-percent-rounds.png")
    finally:
        server.stop()


def test_rules_4_pressman_the_last_rounds_winner_won_and_the_result_says_why(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """A table played by rules version 4, which followed a published Pressman sheet
    (docs/triominos.md, Game end; now TR-END-4's most points): two players passed 100 in
    the last round and the one who won it wins with fewer points than the other; the
    result names them, ranks the winner first and says why (it read "Greedy 2 wins" to a
    room that saw Greedy 3 win). Triominos' Medium is its Greedy player: the pages say
    so in its name, "Greedy 3 · Medium"."""
    options = {"edition": "PRESSMAN", "target_score": 100, "rules_version": 4}
    server, url = serve_played(tmp_path / "data", options, 7, [None, "greedy", "greedy"])
    try:
        page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        page.goto(url)
        expect(page.locator(".tr-summary")).to_have_attribute("data-finished", "true")
        expect(page.locator("#tr-summary-title")).to_have_text("Greedy 3 · Medium wins!")
        ranks = page.locator(".tr-ranking li")
        expect(ranks.first).to_have_attribute("data-seat", "2")
        expect(ranks.first).to_have_attribute("data-score", "109")
        expect(ranks.nth(1)).to_have_attribute("data-score", "172")
        expect(page.locator(".tr-win-rule")).to_have_text(
            "Greedy 2 · Medium and Greedy 3 · Medium reached 100 points in the last round: "
            "Greedy 3 · Medium won that round and with it the game (Pressman rules).")
        page.screenshot(path=shots / "triominos-pressman-round-winner.png")
        # Once the result is closed, the status line still says who won.
        page.locator('[data-action="close-summary"]').click()
        expect(page.locator(".tr-status-text")).to_have_text(
            "The game is over: Greedy 3 · Medium won.")
        # Icelandic: the verbs agree with two players past the target ("náðu") and one
        # round winner ("vann"); the first verb followed the winners' count.
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        context.add_init_script("localStorage.setItem('gametable.lang', 'is');")
        icelandic = context.new_page()
        icelandic.goto(url)
        expect(icelandic.locator(".tr-win-rule")).to_have_text(re.compile(
            r"^Gráðug 2 · Miðlungs og Gráðug 3 · Miðlungs náðu 100 stigum í síðustu lotu: "
            r"Gráðug 3 · Miðlungs vann þá lotu og þar "
            r"með leikinn \(reglur Pressman\)\.$"))
        icelandic.screenshot(path=shots / "triominos-pressman-round-winner-is.png")
    finally:
        server.stop()


def test_a_phone_opens_the_final_result_at_its_top_with_the_totals_in_reach(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """The result dialog opens with the winner and the ranking in sight, the close button
    focused all the same; the totals table fits a 390-pixel phone, and on a narrower one
    scrolls sideways in its own box, which fades at the edge where there is more."""
    server, url = serve_four(tmp_path / "data")
    try:
        page = phone(browser)
        page.goto(url)
        summary = page.locator(".tr-summary")
        expect(summary).to_have_attribute("data-finished", "true")
        expect(page.locator("#tr-summary-title")).to_be_in_viewport()
        expect(page.locator(".tr-ranking")).to_be_in_viewport()
        assert summary.evaluate("panel => panel.scrollTop") == 0
        expect(page.locator('[data-action="close-summary"]')).to_be_focused()
        # The end's actions (see the table, play again, the replay, the record) stay in
        # sight at the dialog's bottom while it scrolls (they were a long scroll down).
        actions = page.locator(".tr-summary .result-actions")
        expect(actions).to_be_in_viewport(ratio=1)
        expect(actions.locator('[data-action="close-summary"]')).to_be_in_viewport(ratio=1)
        page.screenshot(path=shots / "triominos-phone-result.png")

        wrap = page.locator(".tr-totals-wrap")
        wrap.scroll_into_view_if_needed()
        # A round's winner's points are green, and the table says what green means (it
        # read as "did better", beside a higher score in black). Not by colour alone:
        # they are underlined, and a screen reader hears who won the round.
        winner = wrap.locator("td.winner").first
        expect(winner).to_be_visible()
        expect(winner).to_have_css("text-decoration-line", "underline")
        expect(winner).to_contain_text("(won the round)")
        expect(wrap.locator("td:not(.winner)").first).to_have_css("text-decoration-line",
                                                                  "none")
        expect(page.locator(".tr-totals-legend")).to_have_text(
            "Underlined, in green: who won the round (went out first, or held the fewest "
            "points when nobody could play).")
        # Four seats' totals fit a 390-pixel phone (computer players by their short
        # names): nothing to scroll, no fade.
        assert wrap.evaluate("box => box.scrollWidth <= box.clientWidth + 1")
        assert fades(wrap) == (False, False)
        # On a 360-pixel phone they are a little wider than the dialog: the table
        # scrolls sideways in its own box, which fades at the edge where there is more.
        page.set_viewport_size({"width": 360, "height": 640})
        wrap.scroll_into_view_if_needed()
        assert wrap.evaluate("box => box.scrollWidth > box.clientWidth")
        assert fades(wrap) == (False, True)
        wrap.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
        assert fades(wrap) == (True, False)
        edges = wrap.evaluate("""box => {
            const outer = box.getBoundingClientRect();
            const last = box.querySelector('thead th:last-child').getBoundingClientRect();
            return [outer.left, outer.right, last.left, last.right];
        }""")
        assert edges[0] - 1 <= edges[2] and edges[3] <= edges[1] + 1  # the last seat, whole
        expect(actions).to_be_in_viewport(ratio=1)
        page.screenshot(path=shots / "triominos-phone-result-totals.png")
    finally:
        server.stop()


@pytest.mark.parametrize("size", [(390, 844), (360, 640), (667, 375)])
def test_a_phone_keeps_a_rounds_continue_button_in_sight(
    browser: Browser, tmp_path: Path, shots: Path, size: tuple[int, int]
) -> None:
    """A round's summary in the middle of a game lists four seats' points and every
    round's before its Continue button, which was a long scroll below a phone's window:
    it stays at the dialog's foot while the points scroll (as the end's actions do)."""
    server, url = serve_played(tmp_path / "data", {"rounds": 3}, FOUR_SEED, FOUR_SEATS,
                               stop=lambda state: state.round >= 2)
    try:
        width, height = size
        page = browser.new_context(viewport={"width": width, "height": height},
                                   is_mobile=True, has_touch=True,
                                   device_scale_factor=2).new_page()
        page.goto(url)
        page.get_by_role("button", name="Scores").tap()
        summary = page.locator(".tr-summary")
        expect(summary).to_have_attribute("data-round", "1")
        assert summary.evaluate("panel => panel.scrollHeight > panel.clientHeight + 50")
        expect(page.locator("#tr-summary-title")).to_be_in_viewport()
        go_on = page.locator('[data-action="close-summary"]')
        expect(go_on).to_have_text("Continue")
        expect(go_on).to_be_in_viewport(ratio=1)
        page.screenshot(path=shots / f"triominos-phone-round-{height}.png")
        # Computer players head the totals by their short names, and four seats' totals
        # fit across a 390-pixel phone (a long name was cut at the window's edge:
        # "Computer 2 · Medi"; at 360 pixels the table still scrolls sideways a little).
        expect(page.locator(".tr-totals thead th").nth(2)).to_have_text("Computer 2")
        wrap = page.locator(".tr-totals-wrap")
        if width >= 390:
            assert wrap.evaluate("w => w.scrollWidth <= w.clientWidth + 1"), wrap.evaluate(
                "w => [w.scrollWidth, w.clientWidth]")
        # Scrolled to the totals, the button is still there, and not over the last line.
        page.locator(".tr-totals-legend").scroll_into_view_if_needed()
        expect(go_on).to_be_in_viewport(ratio=1)
        legend = page.locator(".tr-totals-legend").bounding_box()
        bar = page.locator(".tr-summary .result-actions").bounding_box()
        assert legend and bar and legend["y"] + legend["height"] <= bar["y"] + 1
        # The bar reaches the dialog's edge: nothing scrolling under it shows below it.
        edge = summary.evaluate("panel => panel.getBoundingClientRect().bottom - 1")
        assert bar["y"] + bar["height"] >= edge - 0.5, (bar, edge)
        go_on.tap()
        expect(summary).to_have_count(0)
    finally:
        server.stop()


def annas_turn(state: TriominosState) -> bool:
    return 0 in GAME.to_act(state)


def test_a_phone_shows_an_event_on_one_line(browser: Browser, tmp_path: Path) -> None:
    """The toast over a phone's board is as wide as its text up to the board's width
    (a toast from the middle of the board had only half of it): "Computer 3 · Medium
    laid 3-4-4: +11" is one line, and a tile's name never breaks at its hyphens."""
    # After Anna's move the computer takes half a second or more for each of its own.
    server, url = serve_four(tmp_path / "data", annas_turn, bot_delay=1.0)
    try:
        page = phone(browser)
        page.goto(url)
        place_on_my_turn(page, touch=True)
        # Measured as soon as it shows (the computer's next move replaces it).
        seen = None
        deadline = time.monotonic() + 30
        while seen is None and time.monotonic() < deadline:
            seen = page.evaluate("""() => {
                const line = [...document.querySelectorAll('.tr-toast > span')]
                    .find(line => /^Computer .* laid /.test(line.textContent));
                if (!line) return null;
                const range = document.createRange();
                range.selectNodeContents(line);
                const box = element => {
                    const rect = element.getBoundingClientRect();
                    return [rect.left, rect.right];
                };
                return {
                    text: line.textContent,
                    tops: [...range.getClientRects()].map(rect => Math.round(rect.top)),
                    toast: box(line.parentElement),
                    board: box(document.querySelector('.tr-board-area')),
                };
            }""")
        assert seen is not None, "no toast of a tile laid"
        assert re.match(r"Computer \d · (Hard|Medium|Easy) laid \d-\d-\d: ", seen["text"])
        assert len(set(seen["tops"])) == 1, f"the toast's line broke: {seen}"
        (left, right), (board_left, board_right) = seen["toast"], seen["board"]
        assert board_left <= left < right <= board_right
    finally:
        server.stop()


def clipped(names: Locator) -> list[str]:
    """The texts of ``names`` that do not fit their boxes (cut off with an ellipsis; a
    numbered name on a phone is cut in its words, its number kept)."""
    return [str(text) for text in names.evaluate_all(
        "names => names.filter(name => [name, ...name.querySelectorAll('.tr-label-head')]"
        ".some(box => box.scrollWidth > box.clientWidth + 1))"
        ".map(name => name.textContent)")]


# The players' names that go over two lines inside a word ("Ann / a", "Compute / r").
BROKEN_NAMES = broken_words(".tr-side .tr-player-label")


def test_long_names_show_whole_with_the_starters_flag_beside(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """"Computer 2 · Hard" and "Computer 3 · Medium" show whole in the round's cards. In
    the players list at 1920 and 1366 wide a computer player is "Computer 3" with its
    level as a tag beside or under it, the starter's flag beside the tag (the list's
    "Computer 3 · / Medium" broke at the "·"); on a phone's strip they stay short, whole
    in their titles. There the seat's colour and its tiles in hand are one mark (a dot
    and "▲ 7" took the room of three letters of the name), its count drawn 12 px or
    larger, and each score keeps apart from the name's number ("Datamas… 2 44" read as
    244)."""
    server, url = serve_four(tmp_path / "data")  # seat 2, Computer 3 · Medium, started
    try:
        page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        page.goto(url)
        cards = page.locator(".tr-round-seat-name")
        expect(cards).to_have_text(["Anna", "Computer 2 · Hard", "Computer 3 · Medium",
                                    "Computer 4 · Easy"])
        assert clipped(cards) == []
        page.locator('[data-action="close-summary"]').click()
        for width, height in ((1920, 1080), (1366, 768)):
            page.set_viewport_size({"width": width, "height": height})
            labels = page.locator(".tr-side .tr-player-label")
            expect(labels).to_have_count(4)
            assert clipped(labels) == [], f"names cut at {width} wide"
            assert page.evaluate(BROKEN_NAMES) == [], f"a word broken at {width} wide"
            row = page.locator('.tr-side .tr-player[data-seat="2"]')
            expect(row.locator(".tr-player-label")).to_have_text("Computer 3")
            expect(row.locator(".tr-player-name")).to_contain_text("Computer 3 · Medium")
            level, flag = row.locator(".tr-level"), row.locator(".tr-starter")
            expect(level).to_have_text("· Medium")  # the "·" is for screen readers only
            assert level.locator(".sr-only").evaluate("(e) => getComputedStyle(e).position") \
                == "absolute"
            tag, mark = level.bounding_box(), flag.bounding_box()
            assert tag is not None and mark is not None
            assert mark["x"] >= tag["x"] + tag["width"] - 1  # to the right of the level…
            assert mark["y"] < tag["y"] + tag["height"] and tag["y"] < mark["y"] + mark[
                "height"]  # …not on a line of its own
        page.screenshot(path=shots / "triominos-long-names.png")

        small = phone(browser)
        small.goto(url)
        small.locator('[data-action="close-summary"]').click()
        strip = small.locator(".tr-players.compact .tr-player-label")
        expect(strip).to_have_count(4)
        expect(strip).to_have_text(["Anna", "Computer 2", "Computer 3", "Computer 4"])
        marks = small.locator(".tr-players.compact .tr-tiles-mark")
        expect(marks).to_have_count(4)
        expect(small.locator(".tr-players.compact .tr-seat-dot")).to_have_count(0)
        for seat, whole in enumerate(["Anna", "Computer 2 · Hard", "Computer 3 · Medium",
                                      "Computer 4 · Easy"]):
            expect(strip.nth(seat)).to_have_attribute("title", whole)  # the level too
            chip = small.locator(f'.tr-players.compact .tr-player[data-seat="{seat}"]')
            tiles = chip.get_attribute("data-tiles")
            # Whoever went out (here Anna; Computer 2 laid its last tile after her) has a
            # ✓ for the count, "out" in its title.
            went_out = marks.nth(seat).get_attribute("title") == "out"
            assert went_out == (seat == 0), seat
            expect(marks.nth(seat).locator("svg text")).to_have_text(
                "✓" if went_out else str(tiles))
            # The count as drawn is 12 px at least (it was 11: 10.5 units in a mark 1.07
            # times its viewBox).
            drawn = marks.nth(seat).locator("svg").evaluate(
                "svg => parseFloat(getComputedStyle(svg.querySelector('text')).fontSize)"
                " * Math.min(svg.getBoundingClientRect().width / svg.viewBox.baseVal.width,"
                " svg.getBoundingClientRect().height / svg.viewBox.baseVal.height)")
            assert drawn >= 12, (seat, drawn)
            # A screen reader hears the name first, then the tiles, then the score.
            spoken = chip.evaluate("c => [...c.querySelectorAll('.sr-only')].map(e => "
                                   "e.textContent.trim())")
            assert f"{tiles} tiles in hand" in spoken, spoken
            assert (chip.text_content() or "").index(f"{tiles} tiles in hand") > (
                chip.text_content() or "").index(whole.split(" · ")[0]), seat
            name, score = (chip.locator(part).bounding_box()
                           for part in (".tr-player-name",
                                        '.tr-player-score > [aria-hidden="true"]'))
            assert name is not None and score is not None
            assert score["x"] - (name["x"] + name["width"]) >= 6, seat  # apart
        small.screenshot(path=shots / "triominos-phone-strip-marks.png")
    finally:
        server.stop()


def test_a_wide_short_window_keeps_nine_tiles_in_one_row(browser: Browser, tmp_path: Path
                                                         ) -> None:
    """At 1366 × 650 a hand of nine tiles is one row of somewhat smaller tiles (it wrapped
    to a second row: the bar grew to 180 px and left the board 319 px)."""
    server, url = serve_played(tmp_path / "data", {}, 2, [None, "hard"], annas_turn)
    try:
        page = browser.new_context(viewport={"width": 1366, "height": 650}).new_page()
        page.goto(url)
        tiles = page.locator(".tr-hand-tile")
        expect(tiles).to_have_count(9)
        boxes = [tiles.nth(i).bounding_box() for i in range(9)]
        assert all(box is not None for box in boxes)
        assert len({round(box["y"]) for box in boxes if box}) == 1  # one row
        assert all(box["width"] >= 56 for box in boxes if box)
        bar = page.locator(".tr-hand-bar").bounding_box()
        board = page.locator(".tr-board-area").bounding_box()
        assert bar is not None and board is not None
        assert bar["height"] <= 100 and board["height"] >= 400
        assert bar["y"] + bar["height"] <= 650  # the hand in the window
        assert fades(page.locator(".tr-hand")) == (False, False)  # nothing out of sight
    finally:
        server.stop()


def test_a_tablet_held_sideways_shows_the_whole_rack_in_one_row(
        browser: Browser, tmp_path: Path) -> None:
    """At 1024 × 768 the rack stood under the board alone, beside the side panel: six
    tiles and a half were in sight, the rest scrolled. It takes the whole width."""
    server, url = serve_played(tmp_path / "data", {}, 2, [None, "hard"], annas_turn)
    try:
        page = browser.new_context(viewport={"width": 1024, "height": 768},
                                   has_touch=True).new_page()
        page.goto(url)
        tiles = page.locator(".tr-hand-tile")
        expect(tiles).to_have_count(9)
        assert fades(page.locator(".tr-hand")) == (False, False)  # nothing out of sight
        for index in range(9):
            expect(tiles.nth(index)).to_be_in_viewport(ratio=1)
        bar = page.locator(".tr-hand-bar").bounding_box()
        assert bar is not None and bar["width"] >= 950 and bar["y"] + bar["height"] <= 768
        side = page.locator(".tr-side").bounding_box()
        assert side is not None and side["y"] + side["height"] <= bar["y"]
    finally:
        server.stop()


REASONS = ["tile", "start_bonus", "bridge", "extended_bridge", "hexagon", "double_hexagon",
           "triple_hexagon", "draw", "pass", "out", "hands_left", "blocked"]


def in_order(reasons: list[str]) -> list[str]:
    return sorted(reasons, key=REASONS.index)


def test_the_rounds_points_come_in_one_order_for_every_player(
    browser: Browser, tmp_path: Path
) -> None:
    """The server lists a seat's points in the order they first happened in the round
    (Anna drew before she laid a tile); the summary shows every seat's lines in one
    order: tiles placed, bonuses, draws, passes, going out, the others' hands."""
    server, url = serve_four(tmp_path / "data")
    try:
        page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        page.goto(url)
        expect(page.locator(".tr-summary")).to_have_attribute("data-finished", "true")
        record = GameRecord.model_validate(
            httpx.get(f"{server.url}/api/tables/{table_id(page)}/record").json())
        points = replay(record).state.history[0]["points"]
        served = [[line["reason"].removeprefix("triominos.reasons.") for line in points
                   if line["seat"] == seat] for seat in range(4)]
        assert served[0] != in_order(served[0])  # "Tiles drawn" came first from the server
        for seat in range(4):
            shown = page.locator(f'.tr-round-seat[data-seat="{seat}"] li[data-reason]')
            expect(shown).to_have_count(len(served[seat]))
            reasons = [str(reason).removeprefix("triominos.reasons.") for reason in
                       shown.evaluate_all("lines => lines.map(line => line.dataset.reason)")]
            assert reasons == in_order(served[seat])
    finally:
        server.stop()


def test_a_phone_hints_that_the_players_and_the_tiles_scroll(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """Seven tiles are wider than a phone: the hand fades out at the edge past which
    there is more, and stops fading there once scrolled to the end. The four players
    stand two to a row, every score in sight (a strip that scrolled hid the third and
    fourth players' scores)."""
    server, url = serve_four(tmp_path / "data", annas_turn)
    try:
        page = phone(browser)
        page.goto(url)
        expect(page.locator(".tr-hand-tile")).to_have_count(7)
        page.screenshot(path=shots / "triominos-phone-four-players.png")
        strip = page.locator(".tr-players.compact")
        assert strip.evaluate("row => row.scrollWidth <= row.clientWidth")
        for chip in strip.locator(".tr-player").all():
            expect(chip.locator(".tr-player-score")).to_be_in_viewport(ratio=1)
        for row in (page.locator(".tr-hand"),):
            assert row.evaluate("row => row.scrollWidth > row.clientWidth")
            assert fades(row) == (False, True)
            row.evaluate("row => { row.scrollLeft = row.scrollWidth; }")
            assert fades(row) == (True, False)
    finally:
        server.stop()


def test_a_tablet_held_upright_shows_the_rack_at_a_tablets_size(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """A tablet held upright is laid out as a phone (the rack under the board), but its
    tiles were a phone's 58 px under a board of 900: they now take the width there is
    (up to 92 px), while a phone keeps its 58."""
    created = httpx.post(f"{web_server.url}/api/tables", json={
        "game": "triominos", "config": {}, "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}]}).json()
    link = f"{web_server.url}/t/{created['table']['id']}#seat={created['token']}"
    tablet = browser.new_context(viewport={"width": 820, "height": 1180}, is_mobile=True,
                                 has_touch=True).new_page()
    tablet.goto(link)
    tiles = tablet.locator(".tr-hand-tile")
    expect(tiles.first).to_be_visible()
    tablet.screenshot(path=shots / "triominos-tablet-rack.png")
    widths = [box["width"] for tile in tiles.all() if (box := tile.bounding_box())]
    assert widths and min(widths) >= 75, widths  # nine tiles across 820 px
    page = phone(browser)
    page.goto(link)
    expect(page.locator(".tr-hand-tile").first).to_be_visible()
    box = page.locator(".tr-hand-tile").first.bounding_box()
    assert box is not None and 57 <= box["width"] <= 59, box


def test_on_a_small_phone_both_scores_stay_in_sight_in_the_players_strip(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """Two players on a 320-pixel-wide phone: the strip above the board showed the
    second player's score cut off under its fading edge (the names took their full
    width, and tags such as "out" more). Now the names give way to an ellipsis."""
    created = httpx.post(f"{web_server.url}/api/tables", json={
        "game": "triominos", "config": {}, "name": "Annabella Guðrún",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "medium"}]}).json()
    page = browser.new_context(viewport={"width": 320, "height": 640}).new_page()
    page.goto(f"{web_server.url}/t/{created['table']['id']}#seat={created['token']}")
    strip = page.locator(".tr-players.compact")
    expect(strip.locator(".tr-player")).to_have_count(2)
    assert strip.evaluate("s => s.scrollWidth <= s.clientWidth"), "the strip scrolls"
    edges = strip.evaluate("""s => [s.getBoundingClientRect().right,
        ...[...s.querySelectorAll('.tr-player-score')]
            .map(e => e.getBoundingClientRect().right)]""")
    assert all(right <= edges[0] for right in edges[1:]), edges
    page.screenshot(path=str(shots / "triominos-small-phone-strip.png"))


STRIP_LAYOUT = """strip => {
    const right = strip.getBoundingClientRect().right;
    return {
        page: document.documentElement.scrollWidth,
        scrolls: strip.scrollWidth > strip.clientWidth,
        players: [...strip.querySelectorAll('.tr-player')].map(chip => {
            const label = chip.querySelector('.tr-player-label');
            const words = label.querySelector('.tr-label-head') ?? label;
            const box = chip.getBoundingClientRect();
            return {name: label.textContent, cut: words.scrollWidth > words.clientWidth,
                    ellipsis: getComputedStyle(words).textOverflow === 'ellipsis',
                    left: box.left, width: box.width, right: box.right,
                    score: chip.querySelector('.tr-player-score')
                        .getBoundingClientRect().right, strip: right};
        }),
    };
}"""
"""The players' strip on a phone as laid out: the page's width, whether the strip scrolls,
and each player's name (cut short or whole), box and score's right edge."""


@pytest.mark.parametrize(("name", "locale", "shown"), [
    ("Anna", "pt-PT", ["Anna", "Computador 2"]),
    ("W" * 40, "en-GB", ["W" * 40, "Computer 2"]),
])
def test_on_a_phone_two_players_names_take_the_room_the_strip_has(
    browser: Browser, web_server: LiveServer, shots: Path, name: str, locale: str,
    shown: list[str]
) -> None:
    """Two players on a 390-pixel phone in Portuguese: the strip read "Computad… 2" beside
    a third of its width left empty (every name was held to 6.5rem, one pixel short of
    "Computador 2"). A name gives way only where the strip has no room for it; a name of
    forty letters is cut short, leaving the other player half the strip at least, and
    never widens the page (the names freed of their cap alone made it 418 px wide)."""
    created = httpx.post(f"{web_server.url}/api/tables", json={
        "game": "triominos", "config": {}, "name": name,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "medium"}]}).json()
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True, locale=locale).new_page()
    page.goto(f"{web_server.url}/t/{created['table']['id']}#seat={created['token']}")
    strip = page.locator(".tr-players.compact")
    expect(strip.locator(".tr-player-label")).to_have_text(shown)
    page.wait_for_timeout(300)  # the layout settles
    layout = strip.evaluate(STRIP_LAYOUT)
    long_name = len(name) > 20
    shot = "long-name" if long_name else "pt"
    page.screenshot(path=str(shots / f"triominos-phone-strip-two-{shot}.png"))
    assert layout["page"] <= 390, layout
    assert not layout["scrolls"], layout
    first, second = layout["players"]
    if long_name:
        # Cut short with an ellipsis, it leaves the other player's name whole or half the
        # strip at least.
        assert first["cut"] and first["ellipsis"], layout
        assert not second["cut"] or second["width"] >= first["width"] - 1, layout
    else:
        assert not first["cut"] and not second["cut"], layout
    for player in layout["players"]:
        assert player["right"] <= player["strip"] + 0.5, layout
        assert player["score"] <= player["right"] + 0.5, layout
    page.context.close()


def _the_computer_started_and_scored(state: TriominosState) -> bool:
    """Seat 1 started the round and has a score of two figures; seat 0 is to play."""
    return state.starter == 1 and 10 <= state.scores[1] <= 99 and 0 in GAME.to_act(state)


@pytest.mark.parametrize(("width", "height", "locale", "computer"), [
    (390, 844, "en-GB", "Computer 2"),
    (360, 740, "pt-PT", "Computador 2"),
])
def test_on_a_phone_two_players_a_short_entry_stays_whole_beside_a_long_name(
    browser: Browser, tmp_path: Path, shots: Path, width: int, height: int, locale: str,
    computer: str
) -> None:
    """Two players on a phone, beside a name of forty letters: "Computer 2 ⚑ 71" needs
    179 px, one more than half the strip at 390 wide, and the equal halves cut it to
    "Comput… 2". The short entry keeps its whole width; the long name takes the rest (cut
    short, whole in its title), and the page keeps the phone's width."""
    name = "W" * 40
    server, url = serve_played(tmp_path / "data", {}, 0, [None, "medium"],
                               _the_computer_started_and_scored, bot_delay=60, name=name)
    try:
        page = browser.new_context(viewport={"width": width, "height": height},
                                   is_mobile=True, has_touch=True, locale=locale).new_page()
        page.goto(url)
        strip = page.locator(".tr-players.compact")
        expect(strip.locator(".tr-player-label")).to_have_text([name, computer])
        expect(strip.locator('.tr-player[data-seat="1"] .tr-starter')).to_be_visible()
        expect(strip.locator('.tr-player[data-seat="1"]')).to_have_attribute(
            "data-score", re.compile(r"^\d\d$"))
        page.wait_for_timeout(300)  # the layout settles
        layout = strip.evaluate(STRIP_LAYOUT)
        page.screenshot(path=str(shots / f"triominos-phone-strip-two-whole-{width}.png"))
        assert layout["page"] <= width, layout
        assert not layout["scrolls"], layout
        long, short = layout["players"]
        assert not short["cut"], layout
        assert long["cut"] and long["ellipsis"], layout
        expect(strip.locator(".tr-player-label").first).to_have_attribute("title", name)
        assert long["right"] <= short["left"], layout
        for player in layout["players"]:
            assert player["right"] <= player["strip"] + 0.5, layout
            assert player["score"] <= player["right"] + 0.5, layout
        page.context.close()
    finally:
        server.stop()


def test_on_a_phone_four_players_long_names_take_the_room_short_ones_leave(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """Four players, two to a row of the strip: each column had half the row, so
    "Annabella Guðrún" was cut to "Annabella …" over "Carla" while "Bruno" and "Dag"
    beside them left room unused. A column of short names now leaves its room to the
    other, on a 390 and a 360 pixel phone alike, every score of three figures in sight."""
    from tests.browser.test_rematch import finished_game, people  # noqa: PLC0415
    from tests.browser.test_sequence_cats_browser import (  # noqa: PLC0415
        stored_table as stored_game,
    )

    steps = finished_game(4, "triominos", 4)
    names = ["Annabella Guðrún", "Bruno", "Carla", "Dag"]
    with stored_game(tmp_path / "data", {}, people(names), 4, steps[: len(steps) * 2 // 3],
                     game="triominos") as (server, table):
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                   has_touch=True, locale="en-GB").new_page()
        page.goto(f"{server.url}/t/{table}#seat=Bruno-token")
        strip = page.locator(".tr-players.compact")
        expect(strip.locator(".tr-player-label")).to_have_text(names)
        for width in (390, 360):
            page.set_viewport_size({"width": width, "height": 844})
            page.wait_for_timeout(300)  # the layout settles
            layout = strip.evaluate(STRIP_LAYOUT)
            players = layout["players"]
            assert layout["page"] <= width, layout
            assert all(player["score"] <= player["strip"] + 0.5 for player in players), layout
            assert min(int(chip) for chip in strip.locator(".tr-player").evaluate_all(
                "chips => chips.map(chip => chip.dataset.score)")) >= 100
            # "Annabella Guðrún"'s column is the wider, "Carla"'s name whole in it.
            assert players[0]["width"] > players[1]["width"] + 20, (width, layout)
            assert [player["cut"] for player in players[1:]] == [False] * 3, layout
            page.screenshot(path=str(shots / f"triominos-phone-strip-four-{width}.png"))
        page.context.close()


def _computer_3_went_out(state: TriominosState) -> bool:
    """Seat 2 went out; the others finish the round of turns, seat 0's turn now."""
    return state.out == 2 and 0 in GAME.to_act(state)


@pytest.mark.parametrize(("width", "height", "locale", "out"), [
    (360, 740, "pt-PT", "sem peças"),
    (390, 844, "en-GB", "out"),
])
def test_on_a_phone_four_players_who_went_out_is_marked_on_the_tile_not_a_tag(
    browser: Browser, tmp_path: Path, shots: Path, width: int, height: int, locale: str,
    out: str
) -> None:
    """TR-END-2: "Computador 3" went out, the others finish the round of turns. On a 360
    pixel phone in Portuguese its tag "sem peças" went over two lines in a quarter of the
    strip and the name read "C… 3". The tile mark says it now, a ✓ for the 0 on a tile in
    the tag's colour, the word in its title and for a screen reader; the entry keeps to
    one line and the name to the room the other computer players' names have."""
    # Seed 0's third round: seat 2 started it, went out with 157 points; scores of three
    # figures.
    server, url = serve_played(tmp_path / "data", {}, 0, [None, "hard", "medium", "easy"],
                               _computer_3_went_out, bot_delay=60)
    try:
        page = browser.new_context(viewport={"width": width, "height": height},
                                   is_mobile=True, has_touch=True, locale=locale).new_page()
        page.goto(url)
        strip = page.locator(".tr-players.compact")
        chip = strip.locator('.tr-player[data-seat="2"]')
        expect(chip).to_have_attribute("data-tiles", "0")
        expect(chip.locator(".tr-starter")).to_be_visible()
        mark = chip.locator(".tr-tiles-mark")
        expect(mark.locator("svg text")).to_have_text("✓")
        expect(mark).to_have_attribute("title", out)
        expect(chip.locator(".tr-player-tags .sr-only")).to_contain_text([out])
        expect(chip.locator(".tag")).to_have_count(0)
        for seat in (0, 1, 3):
            expect(strip.locator(f'.tr-player[data-seat="{seat}"] svg text')).to_have_text(
                re.compile(r"^\d+$"))
        page.wait_for_timeout(300)  # the layout settles
        page.screenshot(path=str(shots / f"triominos-phone-strip-out-{width}.png"))
        layout = strip.evaluate(STRIP_LAYOUT)
        assert layout["page"] <= width, layout
        players = layout["players"]
        assert all(player["score"] <= player["strip"] + 0.5 for player in players), layout
        # One line: the entry is no taller than the others.
        heights = strip.locator(".tr-player").evaluate_all(
            "chips => chips.map(chip => chip.getBoundingClientRect().height)")
        assert heights[2] <= min(heights) + 1, heights
        # The name's words show as much as "Computador 2"'s and "… 4"'s beside
        # (ellipsis included), less only the starter's flag: "C… 3" showed 17 px.
        shown = strip.locator(".tr-player").evaluate_all("""chips => chips.map(chip => {
            const words = chip.querySelector('.tr-label-head')
                ?? chip.querySelector('.tr-player-label');
            return Math.min(words.clientWidth, words.scrollWidth);
        })""")
        flag = chip.locator(".tr-starter").bounding_box()
        assert flag is not None
        assert shown[2] >= min(shown[1], shown[3]) - flag["width"] - 8, shown
        page.context.close()
    finally:
        server.stop()


def _a_place_that_fits_several_ways(page: Page) -> tuple[str, str]:
    """In a solo game, play on until a tile chosen in the hand fits a place in several
    ways: ``(tile, place)``, the tile chosen (the place not yet clicked)."""
    for _ in range(40):
        wait_for(page, f"document.querySelector('{TABLE}')?.dataset.myTurn === 'true'")
        playable = page.locator('.tr-hand-tile[data-playable="true"]')
        if playable.count() == 0:
            act(page, "draw" if enabled(page, "draw") else "pass")
            continue
        for index in range(playable.count()):
            playable.nth(index).click()
            several = page.locator('[data-target]:not([data-rotations="1"])')
            if several.count():
                break
        if not several.count():
            place_a_tile(page)
            continue
        tile = page.locator(".tr-hand-tile.selected").get_attribute("data-tile") or ""
        return tile, several.first.get_attribute("data-target") or ""
    pytest.fail("no tile fitted a place in several ways in 40 turns")


def corners_in_words(tile: str, position: str, rotation: int) -> str:
    """What the status line tells a screen reader of ``tile`` laid at ``position``
    ("row,col") turned ``rotation`` times: corners clockwise from the top of a place
    pointing up (row + col even), from the upper left of one pointing down."""
    numbers = tile.split("-")
    first, second, third = (numbers[(rotation + k) % 3] for k in range(3))
    row, col = (int(part) for part in position.split(","))
    if (row + col) % 2 == 0:
        return (f" {first} at the top, {second} at the lower right, {third} at the lower "
                "left.")
    return (f" {first} at the upper left, {second} at the upper right, {third} at the "
            "bottom.")


def test_after_a_click_on_a_place_r_turns_the_tile_and_enter_lays_it(
    browser: Browser, web_server: LiveServer
) -> None:
    """With the mouse: a tile chosen in the hand, a place where it fits several ways
    clicked; the place bar says "key R". The hand tile kept the keyboard focus, and the
    keys did nothing (R) or put the tile down instead of laying it (Enter)."""
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    choose_game(page, web_server, "Anna", [])  # a solo game: every turn is Anna's
    # Alone, she draws for nobody: the log said "Anna starts (drew , the highest)".
    expect(page.locator(".tr-log")).to_contain_text("Round 1: Anna starts.")
    tile, position = _a_place_that_fits_several_ways(page)
    before = version(page)
    page.locator(f'[data-target="{position}"]').click()
    preview = page.locator(".tr-preview")
    expect(preview).to_be_visible()
    assert page.evaluate("document.activeElement.closest('.tr-hand') !== null")
    first = preview.get_attribute("data-rotation")
    corners = page.locator(".tr-status-text [data-corners]")
    expect(corners).to_have_text(corners_in_words(tile, position, int(first or 0)))
    page.keyboard.press("r")
    expect(preview).not_to_have_attribute("data-rotation", first or "")
    # A screen reader hears which number went to which corner (the picture alone said).
    turned = int(preview.get_attribute("data-rotation") or 0)
    expect(corners).to_have_text(corners_in_words(tile, position, turned))
    assert corners_in_words(tile, position, turned) != corners_in_words(
        tile, position, int(first or 0))
    page.keyboard.press("Enter")
    wait_for_new_state(page, before)
    expect(page.locator(f'.tr-tile[data-position="{position}"]')).to_have_attribute(
        "data-tile", tile)


def test_a_second_tap_on_the_chosen_place_turns_the_tile(
    browser: Browser, web_server: LiveServer
) -> None:
    """The place bar says to turn the tile until it suits: a second tap (or click) on
    the chosen place did nothing, its outline alone taking taps; only the Rotate button
    turned it. The place turns the tile on each tap now, as Space does."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True).new_page()
    choose_game(page, web_server, "Anna", [])
    _, position = _a_place_that_fits_several_ways(page)
    place = page.locator(f'[data-target="{position}"]')
    place.tap()
    preview = page.locator(".tr-preview")
    expect(preview).to_be_visible()
    first = preview.get_attribute("data-rotation") or ""
    place.tap()
    expect(preview).not_to_have_attribute("data-rotation", first)


def _long_hand_with_tiles_that_fit_out_of_sight(state: TriominosState) -> bool:
    """Anna (seat 0) to play ten tiles or more, of which the first four and the last
    hold tiles that fit: on a phone the row shows about six."""
    if GAME.to_act(state) != {0}:
        return False
    hand = GAME.view(state, 0)["hand"]
    fits = sorted(hand.index(a["tile"]) for a in GAME.legal_actions(state, 0)
                  if a["type"] == "place")
    return len(hand) >= 10 and len(fits) >= 2 and fits[0] <= 3 and fits[-1] >= 9


def test_a_long_hand_says_how_many_tiles_that_fit_are_out_of_sight(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """After a few draws the hand scrolls sideways and tiles that fit lay past its edge
    with no sign of them; a button now says how many, and brings the next into sight."""
    server, address = serve_played(tmp_path / "data", {"rounds": 1}, 0, [None, "easy"],
                                   _long_hand_with_tiles_that_fit_out_of_sight)
    try:
        page = phone(browser)
        page.goto(address)
        expect(page.locator(".tr-table.narrow")).to_have_attribute("data-my-turn", "true")
        more = page.locator('[data-action="more-tiles"]')
        expect(more).to_be_visible()
        expect(more).to_contain_text(re.compile(r"\d+ more tiles? fits? ›"))
        page.screenshot(path=shots / "triominos-phone-more-tiles.png")
        # 26 px high, it is pressed by a tap a little above it too (a finger is about
        # 40 px wide), and takes no tap meant for the tiles above or Pass just below.
        assert tapped_at(page, more, -8) == "more-tiles"
        assert tapped_at(page, more, -24) != "more-tiles"
        assert tapped_at(page, page.locator('[data-action="draw"]'), -1) != "more-tiles"
        # The greyed tiles say why they are greyed: the status line and each tile.
        expect(page.locator(".tr-status-text")).to_have_text(
            "Your turn: choose a tile to lay (the greyed ones fit nowhere now).")
        greyed = page.locator('.tr-hand-tile[data-playable="false"]').first
        expect(greyed).to_be_disabled()
        expect(greyed).to_have_attribute(
            "title", re.compile(r"^Tile \S+ \(\d+ points?\): fits nowhere on the table now$"))
        fits = page.locator('.tr-hand-tile[data-playable="true"]').first
        expect(fits).to_have_attribute("title", re.compile(r"^Tile \S+ \(\d+ points?\)$"))
        last = page.locator('.tr-hand-tile[data-playable="true"]').last
        more.click()
        wait_for(page, """(() => {
            const row = document.querySelector('.tr-hand').getBoundingClientRect();
            const fits = [...document.querySelectorAll('.tr-hand-tile[data-playable="true"]')];
            const tile = fits[fits.length - 1].getBoundingClientRect();
            return tile.left >= row.left - 1 && tile.right <= row.right + 1;
        })()""")
        expect(last).to_be_in_viewport()
    finally:
        server.stop()


def _two_fit_at_the_left_and_a_draw_sorts_right(state: TriominosState) -> bool:
    """Anna (seat 0) to play, two tiles or more fitting, all of them among her hand's
    first two; a draw (TR-DRAW-1) would bring a tile that fits nowhere and sorts at the
    eighth place or later: on a phone the row shows about six."""
    if GAME.to_act(state) != {0}:
        return False
    legal = GAME.legal_actions(state, 0)
    if not any(action["type"] == "draw" for action in legal):
        return False
    hand = GAME.view(state, 0)["hand"]
    if len({action["tile"] for action in legal if action["type"] == "place"}) < 2:
        return False
    after = copy.deepcopy(state)
    GAME.apply(after, 0, {"type": "draw"})
    if GAME.to_act(after) != {0}:
        return False
    grown = GAME.view(after, 0)["hand"]
    drawn = [tile for tile in grown if tile not in hand]
    fits = {action["tile"] for action in GAME.legal_actions(after, 0)
            if action["type"] == "place"}
    return (len(drawn) == 1 and drawn[0] not in fits and grown.index(drawn[0]) >= 7
            and max(grown.index(tile) for tile in fits) <= 1)


def test_after_a_draw_the_rack_stays_on_the_tile_drawn(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """TR-DRAW-1 on a phone: Anna draws anyway, though two tiles at her rack's left end
    fit. The rack scrolled to the tile drawn, far right, then off it again to the tiles
    that fit, all out of sight: what she drew went unseen. It stays on the tile drawn
    now, and the button says that tiles that fit lie out of sight."""
    server, address = serve_played(tmp_path / "data", {}, 39, [None, "greedy"],
                                   _two_fit_at_the_left_and_a_draw_sorts_right)
    try:
        page = phone(browser)
        page.goto(address)
        expect(page.locator(".tr-table.narrow")).to_have_attribute("data-my-turn", "true")
        count = page.locator(".tr-hand-tile").count()
        act(page, "draw")
        expect(page.locator(".tr-hand-tile")).to_have_count(count + 1)
        drawn = page.locator(".tr-just-drawn .tr-hand-tile")
        expect(drawn).to_have_count(1)
        expect(drawn).to_have_attribute("data-playable", "false")
        page.wait_for_timeout(300)  # any scrolling has ended
        rack = page.locator(".tr-hand").bounding_box()
        box = drawn.bounding_box()
        assert rack is not None and box is not None
        assert rack["x"] - 0.5 <= box["x"]
        assert box["x"] + box["width"] <= rack["x"] + rack["width"] + 0.5, (box, rack)
        more = page.locator('[data-action="more-tiles"]')
        expect(more).to_contain_text("2 more tiles fit ›")
        page.screenshot(path=shots / "triominos-phone-after-a-draw.png")
        more.click()
        expect(page.locator('.tr-hand-tile[data-playable="true"]').first).to_be_in_viewport()
    finally:
        server.stop()


def _anna_went_out_and_started(state: TriominosState) -> bool:
    view = GAME.view(state, 0)
    return bool(view.get("out") == 0 and view.get("starter") == 0)


def test_a_short_name_with_every_tag_beside_it_is_not_broken_inside(
    browser: Browser, tmp_path: Path
) -> None:
    """"Anna" with "you", "out" and the starter's flag beside it went over two lines as
    "Ann / a" at 1366 wide; the tags now give way first."""
    server, url = serve_played(tmp_path / "data", {"rounds": 2}, 0, [None, "easy"],
                               _anna_went_out_and_started, bot_delay=60)
    try:
        page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        page.goto(url)
        anna = page.locator('.tr-side .tr-player[data-seat="0"]')
        expect(anna.locator(".tag")).to_have_count(2)  # you, out
        expect(anna.locator(".tr-starter")).to_be_visible()
        assert page.evaluate(BROKEN_NAMES) == []
    finally:
        server.stop()


def a_large_layout() -> tuple[int, list[tuple[int, dict[str, Any]]], int]:
    """Three ``greedy`` players' first round (seed 4) up to the turn of seat 0 that has
    the most tiles on the table: (seed, the actions so far, tiles on the table)."""
    record, _ = play_bot_game("triominos", {"rounds": 1}, ["greedy"] * 3, 4)
    state = GAME.new_game(GAME.make_config(record.config, 3), 3, record.seed)
    best: tuple[int, int] = (0, 0)
    for number, step in enumerate(record.actions):
        if state.round == 1 and state.current == 0 and state.draws == 0:
            best = max(best, (len(state.board_json), number))
        GAME.apply(state, step.seat, step.action)
    tiles, cut = best
    return record.seed, [(step.seat, step.action) for step in record.actions[:cut]], tiles


NUMBER_HEIGHTS = """svg => [...svg.querySelectorAll('.tr-tile .tr-number')].map(text =>
    parseFloat(text.getAttribute('font-size')) * text.getScreenCTM().a)"""


@pytest.mark.parametrize("screen", ["phone", "laptop"])
def test_a_large_layout_keeps_its_numbers_readable_and_the_places_in_sight(
    browser: Browser, tmp_path: Path, shots: Path, screen: str
) -> None:
    """Forty tiles do not fit a phone whole at a readable size: the view keeps each
    number at least 10 pixels high on a phone (8.4 with a mouse), centres on the newest
    tile, and brings the places a chosen tile fits into sight; the rest is panned to."""
    seed, actions, tiles = a_large_layout()
    assert tiles >= 40
    table, token = stored_table(tmp_path / "data", {"rounds": 1}, seed,
                                [None, "greedy", "greedy"], actions)
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=0.15)
    server.start()
    try:
        phone = screen == "phone"
        context = browser.new_context(
            viewport={"width": 390, "height": 844} if phone else {"width": 1366, "height": 768},
            is_mobile=phone, has_touch=phone, device_scale_factor=2 if phone else 1)
        page = context.new_page()
        page.goto(f"{server.url}/t/{table}#seat={token}")
        expect(page.locator(".tr-tile")).to_have_count(tiles)
        settled_view(page)
        heights = page.locator(".tr-board-svg").evaluate(NUMBER_HEIGHTS)
        assert len(heights) == 3 * tiles
        assert min(heights) >= (9.9 if phone else 8.3), min(heights)
        frame = page.locator(".tr-board").bounding_box()
        assert frame is not None

        def in_frame(selector: str) -> bool:
            box = page.locator(selector).first.bounding_box()
            return box is not None and frame["x"] <= box["x"] + box["width"] / 2 <= \
                frame["x"] + frame["width"] and frame["y"] <= box["y"] + box["height"] / 2 \
                <= frame["y"] + frame["height"]

        assert in_frame(".tr-tile.last")
        page.screenshot(path=shots / f"triominos-{screen}-large-layout.png")
        playable = page.locator('.tr-hand-tile[data-playable="true"]')
        assert playable.count()
        if page.locator(".tr-hand-tile.selected").count() == 0:
            press(playable.first, phone)
        expect(page.locator("[data-target]").first).to_be_attached()
        settled_view(page)
        assert in_frame("[data-target]")
        # The last move's words lie over the top while they show: measured at one moment
        # (they go 3.8 s after the page's first state, which may fall between two looks).
        boxes = page.evaluate("""() => {
            const toast = document.querySelector('.tr-toast')?.getBoundingClientRect();
            const target = document.querySelector('[data-target]').getBoundingClientRect();
            return toast && toast.height ? [toast.bottom, target.top] : null;
        }""")
        if boxes is not None:
            assert boxes[1] >= boxes[0], boxes
    finally:
        server.stop()


IN_THE_BAR = """() => {
    const bar = document.querySelector('.tr-hand-bar').getBoundingClientRect();
    const inside = e => { const b = e.getBoundingClientRect();
        return b.left >= bar.left - 1 && b.right <= bar.right + 1 && b.bottom <= innerHeight + 1; };
    return { tiles: [...document.querySelectorAll('.tr-hand-tile')].map(inside),
             buttons: [...document.querySelectorAll('[data-action="draw"], [data-action="pass"]')]
                 .map(inside) };
}"""


def test_a_tablet_held_upright_shows_the_whole_rack_and_its_buttons(
    browser: Browser, web_server: LiveServer, shots: Path
) -> None:
    """TR-PLACE-3 and TR-DRAW-1 (a turn places a tile of the rack or draws) on a tablet
    held upright (820 × 1180): beside the 320 px side panel the board's column left room
    for two tiles, none in sight at the round's start, and Pass spilled out of the bar.
    Such a window stacks the board, the rack and the players as a phone does: every tile
    of the rack and both buttons are in the bar."""
    made = httpx.post(f"{web_server.url}/api/tables", json={
        "game": "triominos", "name": "Filipa",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "medium"},
                  {"kind": "bot", "bot": "medium"}]}).json()
    page = browser.new_context(viewport={"width": 820, "height": 1180}, is_mobile=True,
                               has_touch=True, locale="pt-PT").new_page()
    page.goto(f"{web_server.url}/t/{made['table']['id']}#seat={made['token']}")
    expect(page.locator(".tr-table")).to_have_class(re.compile(r"\bnarrow\b"))
    expect(page.locator(".tr-hand-tile").first).to_be_visible()
    placed = page.evaluate(IN_THE_BAR)
    assert placed["tiles"] and all(placed["tiles"]), placed
    assert len(placed["buttons"]) == 2 and all(placed["buttons"]), placed
    page.screenshot(path=shots / "triominos-tablet-upright.png")


def test_a_tile_drawn_this_turn_is_marked_until_the_turn_ends(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """TR-DRAW-1 on a phone: a drawn tile that fits nowhere is greyed like the rest and,
    the hand sorted, may lie past the row's edge (seed 3: the last of ten), so nothing
    told which one had just come. The tiles drawn this turn carry "drawn", the row
    scrolls to them, and the mark goes when the turn ends."""
    seed = 3
    state = GAME.new_game(GAME.make_config({}, 2), 2, seed)
    (starter,) = GAME.to_act(state)
    seats: list[str | None] = ["greedy", "greedy"]
    seats[1 - starter] = None  # the person plays second
    table, token = stored_table(tmp_path / "data", {}, seed, seats)
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=0.15)
    server.start()
    try:
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                   has_touch=True).new_page()
        page.goto(f"{server.url}/t/{table}#seat={token}")
        marked = page.locator(".tr-just-drawn")
        wait_for(page, f"document.querySelector('{TABLE}')?.dataset.myTurn === 'true'")
        expect(marked).to_have_count(0)
        tiles = page.locator(".tr-hand-tile").count()
        act(page, "draw")
        expect(page.locator(".tr-hand-tile")).to_have_count(tiles + 1)
        expect(marked).to_have_count(1)
        badge = marked.locator(".tr-drawn-badge")
        expect(badge).to_have_text("drawn")
        expect(marked.locator(".tr-hand-tile")).to_have_attribute("title", re.compile(r"· drawn$"))
        # The rack scrolls to it: its mark is in sight without a swipe.
        box, row = badge.bounding_box(), page.locator(".tr-hand").bounding_box()
        assert box and row and box["y"] >= row["y"] - 1 and box["width"] > 0, (box, row)
        left, right = box["x"], box["x"] + box["width"]
        assert row["x"] - 1 <= left and right <= row["x"] + row["width"] + 1, (box, row)
        page.screenshot(path=shots / "triominos-drawn-tile.png")
        if page.locator('.tr-hand-tile[data-playable="true"]').count():
            place_a_tile(page, touch=True)
        else:
            while enabled(page, "draw"):
                act(page, "draw")
            act(page, "pass")
        expect(marked).to_have_count(0)
    finally:
        server.stop()


def test_with_a_large_text_size_the_players_numbers_stand_clear_of_their_names(
    browser: Browser, web_server: LiveServer
) -> None:
    """With the browser's text size at 32 px (about 200 %) on a laptop, the players'
    tiles column was drawn over their names ("▲ 7" across "Ann"): the side was 320 px
    whatever the text. It is as wide as the text asks (up to 45 % of the window), and
    where the window is then as short as a phone's held sideways (24 ems of text high),
    the numbers go under the name, as there."""
    created = httpx.post(f"{web_server.url}/api/tables", json={
        "game": "triominos", "config": {}, "name": "Ann",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"},
                  {"kind": "bot", "bot": "easy"}]}).json()
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
    page.goto(f"{web_server.url}/t/{created['table']['id']}#seat={created['token']}")
    rows = page.locator(".tr-player:not(.header)")
    expect(rows).to_have_count(3)
    overlaps = rows.evaluate_all("""rows => rows.map(row => {
        const name = row.querySelector('.tr-player-name').getBoundingClientRect();
        const tiles = row.querySelector('.tr-player-tiles').getBoundingClientRect();
        return name.right > tiles.left + 1 && name.bottom > tiles.top + 1
            && tiles.bottom > name.top + 1; })""")
    assert overlaps == [False, False, False]
    context.close()


def test_on_a_phone_four_players_computer_players_are_told_apart(
    browser: Browser, web_server: LiveServer
) -> None:
    """Four to a phone's row of players, "Computer 3 · Easy" and "Computer 4 · Hard" both
    read "Computer …". There a computer player is "Computer 3" (its level in the
    title), whole where no flag stands beside it."""
    created = httpx.post(f"{web_server.url}/api/tables", json={
        "game": "triominos", "config": {}, "name": "Ann",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"},
                  {"kind": "bot", "bot": "hard"}, {"kind": "bot", "bot": "medium"}]}).json()
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True).new_page()
    page.goto(f"{web_server.url}/t/{created['table']['id']}#seat={created['token']}")
    labels = page.locator(".tr-player .tr-player-label")
    expect(labels).to_have_text(["Ann", "Computer 2", "Computer 3", "Computer 4"])
    expect(labels.nth(2)).to_have_attribute("title", "Computer 3 · Hard")
    whole = page.evaluate("""[...document.querySelectorAll('.tr-player')].map(row =>
        row.querySelector('.tr-starter') !== null
        || row.querySelector('.tr-player-label').scrollWidth
           <= row.querySelector('.tr-player-label').clientWidth)""")
    assert whole == [True, True, True, True]


def test_on_a_norwegian_phone_four_players_names_cut_short_keep_their_numbers(
    browser: Browser, web_server: LiveServer
) -> None:
    """In Norwegian "Datamaskin 3" is too long for a quarter of a phone's row beside a
    flag and three figures: it read "Datamaski…", the three computer players alike. The
    words give way, the number stays."""
    created = httpx.post(f"{web_server.url}/api/tables", json={
        "game": "triominos", "config": {}, "name": "Siri",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"},
                  {"kind": "bot", "bot": "hard"}, {"kind": "bot", "bot": "medium"}]}).json()
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True, locale="nb-NO").new_page()
    page.goto(f"{web_server.url}/t/{created['table']['id']}#seat={created['token']}")
    labels = page.locator(".tr-player .tr-player-label")
    expect(labels).to_have_text(["Siri", "Datamaskin 2", "Datamaskin 3", "Datamaskin 4"])
    expect(page.locator(".tr-starter")).to_have_count(1)
    for seat in (1, 2, 3):
        # The three boxes at one moment: the computer players keep playing, and a score
        # that gains a digit between two measurements moved the row under the test.
        label, number, row = page.locator(f'.tr-player[data-seat="{seat}"]').evaluate(
            """row => [row.querySelector('.tr-player-label'),
                       row.querySelector('.tr-label-tail'), row].map(part => {
                const box = part.getBoundingClientRect();
                return {x: box.x, y: box.y, width: box.width, height: box.height};
            })""")
        assert number["width"] > 5, number
        assert number["x"] + number["width"] <= label["x"] + label["width"] + 0.5, (
            seat, number, label)
        assert number["x"] + number["width"] <= row["x"] + row["width"] + 0.5


def test_the_out_tag_keeps_to_the_name_beside_a_long_computer_name(
    browser: Browser, tmp_path: Path
) -> None:
    """TR-END: at a game's end on a 1280 × 800 laptop the "out" tag of "Computer 2 ·
    Medium", who went out, lay over the tiles column's ▲ (the tags shrank below their
    width). The tag stays inside the name's column."""
    from gametable.server.storage import SeatRow, token_hash  # noqa: PLC0415
    from tests.browser.test_rematch import finished_game  # noqa: PLC0415
    from tests.browser.test_sequence_cats_browser import (  # noqa: PLC0415
        stored_table as stored_game,
    )

    people = [SeatRow(0, "human", name="Ann", token_hash=token_hash("t0")),
              *(SeatRow(s, "bot", bot="medium") for s in (1, 2, 3))]
    # Seed 1's random game of four ends with seat 1 out (TR-END-1).
    with stored_game(tmp_path / "data", {}, people, 1, finished_game(1, "triominos", 4),
                     game="triominos") as (server, table):
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        page.goto(f"{server.url}/t/{table}#seat=t0")
        row = page.locator('.tr-players .tr-player[data-seat="1"]')
        tags = row.locator(".tr-player-tags .tag")
        expect(tags).to_have_text(["· Medium", "out"])  # its level, then "out"
        tiles_box = row.locator(".tr-player-tiles").bounding_box()
        assert tiles_box
        for tag in tags.all():
            tag_box = tag.bounding_box()
            assert tag_box
            assert tag_box["x"] + tag_box["width"] <= tiles_box["x"], (tag_box, tiles_box)


def test_the_status_line_waits_for_an_offline_player_rather_than_saying_they_play(
        browser: Browser, web_server: LiveServer) -> None:
    """Bjørn took his seat and closed the page: on his turn Anna's status line said
    "Bjørn is playing…", under a banner saying the game waits for him."""
    table, tokens = seats.create_table(web_server, "triominos", {}, ["human", "human"],
                                       {0: "Anna", 1: "Bjørn"})
    page = browser.new_context(locale="en-GB").new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    status = page.locator(".tr-status-text")
    expect(status).not_to_be_empty()
    if my_turn(page):  # Anna starts (TR-SETUP-3/4): after her tile it is Bjørn's turn
        place_on_my_turn(page)
    expect(status).to_have_text("Waiting for Bjørn to come to the table…")
    with seats.SeatSocket(web_server, table, tokens[1]):
        expect(status).to_have_text("Bjørn is playing…")
    expect(status).to_have_text("Waiting for Bjørn (offline)…")
    with seats.SeatSocket(web_server, table, tokens[1]):
        expect(status).to_have_text("Bjørn is playing…")


def nothing_fits_but_the_next_draw(state: TriominosState) -> bool:
    """Seat 0's turn, no tile of its hand fits, and the tile it would draw does."""
    if GAME.to_act(state) != {0} or not state.layout.tiles or not state.pool:
        return False
    if not any(a["type"] == "draw" for a in GAME.legal_actions(state, 0)):
        return False
    if any(a["type"] == "place" for a in GAME.legal_actions(state, 0)):
        return False
    drawn = copy.deepcopy(state)
    GAME.apply(drawn, 0, {"type": "draw"})
    return any(a["type"] == "place" for a in GAME.legal_actions(drawn, 0))


@contextmanager
def drawn_from_the_keyboard(browser: Browser, tmp_path: Path,
                            turn: Callable[[TriominosState], bool]) -> Iterator[Page]:
    """A two-seat game played by ``greedy`` until seat 0's ``turn`` comes (over the first
    80 seeds), served with a person at seat 0 who draws by Enter on Draw: the page, once
    the draw is applied."""
    for seed in range(80):
        actions = played({}, 2, seed, turn)
        state = GAME.new_game(GAME.make_config({}, 2), 2, seed)
        for seat, action in actions:
            GAME.apply(state, seat, action)
        if turn(state):
            break
    else:
        pytest.fail("no seed of 80 came to such a turn")
    table, token = stored_table(tmp_path / "data", {}, seed, [None, "greedy"], actions)
    server = LiveServer(data_dir=tmp_path / "data", bot_delay=0.15)
    server.start()
    try:
        page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        page.goto(f"{server.url}/t/{table}#seat={token}")
        draw = page.locator('[data-action="draw"]')
        expect(draw).to_be_enabled()
        before = version(page)
        draw.focus()
        page.keyboard.press("Enter")
        wait_for_new_state(page, before)
        yield page
    finally:
        server.stop()


def test_a_tile_drawn_from_the_keyboard_that_fits_takes_the_focus_to_its_places(
        browser: Browser, tmp_path: Path) -> None:
    """TR-DRAW-1: the drawn tile that fits is chosen for the player, but the focus stayed
    on Draw, its places some 18 Tabs away round the page. From the keyboard, the focus
    goes on to its first place, as when a tile is chosen; the status line names it."""
    with drawn_from_the_keyboard(browser, tmp_path, nothing_fits_but_the_next_draw) as page:
        expect(page.locator("g.tr-target").first).to_be_focused()
        tile = page.locator("button.tr-hand-tile[aria-pressed=true]").get_attribute("data-tile")
        expect(page.locator("[data-status-line]")).to_contain_text(str(tile))


def nothing_fits_nor_the_draw(drawn_before: int) -> Callable[[TriominosState], bool]:
    """Seat 0's turn with ``drawn_before`` tiles drawn, none of its tiles fits, and the
    tile it would draw neither (after the third, it can only pass)."""
    def turn(state: TriominosState) -> bool:
        if GAME.to_act(state) != {0} or not state.layout.tiles or state.draws != drawn_before:
            return False
        legal = GAME.legal_actions(state, 0)
        if any(a["type"] == "place" for a in legal) or {"type": "draw"} not in legal:
            return False
        drawn = copy.deepcopy(state)
        GAME.apply(drawn, 0, {"type": "draw"})
        left = "pass" if drawn_before == 2 else "draw"
        return {a["type"] for a in GAME.legal_actions(drawn, 0)} == {left}
    return turn


def test_a_draw_that_fits_nowhere_is_read_out_with_the_tile_drawn(
        browser: Browser, tmp_path: Path) -> None:
    """TR-DRAW-1: after a draw that fits nowhere the status line, which a screen reader
    reads out, kept its words ("Nothing fits: draw a tile (−5).") and so said nothing:
    the player could not hear that the draw happened nor what came. It names the tile
    and the draws made."""
    with drawn_from_the_keyboard(browser, tmp_path, nothing_fits_nor_the_draw(0)) as page:
        tile = page.locator(".tr-just-drawn .tr-hand-tile").get_attribute("data-tile")
        live = page.locator(".tr-status-text")
        expect(live).to_have_attribute("aria-live", "polite")
        expect(live).to_have_text(
            f"You drew {tile}; nothing fits yet: draw again (−5; 1 of 3 drawn).")
        expect(page.locator('[data-action="draw"]')).to_be_focused()


def test_after_the_last_draw_from_the_keyboard_the_focus_goes_to_pass(
        browser: Browser, tmp_path: Path) -> None:
    """TR-DRAW-1/2: the third tile drawn does not fit either, and Pass is the one move
    left. From the keyboard the focus went to the status line, Pass a dozen Tabs on; it
    goes to Pass."""
    with drawn_from_the_keyboard(browser, tmp_path, nothing_fits_nor_the_draw(2)) as page:
        expect(page.locator('[data-action="draw"]')).to_be_disabled()
        expect(page.locator('[data-action="pass"]')).to_be_focused()
        before = version(page)
        page.keyboard.press("Enter")
        wait_for_new_state(page, before)
        expect(page.locator(f'.tr-log li[data-version="{before + 1}"]').first
               ).to_contain_text("passed")


@pytest.mark.parametrize("viewport", [(1280, 720), (390, 844)])
def test_escape_puts_the_draw_anyway_question_away(
        browser: Browser, web_server: LiveServer, shots: Path,
        viewport: tuple[int, int]) -> None:
    """TR-DRAW-1: Draw while a tile fits asks first ("Draw anyway (−5)?"), the focus on
    its answer. Escape answered nothing there, only Cancel did: it now puts the question
    away, the focus back on Draw, nothing drawn and the chosen tile still chosen."""
    table, tokens = seats.create_table(web_server, "triominos", {}, ["human", "easy"],
                                       {0: "Anna"})
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    while True:
        wait_for(page, f"document.querySelector('{TABLE}')?.dataset.myTurn === 'true'")
        fits = page.locator('.tr-hand-tile[data-playable="true"]').count() > 0
        if fits and enabled(page, "draw"):
            break
        if fits:
            place_a_tile(page)  # Anna opens the round (TR-SETUP-3)
        elif enabled(page, "draw"):
            act(page, "draw")
        else:
            act(page, "pass")  # three draws and still nothing fits (TR-DRAW-2)
    page.locator('.tr-hand-tile[data-playable="true"]').first.click()
    expect(page.locator(".tr-hand-tile.selected")).to_have_count(1)
    before = version(page)
    draw = page.locator('[data-action="draw"]')
    board = page.locator(".tr-board").bounding_box()
    draw.click()
    question = page.locator(".tr-draw-question")
    expect(question).to_be_visible()
    # It stands over the rack, the board as it was (the rack grew by the question's
    # height, and the board shrank by as much and moved), the tiles in sight. On a phone
    # the rack scrolls sideways and its tiles stand 4.8 px apart, so a tile scrolled to
    # the rack's edge may be clipped by a fraction of a pixel (a ratio of 0.996 of 58 px).
    assert page.locator(".tr-board").bounding_box() == board
    expect(page.locator(".tr-hand-tile.selected")).to_be_in_viewport(ratio=0.97)
    assert page.evaluate("""() => {
        const tile = document.querySelector('.tr-hand-tile.selected');
        const box = tile.getBoundingClientRect();
        return tile.contains(document.elementFromPoint(box.x + box.width / 2,
                                                       box.y + box.height / 2)); }""")
    expect(question).to_be_in_viewport(ratio=1)
    page.screenshot(path=shots / f"triominos-draw-question-{viewport[0]}.png")
    # The question takes the focus (the keyboard's next stop after Draw was Pass).
    expect(question.locator('[data-action="draw-anyway"]')).to_be_focused()
    page.keyboard.press("Escape")
    expect(question).to_have_count(0)
    expect(draw).to_be_focused()
    expect(draw).to_have_attribute("aria-expanded", "false")
    expect(page.locator(".tr-hand-tile.selected")).to_have_count(1)
    # Cancel too gives the focus back to Draw (it fell to the page).
    page.keyboard.press("Enter")
    expect(question).to_be_visible()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(question).to_have_count(0)
    expect(draw).to_be_focused()
    assert version(page) == before
    page.context.close()


def test_held_sideways_a_seats_change_is_told_in_a_line(
        browser: Browser, web_server: LiveServer, shots: Path) -> None:
    """A phone held sideways (667 × 375): "Bruno left the game: a computer player plays on
    for them", said for 15 seconds, took 74 px and its paragraph's margins above the
    table, and the board shrank from 164 to 96 px. It is one small line now (and the
    page's padding, meant to be smaller when held sideways, is)."""
    table, tokens = seats.create_table(web_server, "triominos", {},
                                       ["human", "human", "easy"],
                                       {0: "Anna", 1: "Bruno Sigurðardóttir"})
    page = browser.new_context(viewport={"width": 667, "height": 375}, is_mobile=True,
                               has_touch=True).new_page()
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator(".tr-board")).to_be_visible()
    # Once the first tile is laid (by whoever starts), Bruno leaves the game, not the
    # waiting room.
    with seats.SeatSocket(web_server, table, tokens[0]) as anna, \
            seats.SeatSocket(web_server, table, tokens[1]) as bruno:
        opening = anna.wait(lambda state: True)
        if any(action["type"] == "place" for action in opening["legal"]):
            anna.act("place")
        elif any(a["type"] == "place" for a in bruno.wait(lambda state: True)["legal"]):
            bruno.act("place")
    deadline = time.monotonic() + 30
    while httpx.get(f"{web_server.url}/api/tables/{table}").json()["version"] < 1:
        assert time.monotonic() < deadline  # (the computer player started)
        time.sleep(0.1)
    httpx.post(f"{web_server.url}/api/tables/{table}/leave",
               headers={"X-Seat-Token": tokens[1]}).raise_for_status()
    notice = page.locator(".seat-changes")
    expect(notice).to_contain_text("Bruno Sigurðardóttir left the game: a computer player")
    taken = page.evaluate("""() => {
        const notice = document.querySelector('.seat-changes');
        let next = notice.nextElementSibling;
        while (next && next.getBoundingClientRect().height <= 1) next = next.nextElementSibling;
        return [document.querySelector('.topbar').getBoundingClientRect().bottom,
                notice.getBoundingClientRect().top, next.getBoundingClientRect().top,
                notice.getBoundingClientRect().height, next.className];
    }""")
    page.screenshot(path=shots / "triominos-sideways-seat-change.png")
    assert taken[1] - taken[0] <= 10, taken  # the page's top padding: 0.5rem
    assert taken[2] - taken[1] <= 40, taken  # one line, and a small gap
