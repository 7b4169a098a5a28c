"""Rollouts: many Sequence Cats games played on at once by ``greedy`` seats, in arrays."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametable.bots.greedy import GreedyBot
from gametable.games.sequence_cats import SEQUENCE_CATS as GAME
from gametable.games.sequence_cats import heuristics, rollouts
from gametable.games.sequence_cats.cards import CARD_NUMBER
from gametable.games.sequence_cats.state import SequenceCatsState
from tests.games.sequence_cats.helpers import breed_at, give, new, place


def advanced(seats: int, seed: int, turns: int, **options: object) -> SequenceCatsState:
    """A game after ``turns`` actions of ``greedy`` seats."""
    state = new(seats, seed, **options)
    players = [GreedyBot(GAME, random.Random(seed * 10 + s)) for s in range(seats)]
    for _ in range(turns):
        if not GAME.to_act(state):
            break
        seat = min(GAME.to_act(state))
        view = GAME.view(state, seat)
        GAME.apply(state, seat, players[seat].choose(view, GAME.legal_actions(state, seat)))
    return state


@settings(max_examples=40, deadline=None)
@given(seats=st.sampled_from([2, 3, 4, 6]), seed=st.integers(0, 10_000),
       turns=st.integers(0, 40), free_corners=st.booleans())
def test_rollouts_rate_moves_as_greedy_does(seats: int, seed: int, turns: int,
                                            free_corners: bool) -> None:
    """The rollouts' best card play is worth what ``greedy``'s ratings give the best
    ``play`` action (own lines, blocked lines, PURRR and MEOW costs)."""
    state = advanced(seats, seed, turns, free_corners=free_corners)
    seat = min(GAME.to_act(state), default=None)
    if seat is None or state.finished or not rollouts.supports(state):
        return
    legal = [a for a in GAME.legal_actions(state, seat) if a["type"] == "play"]
    if not legal:
        return
    expected = max(heuristics.rate_actions(GAME.view(state, seat), legal))
    assert rollouts.best_worth(state) == pytest.approx(expected)


def test_sc_win_1_a_seat_holding_the_fifth_space_wins_at_once() -> None:
    """SC-WIN-1: the seat to move holds the card for the last space of a four."""
    state = new()
    place(state, dict.fromkeys(["B1", "C1", "D1"], 0))  # A1 is a free corner
    give(state, 0, ["burmese", "manx", "bombay", "ragdoll", "korat"])  # E1: Burmese
    winners = rollouts.play_out([state] * 8, np.random.default_rng(1))
    assert winners.tolist() == [0] * 8


def test_sc_turn_2_a_move_is_played_before_the_rollout() -> None:
    """The move given is played (SC-TURN-2): the winning chip wins; a wasted card
    leaves the other seat, holding its own fifth space, to win."""
    state = new()
    place(state, dict.fromkeys(["B1", "C1", "D1"], 0))
    place(state, dict.fromkeys(["C8", "D8", "E8", "F8"], 1))
    give(state, 0, ["burmese", "manx", "bombay", "ragdoll", "korat"])  # E1: Burmese
    give(state, 1, [breed_at(state, "G8"), "abyssinian", "bengal", "birman", "somali"])
    index = state.board.index
    win = (CARD_NUMBER["burmese"], index["E1"])
    ragdoll = state.board.spaces_of[CARD_NUMBER["ragdoll"]][0]
    assert ragdoll not in (index["B8"], index["G8"])
    waste = (CARD_NUMBER["ragdoll"], ragdoll)
    winners = rollouts.play_moves([state] * 4, [win, waste], np.random.default_rng(2))
    assert winners[0].tolist() == [0] * 4
    assert winners[1].tolist() == [1] * 4


def test_the_states_are_not_changed() -> None:
    state = advanced(2, seed=5, turns=12)
    before = GAME.snapshot(state)
    rollouts.play_out([state, state], np.random.default_rng(3))
    assert GAME.snapshot(state) == before


def test_greedy_seats_in_rollouts_win_as_often_as_in_the_rules() -> None:
    """Whole games from the deal: the first seat's share of wins in rollouts lies within
    the sampling error of the same share in games played by the rules' ``greedy``."""
    states = [new(2, seed) for seed in range(400)]
    winners = rollouts.play_out(states, np.random.default_rng(4))
    rollout_first = float((winners == 0).mean())
    played_first = 0
    for seed in range(200):
        state = new(2, 10_000 + seed)
        players = [GreedyBot(GAME, random.Random(seed * 2 + s)) for s in range(2)]
        while GAME.to_act(state):
            seat = min(GAME.to_act(state))
            GAME.apply(state, seat, players[seat].choose(GAME.view(state, seat),
                                                         GAME.legal_actions(state, seat)))
        played_first += state.winner == 0
    assert abs(rollout_first - played_first / 200) < 0.13
    assert (winners != rollouts.UNFINISHED).mean() > 0.95


def test_two_sequences_to_win_are_not_rolled_out() -> None:
    """SC-WIN-2 with ``sequences_to_win`` 2 needs a choice of five: the game answers
    ``None`` and the bot searches instead."""
    state = new(2, 1, sequences_to_win=2)
    assert not rollouts.supports(state)
    view = GAME.view(state, 0)
    legal = GAME.legal_actions(state, 0)
    assert GAME.rollouts([state], 0, legal[:2], random.Random(0)) is None
    with pytest.raises(ValueError):
        rollouts.play_out([state], np.random.default_rng(0))
    assert view["sequences_to_win"] == 2
