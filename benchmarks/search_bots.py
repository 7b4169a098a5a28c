"""How well the ``search`` and ``rollout`` bots play against ``greedy``, and how long they
think.

Run: ``.venv/bin/python -m benchmarks.search_bots [--game sequence-cats|triominos|both]
[--games 400] [--seconds 0.5 | --iterations 500] [--jobs 2] [--seed 1] [--param k=v]
[--player search|planner|rollout]``

Two-seat games, ``search`` against ``greedy``, the first seat alternating (``search`` sits
first in even-numbered games). Sequence Cats uses the default options; Triominos plays
exactly three rounds (``{"rounds": 3}``). ``--games`` is per game (default: 400 Sequence
Cats, 200 Triominos). Prints per game:

* ``search``'s wins, draws and losses, its win rate (draws are not wins) with the 95 %
  Wilson interval, and the win rate over decided games;
* seconds per move of ``search`` over its decisions with more than one legal action
  (mean, p50, p99, max; a decision with one legal action is answered at once) and the
  mean iterations per searched move;
* Sequence Cats only: how the games were lost and won, read off the loser's last turn:
  how many winning spaces (SC-WIN-1: a chip there completes five) the winner had then,
  and whether the loser held a card to block one (its breed or PURRR, SC-PURR-1), or a
  MEOW (SC-MEOW-1); and how many games a PURRR won.

``--oracle all`` measures an upper bound instead: every determinization is the real
state (the other hand and the order of the draw pile or pool known), which no bot that
plays people may see; ``--oracle hands`` knows the other hands but shuffles the draw pile
or pool (what reading an opponent perfectly could be worth).

``--player planner`` measures the ``planner`` bot (the game's planned ratings alone, no
search) instead of ``search``; ``--player rollout`` the ``rollout`` bot (Sequence Cats'
``hard`` player; its "iterations" are the deals it rolled out, and ``--iterations N``
fixes them at ``N`` a move without a time limit, so that CPU contention cannot bias an
A/B comparison; ``--param infer=10`` deals the other hand by its plays).

With the environment variable ``SEARCH_BOTS_RESULTS=path`` the games' results are also
written to ``path``, one a line in game order, for paired comparisons on the same seeds.

``--param name=value`` passes further :class:`gametable.bots.search.SearchBot` arguments
(``exploration``, ``epsilon``, ``depth``, ``width``, ``confidence``, ``plan``), or
:class:`gametable.bots.rollout.RolloutBot` arguments (``width``, ``confidence``,
``prune``, ``infer``). ``--jobs N`` plays
in N processes; the results do not depend on it (every game has its own seeds).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from rich.progress import Progress

from gametable.arena import wilson
from gametable.bots.greedy import GreedyBot
from gametable.bots.planner import PlannerBot
from gametable.bots.rollout import RolloutBot
from gametable.bots.search import DEFAULT_SECONDS, SearchBot
from gametable.core import registry
from gametable.games.sequence_cats.cards import MEOW, PURRR
from gametable.games.sequence_cats.state import EMPTY

OPTIONS: dict[str, dict[str, Any]] = {"sequence-cats": {}, "triominos": {"rounds": 3}}
DEFAULT_GAMES = {"sequence-cats": 400, "triominos": 200}


@dataclass
class Result:
    """One game: ``search``'s result (``"win"``, ``"draw"``, ``"loss"``), its seconds per
    searched move and iterations per searched move."""

    result: str
    seconds: list[float] = field(default_factory=list)
    iterations: list[int] = field(default_factory=list)
    ending: str | None = None
    purrr_won: bool = False


def sc_last_turn(state: Any, seat: int) -> tuple[int, int, bool]:
    """Sequence Cats, before ``seat`` plays: ``(winning spaces of the other teams, how
    many of them ``seat`` holds a card to block, whether it holds a MEOW)``."""
    board = state.board
    team = state.team_of[seat]
    threats: set[int] = set()
    for other in range(state.teams):
        if other == team:
            continue
        mask = state.masks[other]
        for lines in board.lines:
            for _span, windows in lines:
                for window in windows:
                    if (window & mask).bit_count() == 4:
                        space = (window & ~mask).bit_length() - 1
                        if state.cells[space] == EMPTY:
                            threats.add(space)
    hand = state.hands[seat]
    blockable = sum(1 for space in threats if PURRR in hand or board.breed_of[space] in hand)
    return len(threats), blockable, MEOW in hand


def ending(threats: int, blockable: int, meow: bool) -> str:
    """A label for the loser's last turn (see :func:`sc_last_turn`)."""
    if threats == 0:
        return "no winning space at the loser's last play"
    if threats == 1:
        if blockable or meow:
            return "one winning space; the loser held a card to block it (or a MEOW)"
        return "one winning space; the loser held no card to block it"
    if blockable or meow:
        return "two or more winning spaces; the loser could block one (or held a MEOW)"
    return "two or more winning spaces; the loser could block none"


