"""Sequence Cats cards: the 42 breeds, PURRR and MEOW (SC-COMP-1, SC-COMP-3).

Cards are small integers inside the engine: breed ``k`` (0–41, in the order of
SC-COMP-1), :data:`PURRR` (42) and :data:`MEOW` (43). Outside it they are the ids of
``data/cards.json`` (``"abyssinian"``, ``"purrr"``, ``"meow"``), which also holds each
card's name and one-line description in English, Icelandic, Norwegian and Portuguese, and
each breed's short form: a part of its name of four letters at most ("Abys", "Skóg"),
which the board shows where its spaces are too small for the whole name (a phone held
sideways).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final

_DATA: Final[dict[str, Any]] = json.loads(
    resources.files("gametable.games.sequence_cats")
    .joinpath("data/cards.json")
    .read_text("utf-8")
)

BREEDS: Final[tuple[str, ...]] = tuple(b["id"] for b in _DATA["breeds"])
"""The 42 breed ids in the order of SC-COMP-1."""

PURRR: Final = len(BREEDS)
"""PURRR: place a chip on any free space (SC-PURR-1)."""
MEOW: Final = len(BREEDS) + 1
"""MEOW: remove one opponent chip (SC-MEOW-1)."""

CARD_IDS: Final[tuple[str, ...]] = (*BREEDS, "purrr", "meow")
"""Card id by card number (0–43)."""
CARD_NUMBER: Final[dict[str, int]] = {name: i for i, name in enumerate(CARD_IDS)}
"""Card number by card id."""

COPIES_PER_BREED: Final = 2
COPIES_PER_SPECIAL: Final = 2
DECK_SIZE: Final = len(BREEDS) * COPIES_PER_BREED + 2 * COPIES_PER_SPECIAL
"""88 cards: two of each breed, two PURRR, two MEOW (SC-COMP-3)."""


def new_deck() -> list[int]:
    """The 88 card numbers of a full deck, unshuffled."""
    deck = [b for b in range(len(BREEDS)) for _ in range(COPIES_PER_BREED)]
    deck += [PURRR] * COPIES_PER_SPECIAL + [MEOW] * COPIES_PER_SPECIAL
    return deck


def card_texts() -> list[dict[str, Any]]:
    """Every card's id, names and descriptions by language (for clients and catalogs)."""
    return [dict(card) for card in (*_DATA["breeds"], *_DATA["specials"])]


def card_messages(language: str) -> dict[str, Any]:
    """Card names, breeds' short forms and descriptions nested as a catalog:
    ``sequence_cats.cards.<id>.name``, ``.short``, ``.description``."""
    cards = {card["id"]: {"name": card["name"][language],
                          **({"short": card["short"][language]} if "short" in card else {}),
                          "description": card["description"][language]}
             for card in card_texts()}
    return {"sequence_cats": {"cards": cards}}

