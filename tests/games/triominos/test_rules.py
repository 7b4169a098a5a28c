"""Every TR- rule, with hand-built layouts (rule IDs in the test names)."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

from gametable.core.config import RULES_VERSION
from gametable.core.errors import ConfigError, IllegalAction
from gametable.games.triominos import TRIOMINOS as GAME
from gametable.games.triominos.config import TargetIgnored, TriominosConfig
from gametable.games.triominos.lattice import CELLS, RINGS, pack, unpack
from gametable.games.triominos.rules import _pressman_start
from gametable.games.triominos.state import TriominosState
from gametable.games.triominos.tiles import TILE_IDS, TILE_NUMBER, TILE_VALUE, hand_value
from gametable.simulate import play_bot_game, simulate
from tests.games.triominos.helpers import (
    Pos,
    give,
    lay,
    new,
    number_vertices,
    on_board,
    opening_choice_seeds,
    place_action,
    tile_at,
    tile_for,
)

# A chain of eight tiles from (0, 0) round to (2, 1). Position (1, 0) shares one side
# with (0, 0), and its opposite corner, vertex (2, 1), touches (2, 1) corner to corner.
CHAIN: list[Pos] = [(0, 0), (0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (2, 2), (2, 1)]
BRIDGE: Pos = (1, 0)


def setup(board: list[Pos], new_tiles: list[Pos], seats: int = 2, seed: int = 3,
          fixed: dict[tuple[int, int], int] | None = None, **options: Any
          ) -> tuple[TriominosState, dict[int, int], list[str]]:
    """A state whose table holds ``board``; seat 0 to play, holding the tiles that fit
    ``new_tiles`` exactly (plus nothing else)."""
    numbers = number_vertices(board + new_tiles, fixed)
    state = new(seats, seed, **options)
    lay(state, board, numbers)
    tiles = [tile_at(numbers, p)[0] for p in new_tiles]
    give(state, 0, tiles)
    state.current = state.starter = 0
    state.draws = 0
    return state, numbers, tiles


def play(state: TriominosState, numbers: dict[int, int], position: Pos,
         seat: int = 0) -> list[dict[str, Any]]:
    tile, rotation = tile_at(numbers, position)
    return GAME.apply(state, seat, place_action(tile, position, rotation))


def refused(state: TriominosState, seat: int, action: dict[str, Any]) -> IllegalAction:
    before = GAME.snapshot(state)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, seat, action)
    assert GAME.snapshot(state) == before  # nothing changed
    return caught.value


# -- scoring and bonuses ----------------------------------------------------------------

def test_tr_score_1_a_plain_placement_scores_the_tile_value() -> None:
    state, numbers, (tile,) = setup(CHAIN[:3], [(-1, 1)])
    events = play(state, numbers, (-1, 1))
    assert events[0]["points"] == TILE_VALUE[TILE_NUMBER[tile]] and events[0]["bonus"] is None
    assert state.scores[0] == TILE_VALUE[TILE_NUMBER[tile]]


def test_tr_bonus_1_a_bridge_scores_40_more() -> None:
    state, numbers, (tile,) = setup(CHAIN, [BRIDGE])
    events = play(state, numbers, BRIDGE)
    value = TILE_VALUE[TILE_NUMBER[tile]]
    assert events[0]["bonus"] == "bridge" and events[0]["points"] == value + 40
    assert state.scores == [value + 40, 0]
    assert state.round_points[0]["bridge"] == [1, 40]


def test_tr_bonus_1_a_look_alike_bridge_that_touches_a_second_side_is_no_bridge() -> None:
    # With (1, -1) filled, (1, 0) shares two sides: its opposite corner touching a tile
    # no longer makes a bridge.
    state, numbers, (tile,) = setup([*CHAIN, (1, -1)], [BRIDGE])
    events = play(state, numbers, BRIDGE)
    assert events[0]["bonus"] is None
    assert events[0]["points"] == TILE_VALUE[TILE_NUMBER[tile]]


def test_tr_bonus_1_one_shared_side_without_the_opposite_corner_touching_is_no_bridge() -> None:
    state, numbers, _ = setup(CHAIN[:2], [BRIDGE])
    assert play(state, numbers, BRIDGE)[0]["bonus"] is None


def test_tr_bonus_2_the_sixth_tile_round_a_vertex_scores_a_hexagon() -> None:
    ring = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2)]  # round vertex (1, 2), hole at (1, 1)
    state, numbers, (tile,) = setup(ring, [(1, 1)])
    events = play(state, numbers, (1, 1))
    assert events[0]["bonus"] == "hexagon"
    assert events[0]["points"] == TILE_VALUE[TILE_NUMBER[tile]] + 50


def test_tr_bonus_3_the_seeds_double_hexagon_with_a_value_12_tile_scores_72() -> None:
    # The new tile on (0, 0) completes the hexagons round vertices (0, 1) and (1, 2).
    around = sorted({q for v in CELLS[pack(0, 0)].corners[:2]
                     for q in _ring(v)} - {(0, 0)})
    state, numbers, (tile,) = setup(around, [(0, 0)],
                                    fixed={(0, 1): 3, (1, 2): 4, (1, 0): 5})
    assert tile == "3-4-5"
    events = play(state, numbers, (0, 0))
    assert events[0]["bonus"] == "double_hexagon"
    assert events[0]["points"] == 72
    assert state.scores[0] == 72


def test_tr_bonus_4_completing_three_hexagons_scores_70_more() -> None:
    around = sorted({q for v in CELLS[pack(0, 0)].corners for q in _ring(v)} - {(0, 0)})
    assert len(around) == 12
    state, numbers, (tile,) = setup(around, [(0, 0)])
    events = play(state, numbers, (0, 0))
    assert events[0]["bonus"] == "triple_hexagon"
    assert events[0]["points"] == TILE_VALUE[TILE_NUMBER[tile]] + 70


def test_tr_bonus_5_hexagon_bonuses_are_totals_not_per_hexagon() -> None:
    around = sorted({q for v in CELLS[pack(0, 0)].corners for q in _ring(v)} - {(0, 0)})
    state, numbers, (tile,) = setup(around, [(0, 0)])
    assert play(state, numbers, (0, 0))[0]["points"] - TILE_VALUE[TILE_NUMBER[tile]] == 70


def test_tr_bonus_6_extended_bridge_scores_40_in_the_pressman_option_only() -> None:
    board = [*CHAIN, (2, 0), (2, -1)]
    for edition, expected in (("PRESSMAN", "extended_bridge"), ("IS", None)):
        state, numbers, tiles = setup(board, [BRIDGE, (1, -1)], edition=edition)
        assert play(state, numbers, BRIDGE)[0]["bonus"] == "bridge"
        state.current = 0
        events = play(state, numbers, (1, -1))
        assert events[0]["bonus"] == expected
        value = TILE_VALUE[TILE_NUMBER[tiles[1]]]
        assert events[0]["points"] == value + (40 if expected else 0)


def test_tr_bonus_6_can_be_switched_on_for_the_is_edition() -> None:
    board = [*CHAIN, (2, 0), (2, -1)]
    state, numbers, _ = setup(board, [BRIDGE, (1, -1)], extended_bridge=True)
    play(state, numbers, BRIDGE)
    state.current = 0
    assert play(state, numbers, (1, -1))[0]["bonus"] == "extended_bridge"


def test_the_view_announces_the_bonus_an_open_position_would_earn() -> None:
    state, _, _ = setup(CHAIN, [BRIDGE])
    open_ = {tuple(o["position"]): o for o in GAME.view(state, 0)["open"]}
    assert open_[BRIDGE]["bonus"] == "bridge"
    assert open_[(1, 1)]["bonus"] == "hexagon"  # the sixth round vertex (2, 3)
    assert open_[(-1, 1)]["bonus"] is None


# -- placement --------------------------------------------------------------------------

def _variant(numbers: dict[int, int], position: Pos, corner: int, on_board_: set[str]
             ) -> dict[str, Any]:
    """A tile for ``position`` matching every corner but ``corner``."""
    corners = [numbers[v] for v in CELLS[pack(*position)].corners]
    for n in range(6):
        if n == corners[corner]:
            continue
        wrong = list(corners)
        wrong[corner] = n
        found = tile_for(wrong)
        if found and TILE_IDS[found[0]] not in on_board_:
            return place_action(TILE_IDS[found[0]], position, found[1])
    raise AssertionError("no such tile")


def test_tr_place_2_a_corner_only_mismatch_is_refused_seed_figures_d_and_e() -> None:
    state, numbers, _ = setup(CHAIN, [BRIDGE])
    action = _variant(numbers, BRIDGE, 2, on_board(state))  # the corner touching (2, 1)
    give(state, 0, [action["tile"]])
    error = refused(state, 0, action)
    assert error.rule == "TR-PLACE-2"
    # The corner as a player sees it, not the engine's number ("corner 2").
    name = ("lower left" if CELLS[pack(*BRIDGE)].up else "bottom")
    assert f"the {name} corner at {BRIDGE[0]},{BRIDGE[1]} needs" in str(error), str(error)


def test_tr_place_1_a_shared_side_must_match() -> None:
    state, numbers, _ = setup(CHAIN, [BRIDGE])
    action = _variant(numbers, BRIDGE, 0, on_board(state))  # on the side shared with (0, 0)
    give(state, 0, [action["tile"]])
    error = refused(state, 0, action)
    assert error.rule == "TR-PLACE-1"
    name = ("top" if CELLS[pack(*BRIDGE)].up else "upper left")
    assert f"the {name} corner at" in str(error), str(error)


def test_tr_place_1_a_tile_must_share_a_side() -> None:
    state, _, (tile,) = setup(CHAIN[:3], [(-1, 1)])
    corner_only = place_action(tile, (1, 1), 0)  # touches (0, 0) and (0, 2) by corners only
    error = refused(state, 0, corner_only)
    assert error.rule == "TR-PLACE-1" and "side" in str(error)
    assert refused(state, 0, place_action(tile, (0, 1), 0)).rule == "TR-PLACE-1"  # taken


def test_tr_place_3_only_a_tile_of_your_hand_on_your_turn() -> None:
    state, _, (tile,) = setup(CHAIN, [BRIDGE])
    other = next(t for t in TILE_IDS if t != tile and t not in on_board(state))
    assert refused(state, 0, place_action(other, BRIDGE, 0)).rule == "TR-PLACE-3"
    out_of_turn = refused(state, 1, {"type": "draw"})
    assert out_of_turn.rule == "TR-PLACE-3"
    # Seats counted from 0, as the API counts them (it told seat 1 "seat 1 is to play").
    assert out_of_turn.message("en") == "It is not seat 1's turn: seat 0 is to play."


def test_legal_placements_are_exactly_the_fitting_ones() -> None:
    state = new(2, seed=11)
    for _ in range(12):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        places = [a for a in legal if a["type"] == "place"]
        hand = GAME.view(state, seat)["hand"]
        brute = []
        for tile_id in hand:
            for p in [*state.layout.open]:
                for rotation in range(3 if len(set(tile_id.split("-"))) > 1 else 1):
                    action = place_action(tile_id, _xy(p), rotation)
                    trial = GAME.clone(state)
                    try:
                        GAME.apply(trial, seat, action)
                    except IllegalAction:
                        continue
                    brute.append(action)
        assert sorted(map(str, places)) == sorted(map(str, brute))
        GAME.apply(state, seat, places[0] if places else legal[0])


def test_malformed_place_actions_are_refused_with_protocol() -> None:
    state, _, (tile,) = setup(CHAIN, [BRIDGE])
    for action in [{"type": "place"}, {"type": "place", "tile": "9-9-9", "position": [1, 0],
                                       "rotation": 0},
                   {"type": "place", "tile": tile, "position": "1,0", "rotation": 0},
                   {"type": "place", "tile": tile, "position": [1, 0], "rotation": 5},
                   {"type": "place", "tile": tile, "position": [1, 0], "rotation": True},
                   {"type": "fly"}, {"type": "draw", "n": 2}, {"type": ["draw"]},
                   {"type": {"place": 1}}, []]:
        assert refused(state, 0, action).rule == "PROTOCOL"  # type: ignore[arg-type]


def test_a_triple_laid_in_another_rotation_is_told_it_has_only_one() -> None:
    """A triple looks the same every way round: refused as "rotation 0 to 0" before."""
    state, _, _ = setup(CHAIN, [BRIDGE])
    triple = refused(state, 0, {"type": "place", "tile": "5-5-5", "position": [1, 0],
                                "rotation": 1})
    assert (triple.rule, triple.key) == ("PROTOCOL", "triominos.errors.rotation_fixed")
    assert triple.message() == "Tile 5-5-5 looks the same every way round: lay it in rotation 0."
    assert "0 til 0" not in triple.message("nb") and "0 a 0" not in triple.message("pt")
    other = refused(state, 0, {"type": "place", "tile": "0-1-2", "position": [1, 0],
                               "rotation": 3})
    assert other.message() == "Tile 0-1-2 can only be laid in rotation 0 to 2."


@pytest.mark.parametrize(("written", "tile"), [
    ("1-2-0", "0-1-2"), ("2-0-1", "0-1-2"), ("3-5-1", "1-3-5"),
    ("0-1-0", "0-0-1"), ("1-0-0", "0-0-1"), ("4-4-2", "2-4-4"),
])
def test_tr_tile_1_a_tile_written_from_another_corner_is_told_smallest_first(
        written: str, tile: str) -> None:
    """TR-TILE-1: "1-2-0" is 0-1-2 turned (the same numbers clockwise from another
    corner), a tile of the set written wrongly; a tile with a repeated number reads the
    same clockwise in any order."""
    state, _, _ = setup(CHAIN, [BRIDGE])
    error = refused(state, 0, place_action(written, BRIDGE, 0))
    assert (error.rule, error.key) == ("PROTOCOL", "triominos.errors.tile_order")
    assert error.message() == (
        f"A tile's numbers are written smallest first: \"{tile}\", not \"{written}\".")


@pytest.mark.parametrize(("written", "tile"), [
    ("0-2-1", "0-1-2"), ("2-1-0", "0-1-2"), ("1-0-2", "0-1-2"), ("3-2-1", "1-2-3"),
    ("0-5-4", "0-4-5"),
])
def test_tr_tile_1_a_mirror_image_is_no_tile_of_the_set(written: str, tile: str) -> None:
    """TR-TILE-1: read clockwise, 0-2-1 is the mirror image of 0-1-2, a different tile
    that the set does not have; the refusal cites TR-TILE-1 and says so, not "written
    smallest first", which would call it 0-1-2."""
    state, _, _ = setup(CHAIN, [BRIDGE])
    error = refused(state, 0, place_action(written, BRIDGE, 0))
    assert (error.rule, error.key) == ("TR-TILE-1", "triominos.errors.mirror_tile")
    assert error.message() == (
        f"There is no tile \"{written}\": its numbers read clockwise are the mirror image "
        f"of {tile}, a different tile, and the set has only {tile}.")
    assert "spegilmynd" in error.message("is") and "speilbildet" in error.message("nb")
    assert "espelho" in error.message("pt")


