"""A computer player that fails never stops its table (gametable.server.deciding).

A player that raised once, or returned an action the rules refuse, left its seat's turn
waiting for good: the person at the table heard nothing, no clock covered a computer
player's seat, and the host could neither remove nor replace it. One that hung held a
thread of the event loop's default pool for good, and a few of them starved storage and
``/readyz``. Now a failed decision is logged and counted, the seat plays the ``greedy``
player's move instead (a random legal move should that fail too), and decisions run on a
pool of their own."""

from __future__ import annotations

import asyncio
import logging
import random
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from gametable.bots import base
from gametable.core import registry
from gametable.core.protocol import Action, HasHeuristic, Observation
from gametable.server.caps import Caps
from gametable.server.deciding import Deciders, DecisionFailed, fallback_action
from gametable.server.storage import SQLiteStorage
from gametable.server.table import FINISHED
from gametable.server.tables import SeatRequest, TableManager
from tests.aio import run_async
from tests.server.test_clock import until


class Raising:
    """Raises on every decision."""

    name = "raising"

    def __init__(self, game: Any, rng: random.Random) -> None:
        pass

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        raise RuntimeError("this player is broken")


class Refused:
    """Returns an action no game knows."""

    name = "refused"

    def __init__(self, game: Any, rng: random.Random) -> None:
        pass

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        return {"type": "nonsense"}


class Hanging:
    """Never answers until :attr:`release` is set."""

    name = "hanging"
    release: ClassVar[threading.Event] = threading.Event()

    def __init__(self, game: Any, rng: random.Random) -> None:
        pass

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        Hanging.release.wait(30.0)
        return legal[0]


class Waiting:
    """Waits for ``release`` (at most 5 s) in each decision, then plays the first legal
    action; ``inside`` counts the decisions of players sharing it: now, most at once."""

    name = "waiting"

    def __init__(self, release: threading.Event, inside: list[int]) -> None:
        self.release = release
        self.inside = inside

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        self.inside[0] += 1
        self.inside[1] = max(self.inside)
        self.release.wait(5.0)
        self.inside[0] -= 1
        return legal[0]


@pytest.fixture
def failing_players() -> Iterator[None]:
    for player in (Raising, Refused, Hanging):
        base.register_bot(player.name, player)
    Hanging.release.clear()
    yield
    Hanging.release.set()
    for player in (Raising, Refused, Hanging):
        base._FACTORIES.pop(player.name, None)


@pytest.mark.usefixtures("failing_players")
@pytest.mark.parametrize(("player", "reason"), [("raising", "raised"),
                                                ("refused", "refused")])
def test_a_player_that_fails_every_decision_still_finishes_its_game(
        tmp_path: Path, player: str, reason: str, caplog: pytest.LogCaptureFixture) -> None:
    """Sequence Cats, the failing player against ``random``: every one of its turns is
    played (the ``greedy`` player's move), the game ends, and each failure is logged with the
    seat and counted by reason."""
    async def main() -> tuple[str, int, dict[str, list[float]]]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=0.0)
        try:
            table, *_ = await manager.create(
                "sequence-cats", {}, [SeatRequest("bot", bot=player),
                                      SeatRequest("bot", bot="random")], "Ann")
            await until(lambda: table.status == FINISHED, timeout=60.0)
            return table.status, table.version, manager.metrics.bot_failures
        finally:
            await manager.stop()
            storage.close()

    with caplog.at_level(logging.ERROR, logger="gametable.tables"):
        status, version, failures = run_async(main())
    # The shortest game: four chips of seat 0 beside a free corner (SC-COMP-2, SC-WIN-1), its
    # fourth at the game's seventh action, which `random` leaves unblocked now and then.
    assert status == FINISHED and version >= 7
    assert set(failures) == {reason} and failures[reason][0] >= version // 2 - 1
    lines = [r.getMessage() for r in caplog.records]
    assert any(f"the computer player '{player}' in seat 0 failed to decide" in line
               and "the greedy player's move is played for it" in line for line in lines), lines
    # One line for the 1st failure, one for the 10th, …: not a traceback a move.
    count = int(failures[reason][0])
    assert len(lines) == len(str(count)), (count, lines)


