"""Reading the other seat's hand from its public plays (``inference.HandReader``)."""

from __future__ import annotations

import random

from gametable.bots.greedy import GreedyBot
from gametable.bots.rollout import RolloutBot
from gametable.games.sequence_cats import SEQUENCE_CATS as GAME
from gametable.games.sequence_cats.cards import CARD_NUMBER, PURRR
from gametable.games.sequence_cats.inference import HandReader
from tests.games.sequence_cats.helpers import breed_at, give, new, place
from tests.games.sequence_cats.test_sample_state import hidden_shuffled


def test_a_card_that_would_have_blocked_a_four_is_read_as_not_held() -> None:
    """Seat 0 has four chips with one open end; seat 1 plays elsewhere: it is read as
    holding neither that end's breed nor a PURRR, and as likely as before to hold the
    others."""
    state = new()
    place(state, dict.fromkeys(["C3", "D3", "E3", "F3"], 0))
    place(state, {"B3": 1})
    give(state, 1, ["korat", "manx", "bombay", "ragdoll", "siamese"])
    state.current = 1
    legal = GAME.legal_actions(state, 1)
    play = next(a for a in legal if a["type"] == "play" and a["space"] != "G3")
    GAME.apply(state, 1, play)
    reader = HandReader(GAME, 0, sharpness=10.0)
    reader.observe(GAME.view(state, 0))
    weights = reader.weights(5)
    blocker = CARD_NUMBER[breed_at(state, "G3")]
    assert weights[blocker] < 0.5 * weights[CARD_NUMBER["manx"]]
    assert weights[PURRR] < 0.5 * weights[CARD_NUMBER["manx"]]
    # Seen again, the same play is not counted twice.
    reader.observe(GAME.view(state, 0))
    assert reader.weights(5) == weights
    deal = reader.sample_state(GAME.view(state, 0), 0, random.Random(1))
    assert sorted(deal.hands[1] + deal.pile) == sorted(state.hands[1] + state.pile)


def test_the_inferring_bot_never_reads_the_hidden_cards() -> None:
    """A whole game against ``greedy``: a second bot with the same seed, shown at every
    decision the view of a state whose hidden cards were dealt again, chooses the same;
    so the reader learns only from the views."""
    state = GAME.new_game(GAME.make_config({}, 2), 2, 7)
    first = RolloutBot(GAME, random.Random(3), seconds=None, deals=24, infer=10.0)
    second = RolloutBot(GAME, random.Random(3), seconds=None, deals=24, infer=10.0)
    greedy = GreedyBot(GAME, random.Random(4))
    decisions = 0
    while (to_act := GAME.to_act(state)) and decisions < 12:
        seat = min(to_act)
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        if seat == 0:
            other = hidden_shuffled(state, 0, seed=decisions)
            assert GAME.view(other, 0) == view
            action = first.choose(view, legal)
            assert second.choose(GAME.view(other, 0), GAME.legal_actions(other, 0)) == action
            decisions += 1
        else:
            action = greedy.choose(view, legal)
        GAME.apply(state, seat, action)
    assert first.reader is not None and first.reader.events
    assert first.reader.events == second.reader.events
