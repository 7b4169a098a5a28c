"""Per-client limits: how often one client may create tables, join, upload or chat.

A client is named by its address and, where a request carries one, by its host token or
deck key (each is charged; a request passes only if all of them have room). Each kind of
request has a token bucket per client: ``burst`` requests at once, then one more every
``every`` seconds. With several processes, the buckets of requests made over HTTP live in
Redis, shared by all (:meth:`Limits.check_shared`). A refused request is answered ``429``
with ``Retry-After`` (the seconds until it would pass) and the translated
``rate_limited`` message.

Websocket connections are counted: :class:`Sockets` caps how many one client address may
hold open at once to watch, and how many one seat may hold, and gives each address and
seat one :class:`Pace` (the ``messages`` rate) that all its connections' messages share
(each connection also keeps its own, ``socket.Throttle``).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from gametable.server.refused import Refused

MAX_CLIENTS = 50_000
"""Buckets kept per kind before full (rested) ones are forgotten."""


@dataclass(frozen=True)
class Rate:
    """``burst`` requests at once, then one more every ``every`` seconds."""

    burst: int
    every: float

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``"10/30"``: a burst of 10, then one every 30 seconds.

        Raises:
            ValueError: not of that form, or not positive and finite.
        """
        burst, _, every = text.partition("/")
        rate = cls(int(burst), float(every))
        # (nan and inf are floats too: "10/nan" gave a bucket that never refilled.)
        if rate.burst < 1 or not (math.isfinite(rate.every) and rate.every > 0):
            raise ValueError(f"a rate must be BURST/SECONDS, both positive: {text!r}")
        return rate


