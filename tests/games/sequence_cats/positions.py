"""Positions reached by real play, found by replaying greedy games (for browser tests).

A position set up by hand cannot be reached through a record; these are: the seed and
the actions that lead to them, so a table can be stored with that record and opened in
a browser.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from gametable.bots import make_bot
from gametable.core.records import load_record
from gametable.games.sequence_cats import SEQUENCE_CATS as GAME
from gametable.games.sequence_cats.state import SequenceCatsState
from gametable.simulate import bot_seed

Steps = list[tuple[int, dict[str, Any]]]


def greedy_until(predicate: Callable[[SequenceCatsState], bool], options: dict[str, Any],
                 seats: int = 2, seeds: Iterable[int] = range(500),
                 max_actions: int = 400) -> tuple[int, Steps]:
    """The first seed and actions of greedy play after which ``predicate`` holds.

    Raises:
        LookupError: no such position in those games.
    """
    config = GAME.make_config(options, seats)
    for seed in seeds:
        state = GAME.new_game(config, seats, seed)
        bots = [make_bot("greedy", GAME, bot_seed(seed, seat)) for seat in range(seats)]
        steps: Steps = []
        while GAME.to_act(state) and len(steps) < max_actions:
            if predicate(state):
                return seed, steps
            (seat,) = GAME.to_act(state)
            action = bots[seat].choose(GAME.view(state, seat), GAME.legal_actions(state, seat))
            GAME.apply(state, seat, action)
            steps.append((seat, action))
    raise LookupError("no game reached the position")


def exchange_choice(seat: int = 0) -> tuple[int, Steps]:
    """SC-DEAD-1: ``seat`` begins its turn holding two or more different dead cards."""
    def holds_two_dead(state: SequenceCatsState) -> bool:
        legal = GAME.legal_actions(state, seat)
        return (GAME.to_act(state) == {seat} and all(a["type"] == "exchange" for a in legal)
                and len(legal) >= 2)
    return greedy_until(holds_two_dead, {}, seats=3)


def five_choice(seat: int = 0) -> tuple[int, Steps, dict[str, Any]]:
    """SC-WIN-2: with two sequences to win, ``seat`` can play a chip that makes a line
    longer than five with a choice of fives; returns that play too."""
    found: list[dict[str, Any]] = []

    def can_make_six(state: SequenceCatsState) -> bool:
        if GAME.to_act(state) != {seat}:
            return False
        for action in GAME.legal_actions(state, seat):
            if action["type"] == "play" and action["card"] != "meow":
                after = GAME.clone(state)
                GAME.apply(after, seat, action)
                if after.choosing is not None:
                    found.append(action)
                    return True
        return False

    seed, steps = greedy_until(can_make_six, {"sequences_to_win": 2})
    return seed, steps, found[0]


RECORDS = Path(__file__).parent / "records"


def two_lines_choice() -> tuple[int, Steps, dict[str, Any], dict[str, Any]]:
    """SC-WIN-2 twice over: with three sequences to win, seat 0 can play a chip that makes
    two lines longer than five at once (B4–G4 and E1–E6 through E4), each with a choice of
    fives. Greedy play reaches it too rarely to search for; the record of a scripted game
    reaching it is kept (``records/two_lines_choice.json.gz``, ending with that play).
    Returns the seed, the actions before the play, the play and the options."""
    record = load_record(gzip.decompress((RECORDS / "two_lines_choice.json.gz").read_bytes()))
    steps: Steps = [(recorded.seat, recorded.action) for recorded in record.actions]
    *before, (_, play) = steps
    options = {key: value for key, value in record.config.items() if key != "rules_version"}
    return record.seed, before, play, options
