"""Games by name. The server, CLI and bots find every game here and nowhere else."""

from __future__ import annotations

import importlib
from typing import Any

from gametable.core.errors import ConfigError
from gametable.core.i18n import add_messages
from gametable.core.protocol import Game

_GAMES: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> Game[Any]:
    """Add ``game`` under ``game.name``; registering a name twice is an error.

    The texts the game ships with its data (``describe()["messages"]``, e.g. card names)
    join the translation catalogs, so that messages can cite them.
    """
    if game.name in _GAMES and _GAMES[game.name] is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _GAMES[game.name] = game
    for language, messages in game.describe().get("messages", {}).items():
        add_messages(language, messages)
    return game


def get(name: str) -> Game[Any]:
    """The game registered as ``name``.

    Raises:
        ConfigError: no such game (key ``errors.unknown_game``).
    """
    _load_builtin_games()
    try:
        return _GAMES[name]
    except KeyError:
        raise ConfigError(
            "PROTOCOL", "errors.unknown_game", game=name, games=", ".join(sorted(_GAMES))
        ) from None


def name_of(game: str | Game[Any]) -> str:
    """The registered name of ``game``: a game's name as it is, or a game object's.

    Raises:
        ConfigError: a name no game is registered under, or a game object that is not
            the registered one of its name (key ``errors.unknown_game``).
    """
    if isinstance(game, str):
        get(game)
        return game
    name = getattr(game, "name", None)
    if isinstance(name, str) and name in names() and get(name) is game:
        return name
    raise ConfigError("PROTOCOL", "errors.unknown_game", game=repr(game)[:60],
                      games=", ".join(names()))


def names() -> list[str]:
    """The registered game names, sorted."""
    _load_builtin_games()
    return sorted(_GAMES)


def _load_builtin_games() -> None:
    # Importing the package registers every bundled game (and it imports this module).
    importlib.import_module("gametable.games")
