"""Translation catalogs shared by the Python package and the browser client.

The catalogs are i18next-style JSON files in ``gametable/locales/<lang>.json``: nested
objects whose leaves are message templates. ``{{name}}`` interpolates a parameter and
``$t(key)`` nests another message (after interpolation), so ``"$t(cards.{{card}}.name)"``
renders a card's name in the catalog's language. The browser client bundles the same
files and renders them with i18next, so every message has one source.
"""

from __future__ import annotations

import importlib
import json
import re
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "is", "nb", "pt")
"""Catalog languages: English, Icelandic, Norwegian Bokmål, Portuguese."""

DEFAULT_LANGUAGE = "en"

_INTERPOLATION = re.compile(r"\{\{\s*([\w.]+)\s*\}\}")
_NESTING = re.compile(r"\$t\(([^()]+)\)")


@cache
def catalog(language: str) -> dict[str, Any]:
    """Return the parsed catalog for ``language`` (one of :data:`LANGUAGES`).

    Raises:
        KeyError: the language has no catalog.
    """
    if language not in LANGUAGES:
        raise KeyError(f"no catalog for language {language!r}; choose one of {LANGUAGES}")
    text = resources.files("gametable.locales").joinpath(f"{language}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


_game_texts_loaded = False


def _load_game_texts() -> None:
    """Register the bundled games once: they add their texts (card names) on registering."""
    global _game_texts_loaded
    if not _game_texts_loaded:
        _game_texts_loaded = True
        importlib.import_module("gametable.games")


def add_messages(language: str, messages: dict[str, Any]) -> None:
    """Merge ``messages`` (nested like a catalog) into ``language``'s catalog.

    Games use it for texts kept in their own data files, such as card names, so that
    messages can refer to them with ``$t(...)``.
    """
    _merge(catalog(language), messages)


def _merge(into: dict[str, Any], extra: dict[str, Any]) -> None:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


def lookup(key: str, language: str = DEFAULT_LANGUAGE) -> str | None:
    """Return the raw template for a dotted ``key``, or ``None`` when it is missing."""
    node: Any = catalog(language)
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node if isinstance(node, str) else None


def translate(key: str, language: str = DEFAULT_LANGUAGE, **params: Any) -> str:
    """Render the message ``key`` in ``language`` with ``params`` interpolated.

    Falls back to English, then to the key itself, so a missing translation never hides
    a message. Nested ``$t(...)`` references are resolved up to a depth of 5. With
    a whole ``count`` the catalog's ``key_one`` or ``key_other`` form is used where it has
    one, chosen by the language's plural rule as the client's i18next does (CLDR:
    Icelandic's "one" is 1, 21, 31 … but not 11; the others' is 1 alone), so that "Vote
    for one card." need not read "Vote for 1 to 1 card(s)." and a verb agrees with the
    players a message names.
    """
    _load_game_texts()
    count = params.get("count")
    for source in dict.fromkeys((language, DEFAULT_LANGUAGE)):
        if isinstance(count, int) and not isinstance(count, bool):
            template = lookup(f"{key}_{plural_form(count, source)}", source)
            if template is not None:
                return _render(template, language, params, depth=0)
        template = lookup(key, source)
        if template is not None:
            return _render(template, language, params, depth=0)
    return key


def plural_form(count: int, language: str) -> str:
    """The CLDR cardinal plural category, ``"one"`` or ``"other"``, of a whole ``count``
    in ``language`` (Icelandic: ends in 1 but not in 11; English, Norwegian and European
    Portuguese: exactly 1). These four languages have no other categories for integers."""
    if language == "is":
        return "one" if count % 10 == 1 and count % 100 != 11 else "other"
    return "one" if count == 1 else "other"


def _render(template: str, language: str, params: dict[str, Any], depth: int) -> str:
    text = _INTERPOLATION.sub(lambda m: str(params.get(m.group(1), m.group(0))), template)
    if depth >= 5 or "$t(" not in text:
        return text
    return _NESTING.sub(
        lambda m: _render(
            lookup(m.group(1), language) or lookup(m.group(1), DEFAULT_LANGUAGE) or m.group(1),
            language,
            params,
            depth + 1,
        ),
        text,
    )
