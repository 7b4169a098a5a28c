"""What the last play says about the hand of the player who made it (determinizations
for the ``hard`` player)."""

from __future__ import annotations

import random

import pytest

from gametable.bots.greedy import GreedyBot
from gametable.games.sequence_cats import SEQUENCE_CATS as GAME
from gametable.games.sequence_cats import inference
from gametable.games.sequence_cats.cards import CARD_NUMBER, MEOW, PURRR
from gametable.games.sequence_cats.state import SequenceCatsState
from tests.games.sequence_cats.helpers import breed_at, give, new, place, row


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_greedy_keeps_only_cards_that_kept_cards_allows(seats: int) -> None:
    """Over whole games of ``greedy`` seats, after every play the cards the player kept
    (its hand but the card it drew) are among :func:`inference.kept_cards` of the next
    seat's view: the inference never rules out a hand greedy could hold."""
    checked = 0
    for seed in range(6):
        state = new(seats, seed)
        players = [GreedyBot(GAME, random.Random(seed * 10 + s)) for s in range(seats)]
        while GAME.to_act(state):
            seat = min(GAME.to_act(state))
            action = players[seat].choose(GAME.view(state, seat),
                                          GAME.legal_actions(state, seat))
            before = list(state.hands[seat])
            GAME.apply(state, seat, action)
            if action["type"] != "play" or not GAME.to_act(state):
                continue
            kept = inference.kept_cards(GAME.view(state, state.current), state.board)
            if kept is None:
                continue
            before.remove(CARD_NUMBER[action["card"]])
            assert set(before) <= kept, (seed, state.turn)
            checked += 1
    assert checked > 100


def open_four_left_unblocked() -> tuple[SequenceCatsState, str]:
    """Seat 0 has four in a row with the fifth space empty; seat 1, holding no card for
    that space, plays elsewhere. Returns the state (seat 0 to move) and the empty space."""
    state = new(2, 3)
    line = row(state, 3, range(1, 6))
    place(state, {label: 0 for label in line[:4]})
    hole = line[4]
    far = row(state, 7, range(5, 10))
    cards = [breed_at(state, label) for label in far]
    give(state, 1, cards)
    state.current = 1
    GAME.apply(state, 1, {"type": "play", "card": cards[0], "space": far[0]})
    assert state.current == 0
    return state, hole


def test_an_open_four_left_unblocked_rules_out_its_cards() -> None:
    """A player who leaves an open four unblocked (``greedy`` blocks a four above all but
    a win) held neither of that space's breed cards, nor PURRR, nor MEOW."""
    state, hole = open_four_left_unblocked()
    kept = inference.kept_cards(GAME.view(state, 0), state.board)
    assert kept is not None
    assert CARD_NUMBER[breed_at(state, hole)] not in kept
    assert PURRR not in kept and MEOW not in kept
    assert len(kept) > 10  # many cards say nothing


def test_nothing_is_inferred_before_the_first_play() -> None:
    state = new(2, 1)
    assert GAME.view(state, 0)["last_play"] is None
    assert inference.kept_cards(GAME.view(state, 0), state.board) is None


def test_the_view_shows_the_last_play() -> None:
    state, _ = open_four_left_unblocked()
    last = GAME.view(state, None)["last_play"]
    assert last is not None and last["seat"] == 1 and last["team"] == 1
    assert breed_at(state, last["space"]) == last["card"]


def test_determinizations_mostly_deal_the_last_player_cards_it_may_have_kept() -> None:
    """In about :data:`inference.TRUST` of the deals, the last player's hidden hand holds
    no card ruled out but possibly the one it drew; the other deals are at random."""
    state, hole = open_four_left_unblocked()
    view = GAME.view(state, 0)
    ruled_out = {CARD_NUMBER[breed_at(state, hole)], PURRR, MEOW}
    rng = random.Random(5)
    holding = 0
    deals = 600
    for _ in range(deals):
        sample = GAME.sample_state(view, 0, rng)
        assert GAME.view(sample, 0) == view
        holding += any(card in ruled_out for card in sample.hands[1])
    # Six such cards are unseen (two of the breed, two PURRR, two MEOW): at random a
    # third of the hands would hold one (0.34); with the inference only the card drawn
    # after the play (6 in 78) and the untrusted quarter of the deals can (0.14).
    assert 0.07 < holding / deals < 0.22
