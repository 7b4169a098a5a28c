"""Every Dixit rules test can use the test decks."""

from __future__ import annotations

import pytest

from tests.dixit_decks import TEST_DECK, deck_root, describe, test_deck

__all__ = ["TEST_DECK", "deck_root", "describe", "test_deck"]


@pytest.fixture(autouse=True)
def _decks(test_deck: str) -> str:
    return test_deck
