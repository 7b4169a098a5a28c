"""How long a computer player at a table seems to think before it acts.

People need time to follow what a computer player does, and an answer that comes at the
same instant every time feels mechanical. A table waits :func:`think_time` before each
decision of a computer player: longer when there is more to choose from, never the same
twice.
"""

from __future__ import annotations

import math
import random
from typing import Final

QUICKEST: Final = 0.6
"""The factor of the table's bot delay for a decision with one option."""

SLOWEST: Final = 1.75
"""The largest factor, reached at about 12 options."""

JITTER: Final = (0.8, 1.25)
"""The range of the random factor applied on top."""


def think_time(delay: float, options: int, rng: random.Random) -> float:
    """Seconds to wait before deciding among ``options`` legal actions.

    Args:
        delay: the table's bot delay in seconds (0 or less: no waiting, as in tests and
            simulations).
        options: how many legal actions there are (at least 1).
        rng: where the jitter comes from (not the game's generator: waiting never
            changes a game).

    Returns:
        ``delay × min(SLOWEST, QUICKEST + 0.33·log2(options)) × jitter``, in seconds: for
        a 0.8 s delay, about 0.4–0.6 s for a forced move and 1.1–1.75 s for a choice
        among a dozen or more.
    """
    if delay <= 0:
        return 0.0
    factor = min(SLOWEST, QUICKEST + 0.33 * math.log2(max(1, options)))
    return delay * factor * rng.uniform(*JITTER)
