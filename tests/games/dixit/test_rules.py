"""Every DX- rule of ``docs/rules/dixit.md``, one or more tests each (IDs in names)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gametable.core.errors import ConfigError, IllegalAction
from gametable.core.records import replay
from gametable.decks import find_deck
from gametable.games.dixit import DIXIT as GAME
from gametable.games.dixit.config import (
    FEWEST_CARDS,
    SEAT_RANGE,
    DixitConfig,
    cards_in_game,
    minimum_deck,
)
from gametable.games.dixit.rules import (
    CLAIM_PATIENCE,
    GIVER_PATIENCE,
    RESULT_PATIENCE,
    standings,
    team_of,
)
from gametable.simulate import play_bot_game
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


def game_cards(state: Any) -> list[int]:
    """Every card of the game: hands, piles, the table or the cards given so far."""
    cards = [c for hand in state.hands for c in hand] + state.draw_pile + state.discard_pile
    if state.table is not None:
        return sorted(cards + state.table)
    return sorted(cards + [c for given in state.submissions.values() for c in given])


def play_round(state: Any) -> None:
    """A round in which every voter finds the storyteller's card (DX-SCORE-1: 2 each)."""
    tell(state)
    submit_all(state)
    vote_for(state, {v: [teller_of(state)] for v in GAME.to_act(state)})


# -- components ------------------------------------------------------------------------

def test_dx_comp_1_and_dx_deck_4_a_game_draws_84_cards_at_random_from_the_deck() -> None:
    """DX-COMP-1, DX-DECK-4: 84 different cards of the 252, chosen by the seed."""
    games = [new(4, seed) for seed in range(5)]
    chosen = [game_cards(state) for state in games]
    for cards in chosen:
        assert len(cards) == len(set(cards)) == 84
        assert set(cards) <= set(range(252))
    assert len({tuple(cards) for cards in chosen}) == 5       # a different 84 each seed
    assert chosen[0] != list(range(84)) and chosen[0] != list(range(168, 252))
    assert game_cards(new(4, 0)) == chosen[0]                  # the seed decides (records)
    assert GAME.public_info(config(), 4)["cards_in_play"] == 84


def test_public_facts_of_a_seat_count_the_rules_refuse_are_refused_dx_setup_3() -> None:
    """``public_info`` told "99 cards a round" for 99 seats."""
    with pytest.raises(ConfigError, match="DX-SETUP-3"):
        GAME.public_info(config(), 99)
    with pytest.raises(ConfigError, match="DX-TEAM-1"):
        GAME.public_info(config(variant="team"), 5)


def test_dx_comp_2_twelve_numbered_table_slots_and_a_track_past_30() -> None:
    """DX-COMP-2: the board's 12 numbered slots hold a 12-player table (numbered 1 to 12,
    nothing beyond), and its track goes on past 30: a score over the target is kept,
    not cut to 30."""
    state = new(12)
    tell(state)
    submit_all(state)
    view = GAME.view(state, 1)
    assert view["table"] is not None and len(view["table"]) == 12
    voted = {k for action in GAME.legal_actions(state, 1) for k in action["slots"]}
    assert voted == set(range(1, 13)) - set(slots_of(state, 1))
    refused("DX-ROUND-4", state, 1, {"type": "vote", "slots": [13]})
    state.scores[0] = 29  # the storyteller, who scores 3 if some but not all find it
    vote_for(state, {v: [0] if v < 6 else [v % 11 + 1, (v + 1) % 11 + 1]
                     for v in GAME.to_act(state)})
    assert state.finished and state.scores[0] == 32  # DX-END-1: the round ends the game
    assert GAME.view(state, None)["scores"][0] == 32


def test_dx_comp_3_a_vote_is_a_table_slot_number() -> None:
    """DX-COMP-3: a vote names a slot of the table (1 to n), as a numbered token or a
    pin does; a card's number, a slot outside the table or anything but a whole number
    is refused and changes nothing."""
    state = new(6)
    tell(state)
    submit_all(state)
    assert state.table is not None
    own = slots_of(state, 2)
    assert GAME.legal_actions(state, 2) == [{"type": "vote", "slots": [k]}
                                            for k in range(1, 7) if k not in own]
    card_number = next(card for card in state.table if card > 6)
    for wrong in (0, 7, -1, card_number):
        refused("DX-ROUND-4", state, 2, {"type": "vote", "slots": [wrong]})
    for malformed in ("3", 2.5, True, None):  # not "no card 3 on the table"
        refused("PROTOCOL", state, 2, {"type": "vote", "slots": [malformed]})
    slot = next(k for k in range(1, 7) if k not in own)
    GAME.apply(state, 2, {"type": "vote", "slots": [slot]})
    assert GAME.view(state, 2)["my_vote"]["slots"] == [slot]


def test_cards_and_slots_given_as_a_number_not_a_list_are_told_the_lists_shape() -> None:
    """``{"type": "vote", "slots": 2}`` was refused as "2 is not a valid "slots" for the
    "vote" action", as if slot 2 were wrong; ``{"cards": 40}`` alike. The refusal now
    says what the field holds."""
    state = new(4)
    tell(state)
    card = state.hands[1][0]
    with pytest.raises(IllegalAction) as wrong_cards:
        GAME.apply(state, 1, {"type": "submit", "cards": card})
    assert (wrong_cards.value.rule, str(wrong_cards.value)) == (
        "PROTOCOL", 'PROTOCOL: The "submit" action\'s "cards" is a list of card numbers '
        f"from your hand (one card: [n]), not {card}.")
    submit_all(state)
    slot = next(k for k in range(1, 5) if k not in slots_of(state, 1))
    with pytest.raises(IllegalAction) as wrong_slots:
        GAME.apply(state, 1, {"type": "vote", "slots": slot})
    assert str(wrong_slots.value) == (
        'PROTOCOL: The "vote" action\'s "slots" is a list of cards on the table, numbered '
        f"from 1 (one vote: [k]), not {slot}.")
    GAME.apply(state, 1, {"type": "vote", "slots": [slot]})  # the state was untouched
    # A tuple is named as the Python type it is, as everywhere.
    with pytest.raises(IllegalAction, match="a Python tuple"):
        GAME.apply(state, 2, {"type": "vote", "slots": (slot,)})


def test_dx_deck_4_cards_in_play_all_plays_with_the_whole_deck() -> None:
    state = new(4, cards_in_play="all")
    assert game_cards(state) == list(range(252))
    assert len(state.draw_pile) == 252 - 4 * 6
    assert new(4, cards_in_play=84).draw_pile == new(4).draw_pile


