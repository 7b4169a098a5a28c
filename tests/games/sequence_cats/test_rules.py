"""Sequence Cats rules, one test (at least) per rule ID of docs/rules/sequence-cats.md."""

from __future__ import annotations

from typing import Any

import pytest

from gametable.core.config import RULES_VERSION
from gametable.core.errors import ConfigError, IllegalAction
from gametable.games.sequence_cats import SEQUENCE_CATS as GAME
from gametable.games.sequence_cats.cards import CARD_NUMBER, DECK_SIZE
from gametable.games.sequence_cats.state import EMPTY, SequenceCatsState
from tests.games.sequence_cats.helpers import give, hand, new, place, space, spaces_of


def refused(state: SequenceCatsState, seat: int, action: dict[str, Any], rule: str) -> str:
    """Assert the action is refused under ``rule`` and the state is untouched."""
    before = GAME.snapshot(state)
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, seat, action)
    assert error.value.rule == rule, str(error.value)
    assert GAME.snapshot(state) == before
    return str(error.value)


def play(card: str, at: str) -> dict[str, Any]:
    return {"type": "play", "card": card, "space": at}


# -- players and teams -------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_sc_play_1_two_to_six_players_except_five(seats: int) -> None:
    """SC-PLAY-1: 2, 3, 4 and 6 players are accepted."""
    assert len(new(seats).hands) == seats


def test_sc_play_1_five_players_are_refused_with_a_clear_error() -> None:
    """SC-PLAY-1: 5 players cannot be split evenly into teams."""
    with pytest.raises(ConfigError) as error:
        GAME.make_config({}, 5)
    assert error.value.rule == "SC-PLAY-1"
    assert "cannot be played with 5 players" in str(error.value)


@pytest.mark.parametrize("seats", [0, 1, 7, 12])
def test_sc_play_1_other_counts_are_refused(seats: int) -> None:
    """SC-PLAY-1: fewer than 2 or more than 6 players are refused."""
    with pytest.raises(ConfigError, match=f"not {seats}"):
        GAME.make_config({}, seats)


@pytest.mark.parametrize(("seats", "teams", "team_of"), [
    (2, None, [0, 1]),
    (3, None, [0, 1, 2]),
    (4, None, [0, 1, 0, 1]),
    (6, 2, [0, 1, 0, 1, 0, 1]),
    (6, 3, [0, 1, 2, 0, 1, 2]),
    (6, None, [0, 1, 2, 0, 1, 2]),
])
def test_sc_play_1_teammates_alternate_and_share_a_colour(
    seats: int, teams: int | None, team_of: list[int]
) -> None:
    """SC-PLAY-1: teammates never sit side by side, so turns alternate between teams."""
    assert new(seats, teams=teams).team_of == team_of


@pytest.mark.parametrize(("seats", "teams"), [(2, 3), (3, 2), (4, 3)])
def test_sc_play_1_team_choices_that_do_not_fit_are_refused(seats: int, teams: int) -> None:
    """SC-PLAY-1: only 6 players choose between 2 and 3 teams."""
    with pytest.raises(ConfigError) as error:
        GAME.make_config({"teams": teams}, seats)
    assert error.value.rule == "SC-PLAY-1"


@pytest.mark.parametrize(("seats", "size"), [(2, 5), (3, 5), (4, 4), (6, 4)])
def test_sc_deal_1_hand_sizes(seats: int, size: int) -> None:
    """SC-DEAL-1: 5 cards each for 2–3 players, 4 for 4–6."""
    state = new(seats)
    assert [len(h) for h in state.hands] == [size] * seats
    assert len(state.pile) == DECK_SIZE - size * seats


# -- a turn ------------------------------------------------------------------------


def test_sc_turn_1_seat_zero_starts_and_play_goes_clockwise() -> None:
    """SC-TURN-1: the player left of the dealer starts; play goes clockwise."""
    state = new(3)
    order = []
    for _ in range(6):
        (seat,) = GAME.to_act(state)
        order.append(seat)
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert order == [0, 1, 2, 0, 1, 2]


def test_sc_turn_1_acting_out_of_turn_is_refused() -> None:
    """SC-TURN-1: only the seat whose turn it is may act; the message names both seats
    as the API counts them, from 0 (it told seat 1 "seat 1 is to play"; a table names
    the player instead)."""
    state = new()
    action = GAME.legal_actions(state, 0)[0]
    message = refused(state, 1, action, "SC-TURN-1")
    assert "It is not seat 1's turn: seat 0 is to play." in message
    assert GAME.legal_actions(state, 1) == []


def test_sc_turn_2_play_a_card_and_place_a_chip_on_its_space() -> None:
    """SC-TURN-2: the card goes face up on your discard pile, a chip on its space."""
    state = new()
    give(state, 0, ["bengal", "korat", "manx", "bombay", "sphynx"])
    target = spaces_of(state, "bengal")[1]
    events = GAME.apply(state, 0, play("bengal", target))
    assert state.cells[space(state, target)] == 0
    assert GAME.view(state, 1)["discards"][0] == ["bengal"]
    assert events[0] == {"type": "place", "seat": 0, "card": "bengal", "space": target,
                         "team": 0}


def test_sc_turn_2_either_of_the_two_spaces_may_be_chosen() -> None:
    """SC-TURN-2: a card may be played on either of its two spaces while free."""
    state = new()
    give(state, 0, ["bengal", "korat", "manx", "bombay", "sphynx"])
    first, second = spaces_of(state, "bengal")
    assert {a["space"] for a in GAME.legal_actions(state, 0) if a["card"] == "bengal"} == {
        first, second}
    place(state, {first: 1})
    assert [a["space"] for a in GAME.legal_actions(state, 0) if a["card"] == "bengal"] == [
        second]


