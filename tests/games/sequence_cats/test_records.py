"""Records made before the rules audit replay exactly, by the first rules (rules_version 1).

``records/`` holds the two stalled-board records of the audit (format version 1, so
replayed with ``rules_version: 1``) and three records made by the engine as it was before
the audit, with ``"rules_version": 1`` in their config; their ``meta`` keeps the outcome
and a digest of the final state as that engine computed them.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from gametable.core.config import RULES_VERSION
from gametable.core.records import GameRecord, RecordError, replay
from gametable.games.sequence_cats import SEQUENCE_CATS as GAME
from gametable.simulate import play_bot_game

RECORDS = Path(__file__).parent / "records"
BEFORE_AUDIT = ["six_random_players", "three_players_stalled", "two_sequences_engine_chooses"]
# The fields of a snapshot as the engine had them before the audit.
OLD_FIELDS = ["cells", "locked", "sequences", "hands", "pile", "discards", "current",
              "exchanged", "turn", "winner", "finished", "rng"]


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(gzip.decompress((RECORDS / f"{name}.json.gz").read_bytes()))
    return data


def digest(state: Any) -> str:
    snapshot = GAME.snapshot(state)
    text = json.dumps({key: snapshot[key] for key in OLD_FIELDS}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize(("name", "turns", "actions"), [
    ("sc_stalled_board_3p", 3142, 6210),
    ("sc_stalled_board_3p_greedy", 2803, 5530),
])
def test_sc_win_3_the_stalled_board_records_replay_to_their_outcome(
    name: str, turns: int, actions: int
) -> None:
    """SC-WIN-3, SC-DEAD-1: the audit's records (format 1: rules 1) replay as recorded:
    thousands of turns of exchanges and passes, then seat 0's sequence."""
    record = GameRecord.model_validate(load(name))
    assert record.version == 1 and "rules_version" not in record.config
    result = replay(record)
    assert result.config.rules_version == 1  # type: ignore[attr-defined]
    outcome = GAME.outcome(result.state)
    assert (outcome.finished, outcome.winners, outcome.turns) == (True, [0], turns)
    assert len(record.actions) == actions


def test_sc_win_3_the_stalled_board_records_would_not_replay_by_the_current_rules() -> None:
    """The versions differ: by rules 2 the same actions stop at the first pass that the
    rules now make themselves."""
    data = load("sc_stalled_board_3p")
    data.update(version=2, config={"rules_version": 2})
    with pytest.raises(RecordError):
        replay(GameRecord.model_validate(data))


@pytest.mark.parametrize("name", BEFORE_AUDIT)
def test_records_made_before_the_audit_replay_to_the_same_final_state(name: str) -> None:
    """SC-DEAD-1, SC-WIN-2, SC-WIN-3: records of the engine before the audit (optional
    exchanges, explicit passes, the engine's choice of five) end in the very state that
    engine reached."""
    data = load(name)
    result = replay(GameRecord.model_validate(data))
    outcome = GAME.outcome(result.state)
    expected = data["meta"]["outcome"]
    assert (outcome.finished, outcome.winners, outcome.turns) == (
        expected["finished"], expected["winners"], expected["turns"])
    assert digest(result.state) == data["meta"]["snapshot_sha256"]


def test_the_engine_chose_the_five_in_a_record_made_before_the_audit() -> None:
    """SC-WIN-2, rules 1: the record holds no ``sequence`` action although a line of
    more than five was made; by rules 2 the same actions ask for a choice, and the next
    seat's action comes out of turn."""
    data = load("two_sequences_engine_chooses")
    assert all(step["action"]["type"] == "play" for step in data["actions"])
    (turn,) = data["meta"]["chosen_at_turns"]  # the line was made by action turn + 1
    data["config"] = {**data["config"], "rules_version": 2}
    with pytest.raises(RecordError) as error:
        replay(GameRecord.model_validate(data))
    assert error.value.number == turn + 2
    assert error.value.error.rule == "SC-TURN-1"


def test_sc_win_3_the_stalled_deal_ends_by_the_current_rules() -> None:
    """SC-WIN-3: the deal of the greedy stalled record, played again by greedy players
    under the current rules, ends within a few turns instead of 2,803."""
    seed = load("sc_stalled_board_3p_greedy")["seed"]
    record, outcome = play_bot_game("sequence-cats", {}, ["greedy"] * 3, seed)
    assert outcome.finished and outcome.turns < 300
    assert record.config == {"rules_version": RULES_VERSION}
