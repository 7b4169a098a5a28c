"""The mutable state of one Sequence Cats game. Only the rules module changes it."""

from __future__ import annotations

import random
from typing import Any

from gametable.core.actions import SharesFrozenActions
from gametable.core.config import stored_options
from gametable.games.sequence_cats.board import Board
from gametable.games.sequence_cats.config import SequenceCatsConfig

EMPTY = -1
"""``cells`` value of a breed space without a chip."""
FREE_SPACE = -2
"""``cells`` value of a free space (counts for every colour, SC-WIN-1)."""
BLANK_SPACE = -3
"""``cells`` value of a free space with the option ``free_corners`` off (SC-COMP-2): it
takes no chip and counts for nobody."""
NO_WINNER = -1
NOBODY = -1
"""``offer_by`` while no draw offer is open."""


class SequenceCatsState(SharesFrozenActions):
    """All of a game, secrets included. Never sent anywhere: see ``SequenceCats.view``.

    Attributes:
        config: the validated options; ``public_options`` the same as JSON (those that
            differ from their defaults, and ``rules_version``), as every view shows them.
        board: the layout with its geometry.
        seats: number of seats; ``teams`` number of teams; ``team_of[seat]`` its team
            (teams alternate around the table, SC-PLAY-1).
        cells: per space, :data:`EMPTY`, :data:`FREE_SPACE`, :data:`BLANK_SPACE` or the
            team whose chip is on it.
        free_mask: bit mask of the free spaces that count for every colour (none when
            the option ``free_corners`` is off, SC-COMP-2).
        masks: per team, bit mask of its chips plus ``free_mask``.
        open_spaces: how many breed spaces have no chip.
        options: per breed, the ``play`` actions for its free spaces (kept up to date
            move by move, so a card's playable spaces cost one lookup).
        locked: bit mask of the spaces in completed sequences (SC-MEOW-2).
        sequences: per team, the bit masks of its completed sequences, in order.
        hands: per seat, card numbers; ``pile`` the draw pile (drawn from the end);
            ``discards`` per seat, its face-up discard pile (last = top).
        current: the seat whose turn it is; ``exchanged`` whether it already exchanged a
            dead card this turn (SC-DEAD-1); ``turn`` completed turns so far.
        rules: the rules version (``config.rules_version``): 1 as first released, 2 or
            more after the audit of 2026-11.
        choosing: while the seat whose turn it is chooses which five form a sequence
            (SC-WIN-2, rules 2), the valid windows (bit masks) of each line through its
            new chip still to settle, the first one being the choice now; else ``None``.
        offer_by: the seat whose draw offer is open (SC-WIN-3 b, rules 2), or
            :data:`NOBODY`; ``offer_waiting`` the seats that have still to answer it,
            ``offer_accepted`` those that accepted, in order; ``offered_at`` per seat,
            the ``turn`` of its last offer (-1: never).
        passes: turns in a row that ended in a pass (SC-WIN-3 c); ``filled`` whether the
            board has ever been full.
        winner: the winning team, or :data:`NO_WINNER`; ``finished`` the game is over;
            ``draw_reason`` why a drawn game ended (``"blocked"``, ``"passes"``,
            ``"agreed"``), else ``None``.
        last_play: the latest card play, ``(seat, card, space, team)`` with the team of
            the chip placed or, for MEOW, taken off; ``None`` before the first.
        rng: the seeded generator all chance is drawn from.
    """

    __slots__ = (
        "board", "cells", "choosing", "config", "current", "discards", "draw_reason",
        "exchanged", "filled", "finished", "free_mask", "hands", "last_play", "legal_cache",
        "locked",
        "masks", "offer_accepted", "offer_by", "offer_waiting", "offered_at", "open_spaces",
        "options", "passes", "pile", "public_options", "rng", "rules", "seats", "sequences",
        "team_of", "teams",
        "turn", "winner",
    )
    caches = ("legal_cache",)

    def __init__(self, config: SequenceCatsConfig, board: Board, seats: int, teams: int,
                 seed: int) -> None:
        self.config = config
        self.public_options = stored_options(config)
        self.board = board
        self.seats = seats
        self.teams = teams
        self.team_of = [seat % teams for seat in range(seats)]
        self.rules = config.rules_version
        if config.free_corners:
            self.cells = list(board.empty_cells)
            self.free_mask = board.free_mask
        else:
            self.cells = [BLANK_SPACE if cell == FREE_SPACE else cell
                          for cell in board.empty_cells]
            self.free_mask = 0
        self.masks = [self.free_mask] * teams
        self.open_spaces = len(board.breed_spaces)
        self.options = list(board.all_options)
        self.locked = 0
        self.sequences: list[list[int]] = [[] for _ in range(teams)]
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.pile: list[int] = []
        self.discards: list[list[int]] = [[] for _ in range(seats)]
        self.current = 0
        self.exchanged = False
        self.turn = 0
        self.choosing: list[list[int]] | None = None
        self.offer_by = NOBODY
        self.offer_waiting: frozenset[int] = frozenset()
        self.offer_accepted: list[int] = []
        self.offered_at = [-1] * seats
        self.passes = 0
        self.filled = False
        self.winner = NO_WINNER
        self.finished = False
        self.draw_reason: str | None = None
        self.last_play: tuple[int, int, int, int] | None = None
        self.rng = random.Random(seed)
        self.legal_cache: list[dict[str, Any]] | None = None

    def copy(self) -> SequenceCatsState:
        """An independent copy (the generator included)."""
        other = object.__new__(SequenceCatsState)
        other.config = self.config
        other.public_options = self.public_options
        other.board = self.board
        other.seats = self.seats
        other.teams = self.teams
        other.team_of = self.team_of
        other.rules = self.rules
        other.cells = self.cells.copy()
        other.free_mask = self.free_mask
        other.masks = self.masks.copy()
        other.open_spaces = self.open_spaces
        other.options = self.options.copy()
        other.locked = self.locked
        other.sequences = [list(s) for s in self.sequences]
        other.hands = [list(h) for h in self.hands]
        other.pile = self.pile.copy()
        other.discards = [list(d) for d in self.discards]
        other.current = self.current
        other.exchanged = self.exchanged
        other.turn = self.turn
        other.choosing = None if self.choosing is None else [list(c) for c in self.choosing]
        other.offer_by = self.offer_by
        other.offer_waiting = self.offer_waiting
        other.offer_accepted = self.offer_accepted.copy()
        other.offered_at = self.offered_at.copy()
        other.passes = self.passes
        other.filled = self.filled
        other.winner = self.winner
        other.finished = self.finished
        other.draw_reason = self.draw_reason
        other.last_play = self.last_play
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.legal_cache = None
        return other

    def recompute(self) -> None:
        """Rebuild the derived fields (masks, options, open spaces) from ``cells``.

        For setting up positions by hand (puzzles, tests): change ``cells`` and
        ``sequences``/``locked``, then call this.
        """
        board = self.board
        self.masks = [self.free_mask] * self.teams
        for space, cell in enumerate(self.cells):
            if cell >= 0:
                self.masks[cell] |= 1 << space
        self.open_spaces = sum(1 for cell in self.cells if cell == EMPTY)
        self.options = [
            plays[(self.cells[a] != EMPTY) | (self.cells[b] != EMPTY) << 1]
            for plays, (a, b) in zip(board.option_sets, board.spaces_of, strict=True)
        ]
        self.legal_cache = None
