"""The one protocol every game implements.

A game is a stateless object (registered by name) whose methods take a mutable state.
Everything outside ``gametable.games`` — server, bots, CLI, replays — uses only these
methods and never branches on a game's name. The shapes follow OpenSpiel's state API and
boardgame.io's game object:

=====================================  =================================================
``new_game(config, seats, seed)``      a fresh state; all chance comes from ``seed``
``to_act(state)``                      the seats with a pending decision (may be several)
``legal_actions(state, seat)``         that seat's legal actions, as JSON objects
``apply(state, seat, action)``         validate, then change the state; returns events
``view(state, seat | None)``           what that seat (or a spectator) may see
``outcome(state)``                     finished?, scores, winners, ranking, breakdowns
=====================================  =================================================

Actions, events and views are JSON objects (``dict[str, Any]``) so that the same value
travels through the Python API, the game record and the websocket unchanged. Events are
public by contract: they never name a hidden card, so they may be shown to everyone.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, SupportsIndex, TypeVar, runtime_checkable

from pydantic import BaseModel

from gametable.core.actions import freeze
from gametable.core.values import json_copy

Seat = int
"""A seat index, 0-based, in clockwise order around the table."""

Action = dict[str, Any]
"""A JSON object with a ``"type"`` key; each game documents its action types."""

Event = dict[str, Any]
"""A JSON object with a ``"type"`` key describing something that happened (public)."""

Observation = dict[str, Any]
"""A JSON object: what one seat (or a spectator) may see of a state."""

StateT = TypeVar("StateT")
StateT_co = TypeVar("StateT_co", covariant=True)


@dataclass(frozen=True)
class ScoreLine:
    """Points one seat received, with the reason as a catalog key (``"reasons.found"``).

    ``params`` is the line's own copy of what it was given, and refuses to be changed
    (:func:`~gametable.core.actions.freeze`): a caller that edits an outcome's lines
    gets ``TypeError`` and never changes the game's record of them."""

    seat: Seat
    points: float
    reason: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", freeze(dict(self.params)))

    def to_json(self) -> dict[str, Any]:
        """``{"seat", "points", "reason", "params"}`` (plain, changeable JSON)."""
        return {"seat": self.seat, "points": self.points, "reason": self.reason,
                "params": json_copy(self.params)}


@dataclass(frozen=True)
class Outcome:
    """The result of a game so far.

    Attributes:
        finished: whether the game is over.
        scores: one number per seat (points, or for race games the sequences made).
        winners: the winning seats once finished (teammates share a win); empty for a
            draw and while the game runs.
        ranking: one rank per seat, 1 = best; tied seats share the better rank.
        turns: completed turns so far, as the game counts them.
        rounds: per-round score breakdowns with reasons (empty for games without rounds).
    """

    finished: bool
    scores: list[float]
    winners: list[Seat]
    ranking: list[int]
    turns: int = 0
    rounds: list[list[ScoreLine]] = field(default_factory=list)

    @property
    def draw(self) -> bool:
        """True when the game ended with no winner."""
        return self.finished and not self.winners

    def to_json(self) -> dict[str, Any]:
        """``{"finished", "draw", "scores", "winners", "ranking", "turns", "rounds"}``."""
        return {
            "finished": self.finished,
            "draw": self.draw,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "ranking": list(self.ranking),
            "turns": self.turns,
            "rounds": [[line.to_json() for line in r] for r in self.rounds],
        }


def rank(scores: Sequence[float]) -> list[int]:
    """Competition ranking (1, 2, 2, 4) of ``scores``, higher is better."""
    return [1 + sum(1 for other in scores if other > s) for s in scores]


