"""A refused option names the rule it sets (DESIGN: every refusal cites its rule), and
the option as the player wrote it."""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pytest

from gametable.core import registry
from gametable.core.config import stored_options
from gametable.core.errors import ConfigError
from gametable.games.dixit.config import DixitConfig


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


@pytest.mark.parametrize(("game", "options", "seats"), [
    ("dixit", {"target_score": np.int64(20), "rounds_per_player": np.int32(2)}, 4),
    ("sequence-cats", {"sequences_to_win": np.int64(2), "teams": np.uint8(2)}, 6),
    ("triominos", {"rounds": np.int64(3)}, 2),
    ("triominos", {"target_score": np.int16(300),
                   "rules_version": np.int64(3)}, 3),
])
def test_numpy_integer_options_are_read_as_integers(game: str, options: dict[str, Any],
                                                    seats: int) -> None:
    """Options drawn from NumPy (seeds, arrays of settings) are whole numbers like any
    other: ``make_config`` takes them as ``int``, and the stored options are plain JSON."""
    config = registry.get(game).make_config(options, seats)
    for name, value in options.items():
        assert getattr(config, name) == int(value)
        assert type(getattr(config, name)) is int
    stored = stored_options(config)
    assert json.loads(json.dumps(stored)) == stored


def test_numpy_integers_inside_an_option_are_read_as_integers() -> None:
    layout = {"rows": np.int64(1), "columns": np.int64(2), "spaces": [["free", "free"]]}
    with pytest.raises(ConfigError) as error:  # the layout itself is refused, not its numbers
        registry.get("sequence-cats").make_config({"board": layout}, 2)
    assert "valid integer" not in str(error.value)


def test_a_numpy_number_that_is_not_whole_is_still_refused() -> None:
    with pytest.raises(ConfigError) as error:
        registry.get("triominos").make_config({"target_score": np.float64(300.5)}, 2)
    assert error.value.params["option"] == "target_score"


@pytest.mark.parametrize(("game", "options", "seats", "rule"), [
    ("sequence-cats", {"teams": 3.0}, 6, "SC-PLAY-1"),
    ("sequence-cats", {"teams": np.float64(2.0)}, 6, "SC-PLAY-1"),
    ("dixit", {"cards_in_play": 84.0}, 4, "DX-COMP-1"),
])
def test_a_float_among_whole_numbers_to_choose_from_is_refused(
        game: str, options: dict[str, Any], seats: int, rule: str) -> None:
    """A choice of whole numbers (``teams``: 2 or 3) compared by equality, so 3.0 was
    taken, where every other whole-number option refuses a float."""
    with pytest.raises(ConfigError) as error:
        registry.get(game).make_config(options, seats)
    assert error.value.rule == rule
    assert error.value.params["option"] == next(iter(options))
    assert error.value.params["problem"] == "whole_number"
    assert "must be a whole number" in str(error.value)


@pytest.mark.parametrize("game", ["dixit", "sequence-cats", "triominos"])
@pytest.mark.parametrize("seats", [4.0, "4", True, None])
def test_a_seat_count_that_is_not_a_whole_number_is_refused_at_once(game: str,
                                                                    seats: object) -> None:
    """``make_config({}, 4.0)`` was accepted and ``new_game`` then failed deep in the deal
    ("'float' object cannot be interpreted as an integer"); ``"4"`` was refused as "for
    3 to 12 players, not 4". Both calls say what a seat count is, showing the value."""
    rules = registry.get(game)
    with pytest.raises(TypeError, match=r"seats is a whole number of seats, such as 4, not "):
        rules.make_config({}, seats)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=re.escape(repr(seats))):
        rules.new_game({}, seats, 1)  # type: ignore[arg-type]
    assert rules.new_game({}, np.int64(4), 1) is not None  # type: ignore[arg-type]  # whole


@pytest.mark.parametrize("game", ["dixit", "sequence-cats", "triominos"])
def test_options_that_are_not_a_mapping_are_refused_with_what_they_should_be(game: str) -> None:
    """A JSON string of options failed with "dictionary update sequence element #0 has
    length 1; 2 is required"."""
    with pytest.raises(TypeError, match=r"options is a mapping of option names to values") \
            as error:
        registry.get(game).make_config("{}", 4)  # type: ignore[arg-type]
    # It named {'rounds': 3} as an example, an option Dixit and Sequence Cats do not have.
    # Then "describe()['options']", a key describe() does not have.
    assert "describe()['config_schema']" in str(error.value)
    assert "rounds" not in str(error.value)
    assert "properties" in registry.get(game).describe()["config_schema"]


@pytest.mark.parametrize("game", ["dixit", "sequence-cats", "triominos"])
def test_a_config_given_as_options_is_told_to_go_to_new_game(game: str) -> None:
    """make_config(config, seats), a config already made, was told "options is a
    mapping of option names to values (the game's describe()['options'] names them)"."""
    rules = registry.get(game)
    config = rules.make_config({}, 4)
    with pytest.raises(TypeError, match=re.escape(
            "options is a mapping of option names to values, not a config "
            f"({type(config).__name__}): a config make_config made goes to new_game as "
            "it is")):
        rules.make_config(config, 4)  # type: ignore[arg-type]
    assert rules.new_game(config, 4, 1) is not None


@pytest.mark.parametrize("other", ["sequence-cats", "triominos"])
def test_dixit_refuses_another_games_config_as_the_others_do(other: str) -> None:
    """Dixit's new_game raised pydantic's own ValidationError ("5 validation errors for
    Dixit … Extra inputs are not permitted") for a config of another game, where the
    other games say ConfigError naming an option they do not have."""
    dixit = registry.get("dixit")
    foreign = registry.get(other).make_config({}, 4)
    with pytest.raises(ConfigError) as refused:  # (Triominos' target_score: over 100)
        dixit.new_game(foreign, 4, 1)
    with pytest.raises(ConfigError) as made:
        dixit.make_config(foreign.model_dump(), 4)
    assert str(refused.value) == str(made.value)


def test_a_dixit_config_made_without_make_config_gets_its_decks_size() -> None:
    """new_game(DixitConfig(), 4, seed) said "DX-DECK-1: There is no deck called
    "default"", the deck being there: only its size had not been filled in."""
    dixit = registry.get("dixit")
    state = dixit.new_game(DixitConfig(), 4, 1)
    made = dixit.new_game(dixit.make_config({}, 4), 4, 1)
    assert dixit.view(state, 0) == dixit.view(made, 0)
