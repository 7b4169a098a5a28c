"""The registry of bot names as it was: what a test registers is gone after it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from gametable.bots import base


@contextmanager
def bots_restored() -> Iterator[None]:
    """Within it, bots may be registered (a built-in's name taken over too); after it
    the registry of bot names (:func:`gametable.bots.register_bot`) is as it was, so that
    no other test sees them."""
    base._load_builtin_bots()  # loaded once, never again: they are kept, not dropped
    factories, plays = dict(base._FACTORIES), dict(base._PLAYS)
    try:
        yield
    finally:
        base._FACTORIES.clear()
        base._FACTORIES.update(factories)
        base._PLAYS.clear()
        base._PLAYS.update(plays)