def _positions(game_name: str, seats: int) -> Iterator[tuple[Any, Any, int]]:
    """Positions of random games (every 7th action), with a seat to act in each."""
    game = registry.get(game_name)
    for seed in range(3):
        state = game.new_game(game.make_config({}, seats), seats, seed)
        rng = random.Random(seed)
        for step in range(200):
            acting = sorted(game.to_act(state))
            if not acting:
                break
            seat = rng.choice(acting)
            legal = game.legal_actions(state, seat)
            if step % 7 == 0 and len(legal) > 1:
                yield game, state, seat
            game.apply(state, seat, rng.choice(legal))


@pytest.mark.parametrize(("game_name", "seats"), [("sequence-cats", 2), ("triominos", 2)])
def test_a_failed_decision_plays_the_greedy_players_move(game_name: str,
                                                         seats: int) -> None:
    """The fallback plays an action the game's heuristic rates highest (what ``greedy``
    plays, the ``medium`` level of Sequence Cats and Triominos), not a random one: a
    player that fails every decision still plays sensibly."""
    checked = 0
    for game, state, seat in _positions(game_name, seats):
        view = game.view(state, seat)
        legal = game.legal_actions(state, seat)
        assert isinstance(game, HasHeuristic)
        ratings = game.rate_actions(view, legal)
        if min(ratings) == max(ratings):
            continue
        action = fallback_action(registry.get(game_name), view, legal)
        assert game.rate_actions(view, [action])[0] == max(ratings), (action, seat)
        checked += 1
    assert checked >= 10


def test_a_fallback_whose_heuristic_fails_plays_a_random_legal_move(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    game, state, seat = next(_positions("sequence-cats", 2))
    legal = game.legal_actions(state, seat)

    def broken(view: Observation, actions: Sequence[Action]) -> list[float]:
        raise ValueError("no ratings today")

    monkeypatch.setattr(game, "rate_actions", broken)
    with caplog.at_level(logging.ERROR, logger="gametable.tables"):
        action = fallback_action(game, game.view(state, seat), legal)
    assert action in legal
    assert any("a random legal action is played instead" in r.getMessage()
               for r in caplog.records)


@pytest.mark.usefixtures("failing_players")
def test_a_player_that_hangs_is_given_up_on_and_leaves_the_default_pool_free(
        tmp_path: Path) -> None:
    """Three hanging players (more than the machine's cores, so every decision thread
    of a small pool is held): their seats move on once a decision has run too long or
    could not begin, and the event loop's own pool, which storage uses, answers at once
    meanwhile."""
    async def main() -> tuple[list[int], float, dict[str, list[float]]]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=0.0)
        manager.deciders = Deciders(2, seconds=1.0)
        try:
            tables = [(await manager.create(
                "sequence-cats", {}, [SeatRequest("bot", bot="hanging"),
                                      SeatRequest("bot", bot="random")], "Ann"))[0]
                for _ in range(3)]
            await asyncio.sleep(0.3)
            loop = asyncio.get_running_loop()
            asked = loop.time()
            await asyncio.wait_for(asyncio.to_thread(lambda: None), timeout=5.0)
            answered = loop.time() - asked
            await until(lambda: all(t.version >= 2 for t in tables), timeout=20.0)
            return [t.version for t in tables], answered, manager.metrics.bot_failures
        finally:
            Hanging.release.set()
            await manager.stop()
            storage.close()

    versions, answered, failures = run_async(main())
    assert all(version >= 2 for version in versions)
    assert answered < 1.0, answered
    # Each hanging player timed out once; after that it is busy, never asked again.
    assert failures["timed_out"][0] == 3
    assert set(failures) <= {"timed_out", "busy"}


