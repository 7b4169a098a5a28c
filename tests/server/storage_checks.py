"""Checks every :class:`~gametable.server.storage.Storage` must pass, run on SQLite
(``test_storage``) and on PostgreSQL (``test_postgres_storage``)."""

from __future__ import annotations

import time

from gametable.server.storage import NumberTaken, SeatRow, Storage, TableRow
from tests.aio import run_async

OPEN_AND_HUMAN = [SeatRow(0, "human"), SeatRow(1, "open")]
BOTS = [SeatRow(0, "bot", bot="easy"), SeatRow(1, "bot", bot="hard")]
PEOPLE = [SeatRow(0, "human"), SeatRow(1, "human")]


def row(table_id: str, seats: list[SeatRow], creator: str | None) -> TableRow:
    return TableRow(id=table_id, game="sequence-cats", config={"rules_version": 2}, seed=1,
                    host_hash="h", created=1.0, seats=[SeatRow(s.seat, s.kind, bot=s.bot)
                                                       for s in seats], creator=creator)


def check_created_by(storage: Storage) -> None:
    """A creator's unfinished, unexpired tables that wait (a seat open) or have computer
    players only; finished, ended and expired ones, others', and full tables of people
    are not counted. An action stored with the game's end (``finished``) ends it."""
    async def write() -> None:
        for table_id, seats, creator in [
                ("w1", OPEN_AND_HUMAN, "ann"), ("w2", OPEN_AND_HUMAN, "ann"),
                ("b1", BOTS, "ann"), ("p1", PEOPLE, "ann"), ("w3", OPEN_AND_HUMAN, "bea"),
                ("old", OPEN_AND_HUMAN, None), ("gone", OPEN_AND_HUMAN, "ann"),
                ("done", BOTS, "ann"), ("ended", OPEN_AND_HUMAN, "ann"),
                ("b2", BOTS, "ann"), ("last", BOTS, "ann")]:
            await storage.create_table(row(table_id, seats, creator))
        await storage.append_action("b2", 1, 0, {"type": "pass"})
        await storage.append_action("last", 1, 0, {"type": "pass"}, finished=8.0)
        assert await storage.mark_expired({"gone": 0}, 5.0) == ["gone"]
        await storage.mark_finished("done", 6.0)
        await storage.mark_ended("ended", 7.0)
        await storage.save_seat("w2", SeatRow(1, "human", name="Bea", token_hash="x"))

    run_async(write())
    assert storage.created_by("ann") == (1, 2)
    assert storage.created_by("bea") == (1, 0)
    assert storage.created_by("nobody") == (0, 0)
    stored = storage.load_table("w1")
    assert stored is not None and stored.creator == "ann"
    old = storage.load_table("old")
    assert old is not None and old.creator is None
    # A loaded row tells whether its end is noted (loading notes it where it is not).
    assert [getattr(storage.load_table(t), "finished", None) for t in ("last", "done", "b2")] \
        == [8.0, 6.0, None]
    # The takeover sweep asks which tables are computer-only (--max-bot-tables).
    assert storage.bots_only(["w1", "b1", "p1", "b2", "no-such-table"]) == {"b1", "b2"}
    assert storage.bots_only([]) == set()


def check_chat(storage: Storage) -> None:
    """A table's chat comes back oldest first, its last ``keep`` only, and another
    table's stays apart."""
    async def write() -> None:
        await storage.create_table(row("c1", PEOPLE, None))
        await storage.create_table(row("c2", PEOPLE, None))
        for n in range(7):
            await storage.append_chat("c1", {"type": "chat", "seat": n % 2, "text": f"m{n}",
                                             "name": "Ann" if n % 2 == 0 else None},
                                      keep=5)
        await storage.append_chat("c2", {"type": "chat", "seat": 0, "text": "elsewhere"},
                                  keep=5)

    run_async(write())
    assert [m["text"] for m in storage.load_chat("c1", 100)] == [f"m{n}" for n in range(2, 7)]
    assert [m["text"] for m in storage.load_chat("c1", 2)] == ["m5", "m6"]
    assert storage.load_chat("c1", 100)[-1] == {"type": "chat", "seat": 0, "text": "m6",
                                                "name": "Ann"}
    assert [m["text"] for m in storage.load_chat("c2", 100)] == ["elsewhere"]
    assert storage.load_chat("none", 100) == []


def check_first_action(storage: Storage) -> None:
    """A loaded table tells when its record's first action was stored (``None`` before
    any), whatever came after it."""
    async def first() -> tuple[float, float]:
        await storage.create_table(row("f1", PEOPLE, None))
        before = time.time()
        await storage.append_action("f1", 1, 0, {"type": "play", "card": "purrr"})
        return before, time.time()

    before, after = run_async(first())
    time.sleep(0.05)
    run_async(storage.append_action("f1", 2, 1, {"type": "play", "card": "meow"}))
    stored = storage.load_table("f1")
    assert stored is not None and len(stored.actions) == 2
    assert stored.first_action is not None and before - 0.01 <= stored.first_action <= after
    run_async(storage.create_table(row("f2", PEOPLE, None)))
    fresh = storage.load_table("f2")
    assert fresh is not None and fresh.first_action is None


