"""Replays over HTTP: the steps of a record file (the body of ``POST /api/replay``) or of
a finished table, as a seat or a spectator saw them; every refusal is clear."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from gametable.core.records import GameRecord, replay
from gametable.server.replays import MAX_RECORD_ACTIONS, MAX_RECORD_BYTES
from tests.server.test_http import finished_bot_table

RECORDS = Path(__file__).resolve().parents[1] / "games"
TRIOMINOS = RECORDS / "triominos" / "records" / "pressman_3p_seed96.json"
DIXIT = RECORDS / "dixit" / "records" / "v1-en-4p.json"


def post(client: TestClient, body: bytes | str, **query: Any) -> Any:
    return client.post("/api/replay", content=body, params=query,
                       headers={"Content-Type": "application/json"})


def test_steps_of_a_record_as_a_seat_and_as_a_spectator(client: TestClient) -> None:
    text = TRIOMINOS.read_text()
    record = GameRecord.model_validate_json(text)
    seen = post(client, text, seat=1, **{"from": 0}, count=5)
    assert seen.status_code == 200, seen.text
    data = seen.json()
    assert data["game"] == "triominos" and data["steps"] == len(record.actions)
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2]
    assert data["config"]["rules_version"] == 1  # a version 1 record plays by the first rules
    assert [f["step"] for f in data["frames"]] == [0, 1, 2, 3, 4]
    first = data["frames"][0]
    assert first["seat"] is None and first["state"]["events"] == []
    assert data["frames"][1]["seat"] == record.actions[0].seat
    for frame in data["frames"]:
        state = frame["state"]
        assert state["type"] == "state" and state["version"] == frame["step"]
        assert state["legal"] == [] and state["status"] == "playing"
    # Seat 1 sees its own hand; a spectator sees none.
    assert data["frames"][4]["state"]["view"].get("hand")
    watched = post(client, text, **{"from": 4}, count=1).json()
    assert [f["step"] for f in watched["frames"]] == [4]
    assert not watched["frames"][0]["state"]["view"].get("hand")


def test_the_last_step_carries_the_outcome_and_matches_the_replayed_game(
        client: TestClient) -> None:
    text = DIXIT.read_text()
    record = GameRecord.model_validate_json(text)
    result = replay(record)
    steps = len(record.actions)
    data = post(client, text, seat=0, **{"from": steps - 1}, count=50).json()
    assert [f["step"] for f in data["frames"]] == [steps - 1, steps]
    last = data["frames"][-1]["state"]
    assert last["status"] == "finished"
    assert last["outcome"] == result.game.outcome(result.state).to_json()
    assert last["view"] == json.loads(json.dumps(result.game.view(result.state, 0)))
    assert last["events"] == result.events[-1]
    # At most 50 steps per request.
    assert len(post(client, text, count=500).json()["frames"]) == 50


def test_a_finished_table_replays_from_its_stored_record(client: TestClient) -> None:
    table_id = finished_bot_table(client)
    record = GameRecord.model_validate(client.get(f"/api/tables/{table_id}/record").json())
    data = client.get(f"/api/tables/{table_id}/replay", params={"seat": 0, "count": 3})
    assert data.status_code == 200, data.text
    assert data.json()["steps"] == len(record.actions)
    assert data.json()["meta"]["table"] == table_id
    assert [s["bot"] for s in data.json()["seats"]] == ["greedy", "random"]


def test_an_unfinished_table_is_not_replayed(client: TestClient) -> None:
    created = client.post("/api/tables", json={
        "game": "sequence-cats", "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}).json()
    response = client.get(f"/api/tables/{created['table']['id']}/replay")
    assert response.status_code == 403 and response.json()["code"] == "record_hidden"


def test_a_file_that_is_not_json_or_not_a_record_is_refused_clearly(
        client: TestClient) -> None:
    not_json = post(client, "{not json")
    assert not_json.status_code == 400
    assert not_json.json()["code"] == "bad_record"
    assert not_json.json()["key"] == "server.errors.record_not_json"
    assert "not JSON" in not_json.json()["message"]
    # JSON of something else (a deck's manifest, a list) is named as not a record at all,
    # not as a record whose first field is wrong.
    for other in ({"name": "My deck", "cards": []}, [1, 2, 3], "record"):
        refused = post(client, json.dumps(other))
        assert refused.status_code == 400
        assert refused.json()["key"] == "server.errors.record_not_record"
        assert "Download the game record" in refused.json()["message"]
    record = json.loads(TRIOMINOS.read_text())
    deep: Any = {}
    for _ in range(300):
        deep = {"a": deep}
    nested = post(client, json.dumps({**record, "meta": deep}))  # it was a 500
    assert nested.status_code == 400
    assert nested.json()["key"] == "server.errors.too_deep"
    wrong = post(client, json.dumps({**record, "seed": -1}))
    assert wrong.status_code == 400
    assert wrong.json()["key"] == "server.errors.record_invalid"
    assert wrong.json()["params"]["field"] == "seed"
    assert '"seed"' in wrong.json()["message"]


def test_an_illegal_action_is_refused_with_its_number_and_rule(client: TestClient) -> None:
    record = json.loads(TRIOMINOS.read_text())
    # Action 4 played again at once: its tile has left the hand (or it is not that
    # seat's turn any more).
    record["actions"].insert(4, record["actions"][3])
    response = post(client, json.dumps(record))
    assert response.status_code == 422
    error = response.json()
    assert error["code"] == "record_illegal"
    assert error["rule"].startswith("TR-") and error["params"]["rule_id"] == error["rule"]
    assert error["params"]["number"] == 5
    assert error["message"].startswith(f"Action 5 of the record breaks rule {error['rule']}: ")


def test_unknown_games_bad_seats_and_bad_options_are_refused(client: TestClient) -> None:
    record = json.loads(TRIOMINOS.read_text())
    unknown = post(client, json.dumps({**record, "game": "chess"}))
    assert unknown.status_code == 400 and unknown.json()["code"] == "unknown_game"
    assert "chess" in unknown.json()["message"]
    seat = post(client, json.dumps(record), seat=3)
    assert seat.status_code == 400 and seat.json()["key"] == "server.errors.replay_seat"
    step = post(client, json.dumps(record), **{"from": len(record["actions"]) + 1})
    assert step.status_code == 400 and step.json()["key"] == "server.errors.replay_step"
    options = post(client, json.dumps({**record, "config": {"no_such_option": 1}}))
    assert options.status_code == 400 and options.json()["code"] == "bad_config"


def test_oversized_records_are_refused(client: TestClient) -> None:
    record = json.loads(TRIOMINOS.read_text())
    padded = json.dumps({**record, "meta": {"padding": "x" * MAX_RECORD_BYTES}})
    big = post(client, padded)
    assert big.status_code == 413 and big.json()["code"] == "too_large"
    assert big.json()["params"]["limit"] == MAX_RECORD_BYTES
    many = {**record, "actions": [{"seat": 0, "action": {}}] * (MAX_RECORD_ACTIONS + 1)}
    long = post(client, json.dumps(many, separators=(",", ":")))
    assert long.status_code == 413 and long.json()["code"] == "record_too_long"


def test_replays_are_rate_limited(tmp_path: Path) -> None:
    from gametable.server.app import Settings, create_app  # noqa: PLC0415
    from gametable.server.limits import Rate  # noqa: PLC0415

    app = create_app(Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none",
                              rates={"replay": Rate(2, 60.0)}))
    text = TRIOMINOS.read_text()
    with TestClient(app) as client:
        assert post(client, text).status_code == 200
        assert post(client, text).status_code == 200
        third = post(client, text)
        assert third.status_code == 429 and third.json()["code"] == "rate_limited"
        assert int(third.headers["Retry-After"]) >= 1
