"""A computer player's think time includes its decision: a search player's thinking is
not added to the table's bot delay, and it still never answers before that delay. The
wait tells nothing about the cards: it is the same whatever the deal."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from gametable.bots import base
from gametable.bots.pace import JITTER, MARGIN
from gametable.core.protocol import Action, Observation
from gametable.server.storage import SQLiteStorage
from gametable.server.table import FINISHED
from gametable.server.tables import SeatRequest, TableManager
from tests.aio import run_async
from tests.server.test_clock import until

THINKING = 0.6
"""Seconds the slow player below takes to decide."""


class SlowPlayer:
    """Decides in :data:`THINKING` seconds (in its thread), noting when it started."""

    name = "slow"
    started: ClassVar[list[float]] = []

    def __init__(self, game: Any, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        assert threading.current_thread() is not threading.main_thread()
        SlowPlayer.started.append(time.monotonic())
        time.sleep(THINKING)
        return legal[0]


@pytest.fixture
def slow_player() -> Iterator[None]:
    base.register_bot("slow", SlowPlayer)
    SlowPlayer.started.clear()
    yield
    base._FACTORIES.pop("slow", None)


@pytest.mark.usefixtures("slow_player")
def test_the_decision_runs_during_the_think_time(tmp_path: Path) -> None:
    """Bot delay 4 s: the think time of a Sequence Cats turn is at least 3.6 s (0.9 ×
    4), so a player that starts deciding at once and acts after it has decided within
    it; the move lands after the think time, not after think time + thinking."""
    async def main() -> None:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=4.0)
        try:
            began = time.monotonic()
            table, *_ = await manager.create(
                "sequence-cats", {}, [SeatRequest("bot", bot="slow"),
                                      SeatRequest("bot", bot="greedy")], "Ann")
            await until(lambda: bool(SlowPlayer.started), timeout=5.0)
            assert SlowPlayer.started[0] - began < 1.5, "it decides while it waits"
            assert table.version == 0
            await until(lambda: table.version >= 1, timeout=15.0)
            landed = time.monotonic() - began
            assert landed >= JITTER[0] * 4.0 - 0.05, "never before the think time"
        finally:
            await manager.stop()
            storage.close()
    run_async(main())


class Recording(TableManager):
    """Notes each think time it draws, with the legal actions the seat had then."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.waits: list[tuple[float, int]] = []

    def _think_time(self, table: Any, seat: int) -> float:
        wait = super()._think_time(table, seat)
        self.waits.append((wait, len(table.game.legal_actions(table.state, seat))))
        return 0.0  # and plays on at once


@pytest.mark.parametrize("game", ["triominos", "sequence-cats"])
def test_a_computer_players_wait_is_the_same_whatever_its_cards(
        tmp_path: Path, game: str) -> None:
    """Two tables of `greedy` players, different deals, the same jitter: the waits come
    out the same, though the players had different numbers of legal actions (a wait that
    grew with them told anyone timing the moves how many the hidden hand allowed)."""
    async def play(number: int) -> list[tuple[float, int]]:
        storage = SQLiteStorage(tmp_path / f"db{number}.sqlite3", synchronous="NORMAL")
        manager = Recording(storage, bot_delay=1.0)
        manager._pace = random.Random(5)
        try:
            table, *_ = await manager.create(game, {}, [SeatRequest("bot", bot="greedy")] * 2,
                                             "Ann")
            # Twelve moves, or fewer when the game ends sooner (a Sequence Cats game can,
            # with a free corner and a PURRR: about one in ten).
            await until(lambda: len(manager.waits) >= 12 or table.status == FINISHED,
                        timeout=60.0)
            return manager.waits[:12]
        finally:
            await manager.stop()
            storage.close()

    first, second = (run_async(play(number)) for number in (1, 2))
    moves = min(len(first), len(second))
    assert moves >= 6
    first, second = first[:moves], second[:moves]
    assert [wait for wait, _ in first] == [wait for wait, _ in second]
    assert [options for _, options in first] != [options for _, options in second], \
        "the two deals gave the same choices: the test shows nothing"


class Budgeted:
    """A player with a thinking budget of 0.5 s that answers at once."""

    name = "budgeted"
    seconds = 0.5

    def __init__(self, game: Any, rng: random.Random) -> None:
        pass

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        return legal[0]


def test_a_short_bot_delay_still_waits_for_a_players_thinking_budget(
        tmp_path: Path) -> None:
    """Bot delay 0.1 s, a player that may think 0.5 s: each wait is at least its budget
    (plus a margin), so an answer that comes at once (a hand with one legal action) is
    not told apart by its timing from one the player thought about until its budget ran
    out."""
    base.register_bot("budgeted", Budgeted)

    async def main() -> list[tuple[float, int]]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = Recording(storage, bot_delay=0.1)
        try:
            await manager.create("sequence-cats", {}, [SeatRequest("bot", bot="budgeted"),
                                                       SeatRequest("bot", bot="budgeted")],
                                 "Ann")
            await until(lambda: len(manager.waits) >= 6, timeout=30.0)
            return manager.waits[:6]
        finally:
            await manager.stop()
            storage.close()

    try:
        waits = run_async(main())
    finally:
        base._FACTORIES.pop("budgeted", None)
    # Never less than the budget and its margin: a decision a little over its budget
    # (747 ms of a 500 ms budget was seen) still ends inside the wait.
    floor = Budgeted.seconds + MARGIN
    assert all(wait >= floor - 1e-9 for wait, _ in waits), (floor, waits)
    assert all(wait <= JITTER[1] / JITTER[0] * floor for wait, _ in waits)
