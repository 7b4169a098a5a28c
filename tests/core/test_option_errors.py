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


def test_an_unknown_option_is_a_config_error() -> None:
    with pytest.raises(ConfigError) as error:
        registry.get("dixit").make_config({"colour": "blue"}, 4)
    assert error.value.rule == "CONFIG" and error.value.params["option"] == "colour"
