"""Outages of the services the server needs: logged once, not once per attempt
(``gametable.server.outage``)."""

from __future__ import annotations

import logging

import pytest

from gametable.server.outage import FewerRepeats, Outage

pytestmark = pytest.mark.server


def test_an_outage_is_logged_when_it_begins_each_minute_and_when_it_ends(
        caplog: pytest.LogCaptureFixture) -> None:
    """The sweeps ask Redis two or three times a second: a line each time buried the
    log. Now one line when it stops answering, one a minute while it lasts, one when it
    answers again."""
    now = [100.0]
    outage = Outage("Redis at redis://127.0.0.1:6379/0", log=logging.getLogger(
        "gametable.cluster"), prefix="cluster", stops="its tables stop", every=60,
        clock=lambda: now[0])
    caplog.set_level(logging.WARNING, logger="gametable.cluster")
    outage.answered()
    assert not caplog.records and outage.lasted() == 0.0
    for _ in range(150):  # 75 s of failed sweeps
        outage.failed("leases not renewed", ConnectionError("Connection refused"))
        now[0] += 0.5
    assert outage.lasted() == 75.0
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2, lines
    assert lines[0].startswith("cluster: Redis at redis://127.0.0.1:6379/0 does not "
                               "answer (leases not renewed): Connection refused; its "
                               "tables stop until it does")
    assert "still does not answer after 60 s (121 attempts failed)" in lines[1]
    outage.answered()
    outage.answered()
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 3 and "answers again, after 75 s (150 attempts failed)" in lines[2]
    assert outage.lasted() == 0.0
    outage.failed("cannot look for tables to take over", ConnectionError("reset"))
    assert "does not answer (cannot look" in caplog.records[-1].getMessage()


def test_a_librarys_repeated_warning_is_let_through_once_a_minute(
        caplog: pytest.LogCaptureFixture) -> None:
    """The PostgreSQL pool warned at each attempt to reconnect, 48 lines in a 75 s
    outage. Each warning now passes once, then once a minute with how many like it were
    left out; another warning passes at once."""
    now = [0.0]
    logger = logging.getLogger("tests.fewer_repeats")
    repeats = FewerRepeats(every=60, clock=lambda: now[0])
    logger.addFilter(repeats)
    try:
        caplog.set_level(logging.WARNING, logger="tests.fewer_repeats")
        for second in range(75):
            now[0] = float(second)
            logger.warning("error connecting in %r: %s", "gametable", f"refused {second}")
        logger.warning("reconnection attempt in pool %r failed after %s sec", "gametable", 10)
        lines = [record.getMessage() for record in caplog.records]
        assert lines == [
            "error connecting in 'gametable': refused 0",
            "error connecting in 'gametable': refused 60 (59 more like it in the last 60 s)",
            "reconnection attempt in pool 'gametable' failed after 10 sec"]
    finally:
        logger.removeFilter(repeats)
