"""The banks of clues Dixit's computer players draw on, one per language (data files).

``data/clues-<language>.json`` (``en``, ``is``, ``nb``, ``pt``) holds

* ``motifs``: for a thing a card may show, named by its English noun as card descriptions
  name it (``"camel"``, ``"beach ball"``), short clues a person might give for it: idioms,
  titles, associations ("Ship of the desert", "Hump day", "Caravan");
* ``general``: clues that fit many pictures ("Far from home", "Daydream").

``data/names.json`` names each motif key (and other words of descriptions: the sky, the
light, sizes) in every clue language, with the inflected and compound forms a clue may use
("sporvagn", "snømann", "nevoeiro"): :func:`names` reads it, and a storyteller never says
a name of what its card shows (:class:`NameSet`).

Storytellers pick their clues from the bank of the table's clue language; listeners use
every language's phrases to understand what a clue may point at (a card showing a camel
is a fair answer to "Navio do deserto"). All phrases are embedded once, as queries; the
vectors ship in ``data/clue-vectors.npz`` and are made again in memory when the bank or
the model changed (``python -m gametable.games.dixit.clues`` rewrites the file).
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import re
import threading
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from gametable.embeddings import DIMENSIONS, MODEL_ID, Vectors, encoder

LANGUAGES: Final = ("en", "is", "nb", "pt")
"""The clue languages, as ``clue_language`` names them."""
DATA: Final = Path(__file__).parent / "data"
VECTORS_FILE: Final = DATA / "clue-vectors.npz"
NAMES_FILE: Final = DATA / "names.json"
GENERAL: Final = -1
"""The key index of a general phrase."""
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Bank:
    """Every phrase of every language, grouped by motif.

    Attributes:
        keys: the motif nouns, sorted.
        phrases: all phrases: the motif phrases grouped by key (in ``keys`` order), then
            the general ones.
        key: per phrase, the index of its key in ``keys`` (:data:`GENERAL` for general).
        language: per phrase, the index of its language in :data:`LANGUAGES`.
        starts: per key, the index of its first phrase (its phrases run to the next start).
        vectors: per phrase, its unit vector as a query, ``(len(phrases), 384)``.
        key_vectors: per key, the noun's unit vector as a passage, ``(len(keys), 384)``.
        patterns: per key, a regular expression finding it (or its plural) in a text.
    """

    keys: tuple[str, ...]
    phrases: tuple[str, ...]
    key: npt.NDArray[np.int32]
    language: npt.NDArray[np.int8]
    starts: npt.NDArray[np.intp]
    vectors: Vectors
    key_vectors: Vectors
    patterns: tuple[re.Pattern[str], ...]

    @property
    def motif_count(self) -> int:
        """How many phrases belong to a motif (they come first)."""
        return int(np.count_nonzero(self.key >= 0))

    def of_language(self, language: str) -> npt.NDArray[np.intp]:
        """Indices of the phrases in ``language``."""
        return np.flatnonzero(self.language == LANGUAGES.index(language))

    def keys_in(self, text: str | None) -> list[int]:
        """The keys named in ``text`` (a longer key hides a shorter one inside it:
        "beach ball" is not also a "ball")."""
        if not text:
            return []
        low = FIGURATIVE.sub(" ", text.lower())
        found = [i for i, pattern in enumerate(self.patterns) if pattern.search(low)]
        names = [self.keys[i] for i in found]
        return [i for i in found
                if not any(other != self.keys[i] and re.search(
                    r"\b" + re.escape(self.keys[i]) + r"\b", other) for other in names)]

    def details_in(self, text: str | None, keys: Iterable[int]) -> set[int]:
        """Those of ``keys`` (found in ``text`` by :meth:`keys_in`) that ``text`` names
        only as a detail of the picture (:func:`is_detail`): a small, distant or hidden
        thing that people looking at the picture may not see."""
        if not text:
            return set()
        low = FIGURATIVE.sub(" ", text.lower())
        return {k for k in keys
                if all(is_detail(low, m.start(), m.end())
                       for m in self.patterns[k].finditer(low))}


FIGURATIVE = re.compile(
    r"as smooth as glass|\btowers\b(?= over)|\bsea of (?=clouds)|"
    r"(?:shines|hangs in the sky) like (?:the|a) moon|in place of the moon")
"""Words of a description that name no thing of the picture: a lake "as smooth as
glass", a giant that "towers over", the sea of a "sea of clouds" (the clouds are
there), a lamp "like the moon"."""

_SMALL = r"(?:small|little|wee|tiny|distant|faraway|far-off|hidden|half-hidden)"
DETAIL_BEFORE = re.compile(
    r"\b(?:a|an|the|one|two|three|some|its|their)\s+(?:[\w-]+\s+){0,2}?"
    + _SMALL + r"\s+(?:[\w-]+\s+)?(?:[\w-]+\s+of\s+)?$")
"""The words before a thing that make it a detail: a small, little, wee, tiny, distant
or hidden one ("a small grey gift box", "a faraway tram")."""
DETAIL_AFTER = re.compile(
    r"^(?:\s+[\w-]+){0,2}?\s+(?:behind|half-hidden|hidden|partly hidden|peeking|peeks|"
    r"in the background|in the distance|far away|on the horizon)\b")
"""The words after a thing that make it a detail: one behind another or hidden, far
away ("a gift box half-hidden behind", "a lighthouse rises on the horizon")."""
DETAIL_SENTENCE = re.compile(
    r"^\s*(?:far away|far off|in the distance|in the background|on the horizon)\b")
"""A sentence that begins with these names only distant things ("Far away, a pale
acorn stands on the horizon")."""


def is_detail(text: str, start: int, end: int) -> bool:
    """Whether the thing named at ``text[start:end]`` (lower case) is a detail of the
    picture: small, distant or hidden (:data:`DETAIL_BEFORE`, :data:`DETAIL_AFTER`,
    :data:`DETAIL_SENTENCE`), not what the card is about."""
    sentence = max(text.rfind(mark, 0, start) for mark in ".;!?") + 1
    stop = min((i for i in (text.find(mark, end) for mark in ".;!?,") if i >= 0),
               default=len(text))
    return bool(DETAIL_BEFORE.search(text[sentence:start])
                or DETAIL_AFTER.match(text[end:stop])
                or DETAIL_SENTENCE.match(text[sentence:start]))


def _read_texts() -> tuple[list[str], list[str], list[int], list[int]]:
    motifs: dict[str, list[tuple[int, str]]] = {}
    general: list[tuple[int, str]] = []
    for number, language in enumerate(LANGUAGES):
        raw = json.loads((DATA / f"clues-{language}.json").read_text(encoding="utf-8"))
        for key, given in raw["motifs"].items():
            motifs.setdefault(key, []).extend((number, p) for p in given)
        general.extend((number, p) for p in raw["general"])
    keys = sorted(motifs)
    phrases: list[str] = []
    key_of: list[int] = []
    language_of: list[int] = []
    for index, key in enumerate(keys):
        for number, phrase in motifs[key]:
            phrases.append(phrase)
            key_of.append(index)
            language_of.append(number)
    for number, phrase in general:
        phrases.append(phrase)
        key_of.append(GENERAL)
        language_of.append(number)
    return keys, phrases, key_of, language_of


def _digest(keys: list[str], phrases: list[str]) -> str:
    text = "\x1e".join([MODEL_ID, *keys, "\x1d", *phrases])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _pattern(key: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in key.lower().split()]
    return re.compile(r"\b" + r"[\s-]+".join(words) + r"(?:s|es)?\b")


def make_vectors(keys: list[str], phrases: list[str]) -> tuple[Vectors, Vectors]:
    """The phrase vectors (queries) and key vectors (passages) of a bank."""
    model = encoder()
    return model.queries(phrases), model.passages(keys)


def write_vectors() -> Path:
    """(Re)write :data:`VECTORS_FILE` for the banks as they are now."""
    keys, phrases, _, _ = _read_texts()
    vectors, key_vectors = make_vectors(keys, phrases)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, vectors=vectors.astype(np.float16),
                        key_vectors=key_vectors.astype(np.float16),
                        digest=np.array(_digest(keys, phrases)))
    VECTORS_FILE.write_bytes(buffer.getvalue())
    return VECTORS_FILE


