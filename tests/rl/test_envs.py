"""The reinforcement-learning environments (gametable.rl): PettingZoo's and Gymnasium's
own API checks, rewards, records, refusals, and that an observation is its seat's view."""

from __future__ import annotations

import json
import random
import re
import warnings
from importlib.resources import files
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from gametable.bots import base, register_bot
from gametable.core import registry
from gametable.core.errors import ConfigError, IllegalAction
from gametable.core.records import replay
from gametable.games.sequence_cats.encoding import SequenceCatsEncoding
from gametable.rl import (
    BotTableEnv,
    Episode,
    GameEnv,
    NoEncoding,
    PolicyBot,
    encodable_games,
    gym_id,
)
from gametable.simulate import BotFailed, PlaysAsAnother, play_bot_game

GAMES = ["sequence-cats", "triominos"]


def play_out(env: GameEnv, seed: int) -> None:
    """Every agent plays a random legal number until the game is over."""
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        _obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            mask = _obs["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_and_seed_tests_pass(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a Dict observation is allowed, only unusual
        api_test(GameEnv(game, 2), num_cycles=400)
        seed_test(lambda: GameEnv(game, 2), num_cycles=100)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_env_checker_passes(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(BotTableEnv(game, "greedy", illegal="lose"), skip_render_check=True)
        check_env(BotTableEnv(game, "random", seat=None, illegal="lose"),
                  skip_render_check=True)


def test_a_game_without_an_encoding_is_refused_naming_those_with_one() -> None:
    assert encodable_games() == GAMES
    with pytest.raises(NoEncoding, match=r"dixit has no fixed-size encoding.*"
                                         r"sequence-cats, triominos"):
        GameEnv("dixit", 4)


def final_rewards_of(env: GameEnv, seed: int) -> dict[str, float]:
    """Play a random game from ``reset(seed)``; each agent's reward when it saw the end."""
    env.reset(seed=seed)
    seen = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        seen[agent] = env._cumulative_rewards[agent]
        env.step(None if terminated or truncated
                 else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_the_winners_get_one_and_the_others_minus_one(game: str) -> None:
    env = GameEnv(game, 2, {"rounds": 1} if game == "triominos" else None)
    totals = final_rewards_of(env, 5)
    outcome = env.episode.outcome()
    assert outcome.finished
    expected = {f"seat_{s}": (0.0 if not outcome.winners else
                              1.0 if s in outcome.winners else -1.0) for s in range(2)}
    assert totals == expected


def test_sequence_cats_teammates_share_the_win() -> None:
    env = GameEnv("sequence-cats", 4)
    seen = final_rewards_of(env, 3)
    winners = env.episode.outcome().winners
    assert len(winners) == 2 and winners[1] - winners[0] == 2  # seats 0 and 2, or 1 and 3
    assert sorted(seen.values()) == [-1.0, -1.0, 1.0, 1.0]
    assert all(seen[f"seat_{s}"] == 1.0 for s in winners)


def test_score_rewards_add_up_to_the_final_scores() -> None:
    env = GameEnv("triominos", 2, {"rounds": 1}, reward="score")
    env.reset(seed=8)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(8)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward  # last() gives the reward since the agent last acted
        env.step(None if terminated or truncated
                 else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    scores = env.episode.outcome().scores
    assert [totals[f"seat_{s}"] for s in range(2)] == pytest.approx(scores)
    assert any(score != 0 for score in scores)


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_number_is_refused_and_changes_nothing(game: str) -> None:
    env = GameEnv(game, 2)
    env.reset(seed=2)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.episode.game.snapshot(env.episode.state)
    with pytest.raises(IllegalAction, match=f"Action {illegal} .* is not legal for seat"):
        env.step(illegal)
    with pytest.raises(IllegalAction, match="outside the catalogue"):
        env.step(10**7)
    assert env.episode.game.snapshot(env.episode.state) == before
    assert env.record().actions == []
    assert env.agent_selection == agent


@pytest.mark.parametrize("game", GAMES)
def test_the_record_replays_to_the_same_game(game: str) -> None:
    env = GameEnv(game, 3, {"rounds": 1} if game == "triominos" else None)
    env.reset(seed=11)
    play_out(env, 11)
    record = env.record()
    assert len(record.actions) == env.episode.actions > 10
    # Seats named as their agents (seat_0 …), as Python numbers them: not "seat 1".
    assert [seat.name for seat in record.seats] == env.possible_agents
    replayed = replay(record)
    assert replayed.game.snapshot(replayed.state) == env.episode.game.snapshot(env.episode.state)


def test_a_record_handed_out_is_the_callers_and_play_after_leaves_it_as_it_was() -> None:
    """``record()`` handed out the episode's own record: one taken early grew as play
    went on, and clearing it erased the episode's."""
    env = GameEnv("triominos", 2, {"rounds": 1})
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(6):
        mask = env.last()[0]["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    early = env.record()
    taken = len(early.actions)
    early.actions.clear()
    play_out(env, 5)
    assert early.actions == [] and taken == 6
    record = env.record()
    assert len(record.actions) == env.episode.actions > 6
    replayed = replay(record)
    assert replayed.game.snapshot(replayed.state) == env.episode.game.snapshot(env.episode.state)


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_action_has_its_own_number_and_an_observation_is_the_view(
        game: str) -> None:
    """Over random games: the mask is exactly the legal actions (each with its own
    number, which describe_action names), and the observation depends on the seat's
    view alone: a deal of the hidden cards or tiles consistent with it gives the same
    arrays (SamplesHidden)."""
    rules = registry.get(game)
    rng = random.Random(4)
    for seed in range(6):
        env = GameEnv(game, 2 + seed % 2, {"rounds": 1} if game == "triominos" else None)
        env.reset(seed=seed)
        encoding = env.episode.encoding
        for _agent in env.agent_iter():
            obs, _r, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = env._seat_of[env.agent_selection]
            state = env.episode.state
            legal = rules.legal_actions(state, seat)
            view = rules.view(state, seat)
            found = [encoding.action_index(view, action) for action in legal]
            numbers = [number for number in found if number is not None]
            assert len(numbers) == len(found), "a legal action outside the catalogue"
            assert sorted(numbers) == sorted(set(numbers))
            assert sorted(np.flatnonzero(obs["action_mask"]).tolist()) == sorted(numbers)
            for number in numbers:
                assert encoding.describe_action(number)
            dealt = rules.sample_state(view, seat, rng)  # type: ignore[attr-defined]
            again = encoding.encode(rules.view(dealt, seat))
            for name, array in obs["observation"].items():
                assert np.array_equal(array, again[name]), name
                assert array.shape == encoding.observation[name].shape
            env.step(numbers[rng.randrange(len(numbers))])


def test_sequence_cats_planes_are_told_from_the_seats_own_side() -> None:
    env = GameEnv("sequence-cats", 2)
    env.reset(seed=1)
    first = env.agent_selection
    mask = env.observe(first)["action_mask"]
    encoding = env.episode.encoding
    assert isinstance(encoding, SequenceCatsEncoding)
    spaces = encoding.spaces
    number = int(next(n for n in np.flatnonzero(mask) if n < spaces))  # a breed card's play
    env.step(number)
    row, column = divmod(number, encoding.board.columns)
    mine = env.observe(first)["observation"]["board"]
    theirs = env.observe("seat_1" if first == "seat_0" else "seat_0")["observation"]["board"]
    assert mine[3, row, column] == 1 and mine[4, row, column] == 0  # own team's chip
    assert theirs[4, row, column] == 1 and theirs[3, row, column] == 0  # the other team's
    assert mine[7, row, column] == theirs[7, row, column] == 1  # the last play
    assert mine[0, row, column] == 0


def test_triominos_first_tile_lies_in_the_windows_middle() -> None:
    env = GameEnv("triominos", 2)
    env.reset(seed=1)
    agent = env.agent_selection
    other = next(a for a in env.possible_agents if a != agent)
    opening = 5  # facts: whether the seat is to lay the round's first tile
    assert env.observe(agent)["observation"]["facts"][opening] == 1
    assert env.observe(other)["observation"]["facts"][opening] == 0
    numbers = np.flatnonzero(env.observe(agent)["action_mask"])
    env.step(int(numbers[0]))
    table = env.observe(agent)["observation"]["table"]
    laid = env.episode.view(0)["board"][0]
    assert laid["position"] == [0, 0]
    assert table[0, 10, 20] == 1 and table[0].sum() == 1
    assert [table[1 + k, 10, 20] - 1 for k in range(3)] == laid["corners"]
    assert table[6, 10, 20] == 1  # (0, 0) points up
    assert table[4].sum() == 3  # three open sides
    assert env.observe(agent)["observation"]["facts"][opening] == 0


def test_bot_table_plays_the_bots_and_draws_the_learners_seat_from_the_seed() -> None:
    env = BotTableEnv("sequence-cats", "greedy", seat=None)
    rng = np.random.default_rng(0)
    seats = []
    for episode in range(8):
        obs, _info = env.reset(seed=episode)
        assert set(obs) == {*env.episode.observation_specs, "action_mask"}  # flat
        seats.append(env.seat)
        # The learner's own view, as its player would be sent it (rl.md).
        assert env.view() == env.episode.view(env.seat) and len(env.view()["hand"]) == 5
        done = False
        while not done:
            assert obs["action_mask"].any()
            obs, reward, terminated, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(env.action_masks()))))
            done = terminated or truncated
        assert terminated and not truncated
        assert reward == (0.0 if not info["winners"] else
                          1.0 if env.seat in info["winners"] else -1.0)
        names = [seat.name for seat in env.record().seats]
        assert names[env.seat] == "learner" and names.count("greedy") == 1
        assert replay(env.record()).state is not None
        with pytest.raises(RuntimeError, match="episode is over: call reset"):
            env.step(0)
    assert set(seats) == {0, 1}
    again = [env.reset(seed=episode) and env.seat for episode in range(8)]
    assert again == seats


def test_bot_table_lists_opponents_clockwise_from_the_learner() -> None:
    """In Sequence Cats of four the second opponent is the learner's teammate wherever
    the learner sits."""
    for seat in range(4):
        env = BotTableEnv("sequence-cats", ["easy", "random", "greedy"], 4, seat=seat)
        env.reset(seed=1)
        names = [info.name for info in env.record().seats]
        assert names[seat] == "learner"
        assert [names[(seat + k) % 4] for k in (1, 2, 3)] == ["easy", "random", "greedy"]


def test_bot_table_warns_of_an_opponent_that_plays_as_another() -> None:
    # semantic plays Sequence Cats as greedy: a learner "measured against semantic" would
    # be measured against greedy, so the table says so as simulate and the arena do.
    with pytest.warns(PlaysAsAnother, match="'semantic' does not play sequence-cats"):
        env = BotTableEnv("sequence-cats", "semantic")
    with warnings.catch_warnings():
        warnings.simplefilter("error", PlaysAsAnother)
        env.reset(seed=1)  # said once, not again at each game's bots
        BotTableEnv("sequence-cats", ["greedy"])


def test_bot_table_takes_whole_numbers_only() -> None:
    env = BotTableEnv("sequence-cats")
    obs, _ = env.reset(seed=2)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    # An array of one number (a policy's output left unwrapped) got NumPy's own "only
    # integer scalar arrays can be converted to a scalar index".
    for wrong in (legal + 0.5, str(legal), True, np.array([legal]), np.array([legal, 1])):
        with pytest.raises(TypeError, match="an action is a catalogue number"):
            env.step(wrong)  # type: ignore[arg-type]
    assert env.record().actions == []
    env.step(np.array(legal))  # type: ignore[arg-type]
    assert len(env.record().actions) >= 1


def test_both_environments_refuse_a_render_mode_they_do_not_have() -> None:
    """``BotTableEnv(render_mode="human")`` was taken, and then rendered nothing."""
    for make in (lambda: GameEnv("sequence-cats", render_mode="human"),
                 lambda: BotTableEnv("sequence-cats", render_mode="human")):
        with pytest.raises(ValueError, match='render_mode must be None or "ansi"'):
            make()


def test_an_episode_set_to_another_position_plays_on_from_it() -> None:
    """``episode.state = …`` (to start from a position) kept the old position's cached
    masks and observations: the next step was refused by the rules for a card of the
    old hand. The episode now works from the new state, and says it has no record (a
    record begins with a deal) until the next reset."""
    env = GameEnv("sequence-cats")
    env.reset(seed=0)
    agent = env.agent_selection
    old = env.observe(agent)["action_mask"].copy()
    game = env.episode.game
    env.episode.state = game.new_game(env.episode.config, 2, 999)
    new = env.observe(agent)["action_mask"]
    assert (new != old).any()
    env.step(int(np.flatnonzero(new)[0]))
    with pytest.raises(RuntimeError, match="a record begins with a deal"):
        env.record()
    env.reset(seed=1)
    assert env.record().actions == []


@pytest.mark.parametrize("make", [lambda: GameEnv("sequence-cats", 2),
                                  lambda: BotTableEnv("sequence-cats", "random")])
def test_resets_without_a_seed_follow_the_stream_the_first_seed_began(make: Any) -> None:
    def seeds() -> list[int]:
        env = make()
        env.reset(seed=42)
        dealt = [env.record().seed]
        for _ in range(3):
            env.reset()
            dealt.append(env.record().seed)
        return dealt

    first = seeds()
    assert first == seeds()  # seeded once, every episode after deals as before
    assert len(set(first)) == 4


def test_a_refused_seed_leaves_the_stream_as_it_was() -> None:
    env, twin = GameEnv("triominos", 2), GameEnv("triominos", 2)
    env.reset(seed=3)
    twin.reset(seed=3)
    with pytest.raises(ValueError):
        env.reset(seed=-1)
    env.reset()
    twin.reset()
    assert env.record().seed == twin.record().seed


def test_bot_table_deals_the_same_game_for_the_same_seed() -> None:
    def actions(seed: int) -> list[dict[str, object]]:
        env = BotTableEnv("triominos", ["greedy", "random"], 3, options={"rounds": 1})
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(1)
        for _ in range(15):
            obs, _r, terminated, truncated, _i = env.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if terminated or truncated:
                break
        return [step.action for step in env.record().actions]

    assert actions(7) == actions(7)
    assert actions(7) != actions(8)


def test_bot_table_refuses_or_ends_on_an_illegal_number() -> None:
    strict = BotTableEnv("sequence-cats")
    obs, _ = strict.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = len(strict.record().actions)
    with pytest.raises(IllegalAction):
        strict.step(illegal)
    assert len(strict.record().actions) == before
    assert np.array_equal(strict.action_masks(), obs["action_mask"].astype(bool))
    lenient = BotTableEnv("sequence-cats", illegal="lose")
    obs, _ = lenient.reset(seed=1)
    before = len(lenient.record().actions)
    _obs, reward, terminated, _truncated, info = lenient.step(illegal)
    assert (reward, terminated) == (-1.0, True) and "not legal" in info["illegal"]
    assert len(lenient.record().actions) == before
    # An ended episode's last info has the game's winners and scores (docs/rl.md).
    assert info["winners"] == [] and len(info["scores"]) == 2


# A number each game's rules refuse at the first turn of seed 2's deal, and why: a breed
# card the seat does not hold (index 1: space B1's breed) and a tile it does not hold.
REFUSED_BY_RULE = {"sequence-cats": (1, "SC-TURN-2"), "triominos": (0, "TR-PLACE-3")}


@pytest.mark.parametrize("game", GAMES)
def test_a_masked_out_number_is_refused_with_the_rule_that_refuses_it(game: str) -> None:
    """A learner debugging its mask learns why a number is not legal (docs/rl.md): the
    ``IllegalAction`` is raised from the rules' own refusal of the action the number
    stands for (``SC-TURN-2: You do not hold Munchkin.``), worked out on a copy of the
    game; ``illegal="lose"`` puts both in ``info["illegal"]``. Only the rule's words
    reached the learner before through the engine, never through the env."""
    number, rule = REFUSED_BY_RULE[game]
    env = GameEnv(game, 2)
    env.reset(seed=2)
    assert env.observe(env.agent_selection)["action_mask"][number] == 0
    before = env.episode.game.snapshot(env.episode.state)
    with pytest.raises(IllegalAction, match=f"Action {number} ") as raised:
        env.step(number)
    cause = raised.value.__cause__
    assert isinstance(cause, IllegalAction) and cause.rule == rule, cause
    assert env.episode.game.snapshot(env.episode.state) == before
    assert env.record().actions == []
    lenient = BotTableEnv(game, "greedy", seat=0, illegal="lose",
                          options={"rounds": 1} if game == "triominos" else None)
    obs, _ = lenient.reset(seed=2)
    refused = next(int(n) for n in np.flatnonzero(obs["action_mask"] == 0)
                   if (why := lenient.episode.why_refused(0, int(n))) is not None
                   and why.rule != "PROTOCOL")
    _obs, reward, terminated, _truncated, info = lenient.step(refused)
    assert (reward, terminated) == (-1.0, True)
    assert "is not legal for seat 0" in info["illegal"]
    assert f"({rule.split('-')[0]}-" in info["illegal"]


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_number_stands_for_its_own_action(game: str) -> None:
    """``action_at`` is ``action_index`` read backwards, over every legal action of two
    random games: a refusal worked out from a number concerns the action it numbers."""
    env = GameEnv(game, 2)
    rng = np.random.default_rng(5)
    for seed in (4, 5):
        env.reset(seed=seed)
        for agent in env.agent_iter(max_iter=400):
            _obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = int(agent.removeprefix("seat_"))
            decision = env.episode.decision(seat)
            view = env.episode.game.view(env.episode.state, seat)
            for number, action in decision.actions.items():
                assert env.episode.encoding.action_at(view, number) == action
            env.step(int(rng.choice(list(decision.actions))))


def test_a_masked_out_number_that_stands_for_no_action_has_no_rule() -> None:
    """Space A1 is a free corner: the breed card "of" it is no card, so the refusal
    names no rule beyond the mask's own (SC-COMP-2)."""
    env = GameEnv("sequence-cats", 2)
    env.reset(seed=2)
    with pytest.raises(IllegalAction, match="Action 0 ") as raised:
        env.step(0)
    assert raised.value.__cause__ is None


def test_a_bot_table_refuses_a_bad_seed_before_anything_changes() -> None:
    """docs/rl.md: a seed outside 0 … 2**63 − 1 is refused with ``ValueError`` (a
    negative one raised Gymnasium's own error, and 2**63 and above were taken)."""
    env = BotTableEnv("triominos", "greedy", options={"rounds": 1})
    env.reset(seed=3)
    actions = len(env.record().actions)
    for seed in (-3, 2**63, 2**70, 1.5):
        with pytest.raises(ValueError, match="a seed is a whole number"):
            env.reset(seed=seed)  # type: ignore[arg-type]
    assert len(env.record().actions) == actions
    env.step(env.legal_numbers()[0])  # the same game goes on
    assert len(env.record().actions) > actions


def test_a_bot_table_takes_a_numpy_integer_seed_also_through_gymnasium_make() -> None:
    """``reset(seed=np.int64(3))`` raised Gymnasium's "Seed must be a python integer"
    where docs/rl.md says a whole number is a seed; the methods docs/rl.md names are
    reached through ``unwrapped`` and ``get_wrapper_attr`` on a made environment."""
    import gymnasium  # noqa: PLC0415

    env = BotTableEnv("sequence-cats", "greedy")
    env.reset(seed=np.int64(3))  # type: ignore[arg-type]
    first = env.record()
    env.reset(seed=3)
    assert env.record() == first
    made = gymnasium.make(gym_id("sequence-cats"), opponents="greedy")
    made.reset(seed=np.int64(3))  # type: ignore[arg-type]
    unwrapped = made.unwrapped
    assert isinstance(unwrapped, BotTableEnv)
    assert unwrapped.record() == first
    mask = made.get_wrapper_attr("action_masks")()
    assert mask.dtype == bool
    assert np.flatnonzero(mask).tolist() == unwrapped.legal_numbers()
    assert made.get_wrapper_attr("seat") == unwrapped.seat == 0


def test_a_refused_number_keeps_the_agents_rewards_and_a_bad_seed_keeps_the_game() -> None:
    env = GameEnv("triominos", 2, {"rounds": 1}, reward="score")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    while env._cumulative_rewards[env.agent_selection] == 0:
        env.step(int(rng.choice(env.legal_numbers(env.agent_selection))))
    agent = env.agent_selection
    before = env._cumulative_rewards[agent]
    with pytest.raises(IllegalAction):
        env.step(10**7)
    assert env.last()[1] == before != 0
    actions = len(env.record().actions)
    for seed in (-5, 2**63, 1.5):
        with pytest.raises(ValueError, match="a seed is a whole number"):
            env.reset(seed=seed)  # type: ignore[arg-type]
    assert len(env.record().actions) == actions
    env.step(env.legal_numbers(agent)[0])  # the same game goes on
    assert len(env.record().actions) == actions + 1
    env.reset(seed=np.int64(4))  # type: ignore[arg-type]
    assert env.record().seed == 4


def test_max_actions_truncates_the_game() -> None:
    env = GameEnv("triominos", 2, max_actions=5)
    env.reset(seed=1)
    play_out(env, 1)
    assert env.episode.actions == 5 and not env.episode.outcome().finished


def test_a_truncated_agent_is_offered_no_move() -> None:
    """docs/rl.md: the mask is all zeros while an agent has nothing to decide. Cut off
    at max_actions, the agent selected for its dead step was offered every legal move."""
    env = GameEnv("sequence-cats", 2, max_actions=3)
    env.reset(seed=0)
    while not any(env.truncations.values()):
        env.step(env.legal_numbers(env.agent_selection)[0])
    while env.agents:  # each agent's dead step, in PettingZoo's order
        agent = env.agent_selection
        observation, _, _, truncated, _ = env.last()
        assert truncated and not observation["action_mask"].any(), agent
        assert env.legal_numbers(agent) == []
        env.step(None)


def test_a_bot_table_cut_off_at_max_actions_offers_the_learner_no_move() -> None:
    env = BotTableEnv("sequence-cats", "random", seat=0, max_actions=2)
    env.reset(seed=0)
    observation, _, terminated, truncated, info = env.step(env.legal_numbers()[0])
    assert truncated and not terminated and info["truncated_by"] == "max_actions"
    assert not observation["action_mask"].any() and env.legal_numbers() == []


def test_max_actions_takes_a_numpy_integer() -> None:
    """docs/python.md: NumPy integers are whole numbers everywhere; max_actions refused
    np.int64(50) as "not a whole number from 1"."""
    env = GameEnv("sequence-cats", 2, max_actions=np.int64(50))  # type: ignore[arg-type]
    assert env.max_actions == 50 and type(env.max_actions) is int
    table = BotTableEnv("sequence-cats", "greedy", max_actions=np.int64(5))  # type: ignore[arg-type]
    assert table.max_actions == 5 and type(table.max_actions) is int
    for wrong in (True, 2.5, "5"):
        with pytest.raises(ValueError, match="max_actions must be None or a whole number"):
            GameEnv("sequence-cats", 2, max_actions=wrong)  # type: ignore[arg-type]


def test_the_bots_reaching_max_actions_before_the_learners_turn_end_the_episode() -> None:
    """The computer players used up max_actions before the learner's first turn: reset
    handed the learner a decision anyway, and its step played one action more."""
    env = BotTableEnv("sequence-cats", "greedy", seat=1, max_actions=1)
    observation, info = env.reset(seed=0)
    assert info["truncated_by"] == "max_actions"
    assert len(env.record().actions) == 1
    # Nothing is offered once the episode is over (docs/rl.md).
    assert not observation["action_mask"].any() and not env.action_masks().any()
    assert env.legal_numbers() == []
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)


@pytest.mark.parametrize(("arguments", "message"), [
    ({"opponents": ["greedy"] * 2}, "2 seats need 1 opponent, not 2"),
    ({"seat": 2}, "seat must be one of 0 … 1, not 2"),
    ({"reward": "points"}, 'reward must be "win" or "score"'),
    ({"opponents": "grandmaster"}, "no bot called 'grandmaster'; choose one of"),
    # The command line's habit: one text was taken as one bot's name, with no hint.
    ({"opponents": "greedy, random", "seats": 3},
     r"no bot called 'greedy, random'; choose one of .* \(several bots are a list of "
     r"names, such as \['greedy', 'random'\], not one text\)$"),
    ({"max_actions": 0}, "max_actions must be None or a whole number from 1, not 0"),
])
def test_bot_table_refuses_bad_arguments_clearly(arguments: dict[str, object],
                                                 message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BotTableEnv("sequence-cats", **arguments)  # type: ignore[arg-type]


@pytest.mark.parametrize("seats", [0, -1, 7])
def test_bot_table_says_the_games_seat_rule_for_a_count_it_cannot_seat(seats: int) -> None:
    """``seats=0`` was "seat must be one of 0 … -1, not 0": the learner's seat was checked
    before the game's own rule, which a count of 7 already met."""
    with pytest.raises(ConfigError, match=rf"TR-SETUP-2: .* not {seats}\."):
        BotTableEnv("triominos", "greedy", seats=seats)


@pytest.mark.parametrize(("arguments", "message"), [
    ({"seat": 1.0}, "seat must be a whole number (an int), not 1.0"),
    ({"seat": True}, "seat must be a whole number (an int), not True"),
    ({"seats": "2"}, "seats must be a whole number (an int), not '2'"),
    ({"seats": 2.0, "seat": None}, "seats must be a whole number"),
    # None was "'NoneType' object is not iterable".
    ({"opponents": None}, "opponents is a bot name, or a list of one name a seat"),
    ({"opponents": 3}, "opponents is a bot name, or a list of one name a seat"),
])
def test_bot_table_refuses_a_seat_or_seat_count_that_is_not_a_whole_number(
        arguments: dict[str, object], message: str) -> None:
    """``seat=1.0``, ``seat=True`` and ``seats="2"`` were taken and failed later."""
    with pytest.raises(TypeError, match=re.escape(message)):
        BotTableEnv("sequence-cats", **arguments)  # type: ignore[arg-type]
    env = BotTableEnv("sequence-cats", seats=np.int64(2), seat=np.int64(1))  # type: ignore[arg-type]
    assert env.seat == 1 and type(env.seat) is int
    env.reset(seed=0)
    assert env.record().seats[1].name == "learner"


def test_before_the_first_reset_every_call_says_to_reset() -> None:
    """Stepping or observing before ``reset()`` raised ``AttributeError`` or
    ``KeyError`` (or "this episode is over"), and a step once every agent was removed a
    ``KeyError``: each says what to do instead."""
    first = r"call reset\(\) first"
    for game in ("sequence-cats", "triominos"):
        env, table = GameEnv(game), BotTableEnv(game)
        with pytest.raises(RuntimeError, match=first):
            env.step(0)
        with pytest.raises(RuntimeError, match=first):
            env.observe("seat_0")
        with pytest.raises(RuntimeError, match=first):
            env.record()
        with pytest.raises(RuntimeError, match=first):  # it raised AttributeError
            env.legal_numbers("seat_0")
        with pytest.raises(RuntimeError, match=first):
            env.view("seat_0")
        with pytest.raises(RuntimeError, match=first):  # it raised AttributeError
            env.last()
        with pytest.raises(RuntimeError, match=first):  # it raised AttributeError
            env.agent_iter()
        with pytest.raises(RuntimeError, match=first):
            table.step(0)
        with pytest.raises(RuntimeError, match=first):
            table.action_masks()
        with pytest.raises(RuntimeError, match=first):
            table.legal_numbers()
        with pytest.raises(ValueError, match="max_actions"):
            GameEnv(game, max_actions=-1)
    env = GameEnv("sequence-cats")
    env.reset(seed=4)
    while env.agents:
        env.step(None if env.terminations[env.agent_selection] else
                 env.legal_numbers(env.agent_selection)[0])
    with pytest.raises(RuntimeError, match="no agent is left"):
        env.step(None)


def test_an_unknown_agent_is_refused_naming_the_agents() -> None:
    """``observe("seat_9")`` raised a bare ``KeyError('seat_9')``."""
    env = GameEnv("sequence-cats", 2)
    env.reset(seed=1)
    said = "no agent called 'seat_9'; the agents are seat_0, seat_1"
    for call in (env.observe, env.legal_numbers, env.view):
        with pytest.raises(KeyError) as failed:
            call("seat_9")
        assert str(failed.value) == said
        assert isinstance(failed.value, ValueError)
    assert env.legal_numbers(env.agent_selection)


def test_a_view_an_agent_changes_is_its_own() -> None:
    """Views of one state share objects with each other (Triominos' board and scores):
    an agent that changed the view it was given changed what every other seat and
    spectator was shown until the next action. ``Episode.view`` gives each caller a copy
    of its own."""
    episode = Episode("triominos", 2)
    episode.start(5)
    seat = episode.to_act()[0]
    episode.play(seat, episode.game.legal_actions(episode.state, seat)[0])
    other = 1 - seat
    before = json.dumps(episode.view(other), sort_keys=True)
    mine = episode.view(seat)
    for key, value in list(mine.items()):
        if isinstance(value, (list, dict)):
            value.clear()
        mine[key] = "changed"
    assert json.dumps(episode.view(other), sort_keys=True) == before


def test_a_bot_tables_record_marks_its_computer_players() -> None:
    """docs/records.md: ``bot`` marks a computer player. The record of a ``BotTableEnv``
    named its opponents "medium", "greedy" with ``bot`` empty, as if people of those
    names had played."""
    env = BotTableEnv("sequence-cats", seats=3, opponents=["medium", "greedy"], seat=1)
    env.reset(seed=2)
    seats = [(seat.name, seat.bot) for seat in env.record().seats]
    assert seats[1] == ("learner", None)
    assert sorted(seats[:1] + seats[2:]) == [("greedy", "greedy"), ("medium", "medium")]


@pytest.mark.parametrize(("game", "gym"), [("sequence-cats", "gametable/SequenceCats-v0"),
                                           ("triominos", "gametable/Triominos-v0")])
def test_gymnasium_makes_a_bot_table_by_its_id(game: str, gym: str) -> None:
    """``gymnasium.make`` knows each game with an encoding (it failed: nothing was
    registered), passing the arguments on."""
    import gymnasium  # noqa: PLC0415

    assert gym_id(game) == gym
    assert gym_id(registry.get(game)) == gym  # the game itself, as every entry point takes
    made = gymnasium.make(gym, opponents="easy", illegal="lose")
    assert isinstance(made.unwrapped, BotTableEnv)
    assert made.unwrapped.episode.game.name == game
    observation, _info = made.reset(seed=3)
    assert made.observation_space.contains(observation)
    made.close()


def test_a_game_without_an_encoding_has_no_gymnasium_id() -> None:
    """``gym_id("dixit")`` gave an id ``gymnasium.make`` did not know: it says why."""
    with pytest.raises(NoEncoding, match="dixit has no fixed-size encoding"):
        gym_id("dixit")


@pytest.mark.parametrize(("game_name", "opponent"), [("sequence-cats", "greedy"),
                                                      ("triominos", "random")])
def test_a_trained_policy_plays_at_the_table_as_a_registered_bot(
        game_name: str, opponent: str) -> None:
    """A policy (encoded observation → catalogue number) wrapped as a computer player
    plays whole games through ``play_bot_game`` under its registered name, given what
    ``BotTableEnv`` gives a learner: the same arrays and mask. A number the mask does not
    allow stops the game, naming it."""
    seen: list[dict[str, Any]] = []

    def masked_first(observation: dict[str, Any]) -> Any:
        seen.append(observation)
        return np.flatnonzero(observation["action_mask"])[0]  # a NumPy integer

    register_bot(f"first-masked-{game_name}",
                 lambda game, rng: PolicyBot(masked_first, game, seats=2))
    _, outcome = play_bot_game(game_name, {"rounds": 1} if game_name == "triominos"
                               else {}, [f"first-masked-{game_name}", opponent], 4)
    assert outcome.finished and seen
    env = BotTableEnv(game_name, opponent, options={"rounds": 1} if game_name == "triominos"
                      else {})
    observation, _ = env.reset(seed=0)
    assert set(seen[0]) == set(observation)
    assert all(seen[0][key].shape == observation[key].shape for key in observation)

    register_bot(f"off-mask-{game_name}", lambda game, rng: PolicyBot(
        lambda obs: int(np.flatnonzero(obs["action_mask"] == 0)[0]), game, seats=2))
    with pytest.raises(BotFailed, match=r"the policy chose \d+ \(.*\), which is not legal now"):
        play_bot_game(game_name, {}, [f"off-mask-{game_name}", opponent], 4)


@pytest.mark.parametrize("seats", [3, 4])
def test_a_policy_for_two_seats_refuses_a_table_of_another_size(seats: int) -> None:
    """A policy encoded for two seats at a Sequence Cats table of three or four stops at
    its first decision with both counts (it used to get arrays of the wrong size, or an
    IndexError midway)."""
    def first(observation: dict[str, Any]) -> Any:
        return np.flatnonzero(observation["action_mask"])[0]

    bot = PolicyBot(first, "sequence-cats", seats=2)
    game = registry.get("sequence-cats")
    state = game.new_game(game.make_config({}, seats), seats, 1)
    with pytest.raises(ValueError, match=f"this policy was encoded for 2 seats; the table "
                                         f"has {seats}"):
        bot.choose(game.view(state, 0), game.legal_actions(state, 0))
    register_bot(f"two-seat-policy-{seats}", lambda game, rng: PolicyBot(first, game, seats=2))
    with pytest.raises(BotFailed, match=f"encoded for 2 seats; the table has {seats}"):
        play_bot_game("sequence-cats", {}, [f"two-seat-policy-{seats}"] * seats, 1)
    two = game.new_game(game.make_config({}, 2), 2, 1)
    assert bot.choose(game.view(two, 0), game.legal_actions(two, 0)) in \
        game.legal_actions(two, 0)


@pytest.mark.parametrize(("trained", "table"), [("sequence-cats", "triominos"),
                                                ("triominos", "sequence-cats")])
def test_a_policy_refuses_a_table_of_another_game(trained: str, table: str) -> None:
    """A policy made for Sequence Cats by name, registered and seated at a Triominos
    table, stopped with a bare ``KeyError: 'team'`` from the encoding."""
    def first(observation: dict[str, Any]) -> Any:
        return np.flatnonzero(observation["action_mask"])[0]

    bot = PolicyBot(first, trained, seats=2)
    game = registry.get(table)
    state = game.new_game(game.make_config({}, 2), 2, 1)
    seat = min(game.to_act(state))
    with pytest.raises(ValueError, match=re.escape(
            f"this policy was encoded for {trained}; the table plays {table}: give "
            "PolicyBot the game its factory is given (lambda game, rng: PolicyBot(policy, "
            "game, …)) and seat it at tables of the game it was trained for")):
        bot.choose(game.view(state, seat), game.legal_actions(state, seat))


def test_a_policy_refuses_a_table_whose_options_encode_otherwise() -> None:
    """A policy encoded for the default Sequence Cats board, seated on another layout,
    stopped with a bare ``KeyError: 'B9'``; options the encoding does not read (a
    Triominos table of one round) stay welcome."""
    def first(observation: dict[str, Any]) -> Any:
        return np.flatnonzero(observation["action_mask"])[0]

    game = registry.get("sequence-cats")
    board = json.loads(files("gametable.games.sequence_cats").joinpath(
        "data/board-default.json").read_text())
    turned = {"name": "turned", "spaces": [list(row) for row in zip(*board["spaces"], strict=True)]}
    state = game.new_game(game.make_config({"board": turned}, 2), 2, 1)
    bot = PolicyBot(first, game, seats=2)
    with pytest.raises(ValueError, match=r"encoded for other options than the table's "
                                         r"\(board\)"):
        bot.choose(game.view(state, 0), game.legal_actions(state, 0))
    same = PolicyBot(first, game, {"board": turned}, seats=2)
    assert same.choose(game.view(state, 0), game.legal_actions(state, 0)) in \
        game.legal_actions(state, 0)
    triominos = registry.get("triominos")
    one_round = triominos.new_game(triominos.make_config({"rounds": 1}, 2), 2, 1)
    seat = min(triominos.to_act(one_round))
    assert PolicyBot(first, triominos, seats=2).choose(
        triominos.view(one_round, seat), triominos.legal_actions(one_round, seat))


def test_an_opponent_that_fails_is_named_not_taken_for_the_learner() -> None:
    """An opponent that chose an action the rules refuse raised ``IllegalAction`` out of
    ``step()``, just after the learner's legal action, and read as the learner's own
    mistake; one that raised gave its bare exception. Both now name the opponent, its
    seat and the game's seed."""

    class Nonsense:
        name = "nonsense-opponent"

        def __init__(self, game: Any, rng: random.Random) -> None:
            pass

        def choose(self, view: Any, legal: Any) -> Any:
            return {"type": "nonsense"}

    class Broken(Nonsense):
        name = "broken-opponent"

        def choose(self, view: Any, legal: Any) -> Any:
            raise RuntimeError("broken")

    class Index(Nonsense):
        name = "index-opponent"

        def choose(self, view: Any, legal: Any) -> Any:
            return 0  # the index of its choice (it was "That action is not well formed")

    register_bot("nonsense-opponent", Nonsense)
    register_bot("broken-opponent", Broken)
    register_bot("index-opponent", Index)
    try:
        for name, said in (("nonsense-opponent", "chose an action the rules refuse"),
                           ("broken-opponent", "raised RuntimeError: broken"),
                           ("index-opponent", "returned 0 (int), not an action: choose "
                            "returns one of the legal actions it is given")):
            env = BotTableEnv("sequence-cats", name, seat=1)
            with pytest.raises(BotFailed) as failed:
                env.reset(seed=3)
            assert failed.value.bot == name and failed.value.seat == 0
            assert said in str(failed.value) and "seed" in str(failed.value)
            # The episode is over: the next step is not charged to the learner.
            with pytest.raises(RuntimeError, match="episode is over"):
                env.step(0)
    finally:
        base._FACTORIES.pop("nonsense-opponent", None)
        base._FACTORIES.pop("broken-opponent", None)
        base._FACTORIES.pop("index-opponent", None)