def test_dx_deck_4_a_deck_smaller_than_84_plays_with_all_its_cards() -> None:
    state = new(6, deck_size=60)
    assert game_cards(state) == list(range(60))
    assert cards_in_game(config(deck_size=42)) == 42
    with pytest.raises(ConfigError) as error:                  # DX-DECK-2 still holds
        GAME.new_game(config(deck_size=41), 6, 1)
    assert error.value.rule == "DX-DECK-2"


def test_dx_deck_4_and_dx_round_6_is_reshuffles_within_the_games_84_cards() -> None:
    """DX-ROUND-6 (IS): after 15 rounds of 4 players the pile of 84 − 24 is used up; the
    discards are shuffled into a new pile, and the game goes on with the same 84 cards."""
    state = new(4)
    cards = game_cards(state)
    for _ in range(15):
        play_round(state)
    assert not state.draw_pile and len(state.discard_pile) == 60
    play_round(state)
    assert not state.finished and state.round == 17
    assert len(state.draw_pile) == 64 - 4 and not state.discard_pile
    assert game_cards(state) == cards


@pytest.mark.parametrize(("edition", "seats", "rounds"), [
    ("EN", 4, 15), ("PT", 4, 15), ("PT", 3, 13), ("PT", 6, 8), ("EN", 6, 8)])
def test_dx_deck_4_and_dx_end_2_3_en_and_pt_end_when_the_84_cards_run_out(
        edition: str, seats: int, rounds: int) -> None:
    """DX-END-2/3 within the game's 84 cards: (84 − dealt) / cards a round, the last round
    being the one whose refill empties the pile (or runs short)."""
    state = new(seats, edition=edition, target_score=0)
    played = 0
    while not state.finished:
        play_round(state)
        played += 1
    assert played == rounds and not state.draw_pile


# -- setup ---------------------------------------------------------------------------

def test_dx_setup_1_everyone_starts_at_zero() -> None:
    assert new(6).scores == [0] * 6


@pytest.mark.parametrize(("seats", "options", "size"), [
    (4, {}, 6), (3, {}, 7), (12, {}, 6), (6, {"variant": "party"}, 5),
    (8, {"variant": "team"}, 4)])
def test_dx_setup_2_hands_are_dealt_from_a_shuffled_deck(seats: int, options: dict[str, Any],
                                                         size: int) -> None:
    """DX-SETUP-2, DX-3P-1, DX-PARTY-1, DX-TEAM-1: hand sizes; the rest of the game's 84
    cards (DX-COMP-1) is the draw pile."""
    state = new(seats, **options)
    assert [len(h) for h in state.hands] == [size] * seats
    assert len(state.draw_pile) == 84 - size * seats
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


@pytest.mark.parametrize(("variant", "seats"), [("party", 6), ("base", 4)])
def test_dx_setup_4_a_clue_before_anyone_claimed_the_role_says_to_claim_it_first(
        variant: str, seats: int) -> None:
    """DX-SETUP-4: while the first storyteller is being claimed, a clue is refused citing
    DX-SETUP-4 and saying to claim the role first (not DX-ROUND-1's "Only the storyteller
    gives the clue": nobody is the storyteller yet)."""
    state = new(seats, variant=variant, first_storyteller="claim")
    clue: dict[str, Any] = {"type": "clue", "text": "A clue"}
    if variant != "party":
        clue["card"] = state.hands[1][0]
    refused("DX-SETUP-4", state, 1, clue)
    assert said(state, 1, clue) == (
        "DX-SETUP-4",
        "Nobody is the storyteller yet: claim the storyteller's role first, then give your "
        "clue.")
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, 1, clue)
    assert "sögumanns" in error.value.message("is")
    assert "fortellerrollen" in error.value.message("nb")
    assert "papel de narrador" in error.value.message("pt")
    GAME.apply(state, 1, {"type": "claim"})
    refused("DX-ROUND-1", state, 2, clue)  # the role is taken: only its holder tells


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


def test_dx_round_1_complete_action_refuses_a_clue_for_a_card_not_in_hand() -> None:
    """``complete_action`` fills in a clue's text only for a card of the seat's hand: for
    another it raises what the rules would (DX-ROUND-1, ``card_not_in_hand``; a card that
    is no number: ``PROTOCOL``) at once, instead of a clue the rules refuse later."""
    state = new(4)
    view = GAME.view(state, 0)
    rng = random.Random(1)
    other = state.hands[1][0]
    with pytest.raises(IllegalAction) as error:
        GAME.complete_action(view, {"type": "clue", "card": other, "text": "…"}, rng)
    assert error.value.rule == "DX-ROUND-1"
    assert error.value.key == "dixit.errors.card_not_in_hand"
    with pytest.raises(IllegalAction) as rules:
        GAME.apply(state, 0, {"type": "clue", "card": other, "text": "Waves"})
    assert (rules.value.rule, rules.value.key, rules.value.params) == (
        error.value.rule, error.value.key, error.value.params)
    with pytest.raises(IllegalAction) as error:
        GAME.complete_action(view, {"type": "clue", "card": "1", "text": "…"}, rng)
    assert error.value.rule == "PROTOCOL"
    card = state.hands[0][0]
    done = GAME.complete_action(view, {"type": "clue", "card": card, "text": "…"}, rng)
    assert done["card"] == card and done["text"] not in ("", "…")
    GAME.apply(state, 0, done)


def test_dx_round_1_a_clue_has_no_control_characters_or_direction_marks() -> None:
    """What the others see is what was written: a NUL, a line feed or a right-to-left
    override (which shows the rest backwards) counts as a space; an emoji's joiner
    stays."""
    state = new(4)
    card = state.hands[0][0]
    refused("DX-ROUND-1", state, 0, {"type": "clue", "card": card, "text": "\u202e\x00\n"})
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    GAME.apply(state, 0, {"type": "clue", "card": card,
                          "text": f"Far\x00away\u202e home\n{family}"})
    assert state.clue == {"text": f"Far away home {family}", "mime": False}


def test_dx_round_1_a_clue_that_shows_nothing_is_empty() -> None:
    """Zero-width spaces, word joiners and byte-order marks made a clue that looked
    empty; tag characters carried text nobody sees; a letter with 199 accents piled
    them over the table. Invisible characters count as spaces, tags stay only in a flag
    (up to its cancel tag),
    a letter keeps at most four marks; a clue showing nothing is refused."""
    state = new(4)
    card = state.hands[0][0]
    for hidden in ("\u200b" * 5, "\ufeff\u2060", "\U000e0041\U000e0042", "\u0301\u200d",
                   "\u3164\u3164", "\u2800", "\uffa0\u115f\u1160"):  # blank letters
        refused("DX-ROUND-1", state, 0, {"type": "clue", "card": card, "text": hidden})
    scotland = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    accent = "\u0301"
    after = "\U000e0068"  # a tag after the flag's cancel tag
    text = f"Hi\u200bgh\U000e0041 a{accent * 199} {scotland}{after} Việt"
    GAME.apply(state, 0, {"type": "clue", "card": card, "text": text})
    assert state.clue == {"text": f"Hi gh a{accent * 4} {scotland} Việt", "mime": False}


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


