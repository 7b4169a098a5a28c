"""How well Dixit's computer players play: listener, storyteller, speed and memory.

Run: ``.venv/bin/python -m benchmarks.dixit_bots [--games 40] [--seed 1] [--json]``

Prints, for the ``semantic`` bot (and ``greedy`` and ``random`` beside it):

* **listener**: on the clues of ``benchmarks/data/dixit_clues.json`` (written by people
  who looked only at the default deck's pictures), the share of tables of six cards
  (the clue's card and five random decoys) on which the listener picks the clue's card.
  ``best`` picks the best-fitting card; ``as played`` is the chance that the bot, which
  chooses at random in proportion to ``exp(fit / temperature)``, picks it. Exact over
  every set of decoys, not sampled. ``unseen phrases`` ignores every bank phrase that is
  (nearly) the clue itself, as for clues the bank does not hold. By split (``dev``: the
  clues the players were tuned on; ``holdout``; ``fresh``, written once the players were
  built and only checked) and by language.
* **storyteller**: in 6-seat base games (edition IS, first seat tells first) of one kind
  of bot (``semantic`` once per clue language), the share of rounds in which the
  storyteller scores (some but not all voters
  found the card, DX-SCORE-1/2); the share of the bots' clues that say what their card
  shows (the storytellers' own check, ``semantic.copies``): a content word of the card's
  description (a word, its plural, a compound of it: "Sunshine" for a sun), or a name of a
  thing the description names in any clue language (``data/names.json``: "Sporvagn" for a
  tram), with each part counted apart; and a few of the clues given.
* **Party**: the distinct first clues of 150 fresh ``hard`` Party storytellers per clue
  language (they all said "Beyond the sea" or "Í skýjunum" once), and how broad they are
  (the clue's fit at the deck's 80th percentile; the broadest phrase's beside it).
* **decisions**: milliseconds per decision of a ``semantic`` bot (p50, p99, max) over
  those games, per kind of decision.
* **memory**: growth of this process's resident memory from before the model was loaded
  to after the games.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from gametable.bots import make_bot
from gametable.core import registry
from gametable.decks import find_deck
from gametable.embeddings import encoder
from gametable.games.dixit import heuristics
from gametable.games.dixit.clues import LANGUAGES
from gametable.games.dixit.semantic import (
    PARTY_BREADTH,
    TEMPERATURE,
    clue_fit,
    copies,
    deck_mind,
    repeats_a_word,
)

CLUES = Path(__file__).parent / "data" / "dixit_clues.json"
DECOYS = 5
SEATS = 6
OPTIONS: dict[str, Any] = {}
EXAMPLES_ALL = False


def rss_mb() -> float:
    """This process's resident memory in MB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def load_clues() -> list[dict[str, Any]]:
    deck = find_deck("default")
    assert deck is not None
    index = {card.id: number for number, card in enumerate(deck.cards)}
    clues: list[dict[str, Any]] = json.loads(CLUES.read_text(encoding="utf-8"))["clues"]
    for clue in clues:
        clue["number"] = index[clue["card"]]
    return clues


def chance_first(scores: np.ndarray, target: int, temperature: float) -> float:
    """The chance that the target is picked on a table of it and DECOYS random others:
    exact for ``temperature`` 0 (strictly the best), else averaged over 400 tables."""
    others = np.delete(scores, target)
    if temperature <= 0:
        below = int((others < scores[target]).sum())
        return math.comb(below, DECOYS) / math.comb(len(others), DECOYS)
    rng = np.random.default_rng(target)
    picks = np.stack([rng.choice(len(others), DECOYS, replace=False) for _ in range(400)])
    z = np.exp((others[picks] - scores[target]) / temperature)
    return float(np.mean(1 / (1 + z.sum(axis=1))))


