"""The replay viewer: a finished game of each kind opened from a record file in the lobby,
stepped forward and back, jumped, played, seen from a seat and as a spectator, by mouse
and by keyboard; and the replay of a finished table, reached from its end-of-game
dialog."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from gametable.core.records import GameRecord, replay
from gametable.server.storage import SeatRow, token_hash
from gametable.simulate import play_bot_game
from tests.browser import seats
from tests.browser.conftest import wait_for
from tests.browser.test_rematch import finished_game
from tests.browser.test_sequence_cats_browser import stored_table
from tests.games.dixit.helpers import party_of_twelve
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser

RECORDS = Path(__file__).resolve().parents[1] / "games"
GAMES = {
    # game: (record, its table's element, the element of a seat's hand)
    "sequence-cats": (RECORDS / "sequence_cats" / "records"
                      / "two_sequences_engine_chooses.json.gz", ".sc-table", ".sc-hand"),
    "triominos": (RECORDS / "triominos" / "records" / "pressman_3p_seed96.json",
                  ".tr-table", ".tr-hand"),
    "dixit": (RECORDS / "dixit" / "records" / "v1-en-4p.json", ".dx-table", ".dx-hand"),
}


def record_file(game: str, folder: Path) -> tuple[Path, GameRecord]:
    """The game's record as a plain ``.json`` file, as a person would have it."""
    source = GAMES[game][0]
    data = gzip.decompress(source.read_bytes()) if source.suffix == ".gz" else source.read_bytes()
    path = folder / f"{game}.json"
    path.write_bytes(data)
    return path, GameRecord.model_validate_json(data)


def open_file(page: Page, url: str, path: Path) -> None:
    page.goto(url)
    page.get_by_label("Open a game record (.json)").set_input_files(str(path))
    expect(page).to_have_url(f"{url}/replay")


def more_controls(page: Page) -> None:
    """On a phone, opens the fold of the replay's speed, seat and download."""
    page.locator(".replay-more > summary").click()
    expect(page.get_by_label("Seen by")).to_be_visible()


def at_step(page: Page, table: str, step: int) -> None:
    """The viewer and the game's table both show ``step``."""
    expect(page.locator(".replay-page")).to_have_attribute("data-step", str(step))
    expect(page.locator(table)).to_have_attribute("data-version", str(step))


@pytest.mark.parametrize("game", list(GAMES))
def test_the_replay_viewer_steps_through_a_finished_game(
    browser: Browser, web_server: LiveServer, shots: Path, tmp_path: Path, game: str
) -> None:
    path, record = record_file(game, tmp_path)
    result = replay(record)
    assert result.game.outcome(result.state).finished
    steps = len(record.actions)
    _, table, hand = GAMES[game]
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    open_file(page, web_server.url, path)
    viewer = page.locator(".replay-page")
    expect(viewer).to_have_attribute("data-steps", str(steps))
    expect(page.get_by_role("heading", name=f"Replay: {record_title(game)}")).to_be_visible()
    # The tab says so too (it read "gametable" alone).
    expect(page).to_have_title(f"Replay: {record_title(game)} · gametable")
    # The players as a list ("Anna, Bruno and Computer 3 · Easy"): a " · " between them
    # ran into the " · " inside a computer player's name.
    players = page.locator(".replay-players").inner_text()
    assert " and " in players and not re.search(r"\S · \S+ · ", players), players
    at_step(page, table, 0)
    expect(page.locator(".replay-move")).to_contain_text("before the first move")
    expect(page.locator(hand)).to_have_count(0)  # a spectator at first: no hand

    # Forward and back by the buttons.
    forward = page.get_by_role("button", name="One move forward")
    forward.click()
    at_step(page, table, 1)
    first = record.seats[record.actions[0].seat].name
    expect(page.locator(".replay-move")).to_contain_text(f"Move 1 of {steps}: {first}")
    expect(page.locator(".replay-events li").first).to_contain_text(first or "")  # in words
    forward.click()
    at_step(page, table, 2)
    page.get_by_role("button", name="One move back").click()
    at_step(page, table, 1)

    # Jump to any move: the number, then the slider's end.
    middle = steps // 2
    page.get_by_label("Move number").fill(str(middle))
    at_step(page, table, middle)
    mover = record.seats[record.actions[middle - 1].seat].name
    expect(page.locator(".replay-move")).to_contain_text(f"Move {middle} of {steps}: {mover}")
    page.get_by_role("button", name="To the end").click()
    at_step(page, table, steps)
    expect(page.locator(".replay-move")).to_contain_text("Game over")
    page.get_by_role("button", name="To the start").click()
    at_step(page, table, 0)

    # Seen from a seat, its hand shows; as a spectator again, none.
    page.get_by_label("Move number").fill(str(middle))
    at_step(page, table, middle)
    seat = record.actions[middle].seat  # the next to move holds something
    page.get_by_label("Seen by").select_option(label=f"Seat {seat + 1}: {record.seats[seat].name}")
    expect(page.locator(hand)).to_be_visible()
    at_step(page, table, middle)
    # Nobody waits in a replay: the seat's own move is next (it was told "Waiting for
    # the others").
    expect(page.get_by_text("Waiting for the others")).to_have_count(0)
    page.screenshot(path=str(shots / f"replay-{game}-seat.png"))
    page.get_by_label("Seen by").select_option(label="A spectator (no hand)")
    expect(page.locator(hand)).to_have_count(0)
    at_step(page, table, middle)

    # Play at a chosen speed, then pause.
    page.get_by_label("Speed").select_option(label="8 moves a second")
    play = page.get_by_role("button", name="Play")
    play.click()
    expect(viewer).not_to_have_attribute("data-step", str(middle))
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    paused = int(viewer.get_attribute("data-step") or 0)
    assert middle < paused <= steps
    at_step(page, table, paused)
    page.context.close()


