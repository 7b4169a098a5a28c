"""Sequence Cats: rules, cards, board layouts and heuristics."""

from gametable.games.sequence_cats.cards import register_card_names
from gametable.games.sequence_cats.rules import SequenceCats

register_card_names()

SEQUENCE_CATS = SequenceCats()
"""The game object, registered as ``"sequence-cats"``."""

__all__ = ["SEQUENCE_CATS", "SequenceCats"]
