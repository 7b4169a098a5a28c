"""Playing whole games between computer players, for the CLI, tests and benchmarks."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gametable.bots import make_bot
from gametable.core import registry
from gametable.core.config import stored_options
from gametable.core.protocol import Outcome
from gametable.core.records import GameRecord, SeatInfo, new_record

DEFAULT_MAX_ACTIONS = 100_000


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for a game seeded ``seed``."""
    return (seed * 1_000_003 + seat * 7_919 + 1) % 2**63


def play_bot_game(
    game_name: str,
    options: Mapping[str, Any] | None,
    bots: Sequence[str],
    seed: int,
    *,
    max_actions: int = DEFAULT_MAX_ACTIONS,
) -> tuple[GameRecord, Outcome]:
    """Play one game with ``bots[i]`` in seat ``i``; return its record and outcome.

    Seats with simultaneous decisions all choose from the same moment's views, then
    their actions are applied in seat order (a seat whose choices an earlier action of
    the batch changed chooses again). The game stops unfinished after
    ``max_actions`` actions.

    Raises:
        ConfigError: unknown game, invalid options or seat count.
        KeyError: an unknown bot name.
    """
    game = registry.get(game_name)
    config = game.make_config(options, len(bots))
    state = game.new_game(config, len(bots), seed)
    players = [make_bot(name, game, bot_seed(seed, seat)) for seat, name in enumerate(bots)]
    record = new_record(game_name, stored_options(config),
                        [SeatInfo(name=f"{name} {seat + 1}", bot=name)
                         for seat, name in enumerate(bots)], seed)
    actions = 0
    while actions < max_actions:
        seats = sorted(game.to_act(state))
        if not seats:
            break
        offered = {seat: game.legal_actions(state, seat) for seat in seats}
        choices = [(seat, players[seat].choose(game.view(state, seat), offered[seat]))
                   for seat in seats]
        for number, (seat, action) in enumerate(choices):
            # An earlier action of this batch may have changed what this seat can do
            # (a Team Dixit teammate named the giver): then it decides again next loop.
            if number and game.legal_actions(state, seat) != offered[seat]:
                continue
            game.apply(state, seat, action)
            record.append(seat, action)
            actions += 1
    return record, game.outcome(state)


@dataclass
class Summary:
    """Aggregated results of :func:`simulate` (the CLI's ``--json`` object)."""

    game: str
    games: int
    players: int
    seed: int
    bots: list[str]
    config: dict[str, Any]
    wins: dict[str, int]
    draws: int = 0
    unfinished: int = 0
    total_turns: int = 0
    total_rounds: int = 0
    total_actions: int = 0
    longest: dict[str, int] | None = None
    """The game with the most actions: ``{"seed", "actions", "turns"}``."""
    seconds: float = 0.0
    records: list[GameRecord] = field(default_factory=list, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The summary as the CLI prints it with ``--json`` (``mean_rounds`` only for a
        game whose outcomes count rounds, ``Outcome.rounds``)."""
        played = max(self.games, 1)
        result: dict[str, Any] = {
            "game": self.game,
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "bots": self.bots,
            "config": self.config,
            "wins": self.wins,
            "draws": self.draws,
            "unfinished": self.unfinished,
            "mean_turns": self.total_turns / played,
            "mean_actions": self.total_actions / played,
            "longest_game": self.longest,
            "seconds": round(self.seconds, 6),
            "games_per_second": self.games / self.seconds if self.seconds else 0.0,
            "actions_per_second": self.total_actions / self.seconds if self.seconds else 0.0,
        }
        if self.total_rounds:
            result["mean_rounds"] = self.total_rounds / played
        return result


def simulate(
    game_name: str,
    bots: Sequence[str],
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    progress: Callable[[int], None] | None = None,
    keep_records: bool = False,
) -> Summary:
    """Play ``games`` games; game ``i`` is seeded ``seed + i``.

    ``wins`` counts, for each seat labelled ``"<seat>:<bot>"``, the games it won (a
    team's win counts for every teammate). ``longest`` is the game with the most
    actions (the first of equals): its seed, actions and turns.
    """
    labels = [f"{seat}:{name}" for seat, name in enumerate(bots)]
    game = registry.get(game_name)
    config = game.make_config(options, len(bots))
    summary = Summary(game=game_name, games=games, players=len(bots), seed=seed,
                      bots=list(bots), config=stored_options(config),
                      wins=dict.fromkeys(labels, 0))
    start = time.perf_counter()
    for i in range(games):
        record, outcome = play_bot_game(game_name, options, bots, seed + i)
        if not outcome.finished:
            summary.unfinished += 1
        elif outcome.draw:
            summary.draws += 1
        for seat in outcome.winners:
            summary.wins[labels[seat]] += 1
        summary.total_turns += outcome.turns
        summary.total_rounds += len(outcome.rounds)
        summary.total_actions += len(record.actions)
        if summary.longest is None or len(record.actions) > summary.longest["actions"]:
            summary.longest = {"seed": seed + i, "actions": len(record.actions),
                               "turns": outcome.turns}
        if keep_records:
            summary.records.append(record)
        if progress is not None:
            progress(i + 1)
    summary.seconds = time.perf_counter() - start
    return summary
