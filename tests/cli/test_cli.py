"""The gametable command, run as a user runs it (a fresh interpreter each time)."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
import typer

from gametable.core import registry
from gametable.simulate import play_bot_game

RECORDS = Path(__file__).parents[1] / "games" / "sequence_cats" / "records"


def gametable(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gametable.cli", *args], capture_output=True,
                          text=True, timeout=120, check=False)


def said(output: str) -> str:
    """``output`` with the error box's frame gone and its wrapped lines joined, so that
    a message can be matched whole."""
    return " ".join(re.sub("[│╭╮╰╯─]", " ", output).split())


def test_simulate_json_prints_one_object_with_the_documented_keys() -> None:
    done = gametable("simulate", "sequence-cats", "--players", "2", "--games", "20",
                     "--seed", "7", "--bots", "greedy,random", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert {"game", "games", "players", "seed", "bots", "wins", "draws", "mean_turns",
            "seconds", "games_per_second"} <= set(result)
    assert result["bots"] == ["greedy", "random"]
    assert set(result["wins"]) == {"0:greedy", "1:random"}
    assert sum(result["wins"].values()) + result["draws"] + result["unfinished"] == 20
    # Greedy beats random (it won 95% of 200 games when this was written).
    assert result["wins"]["0:greedy"] > result["wins"]["1:random"]


def test_simulate_and_arena_stop_a_game_at_max_actions() -> None:
    done = gametable("simulate", "triominos", "--players", "2", "--games", "3",
                     "--max-actions", "20", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["unfinished"] == 3 and result["mean_actions"] == 20
    stopped = gametable("arena", "triominos", "--bots", "greedy,random", "--games", "1",
                        "--max-actions", "20", "--json")
    assert stopped.returncode == 0, stopped.stderr
    (pair,) = json.loads(stopped.stdout)["head_to_head"]
    # (Neither's win, and not drawn either: the head-to-head said "0–0 (2 drawn)".)
    assert (pair["games"], pair["draws"], pair["unfinished"]) == (2, 0, 2)
    refused = gametable("arena", "triominos", "--bots", "greedy,random", "--games", "1",
                        "--max-actions", "0")
    assert refused.returncode == 2 and "--max-actions" in said(refused.stderr)


def test_sc_win_3_simulate_finishes_every_three_player_game_and_names_the_longest() -> None:
    """SC-WIN-3: stalled boards end, so every game finishes; ``longest_game`` names the
    game with the most actions (its seed, actions and turns)."""
    done = gametable("simulate", "sequence-cats", "--players", "3", "--games", "100",
                     "--bots", "greedy,greedy,greedy", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["unfinished"] == 0 and result["draws"] > 0
    longest = result["longest_game"]
    assert set(longest) == {"seed", "actions", "turns"}
    assert 0 <= longest["seed"] < 100
    assert result["mean_actions"] <= longest["actions"] < 1000


def test_simulate_teams_count_a_win_for_every_teammate() -> None:
    done = gametable("simulate", "sequence-cats", "--players", "4", "--games", "10",
                     "--bots", "greedy", "--json")
    wins = json.loads(done.stdout)["wins"]
    assert wins["0:greedy"] == wins["2:greedy"] and wins["1:greedy"] == wins["3:greedy"]


def test_simulate_and_arena_seat_the_games_own_number_of_players_by_default() -> None:
    """Without --players, Dixit was played by two (and refused, DX-SETUP-3)."""
    done = gametable("simulate", "dixit", "--games", "1", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"] == 4
    arena = gametable("arena", "dixit", "--bots", "greedy,random", "--games", "1", "--json")
    assert arena.returncode == 0, arena.stderr
    assert json.loads(arena.stdout)["players"] == 4
    two = gametable("simulate", "sequence-cats", "--games", "1", "--json")
    assert json.loads(two.stdout)["players"] == 2
    unknown = gametable("simulate", "chess")
    assert unknown.returncode == 2 and "chess" in unknown.stderr
    assert "Traceback" not in unknown.stderr


def test_simulate_and_arena_refuse_an_empty_bot_name() -> None:
    """``--bots greedy,,random`` dropped the empty name and played greedy,random."""
    for command in ("simulate", "arena"):
        for bots, message in (("greedy,,random", "an empty bot name in 'greedy,,random'"),
                              ("greedy,", "an empty bot name in 'greedy,'"),
                              ("", "no bot name")):
            done = gametable(command, "sequence-cats", "--games", "1", "--bots", bots)
            assert done.returncode == 2 and "--bots" in done.stderr
            assert message in said(done.stderr), done.stderr


def test_play_bot_game_and_simulate_refuse_a_string_for_the_list_of_bots() -> None:
    """``play_bot_game(…, "greedy", 0)`` took each letter for a bot ("no bot called 'g'")."""
    from gametable.arena import run_arena  # noqa: PLC0415
    from gametable.simulate import simulate  # noqa: PLC0415

    with pytest.raises(TypeError, match="bots is a list of bot names, one per seat"):
        play_bot_game("sequence-cats", None, "greedy", 0)
    with pytest.raises(TypeError, match="bots is a list of bot names"):
        simulate("sequence-cats", "greedy", 1, 0)
    with pytest.raises(TypeError, match="bots is a list of bot names"):
        run_arena("sequence-cats", "greedy,random", 1)
    with pytest.raises(TypeError, match="bots is a list of bot names"):
        play_bot_game("sequence-cats", None, ["greedy", 7], 0)  # type: ignore[list-item]


def test_simulate_refuses_five_players_and_unknown_bots() -> None:
    five = gametable("simulate", "sequence-cats", "--players", "5")
    assert five.returncode == 2 and "SC-PLAY-1" in five.stderr
    bot = gametable("simulate", "sequence-cats", "--bots", "deep-blue")
    assert bot.returncode == 2 and "deep-blue" in bot.stderr and "greedy" in bot.stderr


def test_simulate_refuses_more_bots_than_seats_and_seeds_a_record_cannot_hold() -> None:
    """Three bots for two seats would drop one without a word; seeds past 2^63 - 1 (a
    record's limit) used to fail with a traceback after the first games were played."""
    extra = gametable("simulate", "sequence-cats", "--players", "2", "--games", "1",
                      "--bots", "greedy,random,planner")
    assert extra.returncode == 2 and "3 bots for 2 seats" in extra.stderr
    for command in ("simulate", "arena"):
        late = gametable(command, "sequence-cats", "--games", "2",
                         "--seed", str(2**63 - 1))
        assert late.returncode == 2, late.stderr
        assert "Traceback" not in late.stderr and "2^63" in late.stderr
        assert late.stdout == ""


def test_the_arena_table_keeps_every_column_whole_when_printed_to_a_pipe() -> None:
    done = gametable("arena", "sequence-cats", "--bots", "greedy,random,planner",
                     "--games", "2")
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("│ greedy")]
    assert rows and "…" not in rows[0] and "%)" in rows[0], done.stdout


