"""Computer players that act on views only: the levels ``easy``, ``medium`` and ``hard``,
and the players they seat (``random``, ``greedy``, ``planner``, ``semantic``, ``search``,
``rollout``)."""

from gametable.bots.base import Bot, UnknownBot, bot_names, make_bot, register_bot

__all__ = ["Bot", "UnknownBot", "bot_names", "make_bot", "register_bot"]