def said(state: Any, seat: int, action: dict[str, Any]) -> tuple[str, str]:
    """The rule and the message with which ``action`` is refused."""
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, seat, action)
    return error.value.rule, error.value.message()


def test_a_refused_give_or_vote_says_why_not_just_not_now() -> None:
    """A seat that may not give or vote is told why: it has given or voted already, the
    storyteller gives with the clue and never votes (DX-ROUND-1, DX-ROUND-4), there is
    no red vote outside Party (DX-ROUND-4), a card count reads as a count, its numbers
    written as words (DX-7P-1, DX-3P-2: "one or two", not "one or 2")."""
    state = new(4)
    tell(state)
    assert said(state, 0, {"type": "submit", "cards": [state.hands[0][0]]}) == (
        "DX-ROUND-2", "You have already given this round.")
    assert said(state, 1, {"type": "submit", "cards": state.hands[1][:2]}) == (
        "DX-ROUND-2", "Give exactly one card from your hand.")
    submit_all(state)
    assert said(state, 0, {"type": "vote", "slots": [1]}) == (
        "DX-ROUND-4",
        "The storyteller does not vote: the others look for the storyteller's card.")
    own = slots_of(state, 1)[0]
    other = next(k for k in range(1, 5) if k != own)
    assert said(state, 1, {"type": "vote", "slots": [other], "red": own}) == (
        "DX-ROUND-4", "There is no red vote outside Dixit Party.")
    GAME.apply(state, 1, {"type": "vote", "slots": [other]})
    assert said(state, 1, {"type": "vote", "slots": [other]}) == (
        "DX-ROUND-4", "You have already voted this round.")
    big = new(7)
    tell(big)
    submit_all(big)
    voter = min(GAME.to_act(big))
    assert said(big, voter, {"type": "vote", "slots": [1, 2, 3]}) == (
        "DX-7P-1", "Vote for one or two cards.")
    with pytest.raises(IllegalAction) as error:
        GAME.apply(big, voter, {"type": "vote", "slots": [1, 2, 3]})
    assert [error.value.message(language) for language in ("is", "nb", "pt")] == [
        "Greiddu einu eða tveimur spjöldum atkvæði.", "Stem på ett eller to kort.",
        "Vota numa carta ou em duas."]
    three = new(3)
    tell(three)
    assert said(three, 1, {"type": "submit", "cards": three.hands[1][:1]}) == (
        "DX-3P-2", "Give exactly two different cards from your hand.")


def test_team_dixit_refusals_name_the_team_rule() -> None:
    """Team Dixit (DX-TEAM-2, DX-TEAM-4): a member cannot give before the team names its
    giver, nor when it named the teammate; a giver does not vote."""
    state = new(6, variant="team")      # teams [0, 3], [1, 4], [2, 5]; 0 tells
    # Before the clue a team is told when it chooses, not that only Team Dixit has
    # givers (it is Team Dixit); the storyteller's team never chooses.
    assert said(state, 1, {"type": "giver", "seat": 1}) == (
        "DX-TEAM-2", "Your team chooses who gives once the storyteller has told the clue.")
    assert said(state, 3, {"type": "giver", "seat": 3})[1].startswith(
        "The storyteller's teammate always gives")
    base = new(4)
    tell(base)
    assert said(base, 1, {"type": "giver", "seat": 1}) == (
        "DX-TEAM-2", "Only Team Dixit has givers: at this table every player but the "
        "storyteller gives a card of their own.")
    tell(state)
    assert said(state, 1, {"type": "submit", "cards": [state.hands[1][0]]}) == (
        "DX-TEAM-2",
        "Your team has not yet chosen who gives its card: choose the giver first.")
    GAME.apply(state, 4, {"type": "giver", "seat": 1})
    assert said(state, 4, {"type": "submit", "cards": [state.hands[4][0]]}) == (
        "DX-TEAM-2", "Your teammate gives your team's card this round.")
    GAME.apply(state, 5, {"type": "giver", "seat": 5})
    submit_all(state)
    assert said(state, 3, {"type": "vote", "slots": [1]}) == (
        "DX-TEAM-4", "You gave a card this round: whoever gives a card does not vote.")
    assert said(state, 1, {"type": "giver", "seat": 1}) == (
        "DX-TEAM-2", "The cards have been given: teams choose who gives while the cards "
        "are given, after the clue.")
    assert said(state, 0, {"type": "vote", "slots": [1]})[0] == "DX-TEAM-4"


def test_dx_team_4_5_a_voter_may_vote_for_the_card_its_teammate_gave() -> None:
    """[decision, for the rules' owner] DX-ROUND-5 forbids a vote for a card one
    submitted; a Team Dixit voter did not submit its teammate's card (teammates may not
    show or describe their cards, DX-TEAM-2), so the vote stands, and by DX-TEAM-5 the
    team takes the bonus for it (the voter gives up finding the storyteller's card)."""
    state = new(6, variant="team")      # teams [0, 3], [1, 4], [2, 5]; 0 tells
    tell(state)
    submit_all(state, {1: 1, 2: 2})     # 1 gives for team 1, so 4 votes; 2 for team 2
    events = vote_for(state, {4: [1], 5: [0]})  # 4 votes for its teammate 1's card
    points = round_points(events)
    assert points[1] == 1 and points[4] == 0  # the bonus for 4's vote on 1's card
    assert state.scores[1] == state.scores[4] == 1


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


def test_dx_deck_2_the_fewest_cards_any_table_needs() -> None:
    """FEWEST_CARDS, which the deck option's schema gives the upload dialog, is the
    smallest first deal plus one round over every edition, variant and seat count."""
    fewest = min(minimum_deck(config(edition=edition, variant=variant), seats)
                 for (edition, variant), counts in SEAT_RANGE.items() for seats in counts)
    assert fewest == FEWEST_CARDS == 3 * 7 + 5
    assert GAME.describe()["config_schema"]["properties"]["deck"]["x-fewest-cards"] == fewest


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
        play_round(state)
    assert tellers == [0, 1]
    assert state.phase == "finished" and GAME.outcome(state).finished



def test_dx_round_7_the_role_passes_left_round_the_table_from_whoever_claimed_it() -> None:
    """DX-ROUND-7: from a claimed first storyteller (seat 2 of 5), the role goes to the
    next seat each round and wraps past the last seat: 2, 3, 4, 0, 1, 2."""
    state = new(5, first_storyteller="claim")
    GAME.apply(state, 2, {"type": "claim"})
    tellers = []
    for _ in range(6):
        tellers.append(state.storyteller)
        play_round(state)
    assert tellers == [2, 3, 4, 0, 1, 2]

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


