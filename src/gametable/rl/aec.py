"""A PettingZoo environment (agent–environment cycle) for any game with an encoding.

Each seat is an agent (``"seat_0"``, ``"seat_1"`` …). An agent observes
``{"observation": {name: array, …}, "action_mask": int8 array}``: its own view encoded
(:mod:`gametable.core.encoding`) and 1 for each catalogue number it may play now (all
zeros while it has nothing to decide). Where several seats decide at once the lowest
acts first; the rules make the order irrelevant.

Rewards: with ``reward="win"`` (default), at the end +1 to every winner (teammates share
a win), -1 to the other seats, 0 to all in a drawn game; with ``reward="score"``, after
every action each seat's change of score (points; Sequence Cats counts sequences).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable

from gametable.core.protocol import Game, Observation, Outcome
from gametable.core.records import GameRecord
from gametable.rl.episode import Episode

Reward = Literal["win", "score"]


def observation_space(episode: Episode) -> spaces.Dict:
    """The Gymnasium space of an observation: ``{"observation": Dict of Box, "action_mask":
    Box(0, 1, (catalogue size,), int8)}``."""
    arrays: dict[str, gymnasium.Space[Any]] = {
        name: spaces.Box(low=spec.low, high=spec.high, shape=spec.shape,
                         dtype=np.dtype(spec.dtype))
        for name, spec in episode.observation_specs.items()}
    return spaces.Dict({
        "observation": spaces.Dict(arrays),
        "action_mask": spaces.Box(low=0, high=1, shape=(episode.encoding.action_count,),
                                  dtype=np.int8),
    })


class UnknownAgent(KeyError, ValueError):
    """No agent of the environment has this name. A ``KeyError`` (as PettingZoo's
    dictionaries by agent raise) and a ``ValueError``; its text names the agents."""

    def __init__(self, agent: object, agents: list[str]) -> None:
        super().__init__(agent)
        self.agent, self.agents = agent, agents

    def __str__(self) -> str:
        return (f"no agent called {self.agent!r}"[:100]
                + f"; the agents are {', '.join(self.agents)}")


def final_rewards(outcome: Outcome, seats: int) -> list[float]:
    """+1 to each winner, -1 to the other seats, 0 to every seat of a drawn game."""
    if not outcome.winners:
        return [0.0] * seats
    return [1.0 if seat in outcome.winners else -1.0 for seat in range(seats)]


class GameEnv(AECEnv[str, dict[str, Any], int | None]):  # type: ignore[misc]
    """Any game with an encoding as a PettingZoo ``AECEnv``.

    Args:
        game: a registered game's name (``"sequence-cats"``, ``"triominos"``) or a game.
        seats: how many seats (the rules decide which counts are allowed).
        options: the game's options, as a table takes them (``None``: defaults).
        reward: ``"win"`` or ``"score"`` (see the module docstring).
        max_actions: the game is truncated after this many actions (``None``: never).
        render_mode: ``None`` or ``"ansi"`` (:meth:`render` returns a line of text).

    Raises:
        ConfigError: invalid options or seat count.
        NoEncoding: the game has no encoding (Dixit).
        TypeError: ``seats`` is not a whole number, or ``options`` not a mapping.
        ValueError: ``reward``, ``max_actions`` or ``render_mode`` is none of the above.

    A game is also truncated, with ``infos[agent]["truncated_by"] == "encoding"``, in the
    rare case that the seat to act has legal actions but none with a catalogue number
    (a Triominos tile only placeable outside the encoded window).
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "gametable_v0", "render_modes": ["ansi"],
                                          "is_parallelizable": False}

    def __init__(self, game: str | Game[Any], seats: int = 2,
                 options: Mapping[str, Any] | None = None, *, reward: Reward = "win",
                 max_actions: int | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        if reward not in ("win", "score"):
            raise ValueError(f'reward must be "win" or "score", not {reward!r}')
        if render_mode not in (None, "ansi"):
            raise ValueError(f'render_mode must be None or "ansi", not {render_mode!r}')
        self.max_actions = check_max_actions(max_actions)
        self.episode = Episode(game, seats, options)
        self.reward_kind: Reward = reward
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(seats)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_space = observation_space(self.episode)
        self._action_space = spaces.Discrete(self.episode.encoding.action_count)
        self._scores: list[float] = [0.0] * seats
        self._empty_mask = np.zeros(self.episode.encoding.action_count, dtype=np.int8)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``: the selected agent's observation, reward, termination,
        truncation and info.

        Raises:
            RuntimeError: no game has been dealt yet (``reset()`` first).
        """
        self.episode.state  # noqa: B018 (refuses before the first reset)
        last: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return last

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable[str, Any, Any]:
        """PettingZoo's ``agent_iter``: the agent to act, until every agent is done.

        Raises:
            RuntimeError: no game has been dealt yet (``reset()`` first).
        """
        self.episode.state  # noqa: B018 (refuses before the first reset)
        return super().agent_iter(max_iter)

    def observation_space(self, agent: str) -> gymnasium.Space[Any]:
        """The same Dict space for every agent (see :func:`observation_space`)."""
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.Space[Any]:
        """``Discrete(catalogue size)`` for every agent."""
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: the same ``seed`` deals the same game. Without a seed, the
        next game of the stream the last seed began (``reset(seed=42)`` and then
        ``reset()`` every episode plays the same games every run), or, before any seed,
        a random one.

        ``options`` are not read (PettingZoo's own tests pass some): the game's options
        are the environment's, ``GameEnv(game, seats, options)``.

        Raises:
            ValueError: ``seed`` is not a whole number in ``0 … 2**63 - 1``.
        """
        del options
        self.episode.start(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._scores = list(self.episode.outcome().scores)
        self._select()

    def _seat(self, agent: str) -> int:
        """``agent``'s seat.

        Raises:
            UnknownAgent: no agent has that name (the message lists them).
        """
        try:
            return self._seat_of[agent]
        except (KeyError, TypeError):
            raise UnknownAgent(agent, self.possible_agents) from None

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s encoded view and action mask (zeros unless it is to act).

        Raises:
            UnknownAgent: ``agent`` is none of :attr:`possible_agents` (a ``KeyError``
                naming them).
            RuntimeError: before ``reset()``.
        """
        seat = self._seat(agent)
        decision = self.episode.decision(seat)
        # An agent whose game ended (or was cut off) has nothing to decide, also on its
        # dead step: the mask offered it every legal move after a truncation.
        deciding = agent == self.agent_selection and self._playing(agent)
        mask = decision.mask if deciding else self._empty_mask
        return {"observation": {name: array.copy() for name, array in
                                decision.observation.items()},
                "action_mask": mask.copy()}

    def legal_numbers(self, agent: str) -> list[int]:
        """The catalogue numbers ``agent`` may play now, ascending (the mask's ones;
        quicker than ``np.flatnonzero`` on a wide catalogue such as Triominos').

        Raises:
            UnknownAgent: ``agent`` is none of :attr:`possible_agents`.
            RuntimeError: before ``reset()``.
        """
        seat = self._seat(agent)
        self.episode.state  # noqa: B018 (raises before the first reset)
        if agent != self.agent_selection or not self._playing(agent):
            return []
        return sorted(self.episode.decision(seat).actions)

    def _playing(self, agent: str) -> bool:
        """Whether ``agent`` is still in the game: not terminated, not truncated."""
        return (agent in self.agents and not self.terminations.get(agent, False)
                and not self.truncations.get(agent, False))

    def view(self, agent: str) -> Observation:
        """``agent``'s view as JSON (what the encoding was made from).

        Raises:
            UnknownAgent: ``agent`` is none of :attr:`possible_agents`.
            RuntimeError: before ``reset()``.
        """
        return self.episode.view(self._seat(agent))

    def record(self) -> GameRecord:
        """The game so far as a record: replays in ``gametable replay`` and the browser.

        Raises:
            RuntimeError: no game has been dealt yet, or play went on from a position
                set with ``episode.state = …`` (a record begins with a deal).
        """
        return self.episode.current_record()

    def step(self, action: int | None) -> None:
        """Play catalogue number ``action`` (an ``int``, NumPy integers included) for
        :attr:`agent_selection`; ``None`` only for an agent whose game is over
        (PettingZoo's dead step).

        Raises:
            IllegalAction: ``action`` is not legal now (its mask entry is 0); nothing
                changes.
            TypeError: ``action`` is not an integer (``52.7``, ``"52"`` and ``True`` are
                refused); nothing changes.
            ValueError: ``None`` for an agent that is to act.
            RuntimeError: before ``reset()``, or after every agent has been removed.
        """
        self.episode.state  # noqa: B018 (raises before the first reset)
        if not self.agents:
            raise RuntimeError("no agent is left to act: reset() to deal a new game")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for a finished game")
        self.episode.act(self._seat_of[agent], action)  # raises before anything changes
        self._cumulative_rewards[agent] = 0.0
        outcome = self.episode.outcome()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.reward_kind == "score":
            for seat, score in enumerate(outcome.scores):
                self.rewards[self.possible_agents[seat]] = float(score - self._scores[seat])
            self._scores = list(outcome.scores)
        if outcome.finished:
            if self.reward_kind == "win":
                for seat, reward in enumerate(final_rewards(outcome, self.episode.seats)):
                    self.rewards[self.possible_agents[seat]] = reward
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_actions is not None and self.episode.actions >= self.max_actions:
            self._truncate("max_actions")
        self._accumulate_rewards()
        self._select()

    def _select(self) -> None:
        """Point :attr:`agent_selection` at the lowest seat to act (truncating the game
        if its decision cannot be encoded)."""
        seats = self.episode.to_act()
        if not seats or self.terminations[self.agents[0]] or self.truncations[self.agents[0]]:
            current: str | None = getattr(self, "agent_selection", None)
            if current not in self.agents:
                self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[seats[0]]
        if not self.episode.decision(seats[0]).actions:
            self._truncate("encoding")

    def _truncate(self, reason: str) -> None:
        self.truncations = dict.fromkeys(self.agents, True)
        for agent in self.agents:
            self.infos[agent]["truncated_by"] = reason

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: a line with the game, actions so far, scores and
        who is to act; else ``None``."""
        if self.render_mode != "ansi":
            return None
        outcome = self.episode.outcome()
        state = ("finished, winners " + str(outcome.winners) if outcome.finished
                 else f"to act: {self.episode.to_act()}")
        return (f"{self.episode.game.name} after {self.episode.actions} actions; "
                f"scores {outcome.scores}; {state}")

    def close(self) -> None:
        """Nothing to release."""


def check_max_actions(max_actions: object) -> int | None:
    """``max_actions`` as an ``int`` (NumPy integers too), or ``None``.

    Raises:
        ValueError: anything but ``None`` or a whole number ≥ 1 (``bool`` and ``float``
            included).
    """
    if max_actions is None:
        return None
    if isinstance(max_actions, bool) or not hasattr(max_actions, "__index__") \
            or operator.index(max_actions) < 1:
        raise ValueError(f"max_actions must be None or a whole number from 1, "
                         f"not {max_actions!r}"[:200])
    return operator.index(max_actions)


def env(game: str | Game[Any], seats: int = 2, options: Mapping[str, Any] | None = None,
        **kwargs: Any) -> GameEnv:
    """A :class:`GameEnv` (PettingZoo's factory convention); same arguments."""
    return GameEnv(game, seats, options, **kwargs)
