"""Bots written outside gametable: registered, given copies, their failures named."""

from __future__ import annotations

import json
import random
import re
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest

from gametable.arena import run_arena
from gametable.bots import bot_names, make_bot, register_bot
from gametable.bots.planner import PlannerBot
from gametable.bots.rollout import RolloutBot
from gametable.bots.search import SearchBot
from gametable.bots.semantic import SemanticBot
from gametable.core import registry
from gametable.core.actions import FrozenAction, copy_actions
from gametable.core.protocol import Action, CompletesActions, Observation
from gametable.rl.single import BotTableEnv
from gametable.simulate import BotFailed, PlaceholderLeft, PlaysAsAnother, play_bot_game, simulate

OUTSIDE_BOTS: dict[str, Callable[[Any, random.Random], Any]] = {}
"""The players of this module, registered for each test (:func:`outside_bots`)."""


@pytest.fixture(autouse=True)
def outside_bots(bot_registry: None) -> None:
    """This module's players, registered for the test; the registry is as it was after
    it (``bot_registry``, tests/conftest.py)."""
    for name, factory in OUTSIDE_BOTS.items():
        register_bot(name, factory)


class Scribbler:
    """Writes on the actions it is given and empties the list, then plays the first."""

    name = "scribbler"

    def __init__(self, game: Any, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        assert isinstance(legal, list)  # a copy of its own, to do with as it likes
        for action in legal:
            action["note"] = "mine"
        first = dict(legal[0])
        legal.clear()
        del first["note"]
        return first


class Raiser:
    name = "raiser"

    def __init__(self, game: Any, rng: random.Random) -> None:
        pass

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        raise RuntimeError("out of ideas [sic]")


class Cheater:
    name = "cheater"

    def __init__(self, game: Any, rng: random.Random) -> None:
        pass

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        return {"type": "play", "card": "bengal", "space": "A1"}


class Sleeper:
    """Never answers: thinks in short naps forever."""

    name = "sleeper"

    def __init__(self, game: Any, rng: random.Random) -> None:
        pass

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        while True:
            time.sleep(0.05)


class NumpyClues:
    """Writes its Dixit clues with NumPy (``Generator.choice`` gives ``numpy.str_``),
    and otherwise plays as ``random``."""

    name = "numpy-clues"

    def __init__(self, game: Any, rng: random.Random) -> None:
        self.inner = make_bot("random", game, rng.getrandbits(32))
        self.words = np.random.default_rng(0)

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        action = dict(self.inner.choose(view, legal))
        if action["type"] == "clue":
            action["text"] = self.words.choice(["a dream", "the sea", "home"])
        return action


OUTSIDE_BOTS["scribbler"] = Scribbler
class NumpyNumbers:
    """Plays as ``random``, a Triominos tile's rotation given as a NumPy number."""

    name = "numpy-numbers"

    def __init__(self, game: Any, rng: random.Random) -> None:
        self.inner = make_bot("random", game, rng.getrandbits(32))

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        action = dict(self.inner.choose(view, legal))
        if "rotation" in action:
            action["rotation"] = np.int64(action["rotation"])
        return action


OUTSIDE_BOTS["numpy-clues"] = NumpyClues
OUTSIDE_BOTS["numpy-numbers"] = NumpyNumbers
OUTSIDE_BOTS["sleeper"] = Sleeper
OUTSIDE_BOTS["raiser"] = Raiser
OUTSIDE_BOTS["cheater"] = Cheater


@pytest.mark.filterwarnings("ignore::gametable.simulate.PlaceholderLeft")
@pytest.mark.parametrize("game", ["sequence-cats", "triominos", "dixit"])
def test_a_bot_that_changes_what_it_is_given_changes_no_game(game: str) -> None:
    """Sequence Cats builds its play actions once per board and every game on the board
    offers the same objects: a bot writing on them must not change later games."""
    players = 3 if game == "dixit" else 2
    before = [play_bot_game(game, {}, ["greedy"] * players, seed)[0].actions
              for seed in range(3)]
    for seed in range(3):
        play_bot_game(game, {}, ["scribbler"] + ["greedy"] * (players - 1), seed)
    after = [play_bot_game(game, {}, ["greedy"] * players, seed)[0].actions
             for seed in range(3)]
    assert after == before


def test_shared_actions_refuse_to_be_changed_and_lists_are_the_callers() -> None:
    game = registry.get("sequence-cats")
    state = game.new_game(game.make_config({}, 2), 2, 4)
    legal = game.legal_actions(state, 0)
    assert isinstance(legal[0], FrozenAction)
    with pytest.raises(TypeError, match="copy it before changing it"):
        legal[0]["space"] = "A1"
    with pytest.raises(TypeError):
        legal[0].setdefault("note", 1)
    legal.clear()  # the caller's own list
    assert game.legal_actions(state, 0) and game.to_act(state) == {0}
    copied = copy_actions(game.legal_actions(state, 0))
    assert copied == game.legal_actions(state, 0)
    assert all(type(action) is dict for action in copied)
    copied[0]["space"] = "A1"
    assert game.legal_actions(state, 0)[0]["space"] != "A1"


@pytest.mark.parametrize("name", ["sequence-cats", "triominos", "dixit"])
def test_whatever_legal_actions_hands_out_again_refuses_to_be_changed(name: str) -> None:
    """core/protocol.py: an action object ``legal_actions`` may hand out again is frozen.
    Triominos' placements were plain dicts kept for the next call: ``l[0]["tile"] =
    "5-5-5"`` or ``l[0]["position"][0] = 99`` changed what the next call offered, and a
    player drawing from it then sent an illegal move."""
    game = registry.get(name)
    players = 3 if name == "dixit" else 2
    rng = random.Random(5)
    state = game.new_game(game.make_config({}, players), players, 5)
    for _ in range(40):
        seat = min(game.to_act(state))
        first = game.legal_actions(state, seat)
        again = game.legal_actions(state, seat)
        before = copy_actions(again)
        for action in first:
            if action is not again[first.index(action)]:
                continue  # a fresh object each call: the caller's own
            assert isinstance(action, FrozenAction), action
            with pytest.raises(TypeError, match="copy it before changing it"):
                action["type"] = "pass"
            for value in action.values():
                if isinstance(value, list):
                    with pytest.raises(TypeError, match="copy it before changing it"):
                        value[0] = 99
                    with pytest.raises(TypeError):
                        value.append(1)
        assert copy_actions(game.legal_actions(state, seat)) == before
        game.apply(state, seat, game.complete_action(
            game.view(state, seat), dict(rng.choice(again)), rng)
            if isinstance(game, CompletesActions) else rng.choice(again))
        if game.outcome(state).finished:
            break


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_bot_that_raises_stops_the_arena_with_its_name_seat_and_seed(jobs: int) -> None:
    with pytest.raises(BotFailed) as failed:
        run_arena("sequence-cats", ["raiser", "greedy"], 2, seed=7, jobs=jobs)
    assert str(failed.value) == ("bot 'raiser' in seat 0 of sequence-cats (seed 7) raised "
                                 "RuntimeError: out of ideas [sic] (after 0 actions)")
    assert (failed.value.bot, failed.value.seat, failed.value.seed) == ("raiser", 0, 7)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_bot_that_never_answers_stops_the_arena_after_its_time(jobs: int) -> None:
    started = time.monotonic()
    with pytest.raises(BotFailed) as failed:
        run_arena("sequence-cats", ["greedy", "sleeper"], 2, seed=7, jobs=jobs,
                  decision_seconds=0.3)
    assert str(failed.value) == ("bot 'sleeper' in seat 1 of sequence-cats (seed 7) took "
                                 "longer than 0.3 s to decide (after 1 action)")
    assert time.monotonic() - started < 30


def test_the_time_limit_ends_with_the_decision() -> None:
    """No alarm is left behind: a game after a limited one, and a nap after both, run
    to their end."""
    record, outcome = play_bot_game("sequence-cats", {}, ["greedy", "greedy"], 1,
                                    decision_seconds=0.2)
    assert outcome.finished and len(record.actions) > 10
    time.sleep(0.4)  # an alarm still set would raise DecisionTimeout here
    _record, outcome = play_bot_game("sequence-cats", {}, ["greedy", "random"], 2)
    assert outcome.finished


def broken_factory(game: Any, rng: random.Random) -> Any:
    return 1 / 0


OUTSIDE_BOTS["badfactory"] = broken_factory


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_bot_whose_factory_raises_is_named_with_its_seat(jobs: int) -> None:
    """Making the bot fails as clearly as its decisions do (it was a bare traceback)."""
    message = ("bot 'badfactory' in seat 1 of sequence-cats (seed 5) could not be made: "
               "its factory raised ZeroDivisionError: division by zero")
    with pytest.raises(BotFailed) as failed:
        play_bot_game("sequence-cats", {}, ["greedy", "badfactory"], 5)
    assert str(failed.value) == message
    assert (failed.value.bot, failed.value.seat, failed.value.seed) == ("badfactory", 1, 5)
    with pytest.raises(BotFailed, match=r"'badfactory' in seat 0 .* could not be made"):
        run_arena("sequence-cats", ["badfactory", "greedy"], 2, seed=7, jobs=jobs)


def choose_given_as_factory(view: Any, legal: Any) -> Any:
    return legal[0]


def factory_of_no_bot(game: Any, rng: random.Random) -> Any:
    return "greedy"


OUTSIDE_BOTS["choose-as-factory"] = choose_given_as_factory
OUTSIDE_BOTS["factory-of-no-bot"] = factory_of_no_bot


def test_a_factory_that_makes_no_bot_is_told_what_a_factory_is() -> None:
    """A choose function registered as the factory stopped with "its factory raised
    TypeError: 'Random' object is not subscriptable", and a factory returning something
    without ``choose`` with "raised AttributeError: 'str' object has no attribute
    'choose'" at the first decision: neither said what a factory is."""
    hint = ("a factory is called as factory(game, rng) and returns a bot, an object with "
            "choose(view, legal)")
    with pytest.raises(BotFailed) as raised:
        play_bot_game("sequence-cats", {}, ["choose-as-factory", "greedy"], 5)
    assert str(raised.value) == (
        "bot 'choose-as-factory' in seat 0 of sequence-cats (seed 5) could not be made: "
        "its factory raised TypeError: 'Random' object is not subscriptable "
        f"({hint})")
    with pytest.raises(BotFailed) as made:
        play_bot_game("sequence-cats", {}, ["greedy", "factory-of-no-bot"], 5)
    assert str(made.value) == (
        "bot 'factory-of-no-bot' in seat 1 of sequence-cats (seed 5) could not be made: "
        f"its factory returned 'greedy' (str), not a bot: {hint}")


def test_the_cli_names_a_bot_whose_factory_raises(tmp_path: Path) -> None:
    (tmp_path / "badbots.py").write_text(
        "from gametable.bots import register_bot\n"
        "register_bot('badfactory', lambda game, rng: 1/0)\n")
    for command in ("simulate", "arena"):
        done = subprocess.run(
            [sys.executable, "-m", "gametable.cli", command, "sequence-cats", "--bots",
             "badfactory,greedy", "--games", "1", "--import", "badbots"], cwd=tmp_path,
            capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert "bot 'badfactory' in seat 0 of sequence-cats (seed 0) could not be made" \
            in " ".join(done.stderr.split())


@pytest.mark.parametrize(("given", "hint"), [
    ("./my_players.py", "(--import my_players)"), ("./my_players", "(--import my_players)"),
    ("bots/my_players.py", "(--import bots.my_players)"),
    ("../my_players.py", "(from the folder that holds my_players.py: --import my_players)"),
])
def test_import_of_a_files_path_suggests_a_module_name_that_imports(
        tmp_path: Path, given: str, hint: str) -> None:
    """``--import ./my_players.py`` suggested ``--import ..my_players``, which fails."""
    done = subprocess.run([sys.executable, "-m", "gametable.cli", "simulate", "triominos",
                           "--import", given], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert hint in " ".join(re.sub("[│╭╮╰╯─]", " ", done.stderr).split()), done.stderr


def test_a_bot_whose_action_the_rules_refuse_is_named_with_the_rule() -> None:
    with pytest.raises(BotFailed, match=r"bot 'cheater' in seat 1 .* \(seed 3\) chose an "
                       r"action the rules refuse: SC-TURN-2: ") as failed:
        play_bot_game("sequence-cats", {}, ["greedy", "cheater"], 3)
    # ``simulate --json`` and ``arena --json`` give it as their ``rule`` (it was null).
    assert failed.value.rule == "SC-TURN-2"


class Returns:
    """A player that returns what ``given`` makes of the legal actions."""

    name = "returns"

    def __init__(self, given: Any) -> None:
        self.given = given

    def choose(self, view: Observation, legal: Sequence[Action]) -> Any:
        return self.given(legal)


RETURNED = {"returns-index": (lambda legal: 0, "0 (int)"),
            "returns-none": (lambda legal: None, "None (NoneType)"),
            "returns-list": (lambda legal: [legal[0]], "[{'type': 'play', 'card': ")}


def returning(given: Any) -> Any:
    """A factory of :class:`Returns` players returning ``given(legal)``."""
    return lambda game, rng: Returns(given)


for _name, (_returned, _) in RETURNED.items():
    OUTSIDE_BOTS[_name] = returning(_returned)


@pytest.mark.parametrize("name", sorted(RETURNED))
def test_a_bot_that_returns_no_action_is_told_what_choose_returns(name: str) -> None:
    """A player returning the index of its choice (``0``) or ``None`` was refused with
    the rules' "That action is not well formed. Send an object with a "type" and the
    fields its game documents.", which did not say what it had returned."""
    shown = RETURNED[name][1]
    with pytest.raises(BotFailed) as failed:
        play_bot_game("sequence-cats", {}, [name, "greedy"], 0)
    message = str(failed.value)
    assert message.startswith(f"bot {name!r} in seat 0 of sequence-cats (seed 0) "
                              f"returned {shown}"), message
    assert message.endswith("not an action: choose returns one of the legal actions it "
                            "is given, a JSON object such as legal[0] (after 0 actions)")
    assert failed.value.rule == "PROTOCOL"


def test_a_clue_written_with_numpy_is_kept_as_the_string_it_is() -> None:
    """DX-ROUND-1: the rules took a ``numpy.str_`` clue as the string it is; the record
    then refused it ("holds a Python numpy.str_"), after the rules had applied it, and
    the run stopped with a bare error. The record keeps it as a plain string."""
    record, _ = play_bot_game("dixit", {"first_storyteller": "first_seat"},
                              ["numpy-clues", "random", "random"], seed=2)
    clues = [step.action["text"] for step in record.actions
             if step.action["type"] == "clue" and step.seat == 0]
    assert clues and all(type(clue) is str for clue in clues)
    assert set(clues) <= {"a dream", "the sea", "home"}
    json.dumps(record.model_dump())


def test_an_action_no_record_can_hold_names_its_bot() -> None:
    """A NumPy number in an action escaped ``play_bot_game`` as a bare ``IllegalAction``
    from the record, after the rules had applied the action."""
    with pytest.raises(BotFailed, match=r"bot 'numpy-numbers' in seat 0 .*numpy\.int64"):
        play_bot_game("triominos", {"rounds": 1}, ["numpy-numbers", "random"], 3)


def test_the_cli_imports_a_module_of_bots_and_names_a_failing_one(tmp_path: Path) -> None:
    (tmp_path / "my_players.py").write_text(
        "from gametable.bots import register_bot\n"
        "from gametable.bots.base import make_bot\n"
        "class First:\n"
        "    name = 'first'\n"
        "    def __init__(self, game, rng): pass\n"
        "    def choose(self, view, legal): return legal[0]\n"
        "class Fails:\n"
        "    name = 'fails'\n"
        "    def __init__(self, game, rng): pass\n"
        "    def choose(self, view, legal): return {'type': 'pass', 'extra': 1}\n"
        "class Sleeps:\n"
        "    name = 'sleeps'\n"
        "    def __init__(self, game, rng): pass\n"
        "    def choose(self, view, legal):\n"
        "        import time; time.sleep(600)\n"
        "register_bot('first', First)\n"
        "register_bot('fails', Fails)\n"
        "register_bot('sleeps', Sleeps)\n")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "gametable.cli", *args], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120, check=False)

    done = run("arena", "sequence-cats", "--bots", "first,random", "--games", "2",
               "--import", "my_players", "--jobs", "2", "--json")
    assert done.returncode == 0, done.stderr
    failed = run("simulate", "triominos", "--bots", "fails,greedy", "--games", "1",
                 "--import", "my_players")
    assert failed.returncode == 1
    assert "bot 'fails' in seat 0 of triominos (seed 0)" in failed.stderr
    said = json.loads(run("simulate", "triominos", "--bots", "fails,greedy", "--games", "1",
                          "--import", "my_players", "--json").stdout)
    assert said["rule"] == "PROTOCOL" and "bot 'fails' in seat 0" in said["error"]
    slow = run("simulate", "triominos", "--bots", "greedy,sleeps", "--games", "1",
               "--import", "my_players", "--decision-seconds", "0.5")
    assert slow.returncode == 1
    assert "bot 'sleeps' in seat 1 of triominos (seed 0) took longer than 0.5 s" in slow.stderr
    missing = run("arena", "triominos", "--bots", "first", "--import", "no_such_players")
    assert missing.returncode == 2 and "cannot import no_such_players" in missing.stderr
    # A file's name (as a shell completes it) gets the hint (Python's "No module named
    # 'my_players.py'" said nothing of the .py).
    named = run("simulate", "triominos", "--bots", "first,greedy", "--import", "my_players.py")
    assert named.returncode == 2 and "--import my_players)" in named.stderr
    # The server imports them too (docs/bots.md: their names work in its HTTP API).
    served = run("serve", "--data-dir", str(tmp_path / "data"), "--import", "no_such_players")
    assert served.returncode == 2 and "cannot import no_such_players" in served.stderr
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "gametable.cli", "serve", "--port", str(port), "--data-dir",
         str(tmp_path / "data"), "--import", "my_players"], cwd=tmp_path,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                games = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).json()
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.2)
        assert "first" in next(g for g in games["games"] if g["name"] == "triominos")["bots"]
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_register_bot_refuses_names_a_command_line_cannot_list_and_factories_it_cannot_call(
        ) -> None:
    """``register_bot("a,b", …)`` and ``register_bot("", …)`` were taken (``--bots a,b``
    then named two other bots), and ``register_bot("x", 42)`` failed only when the bot
    was made."""
    for name in ("", "a,b", "with space", "x" * 41):
        with pytest.raises(ValueError, match="is no bot name"):
            register_bot(name, lambda game, rng: None)  # type: ignore[arg-type,return-value]
    with pytest.raises(TypeError, match="must be callable"):
        register_bot("forty-two", 42)  # type: ignore[arg-type]
    assert "forty-two" not in bot_names()


