"""Rules version 1: Dixit records made before DX-DECK-4 and DX-SCORE-4 changed (format
version 1, no ``rules_version``) replay exactly as they were played (docs/dixit.md,
"Rules versions")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gametable.core.records import GameRecord, RecordError, replay
from gametable.games.dixit import DIXIT as GAME
from gametable.simulate import play_bot_game

RECORDS = Path(__file__).parent / "records"
OLD = sorted(p.stem for p in RECORDS.glob("v1-*.json") if not p.stem.endswith(".replay"))
MORE_THAN_84 = {"v1-pt-3p", "v1-is-8p", "v1-team-6p"}
"""The recorded games that drew more than 84 cards (played differently by version 2)."""


def load(name: str) -> tuple[GameRecord, dict[str, object]]:
    record = GameRecord.model_validate_json((RECORDS / f"{name}.json").read_text("utf-8"))
    expected = json.loads((RECORDS / f"{name}.replay.json").read_text("utf-8"))
    return record, expected


def summary(record: GameRecord) -> dict[str, object]:
    """What ``gametable replay --json`` prints of a record's outcome."""
    result = replay(record)
    outcome = result.game.outcome(result.state).to_json()
    return {"game": record.game, "finished": outcome["finished"], "draw": outcome["draw"],
            "scores": outcome["scores"], "winners": outcome["winners"],
            "ranking": outcome["ranking"], "turns": outcome["turns"],
            "actions": len(record.actions),
            "ended_early": not outcome["finished"] and record.meta.get("ended_early") is True}


def test_the_old_records_are_there() -> None:
    assert len(OLD) == 5 and set(OLD) >= MORE_THAN_84


@pytest.mark.parametrize("name", OLD)
def test_dx_deck_4_and_dx_score_4_a_version_1_record_replays_exactly(name: str) -> None:
    """A record of format version 1 is played by rules version 1: the whole deck is the
    draw pile and PT has no lone-finder bonus by default; the outcome is the recorded one."""
    record, expected = load(name)
    assert record.version == 1 and "rules_version" not in record.config
    assert summary(record) == expected
    assert replay(record).config.rules_version == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(MORE_THAN_84))
def test_dx_deck_4_the_same_actions_make_another_game_by_rules_version_2(name: str) -> None:
    """Why the version matters: by the current rules (84 cards in play) the recorded
    actions give cards the game does not deal, or another outcome."""
    record, expected = load(name)
    current = record.model_copy(update={"version": 2, "config": {**record.config,
                                                                  "rules_version": 2}})
    try:
        outcome = summary(current)
    except RecordError:
        return
    assert outcome != expected


def test_dx_score_4_rules_version_1_keeps_the_lone_finder_bonus_off_in_pt() -> None:
    """With the whole deck in both versions, a 3-player PT record of version 1 scores
    without the DX-SCORE-4 bonus, and the same actions by version 2 with it."""
    record, outcome = play_bot_game("dixit", {"edition": "PT", "cards_in_play": "all",
                                              "rules_version": 1}, ["greedy"] * 3, seed=5)
    assert record.config["rules_version"] == 1
    replayed = replay(record)
    assert GAME.outcome(replayed.state).scores == outcome.scores
    reasons = {line.reason for round_ in outcome.rounds for line in round_}
    assert "dixit.reasons.lone_finder" not in reasons
    assert "dixit.reasons.storyteller" in reasons
    current = record.model_copy(update={"config": {**record.config, "rules_version": 2}})
    now = GAME.outcome(replay(current).state)
    assert any(line.reason == "dixit.reasons.lone_finder"
               for round_ in now.rounds for line in round_)
    assert now.scores != outcome.scores