@runtime_checkable
class Game(Protocol[StateT]):
    """A game's rules. Implementations are stateless; all state lives in ``StateT``.

    Attributes:
        name: the registry name (``"sequence-cats"``), also used in records and URLs.
        config_model: the pydantic model of the game's options.
    """

    name: str
    config_model: type[BaseModel]

    def make_config(self, options: Mapping[str, Any] | None, seats: int) -> BaseModel:
        """Validate ``options`` for a table of ``seats`` seats.

        Raises:
            ConfigError: unknown or invalid options, or a seat count the rules refuse.
            TypeError: ``options`` is not a mapping (nor ``None``), or ``seats`` not a
                whole number.
        """
        ...

    def new_game(self, config: BaseModel | Mapping[str, Any], seats: int,
                 seed: SupportsIndex) -> StateT:
        """A new game for ``seats`` seats; every random choice is drawn from ``seed``.
        ``config`` comes from :meth:`make_config`; a mapping of options is validated by
        it first.

        Raises:
            ConfigError: the seat count does not fit the rules, or bad options.
            TypeError: ``config`` is neither a config nor a mapping of options.
            ValueError: ``seed`` is not a whole number from 0 to 2**63 − 1, what a
                record holds (:func:`gametable.core.rng.check_seed`; ``-1``, ``1.5``,
                ``"3"`` and ``None`` are refused).
        """
        ...

    def to_act(self, state: StateT) -> frozenset[Seat]:
        """Seats with a pending decision; empty once the game is finished."""
        ...

    def legal_actions(self, state: StateT, seat: Seat) -> list[Action]:
        """Every legal action of ``seat`` now (empty when it has nothing to decide).

        A game may also accept an optional action that is nobody's pending decision (a
        Sequence Cats draw offer, open to any seat at any moment); such an action is not
        listed here, and the game's view says when it may be taken. Each call returns a
        new list, which the caller may change; the action objects in it may be shared
        with other calls and games: a shared one is a
        :class:`~gametable.core.actions.FrozenAction` and raises ``TypeError`` if changed
        in place (copy it: ``copy.deepcopy(action)``; ``dict(action)`` copies only its
        top level, and a Triominos placement's ``position`` stays frozen). Code that hands
        actions on to code it does not control gives it
        :func:`~gametable.core.actions.copy_actions`.

        Raises:
            IllegalAction: ``PROTOCOL`` / ``errors.no_such_seat`` when ``seat`` is not one
                of the table's (``0 … seats - 1``).
        """
        ...

    def apply(self, state: StateT, seat: Seat, action: Mapping[str, Any]) -> list[Event]:
        """Validate ``action`` for ``seat``, then change ``state``; return public events.

        Raises:
            IllegalAction: the action breaks a rule or is malformed; ``state`` is unchanged.
        """
        ...

    def view(self, state: StateT, seat: Seat | None) -> Observation:
        """What ``seat`` may see (``None``: a spectator). The only road out of a state.

        Read it, do not change it: views of one state may share objects with each other,
        and with the views asked for again before the next ``apply`` (a seat's clue, a
        Triominos board): changing one changes those (``copy.deepcopy`` a view to change
        it; ``simulate``, ``arena`` and the environments copy a bot's view unless it says
        it only reads). Changing one anyway never changes the game: a view shares
        nothing with the state, so its snapshot, outcome, legal actions and the views
        after the next action stay as they were (``tests/core/test_views.py``).

        Raises:
            IllegalAction: ``PROTOCOL`` / ``errors.no_such_seat`` when ``seat`` is neither
                ``None`` nor one of the table's (a seat numbered from 1 by mistake would
                otherwise look like a spectator's view).
        """
        ...

    def outcome(self, state: StateT) -> Outcome:
        """Finished?, scores, winners and ranking of ``state``."""
        ...

    def snapshot(self, state: StateT) -> dict[str, Any]:
        """The complete state as JSON, secrets included: for tests and bug reports only."""
        ...

    def clone(self, state: StateT) -> StateT:
        """An independent copy of ``state`` (for search and simulations)."""
        ...

    def describe(self) -> dict[str, Any]:
        """Static public information for clients: seat counts, config schema, assets."""
        ...

    def public_info(self, config: BaseModel, seats: int) -> dict[str, Any]:
        """Public facts fixed for a whole game with this config (board layout, teams).

        Where seats play in teams, ``"team_of"`` is each seat's team (a list of ``seats``
        numbers from 0; see :func:`seat_teams`)."""
        ...


@runtime_checkable
class HasHeuristic(Protocol):
    """A game that can rate actions from a seat's point of view (used by greedy bots)."""

    def rate_actions(self, view: Observation, actions: Sequence[Action]) -> list[float]:
        """One rating per action of ``actions``, in their order, higher is better,
        computed from ``view`` alone. The scale is the game's own (docs/bots.md gives
        each game's) and orders the actions of one call: compare ratings within a call,
        not across positions or games."""
        ...


@runtime_checkable
class RatesStates(Protocol):
    """A game whose heuristic can also be read off a full state, without building the
    seat's view first: what a search player's playouts use on its determinizations."""

    def rate_state_actions(self, state: Any, seat: Seat, actions: Sequence[Action]
                           ) -> list[float]:
        """Exactly ``rate_actions(view(state, seat), actions)``, sooner: one score per
        action, higher is better, from what ``seat`` may see of ``state`` (a state the
        caller dealt, e.g. a determinization; never a table's real state).
        """
        ...


@runtime_checkable
class HasPlanner(Protocol):
    """A game with a stronger rating than its heuristic, one that weighs what the other
    seats may hold and do next (from the view alone); the ``hard`` player uses it."""

    def plan_actions(self, view: Observation, actions: Sequence[Action]) -> list[float]:
        """One rating per action of ``actions``, in their order, higher is better,
        computed from ``view`` alone, on a scale of the game's own (as
        :meth:`HasHeuristic.rate_actions`'s)."""
        ...


@runtime_checkable
class CompletesActions(Protocol):
    """A game whose legal actions may hold placeholders that a player fills in (a Dixit
    clue's free text). Bots call this on the action they chose before playing it."""

    def complete_action(self, view: Observation, action: Action, rng: random.Random
                        ) -> Action:
        """``action`` with its placeholders filled from ``view``; others unchanged.

        Raises:
            IllegalAction: what :meth:`Game.apply` would raise for what the action
                already says, where it is checked here (a Dixit clue for a card not in
                the seat's hand: DX-ROUND-1), instead of an action the rules refuse later.
        """
        ...