class Literal:
    """Plays the first legal action as it is given: a Dixit clue's text stays "…"."""

    name = "literal"

    def __init__(self, game: Any, rng: random.Random) -> None:
        pass

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        return legal[0]


OUTSIDE_BOTS["literal"] = Literal


def test_a_clue_left_as_the_placeholder_is_warned_once_per_seat() -> None:
    """docs/bots.md: the rules take "…" as a clue (DX-ROUND-1: non-empty text), but a
    player that never filled it in made a whole study's clues "…" without a word."""
    with pytest.warns(PlaceholderLeft, match="'literal' in seat [02] played a 'clue' action"
                      ) as seen:
        record, _ = play_bot_game("dixit", {}, ["literal", "greedy", "literal"], 3)
    clues = [step.action["text"] for step in record.actions if step.action["type"] == "clue"]
    assert "…" in clues  # played as given: a warning, not a refusal
    placeholder = [str(w.message) for w in seen if w.category is PlaceholderLeft]
    assert len(placeholder) == 2
    assert "seat 0" in placeholder[0] and "seat 2" in placeholder[1]
    with warnings.catch_warnings():
        warnings.simplefilter("error", PlaceholderLeft)
        play_bot_game("dixit", {}, ["greedy", "random", "greedy"], 3)
        play_bot_game("sequence-cats", {}, ["literal", "greedy"], 3)


