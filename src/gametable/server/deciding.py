"""Where computer players decide at the server, and what happens when one fails.

Decisions run on a thread pool of their own (:class:`Deciders`), never on the event
loop's default pool, which storage reads, the caps' counts and ``/readyz`` use: many
busy ``hard`` players, or one that hangs, no longer hold those up.

A decision that raises, or has run longer than :data:`DECISION_SECONDS`, is a failure
(:class:`DecisionFailed`); so is an action the rules refuse. The seat then plays a
random legal action for that decision (:func:`fallback_action`, the ``random`` player's
choice from the same view), the failure is logged with the seat and the reason, and the
game goes on: a table never waits for good on a computer player. A thread that hangs
is left to itself (Python cannot stop it); its result, should it come, is dropped.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

from gametable.bots.base import Bot
from gametable.bots.random_bot import RandomBot
from gametable.core.protocol import Action, Game, Observation

DECISION_SECONDS: Final = 30.0
"""A computer player still deciding after this many seconds (counted from the moment it
began, not while it waited for a thread) has failed that decision. Far above any bundled
player's budget (``hard``: about half a second; loading Dixit's language model the first
time: a few seconds)."""
QUEUED_SECONDS: Final = 120.0
"""A decision that could not even begin within this many seconds (every decision thread
busy with players that hang) has failed too."""
POLL_SECONDS: Final = 0.5
"""How often a waiting decision checks its time."""


def decider_threads() -> int:
    """Threads for decisions: twice the machine's cores, at least 4 and at most 16. A
    searching player thinks for a set time, not a set amount of work, so a decision
    waiting for a thread waits longer than one sharing the cores (``benchmarks/
    bot_load.py`` measures it)."""
    return max(4, min(16, 2 * (os.cpu_count() or 2)))


class DecisionFailed(Exception):
    """A computer player's decision failed: ``reason`` is ``"raised"`` (the exception is
    the cause), ``"timed_out"`` or ``"refused"`` (the rules refused its action)."""

    def __init__(self, reason: str, detail: str) -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason}: {detail}")


class Deciders:
    """A thread pool for computer players' decisions.

    Args:
        threads: the pool's size (default :func:`decider_threads`).
        seconds: :data:`DECISION_SECONDS`, smaller in tests.
        queued_seconds: :data:`QUEUED_SECONDS`, smaller in tests.
    """

    def __init__(self, threads: int | None = None, *, seconds: float = DECISION_SECONDS,
                 queued_seconds: float = QUEUED_SECONDS) -> None:
        self.pool = ThreadPoolExecutor(max_workers=threads or decider_threads(),
                                       thread_name_prefix="decide")
        self.seconds = seconds
        self.queued_seconds = queued_seconds

    async def decide(self, bot: Bot, view: Observation, legal: Sequence[Action]) -> Action:
        """``bot.choose(view, legal)`` on the pool.

        Raises:
            DecisionFailed: it raised (``raised``, the exception chained), or ran longer
                than :attr:`seconds`, or could not begin within :attr:`queued_seconds`
                (``timed_out``).
            asyncio.CancelledError: the waiting was cancelled (the decision thread runs
                on; its result is dropped).
        """
        began: list[float] = []

        def choose() -> Action:
            began.append(time.perf_counter())
            return bot.choose(view, legal)

        asked = time.perf_counter()
        future = asyncio.get_running_loop().run_in_executor(self.pool, choose)
        while True:
            done, _ = await asyncio.wait({future}, timeout=POLL_SECONDS)
            if done:
                break
            now = time.perf_counter()
            if began and now - began[0] > self.seconds:
                future.add_done_callback(_drop)
                raise DecisionFailed("timed_out", f"still deciding after {self.seconds:g} s")
            if not began and now - asked > self.queued_seconds:
                future.add_done_callback(_drop)
                raise DecisionFailed("timed_out", "no thread free to decide in "
                                     f"{self.queued_seconds:g} s")
        try:
            return future.result()
        except Exception as error:
            raise DecisionFailed("raised", f"{type(error).__name__}: {error}") from error

    def close(self) -> None:
        """Stop taking decisions (queued ones are dropped; running ones end by
        themselves)."""
        self.pool.shutdown(wait=False, cancel_futures=True)


def _drop(future: asyncio.Future[Any]) -> None:
    """Read a dropped decision's result, so that its exception is not reported as never
    retrieved."""
    if not future.cancelled():
        future.exception()


def fallback_action(game: Game[Any], view: Observation, legal: Sequence[Action]) -> Action:
    """The action a seat plays in place of a failed decision: the ``random`` player's
    choice from ``view`` and ``legal`` (a uniformly random legal action, completed as the
    game completes actions), with chance of its own (never the table's).

    Raises:
        IndexError: ``legal`` is empty.
    """
    return RandomBot(game, random.Random()).choose(view, legal)
