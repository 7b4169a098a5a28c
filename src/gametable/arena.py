"""The arena: computer players against one another, with seats rotated, rated.

:func:`run_arena` plays every *lineup* of the given bots (:func:`lineups`) the same number
of times in every rotation of the seats, so that no bot gains from sitting first. It
reports, per bot: games, wins, draws, the win rate with its 95 % Wilson interval, the mean
score, and a rating from OpenSkill's Plackett–Luce model (Weng & Lin, *A Bayesian
Approximation Method for Online Ranking*, JMLR 12, 2011), updated game by game in the
order the games were seeded; for two-seat games also each pairing's head-to-head record.

Games are played through :func:`gametable.simulate.play_bot_game` (bots see views only),
optionally in several processes; the figures do not depend on how many (except with
players that think for a time, ``search``, ``rollout`` and ``hard`` where it seats them,
whose choices follow the machine's speed: :func:`gametable.bots.base.make_bot`).
"""

from __future__ import annotations

import importlib
import math
import operator
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, SupportsIndex

from openskill.models import PlackettLuce

from gametable.bots.base import fallbacks_warned
from gametable.core import registry
from gametable.core.config import stored_options
from gametable.core.protocol import Game, seat_teams
from gametable.core.rng import SEEDS, check_seed
from gametable.simulate import (
    DEFAULT_MAX_ACTIONS,
    PlayerWarning,
    Thinking,
    check_bot_names,
    check_limits,
    play_bot_game,
    warn_fallbacks,
)

Z95 = 1.959963984540054
"""The 97.5th percentile of the standard normal distribution."""


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (default: 95 %).

    Args:
        successes: successes (may be fractional: a draw counted as half a win).
        trials: trials (``0`` gives ``(0.0, 1.0)``).

    Returns:
        ``(low, high)``, both within ``[0, 1]``.
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - margin), min(1.0, centre + margin)


def lineups(bots: Sequence[str], players: int, team_of: Sequence[int] | None = None
            ) -> list[list[tuple[str, ...]]]:
    """The lineups (one bot per seat) the arena plays, grouped: each group is one set of
    bots in every distinct rotation of the sides.

    A *side* is a team where the game plays in teams (``team_of``: each seat's team, as
    :func:`gametable.core.protocol.seat_teams` gives it), else a seat. One bot plays all
    of a side's seats, so teammates are never two bots whose results could not be told
    apart. With at least as many bots as sides, every combination of that many distinct
    bots (in the order given) is a group; with fewer, the bots repeat in order to fill
    the sides (``a, b, c, a, b, c`` for six seats alone). In rotation ``r`` side ``i``
    gets the group's bot ``(i + r) mod sides``.

    Raises:
        ValueError: no bots, fewer than one seat, or ``team_of`` not one team per seat.
    """
    if not bots or players < 1:
        raise ValueError("an arena needs at least one bot and one seat")
    teams = list(range(players)) if team_of is None else list(team_of)
    if len(teams) != players:
        raise ValueError(f"team_of names {len(teams)} seats, not {players}")
    sides = list(dict.fromkeys(teams))  # in the order of their first seats
    if len(bots) >= len(sides):
        groups = [tuple(group) for group in combinations(bots, len(sides))]
    else:
        groups = [tuple(bots[i % len(bots)] for i in range(len(sides)))]
    result: list[list[tuple[str, ...]]] = []
    for group in groups:
        rotations: list[tuple[str, ...]] = []
        for shift in range(len(sides)):
            rotated = group[shift:] + group[:shift]
            bot_of_side = dict(zip(sides, rotated, strict=True))
            lineup = tuple(bot_of_side[team] for team in teams)
            if lineup not in rotations:
                rotations.append(lineup)
        result.append(rotations)
    return result


def repeated(bots: Sequence[str]) -> str | None:
    """The first name ``bots`` lists more than once, or ``None``."""
    return next((name for i, name in enumerate(bots) if name in bots[:i]), None)


