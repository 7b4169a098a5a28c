"""Every DX- rule of ``shared/rules/dixit.md``, one or more tests each (IDs in names)."""

from __future__ import annotations

from typing import Any

import pytest

from gametable.core.errors import ConfigError, IllegalAction
from gametable.games.dixit import DIXIT as GAME
from gametable.games.dixit.config import minimum_deck
from tests.games.dixit.helpers import (
    config,
    new,
    reasons,
    round_points,
    slots_of,
    submit_all,
    tell,
    vote_for,
)


def refused(rule: str, state: Any, seat: int, action: dict[str, Any]) -> None:
    """``action`` is refused citing ``rule`` and leaves the state exactly as it was."""
    before = GAME.snapshot(state)
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, seat, action)
    assert error.value.rule == rule, str(error.value)
    assert GAME.snapshot(state) == before


def teller_of(state: Any) -> int:
    """This round's storyteller (the tests never ask before someone tells)."""
    teller = state.storyteller
    assert teller is not None
    return int(teller)


# -- setup ---------------------------------------------------------------------------

def test_dx_setup_1_everyone_starts_at_zero() -> None:
    assert new(6).scores == [0] * 6


@pytest.mark.parametrize(("seats", "options", "size"), [
    (4, {}, 6), (3, {}, 7), (12, {}, 6), (6, {"variant": "party"}, 5),
    (8, {"variant": "team"}, 4)])
def test_dx_setup_2_hands_are_dealt_from_a_shuffled_deck(seats: int, options: dict[str, Any],
                                                         size: int) -> None:
    """DX-SETUP-2, DX-3P-1, DX-PARTY-1, DX-TEAM-1: hand sizes; the rest is the draw pile."""
    state = new(seats, **options)
    assert [len(h) for h in state.hands] == [size] * seats
    assert len(state.draw_pile) == 252 - size * seats
    assert state.draw_pile != sorted(state.draw_pile)


@pytest.mark.parametrize(("seats", "edition", "votes"), [(6, "IS", 1), (7, "IS", 2),
                                                         (12, "IS", 2), (6, "EN", 1)])
def test_dx_setup_3_votes_per_voter(seats: int, edition: str, votes: int) -> None:
    state = new(seats, edition=edition)
    tell(state)
    submit_all(state)
    assert GAME.view(state, 1)["votes"] == votes
    sizes = {len(a["slots"]) for a in GAME.legal_actions(state, 1)}
    assert sizes == set(range(1, votes + 1))


def test_dx_setup_4_the_first_storyteller_is_claimed() -> None:
    state = new(4, first_storyteller="claim")
    assert state.phase == "claim" and GAME.to_act(state) == {0, 1, 2, 3}
    assert GAME.legal_actions(state, 2) == [{"type": "claim"}]
    events = GAME.apply(state, 2, {"type": "claim"})
    assert events[0] == {"type": "claimed", "seat": 2}
    assert state.storyteller == 2 and state.phase == "clue"
    refused("DX-SETUP-4", state, 1, {"type": "claim"})


def test_dx_setup_4_random_first_storyteller_comes_from_the_seed() -> None:
    tellers = {new(6, seed, first_storyteller="random").storyteller for seed in range(20)}
    assert len(tellers) > 1
    assert new(6, 5, first_storyteller="random").storyteller == \
        new(6, 5, first_storyteller="random").storyteller


# -- a round --------------------------------------------------------------------------

def test_dx_round_1_the_storyteller_gives_a_card_and_a_clue() -> None:
    state = new(4)
    assert GAME.to_act(state) == {0}
    card = state.hands[0][0]
    other = state.hands[1][0]
    refused("DX-ROUND-1", state, 1, {"type": "clue", "card": other, "text": "x"})
    refused("DX-ROUND-1", state, 0, {"type": "clue", "card": other, "text": "Waves"})
    refused("DX-ROUND-1", state, 0, {"type": "clue", "card": card, "text": "   "})
    refused("DX-ROUND-1", state, 0, {"type": "clue", "card": card, "text": "x" * 201})
    refused("DX-ROUND-1", state, 0, {"type": "clue", "card": card, "text": "", "mime": True})
    refused("PROTOCOL", state, 0, {"type": "clue", "card": "1", "text": "Waves"})
    events = GAME.apply(state, 0, {"type": "clue", "card": card, "text": "  Far  away "})
    assert events[0] == {"type": "clue", "seat": 0, "text": "Far away", "mime": False}
    assert card not in state.hands[0] and state.phase == "submit"
    assert GAME.view(state, 2)["clue"] == {"text": "Far away", "mime": False}


