"""Stronger ratings of Sequence Cats plays: threats, card counting and the hand.

``greedy`` (:mod:`.heuristics`) values a chip by the lines through its space. This
module rates a ``play`` by the whole board it leaves, from the seat's view alone:

* **Card counting.** The cards the seat cannot see are the 88 of SC-COMP-3 less its
  hand and every discard pile; the next seat's hand is a random handful of them. A
  space whose breed has no copy left unseen can be taken by that seat only with PURRR
  (SC-PURR-1): a line that needs it is dead for it unless a PURRR is unseen.
* **Threats.** A *winning space* completes five (SC-WIN-1) with one more chip. The
  chance that the next seat wins at once is the chance that its hand holds a card for
  one of its winning spaces (the breed or PURRR). The seat's own winning spaces count
  by the cards it holds for them: two held threats (a double threat) win unless the
  next seat holds a MEOW (SC-MEOW-1) or wins first; one held threat wins unless it
  also holds that breed, a PURRR or a MEOW.
* **Lines.** Every five-space window still open to a team counts by its chips (free
  corners included), more for the seat's windows whose empty spaces it holds the cards
  for, nothing for a window that needs a space dead for that team.
* PURRR and MEOW cost what keeping them is worth (:data:`SPECIAL_COST`), so they are
  played for decisive moves: a win, a block, a threat.

A rating is ``WIN_UNITS · (P(win next turn) − P(the next seat wins first))`` plus the
lines' value, less the card's cost; a play that completes a winning sequence rates
:data:`.heuristics.WIN`. Other actions (exchanges, draw offers, choosing a sequence)
keep ``greedy``'s ratings.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Final

from gametable.games.sequence_cats import heuristics
from gametable.games.sequence_cats.board import Board, board_for, label_to_space
from gametable.games.sequence_cats.cards import CARD_NUMBER, MEOW, PURRR, new_deck
from gametable.games.sequence_cats.config import SequenceCatsConfig

WIN_UNITS: Final = 1000.0
"""Rating points of a certain win (positions are compared in these units)."""
OWN: Final = (0.0, 1.0, 3.0, 12.0, 60.0, 0.0)
"""The seat's open window by its chips (free corners included), 0–5."""
OTHER: Final = (0.0, 1.0, 4.0, 16.0, 80.0, 0.0)
"""Another team's open window by its chips."""
HELD: Final = 3.0
"""Extra share of a window's value per empty space whose card the seat holds."""
DEAD: Final = 0.1
"""Share of a window's value left when it needs a space dead for its team."""
SPECIAL_COST: Final = 200.0
"""What keeping a PURRR or MEOW is worth (rating points)."""
WINS: Final = heuristics.WIN - max(heuristics.PURRR_COST, heuristics.MEOW_COST)
"""``greedy``'s rating from which a play completes a five (a PURRR's completes one at
:data:`heuristics.WIN` less its cost)."""
BLOCKS_A_FOUR: Final = heuristics.BLOCK_LINE[4] - heuristics.PURRR_COST
"""``greedy``'s rating from which a PURRR takes the space another team's four needs."""
EMPTY: Final = -1
BLANK: Final = -3


@cache
def _board(options: str) -> tuple[Board, tuple[int, ...], tuple[int, ...]]:
    """The board of a table's stored options (JSON), its windows and each space's
    breed."""
    board = board_for(SequenceCatsConfig.model_validate(json.loads(options)).board)
    windows: set[int] = set()
    for lines in board.lines:
        for _span, found in lines:
            windows.update(found)
    return board, tuple(sorted(windows)), board.breed_of


