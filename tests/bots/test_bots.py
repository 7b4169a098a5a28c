"""Computer players: they act on views only, and greedy plays Sequence Cats sensibly."""

from __future__ import annotations

import random
import re
import signal
from typing import Any, cast

import numpy as np
import orjson
import pytest

from gametable.arena import run_arena
from gametable.bots import bot_names, make_bot
from gametable.bots.base import handed, reads_only
from gametable.bots.levels import LevelBot
from gametable.bots.rollout import RolloutBot
from gametable.bots.search import SearchBot
from gametable.core import registry
from gametable.core.errors import ConfigError
from gametable.core.protocol import Game, HasRollouts, SamplesHidden
from gametable.games.sequence_cats import SEQUENCE_CATS as GAME
from gametable.simulate import play_bot_game, simulate
from tests.games.sequence_cats.helpers import give, new, place


def greedy_choice(state: Any, seat: int = 0) -> dict[str, Any]:
    bot = make_bot("greedy", GAME, seed=1)
    return bot.choose(GAME.view(state, seat), GAME.legal_actions(state, seat))


@pytest.mark.parametrize("seed", [-1, None, 2**63, 1.5])
def test_make_bot_refuses_a_seed_that_is_not_a_games_seed(seed: Any) -> None:
    """A seed is a whole number from 0 to 2**63 − 1; -1 and None were taken."""
    with pytest.raises(ValueError, match="a seed is a whole number from 0 to 2"):
        make_bot("greedy", GAME, seed)
    assert make_bot("greedy", GAME, 2**63 - 1) is not None


@pytest.mark.parametrize(("games", "seed", "match"), [
    (0, 0, "games must be a whole number from 1"), (-2, 0, "games must be a whole number"),
    (True, 0, "games must be a whole number"), (2.0, 0, "games must be a whole number"),
    (3, 2**63 - 2, "the games would be seeded"),
])
def test_simulate_refuses_a_run_it_cannot_play_before_playing_any(
        games: Any, seed: int, match: str) -> None:
    """No games, or seeds past a record's last, are refused before the first game (a
    run seeded near 2**63 played two games, then failed and lost their summary)."""
    played: list[Any] = []
    with pytest.raises(ValueError, match=match):
        simulate("sequence-cats", ["random", "random"], games, seed, on_record=played.append)
    assert played == []
    assert simulate("sequence-cats", ["random", "random"], 1, 2**63 - 1).games == 1
    # A NumPy count, as a seed is, is the number it holds (it was refused as "not a
    # whole number from 1").
    assert simulate("sequence-cats", ["random", "random"], np.int64(2), 0).games == 2


@pytest.mark.parametrize(("limits", "match"), [
    ({"decision_seconds": -1}, "decision_seconds must be None or a number of seconds"),
    ({"decision_seconds": float("nan")}, "decision_seconds must be None"),
    ({"decision_seconds": "1"}, "decision_seconds must be None"),
    ({"max_actions": 0}, "max_actions must be a whole number from 1, not 0"),
    ({"max_actions": -1}, "max_actions must be a whole number from 1"),
    ({"max_actions": 2.5}, "max_actions must be a whole number from 1, not 2.5"),
])
def test_a_bot_game_refuses_limits_it_cannot_keep_before_playing(
        limits: dict[str, Any], match: str) -> None:
    """A negative ``decision_seconds`` was reported as ``greedy`` failing (and left the
    package's alarm handler in the caller's process); ``max_actions=0`` played nothing
    and called the game unfinished, 2.5 played three actions."""
    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(ValueError, match=match):
        play_bot_game("sequence-cats", None, ["greedy", "greedy"], 3, **limits)
    assert signal.getsignal(signal.SIGALRM) is before
    with pytest.raises(ValueError, match=match):
        simulate("sequence-cats", ["greedy", "random"], 1, 0, **limits)
    with pytest.raises(ValueError, match=match):
        run_arena("sequence-cats", ["greedy", "random"], 1, **limits)


def test_simulate_counts_a_game_past_max_actions_as_unfinished() -> None:
    """docs/python.md gave ``simulate`` a ``max_actions`` it did not take (a
    ``TypeError``), and ``gametable simulate`` had no ``--max-actions``."""
    summary = simulate("triominos", ["greedy", "greedy"], 3, 0, max_actions=20)
    assert summary.unfinished == 3 and summary.total_actions == 60
    assert simulate("triominos", ["greedy", "greedy"], 3, 0).unfinished == 0


