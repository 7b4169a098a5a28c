"""Game records: the documented format parses, replays are exact, errors name the action."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import ValidationError

from gametable.arena import ArenaResult, run_arena
from gametable.core import registry
from gametable.core.config import RULES_VERSION
from gametable.core.errors import ConfigError, IllegalAction
from gametable.core.records import (
    FieldGivenTwice,
    GameRecord,
    NumberNotJson,
    RecordError,
    SeatInfo,
    first_problem,
    load_record,
    new_record,
    options_of,
    replay,
)
from gametable.simulate import play_bot_game

DOC = Path(__file__).resolve().parents[2] / "docs" / "records.md"


def test_the_documented_example_is_a_valid_record() -> None:
    block = re.search(r"```json\n(.*?)```", DOC.read_text("utf-8"), re.S)
    assert block is not None
    record = GameRecord.model_validate_json(block.group(1))
    assert record.game == "sequence-cats" and record.version == 2
    assert record.config["rules_version"] == 2
    assert record.seats[1].bot == "greedy"


@pytest.mark.parametrize("change", [
    {"version": 3},
    {"version": True},  # equal to 1, so ``Literal[1, 2]`` took it: replayed by rules 1
    {"version": 1.0},
    {"version": 2.0},
    {"version": "2"},
    {"format": "pgn"},
    {"seed": -1},
    {"seed": 2**63},
    {"seed": "7"},
    {"seed": 7.0},
    {"seats": []},
    {"colour": "blue"},
])
def test_malformed_records_are_refused(change: dict[str, object]) -> None:
    record, _ = play_bot_game("sequence-cats", {}, ["random", "random"], seed=1)
    data = {**json.loads(record.model_dump_json()), **change}
    with pytest.raises(ValidationError):
        GameRecord.model_validate(data)
    with pytest.raises(ValidationError):  # as a file is read
        GameRecord.model_validate_json(json.dumps(data))


@pytest.mark.parametrize("field", ["format", "version"])
def test_a_record_without_its_format_or_version_is_refused(field: str) -> None:
    """docs/records.md: every record says what it is (``format``) and which version of
    the format it is written in (``version``, which decides how it replays): a file
    without them is not read as some default version."""
    record, _ = play_bot_game("sequence-cats", {}, ["random", "random"], seed=1)
    data = json.loads(record.model_dump_json())
    assert data["format"] == "gametable-record" and data["version"] == 2
    del data[field]
    with pytest.raises(ValidationError) as error:
        GameRecord.model_validate_json(json.dumps(data))
    assert error.value.errors()[0]["loc"] == (field,)
    assert error.value.errors()[0]["type"] == "missing"


def test_a_record_replays_to_the_same_outcome_after_a_json_round_trip() -> None:
    record, outcome = play_bot_game("sequence-cats", {"sequences_to_win": 2},
                                    ["greedy", "random", "greedy"], seed=11)
    again = GameRecord.model_validate_json(record.model_dump_json())
    result = replay(again)
    assert result.game.outcome(result.state) == outcome
    assert len(result.events) == len(record.actions)


def test_an_illegal_action_is_reported_with_its_number_counting_from_one() -> None:
    record, _ = play_bot_game("sequence-cats", {}, ["random", "random"], seed=3)
    record.actions[9].seat = 1 - record.actions[9].seat  # out of turn
    with pytest.raises(RecordError) as error:
        replay(record)
    assert error.value.number == 10
    assert str(error.value).startswith("action 10: SC-TURN-1: ")


def test_a_seat_outside_the_table_is_refused() -> None:
    record, _ = play_bot_game("sequence-cats", {}, ["random", "random"], seed=3)
    record.actions[0].seat = 5
    with pytest.raises(RecordError, match="action 1: PROTOCOL"):
        replay(record)


def test_an_unknown_game_or_a_bad_seat_count_is_a_config_error() -> None:
    record, _ = play_bot_game("sequence-cats", {}, ["random", "random"], seed=3)
    with pytest.raises(ConfigError, match="no game called"):
        replay(record.model_copy(update={"game": "chess"}))
    with pytest.raises(ConfigError, match="5 players"):
        replay(record.model_copy(update={"seats": record.seats * 2 + record.seats[:1]}))


def test_a_recorded_action_is_a_copy_of_the_callers() -> None:
    """The record kept the caller's nested lists: reusing an action's position list
    after playing it changed the record, which then no longer replayed."""
    record, _ = play_bot_game("triominos", {"rounds": 1}, ["random", "random"], seed=3)
    placed = next(a.action for a in record.actions if a.action.get("type") == "place")
    copy = GameRecord.model_validate(record.model_dump())
    copy.actions.clear()
    position = list(placed["position"])
    action = {**placed, "position": position}
    copy.append(0, action)
    position.append(999)
    action["type"] = "changed"
    assert copy.actions[0].action == placed


@pytest.mark.parametrize(("action", "key"), [
    (("play",), "errors.malformed_action"),
    ({"card": "x"}, "errors.malformed_action"),
    ({"type": "play", "card": np.int64(3)}, "errors.action_not_json"),
    ({"type": "place", "position": [np.float32(0), 0]}, "errors.action_not_json"),
    ({"type": "play", "card": "bengal", "space": float("nan")}, "errors.action_not_json"),
    ({"type": "place", "position": [float("inf"), 0]}, "errors.action_not_json"),
])
def test_an_action_a_record_cannot_hold_is_refused_by_the_protocol_s_message(
        action: Any, key: str) -> None:
    """``append`` of a tuple failed with Python's "dictionary update sequence element
    #0 has length 1"; it now says what an action is, as ``apply`` does, and the record
    is unchanged."""
    record = new_record("sequence-cats", {}, [SeatInfo(), SeatInfo()], 3)
    with pytest.raises(IllegalAction) as error:
        record.append(0, action)
    assert (error.value.rule, error.value.key) == ("PROTOCOL", key)
    assert record.actions == []
    record.append(1, {"type": "place", "position": (0, 1)})
    assert record.actions[0].action == {"type": "place", "position": [0, 1]}


@pytest.mark.parametrize("value", [float("nan"), float("-inf"), [1.0, {"x": float("inf")}]])
def test_a_meta_json_has_no_form_for_is_refused(value: Any) -> None:
    """NaN and the infinities in a record's meta were written as ``null``."""
    with pytest.raises(ValidationError, match="finite number"):
        new_record("sequence-cats", {}, [SeatInfo(), SeatInfo()], 3, meta={"loss": value})