def test_sc_turn_2_a_card_goes_only_on_its_own_breed() -> None:
    """SC-TURN-2: the chip must go on a space showing the card's breed."""
    state = new()
    give(state, 0, ["bengal", "korat", "manx", "bombay", "sphynx"])
    message = refused(state, 0, play("bengal", spaces_of(state, "korat")[0]), "SC-TURN-2")
    assert "Bengal cannot go on" in message


def test_sc_turn_2_a_card_not_in_hand_is_refused() -> None:
    """SC-TURN-2: you can only play a card from your hand."""
    state = new()
    give(state, 0, ["bengal", "korat", "manx", "bombay", "sphynx"])
    refused(state, 0, play("ragdoll", spaces_of(state, "ragdoll")[0]), "SC-TURN-2")


def test_sc_turn_2_a_covered_space_is_refused() -> None:
    """SC-TURN-2: the space must be free."""
    state = new()
    give(state, 0, ["bengal", "korat", "manx", "bombay", "sphynx"])
    target = spaces_of(state, "bengal")[0]
    place(state, {target: 1})
    assert "already holds a chip" in refused(state, 0, play("bengal", target), "SC-TURN-2")


def test_sc_turn_3_the_card_is_replaced_from_the_draw_pile() -> None:
    """SC-TURN-3: after playing, the seat draws (automatically) from the draw pile."""
    state = new()
    top = state.pile[-1]
    pile = len(state.pile)
    GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    assert len(state.hands[0]) == 5
    assert state.hands[0][-1] == top
    assert len(state.pile) == pile - 1


def test_sc_turn_4_a_placed_chip_stays_until_a_meow() -> None:
    """SC-TURN-4: no card but MEOW takes a chip off the board."""
    state = new()
    give(state, 0, ["bengal", "korat", "manx", "bombay", "sphynx"])
    target = spaces_of(state, "bengal")[0]
    GAME.apply(state, 0, play("bengal", target))
    give(state, 1, ["bengal", "purrr", "korat", "manx", "meow"])
    refused(state, 1, play("bengal", target), "SC-TURN-2")
    refused(state, 1, play("purrr", target), "SC-PURR-1")
    assert state.cells[space(state, target)] == 0
    GAME.apply(state, 1, play("meow", target))
    assert state.cells[space(state, target)] == EMPTY


def test_sc_purr_1_purrr_places_a_chip_on_any_free_space() -> None:
    """SC-PURR-1: discard PURRR and place a chip on any free space."""
    state = new()
    give(state, 0, ["purrr", "korat", "manx", "bombay", "sphynx"])
    purrr_spaces = {a["space"] for a in GAME.legal_actions(state, 0) if a["card"] == "purrr"}
    assert len(purrr_spaces) == 84
    GAME.apply(state, 0, play("purrr", "E3"))
    assert state.cells[space(state, "E3")] == 0
    assert state.discards[0] == [CARD_NUMBER["purrr"]]


def test_sc_purr_1_purrr_cannot_cover_a_chip_or_a_free_corner() -> None:
    """SC-PURR-1: only free (chip-less) breed spaces; corners are already everyone's."""
    state = new()
    give(state, 0, ["purrr", "korat", "manx", "bombay", "sphynx"])
    place(state, {"E3": 1})
    refused(state, 0, play("purrr", "E3"), "SC-PURR-1")
    assert "free corner" in refused(state, 0, play("purrr", "A1"), "SC-PURR-1")


def test_sc_meow_1_meow_removes_an_opponent_chip_and_ends_the_turn() -> None:
    """SC-MEOW-1: remove one opponent chip; no chip is placed; the turn passes."""
    state = new()
    give(state, 0, ["meow", "korat", "manx", "bombay", "sphynx"])
    place(state, {"E3": 1, "F3": 0})
    targets = [a["space"] for a in GAME.legal_actions(state, 0) if a["card"] == "meow"]
    assert targets == ["E3"]
    events = GAME.apply(state, 0, play("meow", "E3"))
    assert state.cells[space(state, "E3")] == EMPTY
    assert state.cells[space(state, "F3")] == 0
    assert events[0]["type"] == "remove"
    assert GAME.to_act(state) == {1}


def test_sc_meow_1_the_freed_space_cannot_be_taken_in_the_same_turn() -> None:
    """SC-MEOW-1: you may not place a chip on that space in the same turn."""
    state = new()
    give(state, 0, ["meow", "abyssinian", "manx", "bombay", "sphynx"])
    place(state, {"E3": 1})
    GAME.apply(state, 0, play("meow", "E3"))
    refused(state, 0, play("abyssinian", "E3"), "SC-TURN-1")


def test_sc_meow_1_only_an_opponent_chip_can_be_removed() -> None:
    """SC-MEOW-1: not your own (or your team's) chip, and not an empty space."""
    state = new(4)
    give(state, 0, ["meow", "korat", "manx", "bombay"])
    place(state, {"E3": 0, "F3": 0})  # seat 2 is seat 0's teammate: team 0
    assert "own team" in refused(state, 0, play("meow", "E3"), "SC-MEOW-1")
    assert "no chip" in refused(state, 0, play("meow", "G3"), "SC-MEOW-1")
    refused(state, 0, play("meow", "A1"), "SC-MEOW-1")


def test_sc_meow_2_a_chip_in_a_completed_sequence_cannot_be_removed() -> None:
    """SC-MEOW-2: a completed sequence can never be broken."""
    state = new(sequences_to_win=2)
    place(state, {"B3": 1, "C3": 1, "D3": 1, "E3": 1, "H5": 1})
    give(state, 0, ["korat", "manx", "bombay", "sphynx", "ragdoll"])
    GAME.apply(state, 0, play("korat", "F1"))
    give(state, 1, ["russian-blue", "korat", "manx", "bombay", "sphynx"])
    GAME.apply(state, 1, play("russian-blue", "F3"))
    assert len(state.sequences[1]) == 1
    give(state, 0, ["meow", "manx", "bombay", "sphynx", "ragdoll"])
    targets = {a["space"] for a in GAME.legal_actions(state, 0) if a["card"] == "meow"}
    assert targets == {"H5"}
    assert "completed sequence" in refused(state, 0, play("meow", "C3"), "SC-MEOW-2")


