"""Where computer players decide at the server, and what happens when one fails.

Decisions run in threads of their own, a few at once (:class:`Deciders`), never on the
event loop's default pool, which storage reads, the caps' counts and ``/readyz`` use:
many busy ``hard`` players, or one that hangs, no longer hold those up.

A decision that raises, or has run longer than :data:`DECISION_SECONDS`, is a failure
(:class:`DecisionFailed`); so is an action the rules refuse, and a decision asked of a
player whose last one timed out and still runs. The seat then plays the ``greedy``
player's choice from the same view for that decision (:func:`fallback_action`: the
``medium`` level in Sequence Cats and Triominos, a few milliseconds; a random legal
action should that fail too), the failure is logged with the seat, the player and the
reason, and the game goes on: a table never waits for good on a computer player. A
thread that hangs is left to itself (Python cannot stop it); its result, should it come,
is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import threading
from collections.abc import Sequence
from typing import Any, Final, cast

from gametable.bots.base import Bot
from gametable.bots.greedy import GreedyBot
from gametable.bots.random_bot import RandomBot
from gametable.core.actions import copy_actions
from gametable.core.protocol import Action, Game, Observation
from gametable.core.values import json_copy

log = logging.getLogger("gametable.tables")

DECISION_SECONDS: Final = 30.0
"""A computer player still deciding after this many seconds (counted from the moment it
began, not while it waited for a free slot) has failed that decision. Far above any
bundled player's budget (``hard``: about half a second; loading Dixit's language model
the first time: a few seconds)."""


def decider_threads() -> int:
    """Decisions running at once: twice the machine's cores, at least 4 and at most 16.
    A searching player thinks for a set time, not a set amount of work, so a decision
    waiting for a slot waits longer than one sharing the cores (``benchmarks/
    bot_load.py`` measures it)."""
    return max(4, min(16, 2 * (os.cpu_count() or 2)))


class DecisionFailed(Exception):
    """A computer player's decision failed: ``reason`` is ``"raised"`` (the exception is
    the cause), ``"timed_out"``, ``"busy"`` (its decision before, which timed out, is
    still running) or ``"refused"`` (the rules refused its action)."""

    def __init__(self, reason: str, detail: str) -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason}: {detail}")


class Deciders:
    """Runs computer players' decisions, each in a daemon thread of its own, at most
    ``threads`` at once.

    A decision that times out gives its slot back at once (its thread runs on,
    abandoned, and its result is dropped), so players that hang never use up the slots
    of the others; and a player whose abandoned decision still runs is not asked again
    until it ends (``busy``), so one object is never in two decisions at once and a
    player that hangs holds one thread, not one a turn. Daemon threads do not keep the
    process from exiting.

    Args:
        threads: decisions running at once (default :func:`decider_threads`).
        seconds: :data:`DECISION_SECONDS`, smaller in tests.
    """

    def __init__(self, threads: int | None = None, *,
                 seconds: float = DECISION_SECONDS) -> None:
        self.threads = threads or decider_threads()
        self.seconds = seconds
        self._slots: asyncio.Semaphore | None = None
        self._busy: set[int] = set()
        """``id`` of each player whose decision runs now (an abandoned one's too)."""

    async def decide(self, bot: Bot, view: Observation, legal: Sequence[Action]) -> Action:
        """``bot.choose(view, legal)`` in a thread, once a slot is free.

        Raises:
            DecisionFailed: it raised (``raised``, the exception chained), ran longer
                than :attr:`seconds` (``timed_out``), or its decision before still runs
                (``busy``).
            asyncio.CancelledError: the waiting was cancelled (the decision runs on,
                abandoned, and keeps its slot until it ends or its time would have run
                out: cancelling many decisions, as dealing again does, never runs more
                of them at once than the slots).
        """
        if id(bot) in self._busy:
            raise DecisionFailed("busy", "its decision before, which took too long, "
                                 "still runs")
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.threads)
        slots = self._slots
        await slots.acquire()
        held = [True]

        def give_back() -> None:
            if held[0]:
                held[0] = False
                slots.release()

        loop = asyncio.get_running_loop()
        done: asyncio.Future[Action] = loop.create_future()

        def ended(result: Action | None, error: BaseException | None) -> None:
            self._busy.discard(id(bot))
            give_back()
            if done.done():
                return  # abandoned: the result is dropped
            if error is not None:
                done.set_exception(error)
            else:
                done.set_result(cast(Action, result))

        def run() -> None:
            try:
                result, error = bot.choose(view, legal), None
            except BaseException as raised:  # handed to the event loop
                result, error = None, raised
            with contextlib.suppress(RuntimeError):  # the event loop is gone (stopped)
                loop.call_soon_threadsafe(ended, result, error)

        self._busy.add(id(bot))
        began = loop.time()
        keep = False  # the slot stays with a cancelled decision's thread
        try:
            threading.Thread(target=run, name="decide", daemon=True).start()
            try:
                return await asyncio.wait_for(asyncio.shield(done), self.seconds)
            except TimeoutError:
                done.cancel()
                raise DecisionFailed("timed_out",
                                     f"still deciding after {self.seconds:g} s") from None
        except DecisionFailed:
            raise
        except asyncio.CancelledError:
            done.cancel()
            keep = True
            loop.call_later(max(0.0, self.seconds - (loop.time() - began)), give_back)
            raise
        except Exception as error:
            raise DecisionFailed("raised", f"{type(error).__name__}: {error}") from error
        finally:
            if not keep:
                give_back()

    def close(self) -> None:
        """Nothing to stop: decision threads are daemons, and end with the process."""


def fallback_action(game: Game[Any], view: Observation, legal: Sequence[Action],
                    careful: bool = True) -> Action:
    """The action a seat plays in place of a failed decision, chosen from ``view`` and
    ``legal`` with chance of its own (never the table's).

    With ``careful`` (the first fallback of a decision), the ``greedy`` player's choice:
    the legal action the game's heuristic rates highest (a few milliseconds), so that a
    player that fails every decision still plays sensibly. Should the heuristic raise,
    and without ``careful`` (the rules refused the careful choice too), the ``random``
    player's: a uniformly random legal action, completed as the game completes actions.

    Raises:
        IndexError: ``legal`` is empty.
    """
    if careful:
        try:
            return GreedyBot(game, random.Random()).choose(json_copy(view),
                                                           copy_actions(legal))
        except Exception:
            log.exception("the fallback's heuristic failed; a random legal action is "
                          "played instead")
    return RandomBot(game, random.Random()).choose(view, legal)
