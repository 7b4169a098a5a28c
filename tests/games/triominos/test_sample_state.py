"""Determinizations for search (``sample_state``): what a seat cannot see, dealt again."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gametable.core.protocol import SamplesHidden
from gametable.games.triominos import TRIOMINOS as GAME
from gametable.games.triominos.rules import _pressman_start
from gametable.games.triominos.state import TriominosState
from gametable.games.triominos.tiles import ALL_TILES, TILE_NUMBER
from tests.games.triominos.test_properties import random_game, seeds, setups


def hidden_shuffled(state: TriominosState, seat: int, seed: int) -> TriominosState:
    """``state`` with every tile ``seat`` cannot see (other hands, the pool) dealt again
    at random: the same view for ``seat``, different secrets."""
    other = GAME.clone(state)
    hidden = list(other.pool)
    for s, hand in enumerate(other.hands):
        if s != seat:
            hidden += [t for t in range(56) if hand >> t & 1]
    random.Random(seed).shuffle(hidden)
    for s, hand in enumerate(other.hands):
        if s != seat:
            mask = 0
            for _ in range(hand.bit_count()):
                mask |= 1 << hidden.pop()
            other.hands[s] = mask
    other.pool = hidden
    other.legal_cache = None
    other.public_view = None
    return other


def all_tiles(state: TriominosState) -> list[int]:
    """Every tile's count over the pool, the hands and the table (1 each when conserved)."""
    masks = [1 << t for t in state.pool] + list(state.hands) + \
        [1 << laid.tile for laid in state.layout.tiles.values()]
    return [sum(mask >> t & 1 for mask in masks) for t in range(56)]


def test_triominos_samples_hidden() -> None:
    assert isinstance(GAME, SamplesHidden)


@settings(max_examples=25, deadline=None)
@given(setups, seeds, st.integers(0, 2**32), st.integers(0, 2**32))
def test_tr_tile_1_sample_keeps_the_view_and_all_56_tiles(
        setup: tuple[int, dict[str, Any]], seed: int, choice: int, sample_seed: int) -> None:
    """The sampled state shows the seat exactly its view, holds each of the 56 tiles once
    (TR-TILE-1) and plays on like a real one."""
    seats, options = setup
    rng = random.Random(sample_seed)
    for number, (_, _, _, _, state) in enumerate(random_game(seats, options, seed, choice)):
        if number % 11:
            continue
        seat = rng.randrange(seats)
        view = GAME.view(state, seat)
        sample = GAME.sample_state(view, seat, rng)
        assert GAME.view(sample, seat) == view
        assert all_tiles(sample) == [1] * 56
        assert sample.hands[seat] == state.hands[seat]
        assert GAME.outcome(sample).scores == GAME.outcome(state).scores
        if seat == state.current:
            assert GAME.legal_actions(sample, seat) == GAME.legal_actions(state, seat)
        if GAME.to_act(sample):
            s = min(GAME.to_act(sample))
            GAME.apply(sample, s, GAME.legal_actions(sample, s)[-1])


def test_tr_setup_4_sample_keeps_the_pressman_starter() -> None:
    """Before a PRESSMAN round's first tile, every sample gives the starter the tile that
    made it start and nobody a higher one (TR-SETUP-4)."""
    for seed in range(12):
        state = GAME.new_game(GAME.make_config({"edition": "PRESSMAN"}, 3), 3, seed)
        seat = (state.starter + 1) % 3
        view = GAME.view(state, seat)
        rng = random.Random(seed)
        for _ in range(5):
            sample = GAME.sample_state(view, seat, rng)
            assert _pressman_start(sample.hands)[:2] == (state.starter, state.forced)
            assert sample.openings.keys() >= {TILE_NUMBER[view["forced"]]}


def test_sample_depends_on_the_view_only() -> None:
    """Two states that differ only in what seat 1 cannot see give the same samples."""
    state = GAME.new_game(GAME.make_config({}, 3), 3, seed=8)
    for _ in range(12):
        seat = min(GAME.to_act(state))
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    other = hidden_shuffled(state, 1, seed=2)
    assert other.hands != state.hands
    first = GAME.sample_state(GAME.view(state, 1), 1, random.Random(3))
    second = GAME.sample_state(GAME.view(other, 1), 1, random.Random(3))
    assert GAME.snapshot(first) == GAME.snapshot(second)


def test_samples_deal_the_unseen_tiles_at_random() -> None:
    state = GAME.new_game(GAME.make_config({}, 2), 2, seed=4)
    view = GAME.view(state, 0)
    rng = random.Random(0)
    samples = [GAME.sample_state(view, 0, rng) for _ in range(20)]
    assert len({s.hands[1] for s in samples}) == 20
    assert all(s.hands[0] == state.hands[0] for s in samples)
    assert all(s.hands[1] & s.hands[0] == 0 and s.hands[1] & ~ALL_TILES == 0 for s in samples)
