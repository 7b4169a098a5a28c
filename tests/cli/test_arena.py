"""The arena: lineups rotate the seats evenly, results are rated, the CLI prints them."""

from __future__ import annotations

import json
import re
import warnings
from collections import Counter

import pytest

from gametable.arena import (
    GameResult,
    UnevenSides,
    _tally,
    lineups,
    run_arena,
    schedule,
    warn_uneven,
    wilson,
)
from tests.cli.test_cli import gametable, said


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_every_pair_plays_in_both_seat_orders() -> None:
    groups = lineups(["hard", "medium", "easy"], 2)
    assert groups == [[("hard", "medium"), ("medium", "hard")],
                      [("hard", "easy"), ("easy", "hard")],
                      [("medium", "easy"), ("easy", "medium")]]


def test_fewer_bots_than_seats_repeat_in_order_and_rotate() -> None:
    (rotations,) = lineups(["a", "b", "c"], 6)
    assert rotations[0] == ("a", "b", "c", "a", "b", "c")
    assert len(rotations) == 3  # rotating by 3 gives the same lineup again
    for seat in range(6):
        assert {lineup[seat] for lineup in rotations} == {"a", "b", "c"}


def test_in_a_team_game_one_bot_plays_every_seat_of_a_team() -> None:
    """Team Dixit of six (DX-TEAM-1: teammates opposite, seats 0+3, 1+4, 2+5): a bot in
    each team, never two bots in one, whose results could not be told apart."""
    (rotations,) = lineups(["a", "b", "c"], 6, [0, 1, 2, 0, 1, 2])
    assert rotations == [("a", "b", "c", "a", "b", "c"), ("b", "c", "a", "b", "c", "a"),
                         ("c", "a", "b", "c", "a", "b")]
    (two_bots,) = lineups(["a", "b"], 6, [0, 1, 2, 0, 1, 2])
    for lineup in two_bots:
        assert all(lineup[seat] == lineup[seat + 3] for seat in range(3))
    # Sequence Cats of four: two teams, teammates alternating (SC-PLAY-1).
    assert lineups(["x", "y"], 4, [0, 1, 0, 1]) == [[("x", "y", "x", "y"),
                                                     ("y", "x", "y", "x")]]
    with pytest.raises(ValueError, match="seats"):
        lineups(["a"], 4, [0, 1])


def test_the_arena_seats_team_dixit_by_teams() -> None:
    result = run_arena("dixit", ["greedy", "random", "semantic"], 1, players=6,
                       options={"variant": "team"}, seed=5)
    assert result.games == 3
    for standing in result.standings:
        assert (standing.games, standing.seats) == (3, 6)
    assert sum(s.wins for s in result.standings) >= 3  # every game has a winning team


def test_a_bot_in_several_seats_of_a_game_counts_it_once() -> None:
    """Three seats, two bots: ``greedy`` holds two seats; the game it won is one win in
    one game (not one of two "games", 50 %), and its score is its seats' mean."""
    game = GameResult(index=0, lineup=("greedy", "random", "greedy"), seed=1,
                      finished=True, draw=False, winners=[2], ranking=[2, 3, 1],
                      scores=[40.0, 10.0, 120.0], actions=90)
    result = _tally("triominos", 3, ["greedy", "random"], {}, 1, [game])
    greedy = next(s for s in result.standings if s.bot == "greedy")
    random = next(s for s in result.standings if s.bot == "random")
    assert (greedy.games, greedy.seats, greedy.wins, greedy.win_rate) == (1, 2, 1, 1.0)
    assert greedy.mean_score == 80.0
    assert (random.games, random.seats, random.wins) == (1, 1, 0)


