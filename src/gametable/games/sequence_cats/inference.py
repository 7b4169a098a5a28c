"""Reading the other seat's hand from its public plays, for the ``hard`` player.

A player that rates its moves the way ``greedy`` does (or anyone who tends to play
well-rated moves) seldom holds a card that would have made a clearly better move than
the one it played: a card completing or blocking a four, a PURRR or MEOW at a moment it
was worth playing. And a card stays in a hand until it is played or exchanged, so every
play the other seat has made since a card came to its hand says something about it.

:class:`HandReader` watches the views its seat is shown (a bot lives for a whole game at
a seat) and, for every play of the other seat, rates every kind of card on the board as
it was before that play with ``greedy``'s ratings from the other seat's side (public
information only: the board, the sequences, the played card and space). A kind whose
best move beats the play's rating is given the likelihood
``exp(-sharpness * (g(best) - g(play)))``, ``g(x) = sign(x) log(1 + |x|)``, of having been
held then; a kind with no free space (dead, SC-DEAD-1) that was not exchanged that turn
the likelihood :data:`DEAD`. A card in the hand now came at one of the draws since the
deal (each draw one of the ``h`` cards, so a card was already held ``m`` draws ago with
chance ``((h - 1) / h) ** m``); its weight is the mixture over those times of the
product of the likelihoods of the plays it was held for. The other seat's hand is then
dealt from the unseen cards by those weights (successive sampling, Efraimidis–Spirakis
keys), the rest going to the draw pile. Two seats only; otherwise the deal is uniform.
"""

from __future__ import annotations

import math
import random
from typing import Any, Final

from gametable.core.protocol import Observation, Seat
from gametable.games.sequence_cats import heuristics
from gametable.games.sequence_cats.board import Board, board_for
from gametable.games.sequence_cats.cards import CARD_IDS, CARD_NUMBER, MEOW, PURRR
from gametable.games.sequence_cats.state import EMPTY, SequenceCatsState

DEAD: Final = 0.02
"""Likelihood that a card with no free space was held at a play without an exchange."""
KINDS: Final = len(CARD_IDS)


def _g(x: float) -> float:
    return math.copysign(math.log1p(abs(x)), x)


class HandReader:
    """Remembers the other seat's plays seen in ``seat``'s views and deals its hand by
    them (see the module docstring).

    Args:
        game: the Sequence Cats game object (for :meth:`sample_state`).
        seat: the seat whose views are observed.
        sharpness: how much less likely a card is per unit of ``g`` by which its best
            move beat the play made (0: uniform deals).
    """

    def __init__(self, game: Any, seat: Seat, sharpness: float) -> None:
        self.game = game
        self.seat = seat
        self.sharpness = sharpness
        self.events: list[list[float] | None] = []
        """The other seat's history, oldest first: ``None`` a draw, else a play's
        likelihoods by card kind."""
        self._turn = -1
        self._last: Any = None
        self._discards = 0
        self._board: Board | None = None
        self._cache: tuple[int, int, list[float]] | None = None

    def observe(self, view: Observation) -> None:
        """Take note of the other seat's play shown in ``view``, if it is new."""
        if len(view["team_of"]) != 2 or self.sharpness <= 0:
            return
        turn = view["turn"]
        if turn == self._turn:
            return
        self._turn = turn
        other = 1 - self.seat
        last = view["last_play"]
        discards = len(view["discards"][other])
        grown = discards - self._discards if discards >= self._discards else 0
        self._discards = discards
        if last is None or last["seat"] != other or last == self._last:
            self.events += [None] * grown  # exchanges (or nothing: a pass)
            return
        self._last = last
        exchanged = grown >= 2
        self.events += [None] * (grown - 1)
        self.events.append(self._likelihoods(view, last, exchanged=exchanged))
        self.events.append(None)  # the draw after the play

    def _likelihoods(self, view: Observation, last: dict[str, Any], *, exchanged: bool
                     ) -> list[float]:
        if self._board is None:
            self._board = board_for(self.game.make_config(view["options"], 2).board)
        board = self._board
        space = board.index[last["space"]]
        card = CARD_NUMBER[last["card"]]
        cells = list(view["cells"])
        cells[space] = last["team"] if card == MEOW else EMPTY
        other_team = view["team_of"][last["seat"]]
        before = dict(view, cells=cells, team=other_team)
        locked = 0
        for sequence in view["sequences"]:
            for label in sequence["spaces"]:
                locked |= 1 << board.index[label]
        empty = [s for s in board.breed_spaces if cells[s] == EMPTY]
        targets = [s for s in board.breed_spaces
                   if cells[s] >= 0 and cells[s] != other_team and not locked >> s & 1]
        actions = [a for s in empty if (a := board.purrr_actions[s]) is not None]
        actions += [a for s in targets if (a := board.meow_actions[s]) is not None]
        ratings = heuristics.rate_actions(before, actions) if actions else []
        place = {s: r + heuristics.PURRR_COST for s, r in zip(empty, ratings, strict=False)}
        meow = ratings[len(empty):]
        best = [-math.inf] * KINDS
        for breed, spaces in enumerate(board.spaces_of):
            best[breed] = max((place[s] for s in spaces if s in place), default=-math.inf)
        best[PURRR] = max(ratings[:len(empty)], default=-math.inf)
        best[MEOW] = max(meow, default=-math.inf)
        if card == MEOW:
            played = meow[targets.index(space)] if space in targets else 0.0
        else:
            played = place.get(space, 0.0) - (heuristics.PURRR_COST if card == PURRR else 0.0)
        top = _g(played)
        likelihoods = []
        for value in best:
            if value == -math.inf:
                likelihoods.append(1.0 if exchanged else DEAD)
            elif value <= played:
                likelihoods.append(1.0)
            else:
                likelihoods.append(math.exp(-self.sharpness * (_g(value) - top)))
        return likelihoods

    def weights(self, hand: int) -> list[float]:
        """Per card kind, the weight of one card of it being in the other hand now."""
        keep = (hand - 1) / hand
        weights = []
        for kind in range(KINDS):
            total = 0.0
            survive = 1.0
            product = 1.0
            for event in reversed(self.events):
                if event is None:
                    total += survive / hand * product
                    survive *= keep
                else:
                    product *= event[kind]
            weights.append(total + survive * product)
        return weights

    def sample_state(self, view: Observation, seat: Seat, rng: random.Random
                     ) -> SequenceCatsState:
        """A determinization of ``view`` with the other hand dealt by :meth:`weights`."""
        state: SequenceCatsState = self.game.sample_state(view, seat, rng)
        if len(view["team_of"]) != 2 or not self.events:
            return state
        other = 1 - seat
        size = len(state.hands[other])
        if not size:
            return state
        cached = self._cache
        if cached is None or cached[:2] != (len(self.events), size):
            cached = self._cache = (len(self.events), size, self.weights(size))
        weights = cached[2]
        unseen = state.hands[other] + state.pile
        keys = [math.log(rng.random() or 1e-300) / max(weights[c], 1e-12) for c in unseen]
        order = sorted(range(len(unseen)), key=keys.__getitem__, reverse=True)
        state.hands[other] = [unseen[i] for i in order[:size]]
        pile = [unseen[i] for i in order[size:]]
        rng.shuffle(pile)
        state.pile = pile
        state.legal_cache = None
        return state