def test_options_and_seed_given_in_the_other_functions_order_are_told_the_order() -> None:
    """docs/python.md: ``options`` comes second in ``play_bot_game`` and last in
    ``simulate``. Given in the other's order, both said only "a seed is a whole number
    from 0 to 2**63 - 1, not {'sequences_to_win': 2}"."""
    with pytest.raises(TypeError, match=re.escape(
            "simulate(game, bots, games, seed, options=None): the seed comes before the "
            "options (unlike play_bot_game's); give them by name, options="
            "{'sequences_to_win': 2}")):
        simulate("sequence-cats", ["greedy", "random"], 2,
                 {"sequences_to_win": 2})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=re.escape(
            "play_bot_game(game, options, bots, seed): the options come second and the "
            "seed last, not options 0 and seed {}")):
        play_bot_game("sequence-cats", 0, ["greedy", "random"], {})  # type: ignore[arg-type]
    assert simulate("sequence-cats", ["greedy", "random"], 1, 0,
                    options={"sequences_to_win": 2}).games == 1


def test_an_arena_refuses_seeds_past_a_records_last_before_playing() -> None:
    """The arena played its first games, then failed on a seed the caller never gave."""
    done: list[int] = []
    with pytest.raises(ValueError, match=r"would be seeded .*2\*\*63 - 1"):
        run_arena("sequence-cats", ["greedy", "random"], 6, seed=2**63 - 3,
                  progress=lambda finished, _: done.append(finished))
    assert done == []


def test_make_bot_takes_a_games_name_and_refuses_what_is_no_game() -> None:
    """``make_bot("hard", "sequence-cats", 0)``, a name where the game goes (as
    ``bot_names`` and ``play_bot_game`` take), made bots that all played at random."""
    for deal in range(6):
        state = GAME.new_game({}, 2, deal)
        view, legal = GAME.view(state, 0), GAME.legal_actions(state, 0)
        for level in ("greedy", "medium"):
            by_name = make_bot(level, "sequence-cats", 1).choose(view, legal)
            assert by_name == make_bot(level, GAME, 1).choose(view, legal), (deal, level)
    with pytest.raises(TypeError, match=r"game is a game .* or its registered name, not None"):
        make_bot("greedy", None, 1)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="There is no game called"):
        make_bot("greedy", "chess", 1)


def test_bots_are_found_by_name() -> None:
    assert {"greedy", "random"} <= set(bot_names())
    with pytest.raises(KeyError, match="choose one of"):
        make_bot("deep-blue", GAME, seed=0)
    # Also a ValueError (as the RL environments say it), printed without a KeyError's
    # quotes around the message.
    with pytest.raises(ValueError) as error:
        make_bot("deep-blue", GAME, seed=0)
    assert str(error.value).startswith("no bot called 'deep-blue'; choose one of easy")


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_always_choose_a_legal_action(bot: str) -> None:
    for seed in range(5):
        record, outcome = play_bot_game("sequence-cats", {}, [bot, bot, bot], seed)
        assert outcome.finished  # play_bot_game applies every action: all were legal
        assert len(record.actions) > 10


def test_greedy_completes_a_sequence_when_it_can() -> None:
    """SC-WIN-1/2: with a winning move in hand, greedy takes it."""
    state = new()
    place(state, dict.fromkeys(["B1", "C1", "D1"], 0))
    give(state, 0, ["burmese", "korat", "manx", "bombay", "ragdoll"])
    assert greedy_choice(state) == {"type": "play", "card": "burmese", "space": "E1"}


def test_greedy_blocks_an_opponents_four() -> None:
    """Greedy covers the space that would give the opponent a sequence."""
    state = new()
    place(state, dict.fromkeys(["C3", "D3", "E3", "F3"], 1))
    # G3 is Cornish Rex; B3 is Exotic Shorthair: both ends of the four.
    give(state, 0, ["cornish-rex", "korat", "manx", "bombay", "ragdoll"])
    assert greedy_choice(state) == {"type": "play", "card": "cornish-rex", "space": "G3"}


