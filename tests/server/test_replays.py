"""Replays over HTTP: the steps of a record file (the body of ``POST /api/replay``) or of
a finished table, as a seat or a spectator saw them; every refusal is clear."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from gametable.core.records import GameRecord, replay
from gametable.server import replays
from gametable.server.replays import MAX_RECORD_ACTIONS, MAX_RECORD_BYTES, MAX_REPLAY_BYTES
from tests.games.dixit.helpers import party_of_twelve as dixit_party_of_twelve
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


def test_a_record_file_with_a_byte_order_mark_is_read(client: TestClient) -> None:
    """A record saved by an editor that begins UTF-8 with a byte-order mark replays (it
    was refused as "not JSON")."""
    seen = post(client, b"\xef\xbb\xbf" + TRIOMINOS.read_bytes(), count=1)
    assert seen.status_code == 200, seen.text
    assert seen.json()["game"] == "triominos"


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
    # Where, in numbers a translated message reads too (orjson's English words were the
    # detail: "…não é JSON (unexpected character…)").
    assert not_json.json()["message"].endswith("(line 1, column 2).")
    assert not_json.json()["params"] == {"line": 1, "column": 2}
    # A damaged file whose bytes are not UTF-8 was told it held half a surrogate pair.
    damaged = post(client, b'{"format": "gametable-record", "\xff"}')
    assert (damaged.status_code, damaged.json()["key"]) == (
        400, "server.errors.record_not_utf8"), damaged.json()
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
    deeper = post(client, json.dumps(record)[:-1] + ', "meta": ' + "[" * 2000 + "]" * 2000
                  + "}")
    assert deeper.json()["key"] == "server.errors.too_deep"  # not "not JSON"
    huge = post(client, json.dumps(record)[:-1] + ', "seed": 1' + "0" * 400 + "}")
    assert huge.json()["key"] == "server.errors.number_too_large"
    wrong = post(client, json.dumps({**record, "seed": -1}))
    assert wrong.status_code == 400
    assert wrong.json()["key"] == "server.errors.record_invalid"
    assert wrong.json()["params"]["field"] == "seed"
    assert '"seed"' in wrong.json()["message"]


def test_a_record_with_a_field_given_twice_is_refused(client: TestClient) -> None:
    """A record edited by hand with ``"seed"`` given twice was shown with the last one,
    where ``gametable replay`` refuses the file: one file, two games."""
    text = TRIOMINOS.read_text()
    twice = text.replace('"seed":', '"seed": 1, "seed":', 1)
    assert twice != text
    refused = post(client, twice)
    assert refused.status_code == 400, refused.text
    assert refused.json()["key"] == "server.errors.record_field_twice"
    assert refused.json()["params"]["field"] == "seed"
    assert refused.json()["message"] == ('That file is not a valid game record: the field '
                                         '"seed" is given twice in one object.')
    # A nested object too (an action's), and with a byte-order mark before the file.
    nested = text.replace('"type":', '"type": "pass", "type":', 1)
    refused = post(client, b"\xef\xbb\xbf" + nested.encode())
    assert refused.json()["params"]["field"] == "type"


def test_a_seat_changed_hands_past_the_records_end_is_refused_naming_the_field(
        client: TestClient) -> None:
    """A seat that changed hands after more actions than the record holds was refused
    naming the field "record", its problem prefixed "Value error, "."""
    record = json.loads(TRIOMINOS.read_text())
    count = len(record["actions"])
    record["seats"][1]["earlier"] = [{"until": count + 1, "name": "Bruno", "bot": None}]
    refused = post(client, json.dumps(record))
    assert refused.status_code == 400, refused.text
    assert refused.json()["key"] == "server.errors.record_invalid"
    assert refused.json()["params"] == {
        "field": "seats.1.earlier.0.until", "problem": "earlier_past_end", "seat": 1,
        "until": count + 1, "actions": count}
    assert refused.json()["message"].endswith(
        f"(seat 1 changed hands after action {count + 1}, but the record holds {count} "
        "actions).")


@pytest.mark.parametrize("field", ["format", "version"])
def test_a_record_without_its_format_or_version_is_refused(client: TestClient,
                                                           field: str) -> None:
    """docs/records.md: a record says its ``format`` and ``version``; one without them
    is refused as a record with a missing field, not replayed by a guessed version."""
    record = json.loads(TRIOMINOS.read_text())
    del record[field]
    response = post(client, json.dumps(record))
    assert response.status_code == 400
    error = response.json()
    assert error["code"] == "bad_record"
    assert error["key"] == "server.errors.record_missing"
    assert error["params"]["field"] == field
    assert error["message"] == (f'That file is not a valid game record: it has no "{field}" '
                                "field.")


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


def test_a_seat_or_step_outside_the_record_is_named_as_the_query_counts(
        client: TestClient) -> None:
    """``seat`` counts from 0 (docs/protocol.md, Replays): seat 9 of a three-seat game is
    refused naming seat 9 and the seats there are, 0 to 2, not "seat 10"; a ``from``
    outside the steps is ``bad_step``, not a seat's refusal."""
    record = json.loads(TRIOMINOS.read_text())
    assert len(record["seats"]) == 3
    for seat in (9, 3, -1):
        refused = post(client, json.dumps(record), seat=seat).json()
        assert refused["code"] == "bad_seat"
        assert refused["params"]["seat"] == seat and refused["params"]["last"] == 2
        assert refused["message"] == (f"There is no seat {seat} in this game: its seats are "
                                      "numbered 0 to 2.")
    steps = len(record["actions"])
    for first in (-1, steps + 1):
        refused = post(client, json.dumps(record), **{"from": first}).json()
        assert refused["code"] == "bad_step"
        assert refused["message"] == (f"There is no step {first} in this game: its steps are "
                                      f"numbered 0 to {steps}.")