def test_dx_round_1_a_mimed_clue_with_the_pt_variant() -> None:
    state = new(4, edition="PT", mime_or_music=True)
    GAME.apply(state, 0, {"type": "clue", "card": state.hands[0][0], "text": "",
                          "mime": True})
    assert state.clue == {"text": "", "mime": True}


def test_dx_round_2_submissions_are_secret_and_in_any_order() -> None:
    state = new(4)
    tell(state)
    assert GAME.to_act(state) == {1, 2, 3}
    refused("DX-ROUND-2", state, 0, {"type": "submit", "cards": [state.hands[0][0]]})
    refused("DX-ROUND-2", state, 1, {"type": "submit", "cards": [state.hands[2][0]]})
    refused("DX-ROUND-2", state, 1, {"type": "submit", "cards": state.hands[1][:2]})
    GAME.apply(state, 3, {"type": "submit", "cards": [state.hands[3][0]]})
    view = GAME.view(state, 1)
    assert view["submitted"] == [0, 3] and view["table"] is None
    refused("DX-ROUND-2", state, 3, {"type": "submit", "cards": [state.hands[3][0]]})


def test_dx_round_3_the_table_is_laid_when_all_are_in() -> None:
    state = new(5)
    tell(state)
    submit_all(state)
    assert state.phase == "vote" and state.table is not None
    given = sorted(c for cards in state.submissions.values() for c in cards)
    assert sorted(state.table) == given and len(given) == 5
    view = GAME.view(state, 2)
    assert view["table"] == state.table and view["own_slots"] == slots_of(state, 2)


def test_dx_round_3_the_table_does_not_depend_on_arrival_order() -> None:
    first, second = new(5, 9), new(5, 9)
    for state, order in ((first, [1, 2, 3, 4]), (second, [4, 2, 1, 3])):
        tell(state)
        for seat in order:
            GAME.apply(state, seat, {"type": "submit", "cards": [state.hands[seat][0]]})
    assert first.table == second.table


def test_dx_round_4_the_storyteller_never_votes() -> None:
    state = new(4)
    tell(state)
    submit_all(state)
    assert GAME.to_act(state) == {1, 2, 3}
    refused("DX-ROUND-4", state, 0, {"type": "vote", "slots": [1]})
    refused("DX-ROUND-4", state, 1, {"type": "vote", "slots": [9]})


def test_dx_round_5_nobody_votes_for_their_own_card() -> None:
    state = new(6)
    tell(state)
    submit_all(state)
    own = slots_of(state, 3)[0]
    refused("DX-ROUND-5", state, 3, {"type": "vote", "slots": [own]})
    assert all(own not in a["slots"] for a in GAME.legal_actions(state, 3))


def test_dx_round_6_hands_are_refilled_and_the_table_discarded() -> None:
    state = new(4)
    tell(state)
    submit_all(state)
    table = list(state.table or [])
    vote_for(state, {1: [0], 2: [3], 3: [0]})
    assert [len(h) for h in state.hands] == [6] * 4
    assert state.discard_pile == table


def test_dx_round_6_is_reshuffles_the_discard_pile() -> None:
    state = new(4, deck_size=minimum_deck(config(), 4))
    for _ in range(3):
        tell(state)
        submit_all(state)
        vote_for(state, {v: [teller_of(state)] for v in GAME.to_act(state)})
    assert not state.finished
    total = sum(map(len, state.hands)) + len(state.draw_pile) + len(state.discard_pile)
    assert total == minimum_deck(config(), 4)