def record_title(game: str) -> str:
    return {"sequence-cats": "Sequence Cats", "triominos": "Triominos", "dixit": "Dixit"}[game]


@pytest.mark.parametrize("screen", [(1366, 768), (1920, 1080)])
@pytest.mark.parametrize("game", list(GAMES))
def test_the_replays_table_fits_the_window_below_its_controls(
    browser: Browser, web_server: LiveServer, shots: Path, tmp_path: Path, game: str,
    screen: tuple[int, int],
) -> None:
    """On a laptop and a big screen the whole table (Sequence Cats' eight rows of the
    board, Triominos' and Dixit's tables) shows below the replay's controls, at the
    start, in the middle and at the end, without scrolling the page."""
    path, record = record_file(game, tmp_path)
    steps = len(record.actions)
    _, table, _ = GAMES[game]
    width, height = screen
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    open_file(page, web_server.url, path)
    for step in (0, steps // 2, steps):
        page.locator(".replay-number input").fill(str(step))
        page.keyboard.press("Enter")
        at_step(page, table, step)
        # Measured once the layout has followed the step's lines (a frame or two).
        fits = f"""() => {{
            const box = document.querySelector('{table}').getBoundingClientRect();
            return box.bottom <= innerHeight + 4
                && document.documentElement.scrollHeight <= innerHeight + 4; }}"""
        try:
            wait_for(page, fits, timeout=5)
        except AssertionError:
            box = page.locator(table).bounding_box()
            scrolled = page.evaluate("document.documentElement.scrollHeight")
            pytest.fail(f"step {step}: the table ends at {box}, the page at {scrolled}")
    page.screenshot(path=shots / f"replay-{game}-{width}.png")


def test_a_replay_of_big_steps_plays_on_to_its_end(
    browser: Browser, web_server: LiveServer, tmp_path: Path
) -> None:
    """A Dixit Party of twelve, ten rounds each, with clues as long as the rules allow:
    its late steps are about 280 KB each, so the server answers a chunk of 25 in parts
    of at most 2 MiB. The viewer stopped at the end of the first part; it asks for the
    rest and plays on to the last step."""
    record = party_of_twelve()
    path = tmp_path / "party.json"
    path.write_text(record.model_dump_json())
    steps = len(record.actions)
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    open_file(page, web_server.url, path)
    start = (steps // 25 - 1) * 25  # a chunk's first step, a whole chunk before the end
    page.get_by_label("Move number").fill(str(start))
    at_step(page, ".dx-table", start)
    page.get_by_label("Speed").select_option("8")
    page.get_by_role("button", name="Play").click()
    expect(page.locator(".replay-page")).to_have_attribute("data-step", str(steps),
                                                           timeout=90_000)
    at_step(page, ".dx-table", steps)


def test_the_replay_viewer_by_keyboard_alone(
    browser: Browser, web_server: LiveServer, tmp_path: Path, shots: Path
) -> None:
    path, record = record_file("triominos", tmp_path)
    steps = len(record.actions)
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    open_file(page, web_server.url, path)
    at_step(page, ".tr-table", 0)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at_step(page, ".tr-table", 2)
    page.keyboard.press("ArrowLeft")
    at_step(page, ".tr-table", 1)
    page.keyboard.press("End")
    at_step(page, ".tr-table", steps)
    page.keyboard.press("Home")
    at_step(page, ".tr-table", 0)
    # Every control takes the focus and answers Enter, Space and the arrows.
    forward = page.get_by_role("button", name="One move forward")
    forward.focus()
    page.keyboard.press("Enter")
    at_step(page, ".tr-table", 1)
    page.keyboard.press("Space")
    at_step(page, ".tr-table", 2)
    page.get_by_label("Jump to a move").focus()
    page.keyboard.press("ArrowRight")
    at_step(page, ".tr-table", 3)
    page.locator(".replay-more > summary").focus()  # on a phone: under "More controls"
    page.keyboard.press("Enter")
    page.get_by_label("Seen by").focus()
    page.keyboard.press("ArrowDown")  # the first seat
    expect(page.get_by_label("Seen by")).to_have_value("0")
    expect(page.locator(".tr-hand")).to_be_visible()
    to_end = page.get_by_role("button", name="To the end")
    to_end.focus()
    page.keyboard.press("Enter")
    at_step(page, ".tr-table", steps)
    expect(to_end).to_be_focused()  # it keeps the focus at the end
    page.get_by_role("button", name="To the start").focus()
    page.keyboard.press("Enter")
    at_step(page, ".tr-table", 0)
    page.get_by_role("button", name="Play").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".replay-page")).not_to_have_attribute("data-step", "0")
    page.keyboard.press("Enter")  # the same button, now "Pause"
    expect(page.get_by_role("button", name="Play")).to_be_focused()
    page.screenshot(path=str(shots / "replay-triominos-phone.png"))
    page.context.close()


def test_a_bad_record_file_is_refused_with_the_rule(
    browser: Browser, web_server: LiveServer, tmp_path: Path
) -> None:
    path, record = record_file("sequence-cats", tmp_path)
    data = record.model_copy(deep=True)
    data.actions.insert(1, data.actions[0])  # seat 0 again, out of turn
    path.write_text(data.model_dump_json())
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    open_file(page, web_server.url, path)
    expect(page.get_by_role("heading", name="This game cannot be replayed")).to_be_visible()
    expect(page.get_by_role("alert")).to_contain_text("Action 2 of the record breaks rule SC-")
    # Another file opens from the same page.
    path.write_text("not a record")
    page.get_by_label("Open a game record (.json)").set_input_files(str(path))
    expect(page.get_by_role("alert")).to_contain_text("That file is not a game record")
    page.context.close()


