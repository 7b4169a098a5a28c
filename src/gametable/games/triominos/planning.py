"""Stronger ratings of Triominos placements: what a placement leaves the next player.

``greedy`` (:mod:`.heuristics`) rates a placement by its points now. This module also
weighs what it opens, from the seat's view alone:

* **The next player's best reply.** The tiles the seat cannot see are the 56 of
  TR-TILE-1 less those on the table and in its hand; the next seat holds a random
  handful of them. After the placement, each unseen tile's best reply is its value plus
  the bonus of the best open position it fits (TR-SCORE-1, TR-BONUS-1..6). The expected
  best reply of a random hand of that size is exact: with the tiles ranked by reply,
  the ``i``-th best is the hand's best with probability ``C(U − i, h − 1) / C(U, h)``
  (``U`` tiles it may hold, ``h`` in its hand). A placement that leaves a hexagon or a
  bridge open to a likely tile costs what that tile is expected to score.
* **What the other seat did not play** (two seats): tiles it would have scored at least
  :data:`MARGIN` more with on its last turn, or, after it drew and passed (TR-DRAW-2/3),
  every tile that fits the table, are taken to be in the pool, not its hand
  (:func:`unlikely_tiles`).
* **The seat's own next move.** The best points of a tile it keeps, on the table as the
  placement leaves it: at :data:`SECURE_NEXT` where no unseen tile fits (nobody else can
  take the spot), else at :data:`OWN_NEXT`; and :data:`OPTION_WEIGHT` for each kept tile
  that still fits somewhere, so that the hand can be emptied (TR-END-1/2).

A rating is ``points now − REPLY_WEIGHT · expected reply + own next move + OPTION_WEIGHT ·
placeable tiles kept`` (points); draws, passes and a round's first tile keep
``greedy``'s ratings, as does children's scoring.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from gametable.core.protocol import Action, Observation
from gametable.games.triominos import heuristics
from gametable.games.triominos.heuristics import layout_from_view
from gametable.games.triominos.lattice import pack
from gametable.games.triominos.layout import Layout
from gametable.games.triominos.tiles import (
    ALL_TILES,
    DEMAND_FITS,
    DEMAND_TILES,
    TILE_NUMBER,
    TILE_VALUE,
)

REPLY_WEIGHT: Final = 1.0
"""How much the next player's expected best reply counts against a placement."""
OWN_NEXT: Final = 0.3
"""How much the seat's own best next placement (on the table as left) counts."""
SECURE_NEXT: Final = 0.8
"""How much it counts when no unseen tile fits where it would go (nobody else can take
the spot)."""
OPTION_WEIGHT: Final = 2.0
"""Points per kept tile that still fits somewhere."""


def _bonus(layout: Layout, p: int, extends: bool) -> int:
    """The bonus of a tile laid on open position ``p`` (TR-BONUS-1..6, standard)."""
    geometry = layout.geometry(p)
    if geometry.hexagons:
        return 40 + 10 * geometry.hexagons
    if geometry.bridge or (geometry.extends_bridge and extends):
        return 40
    return 0


def best_replies(layout: Layout, tiles: int, extends: bool, rivals: int = 0
                 ) -> dict[int, int]:
    """For each tile of bit mask ``tiles`` that fits somewhere on ``layout``, the most
    points it scores there (value and bonus); with ``rivals``, only on positions where
    none of the tiles of that bit mask fits."""
    best: dict[int, int] = {}
    for p, key in layout.open.items():
        if not DEMAND_TILES[key] & tiles or DEMAND_TILES[key] & rivals:
            continue
        bonus = _bonus(layout, p, extends)
        for bit, tile, _rotation, value in DEMAND_FITS[key]:
            if bit & tiles:
                points = value + bonus
                if points > best.get(tile, -1):
                    best[tile] = points
    return best


def expected_best(values: Sequence[int], unseen: int, size: int) -> float:
    """The expected largest of ``values`` found in a random ``size``-tile hand drawn from
    ``unseen`` tiles (tiles not listed are worth 0)."""
    if size <= 0 or unseen <= 0:
        return 0.0
    size = min(size, unseen)
    ways = math.comb(unseen, size)
    total = 0.0
    for rank, value in enumerate(sorted(values, reverse=True)):
        if value <= 0 or unseen - rank - 1 < size - 1:
            break
        total += value * math.comb(unseen - rank - 1, size - 1) / ways
    return total


