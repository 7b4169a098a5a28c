"""Greedy ratings of Sequence Cats actions, computed from a seat's view alone.

Each chip is worth what it adds to the five-space lines ("windows") through its space:
lines the team can still complete gain more the fuller they are, and an opponent's line
it blocks counts too, a four above everything but a win (a line sharing two spaces with
a team's sequence is none of that team's, SC-WIN-2). PURRR and MEOW are kept for
moves worth them; a dead card is always exchanged first (SC-DEAD-1), since the turn
goes on after it, a dead PURRR last (any space a MEOW frees brings it back). Lines
through a blank corner (``free_corners`` off) can never be completed and count for
nothing. Choosing which five form a sequence (SC-WIN-2), the five that leaves the best
lines for a later sequence is taken. A draw offer (SC-WIN-3) is accepted once the board
has been full, and declined before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gametable.games.sequence_cats.board import geometry, label_to_space

WIN = 1_000_000.0
EXCHANGE = 100_000.0
PASS = -1_000_000.0
BLANK = -3
"""``cells`` value of a blank corner (see ``state.BLANK_SPACE``)."""
# Indexed by chips (free spaces included) in a window after the move.
OWN_LINE = (0.0, 1.0, 4.0, 18.0, 120.0, WIN)
# Indexed by an opponent's chips in a window the move blocks (or a removal breaks).
BLOCK_LINE = (0.0, 1.0, 5.0, 30.0, 5_000.0, 0.0)
PURRR_COST = 35.0
MEOW_COST = 35.0


def accepts_draw(view: dict[str, Any]) -> bool:
    """SC-WIN-3 b, the table's rule for computer players: a draw offer is accepted once
    the board has been full (``view["board_filled"]``), declined before."""
    return bool(view.get("board_filled"))


def rate_actions(view: dict[str, Any], actions: Sequence[dict[str, Any]]) -> list[float]:
    """One rating per action (higher is better) for the seat that owns ``view``.

    Args:
        view: a seated view from ``SequenceCats.view`` (needs ``team``, ``cells``,
            ``columns``, ``sequences``).
        actions: legal actions of that seat.
    """
    team = view["team"]
    cells: list[int] = view["cells"]
    columns: int = view["columns"]
    lines = geometry(len(cells) // columns, columns)
    teams = max(view["team_of"]) + 1
    free = 0
    blank = 0
    chips = [0] * teams
    for space, cell in enumerate(cells):
        if cell == -2:
            free |= 1 << space
        elif cell == BLANK:
            blank |= 1 << space
        elif cell >= 0:
            chips[cell] |= 1 << space
    locked = 0
    sequences_of: list[list[int]] = [[] for _ in range(teams)]
    for sequence in view["sequences"]:
        mask = 0
        for label in sequence["spaces"]:
            mask |= 1 << label_to_space(label, columns)
        locked |= mask
        sequences_of[sequence["team"]].append(mask)
    own_sequences = sequences_of[team]

    def can_become_a_sequence(window: int, of: int) -> bool:
        """SC-WIN-2: a new sequence shares at most one space with a team's others."""
        return all((window & s).bit_count() <= 1 for s in sequences_of[of])

    own = chips[team]
    others = [t for t in range(teams) if t != team]
    any_other = 0
    for t in others:
        any_other |= chips[t]

    def place_value(space: int) -> float:
        bit = 1 << space
        value = 0.0
        for _span, windows in lines[space]:
            for window in windows:
                if window & blank:
                    continue
                if not window & any_other and can_become_a_sequence(window, team):
                    value += OWN_LINE[((own | free | bit) & window).bit_count()]
                if not window & own:
                    for t in others:
                        if not window & (any_other & ~chips[t]) \
                                and can_become_a_sequence(window, t):
                            value += BLOCK_LINE[((chips[t] | free) & window).bit_count()]
        return value

    def remove_value(space: int) -> float:
        owner = cells[space]
        value = 0.0
        for _span, windows in lines[space]:
            for window in windows:
                if window & blank:
                    continue
                if not window & own and not window & (any_other & ~chips[owner]) \
                        and can_become_a_sequence(window, owner):
                    value += BLOCK_LINE[((chips[owner] | free) & window).bit_count()]
        return value

    def mask_of(labels: Sequence[str]) -> int:
        mask = 0
        for label in labels:
            mask |= 1 << label_to_space(label, columns)
        return mask

    # The spaces of every candidate five: each is judged on the lines through them all.
    candidates = 0
    for action in actions:
        if action["type"] == "sequence":
            candidates |= mask_of(action["spaces"])

    def leftover_value(window: int) -> float:
        """What the team's lines through the candidates' spaces are worth once
        ``window`` is a sequence (a later sequence may share one chip with it)."""
        sequences = [*own_sequences, window]
        seen: set[int] = set()
        value = 0.0
        rest = candidates
        while rest:
            space = (rest & -rest).bit_length() - 1
            rest &= rest - 1
            for _span, windows in lines[space]:
                for other in windows:
                    if other in seen or other & (any_other | blank) or any(
                            (other & s).bit_count() > 1 for s in sequences):
                        continue
                    seen.add(other)
                    value += OWN_LINE[((own | free) & other).bit_count()]
        return value

    accept = accepts_draw(view)
    ratings: list[float] = []
    for action in actions:
        kind = action["type"]
        if kind == "exchange":
            ratings.append(EXCHANGE - (1.0 if action["card"] == "purrr" else 0.0))
        elif kind == "pass":
            ratings.append(PASS)
        elif kind == "accept_draw":
            ratings.append(1.0 if accept else -1.0)
        elif kind == "decline_draw":
            ratings.append(-1.0 if accept else 1.0)
        elif kind == "sequence":
            ratings.append(leftover_value(mask_of(action["spaces"])))
        else:
            space = label_to_space(action["space"], columns)
            card = action["card"]
            if card == "meow":
                ratings.append(remove_value(space) - MEOW_COST if not locked >> space & 1
                               else PASS)
            else:
                value = place_value(space)
                ratings.append(value - PURRR_COST if card == "purrr" else value)
    return ratings