def test_a_record_of_someone_elses_own_deck_points_to_its_tables_replay(
    browser: Browser, web_server: LiveServer, tmp_path: Path
) -> None:
    """A friend opened the record of a game played with Anna's own deck: "There is no
    deck «512e6da3862786bc»", and nothing to do. The page now says why and links the
    replay at the table the record names, which shows it to everyone who may watch."""
    path, record = record_file("dixit", tmp_path)
    data = record.model_copy(deep=True)
    data.config = {**data.config, "deck": "512e6da3862786bc"}
    data.meta = {**data.meta, "table": "h6tSDe8_xTCA"}
    path.write_text(data.model_dump_json())
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    open_file(page, web_server.url, path)
    expect(page.get_by_role("heading", name="This game cannot be replayed")).to_be_visible()
    expect(page.locator(".replay-error")).to_contain_text("someone's own deck")
    link = page.get_by_role("link", name="Open the replay at its table")
    expect(link).to_have_attribute("href", "/t/h6tSDe8_xTCA/replay")
    page.context.close()


@pytest.mark.parametrize("game, config, bots", [
    ("sequence-cats", {}, ["greedy", "greedy"]),
    ("triominos", {"rounds": 1}, ["greedy", "greedy"]),
    ("dixit", {"target_score": 5, "first_storyteller": "first_seat"}, ["easy"] * 3),
])
def test_the_end_of_game_dialog_opens_the_tables_replay(
    browser: Browser, web_server: LiveServer, shots: Path, game: str, config: dict[str, object],
    bots: list[str]
) -> None:
    """Computer players play a short game out while a page watches; its end-of-game
    dialog leads to the table's replay."""
    table_class = GAMES[game][1]
    with httpx.Client(base_url=web_server.url, timeout=seats.WAIT) as http:
        created = http.post("/api/tables", json={
            "game": game, "config": config, "name": None,
            "seats": [{"kind": "bot", "bot": bot} for bot in bots]})
        assert created.status_code == 201, created.text
        table = created.json()["table"]["id"]
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.goto(f"{web_server.url}/t/{table}")
        link = page.get_by_role("link", name="Watch the replay")
        expect(link).to_be_visible(timeout=180_000)  # however long the game takes
        steps = http.get(f"/api/tables/{table}").json()["version"]
    link.click()
    expect(page).to_have_url(f"{web_server.url}/t/{table}/replay")
    expect(page.locator(".replay-page")).to_have_attribute("data-steps", str(steps))
    at_step(page, table_class, 0)
    page.get_by_role("button", name="To the end").click()
    at_step(page, table_class, steps)
    expect(page.locator(".replay-move")).to_contain_text("Game over")
    # The replay's own end shows no links out of it; the record is at the top.
    expect(page.get_by_role("link", name="Watch the replay")).to_have_count(0)
    expect(page.get_by_role("link", name="Download the game record")).to_have_count(1)
    page.screenshot(path=str(shots / f"replay-from-table-{game}.png"))
    # A link leads back to the table, its game over, as the browser's Back would.
    page.get_by_role("link", name="Back to the table").click()
    expect(page).to_have_url(f"{web_server.url}/t/{table}")
    expect(page.get_by_role("link", name="Watch the replay")).to_be_visible()
    page.context.close()


def test_team_dixits_final_ranking_numbers_the_teams_one_two_three(
    browser: Browser, web_server: LiveServer, tmp_path: Path
) -> None:
    """The final ranking ranks the teams among themselves (DX-TEAM-6): places 1, 2, 3,
    ties shared, as the game's ranking gives them (not by seat, 1, 3, 5)."""
    record, outcome = play_bot_game("dixit", {"variant": "team", "rounds_per_player": 1},
                                    ["random"] * 6, seed=4)
    assert outcome.finished
    path = tmp_path / "team.json"
    path.write_text(record.model_dump_json())
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    open_file(page, web_server.url, path)
    page.get_by_role("button", name="To the end").click()
    at_step(page, ".dx-table", len(record.actions))
    rows = page.locator(".dx-ranking li")
    expect(rows).to_have_count(3)
    team_scores = [outcome.scores[seat] for seat in range(3)]  # seats 0–2 lead teams 1–3
    expected = sorted(1 + sum(other > score for other in team_scores) for score in team_scores)
    assert [int(r.get_attribute("data-rank") or 0) for r in rows.all()] == expected
    page.context.close()


@pytest.mark.parametrize(("game", "log"), [("sequence-cats", ".sc-log li"),
                                           ("triominos", ".tr-log li")])
def test_after_a_jump_the_tables_log_tells_what_led_there(
    browser: Browser, web_server: LiveServer, tmp_path: Path, game: str, log: str
) -> None:
    """After a jump (a move's number, the slider, End) the table's log held the last
    move alone; it now holds the moves before it too, newest first. A Triominos replay
    shows the rack without the Draw and Pass buttons nobody may press."""
    path, record = record_file(game, tmp_path)
    _, table, hand = GAMES[game]
    page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    open_file(page, web_server.url, path)
    at_step(page, table, 0)
    middle = len(record.actions) // 2
    assert middle >= 20
    page.get_by_label("Move number").fill(str(middle))
    at_step(page, table, middle)
    lines = page.locator(log)
    wait_for(page, f"document.querySelectorAll({log!r}).length >= 20")
    versions = [int(v) for v in lines.evaluate_all("ls => ls.map(l => l.dataset.version)")]
    assert versions[0] == middle and versions == sorted(versions, reverse=True)
    assert versions[-1] <= middle - 19
    seat = record.actions[middle].seat
    page.get_by_label("Seen by").select_option(label=f"Seat {seat + 1}: {record.seats[seat].name}")
    expect(page.locator(hand)).to_be_visible()
    expect(page.locator('[data-action="draw"], [data-action="pass"]')).to_have_count(0)
    page.context.close()


