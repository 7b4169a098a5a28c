"""Seeded chance. Every game draws all its randomness from one generator in its state.

The generator is CPython's ``random.Random`` (Mersenne Twister) seeded with the record's
seed. Shuffles use :func:`shuffle` below, whose algorithm is fixed by the record format
(``docs/records.md``) so that a record replays identically on every version.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def new_rng(seed: int) -> random.Random:
    """A generator seeded with ``seed`` (0 ≤ seed < 2**63)."""
    return random.Random(seed)


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle ``items`` in place (Fisher–Yates, from the end).

    For i = n−1 down to 1: j = ⌊rng.random() × (i + 1)⌋, then swap items i and j.
    """
    rand = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]
