"""Text people type that others see (clues, names, chat): what shows and what hides.

A text can hide things: control characters, marks that turn the text after them around,
zero-width and other invisible format characters, tag characters carrying words nobody
sees, or a letter with hundreds of accents piled over the lines around it.
:func:`visible_only` makes each hidden mark a space and keeps at most :data:`MAX_MARKS`
accents on a letter; :func:`shows_something` tells whether anything is left to see.
Emoji stay whole (their joiners, and the tags of a flag such as Scotland's).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Final

from confusable_homoglyphs import confusables

DIRECTION_MARKS: Final = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                                    "\u2066\u2067\u2068\u2069")
"""Marks that turn the text after them around (a text shown backwards to everyone else)."""

BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
"""Characters that count as letters or symbols but draw nothing: the Hangul fillers, the
blank braille pattern and Khmer's inherent vowels ("Anna\u3164" read as "Anna")."""


def hidden_mark(ch: str) -> bool:
    """Whether ``ch`` is a control character, a direction mark or another invisible
    format character (zero-width space, word joiner, byte-order mark…) or a blank letter
    (:data:`BLANK_LETTERS`): not part of a text anyone sees. An emoji's joiner stays; so
    do tag characters, which :func:`visible_only` keeps only inside a flag."""
    if ch in DIRECTION_MARKS or ch in BLANK_LETTERS:
        return True
    category = unicodedata.category(ch)
    return category in ("Cc", "Cs") or (category == "Cf" and ch != _JOINER
                                        and not _TAGS[0] <= ch <= _TAGS[1])


_JOINER: Final = "\u200d"
_TAGS: Final = ("\U000e0020", "\U000e007f")
"""Tag characters: a flag such as Scotland's is a black flag and tags."""
_BLACK_FLAG: Final = "\U0001f3f4"
_CANCEL_TAG: Final = "\U000e007f"
MAX_MARKS: Final = 4
"""Combining marks kept on one letter (more pile up over the lines around the text)."""


def visible_only(text: str) -> str:
    """``text`` with hidden marks as spaces (:func:`hidden_mark`), tag characters only
    between a black flag and the cancel tag that ends it (elsewhere they carry text
    nobody sees), and at most :data:`MAX_MARKS` combining marks on a letter."""
    kept: list[str] = []
    marks = 0
    in_flag = False
    for ch in text:
        if hidden_mark(ch):
            kept.append(" ")
            marks, in_flag = 0, False
            continue
        if _TAGS[0] <= ch <= _TAGS[1]:
            if in_flag:
                kept.append(ch)
                in_flag = ch != _CANCEL_TAG  # the flag ends at its cancel tag
            continue
        in_flag = ch == _BLACK_FLAG
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        kept.append(ch)
    return "".join(kept)


def shows_something(text: str) -> bool:
    """Whether ``text`` shows anything: a letter, digit, symbol or punctuation (not only
    spaces, joiners, marks and blank letters)."""
    return any(unicodedata.category(ch)[0] not in "MCZ" and ch not in BLANK_LETTERS
               for ch in text)


def name_key(name: str) -> str:
    """``name`` as compared with other names: two names with the same key read alike.

    Compatibility forms (mathematical bold, full-width letters) become plain letters,
    letters that look like Latin ones (Cyrillic "А", Greek "Α") become those, by
    Unicode's confusables (UTS #39, the ``confusable_homoglyphs`` package), then case,
    accents and hidden marks go: "𝐀nna", "Аnna", "ANNA", "Änna" and "Anna\u3164" all
    have the key "anna". Marks nobody sees go too (a variation selector or a joiner after
    a letter), and ASCII that reads as another letter: "AIice" and "Alice" have one key,
    as do "BJARNI", "Bjarni", "Bjarnı" and "ʙjarni" (:data:`_LOWER_LOOK`).
    """
    folded = unicodedata.normalize("NFKC", name)
    latin = "".join(_ASCII_LOOK.get(ch, ch) for ch in
                    (_latin_look(ch) for ch in folded if not _unseen(ch)))
    key = "".join(_LOWER_LOOK.get(ch, ch)
                  for ch in unicodedata.normalize("NFKD", latin.casefold())
                  if not _unseen(ch))
    for pair, single in _PAIRS_LOOK:
        key = key.replace(pair, single)
    return key


def _unseen(ch: str) -> bool:
    """A character that adds nothing anyone can see to a name: a hidden mark, a joiner,
    any combining or enclosing mark (accents, variation selectors, the combining
    grapheme joiner) or another default-ignorable code point."""
    return (hidden_mark(ch) or ch == _JOINER or unicodedata.category(ch) in ("Mn", "Me")
            or _DEFAULT_IGNORABLE[0] <= ord(ch) <= _DEFAULT_IGNORABLE[1]
            or 0x180B <= ord(ch) <= 0x180F or 0xFE00 <= ord(ch) <= 0xFE0F)


_DEFAULT_IGNORABLE: Final = (0xE0000, 0xE0FFF)
"""Tags and variation selectors supplement: never seen in a name."""
_ASCII_LOOK: Final = {"I": "l", "1": "l", "|": "l", "0": "O"}
"""ASCII that reads as another ASCII letter in most fonts (UTS #39's skeletons):
"AIice" reads as "Alice", "B0b" as "Bob"."""
_SMALL_CAPITALS: Final = dict(zip("ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢ", "abcdefghijklmnoprstuvwyz",
                                   strict=True))
_LOWER_LOOK: Final = {**_SMALL_CAPITALS, "ɑ": "a", "ɡ": "g", "ȷ": "j", "ſ": "s",
                      "i": "l", "ı": "l", "ɩ": "l", "ɪ": "l"}
"""Latin letters that read as other Latin letters once case is gone, which UTS #39's
tables leave alone (both sides are Latin): small capitals ("ʙjarni"), the Latin alpha
("Annɑ"), and the letters read as ``l``: "i", which is what a capital "I" (read as "l",
:data:`_ASCII_LOOK`) becomes without case, so that "BJARNI" and "Bjarni" have one key,
and the dotless "ı"."""
_PAIRS_LOOK: Final = (("rn", "m"), ("vv", "w"))
"""Letter pairs that read as one letter once case is gone ("rnary" as "mary")."""


@lru_cache(maxsize=4096)
def _latin_look(ch: str) -> str:
    """The Latin letter ``ch`` looks like, or ``ch``."""
    if ch.isascii():
        return ch
    found = confusables.is_confusable(ch, greedy=False, preferred_aliases=["latin"])
    if not found:
        return ch
    glyphs = [glyph["c"] for glyph in found[0]["homoglyphs"] if glyph["c"].isascii()]
    return glyphs[0] if glyphs else ch


def one_line(text: str) -> str:
    """``text`` as :func:`visible_only` leaves it, its runs of spaces (line breaks
    included) as one space, trimmed."""
    return " ".join(visible_only(text).split())


def display_name(text: str, limit: int = 40) -> str:
    """A name as others see it: :func:`one_line`, at most ``limit`` characters,
    ``""`` when nothing of it shows."""
    clean = one_line(text)[:limit].strip()
    return clean if shows_something(clean) else ""
