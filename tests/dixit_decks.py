"""Test decks for Dixit: 252 described cards (``test-deck``) and 100 cards without
descriptions (``bare-deck``) under a temporary data dir. Request the ``test_deck``
fixture (autouse under ``tests/games/dixit``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from gametable import decks

TEST_DECK = "test-deck"
MOTIFS = ("whale", "lighthouse", "moon", "teacup", "key", "elephant", "feather", "clock",
          "boat", "tree", "owl", "ladder", "violin", "snail", "balloon", "castle", "fish",
          "umbrella", "bicycle", "crown", "cat", "mountain", "door", "candle")
SCENES = ("at dawn", "in the fog", "under the stars", "on a quiet sea", "in the desert")


def describe(n: int) -> str:
    """A description naming two motifs and a scene (card ``n`` of the test deck)."""
    first, second = MOTIFS[n % len(MOTIFS)], MOTIFS[(n * 7 + 3) % len(MOTIFS)]
    return f"A {first} and a {second} {SCENES[n % len(SCENES)]}."


@pytest.fixture(scope="session")
def deck_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("data")
    folder = root / "decks" / TEST_DECK
    folder.mkdir(parents=True)
    cards = [{"id": f"{n:03d}", "file": f"cards/{n:03d}.webp", "description": describe(n)}
             for n in range(252)]
    (folder / "manifest.json").write_text(json.dumps(
        {"id": TEST_DECK, "name": "Test deck", "cards": cards}), encoding="utf-8")
    bare = root / "decks" / "bare-deck"
    bare.mkdir()
    (bare / "manifest.json").write_text(json.dumps(
        {"id": "bare-deck", "name": "No descriptions",
         "cards": [{"id": str(n), "file": f"{n}.webp"} for n in range(100)]}),
        encoding="utf-8")
    return root


@pytest.fixture
def test_deck(deck_root: Path) -> Iterator[str]:
    """Make the test decks findable for one test (other tests configure their own)."""
    decks.configure(deck_root)
    yield TEST_DECK
    decks.configure(None)
