"""Property tests over many random Triominos games (every seat count and option)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gametable.core.records import GameRecord, SeatInfo, new_record, replay
from gametable.games.triominos import TRIOMINOS as GAME
from gametable.games.triominos.lattice import CELLS, RINGS
from gametable.games.triominos.layout import Layout
from gametable.games.triominos.state import TriominosState
from gametable.games.triominos.tiles import ALL_TILES, ROTATIONS, TILE_NUMBER, TILE_VALUE
from tests.games.triominos.helpers import opening_choice_seeds

setups = st.sampled_from([
    (1, {}), (2, {}), (3, {}), (4, {}), (5, {}), (6, {}),
    (2, {"edition": "PRESSMAN"}), (3, {"edition": "PRESSMAN"}),
    (2, {"scoring": "children", "rounds": 3}), (4, {"extended_bridge": True}),
    (2, {"target_score": 100}), (3, {"rounds": 2, "start_rule": "highest_triple"}),
    (1, {"rules_version": 1}), (2, {"edition": "PRESSMAN", "rules_version": 1}),
])
seeds = st.integers(min_value=0, max_value=2**63 - 1)

# Games whose first PRESSMAN starter holds 0-0-0 and a higher triple (TR-SETUP-4), by
# either rules version: (seats, options, seed).
OPENING_CHOICES = [
    (seats, {"edition": "PRESSMAN", "rounds": 2, "rules_version": version}, seed)
    for seats in (1, 2, 3, 5) for seed in opening_choice_seeds(seats, count=3)
    for version in (1, 2)
]
opening_choices = st.sampled_from(OPENING_CHOICES)

Step = tuple[TriominosState, int, dict[str, Any], list[dict[str, Any]], TriominosState]


def random_game(seats: int, options: dict[str, Any], seed: int, choice_seed: int,
                max_actions: int = 600) -> Iterator[Step]:
    """Yield (state before, seat, action, events, state after) through a random game."""
    state = GAME.new_game(GAME.make_config(options, seats), seats, seed)
    chooser = random.Random(choice_seed)
    for _ in range(max_actions):
        to_act = GAME.to_act(state)
        if not to_act:
            return
        (seat,) = to_act
        action = chooser.choice(GAME.legal_actions(state, seat))
        before = GAME.clone(state)
        events = GAME.apply(state, seat, action)
        yield before, seat, action, events, state


def test_random_games_finish() -> None:
    for seats in range(1, 7):
        steps = list(random_game(seats, {"rounds": 1}, seed=seats, choice_seed=seats,
                                 max_actions=5000))
        assert steps[-1][4].finished


@settings(max_examples=20, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_a_rounds_summary_says_how_many_actions_the_game_held_when_it_ended(
        setup: tuple[int, dict[str, Any]], seed: int, choice_seed: int) -> None:
    """Each finished round's ``actions`` is the game's action count once its last
    action was applied (docs/triominos.md), so that pages name each seat as it was held
    then: the number of the action whose events hold the ``round_end``."""
    seats, options = setup
    steps = list(random_game(seats, options, seed, choice_seed, max_actions=3000))
    ends = [number for number, (_, _, _, events, _) in enumerate(steps, start=1)
            if any(event["type"] == "round_end" for event in events)]
    state = steps[-1][4]
    assert ends or not state.finished
    assert [summary["actions"] for summary in state.history] == ends


@settings(max_examples=40, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_the_56_tiles_are_conserved(setup: tuple[int, dict[str, Any]], seed: int,
                                    choice: int) -> None:
    """TR-TILE-1, TR-SETUP-1: pool + hands + table always hold each of the 56 tiles once."""
    seats, options = setup
    check_tiles_conserved(seats, options, seed, choice)


def check_tiles_conserved(seats: int, options: dict[str, Any], seed: int, choice: int
                          ) -> None:
    for _, _, _, _, state in random_game(seats, options, seed, choice):
        masks = [1 << t for t in state.pool] + list(state.hands) + \
            [1 << laid.tile for laid in state.layout.tiles.values()]
        total = 0
        for mask in masks:
            assert not total & mask
            total |= mask
        assert total == ALL_TILES


@settings(max_examples=40, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_every_table_stays_consistent(setup: tuple[int, dict[str, Any]], seed: int,
                                      choice: int) -> None:
    """TR-PLACE-1/2: every new tile shares a side, and all coinciding corners are equal;
    TR-BONUS-1..5: bonuses match the geometry."""
    seats, options = setup
    for before, _, action, events, state in random_game(seats, options, seed, choice):
        if action["type"] != "place" or state.round != before.round:
            continue
        layout = state.layout
        p, laid = list(layout.tiles.items())[-1]
        cell = CELLS[p]
        assert laid.corners == ROTATIONS[laid.tile][laid.rotation]
        corner_of: dict[int, int] = {}
        for q, other in layout.tiles.items():
            for v, n in zip(CELLS[q].corners, other.corners, strict=True):
                assert corner_of.setdefault(v, n) == n
        shared = sum(1 for q in cell.sides if q in before.layout.tiles)
        assert shared >= 1 or not before.layout.tiles
        bonus = events[0]["bonus"]
        hexagons = sum(all(q in layout.tiles for q in RINGS[v]) for v in cell.corners)
        assert (bonus or "").endswith("hexagon") == (hexagons > 0)
        if bonus == "bridge":
            assert shared == 1 and hexagons == 0
        if bonus == "extended_bridge":
            assert shared == 2
        # The incrementally kept open positions and their facts equal a fresh rebuild.
        fresh = Layout()
        for q, other in layout.tiles.items():
            fresh.place(q, other.tile, other.rotation, other.seat, other.bonus)
        assert fresh.open == layout.open
        view = GAME.view(state, None)
        state.layout.facts.clear()
        state.public_view = None
        assert GAME.view(state, None) == view


@settings(max_examples=40, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_scores_change_only_as_the_rules_say(setup: tuple[int, dict[str, Any]], seed: int,
                                             choice: int) -> None:
    """TR-SCORE-1, TR-DRAW-1..3, TR-END-2/3: only the acting seat's points move during a
    round, by exactly the event's points; other seats gain only when a round ends."""
    seats, options = setup
    check_scores(seats, options, seed, choice)


