"""``rollout``: Monte Carlo rollouts of the best-rated moves over the game's determinizations.

A rollout algorithm (Tesauro & Galperin 1996, "On-line policy improvement using
Monte-Carlo search", NIPS 9; Bertsekas, "Rollout algorithms", 1997) over information
sets: the ``width`` moves the game's planned ratings (:class:`HasPlanner`) rate highest
are each tried on the same *determinizations* — full states the seat's view could have
come from, every card it cannot see dealt at random — and every determinization is played
on to the end by the game's quick heuristic for every seat (:class:`HasRollouts`, which
deals them too, many at once). A move's value is the mean of the seat's rewards
(1 a win, 0.5 a draw or an unfinished rollout, 0 a loss). Playing the best value improves
on the heuristic that plays the rollouts, and comparing the moves on the same deals
(common random numbers) lets a few hundred deals tell them apart.

Deals come in batches; after :data:`MIN_BATCHES` batches a move ``prune`` standard
errors (of the paired differences) behind the best is dropped. The move played is the
best value unless it leads the planned ratings' favourite by less than ``confidence``
standard errors, then the favourite. A move stops after ``seconds`` or ``deals``
determinizations, whichever comes first. Decisions the game cannot roll out (its
:meth:`~HasRollouts.rollouts` answers ``None``) go to the ``search`` player; one legal
action is played at once. With ``infer`` the determinizations deal the other hand by what
the other seat's plays so far say of it (Sequence Cats:
:mod:`gametable.games.sequence_cats.inference`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any, Final

from gametable.bots.base import fallbacks_warned, register_bot, warn_plays_as_another
from gametable.bots.search import SearchBot, paired_lead
from gametable.core.protocol import (
    Action,
    CompletesActions,
    Game,
    HasHeuristic,
    HasPlanner,
    HasRollouts,
    Observation,
    Seat,
)

DEFAULT_SECONDS: Final = 0.5
"""Thinking time per move (seconds) when no budget is given."""
BATCH: Final = 24
"""Determinizations dealt at once (each tried with every move still in the running)."""
MIN_BATCHES: Final = 4
"""Batches before any move is dropped."""


class RolloutBot:
    """Plays by Monte Carlo rollouts (see the module docstring).

    Args:
        game: the game played.
        rng: all of the bot's chance (determinizations, rollouts' ties).
        seconds: thinking time per move; ``None`` for no time limit.
        deals: determinizations per move; ``None`` for no limit (then ``seconds`` must
            be given).
        width: how many of the best-rated moves are rolled out.
        confidence: standard errors by which the best value must lead the favourite's
            to be played instead of it (``0``: the best value).
        prune: standard errors behind the best at which a move is dropped.
        infer: where the game reads the other hands from the plays its views show
            (``hand_reader``: Sequence Cats, two seats), how sharply (``0``: off, the
            unseen cards dealt uniformly); the bot then remembers every view it is
            shown and deals its determinizations by what they say.

    Raises:
        ValueError: neither ``seconds`` nor ``deals`` is given.

    Warns:
        PlaysAsAnother: ``game`` cannot roll out (no :class:`HasRollouts`: Dixit,
            Triominos), so every decision goes to the ``search`` player (itself
            ``greedy`` where the game deals no hidden information). Made by
            :func:`~gametable.bots.base.make_bot` or a run, warned there once instead.
    """

    name = "rollout"
    reads_only = True  # never changes the view or the legal actions it is given

    def __init__(self, game: Game[Any], rng: random.Random, *,
                 seconds: float | None = DEFAULT_SECONDS, deals: int | None = None,
                 width: int = 8, confidence: float = 1.0, prune: float = 3.0,
                 infer: float = 0.0) -> None:
        if seconds is None and deals is None:
            raise ValueError("rollouts need seconds or deals")
        if not isinstance(game, HasRollouts):
            warn_plays_as_another("rollout", game, stacklevel=2)
        self.game = game
        self.rng = rng
        self.seconds = seconds
        self.deals = deals
        self.width = width
        self.confidence = confidence
        self.prune = prune
        with fallbacks_warned():  # warned above as rollout, not again as search
            self.fallback = SearchBot(game, rng, seconds=seconds,
                                      iterations=None if deals is None else deals * 4)
        self.infer = infer
        self.reader: Any = None
        """The game's reader of the other hands (``hand_reader``), when ``infer`` > 0."""
        self.last_deals = 0
        """Determinizations of the latest decision (0 when it rolled none out)."""

    @property
    def last_iterations(self) -> int:
        """Rollouts of the latest decision (for benchmarks that compare players)."""
        return self.last_deals

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        """The move with the best rollout value among the best-rated, completed."""
        self.last_deals = 0
        seat = view.get("seat")
        game = self.game
        if isinstance(seat, int) and self.infer > 0 and hasattr(game, "hand_reader"):
            if self.reader is None:
                self.reader = game.hand_reader(seat, self.infer)
            self.reader.observe(view)
        if len(legal) == 1 or not isinstance(seat, int) or not isinstance(game, HasRollouts):
            return self.fallback.choose(view, legal)
        chosen = self._roll(view, seat, legal)
        if chosen is None:
            return self.fallback.choose(view, legal)
        if isinstance(game, CompletesActions):
            return game.complete_action(view, chosen, self.rng)
        return chosen

    def _rated(self, view: Observation, legal: Sequence[Action]) -> list[Action]:
        """The ``width`` best-rated of ``legal``, best first."""
        game = self.game
        if isinstance(game, HasPlanner):
            ratings = game.plan_actions(view, legal)
        elif isinstance(game, HasHeuristic):
            ratings = game.rate_actions(view, legal)
        else:
            return list(legal)[:self.width]
        order = sorted(range(len(legal)), key=lambda i: -ratings[i])
        return [legal[i] for i in order[:self.width]]

    def _roll(self, view: Observation, seat: Seat, legal: Sequence[Action]
              ) -> Action | None:
        game = self.game
        assert isinstance(game, HasRollouts)
        moves = self._rated(view, legal)
        rewards: list[list[float]] = [[] for _ in moves]
        alive = list(range(len(moves)))
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        batches = 0
        while len(alive) > 1:
            if self.deals is not None and self.last_deals >= self.deals:
                break
            if deadline is not None and batches and time.perf_counter() >= deadline:
                break
            count = BATCH if self.deals is None else min(BATCH, self.deals - self.last_deals)
            sampler = game if self.reader is None else self.reader
            deals = [sampler.sample_state(view, seat, self.rng) for _ in range(count)]
            values = game.rollouts(deals, seat, [moves[i] for i in alive], self.rng)
            if values is None:
                return None
            for place, index in enumerate(alive):
                rewards[index].extend(values[place])
            self.last_deals += count
            batches += 1
            if batches >= MIN_BATCHES:
                alive = self._survivors(alive, rewards)
        return moves[self._final(alive, rewards)]

    def _survivors(self, alive: list[int], rewards: list[list[float]]) -> list[int]:
        """The moves not ``prune`` standard errors behind the best mean (the favourite,
        first, is kept)."""
        best = max(alive, key=lambda i: (_mean(rewards[i]), -i))
        return [i for i in alive if i in (best, 0)
                or paired_lead(rewards[best], rewards[i], self.prune) <= 0.0]

    def _final(self, alive: list[int], rewards: list[list[float]]) -> int:
        """The best mean of ``alive``, unless it leads the favourite's by less than
        ``confidence`` standard errors."""
        if len(alive) == 1 or not rewards[alive[0]]:
            return alive[0]
        best = max(alive, key=lambda i: (_mean(rewards[i]), -i))
        if best != 0 and 0 in alive and paired_lead(rewards[best], rewards[0],
                                                    self.confidence) <= 0.0:
            return 0
        return best


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


register_bot("rollout", RolloutBot, plays=lambda game: isinstance(game, HasRollouts))
