"""Turn clocks (TR-TIME-1 for Triominos, and the same table option for every game): a
seat whose time runs out is played by a computer player and shown away until its person
takes it back; deadlines are stored with the table."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
from fastapi.testclient import TestClient

from gametable.core import registry
from gametable.core.protocol import HasTurns
from gametable.server.clock import (
    ABSENT,
    HELD_FLOOR_SECONDS,
    JOIN_GRACE_SECONDS,
    RESTART_GRACE_SECONDS,
    TURN,
    Clock,
    ClockSettings,
    Deadline,
)
from gametable.server.hosting import pause_clock
from gametable.server.refused import Refused
from gametable.server.socket import serve_client
from gametable.server.storage import SQLiteStorage
from gametable.server.table import PLAYING, Table
from gametable.server.tables import SeatRequest, TableManager
from tests.aio import run_async
from tests.server.test_races import FakeSocket

HUMAN = SeatRequest("human")


def bot(name: str = "greedy") -> SeatRequest:
    return SeatRequest("bot", bot=name)


async def until(check: Callable[[], bool], timeout: float = 20.0) -> None:
    """Wait (without blocking the loop) until ``check()`` holds."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the condition never held"
        await asyncio.sleep(0.01)


def messages(sock: FakeSocket, kind: str) -> list[dict[str, Any]]:
    return [m for m in sock.received if m["type"] == kind]


async def state_at(sock: FakeSocket, version: int) -> dict[str, Any]:
    """The ``state`` message of ``version`` the client received, once it has (the
    table's version moves on before each client's copy is sent)."""
    await until(lambda: any(m["version"] == version for m in messages(sock, "state")))
    return next(m for m in messages(sock, "state") if m["version"] == version)


async def seated(manager: TableManager, table: Table, token: str | None
                 ) -> tuple[FakeSocket, asyncio.Task[None]]:
    """A client of ``table`` that said hello with ``token``, and the task serving it."""
    sock = FakeSocket()
    task = asyncio.create_task(serve_client(sock, manager, table.id))
    sock.say({"type": "hello", "token": token} if token else {"type": "hello"})
    await until(lambda: bool(messages(sock, "state")))
    return sock, task


def play_of(table: Table, seat: int) -> dict[str, Any]:
    """A Sequence Cats move of ``seat`` that ends its turn (a card played, SC-TURN-1),
    rather than the first legal action, which may be a dead card's exchange."""
    legal = table.game.legal_actions(table.state, seat)
    return next((a for a in legal if a["type"] == "play"), legal[0])


def plays_promptly(manager: TableManager, table: Table, seat: int) -> asyncio.Task[None]:
    """A person at ``seat`` who is there and plays at once whenever it is their turn
    (acting through the table, as their connection would), until the task is cancelled."""
    async def play() -> None:
        while True:
            if seat in table.game.to_act(table.state) and seat not in table.bot_tasks:
                with contextlib.suppress(Refused):
                    await manager.submit(table, seat, play_of(table, seat))
            await asyncio.sleep(0.01)
    return asyncio.create_task(play())


async def covering_absence(manager: TableManager
                           ) -> tuple[Table, str | None, asyncio.Task[None]]:
    """A Sequence Cats table of Ann (seat 0) and Bo (seat 1) whose computer players cover
    for a person disconnected 0.3 s on their turn; Bo plays at once whenever it is his
    turn. Returns the table, Ann's token and Bo's task (cancel it to stop him)."""
    table, _, _, token = await manager.create(
        "sequence-cats", {}, [HUMAN, HUMAN], "Ann",
        clock=ClockSettings(cover="greedy", cover_absent=True, absent_seconds=0.3))
    await manager.join(table.id, 1, "Bo")
    return table, token, plays_promptly(manager, table, 1)


def with_manager(tmp_path: Path, body: Callable[[TableManager], Awaitable[None]], *,
                 bot_delay: float = 0.0, **options: Any) -> None:
    """Run ``body`` with a table manager on a fresh SQLite file (``options``: more of
    :class:`TableManager`'s), stopped and closed afterwards."""
    async def main() -> None:
        storage = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        manager = TableManager(storage, bot_delay=bot_delay, **options)
        try:
            await body(manager)
        finally:
            await manager.stop()
            storage.close()
    run_async(main())


async def ann_with_a_clock_and_bo(manager: TableManager
                                  ) -> tuple[Table, int | None, str | None, asyncio.Task[None]]:
    """A Sequence Cats table of Ann (seat 0, to play first) and Bo, 0.3 s a turn and
    ``greedy`` covering: ``(table, Ann's seat, her token, Bo playing at once)``."""
    table, _, seat, token = await manager.create(
        "sequence-cats", {}, [HUMAN, HUMAN], "Ann",
        clock=ClockSettings(turn_seconds=0.3, cover="greedy"))
    await manager.join(table.id, 1, "Bo")
    return table, seat, token, plays_promptly(manager, table, 1)


