"""Many Sequence Cats games played on to their end at once, by ``greedy``-like seats.

A *rollout* continues a full state (a determinization, see ``SequenceCats.sample_state``)
with every seat playing a :class:`Policy`: :data:`GREEDY` plays as ``greedy`` does
(:mod:`.heuristics`): a chip is worth the five-space windows through its space
(:data:`.heuristics.OWN_LINE` for the team's open windows, :data:`.heuristics.BLOCK_LINE`
for another team's that it blocks), a MEOW the windows of the chip it removes, PURRR and
MEOW cost what keeping them is worth, a dead card is exchanged first (SC-DEAD-1) and ties
are broken at random; :data:`CAREFUL` keeps PURRR and MEOW for decisive moves, prefers
lines its hand can fill and counts discarded cards. The rules followed are those of a
turn (SC-TURN-1 to SC-TURN-3, SC-PURR-1, SC-MEOW-1, SC-DEAD-1, SC-WIN-1 with one
sequence to win).

The states are rows of NumPy arrays, and every row moves at each step: a row's window
counts are kept up to date chip by chip (as one *key* per window, see :class:`Tables`),
and the worth of every space for the seat to move is one matrix product of the windows'
worth with the board's space–window incidence. The products are small: they run on one
BLAS thread (``threadpoolctl``), which is faster than several and leaves the other cores
to the server. About 4,000–6,000 whole 2-seat games a second on one core
(``python -m benchmarks.rollouts``), where the rules' own ``apply`` with ``greedy``'s
ratings plays about 200.

Rollouts stop early, unfinished, when a draw pile runs out (the reshuffle of SC-DECK-1 is
not played) or after ``max_turns`` turns. With ``sequences_to_win`` 2 or more (SC-WIN-2) a
completed five is a sequence: its chips can no longer be taken (SC-MEOW-2), a later
sequence of its team may share one space with it, and the windows sharing more are worth
nothing to that team any more, nor to another team blocking them (as ``greedy`` rates
them); where a line of more than five lets the player choose its five, a rollout takes
the first along the line. A state whose choice of five is still open is not rolled out
(:func:`supports`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

from gametable.games.sequence_cats import heuristics
from gametable.games.sequence_cats.board import Board
from gametable.games.sequence_cats.cards import MEOW, PURRR
from gametable.games.sequence_cats.state import (
    BLANK_SPACE,
    EMPTY,
    SequenceCatsState,
)

MAX_TURNS = 120
"""Turns a rollout plays at most before it counts as unfinished."""
NO_CARD = -1
"""A hand slot without a card (after the draw pile ran out)."""
UNFINISHED = -1
"""``winners`` value of a rollout that ended without a winning team."""
_NONE = -1e18
"""Worth of a move that cannot be made."""

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Geometry:
    """A layout's arrays for rollouts.

    Attributes:
        incidence: ``spaces × windows`` (float32, 0 or 1): which windows each space lies
            in; windows through a blank corner (``free_corners`` off) are left out.
        transposed: the same, ``windows × spaces``, contiguous.
        free: per window, its free spaces (they count for every team).
        breed_spaces: per card number below PURRR, its breed's two spaces.
        incidence_int: ``incidence`` as integers.
        breed_at: per space, its breed's card number (PURRR for a free space).
        overlap: ``windows × windows`` (bool): the two windows share two spaces or more
            (a window overlaps itself), so that once one is a team's sequence the other
            cannot become one (SC-WIN-2).
        masks: per window, its spaces as a bit mask (as ``SequenceCatsState.sequences``).
    """

    incidence: Floats
    transposed: Floats
    free: Floats
    breed_spaces: Ints
    incidence_int: npt.NDArray[np.int32]
    breed_at: Ints
    overlap: npt.NDArray[np.bool_]
    masks: tuple[int, ...]


@cache
def geometry(board: Board, blank: frozenset[int]) -> Geometry:
    """The rollout arrays of ``board`` with the spaces ``blank`` taking no chip."""
    windows: set[int] = set()
    for lines in board.lines:
        for _span, found in lines:
            windows.update(found)
    blank_mask = sum(1 << s for s in blank)
    kept = sorted(w for w in windows if not w & blank_mask)
    spaces = len(board.breed_of)
    incidence = np.zeros((spaces, len(kept)), dtype=np.float32)
    for column, window in enumerate(kept):
        for space in range(spaces):
            if window >> space & 1:
                incidence[space, column] = 1.0
    free_mask = board.free_mask & ~blank_mask
    free = np.array([(w & free_mask).bit_count() for w in kept], dtype=np.float32)
    breed_spaces = np.array(board.spaces_of, dtype=np.int64)
    return Geometry(incidence, np.ascontiguousarray(incidence.T), free, breed_spaces,
                    incidence.astype(np.int32),
                    np.array([b if b >= 0 else PURRR for b in board.breed_of], dtype=np.int64),
                    (incidence.T @ incidence) >= 2, tuple(kept))


def supports(state: SequenceCatsState) -> bool:
    """Whether :func:`play_out` can continue ``state``: no choice of a sequence's five
    (SC-WIN-2) is open."""
    return state.choosing is None


@dataclass(frozen=True)
class Policy:
    """How a rollout seat rates its moves: ``greedy``'s ratings (:mod:`.heuristics`)
    with its constants as fields, plus a bonus for lines the hand can fill.

    Attributes:
        own_line: worth of a team's open window by its chips after the move (0–5, a
            five wins).
        block_line: worth of blocking another team's window by its chips (0–5).
        purrr_cost, meow_cost: what keeping a PURRR or a MEOW is worth (points).
        held_bonus: extra share of an own window's worth per further empty space of it
            whose breed the hand holds (0: ``greedy``).
        dead_share: share of a window's worth kept when it needs a space no card can
            fill but PURRR: for the seat's own window, a breed whose two cards lie in
            discard piles; for a window it would block, also those in its own hand
            (1: ``greedy``, which does not count cards).
    """

    own_line: tuple[float, ...] = heuristics.OWN_LINE
    block_line: tuple[float, ...] = heuristics.BLOCK_LINE
    purrr_cost: float = heuristics.PURRR_COST
    meow_cost: float = heuristics.MEOW_COST
    held_bonus: float = 0.0
    dead_share: float = 1.0


GREEDY: Final = Policy()
"""``greedy`` itself."""

CAREFUL: Final = Policy(own_line=(0.0, 0.6, 1.4, 9.6, 90.0, heuristics.WIN),
                        block_line=(0.0, 0.8, 2.2, 15.6, 1370.0, 0.0),
                        purrr_cost=5000.0, meow_cost=740.0, held_bonus=2.9, dead_share=0.62)
"""``greedy`` that keeps PURRR to win and MEOW to break a four, builds the lines its
hand can fill, counts the cards in the discard piles, and weighs threes and fours more
against the rest than ``greedy`` does (the constants were tuned by hill climbing on
whole games against ``greedy``, on other deals than the benchmark's). Against ``greedy``
it wins 59.7 % of 2-seat games (16,000 games, seats alternating: ``python -m
benchmarks.rollouts --games 16000``). A PURRR spent on blocking a four, even the other
team's one winning space, lost more games than it saved (57–60 % against 60.5 % on the
same deals; docs/bots.md).
The ``hard`` player's rollouts play it for the seat's team (and ``greedy`` for the
others)."""


@dataclass(frozen=True, eq=False)
class Tables:
    """Lookup tables over a window's *key*: ``Σ chips[t]·6^t + free·6^teams``, where
    ``chips[t]`` (0–5) are team ``t``'s chips in the window and ``free`` (0 or 1) its free
    space.

    Attributes:
        place: ``[seat, key]``, what a chip of that seat on an empty space of the window
            is worth (own-line and blocked-line points of its :class:`Policy`).
        own: ``[seat, key]``, the own-line part of ``place``.
        remove: ``[seat, owner, key]``, what taking team ``owner``'s chip off a space of
            the window with MEOW is worth to that seat.
        count: ``[team, key]``, the team's chips in the window, its free space included.
        steps: ``6^t`` per team: what a chip of team ``t`` adds to a key.
        purrr_cost, meow_cost, held_bonus, dead_share: per seat, from its
            :class:`Policy`.
    """

    place: Floats
    own: Floats
    remove: Floats
    count: Ints
    steps: npt.NDArray[np.int32]
    purrr_cost: Floats
    meow_cost: Floats
    held_bonus: Floats
    dead_share: Floats


@cache
def _team_tables(teams: int, policy: Policy) -> tuple[Floats, Floats, Floats, Ints]:
    """``(place, own, remove, count)`` indexed by mover team (see :class:`Tables`)."""
    size = 6 ** teams * 2
    place = np.zeros((teams, size), dtype=np.float32)
    own = np.zeros((teams, size), dtype=np.float32)
    remove = np.zeros((teams, teams, size), dtype=np.float32)
    count = np.zeros((teams, size), dtype=np.int64)
    own_line = (*policy.own_line[:5], heuristics.WIN, heuristics.WIN)
    for key in range(size):
        chips = [key // 6 ** t % 6 for t in range(teams)]
        free = key // 6 ** teams
        for mover in range(teams):
            count[mover, key] = chips[mover] + free
            others = sum(chips) - chips[mover]
            worth = own_line[min(chips[mover] + free + 1, 6)] if others == 0 else 0.0
            own[mover, key] = worth
            for owner in range(teams):
                if owner == mover or chips[mover] or others - chips[owner]:
                    continue
                blocked = policy.block_line[min(chips[owner] + free, 5)]
                worth += blocked
                remove[mover, owner, key] = blocked
            place[mover, key] = worth
    return place, own, remove, count


@cache
def tables(team_of: tuple[int, ...], policies: tuple[Policy, ...]) -> Tables:
    """The :class:`Tables` of seats in teams ``team_of`` playing ``policies``."""
    teams = max(team_of) + 1
    parts = [_team_tables(teams, policy) for policy in policies]
    place = np.stack([parts[s][0][t] for s, t in enumerate(team_of)])
    own = np.stack([parts[s][1][t] for s, t in enumerate(team_of)])
    remove = np.stack([parts[s][2][t] for s, t in enumerate(team_of)])
    steps = np.array([6 ** t for t in range(teams)], dtype=np.int32)
    return Tables(place, own, remove, parts[0][3], steps,
                  np.array([p.purrr_cost for p in policies], dtype=np.float32),
                  np.array([p.meow_cost for p in policies], dtype=np.float32),
                  np.array([p.held_bonus for p in policies], dtype=np.float32),
                  np.array([p.dead_share for p in policies], dtype=np.float32))


def play_out(states: Sequence[SequenceCatsState], rng: np.random.Generator, *,
             max_turns: int = MAX_TURNS, policies: Sequence[Policy] | None = None
             ) -> Ints:
    """Play every state in ``states`` on to its end, each seat playing its policy.

    Args:
        states: full states of one table (same board, seats and options), not changed;
            each must satisfy :func:`supports`.
        rng: the generator for ties and nothing else (the draw pile's order is the
            state's).
        max_turns: turns each rollout plays at most.
        policies: per seat, how it plays (default: every seat :data:`GREEDY`).

    Returns:
        Per state, the winning team (SC-WIN-1), or :data:`UNFINISHED` when the rollout
        stopped without one (max turns, an empty draw pile, or a drawn game).

    Raises:
        ValueError: no states, or a state :func:`supports` refuses.
    """
    with threadpool_limits(limits=1, user_api="blas"):
        game = _Rollouts.deal(states, rng, max_turns, policies)
        game.play(max_turns)
    return game.winners


def play_moves(deals: Sequence[SequenceCatsState], moves: Sequence[tuple[int, int]],
               rng: np.random.Generator, *, max_turns: int = MAX_TURNS,
               policies: Sequence[Policy] | None = None) -> Ints:
    """Play each of ``moves`` on each of ``deals``, then on to the end (see :func:`play_out`).

    Args:
        deals: full states of one table whose seat to move makes the moves, not
            changed; each must satisfy :func:`supports`, be unfinished and have no dead
            card left to exchange for that seat.
        moves: ``(card, space)`` pairs: a card number the seat holds (SC-COMP-3) and the
            space (board index) it places a chip on, or for MEOW the chip it removes.
            Their legality is the caller's (``legal_actions``).
        rng: the generator for ties.
        max_turns: turns each rollout plays at most after the move.
        policies: per seat, how it plays (default: every seat :data:`GREEDY`).

    Returns:
        ``moves × deals``: the winning team of each rollout, or :data:`UNFINISHED`.

    Raises:
        ValueError: no deals, a deal :func:`supports` refuses, or a card not in the hand.
    """
    with threadpool_limits(limits=1, user_api="blas"):
        return _play_moves(deals, moves, rng, max_turns, policies)


def _play_moves(deals: Sequence[SequenceCatsState], moves: Sequence[tuple[int, int]],
                rng: np.random.Generator, max_turns: int,
                policies: Sequence[Policy] | None) -> Ints:
    base = _Rollouts.deal(deals, rng, max_turns, policies)
    game = base.repeat(len(moves))
    rows = np.arange(len(moves) * len(deals))
    seat = game.current[rows]
    hand = game.hands[rows, seat]
    cards = np.repeat(np.array([card for card, _ in moves], dtype=np.int64), len(deals))
    spaces = np.repeat(np.array([space for _, space in moves], dtype=np.int64), len(deals))
    holding = hand == cards[:, None]
    if not holding.any(axis=1).all():
        raise ValueError("a move's card is not in the hand of the seat to move")
    game.move(rows, holding.argmax(axis=1), spaces, cards)
    game.play(max_turns)
    return game.winners.reshape(len(moves), len(deals))


def best_worth(state: SequenceCatsState) -> float:
    """The best worth the rollouts' ``greedy`` sees for the seat to move in ``state``
    (its card plays only; the same figure as ``heuristics.rate_actions`` rates the best
    ``play``), or ``-inf`` when it has none."""
    worths, _spaces, _hand = _Rollouts.deal([state], np.random.default_rng(0), 1, None).options()
    best = float(worths[0].max())
    return best if best > _NONE / 2 else -math.inf


@dataclass(eq=False)
class _Rollouts:
    """The rows' arrays (changed in place turn by turn)."""

    cells: Ints
    keys: Ints
    hands: Ints
    pile: Ints
    piles: Ints
    current: Ints
    winners: Ints
    live: npt.NDArray[np.bool_]
    team_of: Ints
    teams: int
    seats: int
    geo: Geometry
    look: Tables
    deal_of: Ints
    ties: Floats
    seen: Ints
    need: int
    """Sequences a team needs to win (``sequences_to_win``)."""
    made: Ints
    """``rows × teams``: sequences each team has made."""
    locked: npt.NDArray[np.bool_]
    """``rows × spaces``: chips of sequences, which MEOW cannot take (SC-MEOW-2)."""
    spent: npt.NDArray[np.bool_]
    """``rows × teams × windows``: windows that can no longer be a new sequence of the
    team (they share two spaces or more with one of its sequences, SC-WIN-2)."""

    @classmethod
    def deal(cls, states: Sequence[SequenceCatsState], rng: np.random.Generator,
             max_turns: int, policies: Sequence[Policy] | None) -> _Rollouts:
        """The arrays of ``states`` (see :func:`play_out`), with the random tie-breaks
        of ``max_turns`` turns: one per state, turn and choice, shared by the copies
        :meth:`repeat` makes, so that two moves tried on one deal meet the same chance
        (common random numbers)."""
        if not states:
            raise ValueError("a rollout needs at least one state")
        first = states[0]
        blank = frozenset(s for s, cell in enumerate(first.cells) if cell == BLANK_SPACE)
        geo = geometry(first.board, blank)
        policies = tuple(policies or [GREEDY] * first.seats)
        if len(policies) != first.seats:
            raise ValueError("a rollout needs one policy per seat")
        look = tables(tuple(first.team_of), policies)
        rows = len(states)
        seats = first.seats
        hand_size = max(max(len(h) for h in s.hands) for s in states)
        pile_size = max(*(len(s.pile) for s in states), 1)
        cells = np.array([s.cells for s in states], dtype=np.int64)
        hands = np.full((rows, seats, hand_size), NO_CARD, dtype=np.int64)
        pile = np.full((rows, pile_size), NO_CARD, dtype=np.int64)
        piles = np.zeros(rows, dtype=np.int64)
        current = np.zeros(rows, dtype=np.int64)
        winners = np.full(rows, UNFINISHED, dtype=np.int64)
        live = np.ones(rows, dtype=bool)
        seen = np.zeros((rows, MEOW + 1), dtype=np.int64)
        for row, state in enumerate(states):
            for discards in state.discards:
                for card in discards:
                    seen[row, card] += 1
            if not supports(state):
                raise ValueError("a rollout needs no open choice of a sequence's five")
            for seat, hand in enumerate(state.hands):
                hands[row, seat, :len(hand)] = hand
            pile[row, :len(state.pile)] = state.pile
            piles[row] = len(state.pile)
            current[row] = state.current
            if state.finished:
                live[row] = False
                winners[row] = state.winner
        made = np.zeros((rows, first.teams), dtype=np.int64)
        locked = np.zeros((rows, geo.incidence.shape[0]), dtype=bool)
        spent = np.zeros((rows, first.teams, geo.incidence.shape[1]), dtype=bool)
        column = {mask: index for index, mask in enumerate(geo.masks)}
        for row, state in enumerate(states):
            for team, masks in enumerate(state.sequences):
                made[row, team] = len(masks)
                for mask in masks:
                    locked[row] |= [bool(mask >> space & 1) for space in range(locked.shape[1])]
                    if mask in column:
                        spent[row, team] |= geo.overlap[column[mask]]
        chips = np.zeros((rows, geo.incidence.shape[0]), dtype=np.float32)
        for team in range(first.teams):
            chips += (cells == team) * np.float32(look.steps[team])
        keys = (chips @ geo.incidence).astype(np.int32) + geo.free.astype(np.int32) * (
            6 ** first.teams)
        return cls(cells, keys, hands, pile, piles, current, winners, live,
                   np.array(first.team_of, dtype=np.int64), first.teams, seats, geo, look,
                   np.arange(rows),
                   rng.random((rows, max_turns, hand_size * 2), dtype=np.float32) * 0.5,
                   seen, first.config.sequences_to_win, made, locked, spent)

    def repeat(self, times: int) -> _Rollouts:
        """``times`` copies of every row, copy by copy (row ``k·n + i`` is row ``i``)."""
        def tile(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
            return np.tile(array, (times,) + (1,) * (array.ndim - 1))
        return _Rollouts(tile(self.cells), tile(self.keys), tile(self.hands),
                         tile(self.pile), tile(self.piles), tile(self.current),
                         tile(self.winners), tile(self.live), self.team_of, self.teams,
                         self.seats, self.geo, self.look, tile(self.deal_of), self.ties,
                         tile(self.seen), self.need, tile(self.made), tile(self.locked),
                         tile(self.spent))

    def take(self, rows: Ints) -> _Rollouts:
        """A copy of the rows ``rows`` only."""
        return _Rollouts(self.cells[rows], self.keys[rows], self.hands[rows],
                         self.pile[rows], self.piles[rows], self.current[rows],
                         self.winners[rows], self.live[rows], self.team_of, self.teams,
                         self.seats, self.geo, self.look, self.deal_of[rows], self.ties,
                         self.seen[rows], self.need, self.made[rows], self.locked[rows],
                         self.spent[rows])

    def play(self, max_turns: int) -> None:
        """Turns of every live row until none is left or ``max_turns`` were played
        (``winners`` filled in). Finished rows are dropped from the working arrays once
        they are more than a third of them."""
        work = self
        origin = np.arange(self.live.size)
        for turn in range(max_turns):
            alive = int(work.live.sum())
            if alive == 0:
                break
            if alive * 3 < work.live.size * 2:
                self.winners[origin] = work.winners
                keep = np.flatnonzero(work.live)
                work, origin = work.take(keep), origin[keep]
            work.turn(turn)
        self.winners[origin] = work.winners

    def options(self) -> tuple[Floats, Ints, Ints]:
        """Every row's choices for its seat to move, as its policy rates them.

        Returns:
            ``(worths, spaces, hand)``: ``worths`` and ``spaces`` are ``rows × (hand
            slots · 2)``, slot ``k``'s choices at ``2k`` and ``2k + 1`` (a breed's two
            spaces; PURRR's and MEOW's best space at ``2k``), a choice that cannot be
            made worth below ``_NONE / 2``; ``hand`` is ``rows × hand slots``.
        """
        geo, look = self.geo, self.look
        n = self.live.size
        every = np.arange(n)
        seat = self.current
        team = self.team_of[seat]
        hand = self.hands[every, seat]  # rows × hand size
        board = self.cells
        key = self.keys  # rows × windows
        size = look.place.shape[1]
        offset = (seat * size).astype(np.int32)[:, None]
        place = np.take(look.place, key + offset) @ geo.transposed  # rows × spaces
        if self.need > 1:
            # A window that can no longer be a sequence of the team is worth nothing as
            # its own line.
            spent = self.spent[every, team]
            some = np.flatnonzero(spent.any(axis=1))
            if some.size:
                own = np.take(look.own, key[some] + offset[some])
                place[some] -= (own * spent[some]) @ geo.transposed
            # Nor is one of another team's worth blocking (``greedy`` as well).
            for owner in range(self.teams):
                theirs = self.spent[every, owner]
                some = np.flatnonzero(theirs.any(axis=1) & (team != owner))
                if some.size:
                    blocking = ((seat[some] * self.teams + owner) * size).astype(
                        np.int32)[:, None]
                    blocked = np.take(look.remove, key[some] + blocking)
                    place[some] -= (blocked * theirs[some]) @ geo.transposed
        bonus = look.held_bonus[seat]
        some = np.flatnonzero(bonus > 0)
        if some.size:
            # Held: the empty spaces whose breed the hand holds; a window's worth grows
            # by ``held_bonus`` per held space besides the one played on.
            cards = hand[some]
            ok = ((cards >= 0) & (cards < PURRR)).ravel()
            rows_of = np.repeat(np.arange(some.size), cards.shape[1])[ok]
            both = geo.breed_spaces[cards.ravel()[ok]]
            held = np.zeros((some.size, board.shape[1]), dtype=np.float32)
            held[rows_of, both[:, 0]] = 1.0
            held[rows_of, both[:, 1]] = 1.0
            held *= board[some] == EMPTY
            holes = np.maximum(held @ geo.incidence - 1.0, 0.0)
            own = np.take(look.own, key[some] + offset[some])
            place[some] += (own * holes * bonus[some][:, None]) @ geo.transposed
        share = look.dead_share[seat]
        some = np.flatnonzero(share < 1)
        if some.size:
            place[some] -= self._dead_loss(some, hand[some], key[some], offset[some],
                                           1.0 - share[some])
        place_empty = np.where(board == EMPTY, place, np.float32(_NONE))
        breed = (hand >= 0) & (hand < PURRR)
        spaces = geo.breed_spaces[np.where(breed, hand, 0)]  # rows × hand × 2
        options = np.where(breed[:, :, None], place_empty[every[:, None, None], spaces],
                           np.float32(_NONE))
        # PURRR and MEOW: worked out only for the rows whose hand holds one.
        wild = hand == PURRR
        some = np.flatnonzero(wild.any(axis=1))
        if some.size:
            best = place_empty[some].argmax(axis=1)
            value = place_empty[some, best] - look.purrr_cost[seat[some]]
            held = wild[some]
            options[some, :, 0] = np.where(held, value[:, None], options[some, :, 0])
            spaces[some, :, 0] = np.where(held, best[:, None], spaces[some, :, 0])
        meow = hand == MEOW
        some = np.flatnonzero(meow.any(axis=1))
        if some.size:
            mover = team[some]
            taken = board[some]
            keys = key[some]
            size = look.place.shape[1]
            removal = np.full(taken.shape, np.float32(_NONE))
            for owner in range(self.teams):
                offset = ((seat[some] * self.teams + owner) * size).astype(np.int32)[:, None]
                lines = np.take(look.remove, keys + offset)
                if self.need > 1:
                    lines = lines * ~self.spent[some, owner]
                worth = lines @ geo.transposed
                removal = np.where((taken == owner) & (mover[:, None] != owner), worth,
                                   removal)
            removal = np.where(self.locked[some], np.float32(_NONE), removal)
            best = removal.argmax(axis=1)
            value = removal[np.arange(some.size), best] - look.meow_cost[seat[some]]
            held = meow[some]
            options[some, :, 0] = np.where(held, value[:, None], options[some, :, 0])
            spaces[some, :, 0] = np.where(held, best[:, None], spaces[some, :, 0])
        return options.reshape(n, -1), spaces.reshape(n, -1), hand

    def _dead_loss(self, some: Ints, hand: Ints, key: Ints, offset: Ints,
                   loss: Floats) -> Floats:
        """Per space of rows ``some``, the worth lost to windows that need a space no
        card can fill but PURRR (see :attr:`Policy.dead_share`)."""
        geo, look = self.geo, self.look
        seen = self.seen[some]
        held = np.zeros_like(seen)
        rows_of = np.repeat(np.arange(some.size), hand.shape[1])
        cards = hand.ravel()
        ok = cards >= 0
        np.add.at(held, (rows_of[ok], cards[ok]), 1)
        empty = self.cells[some] == EMPTY
        breed = geo.breed_at
        mine = (empty & (np.take_along_axis(seen, np.broadcast_to(breed, empty.shape), 1)
                         >= 2)).astype(np.float32)
        gone = seen + held
        theirs = (empty & (np.take_along_axis(gone, np.broadcast_to(breed, empty.shape), 1)
                           >= 2)).astype(np.float32)
        own = np.take(look.own, key + offset)
        block = np.take(look.place, key + offset) - own
        lost = own * ((mine @ geo.incidence) > 0) + block * ((theirs @ geo.incidence) > 0)
        worth: Floats = (lost * loss[:, None]) @ geo.transposed
        return worth

    def turn(self, number: int) -> None:
        """Turn ``number`` (from 0) of every live row (finished rows are left as they
        are)."""
        n = self.live.size
        every = np.arange(n)
        _exchange_dead(every, self.current, self.hands[every, self.current], self.cells,
                       self.hands, self.pile, self.piles, self.live, self.geo)
        worths, spaces, hand = self.options()
        choice = (worths + self.ties[self.deal_of, number]).argmax(axis=1)
        stuck = (worths[every, choice] <= _NONE / 2) & self.live
        # A seat that can do nothing ends the rollout unfinished (SC-WIN-3 not played).
        self.live[stuck] = False
        rows = np.flatnonzero(self.live)
        slot = choice[rows] // 2
        self.move(rows, slot, spaces[rows, choice[rows]], hand[rows, slot])

    def _sequences(self, put: Ints, owner: Ints, full: npt.NDArray[np.bool_]) -> None:
        """Rows ``put`` just placed a chip of team ``owner`` completing the windows
        ``full``: the new sequences are counted, their chips locked and the windows
        they spend marked; a team that has made :attr:`need` wins."""
        full &= ~self.spent[put, owner]
        geo = self.geo
        for index in np.flatnonzero(full.any(axis=1)):
            row, team = int(put[index]), int(owner[index])
            fives = _first_fives(full[index], geo.overlap)
            self.made[row, team] += len(fives)
            if self.made[row, team] >= self.need:
                self.winners[row] = team
                self.live[row] = False
                continue
            for five in fives:
                self.locked[row] |= geo.incidence[:, five] > 0
                self.spent[row, team] |= geo.overlap[five]

    def move(self, rows: Ints, slot: Ints, space: Ints, card: Ints) -> None:
        """Each of ``rows``' seat to move plays the card in hand slot ``slot`` (card
        number ``card``) on ``space``, draws, and the turn passes (SC-TURN-2/3)."""
        geo, look = self.geo, self.look
        team = self.team_of[self.current[rows]]
        self.seen[rows, card] += 1
        # A MEOW takes an opponent's chip off (SC-MEOW-1), anything else places one.
        removing = card == MEOW
        gone = rows[removing]
        if gone.size:
            where = space[removing]
            owner = self.cells[gone, where]
            self.keys[gone] -= geo.incidence_int[where] * look.steps[owner][:, None]
            self.cells[gone, where] = EMPTY
        put = rows[~removing]
        if put.size:
            where = space[~removing]
            owner = team[~removing]
            self.cells[put, where] = owner
            line = geo.incidence_int[where]
            self.keys[put] += line * look.steps[owner][:, None]
            offset = (owner * look.count.shape[1]).astype(np.int32)[:, None]
            full = (np.take(look.count, self.keys[put] + offset) >= 5) & (line > 0)
            if self.need > 1:
                self._sequences(put, owner, full)
            else:
                won = full.any(axis=1)
                self.winners[put[won]] = owner[won]
                self.live[put[won]] = False
        # Draw (SC-TURN-3); an empty pile ends the rollout unfinished.
        dry = self.piles[rows] == 0
        self.live[rows[dry]] = False
        drawing = rows[~dry]
        self.hands[drawing, self.current[drawing], slot[~dry]] = \
            self.pile[drawing, self.piles[drawing] - 1]
        self.piles[drawing] -= 1
        self.current[rows] = (self.current[rows] + 1) % self.seats


def _first_fives(full: npt.NDArray[np.bool_], overlap: npt.NDArray[np.bool_]
                 ) -> list[int]:
    """The sequences one chip makes (SC-WIN-2) among the windows ``full`` (complete,
    through the chip, not spent): the first, and a second that shares one space at most
    with it (a line of nine, or two lines)."""
    found = np.flatnonzero(full)
    first = int(found[0])
    apart = found[~overlap[first, found]]
    return [first] if apart.size == 0 else [first, int(apart[0])]


def _exchange_dead(active: Ints, seat: Ints, hand: Ints, board: Ints, hands: Ints,
                   pile: Ints, piles: Ints, live: npt.NDArray[np.bool_],
                   geo: Geometry) -> None:
    """SC-DEAD-1: the first dead breed card of each live row's seat to move is exchanged
    for the top of the draw pile (``hand`` and ``hands`` both updated)."""
    breed = (hand >= 0) & (hand < PURRR)
    safe = np.where(breed, hand, 0)
    first = geo.breed_spaces[safe, 0]
    second = geo.breed_spaces[safe, 1]
    rows_of = np.arange(active.size)[:, None]
    dead = breed & (board[rows_of, first] != EMPTY) & (board[rows_of, second] != EMPTY)
    has = dead.any(axis=1) & live[active]
    if not has.any():
        return
    which = np.flatnonzero(has)
    slot = dead[which].argmax(axis=1)
    rows = active[which]
    dry = piles[rows] == 0
    live[rows[dry]] = False
    which, slot, rows = which[~dry], slot[~dry], rows[~dry]
    drawn = pile[rows, piles[rows] - 1]
    piles[rows] -= 1
    hand[which, slot] = drawn
    hands[rows, seat[which], slot] = drawn
