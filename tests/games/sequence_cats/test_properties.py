"""Property tests over many random Sequence Cats games."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gametable.core.config import RULES_VERSION
from gametable.core.records import GameRecord, SeatInfo, new_record, replay
from gametable.games.sequence_cats import SEQUENCE_CATS as GAME
from gametable.games.sequence_cats.cards import DECK_SIZE, new_deck
from gametable.games.sequence_cats.state import EMPTY, NOBODY, SequenceCatsState

setups = st.sampled_from([
    (2, {}), (3, {}), (4, {}), (6, {}), (6, {"teams": 2}),
    (2, {"sequences_to_win": 2}), (3, {"sequences_to_win": 2}), (4, {"sequences_to_win": 3}),
    (3, {"free_corners": False}), (2, {"sequences_to_win": 2, "free_corners": False}),
    (3, {"rules_version": 1}), (2, {"rules_version": 1, "sequences_to_win": 2}),
    (3, {"rules_version": 3}), (2, {"rules_version": 3, "sequences_to_win": 2}),
    (3, {"rules_version": 4}), (2, {"rules_version": 4, "sequences_to_win": 2}),
])
seeds = st.integers(min_value=0, max_value=2**63 - 1)
OFFER = {"type": "offer_draw"}


def random_game(seats: int, options: dict[str, Any], seed: int, choice_seed: int,
                max_actions: int = 2000):
    """Yield (state before, seat, action, events, state after) for a random game.

    Now and then a random seat offers a draw (SC-WIN-3 b, out of turn too); answers are
    random, mostly refusals, so that games go on to fill the board.
    """
    config = GAME.make_config(options, seats)
    state = GAME.new_game(config, seats, seed)
    chooser = random.Random(choice_seed)
    for _ in range(max_actions):
        to_act = GAME.to_act(state)
        if not to_act:
            return
        offerer = chooser.randrange(seats)
        if chooser.random() < 0.02 and GAME.may_offer_draw(state, offerer):
            seat, action = offerer, OFFER
        else:
            seat = chooser.choice(sorted(to_act))
            actions = GAME.legal_actions(state, seat)
            if actions[0]["type"] == "accept_draw":
                action = actions[0] if chooser.random() < 0.2 else actions[1]
            else:
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
        # Hands are full, except the one that played while it chooses its five (SC-WIN-2).
        for holder, held in enumerate(after.hands):
            choosing = after.choosing is not None and holder == after.current
            assert len(held) == hand_size - choosing


@settings(max_examples=60, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_sc_dead_1_sc_win_3_every_pending_turn_is_a_real_decision(
    setup: tuple[int, dict[str, Any]], seed: int, choice: int
) -> None:
    """Rules 2: the rules make the only possible exchange and the passes themselves
    (SC-DEAD-1, SC-WIN-3 a), so a seat is asked only when it has a choice; a seat that
    holds a dead card and has not exchanged is offered exchanges only; a full round of
    passes ends the game (SC-WIN-3 c): by rules 4 on a full board only, while a space was
    free the passes went on. Rules 1 keeps the optional exchange and ``pass``."""
    seats, options = setup
    version = options.get("rules_version", RULES_VERSION)
    for _, _, _, events, state in random_game(seats, options, seed, choice):
        if version == 1:
            assert not any(e.get("auto") for e in events)
            assert state.offer_by == NOBODY and state.choosing is None
            continue
        assert {"type": "pass"} not in [{k: v for k, v in e.items() if k != "seat"}
                                         for e in events]  # every pass is automatic
        if state.finished:
            if state.draw_reason == "passes":
                assert state.passes == seats
                assert version != 4 or not state.open_spaces
            continue
        assert state.passes < seats or (version == 4 and state.open_spaces)
        if state.offer_by != NOBODY or state.choosing is not None:
            continue
        legal = GAME.legal_actions(state, state.current)
        assert legal != [{"type": "pass"}]
        dead = GAME.dead_cards(state, state.current)
        if dead and not state.exchanged:
            assert {a["type"] for a in legal} == {"exchange"}
            assert len({a["card"] for a in legal}) >= 2


@settings(max_examples=60, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_sc_win_2_sc_win_3_new_decisions_keep_to_act_meaningful(
    setup: tuple[int, dict[str, Any]], seed: int, choice: int
) -> None:
    """SC-WIN-3 b: while an offer is open, exactly the seats of the other teams that have
    not answered are to act, and they may only answer; SC-WIN-2: a seat choosing its five
    is offered the candidates only, each five of its own colour through the new chip."""
    seats, options = setup
    for *_, state in random_game(seats, options, seed, choice):
        to_act = GAME.to_act(state)
        if state.finished:
            assert to_act == frozenset()
            continue
        if state.offer_by != NOBODY:
            offerer_team = state.team_of[state.offer_by]
            everyone = {s for s in range(seats) if state.team_of[s] != offerer_team}
            assert to_act == everyone - set(state.offer_accepted)
            for s in range(seats):
                legal = GAME.legal_actions(state, s)
                assert legal == ([{"type": "accept_draw"}, {"type": "decline_draw"}]
                                 if s in to_act else [])
            continue
        assert to_act == {state.current}
        if state.choosing is not None:
            team = state.team_of[state.current]
            legal = GAME.legal_actions(state, state.current)
            assert len(legal) >= 2 and all(a["type"] == "sequence" for a in legal)
            for a in legal:
                window = [state.board.index[label] for label in a["spaces"]]
                assert len(window) == 5
                assert all(state.cells[i] == team or state.free_mask >> i & 1
                           for i in window)


@settings(max_examples=40, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_replaying_the_record_reproduces_every_state(
    setup: tuple[int, dict[str, Any]], seed: int, choice: int
) -> None:
    """A game is its record: replay gives the same state after every action."""
    seats, options = setup
    record = new_record("sequence-cats", options,
                        [SeatInfo(name=f"p{i}") for i in range(seats)], seed)
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
