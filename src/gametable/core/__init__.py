"""Game-agnostic core: the protocol, errors, records and replay, the game registry."""

from gametable.core.errors import ConfigError, GameError, IllegalAction
from gametable.core.protocol import Action, Event, Game, Observation, Outcome, Seat

__all__ = [
    "Action",
    "ConfigError",
    "Event",
    "Game",
    "GameError",
    "IllegalAction",
    "Observation",
    "Outcome",
    "Seat",
]