PILE = {"sequence-cats": "pile", "triominos": "pool"}
"""The attribute of each game's state that holds the face-down cards or tiles."""


class Oracle:
    """``game`` whose determinizations are the real ``state`` (``--oracle all``), or the
    real state with its draw pile or pool shuffled (``--oracle hands``)."""

    def __init__(self, game: Any, state: Any, kind: str) -> None:
        self._game = game
        self._state = state
        self._kind = kind

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def sample_state(self, view: Any, seat: int, rng: random.Random) -> Any:
        state = self._game.clone(self._state)
        if self._kind == "hands":
            rng.shuffle(getattr(state, PILE[self._game.name]))
        return state


def play(game_name: str, number: int, seed: int, budget: dict[str, Any]) -> Result:
    """Game ``number``: ``search`` in seat ``number % 2``, ``greedy`` in the other."""
    game = registry.get(game_name)
    config = game.make_config(OPTIONS[game_name], 2)
    state = game.new_game(config, 2, seed * 100_003 + number)
    mine = number % 2
    budget = dict(budget)
    oracle = budget.pop("oracle", None)
    searched = Oracle(game, state, oracle) if oracle else game
    player = budget.pop("player", "search")
    search: SearchBot | PlannerBot | RolloutBot
    if player == "planner":
        search = PlannerBot(game, random.Random(seed * 7_919 + number * 2))
    elif player == "rollout":
        if "iterations" in budget:  # a rollout's iterations are its deals
            budget["deals"] = budget.pop("iterations")
        search = RolloutBot(searched, random.Random(seed * 7_919 + number * 2), **budget)
    else:
        search = SearchBot(searched, random.Random(seed * 7_919 + number * 2), **budget)
    greedy = GreedyBot(game, random.Random(seed * 7_919 + number * 2 + 1))
    result = Result("draw")
    last_turns: dict[int, tuple[int, int, bool]] = {}
    while to_act := game.to_act(state):
        seat = min(to_act)
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        if game_name == "sequence-cats" and any(a["type"] == "play" for a in legal):
            last_turns[seat] = sc_last_turn(state, seat)
        if seat == mine:
            start = time.perf_counter()
            action = search.choose(view, legal)
            if len(legal) > 1:
                result.seconds.append(time.perf_counter() - start)
                result.iterations.append(getattr(search, "last_iterations", 0))
        else:
            action = greedy.choose(view, legal)
        game.apply(state, seat, action)
    winners = game.outcome(state).winners
    if len(winners) == 1:
        result.result = "win" if winners[0] == mine else "loss"
        if game_name == "sequence-cats" and state.last_play is not None:
            loser = 1 - winners[0]  # two seats, one each
            if loser in last_turns:
                result.ending = ending(*last_turns[loser])
            result.purrr_won = state.last_play[1] == PURRR
    return result


def _play(args: tuple[str, int, int, dict[str, Any]]) -> Result:
    return play(*args)


