"""The names people and computer players go by at a table: cleaned, kept to
:data:`MAX_NAME` characters, and told apart from the other seats' names (no two "Ada",
no person called "Computer 2", nor any called by the word for computer players)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from gametable.bots import bot_names
from gametable.bots.base import LEVELS, seat_name
from gametable.core.i18n import LANGUAGES, translate
from gametable.core.protocol import Seat
from gametable.core.text import display_name, name_key
from gametable.server.refused import Refused
from gametable.server.storage import SeatRow
from gametable.server.table import BOT

MAX_NAME: Final = 40
"""Characters of a display name kept."""


def clean_name(name: str | None) -> str:
    """A display name on one line, at most :data:`MAX_NAME` characters, without control
    characters, direction marks or other invisible characters and with at most a few
    accents on a letter (:func:`gametable.core.text.one_line`); ``""`` when nothing of it
    shows."""
    return display_name(name, MAX_NAME) if name else ""


def distinct_name(name: str, seats: Sequence[SeatRow], seat: Seat, *,
                  person: bool = True) -> str:
    """``name`` for ``seat``, told apart from the other seats' names: a name another
    seat already has (case and accents aside) gets the first free number, "Anna (2)",
    so nobody at the table speaks (in the chat) under someone else's name. So does a
    name the pages give another seat that has none, in any language ("Player 2",
    "Greedy 4", "Seat 3"): nobody poses as a nameless friend or as a computer player. A
    ``person`` (not a computer player named at creation) does not pose as the computer
    player of their own seat either ("Greedy 2" in seat 2), and holds no word for
    computer players at all ("Computer 2 · Hard", "Dag (computer: Hard)": refused).

    Raises:
        Refused: ``name_computer`` (400) a ``person``'s name holds, as a word, what the
            pages call computer players in any of the site's languages ("Computer (hard)",
            "🤖 Tölva"; see :func:`computer_word`); nothing is changed.
    """
    if person and name:
        word = computer_word(name)
        if word is not None:
            raise Refused("name_computer", "server.errors.name_computer", word=word)
    others = [s for s in seats if s.seat != seat]
    taken = {_same(s.name) for s in others if s.name}
    shown = _OPEN_SEAT.union(*(_shown_names(s.seat + 1) for s in others),
                             *(_shown_as(s.kind, s.bot, s.name, s.seat + 1) for s in others))
    if person:
        shown = shown | _computer_names(seat + 1)
    key = _same(name) if name else ""
    if not name or not (key in taken or key in shown
                        or any(key.startswith(prefix + " ") for prefix in shown)):
        return name
    for number in range(2, len(seats) + 3):
        suffix = f" ({number})"
        candidate = name[:MAX_NAME - len(suffix)].rstrip() + suffix
        if _same(candidate) not in taken and _same(candidate) not in shown:
            return candidate
    return name  # not reached: fewer names are taken than numbers tried


def computer_word(name: str) -> str | None:
    """The word for computer players ("Computer", "Tölva", "Datamaskin", "Computador":
    each language's ``ui.seat.level_short`` without its number) that ``name`` holds as a
    word, case, accents and look-alike letters aside; ``None`` if it holds none. A person
    so named read as one more computer player: "Computer (hard)'s card" beside
    "Computer 6's card", a team "Computer (hard) & Computer 6 · Hard"."""
    key = _same(name)
    for word, pattern in _computer_words():
        if pattern.search(key):
            return word
    return None


@lru_cache(maxsize=1)
def _computer_words() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each language's word for a computer player, as written, with a pattern that finds
    its key (:func:`_same`) as a whole word in a name's key."""
    words: dict[str, str] = {}
    for language in LANGUAGES:
        written = translate("ui.seat.level_short", language, seat=0).replace("0", "").strip()
        words.setdefault(_same(written), written)
    return tuple((written, re.compile(rf"(?<!\w){re.escape(key)}(?!\w)"))
                 for key, written in words.items())


@lru_cache(maxsize=64)
def _computer_names(number: int) -> frozenset[str]:
    """The keys (:func:`_same`) of the names pages give a computer player in seat
    ``number`` (1-based), in every language: "Computer 2" (the start of "Computer 2 ·
    Hard") and each bot's name for a nameless seat, as :func:`seat_name` gives it
    ("Greedy 2", "Computer 2 · Hard"), also with the level that is the same player in
    some game ("Greedy 2 · Medium")."""
    return frozenset(
        [_same(translate("ui.seat.level_short", language, seat=number))
         for language in LANGUAGES]
        + [_same(seat_name(number - 1, None, bot, language, level))
           for bot in bot_names() for language in LANGUAGES for level in (None, *LEVELS)])


_OPEN_SEAT: Final = frozenset(name_key(translate("ui.seat.open", language))
                              for language in LANGUAGES)
"""The keys of "Open seat" in every language: nobody is called that."""

_SHOWN_NAME_KEYS: Final = ("ui.seat.default_name", "ui.seat.label", "ui.seat.level_short")
"""The names a page gives a seat without one: a person's, any seat's, a computer
player's (whose full name, "Computer 4 · Hard", begins with it)."""


@lru_cache(maxsize=64)
def _shown_names(number: int) -> frozenset[str]:
    """The keys (:func:`_same`) of the names pages give seat ``number`` (1-based) when it
    has none, in every language of the catalogs."""
    return frozenset(_same(translate(key, language, seat=number))
                     for key in _SHOWN_NAME_KEYS for language in LANGUAGES)


@lru_cache(maxsize=256)
def _shown_as(kind: str, bot: str | None, name: str | None, number: int) -> frozenset[str]:
    """The keys (:func:`_same`) of the names pages show for a computer player beyond its
    number, in every language, as :func:`seat_name` gives them (one path for the pages,
    ``gametable replay`` and this check, which had built them apart): under a person's
    name once it took their seat over ("Dag (computer: Medium)", at each level, since
    the host may give the seat another), or for a nameless seat its bot's name
    ("Random 4", "Computer 4 · Easy", "Simulator 4 · Hard")."""
    if kind != BOT:
        return frozenset()
    bots = LEVELS if name else (bot,)
    return frozenset(_same(seat_name(number - 1, name, shown, language, level))
                     for language in LANGUAGES for shown in bots
                     for level in (None, *LEVELS))


def _same(name: str) -> str:
    """A name as compared with others: two that read alike are the same (look-alike
    letters, case, accents and spaces aside; :func:`gametable.core.text.name_key`)."""
    return name_key(name)