def test_the_docs_example_player_plays_every_game_with_its_clues_filled() -> None:
    """docs/bots.md's ``my_players.py``, run as it stands, in every game."""
    text = (Path(__file__).parents[2] / "docs" / "bots.md").read_text()
    code = next(block for block in re.findall(r"```python\n(.*?)```", text, re.S)
                if "class Cautious" in block)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # registered again on a second run
        exec(compile(code, "docs/bots.md", "exec"), {"__name__": "my_players"})
    with warnings.catch_warnings():
        warnings.simplefilter("error", PlaceholderLeft)
        for game, seats in [("dixit", 4), ("sequence-cats", 2), ("triominos", 2)]:
            _, outcome = play_bot_game(game, {"rounds": 1} if game == "triominos" else {},
                                       ["cautious"] + ["greedy"] * (seats - 1), 1)
            assert outcome.finished
        clues = [step.action["text"] for step in play_bot_game(
            "dixit", {}, ["cautious"] * 3, 2)[0].actions if step.action["type"] == "clue"]
    assert clues and "…" not in clues


def test_a_bot_that_falls_back_to_another_is_warned_before_the_run() -> None:
    """docs/bots.md: ``planner`` plays Dixit as ``greedy``; an arena of the two, run
    without a word, compared ``greedy`` with itself."""
    with pytest.warns(PlaysAsAnother, match=r"'planner' does not play dixit as itself"
                                            r".*those that play it: .*semantic") as seen:
        run_arena("dixit", ["planner", "greedy"], 1, players=4)
    assert len([w for w in seen if w.category is PlaysAsAnother]) == 1
    with pytest.warns(PlaysAsAnother, match="'semantic' does not play sequence-cats"):
        simulate("sequence-cats", ["semantic", "greedy"], 1, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PlaysAsAnother)
        run_arena("sequence-cats", ["planner", "greedy"], 1)
        simulate("dixit", ["semantic", "hard", "greedy"], 1, 0)


