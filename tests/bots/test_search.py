"""The ``search`` bot: information-set Monte Carlo tree search on views only."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gametable.bots import bot_names, make_bot
from gametable.bots.search import SearchBot, action_key
from gametable.core import registry
from gametable.core.protocol import Game
from gametable.games.dixit import DIXIT
from gametable.games.sequence_cats import SEQUENCE_CATS
from gametable.games.triominos import TRIOMINOS
from gametable.simulate import PlaysAsAnother, play_bot_game
from tests.games.sequence_cats import test_sample_state as sc_samples
from tests.games.sequence_cats.helpers import give, new, place
from tests.games.triominos import test_sample_state as tr_samples

GAMES: list[tuple[str, dict[str, Any]]] = [("sequence-cats", {}),
                                           ("triominos", {"rounds": 1})]


def bot(game: Game[Any], seed: int = 1, iterations: int = 40) -> SearchBot:
    return SearchBot(game, random.Random(seed), seconds=None, iterations=iterations)


def advanced(name: str, options: dict[str, Any], seats: int, seed: int, actions: int
             ) -> Any:
    """A state after ``actions`` greedy actions."""
    game = registry.get(name)
    state = game.new_game(game.make_config(options, seats), seats, seed)
    greedy = make_bot("greedy", game, seed)
    for _ in range(actions):
        if not game.to_act(state):
            break
        seat = min(game.to_act(state))
        game.apply(state, seat,
                   greedy.choose(game.view(state, seat), game.legal_actions(state, seat)))
    return state


def test_search_is_a_builtin_bot() -> None:
    assert "search" in bot_names()
    assert isinstance(make_bot("search", SEQUENCE_CATS, seed=0), SearchBot)


def test_a_search_needs_a_budget() -> None:
    with pytest.raises(ValueError):
        SearchBot(SEQUENCE_CATS, random.Random(0), seconds=None)


def test_action_keys_are_canonical() -> None:
    assert action_key({"type": "play", "space": "C4", "card": "purrr"}) == \
        action_key({"card": "purrr", "type": "play", "space": "C4"})


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_search_always_returns_a_legal_action(name: str, options: dict[str, Any]) -> None:
    game = registry.get(name)
    for number in range(6):
        state = advanced(name, options, 2 + number % 2, seed=number, actions=3 * number)
        if not game.to_act(state):
            continue
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        choice = bot(game, seed=number).choose(game.view(state, seat), legal)
        assert choice in legal


@pytest.mark.parametrize(("name", "options", "shuffle"), [
    ("sequence-cats", {}, sc_samples.hidden_shuffled),
    ("triominos", {}, tr_samples.hidden_shuffled),
])
def test_the_choice_does_not_depend_on_hidden_cards_or_tiles(
        name: str, options: dict[str, Any], shuffle: Any) -> None:
    """Same seed, same iterations, two states that differ only in what the searching
    seat cannot see (other hands, draw pile or pool): the same choice."""
    game = registry.get(name)
    differed = 0
    for number in range(4):
        state = advanced(name, options, 2, seed=10 + number, actions=4 + 2 * number)
        seat = min(game.to_act(state))
        other = shuffle(state, seat, seed=number)
        differed += other.hands != state.hands
        legal = game.legal_actions(state, seat)
        assert game.view(other, seat) == game.view(state, seat)
        first = bot(game, seed=number, iterations=60)
        second = bot(game, seed=number, iterations=60)
        assert first.choose(game.view(state, seat), legal) == \
            second.choose(game.view(other, seat), game.legal_actions(other, seat))
    assert differed


@pytest.mark.parametrize(("name", "options"), [("sequence-cats", {}),
                                               ("triominos", {"rounds": 2})])
def test_search_plays_whole_games(name: str, options: dict[str, Any]) -> None:
    """Whole games to the end against greedy (a small budget keeps them quick)."""
    game = registry.get(name)
    for seed in range(2):
        state = game.new_game(game.make_config(options, 2), 2, seed)
        players = {seed % 2: bot(game, seed=seed, iterations=6),
                   1 - seed % 2: make_bot("greedy", game, seed)}
        actions = 0
        while game.to_act(state):
            seat = min(game.to_act(state))
            legal = game.legal_actions(state, seat)
            action = players[seat].choose(game.view(state, seat), legal)
            assert action in legal
            game.apply(state, seat, action)
            actions += 1
        assert game.outcome(state).finished and actions > 10


def test_the_arena_seats_search() -> None:
    """``search`` is made by name like any bot, so whole games run through simulate."""
    record, _outcome = play_bot_game("sequence-cats", {}, ["search", "random"], seed=1,
                                    max_actions=4)
    assert len(record.actions) == 4 and record.seats[0].bot == "search"


def test_one_legal_action_is_answered_without_searching() -> None:
    state = advanced("triominos", {}, 2, seed=3, actions=0)
    seat = min(TRIOMINOS.to_act(state))
    legal = TRIOMINOS.legal_actions(state, seat)[:1]
    player = SearchBot(TRIOMINOS, random.Random(0), seconds=None, iterations=10_000)
    assert player.choose(TRIOMINOS.view(state, seat), legal) == legal[0]
    assert player.last_iterations == 0


def test_a_game_without_sampling_gets_greedy_play() -> None:
    """Dixit cannot deal determinizations: ``search`` plays as ``greedy`` there, and
    says so as it is made."""
    state = DIXIT.new_game(DIXIT.make_config({}, 4), 4, seed=2)
    seat = min(DIXIT.to_act(state))
    legal = DIXIT.legal_actions(state, seat)
    view = DIXIT.view(state, seat)
    with pytest.warns(PlaysAsAnother, match="'search' does not play dixit as itself"):
        player = SearchBot(DIXIT, random.Random(5), seconds=None, iterations=50)
    greedy = make_bot("greedy", DIXIT, seed=0)
    greedy.rng = random.Random(5)  # type: ignore[attr-defined]
    assert player.choose(view, legal) == greedy.choose(view, legal)
    assert player.last_iterations == 0


def test_sc_win_1_search_takes_the_winning_move() -> None:
    """SC-WIN-1: with a sequence one chip away and the card in hand, search plays it,
    among PURRR's many other spaces."""
    state = new()
    place(state, dict.fromkeys(["B1", "C1", "D1"], 0))
    place(state, dict.fromkeys(["C5", "D5", "E5"], 1))
    give(state, 0, ["burmese", "purrr", "manx", "bombay", "ragdoll"])
    view = SEQUENCE_CATS.view(state, 0)
    choice = bot(SEQUENCE_CATS, iterations=200).choose(
        view, SEQUENCE_CATS.legal_actions(state, 0))
    assert choice in ({"type": "play", "card": "burmese", "space": "E1"},
                      {"type": "play", "card": "purrr", "space": "E1"})


def test_search_blocks_an_opponents_four() -> None:
    """The opponent completes its sequence next turn unless the open space is covered."""
    state = new()
    place(state, dict.fromkeys(["C3", "D3", "E3", "F3"], 1))
    place(state, {"B3": 0})
    # G3 is Cornish Rex: the four's only open end.
    give(state, 0, ["cornish-rex", "korat", "manx", "bombay", "ragdoll"])
    choice = bot(SEQUENCE_CATS, iterations=200).choose(
        SEQUENCE_CATS.view(state, 0), SEQUENCE_CATS.legal_actions(state, 0))
    assert choice == {"type": "play", "card": "cornish-rex", "space": "G3"}