@pytest.mark.usefixtures("failing_players")
def test_players_that_hang_hold_no_slot_of_the_others(tmp_path: Path) -> None:
    """Four tables of hanging players held the four threads of the decision pool for
    good: every other computer player then waited 120 s a move, and was blamed for it.
    A decision that times out gives its slot back, and its player is not asked again
    while it still runs: two `random` players move at their usual pace."""
    async def main() -> tuple[float, dict[str, list[float]]]:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=0.0,
                               caps=Caps(bot_tables_per_client=None, bot_tables=None))
        manager.deciders = Deciders(2, seconds=0.5)
        try:
            for _ in range(4):
                await manager.create("sequence-cats", {}, [
                    SeatRequest("bot", bot="hanging"), SeatRequest("bot", bot="hanging")],
                    "Ann")
            await asyncio.sleep(1.5)  # every hanging player has timed out once
            began = time.monotonic()
            table, *_ = await manager.create("sequence-cats", {}, [
                SeatRequest("bot", bot="random"), SeatRequest("bot", bot="random")], "Bo")
            await until(lambda: table.version >= 6, timeout=30.0)
            return time.monotonic() - began, manager.metrics.bot_failures
        finally:
            Hanging.release.set()
            await manager.stop()
            storage.close()

    took, failures = run_async(main())
    assert took < 5.0, took
    assert failures["timed_out"][0] <= 8  # the hanging ones only, once each


def test_a_player_is_never_in_two_decisions_at_once() -> None:
    """After a time-out the next decision called the same object while the abandoned
    one was still inside it (a search tree or a random generator raced)."""
    async def main() -> tuple[list[str], int]:
        deciders = Deciders(4, seconds=0.2)
        inside = [0, 0]  # now, most at once
        release = threading.Event()
        bot = Waiting(release, inside)
        reasons = []
        for _ in range(3):
            try:
                await deciders.decide(bot, {}, [{"type": "pass"}])
            except DecisionFailed as failure:
                reasons.append(failure.reason)
        release.set()
        await asyncio.sleep(0.2)
        answer = await deciders.decide(bot, {}, [{"type": "pass"}])
        assert answer == {"type": "pass"}
        return reasons, inside[1]

    reasons, most = run_async(main())
    assert reasons == ["timed_out", "busy", "busy"]
    assert most == 1


def test_a_decision_that_raises_is_told_apart_from_one_that_times_out() -> None:
    """The reasons the log and the counter give."""
    async def main() -> tuple[str, str]:
        deciders = Deciders(1, seconds=0.2)

        class Bad:
            name = "bad"

            def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
                raise ValueError("no")

        class Slow:
            name = "slow"

            def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
                threading.Event().wait(1.5)
                return legal[0]

        reasons = []
        for bot in (Bad(), Slow()):
            try:
                await deciders.decide(bot, {}, [{"type": "pass"}])
            except DecisionFailed as failure:
                reasons.append(failure.reason)
        deciders.close()
        return reasons[0], reasons[1]

    assert run_async(main()) == ("raised", "timed_out")


def test_cancelled_decisions_keep_their_slots_while_their_threads_run() -> None:
    """Dealing again cancels a computer player's decision: its slot was given back at
    once while its thread thought on, so 40 quick changes of a table's options ran 39
    threads beyond the slots. A cancelled decision keeps its slot until its thread
    ends, or its time would have run out (a player that hangs holds it no longer than
    one that timed out)."""
    async def main() -> tuple[float, float]:
        deciders = Deciders(2, seconds=1.5)
        release = threading.Event()
        running = [0, 0]  # now, most at once

        def Thinking() -> Waiting:  # noqa: N802 (a player made as a class would be)
            return Waiting(release, running)

        legal = [{"type": "pass"}]
        for _ in range(4):  # four decisions begun, each cancelled as dealing again does
            task = asyncio.create_task(deciders.decide(Thinking(), {}, legal))
            await asyncio.sleep(0.05)
            task.cancel()
        began = time.monotonic()
        release.set()  # the two that started end; the next decision gets a slot then
        await deciders.decide(Thinking(), {}, legal)
        after_release = time.monotonic() - began
        # Now two that hang, cancelled: their slots come back when their time is up.
        release.clear()
        for _ in range(2):
            task = asyncio.create_task(deciders.decide(Thinking(), {}, legal))
            await asyncio.sleep(0.05)
            task.cancel()
        began = time.monotonic()
        quick = asyncio.create_task(deciders.decide(Quick(), {}, legal))
        await asyncio.wait_for(quick, 5.0)
        waited = time.monotonic() - began
        release.set()
        assert running[1] <= 2, f"{running[1]} decisions ran at once on 2 slots"
        return after_release, waited

    class Quick:
        name = "quick"

        def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
            return legal[0]

    after_release, waited = run_async(main())
    assert after_release < 1.0
    assert 1.0 < waited < 2.5  # the hanging pair's 1.5 s, not for good