def listener(clues: list[dict[str, Any]]) -> dict[str, Any]:
    mind = deck_mind("default")
    queries = encoder().queries([c["clue"] for c in clues])
    deck = heuristics.deck_words("default")
    results: dict[str, Any] = {}
    # greedy's listener as it plays: the clue's words in a card's description, and the
    # words that go with the card (heuristics.fit_or_goes_with)
    setups = {"semantic best": (None, 0.0), "semantic as played": (None, TEMPERATURE),
              "semantic best, unseen phrases": (0.93, 0.0),
              "semantic as played, unseen phrases": (0.93, TEMPERATURE)}
    for label, (exclude, temperature) in setups.items():
        fit = mind.fit(queries, exclude_above=exclude)
        chances = [chance_first(fit[i], c["number"], temperature) for i, c in enumerate(clues)]
        results[label] = summarise(clues, chances)
    words_fit = []
    for clue in clues:
        words = frozenset(heuristics.words(clue["clue"]))
        scores = np.array([heuristics.fit_or_goes_with("default", words, n)
                           for n in range(len(deck.cards))])
        # greedy breaks ties at random: count a tie as a share
        target = scores[clue["number"]]
        others = np.delete(scores, clue["number"])
        below, tied = int((others < target).sum()), int((others == target).sum())
        total = math.comb(len(others), DECOYS)
        chance = sum(math.comb(below, DECOYS - k) * math.comb(tied, k) / (k + 1)
                     for k in range(DECOYS + 1)) / total
        words_fit.append(chance)
    results["greedy"] = summarise(clues, words_fit)
    return results


def summarise(clues: list[dict[str, Any]], chances: list[float]) -> dict[str, float]:
    groups: dict[str, list[float]] = defaultdict(list)
    for clue, chance in zip(clues, chances, strict=True):
        groups["all"].append(chance)
        groups[clue["split"]].append(chance)
        groups["lang " + clue["lang"]].append(chance)
    return {key: round(float(np.mean(values)), 3) for key, values in sorted(groups.items())}


def games(bot: str, count: int, seed: int, timing: dict[str, list[float]] | None = None,
          language: str = "auto") -> dict[str, Any]:
    """Play ``count`` 6-seat base games of ``bot`` (clues in ``language``) and measure the
    storytellers."""
    game = registry.get("dixit")
    deck = find_deck("default")
    assert deck is not None
    descriptions = deck.descriptions()
    rounds = scored = copied = worded = named = clue_count = 0
    examples: list[str] = []
    finders: Counter[int] = Counter()
    for number in range(count):
        config = game.make_config({"first_storyteller": "first_seat",
                                   "clue_language": language, **OPTIONS}, SEATS)
        state = game.new_game(config, SEATS, seed + number)
        players = [make_bot(bot, game, seed * 1000 + number * 10 + s) for s in range(SEATS)]
        while True:
            seats = sorted(game.to_act(state))
            if not seats:
                break
            for seat in seats:
                view = game.view(state, seat)
                legal = game.legal_actions(state, seat)
                started = time.perf_counter()
                action = players[seat].choose(view, legal)
                if timing is not None:
                    timing[action["type"]].append((time.perf_counter() - started) * 1000)
                if action["type"] == "clue":
                    clue_count += 1
                    description = descriptions[action["card"]]
                    word = repeats_a_word(action["text"], description)
                    says = copies(action["text"], description)
                    copied += says
                    worded += word
                    named += says and not word
                    if len(examples) < 12 or EXAMPLES_ALL:
                        examples.append(f'{action["text"]!r} for card '
                                        f'{deck.cards[action["card"]].id}')
                game.apply(state, seat, action)
        for summary in state.history:
            rounds += 1
            teller_slot = next(s for s in summary["slots"] if s["storyteller"])
            found = len(teller_slot["votes"])
            finders[found] += 1
            scored += 0 < found < SEATS - 1
    return {"bot": bot, "language": language, "games": count, "rounds": rounds,
            "storyteller scores": round(scored / max(1, rounds), 3),
            "finders per round": {k: finders[k] for k in sorted(finders)},
            "clues saying what their card shows": round(copied / max(1, clue_count), 3),
            "clues with a description word": round(worded / max(1, clue_count), 3),
            "clues with only a name in some language": round(named / max(1, clue_count), 3),
            "examples": examples}