def _bits(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def plan_actions(view: dict[str, Any], actions: Sequence[dict[str, Any]]) -> list[float]:
    """One rating per action (higher is better) for the seat that owns ``view``.

    Args:
        view: a seated view from ``SequenceCats.view``.
        actions: legal actions of that seat.

    Returns:
        Ratings in :data:`WIN_UNITS` and line points (see the module docstring);
        ``greedy``'s own ratings for actions other than ``play``.
    """
    greedy = heuristics.rate_actions(view, actions)
    if not any(a["type"] == "play" for a in actions):
        return greedy
    board, windows, breed_of = _board(json.dumps(view["options"], sort_keys=True))
    cells: list[int] = list(view["cells"])
    seats = len(view["team_of"])
    seat: int = view["seat"]
    team: int = view["team"]
    team_of: list[int] = view["team_of"]
    teams = max(team_of) + 1
    nxt = (seat + 1) % seats
    next_team = team_of[nxt]
    unseen = [0] * (PURRR + 2)
    for card in new_deck():
        unseen[card] += 1
    hand = [CARD_NUMBER[c] for c in view["hand"]]
    for card in hand:
        unseen[card] -= 1
    for pile in view["discards"]:
        for card_id in pile:
            unseen[CARD_NUMBER[card_id]] -= 1
    total = sum(unseen)
    size = view["hand_sizes"][nxt]
    ways = math.comb(total, size) if total >= size else 1

    def p_holds(cards: set[int]) -> float:
        """The chance that the next seat holds at least one card of kinds ``cards``."""
        copies = sum(unseen[card] for card in cards)
        if copies <= 0 or total <= 0:
            return 0.0
        if total - copies < size:
            return 1.0
        return 1.0 - math.comb(total - copies, size) / ways

    # Per team, the windows of its sequences: a later one may share one space with
    # them (SC-WIN-2), so a four sharing more is no threat (greedy's rating counts it).
    spent: dict[int, list[int]] = {}
    for sequence in view["sequences"]:
        mask = 0
        for label in sequence["spaces"]:
            mask |= 1 << label_to_space(label, board.columns)
        spent.setdefault(sequence["team"], []).append(mask)
    # Spaces a card other than PURRR or MEOW can take: blocking there keeps the PURRR.
    plain = {a["space"] for a in actions
             if a["type"] == "play" and a["card"] not in ("purrr", "meow")}
    ratings: list[float] = []
    for action, rating in zip(actions, greedy, strict=True):
        if action["type"] != "play":
            ratings.append(rating)
            continue
        if rating >= WINS:  # a five completed, by a breed card or a PURRR (its cost off)
            ratings.append(rating)
            continue
        card = CARD_NUMBER[action["card"]]
        space = board.index[action["space"]]
        after = cells.copy()
        kept = hand.copy()
        kept.remove(card)
        if card == MEOW:
            after[space] = EMPTY
        else:
            after[space] = team
        value = _evaluate(after, windows, breed_of, kept, unseen, team, teams, next_team,
                          p_holds)
        # Keeping a PURRR or MEOW is worth something, but not the game: a PURRR that
        # alone takes the space another team's four needs is played (its threat stays
        # every turn the space is open, where the value above sees the next turn only).
        blocks_a_four = (card == PURRR and rating >= BLOCKS_A_FOUR
                         and action["space"] not in plain
                         and _a_four_needs(space, cells, windows, team, spent))
        if card in (PURRR, MEOW) and not blocks_a_four:
            value -= SPECIAL_COST
        ratings.append(value)
    return ratings


def _a_four_needs(space: int, cells: list[int], windows: Sequence[int], team: int,
                  spent: dict[int, list[int]]) -> bool:
    """Whether another team than ``team`` has four of a window through ``space`` (its
    chips and free spaces, no other chip) that can still become a sequence: one sharing
    two spaces or more with that team's sequences cannot (SC-WIN-2)."""
    bit = 1 << space
    for window in windows:
        if not window & bit:
            continue
        owners = {cells[s] for s in _bits(window & ~bit)}
        if EMPTY in owners or BLANK in owners or team in owners:
            continue
        teams = owners - {-2}
        if len(teams) == 1 and all(
                (window & s).bit_count() <= 1 for s in spent.get(teams.pop(), [])):
            return True
    return False


def _evaluate(cells: list[int], windows: Sequence[int], breed_of: Sequence[int],
              hand: list[int], unseen: list[int], team: int, teams: int, next_team: int,
              p_holds: Callable[[set[int]], float]) -> float:
    """The position ``cells`` with ``hand`` left, the next seat (team ``next_team``)
    to move (see the module docstring)."""
    free = 0
    blank = 0
    empty = 0
    chips = [0] * teams
    for space, cell in enumerate(cells):
        if cell == -2:
            free |= 1 << space
        elif cell == BLANK:
            blank |= 1 << space
        elif cell == EMPTY:
            empty |= 1 << space
        elif cell >= 0:
            chips[cell] |= 1 << space
    own = chips[team]
    others = 0
    for t in range(teams):
        if t != team:
            others |= chips[t]
    held_breeds = set(hand)
    wild = PURRR in held_breeds
    purrr_unseen = unseen[PURRR] > 0
    lines = 0.0
    mine_win: set[int] = set()
    theirs_win: set[int] = set()
    for window in windows:
        if window & blank:
            continue
        holes = window & empty
        if not window & others:
            k = 5 - holes.bit_count()
            if k == 5:
                continue
            held = 0
            dead = False
            for space in _bits(holes):
                breed = breed_of[space]
                if breed in held_breeds:
                    held += 1
                elif unseen[breed] == 0:
                    dead = True
            if k == 4:
                mine_win.add(holes.bit_length() - 1)
            value = OWN[k] * (1.0 + HELD * (held + (1 if wild and held < 5 - k else 0)))
            lines += value * (DEAD if dead and not wild else 1.0)
        if not window & own:
            for t in range(teams):
                if t == team:
                    continue
                theirs = chips[t]
                if window & (others & ~theirs):
                    continue
                k = 5 - holes.bit_count()
                if k == 5:
                    continue
                dead = any(unseen[breed_of[s]] == 0 for s in _bits(holes))
                if k == 4 and t == next_team and (purrr_unseen or not dead):
                    theirs_win.add(holes.bit_length() - 1)
                lines -= OTHER[k] * (DEAD if dead and not purrr_unseen else 1.0)
    p_lose = 0.0
    if theirs_win:
        p_lose = p_holds({breed_of[s] for s in theirs_win} | {PURRR})
    p_win = 0.0
    if mine_win:
        held_spaces = [s for s in mine_win if wild or breed_of[s] in held_breeds]
        if len(held_spaces) >= 2:
            p_win = (1.0 - p_lose) * (1.0 - p_holds({MEOW}))
        elif held_spaces:
            breed = breed_of[held_spaces[0]]
            p_block = p_holds({breed, PURRR, MEOW})
            p_win = (1.0 - p_lose) * (1.0 - p_block)
    return WIN_UNITS * (p_win - p_lose) + lines
