"""TR-TILE-1, TR-GEOM-1, TR-GEOM-2: the tiles and the lattice."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gametable.games.triominos.lattice import CELLS, RINGS, pack, points_up, unpack
from gametable.games.triominos.tiles import (
    DEMAND_FITS,
    ROTATIONS,
    TILE_IDS,
    TILE_VALUE,
    TILES,
    WILD,
    demand_key,
)

coords = st.tuples(st.integers(-60, 60), st.integers(-120, 120))


def test_tr_tile_1_there_are_56_unique_tiles_6_triples_30_pairs_20_distinct() -> None:
    assert len(TILES) == len(set(TILES)) == 56
    kinds = [len(set(t)) for t in TILES]
    assert (kinds.count(1), kinds.count(2), kinds.count(3)) == (6, 30, 20)
    assert "0-1-2" in TILE_IDS and "0-2-1" not in TILE_IDS
    assert all(a <= b <= c for a, b, c in TILES)
    assert TILE_VALUE[TILE_IDS.index("5-5-5")] == 15 and TILE_VALUE[0] == 0


def test_tr_tile_1_no_tile_is_the_mirror_image_of_another() -> None:
    clockwise = {rotation for rotations in ROTATIONS for rotation in rotations}
    for a, b, c in TILES:
        if len({a, b, c}) == 3:
            assert (a, c, b) not in clockwise  # 0-2-1 read clockwise does not exist


def test_tr_geom_1_triples_have_one_rotation_others_three() -> None:
    for tile, rotations in zip(TILES, ROTATIONS, strict=True):
        assert len(set(rotations)) == len(rotations) == (1 if len(set(tile)) == 1 else 3)
        assert all(sorted(r) == list(tile) for r in rotations)


def test_demand_index_lists_exactly_the_fitting_rotations() -> None:
    for demand in [(WILD, WILD, WILD), (1, WILD, 2), (2, 1, WILD), (0, 2, 1), (3, 3, 3)]:
        fits = {(t, r) for _, t, r, _ in DEMAND_FITS[demand_key(*demand)]}
        expected = {(t, r) for t, rotations in enumerate(ROTATIONS)
                    for r, corners in enumerate(rotations)
                    if all(d in (WILD, c) for c, d in zip(corners, demand, strict=True))}
        assert fits == expected
    assert DEMAND_FITS[demand_key(0, 2, 1)] == ()  # a spot no tile can ever fill


@given(coords)
def test_tr_geom_1_positions_alternate_up_and_down(rc: tuple[int, int]) -> None:
    row, col = rc
    assert points_up(row, col) != points_up(row, col + 1)
    assert points_up(row, col) != points_up(row + 1, col)
    assert unpack(pack(row, col)) == rc


@given(coords)
def test_tr_geom_2_edge_neighbours_share_a_side_and_corner_neighbours_one_vertex(
        rc: tuple[int, int]) -> None:
    p = pack(*rc)
    cell = CELLS[p]
    for i, q in enumerate(cell.sides):
        assert set(cell.corners) & set(CELLS[q].corners) == {cell.corners[i],
                                                             cell.corners[(i + 1) % 3]}
        assert CELLS[q].up != cell.up
        assert p in CELLS[q].sides
    corner_only = [q for q in cell.around if q not in cell.sides]
    assert len(cell.sides) == 3 and len(corner_only) == 9
    for q in corner_only:
        assert len(set(cell.corners) & set(CELLS[q].corners)) == 1


@given(coords)
def test_tr_geom_2_six_positions_meet_at_every_vertex(rc: tuple[int, int]) -> None:
    for v in CELLS[pack(*rc)].corners:
        ring = RINGS[v]
        assert len(set(ring)) == 6
        assert all(v in CELLS[q].corners for q in ring)
        assert sum(CELLS[q].up for q in ring) == 3


def test_corners_run_clockwise_on_screen() -> None:
    # Screen coordinates have y downwards: a clockwise turn has a positive cross product.
    for rc in [(0, 0), (0, 1), (3, -4), (-2, 5)]:
        points = []
        for v in CELLS[pack(*rc)].corners:
            line, k = unpack(v)
            points.append((k / 2, line * 0.866))
        (x0, y0), (x1, y1), (x2, y2) = points
        assert (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0) > 0
