"""Sequence Cats: rules, cards, board layouts and heuristics."""

from gametable.games.sequence_cats.rules import SequenceCats

SEQUENCE_CATS = SequenceCats()
"""The game object, registered as ``"sequence-cats"``."""

__all__ = ["SEQUENCE_CATS", "SequenceCats"]