def test_a_new_record_takes_none_for_the_defaults_and_names_what_is_no_mapping() -> None:
    """``config=None`` (``make_config`` takes it for the defaults) was "'NoneType' object
    is not iterable"; a list as the meta was "cannot convert dictionary update sequence
    element #0 to a sequence"."""
    seats = [SeatInfo(), SeatInfo()]
    assert new_record("sequence-cats", None, seats, 3).config == {
        "rules_version": RULES_VERSION}
    with pytest.raises(TypeError, match="meta is a mapping"):
        new_record("sequence-cats", {}, seats, 3, meta=[1, 2])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="config is a mapping"):
        new_record("sequence-cats", [("teams", 2)], seats, 3)  # type: ignore[arg-type]


def test_new_records_carry_the_format_and_rules_versions() -> None:
    record, _ = play_bot_game("sequence-cats", {}, ["random", "random"], seed=1)
    assert record.version == 2
    assert record.config["rules_version"] == RULES_VERSION == 5
    made = new_record("dixit", {"target_score": 20}, [SeatInfo(), SeatInfo(), SeatInfo()], 5)
    assert made.config == {"rules_version": RULES_VERSION, "target_score": 20}
    assert new_record("dixit", {"rules_version": 2}, [SeatInfo()] * 3, 5).config == {
        "rules_version": 2}


