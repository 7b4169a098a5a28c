"""What the last play says about the hidden hand of the player who made it.

A player who plays the best-rated move of its hand (``greedy``, see :mod:`.heuristics`)
kept only cards whose best move was rated no higher than the one it played: a seat that
left an open four unblocked held neither of that space's breed cards, nor PURRR, nor
MEOW. After the play it drew one card, which can be anything. :func:`kept_cards` works
out the cards such a player may have kept, from the board just before its play (the
view's board with its ``last_play`` taken back); ``SequenceCats.sample_state`` deals that
seat's hidden hand from them (all but one card, the one it drew) in the share
:data:`TRUST` of the determinizations. The others are dealt at random, so a person who
kept a card on purpose is still among the deals that are searched.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Final

from gametable.core.protocol import Observation
from gametable.games.sequence_cats import heuristics
from gametable.games.sequence_cats.board import Board
from gametable.games.sequence_cats.cards import CARD_IDS, MEOW, PURRR
from gametable.games.sequence_cats.state import EMPTY

TRUST: Final = 0.75
"""Share of determinizations in which the last player is taken to play as ``greedy``
does (its kept cards drawn from :func:`kept_cards`); the others are dealt at random."""
_CACHE_SIZE: Final = 64

_cache: OrderedDict[tuple[Any, ...], frozenset[int]] = OrderedDict()


def kept_cards(view: Observation, board: Board) -> frozenset[int] | None:
    """The card numbers (SC-COMP-3) the player of the view's ``last_play`` may have kept
    in hand, if it played the best-rated move of its hand.

    Args:
        view: a Sequence Cats view (``cells``, ``team_of``, ``sequences``, ``choosing``,
            ``board_filled``, ``last_play``).
        board: the table's board.

    Returns:
        The card numbers whose best move on the board before that play was rated no
        higher than the play itself (cards with no move at all included), or ``None``
        when nothing can be said: no play yet, or a sequence on the board (the play may
        have been followed by choosing one, SC-WIN-2). Worked out once per position
        (cached).
    """
    last = view.get("last_play")
    if last is None or view.get("sequences") or view.get("choosing") is not None:
        return None
    key = (id(board), tuple(view["cells"]), tuple(view["team_of"]), last["seat"],
           last["card"], last["space"], last["team"], bool(view.get("board_filled")))
    found = _cache.get(key)
    if found is None:
        found = _kept(board, view, last)
        _cache[key] = found
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return found


def _kept(board: Board, view: Observation, last: dict[str, Any]) -> frozenset[int]:
    before = list(view["cells"])
    before[board.index[last["space"]]] = last["team"] if last["card"] == "meow" else EMPTY
    mover = view["team_of"][last["seat"]]
    seen: dict[str, Any] = {"team": mover, "cells": before, "columns": board.columns,
                            "team_of": view["team_of"], "sequences": [],
                            "board_filled": view.get("board_filled", False)}
    played = heuristics.rate_actions(
        seen, [{"type": "play", "card": last["card"], "space": last["space"]}])[0]
    actions: list[dict[str, Any]] = []
    cards: list[int] = []
    for space, cell in enumerate(before):
        label = board.labels[space]
        breed = board.breed_of[space]
        if cell == EMPTY and breed >= 0:
            actions.append({"type": "play", "card": CARD_IDS[breed], "space": label})
            cards.append(breed)
            actions.append({"type": "play", "card": "purrr", "space": label})
            cards.append(PURRR)
        elif cell >= 0 and cell != mover:
            actions.append({"type": "play", "card": "meow", "space": label})
            cards.append(MEOW)
    best: dict[int, float] = {}
    for card, rating in zip(cards, heuristics.rate_actions(seen, actions), strict=True):
        best[card] = max(rating, best.get(card, rating))
    return frozenset(card for card in range(MEOW + 1)
                     if best.get(card, -heuristics.WIN * 10) <= played)
