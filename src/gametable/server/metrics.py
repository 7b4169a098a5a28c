"""Prometheus metrics of one server process (``GET /metrics``, text exposition format).

Each :class:`~gametable.server.tables.TableManager` has its own :class:`Metrics` in its
own registry, so two servers in one process (tests) never share figures. Names and
units (seconds, counts) follow Prometheus' conventions; ``docs/deploy.md`` lists them.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Gauge,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.samples import Sample

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
                   2.5, 5.0)
"""Histogram buckets in seconds, from half a millisecond (an action on SQLite) up."""
BOT_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The media type of :meth:`Metrics.render`."""


class Histogram:
    """A histogram counted with plain numbers: :meth:`observe` is on every action's
    path, so it takes no lock and no label lookup (the event loop's thread is the only
    one that observes); the figures are read out when ``/metrics`` is asked for, in
    the form of ``prometheus_client``'s own histograms (``_bucket``, ``_count``,
    ``_sum``, ``_created``)."""

    def __init__(self, name: str, documentation: str, buckets: tuple[float, ...]) -> None:
        self.name = name
        self.documentation = documentation
        self.bounds = buckets
        self.counts = [0] * (len(buckets) + 1)  # the last one: above every bound
        self.sum = 0.0
        self.created = time.time()

    def observe(self, amount: float) -> None:
        """Count one observation (in seconds)."""
        self.counts[bisect_left(self.bounds, amount)] += 1
        self.sum += amount

    def family(self) -> Metric:
        """The figures so far, as a metric family."""
        cumulative, total = [], 0
        for bound, count in zip((*self.bounds, float("inf")), self.counts, strict=True):
            total += count
            cumulative.append((_bound(bound), total))
        family = HistogramMetricFamily(self.name, self.documentation, buckets=cumulative,
                                       sum_value=self.sum)
        family.samples.append(Sample(self.name + "_created", {}, self.created))
        return family


def _bound(bound: float) -> str:
    """A bucket's ``le`` label as ``prometheus_client`` writes it."""
    return "+Inf" if bound == float("inf") else repr(float(bound))