def test_more_steps_than_an_answer_holds_are_paged_and_none_is_refused(
        client: TestClient) -> None:
    """docs/protocol.md, Replays: at most 50 frames come in one answer. Asked for 1,000,
    the answer held 50 and said ``next: null`` (nothing left out), so a client stopped
    at step 49; a count of 0 or less was answered with one frame as if asked for it."""
    text = TRIOMINOS.read_text()
    steps = len(GameRecord.model_validate_json(text).actions)
    assert steps > 60
    many = post(client, text, seat=0, count=1000).json()
    assert (many["first"], many["count"], many["next"]) == (0, 50, 50)
    rest = post(client, text, seat=0, count=1000, **{"from": many["next"]}).json()
    assert rest["first"] == 50 and [f["step"] for f in rest["frames"]][-1] == min(99, steps)
    tail = post(client, text, seat=0, count=1000, **{"from": steps - 3}).json()
    assert (tail["count"], tail["next"]) == (4, None)  # up to the last step: all of it
    exact = post(client, text, seat=0, count=50).json()
    assert (exact["count"], exact["next"]) == (50, None)  # asked for 50: all of them
    for count in (0, -5):
        refused = post(client, text, seat=0, count=count)
        assert refused.status_code == 400 and refused.json()["code"] == "bad_count"
        # Not "1 to 50": a count over 50 is served, 50 at a time (many, above).
        assert refused.json()["message"] == (
            f"Ask for 1 step or more, not {count} (one answer holds at most 50).")


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


# -- answers capped by size ------------------------------------------------------------

def frames_bytes(data: dict[str, Any]) -> int:
    """The bytes of JSON an answer's frames take, counted as the server counts them."""
    return sum(len(orjson.dumps(frame)) for frame in data["frames"])


@pytest.fixture(scope="module")
def party_of_twelve() -> str:
    """:func:`tests.games.dixit.helpers.party_of_twelve` as a record file's text."""
    return dixit_party_of_twelve().model_dump_json()


def test_a_long_records_steps_come_in_answers_of_at_most_2_mib(
        client: TestClient, party_of_twelve: str) -> None:
    record = GameRecord.model_validate_json(party_of_twelve)
    steps = len(record.actions)
    first = steps - 19
    data = post(client, party_of_twelve, seat=0, **{"from": first}, count=20).json()
    # Fewer steps than asked, within the budget; the answer says how many and where the
    # rest begin.
    assert 1 <= data["count"] < 20 and data["count"] == len(data["frames"])
    assert frames_bytes(data) <= MAX_REPLAY_BYTES
    assert [f["step"] for f in data["frames"]] == list(range(first, first + data["count"]))
    assert data["next"] == first + data["count"]
    # Asking from there gives the rest, up to the last step (and its outcome).
    seen = [f["step"] for f in data["frames"]]
    while data["next"] is not None:
        data = post(client, party_of_twelve, seat=0, **{"from": data["next"]},
                    count=first + 20 - data["next"]).json()
        assert data["frames"] and frames_bytes(data) <= MAX_REPLAY_BYTES
        seen += [f["step"] for f in data["frames"]]
    assert seen == list(range(first, steps + 1))
    assert data["frames"][-1]["state"]["status"] == "finished"


