"""Bots registered by a test are gone after it (tests/conftest.py's ``bot_registry``)."""

from __future__ import annotations

from typing import Any

import pytest

from gametable.bots import UnknownBot, base, bot_names, make_bot, register_bot
from gametable.bots.greedy import GreedyBot
from gametable.bots.random_bot import RandomBot
from tests.bot_registry import bots_restored

BUILT_IN = ["easy", "medium", "hard", "greedy", "planner", "random", "rollout", "search",
            "semantic"]


def test_every_test_starts_with_the_package_players_alone() -> None:
    """Players registered by other tests (tests/bots/test_outside_bots.py registered
    its own as it was imported) stayed for the rest of the run: a ``PlaysAsAnother``
    warning listed "easy, medium, hard, badfactory, cautious, cheater, …" as playing
    Sequence Cats, and a test could pass only after another."""
    assert bot_names() == BUILT_IN
    assert all(base.bot_factory(name).__module__ in base.BUILTIN_BOTS
               for name in bot_names())


def test_the_registry_is_as_it_was_after_bots_are_registered() -> None:
    before = dict(base._FACTORIES), dict(base._PLAYS)

    def plays_nothing(game: Any) -> bool:
        return False

    with bots_restored():
        register_bot("left-behind", RandomBot, plays=plays_nothing)
        with pytest.warns(UserWarning, match="'greedy' now names RandomBot"):
            register_bot("greedy", RandomBot)
        register_bot("planner", base.bot_factory("planner"))  # type: ignore[arg-type]
        assert "left-behind" in bot_names() and "planner" in bot_names("dixit")
    assert (dict(base._FACTORIES), dict(base._PLAYS)) == before
    assert bot_names() == BUILT_IN and "planner" not in bot_names("dixit")
    assert isinstance(make_bot("greedy", "triominos", 0), GreedyBot)
    with pytest.raises(UnknownBot):
        make_bot("left-behind", "triominos", 0)
