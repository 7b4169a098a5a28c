"""Geometry of the triangular lattice (TR-GEOM-1, TR-GEOM-2).

Positions
    A position is ``(row, col)``, any integers. Row ``r`` is the strip between the
    horizontal lattice lines ``r`` and ``r + 1`` (rows grow downwards, as on a screen);
    along a row, triangles alternate. Position ``(r, c)`` points **up** when ``r + c``
    is even and **down** when it is odd. The first tile of a round lies on ``(0, 0)``,
    which points up.

Vertices
    A lattice vertex is ``(line, k)``: it lies on horizontal line ``line`` at
    ``x = k / 2`` side lengths (``k`` has the parity of ``line + 1``). On screen, with
    side 1 and ``h = √3 / 2``, vertex ``(line, k)`` is at ``(k / 2, line · h)``.

Corners, clockwise as seen from above (the order a rotation fills, see :mod:`.tiles`)
    up ``(r, c)``:   0 apex ``(r, c+1)``, 1 lower right ``(r+1, c+2)``, 2 lower left ``(r+1, c)``
    down ``(r, c)``: 0 upper left ``(r, c)``, 1 upper right ``(r, c+2)``, 2 apex ``(r+1, c+1)``

Sides and edge neighbours
    Side ``i`` joins corners ``i`` and ``i + 1`` (mod 3); corner ``i + 2`` is opposite.
    up: side 0 → ``(r, c+1)``, side 1 → ``(r+1, c)``, side 2 → ``(r, c−1)``
    down: side 0 → ``(r−1, c)``, side 1 → ``(r, c+1)``, side 2 → ``(r, c−1)``

Around a vertex ``(line, k)`` lie six positions (the hexagon of TR-BONUS-2):
``(line−1, k−2)``, ``(line−1, k−1)``, ``(line−1, k)``, ``(line, k−2)``, ``(line, k−1)``,
``(line, k)``. Two positions sharing exactly one vertex are *corner neighbours*.

Internally a position or vertex is one integer, ``(r + 512) · 2048 + (c + 1024)``, so
that neighbours are found by addition. Every table below is computed on first use.
"""

from __future__ import annotations

from typing import Final, NamedTuple

STRIDE: Final = 2048
_ROW0: Final = 512
_COL0: Final = 1024
ORIGIN: Final = _ROW0 * STRIDE + _COL0
"""The packed position ``(0, 0)``."""


def pack(row: int, col: int) -> int:
    """The packed integer of position or vertex ``(row, col)`` (|row| < 512, |col| < 1024)."""
    return (row + _ROW0) * STRIDE + (col + _COL0)


def unpack(packed: int) -> tuple[int, int]:
    """``(row, col)`` of a packed position or vertex."""
    row, col = divmod(packed, STRIDE)
    return row - _ROW0, col - _COL0


def points_up(row: int, col: int) -> bool:
    """TR-GEOM-1: position ``(row, col)`` points up when ``row + col`` is even."""
    return (row + col) % 2 == 0


class Cell(NamedTuple):
    """The geometry of one position (all packed integers).

    Attributes:
        up: whether it points up.
        corners: its three vertices, clockwise.
        sides: per side ``i`` (corners ``i``, ``i + 1``), the edge neighbour across it.
        around: the positions sharing at least one vertex with it (itself excluded).
    """

    up: bool
    corners: tuple[int, int, int]
    sides: tuple[int, int, int]
    around: tuple[int, ...]


def _vertex_ring(v: int) -> tuple[int, int, int, int, int, int]:
    w = STRIDE
    return (v - w - 2, v - w - 1, v - w, v - 2, v - 1, v)


def _cell(p: int) -> Cell:
    row, col = unpack(p)
    up = points_up(row, col)
    w = STRIDE
    if up:
        corners = (p + 1, p + w + 2, p + w)
        sides = (p + 1, p + w, p - 1)
    else:
        corners = (p, p + 2, p + w + 1)
        sides = (p - w, p + 1, p - 1)
    around = sorted({q for v in corners for q in _vertex_ring(v)} - {p})
    return Cell(up, corners, sides, tuple(around))


class _Cells(dict[int, Cell]):
    def __missing__(self, p: int) -> Cell:
        cell = self[p] = _cell(p)
        return cell


CELLS: Final[dict[int, Cell]] = _Cells()
"""``CELLS[p]``: the :class:`Cell` of packed position ``p``, computed on first use."""


class _Rings(dict[int, tuple[int, int, int, int, int, int]]):
    def __missing__(self, v: int) -> tuple[int, int, int, int, int, int]:
        ring = self[v] = _vertex_ring(v)
        return ring


RINGS: Final[dict[int, tuple[int, int, int, int, int, int]]] = _Rings()
"""``RINGS[v]``: the six packed positions around packed vertex ``v``."""


def vertex_xy(row: int, k: int) -> tuple[float, float]:
    """Screen coordinates (side lengths, y downwards) of vertex ``(row, k)``."""
    return k / 2, row * 0.8660254037844386