@pytest.mark.parametrize(("args", "code", "error", "rule"), [
    (("simulate", "nogame"), 2, 'There is no game called "nogame"', "PROTOCOL"),
    (("simulate", "triominos", "--players", "9"), 2, "1 to 6 players, not 9", "TR-SETUP-2"),
    (("simulate", "triominos", "--config", "{bad"), 2, "--config is not valid JSON", None),
    # The last of the two was taken without a word (a record with one is refused).
    (("simulate", "sequence-cats", "--config",
      '{"sequences_to_win": 1, "sequences_to_win": 3}'), 2,
     '--config gives the option "sequences_to_win" twice; give each option once', None),
    (("arena", "triominos", "--config", '{"rounds": 1, "rounds": 2}'), 2,
     'the option "rounds" twice', None),
    (("arena", "triominos", "--bots", "greedy,nobot"), 2, "unknown bot nobot", None),
    (("arena", "triominos", "--bots", "greedy"), 2, "not greedy alone", None),
    # Refused by Typer's own check of the option (it was text on standard error).
    (("arena", "triominos", "--bots", "greedy,random", "--games", "0"), 2,
     "Invalid value for '--games'", None),
    (("simulate", "triominos", "--games", "0"), 2, "Invalid value for '--games'", None),
    # inf passed Typer's range check and ended in a traceback (nothing on standard
    # output with --json); 1e400 reads as inf.
    (("simulate", "sequence-cats", "--games", "1", "--decision-seconds", "inf"), 2,
     "Invalid value for '--decision-seconds': give a finite number of seconds "
     "(0: no limit), not inf", None),
    (("arena", "sequence-cats", "--games", "1", "--decision-seconds", "1e400"), 2,
     "Invalid value for '--decision-seconds': give a finite number of seconds", None),
    # nan failed Typer's range check, whose words ("greater than or equal to 0") read
    # as if it were a negative number.
    (("simulate", "sequence-cats", "--games", "1", "--decision-seconds", "nan"), 2,
     "Invalid value for '--decision-seconds': nan is not a number: give a number of "
     "seconds from 0 (0: no limit)", None),
    (("arena", "sequence-cats", "--games", "1", "--decision-seconds", "-1"), 2,
     "Invalid value for '--decision-seconds': give a number of seconds from 0 "
     "(0: no limit), not -1", None),
])
def test_simulate_and_arena_json_print_a_refusal_as_json(
        args: tuple[str, ...], code: int, error: str, rule: str | None) -> None:
    """With --json a refusal is one JSON object on standard output, ``{"error",
    "rule"}``, as ``replay --json`` gives (it was text on standard error)."""
    done = gametable(*args, "--json")
    assert done.returncode == code, done.stderr
    refusal = json.loads(done.stdout)
    assert error in refusal["error"] and refusal["rule"] == rule, refusal
    text = gametable(*args)
    assert text.returncode == code and not text.stdout and error in said(text.stderr)


def test_replay_json_refuses_a_missing_file_in_its_own_shape(tmp_path: Path) -> None:
    """Typer's own check of the record's path gave ``{"error", "rule"}``, without the
    ``action`` every other refusal of ``replay --json`` has."""
    done = gametable("replay", str(tmp_path / "none.json"), "--json")
    assert done.returncode == 2, done.stderr
    assert json.loads(done.stdout).keys() == {"error", "action", "rule"}


