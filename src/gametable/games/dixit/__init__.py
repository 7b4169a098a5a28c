"""Dixit: every variant (base 3–12 players, Party, Team) and edition (IS, EN, PT)."""

from gametable.games.dixit.rules import Dixit

DIXIT = Dixit()
"""The game object, registered as ``"dixit"``."""

__all__ = ["DIXIT", "Dixit"]
