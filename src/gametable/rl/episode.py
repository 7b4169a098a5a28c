"""One game played by catalogue numbers: what both environments share.

An :class:`Episode` holds a game's state and record, and answers for a seat with its
encoded view, its action mask and the action behind each masked number. It reads the
state only through the protocol's ``view`` (for observations) and ``legal_actions``
(for the mask), so an agent learns from exactly what a player at the table sees.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from gametable.core import registry
from gametable.core.config import stored_options
from gametable.core.encoding import ArraySpec, Encoding, mask_of
from gametable.core.errors import IllegalAction
from gametable.core.protocol import Action, Game, HasEncoding, Observation, Outcome, Seat
from gametable.core.records import GameRecord, SeatInfo, new_record
from gametable.core.rng import check_seed
from gametable.core.values import json_copy


class NoEncoding(ValueError):
    """The game has no fixed-size encoding (:class:`~gametable.core.protocol.HasEncoding`)."""


def encodable_games() -> list[str]:
    """The registered games that have an encoding, by name."""
    return [name for name in registry.names() if isinstance(registry.get(name), HasEncoding)]


def game_with_encoding(game: str | Game[Any]) -> Game[Any]:
    """The game ``game`` names (or ``game`` itself), checked to have an encoding.

    Raises:
        ConfigError: an unknown game name.
        NoEncoding: the game has no encoding (Dixit: its clues are free text).
    """
    found = registry.get(game) if isinstance(game, str) else game
    if not isinstance(found, HasEncoding):
        raise NoEncoding(
            f"{found.name} has no fixed-size encoding for learning agents (a game needs "
            f"a finite action catalogue; {found.name}'s actions include free text). "
            f"Games with one: {', '.join(encodable_games())}. Any game can still be "
            f"played through the protocol itself (docs/rl.md).")
    return found


@dataclass
class Decision:
    """One seat's pending decision, encoded.

    Attributes:
        observation: the encoded view (arrays by name).
        mask: int8 array of the catalogue's size, 1 where the number is legal now.
        actions: the action behind each masked number.
        unencodable: legal actions that have no catalogue number (then left out).
    """

    observation: dict[str, npt.NDArray[Any]]
    mask: npt.NDArray[np.int8]
    actions: dict[int, Action]
    unencodable: int


class Episode:
    """A game of ``game`` for ``seats`` seats, driven by catalogue numbers.

    Args:
        game: a registered game's name or a game object with an encoding.
        seats: how many seats (the game's rules decide which counts are allowed).
        options: the game's options (as a table's lobby takes them); ``None``: defaults.
        seat_names: each seat's name in the record (``None``: the agents' names,
            ``"seat_0"`` …, as seats are numbered from 0 in Python).
        seat_bots: each seat's computer player's name in the record (``None``, or
            ``None`` for a seat: a seat the agent plays); can be set before each start.

    Raises:
        ConfigError: invalid options or a seat count the rules refuse.
        NoEncoding: the game has no encoding.
    """

    def __init__(self, game: str | Game[Any], seats: int,
                 options: Mapping[str, Any] | None = None,
                 seat_names: list[str] | None = None,
                 seat_bots: list[str | None] | None = None) -> None:
        self.game = game_with_encoding(game)
        self.seats = seats
        self.config = self.game.make_config(options, seats)
        encoding: Encoding = self.game.encoding(self.config, seats)  # type: ignore[attr-defined]
        self.encoding = encoding
        self.seat_names = seat_names or [f"seat_{seat}" for seat in range(seats)]
        self.seat_bots: list[str | None] = seat_bots or [None] * seats
        self._state: Any = None
        self.record: GameRecord | None = None
        self.actions = 0
        self._decisions: dict[Seat, Decision] = {}
        self._seeds: random.Random | None = None

    @property
    def state(self) -> Any:
        """The game's state.

        Raises:
            RuntimeError: no game has been dealt yet (``reset()`` first).
        """
        if self._state is None:
            raise RuntimeError("no game has been dealt yet: call reset() first")
        return self._state

    @state.setter
    def state(self, state: Any) -> None:
        """Play on from ``state`` (a state of this game and config, such as a clone of a
        position to start from): what was worked out for the old one (views, masks) is
        forgotten, and the episode has no :attr:`record` until the next :meth:`start`,
        a record being a deal and every action since it."""
        self._state = state
        self._decisions = {}
        self.record = None

    @property
    def observation_specs(self) -> Mapping[str, ArraySpec]:
        """The arrays of an encoded view, by name."""
        return self.encoding.observation

    def start(self, seed: int | None) -> None:
        """Deal a new game from ``seed``. ``None`` continues the stream of seeds the
        last given seed began (so ``start(42)`` and then ``start(None)`` again and again
        deal the same games every run, as Gymnasium's ``reset`` does), or, before any
        seed was given, takes a random one from the system.

        Raises:
            ValueError: ``seed`` is not a whole number in ``0 … 2**63 - 1`` (a record's
                range); the game being played, and the stream, are left as they were.
        """
        if seed is not None:
            seed = check_seed(seed)
            self._seeds = random.Random(seed)
        elif self._seeds is not None:
            seed = self._seeds.getrandbits(63)
        else:
            seed = random.SystemRandom().getrandbits(63)
        state = self.game.new_game(self.config, self.seats, seed)
        record = new_record(self.game.name, stored_options(self.config),
                            [SeatInfo(name=name, bot=bot)
                             for name, bot in zip(self.seat_names, self.seat_bots, strict=True)],
                            seed)
        self.state = state
        self.record = record
        self.actions = 0

    def to_act(self) -> list[Seat]:
        """The seats with a pending decision, lowest first (empty once finished)."""
        return sorted(self.game.to_act(self.state))

    def view(self, seat: Seat) -> Observation:
        """``seat``'s view of the game now (JSON, as a player at the table sees it): a
        copy of its own, which the caller may change (views of one state share objects
        with each other)."""
        view: Observation = json_copy(self.game.view(self.state, seat))
        return view

    def decision(self, seat: Seat) -> Decision:
        """``seat``'s encoded view and mask now (an all-zero mask when it has nothing to
        decide)."""
        found = self._decisions.get(seat)
        if found is None:
            view = self.game.view(self.state, seat)
            legal = self.game.legal_actions(self.state, seat)
            mask, actions = mask_of(self.encoding, view, legal)
            found = Decision(self.encoding.encode(view), mask, actions,
                             len(legal) - len(actions))
            self._decisions[seat] = found
        return found

    def act(self, seat: Seat, number: int) -> None:
        """Play catalogue number ``number`` for ``seat``.

        Raises:
            TypeError: ``number`` is not a whole number (a float, a string, a bool).
            IllegalAction: ``number`` is not legal for ``seat`` now (the mask says which
                are); nothing changes.
        """
        try:
            if isinstance(number, bool):
                raise TypeError
            number = operator.index(number)  # an int, a NumPy integer or 0-d array
        except TypeError:  # a float, a string, an array of one number or more
            raise TypeError("an action is a catalogue number (an int), not "
                            f"{number!r}"[:200]) from None
        decision = self.decision(seat)
        action = decision.actions.get(int(number))
        if action is None:
            inside = 0 <= int(number) < self.encoding.action_count
            what = self.encoding.describe_action(int(number)) if inside else "outside the catalogue"
            refusal = self.why_refused(seat, int(number)) if inside else None
            raise IllegalAction("PROTOCOL", "errors.not_in_mask", number=int(number),
                                what=what, seat=seat) from refusal
        self.play(seat, action)

    def why_refused(self, seat: Seat, number: int) -> IllegalAction | None:
        """The rules' refusal of the action catalogue number ``number`` stands for in
        ``seat``'s view (``SC-TURN-2: You do not hold Bengal.``), found by applying it to
        a copy of the game; ``None`` where the number stands for no action there or the
        rules would take it (an action the catalogue has no number for, such as a draw
        offer, is never masked in). :meth:`act` raises its refusal from this one, so a
        traceback shows the rule, and ``error.__cause__`` holds it.
        """
        action = self.encoding.action_at(self.game.view(self.state, seat), number)
        if action is None:
            return None
        try:
            self.game.apply(self.game.clone(self.state), seat, action)
        except IllegalAction as refusal:
            return refusal
        return None

    def play(self, seat: Seat, action: Action) -> None:
        """Apply ``action`` (a JSON action, as a bot chooses one) for ``seat`` and record it.

        Raises:
            IllegalAction: the rules refuse it; nothing changes.
        """
        self.game.apply(self.state, seat, action)
        if self.record is not None:
            self.record.append(seat, dict(action))
        self.actions += 1
        self._decisions = {}

    def current_record(self) -> GameRecord:
        """The record of the game since its deal: a copy, which play after does not
        change and whose changes do not reach the episode's own.

        Raises:
            RuntimeError: no game has been dealt yet (``reset()`` first), or play went on
                from a position set with ``episode.state = …``.
        """
        self.state  # noqa: B018 (raises before the first reset)
        if self.record is None:
            raise RuntimeError("this game went on from a position set with "
                               "episode.state = …: a record begins with a deal, so it "
                               "has none until the next reset()")
        return self.record.model_copy(deep=True)

    def outcome(self) -> Outcome:
        """The game's outcome so far."""
        return self.game.outcome(self.state)