def test_every_way_of_seating_a_bot_that_plays_as_another_warns_once() -> None:
    """docs/bots.md: ``rollout`` plays a game it cannot roll out as ``search``. Made
    directly (``RolloutBot``), by ``make_bot`` or in ``play_bot_game`` it played as
    another player without a word, where ``simulate`` and the arena warned; each now
    warns ``PlaysAsAnother`` once, a run of several games too."""
    triominos = registry.get("triominos")
    cases: list[tuple[str, Callable[[], object]]] = [
        ("'rollout' does not play triominos as itself",
         lambda: RolloutBot(triominos, random.Random(0), seconds=None, deals=4)),
        ("'rollout' does not play dixit as itself", lambda: make_bot("rollout", "dixit", 0)),
        ("'planner' does not play dixit as itself",
         lambda: play_bot_game("dixit", {}, ["planner", "greedy", "planner"], 0)),
        ("'planner' does not play dixit as itself",
         lambda: simulate("dixit", ["planner", "greedy", "planner"], 2, 0)),
    ]
    for text, seat in cases:
        with pytest.warns(PlaysAsAnother, match=text) as seen:
            seat()
        assert len([w for w in seen if w.category is PlaysAsAnother]) == 1, text
    with warnings.catch_warnings():
        warnings.simplefilter("error", PlaysAsAnother)
        RolloutBot(registry.get("sequence-cats"), random.Random(0), seconds=None, deals=4)
        make_bot("rollout", "sequence-cats", 0)
        make_bot("hard", "triominos", 0)
        make_bot("hard", "dixit", 0)