@pytest.mark.parametrize("game", ["sequence-cats", "dixit"])  # Triominos' keeps to the window
def test_on_a_phone_the_step_buttons_stay_in_sight_while_the_table_scrolls(
    browser: Browser, web_server: LiveServer, shots: Path, tmp_path: Path, game: str
) -> None:
    """On a phone the replay's controls (about 1,000 px with the header and the move's
    events) scrolled away with the page, so each step meant scrolling up to the buttons
    and down again to the table. The step buttons and the move's number now stay at the
    window's top, above a seat's hand bar at its bottom; a Dixit seat's replay offers no
    "Change my vote" nor "Waiting for the others" (nobody acts in a replay)."""
    path, record = record_file(game, tmp_path)
    _, table, hand = GAMES[game]
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True).new_page()
    open_file(page, web_server.url, path)
    more_controls(page)
    page.get_by_label("Seen by").select_option("0")
    expect(page.locator(hand)).to_be_visible()
    page.locator(".replay-more > summary").click()  # folded again
    expect(page.get_by_label("Seen by")).to_be_hidden()
    # The controls leave the table more than half the window (they took two thirds of
    # it, the game's table starting 441 px down): the move's number and the speed share
    # a row, their words for screen readers only, and the players are named below.
    top = page.locator(table).bounding_box()
    assert top is not None and top["y"] <= 844 / 2, top  # (385 px, choices 40 px high)
    expect(page.get_by_label("Speed")).to_have_value("2")
    step = 13  # Dixit: seat 1 has voted and could take it back at the table
    page.get_by_label("Move number").fill(str(step))
    at_step(page, table, step)
    if game == "dixit":
        expect(page.locator(".dx-actions")).to_have_count(0)  # nobody waits in a replay
        expect(page.locator('[data-action="take-back"]')).to_have_count(0)
    forward = page.get_by_role("button", name="One move forward")
    expect(forward).to_have_count(1)  # the controls' own buttons are not offered twice
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    wait_for(page, "scrollY + innerHeight >= document.documentElement.scrollHeight - 2")
    # The controls' first row, where the step buttons were, is (all but) out of sight
    # above: the page scrolled.
    assert page.evaluate(
        "document.querySelector('.replay-controls').getBoundingClientRect().top") < 10
    assert page.evaluate("scrollY") > 50
    for _ in range(3):
        box = forward.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
        forward.tap()
        step += 1
        at_step(page, table, step)
    expect(page.locator(".replay-dock-count")).to_have_text(f"{step} / {len(record.actions)}")
    page.screenshot(path=str(shots / f"replay-{game}-phone-scrolled.png"))
    page.context.close()


def test_on_a_phone_the_moves_number_shows_once_above_the_table(
    browser: Browser, web_server: LiveServer, shots: Path, tmp_path: Path
) -> None:
    """On a phone the step buttons pinned at the window's top say "5 / 42", and right
    under them the move's words said "Move 5 of 42: greedy 1" again, over "greedy 1
    played PURRR on E4.". The line under the buttons is now what the move did; the
    number stays for screen readers only, since the buttons' count is hidden from them."""
    path, record = record_file("sequence-cats", tmp_path)
    _, table, _ = GAMES["sequence-cats"]
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True, locale="en-GB").new_page()
    open_file(page, web_server.url, path)
    steps = len(record.actions)
    page.get_by_label("Move number").fill("5")
    at_step(page, table, 5)
    mover = record.seats[record.actions[4].seat].name
    expect(page.locator(".replay-dock-count")).to_have_text(f"5 / {steps}")
    shown = page.locator(".replay-move").evaluate("""move => {
        const copy = move.cloneNode(true);
        copy.querySelectorAll('.sr-only').forEach((hidden) => hidden.remove());
        return copy.textContent.trim(); }""")
    assert shown == "", shown
    expect(page.locator(".replay-events li").first).to_have_text(f"{mover} played PURRR on E4.")
    expect(page.locator(".replay-move .sr-only")).to_have_text(f"Move 5 of {steps} ")
    page.screenshot(path=str(shots / "replay-phone-move-words.png"))
    page.context.close()


@pytest.mark.parametrize("game", ["sequence-cats", "triominos"])
def test_on_a_phone_no_toast_over_the_board_repeats_the_move_the_replay_tells(
    browser: Browser, web_server: LiveServer, tmp_path: Path, game: str
) -> None:
    """A replay's line under its controls tells each move; on a phone the table's own
    toast told it again over the board's top row, hiding where the chip or tile went."""
    path, record = record_file(game, tmp_path)
    _, table, _ = GAMES[game]
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True).new_page()
    open_file(page, web_server.url, path)
    page.get_by_role("button", name="To the end").first.tap()
    at_step(page, table, len(record.actions))
    page.get_by_role("button", name="One move back").first.tap()
    at_step(page, table, len(record.actions) - 1)
    page.get_by_role("button", name="One move forward").first.tap()
    at_step(page, table, len(record.actions))
    expect(page.locator(".replay-move")).not_to_be_empty()
    page.wait_for_timeout(300)
    # (Counted now: a toast goes by itself after a few seconds.)
    assert page.locator(".sc-toast, .tr-toast").count() == 0
    page.context.close()