def test_sc_dead_1_rules_1_a_dead_card_may_be_exchanged_once_then_play_goes_on() -> None:
    """SC-DEAD-1, rules 1: announce a dead card, discard it, draw a replacement, play."""
    state = new(rules_version=1)
    give(state, 0, ["korat", "manx", "bombay", "sphynx", "ragdoll"])
    place(state, {label: 1 for label in spaces_of(state, "korat")})
    assert GAME.view(state, 0)["dead"] == ["korat"]
    assert {"type": "exchange", "card": "korat"} in GAME.legal_actions(state, 0)
    # By the first rules the exchange is optional: the seat may play at once.
    assert play("manx", "H2") in GAME.legal_actions(state, 0)
    top = state.pile[-1]
    events = GAME.apply(state, 0, {"type": "exchange", "card": "korat"})
    assert events == [{"type": "exchange", "seat": 0, "card": "korat"}]
    assert "korat" not in hand(state, 0) or top == CARD_NUMBER["korat"]
    assert len(state.hands[0]) == 5 and state.hands[0][-1] == top
    assert state.discards[0] == [CARD_NUMBER["korat"]]
    assert GAME.to_act(state) == {0}
    assert all(a["type"] != "exchange" for a in GAME.legal_actions(state, 0))
    GAME.apply(state, 0, play("manx", spaces_of(state, "manx")[0]))
    assert GAME.to_act(state) == {1}


def test_sc_dead_1_a_dead_card_must_be_exchanged_before_playing() -> None:
    """SC-DEAD-1: holding dead cards, a seat may only exchange one (it chooses which)."""
    state = new()
    give(state, 0, ["korat", "manx", "bombay", "sphynx", "ragdoll"])
    place(state, {label: 1 for b in ("korat", "manx") for label in spaces_of(state, b)})
    assert GAME.start_turn(state) == []  # two dead cards: the seat chooses, nothing is automatic
    assert GAME.legal_actions(state, 0) == [{"type": "exchange", "card": "manx"},
                                            {"type": "exchange", "card": "korat"}]
    message = refused(state, 0, play("bombay", "H5"), "SC-DEAD-1")
    assert "exchange one before you play" in message and "Manx" in message
    events = GAME.apply(state, 0, {"type": "exchange", "card": "manx"})
    assert events[0] == {"type": "exchange", "seat": 0, "card": "manx"}
    # One dead card per turn: Korat stays in hand, and the seat now plays.
    assert "korat" in hand(state, 0)
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"play"}
    GAME.apply(state, 0, play("bombay", "H5"))
    assert GAME.to_act(state) == {1}


def test_sc_dead_1_the_only_possible_exchange_is_made_automatically_and_logged() -> None:
    """SC-DEAD-1: when the turn begins with one dead card, the rules exchange it and
    every seat sees it in the events; the seat then plays."""
    state = new()
    give(state, 1, ["korat", "manx", "bombay", "sphynx", "ragdoll"])
    give(state, 0, ["persian", "birman", "tabby", "somali", "savannah"])
    place(state, {label: 0 for label in spaces_of(state, "korat")})
    top = state.pile[-2]  # seat 0 draws the top card after its play, seat 1 the next
    events = GAME.apply(state, 0, play("persian", "C3"))
    assert events[-1] == {"type": "exchange", "seat": 1, "card": "korat", "auto": True}
    assert state.discards[1] == [CARD_NUMBER["korat"]]
    assert state.hands[1][-1] == top and len(state.hands[1]) == 5
    assert GAME.to_act(state) == {1} and state.exchanged
    assert all(a["type"] == "play" for a in GAME.legal_actions(state, 1))


def test_sc_dead_1_two_copies_of_one_dead_breed_are_one_possible_exchange() -> None:
    """SC-DEAD-1: two Korat cards are the same exchange, so it is made automatically."""
    state = new()
    give(state, 0, ["korat", "korat", "bombay", "sphynx", "ragdoll"])
    place(state, {label: 1 for label in spaces_of(state, "korat")})
    events = GAME.start_turn(state)
    assert events[0] == {"type": "exchange", "seat": 0, "card": "korat", "auto": True}
    assert hand(state, 0).count("korat") == 1 and state.exchanged


def test_sc_dead_1_purrr_is_dead_when_no_space_is_free() -> None:
    """SC-DEAD-1: PURRR matches no free space on a full board: it is dead, exchanged."""
    state = new()
    labels = state.board.labels
    place(state, {labels[i]: i % 2 for i in state.board.breed_spaces})
    give(state, 0, ["purrr", "meow", "korat", "manx", "bombay"])
    assert GAME.view(state, 0)["dead"] == ["purrr", "korat", "manx", "bombay"]
    exchanges = {a["card"] for a in GAME.legal_actions(state, 0)}
    assert exchanges == {"korat", "manx", "bombay", "purrr"}
    GAME.apply(state, 0, {"type": "exchange", "card": "purrr"})
    assert state.discards[0] == [CARD_NUMBER["purrr"]]


def test_sc_dead_1_rules_1_purrr_is_never_dead() -> None:
    """SC-DEAD-1, rules 1: PURRR was never dead, so on a full board it stayed in hand."""
    state = new(rules_version=1)
    labels = state.board.labels
    place(state, {labels[i]: i % 2 for i in state.board.breed_spaces})
    give(state, 0, ["purrr", "meow", "korat", "manx", "bombay"])
    assert GAME.view(state, 0)["dead"] == ["korat", "manx", "bombay"]
    refused(state, 0, {"type": "exchange", "card": "purrr"}, "SC-DEAD-1")


