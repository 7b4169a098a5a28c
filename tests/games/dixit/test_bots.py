"""Dixit's computer players: every role, from the view alone (heuristics over the deck's
descriptions, DX-DECK-3), and legal play with a deck without descriptions."""

from __future__ import annotations

from typing import Any

import pytest

from gametable.bots import make_bot
from gametable.core.records import replay
from gametable.games.dixit import DIXIT as GAME
from gametable.games.dixit.heuristics import associated_words, deck_words, words
from gametable.games.dixit.state import DixitState
from gametable.simulate import play_bot_game, simulate
from tests.dixit_decks import TEST_DECK, describe
from tests.games.dixit.helpers import slots_of, submit_all, tell


def bot_choice(state: DixitState, seat: int, bot: str = "greedy", seed: int = 1
               ) -> dict[str, Any]:
    player = make_bot(bot, GAME, seed)
    return player.choose(GAME.view(state, seat), GAME.legal_actions(state, seat))


def game(seats: int, **options: Any) -> DixitState:
    config = GAME.make_config({"deck": TEST_DECK, "first_storyteller": "first_seat",
                               **options}, seats)
    return GAME.new_game(config, seats, 4)


@pytest.mark.parametrize(("seats", "options"), [
    (3, {}), (4, {}), (8, {}), (5, {"edition": "EN"}), (4, {"edition": "PT"}),
    (7, {"variant": "party"}), (6, {"variant": "team"}), (10, {"variant": "team"}),
    (4, {"deck": "bare-deck"}), (6, {"variant": "party", "deck": "bare-deck"}),
    (6, {"variant": "team", "deck": "bare-deck"}),
])
@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_bots_play_whole_games_in_every_variant(seats: int, options: dict[str, Any],
                                                bot: str) -> None:
    """Every role in every variant, with and without descriptions: the game finishes."""
    _, outcome = play_bot_game("dixit", {"deck": TEST_DECK, **options}, [bot] * seats, 7)
    assert outcome.finished


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_the_storytellers_clue_goes_with_its_card_but_is_no_word_of_its_description(
        bot: str) -> None:
    """Every player can read the descriptions: a clue made of the card's own words told
    everyone which card was the storyteller's. The clue is a word of the cards that
    share words with it instead (DX-ROUND-1)."""
    for seed in range(1, 21):
        state = game(4)
        action = bot_choice(state, 0, bot, seed)
        assert action["type"] == "clue" and action["card"] in state.hands[0]
        clue = set(words(action["text"]))
        own = set(words(describe(action["card"])))
        assert clue and not clue & own, (action, describe(action["card"]))
        assert not any(word[:5] == mine[:5] for word in clue for mine in own)
        assert clue <= set(associated_words(TEST_DECK, action["card"]))
    GAME.apply(state, 0, action)


def test_a_clue_is_neither_too_plain_nor_too_obscure() -> None:
    deck = deck_words(TEST_DECK)
    state = game(4)
    action = bot_choice(state, 0)
    for word in words(action["text"]):
        assert 0.01 < deck.share[word] < 0.3


def test_the_submitter_gives_the_card_that_best_fits_the_clue() -> None:
    state = game(4)
    wanted = state.hands[2][3]
    motif = describe(wanted).split()[1]
    GAME.apply(state, 0, {"type": "clue", "card": state.hands[0][0], "text": motif.title()})
    action = bot_choice(state, 2)
    assert motif in describe(action["cards"][0])


def test_the_voter_finds_the_fitting_card_and_never_votes_for_its_own() -> None:
    state = game(4)
    card = state.hands[0][0]
    text = describe(card).split(" and ")[0]
    GAME.apply(state, 0, {"type": "clue", "card": card, "text": text})
    submit_all(state)
    for seat in (1, 2, 3):
        action = bot_choice(state, seat)
        assert slots_of(state, seat)[0] not in action["slots"]
    assert state.table is not None
    clue = set(words(text))
    for seat in (1, 2, 3):
        chosen = state.table[bot_choice(state, seat)["slots"][0] - 1]
        best = max(len(clue & set(words(describe(card)))) for k, card in
                   enumerate(state.table, 1) if k not in slots_of(state, seat))
        assert len(clue & set(words(describe(chosen)))) == best > 0


def test_party_storyteller_places_red_on_another_card() -> None:
    state = game(6, variant="party")
    clue = bot_choice(state, 0)
    assert "card" not in clue and clue["text"]
    GAME.apply(state, 0, clue)
    submit_all(state)
    action = bot_choice(state, 0)
    assert action["red"] is not None and action["red"] not in action["slots"]


def test_team_giver_choice_is_a_team_member() -> None:
    state = game(6, variant="team")
    tell(state)
    action = bot_choice(state, 1)
    assert action["type"] == "giver" and action["seat"] in (1, 4)


def test_greedy_beats_random() -> None:
    """With descriptions, reading the clue pays: greedy outscores random players (on the
    default deck, whose descriptions share words as pictures share things: the test
    deck's name one motif or two, so its cards have few words to go with)."""
    summary = simulate("dixit", ["greedy", "random", "greedy", "random"], games=12, seed=5,
                       options={"deck": "default", "edition": "EN"}, keep_records=True)
    totals = [0.0] * 4
    for record in summary.records:
        for seat, score in enumerate(_final_scores(record)):
            totals[seat] += score
    assert totals[0] + totals[2] > 1.3 * (totals[1] + totals[3])


def _final_scores(record: Any) -> list[int]:
    return list(replay(record).state.scores)


def test_bots_are_reproducible() -> None:
    first, _ = play_bot_game("dixit", {"deck": TEST_DECK}, ["greedy"] * 5, 11)
    second, _ = play_bot_game("dixit", {"deck": TEST_DECK}, ["greedy"] * 5, 11)
    assert first.actions == second.actions