def test_greedy_breaks_an_unstoppable_four_with_meow() -> None:
    """With no card for the open end, greedy removes a chip of the four (SC-MEOW-1)."""
    state = new()
    place(state, dict.fromkeys(["C3", "D3", "E3", "F3"], 1))
    give(state, 0, ["meow", "korat", "manx", "bombay", "ragdoll"])
    choice = greedy_choice(state)
    assert choice["card"] == "meow" and choice["space"] in {"C3", "D3", "E3", "F3"}


def test_greedy_keeps_purrr_for_when_it_matters() -> None:
    """With ordinary moves available and nothing urgent, greedy plays a breed card."""
    state = new()
    give(state, 0, ["purrr", "korat", "manx", "bombay", "ragdoll"])
    assert greedy_choice(state)["card"] != "purrr"


def test_greedy_exchanges_a_dead_card_first() -> None:
    """SC-DEAD-1: the exchange comes before the play, so greedy always takes it."""
    state = new()
    give(state, 0, ["korat", "manx", "bombay", "sphynx", "ragdoll"])
    place(state, {"F1": 1, "F7": 1})  # both Korat spaces
    assert greedy_choice(state) == {"type": "exchange", "card": "korat"}


def test_greedy_beats_random() -> None:
    summary = simulate("sequence-cats", ["greedy", "random"], games=40, seed=3)
    assert summary.wins["0:greedy"] > 3 * summary.wins["1:random"]


def test_greedy_exchanges_a_dead_breed_card_before_a_dead_purrr() -> None:
    """SC-DEAD-1: with several dead cards greedy chooses; a dead PURRR comes back to
    life as soon as a MEOW frees a space, so it is kept."""
    state = new()
    labels = state.board.labels
    place(state, {labels[i]: i % 2 for i in state.board.breed_spaces})
    give(state, 0, ["purrr", "korat", "meow", "korat", "purrr"])
    assert greedy_choice(state) == {"type": "exchange", "card": "korat"}


def test_greedy_accepts_a_draw_once_the_board_has_been_full() -> None:
    """SC-WIN-3 b: computer players accept a draw offer once the board is full, and
    decline it before."""
    state = new(3)
    GAME.apply(state, 0, {"type": "offer_draw"})
    assert greedy_choice(state, 1) == {"type": "decline_draw"}
    state.filled = True
    assert GAME.view(state, 1)["board_filled"] is True
    assert greedy_choice(state, 1) == {"type": "accept_draw"}


@pytest.mark.parametrize("name", ["hard", "rollout", "search", "medium", "easy"])
def test_every_level_answers_a_draw_offer_by_the_tables_rule(name: str) -> None:
    """SC-WIN-3 b, as the table is told: computer players accept a draw offer once the
    board has been full and decline it before. The ``hard`` player weighed the offer by
    its rollouts (a draw half a win) and, where its estimate of its chances fell under
    one half, accepted at move 2: a person could escape any game going badly."""
    for seed in range(6):
        state = new(2, seed=seed)
        for _ in range(2):
            seat = min(GAME.to_act(state))
            GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        GAME.apply(state, 0, {"type": "offer_draw"})
        bot = make_bot(name, GAME, seed)
        view = GAME.view(state, 1)
        assert bot.choose(view, GAME.legal_actions(state, 1)) == {"type": "decline_draw"}
        state.filled = True
        view = GAME.view(state, 1)
        assert bot.choose(view, GAME.legal_actions(state, 1)) == {"type": "accept_draw"}


def test_greedy_chooses_the_five_that_leaves_a_line_for_the_next_sequence() -> None:
    """SC-WIN-2: from C3–H3, greedy keeps H3 free of the sequence, since G3–K3 (with J3
    and K3 already Blue's) may share one chip with C3–G3 but two with D3–H3."""
    state = new(sequences_to_win=2)
    place(state, dict.fromkeys(["C3", "D3", "E3", "G3", "H3", "J3", "K3"], 0))
    give(state, 0, ["russian-blue", "somali", "manx", "bombay", "ragdoll"])
    GAME.apply(state, 0, {"type": "play", "card": "russian-blue", "space": "F3"})
    assert len(GAME.legal_actions(state, 0)) == 2
    assert greedy_choice(state) == {"type": "sequence",
                                    "spaces": ["C3", "D3", "E3", "F3", "G3"]}


