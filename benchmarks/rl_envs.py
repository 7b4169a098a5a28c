"""The reinforcement-learning environments: how fast they step, and how often an
encoding cannot number a legal action.

Run: ``.venv/bin/python -m benchmarks.rl_envs [--seconds 10] [--seed 1]``

For each game with an encoding (Sequence Cats, Triominos), two seats:

* ``GameEnv`` (PettingZoo): every seat plays a random legal number from its mask;
  prints agent steps a second (an observation, a mask and an action each) and games.
* ``BotTableEnv`` (Gymnasium) against ``greedy``: the learner plays a random legal
  number; prints learner steps a second (the bot's turns included in the time) and the
  random learner's win rate.
* how many decisions had a legal action without a catalogue number (Triominos: a
  placement outside the encoded window), out of all decisions seen.

Figures are wall-clock on one core; nothing else should run beside it.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gametable.arena import wilson
from gametable.rl import BotTableEnv, GameEnv, encodable_games


def measure_aec(game: str, seconds: float, seed: int) -> tuple[float, int, int, int]:
    """Random play in :class:`GameEnv` for ``seconds``: steps a second, games, decisions,
    decisions with a legal action left out of the mask."""
    rng = np.random.default_rng(seed)
    env = GameEnv(game, 2)
    steps = games = decisions = gaps = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        env.reset(seed=seed + games)
        for agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            decisions += 1
            gaps += env.episode.decision(env._seat_of[agent]).unencodable > 0
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        games += 1
    return steps / (time.perf_counter() - started), games, decisions, gaps


def measure_single(game: str, seconds: float, seed: int) -> tuple[float, int, int]:
    """A random learner against ``greedy`` in :class:`BotTableEnv` for ``seconds``:
    learner steps a second, games, wins."""
    rng = np.random.default_rng(seed)
    env = BotTableEnv(game, "greedy", seat=None)
    steps = games = wins = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        obs, _info = env.reset(seed=seed + games)
        done = False
        reward = 0.0
        while not done:
            obs, reward_, terminated, truncated, _info = env.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            reward = float(reward_)
            steps += 1
            done = terminated or truncated
        games += 1
        wins += reward > 0
    return steps / (time.perf_counter() - started), games, wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="seconds of play per game and environment (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game in encodable_games():
        rate, games, decisions, gaps = measure_aec(game, args.seconds, args.seed)
        print(f"{game}: GameEnv (PettingZoo), random seats: {rate:,.0f} agent steps/s, "
              f"{games} games; decisions with a legal action outside the catalogue: "
              f"{gaps} of {decisions:,}")
        rate, games, wins = measure_single(game, args.seconds, args.seed)
        low, high = wilson(wins, games)
        print(f"{game}: BotTableEnv (Gymnasium) against greedy: {rate:,.0f} learner "
              f"steps/s, {games} games; a random learner won {wins} "
              f"({100 * wins / max(games, 1):.1f} %, 95 %: {100 * low:.1f}–{100 * high:.1f} %)")


if __name__ == "__main__":
    main()