def test_a_seat_whose_time_runs_out_is_played_for_and_its_person_takes_it_back(
        tmp_path: Path) -> None:
    """TR-TIME-1: when a turn's time runs out, a computer player of the table's level
    plays it, the state says so and the seat is away; ``back`` returns it to its person,
    whose next turn waits for them again. (Bo, at the other seat, plays at once.)"""
    async def body(manager: TableManager) -> None:
        table, seat, token, bo = await ann_with_a_clock_and_bo(manager)
        assert seat == 0 and table.status == PLAYING and table.clock is not None
        assert table.game.to_act(table.state) == {0}
        assert table.clock.deadlines[0].turn is not None
        sock, task = await seated(manager, table, token)
        clock = messages(sock, "clock")[-1]
        assert clock["turn_seconds"] == 0.3 and "0" in clock["deadlines"]
        assert clock["deadlines"]["0"] > clock["now"]

        covered = await state_at(sock, 1)
        assert covered["covered"] == {"seat": 0, "reason": TURN}
        assert table.clock.away == {0: TURN}
        await until(lambda: any(m["away"] == {"0": TURN} for m in messages(sock, "clock")))
        # While away, the computer player keeps playing the seat's turns.
        await until(lambda: table.version >= 3)
        assert table.actions[2][0] == 0

        table.clock.settings = replace(table.clock.settings, turn_seconds=600)
        sock.say({"type": "back"})
        await until(lambda: not table.clock.away if table.clock else False)
        await until(lambda: messages(sock, "clock")[-1]["away"] == {})
        await until(lambda: table.game.to_act(table.state) == {0}
                    and not table.bot_tasks)
        version = table.version
        await asyncio.sleep(0.3)
        assert table.version == version, "the person's own turn waits for them"
        assert 0 in table.clock.deadlines
        sock.say({"type": "action", "action": table.game.legal_actions(table.state, 0)[0]})
        assert "covered" not in await state_at(sock, version + 1)
        bo.cancel()
        sock.inbox.put_nowait(None)
        await task

    with_manager(tmp_path, body)


def test_back_within_the_turn_that_ran_out_leaves_its_move_to_the_computer_player(
        tmp_path: Path) -> None:
    """TR-TIME-1 ("so the round never stalls"): Ann says she is back each time her time
    runs out, before the computer player covering for her has moved. That gave her a
    whole new turn each time, and the game stood still for good. The computer player
    now makes the move of the turn whose time ran out, and she is back from her next
    turn."""
    async def body(manager: TableManager) -> None:
        table, seat, token, bo = await ann_with_a_clock_and_bo(manager)
        assert seat == 0 and table.clock is not None
        sock, task = await seated(manager, table, token)
        await until(lambda: table.clock is not None and 0 in table.clock.away)
        for _ in range(3):
            sock.say({"type": "back"})
            await asyncio.sleep(0.05)
        assert table.clock.away == {0: TURN}, "back waits for the turn that ran out"
        covered = await state_at(sock, 1)
        assert covered["covered"] == {"seat": 0, "reason": TURN}
        await until(lambda: not table.clock.away if table.clock else False)
        await until(lambda: table.version >= 2 and table.game.to_act(table.state) == {0})
        assert 0 in table.clock.deadlines, "her next turn is hers again"
        assert not [m for m in messages(sock, "error") if m.get("code") == "not_away"]
        bo.cancel()
        sock.inbox.put_nowait(None)
        await task

    with_manager(tmp_path, body, bot_delay=0.5)


def test_the_turn_that_ran_out_is_stored_so_back_after_a_restart_gives_no_new_turn(
        ) -> None:
    """TR-TIME-1: which turn's time ran out was kept in memory only, so after a restart
    (or another process taking the table over) "back" within that turn gave a new one."""
    clock = Clock(ClockSettings(turn_seconds=30, cover="medium"))
    clock.send_away(0, TURN, "3:play")
    loaded = Clock.from_json(clock.to_json())
    assert loaded.come_back(0, "3:play") and loaded.away == {0: TURN}
    again = Clock.from_json(loaded.to_json())
    assert again.returning == {0: "3:play"} and again.away == {0: TURN}
    assert again.come_back(0) and again.away == {}


def test_a_person_who_acts_while_away_has_the_seat_back(tmp_path: Path) -> None:
    """TR-TIME-1: the seat is shown away until its person acts again."""
    async def body(manager: TableManager) -> None:
        table, _, _, token = await manager.create(
            "sequence-cats", {}, [HUMAN, bot()], "Ann",
            clock=ClockSettings(turn_seconds=600, cover="greedy"))
        assert table.clock is not None
        sock, task = await seated(manager, table, token)
        async with table.lock:  # as if the time had run out; the cover thinks slowly
            table.clock.send_away(0, TURN)
        sock.say({"type": "action", "action": table.game.legal_actions(table.state, 0)[0]})
        assert "covered" not in await state_at(sock, 1)
        assert table.actions[0][0] == 0 and table.clock.away == {}
        sock.inbox.put_nowait(None)
        await task

    with_manager(tmp_path, body, bot_delay=5.0)


def test_back_is_refused_when_the_seat_is_not_away_or_the_client_only_watches(
        tmp_path: Path) -> None:
    async def body(manager: TableManager) -> None:
        table, _, _, token = await manager.create(
            "triominos", {}, [HUMAN, bot()], "Ann",
            clock=ClockSettings(turn_seconds=600))
        player, player_task = await seated(manager, table, token)
        watcher, watcher_task = await seated(manager, table, None)
        player.say({"type": "back", "id": 7})
        watcher.say({"type": "back", "id": 8})
        await until(lambda: bool(messages(player, "error")) and bool(messages(watcher, "error")))
        assert messages(player, "error")[0]["code"] == "not_away"
        assert messages(player, "error")[0]["id"] == 7
        assert messages(watcher, "error")[0]["code"] == "not_seated"
        assert table.version == 0 and table.clock is not None and table.clock.away == {}
        for sock, task in ((player, player_task), (watcher, watcher_task)):
            sock.inbox.put_nowait(None)
            await task

    with_manager(tmp_path, body, bot_delay=5.0)


def test_deadlines_and_away_seats_are_the_same_after_a_restart(tmp_path: Path) -> None:
    """A restart neither loses nor resets a running turn's deadline (issue: deadlines are
    stored with the table)."""
    stored: dict[str, Any] = {}

    async def first(manager: TableManager) -> None:
        table, _, _, _ = await manager.create(
            "sequence-cats", {}, [HUMAN, HUMAN], "Ann",
            clock=ClockSettings(turn_seconds=900, cover="easy"))
        seat, _ = await manager.join(table.id, None, "Bo")
        assert seat == 1 and table.clock is not None
        await until(lambda: 0 in table.clock.deadlines if table.clock else False)
        # The clock is stored in the background: wait until storage has it.
        await until(lambda: table.clock is not None and getattr(
            manager.storage.load_table(table.id), "clock", None) == table.clock.to_json())
        stored["id"] = table.id
        stored["deadline"] = table.clock.deadlines[0].turn

    async def second(manager: TableManager) -> None:
        assert manager.load() == 1, "a table whose clock runs is loaded at start-up"
        manager.start_bots()
        table = manager.tables[stored["id"]]
        assert table.clock is not None and table.clock.settings.cover == "easy"
        assert table.clock.deadlines[0].turn == stored["deadline"]
        assert table.info()["clock"]["turn_seconds"] == 900

    with_manager(tmp_path, first)
    with_manager(tmp_path, second)