def test_a_triominos_ranking_writes_a_score_below_zero_with_a_minus_sign(
    browser: Browser, web_server: LiveServer, tmp_path: Path
) -> None:
    """A score below zero (draw penalties, TR-DRAW-1) reads "−5 points", with the minus
    sign the rest of the table uses, not a hyphen ("-5")."""
    record, outcome = play_bot_game("triominos", {"rounds": 1}, ["random", "random"], seed=11)
    assert outcome.finished and min(outcome.scores) == -5
    path = tmp_path / "minus.json"
    path.write_text(record.model_dump_json())
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    open_file(page, web_server.url, path)
    page.get_by_role("button", name="To the end").click()
    at_step(page, ".tr-table", len(record.actions))
    page.locator('[data-action="show-summary"]').click()
    scores = page.locator(".tr-rank-score")
    expect(scores.first).to_be_visible()
    assert "−5 points" in scores.all_inner_texts(), scores.all_inner_texts()
    # Seen by the winner's seat, the status line names the winner: a replay is read by
    # anyone, and it said "The game is over: you won!".
    page.keyboard.press("Escape")
    (winner,) = outcome.winners
    name = record.seats[winner].name
    page.get_by_label("Seen by").select_option(label=f"Seat {winner + 1}: {name}")
    expect(page.locator(f'.tr-player[data-seat="{winner}"]')).to_contain_text("you")
    expect(page.locator(".tr-status-text")).to_have_text(f"The game is over: {name} won.")
    page.context.close()


def test_a_sequence_cats_replay_seen_from_a_seat_names_the_winners_never_you(
    browser: Browser, web_server: LiveServer, tmp_path: Path
) -> None:
    """A replay, which anyone may open, told "You lost: greedy 2 (Orange) wins." when
    seen from seat 1, as if the reader had played there: its end names the winners."""
    path, record = record_file("sequence-cats", tmp_path)
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True).new_page()
    open_file(page, web_server.url, path)
    more_controls(page)
    page.get_by_label("Seen by").select_option("0")
    page.get_by_role("button", name="To the end").first.click()
    at_step(page, ".sc-table", len(record.actions))
    status = page.locator(".sc-status-text")
    expect(status).to_have_text(re.compile(r"^(Blue|Orange) wins! Winner: greedy \d\.?$"))
    page.locator(".sc-status .sc-result-reopen").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.locator("h2")).not_to_contain_text("You")
    expect(dialog).to_contain_text(re.compile(r"Winner: greedy \d"))


@pytest.mark.parametrize(("game", "status"), [("sequence-cats", ".sc-status-text"),
                                               ("triominos", ".tr-status-text")])
def test_a_replay_says_who_moves_next_not_that_someone_is_playing(
    browser: Browser, web_server: LiveServer, tmp_path: Path, game: str, status: str
) -> None:
    """A replay shows a past position, paused or stepped: its status line said "Anna is
    playing…", as at a live table whose player is at work. It names who moves next."""
    path, record = record_file(game, tmp_path)
    _, table, _ = GAMES[game]
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    open_file(page, web_server.url, path)
    for step in (0, 1):
        page.get_by_label("Move number").fill(str(step))
        at_step(page, table, step)
        name = record.seats[record.actions[step].seat].name
        expect(page.locator(status)).to_have_text(f"Next move: {name}")
    page.get_by_role("button", name="Play").click()
    expect(page.locator(".replay-page")).not_to_have_attribute("data-step", "1")
    expect(page.get_by_text(re.compile("is playing"))).to_have_count(0)
    page.context.close()


def test_a_dixit_replay_names_the_storyteller_not_someone_thinking_now(
    browser: Browser, web_server: LiveServer, tmp_path: Path
) -> None:
    """Between the claim and the clue a Dixit replay said "Anna is thinking of a clue."
    and "Anna is the storyteller and is thinking of a clue.", as at a live table. A past
    position says who moves next and who tells."""
    path, record = record_file("dixit", tmp_path)
    assert [a.action["type"] for a in record.actions[:2]] == ["claim", "clue"]
    teller = record.seats[record.actions[1].seat].name
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    open_file(page, web_server.url, path)
    page.get_by_label("Move number").fill("1")
    at_step(page, ".dx-table", 1)
    expect(page.locator(".dx-status-text")).to_have_text(f"Next move: {teller}")
    expect(page.locator(".dx-prompt p")).to_have_text(f"{teller} is the storyteller.")
    # At a round's end, seen from a seat, who moves next is a sentence of its own (it
    # read "Round 2 has begun: Next move: Bjarni").
    assert record.actions[7].action["type"] == "vote" and record.actions[8].action["type"] == "clue"
    page.get_by_label("Seen by").select_option(value="0")
    page.get_by_label("Move number").fill("8")
    at_step(page, ".dx-table", 8)
    expect(page.locator(".dx-status-text")).to_have_text(
        "Round 1's result: press Continue when you have seen it. Round 2 has begun. "
        f"Next move: {record.seats[record.actions[8].seat].name}")
    page.context.close()


def test_a_dixit_replays_previous_round_button_shows_the_result(
    browser: Browser, web_server: LiveServer, tmp_path: Path
) -> None:
    """Once the next clue was told, "Previous round" in a replay (and on the watch page)
    did nothing: someone watching sees a result until that clue, and the button's
    request did not count. It shows the result now, and Continue closes it."""
    path, record = record_file("dixit", tmp_path)
    assert record.actions[8].action["type"] == "clue"
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    open_file(page, web_server.url, path)
    page.get_by_label("Move number").fill("9")
    at_step(page, ".dx-table", 9)
    expect(page.locator(".dx-reveal")).to_have_count(0)
    page.locator('[data-action="show-reveal"]').click()
    expect(page.locator(".dx-reveal")).to_be_visible()
    page.locator('.dx-reveal [data-action="continue"]').click()
    expect(page.locator(".dx-reveal")).to_have_count(0)
    page.context.close()


