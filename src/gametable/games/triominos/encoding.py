"""Triominos as fixed-size arrays, for learning agents (:mod:`gametable.core.encoding`).

The table is open-ended (TR-GEOM-1); the encoding sees a window of it, :data:`ROWS` ×
:data:`COLUMNS` positions around the round's first tile: rows ``-10 … 9`` and columns
``-20 … 19`` of :mod:`.lattice`'s coordinates, where position ``(r, c)`` points up when
``r + c`` is even. Tables stay well inside it (in 60 random and ``greedy`` rounds no
tile lay more than 8 rows or 13 columns from the first); a placement outside it has no
catalogue number and is left out of the action mask.

Observation (``S`` seats; everything from the seat's own side):

``table`` int8 (7, 20, 40)
    0 a tile lies there (0/1); 1–3 the number on its corner 0, 1, 2 plus one (0 where
    empty; corners clockwise as :mod:`.lattice` orders them); 4 an open position a tile
    could still fill; 5 the last tile laid; 6 the position points up.
``hand`` int8 (56,), 0/1
    The tiles the seat holds (TR-TILE-1 order: ``0-0-0``, ``0-0-1`` … ``5-5-5``).
``hand_sizes`` int8 (S,) and ``scores`` int16 (S,)
    Each seat's tile count and score, the seat's own first, then clockwise.
``facts`` int16 (7,)
    Tiles in the pool; the round; tiles drawn this turn (TR-DRAW-1); the last round
    (0: played to a target); the target score (0: a fixed number of rounds); whether
    the seat is to lay the round's first tile (TR-SETUP-3/4); what a pass costs it now
    (TR-DRAW-2/3).

Action catalogue (``P = 800`` positions of the window, numbered row by row):

===============================  =================================================
``(tile × 3 + rotation) × P + p``  lay ``tile`` turned by ``rotation`` on position
                                   ``p`` (TR-PLACE-1..3; a triple has rotation 0)
``56 × 3 × P``                   draw a tile from the pool (TR-DRAW-1)
``56 × 3 × P + 1``               pass (TR-DRAW-2, TR-DRAW-3)
===============================  =================================================
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from gametable.core.encoding import ArraySpec, seated
from gametable.core.protocol import Action, Observation
from gametable.games.triominos.tiles import TILE_COUNT, TILE_IDS, TILE_NUMBER

ROWS: Final = 20
COLUMNS: Final = 40
TOP: Final = -10
"""The window's first row."""
LEFT: Final = -20
"""The window's first column."""
POSITIONS: Final = ROWS * COLUMNS
PLANES: Final = 7
_DRAW: Final = TILE_COUNT * 3 * POSITIONS


def position_number(row: int, column: int) -> int | None:
    """The window's number of position ``(row, column)``, or ``None`` outside it."""
    r, c = row - TOP, column - LEFT
    if 0 <= r < ROWS and 0 <= c < COLUMNS:
        return r * COLUMNS + c
    return None


_UP: Final = np.fromfunction(lambda r, c: (r + TOP + c + LEFT + 1) % 2, (ROWS, COLUMNS),
                             dtype=np.int8).astype(np.int8)
"""Plane 6: 1 where the position points up (``r + c`` even)."""