_KEEP: Final = frozenset("åøæðþ")
"""Letters that :func:`fold` keeps: letters of their own, not accented ones (Norwegian
"tåke" is not English "take")."""
_LETTERS = re.compile(r"[^\W\d_]+")


@cache
def _fold_char(char: str) -> str:
    if char in _KEEP:
        return char
    return "".join(c for c in unicodedata.normalize("NFKD", char)
                   if not unicodedata.combining(c))


def fold(text: str) -> str:
    """``text`` in lower case with its accents folded: "Pôr do Sol" is "por do sol",
    "Norðurljós" "norðurljos" (å, ø, æ, ð and þ stay as they are)."""
    return "".join(_fold_char(c) for c in text.lower())


def words_of(text: str) -> tuple[str, ...]:
    """The words of ``text``, folded (:func:`fold`): runs of letters ("Cock-a-doodle":
    cock, a, doodle)."""
    return tuple(_LETTERS.findall(fold(text)))


def words_as_written(text: str) -> tuple[str, ...]:
    """The words of ``text`` in lower case, accents kept ("Ís": ís)."""
    return tuple(_LETTERS.findall(text.lower()))


@dataclass(frozen=True)
class NameSet:
    """Names a clue must not contain (see ``data/names.json``), ready to look for.

    Attributes:
        exact: names found as whole words.
        starts: names also found at a word's start (a compound's first part).
        ends: names also found at a word's end (a compound's last part).
        inside: names also found anywhere in a word (those of six letters or more).
        phrases: names of several words, found as those words in a row (the last one may
            go on: "northern light" finds "northern lights").
        not_compounds: words in which ``starts``, ``ends`` and ``inside`` are not looked
            for (they begin or end with a name without being made of it: "giant").
        as_written: names of one or two letters with accents, found only as written
            (Icelandic "ís" is not English "is").
    """

    exact: frozenset[str]
    starts: tuple[str, ...]
    ends: tuple[str, ...]
    inside: tuple[str, ...]
    phrases: tuple[tuple[str, ...], ...]
    not_compounds: frozenset[str]
    as_written: frozenset[str] = frozenset()

    def found(self, words: Sequence[str], written: Sequence[str] = ()) -> str | None:
        """The first name found in ``words`` (folded, :func:`words_of`; ``written``:
        the same words as written, :func:`words_as_written`), or ``None``."""
        for word in written:
            if word in self.as_written:
                return word
        for word in words:
            if word in self.exact:
                return word
            if word in self.not_compounds:
                continue
            if self.starts and word.startswith(self.starts):
                return next(n for n in self.starts if word.startswith(n))
            if self.ends and word.endswith(self.ends):
                return next(n for n in self.ends if word.endswith(n))
            for name in self.inside:
                if name in word:
                    return name
        for phrase in self.phrases:
            last = len(phrase) - 1
            for at in range(len(words) - last):
                if words[at + last].startswith(phrase[last]) \
                        and all(words[at + k] == phrase[k] for k in range(last)):
                    return " ".join(phrase)
        return None