@pytest.mark.parametrize("game", list(GAMES))
def test_a_replay_step_is_read_out_once(
    browser: Browser, web_server: LiveServer, tmp_path: Path, game: str
) -> None:
    """Each step changed two live regions at once, the viewer's "Move 3 of 96: …" and the
    game's status line, and a screen reader read the step twice. In a replay the status
    line is not live; the viewer's line is."""
    path, _ = record_file(game, tmp_path)
    _, table, _ = GAMES[game]
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    open_file(page, web_server.url, path)
    at_step(page, table, 0)
    expect(page.locator(".replay-now")).to_have_attribute("aria-live", "polite")
    expect(page.locator("[data-status-line] [aria-live]")).to_have_attribute("aria-live", "off")
    page.context.close()


def test_the_replay_of_a_game_still_going_leads_back_to_the_seat(
        browser: Browser, web_server: LiveServer) -> None:
    # Its record is withheld until the game is over (it would show the hands); the page
    # says so and offers the way back to the table, where the person's seat still is.
    table, tokens = seats.create_table(web_server, "sequence-cats", {}, ["human", "easy"],
                                       {0: "Anna"})
    page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[0]}")
    expect(page.locator(".sc-card").first).to_be_visible()
    page.goto(f"{web_server.url}/t/{table}/replay")
    expect(page.get_by_role("alert")).to_contain_text("once the game is over")
    # Ctrl+click opens the link in a new tab, as any link does (the page turned it into a
    # click in place), and leaves this page where it is.
    back = page.get_by_role("link", name="Back to the table")
    with page.context.expect_page() as opened:
        back.click(modifiers=["ControlOrMeta"])
    opened.value.wait_for_load_state()
    assert opened.value.url == f"{web_server.url}/t/{table}"
    expect(page).to_have_url(f"{web_server.url}/t/{table}/replay")
    opened.value.close()
    back.click()
    expect(page).to_have_url(f"{web_server.url}/t/{table}")
    expect(page.locator(".sc-card").first).to_be_visible()
    page.context.close()


@pytest.mark.parametrize("language", ["en", "is", "nb", "pt"])
def test_on_a_narrow_phone_the_play_buttons_word_shows_whole(
        browser: Browser, web_server: LiveServer, shots: Path, tmp_path: Path,
        language: str) -> None:
    # The dock's Play button shrank with its row: "Reproduzir" showed as "eproduzi". Its
    # word (Play, then Pause) now shows whole, on two lines where it must, and the dock
    # keeps inside the window, every button in it 44 px each way at least.
    path, _ = record_file("sequence-cats", tmp_path)
    page = browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True,
                               has_touch=True).new_page()
    open_file(page, web_server.url, path)
    page.locator(".language-switch select").select_option(language)
    play = page.locator(".replay-dock .replay-play")
    expect(play).to_be_visible()
    for _ in range(2):  # Play, then Pause
        fits = play.evaluate("b => b.scrollWidth <= b.clientWidth + 0.5")
        assert fits, (language, play.text_content())
        dock = page.locator(".replay-dock").bounding_box()
        assert dock is not None and dock["x"] >= 0 and dock["x"] + dock["width"] <= 360, dock
        for button in page.locator(".replay-dock button").all():
            box = button.bounding_box()
            assert box is not None and box["x"] + box["width"] <= dock["x"] + dock["width"]
            # A finger's size each way (the step buttons were 39 × 42). The box is
            # measured on a page that may still be settling at a fractional y, where
            # 44 px reads 43.99998: a hundredth of a pixel is allowed for that.
            assert box["width"] >= 44 - 0.01 and box["height"] >= 44 - 0.01, (language, box)
        page.screenshot(path=str(shots / f"replay-dock-360-{language}.png"))
        play.tap()
    page.context.close()


@pytest.mark.parametrize(("language", "half"), [("en", "0.5"), ("is", "0,5"), ("nb", "0,5"),
                                                ("pt", "0,5")])
def test_the_replay_speeds_are_written_as_numbers_are_in_the_language(
        browser: Browser, web_server: LiveServer, tmp_path: Path, language: str,
        half: str) -> None:
    # Every language read "0.5 trekk i sekundet": Icelandic, Norwegian and Portuguese
    # write a decimal comma.
    path, _ = record_file("sequence-cats", tmp_path)
    page = browser.new_page()
    open_file(page, web_server.url, path)
    page.locator(".language-switch select").select_option(language)
    speeds = page.locator(".replay-speed option")
    expect(speeds.first).to_contain_text(half)
    assert all("." not in text or language == "en" for text in speeds.all_text_contents())
    page.context.close()


