"""Prometheus metrics of one server process (``GET /metrics``, text exposition format).

Each :class:`~gametable.server.tables.TableManager` has its own :class:`Metrics` in its
own registry, so two servers in one process (tests) never share figures. Names and
units (seconds, counts) follow Prometheus' conventions; ``docs/deploy.md`` lists them.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                   2.5, 5.0)
"""Histogram buckets in seconds, from half a millisecond (an action on SQLite) up."""
BOT_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The media type of :meth:`Metrics.render`."""


class Metrics:
    """The figures one server process exposes.

    Attributes:
        actions: actions received, by ``outcome`` (``accepted``, ``refused``) and, for
            refusals, their ``code`` (``illegal_action``, ``stale_version``, …).
        action_seconds: seconds from an action's arrival to the last client's update
            being queued (validation, storage, the views of every seat).
        storage_seconds: seconds an awaited storage write took (appends included).
        bot_seconds: seconds a computer player took to decide.
    """

    def __init__(self, tables: Callable[[], float], connections: Callable[[], float]
                 ) -> None:
        """``tables`` and ``connections`` count the open tables and the connected
        websocket clients when the figures are read."""
        self.registry = CollectorRegistry(auto_describe=True)
        self.actions = Counter("gametable_actions", "Actions received, by outcome.",
                               ["outcome", "code"], registry=self.registry)
        self.action_seconds = Histogram(
            "gametable_action_update_seconds",
            "Seconds from an action's arrival to the last update queued for the clients.",
            buckets=LATENCY_BUCKETS, registry=self.registry)
        self.storage_seconds = Histogram(
            "gametable_storage_write_seconds", "Seconds an awaited storage write took.",
            buckets=LATENCY_BUCKETS, registry=self.registry)
        self.bot_seconds = Histogram(
            "gametable_bot_decision_seconds", "Seconds a computer player took to decide.",
            buckets=BOT_BUCKETS, registry=self.registry)
        open_tables = Gauge("gametable_open_tables", "Tables held in memory.",
                            registry=self.registry)
        open_tables.set_function(tables)
        open_connections = Gauge("gametable_connections", "Connected websocket clients.",
                                 registry=self.registry)
        open_connections.set_function(connections)

    def accepted(self, seconds: float) -> None:
        """Count an applied, stored and broadcast action that took ``seconds``."""
        self.actions.labels("accepted", "").inc()
        self.action_seconds.observe(seconds)

    def refused(self, code: str) -> None:
        """Count a refused action (``code``: the refusal's code)."""
        self.actions.labels("refused", code).inc()

    def render(self) -> bytes:
        """Every figure in Prometheus' text format (:data:`CONTENT_TYPE`)."""
        return generate_latest(self.registry)