def test_dx_round_7_and_dx_end_2_the_en_game_ends_when_the_pile_runs_out() -> None:
    """DX-ROUND-7: the role passes left; DX-END-2: the pile running out ends EN."""
    state = new(4, edition="EN", deck_size=minimum_deck(config(), 4) + 4)
    tellers = []
    while not state.finished:
        tellers.append(state.storyteller)
        tell(state)
        submit_all(state)
        vote_for(state, {v: [teller_of(state)] for v in GAME.to_act(state)})
    assert tellers == [0, 1]
    assert state.phase == "finished" and GAME.outcome(state).finished


# -- scoring --------------------------------------------------------------------------

def play_base(seats: int, votes: dict[int, list[int]], **options: Any) -> dict[int, int]:
    state = new(seats, **options)
    tell(state)
    submit_all(state)
    return round_points(vote_for(state, votes))


def test_dx_score_1_everyone_found_it() -> None:
    assert play_base(4, {1: [0], 2: [0], 3: [0]}) == {0: 0, 1: 2, 2: 2, 3: 2}


def test_dx_score_1_nobody_found_it_bonuses_still_count() -> None:
    points = play_base(4, {1: [2], 2: [3], 3: [2]})
    assert points == {0: 0, 1: 2, 2: 2 + 2, 3: 2 + 1}


def test_dx_score_2_some_found_it() -> None:
    assert play_base(4, {1: [0], 2: [3], 3: [1]}) == {0: 3, 1: 3 + 1, 2: 0, 3: 1}


def test_dx_score_3_the_bonus_cap_is_3_in_is() -> None:
    votes = {v: [1] for v in range(2, 6)} | {1: [0]}
    assert play_base(6, votes)[1] == 3 + 3
    assert play_base(6, votes, edition="EN")[1] == 3 + 4
    assert play_base(6, votes, bonus_cap="uncapped")[1] == 3 + 4


def test_dx_score_5_reasons_come_with_the_points() -> None:
    state = new(4)
    tell(state)
    submit_all(state)
    events = vote_for(state, {1: [0], 2: [3], 3: [1]})
    assert reasons(events, 0) == ["storyteller"]
    assert reasons(events, 1) == ["found", "bonus"]
    assert reasons(events, 2) == ["missed"]
    view = GAME.view(state, 2)
    assert view["last_round"]["gained"] == [3, 4, 0, 1]


# -- 3 and 7+ players ---------------------------------------------------------------------

def test_dx_3p_2_two_cards_each_and_both_count_for_the_bonus() -> None:
    state = new(3)
    tell(state)
    refused("DX-3P-2", state, 1, {"type": "submit", "cards": [state.hands[1][0]]})
    assert all(len(a["cards"]) == 2 for a in GAME.legal_actions(state, 1))
    submit_all(state)
    assert state.table is not None and len(state.table) == 5
    a, b = slots_of(state, 1)
    refused("DX-ROUND-5", state, 1, {"type": "vote", "slots": [b]})
    GAME.apply(state, 2, {"type": "vote", "slots": [a]})
    events = GAME.apply(state, 1, {"type": "vote", "slots": [slots_of(state, 2)[1]]})
    assert round_points(events) == {0: 0, 1: 2 + 1, 2: 2 + 1}


def test_dx_7p_1_a_second_vote_on_a_different_slot() -> None:
    state = new(7)
    tell(state)
    submit_all(state)
    own = slots_of(state, 1)[0]
    other = slots_of(state, 2)[0]
    refused("DX-7P-1", state, 1, {"type": "vote", "slots": [other, other]})
    refused("DX-ROUND-5", state, 1, {"type": "vote", "slots": [other, own]})
    refused("DX-7P-1", state, 1, {"type": "vote", "slots": [1, 2, 3]})


def test_dx_7p_2_and_3_found_with_either_vote_and_plus_one_for_a_single_vote() -> None:
    votes = {1: [0], 2: [3, 0], 3: [1, 2], 4: [1], 5: [1], 6: [1]}
    points = play_base(7, votes)
    assert points[0] == 3
    assert points[1] == 3 + 1 + 3       # found with one vote (+1), bonus capped at 3
    assert points[2] == 3 + 1           # found with the second vote, bonus 1 (from 3)
    assert points[3] == 0 + 1           # missed; bonus for 2's vote
    assert points[4] == 0


