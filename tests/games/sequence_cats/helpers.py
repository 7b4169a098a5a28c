"""Building Sequence Cats positions by hand for rule tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gametable.games.sequence_cats import SEQUENCE_CATS as GAME
from gametable.games.sequence_cats.cards import CARD_IDS, CARD_NUMBER
from gametable.games.sequence_cats.state import EMPTY, SequenceCatsState


def new(seats: int = 2, seed: int = 1, **options: Any) -> SequenceCatsState:
    return GAME.new_game(GAME.make_config(options, seats), seats, seed)


def space(state: SequenceCatsState, label: str) -> int:
    return state.board.index[label]


def spaces_of(state: SequenceCatsState, breed: str) -> list[str]:
    a, b = state.board.spaces_of[CARD_NUMBER[breed]]
    return [state.board.labels[a], state.board.labels[b]]


def breed_at(state: SequenceCatsState, label: str) -> str:
    return state.board.names[space(state, label)]


def place(state: SequenceCatsState, chips: Mapping[str, int]) -> None:
    """Put chips (label -> team) on the board directly, keeping derived fields right."""
    for label, team in chips.items():
        assert state.cells[space(state, label)] == EMPTY, label
        state.cells[space(state, label)] = team
    state.recompute()


def give(state: SequenceCatsState, seat: int, cards: Sequence[str]) -> None:
    """Replace a seat's hand with ``cards``, taking them from the draw pile.

    The old hand goes back on the pile, so the 88 cards stay conserved.
    """
    state.pile.extend(state.hands[seat])
    state.hands[seat] = []
    for card in cards:
        state.pile.remove(CARD_NUMBER[card])
        state.hands[seat].append(CARD_NUMBER[card])
    state.legal_cache = None


def hand(state: SequenceCatsState, seat: int) -> list[str]:
    return [CARD_IDS[c] for c in state.hands[seat]]


def row(state: SequenceCatsState, r: int, columns: Sequence[int]) -> list[str]:
    """Labels of row ``r`` (1-based) at 0-based ``columns``."""
    return [state.board.labels[(r - 1) * state.board.columns + c] for c in columns]
