"""Fixed-size numeric encodings of views and actions, for learning agents.

A game that offers one (:class:`~gametable.core.protocol.HasEncoding`) turns a seat's
view into NumPy arrays of fixed shapes and numbers every action of a fixed catalogue,
so that a reinforcement-learning environment (:mod:`gametable.rl`) can hand a network
an observation and an action mask without knowing the game. An encoding reads views
only: whatever it shows, the seat's view already showed.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from gametable.core.protocol import Action, Observation


@dataclass(frozen=True)
class ArraySpec:
    """The shape and bounds of one array of an encoded observation.

    Attributes:
        shape: the array's shape.
        low, high: every element lies in ``low … high`` (inclusive).
        dtype: the NumPy type name (``"int8"``, ``"int16"``, ``"float32"``).
        description: what the array holds, for docs and error messages.
    """

    shape: tuple[int, ...]
    low: float
    high: float
    dtype: str = "int8"
    description: str = ""

    def zeros(self) -> npt.NDArray[Any]:
        """A new array of this shape and type, all zeros."""
        return np.zeros(self.shape, dtype=self.dtype)


class Encoding(Protocol):
    """One game's encoding for one config and seat count (fixed while a game lasts).

    Attributes:
        observation: the arrays of an encoded view, by name.
        action_count: the size of the action catalogue; actions are ``0 … action_count-1``.
        key: equal for two encodings exactly when they encode views alike and number
            actions alike (a Sequence Cats board, teams and seats; Triominos' seats):
            what a policy trained on one needs of a table.
    """

    observation: Mapping[str, ArraySpec]
    action_count: int
    key: Hashable

    def encode(self, view: Observation) -> dict[str, npt.NDArray[Any]]:
        """The arrays of ``view`` (a seated view of this game), as :attr:`observation`
        describes them, from that seat's point of view."""
        ...

    def action_index(self, view: Observation, action: Action) -> int | None:
        """The catalogue number of ``action`` (legal in ``view``), or ``None`` when the
        catalogue has no number for it (the env then leaves it out of the mask)."""
        ...

    def describe_action(self, index: int) -> str:
        """What catalogue number ``index`` means, in words (for error messages).

        Raises:
            ValueError: ``index`` is outside ``0 … action_count - 1``.
        """
        ...

    def action_at(self, view: Observation, index: int) -> Action | None:
        """The action catalogue number ``index`` stands for in ``view`` (a seated view),
        legal or not, or ``None`` where it stands for none there (a space with no card of
        its own, a candidate five that is not on offer). :class:`~gametable.rl.GameEnv`
        applies it to a copy of the game to tell why a masked-out number is refused.

        Raises:
            ValueError: ``index`` is outside ``0 … action_count - 1``.
        """
        ...


def seated(view: Observation) -> int:
    """The seat of a seated ``view``.

    Raises:
        ValueError: ``view`` is a spectator's (no seat, no hand): an encoding tells a
            view from one seat's side.
    """
    seat = view.get("seat")
    if seat is None or "hand" not in view:
        raise ValueError("an encoding needs a seat's own view, not a spectator's")
    return int(seat)


def mask_of(encoding: Encoding, view: Observation, legal: Sequence[Action]
            ) -> tuple[npt.NDArray[np.int8], dict[int, Action]]:
    """The action mask of ``legal`` (1 where the catalogue number is legal) and each
    masked number's action.

    Raises:
        ValueError: two legal actions got the same number (an encoding's defect).
    """
    mask = np.zeros(encoding.action_count, dtype=np.int8)
    actions: dict[int, Action] = {}
    for action in legal:
        index = encoding.action_index(view, action)
        if index is None:
            continue
        if index in actions and actions[index] != action:
            raise ValueError(f"actions {actions[index]} and {action} share number {index}")
        actions[index] = action
        mask[index] = 1
    return mask, actions