def test_a_new_record_takes_what_a_researcher_has_and_refuses_what_cannot_replay() -> None:
    """``new_record`` took only a mapping of options (not the config ``make_config``
    made, which ``new_game`` takes), broke on a NumPy seed, and kept options or a seat
    count the game refuses, or an action of a seat the record has not: each surfaced
    only at replay."""
    game = registry.get("sequence-cats")
    seats = [SeatInfo(), SeatInfo()]
    made = new_record(game, game.make_config({"free_corners": False}, 2), seats,
                      np.int64(3))
    assert made.config["free_corners"] is False and made.seed == 3
    assert type(made.seed) is int
    with pytest.raises(ConfigError, match="SC-PLAY-1"):
        new_record("sequence-cats", {}, [SeatInfo()] * 5, 1)
    with pytest.raises(ConfigError):
        new_record("triominos", {"foo": 1}, seats, 1)
    with pytest.raises(ValueError, match="seed"):
        new_record("triominos", {}, seats, -1)
    with pytest.raises(ValueError, match="seat 2"):
        made.append(2, {"type": "pass"})
    assert made.actions == []
    # A count, as new_game takes, was an "'int' object is not iterable" from inside.
    with pytest.raises(TypeError, match=r"one SeatInfo a seat .*not 4"):
        new_record("dixit", {}, 4, 7)  # type: ignore[arg-type]


def test_a_numpy_seed_plays_a_bot_game_as_the_number_it_holds() -> None:
    """A seed drawn with NumPy failed in the bots' seeds, blamed on the bot."""
    record, _ = play_bot_game("triominos", {"rounds": 1}, ["greedy", "random"],
                              np.int64(2937467307694268567))
    again, _ = play_bot_game("triominos", {"rounds": 1}, ["greedy", "random"],
                             2937467307694268567)
    assert record.seed == again.seed and record.actions == again.actions


@pytest.mark.parametrize("name", ["dixit", "triominos", "sequence-cats"])
def test_a_game_deals_a_numpy_seed_as_the_number_it_holds(name: str) -> None:
    game = registry.get(name)
    seats = 3 if name == "dixit" else 2
    dealt = game.new_game({}, seats, np.uint32(7))
    assert game.view(dealt, 0) == game.view(game.new_game({}, seats, 7), 0)


def test_an_arena_takes_numpy_counts_as_the_numbers_they_hold() -> None:
    """A NumPy ``games`` was refused as "not a whole number" where its seed was taken."""
    arena = run_arena("triominos", ["greedy", "random"], np.int64(1), players=np.int32(2),
                      options={"rounds": 1}, seed=np.int64(5), jobs=np.int64(1))
    again = run_arena("triominos", ["greedy", "random"], 1, options={"rounds": 1}, seed=5)
    def played(result: ArenaResult) -> list[tuple[str, int, int, float]]:
        return [(s.bot, s.games, s.wins, s.score_total) for s in result.standings]
    assert played(arena) == played(again) and arena.standings[0].games == 2
    with pytest.raises(ValueError, match="games must be a whole number from 1"):
        run_arena("triominos", ["greedy", "random"], np.int64(0))


def test_a_version_1_record_replays_by_the_first_rules() -> None:
    # A game played by the first rules, written as a version 1 record (no rules_version).
    record, _ = play_bot_game("sequence-cats", {"rules_version": 1}, ["random", "random"],
                              seed=1)
    config = {k: v for k, v in record.config.items() if k != "rules_version"}
    old = record.model_copy(update={"version": 1, "config": config})
    assert options_of(old)["rules_version"] == 1
    assert replay(old).config.rules_version == 1  # type: ignore[attr-defined]
    # A version 2 record without the field is played by the current rules.
    assert options_of(record.model_copy(update={"config": config})) == config
    # One that names the first rules says what it says.
    assert options_of(old.model_copy(update={"config": {**config, "rules_version": 1}})
                      )["rules_version"] == 1


