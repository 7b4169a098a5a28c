"""One table: a game, its seats, its record, its connected clients and its computer
players, and what each client is sent (:class:`Table`, :class:`Connection`). How tables
are made, loaded and played is :mod:`gametable.server.tables`."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Coroutine, Generator, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from pydantic import BaseModel

from gametable.bots import Bot
from gametable.core.protocol import Event, Game, HasTurns, Outcome, Seat
from gametable.server.clock import Clock
from gametable.server.refused import Refused
from gametable.server.storage import SeatRow, token_hash

OPEN, HUMAN, BOT = "open", "human", "bot"
WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
MAX_OUTBOX = 256
"""Messages a connection may have unsent before it is closed as too slow."""
MAX_OUTBOX_CHARS = 4 * 1024 * 1024
"""Characters of JSON text (at least as many bytes) a connection may have unsent before
it is closed as too slow."""
PRESENCE_INTERVAL = 0.25
"""Seconds between two ``presence`` messages of one table, at most one per interval."""
SLOW_CLOSE = (1008, "too slow: messages were not read")
SEAT_CHANGED_CLOSE = (4409, "your seat was given to someone else")
WATCHING_OFF_CLOSE = (4410, "the host has switched watching off")
RESTART_CLOSE = (1012, "server restarting: reconnect")
EARLIER_STATES = 16
"""States whose events a (re)connecting client is sent for its log (``earlier``), the
current one included: as many as the browser client keeps of live states."""


_FINAL = "\x00final"
"""Queued after a connection's last message: close it once that is sent."""


def occupant_tag(row: SeatRow) -> str | None:
    """A public mark of the person who holds ``row`` now: 12 hex digits of a hash of
    their token's stored hash (it tells nothing of the token), the same for as long as
    they keep the seat (renamed too) and another for whoever takes it next. Chat lines
    carry their writer's, so that a page tells its own from those of whoever held the
    seat before (docs/protocol.md, ``tag``). ``None`` for an open seat or a computer
    player."""
    if row.kind != HUMAN or row.token_hash is None:
        return None
    return hashlib.sha256(b"occupant:" + row.token_hash.encode()).hexdigest()[:12]


class Connection:
    """One websocket client of a table, with its own outbox.

    Messages are sent without waiting, so a slow client never holds up a table. A message
    pushed while nothing is waiting to go out is handed to the socket at once, within
    :meth:`push` (an ASGI server's send returns without suspending while the socket
    takes data); only when that send has to wait, because the client reads slower than
    it is sent to, does a task finish it and then send what was queued meanwhile, in
    order. A client that falls :data:`MAX_OUTBOX` messages or :data:`MAX_OUTBOX_CHARS`
    characters behind is dropped: its socket is closed (code 1008) and it acts for
    nobody.

    Attributes:
        seat: the seat it acts for (``None``: it watches).
        holder: the stored token hash of :attr:`seat` when it said hello; it acts for the
            seat only while the seat still has that hash (nobody else took it over).
        address: the client's address (for per-client limits).
        closed: it was dropped or has gone; nothing more is sent or accepted.
    """

    def __init__(self, send: Callable[[str], Coroutine[Any, Any, None]],
                 close: Callable[[int, str], Awaitable[None]], address: str = "-") -> None:
        self.seat: Seat | None = None
        self.holder: str | None = None
        self.address = address
        self.on_drop: Callable[[Connection], None] | None = None
        self._send = send
        self._close = close
        self._outbox: deque[str] = deque()
        self._queued_chars = 0
        self._task: asyncio.Task[None] | None = None
        """The task finishing a send that had to wait, then the queued messages; ``None``
        while nothing is waiting to go out."""
        self._closing: asyncio.Future[None] | None = None
        self._final: tuple[int, str] | None = None
        self.closed = False

    def push(self, text: str) -> None:
        """Queue a message (JSON text) for this client without waiting."""
        if self.closed or self._final is not None:
            return
        if self._task is None:
            self._send_now(text)
            return
        if (len(self._outbox) >= MAX_OUTBOX
                or self._queued_chars + len(text) > MAX_OUTBOX_CHARS):
            self.drop(*SLOW_CLOSE)
            return
        self._queued_chars += len(text)
        self._outbox.append(text)

    def push_json(self, message: Mapping[str, Any]) -> None:
        """Queue a message given as a JSON-ready object."""
        self.push(orjson.dumps(message).decode())

    def finish(self, message: Mapping[str, Any], code: int, reason: str) -> None:
        """Send ``message`` (a JSON-ready object) as the last one, then close the socket
        with ``code``; nothing queued after it is sent."""
        if self.closed or self._final is not None:
            return
        self.push_json(message)
        if self.closed:
            return
        self._final = (code, reason)
        if self._task is None:
            self.drop(code, reason)
        else:
            self._outbox.append(_FINAL)

    def drop(self, code: int, reason: str) -> None:
        """Stop sending, forget what is queued and close the socket with ``code``."""
        if self.closed:
            return
        self.closed = True
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self._outbox.clear()
        self._queued_chars = 0
        self._closing = asyncio.ensure_future(self._close(code, reason))
        if self.on_drop is not None:
            self.on_drop(self)

    def _send_now(self, text: str) -> None:
        """Start sending ``text``; if the send has to wait, a task finishes it."""
        sending = self._send(text)
        try:
            waiting_for = sending.send(None)
        except StopIteration:
            return
        except Exception:
            self._broken()
            return
        self._task = asyncio.create_task(self._run(_Started(sending, waiting_for)))

    async def _run(self, started: _Started) -> None:
        try:
            await started
            while self._outbox:
                text = self._outbox.popleft()
                if text is _FINAL and self._final is not None:
                    self.drop(*self._final)
                    return
                self._queued_chars -= len(text)
                await self._send(text)
        except asyncio.CancelledError:
            raise
        except Exception:
            self._broken()
        finally:
            if self._task is asyncio.current_task():
                self._task = None

    def _broken(self) -> None:
        # The socket broke: close it, so the client knows to reconnect rather than
        # wait for updates that can no longer reach it.
        self.drop(1011, "could not send")

    async def stop(self) -> None:
        """Stop sending (the client is gone); a message queued by :meth:`finish` and the
        close after it still go out (waiting at most 5 s)."""
        if self._final is not None and not self.closed and self._task is not None:
            await asyncio.wait([self._task], timeout=5)
        self.closed = True
        if self._task is not None:
            self._task.cancel()
        if self._closing is not None:
            await asyncio.wait([self._closing], timeout=5)