def lone_finder_round(seats: int, **options: Any) -> tuple[int, int, list[str]]:
    """A round in which only seat 1 finds the storyteller's (seat 0's) card: the
    storyteller's points, seat 1's points for finding it and seat 1's reasons."""
    state = new(seats, **options)
    tell(state)
    submit_all(state)
    others = {v: [2 if v != 2 else 1] for v in range(2, seats)}
    events = vote_for(state, {1: [0], **others})
    reveal = next(e for e in events if e["type"] == "reveal")
    found = next(line["points"] for line in reveal["points"] if line["seat"] == 1)
    # The storyteller's line says why: one player found the card (not "the only one
    # to find it", which is the finder's).
    teller = [line["reason"] for line in reveal["points"] if line["seat"] == 0]
    assert teller[0] == ("dixit.reasons.storyteller_lone_finder" if found == 4
                         else "dixit.reasons.storyteller"), teller
    return round_points(events)[0], found, reasons(events, 1)


def test_dx_score_4_the_lone_finder_bonus_is_on_by_default_for_pt_with_3_players() -> None:
    """DX-SCORE-4: PT with 3 players pays 4 to the storyteller and the lone finder."""
    assert lone_finder_round(3, edition="PT") == (4, 4, ["lone_finder", "bonus"])
    assert config(edition="PT").lone_finder(3)
    assert GAME.public_info(config(edition="PT"), 3)["lone_finder_bonus"] is True


@pytest.mark.parametrize(("seats", "options", "points"), [
    (4, {"edition": "PT"}, 3), (3, {"edition": "IS"}, 3), (3, {"edition": "EN"}, 3),
    (3, {"edition": "PT", "lone_finder_bonus": False}, 3),
    (4, {"edition": "IS", "lone_finder_bonus": True}, 4),
    (3, {"edition": "EN", "lone_finder_bonus": True}, 4),
    (6, {"edition": "PT", "lone_finder_bonus": True}, 4),
    (3, {"edition": "PT", "rules_version": 1}, 3),
    (3, {"edition": "PT", "rules_version": 1, "lone_finder_bonus": True}, 4),
])
def test_dx_score_4_the_lone_finder_bonus_elsewhere_is_a_chosen_variant(
        seats: int, options: dict[str, Any], points: int) -> None:
    """DX-SCORE-4: off by default except PT with 3 players (rules version 1: off), and an
    option in every edition and player count."""
    teller, found, why = lone_finder_round(seats, **options)
    assert (teller, found) == (points, points)
    assert why[0] == ("lone_finder" if points == 4 else "found")


def test_dx_score_4_and_3_a_lone_finder_with_every_other_vote_scores_8_without_a_cap(
) -> None:
    """DX-SCORE-4 with DX-SCORE-3's uncapped bonus (PT): with six players the lone
    finder scores 4, and 1 for each of the four other voters' votes on its card, 8 in
    one round (more than the 7 the base scoring allows); with IS's cap of 3, 7."""
    for edition, bonus in (("PT", 4), ("IS", 3)):
        state = new(6, edition=edition, lone_finder_bonus=True)
        tell(state)
        submit_all(state)
        events = vote_for(state, {1: [0], 2: [1], 3: [1], 4: [1], 5: [1]})
        assert round_points(events)[1] == 4 + bonus
        assert reasons(events, 1) == ["lone_finder", "bonus"]
        assert round_points(events)[0] == 4


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


def test_dx_7p_2_the_bonus_stays_capped_at_3_with_seven_or_more_players() -> None:
    """DX-7P-2: "the cap of 3 (even if more votes were cast on the card)": a new table
    of 7 or more may not lift it (the option is the edition's choice for 3–6 players),
    and the refusal names the rule once and the choice to make, as the lobby shows it
    (the option's label and value; the API's option and value in its parameters, not
    in the text a player reads)."""
    with pytest.raises(ConfigError) as error:
        GAME.make_config({"bonus_cap": "uncapped"}, 7)
    assert error.value.rule == "DX-7P-2"
    assert str(error.value) == (
        "DX-7P-2: With 7 players each voter has two votes, and the bonus for votes on your "
        "card stays at most 3 points a round: set “Bonus for votes on your card” to "
        "“At most 3”.")
    assert error.value.params == {"seats": 7, "option": "bonus_cap", "value": "capped"}
    for language, label, value in (
            ("is", "„Bónusstig fyrir atkvæði á spjaldið þitt“", "„Mest 3“"),
            ("nb", "«Bonus for stemmer på kortet ditt»", "«Høyst 3»"),
            ("pt", "«Bónus por votos na tua carta»", "«No máximo 3»")):
        message = error.value.message(language)
        assert label in message and value in message and "7" in message
        assert "bonus_cap" not in message and "DX-" not in message
    assert GAME.make_config({"bonus_cap": "capped"}, 12).capped_bonus() == 3
    assert GAME.make_config({"bonus_cap": "uncapped"}, 6).capped_bonus() is None
    votes = {1: [0], 2: [1], 3: [1], 4: [1], 5: [1], 6: [1]}
    assert play_base(7, votes)[1] == 3 + 1 + 3  # five votes on the card, 3 of them count


def test_dx_7p_3_the_single_vote_point_counts_when_everyone_found_the_card() -> None:
    """DX-7P-3 beside DX-SCORE-1: everyone found it (the storyteller scores 0, the others
    2), and whoever cast one vote only scores its +1 too."""
    votes = {1: [0], 2: [0, 3], 3: [0], 4: [0, 1], 5: [0], 6: [0]}
    assert play_base(7, votes) == {0: 0, 1: 2 + 1 + 1, 2: 2, 3: 2 + 1 + 1, 4: 2,
                                   5: 2 + 1, 6: 2 + 1}


# -- Party ------------------------------------------------------------------------------------

def test_dx_party_2_the_storyteller_tells_before_seeing_the_hand() -> None:
    state = new(6, variant="party")
    view = GAME.view(state, 0)
    assert view["hand"] == [] and view["hand_hidden"]
    assert GAME.view(state, 1)["hand"] == state.hands[1]
    assert GAME.legal_actions(state, 0) == [{"type": "clue", "text": "…", "mime": False}]
    for card in (state.hands[0][0], state.hands[1][0], "no-such-card"):
        # Refused for naming a card at all, whichever: it tells nothing of any hand.
        refused("DX-PARTY-2", state, 0, {"type": "clue", "card": card, "text": "x"})
        with pytest.raises(IllegalAction) as error:
            GAME.apply(state, 0, {"type": "clue", "card": card, "text": "x"})
        assert error.value.key == "dixit.errors.party_clue_no_card"
        assert "before looking at their hand" in error.value.message("en")
        # Whoever may not tell now is told that first.
        refused("DX-ROUND-1", state, 1, {"type": "clue", "card": card, "text": "x"})
    tell(state, "Summer")
    assert GAME.view(state, 0)["hand"] == state.hands[0]