class TriominosEncoding:
    """The encoding of Triominos games with ``seats`` seats (every config: the window
    and the catalogue do not depend on options).

    Attributes:
        observation: the arrays of an encoded view (see the module docstring).
        action_count: ``56 × 3 × 800 + 2`` = 134,402.
        key: the seats.
    """

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.key = ("triominos", seats)
        self.action_count = _DRAW + 2
        self.observation: dict[str, ArraySpec] = {
            "table": ArraySpec((PLANES, ROWS, COLUMNS), 0, 6, "int8",
                               "table planes: tile, corner numbers + 1 (three), open, "
                               "last tile, points up"),
            "hand": ArraySpec((TILE_COUNT,), 0, 1, "int8", "tiles held"),
            "hand_sizes": ArraySpec((seats,), 0, TILE_COUNT, "int8",
                                    "tiles in each hand, own first, then clockwise"),
            "scores": ArraySpec((seats,), -32768, 32767, "int16",
                                "each seat's score, own first, then clockwise"),
            "facts": ArraySpec((7,), -32768, 32767, "int16",
                               "pool, round, draws this turn, last round, target score, "
                               "opening the round, pass cost"),
        }

    def encode(self, view: Observation) -> dict[str, npt.NDArray[Any]]:
        """The arrays of a seated ``view`` (see the module docstring).

        Raises:
            ValueError: ``view`` is a spectator's (no seat, no hand).
        """
        seat = seated(view)
        table = np.zeros((PLANES, ROWS, COLUMNS), dtype=np.int8)
        table[6] = _UP
        for tile in view["board"]:
            r, c = tile["position"][0] - TOP, tile["position"][1] - LEFT
            if 0 <= r < ROWS and 0 <= c < COLUMNS:
                table[0, r, c] = 1
                for k, number in enumerate(tile["corners"]):
                    table[1 + k, r, c] = number + 1
        for fact in view["open"]:
            r, c = fact["position"][0] - TOP, fact["position"][1] - LEFT
            if fact["fillable"] and 0 <= r < ROWS and 0 <= c < COLUMNS:
                table[4, r, c] = 1
        last = view["last"]
        if last is not None:
            r, c = last[0] - TOP, last[1] - LEFT
            if 0 <= r < ROWS and 0 <= c < COLUMNS:
                table[5, r, c] = 1
        hand = np.zeros(TILE_COUNT, dtype=np.int8)
        for tile_id in view["hand"]:
            hand[TILE_NUMBER[tile_id]] = 1
        seats = self.seats
        order = [(seat + k) % seats for k in range(seats)]
        facts = [view["pool"], view["round"], view["draws"], view["round_limit"] or 0,
                 view["target_score"] or 0,
                 int(not view["board"] and view["current"] == seat),
                 view["pass_points"] or 0]
        return {
            "table": table,
            "hand": hand,
            "hand_sizes": np.asarray([view["hand_sizes"][s] for s in order], dtype=np.int8),
            "scores": np.asarray([view["scores"][s] for s in order], dtype=np.int16),
            "facts": np.asarray(facts, dtype=np.int16),
        }

    def action_index(self, view: Observation, action: Action) -> int | None:
        """The catalogue number of ``action``; ``None`` for a placement outside the
        window."""
        kind = action.get("type")
        if kind == "draw":
            return _DRAW
        if kind == "pass":
            return _DRAW + 1
        position = position_number(*action["position"])
        if position is None:
            return None
        rotation = int(action["rotation"])
        return (TILE_NUMBER[action["tile"]] * 3 + rotation) * POSITIONS + position

    def describe_action(self, index: int) -> str:
        """``index`` in words: ``"lay 1-2-3 turned 1 on (0, 1)"``, ``"draw"``, ``"pass"``.

        Raises:
            ValueError: ``index`` is outside the catalogue.
        """
        if not 0 <= index < self.action_count:
            raise ValueError(f"action {index} is outside 0 … {self.action_count - 1}")
        if index == _DRAW:
            return "draw"
        if index == _DRAW + 1:
            return "pass"
        placement, position = divmod(index, POSITIONS)
        tile, rotation = divmod(placement, 3)
        row, column = divmod(position, COLUMNS)
        return (f"lay {TILE_IDS[tile]} turned {rotation} on "
                f"({row + TOP}, {column + LEFT})")

    def action_at(self, view: Observation, index: int) -> Action | None:
        """The action ``index`` stands for: ``{"type": "place", "tile": "1-2-3",
        "position": [row, column], "rotation": k}``, ``{"type": "draw"}`` or ``{"type":
        "pass"}`` (the same in every view).

        Raises:
            ValueError: ``index`` is outside the catalogue.
        """
        if not 0 <= index < self.action_count:
            raise ValueError(f"action {index} is outside 0 … {self.action_count - 1}")
        if index == _DRAW:
            return {"type": "draw"}
        if index == _DRAW + 1:
            return {"type": "pass"}
        placement, position = divmod(index, POSITIONS)
        tile, rotation = divmod(placement, 3)
        row, column = divmod(position, COLUMNS)
        return {"type": "place", "tile": TILE_IDS[tile], "position": [row + TOP, column + LEFT],
                "rotation": rotation}
