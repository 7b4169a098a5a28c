"""Levels people understand: ``easy``, ``medium`` and ``hard`` for every game.

Each level seats the game's computer player of that strength, chosen by what the game
can do (never by its name):

========  =====================================  ===================================
level     game with ``SamplesHidden``            game with ``HasStrategy``
========  =====================================  ===================================
hard      ``rollout`` where the game also has    ``semantic`` at its strongest
          ``HasRollouts``, else ``search``
          (information-set search)
medium    ``greedy`` (the best-rated move)       ``semantic``, temperature 1.0
easy      ``greedy`` half the time, else random  ``semantic``, temperature 3.0
========  =====================================  ===================================

(the capabilities of :mod:`gametable.core.protocol`). A game with neither plays ``greedy``
at ``hard`` and ``medium`` and the half-random player at ``easy``.
``gametable arena GAME --bots hard,medium,easy`` measures the steps.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from gametable.bots.base import LEVELS, Bot, bot_factory, reads_only, register_bot
from gametable.bots.greedy import GreedyBot
from gametable.bots.semantic import SemanticBot
from gametable.core.protocol import (
    Action,
    Game,
    HasConventions,
    HasRollouts,
    HasStrategy,
    Observation,
    SamplesHidden,
)

MEDIUM_TEMPERATURE: Final = 1.0
"""The strategy player's temperature at ``medium`` (fit units; larger plays looser)."""

EASY_TEMPERATURE: Final = 3.0
"""The strategy player's temperature at ``easy``."""

EASY_MISTAKES: Final = 0.5
"""How often (0–1) the ``easy`` player of a game without a strategy player moves at random."""


SIDE_ACTIONS = frozenset({"draw", "pass", "exchange"})
"""Actions that place nothing, which :meth:`HalfRandomBot.mistake` leaves to the greedy
half while something can be placed."""


class HalfRandomBot:
    """Plays a beginner's move (:meth:`mistake`) with probability :data:`EASY_MISTAKES`,
    else greedily; a decision the table has a rule for (:class:`HasConventions`) by the
    rule."""

    name = "easy"
    reads_only = True  # never changes the view or the legal actions it is given

    def __init__(self, game: Game[Any], rng: random.Random) -> None:
        self.rng = rng
        self.game = game
        self.greedy = GreedyBot(game, rng)

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        if isinstance(self.game, HasConventions):
            agreed = self.game.convention(view, legal)
            if agreed is not None:  # no mistake here: the table was told the rule
                return agreed
        if self.rng.random() < EASY_MISTAKES:
            return self.mistake(legal)
        return self.greedy.choose(view, legal)

    def mistake(self, legal: Sequence[Action]) -> Action:
        """A beginner's move: a card or tile of the hand taken at random, played at a
        random place it may go; a draw, pass or exchange only when nothing else is
        legal. (A random legal action was mostly a PURRR, one action per free space, or
        a Triominos draw or pass beside a tile that could be placed.)"""
        moves = [a for a in legal if a.get("type") not in SIDE_ACTIONS] or list(legal)
        groups: dict[str, list[Action]] = {}
        for action in moves:
            what = action.get("card", action.get("tile", action.get("type")))
            groups.setdefault(str(what), []).append(action)
        return self.rng.choice(groups[self.rng.choice(sorted(groups))])


class LevelBot:
    """A level's player: ``name`` is the level, ``player`` the bot that plays it."""

    def __init__(self, name: str, player: Bot) -> None:
        self.name = name
        self.player = player

    @property
    def reads_only(self) -> bool:
        """Whether the player it seats reads only (:func:`gametable.bots.base.reads_only`)."""
        return reads_only(self.player)

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        return self.player.choose(view, legal)


def plays_as(level: str, game: Game[Any]) -> str | None:
    """The registered bot that ``level`` seats unchanged in ``game`` (``"rollout"`` for
    ``hard`` in Sequence Cats, ``"greedy"`` for ``medium`` there), or ``None`` where the
    level plays a player of its own (a strategy player's temperature, the half-random
    ``easy``). The lobby says so beside both names, which seat one and the same player."""
    if level == "hard":
        if isinstance(game, SamplesHidden):
            search = "rollout" if isinstance(game, HasRollouts) else "search"
            if bot_factory(search) is not None:
                return search
        return "semantic" if isinstance(game, HasStrategy) else "greedy"
    if level == "medium" and not isinstance(game, HasStrategy):
        return "greedy"
    return None


def level_players(game: Game[Any]) -> dict[str, str]:
    """Each level of ``game`` that seats a registered bot unchanged, with that bot's name
    (:func:`plays_as`): ``{"hard": "rollout", "medium": "greedy"}`` in Sequence Cats."""
    return {level: name for level in LEVELS
            if (name := plays_as(level, game)) is not None}


def level_of(bot: str, game: Game[Any]) -> str | None:
    """The level that is ``bot`` under another name in ``game`` (``"hard"`` for
    ``"rollout"`` in Sequence Cats; the stronger where two levels seat it), or ``None``:
    the pages call such a seat "Simulator 3 · Hard" (:func:`gametable.bots.base.seat_name`)."""
    if bot in LEVELS:
        return None
    named = [level for level, name in level_players(game).items() if name == bot]
    return named[-1] if named else None


def _hard(game: Game[Any], rng: random.Random) -> Bot:
    name = plays_as("hard", game)
    factory = bot_factory(name) if name is not None else None
    if factory is None:  # (plays_as names only registered bots)
        return LevelBot("hard", GreedyBot(game, rng))
    return LevelBot("hard", factory(game, rng))


def _medium(game: Game[Any], rng: random.Random) -> Bot:
    if isinstance(game, HasStrategy):
        return LevelBot("medium", SemanticBot(game, rng, temperature=MEDIUM_TEMPERATURE))
    return LevelBot("medium", GreedyBot(game, rng))


def _easy(game: Game[Any], rng: random.Random) -> Bot:
    if isinstance(game, HasStrategy):
        return LevelBot("easy", SemanticBot(game, rng, temperature=EASY_TEMPERATURE))
    return LevelBot("easy", HalfRandomBot(game, rng))


register_bot("hard", _hard)
register_bot("medium", _medium)
register_bot("easy", _easy)