def test_dx_party_2_no_hand_shows_while_the_first_storyteller_is_claimed() -> None:
    """DX-PARTY-2, DX-SETUP-4: anyone may become the storyteller, so nobody sees a hand
    before the claim; then only the storyteller's stays hidden until the clue."""
    state = new(6, variant="party", first_storyteller="claim")
    assert state.phase == "claim"
    for seat in range(6):
        view = GAME.view(state, seat)
        assert view["hand"] == [] and view["hand_hidden"], seat
        assert view["hand_sizes"] == [5] * 6
    assert "hand" not in GAME.view(state, None)
    GAME.apply(state, 2, {"type": "claim"})
    assert GAME.view(state, 2)["hand"] == [] and GAME.view(state, 2)["hand_hidden"]
    for seat in (0, 1, 3, 4, 5):
        view = GAME.view(state, seat)
        assert view["hand"] == state.hands[seat] and not view["hand_hidden"]
    tell(state, "Summer")
    assert GAME.view(state, 2)["hand"] == state.hands[2]


def test_dx_party_2_the_base_game_shows_hands_while_the_role_is_claimed() -> None:
    state = new(4, first_storyteller="claim")
    assert GAME.view(state, 1)["hand"] == state.hands[1]
    assert not GAME.view(state, 1)["hand_hidden"]


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


@pytest.mark.parametrize("seats", [6, 7])
def test_dx_party_4_two_green_votes_are_refused_saying_what_the_party_vote_is(
        seats: int) -> None:
    """DX-PARTY-4: one green vote each, and the storyteller's red vote besides; two green
    votes are refused citing DX-PARTY-4 (not the base game's DX-ROUND-4, nor DX-7P-1 with
    7 or more players) and saying so, in every language."""
    state = new(seats, variant="party")
    tell(state)
    submit_all(state)
    slots = [slots_of(state, 1)[0], slots_of(state, 2)[0]]
    refused("DX-PARTY-4", state, 3, {"type": "vote", "slots": slots})
    refused("DX-PARTY-4", state, 0, {"type": "vote", "slots": slots,
                                     "red": slots_of(state, 3)[0]})
    refused("DX-PARTY-4", state, 3, {"type": "vote", "slots": []})
    assert said(state, 3, {"type": "vote", "slots": slots})[1] == (
        "In Dixit Party each player has one green vote, for one card; "
        "the storyteller also places the red vote, on a different card.")
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, 3, {"type": "vote", "slots": slots})
    assert "grænt" in error.value.message("is") and "rauða" in error.value.message("is")
    assert "grønn" in error.value.message("nb") and "verde" in error.value.message("pt")



def test_dx_party_5_same_card_voters_score_capped_at_five_alone_or_on_red_zero() -> None:
    """DX-PARTY-5: each player scores the players who voted for the same card (their own
    vote included), at most 5; a green vote on the red card scores 0, and so does a
    player alone on a card."""
    state = new(8, variant="party")
    tell(state)
    submit_all(state)
    crowd = [0, 2, 3, 4, 5, 6]                 # six on seat 1's card: 6, capped at 5
    votes = {seat: [1] for seat in crowd} | {1: [7], 7: [2]}   # 1 alone; 7 on red
    points = round_points(vote_for(state, votes, red=2))
    assert {seat: points.get(seat, 0) for seat in range(8)} == {
        0: 5, 1: 0, 2: 5, 3: 5, 4: 5, 5: 5, 6: 5, 7: 0}

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


@pytest.mark.parametrize(("variant", "seats", "times"), [("party", 6, 10), ("team", 6, 4),
                                                         ("party", 12, 5)])
def test_dx_party_7_and_dx_team_6_each_player_tells_up_to_10_times(
        variant: str, seats: int, times: int) -> None:
    """DX-PARTY-7, DX-TEAM-6: ``rounds_per_player`` from 1 to 10."""
    state = GAME.new_game(GAME.make_config({"variant": variant, "rounds_per_player": times,
                                            "first_storyteller": "first_seat"}, seats),
                          seats, 3)
    assert GAME.view(state, 0)["rounds_total"] == seats * times
    rounds = 0
    while not state.finished:
        rounds += 1
        tell(state)
        teller = teller_of(state)
        if variant == "team":
            half = seats // 2
            submit_all(state, {t: t for t in range(half) if t != teller % half})
            vote_for(state, {v: [teller] for v in GAME.to_act(state)})
        else:
            submit_all(state)
            vote_for(state, {v: [(v + 1) % seats] for v in range(seats)},
                     red=(teller + 2) % seats)
    assert rounds == seats * times and state.told == [times] * seats


def test_dx_party_7_rounds_per_player_is_1_to_10() -> None:
    for refused_value in (0, 11):
        with pytest.raises(ConfigError) as error:
            GAME.make_config({"variant": "party", "rounds_per_player": refused_value}, 6)
        assert error.value.rule == "DX-PARTY-7"  # the option's rule, named
    schema = GAME.describe()["config_schema"]["properties"]["rounds_per_player"]
    assert schema["maximum"] == 10 and schema["x-choices"] == list(range(1, 11))


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
    refused("DX-TEAM-2", state, 4, {"type": "submit", "cards": [state.hands[4][0]]})
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


def test_dx_team_5_givers_are_not_voters_and_take_no_two_points() -> None:
    """DX-TEAM-5: when every voter finds the card, the voters of DX-TEAM-4 score 2 for
    their teams; the storyteller's team and the givers' own cards score nothing."""
    state = new(6, variant="team")      # teams [0, 3], [1, 4], [2, 5]; 0 tells
    tell(state)
    submit_all(state, {1: 1, 2: 5})     # 3 gives for 0's team, 1 and 5 for theirs
    assert sorted(GAME.to_act(state)) == [2, 4]
    events = vote_for(state, {4: [0], 2: [0]})
    assert round_points(events) == {0: 0, 4: 2, 2: 2}
    assert state.scores == [0, 2, 2, 0, 2, 2]