def check_number_taken(storage: Storage) -> None:
    """An action under a number already stored is refused as :class:`NumberTaken` (the
    server logs it as another writer's, not as storage failing), and changes nothing."""
    async def twice() -> BaseException | None:
        await storage.create_table(row("n1", PEOPLE, None))
        await storage.append_action("n1", 1, 0, {"type": "play", "card": "purrr"})
        try:
            await storage.append_action("n1", 1, 1, {"type": "play", "card": "meow"})
        except Exception as error:  # the error is what is checked
            return error
        return None

    error = run_async(twice())
    assert isinstance(error, NumberTaken), repr(error)
    stored = storage.load_table("n1")
    assert stored is not None and stored.actions == [(0, {"type": "play", "card": "purrr"})]


def check_expiry(storage: Storage) -> None:
    """A table expires only while it still waits (a seat open, no action) and no seat
    of it changed hands since the sweep found it: one that someone joined — even one of
    two open seats — or whose game began before the expiry was written stays as it is
    (an expiry at one process raced a join at another and lost a game under way, or
    expired under the person who had just joined). The write says which it expired."""
    async def write() -> list[str]:
        for table_id in ("x-wait", "x-joined", "x-begun"):
            await storage.create_table(row(table_id, OPEN_AND_HUMAN, None))
        await storage.create_table(row("x-one-of-two", [*OPEN_AND_HUMAN, SeatRow(2, "open")],
                                       None))
        found = {t: n for t, n in storage.waiting_before(2.0).items() if t.startswith("x-")}
        assert found == dict.fromkeys(("x-wait", "x-joined", "x-begun", "x-one-of-two"), 0)
        await storage.save_seat("x-joined", SeatRow(1, "human", name="Bea", token_hash="b"))
        await storage.save_seat("x-one-of-two", SeatRow(1, "human", name="Cy",
                                                        token_hash="c"))
        await storage.append_action("x-begun", 1, 0, {"type": "pass"})
        assert storage.waiting_before(2.0)["x-one-of-two"] == 1  # it still waits
        return await storage.mark_expired(found, 5.0)

    assert run_async(write()) == ["x-wait"]
    expired = {t: getattr(storage.load_table(t), "expired", "gone")
               for t in ("x-wait", "x-joined", "x-begun", "x-one-of-two")}
    assert expired == {"x-wait": 5.0, "x-joined": None, "x-begun": None,
                       "x-one-of-two": None}


def check_watching_at_creation(storage: Storage) -> None:
    """A table made with watching switched off (Play again at such a table) is stored
    so: it was stored as open to watchers."""
    closed = row("w-off", PEOPLE, None)
    closed.watching = False
    run_async(storage.create_table(closed))
    run_async(storage.create_table(row("w-on", PEOPLE, None)))
    assert [getattr(storage.load_table(t), "watching", None) for t in ("w-off", "w-on")] \
        == [False, True]


def check_deal_shown(storage: Storage) -> None:
    """A seat stored once the deal was shown notes it for good (a seat opened since
    leaves the game begun after a restart, ``Table.begun``); other seats' changes do
    not."""
    async def write() -> None:
        await storage.create_table(row("d-shown", PEOPLE, None))
        await storage.create_table(row("d-waiting", OPEN_AND_HUMAN, None))
        await storage.save_seat("d-shown", SeatRow(1, "open", token_hash="c"), shown=True)
        await storage.save_seat("d-shown", SeatRow(1, "human", name="Cy", token_hash="x"))
        await storage.save_seat("d-waiting", SeatRow(1, "open"), seed=5)

    run_async(write())
    assert [getattr(storage.load_table(t), "deal_shown", None)
            for t in ("d-shown", "d-waiting")] == [True, False]


def write_tables_of_before_deal_shown(storage: Storage) -> None:
    """Tables as a gametable from before ``deal_shown`` stored them: one whose seats
    changed hands (its deal may have been shown, a seat open again since) and one whose
    seats never did."""
    async def write() -> None:
        await storage.create_table(row("b-changed", OPEN_AND_HUMAN, None))
        await storage.create_table(row("b-untouched", OPEN_AND_HUMAN, None))
        await storage.save_seat("b-changed", SeatRow(1, "human", name="Cy", token_hash="x"))
        await storage.save_seat("b-changed", SeatRow(1, "open"))

    run_async(write())


def check_tables_of_before_deal_shown(storage: Storage) -> None:
    """After the upgrade the table whose seats changed hands counts as shown (it came
    back not begun, and the host could deal again until the hands suited them); the
    other does not."""
    assert [getattr(storage.load_table(t), "deal_shown", None)
            for t in ("b-changed", "b-untouched")] == [True, False]


def check_rematch(storage: Storage) -> None:
    """A finished table's offer to play again is stored with it (a process loading the
    table again offers the same new table, ``gametable.server.offers``)."""
    link = {"table": "new-one", "by": 1, "host": 0, "seats": [0, 1]}

    async def write() -> None:
        await storage.create_table(row("r-asked", PEOPLE, None))
        await storage.create_table(row("r-not", PEOPLE, None))
        await storage.save_rematch("r-asked", link)

    run_async(write())
    assert [getattr(storage.load_table(t), "rematch", None)
            for t in ("r-asked", "r-not")] == [link, None]
    # Forgotten once its new table can no longer be joined.
    run_async(storage.save_rematch("r-asked", None))
    assert getattr(storage.load_table("r-asked"), "rematch", "missing") is None
