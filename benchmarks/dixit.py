"""Dixit rules-engine speed: random playouts for each variant and edition.

Run: ``.venv/bin/python -m benchmarks.dixit [--games 1000] [--repeat 3]``

Every playout starts a new game with the bundled default deck and plays it to the end
through the game protocol (``to_act``, ``legal_actions``, a uniformly random choice,
``apply``), as :mod:`benchmarks.engine` does. A clue is the placeholder text the legal
actions carry. Prints games per second and microseconds per action, best of
``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from benchmarks.engine import playouts

SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("base IS", 3, {}),
    ("base IS", 4, {}),
    ("base IS", 6, {}),
    ("base IS", 8, {}),
    ("base IS", 12, {}),
    ("base EN", 6, {"edition": "EN"}),
    ("base PT", 6, {"edition": "PT"}),
    ("party", 6, {"variant": "party"}),
    ("party", 12, {"variant": "party"}),
    ("team", 6, {"variant": "team"}),
    ("team", 12, {"variant": "team"}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    results = []
    for label, players, extra in SETUPS:
        options = {"first_storyteller": "first_seat", **extra}
        best: tuple[float, int] | None = None
        for _ in range(args.repeat):
            seconds, actions = playouts("dixit", players, options, args.games, args.seed)
            if best is None or seconds < best[0]:
                best = (seconds, actions)
        assert best is not None
        seconds, actions = best
        results.append({
            "variant": label, "players": players, "games": args.games,
            "games_per_second": round(args.games / seconds, 1),
            "us_per_action": round(seconds / actions * 1e6, 3),
            "actions_per_game": round(actions / args.games, 1),
        })
    if args.json:
        print(json.dumps({"dixit": results}))
        return
    print(f"{'variant':<10}{'players':>8}{'games/s':>10}{'µs/action':>12}{'actions/game':>14}")
    for r in results:
        print(f"{r['variant']:<10}{r['players']:>8}{r['games_per_second']:>10,.0f}"
              f"{r['us_per_action']:>12.2f}{r['actions_per_game']:>14.1f}")


if __name__ == "__main__":
    main()