def test_dx_team_5_nobody_finds_the_card_but_both_voters_chose_the_teammates() -> None:
    """docs/dixit.md's example (DX-TEAM-5, scoring by the base rules summed per team):
    nobody finds the storyteller's card, so each voter scores 2 for its team, and both
    chose the storyteller's teammate's card, whose 2 of bonus go to the storyteller's
    team: every team 2, ``[2, 2, 2, 2, 2, 2]``."""
    state = new(6, variant="team")      # teams [0, 3], [1, 4], [2, 5]; 0 tells, 3 gives
    tell(state)
    submit_all(state, {1: 1, 2: 2})     # 1 and 2 give; 4 and 5 vote
    assert sorted(GAME.to_act(state)) == [4, 5]
    events = vote_for(state, {4: [3], 5: [3]})
    assert round_points(events) == {0: 0, 3: 2, 4: 2, 5: 2}
    assert state.history[-1]["gained"] == state.scores == [2, 2, 2, 2, 2, 2]


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


@pytest.mark.parametrize(("before_last_round", "ranking"), [
    ([10, 4, 7], [1, 3, 2, 1, 3, 2]),      # not 1, 5, 3: each team's score is on two seats
    ([10, 5, 7], [1, 2, 2, 1, 2, 2]),      # 12, 7, 7: the tied teams share second place
    ([10, 10, 14], [2, 2, 1, 2, 2, 1]),    # 12, 12, 14: the tied teams share second place
])
def test_dx_team_6_the_ranking_ranks_the_teams_and_both_members_share_it(
        before_last_round: list[int], ranking: list[int]) -> None:
    """DX-TEAM-6, DX-END-4: the team with most points wins; the view's, the outcome's and
    the last event's ranking place the teams 1, 2, 3 (ties shared as the base game shares
    them) and give both members their team's place."""
    state = new(6, variant="team")      # teams [0, 3], [1, 4], [2, 5]; 0 tells first
    events: list[Any] = []
    while not state.finished:
        if sum(state.told) == 5:        # the last round: 5 tells, teams 0 and 1 vote
            state.scores = before_last_round * 2
        tell(state)
        teller = teller_of(state)
        submit_all(state, {t: t for t in range(3) if t != teller % 3})
        events = vote_for(state, {v: [teller] for v in GAME.to_act(state)})
    assert teller_of(state) == 5        # everyone found the card: teams 0 and 1 take 2
    assert GAME.outcome(state).ranking == ranking
    assert GAME.view(state, 0)["ranking"] == ranking
    assert GAME.view(state, None)["ranking"] == ranking
    assert next(e for e in events if e["type"] == "finished")["ranking"] == ranking


def test_dx_end_4_party_and_the_base_game_rank_each_seat() -> None:
    """DX-END-4, DX-PARTY-7: outside Team Dixit every seat has its own place, ties
    shared (1, 2, 2, 4)."""
    assert standings([5, 3, 3, 1], "base") == [1, 2, 2, 4]
    assert standings([5, 3, 3, 1, 0, 5], "party") == [1, 3, 3, 5, 6, 1]
    assert standings([5, 3, 3, 5, 3, 3], "team") == [1, 2, 2, 1, 2, 2]


# -- end of game ---------------------------------------------------------------------------

def test_dx_end_1_and_4_the_target_ends_the_round_and_ties_share() -> None:
    state = new(4, target_score=2)
    tell(state)
    submit_all(state)
    vote_for(state, {1: [0], 2: [0], 3: [0]})
    outcome = GAME.outcome(state)
    assert state.finished and outcome.winners == [1, 2, 3]
    assert outcome.ranking == [4, 1, 1, 1]
    assert GAME.view(state, 0)["ended_by"] == GAME.view(state, None)["ended_by"] == "target"
    refused("DX-END-4", state, 1, {"type": "claim"})


def test_dx_end_2_the_en_game_ends_when_a_player_reaches_30() -> None:
    """DX-END-2 (EN): reaching 30 points ends the game (the EN default target)."""
    state = new(4, edition="EN")
    state.scores = [28, 0, 0, 0]
    tell(state)
    submit_all(state)
    vote_for(state, {1: [0], 2: [3], 3: [1]})
    assert state.finished and state.scores[0] == 31
    assert GAME.outcome(state).winners == [0]


def test_dx_round_6_en_the_game_ends_when_the_pile_runs_short_during_a_refill() -> None:
    """DX-ROUND-6 with DX-END-2 (EN): the refill draws what is left, and the last card
    drawn ends the game, some hands short."""
    state = new(4, edition="EN", deck_size=4 * 6 + 6, cards_in_play="all")
    rounds = 0
    while not state.finished:
        rounds += 1
        play_round(state)
    assert rounds == 2 and not state.draw_pile
    assert sorted(len(hand) for hand in state.hands) == [5, 5, 6, 6]
    assert GAME.outcome(state).finished
    assert GAME.view(state, 1)["ended_by"] == "pile"


def test_dx_end_3_pt_plays_until_the_pile_is_empty() -> None:
    state = new(4, edition="PT", deck_size=40)
    rounds = 0
    while not state.finished:
        rounds += 1
        play_round(state)
    assert rounds == 4 and max(state.scores) < 30 and not state.draw_pile
    assert GAME.view(state, 0)["ended_by"] == "pile"


@pytest.mark.parametrize(("seats", "options", "ended_by"), [
    (4, {"edition": "EN"}, {"target", "pile"}),
    (3, {"edition": "PT"}, {"pile"}),
    (6, {"variant": "party"}, {"rounds"}),
    (6, {"variant": "team"}, {"rounds"}),
    (6, {"variant": "party", "rounds_per_player": 2}, {"rounds"}),
])
def test_dx_end_the_view_says_what_ended_the_game(
        seats: int, options: dict[str, Any], ended_by: set[str]) -> None:
    """DX-END-1/2/3, DX-PARTY-7, DX-TEAM-6: a finished game's view says what ended it
    (``ended_by``), for every seat and someone watching; ``None`` while it runs. The
    target is named only when a seat reached it, the rounds only when every seat told."""
    seen = set()
    for seed in range(4):
        record, outcome = play_bot_game("dixit", options, ["random"] * seats, seed)
        assert outcome.finished
        state = replay(record).state
        reason = GAME.view(state, None)["ended_by"]
        assert {GAME.view(state, s)["ended_by"] for s in range(seats)} == {reason}
        target = state.config.target()
        reached = target is not None and max(state.scores) >= target
        assert (reason == "target") == (state.config.variant == "base" and reached)
        if reason == "rounds":
            assert min(state.told) >= state.config.rounds_per_player
        seen.add(reason)
        first = GAME.new_game(state.config, seats, seed)
        assert GAME.view(first, 0)["ended_by"] is None
    assert seen <= ended_by and seen


# -- configuration and decks ------------------------------------------------------------------

