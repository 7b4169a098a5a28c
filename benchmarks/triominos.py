"""Triominos engine speed: placement enumeration and random-playout rounds.

Run: ``.venv/bin/python -m benchmarks.triominos [--quick] [--json]``

Prints three figures:

* **enumerate, 7-tile hand**: the mean time to list every legal (tile, position,
  rotation) for a hand of 7 tiles, over layouts met in random play (each layout paired
  with a random 7-tile hand from the tiles not on the table). Both the engine's own
  list of tuples (``Layout.placements``, what bots search with) and the protocol's
  ``legal_actions`` (JSON objects) are timed.
* **enumerate, 40-tile board**: the same on layouts of exactly 40 tiles, built by
  laying random legal tiles, for a 7-tile hand and for all 16 tiles not on the table.
* **rounds/s**: random playouts of one round (``{"rounds": 1}``) through the game
  protocol — ``to_act``, ``legal_actions``, a uniform random choice, ``apply`` — for
  2, 3 and 4 players, dealing included. Best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from gametable.core import registry
from gametable.games.triominos import TRIOMINOS
from gametable.games.triominos.layout import Layout
from gametable.games.triominos.state import TriominosState
from gametable.games.triominos.tiles import ALL_TILES, TILE_COUNT


def _random_hand(rng: random.Random, free: int, size: int) -> int:
    tiles = [t for t in range(TILE_COUNT) if free >> t & 1]
    hand = 0
    for t in rng.sample(tiles, min(size, len(tiles))):
        hand |= 1 << t
    return hand


def _on_table(layout: Layout) -> int:
    mask = 0
    for laid in layout.tiles.values():
        mask |= 1 << laid.tile
    return mask


def layouts_from_play(count: int, seed: int) -> list[TriominosState]:
    """States met in random 2-player play, one every few actions, first tile laid."""
    game = TRIOMINOS
    rng = random.Random(seed)
    found: list[TriominosState] = []
    game_seed = seed
    while len(found) < count:
        state = game.new_game(game.make_config({"rounds": 1}, 2), 2, game_seed)
        game_seed += 1
        step = 0
        while game.to_act(state) and len(found) < count:
            (seat,) = game.to_act(state)
            legal = game.legal_actions(state, seat)
            game.apply(state, seat, legal[rng.randrange(len(legal))])
            step += 1
            if state.layout.tiles and step % 3 == 0:
                found.append(game.clone(state))
    return found


def layouts_of(tiles: int, count: int, seed: int) -> list[Layout]:
    """Layouts of exactly ``tiles`` tiles, laying random legal tiles from the whole set."""
    rng = random.Random(seed)
    found: list[Layout] = []
    while len(found) < count:
        layout = Layout()
        free = ALL_TILES
        while len(layout.tiles) < tiles:
            options = layout.placements(free)
            if not options:
                break
            tile, p, rotation = options[rng.randrange(len(options))]
            layout.place(p, tile, rotation, 0, None)
            free &= ~(1 << tile)
        if len(layout.tiles) == tiles:
            found.append(layout)
    return found


def time_placements(cases: list[tuple[Layout, int]], repeat: int = 20) -> tuple[float, float]:
    """Mean µs per enumeration and mean placements found, best of ``repeat`` passes."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for layout, hand in cases:
            layout.placements(hand)
        best = min(best, time.perf_counter() - start)
    found = sum(len(layout.placements(hand)) for layout, hand in cases) / len(cases)
    return best / len(cases) * 1e6, found


def time_legal_actions(states: list[TriominosState], repeat: int = 5) -> float:
    """Mean µs per ``legal_actions`` call (cache cleared), best of ``repeat`` passes."""
    game = TRIOMINOS
    best = float("inf")
    for _ in range(repeat):
        elapsed = 0.0
        for state in states:
            state.legal_cache = None
            start = time.perf_counter()
            game.legal_actions(state, state.current)
            elapsed += time.perf_counter() - start
        best = min(best, elapsed)
    return best / len(states) * 1e6


def rounds_per_second(players: int, rounds: int, seed: int) -> tuple[float, float]:
    """Random one-round playouts: (rounds per second, µs per action)."""
    game = registry.get("triominos")
    config = game.make_config({"rounds": 1}, players)
    rng = random.Random(seed)
    rand = rng.random
    actions = 0
    start = time.perf_counter()
    for i in range(rounds):
        state = game.new_game(config, players, seed + i)
        while True:
            seats = game.to_act(state)
            if not seats:
                break
            for seat in seats:
                legal = game.legal_actions(state, seat)
                game.apply(state, seat, legal[int(rand() * len(legal))])
                actions += 1
    seconds = time.perf_counter() - start
    return rounds / seconds, seconds / actions * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    scale = 0.2 if args.quick else 1.0
    rng = random.Random(args.seed)

    states = layouts_from_play(int(2000 * scale), args.seed)
    play_cases = [(s.layout, _random_hand(rng, ALL_TILES & ~_on_table(s.layout), 7))
                  for s in states]
    us_play, found_play = time_placements(play_cases)
    us_legal = time_legal_actions(states)
    sizes = [len(s.layout.tiles) for s in states]

    boards = layouts_of(40, int(200 * scale), args.seed)
    hand7 = [(b, _random_hand(rng, ALL_TILES & ~_on_table(b), 7)) for b in boards]
    rest = [(b, ALL_TILES & ~_on_table(b)) for b in boards]
    us_40_7, found_40_7 = time_placements(hand7)
    us_40_all, found_40_all = time_placements(rest)

    rounds: list[dict[str, Any]] = []
    for players in (2, 3, 4):
        best = (0.0, 0.0)
        for _ in range(args.repeat):
            best = max(best, rounds_per_second(players, int(1000 * scale), args.seed))
        rounds.append({"players": players, "rounds_per_second": round(best[0], 1),
                       "us_per_action": round(best[1], 2)})

    result: dict[str, Any] = {
        "enumerate_7_from_play": {"us": round(us_play, 2), "placements": round(found_play, 1),
                                  "positions": len(states),
                                  "tiles_on_table_mean": round(sum(sizes) / len(sizes), 1),
                                  "legal_actions_us": round(us_legal, 2)},
        "enumerate_40_tiles": {"hand_7_us": round(us_40_7, 2),
                               "hand_7_placements": round(found_40_7, 1),
                               "all_16_us": round(us_40_all, 2),
                               "all_16_placements": round(found_40_all, 1),
                               "boards": len(boards)},
        "rounds": rounds,
    }
    if args.json:
        print(json.dumps({"triominos": result}))
        return
    e = result["enumerate_7_from_play"]
    print(f"enumerate, 7-tile hand, {e['positions']} positions from random play "
          f"(mean {e['tiles_on_table_mean']} tiles on the table):")
    print(f"  Layout.placements  {e['us']:8.2f} µs   ({e['placements']} placements on average)")
    print(f"  legal_actions      {e['legal_actions_us']:8.2f} µs   (JSON actions, draw/pass)")
    f = result["enumerate_40_tiles"]
    print(f"enumerate, {f['boards']} boards of 40 tiles:")
    print(f"  7-tile hand        {f['hand_7_us']:8.2f} µs   ({f['hand_7_placements']} placements)")
    print(f"  all 16 free tiles  {f['all_16_us']:8.2f} µs   ({f['all_16_placements']} placements)")
    print("random-playout rounds (one round per game, dealing included):")
    for r in rounds:
        print(f"  {r['players']} players  {r['rounds_per_second']:8,.0f} rounds/s"
              f"   {r['us_per_action']:6.2f} µs/action")


if __name__ == "__main__":
    main()