def check_arena(bots: Sequence[str], players: SupportsIndex, games: SupportsIndex,
                jobs: SupportsIndex = 1,
                team_of: Sequence[int] | None = None) -> None:
    """Refuse an arena that could not rate anyone, before any game is played.

    Raises:
        TypeError: ``bots`` is not a list of names (a string such as ``"greedy"``).
        ValueError: a bot listed twice; fewer than two different bots (one bot would
            only play itself); fewer than two seats, or (``team_of``) fewer than two
            sides, a game (a rating compares sides); ``games`` or ``jobs`` not a whole
            number from 1 (Python's or NumPy's integers are taken).
    """
    bots = check_bot_names(bots)
    twice = repeated(bots)
    if twice is not None:
        raise ValueError(f"{twice!r} is listed more than once: list each bot once (the "
                         "arena repeats the bots itself to fill the seats)")
    if len(bots) < 2:
        raise ValueError("an arena rates bots against one another: give at least two "
                         f"different bots, not {len(bots)} ({', '.join(bots) or 'none'})")
    for name, value, what in (("players", players, "2 (a rating compares sides)"),
                              ("games", games, "1"), ("jobs", jobs, "1")):
        least = 2 if name == "players" else 1
        if isinstance(value, bool) or not hasattr(value, "__index__") \
                or operator.index(value) < least:
            raise ValueError(f"{name} must be a whole number from {what}, not {value!r}")
    if team_of is not None and len(set(team_of)) < 2:
        raise ValueError("an arena needs at least two sides a game: these options put "
                         "every seat in one team")


class UnevenSides(PlayerWarning):
    """An arena of fewer bots than sides (seats, or teams) whose count the bots do not
    divide: the bots listed first hold more sides of every game than the others, and a
    bot that holds more sides wins more often for that alone (``lineups``)."""


def warn_uneven(bots: Sequence[str], players: int,
                team_of: Sequence[int] | None = None) -> None:
    """Warn :class:`UnevenSides` where ``bots`` fill the sides unevenly (before playing)."""
    sides = len(set(team_of)) if team_of is not None else players
    if len(bots) >= sides or sides % len(bots) == 0:
        return
    more = bots[:sides % len(bots)]
    one = len(more) == 1
    # The subject said again: "…, the others 1, and win more often" read as if the
    # others did.
    names = more[0] if one else f"{', '.join(more[:-1])} and {more[-1]}"
    warnings.warn(UnevenSides(
        f"{len(bots)} bots for {sides} sides: {names} {'holds' if one else 'hold'} "
        f"{sides // len(bots) + 1} sides of every game and the others {sides // len(bots)}, "
        f"so {names} {'wins' if one else 'win'} more often for that alone; give "
        f"{sides} bots, or a number that divides {sides}, to compare them evenly"),
        stacklevel=3)


def schedule(bots: Sequence[str], players: int, games: int, seed: int,
             team_of: Sequence[int] | None = None) -> list[tuple[tuple[str, ...], int]]:
    """The arena's games in order: ``(lineup, seed)`` pairs.

    ``games`` is the number of games per group of bots (see :func:`lineups`, which
    ``team_of`` goes to), rounded up so that every rotation is played equally often;
    game ``i`` is seeded ``seed + i``.

    Raises:
        ValueError: what :func:`check_arena` refuses.
    """
    check_arena(bots, players, games, team_of=team_of)
    order: list[tuple[str, ...]] = []
    for rotations in lineups(bots, players, team_of):
        repeats = max(1, math.ceil(games / len(rotations)))
        order += [lineup for _ in range(repeats) for lineup in rotations]
    return [(lineup, seed + i) for i, lineup in enumerate(order)]


@dataclass
class GameResult:
    """One arena game: its lineup, seed, and the outcome's figures per seat."""

    index: int
    lineup: tuple[str, ...]
    seed: int
    finished: bool
    draw: bool
    winners: list[int]
    ranking: list[int]
    scores: list[float]
    actions: int
    thinking: list[Thinking] = field(default_factory=list)
    """Per seat: its bot's decisions and their time."""