def test_replay_names_the_winners_seat_numbers_with_their_names(tmp_path: Path) -> None:
    """Seats are numbered from 0 as in Python, and named as the record names them; a
    computer player's seat that ``simulate`` named (``"greedy 1"`` for seat 0, numbered
    from 1 for the pages) by its player's name: "seat 0 (greedy 1)" read as an error."""
    record, outcome = play_bot_game("sequence-cats", {}, ["greedy", "random"], seed=3)
    path = tmp_path / "game.json"
    path.write_text(record.model_dump_json())
    done = gametable("replay", str(path))
    winner = outcome.winners[0]
    assert record.seats[winner].name == f"{record.seats[winner].bot} {winner + 1}"
    assert f"winners: seat {winner} ({record.seats[winner].bot})\n" in done.stdout
    seats = [s.model_copy(update={"name": n})
             for s, n in zip(record.seats, ["Anna", "Bo"], strict=True)]
    named = record.model_copy(update={"seats": seats})
    path.write_text(named.model_dump_json())
    done = gametable("replay", str(path))
    assert f"winners: seat {winner} ({['Anna', 'Bo'][winner]})\n" in done.stdout


def test_replay_names_a_server_games_nameless_seats_as_the_page_does(
        tmp_path: Path) -> None:
    """A server game's computer players have no name in the record (``{"name": null,
    "bot": "greedy"}``): replay called them "unnamed" where the page says "Greedy 1 ·
    Medium" (Sequence Cats' Medium is its Greedy)."""
    record, outcome = play_bot_game("sequence-cats", {}, ["greedy", "easy"], seed=3)
    winner = outcome.winners[0]
    expected = ["Greedy 1 · Medium", "Computer 2 · Easy"][winner]
    seats = [s.model_copy(update={"name": None}) for s in record.seats]
    path = tmp_path / "game.json"
    path.write_text(record.model_copy(update={"seats": seats}).model_dump_json())
    done = gametable("replay", str(path))
    assert f"winners: seat {winner} ({expected})\n" in done.stdout, done.stdout
    from gametable.bots.base import seat_name  # noqa: PLC0415

    assert seat_name(2, None, None) == "Player 3"
    assert seat_name(0, None, "random", "is") != "Random 1"  # in the page's language


