"""Shared helpers of the Dixit tests: set up games and play rounds by who votes for whom."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gametable.core.protocol import Event
from gametable.core.records import GameRecord
from gametable.games.dixit import DIXIT as GAME
from gametable.games.dixit.config import DixitConfig
from gametable.games.dixit.state import DixitState
from gametable.simulate import play_bot_game

DECK = 252


def config(**options: Any) -> DixitConfig:
    """A config with the default deck's size filled in (as ``make_config`` would)."""
    options.setdefault("first_storyteller", "first_seat")
    return DixitConfig(deck_size=options.pop("deck_size", DECK), **options)


def new(seats: int, seed: int = 1, **options: Any) -> DixitState:
    """A game of ``seats`` seats whose first storyteller is seat 0 (unless told)."""
    return GAME.new_game(config(**options), seats, seed)


def slots_of(state: DixitState, seat: int) -> list[int]:
    """The slots (1-based) of the cards ``seat`` gave this round."""
    assert state.table is not None
    return [k for k, card in enumerate(state.table, 1) if card in state.submissions[seat]]


def tell(state: DixitState, text: str = "A clue") -> list[Event]:
    """The storyteller tells with their first card (Party: no card)."""
    teller = state.storyteller
    assert teller is not None
    if state.config.variant == "party":
        return GAME.apply(state, teller, {"type": "clue", "text": text})
    return GAME.apply(state, teller, {"type": "clue", "card": state.hands[teller][0],
                                      "text": text})


def submit_all(state: DixitState, givers: Mapping[int, int] | None = None) -> list[Event]:
    """Every giver gives their first card(s); in Team, ``givers`` maps team → giver."""
    events: list[Event] = []
    for team, seat in (givers or {}).items():
        events += GAME.apply(state, seat, {"type": "giver", "seat": seat})
        del team
    count = 2 if state.config.variant == "base" and state.seats == 3 else 1
    for seat in sorted(GAME.to_act(state)):
        events += GAME.apply(state, seat, {"type": "submit",
                                           "cards": sorted(state.hands[seat])[:count]})
    return events


def vote_for(state: DixitState, votes: Mapping[int, Sequence[int]],
             red: int | None = None) -> list[Event]:
    """Each voter votes for the cards of the seats listed (owners, not slots); ``red``:
    the owner whose card gets the Party storyteller's red vote."""
    events: list[Event] = []
    for voter, owners in votes.items():
        slots = [slots_of(state, owner)[0] for owner in owners]
        action: dict[str, Any] = {"type": "vote", "slots": slots}
        if red is not None and voter == state.storyteller:
            action["red"] = slots_of(state, red)[0]
        events += GAME.apply(state, voter, action)
    return events


def round_points(events: Sequence[Event]) -> dict[int, int]:
    """Points per seat in the reveal event of ``events``."""
    reveal = next(e for e in events if e["type"] == "reveal")
    points: dict[int, int] = {}
    for line in reveal["points"]:
        points[line["seat"]] = points.get(line["seat"], 0) + line["points"]
    return points


def reasons(events: Sequence[Event], seat: int) -> list[str]:
    """The reason keys (without ``dixit.reasons.``) of ``seat``'s lines in the reveal."""
    reveal = next(e for e in events if e["type"] == "reveal")
    return [line["reason"].rsplit(".", 1)[1] for line in reveal["points"]
            if line["seat"] == seat]


def party_of_twelve() -> GameRecord:
    """A legal Dixit Party record of 12 computer players, 10 rounds each, every clue as
    long as the rules allow (200 characters): a late step's view, with the game's
    history, is about 280 KB (for the replays' size caps)."""
    record, outcome = play_bot_game("dixit", {"variant": "party", "rounds_per_player": 10},
                                    ["random"] * 12, 7)
    assert outcome.finished
    for number, entry in enumerate(record.actions):
        if entry.action.get("type") == "clue":
            entry.action["text"] = f"{number:04d} " + "x" * 195
    return record
