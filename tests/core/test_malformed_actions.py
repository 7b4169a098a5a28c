"""Any JSON a client may send as an action is either applied or refused with
``IllegalAction``; a refusal leaves the state exactly as it was (DESIGN principle 2).

Every registered game, at the start and after some random play, gets actions built from
arbitrary JSON values: a ``type`` that is a list, an object, a number or an unknown
string, the game's own action types with arbitrary fields, and mutations of legal ones.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import numpy
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametable.core import registry
from gametable.core.errors import IllegalAction

SETUPS = {"sequence-cats": 3, "triominos": 2, "dixit": 4}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


def action_types(game_name: str) -> list[str]:
    game = registry.get(game_name)
    state = game.new_game(game.make_config({}, SETUPS[game_name]), SETUPS[game_name], 1)
    kinds = {"play", "place", "draw", "pass", "exchange", "sequence", "offer_draw",
             "accept_draw", "decline_draw", "clue", "give", "vote", "claim", "open_with"}
    for seat in range(SETUPS[game_name]):
        for action in game.legal_actions(state, seat):
            kinds.add(str(action.get("type")))
    return sorted(kinds)


def played(game_name: str, moves: int, seed: int) -> tuple[Any, Any]:
    """A game after ``moves`` random legal actions (fewer if it ends)."""
    game = registry.get(game_name)
    seats = SETUPS[game_name]
    state = game.new_game(game.make_config({}, seats), seats, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        seat = rng.choice(acting)
        legal = game.legal_actions(state, seat)
        if not legal:
            break
        game.apply(state, seat, rng.choice(legal))
    return game, state


@pytest.mark.parametrize("game_name", sorted(SETUPS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_json_action_is_applied_or_refused_without_a_trace(game_name: str,
                                                               data: st.DataObject) -> None:
    moves = data.draw(st.integers(0, 30), label="moves")
    game, state = played(game_name, moves, seed=moves)
    seats = SETUPS[game_name]
    seat = data.draw(st.sampled_from(sorted(game.to_act(state)) or [0]), label="seat")
    legal = game.legal_actions(state, seat)
    kind = data.draw(st.sampled_from(action_types(game_name)) | json_values, label="type")
    if legal and data.draw(st.booleans(), label="mutate a legal action"):
        action = dict(data.draw(st.sampled_from(legal), label="legal"))
        key = data.draw(st.sampled_from(sorted(action)), label="key")
        action[key] = data.draw(json_values, label="value")
    else:
        action = {"type": kind, **data.draw(st.dictionaries(
            st.sampled_from(["card", "space", "tile", "position", "rotation", "clue",
                             "seat", "cards", "spaces", "choice", "x"]),
            json_values, max_size=3), label="fields")}
    before = json.dumps(game.snapshot(state), sort_keys=True, default=str)
    try:
        game.apply(state, seat, action)
    except IllegalAction:
        after = json.dumps(game.snapshot(state), sort_keys=True, default=str)
        assert after == before, "a refused action changed the state"
    assert 0 <= seat < seats


@pytest.mark.parametrize("game_name", sorted(SETUPS))
def test_a_seat_that_is_not_a_whole_number_is_refused_and_changes_nothing(
        game_name: str) -> None:
    """``1.0``, ``"0"``, ``None`` or ``True`` as the seat: ``IllegalAction`` (PROTOCOL,
    no such seat), the state as it was (a Triominos draw by seat ``1.0`` used to take a
    tile from the pool before failing). A NumPy integer is a seat like any other, and
    what it produces stays JSON."""
    game = registry.get(game_name)
    seats = SETUPS[game_name]
    state = game.new_game(game.make_config({}, seats), seats, 3)
    (seat, *_) = sorted(game.to_act(state))
    before = json.dumps(game.snapshot(state), sort_keys=True)
    kinds = {str(action["type"]) for action in game.legal_actions(state, seat)}
    for kind in sorted(kinds | {"draw"}):
        for wrong in (float(seat), str(seat), None, bool(seat) or True, [seat]):
            with pytest.raises(IllegalAction) as refusal:
                game.apply(state, wrong, {"type": kind})  # type: ignore[arg-type]
            assert refusal.value.rule in ("PROTOCOL", "TR-DRAW-1") or "seat" in str(
                refusal.value), refusal.value
            assert json.dumps(game.snapshot(state), sort_keys=True) == before, (kind, wrong)
    action = game.legal_actions(state, seat)[0]
    events = game.apply(state, numpy.int64(seat), action)  # type: ignore[arg-type]
    json.dumps([events, game.snapshot(state), game.view(state, seat)])


def _refusal(game_name: str, seats: int, action_of: Any, seed: int = 3) -> str:
    """The English refusal of the action ``action_of(legal)`` builds from the acting
    seat's legal actions; the state is checked unchanged."""
    game = registry.get(game_name)
    state = game.new_game(game.make_config({}, seats), seats, seed)
    seat = min(game.to_act(state))
    if game_name == "dixit":  # to the clue: the storyteller claims the role first
        game.apply(state, seat, {"type": "claim"})
    legal = game.legal_actions(state, seat)
    before = json.dumps(game.snapshot(state), sort_keys=True)
    with pytest.raises(IllegalAction) as refusal:
        game.apply(state, seat, action_of(legal))
    assert json.dumps(game.snapshot(state), sort_keys=True) == before
    assert refusal.value.rule == "PROTOCOL"
    return str(refusal.value)