def test_fewer_bots_than_sides_filled_unevenly_are_warned_of_before_playing() -> None:
    """Two bots at three seats: the first holds two seats of every game and wins more
    often for that alone. README said so; the run said nothing."""
    # "…, the others 1, and win more often" read as if the others did.
    with pytest.warns(UnevenSides, match="2 bots for 3 sides: greedy holds 2 sides of every "
                                         "game and the others 1, so greedy wins more often "
                                         "for that alone"):
        run_arena("triominos", ["greedy", "random"], 1, players=3,
                  options={"rounds": 1})
    # Two of four bots hold the fifth side's extra seat: named together, a plural verb.
    with pytest.warns(UnevenSides, match="hard and medium hold 2 sides of every game and "
                                         "the others 1, so hard and medium win more often"):
        warn_uneven(["hard", "medium", "easy", "random"], 6)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnevenSides)
        # Two bots at four seats hold two each; as many bots as seats, one each.
        run_arena("triominos", ["greedy", "random"], 1, players=4, options={"rounds": 1})
        run_arena("triominos", ["greedy", "random", "easy"], 1, players=3,
                  options={"rounds": 1})
    done = gametable("arena", "triominos", "--bots", "greedy,random", "--games", "1",
                     "--players", "3", "--config", '{"rounds": 1}')
    assert done.returncode == 0, done.stderr
    assert "warning: 2 bots for 3 sides: greedy holds 2 sides" in said(done.stderr)


def test_the_schedule_gives_each_rotation_the_same_number_of_games() -> None:
    plan = schedule(["x", "y"], 2, 5, seed=100)
    assert Counter(lineup for lineup, _ in plan) == {("x", "y"): 3, ("y", "x"): 3}
    assert [seed for _, seed in plan] == list(range(100, 106))


def test_greedy_rates_above_random_and_processes_do_not_change_the_result() -> None:
    one = run_arena("sequence-cats", ["greedy", "random"], 12, players=2, seed=3)
    two = run_arena("sequence-cats", ["greedy", "random"], 12, players=2, seed=3, jobs=2)
    assert [s.bot for s in one.standings] == ["greedy", "random"]
    greedy, random = one.standings
    assert greedy.wins > random.wins and greedy.rating > random.rating
    assert greedy.games == random.games == 12
    (pair,) = one.head_to_head
    assert pair.first_wins + pair.second_wins + pair.draws == 12
    timing = {"decisions", "mean_decision_ms", "longest_decision_ms"}
    assert [{k: v for k, v in s.items() if k not in timing}
            for s in one.to_json()["standings"]] == [
        {k: v for k, v in s.items() if k not in timing} for s in two.to_json()["standings"]]
    # Each bot's decisions are counted and timed.
    assert greedy.decisions > 0 and 0 < greedy.mean_decision_ms <= 1000 * greedy.longest_decision


def test_a_shared_win_is_drawn_in_the_head_to_head_and_a_win_for_both_in_the_standings(
        ) -> None:
    """Triominos' equal leaders share the win (TR-END-4): each bot's standing counts it,
    and their head-to-head counts it drawn, not as a win for the bot in seat 0."""
    shared = GameResult(index=0, lineup=("greedy", "random"), seed=19, finished=True,
                        draw=False, winners=[0, 1], ranking=[1, 1], scores=[28.0, 28.0],
                        actions=40)
    result = _tally("triominos", 2, ["greedy", "random"], {}, 19, [shared])
    assert [s.wins for s in result.standings] == [1, 1]
    (pair,) = result.head_to_head
    assert (pair.first_wins, pair.second_wins, pair.draws) == (0, 0, 1)


@pytest.mark.parametrize(("game", "seats"), [("dixit", 4), ("sequence-cats", 2)])
def test_run_arena_seats_the_games_own_default_as_the_command_does(game: str,
                                                                   seats: int) -> None:
    """docs/python.md: ``run_arena`` without ``players`` seated 2, which Dixit refuses
    (DX-SETUP-3), where ``gametable arena dixit`` seats the game's default of 4."""
    result = run_arena(game, ["greedy", "random"], 1)
    assert result.players == seats


def test_arena_refuses_a_bot_listed_twice() -> None:
    with pytest.raises(ValueError, match="once"):
        run_arena("sequence-cats", ["greedy", "greedy"], 2)


def test_a_bot_listed_twice_is_named_in_python_and_on_the_command_line() -> None:
    """"list each bot once" did not say which of several bots was listed twice, nor
    that the arena fills the seats by repeating the bots itself."""
    with pytest.raises(ValueError, match=r"^'random' is listed more than once: list each "
                       r"bot once \(the arena repeats the bots itself to fill the seats\)$"):
        run_arena("sequence-cats", ["greedy", "random", "planner", "random"], 2)
    done = gametable("arena", "sequence-cats", "--bots", "greedy,random,planner,random",
                     "--games", "1")
    assert done.returncode == 2
    assert ("random is listed more than once: list each bot once (the arena repeats the "
            "bots itself to fill the seats)") in said(done.stderr)


