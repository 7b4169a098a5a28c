"""Settings for every test: nothing may reach a model hub or a proxy."""

from __future__ import annotations

import os

OFFLINE = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
PROXIES = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")


def pytest_configure() -> None:
    os.environ.update(OFFLINE)
    for name in PROXIES:
        os.environ.pop(name, None)
