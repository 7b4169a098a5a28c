"""The search benchmark's reading of how a Sequence Cats game ended (SC-WIN-1)."""

from __future__ import annotations

from benchmarks.search_bots import ending, sc_last_turn

from tests.games.sequence_cats.helpers import breed_at, give, hand, new, place


def test_an_open_four_is_two_winning_spaces_and_one_held_card_blocks_one() -> None:
    """Four chips in a row with both ends empty: two spaces complete five (SC-WIN-1);
    the other seat holding the breed of one end can block that one only."""
    state = new()
    place(state, dict.fromkeys(["C8", "D8", "E8", "F8"], 1))
    give(state, 0, [breed_at(state, "G8"), "abyssinian", "bengal", "birman", "somali"])
    assert breed_at(state, "B8") not in hand(state, 0)
    assert sc_last_turn(state, 0) == (2, 1, False)
    assert ending(2, 1, False).startswith("two or more winning spaces; the loser could block one")


def test_a_four_through_a_free_corner_is_one_winning_space() -> None:
    """A1 is a free corner: B1–D1 make a four whose fifth space is E1 (Burmese)."""
    state = new()
    place(state, dict.fromkeys(["B1", "C1", "D1"], 0))
    give(state, 1, ["manx", "bombay", "ragdoll", "korat", "somali"])
    assert sc_last_turn(state, 1) == (1, 0, False)
    give(state, 1, ["manx", "bombay", "ragdoll", "korat", "purrr"])
    assert sc_last_turn(state, 1) == (1, 1, False)
    give(state, 1, ["manx", "bombay", "ragdoll", "korat", "meow"])
    assert sc_last_turn(state, 1) == (1, 0, True)
    assert ending(1, 0, False) == "one winning space; the loser held no card to block it"
    assert sc_last_turn(state, 0) == (0, 0, False)