@pytest.mark.parametrize(("made", "text"), [
    pytest.param(lambda: PlannerBot(registry.get("dixit"), random.Random(0)),
                 r"'planner' does not play dixit as itself.*those that play it: .*semantic",
                 id="planner-dixit"),
    pytest.param(lambda: SemanticBot(registry.get("triominos"), random.Random(0)),
                 r"'semantic' does not play triominos as itself.*those that play it: .*search",
                 id="semantic-triominos"),
    pytest.param(lambda: SearchBot(registry.get("dixit"), random.Random(0), seconds=None,
                                   iterations=4),
                 r"'search' does not play dixit as itself.*those that play it: .*semantic",
                 id="search-dixit"),
    pytest.param(lambda: RolloutBot(registry.get("dixit"), random.Random(0), seconds=None,
                                    deals=4),
                 r"'rollout' does not play dixit as itself.*those that play it: .*semantic",
                 id="rollout-dixit"),
])
def test_a_player_made_directly_for_a_game_it_does_not_play_warns_once(
        made: Callable[[], object], text: str) -> None:
    """docs/bots.md: ``PlannerBot`` (Dixit), ``SemanticBot`` (Sequence Cats, Triominos)
    and ``SearchBot`` (Dixit) made directly for a game they do not play played it as
    ``greedy`` without a word, where ``RolloutBot`` warned; each warns once, at the line
    that made it (``RolloutBot`` not again for the ``search`` it falls back to)."""
    with pytest.warns(PlaysAsAnother, match=text) as seen:
        made()
    said = [w for w in seen if w.category is PlaysAsAnother]
    assert len(said) == 1 and said[0].filename == __file__


