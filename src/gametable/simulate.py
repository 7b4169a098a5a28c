"""Playing whole games between computer players, for the CLI, tests and benchmarks."""

from __future__ import annotations

import contextlib
import math
import operator
import random
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import Any, SupportsIndex

from gametable.bots import bot_names, make_bot
from gametable.bots.base import (
    BUILTIN_BOTS,
    Bot,
    UnknownBot,
    bot_factory,
    handed,
    seating_run,
    warn_plays_as_another,
)
from gametable.bots.base import PlayerWarning as PlayerWarning  # noqa: PLC0414 (exported)
from gametable.bots.base import PlaysAsAnother as PlaysAsAnother  # noqa: PLC0414 (exported)
from gametable.core import registry
from gametable.core.config import stored_options
from gametable.core.errors import GameError, json_action
from gametable.core.protocol import Action, CompletesActions, CountsRounds, Game, Outcome
from gametable.core.records import GameRecord, SeatInfo, new_record
from gametable.core.rng import check_seed

DEFAULT_MAX_ACTIONS = 100_000


def check_bot_names(bots: object) -> list[str]:
    """``bots`` as a list of bot names, one per seat.

    Raises:
        TypeError: ``bots`` is a string (``"greedy"``, whose letters would be taken for
            names) or not a sequence of strings.
    """
    if isinstance(bots, str) or not isinstance(bots, Sequence) \
            or not all(isinstance(name, str) for name in bots):
        raise TypeError(f"bots is a list of bot names, one per seat (such as "
                        f"['greedy', 'random']), not {bots!r}"[:200])
    return list(bots)


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for a game seeded ``seed``."""
    return (seed * 1_000_003 + seat * 7_919 + 1) % 2**63


def warn_fallbacks(game: Game[Any], bots: Sequence[str], *, probe: bool = False) -> None:
    """Warn :class:`PlaysAsAnother` once for each of ``bots`` (registered names) that
    does not play ``game`` as itself, unless the run it is part of warned already
    (:func:`gametable.bots.base.seating_run`; within
    :func:`gametable.bots.base.fallbacks_warned`, not at all). The bots of the run are
    then made within it, so that none warns again.

    A bot of another author registered without ``plays`` may still build on a player
    that falls back (a ``RolloutBot`` for Triominos): it warns as it is made. With
    ``probe`` such a bot is made once here and dropped, to hear it, for a run whose bots
    are made where no warning would reach its caller (the arena's worker processes) or
    only later (``BotTableEnv``'s ``reset``)."""
    with seating_run(sys._getframe(2)):
        playing = bot_names(game)
        for name in dict.fromkeys(bots):
            factory = bot_factory(name)
            if factory is None:
                continue
            if name not in playing:
                warn_plays_as_another(name, game)
            elif probe and getattr(factory, "__module__", None) not in BUILTIN_BOTS:
                with contextlib.suppress(Exception):  # the run says why it cannot be made
                    make_bot(name, game, 0)


class PlaceholderLeft(PlayerWarning):
    """A computer player played an action with its placeholder still in it (a Dixit clue
    whose text is still ``"…"``, the text legal actions carry): legal, but surely not
    what its author meant, and the game's data then says little. Warned once per bot and
    seat (Python's ``warnings``: ``warnings.simplefilter("error", PlaceholderLeft)``
    makes it an error)."""


def _warn_if_placeholder(game: Game[Any], state: Any, seat: int, bot: str,
                         offered: Sequence[Action], action: Action) -> bool:
    """Warn :class:`PlaceholderLeft` where ``action`` is one of the ``offered`` actions
    unchanged and the game (:class:`~gametable.core.protocol.CompletesActions`) would
    fill something in it; whether it warned."""
    if not isinstance(game, CompletesActions) or action not in offered:
        return False
    left = game.complete_action(game.view(state, seat), action, random.Random(0)) != action
    if left:
        warnings.warn(PlaceholderLeft(
            f"{bot!r} in seat {seat} played a {action.get('type', 'n')!r} action with "
            "its placeholder left as the legal actions give it: a player fills it in (call "
            "game.complete_action(view, action, rng) for words chosen for it)"),
            stacklevel=3)
    return left


class NotAnAction(Exception):
    """A bot's ``choose`` returned something other than an action (a JSON object): an
    index into the legal actions, ``None``, a list. Its ``rule`` is ``PROTOCOL``, as the
    rules' refusal of a malformed action."""

    rule = "PROTOCOL"

    def __init__(self, returned: object) -> None:
        shown = repr(returned)
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        super().__init__(f"returned {shown} ({type(returned).__name__}), not an action: "
                         "choose returns one of the legal actions it is given, a JSON "
                         "object such as legal[0]")


FACTORY_HINT = ("a factory is called as factory(game, rng) and returns a bot, an object "
                "with choose(view, legal)")
"""What a bot's factory is, said where one failed as no factory could."""


class NotABot(Exception):
    """A bot's factory returned something without a ``choose`` method (a choose
    function registered as the factory, say)."""

    def __init__(self, made: object) -> None:
        shown = repr(made)
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        super().__init__(f"returned {shown} ({type(made).__name__}), not a bot: "
                         f"{FACTORY_HINT}")


class BotFailed(RuntimeError):
    """A computer player could not be made (its factory raised), raised, or chose an
    action the rules refused, in :func:`play_bot_game`. The message names the bot, its
    seat (numbered from 0, as on the command line and in records), the game and its
    seed, and the action number, so the game can be replayed (``gametable simulate GAME
    --bots … --seed SEED --games 1``).

    Attributes:
        bot: the bot's name. seat: its seat (from 0). seed: the game's seed.
        action: how many actions had been applied before its choice.
        rule: the rule ID the rules refused its action by (``SC-TURN-2``), else ``None``.
    """

    def __init__(self, message: str, bot: str, seat: int, seed: int, action: int,
                 rule: str | None = None) -> None:
        super().__init__(message, bot, seat, seed, action, rule)  # all of it, to pickle
        self.message, self.bot, self.seat, self.seed, self.action, self.rule = (
            message, bot, seat, seed, action, rule)

    def __str__(self) -> str:
        return self.message

    @classmethod
    def of(cls, bot: str, seat: int, game: str, seed: int, action: int,
           cause: BaseException, *, refused: bool = False, making: bool = False
           ) -> BotFailed:
        """The failure of ``bot`` in ``seat``: ``cause`` raised by it (or a
        :class:`DecisionTimeout`), ``refused``, by the rules on its action, or, ``making``,
        by its factory as the bot was made for the game."""
        what = (str(cause) if isinstance(cause, (NotAnAction, NotABot))
                else f"chose an action the rules refuse: {cause}" if refused
                else str(cause) if isinstance(cause, DecisionTimeout)
                else f"raised {type(cause).__name__}: {cause}")
        if making:
            if isinstance(cause, TypeError):  # called with arguments it does not take
                what += f" ({FACTORY_HINT})"
            return cls(f"bot {bot!r} in seat {seat} of {game} (seed {seed}) could not be "
                       f"made: its factory {what}", bot, seat, seed, action)
        rule = getattr(cause, "rule", None) if refused else None
        return cls(f"bot {bot!r} in seat {seat} of {game} (seed {seed}) {what} "
                   f"(after {action} action{'' if action == 1 else 's'})", bot, seat, seed,
                   action, rule if isinstance(rule, str) else None)


def check_limits(max_actions: object, decision_seconds: object) -> tuple[int, float | None]:
    """``max_actions`` as an ``int`` and ``decision_seconds`` as a ``float`` or ``None``,
    checked before any game is played.

    Raises:
        ValueError: ``max_actions`` is not a whole number from 1 (Python's or NumPy's
            integers are taken; ``bool`` and ``float`` are not); ``decision_seconds`` is
            neither ``None`` nor a finite number of seconds from 0 (0: no limit).
    """
    if isinstance(max_actions, bool) or not hasattr(max_actions, "__index__") \
            or operator.index(max_actions) < 1:
        raise ValueError(f"max_actions must be a whole number from 1, not {max_actions!r}"[:200])
    seconds: float | None = None
    if decision_seconds is not None:
        try:
            seconds = float(decision_seconds)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            seconds = math.nan
        if isinstance(decision_seconds, (bool, str, bytes)) or not math.isfinite(seconds) \
                or seconds < 0:
            raise ValueError("decision_seconds must be None or a number of seconds from 0 "
                             f"(0: no limit), not {decision_seconds!r}"[:200])
    return operator.index(max_actions), seconds


class DecisionTimeout(TimeoutError):
    """A computer player took longer than its limit over one decision."""


@contextmanager
def decision_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`DecisionTimeout` inside the code running in this block once
    ``seconds`` of wall time have passed (``None`` or 0: no limit).

    It uses ``SIGALRM``, so it limits only where that exists (Linux, macOS) and in a
    process's main thread (a ``simulate``/``arena`` run and its worker processes are
    such); elsewhere the block runs unlimited. Code inside a single long call into C
    (a NumPy operation) is stopped when that call returns.
    """
    usable = (seconds and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return
    assert seconds is not None

    def expire(_signal: int, _frame: FrameType | None) -> None:
        raise DecisionTimeout(f"took longer than {seconds:g} s to decide")

    previous = signal.signal(signal.SIGALRM, expire)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class Thinking:
    """One seat's decisions in a game: how many and how long (seconds of wall time)."""

    decisions: int = 0
    seconds: float = 0.0
    longest: float = 0.0

    def add(self, seconds: float) -> None:
        """Count one decision of ``seconds``."""
        self.decisions += 1
        self.seconds += seconds
        self.longest = max(self.longest, seconds)


def play_bot_game(
    game_name: str | Game[Any],
    options: Mapping[str, Any] | None,
    bots: Sequence[str],
    seed: SupportsIndex,
    *,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    thinking: list[Thinking] | None = None,
    decision_seconds: float | None = None,
) -> tuple[GameRecord, Outcome]:
    """Play one game with ``bots[i]`` in seat ``i``; return its record and outcome.
    ``game_name`` is a registered game's name, or the game (``registry.get(name)``).

    Seats with simultaneous decisions all choose from the same moment's views, then
    their actions are applied in seat order (a seat whose choices an earlier action of
    the batch changed chooses again). The game stops unfinished after
    ``max_actions`` actions. Each bot gets its seat's view and the legal actions, copies
    of both unless it is one of the package's own players, which only read them
    (:func:`gametable.bots.base.handed`): what it does with them changes nothing else.
    With ``thinking`` (one :class:`Thinking` per seat), each
    decision's time is added to its seat's. With ``decision_seconds``, a bot still
    deciding after that many seconds fails the game (:func:`decision_limit`).

    Raises:
        TypeError: ``bots`` is not a list of names (a string such as ``"greedy"``), or
            the seed and the options are given the other way round.
        ConfigError: unknown game, invalid options or seat count.
        ValueError: ``seed`` is not a whole number from 0 to 2**63 − 1 (a NumPy integer
            is taken as the number it holds), or ``max_actions`` or
            ``decision_seconds`` is out of range (:func:`check_limits`).
        KeyError: an unknown bot name.
        BotFailed: a bot's factory raised as it was made, or a bot raised, took longer
            than ``decision_seconds``, or chose an action the rules refuse.

    Warns:
        PlaysAsAnother: a bot that does not play the game as itself but falls back to
            another player (before playing; :func:`warn_fallbacks`; not again for each
            game of :func:`simulate` or the arena).
        PlaceholderLeft: a bot played a Dixit clue with the legal actions' placeholder
            text ``"…"`` unchanged (once per seat and game).
    """
    bots = check_bot_names(bots)
    if isinstance(seed, Mapping) and not isinstance(options, Mapping | None):
        raise TypeError("play_bot_game(game, options, bots, seed): the options come "
                        f"second and the seed last, not options {options!r} and seed "
                        f"{seed!r}"[:300])
    seed = check_seed(seed)  # a NumPy integer as a Python one (bots' seeds, the record)
    max_actions, decision_seconds = check_limits(max_actions, decision_seconds)
    game_name = registry.name_of(game_name)
    game = registry.get(game_name)
    config = game.make_config(options, len(bots))
    state = game.new_game(config, len(bots), seed)
    with seating_run(sys._getframe(1)):  # each bot warned of once, however many seats
        warn_fallbacks(game, bots)
        players = [_made(name, game, game_name, seat, seed)
                   for seat, name in enumerate(bots)]
    record = new_record(game_name, stored_options(config),
                        [SeatInfo(name=f"{name[:36]} {seat + 1}", bot=name)
                         for seat, name in enumerate(bots)], seed)
    actions = 0
    warned: set[int] = set()  # seats warned of a placeholder left (once a game)
    while actions < max_actions:
        seats = sorted(game.to_act(state))
        if not seats:
            break
        offered = {seat: game.legal_actions(state, seat) for seat in seats}
        choices = []
        for seat in seats:
            # A player of another author may change what it is given: copies for it.
            view, legal = handed(players[seat], game.view(state, seat), offered[seat])
            started = time.perf_counter()
            try:
                with decision_limit(decision_seconds):
                    action = players[seat].choose(view, legal)
            except Exception as error:
                raise BotFailed.of(bots[seat], seat, game_name, seed, actions,
                                   error) from error
            if thinking is not None:
                thinking[seat].add(time.perf_counter() - started)
            if seat not in warned and _warn_if_placeholder(
                    game, state, seat, bots[seat], offered[seat], action):
                warned.add(seat)
            choices.append((seat, action))
        for number, (seat, chosen) in enumerate(choices):
            # An earlier action of this batch may have changed what this seat can do
            # (a Team Dixit teammate named the giver): then it decides again next loop.
            if number and game.legal_actions(state, seat) != offered[seat]:
                continue
            if not isinstance(chosen, Mapping):
                raise BotFailed.of(bots[seat], seat, game_name, seed, actions,
                                   NotAnAction(chosen), refused=True)
            try:
                # (Refused before the rules apply it, as the record would refuse it.)
                action = json_action(chosen)
                game.apply(state, seat, action)
            except GameError as error:
                raise BotFailed.of(bots[seat], seat, game_name, seed, actions, error,
                                   refused=True) from error
            record.append(seat, action)
            actions += 1
    return record, game.outcome(state)


def _made(name: str, game: Game[Any], game_name: str, seat: int, seed: int) -> Bot:
    """The bot ``name`` for ``seat`` of the game seeded ``seed``.

    Raises:
        UnknownBot: no bot has that name.
        BotFailed: its factory raised (the message names the bot, its seat and the error).
    """
    try:
        bot = make_bot(name, game, bot_seed(seed, seat))
    except UnknownBot:
        raise
    except Exception as error:
        raise BotFailed.of(name, seat, game_name, seed, 0, error, making=True) from error
    if not callable(getattr(bot, "choose", None)):
        raise BotFailed.of(name, seat, game_name, seed, 0, NotABot(bot), making=True)
    return bot


@dataclass
class Summary:
    """Aggregated results of :func:`simulate` (the CLI's ``--json`` object,
    :meth:`to_json`, which gives the means and rates).

    Attributes:
        game: the game's registry name.
        games, players, seed: games played, seats a game, the first game's seed
            (game ``i`` is seeded ``seed + i``).
        bots: the bot of each seat, seat 0 first.
        config: the options as a record stores them (those that differ from the
            defaults, and ``rules_version``).
        wins: games won per seat, keyed ``"<seat>:<bot>"`` (``"0:greedy"``); a team's
            win counts for every teammate, a shared win for each winner.
        draws, unfinished: games drawn; games still running after ``max_actions``.
        total_turns, total_rounds, total_actions: summed over the games (turns as
            the game counts them; rounds of games played in rounds).
        seconds: the run's wall time.
        records: every game's record, seed order, with ``keep_records`` (else empty).
    """

    game: str
    games: int
    players: int
    seed: int
    bots: list[str]
    config: dict[str, Any]
    wins: dict[str, int]
    draws: int = 0
    unfinished: int = 0
    total_turns: int = 0
    total_rounds: int = 0
    counts_rounds: bool = False
    """Whether the game is played in rounds (:class:`CountsRounds`): ``mean_rounds``
    is then given, 0.0 where no round ended (a run cut short by ``max_actions``)."""
    total_actions: int = 0
    longest: dict[str, int] | None = None
    """The game with the most actions: ``{"seed", "actions", "turns"}``."""
    seconds: float = 0.0
    records: list[GameRecord] = field(default_factory=list, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The summary as the CLI prints it with ``--json`` (``mean_rounds`` for every
        game played in rounds, :class:`CountsRounds`, also 0.0 when no round ended;
        never for others)."""
        played = max(self.games, 1)
        result: dict[str, Any] = {
            "game": self.game,
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "bots": self.bots,
            "config": self.config,
            "wins": self.wins,
            "draws": self.draws,
            "unfinished": self.unfinished,
            "mean_turns": self.total_turns / played,
            "mean_actions": self.total_actions / played,
            "longest_game": self.longest,
            "seconds": round(self.seconds, 6),
            "games_per_second": self.games / self.seconds if self.seconds else 0.0,
            "actions_per_second": self.total_actions / self.seconds if self.seconds else 0.0,
        }
        if self.counts_rounds or self.total_rounds:
            result["mean_rounds"] = self.total_rounds / played
        return result


def simulate(
    game_name: str | Game[Any],
    bots: Sequence[str],
    games: SupportsIndex,
    seed: SupportsIndex,
    options: Mapping[str, Any] | None = None,
    *,
    progress: Callable[[int], None] | None = None,
    keep_records: bool = False,
    on_record: Callable[[GameRecord], None] | None = None,
    decision_seconds: float | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
) -> Summary:
    """Play ``games`` games; game ``i`` is seeded ``seed + i`` (``game_name``,
    ``decision_seconds`` and ``max_actions``, after which a game counts as unfinished:
    as in :func:`play_bot_game`). ``keep_records`` keeps every
    game's record in ``Summary.records``; ``on_record`` is given each record as its game
    ends (to write it out without holding them all).

    ``wins`` counts, for each seat labelled ``"<seat>:<bot>"``, the games it won (a
    team's win counts for every teammate). ``longest`` is the game with the most
    actions (the first of equals): its seed, actions and turns.

    Raises:
        TypeError: ``bots`` is not a list of names (a string such as ``"greedy"``), or
            options stand where the seed goes (``play_bot_game``'s order, options
            second, is not this one's).
        ConfigError: unknown game, invalid options or seat count (``len(bots)``).
        ValueError: ``games`` is not a whole number from 1, ``max_actions`` or
            ``decision_seconds`` is out of range (:func:`check_limits`), or a game's seed
            (``seed + i``) would fall outside ``0 … 2**63 - 1`` (before any game is
            played, as ``gametable simulate`` refuses them).
        KeyError: an unknown bot name (:class:`gametable.bots.base.UnknownBot`).
        BotFailed: a bot could not be made, raised, took longer than
            ``decision_seconds`` or chose an action the rules refuse; the run stops
            there (the message names the bot, its seat, the seed and the action number).

    Warns:
        PlaysAsAnother: a bot that does not play the game as itself (before playing).
        PlaceholderLeft: as :func:`play_bot_game`.
    """
    bots = check_bot_names(bots)
    if isinstance(seed, Mapping):
        raise TypeError("simulate(game, bots, games, seed, options=None): the seed comes "
                        "before the options (unlike play_bot_game's); give them by name, "
                        f"options={seed!r}"[:300])
    seed = check_seed(seed)
    if isinstance(games, bool) or not hasattr(games, "__index__") or operator.index(games) < 1:
        raise ValueError(f"games must be a whole number from 1, not {games!r}"[:200])
    games = operator.index(games)
    max_actions, decision_seconds = check_limits(max_actions, decision_seconds)
    if games > 1:
        try:
            check_seed(seed + games - 1)
        except ValueError:
            raise ValueError(
                f"the games would be seeded {seed}–{seed + games - 1}; a seed is at most "
                "2**63 - 1: start from a lower seed or play fewer games") from None
    labels = [f"{seat}:{name}" for seat, name in enumerate(bots)]
    game_name = registry.name_of(game_name)
    game = registry.get(game_name)
    config = game.make_config(options, len(bots))
    with seating_run(sys._getframe(1)) as run:
        warn_fallbacks(game, bots)
    summary = Summary(game=game_name, games=games, players=len(bots), seed=seed,
                      bots=list(bots), config=stored_options(config),
                      wins=dict.fromkeys(labels, 0),
                      counts_rounds=isinstance(game, CountsRounds) and game.counts_rounds)
    start = time.perf_counter()
    for i in range(games):
        with seating_run(run):  # warned once above, or in the first game, not each game
            record, outcome = play_bot_game(game_name, summary.config, bots, seed + i,
                                            max_actions=max_actions,
                                            decision_seconds=decision_seconds)
        if not outcome.finished:
            summary.unfinished += 1
        elif outcome.draw:
            summary.draws += 1
        for seat in outcome.winners:
            summary.wins[labels[seat]] += 1
        summary.total_turns += outcome.turns
        summary.total_rounds += len(outcome.rounds)
        summary.total_actions += len(record.actions)
        if summary.longest is None or len(record.actions) > summary.longest["actions"]:
            summary.longest = {"seed": seed + i, "actions": len(record.actions),
                               "turns": outcome.turns}
        if keep_records:
            summary.records.append(record)
        if on_record is not None:
            on_record(record)
        if progress is not None:
            progress(i + 1)
    summary.seconds = time.perf_counter() - start
    return summary
