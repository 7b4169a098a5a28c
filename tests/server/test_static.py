"""The browser client's files: hashed assets cached for a year and, where they compress,
sent gzipped to a browser that takes it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gametable.server.app import Settings, create_app
from gametable.server.static import accepts_gzip


@pytest.fixture
def client(tmp_path: Path) -> Iterator[tuple[TestClient, bytes]]:
    static = tmp_path / "dist"
    (static / "assets").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><div id=root></div>")
    script = b"console.log('a table for friends');\n" * 2000
    (static / "assets" / "index-abc123.js").write_bytes(script)
    (static / "assets" / "card-abc123.webp").write_bytes(b"RIFF....WEBP" + b"\0" * 500)
    app = create_app(Settings(data_dir=tmp_path / "data", bot_delay=0, static_dir=static,
                              rates={}))
    with TestClient(app) as test_client:
        yield test_client, script


def test_a_script_goes_gzipped_to_a_browser_that_takes_it(
        client: tuple[TestClient, bytes]) -> None:
    """536 KB of script went as it was: a phone on a slow network showed a blank page for
    17 s. A browser that accepts gzip gets it compressed (a fifth of the size here), the
    same bytes once unpacked; one that does not gets the file as it is."""
    test_client, script = client
    url = "/assets/index-abc123.js"
    packed = test_client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert packed.status_code == 200
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.headers["vary"] == "Accept-Encoding"
    assert packed.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert packed.headers["content-type"].startswith("text/javascript")
    assert int(packed.headers["content-length"]) < len(script) / 5
    assert packed.content == script  # unpacked by the client
    plain = test_client.get(url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == script
    assert int(plain.headers["content-length"]) == len(script)
    assert packed.headers.get("etag") != plain.headers.get("etag")
    # Pictures are compressed already: sent as they are.
    picture = test_client.get("/assets/card-abc123.webp",
                              headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in picture.headers


@pytest.mark.parametrize(("header", "takes"), [
    ("gzip", True), ("br, gzip;q=0.8", True), ("*", True), ("gzip;q=0", False),
    ("identity", False), ("deflate, br", False)])
def test_accept_encoding_is_read_as_browsers_write_it(header: str, takes: bool) -> None:
    scope = {"headers": [(b"accept-encoding", header.encode())]}
    assert accepts_gzip(scope) is takes
