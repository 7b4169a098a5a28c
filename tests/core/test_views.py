"""A view is read-only, and changing one anyway never changes the game (DESIGN
principle 2): its state's snapshot, outcome and legal actions stay as they were, and so
do the views of the states that follow.

Every registered game (and Dixit's Party and Team variants) is played at random; at
every step a seat's view (and a spectator's) is scribbled on throughout, every list and
object in it, as a careless bot or analysis script might.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gametable.core import registry

SETUPS = [("sequence-cats", 3, {}), ("triominos", 2, {}), ("dixit", 4, {}),
          ("dixit", 3, {}), ("dixit", 7, {}), ("dixit", 6, {"variant": "party"}),
          ("dixit", 6, {"variant": "team"})]
CLUE = {"type": "clue", "text": "A long way home"}


def scribble(value: Any) -> None:
    """Change every list and object inside ``value`` in place."""
    if isinstance(value, list):
        for item in value:
            scribble(item)
        value.append("scribbled")
        if len(value) > 1:
            value[0] = "scribbled"
    elif isinstance(value, dict):
        for item in list(value.values()):
            scribble(item)
        for key in list(value)[:2]:
            value[key] = "scribbled"
        value["scribbled"] = True


def frozen(game: Any, state: Any) -> str:
    return json.dumps([game.snapshot(state), repr(game.outcome(state))], sort_keys=True,
                      default=str)


@pytest.mark.parametrize(("name", "seats", "options"), SETUPS,
                         ids=[f"{n}-{s}-{o.get('variant', 'base')}" for n, s, o in SETUPS])
def test_scribbling_on_a_view_changes_nothing_in_the_game(
        name: str, seats: int, options: dict[str, Any]) -> None:
    game = registry.get(name)
    rng = random.Random(seats)
    state = game.new_game(game.make_config(options, seats), seats, 11)
    twin = game.clone(state)
    for _ in range(160):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        before = frozen(game, state)
        for seat in [*range(seats), None]:
            scribble(game.view(state, seat))
        assert frozen(game, state) == before, "a view shared the game's own objects"
        seat = rng.choice(acting)
        legal = game.legal_actions(state, seat)
        action = rng.choice(legal) if legal else CLUE
        game.apply(state, seat, action)
        game.apply(twin, seat, action)
        for look in [*range(seats), None]:
            assert game.view(state, look) == game.view(twin, look), \
                "a scribbled view changed what the next views show"


@pytest.mark.parametrize("game", ["dixit", "sequence-cats", "triominos"])
@pytest.mark.parametrize("seed", [-1, 2**63, "7", 1.0, True])
def test_a_seed_a_record_cannot_hold_is_refused(game: str, seed: object) -> None:
    """A game's seed is a whole number from 0 to 2**63 − 1 (what a record holds): −1 dealt
    the same game as 1, and strings and floats were taken."""
    rules = registry.get(game)
    with pytest.raises(ValueError, match="a seed is a whole number"):
        rules.new_game(rules.make_config({}, 3), 3, seed)  # type: ignore[arg-type]
