"""Records of the first rules replay exactly; the same actions under rules version 2 show
what changed (TR-DRAW-3, TR-SETUP-4; docs/triominos.md, "Rules versions").

``records/`` holds records made by the engine as first released, as it wrote them
(format version 1, no ``rules_version``): PRESSMAN bot games in which a starter held 0-0-0
and a higher triple, with their outcome then in ``meta["outcome"]``, and a solo game whose
last action is a pass after a third draw that emptied the pool.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gametable.core.records import GameRecord, Replay, replay, start
from tests.games.triominos.helpers import holds_zero_and_a_higher_triple

RECORDS = Path(__file__).parent / "records"
PRESSMAN = sorted(RECORDS.glob("pressman_*.json"))
EMPTIED = RECORDS / "tri_pass_after_pool_emptied.json"


def load(path: Path) -> GameRecord:
    return GameRecord.model_validate_json(path.read_text())


def under_rules_version(record: GameRecord, version: int) -> GameRecord:
    """The same game written as a current record played by ``version``."""
    data = record.model_dump(mode="json")
    data["version"] = 2
    data["config"]["rules_version"] = version
    return GameRecord.model_validate(data)


def result(played: Replay) -> dict[str, Any]:
    outcome = played.game.outcome(played.state)
    return {"finished": outcome.finished, "scores": outcome.scores,
            "winners": outcome.winners, "turns": outcome.turns}


def openings_offered(record: GameRecord) -> list[int]:
    """How many openings each starter holding 0-0-0 and a higher triple was offered."""
    offered: list[int] = []
    game, _, state = start(record)
    for step in record.actions:
        if holds_zero_and_a_higher_triple(game.view(state, step.seat)):
            offered.append(len(game.legal_actions(state, step.seat)))
        game.apply(state, step.seat, step.action)
    return offered


def test_the_records_were_made_before_rules_versions() -> None:
    assert len(PRESSMAN) >= 3
    for path in [*PRESSMAN, EMPTIED]:
        record = load(path)
        assert record.version == 1 and "rules_version" not in record.config


@pytest.mark.parametrize("path", PRESSMAN, ids=lambda p: p.stem)
def test_pressman_records_of_the_first_rules_replay_to_their_outcome(path: Path) -> None:
    record = load(path)
    played = replay(record)
    assert played.config.rules_version == 1  # type: ignore[attr-defined]
    assert result(played) == record.meta["outcome"]
    # Written again as a current record, the game keeps rules version 1 and its outcome.
    again = GameRecord.model_validate_json(
        under_rules_version(record, 1).model_dump_json())
    assert result(replay(again)) == record.meta["outcome"]


@pytest.mark.parametrize("path", PRESSMAN, ids=lambda p: p.stem)
def test_tr_setup_4_recorded_starts_with_0_0_0_and_a_higher_triple(path: Path) -> None:
    """Under the first rules each such start was automatic (the highest triple); under
    rules version 2 the same position offers both openings, and the recorded one (the
    highest triple) is still legal."""
    record = load(path)
    assert openings_offered(record)
    assert set(openings_offered(record)) == {1}
    assert set(openings_offered(under_rules_version(record, 2))) == {2}


def test_tr_draw_3_a_pressman_record_with_both_changes_replays_by_its_rules() -> None:
    """Seed 174's game has a start with 0-0-0 beside a higher triple and a pass after a
    third draw that emptied the pool: by the first rules it replays to its outcome; by
    rules version 2 only that pass changes (−10 less for its seat)."""
    record = load(RECORDS / "pressman_2p_seed174.json")
    old = replay(record)
    new = replay(under_rules_version(record, 2))
    assert result(old) == record.meta["outcome"]
    changed = [(n, a[0], b[0]) for n, (a, b) in enumerate(zip(old.events, new.events,
                                                             strict=True)) if a[0] != b[0]]
    assert len(changed) == 1
    _, was, now = changed[0]
    assert was["type"] == now["type"] == "pass"
    assert (was["points"], now["points"]) == (-10, 0)
    seat = was["seat"]
    assert [n - o for n, o in zip(new.state.scores, old.state.scores, strict=True)] == [
        10 if s == seat else 0 for s in range(len(record.seats))]


def test_tr_draw_3_the_recorded_pass_after_the_pool_emptied() -> None:
    """The shared fixture's last action is that pass: the record as it is (format version
    1) keeps the −10; with ``rules_version: 2`` the pass costs nothing, which takes the
    solo player to 151 and past the target of 150, so the game ends."""
    record = load(EMPTIED)
    last = record.actions[-1]
    assert last.action == {"type": "pass"}
    assert [a.action["type"] for a in record.actions[-4:-1]] == ["draw"] * 3
    old = replay(record)
    assert old.events[-1][0] == {"type": "pass", "seat": 0, "points": -10}
    assert old.state.scores == [141] and not old.state.finished

    new = replay(under_rules_version(record, 2))
    assert new.events[-1][0] == {"type": "pass", "seat": 0, "points": 0}
    assert new.state.scores == [151] and new.state.finished
    assert [e for e in old.events[:-1]] == [e for e in new.events[:-1]]