def _first(kind: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    return dict(next(action for action in legal if action["type"] == kind))


@pytest.mark.parametrize(("game_name", "seats", "change", "message"), [
    ("sequence-cats", 2, lambda a: {**_first("play", a), "space": "ZZ"},
     '"ZZ" is not a valid "space" for the "play" action.'),
    # A value is shown as the JSON it was: a number without quotes (5 read as "5",
    # a string that was never sent).
    ("sequence-cats", 2, lambda a: {**_first("play", a), "card": 7},
     '7 is not a valid "card" for the "play" action.'),
    ("sequence-cats", 2, lambda a: {**_first("play", a), "space": 5},
     '5 is not a valid "space" for the "play" action.'),
    ("sequence-cats", 2, lambda a: {"type": "play", "card": _first("play", a)["card"]},
     'The "play" action needs the field "space".'),
    ("sequence-cats", 2, lambda a: {**_first("play", a), "x": 1},
     'The "play" action has no field "x"; its fields are "type", "card", "space".'),
    ("sequence-cats", 2, lambda a: {"type": "pass", "why": "tired"},
     'The "pass" action has no field "why"; its fields are "type".'),
    # The tile turned: its numbers read clockwise from another corner (reversed, three
    # different numbers would be its mirror image, no tile of the set: TR-TILE-1).
    ("triominos", 2, lambda a: {**_first("place", a), "tile": "-".join(
        _first("place", a)["tile"].split("-")[1:] + _first("place", a)["tile"].split("-")[:1])},
     "A tile's numbers are written smallest first: "),
    ("triominos", 2, lambda a: {k: v for k, v in _first("place", a).items()
                                if k != "rotation"},
     'The "place" action needs the field "rotation".'),
    ("triominos", 2, lambda a: {**_first("place", a), "position": "middle"},
     '"middle" is not a valid "position" for the "place" action.'),
    ("triominos", 2, lambda a: {**_first("place", a), "tile": "9-9-9"},
     '"9-9-9" is not a valid "tile" for the "place" action.'),
    ("dixit", 4, lambda a: {**_first("clue", a), "card": "the cat"},
     '"the cat" is not a valid "card" for the "clue" action.'),
    ("dixit", 4, lambda a: {**_first("clue", a), "text": ["a", "list"]},
     '["a", "list"] is not a valid "text" for the "clue" action.'),
    ("dixit", 4, lambda a: {"type": "clue", "text": "Midsummer"},
     'The "clue" action needs the field "card".'),
    # (It said 'needs a "slots"'.)
    ("dixit", 4, lambda a: {"type": "vote", "slot": 1},
     'The "vote" action needs the field "slots".'),
    # Python values that are no JSON: the type named, and what to give instead (the
    # value was shown as if it were wrong: '"[0, 0]" is not a valid "position"').
    ("triominos", 2, lambda a: {**_first("place", a),
                                "position": tuple(_first("place", a)["position"])},
     '"position" of the "place" action holds a Python tuple ((0, 0)): an action holds JSON '
     'values only (a list, not a tuple; a plain int or float, not a NumPy number).'),
    ("triominos", 2, lambda a: {**_first("place", a), "rotation": numpy.int64(0)},
     '"rotation" of the "place" action holds a Python numpy.int64 ('),
    ("dixit", 4, lambda a: {**_first("clue", a),
                            "card": numpy.int64(_first("clue", a)["card"])},
     '"card" of the "clue" action holds a Python numpy.int64 ('),
    ("dixit", 4, lambda a: {**_first("clue", a), "text": ("a", "tuple")},
     '"text" of the "clue" action holds a Python tuple (('),
])
def test_a_malformed_action_is_refused_naming_what_is_wrong(
        game_name: str, seats: int, change: Any, message: str) -> None:
    """Not "That action is not well formed" for everything: the field missing, the one
    too many (with the fields the action takes) or the value that names nothing."""
    text = _refusal(game_name, seats, change)
    assert text.startswith("PROTOCOL: " + message), text


@pytest.mark.parametrize("game_name", sorted(SETUPS))
def test_a_view_or_legal_actions_of_a_seat_not_at_the_table_is_refused(
        game_name: str) -> None:
    """Seat 5 at a table of 2–4 (a seat numbered from 1 by mistake, say) used to get a
    spectator's view and no legal actions, which a bot could take for a real seat's;
    ``None`` is still the spectator. A seat that is not a whole number says so ("0" was
    told "There is no seat 0")."""
    game = registry.get(game_name)
    seats = SETUPS[game_name]
    state = game.new_game(game.make_config({}, seats), seats, 3)
    for wrong in (seats, -1):
        with pytest.raises(IllegalAction, match=f"There is no seat {wrong} at a table"):
            game.view(state, wrong)
        with pytest.raises(IllegalAction, match="There is no seat"):
            game.legal_actions(state, wrong)
    not_whole: list[tuple[object, str]] = [("0", "'0'"), (1.0, "1.0"), (True, "True")]
    for odd, shown in not_whole:
        expected = f"A seat is a whole number from 0 to {seats - 1}, not {shown}."
        with pytest.raises(IllegalAction, match=re.escape(expected)):
            game.view(state, odd)  # type: ignore[arg-type]
        with pytest.raises(IllegalAction, match=re.escape(expected)):
            game.legal_actions(state, odd)  # type: ignore[arg-type]
    assert "hand" not in game.view(state, None)  # the spectator's
    for seat in range(seats):
        game.view(state, seat)
        game.legal_actions(state, seat)


@pytest.mark.parametrize("game_name", sorted(SETUPS))
def test_a_refusal_repeats_a_huge_text_cut_short(game_name: str) -> None:
    """An action whose type holds a megabyte of text is refused in a line: the text is
    cut to 200 characters in the message and its parameters (it was repeated whole)."""
    text = _refusal(game_name, SETUPS[game_name], lambda a: {"type": "x" * 10**6})
    assert text.startswith('PROTOCOL: There is no action of type "xxx')
    assert "x…" in text and len(text) < 400, len(text)


@pytest.mark.parametrize(("game_name", "types"), [
    ("sequence-cats", ["play", "exchange", "sequence", "offer_draw", "accept_draw",
                       "decline_draw", "pass"]),
    ("triominos", ["place", "draw", "pass"]),
    ("dixit", ["claim", "clue", "giver", "submit", "take_back", "vote"]),
])
def test_an_unknown_action_type_is_told_the_games_action_types(
        game_name: str, types: list[str]) -> None:
    """A Triominos ``{"type": "play"}`` was told only "There is no action of type "play"
    in this game", not which types there are (those of docs/<game>.md, "Actions")."""
    game = registry.get(game_name)
    seats = SETUPS[game_name]
    state = game.new_game(game.make_config({}, seats), seats, 1)
    seat = min(game.to_act(state))
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, seat, {"type": "move"})
    listed = ", ".join(f'"{kind}"' for kind in types)
    assert str(refused.value) == (f'PROTOCOL: There is no action of type "move" in this '
                                  f"game; its actions are {listed}.")
    assert refused.value.params["types"] == listed
    for kind in types:  # each is one the game takes (refused here for another reason)
        try:
            game.apply(game.clone(state), seat, {"type": kind})
        except IllegalAction as error:
            assert error.key != "errors.unknown_action", kind
