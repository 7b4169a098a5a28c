"""Triominos: tiles, lattice geometry, rules, scoring and heuristics."""

from gametable.games.triominos.rules import Triominos

TRIOMINOS = Triominos()
"""The game object, registered as ``"triominos"``."""

__all__ = ["TRIOMINOS", "Triominos"]
