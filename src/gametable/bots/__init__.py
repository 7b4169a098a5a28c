"""Computer players that act on views only: ``random``, ``greedy`` and ``semantic``."""

from gametable.bots.base import Bot, bot_names, make_bot, register_bot

__all__ = ["Bot", "bot_names", "make_bot", "register_bot"]
