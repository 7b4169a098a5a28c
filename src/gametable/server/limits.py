"""Per-client limits: how often one client may create tables, join, upload or chat.

A client is named by its address and, where a request carries one, by its host token or
deck key (each is charged; a request passes only if all of them have room). Each kind of
request has a token bucket per client: ``burst`` requests at once, then one more every
``every`` seconds. A refused request is answered ``429`` with ``Retry-After`` (the
seconds until it would pass) and the translated ``rate_limited`` message.

Websocket connections are counted: :class:`Sockets` caps how many one client address may
hold open at once, and gives the address one :class:`Pace` (the ``messages`` rate) that
all its connections' messages share (each connection also keeps its own,
``socket.Throttle``).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from gametable.server.tables import Refused

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
            ValueError: not of that form, or not positive.
        """
        burst, _, every = text.partition("/")
        rate = cls(int(burst), float(every))
        if rate.burst < 1 or rate.every <= 0:
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

    def _forget_rested(self, now: float) -> None:
        rested = [k for k in self._buckets if self._tokens(k, now) >= self.rate.burst]
        for key in rested:
            del self._buckets[key]
        if len(self._buckets) >= self.max_clients:  # all busy: forget the oldest half
            oldest = sorted(self._buckets, key=lambda k: self._buckets[k][1])
            for key in oldest[: len(oldest) // 2]:
                del self._buckets[key]


class Limits:
    """The buckets of every limited kind of request (``None``: that kind is unlimited)."""

    def __init__(self, rates: dict[str, Rate | None]) -> None:
        self.buckets = {kind: Buckets(rate) for kind, rate in rates.items() if rate}

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
            seconds = max(1, math.ceil(wait))
            raise Refused("rate_limited", "server.errors.rate_limited", status=429,
                          retry_after=seconds, seconds=seconds)
        for key in named:
            buckets.take(key, now)


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


class Sockets:
    """The table websockets each client address holds open, at most ``per_client`` at
    once (``None``: no cap).

    The address is the one the rate limits use (``guards.client_address``: behind a
    trusted reverse proxy, the client it names). The cap is generous (a school class
    behind one NAT address fits) and only stops one address from holding thousands.
    """

    def __init__(self, per_client: int | None, pace: Rate | None = None) -> None:
        self.per_client = per_client
        self.open: Counter[str] = Counter()
        """Open connections by address (addresses with none are left out)."""
        self.rate = pace
        """The messages of one address's connections together (``None``: not paced)."""
        self.paces: dict[str, Pace] = {}
        """The messages' pace each address with open connections shares."""

    def enter(self, address: str) -> bool:
        """Count one more connection of ``address``; ``False`` (nothing counted) when it
        already holds :attr:`per_client`. Each ``True`` must be matched by one
        :meth:`leave` once that connection ends."""
        if self.per_client is not None and self.open[address] >= self.per_client:
            return False
        self.open[address] += 1
        if self.rate is not None and address not in self.paces:
            self.paces[address] = Pace(1 / self.rate.every, self.rate.burst)
        return True

    def pace(self, address: str) -> Pace | None:
        """The pace that the messages of every connection ``address`` holds share (one
        address with a hundred connections is handled at one address's rate, not a
        hundred), ``None`` when messages are not paced; only between :meth:`enter` and
        the matching :meth:`leave`."""
        return self.paces.get(address)

    def leave(self, address: str) -> None:
        """Count one connection of ``address`` out (it ended)."""
        left = self.open[address] - 1
        if left > 0:
            self.open[address] = left
        else:
            del self.open[address]
            self.paces.pop(address, None)


def secret_key(kind: str, secret: str | None) -> str | None:
    """A bucket key for a secret (host token, deck key) that does not keep the secret."""
    if not secret:
        return None
    return f"{kind}:" + hashlib.sha256(secret.encode()).hexdigest()[:32]