def test_a_deadline_that_passed_while_the_server_was_down_gives_time_to_come_back(
        tmp_path: Path) -> None:
    """TR-TIME-1 counts a turn's time, not a server's downtime: Bo's deadline passed
    while the server was down (an upgrade of 40 s with 26 s left), and at start-up a
    computer player moved for him, for "time ran out", before his page could reconnect.
    Now he has RESTART_GRACE_SECONDS from the loading; Ann, with time left, keeps hers."""
    stored: dict[str, Any] = {}

    async def first(manager: TableManager) -> None:
        table, _, _, _ = await manager.create(
            "sequence-cats", {}, [HUMAN, HUMAN], "Ann",
            clock=ClockSettings(turn_seconds=60, cover="easy"))
        await manager.join(table.id, 1, "Bo")
        stored["id"] = table.id
        await until(lambda: 0 in table.clock.deadlines if table.clock else False)
        await until(lambda: table.clock is not None and getattr(
            manager.storage.load_table(table.id), "clock", None) == table.clock.to_json())
        assert table.clock is not None
        data = table.clock.to_json()  # the server went down when Ann's time ran out
        data["deadlines"]["0"][0] = time.time() - 14
        await manager.storage.save_clock(table.id, data)

    async def second(manager: TableManager) -> None:
        loaded_at = time.time()
        assert manager.load() == 1
        manager.start_bots()
        table = manager.tables[stored["id"]]
        assert table.clock is not None
        await asyncio.sleep(0.3)  # a computer player would have moved by now
        assert table.version == 0 and table.clock.away == {}, "no move for Ann yet"
        turn = table.clock.deadlines[0].turn
        assert turn is not None
        assert loaded_at + RESTART_GRACE_SECONDS <= turn <= time.time() + RESTART_GRACE_SECONDS

    with_manager(tmp_path, first)
    with_manager(tmp_path, second)


def test_loading_a_clock_moves_only_the_deadlines_too_near() -> None:
    """RESTART_GRACE_SECONDS: a seat with more time left keeps its deadline; a paused
    clock keeps every deadline (resuming moves them); a turn of 5 s gets at most 5 s."""
    clock = Clock(ClockSettings(turn_seconds=60, cover_absent=True))
    clock.deadlines = {0: Deadline(turn=100.0), 1: Deadline(turn=500.0, absent=90.0)}
    assert clock.loaded(now=200.0)
    assert clock.deadlines[0].turn == 200.0 + RESTART_GRACE_SECONDS
    assert (clock.deadlines[1].turn, clock.deadlines[1].absent) == (
        500.0, 200.0 + RESTART_GRACE_SECONDS)
    assert not clock.loaded(now=200.0), "nothing left too near"
    short = Clock(ClockSettings(turn_seconds=5), deadlines={0: Deadline(turn=1.0)})
    assert short.loaded(now=10.0) and short.deadlines[0].turn == 15.0
    paused = Clock(ClockSettings(turn_seconds=60), deadlines={0: Deadline(turn=1.0)},
                   paused_at=0.5)
    assert not paused.loaded(now=10.0) and paused.deadlines[0].turn == 1.0


def test_a_persons_arrival_lifts_their_absence_deadline_in_storage_too(
        tmp_path: Path) -> None:
    """Ann's turn began before she came: a deadline for her absence was stored. Her
    arrival lifted it in memory only, so a process taking the table over (or this one
    after a crash) found it passed and had a computer player move for her while she
    sat at the table."""
    async def body(manager: TableManager) -> None:
        table, _, _, token = await manager.create(
            "sequence-cats", {}, [HUMAN, HUMAN], "Ann",
            clock=ClockSettings(cover="greedy", cover_absent=True, absent_seconds=600))
        await manager.join(table.id, 1, "Bo")

        def stored_absence() -> object:
            clock = getattr(manager.storage.load_table(table.id), "clock", None) or {}
            return (clock.get("deadlines", {}).get("0") or [None, None])[1]

        await until(lambda: stored_absence() is not None)
        sock, task = await seated(manager, table, token)
        assert table.clock is not None and 0 not in table.clock.deadlines
        await until(lambda: stored_absence() is None)
        sock.inbox.put_nowait(None)
        await task

    with_manager(tmp_path, body)


def test_a_seat_gone_for_its_turn_is_covered_when_the_host_asked_for_it(
        tmp_path: Path) -> None:
    """Without a time limit, "computer players cover for absent players": a seat whose
    person stays disconnected while it must act goes away; one that is there does not.
    (Bo, at the other seat, plays at once.)"""
    async def body(manager: TableManager) -> None:
        table, token, bo = await covering_absence(manager)
        sock, task = await seated(manager, table, token)
        await asyncio.sleep(0.6)
        assert table.version == 0, "a connected person is never covered without a limit"
        assert table.clock is not None and 0 not in table.clock.deadlines
        sock.inbox.put_nowait(None)  # the person closes the page
        await task
        await until(lambda: table.version >= 1)
        assert table.clock.away == {0: ABSENT}
        assert table.last_covered is not None or table.version > 1
        bo.cancel()

    with_manager(tmp_path, body, absent_seconds=0.3)


