"""``search``: information-set Monte Carlo tree search over the game's determinizations.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo
Tree Search", IEEE T-CIAIG 4(2)). One tree holds the decisions of every seat, seen from
the searching seat's information set. Each iteration:

1. deals a *determinization*: a full state the seat's view could have come from, with
   every card or tile it cannot see dealt at random (:class:`SamplesHidden`);
2. descends the tree with UCB1 over the children whose actions are legal in that
   determinization, counting each child's *availability* (how often it could have been
   chosen) instead of its parent's visits;
3. adds one child, for an action not tried yet (the one the game's heuristic rates
   highest, :class:`HasHeuristic`);
4. plays on from there (a *playout*): the heuristic's best action, or with probability
   ``epsilon`` a random one, until the game or the current round ends (the game's
   :class:`Outcome` lists one more round) or ``depth`` actions were played;
5. backs the reward of every seat up the path, each node keeping the reward of the seat
   that chose its action.

The root's actions are rated by the game's *planned* ratings when it has them
(:class:`HasPlanner`: threats, card counting, what a move leaves the next seat), the
tree's and playouts' by its cheaper heuristic. A seat's reward lies in [0, 1]. At the
end of the game it is ``0.75·win + 0.25·gain`` (a draw counts as half a win); at a
round's end or the depth limit it is ``gain``, with ``gain = (1 + tanh(d / scale)) / 2``
where ``d`` is how much the seat's score (see :attr:`Outcome.scores`) gained on the best
other seat's since the searched position, and ``scale`` the mean ``|d|`` seen so far in
this search (at least 1). Only the ``width`` best-rated actions of a decision are
searched. The chosen action is the root's most visited child; it is completed
(:class:`CompletesActions`) as ``greedy`` does.

A move stops after ``seconds`` of thinking or ``iterations`` iterations, whichever
comes first (``None``: no limit of that kind); with ``seconds=None`` and a fixed
``iterations`` the choice depends only on the view and the bot's seed. A game without
:class:`SamplesHidden` gets ``greedy`` play, and a decision with one legal action is
answered at once.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from gametable.bots.base import register_bot, warn_plays_as_another
from gametable.bots.greedy import GreedyBot
from gametable.core.protocol import (
    Action,
    CompletesActions,
    Game,
    HasConventions,
    HasHeuristic,
    HasPlanner,
    Observation,
    RatesStates,
    SamplesHidden,
    Seat,
)

DEFAULT_SECONDS = 0.5
"""Thinking time per move (seconds) when no budget is given."""
MIN_BATCHES = 8
"""Determinizations every root action is tried on before any is dropped."""


def action_key(action: Mapping[str, Any]) -> str:
    """The canonical JSON text of ``action`` (sorted keys): equal actions, equal keys."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


class Node:
    """One decision in the tree: the action that led here, and its statistics.

    Attributes:
        actor: the seat that chose ``action`` (``-1`` at the root).
        visits: iterations through this node; ``total`` the sum of ``actor``'s rewards,
            ``squares`` the sum of their squares.
        available: iterations in which this node's action was legal at its parent.
        children: by ``(seat, action key)``.
    """

    __slots__ = ("action", "actor", "available", "children", "squares", "total", "visits")

    def __init__(self, actor: Seat, action: Action | None) -> None:
        self.actor = actor
        self.action = action
        self.visits = 0
        self.total = 0.0
        self.squares = 0.0
        self.available = 0
        self.children: dict[tuple[Seat, str], Node] = {}


