"""What the last play says about the hand it came from (``inference``), and how the
dealer of determinizations (``sample_state``) uses it."""

from __future__ import annotations

import random

import pytest

from gametable.bots.greedy import GreedyBot
from gametable.games.sequence_cats import SEQUENCE_CATS as GAME
from gametable.games.sequence_cats.cards import BREEDS, CARD_NUMBER, MEOW, PURRR
from gametable.games.sequence_cats.inference import deal_kept, unlikely_cards
from gametable.games.sequence_cats.state import SequenceCatsState
from tests.games.sequence_cats.helpers import breed_at, give, new, place, row


def left_open_four() -> tuple[SequenceCatsState, int, set[int]]:
    """A position where the seat to move holds no blocker of the other team's open four
    and plays elsewhere; returns the state after that play, the seat that owns the
    four, and the cards that would have blocked it."""
    state = new(2, seed=3)
    mover = min(GAME.to_act(state))
    owner = 1 - mover
    four = row(state, 3, [1, 2, 3, 4])
    place(state, dict.fromkeys(four, state.team_of[owner]))
    ends = row(state, 3, [0, 5])
    blockers = {CARD_NUMBER[breed_at(state, label)] for label in ends}
    harmless = [b for b in BREEDS if CARD_NUMBER[b] not in blockers][:5]
    give(state, mover, harmless)
    play = next(a for a in GAME.legal_actions(state, mover) if a["type"] == "play")
    GAME.apply(state, mover, play)
    return state, owner, blockers | {PURRR, MEOW}


def test_a_four_left_open_says_the_mover_held_no_blocker_purrr_or_meow() -> None:
    """SC-WIN-1 / SC-PURR-1 / SC-MEOW-1: leaving a four open is, by ``greedy``'s
    ratings, only possible without a card of its open ends, PURRR and MEOW."""
    state, owner, blockers = left_open_four()
    unlikely = unlikely_cards(GAME.view(state, owner), state.board)
    assert unlikely is not None and blockers <= unlikely


def test_the_dealer_rarely_gives_the_mover_a_blocker_it_would_have_played() -> None:
    """Of 400 determinizations, the mover's kept cards hold a blocker, PURRR or MEOW far
    less often than a uniform deal would give them (about 40 % of hands)."""
    state, owner, blockers = left_open_four()
    view = GAME.view(state, owner)
    rng = random.Random(7)
    mover = 1 - owner
    holding = sum(bool(blockers & set(GAME.sample_state(view, owner, rng).hands[mover]))
                  for _ in range(400))
    assert holding < 0.25 * 400, holding


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_greedy_players_keep_at_most_their_drawn_card_from_the_unlikely_ones(
        seats: int) -> None:
    """Against ``greedy`` the inference is right: after each of its plays, its hand holds
    at most one card the inference calls unlikely (the card it drew after playing); and it
    says something in most turns."""
    informative = turns = 0
    for seed in range(6):
        state = new(seats, seed=seed)
        players = [GreedyBot(GAME, random.Random(seed * 10 + s)) for s in range(seats)]
        while GAME.to_act(state) and state.turn < 60:
            seat = min(GAME.to_act(state))
            view = GAME.view(state, seat)
            last = view["last_play"]
            if last is not None and last["seat"] != seat and view["exchanged"] is False:
                unlikely = unlikely_cards(view, state.board)
                assert unlikely is not None
                held = [c for c in state.hands[last["seat"]] if c in unlikely]
                assert len(held) <= 1, (seed, state.turn, held)
                turns += 1
                informative += bool(unlikely)
            GAME.apply(state, seat, players[seat].choose(view, GAME.legal_actions(state, seat)))
    assert turns > 100 and informative > turns // 2, (informative, turns)


def test_deal_kept_takes_the_drawn_card_freely_and_weights_the_kept_ones() -> None:
    """One card of the hand is the drawn one (any unseen card); the kept ones are
    unlikely ones with weight 0.05, so with half the unseen cards unlikely about 5 % of
    the kept cards are."""
    rng = random.Random(1)
    unlikely = frozenset(range(20))
    kept_unlikely = total = 0
    for _ in range(500):
        unseen = list(range(40))
        rng.shuffle(unseen)
        hand = deal_kept(unseen, 5, unlikely, rng)
        assert len(hand) == 5 and len(unseen) == 35 and not set(hand) & set(unseen)
        kept_unlikely += sum(c in unlikely for c in hand[1:])
        total += 4
    assert 0.02 < kept_unlikely / total < 0.09
    assert deal_kept([1, 2], 0, unlikely, rng) == []
