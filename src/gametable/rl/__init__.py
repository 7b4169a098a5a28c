"""Reinforcement-learning environments over the game protocol.

:class:`GameEnv` is a PettingZoo environment (every seat an agent);
:class:`BotTableEnv` a Gymnasium one (one seat learns, built-in computer players hold
the others). Both work for any game with an encoding
(:class:`~gametable.core.protocol.HasEncoding`: Sequence Cats and Triominos) and never
look at a game's name. They need the ``rl`` extra (PettingZoo and Gymnasium):
``pip install -e '.[rl]'`` in a checkout (the package is not on PyPI). See docs/rl.md.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        "gametable.rl needs PettingZoo and Gymnasium: pip install -e '.[rl]' in a "
        "checkout of gametable"
    ) from error

from typing import Any

from gametable.core.protocol import Game
from gametable.rl.aec import GameEnv, UnknownAgent, env
from gametable.rl.episode import Episode, NoEncoding, encodable_games, game_with_encoding
from gametable.rl.policy import Policy, PolicyBot
from gametable.rl.single import BotTableEnv


def gym_id(game: str | Game[Any]) -> str:
    """The Gymnasium id of :class:`BotTableEnv` for ``game`` (a name or the game):
    ``"gametable/SequenceCats-v0"`` for ``"sequence-cats"`` (``gymnasium.make(gym_id(game),
    opponents=…, seats=…)``).

    Raises:
        ConfigError: an unknown game name.
        NoEncoding: the game has no encoding, so no id is registered (Dixit).
    """
    return _id(game_with_encoding(game).name)


def _id(game: str) -> str:
    return "gametable/" + "".join(part.title() for part in game.split("-")) + "-v0"


def _register() -> None:
    """Register every game with an encoding with Gymnasium, once (importing this module
    again does not register twice)."""
    import gymnasium  # noqa: PLC0415

    for game in encodable_games():
        if _id(game) not in gymnasium.registry:
            gymnasium.register(_id(game), entry_point="gametable.rl.single:BotTableEnv",
                               kwargs={"game": game})


_register()

__all__ = ["BotTableEnv", "Episode", "GameEnv", "NoEncoding", "Policy", "PolicyBot",
           "UnknownAgent", "encodable_games", "env", "gym_id"]