def test_an_answer_stops_at_the_byte_budget_and_the_next_request_goes_on(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    text = TRIOMINOS.read_text()
    whole = post(client, text, seat=1, count=10).json()
    assert (whole["count"], whole["next"]) == (10, None)
    sizes = [len(orjson.dumps(frame)) for frame in whole["frames"]]
    monkeypatch.setattr(replays, "MAX_REPLAY_BYTES", sum(sizes[:4]))
    part = post(client, text, seat=1, count=10).json()
    assert (part["first"], part["count"], part["next"]) == (0, 4, 4)
    assert part["frames"] == whole["frames"][:4]
    rest = post(client, text, seat=1, **{"from": 4}, count=6).json()
    assert rest["frames"][0] == whole["frames"][4]
    # A budget below a single step still gives that step, one at a time.
    monkeypatch.setattr(replays, "MAX_REPLAY_BYTES", 1)
    one = post(client, text, seat=1, **{"from": 2}, count=10).json()
    assert (one["count"], one["next"]) == (1, 3)
    assert one["frames"] == whole["frames"][2:3]
    # The last step asked for, alone, needs no next request.
    last = post(client, text, seat=1, **{"from": 2}, count=1).json()
    assert (last["count"], last["next"]) == (1, None)


def test_a_finished_tables_replay_is_capped_the_same_way(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id = finished_bot_table(client)
    url = f"/api/tables/{table_id}/replay"
    whole = client.get(url, params={"count": 6}).json()
    assert (whole["count"], whole["next"]) == (6, None)
    monkeypatch.setattr(replays, "MAX_REPLAY_BYTES",
                        sum(len(orjson.dumps(f)) for f in whole["frames"][:3]))
    part = client.get(url, params={"count": 6}).json()
    assert (part["count"], part["next"]) == (3, 3)
    monkeypatch.setattr(replays, "MAX_REPLAY_BYTES", MAX_REPLAY_BYTES)
    rest = client.get(url, params={"from": 3, "count": 3}).json()
    assert part["frames"] + rest["frames"] == whole["frames"]


def _record_files() -> list[Path]:
    return [TRIOMINOS, DIXIT, RECORDS / "dixit" / "records" / "v1-party-6p.json",
            RECORDS / "sequence_cats" / "records" / "six_random_players.json.gz"]


@pytest.mark.parametrize("path", _record_files(), ids=lambda path: path.name)
def test_later_pages_of_a_record_replay_from_kept_positions_and_say_the_same(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every request replayed the whole record again (a third of a second of the
    server's time for each page of a long Dixit Party game, for anyone who asked): once
    a record is checked, its positions every ``CHECKPOINT_EVERY`` actions are kept and
    the next pages start from the nearest one. They say exactly what a whole replay
    says, as a seat and as a spectator, and the record is not replayed from the start."""
    raw = path.read_bytes()
    record = GameRecord.model_validate_json(gzip.decompress(raw) if path.suffix == ".gz"
                                            else raw)
    steps = len(record.actions)
    monkeypatch.setattr(replays, "CHECKPOINT_EVERY", 7)
    pages = [(seat, first, count) for seat in (None, 0)
             for first, count in ((0, 5), (6, 3), (steps // 2, 20), (steps - 3, 10))]
    cold = []
    for seat, first, count in pages:
        replays._checked.clear()
        cold.append(orjson.dumps(replays.replay_steps(record, seat, first, count)))
    replays.replay_steps(record, None, 0, 1)  # checked once

    def whole(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("replayed from the start")

    monkeypatch.setattr(replays, "replay", whole)
    warm = [orjson.dumps(replays.replay_steps(record, seat, first, count))
            for seat, first, count in pages]
    assert warm == cold
    replays._checked.clear()
