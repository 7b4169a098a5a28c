"""Settings for the whole test suite: nothing may reach a model hub or a proxy, and
property tests have no deadline."""

from __future__ import annotations

import os

from hypothesis import settings

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