# -- Party ------------------------------------------------------------------------------------

def test_dx_party_2_the_storyteller_tells_before_seeing_the_hand() -> None:
    state = new(6, variant="party")
    view = GAME.view(state, 0)
    assert view["hand"] == [] and view["hand_hidden"]
    assert GAME.view(state, 1)["hand"] == state.hands[1]
    assert GAME.legal_actions(state, 0) == [{"type": "clue", "text": "…", "mime": False}]
    refused("PROTOCOL", state, 0, {"type": "clue", "card": state.hands[0][0], "text": "x"})
    tell(state, "Summer")
    assert GAME.view(state, 0)["hand"] == state.hands[0]


def test_dx_party_3_and_4_everyone_submits_and_votes_own_card_allowed() -> None:
    state = new(6, variant="party")
    tell(state)
    assert GAME.to_act(state) == set(range(6))
    submit_all(state)
    assert state.table is not None and len(state.table) == 6
    own = slots_of(state, 2)[0]
    GAME.apply(state, 2, {"type": "vote", "slots": [own]})
    green = slots_of(state, 1)[0]
    refused("DX-PARTY-4", state, 0, {"type": "vote", "slots": [green]})
    refused("DX-PARTY-4", state, 0, {"type": "vote", "slots": [green], "red": green})
    refused("DX-PARTY-4", state, 3, {"type": "vote", "slots": [green], "red": own})
    assert GAME.view(state, 0)["red_vote"] and not GAME.view(state, 3)["red_vote"]


def test_dx_party_6_hands_pass_left_and_dx_party_7_everyone_tells_once() -> None:
    state = new(6, variant="party")
    tellers = []
    while not state.finished:
        tellers.append(state.storyteller)
        tell(state)
        submit_all(state)
        kept = [sorted(h) for h in state.hands]
        teller = teller_of(state)
        vote_for(state, {v: [(v + 1) % 6] for v in range(6)}, red=(teller + 3) % 6)
        if not state.finished:
            for seat in range(6):
                assert set(kept[seat]) <= set(state.hands[(seat + 1) % 6])
    assert tellers == [0, 1, 2, 3, 4, 5]


def test_dx_party_7_rounds_per_player() -> None:
    state = new(6, variant="party", rounds_per_player=2)
    rounds = 0
    while not state.finished:
        rounds += 1
        tell(state)
        submit_all(state)
        vote_for(state, {v: [0] for v in range(6)}, red=1)
    assert rounds == 12


# -- Team -------------------------------------------------------------------------------

def test_dx_team_1_teams_sit_opposite_with_four_cards() -> None:
    state = new(8, variant="team")
    view = GAME.view(state, 0)
    assert view["teams"] == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert view["hand_sizes"] == [4] * 8


def test_dx_team_2_to_5_givers_voters_and_team_scores() -> None:
    state = new(6, variant="team")      # teams [0, 3], [1, 4], [2, 5]; 0 tells
    tell(state)
    assert GAME.to_act(state) == {3, 1, 4, 2, 5}
    assert GAME.legal_actions(state, 1) == [{"type": "giver", "seat": 1},
                                            {"type": "giver", "seat": 4}]
    refused("DX-TEAM-2", state, 3, {"type": "giver", "seat": 3})
    refused("DX-TEAM-2", state, 1, {"type": "giver", "seat": 2})
    GAME.apply(state, 4, {"type": "giver", "seat": 1})
    refused("DX-TEAM-2", state, 1, {"type": "giver", "seat": 4})
    refused("DX-ROUND-2", state, 4, {"type": "submit", "cards": [state.hands[4][0]]})
    assert GAME.to_act(state) == {3, 1, 2, 5}
    GAME.apply(state, 5, {"type": "giver", "seat": 5})
    submit_all(state)
    assert state.table is not None and len(state.table) == 4
    assert GAME.to_act(state) == {4, 2}      # DX-TEAM-4: no storyteller, no givers
    refused("DX-TEAM-4", state, 3, {"type": "vote", "slots": [1]})
    events = vote_for(state, {4: [0], 2: [3]})
    # 0 scores 3 (4 found, 2 did not); 4 scores 3; 3's card drew 2's vote: +1.
    assert round_points(events) == {0: 3, 4: 3, 2: 0, 3: 1}
    assert state.scores == [4, 3, 0, 4, 3, 0]