@pytest.mark.parametrize("card", ["purrr", "meow"])
def test_sc_dead_1_purrr_with_a_free_space_and_meow_are_not_dead(card: str) -> None:
    """SC-DEAD-1: PURRR is live while a space is free; MEOW matches no space and is never
    dead (with no opponent chip it simply cannot be played yet)."""
    state = new()
    give(state, 0, [card, "korat", "manx", "bombay", "sphynx"])
    assert GAME.view(state, 0)["dead"] == []
    refused(state, 0, {"type": "exchange", "card": card}, "SC-DEAD-1")
    meow_plays = [a for a in GAME.legal_actions(state, 0) if a.get("card") == "meow"]
    assert meow_plays == []


def test_sc_dead_1_only_one_dead_card_per_turn() -> None:
    """SC-DEAD-1: one dead card per turn."""
    state = new()
    give(state, 0, ["korat", "manx", "bombay", "sphynx", "ragdoll"])
    place(state, {label: 1 for b in ("korat", "manx") for label in spaces_of(state, b)})
    GAME.apply(state, 0, {"type": "exchange", "card": "korat"})
    message = refused(state, 0, {"type": "exchange", "card": "manx"}, "SC-DEAD-1")
    assert "only one" in message


def test_sc_dead_1_a_live_card_cannot_be_exchanged() -> None:
    """SC-DEAD-1: only a card whose two spaces are both covered is dead."""
    state = new()
    give(state, 0, ["korat", "manx", "bombay", "sphynx", "ragdoll"])
    place(state, {spaces_of(state, "korat")[0]: 1})
    assert "not a dead card" in refused(state, 0, {"type": "exchange", "card": "korat"},
                                        "SC-DEAD-1")


def test_sc_dead_1_rules_1_with_only_dead_cards_left_the_seat_passes() -> None:
    """SC-DEAD-1 [decision], rules 1: after the one exchange, a seat that cannot play
    sends ``pass``."""
    state = new(rules_version=1)
    cards = ["korat", "manx", "bombay", "sphynx"]
    give(state, 0, [*cards, "meow"])
    place(state, {label: 0 for b in cards for label in spaces_of(state, b)})
    # Only own chips on the board: MEOW has nothing to remove.
    assert all(a["type"] == "exchange" for a in GAME.legal_actions(state, 0))
    refused(state, 0, {"type": "pass"}, "SC-DEAD-1")
    state.exchanged = True
    state.legal_cache = None
    assert GAME.legal_actions(state, 0) == [{"type": "pass"}]
    assert GAME.apply(state, 0, {"type": "pass"}) == [{"type": "pass", "seat": 0}]
    assert GAME.to_act(state) == {1}


def test_sc_turn_2_rules_1_a_seat_that_can_play_is_refused_a_pass_under_the_turn_rule() -> None:
    """Rules 1: a pass while a card can be played names SC-TURN-2 (play a card), not the
    dead-card exchange, when the seat holds no dead card."""
    state = new(rules_version=1)
    give(state, 0, ["korat", "manx", "bombay", "sphynx", "ragdoll"])
    assert not any(a["type"] == "exchange" for a in GAME.legal_actions(state, 0))
    refused(state, 0, {"type": "pass"}, "SC-TURN-2")


def test_sc_deck_1_an_empty_draw_pile_is_refilled_from_all_discard_piles() -> None:
    """SC-DECK-1: when the draw pile is empty, all discard piles are shuffled into it."""
    state = new()
    give(state, 0, ["korat", "manx", "bombay", "sphynx", "ragdoll"])
    state.discards[0] = state.pile[:40]
    state.discards[1] = state.pile[40:]
    state.pile = []
    events = GAME.apply(state, 0, play("korat", "F1"))
    assert {"type": "reshuffle", "cards": 79} in events
    assert len(state.pile) == 78
    assert state.discards == [[], []]
    assert len(state.hands[0]) == 5


# -- winning -----------------------------------------------------------------------


@pytest.mark.parametrize(("chips", "card", "at"), [
    (["B1", "C1", "D1"], "burmese", "E1"),          # horizontal, with the free corner A1
    (["A2", "A3", "A4"], "snowshoe", "A5"),         # vertical, with A1
    (["B2", "C3", "D4"], "siberian", "E5"),         # diagonal, with A1
    (["J2", "I3", "H4"], "munchkin", "G5"),         # the other diagonal, with K1
    (["C3", "D3", "E3", "G3"], "russian-blue", "F3"),  # no corner, chip in the middle
])
def test_sc_win_1_five_in_a_line_in_any_direction_free_corners_count(
    chips: list[str], card: str, at: str
) -> None:
    """SC-WIN-1 and SC-WIN-2: five in a row, column or diagonal; the first one wins."""
    state = new()
    place(state, dict.fromkeys(chips, 0))
    give(state, 0, [card, "korat", "manx", "bombay", "ragdoll"])
    events = GAME.apply(state, 0, play(card, at))
    sequence = next(e for e in events if e["type"] == "sequence")
    assert at in sequence["spaces"] and len(sequence["spaces"]) == 5
    assert state.finished and GAME.outcome(state).winners == [0]
    assert events[-1] == {"type": "game_over", "winners": [0], "draw": False}


def test_sc_win_1_four_chips_or_mixed_colours_are_not_a_sequence() -> None:
    """SC-WIN-1: exactly five of one colour (corners aside) in an unbroken line."""
    state = new()
    place(state, {"C3": 0, "D3": 0, "E3": 1, "G3": 0, "H3": 0})
    give(state, 0, ["russian-blue", "korat", "manx", "bombay", "ragdoll"])
    GAME.apply(state, 0, play("russian-blue", "F3"))
    assert not state.finished and state.sequences == [[], []]