@dataclass
class BotStanding:
    """One bot's results over the arena. A game counts once for each bot that held a
    seat in it, however many seats it held (``seats`` counts those): the bot won it
    when one of its seats did, and its score is the mean of its seats' scores.

    Attributes:
        bot: its name.
        games, seats, wins, draws: games it played, seats it held in them, games it
            won (a shared win counts), games drawn.
        unfinished: games still running after ``max_actions`` (neither won nor drawn).
        score_total: the sum of its games' scores (points; sequences in Sequence
            Cats): :attr:`mean_score` is the mean.
        mu, sigma: its OpenSkill (Plackett–Luce) rating and its uncertainty (the
            model's scale: a new player is 25 ± 8.33); :attr:`rating` is μ − 3σ.
        decisions, think_seconds, longest_decision: how many decisions it made, their
            wall time in seconds in all, and the longest one's, in seconds.
    """

    bot: str
    games: int = 0
    seats: int = 0
    wins: int = 0
    draws: int = 0
    unfinished: int = 0
    score_total: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0
    decisions: int = 0
    think_seconds: float = 0.0
    longest_decision: float = 0.0

    @property
    def win_rate(self) -> float:
        """Wins per game (0–1)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The win rate's 95 % Wilson interval."""
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        """The mean score (the game's points, or sequences for race games)."""
        return self.score_total / self.games if self.games else 0.0

    @property
    def rating(self) -> float:
        """A conservative rating: μ − 3σ (OpenSkill's ordinal)."""
        return self.mu - 3 * self.sigma

    @property
    def mean_decision_ms(self) -> float:
        """The mean time of its decisions, in milliseconds of wall time."""
        return 1000 * self.think_seconds / self.decisions if self.decisions else 0.0

    def to_json(self) -> dict[str, Any]:
        """``{bot, games, seats, wins, draws, unfinished, win_rate, win_rate_95,
        mean_score, rating: {mu, sigma, ordinal}, decisions, mean_decision_ms,
        longest_decision_ms}``."""
        low, high = self.interval
        return {"bot": self.bot, "games": self.games, "seats": self.seats,
                "wins": self.wins, "draws": self.draws, "unfinished": self.unfinished,
                "win_rate": round(self.win_rate, 4),
                "win_rate_95": [round(low, 4), round(high, 4)],
                "mean_score": round(self.mean_score, 3),
                "rating": {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3),
                           "ordinal": round(self.rating, 3)},
                "decisions": self.decisions,
                "mean_decision_ms": round(self.mean_decision_ms, 3),
                "longest_decision_ms": round(1000 * self.longest_decision, 3)}


@dataclass
class HeadToHead:
    """Two bots' record against each other in two-seat games."""

    first: str
    second: str
    games: int = 0
    first_wins: int = 0
    second_wins: int = 0
    draws: int = 0
    unfinished: int = 0
    """Games still running after ``max_actions`` (neither's win; not drawn either)."""

    def to_json(self) -> dict[str, Any]:
        """``{bots, games, wins, draws, unfinished, first_win_rate, first_win_rate_95}``."""
        low, high = wilson(self.first_wins, self.games)
        return {"bots": [self.first, self.second], "games": self.games,
                "wins": [self.first_wins, self.second_wins], "draws": self.draws,
                "unfinished": self.unfinished,
                "first_win_rate": round(self.first_wins / self.games, 4) if self.games
                else 0.0,
                "first_win_rate_95": [round(low, 4), round(high, 4)]}


