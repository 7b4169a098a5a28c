"""Sequence Cats rollouts: how fast they play, and how the rollout policies compare.

Run: ``.venv/bin/python -m benchmarks.rollouts [--games 8000] [--seats 2] [--seed 1]
[--sequences 1]``

Plays ``--games`` whole games from the deal in the NumPy rollouts of
:mod:`gametable.games.sequence_cats.rollouts`, half with the measured policy in the first
seat (the other seats ``greedy``), half in the second, on the same deals, and prints for
each policy (``greedy`` itself, then ``CAREFUL``):

* its win rate against ``greedy`` with the 95 % Wilson interval;
* rollouts played per second on one core (whole games from the deal).

The games of ``greedy`` against itself check the rollouts: its rate should be near 50 %
(the first seat's edge cancels out over the two halves).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gametable.arena import wilson
from gametable.core import registry
from gametable.games.sequence_cats import rollouts
from gametable.games.sequence_cats.state import SequenceCatsState

POLICIES = {"greedy": rollouts.GREEDY, "careful": rollouts.CAREFUL}


def deals(seats: int, count: int, seed: int, sequences: int = 1
          ) -> list[SequenceCatsState]:
    """``count`` new games of ``seats`` seats, ``sequences`` to win (SC-WIN-2)."""
    game = registry.get("sequence-cats")
    config = game.make_config({"sequences_to_win": sequences}, seats)
    return [game.new_game(config, seats, seed * 1_000_003 + number)
            for number in range(count)]


def measure(policy: rollouts.Policy, seats: int, games: int, seed: int,
            sequences: int = 1) -> tuple[int, int, float]:
    """``(wins, games, seconds)`` of ``policy`` in one seat against ``greedy``."""
    states = deals(seats, games // 2, seed, sequences)
    wins = 0
    played = 0
    started = time.perf_counter()
    for mine in (0, 1):
        policies = [rollouts.GREEDY] * seats
        policies[mine] = policy
        team = states[0].team_of[mine]
        winners = rollouts.play_out(states, np.random.default_rng(seed + mine),
                                    policies=policies)
        wins += int((winners == team).sum())
        played += len(states)
    return wins, played, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=8000)
    parser.add_argument("--seats", type=int, default=2, choices=[2, 3, 4, 6])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sequences", type=int, default=1, choices=[1, 2, 3],
                        help="sequences to win (SC-WIN-2)")
    args = parser.parse_args()
    print(f"Sequence Cats rollouts, {args.seats} seats, {args.sequences} sequence(s) "
          f"to win, {args.games} games per policy "
          "(the policy in one seat, greedy in the others, seats alternating)")
    for name, policy in POLICIES.items():
        wins, played, seconds = measure(policy, args.seats, args.games, args.seed,
                                        args.sequences)
        low, high = wilson(wins, played)
        print(f"  {name:8s} wins {wins}/{played}: {wins / played:.1%} "
              f"(95 % {low:.1%}–{high:.1%}); {played / seconds:,.0f} rollouts/s")


if __name__ == "__main__":
    main()
