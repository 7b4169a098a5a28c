"""The deck library pointed at temporary folders."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import gametable.decks as library


@pytest.fixture
def decks_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Uploaded decks under ``tmp_path/data/decks``; bundled decks from ``tmp_path/bundled``."""
    bundled = tmp_path / "bundled"
    bundled.mkdir()
    monkeypatch.setattr(library, "BUNDLED_DIR", bundled)
    data = tmp_path / "data"
    library.configure(data)
    yield data
    library.configure(None)