class Metrics:
    """The figures one server process exposes.

    Attributes:
        actions: actions received, by ``outcome`` (``accepted``, ``refused``), for
            refusals their ``code`` (``illegal_action``, ``stale_version``, …), and ``by``
            whom: ``person`` (a client) or ``computer`` (a computer player the server
            runs, whose refusals are mostly the benign race of Dixit's storyteller claim:
            every computer player claims, the first wins).
        action_seconds: seconds from an action's arrival to the last client's update
            being queued (validation, storage, the views of every seat).
        storage_seconds: seconds an awaited storage write took (appends included).
        bot_seconds: seconds a computer player took to decide.
        bot_failures: computer players' decisions that failed, by ``reason``
            (``raised``, ``timed_out``, ``busy``, ``refused``).
        refused_connections: table websockets closed at once because a cap was reached,
            by the refusal's ``code`` (``too_many_connections``: one address holds too
            many; ``too_many_watchers``: the table has too many spectators).
    """

    def __init__(self, tables: Callable[[], float], connections: Callable[[], float],
                 playing: Callable[[], float] | None = None) -> None:
        """``tables``, ``connections`` and ``playing`` count the tables in memory, the
        connected websocket clients and the tables in memory whose game is not over when
        the figures are read. The process's own figures (resident memory, open file
        descriptors, CPU seconds: ``process_*``; the Python version: ``python_info``)
        come with them."""
        self.registry = CollectorRegistry(auto_describe=True)
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        self.actions: dict[tuple[str, str, str], list[float]] = {}
        """``[count, created]`` by ``(outcome, code, by)``."""
        self.refused_connections: dict[str, list[float]] = {}
        """``[count, created]`` by refusal code."""
        self.bot_failures: dict[str, list[float]] = {}
        """``[count, created]`` by reason."""
        self.action_seconds = Histogram(
            "gametable_action_update_seconds",
            "Seconds from an action's arrival to the last update queued for the clients.",
            LATENCY_BUCKETS)
        self.storage_seconds = Histogram(
            "gametable_storage_write_seconds", "Seconds an awaited storage write took.",
            LATENCY_BUCKETS)
        self.bot_seconds = Histogram(
            "gametable_bot_decision_seconds", "Seconds a computer player took to decide.",
            BOT_BUCKETS)
        self.registry.register(_Collector(self))
        open_tables = Gauge("gametable_open_tables", "Tables held in memory.",
                            registry=self.registry)
        open_tables.set_function(tables)
        open_connections = Gauge("gametable_connections", "Connected websocket clients.",
                                 registry=self.registry)
        open_connections.set_function(connections)
        if playing is not None:
            in_play = Gauge("gametable_tables_in_play",
                            "Tables in memory whose game is not over.", registry=self.registry)
            in_play.set_function(playing)

    def accepted(self, seconds: float, *, by_bot: bool = False) -> None:
        """Count an applied, stored and broadcast action that took ``seconds`` (``by_bot``:
        a computer player's)."""
        self._count(("accepted", "", _by(by_bot)))
        self.action_seconds.observe(seconds)

    def refused(self, code: str, *, by_bot: bool = False) -> None:
        """Count a refused action (``code``: the refusal's code; ``by_bot``: a computer
        player's)."""
        self._count(("refused", code, _by(by_bot)))

    def refused_connection(self, code: str) -> None:
        """Count a websocket refused for a cap (``code``: the refusal's code)."""
        _count(self.refused_connections, code)

    def bot_failed(self, reason: str) -> None:
        """Count a computer player's failed decision (``reason``: ``raised``,
        ``timed_out``, ``busy`` or ``refused``; see :mod:`gametable.server.deciding`)."""
        _count(self.bot_failures, reason)

    def _count(self, labels: tuple[str, str, str]) -> None:
        _count(self.actions, labels)

    def render(self) -> bytes:
        """Every figure in Prometheus' text format (:data:`CONTENT_TYPE`)."""
        return generate_latest(self.registry)


def _by(by_bot: bool) -> str:
    """The ``by`` label of an action: ``computer`` or ``person``."""
    return "computer" if by_bot else "person"


def _count(counts: dict[Any, list[float]], labels: Any) -> None:
    """Count one more of ``labels`` in ``counts`` (``[count, created]`` each)."""
    counted = counts.get(labels)
    if counted is None:
        counts[labels] = [1, time.time()]
    else:
        counted[0] += 1


class _Collector:
    """Reads :class:`Metrics`' counts out for the registry."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def describe(self) -> list[Metric]:
        return list(self.collect())

    def collect(self) -> Iterator[Metric]:
        metrics = self.metrics
        actions = CounterMetricFamily(
            "gametable_actions", "Actions received, by outcome, refusal code and who sent them.",
            labels=["outcome", "code", "by"])
        for labels, (count, created) in list(metrics.actions.items()):
            actions.add_metric(labels, count, created=created)
        yield actions
        refused = CounterMetricFamily(
            "gametable_connections_refused",
            "Table websockets closed at once because a cap was reached, by refusal code.",
            labels=["code"])
        for code, (count, created) in list(metrics.refused_connections.items()):
            refused.add_metric([code], count, created=created)
        yield refused
        failures = CounterMetricFamily(
            "gametable_bot_failures",
            "Computer players' decisions that failed (the greedy player's move was played "
            "instead), by reason.", labels=["reason"])
        for reason, (count, created) in list(metrics.bot_failures.items()):
            failures.add_metric([reason], count, created=created)
        yield failures
        for histogram in (metrics.action_seconds, metrics.storage_seconds,
                          metrics.bot_seconds):
            yield histogram.family()