@dataclass
class ArenaResult:
    """Everything :func:`run_arena` measured (the CLI's ``--json`` object,
    :meth:`to_json`).

    Attributes:
        game: the game's registry name.
        players: seats per game.
        games: the games played in all (every lineup in every rotation, each
            ``games`` times rounded up: :func:`schedule`), seeded ``seed`` to
            ``seed + games - 1``.
        seed: the first game's seed.
        bots: the bot names as given.
        config: the options as a record stores them (those that differ from the
            defaults, and ``rules_version``).
        standings: one :class:`BotStanding` a bot, best rated first (OpenSkill's
            ordinal, μ − 3σ).
        head_to_head: one :class:`HeadToHead` a pair of bots, in two-seat games only
            (empty otherwise).
        seconds: the run's wall time.
        mean_actions: actions a game, over every game.
    """

    game: str
    players: int
    games: int
    seed: int
    bots: list[str]
    config: dict[str, Any]
    standings: list[BotStanding]
    head_to_head: list[HeadToHead] = field(default_factory=list)
    seconds: float = 0.0
    mean_actions: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The result as the CLI prints it with ``--json``."""
        return {"game": self.game, "players": self.players, "games": self.games,
                "seed": self.seed, "bots": self.bots, "config": self.config,
                "standings": [s.to_json() for s in self.standings],
                "head_to_head": [h.to_json() for h in self.head_to_head],
                "mean_actions": round(self.mean_actions, 2),
                "seconds": round(self.seconds, 3)}


Job = tuple[int, str, dict[str, Any], tuple[str, ...], int, int, tuple[str, ...],
            float | None]


def _play(job: Job) -> GameResult:
    index, game_name, options, lineup, seed, max_actions, imports, decision_seconds = job
    for module in imports:  # a worker process registers the outside bots too
        importlib.import_module(module)
    thinking = [Thinking() for _ in lineup]
    with fallbacks_warned():  # run_arena warned once, not again each game (or process)
        record, outcome = play_bot_game(game_name, options, list(lineup), seed,
                                        max_actions=max_actions, thinking=thinking,
                                        decision_seconds=decision_seconds)
    return GameResult(index=index, lineup=lineup, seed=seed, finished=outcome.finished,
                      draw=outcome.draw, winners=list(outcome.winners),
                      ranking=list(outcome.ranking), scores=list(outcome.scores),
                      actions=len(record.actions), thinking=thinking)


def run_arena(
    game_name: str | Game[Any],
    bots: Sequence[str],
    games: SupportsIndex,
    *,
    players: SupportsIndex | None = None,
    options: Mapping[str, Any] | None = None,
    seed: SupportsIndex = 0,
    jobs: SupportsIndex = 1,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    progress: Callable[[int, int], None] | None = None,
    imports: Sequence[str] = (),
    decision_seconds: float | None = None,
) -> ArenaResult:
    """Play the arena and rate the bots.

    Args:
        game_name: a registered game's name, or the game (``registry.get(name)``).
        bots: bot names (``gametable.bots.bot_names()``), each listed once.
        games: games per group of bots (see :func:`schedule`).
        players: seats per game (``None``: the game's own default, as on the command
            line: 2 in Sequence Cats and Triominos, 4 in Dixit; ``describe()["seats"]``).
        options: the game's options.
        seed: the seed of the first game.
        jobs: processes to play in (results do not depend on it, but for players that
            think for a time: see the module docstring).
        max_actions: a game still running after this many actions counts as unfinished.
        progress: called with ``(games done, games in all)`` after each game.
        imports: modules to import first in every process that plays (they register
            outside bots with :func:`gametable.bots.register_bot`).
        decision_seconds: a bot still deciding after this many seconds fails the arena
            (``None``: no limit; see :func:`gametable.simulate.decision_limit`).

    Raises:
        ConfigError: unknown game, invalid options or seat count.
        KeyError: an unknown bot name.
        ValueError: fewer than two different bots, a bot listed twice, fewer than two
            seats, ``games`` or ``jobs`` below 1 (:func:`check_arena`), a ``seed`` that
            is not a whole number from 0 to 2**63 − 1 or a game's seed that would pass
            it, ``max_actions`` or ``decision_seconds`` out of range
            (:func:`gametable.simulate.check_limits`), before any game is played.
        BotFailed: a bot raised, took longer than ``decision_seconds`` or chose an action
            the rules refused (the message names the bot, seat, seed and action number);
            the arena stops there.

    Warns:
        PlaysAsAnother: a bot that does not play the game as itself (before playing;
            :func:`gametable.simulate.warn_fallbacks`).
        UnevenSides: fewer bots than sides, filling them unevenly (before playing;
            :func:`warn_uneven`).
        PlaceholderLeft: a bot left a Dixit clue's placeholder (once a game and seat).
    """
    game_name = registry.name_of(game_name)
    game = registry.get(game_name)
    if players is None:
        players = int(game.describe()["seats"]["default"])
    check_arena(bots, players, games, jobs)
    players, games, jobs = operator.index(players), operator.index(games), operator.index(jobs)
    seed = check_seed(seed)
    max_actions, decision_seconds = check_limits(max_actions, decision_seconds)
    config = game.make_config(options, players)
    warn_fallbacks(game, bots, probe=True)  # the games may be played in other processes
    teams = seat_teams(game, config, players)
    warn_uneven(bots, players, teams)
    plan = schedule(bots, players, games, seed, teams)
    last = seed + len(plan) - 1
    if last >= SEEDS:
        raise ValueError(f"the {len(plan)} games would be seeded {seed}–{last}; a seed is at "
                         "most 2**63 - 1: start from a lower seed or play fewer games")
    stored = stored_options(config)
    work: list[Job] = [(i, game_name, stored, lineup, game_seed, max_actions, tuple(imports),
                        decision_seconds)
                       for i, (lineup, game_seed) in enumerate(plan)]
    started = time.perf_counter()
    results: list[GameResult] = []
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for result in pool.map(_play, work, chunksize=1):
                results.append(result)
                if progress:
                    progress(len(results), len(work))
    else:
        for job in work:
            results.append(_play(job))
            if progress:
                progress(len(results), len(work))
    results.sort(key=lambda r: r.index)
    arena = _tally(game_name, players, bots, stored, seed, results)
    arena.seconds = time.perf_counter() - started
    return arena


def _tally(game_name: str, players: int, bots: Sequence[str], config: dict[str, Any],
           seed: int, results: Sequence[GameResult]) -> ArenaResult:
    standings = {bot: BotStanding(bot) for bot in bots}
    model = PlackettLuce()
    ratings = {bot: model.rating(name=bot) for bot in bots}
    pairs: dict[tuple[str, str], HeadToHead] = {}
    for result in results:
        seats_of: dict[str, list[int]] = {}
        for seat, bot in enumerate(result.lineup):
            seats_of.setdefault(bot, []).append(seat)
            if result.thinking:
                standing, thought = standings[bot], result.thinking[seat]
                standing.decisions += thought.decisions
                standing.think_seconds += thought.seconds
                standing.longest_decision = max(standing.longest_decision, thought.longest)
        for bot, seats in seats_of.items():
            standing = standings[bot]
            standing.games += 1
            standing.seats += len(seats)
            standing.score_total += sum(result.scores[seat] for seat in seats) / len(seats)
            if not result.finished:
                standing.unfinished += 1
            elif result.draw:
                standing.draws += 1
            elif any(seat in result.winners for seat in seats):
                standing.wins += 1
        if result.finished:
            _rate(model, ratings, result)
        if players == 2 and result.lineup[0] != result.lineup[1]:
            first, second = sorted(result.lineup, key=list(bots).index)
            record = pairs.setdefault((first, second), HeadToHead(first, second))
            record.games += 1
            if not result.finished:
                record.unfinished += 1
            elif result.draw or len(result.winners) > 1:
                record.draws += 1  # a shared win (TR-END-4) is neither's win over the other
            else:
                winner = result.lineup[result.winners[0]]
                if winner == first:
                    record.first_wins += 1
                else:
                    record.second_wins += 1
    for bot, rating in ratings.items():
        standings[bot].mu, standings[bot].sigma = rating.mu, rating.sigma
    ordered = sorted(standings.values(), key=lambda s: -s.rating)
    mean_actions = sum(r.actions for r in results) / len(results) if results else 0.0
    return ArenaResult(game=game_name, players=players, games=len(results), seed=seed,
                       bots=list(bots), config=config, standings=ordered,
                       head_to_head=list(pairs.values()), mean_actions=mean_actions)


def _rate(model: PlackettLuce, ratings: dict[str, Any], result: GameResult) -> None:
    """Update the ratings with one finished game: each seat is one side, ranked by the
    outcome's ranking; a bot in several seats takes the mean of its seats' updates."""
    teams = [[model.rating(mu=ratings[bot].mu, sigma=ratings[bot].sigma)]
             for bot in result.lineup]
    rated = model.rate(teams, ranks=[float(r) for r in result.ranking])
    updates: dict[str, list[tuple[float, float]]] = {}
    for bot, (player,) in zip(result.lineup, rated, strict=True):
        updates.setdefault(bot, []).append((player.mu, player.sigma))
    for bot, values in updates.items():
        mu = sum(v[0] for v in values) / len(values)
        sigma = sum(v[1] for v in values) / len(values)
        ratings[bot] = model.rating(mu=mu, sigma=sigma, name=bot)
