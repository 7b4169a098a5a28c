"""Generate the default Sequence Cats board layout (SC-COMP-2).

Run: ``python tools/make_board.py`` (rewrites
``src/gametable/games/sequence_cats/data/board-default.json``).

The board has 8 rows × 11 columns; the four corners are free spaces and each of the 42
breeds sits on exactly two spaces. The two spaces of a breed are at least 5 rows or 5
columns apart (Chebyshev distance ≥ 5), so both can never lie in one five-space line,
and the pairs are assigned to breeds in a seeded random order.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

ROWS, COLS, MIN_DISTANCE, SEED = 8, 11, 5, 2026
ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src/gametable/games/sequence_cats/data"


def far(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) >= MIN_DISTANCE


def pair_cells(rng: random.Random) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    corners = {(0, 0), (0, COLS - 1), (ROWS - 1, 0), (ROWS - 1, COLS - 1)}
    cells = [(r, c) for r in range(ROWS) for c in range(COLS) if (r, c) not in corners]
    rng.shuffle(cells)
    unmatched = set(cells)
    pairs: list[tuple[tuple[int, int], tuple[int, int]]] = []

    def solve() -> bool:
        if not unmatched:
            return True
        # Most constrained cell first.
        cell = min(unmatched, key=lambda x: (sum(far(x, y) for y in unmatched if y != x), x))
        options = [y for y in unmatched if y != cell and far(cell, y)]
        rng.shuffle(options)
        for other in options:
            unmatched.difference_update((cell, other))
            pairs.append((cell, other))
            if solve():
                return True
            pairs.pop()
            unmatched.update((cell, other))
        return False

    if not solve():
        raise SystemExit("no layout with that distance")
    return pairs


def main() -> None:
    rng = random.Random(SEED)
    breeds = [b["id"] for b in json.loads((DATA / "cards.json").read_text("utf-8"))["breeds"]]
    pairs = pair_cells(rng)
    rng.shuffle(breeds)
    grid = [["free"] * COLS for _ in range(ROWS)]
    for breed, (a, b) in zip(breeds, pairs, strict=True):
        grid[a[0]][a[1]] = breed
        grid[b[0]][b[1]] = breed
    layout = {"name": "default", "rows": ROWS, "columns": COLS, "spaces": grid}
    rows = ",\n".join("  " + json.dumps(row) for row in grid)
    text = json.dumps({k: v for k, v in layout.items() if k != "spaces"}, indent=1)
    text = text[:-2] + ',\n "spaces": [\n' + rows + "\n ]\n}"
    (DATA / "board-default.json").write_text(text + "\n", encoding="utf-8")
    print(f"wrote {len(pairs)} pairs to board-default.json")


if __name__ == "__main__":
    main()
