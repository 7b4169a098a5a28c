"""Property tests over many random Sequence Cats games."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gametable.core.records import GameRecord, SeatInfo, replay
from gametable.games.sequence_cats import SEQUENCE_CATS as GAME
from gametable.games.sequence_cats.cards import DECK_SIZE, new_deck
from gametable.games.sequence_cats.state import EMPTY, SequenceCatsState

setups = st.sampled_from([
    (2, {}), (3, {}), (4, {}), (6, {}), (6, {"teams": 2}),
    (2, {"sequences_to_win": 2}), (3, {"sequences_to_win": 2}), (4, {"sequences_to_win": 3}),
])
seeds = st.integers(min_value=0, max_value=2**63 - 1)


def random_game(seats: int, options: dict[str, Any], seed: int, choice_seed: int,
                max_actions: int = 2000):
    """Yield (state before, seat, action, state after as snapshot) for a random game."""
    config = GAME.make_config(options, seats)
    state = GAME.new_game(config, seats, seed)
    chooser = random.Random(choice_seed)
    for _ in range(max_actions):
        to_act = GAME.to_act(state)
        if not to_act:
            return
        (seat,) = to_act
        actions = GAME.legal_actions(state, seat)
        action = chooser.choice(actions)
        before = GAME.clone(state)
        events = GAME.apply(state, seat, action)
        yield before, seat, action, events, state


def all_cards(state: SequenceCatsState) -> Counter[int]:
    cards = Counter(state.pile)
    for hand in state.hands:
        cards.update(hand)
    for pile in state.discards:
        cards.update(pile)
    return cards


@settings(max_examples=60, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_cards_are_conserved(setup: tuple[int, dict[str, Any]], seed: int, choice: int) -> None:
    """SC-COMP-3: draw pile + hands + discard piles always hold the same 88 cards."""
    seats, options = setup
    deck = Counter(new_deck())
    for _, _, _, _, state in random_game(seats, options, seed, choice):
        assert sum(all_cards(state).values()) == DECK_SIZE
        assert all_cards(state) == deck


@settings(max_examples=60, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_chips_change_only_as_the_rules_say(
    setup: tuple[int, dict[str, Any]], seed: int, choice: int
) -> None:
    """SC-TURN-2/4, SC-PURR-1, SC-MEOW-1/2: one chip placed, one removed, or none."""
    seats, options = setup
    hand_size = 5 if seats <= 3 else 4
    for before, seat, action, _, after in random_game(seats, options, seed, choice):
        changed = [i for i, (a, b) in enumerate(zip(before.cells, after.cells, strict=True))
                   if a != b]
        team = before.team_of[seat]
        if action["type"] == "play" and action["card"] == "meow":
            (space,) = changed
            assert before.cells[space] not in (EMPTY, team) and after.cells[space] == EMPTY
            assert not before.locked >> space & 1
        elif action["type"] == "play":
            (space,) = changed
            assert before.cells[space] == EMPTY and after.cells[space] == team
            card = action["card"]
            if card != "purrr":
                assert after.board.names[space] == card
        else:
            assert changed == []
        # Completed sequences are never broken and only grow.
        assert after.locked & before.locked == before.locked
        for team_id in range(after.teams):
            assert after.sequences[team_id][: len(before.sequences[team_id])] == \
                before.sequences[team_id]
        assert all(len(h) == hand_size for h in after.hands)


@settings(max_examples=40, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_replaying_the_record_reproduces_every_state(
    setup: tuple[int, dict[str, Any]], seed: int, choice: int
) -> None:
    """A game is its record: replay gives the same state after every action."""
    seats, options = setup
    record = GameRecord(game="sequence-cats", config=options,
                        seats=[SeatInfo(name=f"p{i}") for i in range(seats)], seed=seed)
    snapshots = []
    for _, seat, action, _, state in random_game(seats, options, seed, choice):
        record.append(seat, action)
        snapshots.append(GAME.snapshot(state))
    replayed: list[dict[str, Any]] = []
    result = replay(GameRecord.model_validate_json(record.model_dump_json()),
                    on_step=lambda _n, state, _e: replayed.append(GAME.snapshot(state)))
    assert replayed == snapshots
    assert GAME.outcome(result.state) == GAME.outcome(
        replay(record).state)


def scramble_secrets(state: SequenceCatsState, keep: int | None, rng: random.Random
                     ) -> SequenceCatsState:
    """A state that differs only in what ``keep`` may not see: other hands, pile order."""
    other = GAME.clone(state)
    hidden = list(other.pile)
    for seat, hand in enumerate(other.hands):
        if seat != keep:
            hidden += hand
    rng.shuffle(hidden)
    for seat, hand in enumerate(other.hands):
        if seat != keep:
            other.hands[seat] = [hidden.pop() for _ in hand]
    other.pile = hidden
    other.rng = random.Random(rng.random())
    return other


@settings(max_examples=40, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_views_hide_other_hands_and_the_draw_pile(
    setup: tuple[int, dict[str, Any]], seed: int, choice: int
) -> None:
    """A view depends only on public facts and the seat's own hand."""
    seats, options = setup
    rng = random.Random(choice)
    for step, (_, _, _, _, state) in enumerate(random_game(seats, options, seed, choice)):
        if step % 7:
            continue
        for seat in [None, *range(seats)]:
            view = GAME.view(state, seat)
            assert GAME.view(scramble_secrets(state, seat, rng), seat) == view
            assert set(view) & {"pile", "hands", "rng", "seed"} == set()
            if seat is None:
                assert "hand" not in view