def run(game_name: str, games: int, seed: int, budget: dict[str, Any], jobs: int
        ) -> list[Result]:
    """Play ``games`` games, in ``jobs`` processes, with a progress bar."""
    tasks = [(game_name, number, seed, budget) for number in range(games)]
    results: list[Result] = []
    with Progress() as progress:
        bar = progress.add_task(f"{game_name}: search vs greedy", total=games)
        if jobs > 1:
            with ProcessPoolExecutor(jobs) as pool:
                for result in pool.map(_play, tasks):
                    results.append(result)
                    progress.advance(bar)
        else:
            for task in tasks:
                results.append(_play(task))
                progress.advance(bar)
    return results


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0–1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def report(game_name: str, results: list[Result]) -> None:
    n = len(results)
    wins = sum(r.result == "win" for r in results)
    draws = sum(r.result == "draw" for r in results)
    losses = n - wins - draws
    low, high = wilson(wins, n)
    decided = wins + losses
    dlow, dhigh = wilson(wins, decided)
    seconds = [s for r in results for s in r.seconds]
    iterations = [i for r in results for i in r.iterations]
    print(f"{game_name} {OPTIONS[game_name] or '(default options)'}: {n} games, player vs "
          f"greedy, first seat alternating")
    print(f"  wins {wins}, draws {draws}, losses {losses}")
    print(f"  win rate {wins / n:.1%} (95 % Wilson {low:.1%}–{high:.1%})")
    if decided:
        print(f"  over decided games {wins / decided:.1%} ({dlow:.1%}–{dhigh:.1%})")
    if seconds:
        print(f"  seconds per searched move ({len(seconds)} moves): mean "
              f"{sum(seconds) / len(seconds):.3f}, p50 {percentile(seconds, 0.5):.3f}, "
              f"p99 {percentile(seconds, 0.99):.3f}, max {max(seconds):.3f}; "
              f"iterations per move: mean {sum(iterations) / len(iterations):.0f}")
    for outcome, who in (("loss", "lost"), ("win", "won")):
        endings = Counter(r.ending for r in results if r.result == outcome and r.ending)
        if not endings:
            continue
        purrr = sum(r.purrr_won for r in results if r.result == outcome)
        print(f"  games {who} ({sum(endings.values())}), the loser's last turn "
              f"({purrr} won with a PURRR):")
        for label, count in endings.most_common():
            print(f"    {count:4d}  {label}")


def main() -> None:
    # The docstring's first paragraph, whole and without its reST quotes.
    parser = argparse.ArgumentParser(
        description=" ".join(__doc__.split("\n\n")[0].replace("``", "").split()))
    parser.add_argument("--game", choices=["sequence-cats", "triominos", "both"],
                        default="both")
    parser.add_argument("--games", type=int, default=None,
                        help="games per game (default 400 Sequence Cats, 200 Triominos)")
    parser.add_argument("--seconds", type=float, default=None,
                        help=f"thinking time per move (default {DEFAULT_SECONDS})")
    parser.add_argument("--iterations", type=int, default=None,
                        help="iterations per move (no time limit unless --seconds)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--oracle", choices=["all", "hands"], default=None,
                        help="search the real state, or its hands with the pile shuffled "
                             "(upper bounds, not fair bots)")
    parser.add_argument("--player", choices=["search", "planner", "rollout"], default="search",
                        help="the player measured against greedy: search (information-set "
                             "search, the hard level in Triominos), planner (the planned "
                             "ratings alone, no search) or rollout (the hard level in "
                             "Sequence Cats)")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a further SearchBot argument (exploration, epsilon, …)")
    args = parser.parse_args()
    budget: dict[str, Any] = {}
    if args.iterations is not None:
        budget["iterations"] = args.iterations
        budget["seconds"] = args.seconds
    elif args.seconds is not None:
        budget["seconds"] = args.seconds
    if args.oracle:
        budget["oracle"] = args.oracle
    if args.player != "search":
        budget["player"] = args.player
    for param in args.param:
        name, _, value = param.partition("=")
        budget[name] = int(value) if value.lstrip("-").isdigit() else float(value)
    names = ["sequence-cats", "triominos"] if args.game == "both" else [args.game]
    for name in names:
        games = args.games if args.games is not None else DEFAULT_GAMES[name]
        started = time.perf_counter()
        results = run(name, games, args.seed, budget, args.jobs)
        if os.environ.get("SEARCH_BOTS_RESULTS"):  # one result a line, for paired tests
            with open(os.environ["SEARCH_BOTS_RESULTS"], "w", encoding="utf-8") as out:
                out.writelines(f"{r.result}\n" for r in results)
        report(name, results)
        print(f"  ({time.perf_counter() - started:.0f} s with --jobs {args.jobs}, "
              f"budget {budget or 'default'})")


if __name__ == "__main__":
    main()