@pytest.mark.parametrize(("bots", "arguments", "message"), [
    (["greedy", "random"], {"players": 1}, "players must be a whole number from 2"),
    (["greedy"], {}, "at least two different bots"),
    ([], {}, "at least two different bots"),
    (["greedy", "random"], {"games": 0}, "games must be a whole number from 1"),
    (["greedy", "random"], {"jobs": 0}, "jobs must be a whole number from 1"),
])
def test_arena_refuses_what_it_could_not_rate_before_playing(
        bots: list[str], arguments: dict[str, int], message: str) -> None:
    """One seat a game (openskill then failed after every game was played), no games,
    no processes, or a single bot (which only played itself) are refused at once."""
    played: list[int] = []
    with pytest.raises(ValueError, match=message):
        run_arena("triominos", bots, arguments.get("games", 2),
                  players=arguments.get("players", 2), jobs=arguments.get("jobs", 1),
                  options={"rounds": 1}, progress=lambda done, total: played.append(done))
    assert played == []
    if "jobs" in arguments:
        return
    with pytest.raises(ValueError, match=message):
        schedule(bots, arguments.get("players", 2), arguments.get("games", 2), 0)


def test_arena_command_refuses_one_seat_and_a_single_bot() -> None:
    one_seat = gametable("arena", "triominos", "--bots", "greedy,random", "--games", "2",
                         "--players", "1")
    assert one_seat.returncode == 2 and "--players" in one_seat.stderr
    assert "Traceback" not in one_seat.stderr
    alone = gametable("arena", "triominos", "--bots", "greedy", "--games", "2")
    assert alone.returncode == 2 and "at least two different bots" in said(alone.stderr)


def test_arena_command_prints_json_with_intervals_and_ratings() -> None:
    done = gametable("arena", "triominos", "--bots", "greedy,random", "--games", "2",
                     "--config", '{"rounds": 1}', "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == 2 and result["players"] == 2
    for standing in result["standings"]:
        low, high = standing["win_rate_95"]
        assert 0 <= low <= standing["win_rate"] <= high <= 1
        assert {"mu", "sigma", "ordinal"} <= set(standing["rating"])


def test_arena_table_prints_the_longest_decision_as_precisely_as_the_mean() -> None:
    """"ms a decision (max)" read "0.1 (0)": the longest below the mean it bounds."""
    done = gametable("arena", "triominos", "--bots", "greedy,random", "--games", "2",
                     "--config", '{"rounds": 1}')
    assert done.returncode == 0, done.stderr
    pairs = re.findall(r"(\d+\.\d) \((\d+(?:\.\d+)?)\)", done.stdout)
    assert len(pairs) == 2, done.stdout
    for mean, longest in pairs:
        assert "." in longest and float(longest) >= float(mean), (mean, longest)


def test_arena_command_refuses_unknown_bots_and_bad_configs() -> None:
    assert gametable("arena", "dixit", "--bots", "greedy,nobody").returncode == 2
    bad = gametable("arena", "sequence-cats", "--players", "5")
    assert bad.returncode == 2 and "5 players" in bad.stderr


def test_a_seat_count_the_options_refuse_names_the_counts_they_allow() -> None:
    """Team Dixit at the arena's default 4 seats said only "not 4" (DX-TEAM-1); a
    refusal is one line on standard error, whatever the width (it broke mid-sentence at
    80 columns when not printed to a terminal)."""
    team = gametable("arena", "dixit", "--bots", "greedy,random", "--config",
                     '{"variant": "team"}')
    assert team.returncode == 2
    assert team.stderr.strip() == ("error: DX-TEAM-1: Team Dixit is for 6, 8, 10, 12 "
                                   "players, not 4; with these options: --players 6, 8, "
                                   "10 or 12.")
    five = gametable("simulate", "sequence-cats", "--bots", "greedy,random", "--players",
                     "5", "--json")
    assert json.loads(five.stdout)["error"].endswith("--players 2, 3, 4 or 6.")
    unknown = gametable("arena", "triominos", "--bots", "greedy,random", "--config",
                        '{"nope": 1}')
    assert "--players" not in unknown.stderr and unknown.returncode == 2