@pytest.mark.parametrize(("seats", "options", "rule"), [
    (2, {}, "DX-SETUP-3"), (13, {}, "DX-SETUP-3"), (7, {"edition": "EN"}, "DX-SETUP-3"),
    (5, {"variant": "party"}, "DX-PARTY-1"), (6, {"variant": "party", "edition": "EN"},
                                              "DX-PARTY-1"),
    (7, {"variant": "team"}, "DX-TEAM-1"), (4, {"variant": "team"}, "DX-TEAM-1"),
    (4, {"target_score": 0, "end_on_empty_deck": False}, "DX-END-4"),
    (6, {"deck_size": 41}, "DX-DECK-2"),
    (6, {"variant": "party", "end_on_empty_deck": True}, "DX-PARTY-7"),
    (8, {"variant": "team", "end_on_empty_deck": True}, "DX-TEAM-6"),
])
def test_refused_configurations_name_their_rule(seats: int, options: dict[str, Any],
                                                rule: str) -> None:
    with pytest.raises(ConfigError) as error:
        GAME.new_game(config(**options), seats, 1)
    assert error.value.rule == rule


@pytest.mark.parametrize("variant", ["party", "team"])
def test_party_and_team_end_when_everyone_has_told_not_on_an_empty_draw_pile(
        variant: str) -> None:
    """DX-PARTY-7, DX-TEAM-6: Party and Team end once every player has been the
    storyteller, the discard pile shuffled in whenever the draw pile runs out. Rules 2
    and 3 took ``end_on_empty_deck`` and ended a 12-seat game after two or six rounds,
    before most had told; records of such games still replay so. The lobby offers the
    option for the base game only."""
    with pytest.raises(ConfigError) as error:
        GAME.make_config({"variant": variant, "end_on_empty_deck": True}, 12)
    assert "every player has been the storyteller" in str(error.value)
    assert "end_on_empty_deck" in str(error.value)
    old = GAME.make_config({"variant": variant, "end_on_empty_deck": True,
                            "rules_version": 3}, 12)
    assert old.ends_on_empty_deck()
    assert GAME.make_config({"variant": variant, "end_on_empty_deck": False}, 12)
    option = GAME.describe()["config_schema"]["properties"]["end_on_empty_deck"]
    assert option["x-when"] == {"variant": ["base"]}


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


def test_the_options_schema_offers_each_option_only_in_the_variants_it_counts_in() -> None:
    """The lobby shows an option only while ``x-when`` holds: the bonus options count in
    the base scoring, which Team keeps (DX-SCORE-3/4, DX-TEAM-5) and Party replaces
    (DX-PARTY-5); the target score ends only the base game (DX-END-1/2), Party and Team
    ending by turns as storyteller (DX-PARTY-7, DX-TEAM-6), the option for which only they
    offer."""
    properties = GAME.describe()["config_schema"]["properties"]
    when = {name: field.get("x-when") for name, field in properties.items()}
    assert when["bonus_cap"] == {"variant": ["base", "team"]}
    assert when["lone_finder_bonus"] == {"variant": ["base", "team"]}
    assert when["target_score"] == {"variant": ["base"]}
    assert when["rounds_per_player"] == {"variant": ["party", "team"]}
    for name in ("edition", "variant", "mime_or_music", "cards_in_play",
                 "first_storyteller", "deck", "clue_language"):
        assert when[name] is None, name        # every variant plays with these


@pytest.mark.parametrize(("variant", "hidden"), [
    ("party", {"bonus_cap": "uncapped", "lone_finder_bonus": True, "target_score": 5}),
    ("team", {"target_score": 5}),
])
def test_an_option_the_schema_hides_in_a_variant_changes_nothing_there(
        variant: str, hidden: dict[str, Any]) -> None:
    """What ``x-when`` hides plays no part: the same seats and seed make the same game
    with those options as without them."""
    options = {"variant": variant, "first_storyteller": "first_seat"}
    plain, plain_outcome = play_bot_game("dixit", options, ["random"] * 6, seed=3)
    other, other_outcome = play_bot_game("dixit", {**options, **hidden}, ["random"] * 6,
                                         seed=3)
    assert plain_outcome.finished and other_outcome.finished
    assert [(a.seat, a.action) for a in other.actions] == [
        (a.seat, a.action) for a in plain.actions]
    assert other_outcome.scores == plain_outcome.scores


def test_rules_version_1_dx_deck_4_plays_the_whole_deck_as_first_released() -> None:
    """Rules version 1 (records made before DX-DECK-4): the whole deck is the draw pile,
    dealt exactly as then; an explicit ``cards_in_play`` still counts."""
    old = new(4, rules_version=1)
    assert game_cards(old) == list(range(252))
    assert len(old.draw_pile) == 252 - 24
    assert cards_in_game(config(rules_version=1, cards_in_play=84)) == 84
    # The game's 84 are the top of the same shuffled deck: the hands are those of version 1.
    assert new(4).hands == old.hands
    assert GAME.make_config({"rules_version": 1}, 4).lone_finder(3) is False
    assert DixitConfig(edition="PT", rules_version=1).lone_finder(3) is False


def test_make_config_fills_in_the_deck_size_and_refuses_unknown_decks() -> None:
    with pytest.raises(ConfigError) as error:
        GAME.make_config({"deck": "no-such-deck"}, 4)
    assert error.value.rule == "DX-DECK-1"
    with pytest.raises(ConfigError):
        GAME.make_config({"colour": "red"}, 4)


def test_dx_deck_1_a_record_replays_without_its_deck() -> None:
    """Cards are numbers 0 … deck_size − 1 (DX-DECK-1): a record of a game played with an
    uploaded deck, which carries the deck's size, replayed where that deck is not
    installed, was refused ("There is no deck called …"), `gametable replay` included.
    It now replays by the numbers; the size must still be enough (DX-DECK-2)."""
    record, outcome = play_bot_game("dixit", {}, ["greedy"] * 4, seed=3)
    assert record.config.get("deck", "default") == "default"
    elsewhere = record.model_copy(update={"config": {**record.config,
                                                     "deck": "0123456789abcdef"}})
    replayed = replay(elsewhere)
    default = find_deck("default")
    assert default is not None
    assert replayed.game.outcome(replayed.state) == outcome
    assert getattr(replayed.config, "deck_size", None) == len(default)
    with pytest.raises(ConfigError) as error:
        GAME.make_config({"deck": "0123456789abcdef", "deck_size": 20}, 4)
    assert error.value.rule == "DX-DECK-2"


