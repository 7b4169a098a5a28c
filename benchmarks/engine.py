"""Rules-engine speed: random playouts through the game protocol.

Run: ``.venv/bin/python -m benchmarks.engine [--game sequence-cats] [--games 3000]
[--players 2 3 …] [--repeat 3] [--seed 1] [--json]`` (by default the seat counts of 2,
3, 4 and 6 the game takes).

Each playout starts a new game and, until it ends, asks ``to_act``, takes the acting
seat's ``legal_actions``, picks one uniformly at random and ``apply``-s it, exactly as
any caller of the protocol would. Prints games per second and microseconds per action
(setup included), best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from gametable.core import registry
from gametable.core.errors import ConfigError


def _takes(game_name: str, players: int) -> bool:
    """Whether ``game_name`` is played by ``players`` seats with its default options."""
    try:
        registry.get(game_name).make_config({}, players)
    except ConfigError:
        return False
    return True


def playouts(game_name: str, players: int, options: dict[str, Any], games: int, seed: int
             ) -> tuple[float, int]:
    """Play ``games`` random games; return (seconds, actions)."""
    game = registry.get(game_name)
    config = game.make_config(options, players)
    rng = random.Random(seed)
    rand = rng.random
    to_act, legal_actions, apply, new_game = (game.to_act, game.legal_actions, game.apply,
                                              game.new_game)
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        state = new_game(config, players, seed + i)
        while True:
            seats = to_act(state)
            if not seats:
                break
            for seat in seats:
                # An earlier seat of a simultaneous batch may have settled this seat's
                # decision (a Team Dixit teammate naming the giver).
                legal = legal_actions(state, seat)
                if legal:
                    apply(state, seat, legal[int(rand() * len(legal))])
                    actions += 1
    return time.perf_counter() - start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="sequence-cats")
    parser.add_argument("--players", type=int, nargs="*", default=None,
                        help="seat counts (default: those of 2, 3, 4 and 6 the game takes)")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    results = []
    if args.players is None:
        args.players = [n for n in (2, 3, 4, 6) if _takes(args.game, n)]
    for players in args.players:
        best: tuple[float, int] | None = None
        for _ in range(args.repeat):
            seconds, actions = playouts(args.game, players, {}, args.games, args.seed)
            if best is None or seconds < best[0]:
                best = (seconds, actions)
        assert best is not None
        seconds, actions = best
        results.append({
            "game": args.game, "players": players, "games": args.games,
            "games_per_second": round(args.games / seconds, 1),
            "us_per_action": round(seconds / actions * 1e6, 3),
            "actions_per_game": round(actions / args.games, 1),
        })
    if args.json:
        print(json.dumps({"engine": results}))
        return
    print(f"{'game':<15}{'players':>8}{'games/s':>12}{'µs/action':>12}{'actions/game':>14}")
    for r in results:
        print(f"{r['game']:<15}{r['players']:>8}{r['games_per_second']:>12,.0f}"
              f"{r['us_per_action']:>12.2f}{r['actions_per_game']:>14.1f}")


if __name__ == "__main__":
    main()
