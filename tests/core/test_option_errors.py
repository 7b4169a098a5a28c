"""A refused option names the rule it sets (DESIGN: every refusal cites its rule), and
the option as the player wrote it."""

from __future__ import annotations

from typing import Any

import pytest

from gametable.core import registry
from gametable.core.errors import ConfigError


@pytest.mark.parametrize(("game", "options", "seats", "rule", "option"), [
    ("dixit", {"variant": "team", "rounds_per_player": 11}, 6, "DX-PARTY-7",
     "rounds_per_player"),
    ("dixit", {"bonus_cap": "sometimes"}, 4, "DX-SCORE-3", "bonus_cap"),
    ("dixit", {"first_storyteller": "oldest"}, 4, "DX-SETUP-4", "first_storyteller"),
    ("sequence-cats", {"sequences_to_win": 0}, 2, "SC-WIN-2", "sequences_to_win"),
    ("triominos", {"extended_bridge": "yes"}, 2, "TR-BONUS-6", "extended_bridge"),
    ("triominos", {"rounds": 99}, 2, "TR-END-4", "rounds"),
])
def test_a_refused_option_cites_its_rule(game: str, options: dict[str, Any], seats: int,
                                         rule: str, option: str) -> None:
    with pytest.raises(ConfigError) as error:
        registry.get(game).make_config(options, seats)
    assert error.value.rule == rule
    assert error.value.params["option"] == option


def test_an_unknown_option_is_a_config_error_that_lists_the_options() -> None:
    """A misspelt option said "Extra inputs are not permitted" and left the player to
    find the right name: the game's options are listed (``rules_version``, kept for
    replaying old records, is not offered)."""
    with pytest.raises(ConfigError) as error:
        registry.get("dixit").make_config({"colour": "blue"}, 4)
    assert error.value.rule == "CONFIG" and error.value.params["option"] == "colour"
    with pytest.raises(ConfigError) as error:
        registry.get("sequence-cats").make_config({"sequence_to_win": 2}, 2)
    assert error.value.message("en") == (
        'There is no option "sequence_to_win". The options are: board, card_language, '
        "free_corners, sequences_to_win, teams.")
    assert "rules_version" not in error.value.params["options"]


@pytest.mark.parametrize("game", ["dixit", "sequence-cats", "triominos"])
def test_new_game_takes_a_mapping_of_options_or_says_to_make_a_config(game: str) -> None:
    """``new_game({"sequences_to_win": 1}, …)`` raised ``AttributeError: 'dict' object
    has no attribute 'model_dump'``: a mapping is validated as ``make_config`` does, and
    anything else is refused with a message that names ``make_config``."""
    engine = registry.get(game)
    seats = 4 if game == "dixit" else 2
    state = engine.new_game({}, seats, 5)
    expected = engine.new_game(engine.make_config({}, seats), seats, 5)
    assert engine.snapshot(state) == engine.snapshot(expected)
    with pytest.raises(ConfigError):
        engine.new_game({"no_such_option": 1}, seats, 5)
    with pytest.raises(TypeError, match="make_config"):
        engine.new_game(3, seats, 5)  # type: ignore[arg-type]
