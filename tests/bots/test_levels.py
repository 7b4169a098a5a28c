"""Levels: ``easy``, ``medium`` and ``hard`` seat every game's player of that strength."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from gametable.bots import base, bot_names, make_bot
from gametable.bots.base import LEVELS, PlaysAsAnother
from gametable.bots.greedy import GreedyBot
from gametable.bots.levels import HalfRandomBot, LevelBot, level_of, level_players
from gametable.bots.pace import JITTER, think_time
from gametable.bots.rollout import RolloutBot
from gametable.bots.search import SearchBot
from gametable.bots.semantic import SemanticBot
from gametable.core import registry
from gametable.core.errors import ConfigError
from gametable.core.protocol import Action, Observation
from gametable.simulate import play_bot_game

GAMES = {"dixit": 4, "sequence-cats": 2, "triominos": 2}


def test_the_three_levels_are_bot_names() -> None:
    assert set(LEVELS) <= set(bot_names())
    assert {"random", "greedy", "semantic"} <= set(bot_names())  # they stay


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_every_game_to_the_end(game: str, level: str) -> None:
    options: dict[str, Any] = {"rounds": 1} if game == "triominos" else {}
    record, outcome = play_bot_game(game, options, [level] * GAMES[game], seed=3)
    assert outcome.finished  # every action was applied, so every one was legal
    assert record.actions


def _temperature(bot: object) -> float:
    assert isinstance(bot, LevelBot) and isinstance(bot.player, SemanticBot)
    assert bot.player.player is not None
    return float(bot.player.player.temperature)  # type: ignore[attr-defined]


def test_a_game_with_a_strategy_player_plays_it_at_every_level() -> None:
    """Dixit: one player that understands clues, looser as the level falls."""
    dixit = registry.get("dixit")
    players = {level: make_bot(level, dixit, seed=1) for level in LEVELS}
    assert all(isinstance(bot, LevelBot) and isinstance(bot.player, SemanticBot)
               for bot in players.values())
    temperatures = [_temperature(players[level]) for level in ("hard", "medium", "easy")]
    assert temperatures == sorted(temperatures) and len(set(temperatures)) == 3


def test_a_game_without_one_plays_greedy_and_half_random() -> None:
    triominos = registry.get("triominos")
    easy, medium = make_bot("easy", triominos, 1), make_bot("medium", triominos, 1)
    assert isinstance(easy, LevelBot) and isinstance(easy.player, HalfRandomBot)
    assert isinstance(medium, LevelBot) and isinstance(medium.player, GreedyBot)
    assert (easy.name, medium.name) == ("easy", "medium")


class _Searcher:
    name = "search"

    def __init__(self, game: Any, rng: random.Random) -> None:
        self.game = game

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        return legal[0]


class _Sampling:
    """A stand-in game that can sample hidden information."""

    def sample_state(self, view: Observation, seat: int, rng: random.Random) -> Any:
        return None


@pytest.fixture
def a_search_bot() -> Iterator[None]:
    saved, plays = base.bot_factory("search"), base._PLAYS.get("search")
    # Taking over a built-in's name says so.
    with pytest.warns(UserWarning, match="'search' now names _Searcher, not SearchBot"):
        base.register_bot("search", _Searcher)
    yield
    if saved is None:
        base._FACTORIES.pop("search", None)
    else:
        with pytest.warns(UserWarning, match="'search' now names SearchBot"):
            base.register_bot("search", saved, plays=plays)


@pytest.mark.usefixtures("a_search_bot")
def test_hard_is_the_search_player_where_the_game_samples_hidden_information() -> None:
    hard = make_bot("hard", _Sampling(), seed=1)  # type: ignore[arg-type]
    assert isinstance(hard, LevelBot) and isinstance(hard.player, _Searcher)


def test_think_time_is_the_bot_delay_give_or_take_and_never_the_same_twice() -> None:
    rng = random.Random(7)
    waits = [think_time(0.8, rng) for _ in range(50)]
    assert min(waits) >= 0.8 * JITTER[0] and max(waits) <= 0.8 * JITTER[1]
    assert len(set(waits)) == 50
    assert think_time(0, rng) == 0.0


def test_the_levels_come_first_weakest_first() -> None:
    assert bot_names()[:3] == ["easy", "medium", "hard"]


def test_hard_rolls_out_where_the_game_has_rollouts() -> None:
    """Sequence Cats has rollouts (``rollout``); Triominos searches (``search``)."""
    cats = make_bot("hard", registry.get("sequence-cats"), seed=1)
    tiles = make_bot("hard", registry.get("triominos"), seed=1)
    assert isinstance(cats, LevelBot) and isinstance(cats.player, RolloutBot)
    assert isinstance(tiles, LevelBot) and isinstance(tiles.player, SearchBot)


def test_a_game_lists_only_the_bots_that_play_it_as_themselves() -> None:
    """``bot_names(game)`` leaves out bots that would only fall back to ``greedy`` there;
    ``make_bot`` still seats them (a stored table keeps working)."""
    dixit, triominos = registry.get("dixit"), registry.get("triominos")
    assert "semantic" in bot_names(dixit) and "semantic" not in bot_names(triominos)
    assert "search" in bot_names(triominos) and "rollout" not in bot_names(triominos)
    assert "rollout" in bot_names(registry.get("sequence-cats"))
    assert bot_names(triominos)[:3] == list(LEVELS)
    assert set(bot_names(triominos)) < set(bot_names())
    with pytest.warns(PlaysAsAnother, match="'semantic' does not play triominos as itself"):
        assert isinstance(make_bot("semantic", triominos, 1), SemanticBot)


def test_a_game_may_be_named_for_its_bots() -> None:
    """``bot_names("triominos")`` gave every game's common five (no ``search`` there, no
    ``semantic`` for Dixit), as if no game were given: a name is a game too, and an
    unknown one is refused with the games there are."""
    for name in registry.names():
        assert bot_names(name) == bot_names(registry.get(name))
    assert "search" in bot_names("triominos")
    with pytest.raises(ConfigError, match=r"chess.*dixit, sequence-cats, triominos"):
        bot_names("chess")


def test_easy_s_mistakes_are_a_beginner_s_not_a_random_action_s() -> None:
    """A random legal action was a PURRR 91 % of the time in Sequence Cats (one action
    per free space), and a Triominos draw or pass beside a tile that could be placed."""
    from tests.games.sequence_cats.helpers import give, new  # noqa: PLC0415

    game = registry.get("sequence-cats")
    state = new()
    give(state, 0, ["purrr", "korat", "manx", "bombay", "ragdoll"])
    legal = game.legal_actions(state, 0)
    assert sum(a["card"] == "purrr" for a in legal) / len(legal) > 0.8
    easy = HalfRandomBot(game, random.Random(3))
    cards = [easy.mistake(legal)["card"] for _ in range(500)]
    assert 0.12 < cards.count("purrr") / len(cards) < 0.28  # one card of five
    assert set(cards) == {"purrr", "korat", "manx", "bombay", "ragdoll"}

    triominos = registry.get("triominos")
    state = triominos.new_game(triominos.make_config({}, 2), 2, 5)
    seat = next(iter(triominos.to_act(state)))
    triominos.apply(state, seat, triominos.legal_actions(state, seat)[0])
    seat = next(iter(triominos.to_act(state)))
    legal = triominos.legal_actions(state, seat)
    assert {a["type"] for a in legal} >= {"place", "draw"}
    easy = HalfRandomBot(triominos, random.Random(4))
    assert {easy.mistake(legal)["type"] for _ in range(200)} == {"place"}


def test_a_levels_player_by_name_knows_its_level() -> None:
    """Sequence Cats' "Hard" seats the Simulator (``rollout``) and its "Medium" the
    Greedy player, unchanged: the lobby and the pages tie each pair together; Dixit's
    "Medium" plays the strategy player at another temperature, so Greedy is no level
    there."""
    cats, dixit = registry.get("sequence-cats"), registry.get("dixit")
    assert level_players(cats) == {"medium": "greedy", "hard": "rollout"}
    assert level_of("rollout", cats) == "hard" and level_of("greedy", cats) == "medium"
    assert level_of("planner", cats) is None and level_of("hard", cats) is None
    assert level_of("semantic", dixit) == "hard" and level_of("greedy", dixit) is None
    for game in (cats, dixit, registry.get("triominos")):
        for level, bot in level_players(game).items():
            # the same player: the same class, the same choices from the same seed
            seated = make_bot(level, game, 7)
            assert isinstance(seated, LevelBot)
            assert type(seated.player) is type(make_bot(bot, game, 7))