def test_dx_deck_1_a_deck_size_other_than_the_decks_is_refused_not_overwritten() -> None:
    """``deck_size`` is the chosen deck's number of cards (DX-DECK-1: cards are the deck's
    pictures, numbered 0 … deck_size − 1): records carry it, and the same number is
    accepted; another is refused, naming the deck's size, instead of being replaced
    without a word."""
    deck = find_deck("default")
    assert deck is not None
    cards = len(deck)
    assert GAME.make_config({"deck_size": cards}, 4).deck_size == cards
    for given in (cards + 48, 84, 1):
        with pytest.raises(ConfigError) as error:
            GAME.make_config({"deck_size": given}, 4)
        assert error.value.rule == "DX-DECK-1"
        assert error.value.key == "dixit.errors.deck_size_not_the_decks"
        assert str(error.value) == (f'DX-DECK-1: The deck "{deck.name}" has {cards} cards, '
                                    f"not {given}: deck_size is filled in from the deck.")
    with pytest.raises(ConfigError) as error:
        GAME.make_config({"deck_size": "84"}, 4)
    assert error.value.key == "errors.bad_option"


def test_malformed_actions_are_refused() -> None:
    state = new(4)
    for action in ({"type": "dance"}, {"card": 1}, {"type": "clue", "card": 1}):
        refused("PROTOCOL", state, 0, action)


def test_every_view_keeps_the_earlier_rounds_for_the_history_panel() -> None:
    """Each finished round stays in the view (``history``, all but the latest, which is
    ``last_round``): public once revealed, so every seat and a spectator see the same."""
    state = new(4)
    tell(state, "First")
    submit_all(state)
    vote_for(state, {1: [0], 2: [3], 3: [1]})
    assert GAME.view(state, 0)["history"] == []
    tell(state, "Second")
    submit_all(state)
    assert state.storyteller == 1
    vote_for(state, {0: [1], 2: [1], 3: [0]})
    views = [GAME.view(state, seat) for seat in (0, 1, 2, 3, None)]
    first = views[0]["history"]
    assert [r["round"] for r in first] == [1]
    assert first[0]["clue"]["text"] == "First" and first[0]["gained"] == [3, 4, 0, 1]
    assert views[0]["last_round"]["clue"]["text"] == "Second"
    assert all(view["history"] == first for view in views)


def test_each_round_says_at_which_action_it_ended() -> None:
    """A round's summary carries the game's action count once its last action is applied
    (docs/dixit.md): the page names a seat, for the rounds begun before a computer player
    took it over, by its person (``bot_since``). A take-back counts as an action."""
    state = new(4)
    tell(state, "First")
    submit_all(state)
    vote_for(state, {1: [0], 2: [3], 3: [1]})
    assert state.history[-1]["actions"] == state.actions
    ended = state.actions
    tell(state, "Second")
    submit_all(state)
    vote_for(state, {0: [1]})
    GAME.apply(state, 0, {"type": "take_back"})
    vote_for(state, {0: [1], 2: [1], 3: [0]})
    assert state.history[-1]["actions"] == state.actions == ended + 1 + 3 + 1 + 1 + 3
    assert GAME.view(state, None)["last_round"]["actions"] == state.actions


def test_a_computer_storyteller_lets_the_last_result_be_read_before_telling() -> None:
    """A computer storyteller told the next clue at once, and with computer players giving
    and voting as fast a big screen showed each round's result for about two seconds.
    From the second round it waits :data:`RESULT_PATIENCE` bot delays before telling,
    whoever is at the table; the first clue, and claiming the role at a table of
    computer players alone (nobody to let claim first), wait nothing more."""
    state = GAME.new_game(GAME.make_config({"first_storyteller": "first_seat"}, 4), 4, 3)
    assert GAME.view(state, 0)["phase"] == "clue"
    assert GAME.patience(GAME.view(state, 0), frozenset()) == 0.0
    tell(state, "First")
    submit_all(state)
    vote_for(state, {1: [2], 2: [1], 3: [0]})
    storyteller = GAME.view(state, None)["storyteller"]
    view = GAME.view(state, storyteller)
    assert (view["round"], view["phase"]) == (2, "clue")
    assert GAME.patience(view, frozenset()) == RESULT_PATIENCE
    assert GAME.patience(view, frozenset({0})) == RESULT_PATIENCE
    claiming = GAME.new_game(GAME.make_config({}, 4), 4, 3)
    assert GAME.view(claiming, 0)["phase"] == "claim"
    assert GAME.patience(GAME.view(claiming, 0), frozenset()) == 0.0
    assert GAME.patience(GAME.view(claiming, 0), frozenset({1})) == CLAIM_PATIENCE


def test_dx_team_2_a_computer_teammate_waits_for_a_person_to_name_the_giver() -> None:
    """DX-TEAM-2 [decision]: at the start of a round the seat of a team that must name
    its giver waits 12 bot delays when its teammate is a person, none when it is a
    computer player, and none once the giver is named."""
    game = GAME
    state = game.new_game(game.make_config(
        {"variant": "team", "first_storyteller": "first_seat"}, 6), 6, 5)
    game.apply(state, 0, {"type": "clue", "card": state.hands[0][0], "text": "Tide"})
    view = game.view(state, 4)  # seat 4's team (1 and 4) names its giver; 1 is its mate
    assert team_of(4, 6) != team_of(0, 6) and "1" not in view["givers"]
    assert game.patience(view, frozenset({1})) == GIVER_PATIENCE
    assert game.patience(view, frozenset({2})) == 0.0
    assert game.patience(game.view(state, 3), frozenset({0})) == 0.0  # the storyteller's mate gives
    game.apply(state, 1, {"type": "giver", "seat": 1})
    assert game.patience(game.view(state, 4), frozenset({1})) == 0.0


@pytest.mark.parametrize("variant, seat_counts", [
    ("base", range(3, 13)), ("party", range(6, 13)), ("team", (6, 8, 10, 12))])
def test_dx_setup_1_every_rabbit_starts_at_zero(variant: str, seat_counts: range) -> None:
    """DX-SETUP-1, in every variant and at every seat count it allows: each seat's score
    starts at 0, in the state and in every seat's view."""
    for seats in seat_counts:
        state = new(seats, seed=seats, variant=variant)
        assert state.scores == [0] * seats
        for seat in range(seats):
            assert GAME.view(state, seat)["scores"] == [0] * seats


def test_dx_team_3_the_storytellers_card_is_shuffled_in_with_the_cards_received() -> None:
    """DX-TEAM-3: the table is the storyteller's own card and the cards received (the
    teammate's and one from each other team's giver), shuffled: over many deals the
    storyteller's card lies in every slot."""
    slots: set[int] = set()
    for seed in range(40):
        state = new(6, seed=seed, variant="team")  # teams [0, 3], [1, 4], [2, 5]; 0 tells
        told = state.hands[0][0]
        tell(state)
        submit_all(state, givers={1: 4, 2: 2})
        assert state.table is not None
        assert sorted(state.table) == sorted(
            [told, *state.submissions[3], *state.submissions[4], *state.submissions[2]])
        slots.add(state.table.index(told) + 1)
    assert slots == {1, 2, 3, 4}