def test_sc_win_1_corners_count_for_every_colour() -> None:
    """SC-WIN-1: the same corner serves two colours' sequences."""
    state = new(sequences_to_win=1)
    place(state, {"B1": 1, "C1": 1, "D1": 1, "A2": 0, "A3": 0, "A4": 0})
    give(state, 0, ["snowshoe", "korat", "manx", "bombay", "ragdoll"])
    GAME.apply(state, 0, play("snowshoe", "A5"))
    assert state.finished and state.winner == 0


def test_sc_win_2_the_game_ends_at_once_and_refuses_further_moves() -> None:
    """SC-WIN-2: the first to complete a sequence wins at once."""
    state = new()
    place(state, dict.fromkeys(["B1", "C1", "D1"], 0))
    give(state, 0, ["burmese", "korat", "manx", "bombay", "ragdoll"])
    GAME.apply(state, 0, play("burmese", "E1"))
    assert GAME.to_act(state) == frozenset()
    assert GAME.legal_actions(state, 1) == []
    refused(state, 1, play("korat", "F1"), "SC-WIN-2")
    outcome = GAME.outcome(state)
    assert (outcome.finished, outcome.winners, outcome.ranking) == (True, [0], [1, 2])


def test_sc_win_2_teammates_win_together() -> None:
    """SC-WIN-2: a team shares one colour and wins as one."""
    state = new(4)
    place(state, dict.fromkeys(["B1", "C1", "D1"], 0))
    state.current = 2
    give(state, 2, ["burmese", "korat", "manx", "bombay"])
    GAME.apply(state, 2, play("burmese", "E1"))
    assert GAME.outcome(state).winners == [0, 2]


def test_sc_win_2_option_two_sequences_may_share_one_chip() -> None:
    """SC-WIN-2 option ``sequences_to_win``: a second sequence may share one chip."""
    state = new(sequences_to_win=2)
    place(state, {"C3": 0, "D3": 0, "E3": 0, "G3": 0,
                  "F4": 0, "F5": 0, "F6": 0, "F7": 0})
    give(state, 0, ["russian-blue", "korat", "manx", "bombay", "ragdoll"])
    events = GAME.apply(state, 0, play("russian-blue", "F3"))
    assert [e["type"] for e in events].count("sequence") == 2
    assert state.finished and state.winner == 0


def test_sc_win_2_option_a_second_sequence_may_not_share_two_chips() -> None:
    """SC-WIN-2 option: six in a row is still one sequence."""
    state = new(sequences_to_win=2)
    place(state, {"C3": 0, "D3": 0, "E3": 0, "F3": 0, "G3": 0})
    state.recompute()
    # C3..G3 was completed earlier.
    window = sum(1 << space(state, s) for s in ("C3", "D3", "E3", "F3", "G3"))
    state.sequences[0].append(window)
    state.locked |= window
    give(state, 0, ["maine-coon", "korat", "manx", "bombay", "ragdoll"])
    GAME.apply(state, 0, play("maine-coon", "H3"))
    assert len(state.sequences[0]) == 1 and not state.finished


def test_sc_win_2_option_a_line_of_nine_is_two_sequences() -> None:
    """SC-WIN-2 option: filling the middle of 4 + 4 makes two sequences at once."""
    state = new(sequences_to_win=2)
    place(state, dict.fromkeys(["B3", "C3", "D3", "E3", "G3", "H3", "I3", "J3"], 0))
    give(state, 0, ["russian-blue", "korat", "manx", "bombay", "ragdoll"])
    GAME.apply(state, 0, play("russian-blue", "F3"))
    assert len(state.sequences[0]) == 2 and state.finished


def line_of_six(**options: Any) -> SequenceCatsState:
    """C3, D3, E3, G3 and H3 are Blue's; Blue holds Russian Blue (F3) to make six."""
    state = new(**{"sequences_to_win": 2, **options})
    place(state, dict.fromkeys(["C3", "D3", "E3", "G3", "H3"], 0))
    give(state, 0, ["russian-blue", "somali", "manx", "bombay", "ragdoll"])
    return state


def window(state: SequenceCatsState, labels: list[str]) -> int:
    return sum(1 << space(state, label) for label in labels)


LEFT = ["C3", "D3", "E3", "F3", "G3"]
RIGHT = ["D3", "E3", "F3", "G3", "H3"]


def test_sc_win_2_the_player_chooses_which_five_of_a_longer_line_form_the_sequence() -> None:
    """SC-WIN-2: with two sequences to win, a chip making a line of six lets the player
    choose the five; the card is drawn and the turn passes once it has chosen."""
    state = line_of_six()
    events = GAME.apply(state, 0, play("russian-blue", "F3"))
    assert events[-1] == {"type": "choose_sequence", "seat": 0, "candidates": [LEFT, RIGHT]}
    assert state.sequences[0] == [] and GAME.to_act(state) == {0}
    assert GAME.legal_actions(state, 0) == [{"type": "sequence", "spaces": LEFT},
                                            {"type": "sequence", "spaces": RIGHT}]
    assert GAME.view(state, 1)["choosing"] == {"seat": 0, "candidates": [LEFT, RIGHT],
                                            "later": []}
    assert len(state.hands[0]) == 4
    refused(state, 0, play("somali", "A4"), "SC-WIN-2")
    refused(state, 0, {"type": "sequence", "spaces": ["B3", *LEFT[:4]]}, "SC-WIN-2")
    refused(state, 0, {"type": "sequence", "spaces": RIGHT[:4]}, "SC-WIN-2")
    events = GAME.apply(state, 0, {"type": "sequence", "spaces": list(reversed(RIGHT))})
    assert events[0] == {"type": "sequence", "team": 0, "spaces": RIGHT, "count": 1}
    assert state.sequences[0] == [window(state, RIGHT)]
    assert state.locked == window(state, RIGHT)  # C3 stays unlocked: MEOW may take it
    assert len(state.hands[0]) == 5 and GAME.to_act(state) == {1}
    assert not state.finished