def test_a_version_1_record_that_names_other_rules_is_refused() -> None:
    """Format 1 dates from before rules versions: docs/records.md says such a record is
    replayed by the first rules, yet one edited to name rules version 3 was replayed by
    those rules without a word."""
    record, _ = play_bot_game("sequence-cats", {}, ["random", "random"], seed=1)
    edited = record.model_copy(update={"version": 1})
    assert edited.config["rules_version"] == RULES_VERSION != 1
    with pytest.raises(ConfigError) as error:
        replay(edited)
    assert (error.value.rule, error.value.key) == ("PROTOCOL",
                                                   "errors.record_v1_rules_version")
    assert error.value.params == {"version": str(RULES_VERSION)}


@pytest.mark.parametrize("named", ["1", 1.0, True])
def test_a_version_1_record_naming_its_rules_by_no_whole_number_is_told_so(
        named: object) -> None:
    """A version 1 record naming ``rules_version`` "1" was told it "names rules version
    1, so it was edited", which contradicted itself; it is told the option is not a whole
    number, as any game's options are."""
    record, _ = play_bot_game("sequence-cats", {}, ["random", "random"], seed=1)
    edited = record.model_copy(update={"version": 1,
                                       "config": {"rules_version": named}})
    with pytest.raises(ConfigError) as error:
        replay(edited)
    assert (error.value.rule, error.value.key) == ("CONFIG", "errors.bad_option")
    assert "rules_version" in str(error.value)


@pytest.mark.parametrize(("name", "seats", "options"), [
    ("dixit", 4, {"target_score": True}),
    ("dixit", 4, {"lone_finder_bonus": "true"}),
    ("sequence-cats", 2, {"sequences_to_win": "2"}),
    ("sequence-cats", 2, {"sequences_to_win": 2.0}),
    ("sequence-cats", 2, {"free_corners": "no"}),
    ("triominos", 2, {"rounds": True}),
    ("triominos", 2, {"extended_bridge": 1}),
])
def test_an_option_of_the_wrong_json_type_is_refused_not_converted(
        name: str, seats: int, options: dict[str, object]) -> None:
    """``true`` is not 1 (a Dixit target of ``true`` played a 1-point game), ``"2"`` is not
    2 and ``"no"`` is not false: each is a ConfigError naming the option."""
    (option,) = options
    with pytest.raises(ConfigError, match=f'"{option}"'):
        registry.get(name).make_config(options, seats)


def test_a_bad_board_names_the_option_as_written() -> None:
    with pytest.raises(ConfigError) as refusal:
        registry.get("sequence-cats").make_config({"board": 5}, 2)
    assert refusal.value.params["option"] == "board"
    with pytest.raises(ConfigError) as refusal:
        registry.get("sequence-cats").make_config({"board": {"spaces": [[1]]}}, 2)
    assert refusal.value.params["option"] == "board.spaces.0.0"


def test_a_records_names_are_read_as_names_are_shown() -> None:
    """A record file's direction marks and control characters would disguise who made
    each move in a replay, and a bot's name had no length limit: names are cleaned as
    a table's are (one line, hidden characters as spaces), a name that shows nothing is
    none, and a bot's name is at most 100 characters."""
    record, _ = play_bot_game("sequence-cats", {}, ["greedy", "random"], seed=3)
    data = json.loads(record.model_dump_json())
    data["seats"] = [{"name": "\u202e\u0000abc", "bot": "greedy\u200b"},
                     {"name": "\u200b\u2060", "bot": None}]
    parsed = GameRecord.model_validate_json(json.dumps(data))
    assert [(s.name, s.bot) for s in parsed.seats] == [("abc", "greedy"), (None, None)]
    data["seats"][1]["bot"] = "x" * 101
    with pytest.raises(ValidationError):
        GameRecord.model_validate_json(json.dumps(data))
    assert replay(parsed).game.outcome(replay(parsed).state).finished


