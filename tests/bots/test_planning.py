"""The ``hard`` player's stronger ratings (``plan_actions``): threats, card counting and
what a placement leaves the next player."""

from __future__ import annotations

from typing import Any

from gametable.bots import make_bot
from gametable.core.protocol import HasPlanner
from gametable.games.sequence_cats import SEQUENCE_CATS
from gametable.games.sequence_cats.cards import CARD_NUMBER
from gametable.games.sequence_cats.heuristics import WIN
from gametable.games.sequence_cats.state import SequenceCatsState
from gametable.games.triominos import TRIOMINOS
from gametable.games.triominos.planning import expected_best, unlikely_tiles
from gametable.games.triominos.tiles import ALL_TILES, DEMAND_TILES, TILE_NUMBER, TILE_VALUE
from tests.games.sequence_cats.helpers import give, new, place
from tests.games.triominos.helpers import give as give_tiles
from tests.games.triominos.helpers import lay, number_vertices, tile_at
from tests.games.triominos.helpers import new as new_triominos


def planned(game: Any, state: Any, seat: int = 0) -> list[tuple[float, dict[str, Any]]]:
    """The legal actions with their planned ratings, best first."""
    legal = game.legal_actions(state, seat)
    ratings = game.plan_actions(game.view(state, seat), legal)
    return sorted(zip(ratings, legal, strict=True), key=lambda pair: -pair[0])


def discard(state: SequenceCatsState, seat: int, cards: list[str]) -> None:
    """Move cards from the draw pile to ``seat``'s discard pile (88 cards conserved)."""
    for card in cards:
        state.pile.remove(CARD_NUMBER[card])
        state.discards[seat].append(CARD_NUMBER[card])


def test_both_games_plan() -> None:
    assert isinstance(SEQUENCE_CATS, HasPlanner) and isinstance(TRIOMINOS, HasPlanner)


def test_sc_win_1_the_winning_space_rates_highest() -> None:
    """SC-WIN-1: five in a row wins at once; nothing rates as high."""
    state = new()
    place(state, dict.fromkeys(["B1", "C1", "D1"], 0))
    give(state, 0, ["burmese", "purrr", "manx", "bombay", "ragdoll"])
    best, action = planned(SEQUENCE_CATS, state)[0]
    assert best >= WIN and action["space"] == "E1"


def best_against_a_four_at_g3(hand: list[str]) -> dict[str, Any]:
    """The planned best play of seat 0 holding ``hand`` when the other seat completes
    five next turn at G3 (Cornish Rex) unless it is taken."""
    state = new()
    place(state, dict.fromkeys(["C3", "D3", "E3", "F3"], 1))
    place(state, {"B3": 0})
    give(state, 0, hand)
    _, action = planned(SEQUENCE_CATS, state)[0]
    return dict(action)


def test_sc_win_1_blocks_an_open_four() -> None:
    assert best_against_a_four_at_g3(["cornish-rex", "korat", "manx", "bombay", "ragdoll"]) \
        == {"type": "play", "card": "cornish-rex", "space": "G3"}


def test_sc_win_1_a_purrr_that_completes_five_is_played() -> None:
    """A five completed by a PURRR rated just under a win (the PURRR's cost taken off),
    was then planned as an ordinary move less what keeping a PURRR is worth, and ranked
    last: `hard`, which tries the planned best, passed up the win it held."""
    state = new()
    place(state, dict.fromkeys(["B2", "C2", "D2", "E2"], 0))
    place(state, {"F2": 1})  # only A2 (Ragdoll, at the edge: the five and little else)
    give(state, 0, ["purrr", "manx", "bombay", "sphynx", "korat"])
    best, action = planned(SEQUENCE_CATS, state)[0]
    assert best >= WIN - 35 and action == {"type": "play", "card": "purrr", "space": "A2"}
    view, legal = SEQUENCE_CATS.view(state, 0), SEQUENCE_CATS.legal_actions(state, 0)
    played = make_bot("hard", SEQUENCE_CATS, 1).choose(view, legal)
    after = SEQUENCE_CATS.clone(state)
    SEQUENCE_CATS.apply(after, 0, played)
    assert after.finished and after.winner == 0


def test_sc_win_1_a_purrr_alone_able_to_block_a_four_is_worth_spending() -> None:
    """The other seat completes five at G3 (Cornish Rex) next turn; no card of ours but
    the PURRR takes G3: keeping it was worth more than the block."""
    assert best_against_a_four_at_g3(["purrr", "korat", "manx", "bombay", "ragdoll"]) \
        == {"type": "play", "card": "purrr", "space": "G3"}
    # With the breed card in hand, that blocks and the PURRR is kept.
    assert best_against_a_four_at_g3(["purrr", "cornish-rex", "manx", "bombay", "ragdoll"]) \
        == {"type": "play", "card": "cornish-rex", "space": "G3"}


def test_sc_win_2_a_four_sharing_two_spaces_with_a_sequence_is_no_threat_to_spend_on(
        ) -> None:
    """SC-WIN-2: at two sequences to win, the other seat's sequence B3–F3 and G3 make a
    five of which four spaces are its sequence's: no second sequence. The PURRR was
    spent on G3 all the same (greedy's rating counts any four as one to block)."""
    state = new(sequences_to_win=2)
    labels = ["B3", "C3", "D3", "E3", "F3"]
    place(state, dict.fromkeys(labels, 1))
    mask = sum(1 << state.board.index[label] for label in labels)
    state.sequences[1] = [mask]
    state.locked |= mask
    state.recompute()
    give(state, 0, ["purrr", "korat", "manx", "bombay", "ragdoll"])
    _, action = planned(SEQUENCE_CATS, state)[0]
    assert action["card"] != "purrr", action


