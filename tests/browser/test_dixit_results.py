"""Dixit's results in the browser: a round's result survives a reload while it is read,
Team Dixit's final headline says whose win it is, and the end says what ended the game;
in the 3-player game a third card tapped leaves the two chosen, and losing the race to
tell first names who won it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, WebSocketRoute, expect

from gametable.core import registry
from tests.browser.seats import SeatSocket, create_table
from tests.browser.test_rematch import finished_game, people
from tests.browser.test_sequence_cats_browser import stored_table
from tests.server.conftest import LiveServer

pytestmark = pytest.mark.browser


def test_a_round_s_result_read_as_the_page_reloads_comes_back_until_continue(
    browser: Browser, tmp_path: Path
) -> None:
    """A reload (a phone reloads a tab left in the background) while the round's result
    was read brought the page back on the next round, the result behind "Previous
    round". It comes back until Continue closes it, and stays closed after that."""
    game = registry.get("dixit")
    steps = finished_game(5, "dixit", 4)
    state = game.new_game(game.make_config({}, 4), 4, 5)
    prefix: list[tuple[int, dict[str, Any]]] = []
    for seat, action in steps:
        game.apply(state, seat, action)
        prefix.append((seat, action))
        view = game.view(state, 0)
        if view["last_round"] is not None:
            break
    assert view["clue"] is None and view["round"] == view["last_round"]["round"] + 1
    seats = people(["Anna", "Bruno", "Carla", "Dag"])
    with stored_table(tmp_path / "data", {}, seats, 5, prefix, game="dixit") as (server, table):
        page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        page.goto(f"{server.url}/t/{table}#seat=Anna-token")
        reveal = page.locator(".dx-reveal")
        expect(reveal).to_be_visible()
        page.reload()
        expect(reveal).to_be_visible()
        page.locator('[data-action="continue"]').click()
        expect(reveal).to_have_count(0)
        page.reload()
        expect(page.locator(".dx-hand-card").first).to_be_visible()
        expect(reveal).to_have_count(0)
        page.context.close()


def test_team_dixit_s_final_headline_says_the_win_is_the_team_s(
        browser: Browser, tmp_path: Path) -> None:
    """Team Dixit ended with "You win!" for both members of the winning team, and the
    others read the winners' names only: the headline says "Your team wins!"."""
    game = registry.get("dixit")
    config = game.make_config({"variant": "team"}, 6)
    for seed in range(1, 40):
        steps = finished_game(seed, "dixit", 6, {"variant": "team"})
        state = game.new_game(config, 6, seed)
        for seat, action in steps:
            game.apply(state, seat, action)
        ranking = game.outcome(state).ranking
        if list(ranking).count(1) == 2:  # one winning team, not a shared win
            break
    winner = list(ranking).index(1)
    loser = list(ranking).index(max(ranking))
    names = ["Anna", "Bruno", "Carla", "Dag", "Eva", "Finn"]
    seats = people(names)
    with stored_table(tmp_path / "data", {"variant": "team"}, seats, seed, steps,
                      game="dixit") as (server, table):
        page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        page.goto(f"{server.url}/t/{table}#seat={names[winner]}-token")
        expect(page.locator("#dx-final-title")).to_have_text("Your team wins!")
        other = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        other.goto(f"{server.url}/t/{table}#seat={names[loser]}-token")
        expect(other.locator("#dx-final-title")).to_contain_text(names[winner])
        # DX-TEAM-6: the game ends once everyone has told.
        expect(other.locator(".dx-final-ended")).to_have_text(
            "Everyone has been the storyteller once, which ends the game.")
        page.context.close()
        other.context.close()


