"""Turn clocks: a time limit per turn, and computer players who cover for away seats.

A table may have a clock, chosen when it is created (off by default; for Triominos it is
the optional time limit of TR-TIME-1, for Dixit it times each decision: clue, giving,
voting). It works for every game through the protocol's ``to_act``:

- When a person's seat must act, it gets a **deadline**: ``turn_seconds`` from the
  moment it started waiting (a Dixit seat gets one for each decision), or from the
  moment its person comes to the table, if they have not yet (at most
  :data:`JOIN_GRACE_SECONDS` later). A seat that stops waiting within a turn and must
  act again in the same turn (a Sequence Cats draw offer, SC-WIN-3 b, made or answered
  while its turn runs: play waits for the answers) gets back the time it had left, at
  least :data:`HELD_FLOOR_SECONDS`: an offer does not buy a new turn's time.
- With ``cover_absent``, a seat whose person is not connected gets a deadline
  :attr:`ClockSettings.absent_seconds` from the moment it started waiting disconnected
  (for a person who has not come to the table yet, from the end of their
  :data:`JOIN_GRACE_SECONDS`); reconnecting lifts it, and reconnecting after it passed
  takes the seat back. A seat whose turn's time runs out while nobody is connected to it
  goes away as :data:`ABSENT` too (the table decides), and is its person's again from
  the next turn when they reconnect.
- When a deadline passes, the seat is **away**: from then on a computer player of the
  table's chosen level (:attr:`ClockSettings.cover`) plays its turns, and each of its
  actions says so (``covered`` in the ``state`` message). The person takes the seat
  back with the ``back`` message (one click), or by acting themselves (TR-TIME-1).

Deadlines are wall-clock times (seconds since 1970) stored with the table, so a restart
neither loses nor resets them, except that one which passed while the server was down
(or comes within :data:`RESTART_GRACE_SECONDS` of the table's loading) moves to that
long after the loading: the time a restart takes is not charged to the people waiting.
Time runs on the server, clients only display it.
Nothing here knows which game is played.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from gametable.core.protocol import Seat

TURN, ABSENT, ASKED = "turn", "absent", "asked"
"""Why a seat went away: its turn's time ran out, its person stayed disconnected, or its
person asked a computer player to play for them (``away``, at any table)."""

JOIN_GRACE_SECONDS = 60.0
"""Seconds more that a seat's first turn may take while its person has not yet come to
the table (the friends of a new game after *Play again* still reading the last one's
result): their time starts when they arrive, or after this."""


RESTART_GRACE_SECONDS = 15.0
"""Seconds that a waiting seat has at least once its table is loaded again (a restart, or
another process taking the table over): a deadline that passed while no process ran the
table, or comes sooner, moves to this long after the loading (at most the turn's time),
so that the pages, which try again every 4 s at most, reconnect and their people move."""

HELD_FLOOR_SECONDS = 10.0
"""The least time a seat gets back when it must act again in a turn it stopped waiting
in (at most the turn time): a moment to see why play came back to it."""


@dataclass(frozen=True)
class ClockSettings:
    """A table's clock, as its creator chose it.

    Attributes:
        turn_seconds: seconds a seat has for a turn (a Dixit decision); ``None``: no
            limit.
        cover: the computer player (a bot name or level: ``easy``, ``medium``, ``hard``)
            that plays for a seat that is away.
        cover_absent: computer players also cover for a person who stays disconnected
            for :attr:`absent_seconds` while their seat must act, even without a limit.
        absent_seconds: seconds a seat that must act may stay disconnected (with
            :attr:`cover_absent`); a server setting, not stored with the table.
    """

    turn_seconds: float | None = None
    cover: str = "medium"
    cover_absent: bool = False
    absent_seconds: float = 30.0

    @property
    def active(self) -> bool:
        """Whether this clock can ever make a seat away."""
        return self.turn_seconds is not None or self.cover_absent

    def to_json(self) -> dict[str, Any]:
        """The settings as stored and shown (``absent_seconds`` included for display)."""
        return {"turn_seconds": self.turn_seconds, "cover": self.cover,
                "cover_absent": self.cover_absent, "absent_seconds": self.absent_seconds}


@dataclass
class Deadline:
    """When a waiting seat goes away, and why (the earlier of its two times).

    Attributes:
        turn: when its turn's time runs out (seconds since 1970), or ``None``.
        absent: when it has been disconnected for too long, or ``None``.
        turn_key: the game's turn (``HasTurns.turn_key``) the turn's time was given
            for, or ``None`` (a game that does not say).
    """

    turn: float | None = None
    absent: float | None = None
    turn_key: str | None = None

    @property
    def at(self) -> float | None:
        """The earlier of the two times, or ``None`` when neither is set."""
        times = [t for t in (self.turn, self.absent) if t is not None]
        return min(times) if times else None

    @property
    def reason(self) -> str:
        """:data:`ABSENT` when the disconnection comes first, else :data:`TURN`."""
        if self.absent is not None and (self.turn is None or self.absent < self.turn):
            return ABSENT
        return TURN


@dataclass
class Clock:
    """A table's running clock: its settings, the waiting seats' deadlines and the seats
    that are away (seat → why). Changed only under the table's lock."""

    settings: ClockSettings
    deadlines: dict[Seat, Deadline] = field(default_factory=dict)
    away: dict[Seat, str] = field(default_factory=dict)
    paused_at: float | None = None
    """When the host paused the clock (seconds since 1970), or ``None`` while it runs."""
    held: dict[Seat, tuple[str, float]] = field(default_factory=dict)
    """Seats that stopped waiting within a turn not yet over: the turn (``turn_key``)
    and the seconds of its time they had left, given back if they must act again in it."""
    lapsed: dict[Seat, str] = field(default_factory=dict)
    """Seats away because their turn's time ran out: the turn (``turn_key``) it ran out
    in (stored: a "back" within that turn after a restart gives no new turn either)."""
    returning: dict[Seat, str] = field(default_factory=dict)
    """Seats whose person said they are back within the turn their time ran out in: the
    computer player still makes that turn's move, and they are back from the next turn
    (a "back" each time the time ran out gave a whole new turn, and stalled the game for
    good, against TR-TIME-1). Stored."""
    cover_at: dict[Seat, float] = field(default_factory=dict)
    """With every person away: when the computer player covering for an away seat will
    move (seconds since 1970), while it waits for the turn's time to run out. Not
    stored: a table loaded again starts its waits afresh."""

    # -- storing ------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The clock as stored with the table (JSON-ready)."""
        return {
            "turn_seconds": self.settings.turn_seconds,
            "cover": self.settings.cover,
            "cover_absent": self.settings.cover_absent,
            "deadlines": {str(seat): [d.turn, d.absent, d.turn_key]
                          for seat, d in self.deadlines.items()},
            "away": {str(seat): reason for seat, reason in self.away.items()},
            "paused_at": self.paused_at,
            "held": {str(seat): [key, left] for seat, (key, left) in self.held.items()},
            "lapsed": {str(seat): key for seat, key in self.lapsed.items()},
            "returning": {str(seat): key for seat, key in self.returning.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], absent_seconds: float = 30.0) -> Clock:
        """The clock stored as ``data`` (see :meth:`to_json`).

        Raises:
            KeyError, TypeError, ValueError: ``data`` is not a stored clock.
        """
        settings = ClockSettings(turn_seconds=data.get("turn_seconds"),
                                 cover=str(data.get("cover") or "medium"),
                                 cover_absent=bool(data.get("cover_absent")),
                                 absent_seconds=absent_seconds)
        deadlines = {int(seat): Deadline(turn=times[0], absent=times[1],
                                         turn_key=times[2] if len(times) > 2 else None)
                     for seat, times in (data.get("deadlines") or {}).items()}
        away = {int(seat): str(reason) for seat, reason in (data.get("away") or {}).items()}
        paused_at = data.get("paused_at")
        held = {int(seat): (str(kept[0]), float(kept[1]))
                for seat, kept in (data.get("held") or {}).items()}
        lapsed = {int(seat): str(key) for seat, key in (data.get("lapsed") or {}).items()}
        returning = {int(seat): str(key)
                     for seat, key in (data.get("returning") or {}).items()}
        return cls(settings, deadlines, away,
                   None if paused_at is None else float(paused_at), held, lapsed, returning)

    def message(self, now: float) -> dict[str, Any]:
        """The ``clock`` message (``docs/protocol.md``): times in milliseconds since
        1970, with the server's ``now`` so a client can allow for its own clock, and
        ``paused_at`` while the host has paused it (the time left is then frozen at
        deadline − ``paused_at``)."""
        return {
            "type": "clock",
            "turn_seconds": self.settings.turn_seconds,
            "cover": self.settings.cover,
            "cover_absent": self.settings.cover_absent,
            "deadlines": {str(seat): round(at * 1000) for seat, d in self.deadlines.items()
                          if (at := d.at) is not None},
            "away": {str(seat): reason for seat, reason in self.away.items()},
            "cover_at": {str(seat): round(at * 1000) for seat, at in self.cover_at.items()},
            "returning": sorted(self.returning),
            "now": round(now * 1000),
            "paused_at": None if self.paused_at is None else round(self.paused_at * 1000),
        }

    # -- keeping time -------------------------------------------------------------

    def arm(self, to_act: Collection[Seat], people: Collection[Seat],
            connected: Callable[[Seat], bool], now: float,
            seen: Callable[[Seat], bool] = lambda seat: True,
            turn_key: str | None = None) -> bool:
        """Bring the deadlines up to date with who must act now. Each decision gets the
        whole turn time (TR-TIME-1): a seat that must act in a new turn or phase
        (``turn_key`` changed) gets it again, even if it had to act in the last one. A
        seat that stopped waiting within a turn and must act again in it gets back what
        it had left (:attr:`held`, at least :data:`HELD_FLOOR_SECONDS`).

        Args:
            to_act: the seats that must act (the protocol's ``to_act``).
            people: the seats where a person sits (computer players have no clock).
            connected: whether a seat's person is connected now.
            now: the time, in seconds since 1970.
            seen: whether a seat's person has come to the table (connected) yet; a
                seat whose person has not gets :data:`JOIN_GRACE_SECONDS` more (see
                :meth:`first_arrival`).
            turn_key: the game's turn now (``HasTurns.turn_key``); ``None``: a seat's
                time runs on for as long as it must act.

        Returns:
            Whether anything changed (then the clock should be stored and sent).
        """
        changed = False
        if self.paused_at is not None:
            now = self.paused_at  # new deadlines start when the clock runs again
        for seat, turn in list(self.returning.items()):
            if turn != turn_key or seat not in self.away:
                del self.returning[seat]  # the turn that ran out is over: back now
                if self.away.pop(seat, None) is not None:
                    changed = True
        for seat in list(self.lapsed):
            if seat not in self.away:
                del self.lapsed[seat]
        for seat in list(self.away):
            if seat not in people:
                del self.away[seat]
                changed = True
        for seat in list(self.deadlines):
            if seat not in to_act or seat not in people or seat in self.away:
                gone = self.deadlines.pop(seat)
                if (seat in people and seat not in self.away and gone.turn is not None
                        and turn_key is not None and gone.turn_key == turn_key):
                    self.held[seat] = (turn_key, max(0.0, gone.turn - now))
                changed = True
        for seat in list(self.held):
            if seat not in people or seat in self.away or self.held[seat][0] != turn_key:
                del self.held[seat]
                changed = True
        settings = self.settings
        for seat in to_act:
            if seat not in people or seat in self.away:
                continue
            kept = self.deadlines.get(seat)
            if kept is not None:
                if (turn_key is not None and kept.turn_key != turn_key
                        and settings.turn_seconds is not None):
                    kept.turn, kept.turn_key = now + settings.turn_seconds, turn_key
                    changed = True
                continue
            deadline = Deadline(turn_key=turn_key)
            held = self.held.pop(seat, None)
            if settings.turn_seconds is not None and held is not None:
                floor = min(HELD_FLOOR_SECONDS, settings.turn_seconds)
                deadline.turn = now + max(held[1], floor)
            elif settings.turn_seconds is not None:
                deadline.turn = now + settings.turn_seconds
                if not seen(seat):
                    deadline.turn += JOIN_GRACE_SECONDS
            if settings.cover_absent and not connected(seat):
                # A person who has not come to the table yet (after Play again, still
                # reading the last result) has the minute to come in first.
                deadline.absent = now + settings.absent_seconds + (
                    0.0 if seen(seat) else JOIN_GRACE_SECONDS)
            if deadline.at is not None:
                self.deadlines[seat] = deadline
                changed = True
        return changed

    def arrived(self, seat: Seat) -> bool:
        """A person connected to ``seat``: lift its disconnection deadline. Returns
        whether anything changed."""
        deadline = self.deadlines.get(seat)
        if deadline is None or deadline.absent is None:
            return False
        deadline.absent = None
        if deadline.at is None:
            del self.deadlines[seat]
        return True

    def reconnected(self, seat: Seat, turn_key: str | None = None) -> bool:
        """A person connected to ``seat`` again: a seat away because its person was not
        there (:data:`ABSENT`) is theirs again, as if they had said they are back (a seat
        away because its turn's time ran out, :data:`TURN`, while its person was there,
        stays away until they say so or act). Where the turn's time ran out while they
        were gone, within that turn ``turn_key`` the computer player still makes its move
        and the seat is theirs from the next (as :meth:`come_back`: leaving and coming
        back at each deadline gave a whole new turn). Returns whether it was away."""
        if self.away.get(seat) != ABSENT:
            return False
        return self.come_back(seat, turn_key)

    def first_arrival(self, seat: Seat, now: float) -> bool:
        """The person of ``seat`` came to the table for the first time: a turn's time
        that waited for them (:data:`JOIN_GRACE_SECONDS`) starts now. Returns whether
        anything changed."""
        deadline = self.deadlines.get(seat)
        turn_seconds = self.settings.turn_seconds
        if deadline is None or deadline.turn is None or turn_seconds is None:
            return False
        start = now if self.paused_at is None else self.paused_at
        if deadline.turn <= start + turn_seconds:
            return False
        deadline.turn = start + turn_seconds
        return True

    def left(self, seat: Seat, waiting: bool, now: float) -> bool:
        """The last connection of ``seat`` went while it must act (``waiting``): with
        ``cover_absent``, it goes away if nobody comes back within ``absent_seconds``.
        Returns whether anything changed."""
        if not (self.settings.cover_absent and waiting) or seat in self.away:
            return False
        if self.paused_at is not None:
            now = self.paused_at
        deadline = self.deadlines.setdefault(seat, Deadline())
        if deadline.absent is None:
            deadline.absent = now + self.settings.absent_seconds
            return True
        return False

    def next_at(self) -> float | None:
        """The earliest deadline, or ``None`` (also while paused)."""
        if self.paused_at is not None:
            return None
        times = [at for d in self.deadlines.values() if (at := d.at) is not None]
        return min(times) if times else None

    def due(self, now: float) -> tuple[Seat, str] | None:
        """The seat whose deadline passed first (lowest seat on a tie) and why, or
        ``None`` when no deadline has passed (or the clock is paused)."""
        if self.paused_at is not None:
            return None
        passed = sorted((at, seat) for seat, d in self.deadlines.items()
                        if (at := d.at) is not None and at <= now)
        if not passed:
            return None
        seat = passed[0][1]
        return seat, self.deadlines[seat].reason

    def loaded(self, now: float, grace: float = RESTART_GRACE_SECONDS) -> bool:
        """Give every waiting seat at least ``grace`` seconds from ``now`` (its turn at
        most its turn's time), the table having just been loaded from storage: a
        deadline that passed while no process ran it is not charged to its person.
        A paused clock is left as it is (its deadlines move on when it runs again).
        Returns whether a deadline moved.

        Args:
            now: the time of loading, in seconds since 1970.
            grace: seconds (greater than 0) each waiting seat has at least.
        """
        if self.paused_at is not None:
            return False
        moved = False
        turn_grace = min(grace, self.settings.turn_seconds or grace)
        for deadline in self.deadlines.values():
            if deadline.turn is not None and deadline.turn < now + turn_grace:
                deadline.turn = now + turn_grace
                moved = True
            if deadline.absent is not None and deadline.absent < now + grace:
                deadline.absent = now + grace
                moved = True
        return moved

    def pause(self, now: float) -> bool:
        """Stop the time of every waiting seat (the host's pause). Returns whether it ran."""
        if self.paused_at is not None:
            return False
        self.paused_at = now
        return True

    def resume(self, now: float) -> bool:
        """Let time run again: every deadline moves on by the length of the pause.
        Returns whether it was paused."""
        if self.paused_at is None:
            return False
        shift = max(0.0, now - self.paused_at)
        for deadline in self.deadlines.values():
            if deadline.turn is not None:
                deadline.turn += shift
            if deadline.absent is not None:
                deadline.absent += shift
        self.paused_at = None
        return True

    def send_away(self, seat: Seat, reason: str, turn_key: str | None = None) -> None:
        """Mark ``seat`` away (a computer player plays for it from now on) for ``reason``;
        ``turn_key``: the turn whose time ran out, if it did (with :data:`TURN`, or with
        :data:`ABSENT` when it ran out while its person was not there)."""
        self.deadlines.pop(seat, None)
        self.away[seat] = reason
        self.returning.pop(seat, None)
        if turn_key is not None:
            self.lapsed[seat] = turn_key
        else:
            self.lapsed.pop(seat, None)

    def come_back(self, seat: Seat, turn_key: str | None = None) -> bool:
        """The person of ``seat`` takes it back. Returns whether it was away.

        Asked within the turn ``turn_key`` whose time ran out, the seat stays away for
        that turn (the computer player makes its move, :attr:`returning`) and comes back
        with the next; without ``turn_key`` (the person made the move themselves) it is
        back at once."""
        if seat not in self.away:
            return False
        if turn_key is not None and self.lapsed.get(seat) == turn_key:
            self.returning[seat] = turn_key
            return True
        del self.away[seat]
        self.lapsed.pop(seat, None)
        self.returning.pop(seat, None)
        return True