def test_sc_win_1_prefers_a_double_threat() -> None:
    """B4–D4 are ours. Sphynx on E4 makes a four open at both ends, A4 (Somali) and F4
    (Snowshoe), whose cards we hold: a double threat. Somali on A4 or Snowshoe on F4
    makes a single threat (E4)."""
    state = new()
    place(state, dict.fromkeys(["B4", "C4", "D4"], 0))
    give(state, 0, ["sphynx", "somali", "snowshoe", "korat", "manx"])
    rated = {(a["card"], a["space"]): r for r, a in planned(SEQUENCE_CATS, state)}
    assert planned(SEQUENCE_CATS, state)[0][1] == {"type": "play", "card": "sphynx",
                                                    "space": "E4"}
    assert rated[("sphynx", "E4")] > rated[("somali", "A4")]
    assert rated[("sphynx", "E4")] > rated[("snowshoe", "F4")]


def test_sc_purr_1_a_four_nobody_can_complete_is_not_worth_a_meow() -> None:
    """Card counting (SC-COMP-3): both Cornish Rex cards and both PURRRs are in the
    discard piles, so the four's open space G3 can never be taken (SC-PURR-1); greedy
    spends its MEOW on the four (SC-MEOW-1), the planned rating keeps it."""
    state = new()
    place(state, dict.fromkeys(["C3", "D3", "E3", "F3", "B5"], 1))
    place(state, {"B3": 0})
    discard(state, 1, ["cornish-rex", "purrr"])
    discard(state, 0, ["cornish-rex", "purrr"])
    give(state, 0, ["meow", "korat", "manx", "bombay", "ragdoll"])
    greedy = make_bot("greedy", SEQUENCE_CATS, seed=1)
    legal = SEQUENCE_CATS.legal_actions(state, 0)
    assert greedy.choose(SEQUENCE_CATS.view(state, 0), legal)["card"] == "meow"
    _, action = planned(SEQUENCE_CATS, state)[0]
    assert action["card"] != "meow"


def test_expected_best_of_a_random_hand() -> None:
    """One tile worth 10 among 10 unseen, 5 of them in the hand: 10 · 5/10; two tiles:
    the better one when held, else the other."""
    assert expected_best([10], 10, 5) == 5.0
    assert abs(expected_best([10, 4], 10, 5) - (5.0 + 4 * 25 / 90)) < 1e-9
    assert expected_best([], 10, 5) == 0.0


# Six positions around vertex (1, 2) (TR-BONUS-2); four are on the table.
RING = [(0, 0), (0, 1), (0, 2), (1, 0)]
GIFT = (1, 2)  # a fifth tile round the vertex: the sixth, (1, 1), makes a hexagon
HOLE = (1, 1)
SAFE = (-1, 1)  # touches no vertex of the ring's centre


def hexagon_position() -> tuple[Any, str, str]:
    """A table of RING with seat 0 holding a tile for GIFT and one for SAFE, the GIFT
    tile worth at least as much, and the tile that would fill HOLE unseen."""
    for seed in range(200):
        numbers = number_vertices([*RING, GIFT, HOLE, SAFE], seed=seed)
        gift, _ = tile_at(numbers, GIFT)
        safe, _ = tile_at(numbers, SAFE)
        if 0 <= TILE_VALUE[TILE_NUMBER[gift]] - TILE_VALUE[TILE_NUMBER[safe]] <= 3:
            state = new_triominos(2, seed=3)
            lay(state, RING, numbers)
            give_tiles(state, 0, [gift, safe])
            state.current = state.starter = 0
            state.draws = 0
            state.turn = 7
            return state, gift, safe
    raise AssertionError("no numbering found")


def test_tr_bonus_2_no_hexagon_is_left_for_the_next_player() -> None:
    """TR-BONUS-2: laying the GIFT tile leaves five tiles round a vertex, and the next
    player completes the hexagon (+50) if it holds the one tile that fits. The planned
    rating lays the other tile, worth as much or a little less, elsewhere."""
    state, gift, safe = hexagon_position()
    rated = {(a["tile"], tuple(a["position"])): r for r, a in planned(TRIOMINOS, state)
             if a["type"] == "place"}
    assert rated[(safe, SAFE)] > rated[(gift, GIFT)]


def test_a_pass_shows_that_nothing_fits() -> None:
    """TR-DRAW-2/3: the last tile on the table is this seat's own and the other seat has
    played since: it drew and passed, so it holds no tile that fits now."""
    state, _gift, _safe = hexagon_position()
    view = TRIOMINOS.view(state, 0)
    fits = 0
    for key in state.layout.open.values():
        fits |= DEMAND_TILES[key]
    assert unlikely_tiles(view, ALL_TILES) == 0  # the other seat laid the last tile
    view["board"][-1]["seat"] = 0
    assert unlikely_tiles(view, ALL_TILES) == fits != 0
