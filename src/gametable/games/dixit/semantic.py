"""Dixit computer players that understand what clues mean (the ``semantic`` bot).

Everything here works from a seat's view, its legal actions and the deck's public card
descriptions (DX-DECK-3), like the ``greedy`` heuristics of :mod:`.heuristics`, but it
compares meanings instead of words (sentence embeddings, :mod:`gametable.embeddings`).

**Fit of a card to a clue** (:meth:`DeckMind.fit`), higher is better, a weighted sum of

* the cosine of the clue and the card's description;
* the best cosine of the clue and a bank phrase of a thing the card shows
  (:mod:`.clues`: "Ship of the desert" is a phrase of *camel*, so it finds the camel);
* the best cosine of the clue and the name of a thing the card shows;

less a share of the card's mean fit to clues in general (some descriptions are close to
everything; this keeps them from drawing every vote).

**Listener** (giving a card, voting, the second vote from 7 players, Party's green and
red votes, the Team giver): the card that fits best, chosen at random among the cards in
proportion to ``exp(fit / temperature)`` so that players do not all think alike.

**Storyteller** (DX-SCORE-1/2: some but not all must find the card): for each card of
the hand, candidate clues are the bank phrases of the things it shows (what it is about,
not its small, distant or hidden details, :meth:`DeckMind.story_keys`) and the general
phrases, in the table's clue language, less any phrase that says what the card shows
(:func:`copies`: a word of its description, or a name of a thing it shows in any clue
language, "Sporvagn" for a tram). Each candidate is played out on tables of plausible
decoys (other players give a card of a random hand as the listener would) against voters
who choose as the listener does; the clue with the most expected storyteller points wins.
The Party storyteller speaks before seeing the hand (DX-PARTY-2): it picks, at random, one
of the phrases that many cards of the deck fit, of a motif not told yet at the table. A
deck without descriptions leaves every card equal: the players choose at random (legally)
and say a general clue.
"""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Sequence, Set
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from gametable.core.protocol import Action, Observation
from gametable.decks import find_deck
from gametable.decks.vectors import deck_vectors
from gametable.embeddings import Vectors, encoder
from gametable.games.dixit.clues import (
    GENERAL,
    LANGUAGES,
    Bank,
    NameSet,
    bank,
    fold,
    names,
    words_as_written,
    words_of,
)
from gametable.games.dixit.heuristics import STOP_WORDS

Floats = npt.NDArray[np.float64]

WEIGHTS: Final = (1.0, 1.0, 0.5)
"""Weights of the description, bank-phrase and motif-name cosines in a card's fit."""
SCALE: Final = 100.0
"""Fits are cosines times this: for a clue, the cards' fits spread by about one unit."""
HUB: Final = 0.5
"""Share of a card's mean fit that is taken off (hub correction)."""
TEMPERATURE: Final = 0.2
"""The default temperature (fit units): the strongest play that still varies."""
BELIEF_TEMPERATURE: Final = 0.3
"""How sure a voter is of its judgement when it weighs a second vote (DX-7P-3)."""
SIMULATIONS: Final = 64
"""Tables of decoys a storyteller imagines per candidate clue."""
MOTIF_BONUS: Final = 0.3
"""Expected points a clue of a rare motif of the card is worth beyond its chances."""
RARE_MOTIF: Final = 0.1
"""A motif found on at most this share of the deck's cards is rare (a thing, not the sky)."""
GENERAL_RANK: Final = 0.05
"""A general phrase is a candidate clue for a card among the best-fitting 5 % of the deck."""
PARTY_BREADTH: Final = 0.8
"""A Party clue's breadth: its fit at this quantile of the deck's cards (many cards fit)."""
PARTY_SHARE: Final = 0.1
"""A Party storyteller says one of the broadest tenth of its language's phrases."""