def test_a_seat_taken_over_mid_game_says_from_which_action_and_only_within_the_record(
        ) -> None:
    """``bot_since`` (docs/records.md): the computer player took the seat over after
    that many actions; it needs ``bot`` and cannot lie past the record's end. A seat
    held by one person or one computer player throughout writes no ``bot_since``."""
    record, outcome = play_bot_game("sequence-cats", {}, ["greedy", "greedy"], seed=3)
    data = json.loads(record.model_dump_json())
    assert all("bot_since" not in seat for seat in data["seats"])
    count = len(data["actions"])
    data["seats"][1] = {"name": "Ola", "bot": "medium", "bot_since": count}
    taken_over = GameRecord.model_validate(data)
    assert taken_over.seats[1].bot_since == count
    again = GameRecord.model_validate_json(taken_over.model_dump_json())
    assert again.seats[1].bot_since == count
    assert replay(again).game.outcome(replay(again).state) == outcome
    for seat, problem in [({"name": "Ola", "bot_since": 2}, "no bot"),
                          ({"name": "Ola", "bot": "medium", "bot_since": count + 1},
                           f"holds {count} actions"),
                          ({"name": "Ola", "bot": "medium", "bot_since": -1}, "greater")]:
        data["seats"][1] = seat
        with pytest.raises(ValidationError, match=problem):
            GameRecord.model_validate(data)


def test_a_seat_that_changed_hands_says_who_held_it_until_when_in_order() -> None:
    """``earlier`` (docs/records.md): who held a seat before, oldest first, each until
    a number of actions within the record; a computer player among them may have taken
    a person's seat over (``bot_since``), not after it gave the seat up. A seat of one
    occupant throughout writes no ``earlier``."""
    record, outcome = play_bot_game("sequence-cats", {}, ["greedy", "greedy"], seed=3)
    data = json.loads(record.model_dump_json())
    assert all("earlier" not in seat for seat in data["seats"])
    count = len(data["actions"])
    data["seats"][1] = {"name": "Cleo", "bot": None, "earlier": [
        {"until": 2, "name": "Bruno", "bot": None},
        {"until": 5, "name": "Bruno", "bot": "easy", "bot_since": 2}]}
    changed = GameRecord.model_validate(data)
    assert [(e.until, e.name, e.bot, e.bot_since) for e in changed.seats[1].earlier] == [
        (2, "Bruno", None, None), (5, "Bruno", "easy", 2)]
    again = GameRecord.model_validate_json(changed.model_dump_json())
    assert again == changed
    assert json.loads(again.model_dump_json())["seats"][1]["earlier"][0] == {
        "until": 2, "name": "Bruno", "bot": None}
    assert replay(again).game.outcome(replay(again).state) == outcome
    # Each refusal names the field (the server's ``params.field``, the command line's
    # message): the checks against the actions said only "record", after "Value error, ".
    for earlier, problem, field in [
            ([{"until": 5, "name": "B"}, {"until": 2, "name": "A"}], "not in order",
             "seats.1.earlier.1.until"),
            ([{"until": 2, "name": "A"}, {"until": 2, "name": "B"}], "not in order",
             "seats.1.earlier.1.until"),
            ([{"until": count + 1, "name": "A"}], f"holds {count} actions",
             "seats.1.earlier.0.until"),
            ([{"until": 0, "name": "A"}], "must be 1 or more",
             "seats.1.earlier.0.until"),
            ([{"until": 4, "name": "A", "bot_since": 2}], "no bot",
             "seats.1.earlier.0.bot_since"),
            ([{"until": 4, "name": "A", "bot": "easy", "bot_since": 5}],
             "when it gave the seat up", "seats.1.earlier.0.bot_since"),
            ([{"until": 4, "name": "A", "seat": 1}], "no such field",
             "seats.1.earlier.0.seat")]:
        data["seats"][1] = {"name": "Cleo", "earlier": earlier}
        with pytest.raises(ValidationError) as error:
            GameRecord.model_validate(data)
        where, said, _ = first_problem(error.value)
        # in the catalog's words, never pydantic's ("Input should be …", "Extra inputs")
        assert where == field and problem in said and not said.startswith("Value error")
        assert "Input should" not in said and "Extra inputs" not in said
    data["seats"][1] = {"name": "Cleo", "bot": "easy", "bot_since": count + 1}
    with pytest.raises(ValidationError) as error:
        GameRecord.model_validate(data)
    assert first_problem(error.value) == (
        "seats.1.bot_since",
        f"seat 1's computer player took over after action {count + 1}, but the record "
        f"holds {count} actions", "value_error")