@runtime_checkable
class HasConventions(Protocol):
    """A game whose computer players answer some decisions all alike, by a rule the
    table is told (Sequence Cats: a draw offer is accepted once the board has been full,
    SC-WIN-3 b), not by what the answer is worth to them: searching players, which would
    weigh it, ask here first (a human could otherwise end a losing game in a draw at
    move 2, when the search's estimate is a coin's toss)."""

    def convention(self, view: Observation, legal: Sequence[Action]) -> Action | None:
        """The action of ``legal`` every computer player takes at this decision, or
        ``None`` where the decision is the player's own."""
        ...


@runtime_checkable
class HasPatience(Protocol):
    """A game that asks computer players to wait longer before some decisions, so that
    people at the table get there first (claiming the Dixit storyteller role, naming a
    Team Dixit team's giver), or read what just happened (a Dixit round's result)."""

    def patience(self, view: Observation, people: frozenset[Seat]) -> float:
        """Extra waiting before acting on ``view``, in multiples of the bot delay (0: none);
        ``people``: the seats that people hold (empty at a table of computer players,
        which people may be watching)."""
        ...


@runtime_checkable
class CountsRounds(Protocol):
    """A game played in rounds whose outcomes list each round's scores
    (``Outcome.rounds``; Dixit, Triominos), even while no round has ended yet: a
    summary then gives the mean rounds of every run of it, 0 where none ended."""

    counts_rounds: bool


@runtime_checkable
class HasTurns(Protocol):
    """A game that says when a new turn or phase begins, so that a turn clock (TR-TIME-1
    [decision]: a time limit per turn) gives every decision its whole time, also to a
    seat that must act again at once (the last to vote in Dixit, who then tells; a
    player alone at a Triominos table)."""

    def turn_key(self, state: Any) -> str:
        """A text that changes exactly when a new turn or phase begins (Dixit: the round
        and its phase; Triominos and Sequence Cats: the turn), and stays the same within
        one (a Triominos player's draws are one turn, TR-DRAW-1)."""
        ...


@runtime_checkable
class HasStrategy(Protocol):
    """A game that ships a stronger computer player of its own than ratings allow (Dixit's
    player that understands clues); the ``semantic`` bot seats it."""

    def strategy_player(self, rng: random.Random, temperature: float | None = None
                        ) -> StrategyPlayer:
        """A player for one seat, drawing on ``rng``; ``temperature`` (``None``: the
        game's default) makes it play more loosely as it grows."""
        ...


@runtime_checkable
class SamplesHidden(Protocol[StateT_co]):
    """A game that can deal out what a seat cannot see: the ``search`` bot's
    *determinizations* (information-set Monte Carlo tree search)."""

    def sample_state(self, view: Observation, seat: Seat, rng: random.Random) -> StateT_co:
        """A full state that ``seat``'s ``view`` could have come from.

        Built from ``view`` alone (never from a real state): what the view shows is kept
        as it is, and every card or tile the seat cannot see (other hands, the order of
        a draw pile or pool) is dealt at random, drawing on ``rng``, from those the view
        does not account for. ``view(sample_state(v, s, rng), s)`` equals ``v``.

        Raises:
            ValueError: ``view`` is not a seated view of this game, or its counts do
                not add up.
        """
        ...


@runtime_checkable
class HasRollouts(SamplesHidden[Any], Protocol):
    """A game that deals determinizations (:class:`SamplesHidden`) and can play many of
    them on to their end at once, every seat playing a quick heuristic: all the
    ``rollout`` bot needs of a game."""

    def rollouts(self, deals: Sequence[Any], seat: Seat, actions: Sequence[Action],
                 rng: random.Random) -> list[list[float]] | None:
        """Each of ``actions`` (legal for ``seat`` in its view) played on each of
        ``deals`` (full states from :meth:`SamplesHidden.sample_state` of that view; not
        changed), then on to the end: per action, ``seat``'s reward on each deal, 1.0 a
        win, 0.0 a loss, 0.5 a draw or a rollout that stopped unfinished. ``None`` when
        the game cannot roll out these actions or deals (then nothing is played).
        """
        ...


@runtime_checkable
class HasEncoding(Protocol):
    """A game with fixed-size numeric encodings of its views and actions
    (:mod:`gametable.core.encoding`), what :mod:`gametable.rl`'s environments need."""

    def encoding(self, config: BaseModel, seats: int) -> Any:
        """The :class:`~gametable.core.encoding.Encoding` of games with ``config`` and
        ``seats`` seats (built once; the same for every seat)."""
        ...


class StrategyPlayer(Protocol):
    """What :meth:`HasStrategy.strategy_player` returns."""

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        """One of ``legal``, completed (a Dixit clue gets its text), from ``view`` alone."""
        ...


def seat_teams(game: Game[Any], config: BaseModel, seats: int) -> list[int]:
    """Each seat's team (numbers from 0, a list of ``seats``): the game's
    ``public_info(…)["team_of"]`` where it plays in teams, else every seat alone
    (``[0, 1, 2, …]``)."""
    team_of = game.public_info(config, seats).get("team_of")
    if isinstance(team_of, list) and len(team_of) == seats:
        return [int(team) for team in team_of]
    return list(range(seats))