_WORD = re.compile(r"[^\W\d_]+")
IRREGULAR: Final = {
    "mice": "mouse", "lice": "louse", "geese": "goose", "teeth": "tooth", "feet": "foot",
    "men": "man", "women": "woman", "children": "child", "oxen": "ox", "people": "person",
    "wolves": "wolf", "leaves": "leaf", "loaves": "loaf", "calves": "calf",
    "halves": "half", "shelves": "shelf", "thieves": "thief", "hooves": "hoof",
    "scarves": "scarf", "elves": "elf", "knives": "knife", "wives": "wife",
    "lives": "life", "cacti": "cactus", "fungi": "fungus", "dice": "die",
}
"""Plurals that do not end in -s, and those whose -ves stands for -f or -fe."""
NOT_PLURAL: Final = frozenset({
    "mars", "rhinoceros", "atlas", "canvas", "christmas", "chaos", "cosmos", "kudos",
    "news", "lens", "always", "perhaps", "yes", "goes", "does", "series", "species"})
"""Words that end in -s without being plurals (besides -ss, -us and -is)."""
SHORT_WHOLE: Final = frozenset({"low", "big", "wee", "bob", "row", "fly"})
"""Three-letter description words that are not names of things: found in a clue only
as the same word (a "fly" is not in "butterfly", "low" not in "yellow")."""


def content_words(text: str | None) -> set[str]:
    """Words of ``text`` without stop words, accents folded, plurals reduced (``pigs``:
    ``pig``, ``mice``: ``mouse``)."""
    found = set()
    for raw in _WORD.findall(fold(text or "")):
        if raw in STOP_WORDS or len(raw) < 3:
            continue
        found.add(_singular(raw))
    return found


def _singular(word: str) -> str:
    if word in IRREGULAR:
        return IRREGULAR[word]
    if word in NOT_PLURAL or word.endswith(("ss", "us", "is")):
        return word
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s"):
        return word[:-1]
    return word


def copies(clue: str, description: str | None) -> bool:
    """Whether ``clue`` says what the card of ``description`` shows: a content word of
    the description (:func:`repeats_a_word`: "Sunshine" for a sun), or a name of a thing
    the description names, in any clue language (:func:`names_a_thing`: "Sporvagn" or
    "Elétrico 28" for a tram)."""
    return repeats_a_word(clue, description) or names_a_thing(clue, description)


def repeats_a_word(clue: str, description: str | None) -> bool:
    """Whether ``clue`` holds a content word of ``description`` (:func:`_copies`)."""
    return _copies(content_words(clue), content_words(description))


def names_a_thing(clue: str, description: str | None) -> bool:
    """Whether ``clue`` holds a name, in any clue language, of a thing ``description``
    names (``data/names.json``)."""
    return _refusal(description or "").found(words_of(clue), words_as_written(clue)) \
        is not None


@cache
def _refusal(description: str) -> NameSet:
    """The names a clue for a card of ``description`` must not contain (cached)."""
    the_bank = bank()
    keys = [the_bank.keys[k] for k in the_bank.keys_in(description)]
    return names().of(keys, content_words(description))


@cache
def _phrase_keys() -> dict[str, frozenset[int]]:
    """Per bank phrase text, the keys it is a phrase of (general: none)."""
    the_bank = bank()
    keys: dict[str, set[int]] = {}
    for text, key in zip(the_bank.phrases, the_bank.key, strict=True):
        found = keys.setdefault(text, set())
        if key != GENERAL:
            found.add(int(key))
    return {text: frozenset(found) for text, found in keys.items()}


def _keys_of(text: str) -> frozenset[int]:
    """The motif keys of a clue: those it is a bank phrase of."""
    return _phrase_keys().get(text, frozenset())


@cache
def phrase_words(index: int) -> frozenset[str]:
    """The content words of bank phrase ``index`` (cached)."""
    return frozenset(content_words(bank().phrases[index]))


