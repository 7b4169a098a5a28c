"""Greedy ratings of Triominos actions, computed from a seat's view alone.

A placement is worth its points now (tile value and bonus, TR-SCORE-1, TR-BONUS-1..6;
for a round's first tile its start bonus, TR-SETUP-4) plus a little for each tile of the
hand that can still be placed afterwards ("keeping options open"), minus a little for
opening a hexagon that any tile could finish. A draw is worth its penalty and is only
chosen when nothing can be placed; a pass likewise.

A PRESSMAN starter holding 0-0-0 and a higher triple therefore opens with 0-0-0: +40
against at most 15 + 10, and the triple kept in hand still scores its value when laid
later (the few points of options cannot make up the difference).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gametable.core.protocol import Action, Observation
from gametable.games.triominos.lattice import CELLS, pack
from gametable.games.triominos.layout import Layout
from gametable.games.triominos.tiles import (
    DEMAND_TILES,
    TILE_NUMBER,
    TILE_VALUE,
)

OPTION_WEIGHT = 1.5
"""Points one more placeable tile in hand is worth to the greedy player."""


def layout_from_view(view: Observation) -> Layout:
    """Rebuild the table of ``view["board"]`` (tiles in the order they were placed)."""
    layout = Layout()
    for laid in view["board"]:
        row, col = laid["position"]
        layout.place(pack(row, col), TILE_NUMBER[laid["tile"]], laid["rotation"],
                     laid["seat"], laid["bonus"])
    return layout


def rate_actions(view: Observation, actions: Sequence[Action]) -> list[float]:
    """One rating per action, higher is better (points, with small tie-breakers)."""
    hand = 0
    for tile_id in view.get("hand", []):
        hand |= 1 << TILE_NUMBER[tile_id]
    return rate_on(layout_from_view(view), hand, actions, penalties=view["penalties"],
                   extends=view.get("extended_bridge", True),
                   start_bonus={o["tile"]: o["bonus"] for o in view.get("openings", [])},
                   pass_points=view.get("pass_points"))


def rate_on(layout: Layout, hand: int, actions: Sequence[Action], *,
            penalties: Mapping[str, int], extends: bool, start_bonus: Mapping[str, int],
            pass_points: int | None) -> list[float]:
    """The ratings of :func:`rate_actions` from their parts: the table's ``layout``
    (left unchanged), ``hand`` as a bit mask of tile numbers, and the view's
    ``penalties``, ``extended_bridge``, ``openings`` (tile id to start bonus) and
    ``pass_points``."""
    ratings: list[float] = []
    for action in actions:
        kind = action["type"]
        if kind == "place":
            ratings.append(_rate_place(layout, hand, action, extends)
                           + start_bonus.get(action["tile"], 0))
        elif kind == "draw":
            ratings.append(-1000.0 + penalties["draw"])
        else:
            ratings.append(-2000.0 + (penalties["pass"] if pass_points is None
                                      else pass_points))
    return ratings


def _rate_place(layout: Layout, hand: int, action: dict[str, Any], extends: bool) -> float:
    tile = TILE_NUMBER[action["tile"]]
    row, col = action["position"]
    p = pack(row, col)
    points = float(TILE_VALUE[tile])
    if layout.tiles:
        geometry = layout.geometry(p)
        if geometry.hexagons:
            points += 40 + 10 * geometry.hexagons
        elif geometry.bridge or (geometry.extends_bridge and extends):
            points += 40
    kept, changed = layout.open_after(p, tile, action["rotation"])
    rest = hand & ~(1 << tile)
    placeable = (sum(1 for key in kept if DEMAND_TILES[key] & rest)
                 + sum(1 for key in changed if DEMAND_TILES[key] & rest))
    # An almost complete hexagon (5 tiles round a vertex) is a gift to the next player:
    # a vertex of p that 4 tiles meet at already.
    meeting = layout.meeting
    gifts = sum(1 for v in CELLS[p].corners if meeting.get(v, 0) == 4)
    return points + OPTION_WEIGHT * min(placeable, 6) - 2.0 * gifts
