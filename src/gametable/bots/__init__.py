"""Computer players that act on views only: ``random`` and ``greedy``."""

from gametable.bots.base import Bot, bot_names, make_bot, register_bot

__all__ = ["Bot", "bot_names", "make_bot", "register_bot"]
