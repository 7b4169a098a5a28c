"""``random``: a uniformly random legal action."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gametable.bots.base import register_bot
from gametable.core.protocol import Action, CompletesActions, Game, Observation


class RandomBot:
    """Plays a uniformly random legal action; works for every game."""

    name = "random"
    reads_only = True  # never changes the view or the legal actions it is given

    def __init__(self, game: Game[Any], rng: random.Random) -> None:
        self.game = game
        self.rng = rng

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        chosen = legal[self.rng.randrange(len(legal))]
        if isinstance(self.game, CompletesActions):
            return self.game.complete_action(view, chosen, self.rng)
        return chosen


register_bot("random", RandomBot)
