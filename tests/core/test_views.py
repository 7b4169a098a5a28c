"""A view is read-only, and changing one anyway never changes the game (DESIGN
principle 2): its state's snapshot, outcome and legal actions stay as they were, and so
do the views of the states that follow.

Every registered game (and Dixit's Party and Team variants) is played at random; at
every step a seat's view (and a spectator's) is scribbled on throughout, every list and
object in it, as a careless bot or analysis script might.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable
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


def scribble_what_it_may(value: Any) -> None:
    """:func:`scribble` on everything in ``value`` that may be changed: the rules' frozen
    objects (shared actions, score lines' ``params``) refuse with ``TypeError``."""
    if isinstance(value, (list, dict)):
        try:
            scribble(value)
        except TypeError as refusal:
            assert "shared by the rules" in str(refusal)
            for item in list(value.values() if isinstance(value, dict) else value):
                scribble_what_it_may(item)
    elif hasattr(value, "params"):  # a score line
        scribble_what_it_may(value.params)


HANDED_OUT: list[tuple[str, int, dict[str, Any]]] = [
    *SETUPS, ("sequence-cats", 2, {"sequences_to_win": 2}), ("triominos", 3, {})]


@pytest.mark.parametrize(("name", "seats", "options"), HANDED_OUT,
                         ids=[f"{n}-{s}-{o.get('variant', o.get('sequences_to_win', ''))}"
                              for n, s, o in HANDED_OUT])
def test_scribbling_on_what_the_rules_hand_out_changes_nothing_in_the_game(
        name: str, seats: int, options: dict[str, Any]) -> None:
    """Snapshots, outcomes (their rounds and score lines), the events ``apply`` returns
    and legal actions are the caller's to read; a caller that changes them (a logger
    stamping events, an analysis editing score lines) never changes the game. Before,
    a Triominos outcome's rounds, a snapshot's lists, a round's start event and Sequence
    Cats' choice of five were the state's own: the round's end raised, a reveal hit a
    card that was not there, or a listed five could not be played."""
    game = registry.get(name)
    rng = random.Random(seats)
    state = game.new_game(game.make_config(options, seats), seats, 11)
    twin = game.clone(state)
    for _ in range(400):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        before = frozen(game, state)
        scribble_what_it_may(game.snapshot(state))
        outcome = game.outcome(state)
        scribble_what_it_may(outcome.rounds)
        scribble_what_it_may(outcome.scores)
        seat = rng.choice(acting)
        legal = game.legal_actions(state, seat)
        action = copy.deepcopy(rng.choice(legal)) if legal else CLUE
        scribble_what_it_may(game.legal_actions(state, seat))
        assert frozen(game, state) == before, "the rules handed out their own objects"
        assert game.legal_actions(state, seat) == legal
        scribble_what_it_may(game.apply(state, seat, copy.deepcopy(action)))
        game.apply(twin, seat, action)
        assert frozen(game, state) == frozen(game, twin)
        for look in [*range(seats), None]:
            assert game.view(state, look) == game.view(twin, look), \
                "a changed event or outcome changed what the next views show"


@pytest.mark.parametrize(("name", "seats", "options"), HANDED_OUT[:3] + HANDED_OUT[-2:])
def test_a_deep_copied_or_pickled_state_keeps_the_rules_shared_objects_frozen(
        name: str, seats: int, options: dict[str, Any]) -> None:
    """``copy.deepcopy`` and ``pickle`` (search code and process pools use them) give a
    state that plays on as the original, and whose legal actions refuse to be changed as
    the original's do. Before, a Sequence Cats copy handed out plain dicts shared by its
    later turns: one edit made it offer a play on a space that does not exist."""
    game = registry.get(name)
    rng = random.Random(5)
    state = game.new_game(game.make_config(options, seats), seats, 5)
    for _ in range(30):
        acting = sorted(game.to_act(state))
        game.apply(state, acting[0], rng.choice(game.legal_actions(state, acting[0])))
    start = game.clone(state)
    def pickled(state: Any) -> Any:
        return pickle.loads(pickle.dumps(state))

    copiers: list[Callable[[Any], Any]] = [copy.deepcopy, pickled]
    for make_copy in copiers:
        state = game.clone(start)
        other = make_copy(state)
        assert frozen(game, other) == frozen(game, state)
        seat = sorted(game.to_act(state))[0]
        legal = game.legal_actions(state, seat)
        theirs = game.legal_actions(other, seat)
        assert theirs == legal
        for mine, copied in zip(legal, theirs, strict=True):
            assert type(copied) is type(mine)
        scribble_what_it_may(theirs)
        assert game.legal_actions(other, seat) == legal
        for _ in range(20):
            acting = sorted(game.to_act(state))
            if not acting:
                break
            action = rng.choice(game.legal_actions(state, acting[0]))
            game.apply(state, acting[0], action)
            game.apply(other, acting[0], action)
        assert frozen(game, other) == frozen(game, state)


@pytest.mark.parametrize("game", ["dixit", "sequence-cats", "triominos"])
@pytest.mark.parametrize("seed", [-1, 2**63, "7", 1.0, True])
def test_a_seed_a_record_cannot_hold_is_refused(game: str, seed: object) -> None:
    """A game's seed is a whole number from 0 to 2**63 − 1 (what a record holds): −1 dealt
    the same game as 1, and strings and floats were taken."""
    rules = registry.get(game)
    with pytest.raises(ValueError, match="a seed is a whole number"):
        rules.new_game(rules.make_config({}, 3), 3, seed)  # type: ignore[arg-type]


def test_sequence_cats_choice_of_five_is_handed_out_frozen() -> None:
    """SC-WIN-2: the fives a seat may choose from are cached and handed out again, so
    they refuse to be changed (before, reordering one's spaces made the listed five
    unplayable: "E3, F4, G5, H6 is not one of the fives you can choose")."""
    game = registry.get("sequence-cats")
    rng = random.Random(2)
    state = game.new_game(game.make_config({"sequences_to_win": 2}, 2), 2, 1)
    while game.to_act(state):
        seat = rng.choice(sorted(game.to_act(state)))
        legal = game.legal_actions(state, seat)
        if any(action["type"] == "sequence" for action in legal):
            break
        game.apply(state, seat, rng.choice(legal))
    else:
        pytest.fail("the game never offered a choice of five")
    before = copy.deepcopy(legal)
    for action in legal:
        with pytest.raises(TypeError, match="shared by the rules"):
            action["spaces"].reverse()
        with pytest.raises(TypeError, match="shared by the rules"):
            action["spaces"] = []
    assert game.legal_actions(state, seat) == before
    game.apply(state, seat, before[0])