def test_a_page_opened_later_is_told_which_earlier_moves_were_covered(
        tmp_path: Path) -> None:
    """A page open at the time logged "Ann played … (a computer player moved for
    them)"; one reloaded, or opened on another device, logged the same move without the
    note: ``earlier`` did not say which moves were covered."""
    async def body(manager: TableManager) -> None:
        table, token, bo = await covering_absence(manager)
        sock, task = await seated(manager, table, token)
        sock.inbox.put_nowait(None)  # Ann closes the page
        await task
        await until(lambda: table.version >= 1 and table.last_covered is not None)
        covered_version = table.version
        await until(lambda: table.version > covered_version)  # Bo's move after it
        bo.cancel()
        welcome = orjson.loads(table.welcome_state_message(None))
        marks = {entry["version"]: entry.get("covered") for entry in welcome["earlier"]}
        assert marks[covered_version] == 0
        assert marks.get(covered_version + 1) is None  # Bo moved himself

    with_manager(tmp_path, body, absent_seconds=0.3)


def test_when_every_person_is_away_each_turn_waits_out_its_time(tmp_path: Path) -> None:
    """Covering keeps a game moving for those still playing (TR-TIME-1: the seat's turn
    is played for it, so the round never stalls). With every person away — two friends
    and two computer players, both friends' time run out — the computer players covering
    for them played the whole game out in seconds, and a friend came back to "You win!"
    for a game they never played. Now, with nobody there, each covered turn is played
    once its time has run out, as TR-TIME-1 says; once someone is back, the others are
    covered at once again."""
    async def body(manager: TableManager) -> None:
        # Three sequences to win: no game of four `greedy` seats in 400 ended within
        # 25 actions (with one, 7 % ended within 12, before the test had seen its pace).
        table, _, _, ann_token = await manager.create(
            "sequence-cats", {"sequences_to_win": 3}, [HUMAN, bot(), HUMAN, bot()], "Ann",
            clock=ClockSettings(turn_seconds=0.2, cover="greedy"))
        _, bo_token = await manager.join(table.id, 2, "Bo")
        ann, ann_task = await seated(manager, table, ann_token)
        bo, bo_task = await seated(manager, table, bo_token)
        clock = table.clock
        assert clock is not None
        await until(lambda: set(clock.away) == {0, 2})
        clock.settings = replace(clock.settings, turn_seconds=1.0)
        version = table.version
        await asyncio.sleep(2.5)
        # At most a turn a second for each friend (and the computers' own between): the
        # game went on, at the clock's pace (it played to its end at once before).
        assert version < table.version <= version + 8
        assert not table.game.outcome(table.state).finished
        # Bo is back: his turns wait for him, Ann's are covered at once again.
        clock.settings = replace(clock.settings, turn_seconds=600)
        bo.say({"type": "back"})
        await until(lambda: 2 not in clock.away)
        await until(lambda: table.game.to_act(table.state) == {2} and not table.bot_tasks)
        started, version = time.monotonic(), table.version
        bo.say({"type": "action", "action": play_of(table, 2)})
        # Ann's next turn is covered at once (whatever the computers do in between),
        # unless a computer player's sequence ends the game first.
        def ann_covered() -> bool:
            return 0 in [seat for seat, _ in table.actions[version:]]

        await until(lambda: ann_covered() or table.game.outcome(table.state).finished,
                    timeout=30)
        assert time.monotonic() - started < 10
        assert table.actions[version][0] == 2
        assert table.game.outcome(table.state).finished or (ann_covered() and 0 in clock.away)
        for sock, task in ((ann, ann_task), (bo, bo_task)):
            sock.inbox.put_nowait(None)
            await task

    with_manager(tmp_path, body)


async def away_alone(manager: TableManager, turn_seconds: float, host_seated: bool = True
                     ) -> tuple[Table, str, Clock, FakeSocket, asyncio.Task[None]]:
    """Ann, alone at a Sequence Cats table with a ``greedy`` computer player, connected
    but letting her first turn's time (``turn_seconds``) run out: the table, its host
    token and clock, and Ann's client and the task serving it, once she is away.
    Ann made the table, or with ``host_seated=False`` a host who sits out did and Ann
    took her seat by its link."""
    table, host, _, ann_token = await manager.create(
        "sequence-cats", {}, [HUMAN, bot()], "Ann" if host_seated else None,
        clock=ClockSettings(turn_seconds=turn_seconds, cover="greedy"))
    if not host_seated:
        _, ann_token = await manager.join(table.id, 0, "Ann")
    ann, ann_task = await seated(manager, table, ann_token)
    clock = table.clock
    assert clock is not None
    await until(lambda: 0 in clock.away, timeout=10)
    return table, host, clock, ann, ann_task


def test_a_person_alone_whose_time_runs_out_is_played_for_at_once(tmp_path: Path) -> None:
    """The one person at a table with computer players let the time of a decision run
    out: the page said "a computer player makes your move in 0:00", and it waited the
    whole turn's time again (everyone being away, each turn waits out its time) before
    moving. The decision whose time ran out is played at once; the next ones of the
    away seat wait out their time."""
    async def body(manager: TableManager) -> None:
        table, _, _, ann, ann_task = await away_alone(manager, 3.0)
        went_away = time.monotonic()
        await until(lambda: any(seat == 0 for seat, _ in table.actions), timeout=10)
        assert time.monotonic() - went_away < 2.0  # not the turn's 3 s again
        ann.inbox.put_nowait(None)
        await ann_task

    with_manager(tmp_path, body)