@dataclass(frozen=True)
class Names:
    """``data/names.json``: per motif key and per description word, its names in every
    clue language (as written in the file, with their ``=`` and ``-`` marks; a name of
    one or two letters with an accent is found only as written)."""

    motifs: dict[str, tuple[str, ...]]
    words: dict[str, tuple[str, ...]]
    not_compounds: frozenset[str]

    def of(self, keys: Iterable[str], words: Iterable[str] = ()) -> NameSet:
        """The names of motif ``keys`` and of description ``words`` (those the file
        lists), as a :class:`NameSet`."""
        given = [n for k in keys for n in self.motifs.get(k, ())]
        given += [n for w in words for n in self.words.get(w, ())]
        exact: set[str] = set()
        starts: set[str] = set()
        ends: set[str] = set()
        inside: set[str] = set()
        phrases: set[tuple[str, ...]] = set()
        as_written: set[str] = set()
        for name in given:
            whole, start, end = name.startswith("="), name.endswith("-"), \
                name.startswith("-")
            parts = words_of(name)
            if len(parts) > 1:
                phrases.add(parts)
                continue
            word = parts[0]
            if len(word) < 3 and word != name.strip("=-"):
                as_written.add(name.strip("=-"))
                continue
            exact.add(word)
            if whole or len(word) < 3:
                continue
            plain = not (start or end)
            if start or plain:
                starts.add(word)
            if end or plain:
                ends.add(word)
            if plain and len(word) >= 6:
                inside.add(word)
        return NameSet(exact=frozenset(exact), starts=tuple(sorted(starts)),
                       ends=tuple(sorted(ends)), inside=tuple(sorted(inside)),
                       phrases=tuple(sorted(phrases)), not_compounds=self.not_compounds,
                       as_written=frozenset(as_written))


@cache
def names() -> Names:
    """The names file, read once per process."""
    raw = json.loads(NAMES_FILE.read_text(encoding="utf-8"))

    motifs = {key: tuple(n for language in LANGUAGES for n in entry.get(language, ()))
              for key, entry in raw["motifs"].items()}
    words = {word: tuple(n for language in LANGUAGES for n in entry.get(language, ()))
             + tuple(n for key in entry.get("motifs", ()) for n in motifs[key])
             for word, entry in raw["words"].items()}
    return Names(motifs=motifs, words=words,
                 not_compounds=frozenset(fold(w) for w in raw["not_compounds"]))


_lock = threading.Lock()


@cache
def _bank() -> Bank:
    keys, phrases, key_of, language_of = _read_texts()
    expected = _digest(keys, phrases)
    vectors: Vectors | None = None
    key_vectors: Vectors | None = None
    try:
        with np.load(VECTORS_FILE) as data:
            if str(data["digest"]) == expected:
                vectors = data["vectors"].astype(np.float32)
                key_vectors = data["key_vectors"].astype(np.float32)
    except (OSError, ValueError, KeyError):
        pass
    if vectors is None or key_vectors is None \
            or vectors.shape != (len(phrases), DIMENSIONS):
        log.warning("the clue bank's vectors are missing or stale; embedding %d phrases "
                    "(run python -m gametable.games.dixit.clues to ship them)", len(phrases))
        vectors, key_vectors = make_vectors(keys, phrases)
    key_array = np.array(key_of, dtype=np.int32)
    starts = np.searchsorted(key_array[key_array >= 0], np.arange(len(keys)))
    return Bank(keys=tuple(keys), phrases=tuple(phrases), key=key_array,
                language=np.array(language_of, dtype=np.int8), starts=starts,
                vectors=vectors, key_vectors=key_vectors,
                patterns=tuple(_pattern(k) for k in keys))


def bank() -> Bank:
    """The :class:`Bank`, loaded once per process (thread-safe)."""
    with _lock:
        return _bank()


if __name__ == "__main__":
    print(write_vectors())
