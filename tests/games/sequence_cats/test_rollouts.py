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


def first_seat_share(games: int, first_seed: int, **options: object) -> float:
    """The first seat's share of wins in ``games`` 2-seat games the rules play between
    ``greedy`` seats, dealt from seeds ``first_seed`` on."""
    won = 0
    for seed in range(games):
        state = new(2, first_seed + seed, **options)
        players = [GreedyBot(GAME, random.Random(seed * 2 + s)) for s in range(2)]
        while GAME.to_act(state):
            seat = min(GAME.to_act(state))
            GAME.apply(state, seat, players[seat].choose(GAME.view(state, seat),
                                                         GAME.legal_actions(state, seat)))
        won += state.winner == 0
    return won / games


@settings(max_examples=60, deadline=None)
@given(seats=st.sampled_from([2, 3, 4, 6]), seed=st.integers(0, 10_000),
       turns=st.integers(0, 90), free_corners=st.booleans(),
       sequences_to_win=st.sampled_from([1, 2, 3]))
def test_rollouts_rate_moves_as_greedy_does(seats: int, seed: int, turns: int,
                                            free_corners: bool, sequences_to_win: int) -> None:
    """The rollouts' best card play is worth what ``greedy``'s ratings give the best
    ``play`` action (own lines, blocked lines, PURRR and MEOW costs; with sequences
    made, SC-WIN-2's spent lines and SC-MEOW-2's locked chips)."""
    state = advanced(seats, seed, turns, free_corners=free_corners,
                     sequences_to_win=sequences_to_win)
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
    assert abs(rollout_first - first_seat_share(200, 10_000)) < 0.13
    assert (winners != rollouts.UNFINISHED).mean() > 0.95


def with_sequence(labels: list[str], team: int, **options: object) -> SequenceCatsState:
    """A 2-seat game whose ``team`` has made one sequence on ``labels``."""
    state = new(2, 1, sequences_to_win=2, **options)
    place(state, dict.fromkeys([label for label in labels if label not in CORNERS], team))
    mask = 0
    for label in labels:
        mask |= 1 << state.board.index[label]
    state.sequences[team].append(mask)
    state.locked |= mask
    return state


CORNERS = {"A1", "K1", "A8", "K8"}


def test_sc_win_2_a_second_sequence_wins_and_one_sharing_two_spaces_does_not() -> None:
    """SC-WIN-2 with two sequences to win: seat 0 has made A1–E1. Placing F1 makes B1–F1,
    which shares four spaces with it: no sequence, the rollout goes on. A second five
    sharing one space at most (E1–E5) wins at once."""
    state = with_sequence(["A1", "B1", "C1", "D1", "E1"], 0)
    place(state, dict.fromkeys(["E2", "E3", "E4"], 0))
    give(state, 0, [breed_at(state, "E5"), breed_at(state, "F1"), "bombay", "ragdoll",
                    "korat"])
    assert breed_at(state, "E5") != breed_at(state, "F1")
    index = state.board.index
    second = (CARD_NUMBER[breed_at(state, "E5")], index["E5"])
    sharing = (CARD_NUMBER[breed_at(state, "F1")], index["F1"])
    winners = rollouts.play_moves([state] * 16, [second, sharing], np.random.default_rng(5),
                                  max_turns=1)
    assert winners[0].tolist() == [0] * 16
    assert winners[1].tolist() == [rollouts.UNFINISHED] * 16


def test_sc_meow_2_rollouts_never_take_a_sequence_s_chip() -> None:
    """SC-MEOW-2: seat 1 holds MEOW and only the other seat's sequence has chips to
    take: its best removal is none (the rollouts rate no MEOW), as ``greedy``'s."""
    state = with_sequence(["A1", "B1", "C1", "D1", "E1"], 0)
    state.current = 1
    give(state, 1, ["meow", "meow"])
    assert rollouts.best_worth(state) == -float("inf")
    view = GAME.view(state, 1)
    plays = [a for a in GAME.legal_actions(state, 1) if a["type"] == "play"]
    assert plays == []
    assert view["sequences_to_win"] == 2


@pytest.mark.parametrize("sequences_to_win", [2, 3])
def test_games_of_several_sequences_roll_out_to_their_end_as_greedy_plays_them(
        sequences_to_win: int) -> None:
    """Whole games to two (three) sequences from the deal: nearly every rollout ends
    with a winner, and the first seat wins about as often as in games the rules play."""
    states = [new(2, seed, sequences_to_win=sequences_to_win) for seed in range(300)]
    winners = rollouts.play_out(states, np.random.default_rng(6), max_turns=200)
    assert (winners != rollouts.UNFINISHED).mean() > 0.8
    played = first_seat_share(150, 20_000, sequences_to_win=sequences_to_win)
    assert abs(float((winners == 0).mean()) - played) < 0.15


@pytest.mark.parametrize("chip_on_g3", [False, True])
def test_sc_win_2_a_line_sharing_two_spaces_with_a_sequence_is_not_worth_blocking(
        chip_on_g3: bool) -> None:
    """SC-WIN-2 at two sequences to win: seat 1's sequence B3–F3 and G3 make a five of
    which four spaces are the sequence's, never a second sequence. ``greedy`` rated a
    PURRR on G3 (or a MEOW taking a chip there) as blocking a four, 5,000 points, and
    spent it; the rollouts, which play as ``greedy`` does, agree on the best worth."""
    state = with_sequence(["B3", "C3", "D3", "E3", "F3"], 1)
    if chip_on_g3:
        place(state, {"G3": 1})
    state.recompute()
    give(state, 0, ["meow" if chip_on_g3 else "purrr", "korat", "manx", "bombay",
                    "ragdoll"])
    view = GAME.view(state, 0)
    legal = [a for a in GAME.legal_actions(state, 0) if a["type"] == "play"]
    ratings = heuristics.rate_actions(view, legal)
    special = [r for a, r in zip(legal, ratings, strict=True)
               if a["card"] in ("purrr", "meow") and a["space"] == "G3"]
    assert special and max(special) < 100, special
    best = ratings.index(max(ratings))
    assert legal[best]["card"] not in ("purrr", "meow"), legal[best]
    assert rollouts.best_worth(state) == pytest.approx(max(ratings))