def test_a_covered_seat_s_move_is_announced_and_a_new_phase_gives_its_whole_time(
        tmp_path: Path) -> None:
    """With everyone away the page counted its "makes your move in" from each new state,
    so another seat's move restarted it, while the server kept its own wait; and a new
    phase that came during the wait (Team Dixit's vote) was played before its time. The
    ``clock`` message now says when the covering player moves (``cover_at``), and a new
    turn or phase during the wait gives the whole time again."""
    async def body(manager: TableManager) -> None:
        table, _, clock, ann, ann_task = await away_alone(manager, 1.0)
        # Ann's first covered move is played at once; her next turn waits out its time.
        await until(lambda: 0 in clock.cover_at, timeout=20)
        due = clock.cover_at[0]
        assert 0.5 < due - time.time() <= 1.0
        await until(lambda: any(m.get("cover_at") for m in messages(ann, "clock")))
        said = [m for m in messages(ann, "clock") if m.get("cover_at")]
        assert said[-1]["cover_at"] == {"0": round(due * 1000)}
        # A new phase of Ann's comes during the wait: its whole time again.
        turn = table.turn_key()
        table.turn_key = lambda: f"{turn}-new phase"  # type: ignore[method-assign]
        version = table.version
        await until(lambda: table.version > version, timeout=10)
        assert time.time() >= due + 0.9, "played on the old phase's time"
        await until(lambda: 0 not in clock.cover_at or clock.cover_at[0] > due + 1.5)
        ann.inbox.put_nowait(None)
        await ann_task

    with_manager(tmp_path, body)


def test_a_covered_seat_s_wait_stands_still_while_paused_and_ends_when_its_person_is_back(
        tmp_path: Path) -> None:
    """With everyone away the computer players went on covering while the host had
    paused the clock (the page, paused, showed no countdown, and the game moved on);
    and a seat's ``cover_at`` stayed in the clock message after its person came back,
    or the host ended the game, until the old wait ran out."""
    async def body(manager: TableManager) -> None:
        table, host, clock, ann, ann_task = await away_alone(manager, 1.0)
        await until(lambda: 0 in clock.cover_at, timeout=20)
        await pause_clock(manager, table.id, host, True)
        version = table.version
        await asyncio.sleep(1.5)  # past the wait's end: nothing moves while paused
        assert table.version == version and 0 not in clock.cover_at
        await pause_clock(manager, table.id, host, False)
        await until(lambda: 0 in clock.cover_at, timeout=5)
        await until(lambda: table.version > version, timeout=5)
        # Ann is back while her next wait runs: it ends at once, and says so.
        await until(lambda: 0 in clock.cover_at, timeout=20)
        ann.say({"type": "back"})
        await until(lambda: 0 not in clock.away, timeout=5)
        await until(lambda: 0 not in clock.cover_at and 0 not in table.bot_tasks,
                    timeout=0.5)
        ann.inbox.put_nowait(None)
        await ann_task

    with_manager(tmp_path, body)


def test_a_covered_wait_begun_during_a_pause_has_its_whole_time_after_it(
        tmp_path: Path) -> None:
    """A covered seat's wait that began while the host had paused the clock was
    stretched by all the pause had lasted before it began (a pause overnight: hours
    after resuming). It now gets its whole time, counted from the resume."""
    async def body(manager: TableManager) -> None:
        table, host, clock, ann, ann_task = await away_alone(manager, 1.0)
        # The computer player's own turn (it plays on while paused, 1 s a move): Ann's
        # next wait begins during the pause.
        await until(lambda: table.game.to_act(table.state) == {1}, timeout=10)
        await pause_clock(manager, table.id, host, True)
        version = table.version
        await until(lambda: table.version > version, timeout=5)
        await asyncio.sleep(2.0)  # Ann's wait began about 1 s after the pause
        assert table.game.to_act(table.state) == {0} and 0 not in clock.cover_at
        await pause_clock(manager, table.id, host, False)
        resumed = time.time()
        await until(lambda: 0 in clock.cover_at, timeout=5)
        assert clock.cover_at[0] - resumed < 1.0 + 0.3  # not the 2 s paused before it
        ann.inbox.put_nowait(None)
        await ann_task

    with_manager(tmp_path, body, bot_delay=1.0)


def test_a_covered_seat_given_a_computer_player_during_a_pause_moves_without_waiting(
        tmp_path: Path) -> None:
    """A paused wait looked only at the pause: a seat whose person was away was given
    a computer player of its own during the pause, and it did not move until the host
    resumed, and then waited out the old time, where computer players in their own
    seats play on while paused."""
    async def body(manager: TableManager) -> None:
        table, host, clock, ann, ann_task = await away_alone(manager, 1.0,
                                                             host_seated=False)
        await until(lambda: 0 in clock.cover_at, timeout=20)  # Ann's next wait runs
        await pause_clock(manager, table.id, host, True)
        ann.inbox.put_nowait(None)  # Ann's page is gone: the host gives her seat on
        await ann_task
        await until(lambda: not table.connected(0), timeout=5)
        version = table.version
        await manager.seat_bot(table.id, 0, "greedy", host)
        await until(lambda: any(seat == 0 for seat, _ in table.actions[version:]),
                    timeout=3)
        assert clock.paused_at is not None and 0 not in clock.cover_at

    with_manager(tmp_path, body)


def test_a_dixit_claim_sends_only_one_seat_away_and_each_decision_has_its_clock(
        tmp_path: Path) -> None:
    """In Dixit each decision is timed: when nobody claims the storyteller role (any
    seat may, DX-SETUP-4), one seat is covered and claims; then each seat that must
    give a card has its own deadline."""
    async def body(manager: TableManager) -> None:
        table, _, _, ann = await manager.create(
            "dixit", {}, [HUMAN, HUMAN, HUMAN], "Ann",
            clock=ClockSettings(turn_seconds=0.4, cover="greedy"))
        _, bo = await manager.join(table.id, None, "Bo")
        _, cy = await manager.join(table.id, None, "Cy")
        clients = [await seated(manager, table, token) for token in (ann, bo, cy)]
        assert table.status == PLAYING and table.clock is not None
        assert set(table.clock.deadlines) == set(table.game.to_act(table.state))
        await until(lambda: table.version >= 1)
        assert len(table.clock.away) == 1, "one claim is enough"
        storyteller = table.actions[0][0]
        assert set(table.clock.away) == {storyteller}
        await until(lambda: table.version >= 2)  # the covered storyteller's clue
        waiting = table.game.to_act(table.state)
        assert storyteller not in waiting
        assert set(table.clock.deadlines) == set(waiting)
        for sock, task in clients:
            sock.inbox.put_nowait(None)
            await task

    with_manager(tmp_path, body)