class _Started:
    """Awaiting this finishes a coroutine that was started by hand and suspended on
    ``waiting_for`` (what it yielded: a future, or ``None`` to let others run), just as
    the task running it would have: resumed once that is done, cancellation passed on."""

    def __init__(self, coroutine: Coroutine[Any, Any, None], waiting_for: Any) -> None:
        self.coroutine = coroutine
        self.waiting_for = waiting_for

    def __await__(self) -> Generator[Any, None, None]:
        coroutine, waiting_for = self.coroutine, self.waiting_for
        while True:
            try:
                yield waiting_for
            except BaseException as error:  # the awaiting task was cancelled
                try:
                    waiting_for = coroutine.throw(error)
                except StopIteration:
                    return
                continue
            try:
                waiting_for = coroutine.send(None)
            except StopIteration:
                return


@dataclass
class Table:
    """One game at one table. All fields change only under :attr:`lock`."""

    id: str
    game: Game[Any]
    game_name: str
    options: dict[str, Any]
    config: BaseModel
    seed: int
    host_hash: str
    created: float
    seats: list[SeatRow]
    state: Any
    actions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    last_events: list[Event] = field(default_factory=list)
    earlier_events: deque[tuple[int, list[Event], int | None]] = field(
        default_factory=lambda: deque(maxlen=EARLIER_STATES))
    """``(version, events, covered seat)`` of the last :data:`EARLIER_STATES` states of
    this deal, the newest included: what a client that (re)connects is sent as
    ``earlier`` (its log); the seat is the one a computer player moved for while its
    person was away (``None``: none; not kept across a restart)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    bots: dict[int, Bot] = field(default_factory=dict)
    bot_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    cover_event: asyncio.Event = field(default_factory=asyncio.Event)
    """Set (and replaced) whenever the clock changes or the game ends, to wake the
    computer players waiting out an away seat's time (:meth:`wake_covers`)."""
    bot_failures: dict[int, int] = field(default_factory=dict)
    """Failed decisions per computer player's seat (their log lines thin out)."""
    turn_faults: dict[int, int] = field(default_factory=dict)
    """The server's own faults around a computer player's turn, per seat (retried;
    their log lines thin out too)."""
    stepped_away: dict[Seat, deque[float]] = field(default_factory=dict)
    """Per seat, when (``time.monotonic()``) its person last asked a computer player to
    play for them: :data:`STEP_AWAY_COUNT` a :data:`STEP_AWAY_SECONDS` at most."""
    _messages: dict[Seat | None, str] = field(default_factory=dict)
    """This version's ``state`` message per seat (``None``: watchers)."""
    _shared: tuple[list[Seat], dict[str, Any]] | None = None
    """This version's seats to act, and what every seat's ``state`` message shares."""
    committed: Outcome = field(init=False)
    """The outcome as of the last stored action (never of one still being stored)."""
    last_active: float = field(default_factory=time.monotonic)
    public: dict[str, Any] = field(init=False)
    """The game's public facts for this table (fixed: board layout, teams…)."""
    waiting_since: dict[Seat, int] = field(default_factory=dict)
    """For each seat with a pending decision, the version since which it has waited."""
    deal: int = 0
    """Which deal of the cards this is (:meth:`TableManager.deal_of` its seed): before
    the first move the cards may be dealt again while the version stays 0, so this tells
    an action chosen on an earlier deal. Made from the stored seed, it is the same in
    whichever process loads the table."""
    seat_connections: Counter[Seat] = field(default_factory=Counter)
    """Open connections per seat."""
    watchers: int = 0
    """Open connections that watch (no seat)."""
    _presence: asyncio.TimerHandle | None = None
    _presence_sent: tuple[tuple[tuple[str, bool], ...], int] | None = None
    _presence_new: bool = False
    host_seat: Seat | None = None
    """The seat whose person holds the host role (``None``: the host has no seat)."""
    host_chosen: bool = True
    """Whether the host was chosen: the creator, or a person the role was handed to by a
    host so chosen; ``False`` where it passed on by itself while the host was away
    (:func:`gametable.server.hosting.host_chosen`, which the host controls enforce: this
    copy tells the pages which choices a host has)."""
    ended: float | None = None
    """When the host ended the game early (``None``: they did not); it is then over."""
    creator: str | None = None
    """Whose caps per client the table counts against (:attr:`TableRow.creator`)."""
    first_action: float | None = None
    """When its record's first action was stored (Unix seconds; ``None``: none yet)."""
    made_here: bool = False
    """Made by this process now, not loaded from storage: storage holds nothing of it
    that memory lacks (its chat, say, need not be read)."""
    seated: bool = False
    """Whether every seat was taken when the log last said so (see
    :meth:`TableManager.seat_changed`)."""
    shown: bool = False
    """Whether the deal has been shown: every seat was taken at some time since it was
    dealt (see :attr:`begun`)."""
    shown_to: set[Seat] = field(default_factory=set)
    """The seats whose person has been sent their view of this deal (their hand): see
    :meth:`saw_deal`. Not stored: a table loaded from storage whose deal was shown counts
    every seat as having seen it (a person who saw their hand and left before the first
    move opened their seat after a restart, its cards then dealt to whoever took it with
    the leaver watching), so after a restart a seat kept for someone who never came goes
    to a computer player, as a seen one does, rather than opening."""
    watching: bool = True
    """Whether people without a seat may watch (the host may switch it off)."""
    expired: bool = False
    """Set when its expiry was stored (it has left memory): a request that reached it
    before is refused as ``table_expired``, even if it waited for :attr:`lock`."""
    clock: Clock | None = None
    """The turn clock (``None``: the table has none), see ``gametable.server.clock``."""
    cover_bots: dict[int, Bot] = field(default_factory=dict)
    """The computer players that play for away seats, made when first needed."""
    last_covered: dict[str, Any] | None = None
    """``{"seat", "reason"}`` when the last action was a computer player's for an away
    seat, else ``None``."""
    on_connections: Callable[[Table], None] | None = None
    """Called when connections come or go (set by the :class:`TableManager`)."""
    rematch: dict[str, Any] | None = None
    """The offer to play again, once a player asked (``gametable.server.rematch``)."""
    host_check: asyncio.TimerHandle | None = None
    """A pending check whether the host has left for good (``gametable.server.hosting``)."""
    on_clock_due: Callable[[Table], None] | None = None
    """Called when the earliest deadline passes (set by the :class:`TableManager`)."""
    on_clock_moved: Callable[[Table], None] | None = None
    """Called when a deadline moved outside an action: the clock is to be stored, then
    sent (set by the :class:`TableManager`)."""
    _clock_timer: asyncio.TimerHandle | None = None
    left_at: dict[Seat, float] = field(default_factory=dict)
    """When each seat's last connection closed (``time.monotonic``); a seat nobody has
    connected to since the table came into memory counts from then."""
    in_memory_since: float = field(default_factory=time.monotonic)
    seen: set[Seat] = field(default_factory=set)
    """The seats whose person has connected since the table came into memory (a turn's
    time waits a while for the others: ``gametable.server.clock.JOIN_GRACE_SECONDS``)."""

    def __post_init__(self) -> None:
        self.committed = self.game.outcome(self.state)
        self.public = self.game.public_info(self.config, len(self.seats))
        self.note_waiting(None)

    def note_waiting(self, acted: Seat | None) -> None:
        """Update :attr:`waiting_since` after ``acted`` played (``None``: at load)."""
        to_act = self.game.to_act(self.state)
        if acted is not None:
            self.waiting_since.pop(acted, None)
        for seat in list(self.waiting_since):
            if seat not in to_act:
                del self.waiting_since[seat]
        for seat in to_act:
            self.waiting_since.setdefault(seat, self.version)

    def current_for(self, seat: Seat, version: int) -> bool:
        """Whether an action ``seat`` chose at ``version`` still answers the situation:
        the version is the current one, or the seat has been waiting to act since then
        and only others' simultaneous decisions came in between (Dixit submissions and
        votes); the rules still check the action itself."""
        if version == self.version:
            return True
        since = self.waiting_since.get(seat)
        return since is not None and since <= version <= self.version

    def add_connection(self, conn: Connection) -> None:
        """Count ``conn`` in (call under :attr:`lock`, after its welcome); the others hear
        of it in the next ``presence`` message."""
        self.connections.add(conn)
        conn.on_drop = self.remove_connection
        if conn.seat is None:
            self.watchers += 1
        else:
            self.seat_connections[conn.seat] += 1
            self.left_at.pop(conn.seat, None)
            first = conn.seat not in self.seen
            self.seen.add(conn.seat)
            clock = self.clock
            if clock is not None:
                arrived = clock.arrived(conn.seat)
                # Back after a computer player covered for their absence: the seat is
                # theirs again, its turn's time starting now (its cover's move, if under
                # way, is dropped: see _actor); where their turn's time ran out while they
                # were gone, from their next turn (Clock.reconnected).
                returned = clock.reconnected(conn.seat, self.turn_key())
                if returned:
                    self.arm_clock()
                # A deadline moved or was lifted: stored, then sent (a lifted one left in
                # storage had a process taking the table over cover for a person there).
                moved = first and clock.first_arrival(conn.seat, time.time())
                if (moved or returned or arrived) and self.on_clock_moved is not None:
                    self.on_clock_moved(self)
                elif arrived or returned:
                    self.clock_changed()
        self._presence_new = True
        self._presence_soon()
        if self.on_connections is not None:
            self.on_connections(self)

    def remove_connection(self, conn: Connection) -> None:
        """Count ``conn`` out (it left or was dropped); idempotent."""
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        if conn.seat is None:
            self.watchers -= 1
        else:
            self.seat_connections[conn.seat] -= 1
            if self.seat_connections[conn.seat] <= 0:
                del self.seat_connections[conn.seat]
                self.left_at[conn.seat] = time.monotonic()
                if self.clock is not None and self.status == PLAYING and self.clock.left(
                        conn.seat, conn.seat in self.game.to_act(self.state), time.time()):
                    self.clock_changed()
        self.last_active = time.monotonic()
        self._presence_soon()
        if self.on_connections is not None:
            self.on_connections(self)

    def holds(self, conn: Connection) -> bool:
        """Whether ``conn`` may still act for its seat: it is open, and the seat is still
        the one its token opened (not given to a computer player since)."""
        seat = conn.seat
        return (not conn.closed and seat is not None and 0 <= seat < len(self.seats)
                and self.seats[seat].kind == HUMAN
                and self.seats[seat].token_hash == conn.holder)

    def seat_held_by(self, conn: Connection) -> Seat:
        """The seat ``conn`` acts for (:meth:`holds`).

        Raises:
            Refused: ``conn`` watches (``not_seated``) or its seat was given to someone
                or something else since (``seat_lost``).
        """
        if conn.seat is None:
            raise Refused("not_seated", "server.errors.not_seated")
        if not self.holds(conn):
            raise Refused("seat_lost", "server.errors.seat_lost")
        return conn.seat

    def drop_seat(self, seat: Seat, code: int, reason: str) -> None:
        """Close every connection acting for ``seat`` (it changed hands)."""
        for conn in [c for c in self.connections if c.seat == seat]:
            conn.drop(code, reason)

    def _presence_soon(self) -> None:
        if self._presence is None:
            self._presence = asyncio.get_running_loop().call_later(
                PRESENCE_INTERVAL, self._send_presence)

    def presence(self) -> tuple[tuple[tuple[str, bool], ...], int]:
        """Who is connected: ``((seat, connected) for each human seat, watchers)``."""
        seats = tuple((str(s.seat), s.seat in self.seat_connections)
                      for s in self.seats if s.kind == HUMAN)
        return seats, self.watchers

    def _send_presence(self) -> None:
        self._presence = None
        now = self.presence()
        if now == self._presence_sent and not self._presence_new:
            return
        self._presence_sent, self._presence_new = now, False
        text = orjson.dumps({"type": "presence", "seats": dict(now[0]),
                             "watchers": now[1]}).decode()
        for conn in list(self.connections):
            conn.push(text)

    def idle_for(self, now: float) -> float:
        """Seconds since anything happened here; 0 while anyone is connected, a bot acts
        or a turn's deadline is pending."""
        if self.connections or self.bot_tasks or self.lock.locked() or (
                self.clock is not None and self.clock.deadlines and self.status == PLAYING):
            return 0.0
        return now - self.last_active

    @property
    def version(self) -> int:
        """How many actions have been applied (and stored)."""
        return len(self.actions)

    @property
    def begun(self) -> bool:
        """Whether the game has begun: a move was made, or every seat is taken or was
        once since the cards were dealt (:meth:`note_seats`), so that the seats saw their
        hands. Until then no seat is shown a hand, who starts or what it may play, and
        dealing again (a seat left or was removed, the host changed the options) shows
        nobody a second deal to choose from; from then on the deal stands (a player who
        left and came back, or a host who changed the options, could deal until a hand
        suited them)."""
        return self.shown or bool(self.actions) or self.status != WAITING

    def saw_deal(self, seat: Seat) -> bool:
        """Whether ``seat``'s person has seen this deal (a move was made, or they were
        sent their hand): leaving, or being removed, then deals nothing again, and their
        seat goes on as in a game under way. A seat whose person never came (a seat kept
        at a new table after *Play again*, say) opens as before the game began, with its
        cards unseen."""
        return bool(self.actions) or seat in self.shown_to

    def note_seats(self) -> None:
        """Note that the seats changed hands: once every seat is taken the deal has been
        shown, and the game has :attr:`begun` for good."""
        if self.status != WAITING:
            self.shown = True

    @property
    def status(self) -> str:
        """``waiting`` (seats open), ``playing`` or ``finished``, as of the last stored action."""
        if self.ended is not None:
            return FINISHED
        for seat in self.seats:
            if seat.kind == OPEN:
                return WAITING
        return FINISHED if self.committed.finished else PLAYING

    def connected(self, seat: Seat) -> bool:
        """Whether any client of ``seat`` is connected now."""
        return seat in self.seat_connections

    def away_for(self, seat: Seat, now: float | None = None) -> float:
        """Seconds since ``seat``'s last connection closed (0 while one is open)."""
        if self.connected(seat):
            return 0.0
        since = self.left_at.get(seat, self.in_memory_since)
        return max(0.0, (time.monotonic() if now is None else now) - since)

    def deal_again(self, seed: int, bots: dict[int, Bot], deal: int) -> None:
        """Deal the game again from ``seed`` (before the first move only, under
        :attr:`lock`, once the seed is stored): a new state, the computer players
        ``bots`` (made from the new seed), nothing of the old deal left in a cached
        message or a computer player's thoughts."""
        if self.begun:
            raise RuntimeError("the cards are dealt again only before the game begins")
        for task in self.bot_tasks.values():
            task.cancel()
        self.bot_tasks.clear()
        if self.clock is not None:
            self.clock.cover_at.clear()  # the cancelled waits' ends
        self.deal = deal
        self.seed = seed
        self.shown_to.clear()
        self.state = self.game.new_game(self.config, len(self.seats), seed)
        self.bots = bots
        self.cover_bots.clear()
        self.last_events = []
        self.earlier_events.clear()
        self.last_covered = None
        self._messages.clear()
        self._shared = None
        self.committed = self.game.outcome(self.state)
        self.waiting_since.clear()
        self.note_waiting(None)

    def playing_seat(self, token: str | None) -> Seat:
        """The seat ``token`` holds at this table, whose game is not over (call under
        :attr:`lock`): for what a seated person does about their own seat (leave it,
        rename it).

        Raises:
            Refused: the token holds no seat here (403 ``bad_token``), or the game is over
                (409 ``ended``).
        """
        seat = self.seat_of(token)
        if seat is None:
            raise Refused("bad_token", "server.errors.bad_token", status=403)
        if self.status == FINISHED:
            raise self.over()
        return seat

    def over(self) -> Refused:
        """The refusal of a request that needs the game still going (409 ``ended``), in
        words that say whether its host ended it or it came to its end by the rules."""
        if self.ended is not None:
            return Refused("ended", "server.errors.ended", status=409)
        return Refused("ended", "server.errors.game_over", status=409)

    def seat_of(self, token: str | None) -> Seat | None:
        """The seat a token belongs to, or ``None``."""
        if not token:
            return None
        digest = token_hash(token)
        for seat in self.seats:
            if (seat.kind == HUMAN and seat.token_hash is not None
                    and secrets.compare_digest(seat.token_hash, digest)):
                return seat.seat
        return None

    def info(self) -> dict[str, Any]:
        """What anyone with the invite link may know: seats, status, public setup, who is
        connected."""
        connected = self.seat_connections
        return {
            "id": self.id,
            "game": self.game_name,
            "config": self.options,
            "public": self.public,
            "seats": [
                {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot,
                 "connected": s.kind == BOT or s.seat in connected,
                 # who holds it now, as their chat lines say (occupant_tag)
                 **({"tag": tag} if (tag := occupant_tag(s)) is not None else {}),
                 # an open seat kept for whoever has its link (TableManager.join)
                 **({"invited": True} if s.kind == OPEN and s.token_hash else {}),
                 # a person who has not come to this new table yet (Play again: still
                 # deciding at the last one), not one whose connection dropped
                 **({"coming": True} if s.kind == HUMAN and self.made_here
                    and s.seat not in self.seen and s.seat not in connected else {}),
                 # its person was removed by the host (hosting.remove)
                 **({"removed": True} if s.removed else {}),
                 # a computer player took the person's seat over after that many actions
                 **({"bot_since": s.bot_since}
                    if s.kind == BOT and s.bot_since is not None else {}),
                 # who held the seat before, once the game had begun (SeatRow.earlier)
                 **({"earlier": [occupant.to_json() for occupant in s.earlier]}
                    if s.earlier else {})}
                for s in self.seats
            ],
            "status": self.status,
            "version": self.version,
            "invite": f"/t/{self.id}",
            "created": self.created,
            "watchers": self.watchers,
            "clock": None if self.clock is None else self.clock.settings.to_json(),
            "host_seat": self.host_seat,
            "host_chosen": self.host_chosen,
            "watching": self.watching,
            "ended_early": self.ended is not None,
            "begun": self.begun,
        }

    def state_message(self, seat: Seat | None) -> str:
        """The ``state`` message for ``seat`` (cached per version), as JSON text. Before
        the game has :attr:`begun` it shows no deal: ``view`` ``None``, nobody to act,
        no legal action and no events."""
        cached = self._messages.get(seat)
        if cached is not None:
            return cached
        game, state = self.game, self.state
        if not self.begun:
            text = orjson.dumps({"type": "state", "version": self.version,
                                 "status": self.status, "view": None, "to_act": [],
                                 "legal": [], "events": [], "deal": self.deal}).decode()
            self._messages[seat] = text
            return text
        shared = self._shared
        if shared is None:
            # What every seat's message of this version has in common, worked out once.
            # A game its host ended has nobody to act; one waiting for a seat to be
            # taken again offers nobody an action (each would be refused ``waiting``).
            to_act = [] if self.ended is not None else sorted(game.to_act(state))
            common = {"type": "state", "version": self.version, "status": self.status,
                      "view": None, "to_act": to_act, "legal": [],
                      "events": self.last_events}
            if self.committed.finished:
                common["outcome"] = self.committed.to_json()
            if self.last_covered is not None:
                common["covered"] = self.last_covered
            if self.deal:
                common["deal"] = self.deal
            shared = self._shared = (to_act, common)
        to_act, common = shared
        message = common.copy()
        message["view"] = game.view(state, seat)
        if seat is not None:
            self.shown_to.add(seat)
        if seat is not None and seat in to_act and self.status == PLAYING:
            message["legal"] = game.legal_actions(state, seat)
        text = orjson.dumps(message).decode()
        self._messages[seat] = text
        return text

    def welcome_state_message(self, seat: Seat | None) -> str:
        """The ``state`` message for a client that has just said ``hello``: as
        :meth:`state_message`, plus ``earlier``, the events of the states before this one
        (at most :data:`EARLIER_STATES` - 1 of this deal, oldest first, each
        ``{"version", "events"}``, and ``"covered"``: the seat a computer player moved for
        in that state while its person was away), so that a reloaded page's log is not
        empty and says what the open pages said. Events are public (every seat's message
        carries the same), so every seat gets the same."""
        text = self.state_message(seat)
        earlier = [{"version": version, "events": events,
                    **({"covered": covered} if covered is not None else {})}
                   for version, events, covered in self.earlier_events
                   if version < self.version]
        if not earlier:
            return text
        return text[:-1] + ',"earlier":' + orjson.dumps(earlier).decode() + "}"

    def broadcast_state(self) -> None:
        """Send every connected client its own ``state`` message."""
        self._messages.clear()
        self._shared = None
        for conn in list(self.connections):
            conn.push(self.state_message(conn.seat))

    # -- the turn clock -------------------------------------------------------------

    def people(self) -> set[Seat]:
        """The seats where a person sits."""
        return {s.seat for s in self.seats if s.kind == HUMAN}

    def arm_clock(self) -> bool:
        """Bring the clock's deadlines up to date with who must act (under :attr:`lock`);
        returns whether they changed. A table without a clock, or not playing, has none."""
        clock = self.clock
        if clock is None:
            return False
        to_act = self.game.to_act(self.state) if self.status == PLAYING else set()
        return clock.arm(to_act, self.people(), self.connected, time.time(),
                         self.seen.__contains__, self.turn_key())

    def turn_key(self) -> str | None:
        """The game's turn now, for the turn clock (``None``: the game does not say)."""
        game = self.game
        return game.turn_key(self.state) if isinstance(game, HasTurns) else None

    def clock_message(self) -> str | None:
        """The ``clock`` message as JSON text, or ``None`` without a clock."""
        if self.clock is None:
            return None
        return orjson.dumps(self.clock.message(time.time())).decode()

    def clock_changed(self, *, wake: bool = True) -> None:
        """Send everyone the clock and wait for its next deadline; ``wake``: wake the
        computer players waiting out an away seat's time, to look again."""
        text = self.clock_message()
        if text is None:
            return
        for conn in list(self.connections):
            conn.push(text)
        self.schedule_clock()
        if wake:
            self.wake_covers()

    def wake_covers(self) -> None:
        """Wake the computer players waiting out an away seat's time (the clock changed:
        a seat came back, the host paused it; or the game ended)."""
        event, self.cover_event = self.cover_event, asyncio.Event()
        event.set()

    def schedule_clock(self) -> None:
        """Call :attr:`on_clock_due` when the earliest deadline passes."""
        if self._clock_timer is not None:
            self._clock_timer.cancel()
            self._clock_timer = None
        clock = self.clock
        if clock is None or self.on_clock_due is None or self.status != PLAYING:
            return
        at = clock.next_at()
        if at is None:
            return
        self._clock_timer = asyncio.get_running_loop().call_later(
            max(0.0, at - time.time()), self.on_clock_due, self)

    def stop_clock(self) -> None:
        """Stop waiting for deadlines (the table leaves memory or the server stops)."""
        if self._clock_timer is not None:
            self._clock_timer.cancel()
            self._clock_timer = None

    def broadcast_info(self) -> None:
        """Send every connected client the table's public ``info`` (after a seat changed
        hands; comings and goings are sent as ``presence``)."""
        text = orjson.dumps({"type": "table", "table": self.info()}).decode()
        self._presence_sent, self._presence_new = self.presence(), False
        for conn in list(self.connections):
            conn.push(text)


def all_bots(table: Table) -> bool:
    """Whether computer players sit in every seat of ``table``."""
    return all(s.kind == BOT for s in table.seats)
