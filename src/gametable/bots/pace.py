"""How long a computer player at a table seems to think before it acts.

People need time to follow what a computer player does, and an answer that comes at the
same instant every time feels mechanical. A table waits :func:`think_time` before each
decision of a computer player, never the same twice.

The wait depends on nothing but the table's bot delay and chance: never on the seat's
cards. A wait that grew with the number of legal actions told everyone watching how many
the hidden hand allowed (a quick move: a Triominos hand that fits nowhere, a Sequence
Cats hand without PURRR or MEOW). The decision runs during the wait, and a player with
a thinking budget (the search players' 0.5 s a move) waits at least that budget plus
:data:`MARGIN` whatever the table's bot delay, so how long a decision took does not show
either, and the move does not come sooner when the hand leaves little to think about
(one legal action is answered at once).
"""

from __future__ import annotations

import random
from typing import Final

JITTER: Final = (0.9, 1.3)
"""The range of the random factor of the table's bot delay."""

MARGIN: Final = 0.3
"""Seconds added to a player's thinking budget for the wait's floor: a budget is checked
between batches of work, so a decision may run over it a little (p99 about 0.1 s over
0.5 s on a busy 2-core machine)."""


def think_time(delay: float, rng: random.Random, thinking: float = 0.0) -> float:
    """Seconds a computer player waits before its move is played.

    Args:
        delay: the table's bot delay in seconds (0 or less: no waiting, as in tests and
            simulations).
        rng: where the jitter comes from (not the game's generator: waiting never
            changes a game).
        thinking: the player's thinking budget in seconds
            (:func:`gametable.bots.base.thinking_budget`; 0 for players that answer in
            milliseconds). It depends on the kind of player only, never on its cards.

    Returns:
        ``max(delay, (thinking + MARGIN) / 0.9) × jitter``, jitter uniform in
        :data:`JITTER` (from 0.9): never less than ``thinking + MARGIN``, so a decision
        that runs a little over its budget still ends inside the wait. For a 0.8 s
        delay, 0.72–1.04 s, or 0.80–1.16 s for a `hard` player (0.5 s budget); for a
        0.2 s delay, 0.18–0.26 s, or 0.80–1.16 s for a `hard` player. Nothing about the
        seat's hand goes in (see the module docstring).
    """
    if delay <= 0:
        return 0.0
    floor = (thinking + MARGIN) / JITTER[0] if thinking > 0 else 0.0
    return max(delay, floor) * rng.uniform(*JITTER)