def test_greedy_counts_no_line_through_a_blank_corner() -> None:
    """SC-COMP-2: with ``free_corners`` off, B1–E1 beside the corner is no sequence, and
    greedy does not rate it as one."""
    for free_corners, wins in ((True, True), (False, False)):
        state = new(free_corners=free_corners)
        place(state, dict.fromkeys(["B1", "C1", "D1"], 0))
        give(state, 0, ["burmese", "korat", "manx", "bombay", "ragdoll"])
        legal = GAME.legal_actions(state, 0)
        ratings = GAME.rate_actions(GAME.view(state, 0), legal)
        rating = ratings[legal.index({"type": "play", "card": "burmese", "space": "E1"})]
        assert (rating >= 1_000_000) is wins


def _players_of_this_package(game: Any, seed: int) -> dict[str, Any]:
    """Every bot this package registers, those with a budget on a small fixed one."""
    small: dict[str, Any] = {}
    if isinstance(game, SamplesHidden):
        small["search"] = SearchBot(cast(Game[Any], game), random.Random(seed), seconds=None,
                                    iterations=12)
        small["hard"] = LevelBot("hard", small["search"])
    if isinstance(game, HasRollouts):
        small["rollout"] = RolloutBot(cast(Game[Any], game), random.Random(seed),
                                      seconds=None, deals=24)
        small["hard"] = LevelBot("hard", small["rollout"])
    names = [name for name in bot_names(game) if name in BUILT_IN]
    return {name: small.get(name) or make_bot(name, game, seed) for name in names}


BUILT_IN = ("random", "greedy", "planner", "search", "rollout", "semantic", "easy",
            "medium", "hard")


@pytest.mark.parametrize(("game_name", "seats"),
                         [("sequence-cats", 2), ("triominos", 3), ("dixit", 4)])
def test_the_packages_players_read_their_view_and_legal_actions_only(
        game_name: str, seats: int) -> None:
    """``simulate``, ``arena`` and ``BotTableEnv`` hand the package's own players the
    game's view and legal actions without copying them (``reads_only``: copies took more
    than half the time of games between quick players). So none of them may change what
    it is given, in any phase of any game: each is given the game's own objects and
    they are compared, as JSON, before and after."""
    game = registry.get(game_name)
    checked: set[str] = set()
    for seed in range(3):
        state = game.new_game(game.make_config({}, seats), seats, seed)
        rng = random.Random(seed)
        players = _players_of_this_package(game, seed)
        for number in range(40):
            acting = sorted(game.to_act(state))
            if not acting or game.outcome(state).finished:
                break
            seat = acting[0]
            legal = game.legal_actions(state, seat)
            if number % 4 == 0 or len(checked) < len(players):
                view = game.view(state, seat)
                before = orjson.dumps([view, legal], option=orjson.OPT_SORT_KEYS)
                for name, player in players.items():
                    assert reads_only(player), name
                    player.choose(view, list(legal))
                    assert orjson.dumps([view, legal], option=orjson.OPT_SORT_KEYS) == before, (
                        name, number)
                    checked.add(name)
            game.apply(state, seat, rng.choice(legal))
    assert checked == set(players)
    # A player of any other author gets copies: it may change them.
    class Scribbler:
        name = "scribbler"

        def choose(self, view: Any, legal: Any) -> Any:
            view.clear()
            return legal.pop()
    state = game.new_game(game.make_config({}, seats), seats, 0)
    seat = min(game.to_act(state))
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    before = orjson.dumps([view, legal], option=orjson.OPT_SORT_KEYS)
    Scribbler().choose(*handed(Scribbler(), view, legal))
    assert orjson.dumps([view, legal], option=orjson.OPT_SORT_KEYS) == before


def test_a_game_object_serves_as_well_as_its_name() -> None:
    """The docs write ``play_bot_game(game, …)`` after ``game = registry.get(…)``; the
    object was refused as "There is no game called "<…SequenceCats object at 0x…>""."""
    game = registry.get("sequence-cats")
    assert play_bot_game(game, {}, ["random", "random"], 3)[0] == play_bot_game(
        "sequence-cats", {}, ["random", "random"], 3)[0]
    assert simulate(game, ["random", "random"], 2, 0).games == 2
    assert run_arena(game, ["random", "greedy"], 2).game == "sequence-cats"

    class Stranger:
        name = "sequence-cats"

    with pytest.raises(ConfigError, match=r'There is no game called "<tests\.bots'):
        simulate(Stranger(), ["random", "random"], 1, 0)  # type: ignore[arg-type]