def test_sc_win_2_rules_1_the_engine_takes_the_first_five() -> None:
    """SC-WIN-2, rules 1: the first window along the line was taken without asking."""
    state = line_of_six(rules_version=1)
    events = GAME.apply(state, 0, play("russian-blue", "F3"))
    assert {"type": "sequence", "team": 0, "spaces": LEFT, "count": 1} in events
    assert GAME.to_act(state) == {1}


def test_sc_win_2_no_choice_when_the_chip_wins_whatever_the_five() -> None:
    """SC-WIN-2: when the chip completes the last sequence needed, the game ends at once."""
    state = line_of_six()
    earlier = window(state, ["B8", "C8", "D8", "E8", "F8"])
    state.sequences[0].append(earlier)
    state.locked |= earlier
    events = GAME.apply(state, 0, play("russian-blue", "F3"))
    assert all(e["type"] != "choose_sequence" for e in events)
    assert state.finished and state.winner == 0


def test_sc_win_3_nobody_can_move_is_a_draw() -> None:
    """SC-WIN-3: no free space and no removable chip: the game is a draw."""
    state = new(sequences_to_win=2)
    labels = state.board.labels
    last = "F3"
    line = ["C3", "D3", "E3", "G3"]
    chips = {}
    for i in state.board.breed_spaces:
        if labels[i] != last:
            chips[labels[i]] = 0 if labels[i] in line else (i % 2)
    place(state, chips)
    # Every chip but the line is locked in (made-up) earlier sequences of team 1.
    state.locked = sum(1 << i for i in state.board.breed_spaces
                       if labels[i] not in (*line, last))
    give(state, 0, ["russian-blue", "korat", "manx", "bombay", "ragdoll"])
    state.exchanged = True  # its dead cards: one was exchanged already this turn
    events = GAME.apply(state, 0, play("russian-blue", last))
    assert events[-1] == {"type": "game_over", "winners": [], "draw": True,
                          "reason": "blocked"}
    outcome = GAME.outcome(state)
    assert outcome.finished and outcome.draw and outcome.winners == []
    assert GAME.to_act(state) == frozenset()


ACCEPT = {"type": "accept_draw"}
DECLINE = {"type": "decline_draw"}
OFFER = {"type": "offer_draw"}


def test_sc_win_3_a_seat_that_can_do_nothing_is_passed_for_automatically() -> None:
    """SC-WIN-3 a: after its one exchange (here automatic, SC-DEAD-1) a seat with nothing
    to play passes without being asked; everyone sees it in the events."""
    state = new(4)
    state.current = 1
    give(state, 1, ["korat", "korat", "meow", "meow"])
    # Only team 1's chips on the board: MEOW has nothing to remove.
    place(state, dict.fromkeys([*spaces_of(state, "korat"), *spaces_of(state, "manx")], 1))
    manx = CARD_NUMBER["manx"]
    state.pile.remove(manx)
    state.pile.append(manx)  # the replacement drawn is dead too
    events = GAME.start_turn(state)
    assert events[:2] == [{"type": "exchange", "seat": 1, "card": "korat", "auto": True},
                          {"type": "pass", "seat": 1, "auto": True}]
    assert GAME.to_act(state) == {2} and state.turn == 1 and state.passes == 1


def test_sc_win_3_rules_1_a_seat_with_nothing_to_do_sends_pass() -> None:
    """SC-WIN-3, rules 1: nothing is automatic; the seat exchanges, then sends ``pass``."""
    state = new(4, rules_version=1)
    state.current = 1
    give(state, 1, ["korat", "korat", "meow", "meow"])
    place(state, dict.fromkeys([*spaces_of(state, "korat"), *spaces_of(state, "manx")], 1))
    assert GAME.start_turn(state) == []
    assert GAME.legal_actions(state, 1) == [{"type": "exchange", "card": "korat"}]


def stalled(*, full: bool = False, **options: Any) -> SequenceCatsState:
    """Two players; every breed space is covered but C3 (Persian; ``full``: C3 too), both
    Persian cards, PURRR and MEOW cards are discarded: no seat can play until one of them
    comes back from the discards, every hand holds only dead cards."""
    state = new(**options)
    labels = state.board.labels
    place(state, {labels[i]: i % 2 for i in state.board.breed_spaces
                  if full or labels[i] != "C3"})
    cards = [*state.pile, *state.hands[0], *state.hands[1]]
    out = [CARD_NUMBER[c] for c in ("persian", "persian", "purrr", "purrr", "meow", "meow")]
    for card in out:
        cards.remove(card)
    state.discards[0] = out
    cards.sort()
    state.hands = [cards[0:10:2], cards[1:10:2]]
    state.pile = cards[10:]
    state.legal_cache = None
    return state


def test_sc_win_3_a_full_round_of_passes_on_a_full_board_is_a_draw() -> None:
    """SC-WIN-3 c: when every player in turn could do nothing but pass, the game is a
    draw: nobody can move any more. On a full board only a MEOW moves the game (here both
    lie in the discard piles): a turn of exchanging a dead card and passing counts as a
    pass."""
    state = stalled(full=True)
    assert GAME.start_turn(state) == []  # several dead cards: seat 0 chooses which
    first = GAME.legal_actions(state, 0)[0]
    events = GAME.apply(state, 0, first)
    assert [e["type"] for e in events] == ["exchange", "pass"] and events[1]["auto"]
    assert GAME.to_act(state) == {1} and not state.finished
    events = GAME.apply(state, 1, GAME.legal_actions(state, 1)[0])
    assert events[-1] == {"type": "game_over", "winners": [], "draw": True,
                          "reason": "passes"}
    outcome = GAME.outcome(state)
    assert outcome.finished and outcome.draw and GAME.to_act(state) == frozenset()
    assert GAME.view(state, None)["draw_reason"] == "passes"


