"""The greedy ratings: read off a state as off a view, and the options a placement leaves
counted without placing it."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings

from gametable.core.protocol import RatesStates
from gametable.games.triominos import TRIOMINOS as GAME
from gametable.games.triominos.lattice import pack
from gametable.games.triominos.layout import Layout
from gametable.games.triominos.tiles import TILE_NUMBER
from tests.games.triominos.test_properties import random_game, seeds, setups


def placed_open_keys(layout: Layout, action: dict[str, Any]) -> list[int]:
    """The open positions' demand keys after the placement, by placing it on a copy."""
    after = layout.copy()
    after.place(pack(*action["position"]), TILE_NUMBER[action["tile"]], action["rotation"],
                -1, None)
    return sorted(after.open.values())


@settings(max_examples=25, deadline=None)
@given(setups, seeds, seeds)
def test_ratings_from_the_state_equal_those_from_the_view(
        setup: tuple[int, dict[str, Any]], seed: int, choice_seed: int) -> None:
    """Every seat, every step of a random game: ``rate_state_actions`` (what a search
    player's playouts use) rates the acting seat's legal actions exactly as
    ``rate_actions`` does from that seat's view (TR-SCORE-1, TR-BONUS-1..6, TR-DRAW-2/3,
    TR-SETUP-4 start bonuses)."""
    assert isinstance(GAME, RatesStates)
    seats, options = setup
    for before, seat, _action, _events, _after in random_game(seats, options, seed,
                                                             choice_seed, max_actions=120):
        legal = GAME.legal_actions(before, seat)
        for rater in range(seats):
            assert GAME.rate_state_actions(before, rater, legal) == GAME.rate_actions(
                GAME.view(before, rater), legal)


@settings(max_examples=25, deadline=None)
@given(setups, seeds, seeds)
def test_open_after_is_what_placing_would_leave_open(
        setup: tuple[int, dict[str, Any]], seed: int, choice_seed: int) -> None:
    """``Layout.open_after`` gives the demand keys :meth:`Layout.place` would leave open,
    without changing the layout."""
    seats, options = setup
    for before, seat, _action, _events, _after in random_game(seats, options, seed,
                                                             choice_seed, max_actions=80):
        layout = before.layout
        unchanged = (dict(layout.open), dict(layout.numbers), dict(layout.tiles))
        for action in GAME.legal_actions(before, seat):
            if action["type"] != "place" or not layout.tiles:
                continue
            kept, changed = layout.open_after(pack(*action["position"]),
                                              TILE_NUMBER[action["tile"]],
                                              action["rotation"])
            assert sorted(kept + changed) == placed_open_keys(layout, action)
        assert (layout.open, layout.numbers, layout.tiles) == unchanged