def test_a_lap_mark_in_the_tracks_last_column_reads_whole(
    browser: Browser, web_server: LiveServer, tmp_path: Path
) -> None:
    """A rabbit that has run a lap of 30 carries "+30"; on the track's last column (a total
    of 37, 38, 53 or 54, as the PT edition's games without a target reach) the mark ran
    past the track's edge and read "+3". It now stands inside the track, whole."""
    # A game in which one rabbit ends on 37: space 7, the last column of the track's
    # first row.
    record = next(
        record for record, outcome in (
            play_bot_game("dixit", {"edition": "PT"}, ["random"] * 3, seed)
            for seed in range(200))
        if list(outcome.scores).count(37) == 1)
    path = tmp_path / "dixit-pt.json"
    path.write_text(record.model_dump_json())
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    open_file(page, web_server.url, path)
    page.get_by_role("button", name="To the end").first.click()
    at_step(page, ".dx-table", len(record.actions))
    lap = page.locator('.dx-track-token[data-score="37"] .dx-lap')
    expect(lap).to_have_text("+30")
    inside = page.evaluate("""() => [...document.querySelectorAll('.dx-track .dx-lap')].map((t) => {
        const box = t.getBBox(), view = t.ownerSVGElement.viewBox.baseVal;
        return box.x >= view.x && box.x + box.width <= view.x + view.width;
    })""")
    assert inside and all(inside), inside
    # Drawn filled, in its own size (sharing the stack ring's rule, it was an outline).
    assert lap.evaluate("t => [getComputedStyle(t).fill, getComputedStyle(t).fontSize]") \
        == ["rgb(29, 36, 51)", "10px"]
    page.locator(".dx-track").screenshot(path=str(tmp_path / "track.png"))
    page.context.close()


def test_a_seat_that_changed_hands_twice_names_each_move_after_its_maker(
    browser: Browser, web_server: LiveServer, shots: Path, tmp_path: Path
) -> None:
    """Seat 2 was Bruno's, then Carla's, who left to a computer player (Medium) whose
    level the host changed (Hard). At a step while Medium played, the replay named
    Bruno's moves after Carla's computer player: the step's table kept who held the seat
    then but not who held it before. A Triominos round's summary named the seat's
    present occupant in every round; it names the one who played the round."""
    path, record = record_file("triominos", tmp_path)
    first_round_end = replay(record).state.history[0]["actions"]
    bruno_until, medium_since, medium_until = (first_round_end + 2, first_round_end + 6,
                                               first_round_end + 10)
    assert medium_until < len(record.actions)
    assert any(a.seat == 1 for a in record.actions[medium_until - 20:bruno_until])
    data = record.model_dump()
    data["seats"][1] = {"name": "Carla", "bot": "hard", "bot_since": medium_since,
                        "earlier": [{"until": bruno_until, "name": "Bruno", "bot": None},
                                    {"until": medium_until, "name": "Carla",
                                     "bot": "medium", "bot_since": medium_since}]}
    changed = GameRecord.model_validate(data)
    path.write_text(changed.model_dump_json())
    page = browser.new_context(locale="en-GB", viewport={"width": 1366, "height": 900}
                               ).new_page()
    open_file(page, web_server.url, path)
    page.get_by_label("Move number").fill(str(medium_until))
    at_step(page, ".tr-table", medium_until)
    wait_for(page, "document.querySelectorAll('.tr-log li').length >= 20")
    for version in range(medium_until - 19, medium_until + 1):
        if changed.actions[version - 1].seat != 1:
            continue
        line = page.locator(f'.tr-log li[data-version="{version}"]').first
        maker = ("Bruno " if version <= bruno_until else "Carla " if version <= medium_since
                 else "Carla (computer: Medium)")
        expect(line).to_contain_text(maker)
        if version <= bruno_until:
            assert "Carla" not in line.inner_text()
    expect(page.locator(".replay-move")).to_contain_text("Carla (computer: Medium)")
    page.locator('[data-action="show-summary"]').click()
    summary = page.locator(".tr-summary")
    summary.locator('.tr-totals button', has_text=re.compile("^1$")).click()
    expect(summary).to_have_attribute("data-round", "1")
    expect(summary.locator('.tr-round-seat[data-seat="1"]')).to_contain_text("Bruno")
    assert "Carla" not in summary.locator('.tr-round-seat[data-seat="1"]').inner_text()
    page.screenshot(path=shots / "replay-changed-hands-twice.png")
    page.context.close()


def test_a_dixit_seat_that_changed_hands_mid_round_names_each_move_after_its_maker(
    browser: Browser, web_server: LiveServer, shots: Path, tmp_path: Path
) -> None:
    """Eva claimed the storyteller's role and told the clue, then Dora took her seat;
    Bruno gave his card and Carla, who took his seat, voted. The vote named the clue
    Dora's, and the reveal and the history named the whole round after whoever held
    each seat when it began: Bruno voted. A round now says when its clue was told, each
    card given and each vote cast (``told_at``, ``given_at``, ``voted_at``,
    docs/dixit.md), and each is named after its maker; a seat's points after whoever
    made its last move of the round."""
    path, record = record_file("dixit", tmp_path)
    first = replay(record).state.history[0]
    assert [(a.seat, a.action["type"]) for a in record.actions[:first["actions"]]] == [
        (0, "claim"), (0, "clue"), (1, "submit"), (2, "submit"), (3, "submit"),
        (1, "vote"), (2, "vote"), (3, "vote")]
    data = record.model_dump()
    data["seats"][0] = {"name": "Dora", "bot": None,
                        "earlier": [{"until": 3, "name": "Eva", "bot": None}]}
    data["seats"][1] = {"name": "Carla", "bot": None,
                        "earlier": [{"until": 4, "name": "Bruno", "bot": None}]}
    path.write_text(GameRecord.model_validate(data).model_dump_json())
    page = browser.new_context(locale="en-GB", viewport={"width": 1366, "height": 900}
                               ).new_page()
    open_file(page, web_server.url, path)
    page.get_by_label("Move number").fill("5")
    at_step(page, ".dx-table", 5)
    expect(page.locator(".dx-clue-by")).to_have_text("Eva's clue")
    page.get_by_label("Move number").fill(str(first["actions"]))
    at_step(page, ".dx-table", first["actions"])
    reveal = page.locator(".dx-reveal")
    if not reveal.count():
        page.get_by_role("button", name="Previous round").click()
    expect(reveal.locator("#dx-reveal-title")).to_contain_text("Eva")
    expect(reveal.locator('.dx-reveal-slot[data-owner="1"] .dx-reveal-owner')).to_contain_text(
        "Bruno")
    expect(reveal.locator('.dx-voter[data-voter="1"]')).to_have_text("Carla")
    expect(reveal.locator('.dx-reveal-group[data-seats="1"] h3')).to_contain_text("Carla")
    assert "Dora" not in reveal.inner_text()
    page.screenshot(path=shots / "replay-dixit-changed-hands-mid-round.png")
    history = page.locator(".dx-history")
    history.locator("summary").click()
    round_one = history.locator('.dx-history-round[data-round="1"]')
    expect(round_one.locator("h3")).to_contain_text("Eva")
    expect(round_one.locator('[data-owner="1"] .dx-history-owner')).to_contain_text("Bruno")
    expect(round_one.locator(".dx-history-votes")).to_contain_text(["Carla"])
    expect(round_one.locator('.dx-history-points [data-seat="1"]')).to_contain_text("Carla +")
    page.context.close()


