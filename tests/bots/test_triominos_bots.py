"""Computer players at Triominos: legal play, drawing and passing, greedy's choices."""

from __future__ import annotations

from typing import Any

import pytest

from gametable.bots import make_bot
from gametable.games.triominos import TRIOMINOS as GAME
from gametable.games.triominos.tiles import TILE_IDS, TILE_NUMBER
from gametable.simulate import play_bot_game, simulate
from tests.games.triominos.helpers import give, new, opening_choice_seeds, tile_at
from tests.games.triominos.test_rules import BRIDGE, CHAIN, setup


def greedy_choice(state: Any, seat: int = 0) -> dict[str, Any]:
    bot = make_bot("greedy", GAME, seed=1)
    return bot.choose(GAME.view(state, seat), GAME.legal_actions(state, seat))


@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("seats", [1, 2, 4, 6])
def test_bots_play_whole_games_legally(bot: str, seats: int) -> None:
    record, outcome = play_bot_game("triominos", {"rounds": 2}, [bot] * seats, seed=seats)
    assert outcome.finished and len(outcome.rounds) == 2
    kinds = {entry.action["type"] for entry in record.actions}
    assert "place" in kinds


def test_greedy_takes_the_biggest_bonus() -> None:
    """TR-BONUS-1/2: the bridge tile also fits the hexagon hole (1, 1); greedy takes the
    hexagon (+50) over the bridge (+40) and over plain placements."""
    state, _, (bridge_tile, _plain) = setup(CHAIN, [BRIDGE, (-1, 1)])
    bonus = {tuple(o["position"]): o["bonus"] for o in GAME.view(state, 0)["open"]}
    assert bonus[BRIDGE] == "bridge" and bonus[(1, 1)] == "hexagon"
    targets = {tuple(a["position"]) for a in GAME.legal_actions(state, 0)
               if a.get("tile") == bridge_tile}
    choice = greedy_choice(state)
    if (1, 1) in targets:
        assert choice["position"] == [1, 1]
    else:
        assert choice["position"] == list(BRIDGE)
    assert choice["tile"] == bridge_tile


def test_greedy_completes_a_hexagon() -> None:
    ring = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2)]
    state, _, (tile, _other) = setup(ring, [(1, 1), (-1, 1)])
    choice = greedy_choice(state)
    assert choice["tile"] == tile and choice["position"] == [1, 1]


def test_greedy_draws_only_when_nothing_fits_and_passes_after_three_draws() -> None:
    state, numbers, _ = setup(CHAIN, [BRIDGE])
    assert greedy_choice(state)["type"] == "place"
    unplaceable = [t for t in ("0-0-0", "0-0-1", "5-5-5", "4-5-5", "0-0-5")
                   if not state.layout.can_place(1 << _number(t))]
    give(state, 0, unplaceable[:1])
    state.pool = [t for t in state.pool if not state.layout.can_place(1 << t)]
    assert greedy_choice(state) == {"type": "draw"}
    for _ in range(3):
        GAME.apply(state, 0, {"type": "draw"})
    assert greedy_choice(state) == {"type": "pass"}
    assert tile_at(numbers, BRIDGE)  # the layout is unchanged


def test_tr_setup_4_greedy_opens_with_0_0_0_for_40_over_the_highest_triple() -> None:
    """+40 beats the highest triple's value + 10 (at most 25) whatever the options left."""
    for seats, count in ((2, 5), (4, 3)):
        for seed in opening_choice_seeds(seats, count=count):
            state = new(seats, seed=seed, edition="PRESSMAN")
            (seat,) = GAME.to_act(state)
            assert len(GAME.legal_actions(state, seat)) == 2
            choice = greedy_choice(state, seat)
            assert choice == {"type": "place", "tile": "0-0-0", "position": [0, 0],
                              "rotation": 0}
            GAME.apply(state, seat, choice)
            assert state.scores[seat] == 40


def test_tr_setup_4_random_opens_with_either_tile() -> None:
    (seed,) = opening_choice_seeds(2)
    state = new(2, seed=seed, edition="PRESSMAN")
    (seat,) = GAME.to_act(state)
    legal = GAME.legal_actions(state, seat)
    chosen = {make_bot("random", GAME, seed=bot_seed).choose(GAME.view(state, seat),
                                                             legal)["tile"]
              for bot_seed in range(20)}
    assert chosen == {GAME.view(state, seat)["forced"], "0-0-0"}


def test_greedy_passes_for_free_after_the_third_draw_emptied_the_pool() -> None:
    """TR-DRAW-3: greedy weighs the pass at the view's pass points (0 here, not −10)."""
    ratings = []
    for rules_version in (1, 2):
        state, _, _ = setup(CHAIN, [BRIDGE], seats=3, rules_version=rules_version)
        stuck = [t for t in range(56) if not state.layout.can_place(1 << t)
                 and t not in {laid.tile for laid in state.layout.tiles.values()}]
        give(state, 0, [TILE_IDS[t] for t in stuck[:1]])
        state.pool = stuck[1:4]  # tiles conserved is not the point here
        for _ in range(3):
            GAME.apply(state, 0, {"type": "draw"})
        view = GAME.view(state, 0)
        assert view["pass_points"] == (0 if rules_version == 2 else -10)
        assert greedy_choice(state) == {"type": "pass"}
        ratings += GAME.rate_actions(view, [{"type": "pass"}])
    assert ratings[1] - ratings[0] == 10


def test_greedy_beats_random() -> None:
    # Whole games to 400 (greedy won 36 of 40 when this was written).
    summary = simulate("triominos", ["greedy", "random"], games=20, seed=3)
    assert summary.wins["0:greedy"] > 2 * summary.wins["1:random"]


def _number(tile_id: str) -> int:
    return TILE_NUMBER[tile_id]
