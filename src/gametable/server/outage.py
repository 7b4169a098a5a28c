"""One log line per outage of a service the server needs, not one per failed attempt.

Periodic steps (lease renewals two or three times a second, computer players trying
their move again every few seconds) fail over and over while Redis or the database is
away; a line for each buried everything else in the log. :class:`Outage` logs the
first failure at once, one line a minute while the outage lasts (with how long and how
many attempts failed), and one when the service answers again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Final

OUTAGE_LOG_SECONDS: Final = 60.0
"""While a service does not answer, how often its failures are logged again (seconds)."""
MAX_TEMPLATES: Final = 1000
"""Message templates :class:`FewerRepeats` remembers before it starts afresh."""


class Outage:
    """The log of one service's outages (see the module docstring).

    Args:
        service: what does not answer, as the log names it (``"Redis at redis://…"``).
        log: the logger the lines go to.
        prefix: the lines' first word (``"cluster"``, ``"storage"``).
        stops: what waits while the service is away (``"its tables stop"``).
        every: seconds between the lines while the outage lasts.
        clock: monotonic seconds (for tests).
    """

    def __init__(self, service: str, *, log: logging.Logger, prefix: str,
                 stops: str, every: float = OUTAGE_LOG_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self.log = log
        self.prefix = prefix
        self.stops = stops
        self.every = every
        self.clock = clock
        self.since: float | None = None
        """When the outage began (``clock`` seconds), ``None`` while the service answers."""
        self._logged = 0.0
        self._failures = 0

    def lasted(self) -> float:
        """Seconds since the outage began (0.0 while the service answers)."""
        return 0.0 if self.since is None else self.clock() - self.since

    def failed(self, doing: str, error: BaseException | str) -> None:
        """Note that ``doing`` (``"leases not renewed"``) failed with ``error``."""
        now = self.clock()
        self._failures += 1
        if self.since is None:
            self.since = self._logged = now
            self.log.warning("%s: %s does not answer (%s): %s; %s until it does (logged "
                             "again every %.0f s while it lasts)", self.prefix,
                             self.service, doing, error, self.stops, self.every)
        elif now - self._logged >= self.every:
            self._logged = now
            self.log.warning("%s: %s still does not answer after %.0f s (%d attempts "
                             "failed): %s", self.prefix, self.service, now - self.since,
                             self._failures, error)

    def answered(self) -> None:
        """Note that the service answered; logs the end of an outage."""
        if self.since is None:
            return
        self.log.warning("%s: %s answers again, after %.0f s (%d attempts failed)",
                         self.prefix, self.service, self.clock() - self.since,
                         self._failures)
        self.since = None
        self._failures = 0


class FewerRepeats(logging.Filter):
    """A filter for a library's logger that logs each warning once, then at most once
    every ``every`` seconds with how many like it were left out: the PostgreSQL pool
    warns at every attempt to reconnect, several times a minute for as long as the
    database is away.

    Warnings are alike when their message templates are (``"error connecting in %r:
    %s"``), whatever their values.

    Args:
        every: seconds between two records of one template let through.
        clock: monotonic seconds (for tests).
    """

    def __init__(self, every: float = OUTAGE_LOG_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.every = every
        self.clock = clock
        self._seen: dict[str, tuple[float, int]] = {}
        """Per template: when one was last let through, and how many were left out since."""

    def filter(self, record: logging.LogRecord) -> bool:
        template = str(record.msg)
        now = self.clock()
        last = self._seen.get(template)
        if last is not None and now - last[0] < self.every:
            self._seen[template] = (last[0], last[1] + 1)
            return False
        if last is not None and last[1]:
            record.msg = (f"{record.getMessage()} ({last[1]} more like it in the last "
                          f"{now - last[0]:.0f} s)")
            record.args = ()
        if len(self._seen) >= MAX_TEMPLATES:
            self._seen.clear()
        self._seen[template] = (now, 0)
        return True
