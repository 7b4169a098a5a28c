"""Settings for the whole test suite: nothing may reach a model hub or a proxy,
property tests have no deadline, and the bots a test registers are gone after it."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.bot_registry import bots_restored

# Property tests check rules, not speed: on a loaded machine (other work on two cores)
# one example may take longer than Hypothesis's default deadline of 200 ms, which would
# fail a correct test. Speed is measured in benchmarks/.
settings.register_profile("gametable", deadline=None)
settings.load_profile("gametable")

OFFLINE = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
PROXIES = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")


def pytest_configure() -> None:
    os.environ.update(OFFLINE)
    for name in PROXIES:
        os.environ.pop(name, None)


@pytest.fixture(autouse=True)
def bot_registry() -> Iterator[None]:
    """Bots a test registers (``register_bot``) are gone after it, and a built-in name
    it took over is the built-in again: no test sees another's players, nor their names
    in a ``PlaysAsAnother`` warning's list of those that play a game."""
    with bots_restored():
        yield
