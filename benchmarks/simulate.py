"""Whole games of the package's quick computer players through ``simulate`` — what a
researcher's evaluation run costs per game, next to the bare engine
(``benchmarks.engine``): the players are made by name, get their seat's view and legal
actions each decision, and every game is recorded.

Run: ``.venv/bin/python -m benchmarks.simulate [--games 200] [--repeat 2]``

Prints games per second and microseconds per action for ``random`` and ``greedy`` in
every seat, for each game at its smallest usual table (Sequence Cats and Triominos two
seats, Dixit four), best of ``--repeat`` runs, each row after an untimed warm-up (one
game on a seed the timed runs do not play), so that no row pays the one-time costs
(imports, tables built on first use) the first paid alone.
"""

from __future__ import annotations

import argparse
from time import perf_counter

from gametable.simulate import play_bot_game

TABLES = (("sequence-cats", 2, 1.0), ("triominos", 2, 0.1), ("dixit", 4, 0.3))
"""(game, seats, share of ``--games`` played: a Triominos game to 400 points is long)."""

WARM_UP_SEED = 10**9
"""The seed of each row's untimed warm-up game (beyond the timed runs' seeds)."""


def run(game: str, seats: int, bot: str, games: int, repeat: int) -> tuple[float, float]:
    """Best of ``repeat`` runs of ``games`` games, after one untimed warm-up game:
    (games per second, µs per action)."""
    play_bot_game(game, {}, [bot] * seats, WARM_UP_SEED)
    best = (0.0, 0.0)
    for _ in range(repeat):
        actions = 0
        started = perf_counter()
        for seed in range(games):
            record, _ = play_bot_game(game, {}, [bot] * seats, seed)
            actions += len(record.actions)
        seconds = perf_counter() - started
        if games / seconds > best[0]:
            best = (games / seconds, seconds / actions * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    print(f"{'game':<15}{'seats':>6}{'players':>9}{'games/s':>10}{'µs/action':>11}")
    for game, seats, share in TABLES:
        for bot in ("random", "greedy"):
            rate, per_action = run(game, seats, bot, max(1, round(args.games * share)),
                                   args.repeat)
            print(f"{game:<15}{seats:>6}{bot:>9}{rate:>10.1f}{per_action:>11.1f}")


if __name__ == "__main__":
    main()
