"""Dixit's results in the browser: a round's result survives a reload while it is read,
and Team Dixit's final headline says whose win it is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from gametable.core import registry
from tests.browser.test_rematch import finished_game, people
from tests.browser.test_sequence_cats_browser import stored_table

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
        page.context.close()
        other.context.close()
