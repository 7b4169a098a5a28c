"""Property: whatever arrives at any route of the HTTP API (from its OpenAPI schema), the
answer is never a server error, and nothing raises out of the app (the test client
re-raises any exception a route let through, which a server would log as a traceback)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametable.server.app import Settings, create_app
from gametable.server.caps import Caps

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=20)
FIELDS = ["game", "config", "seats", "name", "seat", "bot", "kind", "sequences_to_win",
          "board", "teams", "deck", "variant", "edition", "card_language", "spaces"]
SEGMENT = st.one_of(
    st.sampled_from(["sequence-cats", "dixit", "triominos", "default", "0", "-1",
                     "99999999999999999999", "..", "%2e%2e", ""]),
    st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=40),
    st.text(alphabet="abcz09-", min_size=200, max_size=400))  # longer than a file name
GAMES = ["sequence-cats", "dixit", "triominos"]


def body_strategy() -> st.SearchStrategy[Any]:
    seat = st.fixed_dictionaries({}, optional={
        "kind": st.sampled_from(["human", "bot", "open", 3]), "bot": st.sampled_from(
            ["greedy", "random", "deep", None]), "name": st.text(max_size=50)})
    table = st.fixed_dictionaries({"game": st.sampled_from(GAMES) | st.text(max_size=10)},
                                  optional={
        "seats": st.lists(seat, max_size=14),
        "config": st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), JSON,
                                  max_size=4),
        "name": st.none() | st.text(max_size=60),
    })
    loose = st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), JSON, max_size=5)
    return table | loose | JSON


class Errors(logging.Handler):
    """Log records of level ERROR and above (a logged traceback, say)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


ERRORS = Errors()


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    logging.getLogger().addHandler(ERRORS)
    tmp: Path = tmp_path_factory.mktemp("fuzz")
    app = create_app(Settings(data_dir=tmp, bot_delay=0, static_dir=tmp / "none", rates={},
                              caps=Caps(waiting_per_client=None, bot_tables_per_client=None,
                                        bot_tables=None)))
    try:
        with TestClient(app) as client:
            yield client
    finally:
        logging.getLogger().removeHandler(ERRORS)


def operations(client: TestClient) -> list[tuple[str, str]]:
    schema = client.get("/api/openapi.json").json()
    return sorted((method.upper(), path) for path, item in schema["paths"].items()
                  for method in item)


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_no_request_gets_a_server_error(fuzz_client: TestClient, data: st.DataObject) -> None:
    method, template = data.draw(st.sampled_from(operations(fuzz_client)), label="route")
    path = re.sub(r"\{[^}]+\}", lambda _: quote(data.draw(SEGMENT, label="segment"),
                                                 safe="%"), template)
    query = data.draw(st.dictionaries(
        st.sampled_from(["size", "key", "table", "token", "x"]), st.text(max_size=300),
        max_size=3), label="query")
    headers = data.draw(st.dictionaries(
        st.sampled_from(["X-Host-Token", "X-Deck-Key", "Accept-Language"]),
        st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=300),
        max_size=2), label="headers")
    kind = data.draw(st.sampled_from(["json", "raw", "none"]), label="body kind")
    request: dict[str, Any] = {"params": query, "headers": headers}
    if method in ("POST", "PUT", "PATCH", "DELETE") and kind == "json":
        request["json"] = data.draw(body_strategy(), label="body")
    elif method in ("POST", "PUT", "PATCH") and kind == "raw":
        request["content"] = data.draw(st.binary(max_size=2000), label="raw body")
        request["headers"] = {**headers, "Content-Type": data.draw(st.sampled_from(
            ["application/json", "multipart/form-data; boundary=x", "text/plain"]))}
    response = fuzz_client.request(method, path, **request)
    assert response.status_code < 500, (method, path, response.text)
    assert not ERRORS.records, [ERRORS.format(r) for r in ERRORS.records]
    if response.headers.get("content-type", "").startswith("application/json") \
            and response.status_code >= 400:
        body = response.json()
        assert "Traceback" not in response.text
        assert isinstance(body, dict) and ("message" in body or "detail" in body)