def test_a_record_made_of_numpy_values_is_written_as_json() -> None:
    """python.md takes a NumPy integer where a whole number goes: ``new_record`` kept an
    ``np.int64`` option or meta value as it was, and writing the record then failed."""
    made = new_record("triominos", {"rounds": np.int64(2)}, [SeatInfo(), SeatInfo()], 1,
                      meta={"run": np.int64(3), "rate": np.float64(0.5), "pair": (1, 2)})
    written = json.loads(made.model_dump_json())
    assert written["config"]["rounds"] == 2 and type(made.config["rounds"]) is int
    assert written["meta"] == {"run": 3, "rate": 0.5, "pair": [1, 2]}
    assert GameRecord.model_validate_json(made.model_dump_json()) == made
    with pytest.raises(ValidationError):
        new_record("triominos", {}, [SeatInfo(), SeatInfo()], 1, meta={"when": object()})


def test_load_record_refuses_a_field_given_twice_as_the_command_line_does(
        tmp_path: Path) -> None:
    """records.md read a record from Python with ``model_validate_json``, which keeps the
    last of two ``"seed"`` fields, where ``gametable replay`` refuses the file."""
    record, _ = play_bot_game("triominos", {"rounds": 1}, ["greedy", "random"], 4)
    text = record.model_dump_json()
    assert load_record(text) == record
    assert load_record(b"\xef\xbb\xbf" + text.encode()) == record  # a byte-order mark
    twice = text.replace('"seed":', '"seed":1,"seed":', 1)
    with pytest.raises(FieldGivenTwice, match='the field "seed" is given twice') as error:
        load_record(twice)
    assert error.value.field == "seed" and isinstance(error.value, ValueError)
    with pytest.raises(ValidationError):
        load_record("{not json")
    # Python's JSON reader takes NaN and the infinities, which are no JSON: the record
    # was read, and written back with null in their place; the server refuses the file.
    for number in ("NaN", "-Infinity", "Infinity"):
        odd = text.replace('"meta":{}', f'"meta":{{"rate":{number}}}', 1)
        assert odd != text
        with pytest.raises(NumberNotJson, match=f"{number} is no JSON number"):
            load_record(odd)


def test_a_path_or_a_dict_for_a_records_text_is_told_what_to_give(tmp_path: Path) -> None:
    """``load_record(Path("game.json"))`` raised "'PosixPath' object has no attribute
    'removeprefix'", and ``replay`` of a dict "'dict' object has no attribute 'game'":
    neither said what to give instead."""
    record, _ = play_bot_game("sequence-cats", {}, ["greedy", "random"], 2)
    path = tmp_path / "game.json"
    path.write_text(record.model_dump_json(), "utf-8")
    with pytest.raises(TypeError, match=re.escape(
            "load_record takes a record file's text (str or bytes); read the file first: "
            "load_record(Path(...).read_bytes()); not PosixPath")):
        load_record(path)  # type: ignore[arg-type]
    data = json.loads(path.read_text("utf-8"))
    with pytest.raises(TypeError, match=r"GameRecord\.model_validate\(data\); not dict$"):
        load_record(data)
    with pytest.raises(TypeError, match=re.escape(
            "replay takes a GameRecord: load_record(text) reads a record file's text, "
            "GameRecord.model_validate(data) a parsed dict; not dict")):
        replay(data)
    # What the messages say works.
    assert load_record(path.read_bytes()) == GameRecord.model_validate(data) == record
    replayed = replay(load_record(path.read_bytes()))
    assert replayed.game.outcome(replayed.state).finished
