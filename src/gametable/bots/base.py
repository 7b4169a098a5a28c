"""The computer-player interface.

A bot sees exactly what a player sees: the seat's ``view`` and its legal actions. It
never receives a state. Bots are made by name (:func:`make_bot`) so that a table, the
CLI and the simulations can seat any of them in any game.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol

from gametable.core.protocol import Action, Game, Observation


class Bot(Protocol):
    """A computer player for one seat."""

    name: str

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` (never empty) knowing only ``view``."""
        ...


LEVELS: Final = ("easy", "medium", "hard")
"""The level names (:mod:`gametable.bots.levels`), weakest first."""

BotFactory = Callable[[Game[Any], random.Random], Bot]
_FACTORIES: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``name`` available to :func:`make_bot`."""
    _FACTORIES[name] = factory


def bot_factory(name: str) -> BotFactory | None:
    """The factory registered as ``name``, or ``None``."""
    _load_builtin_bots()
    return _FACTORIES.get(name)


def bot_names() -> list[str]:
    """The bot names that can be seated: the levels (weakest first), then the others
    sorted."""
    _load_builtin_bots()
    levels = [name for name in LEVELS if name in _FACTORIES]
    return levels + sorted(name for name in _FACTORIES if name not in LEVELS)


def make_bot(name: str, game: Game[Any], seed: int) -> Bot:
    """A bot called ``name`` for ``game``, drawing its own randomness from ``seed``.

    Raises:
        KeyError: no bot has that name (the message lists the available ones).
    """
    _load_builtin_bots()
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise KeyError(f"no bot called {name!r}; choose one of {', '.join(bot_names())}") \
            from None
    return factory(game, random.Random(seed))


BUILTIN_BOTS = ("gametable.bots.random_bot", "gametable.bots.greedy",
                "gametable.bots.semantic", "gametable.bots.planner", "gametable.bots.search",
                "gametable.bots.rollout",
                "gametable.bots.levels")


def _load_builtin_bots() -> None:
    # Imported on first use: each bot module registers itself and imports this one.
    for module in BUILTIN_BOTS:
        importlib.import_module(module)
