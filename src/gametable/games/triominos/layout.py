"""The tiles on the table and the open positions around them, kept up to date per tile.

The layout knows, for every lattice vertex a tile touches, the number on it and how many
tiles meet there. An *open* position is empty and shares a side with a tile; its
*demand* is the number required on each of its three corners (:data:`.tiles.WILD` where
no tile touches that vertex yet). A tile fits an open position exactly when one of its
rotations meets the demand: that is TR-PLACE-1 (shared sides match) and TR-PLACE-2
(coinciding corners match, corner-only contacts included) at once, because every side
shared with a tile has both its vertices touched by that tile.

Placing a tile updates only the 12 positions sharing a vertex with it, so enumerating
every legal placement of a hand costs one table lookup per open position
(:data:`.tiles.DEMAND_TILES`), never a scan of the board.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from gametable.games.triominos.lattice import CELLS, ORIGIN
from gametable.games.triominos.tiles import (
    DEMAND_FITS,
    DEMAND_TILES,
    ROTATIONS,
    WILD,
    demand_key,
)

ANYWHERE: Final = demand_key(WILD, WILD, WILD)

Placement = tuple[int, int, int]
"""``(tile, packed position, rotation)``."""


class Laid(NamedTuple):
    """A tile on the table: its number, rotation, corner numbers (clockwise) and owner."""

    tile: int
    rotation: int
    corners: tuple[int, int, int]
    seat: int
    bonus: str | None


class Geometry(NamedTuple):
    """What a placement does geometrically (before any scoring rule is applied).

    Attributes:
        sides: how many of its sides it shares with tiles already placed (1–3).
        bridge: TR-BONUS-1: one shared side and the opposite corner touches a tile.
        hexagons: TR-BONUS-2..4: vertices of the tile around which it is the sixth tile.
        extends_bridge: TR-BONUS-6: two shared sides, one of them with a bridge tile.
    """

    sides: int
    bridge: bool
    hexagons: int
    extends_bridge: bool


class Layout:
    """The tiles on the table (see the module docstring).

    Attributes:
        tiles: packed position → :class:`Laid`, in the order they were placed.
        numbers: packed vertex → the number on it.
        meeting: packed vertex → how many tiles touch it (6 = a completed hexagon).
        open: packed open position → its demand key; ``{ORIGIN: ANYWHERE}`` while empty.
        facts: a cache for callers: packed open position → anything derived from the
            tiles around it; an entry is dropped whenever a tile is laid next to it.
    """

    __slots__ = ("facts", "meeting", "numbers", "open", "tiles")

    def __init__(self) -> None:
        self.tiles: dict[int, Laid] = {}
        self.numbers: dict[int, int] = {}
        self.meeting: dict[int, int] = {}
        self.open: dict[int, int] = {ORIGIN: ANYWHERE}
        self.facts: dict[int, Any] = {}

    def copy(self) -> Layout:
        """An independent copy."""
        other = Layout.__new__(Layout)
        other.tiles = dict(self.tiles)
        other.numbers = dict(self.numbers)
        other.meeting = dict(self.meeting)
        other.open = dict(self.open)
        other.facts = dict(self.facts)
        return other

    def placements(self, hand: int) -> list[Placement]:
        """Every legal ``(tile, position, rotation)`` for the tiles in bit mask ``hand``.

        Positions follow the order they opened in; tiles and rotations ascend.
        """
        found: list[Placement] = []
        append = found.append
        for p, key in self.open.items():
            if DEMAND_TILES[key] & hand:
                for bit, tile, rotation, _ in DEMAND_FITS[key]:
                    if bit & hand:
                        append((tile, p, rotation))
        return found

    def can_place(self, hand: int) -> bool:
        """Whether any tile of ``hand`` has a legal placement."""
        return any(DEMAND_TILES[key] & hand for key in self.open.values())

    def demand(self, p: int) -> tuple[int, int, int]:
        """The numbers position ``p``'s corners require (:data:`WILD`: any)."""
        get = self.numbers.get
        c0, c1, c2 = CELLS[p].corners
        return get(c0, WILD), get(c1, WILD), get(c2, WILD)

    def geometry(self, p: int) -> Geometry:
        """What placing a tile on empty position ``p`` would make (TR-BONUS-1..6)."""
        cell = CELLS[p]
        tiles = self.tiles
        shared = [i for i, q in enumerate(cell.sides) if q in tiles]
        meeting = self.meeting.get
        hexagons = sum(1 for v in cell.corners if meeting(v, 0) == 5)
        bridge = False
        extends = False
        if len(shared) == 1:
            opposite = cell.corners[(shared[0] + 2) % 3]
            bridge = meeting(opposite, 0) > 0
        elif len(shared) == 2:
            extends = any(tiles[cell.sides[i]].bonus in ("bridge", "extended_bridge")
                          for i in shared)
        return Geometry(len(shared), bridge, hexagons, extends)

    def place(self, p: int, tile: int, rotation: int, seat: int, bonus: str | None) -> None:
        """Put ``tile`` on ``p``; the caller has checked that it fits (see :meth:`fits`)."""
        cell = CELLS[p]
        corners = ROTATIONS[tile][rotation]
        self.tiles[p] = Laid(tile, rotation, corners, seat, bonus)
        numbers = self.numbers
        meeting = self.meeting
        for v, n in zip(cell.corners, corners, strict=True):
            numbers[v] = n
            meeting[v] = meeting.get(v, 0) + 1
        open_ = self.open
        open_.pop(p, None)
        facts = self.facts
        facts.pop(p, None)
        tiles = self.tiles
        sides = cell.sides
        get = numbers.get
        for q in cell.around:
            facts.pop(q, None)
            if q in open_ or (q in sides and q not in tiles):
                c0, c1, c2 = CELLS[q].corners
                open_[q] = demand_key(get(c0, WILD), get(c1, WILD), get(c2, WILD))

    def open_after(self, p: int, tile: int, rotation: int) -> tuple[list[int], list[int]]:
        """What :meth:`place` would do to the open positions, without placing: the
        demand keys of the open positions it leaves alone, and those of the positions
        round ``p`` it opens or changes (``p`` itself is in neither)."""
        cell = CELLS[p]
        placed = dict(zip(cell.corners, ROTATIONS[tile][rotation], strict=True))
        get = self.numbers.get
        open_, tiles, sides = self.open, self.tiles, cell.sides
        changed: dict[int, int] = {}
        for q in cell.around:
            if q in open_ or (q in sides and q not in tiles):
                c0, c1, c2 = CELLS[q].corners
                changed[q] = demand_key(placed.get(c0, get(c0, WILD)),
                                        placed.get(c1, get(c1, WILD)),
                                        placed.get(c2, get(c2, WILD)))
        kept = [key for q, key in open_.items() if q != p and q not in changed]
        return kept, list(changed.values())

    def fits(self, p: int, tile: int, rotation: int) -> bool:
        """Whether ``tile`` in ``rotation`` is a legal placement on ``p`` (TR-PLACE-1/2)."""
        key = self.open.get(p)
        if key is None:
            return False
        return any(t == tile and r == rotation for _, t, r, _ in DEMAND_FITS[key])
