"""Board layouts and their geometry (SC-COMP-2, SC-WIN-1).

A layout is a grid of space names: a breed id, or ``"free"`` for a free space that
counts as every colour's chip (the four corners of the default board). Each breed must
appear on exactly two spaces. Spaces are numbered row by row from 0 and labelled like a
spreadsheet: column letter then row number, ``"A1"`` top left, ``"K8"`` bottom right of
the default 8 × 11 board.

Everything a move needs is precomputed once per layout: the two spaces of each breed,
every five-space line ("window") as a bit mask, and for each space the windows through
it grouped by direction, so that a sequence check looks only at lines through the chip
just placed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from pydantic import BaseModel

from gametable.core.actions import FrozenAction
from gametable.core.errors import ConfigError
from gametable.games.sequence_cats.cards import BREEDS, CARD_NUMBER, MEOW, PURRR

FREE = "free"
SEQUENCE_LENGTH = 5
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))
"""Row/column steps of the four line directions: horizontal, vertical, two diagonals."""

MAX_SIDE = 26

SpaceInfo = tuple[int, str, tuple[tuple[int, tuple[int, ...]], ...], int, int,
                  tuple[tuple[dict[str, Any], ...], ...]]


Line = tuple[int, tuple[int, ...]]
"""``(span, windows)``: the windows of one direction through one space, as bit masks.

