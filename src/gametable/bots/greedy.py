"""``greedy``: the legal action the game's heuristic rates highest, ties broken at random.

The ratings come from the game (``rate_actions(view, actions)``, see
:class:`gametable.core.protocol.HasHeuristic`) and are computed from the view alone.
A game without a heuristic gets random play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gametable.bots.base import register_bot
from gametable.core.protocol import Action, CompletesActions, Game, HasHeuristic, Observation


class GreedyBot:
    """Chooses the best-rated action for the seat it plays."""

    name = "greedy"
    reads_only = True  # never changes the view or the legal actions it is given

    def __init__(self, game: Game[Any], rng: random.Random) -> None:
        self.game = game
        self.rng = rng

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1 or not isinstance(self.game, HasHeuristic):
            chosen = legal[self.rng.randrange(len(legal))]
        else:
            ratings = self.game.rate_actions(view, legal)
            best = max(ratings)
            choices = [a for a, r in zip(legal, ratings, strict=True) if r == best]
            chosen = choices[self.rng.randrange(len(choices))]
        if isinstance(self.game, CompletesActions):
            return self.game.complete_action(view, chosen, self.rng)
        return chosen


register_bot("greedy", GreedyBot)
