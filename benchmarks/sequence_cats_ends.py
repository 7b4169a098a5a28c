"""Sequence Cats: how games end by each rules version (SC-WIN-2, SC-WIN-3).

Run: ``.venv/bin/python -m benchmarks.sequence_cats_ends [--games 200] [--seats 3]
[--bots greedy] [--versions 4,5]``

Plays ``--games`` games (seeds 0, 1, …) of ``--seats`` computer players of one kind by
each rules version and prints, per version, how many were won by a sequence, drawn
(SC-WIN-3: by a round of passes, and of those how many with a breed space still free;
agreed; blocked) or left unfinished, and the games' lengths in turns (median, longest).
By rules 2, 3 and 5 a round of passes draws the game with a space free too (SC-WIN-3 c);
by rules 4 only on a full board (docs/sequence-cats.md, "Rules versions").
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter

from gametable.core import registry
from gametable.simulate import play_bot_game


def ends(version: int, games: int, seats: int, bot: str) -> tuple[Counter[str], list[int]]:
    """How the games of one rules version ended (a count per end) and their lengths in
    turns."""
    game = registry.get("sequence-cats")
    counts: Counter[str] = Counter()
    turns = []
    for seed in range(games):
        record, outcome = play_bot_game(game, {"rules_version": version}, [bot] * seats, seed)
        state = game.new_game(game.make_config(record.config, seats), seats, seed)
        for step in record.actions:
            game.apply(state, step.seat, step.action)
        if not outcome.finished:
            counts["unfinished"] += 1
        elif state.draw_reason is None:
            counts["sequence"] += 1
        else:
            counts[state.draw_reason] += 1
            if state.draw_reason == "passes" and state.open_spaces:
                counts["passes with a space free"] += 1
        turns.append(state.turn)
    return counts, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--bots", default="greedy", help="the computer player in every seat")
    parser.add_argument("--versions", default="4,5", help="rules versions, comma-separated")
    args = parser.parse_args()
    for version in (int(v) for v in args.versions.split(",")):
        counts, turns = ends(version, args.games, args.seats, args.bots)
        said = ", ".join(f"{end} {count}" for end, count in sorted(counts.items()))
        print(f"rules {version}: {args.games} games of {args.seats} {args.bots}: {said}; "
              f"turns median {statistics.median(turns):g}, longest {max(turns)}")


if __name__ == "__main__":
    main()