def test_dx_team_6_everyone_tells_once() -> None:
    state = new(6, variant="team")
    rounds = 0
    while not state.finished:
        rounds += 1
        tell(state)
        teller = state.storyteller
        assert teller is not None
        givers = {t: t for t in range(3) if t != teller % 3}
        submit_all(state, givers)
        vote_for(state, {v: [teller] for v in GAME.to_act(state)})
    assert rounds == 6
    outcome = GAME.outcome(state)
    assert outcome.scores[0] == outcome.scores[3]


# -- end of game ---------------------------------------------------------------------------

def test_dx_end_1_and_4_the_target_ends_the_round_and_ties_share() -> None:
    state = new(4, target_score=2)
    tell(state)
    submit_all(state)
    vote_for(state, {1: [0], 2: [0], 3: [0]})
    outcome = GAME.outcome(state)
    assert state.finished and outcome.winners == [1, 2, 3]
    assert outcome.ranking == [4, 1, 1, 1]
    refused("DX-END-4", state, 1, {"type": "claim"})


def test_dx_end_3_pt_plays_until_the_pile_is_empty() -> None:
    state = new(4, edition="PT", deck_size=40)
    rounds = 0
    while not state.finished:
        rounds += 1
        tell(state)
        submit_all(state)
        vote_for(state, {v: [teller_of(state)] for v in GAME.to_act(state)})
    assert rounds == 4 and max(state.scores) < 30 and not state.draw_pile


# -- configuration and decks ------------------------------------------------------------------

@pytest.mark.parametrize(("seats", "options", "rule"), [
    (2, {}, "DX-SETUP-3"), (13, {}, "DX-SETUP-3"), (7, {"edition": "EN"}, "DX-SETUP-3"),
    (5, {"variant": "party"}, "DX-PARTY-1"), (6, {"variant": "party", "edition": "EN"},
                                              "DX-PARTY-1"),
    (7, {"variant": "team"}, "DX-TEAM-1"), (4, {"variant": "team"}, "DX-TEAM-1"),
    (4, {"target_score": 0, "end_on_empty_deck": False}, "DX-END-4"),
    (6, {"deck_size": 41}, "DX-DECK-2"),
])
def test_refused_configurations_name_their_rule(seats: int, options: dict[str, Any],
                                                rule: str) -> None:
    with pytest.raises(ConfigError) as error:
        GAME.new_game(config(**options), seats, 1)
    assert error.value.rule == rule


def test_dx_deck_2_the_minimum_is_named() -> None:
    """DX-DECK-2: 6 players × 6 + 6 = 42."""
    with pytest.raises(ConfigError) as error:
        GAME.new_game(config(deck_size=41), 6, 1)
    assert error.value.params["minimum"] == 42
    assert "42" in str(error.value)
    assert minimum_deck(config(), 3) == 3 * 7 + 5
    assert minimum_deck(config(variant="party"), 8) == 8 * 5 + 8
    assert minimum_deck(config(variant="team"), 6) == 6 * 4 + 4


def test_edition_defaults() -> None:
    """The table "Edition defaults"."""
    for edition, cap, target, empty in (("IS", 3, 30, False), ("EN", None, 30, True),
                                        ("PT", None, None, True)):
        c = config(edition=edition)
        assert (c.capped_bonus(), c.target(), c.ends_on_empty_deck()) == (cap, target, empty)


def test_make_config_fills_in_the_deck_size_and_refuses_unknown_decks() -> None:
    with pytest.raises(ConfigError) as error:
        GAME.make_config({"deck": "no-such-deck"}, 4)
    assert error.value.rule == "DX-DECK-1"
    with pytest.raises(ConfigError):
        GAME.make_config({"colour": "red"}, 4)


def test_malformed_actions_are_refused() -> None:
    state = new(4)
    for action in ({"type": "dance"}, {"card": 1}, {"type": "clue", "card": 1}):
        refused("PROTOCOL", state, 0, action)