# -- setup ------------------------------------------------------------------------------

@pytest.mark.parametrize(("seats", "tiles"), [(1, 9), (2, 9), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_tr_setup_1_2_tiles_per_player_and_the_pool(seats: int, tiles: int) -> None:
    state = new(seats, seed=seats)
    assert [h.bit_count() for h in state.hands] == [tiles] * seats
    assert len(state.pool) == 56 - seats * tiles
    assert GAME.view(state, None)["pool"] == len(state.pool)


@pytest.mark.parametrize("seats", [0, 7])
def test_tr_setup_2_refuses_other_player_counts(seats: int) -> None:
    with pytest.raises(ConfigError) as caught:
        GAME.make_config({}, seats)
    assert caught.value.rule == "TR-SETUP-2" and str(seats) in str(caught.value)


def test_tr_setup_3_the_highest_drawn_sum_starts_and_ties_draw_again() -> None:
    tied = 0
    for seed in range(60):
        state = new(3, seed=seed)
        start = GAME.view(state, 0)["round_start"]
        assert start["rule"] == "highest_sum"
        contenders = {0, 1, 2}
        draws = list(start["draws"])
        while draws:
            batch, draws = draws[:len(contenders)], draws[len(contenders):]
            assert {seat for seat, _ in batch} == contenders
            best = max(TILE_VALUE[TILE_NUMBER[t]] for _, t in batch)
            contenders = {s for s, t in batch if TILE_VALUE[TILE_NUMBER[t]] == best}
            tied += len(contenders) > 1
        assert contenders == {state.starter} and state.current == state.starter
    assert tied  # some seeds needed a second draw


def test_tr_setup_3_the_starter_lays_any_tile_in_the_middle_and_scores_its_value() -> None:
    state = new(2, seed=5)
    seat = state.starter
    legal = GAME.legal_actions(state, seat)
    assert {a["type"] for a in legal} == {"place"}  # no draw before the first tile
    assert {tuple(a["position"]) for a in legal} == {(0, 0)}
    assert {a["tile"] for a in legal} == set(GAME.view(state, seat)["hand"])
    assert refused(state, seat, {"type": "draw"}).rule == "TR-SETUP-3"
    # Nor a pass: it was refused as "draw from the pool first" (TR-DRAW-1), and the draw
    # it asked for was then refused.
    passing = refused(state, seat, {"type": "pass"})
    assert passing.rule == "TR-SETUP-3", passing
    assert "passing" in passing.message("en")
    tile = legal[0]["tile"]
    elsewhere = place_action(tile, (3, 3), 0)
    assert refused(state, seat, elsewhere).rule == "TR-SETUP-3"
    GAME.apply(state, seat, legal[0])
    assert state.scores[seat] == TILE_VALUE[TILE_NUMBER[tile]]


def test_tr_setup_4_pressman_the_highest_triple_starts_with_10_more() -> None:
    for seed in range(30):
        state = new(3, seed=seed, edition="PRESSMAN")
        held = [(TILE_VALUE[t], s, t) for s, h in enumerate(state.hands)
                for t in range(56) if h >> t & 1 and len(set(TILE_IDS[t].split("-"))) == 1]
        if not held or max(held)[0] == 0:
            continue
        value, seat, tile = max(held)
        assert state.starter == seat and GAME.view(state, 0)["forced"] == TILE_IDS[tile]
        legal = GAME.legal_actions(state, seat)
        assert [a["tile"] for a in legal] == [TILE_IDS[tile]]
        other = next(t for t in GAME.view(state, seat)["hand"] if t != TILE_IDS[tile])
        assert refused(state, seat, place_action(other, (0, 0), 0)).rule == "TR-SETUP-4"
        GAME.apply(state, seat, legal[0])
        assert state.scores[seat] == value + 10
        return
    raise AssertionError("no seed dealt a triple")


def test_tr_setup_4_pressman_starting_with_0_0_0_scores_40() -> None:
    for seed in range(2000):
        state = new(2, seed=seed, edition="PRESSMAN")
        if GAME.view(state, 0)["forced"] == "0-0-0":
            GAME.apply(state, state.starter, GAME.legal_actions(state, state.starter)[0])
            assert state.scores[state.starter] == 40
            assert state.round_points[state.starter]["start_bonus"] == [1, 40]
            return
    raise AssertionError("no seed started with 0-0-0")


def test_tr_setup_4_pressman_without_a_triple_the_highest_tile_starts_without_bonus() -> None:
    hands = [1 << TILE_NUMBER["1-4-5"], 1 << TILE_NUMBER["2-4-4"] | 1 << TILE_NUMBER["0-1-2"]]
    assert _pressman_start(hands) == (0, TILE_NUMBER["1-4-5"], 0)
    hands.append(1 << TILE_NUMBER["1-1-1"])
    assert _pressman_start(hands) == (2, TILE_NUMBER["1-1-1"], 10)


def test_tr_setup_4_a_starter_with_0_0_0_and_a_higher_triple_chooses_the_opening() -> None:
    """Rules version 2: the starter's legal actions are exactly the two openings; 0-0-0
    scores +40, the highest triple its value + 10. Only the starter's view names them."""
    for seats in (2, 4):
        (seed,) = opening_choice_seeds(seats)
        state = new(seats, seed=seed, edition="PRESSMAN")
        (seat,) = GAME.to_act(state)
        view = GAME.view(state, seat)
        high = view["forced"]
        assert high != "0-0-0" and "0-0-0" in view["hand"]
        assert view["openings"] == [{"tile": high, "bonus": 10}, {"tile": "0-0-0", "bonus": 40}]
        assert all(GAME.view(state, other)["openings"] == []
                   for other in range(seats) if other != seat)
        assert "openings" not in GAME.view(state, None)
        openings = [place_action(tile, (0, 0), 0) for tile in (high, "0-0-0")]
        legal = GAME.legal_actions(state, seat)
        assert sorted(legal, key=str) == sorted(openings, key=str)
        other = next(t for t in view["hand"] if t not in (high, "0-0-0"))
        error = refused(state, seat, place_action(other, (0, 0), 0))
        assert (error.rule, error.key) == ("TR-SETUP-4", "triominos.errors.must_start_with_either")
        assert error.params == {"tile": high, "zero": "0-0-0"}
        for action, points in zip(openings, (TILE_VALUE[TILE_NUMBER[high]] + 10, 40),
                                  strict=True):
            chosen = GAME.clone(state)
            events = GAME.apply(chosen, seat, action)
            assert events[0]["points"] == points and chosen.scores[seat] == points
            bonus = points - TILE_VALUE[TILE_NUMBER[action["tile"]]]
            assert chosen.round_points[seat]["start_bonus"] == [1, bonus]
            assert action["tile"] not in GAME.view(chosen, seat)["hand"]
            assert GAME.view(chosen, seat)["openings"] == []


@pytest.mark.parametrize(("edition", "rule"), [("IS", "TR-SETUP-3"),
                                               ("PRESSMAN", "TR-SETUP-4")])
def test_the_starter_neither_draws_nor_passes_before_the_first_tile_by_its_editions_rule(
        edition: str, rule: str) -> None:
    """A refusal cites the rule the round starts by: the PRESSMAN starter was told of
    the Icelandic draw for who starts."""
    state = new(2, seed=4, edition=edition)
    (seat,) = GAME.to_act(state)
    for action in ({"type": "draw"}, {"type": "pass"}):
        error = refused(state, seat, action)
        assert (error.rule, error.key) == (rule, "triominos.errors.starter_must_place")


def test_tr_setup_4_rules_version_1_opens_with_the_highest_triple_only() -> None:
    """As first released, the same deal starts automatically with the highest triple."""
    (seed,) = opening_choice_seeds(2)
    state = new(2, seed=seed, edition="PRESSMAN", rules_version=1)
    (seat,) = GAME.to_act(state)
    view = GAME.view(state, seat)
    high = view["forced"]
    assert "0-0-0" in view["hand"] and view["openings"] == [{"tile": high, "bonus": 10}]
    assert GAME.legal_actions(state, seat) == [place_action(high, (0, 0), 0)]
    error = refused(state, seat, place_action("0-0-0", (0, 0), 0))
    assert (error.rule, error.key) == ("TR-SETUP-4", "triominos.errors.must_start_with")


def test_tr_setup_4_with_childrens_scoring_the_choice_stays_without_bonus() -> None:
    (seed,) = opening_choice_seeds(2)
    state = new(2, seed=seed, edition="PRESSMAN", scoring="children")
    (seat,) = GAME.to_act(state)
    assert [o["bonus"] for o in GAME.view(state, seat)["openings"]] == [0, 0]
    GAME.apply(state, seat, place_action("0-0-0", (0, 0), 0))
    assert state.scores[seat] == 1


# -- drawing and passing -----------------------------------------------------------------

def test_tr_draw_1_drawing_costs_5_adds_a_tile_and_stops_after_three() -> None:
    state, numbers, _ = setup(CHAIN, [BRIDGE])
    pool = len(state.pool)
    for n in range(1, 4):
        events = GAME.apply(state, 0, {"type": "draw"})
        assert events == [{"type": "draw", "seat": 0, "count": n, "points": -5,
                           "pool": pool - n}]
        assert state.hands[0].bit_count() == 1 + n and state.scores[0] == -5 * n
    error = refused(state, 0, {"type": "draw"})
    assert error.rule == "TR-DRAW-1"
    assert {"type": "draw"} not in GAME.legal_actions(state, 0)
    # A drawn tile (or the old one) may still be placed in the same turn.
    play(state, numbers, BRIDGE)
    assert state.current == 1


def test_tr_draw_1_no_pass_before_drawing_while_the_pool_has_tiles() -> None:
    state, _, _ = setup(CHAIN, [BRIDGE])
    assert refused(state, 0, {"type": "pass"}).rule == "TR-DRAW-1"
    assert {"type": "pass"} not in GAME.legal_actions(state, 0)


def test_tr_draw_2_passing_after_three_draws_costs_10_more() -> None:
    state, _, _ = setup(CHAIN, [BRIDGE])
    for _ in range(3):
        GAME.apply(state, 0, {"type": "draw"})
    assert {"type": "pass"} in GAME.legal_actions(state, 0)
    events = GAME.apply(state, 0, {"type": "pass"})
    assert events[0] == {"type": "pass", "seat": 0, "points": -10}
    assert state.scores[0] == -25 and state.current == 1 and state.draws == 0


def test_tr_draw_3_with_the_pool_empty_a_player_who_cannot_place_passes_free() -> None:
    state, numbers, _ = setup(CHAIN, [BRIDGE], seats=3)
    stuck = _unplaceable(state, exclude=on_board(state))
    give(state, 0, stuck[:2])
    give(state, 1, [tile_at(numbers, BRIDGE)[0]])
    state.pool = []  # tiles conserved is not the point here
    assert GAME.legal_actions(state, 0) == [{"type": "pass"}]
    assert refused(state, 0, {"type": "draw"}).rule == "TR-DRAW-3"
    GAME.apply(state, 0, {"type": "pass"})
    assert state.scores[0] == 0 and state.current == 1
    # Seat 1 can place, so with the pool empty it may not pass.
    assert refused(state, 1, {"type": "pass"}).rule == "TR-DRAW-3"


def _pool_emptied_by_the_third_draw(rules_version: int, can_place: bool
                                    ) -> TriominosState:
    """Seat 0 to play, three tiles left in the pool, none of which fits anywhere; seat 0
    holds the tile that fits BRIDGE if ``can_place`` (else two that fit nowhere)."""
    state, numbers, _ = setup(CHAIN, [BRIDGE], seats=3, rules_version=rules_version)
    stuck = _unplaceable(state, exclude=on_board(state) | {tile_at(numbers, BRIDGE)[0]})
    if not can_place:
        give(state, 0, stuck[:2])
        give(state, 1, [tile_at(numbers, BRIDGE)[0]])  # so the round goes on
    state.pool = [TILE_NUMBER[t] for t in stuck[2:5]]  # tiles conserved is not the point
    return state


def test_tr_draw_3_a_pass_after_a_third_draw_that_emptied_the_pool_costs_no_extra_10() -> None:
    """TR-DRAW-3 wins over TR-DRAW-2: −15 for the draws, no −10 (rules version 2)."""
    state = _pool_emptied_by_the_third_draw(rules_version=2, can_place=False)
    assert GAME.view(state, 0)["pass_points"] == -10  # the pool still has tiles
    for _ in range(3):
        GAME.apply(state, 0, {"type": "draw"})
    assert not state.pool and not GAME.placements(state, 0)
    assert GAME.legal_actions(state, 0) == [{"type": "pass"}]
    assert GAME.view(state, 0)["pass_points"] == 0
    events = GAME.apply(state, 0, {"type": "pass"})
    assert events[0] == {"type": "pass", "seat": 0, "points": 0}
    assert state.scores[0] == -15 and "pass" not in state.round_points[0]
    assert state.current == 1


def test_tr_draw_3_rules_version_1_kept_the_10_after_the_pool_emptied() -> None:
    state = _pool_emptied_by_the_third_draw(rules_version=1, can_place=False)
    for _ in range(3):
        GAME.apply(state, 0, {"type": "draw"})
    assert GAME.view(state, 0)["pass_points"] == -10
    assert GAME.apply(state, 0, {"type": "pass"})[0]["points"] == -10
    assert state.scores[0] == -25


def test_tr_draw_2_a_player_who_could_place_after_the_pool_emptied_still_pays_10() -> None:
    for rules_version in (1, 2):
        state = _pool_emptied_by_the_third_draw(rules_version, can_place=True)
        for _ in range(3):
            GAME.apply(state, 0, {"type": "draw"})
        assert not state.pool and GAME.placements(state, 0)
        assert GAME.view(state, 0)["pass_points"] == -10
        assert GAME.apply(state, 0, {"type": "pass"})[0]["points"] == -10


# -- the end of a round and of the game -----------------------------------------------------

def test_tr_end_1_2_going_out_finishes_the_round_of_turns_then_scores_25_plus_hands() -> None:
    state, numbers, _ = setup(CHAIN, [BRIDGE], seats=3)
    state.starter = 2  # the round of turns runs 2, 0, 1
    events = play(state, numbers, BRIDGE)
    assert {"type": "out", "seat": 0, "others_to_play": 1} in events
    assert state.round == 1 and state.current == 1  # seat 1 still plays this round
    for _ in range(3):
        GAME.apply(state, 1, {"type": "draw"})
    left = [hand_value(h) for h in state.hands]
    events = GAME.apply(state, 1, {"type": "pass"})
    end = next(e for e in events if e["type"] == "round_end")
    assert end["end"] == "out" and end["winners"] == [0]
    assert end["hand_values"] == left and left[0] == 0
    lines = {(line["seat"], line["reason"]): line["points"] for line in end["points"]}
    assert lines[(0, "triominos.reasons.out")] == 25
    assert lines[(0, "triominos.reasons.hands_left")] == left[1] + left[2]
    assert lines[(1, "triominos.reasons.draw")] == -15
    assert lines[(1, "triominos.reasons.pass")] == -10
    assert state.round == 2 and state.history[0]["round"] == 1
    assert sum(h.bit_count() for h in state.hands) == 21 and not state.layout.tiles


def test_tr_end_1_the_last_seat_of_the_round_of_turns_going_out_ends_the_round_at_once(
        ) -> None:
    # The round of turns runs 1, 2, 0: seat 0 plays last, so nobody plays after it, and
    # the event says so (the page read "the others finish this round of turns").
    state, numbers, _ = setup(CHAIN, [BRIDGE], seats=3)
    state.starter = 1
    events = play(state, numbers, BRIDGE)
    assert {"type": "out", "seat": 0, "others_to_play": 0} in events
    kinds = [e["type"] for e in events]
    assert kinds.index("out") < kinds.index("round_end")
    assert state.round == 2


def test_tr_end_3_a_blocked_round_pays_the_lowest_hand_the_difference() -> None:
    state, _, _ = setup(CHAIN, [BRIDGE])
    stuck = _unplaceable(state, exclude=on_board(state))
    give(state, 0, stuck[:1])
    give(state, 1, stuck[1:4])
    state.pool = []
    state.scores = [100, 100]
    low, high = hand_value(state.hands[0]), hand_value(state.hands[1])
    assert low < high
    events = GAME.apply(state, 0, {"type": "pass"})
    end = next(e for e in events if e["type"] == "round_end")
    assert end["end"] == "blocked" and end["winners"] == [0]
    assert end["points"] == [{"seat": 0, "points": high - low,
                              "reason": "triominos.reasons.blocked", "params": {"count": 1}}]
    assert state.scores == [100 + high - low, 100]


def test_tr_end_3_players_tied_for_the_lowest_hand_each_score_the_difference() -> None:
    """TR-END-3 with a tie (docs/triominos.md, Decisions): each player tied for the
    lowest hand scores the others' hands (the other winner's too) less their own."""
    state, _, _ = setup(CHAIN, [BRIDGE], seats=3)
    stuck = _unplaceable(state, exclude=on_board(state))
    by_value: dict[int, list[str]] = {}
    for tile in stuck:
        by_value.setdefault(TILE_VALUE[TILE_NUMBER[tile]], []).append(tile)
    pair = next(tiles for value, tiles in sorted(by_value.items()) if len(tiles) >= 2)
    rest = [tile for tile in stuck if tile not in pair][-3:]
    give(state, 0, pair[:1])
    give(state, 1, pair[1:2])
    give(state, 2, rest)
    state.pool = []
    state.scores = [0, 0, 0]
    low, high = hand_value(state.hands[0]), hand_value(state.hands[2])
    assert hand_value(state.hands[1]) == low < high
    events = GAME.apply(state, 0, {"type": "pass"})
    end = next(e for e in events if e["type"] == "round_end")
    assert end["end"] == "blocked" and end["winners"] == [0, 1]
    assert [(line["seat"], line["points"]) for line in end["points"]] == [
        (0, low + high - low), (1, low + high - low)]
    assert state.scores == [high, high, 0]


def test_tr_solo_1_going_out_alone_scores_25() -> None:
    """TR-SOLO-1 with TR-END-2: the lone player who goes out scores +25 (no other
    hands to add) after the tile's points."""
    state, numbers, _ = setup(CHAIN, [BRIDGE], seats=1)
    state.scores = [0]
    events = play(state, numbers, BRIDGE)
    end = next(e for e in events if e["type"] == "round_end")
    assert end["end"] == "out" and end["winners"] == [0]
    assert {line["reason"]: line["points"] for line in end["points"]}["triominos.reasons.out"] == 25


def test_tr_solo_1_a_blocked_solo_round_costs_the_hand() -> None:
    """TR-SOLO-1 with TR-END-3 (docs/triominos.md): blocked alone, the player has the
    lowest hand and scores the others' hands (none) less their own."""
    state, _, _ = setup(CHAIN, [BRIDGE], seats=1)
    stuck = _unplaceable(state, exclude=on_board(state))
    give(state, 0, stuck[-2:])
    state.pool = []
    state.scores = [50]
    own = hand_value(state.hands[0])
    events = GAME.apply(state, 0, {"type": "pass"})
    end = next(e for e in events if e["type"] == "round_end")
    assert end["end"] == "blocked" and end["winners"] == [0]
    assert [(line["seat"], line["points"]) for line in end["points"]] == [(0, -own)]
    assert state.scores == [50 - own]


def test_tr_end_4_the_game_ends_after_the_round_in_which_the_target_is_reached() -> None:
    state, numbers, _ = setup(CHAIN, [BRIDGE], target_score=100)
    state.starter = 1  # seat 0 is the last of the round of turns (TR-END-1)
    state.scores = [90, 120]
    play(state, numbers, BRIDGE)
    assert state.finished
    outcome = GAME.outcome(state)
    assert outcome.finished and outcome.winners == [0] and outcome.ranking == [1, 2]
    assert GAME.to_act(state) == frozenset()
    assert refused(state, 0, {"type": "draw"}).rule == "TR-END-4"


@pytest.mark.parametrize(("edition", "rules_version", "winners", "rule"), [
    ("PRESSMAN", RULES_VERSION, [1], "points"),  # TR-END-4: most points, every edition
    ("IS", RULES_VERSION, [1], "points"),
    # Recorded games keep the rule they were played by: versions 3 and 4 followed a
    # Pressman sheet ("the winner of that round wins the game"), 2 the most points.
    ("PRESSMAN", 4, [0], "round_winner"),
    ("PRESSMAN", 3, [0], "round_winner"),
    ("PRESSMAN", 2, [1], "points"),
    ("IS", 3, [1], "points"),
])
def test_tr_end_4_two_players_past_the_target_the_most_points_win(
    edition: str, rules_version: int, winners: list[int], rule: str,
) -> None:
    """TR-END-4: "Most points wins", in both editions: seat 0 goes out (TR-END-2) and
    reaches the target behind seat 1, who reached it earlier that round. (Rules versions
    3 and 4 gave a PRESSMAN game to that round's winner, docs/triominos.md, Game end.)"""
    state, numbers, _ = setup(CHAIN, [BRIDGE], target_score=100, edition=edition,
                              rules_version=rules_version)
    state.starter = 1  # seat 0 is the last of the round of turns (TR-END-1)
    state.scores = [60, 500]
    events = play(state, numbers, BRIDGE)
    assert state.finished and 100 <= state.scores[0] < state.scores[1]
    over = next(e for e in events if e["type"] == "game_over")
    assert over == {"type": "game_over", "winners": winners, "rule": rule}
    outcome = GAME.outcome(state)
    assert outcome.winners == winners
    assert outcome.ranking == ([1, 2] if winners == [0] else [2, 1])
    view = GAME.view(state, None)
    assert view["winners"] == winners and view["win_rule"] == rule


def test_tr_end_4_rules_4_pressman_a_rounds_winner_below_the_target_did_not_win() -> None:
    """Rules versions 3 and 4, where the Pressman sheet is silent (docs/triominos.md,
    Game end): the round's winner did not reach the target, so the most points decided
    among the others."""
    state, numbers, _ = setup(CHAIN, [BRIDGE], edition="PRESSMAN", rules_version=4)
    state.starter = 1  # seat 0 is the last of the round of turns (TR-END-1)
    state.scores = [0, 500]
    play(state, numbers, BRIDGE)
    assert state.finished and 0 < state.scores[0] < 400
    assert state.history[-1]["winners"] == [0]
    assert GAME.outcome(state).winners == [1]
    assert GAME.view(state, 0)["win_rule"] == "points"


def test_tr_end_4_a_fixed_number_of_rounds_and_shared_wins() -> None:
    state, numbers, _ = setup(CHAIN, [BRIDGE], rounds=1)
    state.starter = 1  # seat 0 is the last of the round of turns (TR-END-1)
    play(state, numbers, BRIDGE)
    assert state.finished and len(state.history) == 1
    state.scores = [50, 50]
    assert GAME.outcome(state).winners == [0, 1]


def test_tr_end_4_below_the_target_a_new_round_is_dealt() -> None:
    state, numbers, _ = setup(CHAIN, [BRIDGE])
    state.starter = 1  # seat 0 is the last of the round of turns (TR-END-1)
    play(state, numbers, BRIDGE)
    assert not state.finished and state.round == 2
    assert GAME.view(state, 0)["rounds"][0]["winners"] == [0]


def test_tr_end_4_each_finished_round_is_in_the_outcome_once_it_ends() -> None:
    """The round's score lines join the outcome when the round ends (TR-END-4), and a
    copy made before that keeps its own (the lines are cached per state)."""
    state, numbers, _ = setup(CHAIN, [BRIDGE])
    state.starter = 1  # seat 0 is the last of the round of turns (TR-END-1)
    assert GAME.outcome(state).rounds == []
    before = GAME.clone(state)
    play(state, numbers, BRIDGE)
    assert state.round == 2
    rounds = GAME.outcome(state).rounds
    assert [[line.to_json() for line in lines] for lines in rounds] == [
        [dict(line, params=dict(line["params"])) for line in state.history[0]["points"]]]
    assert rounds[0] and sum(line.points for line in rounds[0]) == sum(state.scores)
    assert GAME.outcome(before).rounds == []


def test_tr_solo_1_one_player_plays_rounds_alone() -> None:
    _, outcome = play_bot_game("triominos", {"rounds": 2}, ["greedy"], seed=4)
    assert outcome.finished and len(outcome.rounds) == 2
    assert all(line.seat == 0 for r in outcome.rounds for line in r)


def test_childrens_scoring_one_point_a_tile_small_bonuses_no_penalties() -> None:
    state, numbers, _ = setup(CHAIN, [BRIDGE], scoring="children")
    state.starter = 1  # seat 0 is the last of the round of turns (TR-END-1)
    GAME.apply(state, 0, {"type": "draw"})
    assert state.scores[0] == 0
    give(state, 0, [tile_at(numbers, BRIDGE)[0]])  # the drawn tile goes back
    events = play(state, numbers, BRIDGE)
    assert events[0]["points"] == 2  # 1 for the tile, +1 for the bridge
    end = next(e for e in events if e["type"] == "round_end")
    assert {line["reason"]: line["points"] for line in end["points"]} == {
        "triominos.reasons.tile": 1, "triominos.reasons.bridge": 1,
        "triominos.reasons.out": 5}


# -- helpers ----------------------------------------------------------------------------

def _ring(v: int) -> list[Pos]:
    return [unpack(q) for q in RINGS[v]]


def _xy(p: int) -> Pos:
    return unpack(p)


def _unplaceable(state: TriominosState, exclude: set[str]) -> list[str]:
    """Tiles (lowest values first) that fit nowhere on the current table."""
    tiles = [t for t in range(56) if TILE_IDS[t] not in exclude
             and not state.layout.can_place(1 << t)]
    return [TILE_IDS[t] for t in sorted(tiles, key=lambda t: TILE_VALUE[t])]


def _any_place(state: TriominosState, seat: int) -> dict[str, Any] | None:
    for action in GAME.legal_actions(state, seat):
        if action["type"] == "place":
            return {k: v for k, v in action.items() if k != "type"}
    return None


def test_tr_end_1_2_a_second_player_out_in_the_completing_turns_takes_no_bonus() -> None:
    """TR-END-1/2: when another player also places their last tile while the round of
    turns is completed, the round still ends at the starter, and only the player who went
    out *first* scores +25 and the hands (the second's hand counts zero)."""
    cases = 0
    for seed in range(60):
        state = GAME.new_game(GAME.make_config({"rounds": 1}, 3), 3, seed)
        rng = random.Random(seed)
        first: int | None = None
        while not state.finished and cases < 3:
            seat = state.current
            legal = GAME.legal_actions(state, seat)
            places = [a for a in legal if a["type"] == "place"]
            events = GAME.apply(state, seat, rng.choice(places or legal))
            if any(e["type"] == "out" for e in events):
                first = seat
            end = next((e for e in events if e["type"] == "round_end"), None)
            if end is None:
                continue
            emptied = [s for s, left in enumerate(end["tiles_left"]) if left == 0]
            if end["end"] == "out" and len(emptied) > 1:
                cases += 1
                assert first in emptied
                bonus = {line["seat"] for line in end["points"]
                         if line["reason"] == "triominos.reasons.out"}
                assert bonus == {first} and end["winners"] == [first]
                hands = {line["seat"]: line["points"] for line in end["points"]
                         if line["reason"] == "triominos.reasons.hands_left"}
                assert hands.get(first, 0) == sum(end["hand_values"])
            break
        if cases >= 3:
            break
    assert cases >= 1  # the random games do reach the case


def test_rounds_and_a_target_given_together_warn_that_rounds_wins() -> None:
    """TR-END-4: a game ends at a target *or* after a number of rounds. Given both,
    ``rounds`` overrode ``target_score`` without a word; now it warns ``TargetIgnored``
    (naming both options) once, and the config and the record keep ``rounds`` alone."""
    with pytest.warns(TargetIgnored, match=r"rounds=1 and target_score=100") as seen:
        record, outcome = play_bot_game("triominos", {"rounds": 1, "target_score": 100},
                                        ["greedy", "greedy"], 0)
    assert len([w for w in seen if w.category is TargetIgnored]) == 1
    assert outcome.finished and "target_score" not in record.config
    assert record.config["rounds"] == 1
    with pytest.warns(TargetIgnored) as seen:  # once for a run of games too
        simulate("triominos", ["greedy", "greedy"], 3, 0,
                 options={"rounds": 1, "target_score": 100})
    assert len([w for w in seen if w.category is TargetIgnored]) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", TargetIgnored)
        config = GAME.make_config({"rounds": 2}, 2)
        assert config.rounds == 2 and GAME.make_config({"target_score": 100}, 2).rounds is None
        view = GAME.view(GAME.new_game(config, 2, 0), 0)
        assert view["target_score"] is None and view["round_limit"] == 2
    # The lobby's form offers the target only while no number of rounds is chosen.
    schema = TriominosConfig.model_json_schema()["properties"]["target_score"]
    assert schema["x-when"] == {"rounds": [None]}
