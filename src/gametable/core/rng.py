"""Seeded chance. Every game draws all its randomness from one generator in its state.

The generator is CPython's ``random.Random`` (Mersenne Twister) seeded with the record's
seed. Shuffles use :func:`shuffle` below, whose algorithm is fixed by the record format
(``docs/records.md``) so that a record replays identically on every version.
"""

from __future__ import annotations

import operator
import random
from typing import Final, TypeVar

T = TypeVar("T")


SEEDS: Final = 2**63
"""Seeds are whole numbers from 0 to ``SEEDS - 1``: what a record can hold."""


def new_rng(seed: int) -> random.Random:
    """A generator seeded with ``seed`` (a game's: :func:`check_seed`; the states that
    search deals from a view may take any integer)."""
    return random.Random(seed)


def check_seed(seed: object) -> int:
    """``seed`` as a game's seed: a whole number from 0 to 2**63 − 1, what a record holds.

    Raises:
        ValueError: anything else (Python's generator would deal −1 as it deals 1, and
            take a string or a float).
    """
    if isinstance(seed, bool) or not hasattr(seed, "__index__") \
            or not 0 <= operator.index(seed) < SEEDS:
        raise ValueError(f"a seed is a whole number from 0 to 2**63 - 1, not {seed!r}")
    return operator.index(seed)


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle ``items`` in place (Fisher–Yates, from the end).

    For i = n−1 down to 1: j = ⌊rng.random() × (i + 1)⌋, then swap items i and j.
    """
    rand = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]