class SearchBot:
    """Plays by information-set Monte Carlo tree search (see the module docstring).

    Args:
        game: the game played.
        rng: all of the bot's chance (determinizations, playouts, ties).
        seconds: thinking time per move; ``None`` for no time limit.
        iterations: iterations per move; ``None`` for no limit (then ``seconds`` must
            be given).
        exploration: the UCB1 constant ``c`` in ``mean + c·sqrt(ln(available)/visits)``.
        epsilon: the chance of a random action in a playout.
        depth: the most actions a playout plays.
        width: how many of a decision's best-rated actions are searched.
        confidence: how many standard errors the best mean reward must lead the
            best-rated action's by to be played instead of it (``0``: the best mean).
        prune: how many standard errors behind the best a root action is dropped.
        plan: rate the root's actions with the game's planned ratings
            (:class:`HasPlanner`) where it has them, else with its heuristic.

    Raises:
        ValueError: neither ``seconds`` nor ``iterations`` is given.

    Warns:
        PlaysAsAnother: ``game`` deals no hidden information from a view (no
            :class:`SamplesHidden`: Dixit), so every decision goes to the ``greedy``
            player. Made by :func:`~gametable.bots.base.make_bot` or a run, warned there
            once instead.
    """

    name = "search"
    reads_only = True  # never changes the view or the legal actions it is given

    def __init__(self, game: Game[Any], rng: random.Random, *,
                 seconds: float | None = DEFAULT_SECONDS, iterations: int | None = None,
                 exploration: float = 0.7, epsilon: float = 0.1, depth: int = 60,
                 width: int = 8, confidence: float = 1.0, prune: float = 2.0,
                 plan: bool = True) -> None:
        if seconds is None and iterations is None:
            raise ValueError("a search needs seconds or iterations")
        if not isinstance(game, SamplesHidden):
            warn_plays_as_another("search", game, stacklevel=2)
        self.game = game
        self.rng = rng
        self.seconds = seconds
        self.iterations = iterations
        self.exploration = exploration
        self.epsilon = epsilon
        self.depth = depth
        self.width = width
        self.confidence = confidence
        self.prune = prune
        self.plan = plan
        self._scale = 1.0
        self.greedy = GreedyBot(game, rng)
        self._heuristic = game if isinstance(game, HasHeuristic) else None
        self._state_rater = game if isinstance(game, RatesStates) else None
        self.last_iterations = 0
        """Iterations of the latest search (0 when it answered without one)."""
        self._scale_sum = 0.0
        self._scale_count = 0

    # -- choosing -------------------------------------------------------------------

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        """The most visited of ``legal`` after the search, completed for ``view``."""
        seat = view.get("seat")
        self.last_iterations = 0
        if isinstance(self.game, HasConventions):
            agreed = self.game.convention(view, legal)
            if agreed is not None:  # the table's rule, not this player's estimate
                return agreed
        if len(legal) == 1 or not isinstance(self.game, SamplesHidden) \
                or not isinstance(seat, int):
            return self.greedy.choose(view, legal)
        chosen = self._search(view, seat, legal)
        if isinstance(self.game, CompletesActions):
            return self.game.complete_action(view, chosen, self.rng)
        return chosen

    def _search(self, view: Observation, seat: Seat, legal: Sequence[Action]) -> Action:
        game = self.game
        assert isinstance(game, SamplesHidden)
        candidates = self._best(view, legal, root=True)
        children = [Node(seat, action) for action in candidates]
        rewards: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        self._scale_sum = 0.0
        self._scale_count = 0
        self._scale = 1.0
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        batches = 0
        while len(alive) > 1 and (self.iterations is None or done < self.iterations):
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            base = game.sample_state(view, seat, self.rng)
            seed = self.rng.getrandbits(64)
            for index in alive:
                state = game.clone(base)
                reward = self._iterate(children[index], state, seat, random.Random(seed))
                rewards[index].append(reward)
                done += 1
            batches += 1
            self._scale = max(1.0, self._scale_sum / max(1, self._scale_count))
            if batches >= MIN_BATCHES:
                alive = self._survivors(alive, rewards)
        self.last_iterations = done
        return candidates[self._final(alive, rewards)]

    def _survivors(self, alive: list[int], rewards: list[list[float]]) -> list[int]:
        """The candidates not ``prune`` standard errors behind the best mean on the same
        determinizations (the first, best-rated one is never dropped)."""
        means = {i: sum(rewards[i]) / len(rewards[i]) for i in alive}
        best = max(alive, key=lambda i: (means[i], -i))
        return [i for i in alive if i in (best, 0)
                or paired_lead(rewards[best], rewards[i], self.prune) <= 0.0]

    def _final(self, alive: list[int], rewards: list[list[float]]) -> int:
        """The best mean of ``alive`` if it leads the best-rated candidate's by
        ``confidence`` standard errors of the paired differences; else the latter."""
        if len(alive) == 1 or not rewards[alive[0]]:
            return alive[0]
        means = {i: sum(rewards[i]) / len(rewards[i]) for i in alive}
        best = max(alive, key=lambda i: (means[i], -i))
        if best != 0 and 0 in alive and paired_lead(rewards[best], rewards[0],
                                                self.confidence) <= 0.0:
            return 0
        return best

    def _best(self, view: Observation, actions: Sequence[Action], *, root: bool = False
              ) -> list[Action]:
        """The ``width`` best-rated of ``actions``, best first (all, unrated, if the game
        has no heuristic; ties in the order given)."""
        if root and self.plan and isinstance(self.game, HasPlanner):
            ratings = self.game.plan_actions(view, actions)
        elif self._heuristic is None or len(actions) <= 1:
            return list(actions)
        else:
            ratings = self._heuristic.rate_actions(view, actions)
        return self._top(actions, ratings)

    def _rate_at(self, state: Any, actor: Seat, actions: Sequence[Action]) -> list[float]:
        """The heuristic's ratings of ``actions`` for ``actor`` in the determinization
        ``state`` (read off the state when the game can, :class:`RatesStates`)."""
        if self._state_rater is not None:
            return self._state_rater.rate_state_actions(state, actor, actions)
        assert self._heuristic is not None
        return self._heuristic.rate_actions(self.game.view(state, actor), actions)

    def _best_at(self, state: Any, actor: Seat, actions: Sequence[Action]) -> list[Action]:
        """:meth:`_best` for ``actor`` in the determinization ``state``."""
        if self._heuristic is None or len(actions) <= 1:
            return list(actions)
        return self._top(actions, self._rate_at(state, actor, actions))

    def _top(self, actions: Sequence[Action], ratings: Sequence[float]) -> list[Action]:
        """The ``width`` best-rated of ``actions``, best first (ties in the order given)."""
        order = sorted(range(len(actions)), key=lambda i: -ratings[i])
        return [actions[i] for i in order[:self.width]]

    # -- one iteration ----------------------------------------------------------------

    def _iterate(self, top: Node, state: Any, seat: Seat, rng: random.Random) -> float:
        """One iteration through ``top`` (a root action) on the determinization
        ``state``; ``seat``'s reward."""
        game = self.game
        start = game.outcome(state)
        assert top.action is not None
        game.apply(state, seat, top.action)
        node = top
        path = [top]
        while node.visits:
            to_act = game.to_act(state)
            if not to_act:
                break
            actor = min(to_act)
            legal = game.legal_actions(state, actor)
            best = self._best_at(state, actor, legal)
            candidates = [(action_key(a), a) for a in best]
            untried = [(key, a) for key, a in candidates if (actor, key) not in node.children]
            if untried:
                key, action = untried[0]
                child = Node(actor, action)
                node.children[(actor, key)] = child
                for other, _ in candidates:
                    known = node.children.get((actor, other))
                    if known is not None:
                        known.available += 1
                game.apply(state, actor, action)
                path.append(child)
                break
            best_child: Node | None = None
            best_value = -math.inf
            for key, _ in candidates:
                child = node.children[(actor, key)]
                child.available += 1
                value = child.total / child.visits + self.exploration * math.sqrt(
                    math.log(child.available) / child.visits)
                if value > best_value:
                    best_value, best_child = value, child
            assert best_child is not None and best_child.action is not None
            game.apply(state, actor, best_child.action)
            node = best_child
            path.append(node)
        rewards = self._playout(state, start, rng)
        for visited in path:
            visited.visits += 1
            reward = rewards[visited.actor]
            visited.total += reward
            visited.squares += reward * reward
        return rewards[seat]

    def _playout(self, state: Any, start: Any, rng: random.Random) -> list[float]:
        """Play on from ``state`` (see the module docstring); every seat's reward."""
        game = self.game
        rounds = len(start.rounds)
        rated = self._heuristic is not None
        outcome = game.outcome(state)
        for _ in range(self.depth):
            if outcome.finished or len(outcome.rounds) > rounds:
                break
            to_act = game.to_act(state)
            if not to_act:
                break
            actor = min(to_act)
            legal = game.legal_actions(state, actor)
            if len(legal) == 1 or not rated or rng.random() < self.epsilon:
                action = legal[rng.randrange(len(legal))]
            else:
                ratings = self._rate_at(state, actor, legal)
                top = max(ratings)
                ties = [i for i, r in enumerate(ratings) if r == top]
                action = legal[ties[0] if len(ties) == 1 else ties[rng.randrange(len(ties))]]
            game.apply(state, actor, action)
            outcome = game.outcome(state)
        return self._rewards(start, outcome)

    def _rewards(self, start: Any, end: Any) -> list[float]:
        before: list[float] = start.scores
        after: list[float] = end.scores
        seats = len(after)
        gains = []
        for s in range(seats):
            if seats == 1:
                gains.append(after[s] - before[s])
                continue
            lead_after = after[s] - max(after[o] for o in range(seats) if o != s)
            lead_before = before[s] - max(before[o] for o in range(seats) if o != s)
            gains.append(lead_after - lead_before)
        self._scale_sum += sum(abs(g) for g in gains) / seats
        self._scale_count += 1
        scale = self._scale
        rewards = [0.5 + 0.5 * math.tanh(g / scale) for g in gains]
        if end.finished:
            winners = set(end.winners)
            for s in range(seats):
                win = 0.5 if not winners else 1.0 if s in winners else 0.0
                rewards[s] = 0.75 * win + 0.25 * rewards[s]
        return rewards


def paired_lead(first: Sequence[float], second: Sequence[float], z: float) -> float:
    """How far the mean of ``first[i] - second[i]`` (over the pairs both have) lies
    above ``z`` standard errors: positive when ``first`` is that surely better."""
    n = min(len(first), len(second))
    if n < 2:
        return -math.inf
    diffs = [a - b for a, b in zip(first, second, strict=False)]
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean - z * math.sqrt(variance / n)


register_bot("search", SearchBot, plays=lambda game: isinstance(game, SamplesHidden))