def test_held_sideways_a_replay_pins_only_its_step_buttons(
    browser: Browser, web_server: LiveServer, tmp_path: Path, shots: Path
) -> None:
    """On a phone held sideways (750 × 342) the whole of the replay's controls stayed
    pinned at the window's top once the page scrolled, 180 px of 342, over the table's
    status line. As on an upright phone, only the step buttons stay, in one row."""
    path, _ = record_file("dixit", tmp_path)
    page = browser.new_context(viewport={"width": 750, "height": 342}, is_mobile=True,
                               has_touch=True, device_scale_factor=2).new_page()
    open_file(page, web_server.url, path)
    at_step(page, ".dx-table", 0)
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    wait_for(page, "scrollY > 100")
    controls = page.locator(".replay-controls").bounding_box()
    assert controls is not None and controls["y"] + controls["height"] <= 1, controls
    dock = page.locator(".replay-dock").bounding_box()
    assert dock is not None and -1 <= dock["y"] <= 1 and dock["height"] <= 64, dock
    forward = page.locator(".replay-dock").get_by_role("button", name="One move forward")
    box = forward.bounding_box()
    assert box is not None and box["height"] >= 40, box
    forward.tap()
    at_step(page, ".dx-table", 1)
    page.screenshot(path=str(shots / "replay-sideways-scrolled.png"))
    page.context.close()


FIRST_OF_THE_GAME = {"sequence-cats": ".sc-board", "triominos": ".tr-board",
                     "dixit": ".dx-board"}


@pytest.mark.parametrize(("game", "width", "height"), [
    ("dixit", 390, 664), ("sequence-cats", 390, 664), ("triominos", 360, 640),
    ("sequence-cats", 844, 390), ("triominos", 844, 390), ("dixit", 844, 390)])
def test_on_a_phone_the_replays_first_screen_shows_the_game(
    browser: Browser, tmp_path: Path, shots: Path, game: str, width: int, height: int
) -> None:
    """A table's replay on a phone: the title, the way back, the download, the slider,
    the speed, "Seen by", the move's words and the step buttons filled the first screen
    (the board began at 569 px of 664 upright; held sideways, at 844 × 390, nothing of
    the game showed). The speed, the seat and the download fold under "More controls",
    and the move's words stand under the step buttons, right above the table: the
    board (Dixit's, Sequence Cats', Triominos') begins on the first screen upright, and
    held sideways the table's status line and more are in sight."""
    seats = [SeatRow(0, "human", name="Anna", token_hash=token_hash("anna-token"))] + [
        SeatRow(seat, "bot", bot="easy") for seat in range(1, 4 if game == "dixit" else 2)]
    steps = finished_game(11, game, len(seats))
    with stored_table(tmp_path / "data", {}, seats, 11, steps, game=game) as (server, table):
        page = browser.new_context(viewport={"width": width, "height": height},
                                   is_mobile=True, has_touch=True,
                                   locale="en-GB").new_page()
        page.goto(f"{server.url}/t/{table}/replay")
        at_step(page, GAMES[game][1], 0)
        page.wait_for_timeout(300)  # the table's size follows the measured layout
        assert page.evaluate("scrollY") == 0
        first = page.locator(FIRST_OF_THE_GAME[game]).bounding_box()
        whole = page.locator(GAMES[game][1]).bounding_box()
        dock = page.locator(".replay-dock").bounding_box()
        move = page.locator(".replay-move").bounding_box()
        assert first is not None and whole is not None and dock is not None and move
        page.screenshot(path=str(shots / f"replay-first-screen-{game}-{width}.png"))
        if width < height:
            assert first["y"] + 100 <= height, first  # 100 px of the board in sight
        else:
            assert whole["y"] + 60 <= height, whole  # the status line and more
        # The step buttons, then the move's words, then the table.
        assert dock["y"] + dock["height"] <= move["y"] + 0.5 <= whole["y"] + 0.5
        # The folded controls are a tap away, a finger's size.
        summary = page.locator(".replay-more > summary").bounding_box()
        assert summary is not None and summary["height"] >= 40, summary
        expect(page.get_by_label("Seen by")).to_be_hidden()
        more_controls(page)
        expect(page.get_by_label("Speed")).to_be_visible()
        expect(page.get_by_role("link", name="Download the game record")).to_be_visible()
        page.get_by_label("Seen by").select_option("0")
        expect(page.locator(GAMES[game][2])).to_be_visible()
        page.context.close()
