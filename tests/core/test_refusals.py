"""A refusal tells a seat nothing its view does not (DESIGN principle 2: ``view`` is the
only road from a state to a player or a bot).

Sequence Cats and Triominos are played at random; at every step each seat tries actions
naming every card or tile of the game (its own, other hands', the pile's, the discards')
on the spaces and places around, and draws, passes and draw offers. What the rules
answer (the refusal's rule, message key and parameters, or the first event of an
accepted action: the seat's own), and the seat's legal actions, must be the same in
states dealt from the seat's view (``sample_state``, the hidden cards dealt anew) as in
the real one. Dixit's are in ``tests/games/dixit/test_properties.py``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gametable.core import registry
from gametable.core.errors import IllegalAction
from gametable.core.protocol import SamplesHidden
from gametable.games.sequence_cats.cards import CARD_IDS
from gametable.games.triominos.tiles import TILE_IDS

SPACES = ["A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8", "J10", "A10", "J1", "E6"]
PLACES = [[0, 0], [0, 1], [0, -1], [1, 0], [-1, 0], [0, 2]]


def probes(game: str) -> list[dict[str, Any]]:
    if game == "sequence-cats":
        return [{"type": kind} for kind in ("pass", "offer_draw", "accept_draw",
                                            "decline_draw")] + [
            {"type": "sequence", "spaces": ["A2", "A3", "A4", "A5", "A6"]},
            *({"type": "exchange", "card": card} for card in CARD_IDS),
            *({"type": "play", "card": card, "space": space}
              for card in CARD_IDS for space in SPACES)]
    return [{"type": "draw"}, {"type": "pass"},
            *({"type": "place", "tile": tile, "position": place, "rotation": rotation}
              for tile in TILE_IDS for place in PLACES for rotation in (0, 2))]


def answer(game: Any, state: Any, seat: int, action: dict[str, Any]) -> Any:
    """The refusal (rule, key, parameters), or the first event: the seat's own move
    (what follows it, such as the next seat's automatic steps, is everyone's to see)."""
    try:
        events = game.apply(game.clone(state), seat, action)
    except IllegalAction as error:
        return error.rule, error.key, error.params
    return events[:1]


@pytest.mark.parametrize(("name", "seats", "options"), [
    ("sequence-cats", 2, {}), ("sequence-cats", 3, {}),
    ("triominos", 2, {}), ("triominos", 3, {"edition": "PRESSMAN"}),
])
def test_refusals_and_legal_actions_are_the_same_in_every_deal_the_view_allows(
        name: str, seats: int, options: dict[str, Any]) -> None:
    """SC-TURN-2, SC-DEAD-1, SC-MEOW-1/2, SC-WIN-3, TR-PLACE-1..3, TR-DRAW-1..3,
    TR-SETUP-3/4: the answers depend on the seat's own hand and the public table only."""
    game = registry.get(name)
    assert isinstance(game, SamplesHidden)
    actions = probes(name)
    for seed in (1, 2):
        state = game.new_game(game.make_config(options, seats), seats, seed)
        chooser, dealer = random.Random(seed), random.Random(-seed)
        for step in range(60):
            if not game.to_act(state):
                break
            if step % 4 == 0:
                for seat in range(seats):
                    view = game.view(state, seat)
                    deals = [game.sample_state(view, seat, dealer) for _ in range(2)]
                    legal = game.legal_actions(state, seat)
                    answers = [answer(game, state, seat, action) for action in actions]
                    for deal in deals:
                        assert game.view(deal, seat) == view
                        assert game.legal_actions(deal, seat) == legal
                        assert [answer(game, deal, seat, action)
                                for action in actions] == answers
            seat = chooser.choice(sorted(game.to_act(state)))
            game.apply(state, seat, dict(chooser.choice(game.legal_actions(state, seat))))
