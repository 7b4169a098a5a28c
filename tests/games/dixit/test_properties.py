"""Property tests over many random Dixit games in every variant and edition."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from gametable.core.errors import IllegalAction
from gametable.core.protocol import Event
from gametable.core.records import SeatInfo, new_record, replay
from gametable.games.dixit import DIXIT as GAME
from gametable.games.dixit.rules import teams_of
from gametable.games.dixit.state import DixitState
from tests.dixit_decks import TEST_DECK

setups = st.sampled_from([
    (3, {}), (4, {}), (6, {}), (7, {}), (12, {}), (5, {"edition": "EN"}),
    (6, {"edition": "PT", "lone_finder_bonus": True}), (3, {"edition": "PT"}),
    (4, {"bonus_cap": "uncapped", "first_storyteller": "first_seat"}),
    (6, {"variant": "party"}), (9, {"variant": "party", "rounds_per_player": 2}),
    (12, {"variant": "party"}), (7, {"variant": "party", "first_storyteller": "random"}),
    (6, {"variant": "team"}), (8, {"variant": "team"}),
    (12, {"variant": "team"}), (5, {"edition": "EN", "mime_or_music": True}),
])
seeds = st.integers(min_value=0, max_value=2**63 - 1)

Step = tuple[DixitState, int, dict[str, Any], list[Event], DixitState]


def random_game(seats: int, options: dict[str, Any], seed: int, choice_seed: int
                ) -> Iterator[Step]:
    """Yield (state before, seat, action, events, state after) through a random game in
    which the seat to act among several is also chosen at random."""
    state = GAME.new_game(GAME.make_config({"deck": TEST_DECK, **options}, seats), seats,
                          seed)
    chooser = random.Random(choice_seed)
    while True:
        to_act = sorted(GAME.to_act(state))
        if not to_act:
            return
        seat = chooser.choice(to_act)
        action = dict(chooser.choice(GAME.legal_actions(state, seat)))
        if action["type"] == "clue":
            action["text"] = chooser.choice(["Waves", "A long way home", "Ó, sæla"])
        before = GAME.clone(state)
        events = GAME.apply(state, seat, action)
        yield before, seat, action, events, state


def all_cards(state: DixitState) -> list[int]:
    cards = [c for hand in state.hands for c in hand] + state.draw_pile + state.discard_pile
    if state.table is not None:
        return cards + state.table
    return cards + [c for given in state.submissions.values() for c in given]


@settings(max_examples=30, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_cards_are_conserved(setup: tuple[int, dict[str, Any]], seed: int, choice: int) -> None:
    """DX-COMP-1, DX-DECK-4, DX-SETUP-2, DX-ROUND-6: the game's 84 cards of the deck
    stay the same, and hands, piles and table hold each once."""
    seats, options = setup
    game: list[int] | None = None
    for before, _, _, _, state in random_game(seats, options, seed, choice):
        if game is None:
            game = sorted(all_cards(before))
            assert len(game) == 84 and set(game) <= set(range(252))
        assert sorted(all_cards(state)) == game


@settings(max_examples=30, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_scores_only_grow_at_the_end_of_a_round(setup: tuple[int, dict[str, Any]], seed: int,
                                                choice: int) -> None:
    """DX-SCORE-5: scores never fall and change only when the last vote is in, by the
    round's reasons (Team: both members by the team's points)."""
    seats, options = setup
    for before, _, _, events, state in random_game(seats, options, seed, choice):
        delta = [a - b for a, b in zip(state.scores, before.scores, strict=True)]
        reveal = next((e for e in events if e["type"] == "reveal"), None)
        if reveal is None:
            assert delta == [0] * seats
            continue
        assert all(d >= 0 for d in delta)
        assert delta == reveal["gained"]
        lines = [0] * seats
        for line in reveal["points"]:
            lines[line["seat"]] += line["points"]
        if options.get("variant") == "team":
            for a, b in teams_of(seats):
                assert delta[a] == delta[b] == lines[a] + lines[b]
        else:
            assert delta == lines
            # At most 3 for finding the card and 4 for votes on one's own (DX-SCORE-2/3,
            # uncapped with six players); a lone finder takes 4 for it (DX-SCORE-4);
            # Party caps a round at 5 (DX-PARTY-5).
            top = 5 if options.get("variant") == "party" else (
                8 if options.get("lone_finder_bonus") else 7)
            assert all(0 <= d <= top for d in delta), (delta, top)


@settings(max_examples=30, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_no_one_scores_for_a_forbidden_vote(setup: tuple[int, dict[str, Any]], seed: int,
                                            choice: int) -> None:
    """DX-ROUND-4/5, DX-TEAM-4: every revealed vote was cast by a voter of that round and
    never on their own card (Party allows it, DX-PARTY-4); an attempt is refused."""
    seats, options = setup
    party = options.get("variant") == "party"
    for before, seat, action, events, _ in random_game(seats, options, seed, choice):
        if action["type"] == "vote" and not party:
            own = GAME.view(before, seat)["own_slots"]
            for slot in own:
                probe = GAME.clone(before)
                try:
                    GAME.apply(probe, seat, {"type": "vote", "slots": [slot]})
                except IllegalAction as error:
                    assert error.rule == "DX-ROUND-5"
                else:
                    raise AssertionError("a vote for one's own card was accepted")
        reveal = next((e for e in events if e["type"] == "reveal"), None)
        if reveal is None:
            continue
        for slot in reveal["slots"]:
            for voter in slot["votes"]:
                if not party:
                    assert voter != slot["owner"]
                    assert voter != reveal["storyteller"]


@settings(max_examples=20, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_replaying_the_record_reproduces_every_state(setup: tuple[int, dict[str, Any]],
                                                     seed: int, choice: int) -> None:
    """DESIGN 3: (game, config, seats, seed, actions) reproduces each state exactly."""
    seats, options = setup
    snapshots = []
    actions = []
    for _, seat, action, _, state in random_game(seats, options, seed, choice):
        actions.append((seat, action))
        snapshots.append(GAME.snapshot(state))
    record = new_record("dixit", {"deck": TEST_DECK, **options},
                        [SeatInfo(name=f"P{i}") for i in range(seats)], seed)
    for seat, action in actions:
        record.append(seat, action)
    replayed: list[dict[str, Any]] = []
    replay(record, on_step=lambda _, state, __: replayed.append(GAME.snapshot(state)))
    assert replayed == snapshots


def own_hand_secret(state: DixitState, seat: int) -> bool:
    """DX-PARTY-2: in Party nobody sees their hand while the first storyteller is being
    claimed, and the storyteller not until the clue."""
    return state.config.variant == "party" and (
        state.phase == "claim" or (state.phase == "clue" and seat == state.storyteller))


def scramble_secrets(state: DixitState, seat: int, rng: random.Random) -> DixitState:
    """A copy of ``state`` with everything ``seat`` may not know changed: other hands
    (and its own while DX-PARTY-2 hides it) swapped with draw-pile cards, draw-pile cards
    swapped with cards of the deck the game does not use (DX-DECK-4), the draw pile
    reordered, other votes moved."""
    other = GAME.clone(state)
    assert other.config.deck_size is not None
    unused = sorted(set(range(other.config.deck_size)) - set(all_cards(other)))
    for i in range(min(len(unused), len(other.draw_pile))):
        other.draw_pile[i] = unused[i]
    for s in range(other.seats):
        if s == seat and not own_hand_secret(state, seat):
            continue
        for i in range(len(other.hands[s])):
            if other.draw_pile:
                j = rng.randrange(len(other.draw_pile))
                other.hands[s][i], other.draw_pile[j] = other.draw_pile[j], other.hands[s][i]
    rng.shuffle(other.draw_pile)
    if other.table is not None:
        for s, (_, red) in list(other.votes.items()):
            if s != seat:
                other.votes[s] = ([rng.randrange(1, len(other.table) + 1)], red)
    return other


@settings(max_examples=30, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
@example((6, {"variant": "party"}), 1, 1)   # DX-PARTY-2: the claim phase, every time
def test_views_never_show_another_hand_or_an_early_vote(
        setup: tuple[int, dict[str, Any]], seed: int, choice: int) -> None:
    """DESIGN 2 (view): a seat's view is the same whatever the other hands, the draw
    pile's order and the others' votes before the reveal are; in Party, whatever its own
    hand is while the first storyteller is claimed or it tells (DX-PARTY-2). From the
    first state on."""
    seats, options = setup
    rng = random.Random(seed)
    first = True
    for before, _, _, _, after in random_game(seats, options, seed, choice):
        states = (before, after) if first else (after,)
        first = False
        for state, seat in ((s, seat) for s in states for seat in (*range(seats), None)):
            view = GAME.view(state, seat)
            target = seat if seat is not None else -1
            assert GAME.view(scramble_secrets(state, target, rng), seat) == view


@settings(max_examples=20, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_arrival_order_never_changes_the_outcome(setup: tuple[int, dict[str, Any]],
                                                 seed: int, choice: int) -> None:
    """DESIGN 2 (to_act): simultaneous submissions and votes give the same game whatever
    order they arrive in (Team givers are named first, in seat order)."""
    seats, options = setup
    results = []
    for order_seed in (1, 2):
        state = GAME.new_game(GAME.make_config({"deck": TEST_DECK, **options}, seats),
                              seats, seed)
        orderer = random.Random(order_seed)
        while GAME.to_act(state):
            pending = sorted(GAME.to_act(state))
            firsts = {s: GAME.legal_actions(state, s)[0] for s in pending}
            if any(a["type"] in ("claim", "giver", "clue") for a in firsts.values()):
                seat = pending[0]
                action = dict(firsts[seat])
                if action["type"] == "clue":
                    action["text"] = "Waves"
                GAME.apply(state, seat, action)
                continue
            choices = {s: random.Random(hash((choice, state.round, s))).choice(
                GAME.legal_actions(state, s)) for s in pending}
            orderer.shuffle(pending)
            for s in pending:
                GAME.apply(state, s, choices[s])
        results.append(without_move_times(GAME.snapshot(state)))
    assert results[0] == results[1]


def without_move_times(snapshot: dict[str, Any]) -> dict[str, Any]:
    """``snapshot`` less when each move was made (``told_at``, ``given_at``, ``voted_at`` in the
    rounds' summaries and the state's ``*_at``), which the arrival order does change."""
    rest = {k: v for k, v in snapshot.items() if k not in ("told_at", "given_at", "voted_at")}
    rest["history"] = [
        {**{k: v for k, v in summary.items() if k not in ("told_at", "voted_at")},
         "slots": [{k: v for k, v in slot.items() if k != "given_at"} for slot in summary["slots"]]}
        for summary in snapshot["history"]]
    return rest


def probes(state: DixitState, seat: int) -> list[dict[str, Any]]:
    """Actions for ``seat`` that name what it may not know: cards of other hands, of the
    draw pile, of the table and of the deck the game does not use, every slot (and one
    past the last) for a vote and a red vote, every seat as a team's giver."""
    assert state.config.deck_size is not None
    unused = sorted(set(range(state.config.deck_size)) - set(all_cards(state)))[:2]
    others = [c for s, hand in enumerate(state.hands) if s != seat for c in hand[:2]]
    given = [c for s, cards in state.submissions.items() if s != seat for c in cards]
    cards = [*others, *state.draw_pile[-2:], *given, *unused, -1]
    own = state.hands[seat][:1]
    slots = range(1, len(state.table) + 2) if state.table is not None else range(1, 3)
    return [
        {"type": "claim"}, {"type": "take_back"}, {"type": "clue", "text": "Waves"},
        *({"type": "giver", "seat": s} for s in range(state.seats)),
        *({"type": "clue", "card": c, "text": "Waves"} for c in cards),
        *({"type": "submit", "cards": [c]} for c in cards),
        *({"type": "submit", "cards": [*own, c]} for c in cards),
        *({"type": "vote", "slots": [k]} for k in slots),
        *({"type": "vote", "slots": [1, k]} for k in slots),
        *({"type": "vote", "slots": [k], "red": 1} for k in slots),
    ]


