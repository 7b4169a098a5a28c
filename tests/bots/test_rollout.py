"""The ``rollout`` bot: Monte Carlo rollouts of the best-rated moves, on views only."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gametable.bots import bot_names, make_bot
from gametable.bots.base import PlaysAsAnother
from gametable.bots.rollout import RolloutBot
from gametable.core.protocol import HasRollouts
from gametable.games.dixit import DIXIT
from gametable.games.sequence_cats import SEQUENCE_CATS
from gametable.games.triominos import TRIOMINOS
from tests.bots.test_search import advanced
from tests.games.sequence_cats import test_sample_state as sc_samples
from tests.games.sequence_cats.helpers import give, new, place


def bot(game: Any = SEQUENCE_CATS, seed: int = 1, deals: int = 48) -> RolloutBot:
    return RolloutBot(game, random.Random(seed), seconds=None, deals=deals)


def test_rollout_is_a_builtin_bot_and_needs_a_budget() -> None:
    assert "rollout" in bot_names()
    assert isinstance(make_bot("rollout", SEQUENCE_CATS, seed=0), RolloutBot)
    with pytest.raises(ValueError):
        RolloutBot(SEQUENCE_CATS, random.Random(0), seconds=None)


def test_only_sequence_cats_rolls_out() -> None:
    assert isinstance(SEQUENCE_CATS, HasRollouts)
    assert not isinstance(TRIOMINOS, HasRollouts)
    assert not isinstance(DIXIT, HasRollouts)


def test_rollout_always_returns_a_legal_action() -> None:
    for number in range(6):
        state = advanced("sequence-cats", {}, 2 + number % 2, seed=number,
                         actions=3 * number)
        seat = min(SEQUENCE_CATS.to_act(state))
        legal = SEQUENCE_CATS.legal_actions(state, seat)
        player = bot(seed=number)
        assert player.choose(SEQUENCE_CATS.view(state, seat), legal) in legal


def test_the_choice_does_not_depend_on_hidden_cards() -> None:
    """Same seed, same deals, two states that differ only in what the seat cannot see
    (the other hands and the draw pile's order): the same choice."""
    differed = 0
    for number in range(4):
        state = advanced("sequence-cats", {}, 2, seed=20 + number, actions=4 + 2 * number)
        seat = min(SEQUENCE_CATS.to_act(state))
        other = sc_samples.hidden_shuffled(state, seat, seed=number)
        differed += other.hands != state.hands
        view = SEQUENCE_CATS.view(state, seat)
        assert SEQUENCE_CATS.view(other, seat) == view
        first = bot(seed=number).choose(view, SEQUENCE_CATS.legal_actions(state, seat))
        second = bot(seed=number).choose(SEQUENCE_CATS.view(other, seat),
                                          SEQUENCE_CATS.legal_actions(other, seat))
        assert first == second
    assert differed


def test_sc_win_1_rollout_takes_the_winning_move() -> None:
    state = new()
    place(state, dict.fromkeys(["B1", "C1", "D1"], 0))
    place(state, dict.fromkeys(["C5", "D5", "E5"], 1))
    give(state, 0, ["burmese", "purrr", "manx", "bombay", "ragdoll"])
    choice = bot().choose(SEQUENCE_CATS.view(state, 0), SEQUENCE_CATS.legal_actions(state, 0))
    assert choice in ({"type": "play", "card": "burmese", "space": "E1"},
                      {"type": "play", "card": "purrr", "space": "E1"})


def test_rollout_blocks_an_opponents_four() -> None:
    state = new()
    place(state, dict.fromkeys(["C3", "D3", "E3", "F3"], 1))
    place(state, {"B3": 0})
    give(state, 0, ["cornish-rex", "korat", "manx", "bombay", "ragdoll"])  # G3
    choice = bot(deals=96).choose(SEQUENCE_CATS.view(state, 0),
                                  SEQUENCE_CATS.legal_actions(state, 0))
    assert choice == {"type": "play", "card": "cornish-rex", "space": "G3"}


def test_rollouts_are_counted_and_one_legal_action_is_played_at_once() -> None:
    state = advanced("sequence-cats", {}, 2, seed=4, actions=6)
    seat = min(SEQUENCE_CATS.to_act(state))
    legal = SEQUENCE_CATS.legal_actions(state, seat)
    view = SEQUENCE_CATS.view(state, seat)
    player = bot(deals=48)
    player.choose(view, legal)
    assert 0 < player.last_deals <= 48
    player.choose(view, legal[:1])
    assert player.last_deals == 0


def test_what_cannot_be_rolled_out_is_searched() -> None:
    """A game without rollouts goes to ``search``: still a legal action, and no rollout
    counted."""
    state = TRIOMINOS.new_game(TRIOMINOS.make_config({"rounds": 1}, 2), 2, 3)
    seat = min(TRIOMINOS.to_act(state))
    legal = TRIOMINOS.legal_actions(state, seat)
    with pytest.warns(PlaysAsAnother, match="'rollout' does not play triominos as itself"):
        player = RolloutBot(TRIOMINOS, random.Random(1), seconds=None, deals=8)
    assert player.choose(TRIOMINOS.view(state, seat), legal) in legal
    assert player.last_deals == 0


def test_games_of_two_sequences_are_rolled_out_to_their_end() -> None:
    """SC-WIN-2: with two sequences to win the rollouts play on past the first (they
    were searched instead, and played no better than ``greedy``)."""
    state = SEQUENCE_CATS.new_game(SEQUENCE_CATS.make_config({"sequences_to_win": 2}, 2), 2,
                                   3)
    rollout = RolloutBot(SEQUENCE_CATS, random.Random(1), seconds=None, deals=24)
    players = {0: rollout, 1: make_bot("greedy", SEQUENCE_CATS, 3)}
    rolled = 0
    while SEQUENCE_CATS.to_act(state):
        seat = min(SEQUENCE_CATS.to_act(state))
        legal = SEQUENCE_CATS.legal_actions(state, seat)
        action = players[seat].choose(SEQUENCE_CATS.view(state, seat), legal)
        assert action in legal
        if seat == 0 and any(state.sequences):
            rolled += rollout.last_deals > 0
        SEQUENCE_CATS.apply(state, seat, action)
    assert SEQUENCE_CATS.outcome(state).finished
    assert rolled > 0  # its moves after a first sequence were rolled out too


def test_rollout_plays_whole_games_against_greedy() -> None:
    for seed in range(2):
        state = new(2, seed)
        players = {seed % 2: bot(seed=seed, deals=24),
                   1 - seed % 2: make_bot("greedy", SEQUENCE_CATS, seed)}
        while SEQUENCE_CATS.to_act(state):
            seat = min(SEQUENCE_CATS.to_act(state))
            legal = SEQUENCE_CATS.legal_actions(state, seat)
            action = players[seat].choose(SEQUENCE_CATS.view(state, seat), legal)
            assert action in legal
            SEQUENCE_CATS.apply(state, seat, action)
        assert SEQUENCE_CATS.outcome(state).finished
