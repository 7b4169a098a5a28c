"""Upload quotas: how much one client may make the server do with deck uploads.

A client is its network address (an IPv6 address counts by its /64 network, which one
household or machine usually holds whole) and, where the request carries them, each of
its deck owner keys (``X-Deck-Key``). Every upload is charged to each of these, and
refused when any of them has used up its share of:

- ``decks`` made, ``cards`` (pictures) prepared, ``megabytes`` received and
  ``cpu_seconds`` spent preparing pictures, each per ``minutes`` (a token bucket: the
  share refills evenly over that time), refused with 429 and ``Retry-After``;
- uploads running at once (``at_once``), refused with 409.

Bytes are charged as they arrive, pictures and CPU time as each picture is prepared, so
an upload stops as soon as its client's share runs out (and leaves nothing behind).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields

from gametable.decks.images import DeckRefused
from gametable.decks.uploads import owner_hash
from gametable.server.guards import client_network

RESOURCES = ("decks", "cards", "megabytes", "cpu_seconds")
"""What is counted, by the name of its :class:`UploadQuota` field."""
_CODES = {"decks": "quota_decks", "cards": "quota_cards", "megabytes": "quota_bytes",
          "cpu_seconds": "quota_cpu"}
MAX_CLIENTS = 10_000
"""Clients remembered before those with a full share are forgotten."""


@dataclass(frozen=True)
class UploadQuota:
    """One client's share of deck uploads (``gametable serve --upload-quota``).

    Attributes:
        decks: decks made per ``minutes``.
        cards: pictures prepared per ``minutes`` (a deck holds at most 500).
        megabytes: megabytes received per ``minutes``.
        cpu_seconds: CPU seconds spent preparing pictures per ``minutes``.
        minutes: the time over which each share refills.
        at_once: uploads of one client being received or prepared at once.
    """

    decks: int = 20
    cards: int = 2000
    megabytes: int = 1000
    cpu_seconds: float = 300.0
    minutes: float = 60.0
    at_once: int = 1

    @classmethod
    def parse(cls, text: str) -> UploadQuota:
        """A quota from ``"decks=20,cards=2000,megabytes=1000,cpu-seconds=300,minutes=60,
        at-once=1"`` (any of them; the others keep their defaults).

        Raises:
            ValueError: an unknown name or a value that is not a positive number.
        """
        known = {field.name: field.type for field in fields(cls)}
        values: dict[str, float | int] = {}
        for part in text.split(","):
            if not part.strip():
                continue
            name, _, raw = part.partition("=")
            name = name.strip().replace("-", "_")
            if name not in known:
                raise ValueError(f"unknown upload quota {name!r}; use "
                                 + ", ".join(n.replace("_", "-") for n in known))
            try:
                value = float(raw) if known[name] == "float" else int(raw)
            except ValueError:
                raise ValueError(f"upload quota {name}: {raw.strip()!r} is not a number") \
                    from None
            if not (math.isfinite(value) and value > 0):  # (nan is no positive number)
                raise ValueError(f"upload quota {name} must be a positive number, not "
                                 f"{raw.strip()!r}")
            values[name] = value
        return cls(**values)  # type: ignore[arg-type]

    def share(self, resource: str) -> float:
        """The share of ``resource`` (one of :data:`RESOURCES`) per :attr:`minutes`."""
        return float(getattr(self, resource))


class _Bucket:
    """A share that refills evenly: ``level`` out of ``capacity`` at ``stamp``."""

    __slots__ = ("capacity", "level", "rate", "stamp")

    def __init__(self, capacity: float, per_second: float, now: float) -> None:
        self.capacity = capacity
        self.rate = per_second
        self.level = capacity
        self.stamp = now

    def refill(self, now: float) -> float:
        self.level = min(self.capacity, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.level

    def wait(self, need: float) -> float:
        """Seconds until the level reaches ``need`` (after :meth:`refill`)."""
        return max(0.0, (need - self.level) / self.rate)


class UploadQuotas:
    """The shares of every client, and their running uploads (thread-safe: pictures are
    prepared in worker threads).

    Args:
        quota: each client's share.
        clock: seconds, monotonic (for tests).
    """

    def __init__(self, quota: UploadQuota | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.quota = quota or UploadQuota()
        self.clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[tuple[str, str], _Bucket] = {}
        self._running: dict[str, int] = {}

    @staticmethod
    def clients(address: str | None, keys: Sequence[str] = ()) -> list[str]:
        """Who an upload is charged to: its address (IPv6 by its /64 network) and each
        owner key (by its hash)."""
        found: list[str] = []
        if address:
            found.append(f"address:{client_network(address)[:100]}")
        for key in keys:
            if key:
                found.append(f"key:{owner_hash(key)[:32]}")
        return list(dict.fromkeys(found))

    def begin(self, clients: Sequence[str]) -> None:
        """Start an upload for ``clients``.

        Raises:
            DeckRefused: ``upload_busy`` (409) while one of them has :attr:`UploadQuota.at_once`
                uploads running; ``quota_*`` (429, with ``retry_after``) when one of them
                has used up a share (a deck needs a whole one).
        """
        with self._lock:
            if any(self._running.get(client, 0) >= self.quota.at_once for client in clients):
                raise DeckRefused("upload_busy", status=409)
            now = self.clock()
            for resource in RESOURCES:
                need = 1.0 if resource in ("decks", "cards") else 1e-9
                self._check(clients, resource, need, now)
            for client in clients:
                self._running[client] = self._running.get(client, 0) + 1

    def end(self, clients: Sequence[str]) -> None:
        """The upload of ``clients`` is over (made, refused or abandoned)."""
        with self._lock:
            for client in clients:
                left = self._running.get(client, 0) - 1
                if left > 0:
                    self._running[client] = left
                else:
                    self._running.pop(client, None)

    def charge(self, clients: Sequence[str], resource: str, amount: float, *,
               refuse: bool = True) -> None:
        """Count ``amount`` of ``resource`` against each of ``clients``.

        Raises:
            DeckRefused: ``quota_*`` (429) when a share is overdrawn by it (unless
                ``refuse`` is false: for what is done already).
        """
        with self._lock:
            now = self.clock()
            for client in clients:
                bucket = self._bucket(client, resource, now)
                bucket.refill(now)
                bucket.level -= amount
            if refuse:
                self._check(clients, resource, 0.0, now)

    def _check(self, clients: Sequence[str], resource: str, need: float, now: float) -> None:
        wait = 0.0
        for client in clients:
            bucket = self._buckets.get((client, resource))
            if bucket is not None and bucket.refill(now) < need:
                wait = max(wait, bucket.wait(need))
        if wait > 0:
            retry = max(1, math.ceil(wait))
            share = self.quota.share(resource)
            raise DeckRefused(_CODES[resource], status=429, retry_after=retry,
                              limit=int(share) if share == int(share) else share,
                              window=_number(self.quota.minutes),
                              minutes=max(1, math.ceil(retry / 60)))

    def _bucket(self, client: str, resource: str, now: float) -> _Bucket:
        bucket = self._buckets.get((client, resource))
        if bucket is None:
            if len(self._buckets) >= MAX_CLIENTS * len(RESOURCES):
                self._forget_full(now)
            share = self.quota.share(resource)
            bucket = _Bucket(share, share / (self.quota.minutes * 60), now)
            self._buckets[(client, resource)] = bucket
        return bucket

    def _forget_full(self, now: float) -> None:
        for key, bucket in list(self._buckets.items()):
            if bucket.refill(now) >= bucket.capacity and key[0] not in self._running:
                del self._buckets[key]


def _number(value: float) -> int | float:
    return int(value) if value == int(value) else value