def test_sc_win_3_a_full_round_of_passes_with_a_space_free_is_a_draw_too() -> None:
    """SC-WIN-3 c: "when every player in turn, a full round, could do nothing but pass,
    the game is a draw", whether or not a space is free: here C3 is, and the cards that
    fill it (both Persian cards, the PURRRs) lie in the discard piles."""
    state = stalled()
    assert state.config.rules_version == RULES_VERSION
    events = GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    assert [e["type"] for e in events] == ["exchange", "pass"] and not state.finished
    events = GAME.apply(state, 1, GAME.legal_actions(state, 1)[0])
    assert events[-1] == {"type": "game_over", "winners": [], "draw": True,
                          "reason": "passes"}
    assert state.finished and state.draw_reason == "passes" and state.open_spaces


def test_sc_win_3_rules_4_with_a_space_free_the_passes_went_on_until_its_card_came_up(
) -> None:
    """SC-WIN-3 c, rules 4 (records of those games replay so): while a space was free the
    passes went on, until a card that fills it (a Persian for C3, a PURRR) came back as
    dead cards were exchanged and the discard piles were shuffled into the draw pile."""
    state = stalled(rules_version=4)
    for _ in range(400):
        if state.finished or not state.open_spaces:
            break
        seat = next(iter(GAME.to_act(state)))
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert state.draw_reason != "passes"
    assert not state.open_spaces  # C3 was filled: a Persian or a PURRR came up
    assert state.turn > 2


def test_sc_win_3_rules_3_a_round_of_passes_with_a_space_free_was_a_draw() -> None:
    """SC-WIN-3 c, rules 2 and 3: a round of passes was a draw with C3 free too, as now;
    records of those games replay so."""
    state = stalled(rules_version=3)
    GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    GAME.apply(state, 1, GAME.legal_actions(state, 1)[0])
    assert state.finished and state.draw_reason == "passes" and state.open_spaces


def test_sc_win_3_rules_1_passes_go_on_for_ever() -> None:
    """SC-WIN-3, rules 1: passes never ended the game."""
    state = stalled(rules_version=1)
    for _ in range(6):
        seat = state.current
        GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        assert GAME.legal_actions(state, seat) == [{"type": "pass"}]
        GAME.apply(state, seat, {"type": "pass"})
    assert not state.finished and state.turn == 6


def test_sc_win_3_a_draw_offer_ends_the_game_when_every_other_player_accepts() -> None:
    """SC-WIN-3 b: any player may offer a draw, out of turn too; the others answer, out
    of turn; play waits; when all of them accept the game is drawn."""
    state = new(3)
    assert GAME.view(state, 1)["may_offer_draw"] is True
    assert GAME.apply(state, 1, OFFER) == [{"type": "draw_offered", "seat": 1}]
    assert GAME.to_act(state) == {0, 2}
    assert GAME.legal_actions(state, 0) == [ACCEPT, DECLINE]
    assert GAME.legal_actions(state, 1) == []
    message = refused(state, 0, play("korat", "F1"), "SC-WIN-3")
    assert "answered" in message
    refused(state, 1, ACCEPT, "SC-WIN-3")  # the one who offered does not answer
    assert GAME.apply(state, 2, ACCEPT) == [{"type": "draw_accepted", "seat": 2, "by": 1}]
    assert GAME.to_act(state) == {0}
    assert GAME.view(state, None)["draw_offer"] == {"by": 1, "accepted": [2], "waiting": [0]}
    events = GAME.apply(state, 0, ACCEPT)
    assert events[-1] == {"type": "game_over", "winners": [], "draw": True,
                          "reason": "agreed"}
    outcome = GAME.outcome(state)
    assert outcome.finished and outcome.draw and GAME.to_act(state) == frozenset()


def test_sc_win_3_an_answer_out_of_place_is_told_why() -> None:
    """SC-WIN-3 b: the offering team's seats do not answer its offer, and a seat that
    accepted does not answer twice; each is told so (both were told "There is no draw
    offer for you to answer" while one was open). A move after the drawn game cites
    SC-WIN-3, which ended it (it cited SC-WIN-2, the sequence)."""
    state = new(4)  # teams: seats 0 and 2, seats 1 and 3
    GAME.apply(state, 0, OFFER)
    assert GAME.to_act(state) == {1, 3}
    for seat in (0, 2):
        assert "offered by your team" in refused(state, seat, ACCEPT, "SC-WIN-3")
    GAME.apply(state, 1, ACCEPT)
    assert "already accepted" in refused(state, 1, DECLINE, "SC-WIN-3")
    GAME.apply(state, 3, ACCEPT)
    assert state.finished and state.draw_reason == "agreed"
    assert "over" in refused(state, 0, play("korat", "F1"), "SC-WIN-3")
    assert "no draw offer" in refused(new(4), 1, ACCEPT, "SC-WIN-3")


def test_sc_win_3_one_refusal_withdraws_the_offer_and_play_goes_on() -> None:
    """SC-WIN-3 b: one refusal is enough; the turn goes on where it was, and the seat
    that offered waits a full round before offering again **[decision]**."""
    state = new(3)
    GAME.apply(state, 0, OFFER)
    GAME.apply(state, 1, ACCEPT)
    assert GAME.apply(state, 2, DECLINE) == [{"type": "draw_declined", "seat": 2, "by": 0}]
    assert GAME.to_act(state) == {0} and GAME.view(state, 0)["draw_offer"] is None
    assert not GAME.view(state, 0)["may_offer_draw"]
    assert GAME.view(state, 0)["draw_offer_again_in"] == 3
    assert "once every player" in refused(state, 0, OFFER, "SC-WIN-3")
    assert GAME.view(state, 1)["may_offer_draw"]
    assert GAME.view(state, 1)["draw_offer_again_in"] == 0
    for left in (2, 1, 0):
        GAME.apply(state, state.current, GAME.legal_actions(state, state.current)[0])
        assert GAME.view(state, 0)["draw_offer_again_in"] == left
        assert GAME.view(state, 0)["may_offer_draw"] == (left == 0)


