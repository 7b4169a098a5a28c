"""What Dixit's computer players think, from a seat's view alone (DX-DECK-3).

A simple lexical similarity over the deck's card descriptions:

* a description or clue becomes a set of content words (lower case, stop words removed,
  a plural ``s`` dropped);
* a card fits a clue by the weighted overlap of their words, each word weighted by its
  rarity in the deck (inverse document frequency), so "whale" counts more than "sky";
* the storyteller tells about the card whose description has the best clue words,
  neither too plain (a word on many cards) nor too obscure (a word on no other card):
  words found on 2–8 % of the deck are preferred;
* its clue is an association, never a word of that card's description: a word of the
  descriptions of the cards that share words with it (:func:`associated_words`).

Descriptions are public (they are the pictures' alt text, shown to every player), so
reading the deck manifest is no peek at the state; but for the same reason a clue made
of the card's own words told everyone which card was the storyteller's (someone matching
the clue's words against the descriptions of the cards on the table found it in 10 rounds
of 11). With a deck that has no descriptions every card rates the same
and the bots still play legally.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gametable.core.protocol import Action, Observation
from gametable.decks import find_deck

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
_STOP_TEXT = """
a an and are as at be by for from has have he her his in into is it its of on or over
she that the their them there they this to under up upon with while who whose above
across against along among around behind below beside between beyond down during far
near off out through toward towards within without one two three four some very its
lies floats drifts stands sits rests hangs seem seems like than too so all
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
_BAND = (0.02, 0.08)
"""Document-frequency band of a good clue word (not too plain, not too obscure)."""


def words(text: str | None) -> list[str]:
    """Content words of ``text``: lower case, stop words removed, plural ``s`` dropped."""
    if not text:
        return []
    found = []
    for raw in _WORD.findall(text.lower()):
        if raw in STOP_WORDS or len(raw) < 3:
            continue
        plural = len(raw) > 4 and raw.endswith("s") and not raw.endswith("ss")
        found.append(raw[:-1] if plural else raw)
    return found


@dataclass(frozen=True)
class DeckWords:
    """The words of every card of a deck and their document frequency.

    Attributes:
        cards: per card number, its set of content words (empty without description).
        weight: per word, its inverse document frequency (rarer words weigh more).
        share: per word, the share of cards whose description has it (0–1).
        order: per card number, its content words in the order they appear.
    """

    cards: tuple[frozenset[str], ...]
    weight: dict[str, float]
    share: dict[str, float]
    order: tuple[tuple[str, ...], ...]


@lru_cache(maxsize=32)
def deck_words(deck_id: str) -> DeckWords:
    """The :class:`DeckWords` of deck ``deck_id`` (empty for an unknown deck)."""
    deck = find_deck(deck_id)
    descriptions = deck.descriptions() if deck is not None else []
    order = tuple(tuple(words(text)) for text in descriptions)
    cards = tuple(frozenset(o) for o in order)
    counts: Counter[str] = Counter()
    for card in cards:
        counts.update(card)
    total = max(1, len(cards))
    weight = {w: math.log(1 + total / c) for w, c in counts.items()}
    share = {w: c / total for w, c in counts.items()}
    return DeckWords(cards, weight, share, order)


def fit(deck: DeckWords, clue: frozenset[str], card: int) -> float:
    """How well card ``card`` fits ``clue``: the rarity-weighted share of the clue's
    words found in the card's description (0–1)."""
    if not clue or not 0 <= card < len(deck.cards):
        return 0.0
    have = deck.cards[card]
    total = sum(deck.weight.get(w, 1.0) for w in clue)
    return sum(deck.weight.get(w, 1.0) for w in clue if w in have) / total


ASSOCIATION_WEIGHT = 0.6
"""How much a clue word counts that goes with a card (:func:`associated_words`) beside
one written in its description (:func:`fit`)."""


def fit_or_goes_with(deck_id: str, clue: frozenset[str], card: int) -> float:
    """How well card ``card`` of deck ``deck_id`` fits ``clue``: :func:`fit`, plus
    :data:`ASSOCIATION_WEIGHT` times the share of the clue's words that go with it
    (:func:`associated_words`), each by its place among them (1 for the first, ½ for the
    sixth…). 0 to 1.6."""
    deck = deck_words(deck_id)
    if not clue or not 0 <= card < len(deck.cards):
        return 0.0
    ranks = {word: rank for rank, word in enumerate(associated_words(deck_id, card))}
    goes = sum(1.0 / (1.0 + ranks[word] / 5.0) for word in clue if word in ranks) / len(clue)
    return fit(deck, clue, card) + ASSOCIATION_WEIGHT * goes


def clue_words(deck: DeckWords, card: int) -> list[str]:
    """The card's words, best clue words first (inside the band, then the closest)."""
    if not 0 <= card < len(deck.order):
        return []
    unique = list(dict.fromkeys(deck.order[card]))
    return sorted(unique, key=lambda word: _band_distance(deck, word))