def check_scores(seats: int, options: dict[str, Any], seed: int, choice: int) -> None:
    children = options.get("scoring") == "children"
    for before, seat, action, events, state in random_game(seats, options, seed, choice):
        delta = [a - b for a, b in zip(state.scores, before.scores, strict=True)]
        first = events[0]
        ended = any(e["type"] == "round_end" for e in events)
        if not ended:
            assert all(d == 0 for s, d in enumerate(delta) if s != seat)
        own = first.get("points", 0)
        view = GAME.view(before, seat)
        if action["type"] == "place":
            value = 1 if children else TILE_VALUE[_tile(action)]
            assert own >= value
            if not before.layout.tiles:  # TR-SETUP-3/4: the opening's bonus, as shown
                bonus = {o["tile"]: o["bonus"] for o in view["openings"]}
                assert own == value + bonus.get(action["tile"], 0)
        elif action["type"] == "draw":
            assert own == (0 if children else -5)
        else:
            assert own in ((0,) if children else (0, -10))
            assert own == view["pass_points"]  # the pass button shows what it costs
        if not ended:
            assert delta[seat] == own
        else:
            end = next(e for e in events if e["type"] == "round_end")
            gained = [0] * seats
            for line in end["points"]:
                if line["reason"] in ("triominos.reasons.out", "triominos.reasons.hands_left",
                                      "triominos.reasons.blocked"):
                    gained[line["seat"]] += line["points"]
            gained[seat] += own
            assert delta == gained
            assert end["scores"] == state.scores  # dealing a new round scores nothing


@settings(max_examples=30, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_replaying_the_record_reproduces_every_state(
    setup: tuple[int, dict[str, Any]], seed: int, choice: int
) -> None:
    """A game is its record: replay gives the same state after every action."""
    seats, options = setup
    check_replay(seats, options, seed, choice)


def check_replay(seats: int, options: dict[str, Any], seed: int, choice: int) -> None:
    record = new_record("triominos", options,
                        [SeatInfo(name=f"p{i}") for i in range(seats)], seed)
    snapshots = []
    for _, seat, action, _, state in random_game(seats, options, seed, choice):
        record.append(seat, action)
        snapshots.append(GAME.snapshot(state))
    replayed: list[dict[str, Any]] = []
    replay(GameRecord.model_validate_json(record.model_dump_json()),
           on_step=lambda _n, state, _e: replayed.append(GAME.snapshot(state)))
    assert replayed == snapshots


@settings(max_examples=30, deadline=None)
@given(opening_choices, st.integers(0, 2**32))
def test_tr_setup_4_games_opened_by_choice_conserve_tiles_score_and_replay(
    game: tuple[int, dict[str, Any], int], choice: int
) -> None:
    """Where the starter holds 0-0-0 and a higher triple: the 56 tiles are conserved, the
    opening scores what the view said, and the record replays exactly, by either rules
    version (version 2 offers the two openings, version 1 the highest triple only)."""
    seats, options, seed = game
    state = GAME.new_game(GAME.make_config(options, seats), seats, seed)
    (starter,) = GAME.to_act(state)
    assert len(GAME.legal_actions(state, starter)) == options["rules_version"]
    check_tiles_conserved(seats, options, seed, choice)
    check_scores(seats, options, seed, choice)
    check_replay(seats, options, seed, choice)


def scramble_secrets(state: TriominosState, keep: int | None, rng: random.Random
                     ) -> TriominosState:
    """A state that differs only in what ``keep`` may not see: other hands, the pool."""
    other = GAME.clone(state)
    hidden = list(other.pool)
    for seat, hand in enumerate(other.hands):
        if seat != keep:
            hidden += [t for t in range(56) if hand >> t & 1]
    rng.shuffle(hidden)
    for seat, hand in enumerate(other.hands):
        if seat != keep:
            mask = 0
            for _ in range(hand.bit_count()):
                mask |= 1 << hidden.pop()
            other.hands[seat] = mask
    other.pool = hidden
    other.rng = random.Random(rng.random())
    return other


@settings(max_examples=30, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_views_never_show_another_hand_or_the_pool(
    setup: tuple[int, dict[str, Any]], seed: int, choice: int
) -> None:
    """A view depends only on public facts and the seat's own tiles."""
    seats, options = setup
    rng = random.Random(choice)
    for step, (_, _, _, _, state) in enumerate(random_game(seats, options, seed, choice)):
        if step % 5:
            continue
        for seat in [None, *range(seats)]:
            view = GAME.view(state, seat)
            assert GAME.view(scramble_secrets(state, seat, rng), seat) == view
            assert set(view) & {"pool_tiles", "hands", "rng", "seed"} == set()
            if seat is None:
                assert "hand" not in view


def _tile(action: dict[str, Any]) -> int:
    return TILE_NUMBER[action["tile"]]