class Buckets:
    """Token buckets of one kind of request, one per client key."""

    def __init__(self, rate: Rate, max_clients: int = MAX_CLIENTS) -> None:
        self.rate = rate
        self.max_clients = max_clients
        self._buckets: dict[str, tuple[float, float]] = {}  # key → (tokens, when)

    def _tokens(self, key: str, now: float) -> float:
        tokens, when = self._buckets.get(key, (float(self.rate.burst), now))
        return min(float(self.rate.burst), tokens + (now - when) / self.rate.every)

    def wait(self, key: str, now: float | None = None) -> float:
        """Seconds until ``key`` may make one more request (0: now)."""
        now = time.monotonic() if now is None else now
        return max(0.0, (1.0 - self._tokens(key, now)) * self.rate.every)

    def take(self, key: str, now: float | None = None) -> None:
        """Count one request of ``key`` (call after :meth:`wait` said 0)."""
        now = time.monotonic() if now is None else now
        if len(self._buckets) >= self.max_clients and key not in self._buckets:
            self._forget_rested(now)
        self._buckets[key] = (self._tokens(key, now) - 1.0, now)

    def give_back(self, key: str, now: float | None = None) -> None:
        """Return one request of ``key`` that :meth:`take` counted but that was not
        served after all (its bucket never holds more than the burst)."""
        now = time.monotonic() if now is None else now
        if key in self._buckets:
            self._buckets[key] = (min(float(self.rate.burst), self._tokens(key, now) + 1.0),
                                  now)

    def _forget_rested(self, now: float) -> None:
        rested = [k for k in self._buckets if self._tokens(k, now) >= self.rate.burst]
        for key in rested:
            del self._buckets[key]
        if len(self._buckets) >= self.max_clients:  # all busy: forget the oldest half
            oldest = sorted(self._buckets, key=lambda k: self._buckets[k][1])
            for key in oldest[: len(oldest) // 2]:
                del self._buckets[key]


class SharedUnavailable(Exception):
    """The buckets that the processes of a cluster share cannot be reached now."""


class SharedBuckets(Protocol):
    """Token buckets that every process of a cluster counts in (Redis)."""

    async def take(self, kind: str, rate: Rate, keys: list[str]) -> float:
        """Take one token of ``kind`` from each key's bucket, or none when one of them is
        empty; returns the seconds until all have one (0.0: taken).

        Raises:
            SharedUnavailable: the shared buckets cannot be reached.
        """
        ...


class Limits:
    """The buckets of every limited kind of request (``None``: that kind is unlimited).

    Attributes:
        shared: with several processes, the buckets they share (:meth:`check_shared`
            counts there); ``None`` for one process.
    """

    def __init__(self, rates: dict[str, Rate | None]) -> None:
        self.rates = {kind: rate for kind, rate in rates.items() if rate}
        self.buckets = {kind: Buckets(rate) for kind, rate in self.rates.items()}
        self.shared: SharedBuckets | None = None

    async def check_shared(self, kind: str, keys: Iterable[str | None]) -> None:
        """As :meth:`check`, counted in the buckets every process of a cluster shares, so
        that a client spreading its requests over several processes gets the same limit
        as at one. Where the shared buckets cannot be reached (Redis away), this
        process's own buckets count.

        Raises:
            Refused: ``rate_limited`` (429) with ``retry_after``, as :meth:`check`.
        """
        rate = self.rates.get(kind)
        if rate is None:
            return
        if self.shared is None:
            self.check(kind, keys)
            return
        try:
            wait = await self.shared.take(kind, rate, [key for key in keys if key])
        except SharedUnavailable:
            self.check(kind, keys)
            return
        if wait > 0:
            raise _rate_limited(wait)

    def check(self, kind: str, keys: Iterable[str | None], now: float | None = None) -> None:
        """Count one request of ``kind`` for every key, or refuse it for all of them.

        Raises:
            Refused: ``rate_limited`` (429) with ``retry_after``, the whole seconds until
                every key has room again.
        """
        buckets = self.buckets.get(kind)
        if buckets is None:
            return
        now = time.monotonic() if now is None else now
        named = [key for key in keys if key]
        wait = max((buckets.wait(key, now) for key in named), default=0.0)
        if wait > 0:
            raise _rate_limited(wait)
        for key in named:
            buckets.take(key, now)

    def give_back(self, kind: str, keys: Iterable[str | None], now: float | None = None
                  ) -> None:
        """Return the request of ``kind`` that :meth:`check` counted for ``keys`` when it
        was refused later for a fault of the server's (storage failed), so that the
        client is not held to a rate for requests nobody served."""
        buckets = self.buckets.get(kind)
        if buckets is None:
            return
        for key in keys:
            if key:
                buckets.give_back(key, now)


def _rate_limited(wait: float) -> Refused:
    """The refusal of a request that would pass in ``wait`` seconds."""
    seconds = max(1, math.ceil(wait))
    return Refused("rate_limited", "server.errors.rate_limited", status=429,
                   retry_after=seconds, seconds=seconds, count=seconds)


class Pace:
    """A token bucket that paces rather than refuses, safe to share between tasks:
    ``burst`` messages at once, then ``rate`` a second; each :meth:`reserve` takes a
    turn and says how long its message waits for it (turns queue up as a debt, so
    several connections waiting together still keep the rate)."""

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.clock = clock
        self.stamp = clock()

    def reserve(self) -> float:
        """Take one message's turn: the seconds to wait before handling it (0: none)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate) - 1
        self.stamp = now
        return -self.tokens / self.rate if self.tokens < 0 else 0.0


SEAT_CONNECTIONS = 8
"""Table websockets one seat may hold open at once (a person's phone, laptop and tabs)."""

WAITING_OVER_CAP = 8
"""Connections an address over its cap may hold open while they wait for their ``hello``
(each is admitted only if its ``hello`` opens a seat)."""

SEATED_PER_CAP = 4
"""Seated connections one address may hold open, as a multiple of its cap (the default
cap of 100: 400, fifty people behind one address with eight tabs each). Seats are cheap
(every table made gives one), so without it one address took every file the server
could open, seat by seat, and the site stopped answering anyone."""


@dataclass
class Place:
    """What one open table websocket is counted against: its address until its ``hello``
    opens a seat (and for as long as it watches), then that seat."""

    address: str
    key: str
    """The count it is in: the address, or ``"<table id>#<seat>"``."""
    over_cap: bool = False
    """Admitted while the address was full: it may only sit, never watch."""


class Sockets:
    """The table websockets each client address holds open, at most ``per_client`` at
    once (``None``: no cap), and those each seat holds, at most :data:`SEAT_CONNECTIONS`.

    The address is the one the rate limits use (``guards.client_address``: behind a
    trusted reverse proxy, the client it names). The cap is generous (a school class
    behind one NAT address fits) and only stops one address from holding thousands. A
    connection whose ``hello`` opens a seat leaves its address's count for its seat's:
    people behind one address (a venue's Wi-Fi, a household) share the cap on watching,
    so one of them holding the address's places must not keep another from their seat.
    An address at its cap may still open a few connections (:data:`WAITING_OVER_CAP`)
    that are admitted if their ``hello`` opens a seat; its seated connections together
    are capped too, at :data:`SEATED_PER_CAP` times its cap.
    """

    def __init__(self, per_client: int | None, pace: Rate | None = None) -> None:
        self.per_client = per_client
        self.open: Counter[str] = Counter()
        """Open connections by address, those not holding a seat (none: left out)."""
        self.seated: Counter[str] = Counter()
        """Open connections holding a seat, by ``"<table id>#<seat>"``."""
        self.seated_from: Counter[str] = Counter()
        """Open connections holding a seat, by address (at most :data:`SEATED_PER_CAP`
        times ``per_client``)."""
        self.waiting: Counter[str] = Counter()
        """Connections admitted over their address's cap, waiting for their ``hello``."""
        self.rate = pace
        """The messages of one address's (or seat's) connections together (``None``: not
        paced)."""
        self.paces: dict[str, Pace] = {}
        """The messages' pace each address or seat with open connections shares."""

    def enter(self, address: str) -> Place | None:
        """Count one more connection of ``address``: its :class:`Place` (``over_cap``
        when the address already holds :attr:`per_client`), or ``None`` (nothing
        counted) when it also has :data:`WAITING_OVER_CAP` such connections waiting.
        Each place must be given back with :meth:`leave` once that connection ends."""
        if self.per_client is not None and self.open[address] >= self.per_client:
            if self.waiting[address] >= WAITING_OVER_CAP:
                return None
            self.waiting[address] += 1
            return Place(address, address, over_cap=True)
        self._count(self.open, address)
        return Place(address, address)

    def sit(self, place: Place, table_id: str, seat: int) -> str | None:
        """Count ``place`` against ``seat`` of ``table_id`` from now on (its ``hello``
        opened that seat). Returns ``None``, or why nothing changed: ``"seat"`` when the
        seat already holds :data:`SEAT_CONNECTIONS` connections, ``"address"`` when the
        address holds :data:`SEATED_PER_CAP` times its cap of seated ones."""
        key = f"{table_id}#{seat}"
        if self.seated[key] >= SEAT_CONNECTIONS:
            return "seat"
        if (self.per_client is not None
                and self.seated_from[place.address] >= SEATED_PER_CAP * self.per_client):
            return "address"
        self._uncount(place)
        place.key, place.over_cap = key, False
        self._count(self.seated, key)
        self.seated_from[place.address] += 1
        return None

    def pace(self, place: Place) -> Pace | None:
        """The pace that the messages of every connection counted where ``place`` is
        share (one address or seat with many connections is handled at one's rate, not
        many), ``None`` when messages are not paced; only until :meth:`leave`."""
        return self.paces.get(place.key)

    def leave(self, place: Place) -> None:
        """Count the connection at ``place`` out (it ended)."""
        self._uncount(place)

    def _count(self, counts: Counter[str], key: str) -> None:
        counts[key] += 1
        if self.rate is not None and key not in self.paces:
            self.paces[key] = Pace(1 / self.rate.every, self.rate.burst)

    def _uncount(self, place: Place) -> None:
        if place.over_cap:
            counts, pace = self.waiting, False
        else:
            counts, pace = (self.open if place.key == place.address else self.seated), True
            if counts is self.seated:
                left_from = self.seated_from[place.address] - 1
                if left_from > 0:
                    self.seated_from[place.address] = left_from
                else:
                    del self.seated_from[place.address]
        left = counts[place.key] - 1
        if left > 0:
            counts[place.key] = left
            return
        del counts[place.key]
        if pace:
            self.paces.pop(place.key, None)


def secret_key(kind: str, secret: str | None) -> str | None:
    """A bucket key for a secret (host token, deck key) that does not keep the secret."""
    if not secret:
        return None
    return f"{kind}:" + hashlib.sha256(secret.encode()).hexdigest()[:32]