def test_a_turns_time_starts_when_its_person_comes_to_the_table(tmp_path: Path) -> None:
    """After *Play again* the new game began at once and a friend still reading the old
    game's result had their turn played for them: a seat's time waits for its person
    to come to the table (at most ``JOIN_GRACE_SECONDS``), then runs as usual."""
    async def body(manager: TableManager) -> None:
        table, _, _, ann = await manager.create(
            "sequence-cats", {}, [HUMAN, HUMAN], "Ann",
            clock=ClockSettings(turn_seconds=0.3, cover="greedy"))
        await manager.join(table.id, None, "Bo")
        assert table.clock is not None and table.game.to_act(table.state) == {0}
        waited = table.clock.deadlines[0].turn
        assert waited is not None and waited > time.time() + JOIN_GRACE_SECONDS - 5
        await asyncio.sleep(0.5)
        assert table.version == 0 and not table.clock.away, "her time waits for her"
        sock, task = await seated(manager, table, ann)
        started = table.clock.deadlines[0].turn
        assert started is not None and started <= time.time() + 0.3
        covered = await state_at(sock, 1)  # then it runs out as usual
        assert covered["covered"] == {"seat": 0, "reason": TURN}
        sock.inbox.put_nowait(None)
        await task

    with_manager(tmp_path, body)


def test_a_turn_that_runs_out_while_its_person_is_gone_is_theirs_again_when_they_come(
        tmp_path: Path) -> None:
    """Ann's time ran out while her page was closed (or the server was down): her seat
    went away as if she had let it run out at the table ("turn"), and coming back left
    her away until she pressed "I'm back" (README: a player covered for being
    disconnected has the seat back on opening the table). It goes away as absent; the
    computer player still makes the move of the turn that ran out (TR-TIME-1: leaving
    and coming back at each deadline gave a whole new turn), and she is back from the
    next."""
    async def body(manager: TableManager) -> None:
        table, _, _, token = await manager.create(
            "sequence-cats", {}, [HUMAN, HUMAN], "Ann",
            clock=ClockSettings(turn_seconds=1.0, cover="greedy"))
        await manager.join(table.id, 1, "Bo")
        bo = plays_promptly(manager, table, 1)
        sock, task = await seated(manager, table, token)
        sock.inbox.put_nowait(None)  # she closes the page on her turn
        await task
        assert table.clock is not None
        await until(lambda: table.clock is not None and 0 in table.clock.away)
        assert table.clock.away == {0: ABSENT} and table.version == 0
        sock, task = await seated(manager, table, token)  # back before its move is made
        assert table.clock.away == {0: ABSENT} and table.clock.returning == {0: table.turn_key()}
        covered = await state_at(sock, 1)
        assert covered["covered"] == {"seat": 0, "reason": ABSENT}
        await until(lambda: table.version >= 2 and table.game.to_act(table.state) == {0})
        assert table.clock.away == {} and 0 in table.clock.deadlines, "her turn again"
        bo.cancel()
        sock.inbox.put_nowait(None)
        await task

    with_manager(tmp_path, body, bot_delay=0.5)


def test_a_person_not_yet_at_the_table_has_the_minute_to_come_before_an_absence() -> None:
    """After Play again with "computer players cover for absent players", a friend still
    reading the last result had a computer player move for them 30 s later, not after
    the minute a seat's time waits for its person (JOIN_GRACE_SECONDS): an absence
    counts from the end of that minute. Someone who has been at the table and left
    has the usual 30 s."""
    clock = Clock(ClockSettings(turn_seconds=30, cover="easy", cover_absent=True,
                                absent_seconds=30))
    assert clock.arm({0, 1}, {0, 1}, lambda seat: False, 1000.0,
                     seen=lambda seat: seat == 1)
    assert clock.deadlines[0].absent == 1000.0 + JOIN_GRACE_SECONDS + 30
    assert clock.deadlines[0].turn == 1000.0 + JOIN_GRACE_SECONDS + 30
    assert clock.deadlines[1].absent == 1030.0 and clock.deadlines[1].turn == 1030.0
    due = clock.due(1000.0 + JOIN_GRACE_SECONDS + 29)
    assert due is not None and due[0] == 1, due
    assert clock.arrived(0) and clock.first_arrival(0, 1010.0)
    assert clock.deadlines[0].absent is None and clock.deadlines[0].turn == 1040.0


def test_the_clock_round_trips_through_its_stored_form() -> None:
    clock = Clock(ClockSettings(turn_seconds=45, cover="hard", cover_absent=True))
    assert clock.arm({0, 2}, {0, 1, 2}, lambda seat: seat != 2, 1000.0)
    clock.send_away(1, ABSENT)
    again = Clock.from_json(clock.to_json(), absent_seconds=30.0)
    assert again == clock
    assert again.deadlines[0].turn == 1045.0 and again.deadlines[0].absent is None
    assert again.deadlines[2].absent == 1030.0 and again.deadlines[2].reason == ABSENT
    assert again.due(1030.0) == (2, ABSENT)
    assert again.due(1029.0) is None
    # A seat that is no longer a person's loses its deadline and its away mark.
    assert again.arm({0, 2}, {0}, lambda seat: True, 1001.0)
    assert set(again.deadlines) == {0} and again.away == {}