@pytest.mark.parametrize(("ended_by", "edition"), [("pile", "PT"), ("target", "EN")])
def test_dx_end_2_3_the_end_says_what_ended_the_game(
        browser: Browser, tmp_path: Path, ended_by: str, edition: str) -> None:
    """DX-END-2/3: a game that stopped short of 30 points said only who won, and a
    player wondered why it had stopped. The end says that the draw pile ran out (PT has
    no target), or who reached the target (EN)."""
    game = registry.get("dixit")
    options = {"edition": edition}
    for seed in range(1, 60):
        steps = finished_game(seed, "dixit", 4, options)
        state = game.new_game(game.make_config(options, 4), 4, seed)
        for seat, action in steps:
            game.apply(state, seat, action)
        if game.view(state, 0)["ended_by"] == ended_by:
            break
    else:
        pytest.fail(f"no game of these seeds ended by {ended_by}")
    names = ["Anna", "Bruno", "Carla", "Dag"]
    reached = [names[s] for s, score in enumerate(state.scores) if score >= 30]
    with stored_table(tmp_path / "data", options, people(names), seed, steps,
                      game="dixit") as (server, table):
        page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        page.goto(f"{server.url}/t/{table}#seat=Anna-token")
        expected = ("The draw pile ran out, which ends the game." if ended_by == "pile"
                    else f"{' and '.join(reached)} reached 30 points, which ends the game.")
        expect(page.locator(".dx-final-ended")).to_have_text(expected)
        page.context.close()


def test_dx_3p_2_a_third_card_tapped_leaves_the_two_chosen_and_says_why(
        browser: Browser, tmp_path: Path) -> None:
    """DX-3P-2: with 3 players each gives two cards. A third card tapped took the first
    one back without a word; now the two stay chosen and the hint says how to change
    one. With one chosen, the hint asks for one more."""
    game = registry.get("dixit")
    state = game.new_game(game.make_config({}, 3), 3, 7)
    steps: list[tuple[int, dict[str, Any]]] = [(1, {"type": "claim"})]
    game.apply(state, 1, {"type": "claim"})
    clue = next(a for a in game.legal_actions(state, 1) if a["type"] == "clue")
    clue = {**clue, "text": "Far away"}
    game.apply(state, 1, clue)
    steps.append((1, clue))
    assert 0 in game.to_act(state)
    with stored_table(tmp_path / "data", {}, people(["Anna", "Bruno", "Carla"]), 7, steps,
                      game="dixit") as (server, table):
        page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        page.goto(f"{server.url}/t/{table}#seat=Anna-token")
        choose = page.locator('.dx-hand-card [data-action="choose"]')
        hint = page.locator(".dx-actions .dx-hint")
        expect(hint).to_have_text("Choose the 2 cards that fit the clue best.")
        choose.nth(0).click()
        expect(hint).to_have_text("Choose one more card.")
        choose.nth(1).click()
        expect(hint).to_have_text("Ready to give your 2 cards.")
        choose.nth(2).click()
        expect(hint).to_have_text("You have chosen your 2 cards: tap one of them to put it "
                                  "back, then choose another.")
        chosen = page.locator(".dx-hand-card[data-chosen]")
        expect(chosen).to_have_count(2)
        cards = [page.locator(".dx-hand-card").nth(i).get_attribute("data-card")
                 for i in range(2)]
        assert [chosen.nth(i).get_attribute("data-card") for i in range(2)] == cards
        choose.nth(0).click()
        expect(chosen).to_have_count(1)
        expect(hint).to_have_text("Choose one more card.")
        page.context.close()


def test_dx_setup_4_losing_the_race_to_tell_first_names_who_won_it(
        browser: Browser, web_server: LiveServer) -> None:
    """DX-SETUP-4: two people pressed "I tell first" at once, and the later one read
    "Someone has already become the storyteller." The refusal names who did."""
    table, tokens = create_table(web_server, "dixit", {}, ["human"] * 3,
                                 {0: "Anna", 1: "Bruno", 2: "Carla"})
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    holding = [False]

    def route(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()

        def from_server(message: str | bytes) -> None:
            # While held, only refusals reach the page: it still offers the claim that
            # Anna has just made, as a page does in the moment of the race.
            if holding[0] and not (isinstance(message, str) and '"error"' in message):
                return
            socket.send(message)

        server.on_message(from_server)

    page.route_web_socket(re.compile(r"/api/tables/.*/ws"), route)
    page.goto(f"{web_server.url}/t/{table}#seat={tokens[1]}")
    claim = page.locator('[data-action="claim"]')
    expect(claim).to_be_visible()
    holding[0] = True
    with SeatSocket(web_server, table, tokens[0]) as anna:
        anna.act("claim")
        claim.click()
        expect(page.locator(".toast")).to_contain_text(
            "Anna has already become the storyteller.")
    page.context.close()
