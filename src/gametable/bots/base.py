"""The computer-player interface.

A bot sees exactly what a player sees: the seat's ``view`` and its legal actions. It
never receives a state. Bots are made by name (:func:`make_bot`) so that a table, the
CLI and the simulations can seat any of them in any game.
"""

from __future__ import annotations

import importlib
import random
import re
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import FrameType
from typing import Any, Final, Protocol

from gametable.core import registry
from gametable.core.actions import copy_actions
from gametable.core.i18n import DEFAULT_LANGUAGE, lookup, translate
from gametable.core.protocol import Action, Game, Observation
from gametable.core.rng import check_seed
from gametable.core.values import json_copy


class Bot(Protocol):
    """A computer player for one seat (docs/bots.md, "Your own computer player").

    Made by a factory ``factory(game, rng) -> Bot`` (:func:`register_bot`), one for each
    seat of a game; ``name`` is what the arena and the records call it. It is shown only
    ``view(state, seat)``, never the state. Unless its class says ``reads_only = True``
    (:func:`reads_only`), it is given deep copies of the view and the legal actions, so
    that changing them harms nothing. A Dixit clue among ``legal`` holds the placeholder
    text ``"…"``: fill it in, or call ``game.complete_action(view, action, rng)``.
    """

    name: str

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` (never empty) knowing only ``view``.

        Returns:
            one of ``legal`` (or, for a Dixit clue, one with its text filled in). An
            action the rules refuse stops ``simulate`` and the arena with ``BotFailed``;
            at a server's table the seat plays the ``greedy`` player's choice instead.
        """
        ...


def reads_only(bot: Bot) -> bool:
    """Whether ``bot`` never changes the view or the list of legal actions it is given
    (its class says so: ``reads_only = True``; a level's player through the player it
    seats). Every bot of this package does; a bot of any other author is not taken to.
    """
    return getattr(bot, "reads_only", False) is True


def handed(bot: Bot, view: Observation, legal: Sequence[Action]
           ) -> tuple[Observation, list[Action]]:
    """What ``bot`` chooses from: ``view`` and a new list of ``legal`` (the same action
    objects) for a player that reads only (:func:`reads_only`), else deep copies of both,
    so that a player that changes what it is given changes nothing of the game's. The
    copies cost more than many a decision (a Triominos view: about 0.23 ms against a
    random player's microseconds), which is why the package's own players go without.

    Returns:
        ``(view, legal)`` to pass to ``bot.choose``.
    """
    if reads_only(bot):
        return view, list(legal)
    return json_copy(view), copy_actions(legal)


def thinking_budget(bot: Bot) -> float:
    """Seconds ``bot`` may think about one decision at most: the ``seconds`` of a player
    with a time budget (``search``, ``rollout``; through a level's player), 0 for one
    without (it answers in milliseconds, or stops after a fixed amount of work).

    A table waits at least this long before the move (:func:`gametable.bots.pace.think_time`),
    so that the moment of a move does not tell how much the hidden hand left to think
    about.
    """
    seconds = getattr(bot, "seconds", None)
    if seconds is None and hasattr(bot, "player"):
        return thinking_budget(bot.player)
    return float(seconds) if isinstance(seconds, (int, float)) and seconds > 0 else 0.0


LEVELS: Final = ("easy", "medium", "hard")
"""The level names (:mod:`gametable.bots.levels`), weakest first."""

BotFactory = Callable[[Game[Any], random.Random], Bot]
PlaysGame = Callable[[Game[Any]], bool]
_FACTORIES: dict[str, BotFactory] = {}
_PLAYS: dict[str, PlaysGame] = {}


class PlayerWarning(UserWarning):
    """Something about a run's computer players its author likely did not mean (the
    command line prints these as one line each, ``warning: …``)."""


class PlaysAsAnother(PlayerWarning):
    """A bot does not play the game as itself: it falls back to another player
    (``planner`` plays Dixit as ``greedy``, ``semantic`` plays Sequence Cats as
    ``greedy``, ``rollout`` plays a game without ``HasRollouts`` as ``search``;
    docs/bots.md), so a run comparing it with that player compares a player with itself.
    :func:`bot_names` lists those that play a game. Every way of seating one warns it
    once: :func:`make_bot`, a player made directly (``PlannerBot``, ``SemanticBot``,
    ``SearchBot``, ``RolloutBot``), and once a run ``play_bot_game``, ``simulate``, the
    arena and ``BotTableEnv``; a bot of another author built on such a player, in its
    own name (:func:`warn_plays_as_another`)."""


@dataclass
class _Run:
    """What one way of seating bots (:func:`make_bot`, ``play_bot_game``, a whole
    ``simulate`` or arena run) has warned of, so that it warns each bot once."""

    caller: FrameType | None
    """The frame that called the entry point: a warning points at its line."""
    warned: set[str] = field(default_factory=set)
    """The seated names warned of :class:`PlaysAsAnother` so far."""
    everything: bool = False
    """Within :func:`fallbacks_warned`: nothing warns again."""
    seating: str | None = None
    """The registered name of the bot being made, which a player it builds on (a
    ``RolloutBot`` inside an outside bot) warns in the name of."""


_RUN: ContextVar[_Run | None] = ContextVar("bot_run", default=None)


@contextmanager
def fallbacks_warned() -> Iterator[None]:
    """Within it, bots made (:func:`make_bot`, a bot's constructor) do not warn
    :class:`PlaysAsAnother`: the run that makes them has warned once already."""
    token = _RUN.set(_Run(caller=None, everything=True))
    try:
        yield
    finally:
        _RUN.reset(token)


@contextmanager
def seating_run(caller: FrameType | _Run | None) -> Iterator[_Run]:
    """One way of seating bots (``make_bot``, ``play_bot_game``, ``simulate``): within
    it, :class:`PlaysAsAnother` is warned once for each bot seated, however many seats,
    games or nested players make it, pointing at ``caller``'s line (``caller`` may also
    be a run begun before, entered again). Within a run already under way it is that
    run."""
    run = _RUN.get()
    if run is not None:
        yield run
        return
    run = caller if isinstance(caller, _Run) else _Run(caller=caller)
    token = _RUN.set(run)
    try:
        yield run
    finally:
        _RUN.reset(token)


@contextmanager
def _seating(run: _Run, name: str) -> Iterator[None]:
    """Making the bot registered as ``name`` (the outermost name, where one bot's
    factory makes another)."""
    if run.seating is not None:
        yield
        return
    run.seating = name
    try:
        yield
    finally:
        run.seating = None


def plays_as_itself(name: str, game: Game[Any]) -> bool:
    """Whether the bot registered as ``name`` plays ``game`` as itself (a name
    registered without ``plays`` does; :func:`register_bot`)."""
    _load_builtin_bots()
    plays = _PLAYS.get(name)
    return plays is None or bool(plays(game))


def warn_plays_as_another(name: str, game: Game[Any], *, stacklevel: int = 1) -> None:
    """Warn :class:`PlaysAsAnother` that the bot ``name`` does not play ``game`` as
    itself. ``stacklevel`` is the one the caller would give ``warnings.warn`` (1: the
    caller's own line).

    Within a run (:func:`seating_run`) it warns once for each bot seated, in the name
    it was seated by: a bot registered as ``"mine"`` whose factory makes a
    ``RolloutBot`` for Triominos is warned of as ``'mine'`` (its ``'rollout'``), at the
    line that called the run; within :func:`fallbacks_warned`, not at all.
    """
    run = _RUN.get()
    seated = name
    if run is not None:
        seated = run.seating or name
        if run.everything or seated in run.warned:
            return
        run.warned.add(seated)
    playing = [other for other in bot_names(game) if other != seated]
    text = f"{seated!r} does not play {game.name} as itself but falls back to another player"
    if seated == name:
        text += f" (docs/bots.md); those that play it: {', '.join(playing)}"
    else:
        text += (f": its {name!r} does (docs/bots.md); those that play it: "
                 f"{', '.join(playing)} (register_bot({seated!r}, factory, plays=…) "
                 "says which games it plays)")
    level = stacklevel + 1
    if run is not None and run.caller is not None:
        level = _frames_to(run.caller) or level
    warnings.warn(PlaysAsAnother(text), stacklevel=level)


def _frames_to(caller: FrameType) -> int | None:
    """The ``stacklevel`` that points :func:`warn_plays_as_another`'s warning at
    ``caller``, or ``None`` when it is not on the stack."""
    frame: FrameType | None = sys._getframe(2)  # warn_plays_as_another's caller
    level = 2
    while frame is not None:
        if frame is caller:
            return level
        frame = frame.f_back
        level += 1
    return None


BOT_NAME: Final = re.compile(r"[A-Za-z0-9._-]{1,40}")
"""What a bot's name may be (:func:`register_bot`)."""


def register_bot(name: str, factory: BotFactory, plays: PlaysGame | None = None) -> None:
    """Make ``name`` available to :func:`make_bot`.

    Args:
        name: 1–40 letters, digits, ``-``, ``_`` or ``.``.
        factory: ``factory(game, rng) -> Bot``: a new player for one seat, given the
            game (``gametable.core.protocol.Game``) and a ``random.Random`` seeded for
            that seat, from which it should draw every random choice (a game's seed
            then replays it).
        plays: whether the bot plays a game as itself (``None``: every game). A bot that
            only falls back to another one for a game (``semantic`` plays ``greedy``
            where the game has no strategy player) is still seated by :func:`make_bot`,
            but :func:`bot_names` leaves it out of that game's list.

    A name already registered (a built-in's such as ``greedy`` too) is taken over, with
    a ``UserWarning`` that says so.

    Raises:
        ValueError: ``name`` is not one to list on a command line (``--bots a,b``) or in
            an address: it must be 1–40 letters, digits, ``-``, ``_`` or ``.``.
        TypeError: ``factory`` (or ``plays``) cannot be called.
    """
    if not isinstance(name, str) or not BOT_NAME.fullmatch(name):
        raise ValueError(f"register_bot: {name!r} is no bot name: use 1–40 letters, digits, "
                         "'-', '_' or '.' (names are listed with commas: --bots a,b)")
    if not callable(factory):
        raise TypeError(f"register_bot: the factory of {name!r} must be callable as "
                        f"factory(game, rng), not {factory!r}"[:200])
    if plays is not None and not callable(plays):
        raise TypeError(f"register_bot: plays for {name!r} must be callable as plays(game)")
    if getattr(factory, "__module__", None) not in BUILTIN_BOTS:
        _load_builtin_bots()  # so that a built-in loaded later cannot take the name back
    before = _FACTORIES.get(name)
    if before is not None and before is not factory:
        warnings.warn(f"register_bot: {name!r} now names {getattr(factory, '__name__', factory)}"
                      f", not {getattr(before, '__name__', before)} as before", stacklevel=2)
    _FACTORIES[name] = factory
    if plays is None:
        _PLAYS.pop(name, None)
    else:
        _PLAYS[name] = plays


def bot_factory(name: str) -> BotFactory | None:
    """The factory registered as ``name``, or ``None``."""
    _load_builtin_bots()
    return _FACTORIES.get(name)


def bot_names(game: Game[Any] | str | None = None) -> list[str]:
    """The bot names that can be seated: the levels (weakest first), then the others
    sorted.

    Args:
        game: only the bots that play this game (a game, or its registered name such as
            ``"triominos"``) as themselves, not by falling back to another bot (the lobby
            offers these); ``None``: every registered bot.

    Raises:
        ConfigError: ``game`` is a name no game is registered under.
    """
    if isinstance(game, str):
        game = registry.get(game)
    _load_builtin_bots()
    names = [name for name in _FACTORIES
             if game is None or name not in _PLAYS or _PLAYS[name](game)]
    levels = [name for name in LEVELS if name in names]
    return levels + sorted(name for name in names if name not in LEVELS)


def make_bot(name: str, game: Game[Any] | str, seed: int) -> Bot:
    """A bot called ``name`` for ``game`` (a game, or its registered name such as
    ``"sequence-cats"``), drawing its own randomness from ``seed``.

    The same ``seed`` gives the same choices on the same views, except for players that
    think for a time (``search``, ``rollout`` and the ``hard`` level where it seats
    them: 0.5 s of the clock a move), whose choices follow how much they got through in
    that time, so the machine's speed and what runs beside them. For reproducible runs
    with those, make them with a fixed amount of work (``SearchBot(game, rng,
    seconds=None, iterations=…)``, ``RolloutBot(game, rng, seconds=None, deals=…)``).

    Warns:
        PlaysAsAnother: the bot does not play ``game`` as itself but falls back to
            another player (``make_bot("rollout", "dixit")`` plays as ``search``, which
            plays Dixit as ``greedy``), or its factory makes one that does (a player of
            another author built on ``RolloutBot``, at Triominos); once for each bot
            made.

    Raises:
        UnknownBot: no bot has that name (the message lists the available ones); a
            ``KeyError`` and a ``ValueError``.
        ValueError: ``seed`` is not a whole number from 0 to 2**63 − 1, a game's seeds
            (:func:`gametable.core.rng.check_seed`; ``-1`` and ``None`` are refused).
        ConfigError: ``game`` is a name no game is registered under.
        TypeError: ``game`` is neither a game nor a name (a bot given anything else
            played at random, as for a game it does not know).
    """
    seed = check_seed(seed)
    if isinstance(game, str):
        game = registry.get(game)
    elif game is None or isinstance(game, (int, float, bytes, list, tuple, dict)):
        raise TypeError(f"game is a game (such as gametable.core.registry.get('triominos')) "
                        f"or its registered name, not {game!r:.60}")
    _load_builtin_bots()
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise UnknownBot(name) from None
    with seating_run(sys._getframe(1)) as run:
        if not plays_as_itself(name, game):
            warn_plays_as_another(name, game)
        with _seating(run, name):  # a player its factory makes warns as this one, once
            return factory(game, random.Random(seed))


class UnknownBot(KeyError, ValueError):
    """No computer player has this name. Both a ``KeyError`` (a name looked up) and a
    ``ValueError`` (a bad argument), so either ``except`` catches it; its text is the
    message alone ("no bot called 'x'; choose one of …"), without a KeyError's quotes."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name

    def __str__(self) -> str:
        text = f"no bot called {self.name!r}; choose one of {', '.join(bot_names())}"
        if "," in self.name:
            # The command line's --bots habit: "greedy,random" is one name here.
            names = [part.strip() for part in self.name.split(",")]
            text += f" (several bots are a list of names, such as {names!r}, not one text)"
        return text


BUILTIN_BOTS = ("gametable.bots.random_bot", "gametable.bots.greedy",
                "gametable.bots.semantic", "gametable.bots.planner", "gametable.bots.search",
                "gametable.bots.rollout",
                "gametable.bots.levels")


def _load_builtin_bots() -> None:
    # Imported on first use: each bot module registers itself and imports this one.
    for module in BUILTIN_BOTS:
        importlib.import_module(module)


def seat_name(seat: int, name: str | None, bot: str | None,
              language: str = DEFAULT_LANGUAGE, level: str | None = None) -> str:
    """What the table's pages call ``seat`` (0-based) in ``language``, as the client's
    ``seatName`` does: its ``name`` when it has one; for a nameless computer player
    "Computer 1 · Easy" at a level (easy, medium, hard), else its bot's name and the
    seat's number, "Greedy 1", with the ``level`` that is the same player where there is
    one (:func:`gametable.bots.levels.level_of`): "Simulator 1 · Hard"; "Player 1" for a
    nameless person (``bot`` ``None``). A level that took a person's seat over plays
    under their name, "Dag (computer: Medium)"."""
    number = seat + 1
    if bot is not None and bot in LEVELS:
        level = translate(f"bots.{bot}", language)
        if name:
            return translate("ui.seat.taken_over_name", language, name=name, level=level)
        return translate("ui.seat.level_name", language, level=level, seat=number)
    if name:
        return name
    if bot is not None and level in LEVELS:
        return translate("ui.seat.twin_name", language, seat=number,
                         bot=lookup(f"bots.{bot}", language) or bot,
                         level=translate(f"bots.{level}", language))
    if bot is not None:
        return translate("ui.seat.bot_name", language, seat=number,
                         bot=lookup(f"bots.{bot}", language) or bot)
    return translate("ui.seat.default_name", language, seat=number)