``span`` covers every space those windows use, so ``(chips & span).bit_count() < 5``
proves that none of them is complete.
"""


@dataclass(frozen=True, eq=False)
class Board:
    """A validated layout with precomputed geometry and prebuilt action objects.

    Attributes:
        name: the layout's name.
        rows, columns: the grid size.
        names: the space names row by row (breed id or ``"free"``).
        breed_of: per space, the breed number on it, or -1 for a free space.
        spaces_of: per breed number, its two spaces.
        labels: per space, its label (``"C4"``); ``index`` maps labels back.
        free_mask: bit mask of the free spaces.
        lines: per space, its :data:`Line` tuples (directions without any window are
            left out).
        breed_spaces: the spaces that hold a breed (not free), in order.
        moves: per breed number, ``(a, play_a, b, play_b)``: its two spaces and the
            ``play`` action objects for them.
        option_sets: per breed number, its playable ``play`` actions indexed by
            ``taken(a) | taken(b) << 1``: both, only b, only a, none.
        purrr_actions, meow_actions: per space, the PURRR and MEOW ``play`` action on it
            (``None`` on free spaces).
        spaces: per space, ``(breed, label, lines, a, b, option_set)``: everything a
            move on it needs in one lookup (``a``, ``b``: the spaces of its breed, and
            that breed's option set; -1 and ``()`` on free spaces).
        empty_cells, all_options: a new game's ``cells`` and ``options`` (copied).
    """

    name: str
    rows: int
    columns: int
    names: tuple[str, ...]
    breed_of: tuple[int, ...]
    spaces_of: tuple[tuple[int, int], ...]
    labels: tuple[str, ...]
    index: dict[str, int]
    free_mask: int
    lines: tuple[tuple[Line, ...], ...]
    breed_spaces: tuple[int, ...]
    moves: tuple[tuple[int, dict[str, Any], int, dict[str, Any]], ...] = field(repr=False)
    option_sets: tuple[tuple[tuple[dict[str, Any], ...], ...], ...] = field(repr=False)
    purrr_actions: tuple[dict[str, Any] | None, ...] = field(repr=False)
    meow_actions: tuple[dict[str, Any] | None, ...] = field(repr=False)
    spaces: tuple[SpaceInfo, ...] = field(repr=False)
    empty_cells: tuple[int, ...] = field(repr=False)
    all_options: tuple[tuple[dict[str, Any], ...], ...] = field(repr=False)
    play_action: dict[tuple[int, int], dict[str, Any]] = field(repr=False)
    exchange_action: tuple[dict[str, Any], ...] = field(repr=False)

    @property
    def size(self) -> int:
        """The number of spaces (88 on the default board)."""
        return self.rows * self.columns

    def to_json(self) -> dict[str, Any]:
        """The layout as JSON: ``{"name", "rows", "columns", "spaces": [[...], ...]}``."""
        grid = [list(self.names[r * self.columns:(r + 1) * self.columns])
                for r in range(self.rows)]
        return {"name": self.name, "rows": self.rows, "columns": self.columns, "spaces": grid}

    def __copy__(self) -> Board:
        return self  # nothing in it changes: states and their copies share it

    def __deepcopy__(self, memo: dict[int, Any]) -> Board:
        return self

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        """Pickled as its layout, built again on loading: its shared ``play`` actions stay
        frozen (:class:`~gametable.core.actions.FrozenAction`), which pickling would make
        plain, changeable dicts."""
        grid = [list(self.names[row * self.columns:(row + 1) * self.columns])
                for row in range(self.rows)]
        return board_for, ({"name": self.name, "spaces": grid},)


def space_label(row: int, column: int) -> str:
    """``"A1"`` style label: column letter (A = first) then 1-based row number."""
    return f"{chr(ord('A') + column)}{row + 1}"


def label_to_space(label: str, columns: int) -> int:
    """The space number of an ``"A1"`` style label on a grid ``columns`` wide."""
    return (int(label[1:]) - 1) * columns + (ord(label[0]) - ord("A"))


def build_board(layout: dict[str, Any]) -> Board:
    """Validate a layout JSON object and precompute its geometry.

    Raises:
        ConfigError: ``SC-COMP-2`` when the grid is not rectangular, is not of the
            ``rows`` × ``columns`` the layout says (where it says them), names an unknown
            breed, or does not hold every breed exactly twice.
    """
    try:
        name = str(layout.get("name", "custom"))
        grid = layout["spaces"]
        rows = len(grid)
        columns = len(grid[0])
        flat = [str(cell) for row in grid for cell in row]
    except (KeyError, TypeError, IndexError, AttributeError):
        raise ConfigError("SC-COMP-2", "sequence_cats.errors.layout_shape") from None
    if not (1 <= rows <= MAX_SIDE and 1 <= columns <= MAX_SIDE) or any(
        not isinstance(row, list) or len(row) != columns for row in grid
    ):
        raise ConfigError("SC-COMP-2", "sequence_cats.errors.layout_shape")
    # "rows" and "columns", where given, say the grid's size: a layout saying 13 × 3
    # of an 8 × 11 grid was taken, and its board said 13 × 3.
    if layout.get("rows", rows) not in (rows, None) \
            or layout.get("columns", columns) not in (columns, None):
        raise ConfigError("SC-COMP-2", "sequence_cats.errors.layout_size",
                          rows=layout.get("rows") or rows,
                          columns=layout.get("columns") or columns,
                          grid_rows=rows, grid_columns=columns)
    positions: dict[int, list[int]] = {b: [] for b in range(len(BREEDS))}
    breed_of: list[int] = []
    for i, cell in enumerate(flat):
        if cell == FREE:
            breed_of.append(-1)
            continue
        number = CARD_NUMBER.get(cell, -1)
        if not 0 <= number < len(BREEDS):
            raise ConfigError("SC-COMP-2", "sequence_cats.errors.layout_unknown_space",
                              space=cell)
        positions[number].append(i)
        breed_of.append(number)
    for number, spaces in positions.items():
        if len(spaces) != 2:
            raise ConfigError("SC-COMP-2", "sequence_cats.errors.layout_breed_count",
                              breed=BREEDS[number], count=len(spaces))
    labels = tuple(space_label(i // columns, i % columns) for i in range(rows * columns))
    free_mask = sum(1 << i for i, b in enumerate(breed_of) if b < 0)
    play_action = _play_actions(breed_of, labels)
    spaces_of = tuple((s[0], s[1]) for s in positions.values())
    moves = tuple((a, play_action[(k, a)], b, play_action[(k, b)])
                  for k, (a, b) in enumerate(spaces_of))
    option_sets = tuple(((pa, pb), (pb,), (pa,), ()) for _, pa, _, pb in moves)
    lines = geometry(rows, columns)
    space_info: list[SpaceInfo] = []
    for space, breed in enumerate(breed_of):
        if breed < 0:
            space_info.append((breed, labels[space], lines[space], -1, -1, ()))
        else:
            a, b = spaces_of[breed]
            space_info.append((breed, labels[space], lines[space], a, b, option_sets[breed]))
    return Board(
        name=name,
        rows=rows,
        columns=columns,
        names=tuple(flat),
        breed_of=tuple(breed_of),
        spaces_of=spaces_of,
        labels=labels,
        index={label: i for i, label in enumerate(labels)},
        free_mask=free_mask,
        lines=lines,
        breed_spaces=tuple(i for i, b in enumerate(breed_of) if b >= 0),
        moves=moves,
        option_sets=option_sets,
        purrr_actions=tuple(play_action.get((PURRR, s)) for s in range(len(breed_of))),
        meow_actions=tuple(play_action.get((MEOW, s)) for s in range(len(breed_of))),
        spaces=tuple(space_info),
        empty_cells=tuple(-2 if b < 0 else -1 for b in breed_of),  # FREE_SPACE, EMPTY
        all_options=tuple(plays[0] for plays in option_sets),
        play_action=play_action,
        exchange_action=tuple(FrozenAction(type="exchange", card=c)
                              for c in (*BREEDS, "purrr", "meow")),
    )


@cache
def geometry(rows: int, columns: int) -> tuple[tuple[Line, ...], ...]:
    """Per space of a ``rows`` × ``columns`` grid, its :data:`Line` tuples."""
    per_space: list[list[Line]] = [[] for _ in range(rows * columns)]
    for r in range(rows):
        for c in range(columns):
            for dr, dc in DIRECTIONS:
                windows: list[int] = []
                span = 0
                for back in range(SEQUENCE_LENGTH):
                    r0, c0 = r - back * dr, c - back * dc
                    cells = [(r0 + k * dr, c0 + k * dc) for k in range(SEQUENCE_LENGTH)]
                    if all(0 <= rr < rows and 0 <= cc < columns for rr, cc in cells):
                        mask = sum(1 << (rr * columns + cc) for rr, cc in cells)
                        windows.append(mask)
                        span |= mask
                if windows:
                    # Order windows along the line (lowest space first).
                    windows.sort(key=lambda m: (m & -m))
                    per_space[r * columns + c].append((span, tuple(windows)))
    return tuple(tuple(lines) for lines in per_space)


def _play_actions(breed_of: list[int], labels: tuple[str, ...]) -> dict[tuple[int, int], Any]:
    """Every ``play`` action object, keyed by (card number, space): shared by every game
    on the board, so frozen (:class:`~gametable.core.actions.FrozenAction`)."""
    actions: dict[tuple[int, int], Any] = {}
    for space, breed in enumerate(breed_of):
        if breed < 0:
            continue
        label = labels[space]
        actions[(breed, space)] = FrozenAction(type="play", card=BREEDS[breed], space=label)
        actions[(PURRR, space)] = FrozenAction(type="play", card="purrr", space=label)
        actions[(MEOW, space)] = FrozenAction(type="play", card="meow", space=label)
    return actions


@cache
def bundled_board(name: str) -> Board:
    """A layout shipped in ``data/board-<name>.json``.

    Raises:
        ConfigError: ``SC-COMP-2`` when there is no such layout.
    """
    if name not in bundled_boards():
        raise ConfigError("SC-COMP-2", "sequence_cats.errors.unknown_board", board=name,
                          boards=", ".join(f'"{other}"' for other in bundled_boards()))
    path = resources.files("gametable.games.sequence_cats").joinpath(f"data/board-{name}.json")
    return build_board(json.loads(path.read_text("utf-8")))


@cache
def bundled_boards() -> tuple[str, ...]:
    """The names of the layouts shipped in ``data/board-<name>.json``, sorted."""
    data = resources.files("gametable.games.sequence_cats").joinpath("data")
    return tuple(sorted(entry.name.removeprefix("board-").removesuffix(".json")
                        for entry in data.iterdir()
                        if entry.name.startswith("board-") and entry.name.endswith(".json")))


_CUSTOM: dict[str, Board] = {}


def board_for(layout: str | dict[str, Any] | BaseModel) -> Board:
    """The board for a config's ``board`` option: a bundled name or a layout object."""
    if isinstance(layout, str):
        return bundled_board(layout)
    if isinstance(layout, BaseModel):
        layout = layout.model_dump(exclude_none=True)
    key = json.dumps(layout, sort_keys=True)
    board = _CUSTOM.get(key)
    if board is None:
        board = build_board(layout)
        if len(_CUSTOM) < 64:
            _CUSTOM[key] = board
    return board