def answer(state: DixitState, seat: int, action: dict[str, Any]) -> Any:
    """The rules' refusal of ``action`` (rule, message key, parameters), or the first
    event it makes, the seat's own (what a last card or vote brings, the table and the
    reveal, differs from one deal to another and is everyone's to see)."""
    try:
        events = GAME.apply(GAME.clone(state), seat, action)
    except IllegalAction as error:
        return error.rule, error.key, error.params
    return events[:1]


def scramble_givers(state: DixitState, seat: int, rng: random.Random) -> DixitState:
    """A copy of ``state`` in which the other seats gave each other's cards (before the
    reveal nobody knows who gave which, DX-ROUND-3)."""
    other = GAME.clone(state)
    seats = [s for s in other.submissions if s != seat]
    cards = [c for s in seats for c in other.submissions[s]]
    rng.shuffle(cards)
    for s in seats:
        count = len(other.submissions[s])
        other.submissions[s], cards = cards[:count], cards[count:]
    if other.table is not None:
        for s in seats:  # a moved vote may not fall on the voter's new card
            mine = [k for k, c in enumerate(other.table, 1) if c in other.submissions[s]]
            if other.config.variant != "team" and s in other.votes \
                    and set(other.votes[s][0]) & set(mine):
                return state
    return other


@settings(max_examples=15, deadline=None)
@given(setups, seeds, st.integers(0, 2**32))
def test_refusals_and_legal_actions_never_tell_a_secret(
        setup: tuple[int, dict[str, Any]], seed: int, choice: int) -> None:
    """DESIGN 2 (view is the only road): what the rules answer a seat, its legal
    actions and the refusal of any action naming another hand's card, a draw-pile card,
    a card given by someone else, a card the game does not use, any slot or giver,
    is the same whatever the other hands, the draw pile, who gave which card and the
    others' votes are (DX-ROUND-2/3/4, DX-DECK-4, DX-TEAM-2, DX-PARTY-4, DX-7P-1)."""
    seats, options = setup
    rng = random.Random(seed)
    for step, (_, _, _, _, state) in enumerate(random_game(seats, options, seed, choice)):
        if step % 3 or state.round > 3:
            continue
        for seat in range(seats):
            others = [scramble_secrets(state, seat, rng), scramble_givers(state, seat, rng)]
            legal = GAME.legal_actions(state, seat)
            answers = [answer(state, seat, action) for action in probes(state, seat)]
            for other in others:
                assert GAME.legal_actions(other, seat) == legal
                assert [answer(other, seat, action)
                        for action in probes(state, seat)] == answers
