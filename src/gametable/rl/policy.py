"""A trained policy as a computer player: it sits at a table, in ``simulate`` and in the
arena like any bot, seeing only its seat's view (docs/rl.md, "A policy at the table").
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from gametable.core.config import stored_options
from gametable.core.encoding import Encoding, mask_of
from gametable.core.errors import ConfigError
from gametable.core.protocol import Action, Game, Observation
from gametable.rl.episode import game_with_encoding

Policy = Callable[[dict[str, npt.NDArray[Any]]], Any]
"""Encoded observation (arrays by name, ``"action_mask"`` among them) → catalogue number."""


class PolicyBot:
    """Plays the catalogue number ``policy`` chooses from the seat's encoded view.

    ``policy`` gets what :class:`~gametable.rl.BotTableEnv` gives a learner: the view's
    arrays by name and ``"action_mask"`` (int8, 1 where a number is legal), for the
    game's encoding of ``options`` and ``seats``, which must be the table's (the
    arrays' shapes depend on them). It returns a legal number (an ``int``, a NumPy
    integer or a 0-d array). A decision none of whose legal actions has a number (a
    Triominos tile laid outside the encoding's window, rare) takes the first legal
    action, so the game goes on.

    Register it to use it by name (``register_bot("mine", lambda game, rng:
    PolicyBot(my_policy, game, seats=2))``; ``gametable arena … --import my_module``).

    Raises:
        ConfigError: ``options`` or ``seats`` the rules refuse, or an unknown game.
        NoEncoding: the game has no encoding (Dixit).
        ValueError: from :meth:`choose`, a table of another game, or whose seat
            count is not ``seats``
            ("this policy was encoded for 2 seats; the table has 4", at its first
            decision: a bot is made without the table's size) or whose options encode
            otherwise (another Sequence Cats board: "this policy was encoded for other
            options than the table's (board)"), or a number whose mask entry is 0
            (naming it); ``TypeError`` for a number that is not whole.
    """

    reads_only = True  # encodes the view into new arrays; changes neither argument

    def __init__(self, policy: Policy, game: str | Game[Any],
                 options: Mapping[str, Any] | None = None, seats: int = 2,
                 name: str = "policy") -> None:
        self.game = game_with_encoding(game)
        self.config = self.game.make_config(options, seats)
        self.encoding: Encoding = self.game.encoding(self.config, seats)  # type: ignore[attr-defined]
        self.policy = policy
        self.name = name
        self.seats = seats
        self._table_checked = False

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        """The legal action whose catalogue number ``policy`` returns for ``view``
        encoded (the class's description; its errors are listed there)."""
        if not self._table_checked:
            self._check_table(view)
            self._table_checked = True
        mask, actions = mask_of(self.encoding, view, legal)
        if not actions:
            return legal[0]
        observation: dict[str, npt.NDArray[Any]] = {**self.encoding.encode(view),
                                                    "action_mask": mask}
        chosen = self.policy(observation)
        try:
            if isinstance(chosen, bool):
                raise TypeError
            number = operator.index(chosen)
        except TypeError:
            raise TypeError("a policy returns a catalogue number (an int), not "
                            f"{chosen!r}"[:200]) from None
        action = actions.get(number)
        if action is None:
            what = (self.encoding.describe_action(number)
                    if 0 <= number < self.encoding.action_count else "outside the catalogue")
            legal_numbers = np.flatnonzero(mask)[:8].tolist()
            raise ValueError(f"the policy chose {number} ({what}), which is not legal now: "
                             f"choose where action_mask is 1 (such as {legal_numbers})")
        return action

    def _check_table(self, view: Observation) -> None:
        """Refuse a table whose views this policy's encoding would read wrong: another
        game, another seat count, or options that encode differently (another Sequence Cats board).

        Raises:
            ValueError: naming both.
        """
        played = view.get("game")
        if isinstance(played, str) and played != self.game.name:
            # (Another game's views read as this one's failed on a missing key:
            # "KeyError: 'team'".)
            raise ValueError(f"this policy was encoded for {self.game.name}; the table "
                             f"plays {played}: give PolicyBot the game its factory is "
                             "given (lambda game, rng: PolicyBot(policy, game, …)) and "
                             "seat it at tables of the game it was trained for")
        table = table_seats(view)
        if table is not None and table != self.seats:
            raise ValueError(f"this policy was encoded for {self.seats} seats; the "
                             f"table has {table}")
        options = view.get("options")
        if not isinstance(options, Mapping):
            return
        try:
            config = self.game.make_config(options, self.seats)
        except ConfigError:
            return  # (a view's options are the table's: the rules made its game)
        encoding: Encoding = self.game.encoding(config, self.seats)  # type: ignore[attr-defined]
        if encoding.key != self.encoding.key:
            ours, theirs = stored_options(self.config), stored_options(config)
            differ = sorted(name for name in {*ours, *theirs}
                            if ours.get(name) != theirs.get(name))
            raise ValueError("this policy was encoded for other options than the "
                             f"table's ({', '.join(differ)}): give PolicyBot the options "
                             "it was trained with, and seat it at tables of those")


def table_seats(view: Observation) -> int | None:
    """The seat count of the table ``view`` was seen at: the length of its
    ``hand_sizes`` (every game's view lists each seat's hand size), or ``None`` when the
    view has no such list."""
    sizes = view.get("hand_sizes")
    return len(sizes) if isinstance(sizes, list) else None