def party(language: str, count: int = 150) -> dict[str, Any]:
    """The first clues of ``count`` fresh ``hard`` Party storytellers (6 seats)."""
    game = registry.get("dixit")
    mind = deck_mind("default")
    told: Counter[str] = Counter()
    breadth = []
    for seed in range(count):
        config = game.make_config({"variant": "party", "first_storyteller": "first_seat",
                                   "clue_language": language}, SEATS)
        state = game.new_game(config, SEATS, seed)
        action = make_bot("hard", game, seed).choose(game.view(state, 0),
                                                      game.legal_actions(state, 0))
        told[action["text"]] += 1
        breadth.append(float(np.quantile(clue_fit(mind, action["text"])[mind.described],
                                         PARTY_BREADTH)))
    return {"language": language, "distinct": len(told), "of": count,
            "most told": told.most_common(3), "breadth": round(float(np.mean(breadth)), 1),
            "broadest phrase": round(float(mind.breadth(language).max()), 1)}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    before = rss_mb()
    started = time.perf_counter()
    encoder()
    deck_mind("default")
    load_seconds = time.perf_counter() - started
    clues = load_clues()
    report: dict[str, Any] = {"load seconds": round(load_seconds, 2),
                              "listener": listener(clues)}
    timing: dict[str, list[float]] = defaultdict(list)
    report["storyteller"] = [
        *(games("semantic", args.games, args.seed, timing, language)
          for language in ("is", "en", "nb", "pt")),
        games("greedy", args.games, args.seed),
        games("random", args.games, args.seed)]
    report["party"] = [party(language) for language in LANGUAGES]
    every = [v for values in timing.values() for v in values]
    report["decisions ms"] = {
        kind: {"count": len(values), "p50": round(percentile(values, 0.5), 1),
               "p99": round(percentile(values, 0.99), 1), "max": round(max(values), 1)}
        for kind, values in sorted({**timing, "all": every}.items())}
    report["memory growth MB"] = round(rss_mb() - before, 1)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return
    print(f"model and deck loaded in {report['load seconds']} s")
    print("\nlistener: share of 6-card tables (random decoys) where the clue's card is "
          "picked")
    for label, values in report["listener"].items():
        print(f"  {label:36} " + "  ".join(f"{k} {v:.3f}" for k, v in values.items()))
    print(f"\nstoryteller: {SEATS}-seat base games")
    for row in report["storyteller"]:
        print(f"  {row['bot']:8} clues {row['language']:4} scores in "
              f"{row['storyteller scores']:.3f} of {row['rounds']} rounds; "
              f"finders {row['finders per round']}; clues saying what their card shows "
              f"{row['clues saying what their card shows']:.3f} (a description word "
              f"{row['clues with a description word']:.3f}, only a name in some language "
              f"{row['clues with only a name in some language']:.3f})")
    for row in report["storyteller"][:4]:
        print(f"  semantic clues ({row['language']}): " + "; ".join(row["examples"][:8]))
    print("\nParty: first clues of 150 fresh hard storytellers (6 seats)")
    for row in report["party"]:
        print(f"  {row['language']}: {row['distinct']} distinct; most told "
              + ", ".join(f"{t!r} {n}" for t, n in row["most told"])
              + f"; breadth {row['breadth']} (broadest phrase {row['broadest phrase']})")
    print("\nsemantic decisions (ms)")
    for kind, values in report["decisions ms"].items():
        print(f"  {kind:7} n {values['count']:5}  p50 {values['p50']:6.1f}  "
              f"p99 {values['p99']:6.1f}  max {values['max']:6.1f}")
    print(f"\nmemory growth with the model loaded: {report['memory growth MB']} MB")


if __name__ == "__main__":
    main()
