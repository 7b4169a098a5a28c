"""A person steps away: a computer player plays for their seat until they say they are
back or move themselves, at any table (with or without a turn clock)."""

from __future__ import annotations

from collections import deque
from pathlib import Path

from gametable.server.clock import ASKED, ClockSettings
from gametable.server.storage import SQLiteStorage
from gametable.server.tables import STEP_AWAY_COUNT, STEP_AWAY_SECONDS, TableManager
from tests.aio import run_async
from tests.server.test_clock import (
    HUMAN,
    messages,
    play_of,
    seated,
    state_at,
    until,
    with_manager,
)


def test_a_person_steps_away_a_computer_player_plays_for_them_until_they_are_back(
        tmp_path: Path) -> None:
    """A table without a clock: nobody could play for a person who had to go for a
    while, short of the host removing them for good."""
    async def body(manager: TableManager) -> None:
        table, _, _, token = await manager.create("sequence-cats", {}, [HUMAN, HUMAN],
                                                  "Ann")
        _, bo_token = await manager.join(table.id, 1, "Bo")
        assert table.clock is None
        ann, ann_task = await seated(manager, table, token)
        ann.say({"type": "away", "id": 3})
        # Ann must play: the computer player moves for her at once (Bo is here).
        covered = await state_at(ann, 1)
        assert covered["covered"] == {"seat": 0, "reason": ASKED}
        assert table.actions[0][0] == 0
        assert table.clock is not None and table.clock.away == {0: ASKED}
        assert table.clock.settings.turn_seconds is None  # no time runs for anyone
        clock = messages(ann, "clock")[-1]
        assert clock["away"] == {"0": ASKED} and clock["cover"] == "medium"
        assert not messages(ann, "error")
        # A reload keeps her away (only "back" or a move of her own ends it).
        ann.inbox.put_nowait(None)
        await ann_task
        ann, ann_task = await seated(manager, table, token)
        assert table.clock.away == {0: ASKED}
        await manager.submit(table, 1, play_of(table, 1))
        await until(lambda: table.version >= 3)
        assert [seat for seat, _ in table.actions] == [0, 1, 0]
        ann.say({"type": "back"})
        await until(lambda: table.clock is not None and not table.clock.away)
        await manager.submit(table, 1, play_of(table, 1))
        await state_at(ann, 4)
        assert 0 in table.game.to_act(table.state) and table.version == 4  # her move
        ann.inbox.put_nowait(None)
        await ann_task
        assert bo_token

    with_manager(tmp_path, body, bot_delay=0.0)


def test_a_seat_stepped_away_is_still_away_after_a_restart(tmp_path: Path) -> None:
    async def first(manager: TableManager) -> str:
        table, _, _, token = await manager.create(
            "sequence-cats", {}, [HUMAN, HUMAN], "Ann",
            clock=ClockSettings(turn_seconds=600, cover="easy"))
        await manager.join(table.id, 1, "Bo")
        await manager.submit(table, 0, play_of(table, 0))
        ann, task = await seated(manager, table, token)
        ann.say({"type": "away"})
        await until(lambda: table.clock is not None and 0 in table.clock.away)
        ann.inbox.put_nowait(None)
        await task
        return table.id

    async def main() -> None:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=5.0)
        table_id = await first(manager)
        await manager.stop()
        again = TableManager(storage, bot_delay=5.0)
        try:
            table = await again.get(table_id)
            assert table.clock is not None and table.clock.away == {0: ASKED}
            assert table.clock.settings.cover == "easy"
        finally:
            await again.stop()
            storage.close()

    run_async(main())


def test_stepping_away_is_refused_twice_to_watchers_and_before_the_game(
        tmp_path: Path) -> None:
    async def body(manager: TableManager) -> None:
        waiting, _, _, host = await manager.create("triominos", {}, [HUMAN, HUMAN], "Ann")
        early, early_task = await seated(manager, waiting, host)
        early.say({"type": "away", "id": 1})
        await until(lambda: bool(messages(early, "error")))
        assert messages(early, "error")[0]["code"] == "not_playing"
        assert waiting.clock is None

        table, _, _, token = await manager.create("triominos", {}, [HUMAN, HUMAN], "Cy")
        await manager.join(table.id, 1, "Di")
        player, player_task = await seated(manager, table, token)
        watcher, watcher_task = await seated(manager, table, None)
        player.say({"type": "away", "id": 2})
        await until(lambda: table.clock is not None and 0 in table.clock.away)
        player.say({"type": "away", "id": 3})
        watcher.say({"type": "away", "id": 4})
        await until(lambda: bool(messages(player, "error")) and bool(messages(watcher, "error")))
        assert [(m["code"], m["id"]) for m in messages(player, "error")] == [("already_away", 3)]
        assert messages(watcher, "error")[0]["code"] == "not_seated"
        for sock, task in ((early, early_task), (player, player_task), (watcher, watcher_task)):
            sock.inbox.put_nowait(None)
            await task

    with_manager(tmp_path, body, bot_delay=5.0)


def test_stepping_away_and_back_over_and_over_is_refused_after_a_few_times(
        tmp_path: Path) -> None:
    """One seat sent away and back a thousand times in three seconds: each stored the
    clock, was sent to every page and logged a line. A seat steps away four times a
    minute at most; the fifth is refused and changes nothing."""
    async def body(manager: TableManager) -> None:
        table, _, _, token = await manager.create(
            "sequence-cats", {}, [HUMAN, HUMAN], "Ann",
            clock=ClockSettings(turn_seconds=600, cover="easy"))
        await manager.join(table.id, 1, "Bo")
        await manager.submit(table, 0, play_of(table, 0))  # Bo's turn: nothing covered
        ann, task = await seated(manager, table, token)
        for number in range(STEP_AWAY_COUNT):
            ann.say({"type": "away", "id": 2 * number})
            await until(lambda: table.clock is not None and 0 in table.clock.away)
            ann.say({"type": "back", "id": 2 * number + 1})
            await until(lambda: table.clock is not None and not table.clock.away)
        sent = len(messages(ann, "clock"))
        ann.say({"type": "away", "id": 99})
        await until(lambda: bool(messages(ann, "error")))
        refusal = messages(ann, "error")[-1]
        assert refusal["code"] == "away_too_fast" and refusal["id"] == 99
        assert refusal["params"]["limit"] == STEP_AWAY_COUNT
        assert 0 < refusal["params"]["wait"] <= STEP_AWAY_SECONDS + 1
        assert table.clock is not None and not table.clock.away
        assert len(messages(ann, "clock")) == sent  # nothing sent to the table
        # A minute on, the seat may step away again.
        table.stepped_away[0] = deque(t - STEP_AWAY_SECONDS for t in table.stepped_away[0])
        ann.say({"type": "away", "id": 100})
        await until(lambda: table.clock is not None and 0 in table.clock.away)
        ann.inbox.put_nowait(None)
        await task

    with_manager(tmp_path, body, bot_delay=0.0)