BONUS_POINTS: Final[dict[str | None, int]] = {
    None: 0, "bridge": 40, "extended_bridge": 40, "hexagon": 50, "double_hexagon": 60,
    "triple_hexagon": 70}
"""TR-BONUS-1..6 in standard points, by the bonus names of the view's board."""
MARGIN: Final = 12
"""Points by which a tile must beat the one played for its absence to be inferred (more
than ``greedy``'s tie-breakers can make up)."""


def unlikely_tiles(view: Observation, unseen: int) -> int:
    """The tiles of bit mask ``unseen`` that the next seat most probably does not hold,
    inferred from its last turn (two seats only; ``0`` when nothing can be inferred).

    If the last tile on the table is the other seat's, it held no tile that would have
    scored at least :data:`MARGIN` more on the table as it was before (a player takes a
    hexagon or a bridge it can make). If the last tile is this seat's own and the other
    seat has had its turn since, it drew and passed (TR-DRAW-2/3): none of its tiles fits
    the table as it is.
    """
    board = view["board"]
    seat = view["seat"]
    if len(view["hand_sizes"]) != 2 or not board or view.get("current") != seat:
        return 0
    last = board[-1]
    if last["seat"] == seat:
        if len(board) == 1 and view.get("starter") == seat and view.get("turn", 0) == 0:
            return 0
        layout = layout_from_view(view)
        fits = 0
        for key in layout.open.values():
            fits |= DEMAND_TILES[key]
        return unseen & fits
    before = Layout()
    for laid in board[:-1]:
        row, col = laid["position"]
        before.place(pack(row, col), TILE_NUMBER[laid["tile"]], laid["rotation"],
                     laid["seat"], laid["bonus"])
    if not before.tiles:
        return 0
    played = TILE_VALUE[TILE_NUMBER[last["tile"]]] + BONUS_POINTS.get(last["bonus"], 0)
    better = 0
    for tile, points in best_replies(before, unseen, bool(view.get("extended_bridge"))
                                     ).items():
        if points >= played + MARGIN:
            better |= 1 << tile
    return better


def plan_actions(view: Observation, actions: Sequence[Action]) -> list[float]:
    """One rating per action (higher is better, in points) for the seat of ``view``.

    Args:
        view: a seated view from ``Triominos.view``.
        actions: legal actions of that seat.
    """
    greedy = heuristics.rate_actions(view, actions)
    if not view["board"] or view.get("options", {}).get("scoring") == "children":
        return greedy
    layout = layout_from_view(view)
    extends = bool(view.get("extended_bridge", True))
    hand = 0
    for tile_id in view["hand"]:
        hand |= 1 << TILE_NUMBER[tile_id]
    board = 0
    for laid in view["board"]:
        board |= 1 << TILE_NUMBER[laid["tile"]]
    unseen_mask = ALL_TILES & ~board & ~hand
    seat: int = view["seat"]
    sizes: list[int] = view["hand_sizes"]
    size = sizes[(seat + 1) % len(sizes)]
    rivals = unseen_mask & ~unlikely_tiles(view, unseen_mask)
    count = rivals.bit_count()
    ratings: list[float] = []
    for action, rating in zip(actions, greedy, strict=True):
        if action["type"] != "place":
            ratings.append(rating)
            continue
        tile = TILE_NUMBER[action["tile"]]
        row, col = action["position"]
        p = pack(row, col)
        points = TILE_VALUE[tile] + _bonus(layout, p, extends)
        after = layout.copy()
        after.place(p, tile, action["rotation"], seat, None)
        replies = best_replies(after, rivals, extends)
        reply = expected_best(list(replies.values()), count, size)
        kept = hand & ~(1 << tile)
        own = best_replies(after, kept, extends)
        secure = best_replies(after, kept, extends, unseen_mask)
        own_next = max(OWN_NEXT * max(own.values(), default=0),
                       SECURE_NEXT * max(secure.values(), default=0))
        ratings.append(points - REPLY_WEIGHT * reply + own_next
                       + OPTION_WEIGHT * len(own))
    return ratings
