"""How long a computer player at a table seems to think before it acts.

People need time to follow what a computer player does, and an answer that comes at the
same instant every time feels mechanical. A table waits :func:`think_time` before each
decision of a computer player, never the same twice.

The wait depends on nothing but the table's bot delay and chance: never on the seat's
cards. A wait that grew with the number of legal actions told everyone watching how many
the hidden hand allowed (a quick move: a Triominos hand that fits nowhere, a Sequence
Cats hand without PURRR or MEOW). The decision runs during the wait, and the default
search budgets (0.5 s a move) end before its shortest (0.72 s at the default 0.8 s
delay), so how long a decision took does not show either.
"""

from __future__ import annotations

import random
from typing import Final

JITTER: Final = (0.9, 1.3)
"""The range of the random factor of the table's bot delay."""


def think_time(delay: float, rng: random.Random) -> float:
    """Seconds a computer player waits before its move is played.

    Args:
        delay: the table's bot delay in seconds (0 or less: no waiting, as in tests and
            simulations).
        rng: where the jitter comes from (not the game's generator: waiting never
            changes a game).

    Returns:
        ``delay × jitter``, jitter uniform in :data:`JITTER`: for a 0.8 s delay,
        0.72–1.04 s. Nothing about the seat's hand goes in (see the module docstring).
    """
    if delay <= 0:
        return 0.0
    return delay * rng.uniform(*JITTER)
