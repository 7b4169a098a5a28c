"""The 56 Triominos tiles (TR-TILE-1) and their rotations.

A tile is written as its three corner numbers read clockwise from the lowest, so the
numbers never decrease: ``(0, 1, 2)`` exists and ``(0, 2, 1)`` does not. Tiles are
numbered 0–55 in lexicographic order of that triple; their public id is ``"0-1-2"``.

A *rotation* ``k`` (0, 1 or 2) lays the tile with corner numbers
``(t[k], t[(k + 1) % 3], t[(k + 2) % 3])`` on a position's corners in clockwise order
(see :mod:`.lattice`). Tiles are never flipped (TR-GEOM-1). A triple has one distinct
rotation, so only rotation 0 is offered for it.
"""

from __future__ import annotations

from typing import Final

TILES: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (a, b, c) for a in range(6) for b in range(a, 6) for c in range(b, 6)
)
"""TR-TILE-1: the 56 tiles, ``TILES[i] = (a, b, c)`` with ``a ≤ b ≤ c``."""

TILE_COUNT: Final = len(TILES)
TILE_IDS: Final[tuple[str, ...]] = tuple(f"{a}-{b}-{c}" for a, b, c in TILES)
"""Public ids, ``"a-b-c"``."""
TILE_NUMBER: Final[dict[str, int]] = {tile_id: i for i, tile_id in enumerate(TILE_IDS)}
TILE_VALUE: Final[tuple[int, ...]] = tuple(sum(t) for t in TILES)
"""TR-TILE-1: a tile's value is the sum of its numbers, 0–15 points."""
ALL_TILES: Final = (1 << TILE_COUNT) - 1
"""Bit mask of every tile (bit ``i`` = tile ``i``)."""


def is_triple(tile: int) -> bool:
    """Whether tile number ``tile`` shows one number three times (``"4-4-4"``)."""
    a, b, c = TILES[tile]
    return a == b == c


ROTATIONS: Final[tuple[tuple[tuple[int, int, int], ...], ...]] = tuple(
    ((a, b, c),) if a == b == c else ((a, b, c), (b, c, a), (c, a, b)) for a, b, c in TILES
)
"""Per tile, the corner numbers (clockwise) of each distinct rotation."""

WILD: Final = 6
"""A corner whose lattice vertex no tile touches yet: any number fits."""


def demand_key(c0: int, c1: int, c2: int) -> int:
    """The index of a corner demand: three numbers 0–5 or :data:`WILD` (0 ≤ key < 343)."""
    return (c0 * 7 + c1) * 7 + c2


def _fits(corners: tuple[int, int, int], demand: tuple[int, int, int]) -> bool:
    return all(d in (WILD, c) for c, d in zip(corners, demand, strict=True))


def _build_index() -> tuple[tuple[int, ...], tuple[tuple[tuple[int, int, int, int], ...], ...]]:
    masks: list[int] = []
    fits: list[tuple[tuple[int, int, int, int], ...]] = []
    for c0 in range(7):
        for c1 in range(7):
            for c2 in range(7):
                demand = (c0, c1, c2)
                found = [(1 << tile, tile, k, sum(TILES[tile]))
                         for tile in range(TILE_COUNT)
                         for k, corners in enumerate(ROTATIONS[tile]) if _fits(corners, demand)]
                fits.append(tuple(found))
                mask = 0
                for bit, _, _, _ in found:
                    mask |= bit
                masks.append(mask)
    return tuple(masks), tuple(fits)


DEMAND_TILES, DEMAND_FITS = _build_index()
"""Per demand key: the bit mask of tiles with a fitting rotation, and the fitting
``(tile bit, tile, rotation, value)`` entries (TR-PLACE-1/2 reduced to a lookup)."""


def hand_tiles(mask: int) -> list[int]:
    """The tile numbers in a hand bit mask, ascending."""
    tiles = []
    while mask:
        low = mask & -mask
        tiles.append(low.bit_length() - 1)
        mask ^= low
    return tiles


def hand_value(mask: int) -> int:
    """The sum of the values of the tiles in a hand bit mask (points)."""
    return sum(TILE_VALUE[t] for t in hand_tiles(mask))