def test_a_player_made_directly_for_a_game_it_plays_says_nothing() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", PlaysAsAnother)
        PlannerBot(registry.get("sequence-cats"), random.Random(0))
        PlannerBot(registry.get("triominos"), random.Random(0))
        SearchBot(registry.get("triominos"), random.Random(0), seconds=None, iterations=4)


class RollsOut:
    """An outside player built on ``RolloutBot``, registered without ``plays``."""

    name = "rolls-out"

    def __init__(self, game: Any, rng: random.Random) -> None:
        self.player = RolloutBot(game, rng, seconds=None, deals=4)

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        return self.player.choose(view, legal)


def test_an_outside_player_built_on_one_that_falls_back_is_warned_once_everywhere() -> None:
    """An outside player whose factory makes a ``RolloutBot`` warned only when made
    directly: ``make_bot``, ``play_bot_game``, ``simulate``, the arena and
    ``BotTableEnv`` made it within "warned already" and said nothing, so a run of it at
    Triominos measured ``search`` under its name. Each now warns once in the name it
    was seated by, at the caller's line."""
    register_bot("rolls-out", RollsOut)
    text = (r"'rolls-out' does not play triominos as itself but falls back to another "
            r"player: its 'rollout' does .*register_bot\('rolls-out', factory, plays=")
    cases: list[Callable[[], object]] = [
        lambda: make_bot("rolls-out", "triominos", 0),
        lambda: play_bot_game("triominos", {"rounds": 1}, ["rolls-out", "rolls-out"], 0),
        lambda: simulate("triominos", ["rolls-out", "greedy"], 2, 0, {"rounds": 1}),
        lambda: run_arena("triominos", ["rolls-out", "greedy"], 2, options={"rounds": 1}),
        lambda: BotTableEnv("triominos", "rolls-out").reset(seed=0),
    ]
    for seat in cases:
        with pytest.warns(PlaysAsAnother, match=text) as seen:
            seat()
        said = [w for w in seen if w.category is PlaysAsAnother]
        assert len(said) == 1 and said[0].filename == __file__, [str(w.message) for w in said]
    with warnings.catch_warnings():
        warnings.simplefilter("error", PlaysAsAnother)
        make_bot("rolls-out", "sequence-cats", 0)
        simulate("sequence-cats", ["rolls-out", "greedy"], 1, 0)