def test_replay_checks_a_record_and_prints_its_outcome(tmp_path: Path) -> None:
    record, outcome = play_bot_game("sequence-cats", {}, ["greedy", "random"], seed=5)
    path = tmp_path / "game.json"
    path.write_text(record.model_dump_json())
    done = gametable("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["game"] == "sequence-cats" and summary["finished"] is True
    assert summary["winners"] == outcome.winners
    assert summary["actions"] == len(record.actions)


def test_replay_checks_a_record_whose_uploaded_deck_is_not_installed_here(
        tmp_path: Path) -> None:
    """DX-DECK-1: a record of a game played with an uploaded deck stopped `gametable
    replay` with "There is no deck called …": cards are numbers, and the record carries
    the deck's size, which is all the rules need."""
    record, outcome = play_bot_game("dixit", {}, ["greedy"] * 3, seed=8)
    path = tmp_path / "dixit.json"
    path.write_text(record.model_copy(update={"config": {
        **record.config, "deck": "11e012bd2de1a812"}}).model_dump_json())
    done = gametable("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["finished"] is True and summary["winners"] == outcome.winners


def test_replay_says_a_game_its_host_ended_was_ended_early(tmp_path: Path) -> None:
    """It said "1 actions" and only "not finished" for a game the host ended."""
    record, _ = play_bot_game("sequence-cats", {}, ["greedy", "random"], seed=5)
    record.actions = record.actions[:1]
    record.meta["ended_early"] = True
    path = tmp_path / "ended.json"
    path.write_text(record.model_dump_json())
    done = gametable("replay", str(path))
    assert done.returncode == 0, done.stderr
    assert "sequence-cats: 1 action, all legal; not finished: the host ended it early" \
        in done.stdout
    # --json said only "finished": false.
    shown = json.loads(gametable("replay", str(path), "--json").stdout)
    assert shown["finished"] is False and shown["ended_early"] is True
    del record.meta["ended_early"]
    path.write_text(record.model_dump_json())
    assert json.loads(gametable("replay", str(path), "--json").stdout)["ended_early"] is False


def test_replay_reads_a_record_saved_with_a_byte_order_mark(tmp_path: Path) -> None:
    """Some Windows editors save UTF-8 with a byte-order mark: the record was refused as
    "Invalid JSON: expected value at line 1 column 1", which did not say why."""
    record, _ = play_bot_game("sequence-cats", {}, ["greedy", "random"], seed=5)
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + record.model_dump_json().encode())
    done = gametable("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["actions"] == len(record.actions)


def test_python_m_gametable_is_the_command_line() -> None:
    done = subprocess.run([sys.executable, "-m", "gametable", "replay", "--help"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "Usage: gametable replay" in done.stdout, done.stderr


@pytest.mark.parametrize(("name", "turns"), [("sc_stalled_board_3p", 3142),
                                             ("sc_stalled_board_3p_greedy", 2803)])
def test_sc_win_3_replay_of_the_stalled_board_records_gives_their_outcome(
    tmp_path: Path, name: str, turns: int
) -> None:
    """Records of format version 1 replay by the first rules (rules_version 1)."""
    path = tmp_path / f"{name}.json"
    path.write_bytes(gzip.decompress((RECORDS / f"{name}.json.gz").read_bytes()))
    done = gametable("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["finished"], summary["winners"], summary["turns"]) == (True, [0], turns)


def test_replay_of_an_illegal_record_names_the_action_and_rule(tmp_path: Path) -> None:
    record, _ = play_bot_game("sequence-cats", {}, ["greedy", "random"], seed=5)
    data = json.loads(record.model_dump_json())
    data["actions"][5]["action"] = {"type": "play", "card": "meow", "space": "A1"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    done = gametable("replay", str(path))
    assert done.returncode == 1
    assert done.stderr.startswith("action 6: SC-")
    # With --json the refusal is JSON too (it was the plain line on standard error).
    as_json = gametable("replay", str(path), "--json")
    assert as_json.returncode == 1
    refusal = json.loads(as_json.stdout)
    assert refusal["action"] == 6 and refusal["rule"].startswith("SC-")
    assert refusal["error"] == done.stderr.strip()


def test_replay_of_a_file_that_is_not_a_record_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "gametable-record", "version": 2,
                                "game": "sequence-cats", "seats": [{}], "seed": -1}))
    done = gametable("replay", str(path))
    assert done.returncode == 2 and "seed" in done.stderr
    as_json = gametable("replay", str(path), "--json")
    assert as_json.returncode == 2
    assert json.loads(as_json.stdout)["action"] is None
    # docs/records.md: a file that does not say its format version is not read as one.
    path.write_text(json.dumps({"format": "gametable-record", "game": "sequence-cats",
                                "seats": [{}, {}], "seed": 1}))
    unversioned = gametable("replay", str(path))
    assert unversioned.returncode == 2
    assert "not a game record: version: the value is missing" in unversioned.stderr


@pytest.mark.parametrize("version", ["2", True, 2.0])
def test_replay_of_a_record_whose_version_is_no_whole_number_says_so_plainly(
        tmp_path: Path, version: object) -> None:
    """The message had pydantic's own prefix: "version: Value error, the record's …"
    (the server's POST /api/replay reads the same ``first_problem``)."""
    from pydantic import ValidationError  # noqa: PLC0415

    from gametable.core.records import GameRecord, first_problem  # noqa: PLC0415

    record, _ = play_bot_game("sequence-cats", {}, ["greedy", "random"], seed=1,
                              max_actions=4)
    data = json.loads(record.model_dump_json())
    data["version"] = version
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    done = gametable("replay", str(path), "--json")
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"] == (
        "not a game record: version: the record's version is 1 or 2, written as a whole "
        "number")
    with pytest.raises(ValidationError) as refused:
        GameRecord.model_validate(data)
    assert first_problem(refused.value)[:2] == (
        "version", "the record's version is 1 or 2, written as a whole number")


def test_replay_of_a_record_with_a_field_given_twice_exits_2(tmp_path: Path) -> None:
    """A record edited by hand with ``"seed"`` given twice was read with the last one,
    and its replay failed on a rule (exit 1): "action 1: SC-TURN-2: You do not hold
    Sphynx." It is not a record, and the refusal names the field."""
    record, _ = play_bot_game("sequence-cats", {}, ["greedy", "random"], seed=5)
    text = record.model_dump_json()
    assert '"seed":5,' in text
    path = tmp_path / "twice.json"
    path.write_text(text.replace('"seed":5,', '"seed":5,"seed":6,', 1))
    done = gametable("replay", str(path))
    assert done.returncode == 2
    assert done.stderr.strip() == 'not a game record: the field "seed" is given twice in one object'
    path.write_text(text)
    assert gametable("replay", str(path)).returncode == 0


def test_replay_of_a_record_with_nan_for_a_number_exits_2(tmp_path: Path) -> None:
    """A record with ``NaN`` in its meta was replayed here, where the server refuses it
    as no JSON (``record_not_json``): the two said different things of one file."""
    record, _ = play_bot_game("sequence-cats", {}, ["greedy", "random"], seed=5)
    text = record.model_dump_json()
    path = tmp_path / "nan.json"
    path.write_text(text.replace('"meta":{}', '"meta":{"rate":NaN}', 1))
    done = gametable("replay", str(path))
    assert done.returncode == 2
    assert done.stderr.strip() == "not a game record: NaN is no JSON number"


@pytest.mark.parametrize(("content", "said_of_it"), [
    (b"", "the file is empty"),
    (b'{"format": "gametable-record",\n "version": 2,\n "game": ',
     "the file is not JSON (line 3, column 10: Expecting value)"),
    (b"import random\n", "the file is not JSON (line 1, column 1: Expecting value)"),
    (b'{"seed": 1} {"seed": 2}', "the file is not JSON (line 1, column 13: Extra data)"),
    (b"\xff\xfe{\x00}\x00", "the file is not UTF-8 text"),
])
def test_replay_of_a_file_that_is_not_json_says_so_and_where(
        tmp_path: Path, content: bytes, said_of_it: str) -> None:
    """An empty, cut-off or non-JSON file was refused as "not a game record: record:
    this value is not accepted", which named neither what was wrong nor where."""
    path = tmp_path / "game.json"
    path.write_bytes(content)
    done = gametable("replay", str(path))
    assert done.returncode == 2
    assert done.stderr.strip() == f"not a game record: {said_of_it}"
    as_json = gametable("replay", str(path), "--json")
    assert as_json.returncode == 2
    assert json.loads(as_json.stdout) == {"error": f"not a game record: {said_of_it}",
                                          "action": None, "rule": None}


def test_replay_writes_what_a_record_file_holds_as_text_not_terminal_codes(
        tmp_path: Path) -> None:
    """A record's text reached the terminal as it was: escape codes that clear it or
    hide a link in a message, and Rich markup in a game's name."""
    record, _ = play_bot_game("sequence-cats", {}, ["greedy", "random"], seed=5)
    data = json.loads(record.model_dump_json())
    data["actions"][0]["action"] = {"type": "\x1b]8;;https://evil.example/\x1b\\x\x1b[2J"}
    path = tmp_path / "codes.json"
    path.write_text(json.dumps(data))
    done = gametable("replay", str(path))
    assert done.returncode == 1 and "\x1b" not in done.stderr
    assert "\\x1b]8;;https://evil.example/" in done.stderr
    data = json.loads(record.model_dump_json())
    data["game"] = "[link=https://evil.example]sequence-cats[/link]"
    path.write_text(json.dumps(data))
    done = gametable("replay", str(path))
    assert done.returncode == 2 and "[link=https://evil.example]" in done.stderr


def test_help_counts_and_scores_read_as_a_person_writes_them(tmp_path: Path) -> None:
    """The command list cut the games entry off ("…the computer players..."), help spoke
    of a GAMES that no option is called, counts of one read "1 actions" and "1 seats",
    scores of whole points read 16.0; and --version was no option."""
    listing = gametable("--help").stdout
    assert "..." not in listing.split("Commands:")[1]
    assert "GAMES" not in gametable("simulate", "--help").stdout
    assert gametable("--version").stdout == f"gametable {version('gametable')}\n"
    too_many = gametable("simulate", "triominos", "--players", "1", "--bots", "greedy,random")
    assert too_many.returncode == 2 and "2 bots for 1 seat;" in said(too_many.stderr)
    short = gametable("simulate", "sequence-cats", "--games", "1", "--max-actions", "1")
    assert "longest game: seed 0, 1 action, 1 turn\n" in short.stdout, short.stdout
    record, outcome = play_bot_game("triominos", {"rounds": 1}, ["greedy", "random"], seed=2)
    path = tmp_path / "game.json"
    path.write_text(record.model_dump_json())
    scores = [int(s) for s in outcome.scores]
    assert f"scores: {scores}\n" in gametable("replay", str(path)).stdout
    # --json too printed 16.0 for 16 points.
    shown = gametable("replay", str(path), "--json")
    assert shown.returncode == 0, shown.stderr
    assert '"scores": [' + ", ".join(map(str, scores)) + "]" in shown.stdout
    assert json.loads(shown.stdout)["scores"] == scores
    assert all(type(score) is int for score in json.loads(shown.stdout)["scores"])


def test_the_game_arguments_help_names_every_game() -> None:
    """The GAME argument read ``game <str>  Game name, e.g. sequence-cats.``: the games
    there are had to be looked up elsewhere."""
    for command in ("simulate", "arena"):
        shown = " ".join(gametable(command, "--help").stdout.split())
        assert "GAME" in shown and "e.g. sequence-cats" not in shown
        games = registry.names()
        listed = ", ".join(games[:-1]) + " or " + games[-1]
        assert f"The game: {listed} (gametable games describes them)." in shown


def test_replay_reads_only_a_regular_file_of_a_records_size(tmp_path: Path) -> None:
    """``/dev/zero`` was read for ever; a huge file took seconds and a gigabyte."""
    endless = gametable("replay", "/dev/zero")
    assert endless.returncode == 2 and "not a regular file" in endless.stderr
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(65 * 2**20)  # sparse: takes no room
    done = gametable("replay", str(huge))
    assert done.returncode == 2 and "more than the 64 MiB" in done.stderr


def test_help_shows_flags_without_a_type_and_names_the_bots() -> None:
    """Flags read ``--json <bool>`` (yet ``--json true`` is refused), ``--import``
    ``<list[str]>``, replay's help showed reST quotes, and simulate's named no bot."""
    simulate = gametable("simulate", "--help").stdout
    assert "<bool>" not in simulate and "list[str]" not in simulate
    assert re.search(r"^  --json +Print one JSON object", simulate, re.MULTILINE)
    assert "--import MODULE" in simulate
    assert "easy, medium, hard" in " ".join(simulate.split())
    assert "gametable games lists the bots each game has" in " ".join(simulate.split())
    arena = " ".join(gametable("arena", "--help").stdout.split())
    assert "gametable games lists the bots each game has" in arena and "<bool>" not in arena
    replay = gametable("replay", "--help").stdout
    assert "``" not in replay and "With --json a refusal" in " ".join(replay.split())
    assert "<bool>" not in gametable("serve", "--help").stdout


def test_search_bots_benchmark_help_is_whole_and_names_the_hard_levels() -> None:
    done = subprocess.run([sys.executable, "-m", "benchmarks.search_bots", "--help"],
                          capture_output=True, text=True, timeout=120, check=False,
                          cwd=Path(__file__).parents[2])
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert ("How well the search and rollout bots play against greedy, and how long they "
            "think.") in text
    assert "rollout (the hard level in Sequence Cats)" in text
    assert "search (the hard level)" not in text


def test_games_lists_games_and_bots() -> None:
    done = gametable("games")
    assert ("sequence-cats: seats 2, 3, 4, 6 (default 2); bots easy, medium, hard, greedy, "
            "planner, random, rollout, search") in done.stdout
    assert "dixit: seats 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 (default 4); bots easy, medium, " \
        "hard, greedy, random, semantic" in done.stdout
    assert "sequence-cats: seats 2, 3, 4, 6 (default 2)" in done.stdout
    assert "triominos: seats 1, 2, 3, 4, 5, 6 (default 2)" in done.stdout
    assert "dixit: seats 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 (default 4)" in done.stdout
    assert "bots: easy, medium, hard, greedy, planner, random, rollout, search, semantic" \
        in done.stdout


def test_simulate_and_replay_triominos(tmp_path: Path) -> None:
    done = gametable("simulate", "triominos", "--players", "3", "--games", "5", "--seed", "2",
                     "--bots", "greedy,random,random", "--config", '{"rounds": 2}', "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["game"] == "triominos" and result["unfinished"] == 0
    assert sum(result["wins"].values()) >= 5  # shared wins count for every leader
    record, outcome = play_bot_game("triominos", {"edition": "PRESSMAN"}, ["greedy"] * 2, 9)
    path = tmp_path / "triominos.json"
    path.write_text(record.model_dump_json())
    summary = json.loads(gametable("replay", str(path), "--json").stdout)
    assert summary["finished"] is True and summary["scores"] == outcome.scores
    data = json.loads(record.model_dump_json())
    data["actions"][1]["action"] = {"type": "place", "tile": "0-0-0", "position": [9, 9],
                                    "rotation": 0}
    path.write_text(json.dumps(data))
    bad = gametable("replay", str(path))
    assert bad.returncode == 1 and bad.stderr.startswith("action 2: TR-")


TRIOMINOS_RECORDS = Path(__file__).parents[1] / "games" / "triominos" / "records"


def test_replay_gives_triominos_records_of_the_first_rules_their_outcome(tmp_path: Path
                                                                         ) -> None:
    """Records of format version 1 replay by rules version 1 (TR-DRAW-3 and TR-SETUP-4
    changed in version 2): the PRESSMAN games keep their outcome, the solo game its −10
    pass after the pool emptied; written with ``rules_version: 2`` that pass is free."""
    for path in sorted(TRIOMINOS_RECORDS.glob("pressman_*.json")):
        summary = json.loads(gametable("replay", str(path), "--json").stdout)
        expected = json.loads(path.read_text())["meta"]["outcome"]
        assert {k: summary[k] for k in expected} == expected, path.name
    emptied = TRIOMINOS_RECORDS / "tri_pass_after_pool_emptied.json"
    summary = json.loads(gametable("replay", str(emptied), "--json").stdout)
    assert summary["scores"] == [141.0] and summary["finished"] is False
    data = json.loads(emptied.read_text())
    data["version"] = 2
    data["config"]["rules_version"] = 2
    current = tmp_path / "current.json"
    current.write_text(json.dumps(data))
    summary = json.loads(gametable("replay", str(current), "--json").stdout)
    assert summary["scores"] == [151.0] and summary["finished"] is True


def test_simulate_refuses_seven_triominos_players() -> None:
    done = gametable("simulate", "triominos", "--players", "7")
    assert done.returncode == 2 and "TR-SETUP-2" in done.stderr


def test_serve_refuses_an_upload_quota_it_cannot_read(tmp_path: Path) -> None:
    done = gametable("serve", "--data-dir", str(tmp_path), "--upload-quota", "pictures=3")
    assert done.returncode == 2 and "--upload-quota" in done.stderr
    assert "pictures" in done.stderr and "cpu-seconds" in done.stderr


@pytest.mark.parametrize(("flag", "value", "said_"), [
    ("--port", "99999", "less than or equal to 65535"),
    ("--port", "-1", "greater than or equal to 1"),
    ("--bot-delay", "-1", "give a number of seconds from 0, not -1"),
    ("--max-waiting-tables", "-5", "greater than or equal to 0"),
    ("--max-bot-tables", "-1", "greater than or equal to 0"),
    ("--waiting-hours", "-1", "give a number of hours from 0 (0: never), not -1"),
    ("--absent-seconds", "-1", "give a number of seconds from 0, not -1"),
    ("--header-timeout", "0", "seconds above 0, not 0"),
    ("--body-timeout", "-2", "seconds above 0, not -2"),
    # nan and inf passed: a nan header timeout hung every request (its timer could not
    # be set), an infinite bot delay kept computer players from ever moving.
    ("--header-timeout", "nan", "give a finite number of seconds above 0, not nan"),
    # nan failed Typer's range check, which said "greater than or equal to 0".
    ("--bot-delay", "nan", "nan is not a number: give a number of seconds from 0"),
    ("--waiting-hours", "nan", "nan is not a number: give a number of hours from 0 (0: never)"),
    ("--body-timeout", "inf", "give a finite number of seconds above 0, not inf"),
    ("--bot-delay", "inf", "give a finite number of seconds, not inf"),
    ("--waiting-hours", "inf", "give a finite number of hours (0: never), not inf"),
    ("--absent-seconds", "1e400", "give a finite number of seconds, not inf"),
    ("--host-gone-seconds", "inf", "give a finite number of seconds, not inf"),
    ("--reopen-after-seconds", "inf", "give a finite number of seconds, not inf"),
    ("--limit-chat", "20/nan", "expected BURST/SECONDS (e.g. 10/30) or off, not '20/nan'"),
    ("--upload-quota", "cpu-seconds=nan", "cpu_seconds must be a positive number, not 'nan'"),
    ("--public-url", "notaurl", "an http:// or https:// URL"),
    ("--public-url", "ftp://games.example.org", "an http:// or https:// URL"),
    # Served at a host's root only (docs/deploy.md): links under a path lost the scripts.
    ("--public-url", "https://example.org/games",
     "served at a host's root: give https://example.org, without a path"),
    ("--public-url", "https://example.org/?x=1", "served at a host's root"),
    # A host name is never looked up: every client behind it shared the proxy's address.
    ("--forwarded-allow-ips", "127.0.0.1,proxy.local",
     "addresses or networks, comma-separated (e.g. 127.0.0.1,10.0.0.0/8), or * alone; "
     "not 'proxy.local' (a host name is not looked up)"),
    # uvicorn reads a network with host bits, and * in a list, as names that never match.
    ("--forwarded-allow-ips", "10.0.0.1/8", "not '10.0.0.1/8'"),
    ("--forwarded-allow-ips", "10.9.9.9,*", "not '*' (* alone trusts every address)"),
])
def test_serve_refuses_numbers_out_of_range_and_a_public_url_that_is_not_one(
        tmp_path: Path, flag: str, value: str, said_: str) -> None:
    """--port 99999 printed an address it did not listen on; negative delays and caps,
    a header timeout of 0 and a public URL that is not one were taken."""
    done = gametable("serve", "--data-dir", str(tmp_path / "data"), flag, value)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert flag in done.stderr and said_ in said(done.stderr), done.stderr
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize(("given", "read"), [
    (" *", "*"), ("* ", "*"), ("127.0.0.1, 10.0.0.0/8", "127.0.0.1,10.0.0.0/8"),
])
def test_serve_gives_uvicorn_the_proxies_without_spaces(given: str, read: str) -> None:
    """uvicorn trusts every address only for exactly ``*``: ``" *"`` was taken and then
    trusted nobody, every client behind the proxy sharing its address and limits."""
    from gametable.cli import _check_proxies  # noqa: PLC0415

    assert _check_proxies(given) == read


@pytest.mark.parametrize(("args", "error"), [
    (("--redis", "redis://127.0.0.1:1"), "--redis: several processes share tables in "
     "PostgreSQL: give --database too"),
    (("--port", "99999"), "Invalid value for '--port'"),  # Typer's own check
])
def test_serve_with_json_logs_logs_a_refused_option_as_json(
        tmp_path: Path, args: tuple[str, ...], error: str) -> None:
    """With --json-logs every line the server writes is JSON for a log collector: a
    refused option was plain text before the logs began."""
    done = gametable("serve", "--json-logs", "--data-dir", str(tmp_path / "data"), *args)
    assert done.returncode == 2 and not done.stdout, done.stderr
    (line,) = done.stderr.splitlines()
    logged = json.loads(line)
    assert logged["level"] == "ERROR" and logged["logger"] == "gametable.server"
    assert logged["message"].startswith("the server cannot start: ")
    assert error in logged["message"], logged
    assert not (tmp_path / "data").exists()


def test_serve_refuses_a_data_dir_that_is_a_file_or_below_one(tmp_path: Path) -> None:
    a_file = tmp_path / "passwd"
    a_file.write_text("root:x:0:0\n")
    for folder, message in ((a_file, "is a file"),
                            (a_file / "data", "cannot be a folder")):
        done = gametable("serve", "--data-dir", str(folder))
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert "--data-dir" in done.stderr and message in said(done.stderr)


def test_serve_refuses_a_database_that_is_not_a_postgresql_url(tmp_path: Path) -> None:
    done = gametable("serve", "--data-dir", str(tmp_path), "--database", "mysql://x/y")
    assert done.returncode == 2 and "--database" in done.stderr
    assert "postgresql://" in done.stderr


def test_serve_with_redis_needs_postgresql_and_urls_it_can_read(tmp_path: Path) -> None:
    alone = gametable("serve", "--data-dir", str(tmp_path), "--redis", "redis://127.0.0.1/0")
    assert alone.returncode == 2 and "--database" in alone.stderr
    database = ["--database", "postgresql://x/y"]
    wrong = gametable("serve", "--data-dir", str(tmp_path), *database, "--redis", "x:6379")
    assert wrong.returncode == 2 and "redis://" in wrong.stderr
    advertise = gametable("serve", "--data-dir", str(tmp_path), *database, "--redis",
                          "redis://127.0.0.1/0", "--advertise", "10.0.0.5:8001")
    assert advertise.returncode == 2 and "--advertise" in advertise.stderr


def test_simulate_json_gives_mean_rounds_only_for_games_with_rounds() -> None:
    cats = gametable("simulate", "sequence-cats", "--players", "2", "--games", "2", "--json")
    assert "mean_rounds" not in json.loads(cats.stdout)
    tiles = gametable("simulate", "triominos", "--players", "2", "--games", "2", "--config",
                      '{"rounds": 2}', "--json")
    assert json.loads(tiles.stdout)["mean_rounds"] == 2
    # Also where no round ended: the key came and went with the games played.
    for game in ("dixit", "triominos"):
        cut = gametable("simulate", game, "--games", "2", "--max-actions", "1", "--json")
        assert json.loads(cut.stdout)["mean_rounds"] == 0, cut.stdout
    text = gametable("simulate", "dixit", "--games", "1", "--max-actions", "1")
    assert "mean rounds 0.0" in text.stdout, text.stdout


def test_simulate_seats_levels_by_name() -> None:
    done = gametable("simulate", "triominos", "--games", "1", "--seed", "2",
                     "--bots", "hard,easy", "--config", '{"rounds": 1}', "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["bots"] == ["hard", "easy"]


def test_simulate_records_reads_the_folder_once_not_a_name_a_seed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--records`` looked for each seed's file before the first game, with nothing
    shown: seconds for 10^5 games, minutes for 10^8. The folder is read once; a file of
    the run's seeds is still refused before any game, and names the writer never gives
    (another game's, another seed's, "012") are left alone."""
    from gametable import cli  # noqa: PLC0415

    looked: list[int] = []
    real = cli._record_file

    def record_file(folder: Path, game: str, seed: int) -> Path:
        looked.append(seed)
        return real(folder, game, seed)

    monkeypatch.setattr(cli, "_record_file", record_file)
    for name in ("triominos-12.json", "triominos-7.json", "triominos-012.json",
                 "dixit-14.json", "triominos-15.json.partial", "triominos-x.json"):
        (tmp_path / name).write_text("{}")
    with pytest.raises(typer.BadParameter) as refused:
        cli._record_writer(tmp_path, "triominos", 10, 100_000)
    assert refused.value.message == (
        f"{tmp_path} already holds triominos-12.json: choose another folder or --seed "
        "(nothing is overwritten)")
    assert looked == [12]
    looked.clear()
    cli._record_writer(tmp_path, "triominos", 13, 100_000)  # 12 is not among the seeds
    assert looked == []


def test_simulate_writes_each_games_record_and_never_overwrites_one(tmp_path: Path) -> None:
    folder = tmp_path / "runs" / "greedy"
    done = gametable("simulate", "sequence-cats", "--games", "3", "--seed", "40",
                     "--bots", "greedy,random", "--records", str(folder), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["records"] == str(folder)
    files = sorted(path.name for path in folder.iterdir())
    assert files == ["sequence-cats-40.json", "sequence-cats-41.json", "sequence-cats-42.json"]
    # Each file is the game's record: it replays to the game's end, and the wins it
    # tells add up to the run's.
    wins = [0, 0]
    for name in files:
        summary = json.loads(gametable("replay", str(folder / name), "--json").stdout)
        assert summary["finished"] is True
        for seat in summary["winners"]:
            wins[seat] += 1
    assert wins == [result["wins"]["0:greedy"], result["wins"]["1:random"]]
    # A second run onto the same seeds is refused before a game is played, naming the
    # files, and leaves them as they were.
    before = {name: (folder / name).read_bytes() for name in files}
    again = gametable("simulate", "sequence-cats", "--games", "5", "--seed", "38",
                      "--records", str(folder))
    assert again.returncode == 2
    said = " ".join(re.sub("[│╭╮╰╯─]", " ", again.stderr).split())  # the error's box
    assert "sequence-cats-40.json" in said and "nothing is overwritten" in said
    assert {name: (folder / name).read_bytes() for name in files} == before
    assert sorted(path.name for path in folder.iterdir()) == files
    # Text output says where the records went.
    text = gametable("simulate", "sequence-cats", "--games", "1", "--seed", "50",
                     "--records", str(folder))
    assert text.returncode == 0, text.stderr
    assert "records:" in text.stdout and "sequence-cats-*.json" in text.stdout


def test_simulate_says_once_that_rounds_wins_over_a_target_given_with_it() -> None:
    """TR-END-4: ``rounds`` and ``target_score`` given together; the command says once,
    as one line, that the rounds count, where it said nothing."""
    done = gametable("simulate", "triominos", "--games", "3", "--bots", "greedy,greedy",
                     "--config", '{"rounds": 1, "target_score": 100}', "--json")
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if "TR-END-4" in line]
    assert lines == ["warning: Triominos: rounds=1 and target_score=100 are both given; "
                     "a game ends at a target or after a number of rounds (TR-END-4), and "
                     "rounds wins: it plays 1 round and the target is not read"]
    assert json.loads(done.stdout)["config"]["rounds"] == 1