@cache
def phrase_tokens(index: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words of bank phrase ``index``, folded and as written (cached)."""
    text = bank().phrases[index]
    return words_of(text), words_as_written(text)


def _copies(mine: Set[str], theirs: Set[str]) -> bool:
    """Whether a word of the clue (``mine``) is a word of the description (``theirs``),
    begins or ends one, or one of four letters or more begins or ends it ("lanterns" and
    "lantern"; "midnight" and "night"; "sunshine" and "sun"; "ant" is not found in
    "giant"): not in a word of ``names.json``'s ``not_compounds`` (words that are not made
    of the shorter one), nor in one of :data:`SHORT_WHOLE`."""
    not_compounds = names().not_compounds
    for word in mine:
        for other in theirs:
            if word == other:
                return True
            short, long = sorted((word, other), key=len)
            if len(short) < 3 or long in not_compounds \
                    or (len(short) == 3 and (short in SHORT_WHOLE or short == word)):
                continue
            if long.startswith(short) or long.endswith(short):
                return True
    return False


@dataclass
class DeckMind:
    """What the players know of one deck: each card's vectors and motifs.

    Attributes:
        size: cards in the deck.
        described: per card, whether it has a description.
        descriptions: per card, its description (or ``None``).
        desc: per card, the description's unit vector (zeros without one).
        card_keys: per card, the bank keys it shows, padded with ``-1``.
        card_details: per card, beside ``card_keys``, whether the description names
            that thing only as a detail (small, distant or hidden: :meth:`Bank.details_in`).
        words: per card, the content words of its description (a clue repeats none).
        refusals: per card, the names of what it shows, in every clue language (a clue
            says none).
        key_share: per bank key, the share of the deck's cards that show it.
        hub: per card, its mean fit to clues in general.
    """

    size: int
    described: npt.NDArray[np.bool_]
    descriptions: list[str | None]
    desc: Vectors
    card_keys: npt.NDArray[np.intp]
    card_details: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros((0, 1), bool))
    words: list[frozenset[str]] = field(default_factory=list)
    refusals: list[NameSet] = field(default_factory=list)
    key_share: Floats = field(default_factory=lambda: np.zeros(0))
    hub: Floats = field(default_factory=lambda: np.zeros(0))
    _fits: Floats = field(default_factory=lambda: np.zeros((0, 0)))
    _known: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, bool))
    _breadth: dict[str, Floats] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def phrase_fit(self, phrases: Sequence[int] | npt.NDArray[np.intp]) -> Floats:
        """:meth:`fit` of bank phrases ``phrases`` (indices), ``(len(phrases), size)``:
        each phrase's row is made once and kept (a storyteller's candidates come back
        decision after decision)."""
        the_bank = bank()
        wanted = np.asarray(phrases, dtype=np.intp)
        with self._lock:
            if self._known.size != len(the_bank.phrases):
                self._fits = np.zeros((len(the_bank.phrases), self.size))
                self._known = np.zeros(len(the_bank.phrases), bool)
            missing = np.unique(wanted[~self._known[wanted]])
        if missing.size:
            made = self.fit(the_bank.vectors[missing])
            with self._lock:
                self._fits[missing] = made
                self._known[missing] = True
        result: Floats = self._fits[wanted]
        return result

    def breadth(self, language: str) -> Floats:
        """Per phrase of ``language`` (:meth:`Bank.of_language` order), its fit at the
        :data:`PARTY_BREADTH` quantile of the described cards: how many cards it fits
        (made once per language, a tenth of a second or two)."""
        with self._lock:
            found = self._breadth.get(language)
        if found is None:
            phrases = bank().of_language(language)
            found = np.concatenate([
                np.quantile(self.phrase_fit(phrases[start:start + 256])[:, self.described],
                            PARTY_BREADTH, axis=1)
                for start in range(0, len(phrases), 256)]) if len(phrases) else np.zeros(0)
            with self._lock:
                self._breadth[language] = found
        return found

    def says_what_it_shows(self, card: int, phrase: int) -> bool:
        """Whether bank phrase ``phrase`` says what card ``card`` shows (:func:`copies`)."""
        return _copies(phrase_words(phrase), self.words[card]) \
            or self.refusals[card].found(*phrase_tokens(phrase)) is not None

    def story_keys(self, card: int) -> list[int]:
        """The things of card ``card`` a storyteller may build its clue on: those few
        cards show (not the sky or the sea), and of them what the card is about, not its
        details (a small gift box at an elephant's feet, a faraway tram on the horizon:
        people looking at the picture may not find them), unless it has only details."""
        rare = [(int(k), bool(d)) for k, d in zip(self.card_keys[card],
                                                  self.card_details[card], strict=True)
                if k >= 0 and self.key_share[k] <= RARE_MOTIF]
        main = [k for k, detail in rare if not detail]
        return main or [k for k, _ in rare]

    @property
    def blind(self) -> bool:
        """No card has a description: the players cannot tell cards apart."""
        return not bool(self.described.any())

    def fit(self, queries: Vectors, *, exclude_above: float | None = None,
            hub: bool = True) -> Floats:
        """Fit of every card to each query vector: ``(len(queries), size)``.

        Cards without description get the median fit of the others. With
        ``exclude_above``, bank phrases whose cosine to the query exceeds it are ignored
        (to measure how the players do on clues the bank does not hold).
        """
        the_bank = bank()
        queries = np.atleast_2d(queries)
        sd = (queries @ self.desc.T).astype(np.float64)
        motif = the_bank.motif_count
        phrase = queries @ the_bank.vectors[:motif].T
        if exclude_above is not None:
            phrase = np.where(phrase > exclude_above, -1.0, phrase)
        per_key = np.maximum.reduceat(phrase, the_bank.starts, axis=1)
        names = queries @ the_bank.key_vectors.T
        has: npt.NDArray[np.bool_] = np.asarray(self.card_keys >= 0)
        any_key: npt.NDArray[np.bool_] = np.asarray(has.any(axis=1))
        index = np.where(has, self.card_keys, 0)
        sb = np.where(has[None], per_key[:, index], -np.inf).max(axis=2)
        sk = np.where(has[None], names[:, index], -np.inf).max(axis=2)
        sb = np.where(any_key[None], sb, sd)
        sk = np.where(any_key[None], sk, sd)
        wd, wb, wk = WEIGHTS
        score = SCALE * (wd * sd + wb * sb + wk * sk) / (wd + wb + wk)
        if hub and self.hub.size:
            score = score - HUB * self.hub[None]
        if not self.described.all():
            fill = np.median(score[:, self.described], axis=1, keepdims=True) \
                if self.described.any() else np.zeros((len(score), 1))
            score = np.where(self.described[None], score, fill)
        return score


_minds: dict[str, DeckMind] = {}
_minds_lock = threading.Lock()


def deck_mind(deck_id: str) -> DeckMind:
    """The :class:`DeckMind` of deck ``deck_id`` (cached; empty for an unknown deck)."""
    with _minds_lock:
        mind = _minds.get(deck_id)
    if mind is not None:
        return mind
    deck = find_deck(deck_id)
    the_bank = bank()
    if deck is None:
        descriptions: list[str | None] = []
        vectors: Vectors = np.zeros((0, the_bank.vectors.shape[1]), dtype=np.float32)
    else:
        descriptions = deck.descriptions()
        vectors = deck_vectors(deck)
    keys = [the_bank.keys_in(d) for d in descriptions]
    width = max((len(k) for k in keys), default=0) or 1
    card_keys = np.full((len(keys), width), -1, dtype=np.intp)
    card_details = np.zeros((len(keys), width), dtype=bool)
    for i, found in enumerate(keys):
        card_keys[i, :len(found)] = found
        details = the_bank.details_in(descriptions[i], found)
        card_details[i, :len(found)] = [k in details for k in found]
    mind = DeckMind(size=len(descriptions),
                    described=np.array([bool(d) for d in descriptions], dtype=bool),
                    descriptions=descriptions, desc=vectors, card_keys=card_keys,
                    card_details=card_details,
                    words=[frozenset(content_words(d)) for d in descriptions],
                    refusals=[_refusal(d or "") for d in descriptions])
    counts = np.zeros(len(the_bank.keys))
    for found in keys:
        counts[found] += 1
    mind.key_share = counts / max(1, len(keys))
    if mind.size and not mind.blind:
        reference = _reference_phrases(the_bank)
        mind.hub = mind.fit(the_bank.vectors[reference], hub=False).mean(axis=0)
    with _minds_lock:
        _minds[deck_id] = mind
    return mind


def _reference_phrases(the_bank: Bank) -> npt.NDArray[np.intp]:
    """Clues in general: every general phrase and the first English phrase of each key."""
    general = np.flatnonzero(the_bank.key == GENERAL)
    english = np.flatnonzero((the_bank.language == 0) & (the_bank.key >= 0))
    first = english[np.unique(the_bank.key[english], return_index=True)[1]]
    return np.concatenate([general, first])


def clue_fit(mind: DeckMind, text: str) -> Floats:
    """Fit of every card of the deck to the clue ``text``, ``(size,)``."""
    if not text.strip() or mind.blind:
        return np.zeros(mind.size)
    result: Floats = mind.fit(encoder().queries([text]))[0]
    return result


def softmax(values: Floats, temperature: float) -> Floats:
    """``exp(values / temperature)``, normalised (a temperature of 0: the best only)."""
    if temperature <= 0:
        best = (values == values.max()).astype(np.float64)
        only: Floats = best / best.sum()
        return only
    z = np.exp((values - values.max()) / temperature)
    result: Floats = z / z.sum()
    return result


@dataclass
class Player:
    """One seat's Dixit player (``semantic`` bot).

    Attributes:
        rng: the player's own randomness.
        temperature: how loosely it follows its judgement, in fit units: 0 always takes
            the best-fitting card and clue, :data:`TEMPERATURE` is the strongest setting
            that still varies, larger values play more loosely (a weaker player).
        used: clues this player has given (it does not repeat itself).
    """

    rng: random.Random
    temperature: float = TEMPERATURE
    used: set[str] = field(default_factory=set)

    # -- the decision -----------------------------------------------------------------

    def choose(self, view: Observation, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (completed: a clue gets its text), from ``view`` alone."""
        kind = legal[0].get("type")
        mind = deck_mind(str(view.get("deck", "")))
        if kind == "clue":
            return self._clue(view, legal, mind)
        if len(legal) == 1:
            return legal[0]
        clue = (view.get("clue") or {}).get("text") or ""
        fit = clue_fit(mind, clue) if mind.size else np.zeros(0)
        if kind == "submit":
            return self._submit(legal, fit)
        if kind == "vote":
            return self._vote(view, legal, fit)
        if kind == "giver":
            return self._giver(view, legal, fit)
        return legal[self.rng.randrange(len(legal))]

    def _sample(self, values: Floats, temperature: float | None = None) -> int:
        weights = softmax(values, self.temperature if temperature is None else temperature)
        return int(np.searchsorted(np.cumsum(weights), self.rng.random() * weights.sum()))

    # -- listener ---------------------------------------------------------------------

    def _card_fit(self, fit: Floats, card: int) -> float:
        return float(fit[card]) if 0 <= card < len(fit) else 0.0

    def _submit(self, legal: Sequence[Action], fit: Floats) -> Action:
        """DX-ROUND-2, DX-3P-2, DX-PARTY-3, DX-TEAM-2: the card(s) that fit the clue best
        (those draw votes: DX-SCORE-3)."""
        values = np.array([sum(self._card_fit(fit, c) for c in a["cards"]) / len(a["cards"])
                           for a in legal])
        return legal[self._sample(values)]

    def _vote(self, view: Observation, legal: Sequence[Action], fit: Floats) -> Action:
        table: list[int] = view.get("table") or []
        slot_fit = np.array([self._card_fit(fit, card) for card in table])
        if view.get("variant") == "party":
            return self._party_vote(view, legal, slot_fit)
        singles = [a for a in legal if len(a["slots"]) == 1]
        values = np.array([slot_fit[a["slots"][0] - 1] for a in singles])
        first = singles[self._sample(values)]
        if len(singles) == len(legal) or len(singles) < 2:
            return first
        # DX-7P-1/3: a second vote pays when the second card is at least a third as
        # likely as the first (3 (p1 + p2) > 3 p1 + 1 p1 for the lone-vote point).
        belief = softmax(values, BELIEF_TEMPERATURE)
        chosen = first["slots"][0]
        k = next(i for i, a in enumerate(singles) if a["slots"][0] == chosen)
        rest = [i for i in np.argsort(-belief) if i != k]
        second = rest[0]
        if belief[second] * 3 <= belief[k]:
            return first
        pair = sorted((chosen, singles[second]["slots"][0]))
        return next((a for a in legal if sorted(a["slots"]) == pair), first)

    def _party_vote(self, view: Observation, legal: Sequence[Action],
                    slot_fit: Floats) -> Action:
        """DX-PARTY-4/5: the green vote where most players will vote (the best fit, one's
        own card allowed); the storyteller's red vote on the next most likely card."""
        green = int(self._sample(slot_fit)) + 1
        if not any("red" in a for a in legal):
            return next((a for a in legal if a["slots"] == [green]), legal[0])
        order = [int(i) + 1 for i in np.argsort(-slot_fit) if int(i) + 1 != green]
        red = order[0]
        return next((a for a in legal if a["slots"] == [green] and a.get("red") == red),
                    legal[0])

    def _giver(self, view: Observation, legal: Sequence[Action], fit: Floats) -> Action:
        """DX-TEAM-2: give oneself when a card of the hand is among the tenth of the deck
        that fits the clue best, else let the teammate give."""
        seat = view.get("seat")
        hand: list[int] = view.get("hand") or []
        mine = next((a for a in legal if a.get("seat") == seat), legal[0])
        other = next((a for a in legal if a.get("seat") != seat), legal[0])
        if not len(fit) or not hand:
            return legal[self.rng.randrange(len(legal))]
        best = max(self._card_fit(fit, c) for c in hand)
        share_above = float(np.mean(fit > best))
        return mine if share_above <= 0.1 else other

    # -- storyteller ------------------------------------------------------------------

    def _clue(self, view: Observation, legal: Sequence[Action], mind: DeckMind) -> Action:
        # Never a clue already told at this table, by anyone (people would not repeat
        # one): the clues of past rounds are public in the view.
        for summary in [*(view.get("history") or []), view.get("last_round") or {}]:
            told = (summary.get("clue") or {}).get("text")
            if told:
                self.used.add(str(told))
        language = str(view.get("clue_language") or "en")
        if language not in LANGUAGES:
            language = "en"
        if "card" not in legal[0]:
            text = self._party_clue(mind, language)
            return _with_text(legal[0], text)
        if mind.blind or not mind.size:
            action = legal[self.rng.randrange(len(legal))]
            return _with_text(action, self._general_clue(language))
        card, text = self._story(view, legal, mind, language)
        action = next(a for a in legal if a["card"] == card)
        return _with_text(action, text)

    def _general_clue(self, language: str, mind: DeckMind | None = None,
                      card: int | None = None) -> str:
        """A general phrase not told yet (nor saying what ``card`` of ``mind`` shows)."""
        the_bank = bank()
        pool = [int(i) for i in the_bank.of_language(language)
                if the_bank.key[i] == GENERAL and the_bank.phrases[i] not in self.used
                and (mind is None or card is None or not 0 <= card < mind.size
                     or not mind.says_what_it_shows(card, int(i)))]
        if not pool:
            pool = [int(i) for i in the_bank.of_language(language)
                    if the_bank.key[i] == GENERAL]
        text = the_bank.phrases[self.rng.choice(pool)]
        self.used.add(text)
        return text

    def _party_clue(self, mind: DeckMind, language: str) -> str:
        """DX-PARTY-2: before seeing the hand, a clue that many cards fit: one of the
        broadest tenth of the language's phrases (:meth:`DeckMind.breadth`), a motif
        chosen at random among them and then one of its phrases, never a motif or a word
        of a clue already told at the table ("Í skýjunum" is not followed by "Með höfuðið
        í skýjunum", nor "Over the moon" by "Moonlight")."""
        if mind.blind or not mind.size:
            return self._general_clue(language)
        the_bank = bank()
        phrases = the_bank.of_language(language)
        breadth = mind.breadth(language)
        told_keys = {k for text in self.used for k in _keys_of(text)}
        told_words = {w for text in self.used for w in content_words(text)}
        told_names = names().of(the_bank.keys[k] for k in told_keys)
        fresh = np.array([
            the_bank.phrases[i] not in self.used
            # (a phrase of several motifs, "Sunny side up" of the egg and the sun, is
            # none of them once one is told)
            and not _keys_of(the_bank.phrases[i]) & told_keys
            and not phrase_words(int(i)) & told_words
            and told_names.found(*phrase_tokens(int(i))) is None
            for i in phrases], dtype=bool)
        if not fresh.any():
            fresh[:] = True
        order = np.flatnonzero(fresh)[np.argsort(-breadth[fresh])]
        broadest = [int(phrases[j]) for j in order[:max(1, int(PARTY_SHARE * len(order)))]]
        # One motif (or general phrase) at random, then one of its phrases: a motif with
        # many broad phrases (the sea) is no likelier than one with a single phrase.
        groups: dict[int | str, list[int]] = {}
        for i in broadest:
            key = int(the_bank.key[i])
            groups.setdefault(key if key != GENERAL else the_bank.phrases[i], []).append(i)
        group = list(groups.values())[self.rng.randrange(len(groups))]
        text = the_bank.phrases[group[self.rng.randrange(len(group))]]
        self.used.add(text)
        return text

    def _story(self, view: Observation, legal: Sequence[Action], mind: DeckMind,
               language: str) -> tuple[int, str]:
        """DX-ROUND-1, DX-SCORE-1/2: the (card, clue) with the most expected points."""
        the_bank = bank()
        hand = [int(a["card"]) for a in legal]
        lang = LANGUAGES.index(language)
        # General phrases, and those of things that many cards show (the sky, the
        # sea), are candidates for a card only where they fit it unusually well.
        common = np.flatnonzero(mind.key_share > RARE_MOTIF)
        general = np.flatnonzero(((the_bank.key == GENERAL) | np.isin(the_bank.key, common))
                                 & (the_bank.language == lang))
        own: dict[int, list[int]] = {}
        for card in hand:
            if 0 <= card < mind.size and mind.described[card]:
                keys = mind.story_keys(card)
                own[card] = [int(i) for i in np.flatnonzero(
                    np.isin(the_bank.key, keys) & (the_bank.language == lang))]
        pool = sorted({i for phrases in own.values() for i in phrases} | set(general.tolist()))
        pool = [i for i in pool if the_bank.phrases[i] not in self.used]
        if not own or not pool:
            card = hand[self.rng.randrange(len(hand))]
            return card, self._general_clue(language, mind, card)
        row = {phrase: n for n, phrase in enumerate(pool)}
        fit = mind.phrase_fit(pool)                                 # (phrases, deck)
        # A general phrase is a candidate for a card that it fits better than
        # GENERAL_RANK of the deck does; the card's own phrases always are.
        rank = (fit[:, None, :] > fit[:, list(own)][:, :, None]).mean(axis=2)
        options: list[tuple[int, int]] = []
        for column, card in enumerate(own):
            mine = [i for i in own[card] if i in row]
            mine += [int(i) for i in general if int(i) in row
                     and rank[row[int(i)], column] <= GENERAL_RANK]
            options.extend((card, i) for i in dict.fromkeys(mine)
                           if not mind.says_what_it_shows(card, i))
        if not options:
            card = hand[self.rng.randrange(len(hand))]
            return card, self._general_clue(language, mind, card)
        cards = np.array([c for c, _ in options])
        rows = np.array([row[i] for _, i in options])
        value = self._expected_points(view, mind, fit[rows], cards, hand)
        # Prefer what the picture shows to its sky and ground: a phrase of a motif
        # found on few cards of the deck is the more telling clue.
        motif = the_bank.key[[i for _, i in options]]
        value = value + MOTIF_BONUS * ((motif >= 0)
                                       & (mind.key_share[np.maximum(motif, 0)] <= RARE_MOTIF))
        best = self._sample(value)
        text = the_bank.phrases[options[best][1]]
        self.used.add(text)
        return int(cards[best]), text

    def _expected_points(self, view: Observation, mind: DeckMind, fit: Floats,
                         cards: npt.NDArray[np.intp], hand: list[int]) -> Floats:
        """Expected storyteller points of each (clue, card): ``fit`` is ``(C, size)``."""
        seats = int(view.get("seats") or 4)
        variant = view.get("variant")
        if variant == "team":  # the teammate and one giver per other team; the voters
            decoys, voters, own_card = seats // 2, seats // 2 - 1, False  # gave nothing
        elif seats == 3:
            decoys, voters, own_card = 4, 2, True
        else:
            decoys, voters, own_card = seats - 1, seats - 1, True
        hand_size = len(view.get("hand") or hand) or 6
        pool = np.array([c for c in range(mind.size) if mind.described[c] and c not in hand])
        if len(pool) < decoys * hand_size:
            pool = np.flatnonzero(mind.described)
        rng = np.random.default_rng(self.rng.getrandbits(32))
        draws = np.stack([rng.choice(pool, size=(decoys, hand_size), replace=False)
                          for _ in range(SIMULATIONS)])                  # (S, k, h)
        # Players pictured as thinking like oneself: each giver gives a card of its hand
        # at random in proportion to exp(fit / t) (drawn with Gumbel noise), each voter
        # votes likewise.
        t = max(self.temperature, 0.05)
        in_hand = fit[:, draws]                                          # (C, S, k, h)
        noise = rng.gumbel(size=draws.shape)
        given = np.argmax(in_hand / t + noise, axis=3)[..., None]
        picked = np.take_along_axis(in_hand, given, axis=3)[..., 0]      # (C, S, k)
        target = fit[np.arange(len(cards)), cards][:, None, None]       # (C, 1, 1)
        top = np.maximum(picked.max(axis=2, keepdims=True), target)
        e_target = np.exp((target - top) / t)
        e_decoy = np.exp((picked - top) / t)
        total = e_target + e_decoy.sum(axis=2, keepdims=True)
        # Voter j gave decoy j and may not vote for it (DX-ROUND-5).
        owner = e_decoy[:, :, :voters] if own_card else np.zeros_like(e_decoy[:, :, :voters])
        p_find = e_target / (total - owner)                              # (C, S, V)
        p_all = np.prod(p_find, axis=2)
        p_none = np.prod(1 - p_find, axis=2)
        points: Floats = 3 * (1 - p_all - p_none).mean(axis=1)
        return points


def _with_text(action: Action, text: str) -> Action:
    completed: dict[str, Any] = dict(action)
    completed["text"] = text
    completed["mime"] = False
    return completed


