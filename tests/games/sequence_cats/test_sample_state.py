"""Determinizations for search (``sample_state``): what a seat cannot see, dealt again."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametable.core.protocol import SamplesHidden
from gametable.games.sequence_cats import SEQUENCE_CATS as GAME
from gametable.games.sequence_cats.cards import new_deck
from gametable.games.sequence_cats.state import SequenceCatsState
from tests.games.sequence_cats.test_properties import all_cards, random_game, seeds, setups


def hidden_shuffled(state: SequenceCatsState, seat: int, seed: int) -> SequenceCatsState:
    """``state`` with every card ``seat`` cannot see (other hands, the draw pile) dealt
    again at random: the same view for ``seat``, different secrets."""
    other = GAME.clone(state)
    hidden = list(other.pile)
    for s, hand in enumerate(other.hands):
        if s != seat:
            hidden += hand
    random.Random(seed).shuffle(hidden)
    for s, hand in enumerate(other.hands):
        if s != seat:
            other.hands[s] = [hidden.pop() for _ in hand]
    other.pile = hidden
    other.legal_cache = None
    return other


def test_sequence_cats_samples_hidden() -> None:
    assert isinstance(GAME, SamplesHidden)


@settings(max_examples=25, deadline=None)
@given(setups, seeds, st.integers(0, 2**32), st.integers(0, 2**32))
def test_sc_comp_3_sample_keeps_the_view_and_all_88_cards(
        setup: tuple[int, dict[str, Any]], seed: int, choice: int, sample_seed: int) -> None:
    """The sampled state shows the seat exactly its view, holds each of the 88 cards once
    (SC-COMP-3) and plays on like a real one."""
    seats, options = setup
    rng = random.Random(sample_seed)
    deck = Counter(new_deck())
    for number, (_, _, _, _, state) in enumerate(random_game(seats, options, seed, choice)):
        if number % 7:
            continue
        seat = rng.randrange(seats)
        view = GAME.view(state, seat)
        sample = GAME.sample_state(view, seat, rng)
        assert GAME.view(sample, seat) == view
        assert all_cards(sample) == deck
        assert sample.hands[seat] == state.hands[seat]
        assert GAME.to_act(sample) == GAME.to_act(state)
        for s in GAME.to_act(state):
            assert GAME.legal_actions(sample, s) == GAME.legal_actions(state, s) or s != seat
        if GAME.to_act(sample):
            s = min(GAME.to_act(sample))
            GAME.apply(sample, s, GAME.legal_actions(sample, s)[0])


def test_sample_depends_on_the_view_only() -> None:
    """Two states that differ only in what seat 0 cannot see give the same samples."""
    config = GAME.make_config({}, 3)
    state = GAME.new_game(config, 3, seed=11)
    for _ in range(9):
        seat = min(GAME.to_act(state))
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    other = hidden_shuffled(state, 0, seed=5)
    assert other.hands[1:] != state.hands[1:]
    first = GAME.sample_state(GAME.view(state, 0), 0, random.Random(3))
    second = GAME.sample_state(GAME.view(other, 0), 0, random.Random(3))
    assert GAME.snapshot(first) == GAME.snapshot(second)


def test_samples_deal_the_unseen_cards_at_random() -> None:
    """Other hands and the draw pile differ from sample to sample; the seat's hand and
    the discard piles never do."""
    state = GAME.new_game(GAME.make_config({}, 2), 2, seed=4)
    view = GAME.view(state, 1)
    rng = random.Random(0)
    samples = [GAME.sample_state(view, 1, rng) for _ in range(20)]
    assert len({tuple(s.hands[0]) for s in samples}) > 15
    assert all(s.hands[1] == state.hands[1] and s.discards == state.discards for s in samples)


def test_a_spectator_view_cannot_be_sampled() -> None:
    state = GAME.new_game(GAME.make_config({}, 2), 2, seed=4)
    try:
        GAME.sample_state(GAME.view(state, None), 0, random.Random(0))
    except ValueError:
        return
    raise AssertionError("a spectator view was sampled")


def test_a_view_of_another_seat_is_refused_saying_whose_it_is() -> None:
    """A determinization asked for seat 1 from seat 0's view said only "sample_state
    needs the seat's own view", not which view it had been given."""
    state = GAME.new_game(GAME.make_config({}, 2), 2, seed=4)
    for view, said in ((GAME.view(state, 0), "seat 0's"), (GAME.view(state, None),
                                                            "a spectator's")):
        with pytest.raises(ValueError) as refused:
            GAME.sample_state(view, 1, random.Random(0))
        assert str(refused.value) == ("sample_state needs seat 1's own view of "
                                      f"sequence-cats, view(state, 1); this is {said}")
