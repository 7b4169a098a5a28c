"""``semantic``: the game's own strong player where it has one, else ``greedy``.

Dixit's (:mod:`gametable.games.dixit.semantic`) compares the meanings of clues and card
descriptions with a multilingual sentence-embedding model that ships inside a package and
is loaded once per process. Like every bot it sees only the seat's view and the legal
actions. ``temperature`` sets its strength: ``None`` is the game's strongest setting,
larger values play more loosely (an easier opponent).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from gametable.bots.base import register_bot, warn_plays_as_another
from gametable.bots.greedy import GreedyBot
from gametable.core.protocol import Action, Game, HasStrategy, Observation, StrategyPlayer


class SemanticBot:
    """Plays with the game's strategy player (:class:`HasStrategy`), or greedily.

    Warns:
        PlaysAsAnother: ``game`` has no strategy player (no :class:`HasStrategy`:
            Sequence Cats, Triominos), so every decision goes to the ``greedy`` player.
            Made by :func:`~gametable.bots.base.make_bot` or a run, warned there once
            instead.
    """

    name = "semantic"
    reads_only = True  # never changes the view or the legal actions it is given

    def __init__(self, game: Game[Any], rng: random.Random,
                 temperature: float | None = None) -> None:
        self.game = game
        self.player: StrategyPlayer | None = None
        self.fallback: GreedyBot | None = None
        if isinstance(game, HasStrategy):
            self.player = game.strategy_player(rng, temperature)
        else:
            warn_plays_as_another("semantic", game, stacklevel=2)
            self.fallback = GreedyBot(game, rng)

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        if self.player is not None:
            return self.player.choose(view, legal)
        assert self.fallback is not None
        return self.fallback.choose(view, legal)


register_bot("semantic", SemanticBot, plays=lambda game: isinstance(game, HasStrategy))