def test_the_api_takes_a_clock_and_refuses_a_bad_one(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    made = client.post("/api/tables", json={
        "game": "triominos", "seats": seats, "name": "Ann",
        "clock": {"turn_seconds": 60, "cover": "hard", "cover_absent": True}})
    assert made.status_code == 201, made.text
    assert made.json()["table"]["clock"] == {"turn_seconds": 60, "cover": "hard",
                                             "cover_absent": True, "absent_seconds": 30.0}
    too_short = client.post("/api/tables", json={
        "game": "triominos", "seats": seats, "clock": {"turn_seconds": 2}})
    assert too_short.status_code == 400
    assert too_short.json()["params"]["field"] == "clock.turn_seconds"
    unknown = client.post("/api/tables", json={
        "game": "triominos", "seats": seats, "clock": {"turn_seconds": 60, "cover": "zz"}})
    assert unknown.status_code == 400 and unknown.json()["code"] == "bad_bot"
    extra = client.post("/api/tables", json={
        "game": "triominos", "seats": seats, "clock": {"turn_seconds": 60, "x": 1}})
    assert extra.status_code == 400 and extra.json()["code"] == "bad_request"
    plain = client.post("/api/tables", json={"game": "triominos", "seats": seats})
    assert plain.json()["table"]["clock"] is None


def test_a_new_turn_or_phase_gives_a_seat_that_acts_again_its_whole_time() -> None:
    """The last to give a card in Dixit voted with what was left of that time, and told
    with what was left of the vote's: a seat that must act in a new turn or phase
    (the game's ``turn_key``) gets the whole turn time again (TR-TIME-1); within one
    (a Triominos player's draws) its time runs on, and one away stays away."""
    clock = Clock(ClockSettings(turn_seconds=45, cover="hard", cover_absent=True))
    assert clock.arm({0, 1}, {0, 1}, lambda seat: seat == 0, 1000.0, turn_key="1:submit")
    assert not clock.arm({0, 1}, {0, 1}, lambda seat: seat == 0, 1030.0, turn_key="1:submit")
    assert clock.deadlines[0].turn == 1045.0, "the same phase: the time runs on"
    assert clock.arm({0, 1}, {0, 1}, lambda seat: seat == 0, 1040.0, turn_key="1:vote")
    assert clock.deadlines[0].turn == 1085.0 and clock.deadlines[0].turn_key == "1:vote"
    assert clock.deadlines[1].absent == 1030.0, "still gone: the disconnection runs on"
    again = Clock.from_json(clock.to_json(), absent_seconds=30.0)
    assert again == clock
    clock.send_away(1, TURN)
    clock.arm({0, 1}, {0, 1}, lambda seat: True, 1050.0, turn_key="2:clue")
    assert 1 not in clock.deadlines and clock.away == {1: TURN}
    # A game that does not say when turns change: a seat's time runs on while it acts.
    plain = Clock(ClockSettings(turn_seconds=45))
    plain.arm({0}, {0}, lambda seat: True, 1000.0)
    assert not plain.arm({0}, {0}, lambda seat: True, 1030.0)
    assert plain.deadlines[0].turn == 1045.0
    # An older stored clock (deadlines without a turn) still loads.
    stored = {"turn_seconds": 45, "cover": "medium", "deadlines": {"0": [1045.0, None]}}
    assert Clock.from_json(stored).deadlines[0].turn_key is None


def test_a_seat_that_waits_on_others_within_its_turn_gets_back_only_what_it_had_left() -> None:
    """SC-WIN-3 b: a draw offer made on one's turn sends play to the others, who answer
    it; when it comes back, the turn goes on. It came back with a whole new turn's time,
    so an offer a round bought a player a new turn's time. Now the seat gets back what it
    had left (at least HELD_FLOOR_SECONDS), through a restart too; a new turn gives the
    whole time again."""
    clock = Clock(ClockSettings(turn_seconds=45))
    people, here = {0, 1}, lambda seat: True
    assert clock.arm({0}, people, here, 1000.0, turn_key="7")
    assert clock.deadlines[0].turn == 1045.0
    # Seat 0 offers a draw at 1030 (15 s left): seat 1 must answer, in the same turn.
    assert clock.arm({1}, people, here, 1030.0, turn_key="7")
    assert set(clock.deadlines) == {1} and clock.deadlines[1].turn == 1075.0
    assert clock.held == {0: ("7", 15.0)}
    clock = Clock.from_json(clock.to_json())  # a restart while the offer is open
    assert clock.held == {0: ("7", 15.0)}
    # Seat 1 declines at 1050: seat 0's turn goes on with its 15 s, not 45.
    assert clock.arm({0}, people, here, 1050.0, turn_key="7")
    assert clock.deadlines[0].turn == 1065.0
    assert clock.held == {1: ("7", 25.0)}
    # Offered with 2 s left: back with HELD_FLOOR_SECONDS.
    clock.arm({1}, people, here, 1063.0, turn_key="7")
    clock.arm({0}, people, here, 1070.0, turn_key="7")
    assert clock.deadlines[0].turn == 1070.0 + HELD_FLOOR_SECONDS
    # The next turn: seat 1 has its whole time, and nothing is held any more.
    assert clock.arm({1}, people, here, 1075.0, turn_key="8")
    assert clock.deadlines[1].turn == 1120.0 and clock.held == {}
    # Without turns (a game that does not say), nothing is held.
    plain = Clock(ClockSettings(turn_seconds=45))
    plain.arm({0}, people, here, 1000.0)
    plain.arm({1}, people, here, 1030.0)
    assert plain.held == {}


def test_a_declined_draw_offer_gives_the_offering_seat_no_new_time(tmp_path: Path) -> None:
    """SC-WIN-3 b through a table: Ann offers a draw on her turn, the computer player
    declines it (the board is not full), and her turn goes on with the time she had
    left when she offered: her time stood still while the offer was open."""
    async def body(manager: TableManager) -> None:
        table, _, _, ann = await manager.create(
            "sequence-cats", {}, [HUMAN, bot()], "Ann",
            clock=ClockSettings(turn_seconds=60, cover="greedy"))
        sock, task = await seated(manager, table, ann)
        clock = table.clock
        assert clock is not None
        await until(lambda: 0 in table.game.to_act(table.state) and 0 in clock.deadlines)
        first = clock.deadlines[0].turn
        assert first is not None
        await asyncio.sleep(2.0)
        before, offered = table.version, time.time()
        await manager.submit(table, 0, {"type": "offer_draw"})
        await until(lambda: table.version >= before + 2)  # offered, then declined
        await until(lambda: 0 in clock.deadlines)
        back = time.time()
        again = clock.deadlines[0].turn
        assert again is not None
        # Her time stood still while the offer was open, and no new turn's time began.
        assert first <= again <= first + (back - offered) + 0.05
        assert again < back + 60 - 1.5
        sock.inbox.put_nowait(None)
        await task

    with_manager(tmp_path, body)


def test_a_player_alone_gets_the_whole_time_every_turn(tmp_path: Path) -> None:
    """A solo Triominos player's clock never started again: 0:25, 0:19, 0:13 … across
    quick turns, then the seat went away. Every turn has its whole time."""
    async def body(manager: TableManager) -> None:
        table, _, _, ann = await manager.create(
            "triominos", {}, [HUMAN], "Ann",
            clock=ClockSettings(turn_seconds=30, cover="greedy"))
        sock, task = await seated(manager, table, ann)
        assert table.clock is not None
        for _ in range(3):
            await asyncio.sleep(0.3)
            before = table.version
            legal = table.game.legal_actions(table.state, 0)
            move = next((a for a in legal if a["type"] in {"place", "pass"}), legal[0])
            await manager.submit(table, 0, move)
            await until(lambda before=before: table.version > before)  # type: ignore[misc]
            if move["type"] == "draw":
                continue
            turn = table.clock.deadlines[0].turn
            assert turn is not None and turn >= time.time() + 29.5, "a full turn again"
        sock.inbox.put_nowait(None)
        await task

    with_manager(tmp_path, body)


def test_each_games_turn_changes_with_its_turns_and_phases() -> None:
    """``turn_key`` (HasTurns): a Triominos draw stays in the turn (TR-DRAW-1), a
    placement or a pass ends it; a Sequence Cats card played ends the turn; a Dixit
    phase ends when everyone in it has acted."""
    rng = random.Random(4)
    for name, seats in (("triominos", 2), ("sequence-cats", 2), ("dixit", 4)):
        game = registry.get(name)
        assert isinstance(game, HasTurns)
        state = game.new_game(game.make_config({}, seats), seats, 7)
        for _ in range(60):
            if game.outcome(state).finished:
                break
            seat = min(game.to_act(state))
            action = rng.choice(game.legal_actions(state, seat))
            before = game.turn_key(state)
            phase = getattr(state, "phase", None)
            game.apply(state, seat, action)
            changed = game.turn_key(state) != before
            if name == "triominos":
                assert changed == (action["type"] != "draw"), action
            elif name == "sequence-cats":
                assert changed == ((action["type"] == "play" and state.choosing is None)
                                   or action["type"] == "pass"), action
            else:
                assert changed == (getattr(state, "phase", None) != phase), action


def test_a_person_back_after_their_absence_was_covered_has_the_seat_back(
        tmp_path: Path) -> None:
    """Ann closed the page on her turn and a computer player covered for her absence;
    when she opens it again her seat is hers: the next turn waits for her (it was played
    for her at once, and her page said "You were not here" while she was). A seat that
    went away because its time ran out while its person was there stays away until they
    say they are back."""
    async def body(manager: TableManager) -> None:
        table, token, bo = await covering_absence(manager)
        sock, task = await seated(manager, table, token)
        sock.inbox.put_nowait(None)  # Ann closes the page on her turn
        await task
        await until(lambda: table.version >= 2)  # covered, then Bo played
        assert table.clock is not None and table.clock.away == {0: ABSENT}
        bo.cancel()
        await until(lambda: 1 in table.game.to_act(table.state) and not table.bot_tasks)
        sock, task = await seated(manager, table, token)  # Ann is back, on Bo's turn
        assert table.clock.away == {}
        await until(lambda: bool(messages(sock, "clock"))
                    and messages(sock, "clock")[-1]["away"] == {})
        await manager.submit(table, 1, play_of(table, 1))
        version = table.version
        assert 0 in table.game.to_act(table.state)
        await asyncio.sleep(0.6)  # more than the absence's time: she is here
        assert table.version == version, "the seat of a person who is there was played"
        assert 0 in table.game.to_act(table.state) and table.clock.away == {}
        sock.inbox.put_nowait(None)
        await task

        # Time run out while there: away until she says she is back.
        assert table.clock is not None
        table.clock.send_away(0, TURN)
        assert not table.clock.reconnected(0) and table.clock.away == {0: TURN}

    with_manager(tmp_path, body, absent_seconds=0.3)


async def pause_as_the_clock_is_stored(manager: TableManager) -> None:
    """Bo's arrival begins the game and arms Ann's deadline, which is stored in the
    background; the host pauses the clock before that store runs. Storage must end with
    the clock memory has (paused)."""
    table, host, _, _ = await manager.create(
        "sequence-cats", {}, [HUMAN, HUMAN], "Ann",
        clock=ClockSettings(turn_seconds=600, cover="greedy"))
    await manager.join(table.id, 1, "Bo")  # stores the armed clock in the background
    await pause_clock(manager, table.id, host, True)  # at once, in the same turn
    assert table.clock is not None and table.clock.paused_at is not None
    await until(lambda: not manager._clock_tasks)
    row = await asyncio.to_thread(manager.storage.load_table, table.id)
    assert row is not None and row.clock == table.clock.to_json()


def test_a_clock_stored_in_the_background_never_lands_over_a_newer_one(
        tmp_path: Path) -> None:
    """The pause was stored first and the older clock, not paused, over it: after a
    restart (or a takeover by another process) the clock ran again, though every page
    had said it was paused. (The same on PostgreSQL: test_postgres_storage.)"""
    with_manager(tmp_path, pause_as_the_clock_is_stored)