def test_sc_win_3_every_player_of_every_other_team_answers() -> None:
    """SC-WIN-3 b: with teams, every player of the other teams must accept
    **[decision]**; the offering player's teammates are not asked."""
    state = new(4)
    GAME.apply(state, 2, OFFER)
    assert GAME.to_act(state) == {1, 3}
    refused(state, 0, ACCEPT, "SC-WIN-3")
    GAME.apply(state, 1, ACCEPT)
    GAME.apply(state, 3, ACCEPT)
    assert GAME.outcome(state).draw


def test_sc_win_3_rules_1_has_no_draw_offers() -> None:
    """SC-WIN-3, rules 1: there were no draw offers."""
    state = new(3, rules_version=1)
    assert GAME.view(state, 0)["may_offer_draw"] is False
    refused(state, 0, OFFER, "PROTOCOL")


def test_sc_comp_2_free_corners_are_on_by_default() -> None:
    """SC-COMP-2: the option ``free_corners`` is on unless switched off."""
    config = GAME.make_config({}, 2)
    assert config.free_corners is True
    assert GAME.public_info(config, 2)["free_corners"] is True
    assert GAME.view(new(), 0)["cells"][space(new(), "A1")] == -2


def test_sc_comp_2_without_free_corners_the_corners_are_blank_and_count_for_nobody() -> None:
    """SC-COMP-2: with ``free_corners`` off a corner is an empty space that takes no chip
    and counts for no colour, so four chips beside it are no sequence (SC-WIN-1)."""
    state = new(free_corners=False)
    assert GAME.view(state, None)["cells"][space(state, "A1")] == -3
    assert GAME.public_info(GAME.make_config({"free_corners": False}, 2), 2)[
        "free_corners"] is False
    place(state, dict.fromkeys(["B1", "C1", "D1"], 0))
    give(state, 0, ["burmese", "purrr", "manx", "bombay", "ragdoll"])
    assert "takes no chip" in refused(state, 0, play("purrr", "A1"), "SC-PURR-1")
    assert all(a["space"] not in {"A1", "K1", "A8", "K8"}
               for a in GAME.legal_actions(state, 0))
    GAME.apply(state, 0, play("burmese", "E1"))
    assert not state.finished and state.sequences == [[], []]


def test_sc_comp_2_without_free_corners_five_chips_still_win() -> None:
    """SC-COMP-2, SC-WIN-1: away from the corners nothing changes."""
    state = new(free_corners=False)
    place(state, dict.fromkeys(["C3", "D3", "E3", "G3"], 0))
    give(state, 0, ["russian-blue", "korat", "manx", "bombay", "ragdoll"])
    GAME.apply(state, 0, play("russian-blue", "F3"))
    assert state.finished and state.winner == 0


# -- protocol edges ------------------------------------------------------------------


@pytest.mark.parametrize("action", [
    {},
    {"type": "dance"},
    {"type": ["offer_draw"]},
    {"type": {"kind": "play"}},
    {"type": 7},
    {"type": "play"},
    {"type": "play", "card": "bengal"},
    {"type": "play", "card": ["bengal"], "space": "F2"},
    {"type": "play", "card": "bengal", "space": "Z99"},
    {"type": "play", "card": "bengal", "space": "F2", "extra": 1},
    {"type": "exchange"},
    {"type": "pass", "now": True},
    {"type": "offer_draw", "now": True},
])
def test_malformed_actions_are_refused_and_change_nothing(action: dict[str, Any]) -> None:
    """Malformed input is refused (PROTOCOL) with the state untouched."""
    state = new()
    refused(state, 0, action, "PROTOCOL")


def test_a_non_mapping_action_is_refused() -> None:
    state = new()
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, 0, "play bengal")  # type: ignore[arg-type]
    assert error.value.rule == "PROTOCOL"


def test_sc_turn_2_the_view_shows_the_last_play() -> None:
    """Every view shows the latest card play (the log's last move, public to all):
    nothing before the first, then the seat, card, space and team of a placed chip, and
    for MEOW (SC-MEOW-1) the team whose chip was taken off."""
    state = new(2, 3)
    assert GAME.view(state, 0)["last_play"] is None
    breed = "siamese"
    target = spaces_of(state, breed)[0]
    give(state, 0, [breed, "meow", "purrr", "manx", "korat"])
    GAME.apply(state, 0, {"type": "play", "card": breed, "space": target})
    for seat in (0, 1, None):
        assert GAME.view(state, seat)["last_play"] == {
            "seat": 0, "card": breed, "space": target, "team": 0}
    give(state, 1, ["meow", "purrr", "manx", "korat", "persian"])
    GAME.apply(state, 1, {"type": "play", "card": "meow", "space": target})
    assert GAME.view(state, 0)["last_play"] == {
        "seat": 1, "card": "meow", "space": target, "team": 0}
    assert state.cells[space(state, target)] == EMPTY


def test_sc_win_2_choosing_a_five_when_there_is_none_to_choose_names_the_rule() -> None:
    """A ``sequence`` action outside the choice of five is SC-WIN-2's, not an action
    type this game lacks; the state is unchanged."""
    state = GAME.new_game(GAME.make_config({}, 2), 2, 1)
    before = GAME.snapshot(state)
    with pytest.raises(IllegalAction) as refusal:
        GAME.apply(state, 0, {"type": "sequence", "spaces": []})
    assert refusal.value.rule == "SC-WIN-2"
    assert refusal.value.key == "sequence_cats.errors.no_sequence_to_choose"
    assert GAME.snapshot(state) == before