def rate_actions(view: Observation, actions: Sequence[Action]) -> list[float]:
    """One rating per action, higher is better, from ``view`` alone.

    * clue: the best clue word's closeness to the band (prefer cards that can be told);
    * submit: the fit of the given cards to the clue (:func:`fit_or_goes_with`: its
      words, or words that go with the cards);
    * vote: the fit of the voted slot(s) to the clue; a second vote only when its card
      fits nearly as well (DX-7P-3 pays +1 for a single right vote); Party red vote on
      the best-fitting other card, where others are most likely to be drawn wrongly;
    * giver (Team): oneself when a hand card fits the clue, else the teammate.
    """
    deck = deck_words(str(view.get("deck", "")))
    clue = view.get("clue") or {}
    clue_set = frozenset(words(clue.get("text")))
    deck_id = str(view.get("deck", ""))

    def fit(_deck: DeckWords, clue: frozenset[str], card: int) -> float:
        return fit_or_goes_with(deck_id, clue, card)

    table: list[int] = view.get("table") or []
    ratings = []
    for action in actions:
        kind = action.get("type")
        if kind == "claim":
            ratings.append(1.0)
        elif kind == "clue":
            card = action.get("card")
            if card is None:
                ratings.append(0.0)
            else:
                ranked = clue_words(deck, card)
                ratings.append(1.0 - _band_distance(deck, ranked[0]) if ranked else 0.0)
        elif kind == "submit":
            ratings.append(sum(fit(deck, clue_set, c) for c in action["cards"]))
        elif kind == "vote":
            fits = [fit(deck, clue_set, table[k - 1]) for k in action["slots"]]
            rating = fits[0] + 0.3 if len(fits) == 1 else fits[0] + fits[1] - 0.25
            red = action.get("red")
            if red is not None:
                rating += 0.5 * fit(deck, clue_set, table[red - 1])
            ratings.append(rating)
        elif kind == "giver":
            seat = view.get("seat")
            own = max((fit(deck, clue_set, c) for c in view.get("hand") or []), default=0.0)
            ratings.append(own if action.get("seat") == seat else 0.15)
        else:
            ratings.append(0.0)
    return ratings


ASSOCIATIONS = 6
"""A clue is drawn from this many of a card's best :func:`associated_words`."""


def complete_action(view: Observation, action: Action, rng: random.Random) -> Action:
    """Fill in a clue's text (DX-ROUND-1): for a card, one of its best
    :func:`associated_words` (never a word of its own description, which every player
    can read); for a Party clue (said before the hand is seen, DX-PARTY-2) a word from
    the deck's vocabulary; a general clue (:data:`FALLBACK_CLUES`) where the deck gives
    none. Other actions come back unchanged."""
    if action.get("type") != "clue":
        return action
    deck = deck_words(str(view.get("deck", "")))
    card = action.get("card")
    text = ""
    if card is not None:
        associated = associated_words(str(view.get("deck", "")), card)
        if associated:
            text = rng.choice(associated[:ASSOCIATIONS])
    else:
        band = [w for w, s in sorted(deck.share.items()) if _BAND[0] <= s <= _BAND[1]]
        if band:
            text = rng.choice(band)
    if not text:
        text = rng.choice(FALLBACK_CLUES)
    completed: dict[str, Any] = dict(action)
    completed["text"] = text[:1].upper() + text[1:]
    return completed


FALLBACK_CLUES = ("Dream", "Journey", "Secret", "Home", "Far away", "Silence", "Hope")
"""Clues for a card without a description."""


@lru_cache(maxsize=4096)
def associated_words(deck_id: str, card: int) -> tuple[str, ...]:
    """Words that go with card ``card`` of deck ``deck_id`` without being in its
    description, best first: the words of the other cards' descriptions, each counted
    by how much those cards share with this one (the rarity-weighted words in common),
    times its closeness to the clue band (2–8 % of the deck). A word that shares its
    first five letters with one of the card's own ("window" for "windowsill") or holds
    one ("sunflower" for "sun") is left out. Empty for a card without a description or
    one that shares no word with another."""
    deck = deck_words(deck_id)
    if not 0 <= card < len(deck.cards) or not deck.cards[card]:
        return ()
    own = deck.cards[card]
    strength: dict[str, float] = {}
    for other, found in enumerate(deck.cards):
        shared = own & found
        if other == card or not shared:
            continue
        weight = sum(deck.weight[word] for word in shared)
        for word in found - own:
            strength[word] = strength.get(word, 0.0) + weight
    scored = {word: value / (1.0 + 20.0 * _band_distance(deck, word))
              for word, value in strength.items()
              if word not in NOT_CLUES and not _close_to(word, own)}
    return tuple(sorted(scored, key=lambda word: (-scored[word], word)))


_NOT_CLUES_TEXT = """
looking next top place pair beneath overhead floating away side front back made each
other another just still only much many more most little small tiny huge big enormous
giant large great high low long
"""
NOT_CLUES = frozenset(_NOT_CLUES_TEXT.split())
"""Words of descriptions that say where or how big, not what: never a clue alone."""


def _close_to(word: str, own: frozenset[str]) -> bool:
    """Whether ``word`` is one of ``own``'s, a form or a compound of one."""
    return any(word[:5] == mine[:5] or (len(mine) >= 3 and mine in word)
               or (len(word) >= 3 and word in mine) for mine in own)


def _band_distance(deck: DeckWords, word: str) -> float:
    share = deck.share.get(word, 0.0)
    low, high = _BAND
    return 0.0 if low <= share <= high else min(abs(share - low), abs(share - high))
