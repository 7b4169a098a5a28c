"""Taking back a card or a vote before everyone is in (docs/dixit.md "Taking back"): the
cards are laid on the table only once all are given (DX-ROUND-2/3) and the votes revealed
only once all have voted (DX-ROUND-4), so until then a player may change their mind."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gametable.core.errors import IllegalAction
from gametable.games.dixit import DIXIT as GAME
from tests.games.dixit.helpers import new, slots_of, tell, vote_for

TAKE_BACK = {"type": "take_back"}


def refused(rule: str, state: Any, seat: int, why: str) -> None:
    """Taking back is refused citing ``rule``, saying ``why`` (the message key), and
    leaves the state exactly as it was."""
    before = GAME.snapshot(state)
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, seat, TAKE_BACK)
    assert error.value.rule == rule, str(error.value)
    assert error.value.key == "dixit.errors." + why
    assert GAME.snapshot(state) == before


def test_dx_round_2_a_card_given_comes_back_until_every_card_is_in() -> None:
    state = new(4)
    tell(state)
    card = state.hands[1][2]
    assert GAME.view(state, 1)["may_take_back"] is False
    GAME.apply(state, 1, {"type": "submit", "cards": [card]})
    assert 1 not in GAME.to_act(state)
    assert GAME.view(state, 1)["may_take_back"] is True
    assert GAME.legal_actions(state, 1) == []
    events = GAME.apply(state, 1, TAKE_BACK)
    assert events == [{"type": "took_back", "seat": 1, "what": "cards", "count": 1}]
    assert card in state.hands[1] and len(state.hands[1]) == 6
    assert 1 not in state.submissions and 1 in GAME.to_act(state)
    view = GAME.view(state, 2)
    assert 1 not in view["submitted"]
    # A change of mind: another card this time.
    other = next(c for c in state.hands[1] if c != card)
    GAME.apply(state, 1, {"type": "submit", "cards": [other]})
    assert state.submissions[1] == [other]


def test_dx_round_1_the_storytellers_card_stays_with_the_clue() -> None:
    state = new(4)
    tell(state)
    assert GAME.view(state, 0)["may_take_back"] is False
    refused("DX-ROUND-2", state, 0, "clue_card_stays")
    refused("DX-ROUND-2", state, 1, "nothing_given_yet")


@pytest.mark.parametrize("first_storyteller", ["claim", "first_seat"])
def test_dx_round_2_before_the_cards_are_given_nothing_is_there_to_take_back(
        first_storyteller: str) -> None:
    """DX-SETUP-4, DX-ROUND-1/2: while the role is claimed or the storyteller thinks of
    the clue nobody has given anything, and the refusal says so (not that what everyone
    gave stays)."""
    state = new(4, first_storyteller=first_storyteller)
    assert state.phase == ("claim" if first_storyteller == "claim" else "clue")
    for seat in range(4):
        refused("DX-ROUND-2", state, seat, "nothing_given_yet")
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, 0, TAKE_BACK)
    assert error.value.message() == (
        "You have not given anything in this phase yet, so there is nothing to take back.")


def test_dx_round_3_once_every_card_is_in_none_comes_back() -> None:
    state = new(4)
    tell(state)
    for seat in (1, 2, 3):
        GAME.apply(state, seat, {"type": "submit", "cards": [state.hands[seat][0]]})
    assert state.phase == "vote" and state.table is not None
    for seat in (1, 2, 3):
        assert GAME.view(state, seat)["may_take_back"] is False
    refused("DX-ROUND-4", state, 1, "no_vote_yet")  # nothing voted yet: said as a vote
    # The storyteller does not vote (DX-ROUND-4): no vote of theirs to take back, which
    # is not "nothing given yet" (they gave their card with the clue).
    refused("DX-ROUND-4", state, 0, "no_vote_to_take_back")


def test_dx_round_4_a_vote_is_withdrawn_until_everyone_has_voted() -> None:
    state = new(4)
    tell(state)
    for seat in (1, 2, 3):
        GAME.apply(state, seat, {"type": "submit", "cards": [state.hands[seat][0]]})
    teller_slot = slots_of(state, 0)[0]
    wrong = slots_of(state, 3)[0]
    GAME.apply(state, 1, {"type": "vote", "slots": [wrong]})
    assert GAME.view(state, 1)["may_take_back"] is True
    assert GAME.legal_actions(state, 1) == []
    assert GAME.apply(state, 1, TAKE_BACK) == [{"type": "took_back", "seat": 1, "what": "vote"}]
    assert 1 not in state.votes and 1 in GAME.to_act(state)
    GAME.apply(state, 1, {"type": "vote", "slots": [teller_slot]})
    GAME.apply(state, 2, {"type": "vote", "slots": [teller_slot]})
    events = GAME.apply(state, 3, {"type": "vote", "slots": [slots_of(state, 1)[0]]})
    reveal = next(e for e in events if e["type"] == "reveal")
    # Only the vote cast counts: seat 1 found the storyteller's card (DX-SCORE-2).
    found = {line["seat"] for line in reveal["points"] if line["reason"].endswith("found")}
    assert found == {1, 2}
    # The round is over: nothing of it comes back, and nothing is given yet in the next.
    assert state.phase == "clue"
    refused("DX-ROUND-2", state, 1, "nothing_given_yet")


def test_dx_party_3_the_party_storyteller_may_take_their_card_back() -> None:
    state = new(6, variant="party")
    tell(state)
    card = state.hands[0][0]
    GAME.apply(state, 0, {"type": "submit", "cards": [card]})
    assert GAME.view(state, 0)["may_take_back"] is True
    assert GAME.legal_actions(state, 0) == []
    GAME.apply(state, 0, TAKE_BACK)
    assert card in state.hands[0] and 0 in GAME.to_act(state)


def test_dx_3p_2_both_cards_come_back_together() -> None:
    state = new(3)
    tell(state)
    given = sorted(state.hands[1])[:2]
    GAME.apply(state, 1, {"type": "submit", "cards": given})
    GAME.apply(state, 1, TAKE_BACK)
    assert set(given) <= set(state.hands[1]) and len(state.hands[1]) == 7


def test_take_back_carries_nothing_else() -> None:
    state = new(4)
    tell(state)
    GAME.apply(state, 1, {"type": "submit", "cards": [state.hands[1][0]]})
    before = GAME.snapshot(state)
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, 1, {"type": "take_back", "cards": [1]})
    assert error.value.rule == "PROTOCOL"
    assert GAME.snapshot(state) == before


@pytest.mark.parametrize(("seats", "options"), [
    (4, {}), (3, {}), (7, {}), (6, {"variant": "party"}), (6, {"variant": "team"}),
])
def test_a_game_with_changes_of_mind_scores_as_the_game_without_them(
        seats: int, options: dict[str, Any]) -> None:
    """Before each card given and each vote cast, the seat first gives or casts another
    legal one and takes it back. Taking back draws nothing from the game's chance: the
    rounds, their tables and the scores are those of the same game played straight, and
    no card is lost or made (DX-COMP-1)."""
    def play(changes: bool) -> list[Any]:
        state = new(seats, 7, **options)
        choose = random.Random(11)
        mind = random.Random(5)
        takes = 0
        for _ in range(2000):
            if state.finished:
                break
            seat = min(GAME.to_act(state))
            # In a fixed order: a card taken back returns to the end of its hand.
            legal = sorted(GAME.legal_actions(state, seat), key=json.dumps)
            action = legal[choose.randrange(len(legal))]
            if action["type"] == "clue":
                action = {**action, "text": "A clue"}
            # A change of mind, where another seat is still to act in the phase (the
            # last card or vote ends it).
            if changes and action["type"] in ("submit", "vote") \
                    and len(GAME.to_act(state)) > 1:
                GAME.apply(state, seat, legal[mind.randrange(len(legal))])
                assert GAME.view(state, seat)["may_take_back"] is True
                GAME.apply(state, seat, TAKE_BACK)
                held = [c for hand in state.hands for c in hand]
                given = state.table if state.table is not None else \
                    [c for cards in state.submissions.values() for c in cards]
                assert sorted(held + given + state.draw_pile + state.discard_pile) \
                    == sorted(set(held + given + state.draw_pile + state.discard_pile))
                assert len(held) + len(given) + len(state.draw_pile) \
                    + len(state.discard_pile) == 84
                takes += 1
            GAME.apply(state, seat, action)
        assert state.finished
        assert (takes >= 10) == changes
        # The same rounds, but for when the cards were given (``given_at``: later after a
        # change of mind).
        return [(r["round"], r["storyteller"],
                 [{k: v for k, v in slot.items() if k != "given_at"} for slot in r["slots"]],
                 r["totals"]) for r in state.history]

    assert play(True) == play(False)


def test_once_a_phase_so_that_a_turn_clock_cannot_be_reset_for_ever() -> None:
    """A seat back in ``to_act`` gets a new deadline from the turn clock: one change of
    mind a phase, so that nobody holds the table up by giving and taking back."""
    state = new(4)
    tell(state)
    GAME.apply(state, 1, {"type": "submit", "cards": [state.hands[1][0]]})
    GAME.apply(state, 1, TAKE_BACK)
    GAME.apply(state, 1, {"type": "submit", "cards": [state.hands[1][0]]})
    assert GAME.view(state, 1)["may_take_back"] is False
    refused("DX-ROUND-2", state, 1, "already_taken_back")
    for seat in (2, 3):
        GAME.apply(state, seat, {"type": "submit", "cards": [state.hands[seat][0]]})
    # A new phase, a new change of mind.
    GAME.apply(state, 1, {"type": "vote", "slots": [slots_of(state, 0)[0]]})
    assert GAME.view(state, 1)["may_take_back"] is True
    GAME.apply(state, 1, TAKE_BACK)
    GAME.apply(state, 1, {"type": "vote", "slots": [slots_of(state, 0)[0]]})
    refused("DX-ROUND-4", state, 1, "vote_already_changed")  # said as a vote


def test_dx_3p_2_the_events_say_how_many_cards_were_given_and_taken_back() -> None:
    """With three players each gives two cards (DX-3P-2): the log said "Bo gave a card"
    and "Bo took back a card". The events carry how many (public), never which."""
    state = new(3)
    tell(state)
    giver = next(s for s in GAME.to_act(state))
    cards = state.hands[giver][:2]
    events = GAME.apply(state, giver, {"type": "submit", "cards": cards})
    assert events == [{"type": "submitted", "seat": giver, "count": 2}]
    assert GAME.apply(state, giver, TAKE_BACK) == [
        {"type": "took_back", "seat": giver, "what": "cards", "count": 2}]


def test_a_rounds_summary_says_when_each_move_was_made() -> None:
    """The summary keeps when the clue was told (``told_at``), each card given (a slot's
    ``given_at``) and each vote cast (``voted_at``, per seat), as action counts, so that a seat
    that changed hands mid-round names each move after its maker (docs/protocol.md,
    ``earlier``); a card or vote taken back and made again counts from the second time."""
    state = new(4)
    tell(state)                                          # action 1
    told = state.actions
    GAME.apply(state, 1, {"type": "submit", "cards": [state.hands[1][0]]})  # 2
    GAME.apply(state, 1, TAKE_BACK)                      # 3
    GAME.apply(state, 2, {"type": "submit", "cards": [state.hands[2][0]]})  # 4
    GAME.apply(state, 1, {"type": "submit", "cards": [state.hands[1][0]]})  # 5
    GAME.apply(state, 3, {"type": "submit", "cards": [state.hands[3][0]]})  # 6
    given = {0: 1, 1: 5, 2: 4, 3: 6}
    vote_for(state, {3: [0]})                            # 7
    vote_for(state, {1: [2]})                            # 8
    GAME.apply(state, 1, TAKE_BACK)                      # 9
    vote_for(state, {1: [0], 2: [0]})                    # 10, 11
    summary = state.history[-1]
    assert (told, summary["told_at"]) == (1, 1)
    assert {slot["owner"]: slot["given_at"] for slot in summary["slots"]} == given
    assert summary["voted_at"] == [None, 10, 11, 7]
    assert summary["actions"] == state.actions == 11
    # The next round starts afresh: nothing of this round's times is carried.
    assert (state.told_at, state.given_at, state.voted_at) == (None, {}, {})
