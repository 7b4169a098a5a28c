"""Building Triominos layouts by hand for rule tests."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gametable.games.triominos import TRIOMINOS as GAME
from gametable.games.triominos.lattice import CELLS, pack, unpack
from gametable.games.triominos.layout import Layout
from gametable.games.triominos.state import TriominosState
from gametable.games.triominos.tiles import ROTATIONS, TILE_COUNT, TILE_IDS, TILE_NUMBER

Pos = tuple[int, int]


def new(seats: int = 2, seed: int = 1, **options: Any) -> TriominosState:
    return GAME.new_game(GAME.make_config(options, seats), seats, seed)


def tile_for(corners: Sequence[int]) -> tuple[int, int] | None:
    """The ``(tile, rotation)`` whose clockwise corners are ``corners``, if any exists."""
    for tile in range(TILE_COUNT):
        for rotation, laid in enumerate(ROTATIONS[tile]):
            if laid == tuple(corners):
                return tile, rotation
    return None


def vertices(positions: Iterable[Pos]) -> list[int]:
    found: list[int] = []
    for row, col in positions:
        for v in CELLS[pack(row, col)].corners:
            if v not in found:
                found.append(v)
    return found


def number_vertices(positions: Sequence[Pos], fixed: Mapping[tuple[int, int], int] | None = None,
                    seed: int = 0) -> dict[int, int]:
    """Numbers for every vertex of ``positions`` such that each position holds a real
    tile (TR-TILE-1: clockwise non-decreasing from its lowest) and no tile repeats.

    ``fixed`` pins vertices ``(line, k)`` to numbers. Found by seeded backtracking.
    """
    rng = random.Random(seed)
    verts = vertices(positions)
    pinned = {pack(*v): n for v, n in (fixed or {}).items()}
    cells = [CELLS[pack(row, col)].corners for row, col in positions]
    numbers: dict[int, int] = {}

    def consistent() -> bool:
        tiles = []
        for corners in cells:
            if all(v in numbers for v in corners):
                found = tile_for([numbers[v] for v in corners])
                if found is None:
                    return False
                tiles.append(found[0])
        return len(set(tiles)) == len(tiles)

    def search(i: int) -> bool:
        if i == len(verts):
            return True
        v = verts[i]
        choices = [pinned[v]] if v in pinned else rng.sample(range(6), 6)
        for n in choices:
            numbers[v] = n
            if consistent() and search(i + 1):
                return True
        del numbers[v]
        return False

    assert search(0), "no numbering found"
    return numbers


def lay(state: TriominosState, board: Sequence[Pos], numbers: Mapping[int, int],
        seat: int = 1) -> None:
    """Replace the table with tiles on ``board`` carrying ``numbers`` on their vertices.

    The tiles leave the pool and hands (hands keep their size from the pool), so the 56
    tiles stay conserved.
    """
    layout = Layout()
    used = 0
    for row, col in board:
        p = pack(row, col)
        found = tile_for([numbers[v] for v in CELLS[p].corners])
        assert found is not None
        layout.place(p, found[0], found[1], seat, None)
        used |= 1 << found[0]
    state.layout = layout
    state.board_json = [
        {"tile": TILE_IDS[laid.tile], "position": list(unpack(p)), "rotation": laid.rotation,
         "corners": list(laid.corners), "seat": laid.seat, "bonus": laid.bonus}
        for p, laid in layout.tiles.items()]
    _take_out(state, used)
    state.forced = None
    state.openings = {}
    state.last = pack(*board[-1])
    state.legal_cache = None
    state.public_view = None


def _take_out(state: TriominosState, used: int) -> None:
    """Remove the tiles in mask ``used`` from pool and hands, refilling hands from the pool."""
    state.pool = [t for t in state.pool if not used >> t & 1]
    for seat, hand in enumerate(state.hands):
        kept = hand & ~used
        missing = hand.bit_count() - kept.bit_count()
        for _ in range(missing):
            kept |= 1 << state.pool.pop()
        state.hands[seat] = kept


def give(state: TriominosState, seat: int, tiles: Sequence[str]) -> None:
    """Make ``seat``'s hand exactly ``tiles``, trading with the pool (tiles conserved)."""
    wanted = 0
    for tile_id in tiles:
        wanted |= 1 << TILE_NUMBER[tile_id]
    for other, hand in enumerate(state.hands):
        if other != seat and hand & wanted:
            for tile in range(TILE_COUNT):
                if (hand & wanted) >> tile & 1:
                    spare = next(t for t in state.pool if not wanted >> t & 1)
                    state.pool.remove(spare)
                    state.pool.append(tile)
                    state.hands[other] = state.hands[other] & ~(1 << tile) | 1 << spare
    state.pool = [t for t in state.pool if not wanted >> t & 1]
    state.pool += [t for t in range(TILE_COUNT) if state.hands[seat] >> t & 1
                   and not wanted >> t & 1]
    state.hands[seat] = wanted
    state.legal_cache = None
    state.public_view = None


def on_board(state: TriominosState) -> set[str]:
    return {TILE_IDS[laid.tile] for laid in state.layout.tiles.values()}


def tile_at(numbers: Mapping[int, int], position: Pos) -> tuple[str, int]:
    """The tile id and rotation that ``numbers`` put on ``position``."""
    found = tile_for([numbers[v] for v in CELLS[pack(*position)].corners])
    assert found is not None
    return TILE_IDS[found[0]], found[1]


def place_action(tile: str, position: Pos, rotation: int) -> dict[str, Any]:
    return {"type": "place", "tile": tile, "position": list(position), "rotation": rotation}


def position_of(p: int) -> Pos:
    return unpack(p)


def is_triple_id(tile: str) -> bool:
    return len(set(tile.split("-"))) == 1


def holds_zero_and_a_higher_triple(view: Mapping[str, Any]) -> bool:
    """Whether ``view`` is a PRESSMAN starter's before the round's first tile, holding
    0-0-0 as well as the higher triple that made them start (TR-SETUP-4)."""
    forced = view.get("forced")
    return (not view["board"] and forced is not None and forced != "0-0-0"
            and is_triple_id(forced) and "0-0-0" in view.get("hand", []))


def opening_choice_seeds(seats: int = 2, count: int = 1, start: int = 0,
                         **options: Any) -> list[int]:
    """The first ``count`` seeds from ``start`` whose PRESSMAN round 1 starter holds 0-0-0
    and a higher triple, found through the game's public API (``new_game``, ``to_act``,
    ``view``); the deal does not depend on ``rules_version``."""
    found: list[int] = []
    seed = start
    while len(found) < count:
        config = GAME.make_config({"edition": "PRESSMAN", **options}, seats)
        state = GAME.new_game(config, seats, seed)
        (starter,) = GAME.to_act(state)
        if holds_zero_and_a_higher_triple(GAME.view(state, starter)):
            found.append(seed)
        seed += 1
    return found
