"""Play again in the browser: at the end of a game two people and a computer player sit
down at a new table with one click each, the seats rotated by one."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from gametable.core import registry
from gametable.core.records import GameRecord
from gametable.server.storage import SeatRow, token_hash
from tests.browser.test_sequence_cats_browser import stored_table

pytestmark = pytest.mark.browser


def people(names: list[str]) -> list[SeatRow]:
    """A seat for each of ``names``, in order, whose seat link's token is
    ``"<name>-token"``."""
    return [SeatRow(s, "human", name=name, token_hash=token_hash(f"{name}-token"))
            for s, name in enumerate(names)]


def finished_game(seed: int, name: str = "sequence-cats", seats: int = 3,
                  options: dict[str, Any] | None = None
                  ) -> list[tuple[int, dict[str, Any]]]:
    """The actions of a whole game of random legal moves (a 3-seat Sequence Cats game
    unless told otherwise), from ``options`` (default: the game's defaults)."""
    game = registry.get(name)
    state = game.new_game(game.make_config(options or {}, seats), seats, seed)
    rng = random.Random(seed)
    steps: list[tuple[int, dict[str, Any]]] = []
    while not game.outcome(state).finished:
        seat = min(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        game.apply(state, seat, action)
        steps.append((seat, action))
    return steps


def steps_until(seats: int, stop: Any, seed: int = 4
                ) -> tuple[list[tuple[int, dict[str, Any]]], Any]:
    """Random legal moves of a ``seats``-player Dixit game from ``seed`` until ``stop(state,
    game)`` holds, and the state then."""
    game = registry.get("dixit")
    state = game.new_game(game.make_config({}, seats), seats, seed)
    rng = random.Random(seed)
    steps: list[tuple[int, dict[str, Any]]] = []
    while not stop(state, game):
        seat = min(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        game.apply(state, seat, action)
        steps.append((seat, action))
    return steps, state


def test_play_again_seats_two_people_and_a_computer_player_at_a_new_table(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    seats = [SeatRow(0, "human", name="Anna", token_hash=token_hash("anna-token")),
             SeatRow(1, "human", name="Bruno", token_hash=token_hash("bruno-token")),
             SeatRow(2, "bot", bot="easy")]
    with stored_table(tmp_path / "data", {}, seats, 11, finished_game(11)) as (server, old):
        anna = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        bruno = browser.new_context(viewport={"width": 420, "height": 860}).new_page()
        anna.goto(f"{server.url}/t/{old}#seat=anna-token")
        bruno.goto(f"{server.url}/t/{old}#seat=bruno-token")
        for page in (anna, bruno):
            expect(page.locator(".result")).to_be_visible()
        anna.locator(".result").get_by_role("button", name="Play again").click()

        # Anna, who asked, goes to the new table at once; Bruno is asked to join it.
        # (the seat link's secret left the address as the page opened)
        expect(anna).to_have_url(re.compile(rf"/t/(?!{old}$)[A-Za-z0-9_-]+$"))
        expect(anna.locator(".sc-status")).to_be_visible()
        expect(bruno.locator(".result")).to_contain_text("Anna wants to play again.")
        # Said once: the copy under the header does not show through the dialog's dim.
        expect(bruno.locator(".rematch-bar")).to_have_count(1)
        expect(bruno.locator(".rematch-bar")).to_be_hidden()
        bruno.screenshot(path=str(shots / "rematch-offer.png"))
        bruno.locator(".result").get_by_role("button", name="Join the new game").click()
        new = anna.url.rsplit("/", 1)[-1]
        assert new != old
        expect(bruno).to_have_url(f"{server.url}/t/{new}")
        # Seats rotated by one: Bruno goes first, the computer player follows, then Anna.
        expect(bruno.locator(".sc-status")).to_contain_text("Your turn")
        expect(anna).to_have_url(f"{server.url}/t/{new}")
        expect(anna.locator(".sc-status")).to_be_visible()
        info = httpx.get(f"{server.url}/api/tables/{new}").json()
        assert [(s["kind"], s["name"], s["bot"]) for s in info["seats"]] == [
            ("human", "Bruno", None), ("bot", None, "easy"), ("human", "Anna", None)]
        assert info["status"] == "playing" and info["host_seat"] == 2
        expect(anna.locator(".sc-players")).to_contain_text("Bruno")
        anna.screenshot(path=str(shots / "rematch-new-table.png"))
        # Back at the old table, Anna reads that she asked, not "Anna wants to play again".
        anna.goto(f"{server.url}/t/{old}")
        expect(anna.locator(".result")).to_contain_text(
            "You asked to play again: the new table is ready.")
        expect(anna.locator(".result")).not_to_contain_text("Anna wants")


def test_a_player_says_no_thanks_and_a_watcher_is_told_a_new_game_began(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """Play again seated everyone who was there, with no way to say no: Bruno's seat
    at the new table waited for him, then its clock ran and a computer player played it.
    "No thanks" opens it (before the first move) for whoever the host gives its link
    (open to the invite link, it let another player hold two hands). Someone watching
    read "Anna wants to play again." with nothing to press: they are told a new game
    began, and offered to watch it (every seat there was taken as it was made) or a
    table of their own. The host at the new table is told that
    the seat is open again (nothing said it)."""
    seats = [SeatRow(0, "human", name="Anna", token_hash=token_hash("anna-token")),
             SeatRow(1, "human", name="Bruno", token_hash=token_hash("bruno-token")),
             SeatRow(2, "bot", bot="easy")]
    with stored_table(tmp_path / "data", {}, seats, 11, finished_game(11)) as (server, old):
        anna = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        bruno = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        watcher = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        anna.goto(f"{server.url}/t/{old}#seat=anna-token")
        bruno.goto(f"{server.url}/t/{old}#seat=bruno-token")
        watcher.goto(f"{server.url}/t/{old}/watch")
        for page in (anna, bruno, watcher):
            expect(page.locator(".sc-status")).to_be_visible()
        anna.locator(".result").get_by_role("button", name="Play again").click()
        # (the seat link's secret left the address as the page opened)
        expect(anna).to_have_url(re.compile(rf"/t/(?!{old}$)[A-Za-z0-9_-]+$"))
        new = anna.url.rsplit("/", 1)[-1]
        result = bruno.locator(".result")
        expect(result).to_contain_text("Anna wants to play again.")
        result.get_by_role("button", name="No thanks").click()
        expect(result).to_contain_text(
            "You said no to the new game: your seat there is open for someone else.")
        expect(result.get_by_role("button", name="Join the new game")).to_have_count(0)
        info = httpx.get(f"{server.url}/api/tables/{new}").json()
        assert [s["kind"] for s in info["seats"]] == ["open", "bot", "human"]
        assert info["seats"][0].get("invited") is True
        # Anna, the new table's host, is told, and sees the seat to fill again: she may
        # copy its link for a friend or give it to a computer player.
        expect(anna.locator('[data-notice="left-open"]')).to_have_text(
            "Bruno left the table: their seat is open again.")
        expect(anna.get_by_role("button", name="Copy the seat's link")).to_be_visible()
        expect(anna.get_by_role("button", name="Copy the invite link")).to_have_count(0)
        expect(watcher.locator("body")).to_contain_text(
            "Anna began a new game with the players of this table.")
        own = watcher.get_by_role("button", name="Start a table of your own")
        expect(own.first).to_be_visible()
        bruno.screenshot(path=str(shots / "rematch-no-thanks.png"))
        # A reload (or coming back later) offered the given-up seat again, and joining
        # with its dead token read "The host removed you": the answer stands.
        bruno.reload()
        expect(bruno.locator(".sc-status")).to_be_visible()
        expect(bruno.locator("body")).to_contain_text("You said no to the new game")
        expect(bruno.get_by_role("button", name="Join the new game")).to_have_count(0)
        # Every seat of the new table was taken as it was made, and it lets people
        # watch: the watcher may follow there, as a watcher (no seat, no token).
        watcher.get_by_role("button", name="Watch the new game").first.click()
        expect(watcher).to_have_url(f"{server.url}/t/{new}/watch")
        expect(watcher.locator(".sc-status")).to_be_visible()
        expect(watcher.locator(".seat-row.mine")).to_have_count(0)


def test_a_finished_dixit_game_offers_play_again_once(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """Dixit's final ranking stands in the table's place with its links, Play again
    among them; the bar above the table offered it a second time."""
    seats = [SeatRow(0, "human", name="Anna", token_hash=token_hash("anna-token"))] + [
        SeatRow(seat, "bot", bot="easy") for seat in (1, 2, 3)]
    steps = finished_game(5, "dixit", 4)
    with stored_table(tmp_path / "data", {}, seats, 5, steps, "dixit") as (server, table):
        page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        page.goto(f"{server.url}/t/{table}#seat=anna-token")
        expect(page.locator(".dx-ranking")).to_be_visible()
        expect(page.get_by_role("button", name="Play again")).to_have_count(1)
        expect(page.locator(".rematch-bar")).to_have_count(0)
        # The result has the focus (the page's did, and Tab went through its header):
        # the next Tab reaches its links.
        expect(page.locator("#dx-final-title")).to_be_focused()
        # A heading is no control: the page opened without a click drew Chromium's
        # focus ring round it.
        outline = page.locator("#dx-final-title").evaluate("h => getComputedStyle(h).outlineStyle")
        assert outline == "none"
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.closest('.dx-final') !== null")
        page.screenshot(path=str(shots / "dixit-final-play-again.png"))
        # The status line names the winner too (it said only "The game is over.", and
        # the ranking scrolls out of sight on a phone).
        title = page.locator("#dx-final-title").inner_text()
        won = {"You win!": "The game is over: you won!",
               "You share the win!": "The game is over: you share the win!"}
        expected = won.get(title) or (
            f"The game is over: {title.removesuffix(' wins')} won." if title.endswith(" wins")
            else f"The game is over: {title}.")
        expect(page.locator(".dx-status-text")).to_have_text(expected)


@pytest.mark.parametrize("watching", [False, True], ids=["player", "spectator"])
def test_on_a_phone_a_finished_dixit_game_scrolls_as_a_page(
    browser: Browser, tmp_path: Path, shots: Path, watching: bool
) -> None:
    """On a phone the board was a box 436 px tall scrolling inside the page: the end's
    ranking, its buttons (replay, record, play again) and the last round's points lay
    in it, out of sight, with nothing saying it scrolled. With no hand to keep in the
    window the page scrolls instead: the board holds all it shows."""
    seats = [SeatRow(0, "human", name="Anna", token_hash=token_hash("anna-token"))] + [
        SeatRow(seat, "bot", bot="easy") for seat in (1, 2, 3)]
    steps = finished_game(5, "dixit", 4)
    with stored_table(tmp_path / "data", {}, seats, 5, steps, "dixit") as (server, table):
        page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                   has_touch=True).new_page()
        page.goto(f"{server.url}/t/{table}" + ("" if watching else "#seat=anna-token"))
        expect(page.locator(".dx-ranking")).to_be_visible()
        expect(page.locator(".dx-reveal-group").first).to_be_attached()
        inner = page.evaluate("""() => { const b = document.querySelector('.dx-board');
            return [b.scrollHeight, b.clientHeight]; }""")
        assert inner[0] <= inner[1] + 1, f"the board scrolls inside: {inner}"
        last = page.locator(".dx-reveal-group").last
        last.scroll_into_view_if_needed()
        expect(last).to_be_in_viewport()
        page.screenshot(path=str(shots / f"dixit-phone-end-{'watch' if watching else 'seat'}.png"),
                        full_page=True)


def two_seat_game_and_winner(seed: int) -> tuple[list[tuple[int, dict[str, Any]]], int]:
    """The actions of a two-seat Sequence Cats game of random legal moves (SC-WIN-2),
    and its winning seat."""
    steps = finished_game(seed, seats=2)
    game = registry.get("sequence-cats")
    state = game.new_game(game.make_config({}, 2), 2, seed)
    for seat, action in steps:
        game.apply(state, seat, action)
    return steps, game.outcome(state).winners[0]


def test_a_lone_winner_is_not_named_to_themselves(browser: Browser, tmp_path: Path) -> None:
    """SC-WIN-2, the end's dialog: the winner of a two-seat game read "You win!" and
    under it "Winner: Bruno", their own name. "You win!" says it; the other seat is
    told who won."""
    steps, winner = two_seat_game_and_winner(5)
    names = ["Anna", "Bruno"]
    seats = [SeatRow(s, "human", name=names[s], token_hash=token_hash(f"t{s}"))
             for s in (0, 1)]
    with stored_table(tmp_path / "data", {}, seats, 5, steps) as (server, table):
        pages = {}
        for s in (0, 1):
            pages[s] = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
            pages[s].goto(f"{server.url}/t/{table}#seat=t{s}")
        won = pages[winner].locator(".result")
        expect(won.locator("h2")).to_have_text("You win!")
        expect(won).not_to_contain_text(names[winner])
        lost = pages[1 - winner].locator(".result")
        expect(lost.locator("h2")).to_contain_text(f"{names[winner]} (")


def test_on_a_phone_the_end_s_headline_keeps_a_computer_player_s_number_with_its_word(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """SC-WIN-2, the end's dialog on a 390 px phone in Norwegian: "Du tapte: Datamaskin 2
    · Vanskelig (Oransje) vinner." broke between "Datamaskin" and "2". It breaks after
    the "·" or between other words (a line that began "· Vanskelig" read as a list)."""
    steps, winner = two_seat_game_and_winner(5)
    seats = [SeatRow(s, "bot", bot="hard") if s == winner
             else SeatRow(s, "human", name="Anna", token_hash=token_hash("anna"))
             for s in (0, 1)]
    with stored_table(tmp_path / "data", {}, seats, 5, steps) as (server, table):
        page = browser.new_context(viewport={"width": 390, "height": 780}, locale="nb-NO",
                                   is_mobile=True, has_touch=True).new_page()
        page.goto(f"{server.url}/t/{table}#seat=anna")
        headline = page.locator(".result h2")
        expect(headline).to_contain_text(f"Datamaskin {winner + 1}")
        page.screenshot(path=str(shots / "sequence-cats-phone-end-nb.png"))
        # The tops of the word's last letter, of the number after it and of the "·".
        tops = headline.evaluate("""h => {
            const walker = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const at = node.data.indexOf("Datamaskin");
                if (at < 0) continue;
                const top = (i) => { const r = document.createRange();
                                     r.setStart(node, i); r.setEnd(node, i + 1);
                                     return Math.round(r.getBoundingClientRect().top); };
                return [top(at + 9), top(at + 11), top(at + 13)];
            }
            return null; }""")
        assert tops is not None and tops[0] == tops[1] == tops[2], tops


def test_with_watching_off_the_players_still_download_the_record_and_watch_the_replay(
    browser: Browser, tmp_path: Path, shots: Path
) -> None:
    """A finished table whose host switched watching off gives its record and replay to
    its players and host only (the server asks for their tokens): the page sends the
    token it holds, so Anna's links work as before, and a stranger's replay page says
    why it shows nothing."""
    seats = [SeatRow(0, "human", name="Anna", token_hash=token_hash("anna-token")),
             SeatRow(1, "bot", bot="easy"), SeatRow(2, "bot", bot="easy")]
    with stored_table(tmp_path / "data", {}, seats, 11, finished_game(11)) as (server, table):
        off = httpx.post(f"{server.url}/api/tables/{table}/watching", json={"allowed": False},
                         headers={"X-Host-Token": "host"})
        assert off.status_code == 200, off.text
        assert httpx.get(f"{server.url}/api/tables/{table}/record").status_code == 403
        anna = browser.new_context(viewport={"width": 1280, "height": 860},
                                   accept_downloads=True).new_page()
        anna.goto(f"{server.url}/t/{table}#seat=anna-token")
        result = anna.locator(".result")
        expect(result).to_be_visible()
        with anna.expect_download() as downloading:
            result.get_by_role("link", name="Download the game record").click()
        saved = tmp_path / "saved.json"
        downloading.value.save_as(saved)
        assert downloading.value.suggested_filename == f"sequence-cats-{table}.json"
        record = GameRecord.model_validate_json(saved.read_bytes())
        assert len(record.actions) == len(finished_game(11))
        result.get_by_role("link", name="Watch the replay").click()
        expect(anna.locator(".replay-page")).to_be_visible()
        expect(anna.locator(".sc-table")).to_be_visible()
        expect(anna.locator(".replay-page")).to_have_attribute(
            "data-steps", str(len(record.actions)))
        stranger = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        stranger.goto(f"{server.url}/t/{table}/replay")
        expect(stranger.locator("body")).to_contain_text(
            "The host has switched watching off for this table: its record and replay are "
            "for its players only.")
        anna.screenshot(path=str(shots / "replay-watching-off-player.png"))
        stranger.screenshot(path=str(shots / "replay-watching-off-stranger.png"))


def test_a_play_again_question_comes_into_sight_without_hiding_the_result_s_heading(
    browser: Browser, tmp_path: Path
) -> None:
    """At 1366 × 768 a finished Dixit game's ranking and its buttons fit the window:
    another player's question to play again is shown where it is, and the heading that
    says who won stays in sight (it was scrolled to the middle of the window, the top of
    the result above the fold)."""
    seats = people(["Anna", "Bruno", "Carla", "Dag"])
    with stored_table(tmp_path / "data", {}, seats, 11, finished_game(11, "dixit", 4),
                      game="dixit") as (server, table):
        pages = []
        for name in ("Anna", "Bruno"):
            page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
            page.goto(f"{server.url}/t/{table}#seat={name}-token")
            expect(page.locator(".dx-final")).to_be_visible()
            pages.append(page)
        anna, bruno = pages
        expect(bruno.locator("#dx-final-title")).to_be_in_viewport(ratio=1)
        anna.get_by_role("button", name="Play again").click()
        expect(bruno.get_by_role("button", name="Join the new game")).to_be_in_viewport()
        bruno.wait_for_timeout(600)  # a smooth scroll has ended
        expect(bruno.locator("#dx-final-title")).to_be_in_viewport(ratio=1)
        for page in pages:
            page.context.close()

