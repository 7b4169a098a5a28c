"""A Gymnasium environment: one learning seat against the built-in computer players.

The learner plays one seat; every other seat is a bot made by name (``"greedy"``,
``"hard"``, a bot of one's own registered with ``register_bot``), which sees only its
seat's view, as at a table. ``reset`` and ``step`` play the bots until the learner has
a decision or the game ends. An observation is a flat dict: the encoding's arrays by
name and ``"action_mask"`` (a Gymnasium ``Dict`` of ``Box`` spaces, which
Stable-Baselines3's ``MultiInputPolicy`` takes); :meth:`BotTableEnv.action_masks` gives
the mask alone, as ``sb3_contrib``'s maskable algorithms ask for it.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import Any, Literal, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from gametable.bots import bot_names, make_bot
from gametable.bots.base import Bot, UnknownBot, fallbacks_warned, handed
from gametable.core.errors import IllegalAction
from gametable.core.protocol import Game, Observation
from gametable.core.records import GameRecord
from gametable.core.rng import check_seed
from gametable.rl.aec import (
    Reward,
    check_max_actions,
    final_rewards,
    observation_space,
)
from gametable.rl.episode import Episode
from gametable.simulate import BotFailed, NotAnAction, warn_fallbacks


def whole_number(value: object, argument: str) -> int:
    """``value`` as an ``int`` (NumPy integers too).

    Raises:
        TypeError: anything else, ``bool``, ``float`` and ``str`` included, naming
            ``argument``.
    """
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{argument} must be a whole number (an int), not {value!r}"[:200])
    return operator.index(value)


class BotTableEnv(gymnasium.Env[dict[str, Any], int]):
    """One seat learns, the others are computer players.

    Args:
        game: a registered game's name or a game object with an encoding.
        opponents: the bot name of each other seat, clockwise from the learner's left
            (one name: every other seat), so that each keeps its place relative to the
            learner when the learner's seat changes (in a Sequence Cats game of four,
            the second is the learner's teammate). Bots that think for a time
            (``hard``, ``search``, ``rollout``: 0.5 s a move) play differently on a
            slower or busier machine and make a few steps a second; for reproducible
            games use ``easy``, ``medium``, ``greedy``, ``random`` or a bot of your own
            with a fixed amount of work (docs/rl.md).
        seat: the learner's seat (``None``: drawn at random each episode, from the
            seed when ``reset`` is given one).
        options: the game's options (``None``: defaults).
        reward: ``"win"`` (+1 if the learner's side won, -1 if it lost, 0 for a draw, at
            the end) or ``"score"`` (the learner's change of score after each step). A
            learner alone (Triominos, ``seats=1``) always wins: learn from ``"score"``.
        max_actions: the game is truncated after this many actions, bots' included.
        illegal: what an action outside the mask does: ``"raise"`` (default) raises
            :class:`~gametable.core.errors.IllegalAction`; ``"lose"`` ends the episode
            with reward -1 (``info["illegal"]`` says why), as PettingZoo's
            ``TerminateIllegalWrapper`` does. Either way the game is unchanged.

    Warns:
        PlaysAsAnother: an opponent that does not play the game as itself but as another
            player (``semantic`` plays Sequence Cats as ``greedy``), as ``simulate`` and
            the arena warn.

    Raises:
        ConfigError: invalid options or seat count. KeyError: an unknown bot name.
        NoEncoding: the game has no encoding (Dixit).
        TypeError: ``seats`` or ``seat`` is not a whole number (``"2"``, ``1.0`` and
            ``True`` are refused, naming the argument); ``opponents`` is neither a name
            nor a list of names (``None``, say).
        ValueError: ``seat`` outside ``0 … seats - 1``; ``opponents`` a list whose
            length is not ``seats - 1``; ``reward``, ``illegal`` or ``max_actions``
            none of those above.
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(self, game: str | Game[Any], opponents: str | Sequence[str] = "greedy",
                 seats: int = 2, *, seat: int | None = 0,
                 options: Mapping[str, Any] | None = None, reward: Reward = "win",
                 max_actions: int | None = None, illegal: Literal["raise", "lose"] = "raise",
                 render_mode: str | None = None) -> None:
        if illegal not in ("raise", "lose"):
            raise ValueError(f'illegal must be "raise" or "lose", not {illegal!r}')
        if reward not in ("win", "score"):
            raise ValueError(f'reward must be "win" or "score", not {reward!r}')
        if render_mode not in (None, "ansi"):
            raise ValueError(f'render_mode must be None or "ansi", not {render_mode!r}')
        seats = whole_number(seats, "seats")
        # The game's own seat count first: its rule (TR-SETUP-2) says what 0 seats lack.
        episode = Episode(game, seats, options)
        if seat is not None:
            seat = whole_number(seat, "seat")
            if not 0 <= seat < seats:
                raise ValueError(f"seat must be one of 0 … {seats - 1}, not {seat}")
        if not isinstance(opponents, str) and (
                not isinstance(opponents, Sequence)
                or not all(isinstance(name, str) for name in opponents)):
            raise TypeError("opponents is a bot name, or a list of one name a seat but the "
                            f"learner's, not {opponents!r}"[:200])
        names = [opponents] * (seats - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != seats - 1:
            need = "1 opponent" if seats == 2 else f"{seats - 1} opponents"
            raise ValueError(f"{seats} seats need {need}, not {len(names)}")
        unknown = sorted(set(names) - set(bot_names()))
        if unknown:
            raise UnknownBot(unknown[0])
        warn_fallbacks(episode.game, names, probe=True)  # the bots are made at reset
        limit = check_max_actions(max_actions)
        self.episode = episode
        self.opponents = names
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.reward_kind: Reward = reward
        self.max_actions = limit
        self.illegal = illegal
        self.render_mode = render_mode
        nested = observation_space(self.episode)
        arrays = nested["observation"]
        assert isinstance(arrays, spaces.Dict)
        self.observation_space = spaces.Dict({**arrays.spaces,
                                              "action_mask": nested["action_mask"]})
        self.action_space = spaces.Discrete(  # type: ignore[assignment]
            self.episode.encoding.action_count)
        self._bots: dict[int, Bot] = {}
        self._score = 0.0
        self._over = True
        if "action_mask" in self.episode.observation_specs:
            raise ValueError('an encoding may not name an array "action_mask"')

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new game (the same ``seed`` deals the same game and seats the same
        bots with the same seeds) and play the bots up to the learner's first decision.
        ``options`` are not read: the game's options are the environment's. The game's
        own seed (``record().seed``) is drawn from ``seed``, not ``seed`` itself.

        Raises:
            ValueError: ``seed`` is not a whole number in ``0 … 2**63 - 1`` (a NumPy
                integer is one); nothing changes.
            BotFailed: an opponent raised or chose an action the rules refuse (the
                message names it, its seat and the game's seed).
        """
        del options
        if seed is not None:
            # Refused before anything changes, as GameEnv does; a NumPy integer is
            # handed on as an int (Gymnasium takes only Python's).
            seed = check_seed(seed)
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(self.episode.seats))
        self.episode.seat_names = [
            "learner" if s == self.seat else self._bot_name(s) for s in range(self.episode.seats)]
        # The record marks the computer players as such (docs/records.md: ``bot``).
        self.episode.seat_bots = [
            None if s == self.seat else self._bot_name(s) for s in range(self.episode.seats)]
        self.episode.start(game_seed)
        with fallbacks_warned():  # warned once when the environment was made
            self._bots = {s: make_bot(self._bot_name(s), self.episode.game, game_seed + 1 + s)
                          for s in range(self.episode.seats) if s != self.seat}
        self._score = self._learner_score()
        self._over = False
        if self._play_bots():  # the bots ended the game before the learner's first turn
            self._over = True
            return self._observation(), {"finished_before_learner": True, **self._result()}
        # The bots may have played max_actions before the learner's first turn: cut off
        # there (a step played one action more).
        if self.max_actions is not None and self.episode.actions >= self.max_actions:
            self._over = True
            return self._observation(), {"truncated_by": "max_actions", **self._result()}
        if not self.episode.decision(self.seat).actions:  # none the encoding can name
            self._over = True
            return self._observation(), {"truncated_by": "encoding", **self._result()}
        return self._observation(), {}

    def step(self, action: int) -> tuple[dict[str, Any], SupportsFloat, bool, bool,
                                          dict[str, Any]]:
        """Play ``action`` for the learner, then the bots until the learner decides again.

        Raises:
            IllegalAction: ``action`` is not legal now (its mask entry is 0) and
                ``illegal="raise"``; nothing changes.
            TypeError: ``action`` is not an integer (``52.7``, ``"52"`` and ``True`` are
                refused); nothing changes.
            RuntimeError: before ``reset()``, or once the episode is over.
            BotFailed: an opponent raised or chose an action the rules refuse (the
                message names it, its seat and the game's seed); the episode is then
                over (call ``reset()``).
        """
        self.episode.state  # noqa: B018 (raises before the first reset)
        if self._over:
            raise RuntimeError("this episode is over: call reset() for a new game")
        try:
            self.episode.act(self.seat, action)
        except IllegalAction as error:
            if self.illegal == "raise":
                raise
            self._over = True
            cause = error.__cause__
            why = f"{error} ({cause})" if isinstance(cause, IllegalAction) else str(error)
            return (self._observation(), -1.0, True, False, {"illegal": why, **self._result()})
        finished = self._play_bots()
        reward = 0.0
        if self.reward_kind == "score":
            score = self._learner_score()
            reward, self._score = score - self._score, score
        elif finished:
            reward = self._win_reward()
        info: dict[str, Any] = {}
        truncated = False
        if not finished and self.max_actions is not None \
                and self.episode.actions >= self.max_actions:
            truncated, info["truncated_by"] = True, "max_actions"
        elif not finished and not self.episode.decision(self.seat).actions:
            truncated, info["truncated_by"] = True, "encoding"
        if finished or truncated:
            self._over = True
            info.update(self._result())
        return self._observation(), reward, finished, truncated, info

    def _result(self) -> dict[str, Any]:
        """``{"winners", "scores"}`` of the game now (the end of an episode's info)."""
        outcome = self.episode.outcome()
        return {"winners": list(outcome.winners), "scores": list(outcome.scores)}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal catalogue numbers now, as booleans."""
        return self._mask(self.episode.decision(self.seat).mask).astype(bool)

    def legal_numbers(self) -> list[int]:
        """The learner's legal catalogue numbers now, ascending (the mask's ones; none
        once the episode is over)."""
        decision = self.episode.decision(self.seat)  # (raises before reset())
        return [] if self._over else sorted(decision.actions)

    def view(self) -> Observation:
        """The learner's view as JSON (what the observation was made from): the same
        the seat's player would be sent.

        Raises:
            RuntimeError: before ``reset()``.
        """
        return self.episode.view(self.seat)

    def record(self) -> GameRecord:
        """The game so far as a record (the learner's seat is named ``"learner"``).

        Raises:
            RuntimeError: no game has been dealt yet, or play went on from a position
                set with ``episode.state = …`` (a record begins with a deal).
        """
        return self.episode.current_record()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: actions so far, scores, the learner's seat."""
        if self.render_mode != "ansi":
            return None
        outcome = self.episode.outcome()
        return (f"{self.episode.game.name} after {self.episode.actions} actions; scores "
                f"{outcome.scores}; learner in seat {self.seat}"
                + ("; finished" if outcome.finished else ""))

    def _bot_name(self, seat: int) -> str:
        """The opponent listed for ``seat``: counted clockwise from the learner's left."""
        return self.opponents[(seat - self.seat - 1) % self.episode.seats]

    def _learner_score(self) -> float:
        return float(self.episode.outcome().scores[self.seat])

    def _win_reward(self) -> float:
        return final_rewards(self.episode.outcome(), self.episode.seats)[self.seat]

    def _play_bots(self) -> bool:
        """Let the bots decide until the learner is to act; True once the game is over
        (or cut off at ``max_actions``)."""
        episode = self.episode
        game = episode.game
        while True:
            seats = episode.to_act()
            if not seats:
                return True
            if self.seat in seats:
                return False
            if self.max_actions is not None and episode.actions >= self.max_actions:
                return False
            seat = seats[0]
            legal = game.legal_actions(episode.state, seat)
            # An opponent's failure names it, its seat and the game's seed (it read as
            # the learner's own illegal action).
            seed = episode.record.seed if episode.record is not None else 0
            try:
                action = self._bots[seat].choose(*handed(self._bots[seat],
                                                         game.view(episode.state, seat),
                                                         legal))
            except Exception as error:
                self._over = True  # the episode cannot go on: reset() begins another
                raise BotFailed.of(self._bot_name(seat), seat, game.name, seed,
                                   episode.actions, error) from error
            if not isinstance(action, Mapping):  # an index, None: say what it returned
                self._over = True
                raise BotFailed.of(self._bot_name(seat), seat, game.name, seed,
                                   episode.actions, NotAnAction(action), refused=True)
            try:
                episode.play(seat, action)
            except IllegalAction as error:
                self._over = True
                raise BotFailed.of(self._bot_name(seat), seat, game.name, seed,
                                   episode.actions, error, refused=True) from error

    def _observation(self) -> dict[str, Any]:
        decision = self.episode.decision(self.seat)
        return {**{name: array.copy() for name, array in decision.observation.items()},
                "action_mask": self._mask(decision.mask)}

    def _mask(self, mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
        """A copy of ``mask``, or zeros once the episode is over (cut off at
        ``max_actions`` the learner still had legal moves: none is offered)."""
        return np.zeros_like(mask) if self._over else mask.copy()
