"""Sequence Cats as fixed-size arrays, for learning agents (:mod:`gametable.core.encoding`).

Everything is read off one seat's view and told from that seat's side: its own team's
chips are plane 3 whatever its colour, the seats are counted from it clockwise.

Observation (a board of ``R`` rows and ``C`` columns, ``S`` seats):

``board`` int8 (14, R, C), 0 or 1
    0 empty space, 1 free space (every colour's chip, SC-COMP-2), 2 blank space (free
    corners off), 3 the seat's team's chips, 4 the next team's, 5 the team after that
    (three teams only), 6 chips in a sequence (SC-WIN-1), 7 the last play's space,
    8 spaces a card in the hand can take a chip on (a breed held, its space empty),
    9–13 the spaces of candidate fives 1–5 while the seat chooses a sequence (SC-WIN-2;
    candidate ``k`` is the one action ``3N+44+k-1`` chooses).
``hand``, ``discards``, ``dead`` int8 (44,), 0–2
    How many of each card (SC-COMP-1 order, then PURRR, MEOW) the seat holds, lie in
    any discard pile, and are dead in its hand (SC-DEAD-1).
``hand_sizes`` int8 (S,)
    Cards in each hand, the seat's own first, then clockwise.
``facts`` int16 (8,)
    Cards in the draw pile; turns played; passes in a row; whether the seat has
    exchanged a dead card this turn; sequences to win; the seat's team's sequences;
    the most any other team has; whether a draw offer waits for the seat's answer.

Action catalogue (``N = R × C`` spaces, numbered row by row from ``A1``):

=========================  ================================================
``0 … N-1``                play the breed card of space ``n`` on it
``N … 2N-1``               play PURRR on space ``n - N`` (SC-PURR-1)
``2N … 3N-1``              play MEOW on space ``n - 2N`` (SC-MEOW-1)
``3N … 3N+43``             exchange the dead card ``n - 3N`` (SC-DEAD-1)
``3N+44 … 3N+48``          choose the ``k``-th candidate five (SC-WIN-2)
``3N+49``                  pass (rules version 1 only, SC-WIN-3 a)
``3N+50``, ``3N+51``       accept, decline a draw offer (SC-WIN-3 b)
=========================  ================================================

A draw offer (``offer_draw``) is nobody's pending decision and is not in the catalogue.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from gametable.core.encoding import ArraySpec, seated
from gametable.core.protocol import Action, Observation
from gametable.games.sequence_cats.board import Board, board_for
from gametable.games.sequence_cats.cards import CARD_IDS, CARD_NUMBER, MEOW, PURRR
from gametable.games.sequence_cats.config import SequenceCatsConfig, team_count
from gametable.games.sequence_cats.state import BLANK_SPACE, EMPTY, FREE_SPACE

CARDS: Final = len(CARD_IDS)
"""44 kinds of card: 42 breeds, PURRR, MEOW."""
CANDIDATES: Final = 5
"""At most five fives of one line hold the chip just placed (SC-WIN-2)."""
PLANES: Final = 9 + CANDIDATES
_ANSWERS: Final = {"pass": 0, "accept_draw": 1, "decline_draw": 2}
_ANSWER_NAMES: Final = ("pass", "accept the draw offer", "decline the draw offer")


class SequenceCatsEncoding:
    """The encoding of Sequence Cats games with one config and seat count.

    Attributes:
        board: the layout (public: the same for every seat).
        seats, teams: the table's seat and team counts.
        observation: the arrays of an encoded view (see the module docstring).
        action_count: ``3N + 52`` for a board of ``N`` spaces.
        key: the board's size and spaces, the seats and the teams.
    """

    def __init__(self, config: SequenceCatsConfig, seats: int) -> None:
        self.board: Board = board_for(config.board)
        self.seats = seats
        self.teams = team_count(config, seats)
        self.key = ("sequence-cats", self.board.rows, self.board.columns, self.board.names,
                    seats, self.teams)
        rows, columns = self.board.rows, self.board.columns
        self.spaces = rows * columns
        spaces = self.spaces
        self._exchange = 3 * spaces
        self._sequence = self._exchange + CARDS
        self._answers = self._sequence + CANDIDATES
        self.action_count = self._answers + len(_ANSWERS)
        self.observation: dict[str, ArraySpec] = {
            "board": ArraySpec((PLANES, rows, columns), 0, 1, "int8",
                               "board planes: empty, free, blank, own team, next team, "
                               "team after, in a sequence, last play, playable, "
                               "candidate fives 1-5"),
            "hand": ArraySpec((CARDS,), 0, 2, "int8", "cards of each kind in the hand"),
            "discards": ArraySpec((CARDS,), 0, 2, "int8",
                                  "cards of each kind in the discard piles"),
            "dead": ArraySpec((CARDS,), 0, 2, "int8", "dead cards of each kind in the hand"),
            "hand_sizes": ArraySpec((seats,), 0, 127, "int8",
                                    "cards in each hand, own first, then clockwise"),
            "facts": ArraySpec((8,), 0, 32767, "int16",
                               "draw pile, turn, passes, exchanged, sequences to win, "
                               "own sequences, most of another team, draw offer to answer"),
        }

    def encode(self, view: Observation) -> dict[str, npt.NDArray[Any]]:
        """The arrays of a seated ``view`` (see the module docstring).

        Raises:
            ValueError: ``view`` is a spectator's (no seat, no hand).
        """
        seat = seated(view)
        board = self.board
        teams = self.teams
        own = view["team"]
        planes = np.zeros((PLANES, self.spaces), dtype=np.int8)
        cells = np.asarray(view["cells"], dtype=np.int16)
        planes[0] = cells == EMPTY
        planes[1] = cells == FREE_SPACE
        planes[2] = cells == BLANK_SPACE
        for team in range(teams):
            planes[3 + (team - own) % teams] = cells == team
        index = board.index
        sequences = [0] * teams
        for sequence in view["sequences"]:
            for label in sequence["spaces"]:
                planes[6, index[label]] = 1
            sequences[sequence["team"]] += 1
        last = view["last_play"]
        if last is not None:
            planes[7, index[last["space"]]] = 1
        hand = np.zeros(CARDS, dtype=np.int8)
        for card in view["hand"]:
            number = CARD_NUMBER[card]
            hand[number] += 1
            if number < PURRR:
                for space in board.spaces_of[number]:
                    if cells[space] == EMPTY:
                        planes[8, space] = 1
        choosing = view["choosing"]
        if choosing is not None and choosing["seat"] == seat:
            for k, candidate in enumerate(choosing["candidates"][:CANDIDATES]):
                for label in candidate:
                    planes[9 + k, index[label]] = 1
        discards = np.zeros(CARDS, dtype=np.int8)
        for pile in view["discards"]:
            for card in pile:
                discards[CARD_NUMBER[card]] += 1
        dead = np.zeros(CARDS, dtype=np.int8)
        for card in view["dead"]:
            dead[CARD_NUMBER[card]] += 1
        seats = self.seats
        sizes = view["hand_sizes"]
        offer = view["draw_offer"]
        facts = [view["draw_pile"], min(view["turn"], 32767), view["passes"],
                 int(bool(view["exchanged"])), view["sequences_to_win"], sequences[own],
                 max((n for team, n in enumerate(sequences) if team != own), default=0),
                 int(offer is not None and seat in offer["waiting"])]
        return {
            "board": planes.reshape(PLANES, board.rows, board.columns),
            "hand": hand,
            "discards": discards,
            "dead": dead,
            "hand_sizes": np.asarray([sizes[(seat + k) % seats] for k in range(seats)],
                                     dtype=np.int8),
            "facts": np.asarray(facts, dtype=np.int16),
        }

    def action_index(self, view: Observation, action: Action) -> int | None:
        """The catalogue number of ``action`` (see the module docstring); ``None`` for a
        draw offer or a sequence candidate beyond the fifth (never legal)."""
        kind = action.get("type")
        if kind == "play":
            space = self.board.index[action["space"]]
            card = CARD_NUMBER[action["card"]]
            if card == PURRR:
                return self.spaces + space
            if card == MEOW:
                return 2 * self.spaces + space
            return space
        if kind == "exchange":
            return self._exchange + CARD_NUMBER[action["card"]]
        if kind == "sequence":
            candidates = view["choosing"]["candidates"]
            k = candidates.index(list(action["spaces"]))
            return self._sequence + k if k < CANDIDATES else None
        answer = _ANSWERS.get(str(kind))
        return None if answer is None else self._answers + answer

    def _part(self, index: int) -> tuple[str, int]:
        """Which part of the catalogue ``index`` lies in (``"breed"``, ``"purrr"``,
        ``"meow"``, ``"exchange"``, ``"sequence"``, ``"answer"``) and its number there
        (a space, a card, a candidate, an answer).

        Raises:
            ValueError: ``index`` is outside the catalogue.
        """
        if not 0 <= index < self.action_count:
            raise ValueError(f"action {index} is outside 0 … {self.action_count - 1}")
        starts = (("answer", self._answers), ("sequence", self._sequence),
                  ("exchange", self._exchange), ("meow", 2 * self.spaces),
                  ("purrr", self.spaces), ("breed", 0))
        return next((part, index - start) for part, start in starts if index >= start)

    def describe_action(self, index: int) -> str:
        """``index`` in words: ``"play the breed card of space C4 on it"``, ``"play PURRR
        on C4"``, ``"exchange the dead card abyssinian"``, ``"choose candidate five 2"``,
        ``"pass"``…

        Raises:
            ValueError: ``index`` is outside the catalogue.
        """
        part, n = self._part(index)
        if part == "breed":
            return f"play the breed card of space {self.board.labels[n]} on it"
        if part in ("purrr", "meow"):
            return f"play {part.upper()} on {self.board.labels[n]}"
        if part == "exchange":
            return f"exchange the dead card {CARD_IDS[n]}"
        if part == "sequence":
            return f"choose candidate five {n + 1}"
        return _ANSWER_NAMES[n]

    def action_at(self, view: Observation, index: int) -> Action | None:
        """The action ``index`` stands for in ``view``: ``{"type": "play", "card":
        "bengal", "space": "C4"}`` and so on; ``None`` for a breed card on a free or
        blank space, or a candidate five the seat is not choosing from.

        Raises:
            ValueError: ``index`` is outside the catalogue.
        """
        part, n = self._part(index)
        if part in ("breed", "purrr", "meow"):
            card = {"breed": self.board.breed_of[n], "purrr": PURRR, "meow": MEOW}[part]
            return None if card < 0 else {"type": "play", "card": CARD_IDS[card],
                                          "space": self.board.labels[n]}
        if part == "exchange":
            return {"type": "exchange", "card": CARD_IDS[n]}
        if part == "sequence":
            choosing = view.get("choosing")
            if choosing is None or n >= len(choosing["candidates"]):
                return None
            return {"type": "sequence", "spaces": list(choosing["candidates"][n])}
        return {"type": list(_ANSWERS)[n]}

