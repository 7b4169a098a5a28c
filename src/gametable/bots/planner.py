"""``planner``: the legal action the game's stronger rating (``plan_actions``) rates
highest, ties broken at random.

The ratings come from the game (:class:`gametable.core.protocol.HasPlanner`) and are
computed from the view alone; a game without them gets ``greedy`` play. It thinks for a
few milliseconds, where ``search`` thinks for a fraction of a second.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gametable.bots.base import register_bot, warn_plays_as_another
from gametable.bots.greedy import GreedyBot
from gametable.core.protocol import Action, CompletesActions, Game, HasPlanner, Observation


class PlannerBot:
    """Chooses the action with the best planned rating for the seat it plays.

    Warns:
        PlaysAsAnother: ``game`` has no planned ratings (no :class:`HasPlanner`: Dixit),
            so every decision goes to the ``greedy`` player. Made by
            :func:`~gametable.bots.base.make_bot` or a run, warned there once instead.
    """

    name = "planner"
    reads_only = True  # never changes the view or the legal actions it is given

    def __init__(self, game: Game[Any], rng: random.Random) -> None:
        if not isinstance(game, HasPlanner):
            warn_plays_as_another("planner", game, stacklevel=2)
        self.game = game
        self.rng = rng
        self.greedy = GreedyBot(game, rng)

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        if len(legal) == 1 or not isinstance(self.game, HasPlanner):
            return self.greedy.choose(view, legal)
        ratings = self.game.plan_actions(view, legal)
        best = max(ratings)
        choices = [a for a, r in zip(legal, ratings, strict=True) if r == best]
        chosen = choices[self.rng.randrange(len(choices))]
        if isinstance(self.game, CompletesActions):
            return self.game.complete_action(view, chosen, self.rng)
        return chosen


register_bot("planner", PlannerBot, plays=lambda game: isinstance(game, HasPlanner))
