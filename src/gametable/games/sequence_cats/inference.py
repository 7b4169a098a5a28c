"""What the last play tells about the hand it came from, for dealing determinizations.

A seat that played a card chose it over every other card it held. If it plays the way
``greedy`` rates moves (:mod:`.heuristics`), no card it kept could have made a move rated
higher than the one it made: a seat that left an opponent's four open held neither card
of the spaces that block it, nor PURRR, nor MEOW. Reading this off a view needs only the
board before the last play, which the view gives (``last_play``: its seat, card, space
and the team of the chip placed or taken off).

The inference is soft: the dealer (``SequenceCats.sample_state``) deals the cards that
contradict it to the kept part of that seat's hand with a small weight
(:data:`UNLIKELY`), not never, since people do not play by ``greedy``'s ratings. Only the
last play is read: older plays say less, as cards drawn since are not bound by them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from gametable.games.sequence_cats import heuristics
from gametable.games.sequence_cats.board import Board
from gametable.games.sequence_cats.cards import BREEDS, CARD_IDS, CARD_NUMBER, MEOW, PURRR
from gametable.games.sequence_cats.state import EMPTY

UNLIKELY: Final = 0.05
"""Weight of a card that would have made a better-rated move than the last play."""
TOLERANCE: Final = 1e-6
_READ: dict[tuple[Any, ...], frozenset[int] | None] = {}
""":func:`read_last_play`'s recent answers (a search deals hundreds of times from one view)."""
_READ_SIZE: Final = 64


def read_last_play(view: dict[str, Any], board: Board) -> frozenset[int] | None:
    """:func:`unlikely_cards`, remembered for the last few views seen."""
    last = view.get("last_play")
    if last is None:
        return None
    key = (board.labels, view.get("seat"), view.get("turn"), tuple(view["cells"]),
           last["seat"], last["card"], last["space"], last["team"], view.get("finished"))
    try:
        return _READ[key]
    except KeyError:
        pass
    answer = unlikely_cards(view, board)
    if len(_READ) >= _READ_SIZE:
        _READ.clear()
    _READ[key] = answer
    return answer


def unlikely_cards(view: dict[str, Any], board: Board) -> frozenset[int] | None:
    """The card numbers the last player most likely did not keep, or ``None``.

    Args:
        view: a seated Sequence Cats view (``cells``, ``team_of``, ``sequences``,
            ``last_play``).
        board: the table's board (its spaces of each breed).

    Returns:
        The cards (numbers of :mod:`.cards`) with which ``greedy`` would have rated some
        move above the last play on the board before it; ``None`` when there is nothing
        to read (no last play, the viewing seat made it, or it ended the game).
    """
    last = view.get("last_play")
    if last is None or last["seat"] == view.get("seat") or view.get("finished"):
        return None
    space = board.index[last["space"]]
    cells = list(view["cells"])
    card = CARD_NUMBER[last["card"]]
    if card == MEOW:
        cells[space] = last["team"]
    else:
        cells[space] = EMPTY
    team = view["team_of"][last["seat"]]
    before = {**view, "cells": cells, "team": team, "seat": last["seat"]}
    labels = board.labels
    actions: list[dict[str, Any]] = [{"type": "play", "card": last["card"],
                                      "space": last["space"]}]
    owners: list[int] = [card]
    free = [s for s, cell in enumerate(cells) if cell == EMPTY]
    for breed in range(len(BREEDS)):
        for s in board.spaces_of[breed]:
            if cells[s] == EMPTY:
                actions.append({"type": "play", "card": CARD_IDS[breed], "space": labels[s]})
                owners.append(breed)
    for s in free:
        actions.append({"type": "play", "card": "purrr", "space": labels[s]})
        owners.append(PURRR)
    for s, cell in enumerate(cells):
        if cell >= 0 and cell != team:
            actions.append({"type": "play", "card": "meow", "space": labels[s]})
            owners.append(MEOW)
    ratings = heuristics.rate_actions(before, actions)
    played = ratings[0]
    return frozenset(owner for owner, rating in zip(owners[1:], ratings[1:], strict=True)
                     if rating > played + TOLERANCE)


def deal_kept(unseen: list[int], size: int, unlikely: frozenset[int],
              rng: random.Random) -> list[int]:
    """A hand of ``size`` cards for the last player, taken out of ``unseen``.

    One card is the one it drew after its play (any unseen card); the other ``size - 1``
    it kept, and a card of ``unlikely`` is dealt to those with weight
    :data:`UNLIKELY` against 1 (weighted sampling without replacement).

    Args:
        unseen: the cards the viewing seat cannot see, shuffled; the dealt ones are
            removed from it.
        size: the last player's hand size (0 to 5).
        unlikely: from :func:`unlikely_cards`.
    """
    if size == 0:
        return []
    hand = [unseen.pop()]
    weights = [UNLIKELY if c in unlikely else 1.0 for c in unseen]
    for _ in range(size - 1):
        index = _pick(weights, rng)
        hand.append(unseen[index])
        unseen[index] = unseen[-1]
        weights[index] = weights[-1]
        unseen.pop()
        weights.pop()
    return hand


def _pick(weights: Sequence[float], rng: random.Random) -> int:
    point = rng.random() * sum(weights)
    for index, weight in enumerate(weights):
        point -= weight
        if point < 0.0:
            return index
    return len(weights) - 1
