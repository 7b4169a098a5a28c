"""How deeply a client's JSON nests: arrays and objects inside each other.

JSON readers accept thousands of levels, but what is sent back (a message's ``id``, a
refused value) and what a record's checks print are written by encoders that stop at
254 levels, and a deep value is never a sensible one: clients' messages and records are
refused past :data:`MAX_DEPTH` levels.
"""

from __future__ import annotations

from typing import Any, Final

from gametable.server.refused import Refused

MAX_DEPTH: Final = 32
"""Deepest nesting accepted in a client message or an uploaded record."""


def too_deep(value: Any, brackets: int) -> bool:
    """Whether ``value`` (parsed JSON) nests more than :data:`MAX_DEPTH` levels.

    Args:
        value: the parsed JSON.
        brackets: how many ``[`` and ``{`` its text holds (counting them is quick;
            a value with few cannot be deep, and is not walked).
    """
    if brackets <= MAX_DEPTH:
        return False
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            depth += 1
            if depth > MAX_DEPTH:
                return True
            stack.extend((child, depth) for child in item)
    return False


def json_refusal(error: BaseException, code: str, key: str, *,
                 not_utf8: str = "server.errors.not_utf8", depth_checked: bool = True,
                 **params: Any) -> Refused:
    """The refusal of a text a JSON reader refused (orjson's, or the standard
    library's that reads HTTP bodies): ``code`` with ``too_deep`` when it nests past the
    reader's own limit (far beyond :data:`MAX_DEPTH`, which the message names where
    ``depth_checked``: what that reader reads is refused past it anyway; else
    ``too_deep_to_read``, which names no limit: HTTP bodies nest as deep as the
    standard library reads, and their models refuse what they do not expect),
    ``number_too_large`` for a
    number beyond a 64-bit float or integer (or the 4,300 digits Python converts),
    ``lone_surrogate`` for a ``\\ud800``-``\\udfff`` escape without its pair (each of these
    is JSON, so "not JSON" would be untrue), ``not_utf8`` for bytes that are not UTF-8
    text (orjson's words for them name surrogates: they were told as a lone surrogate),
    else ``code`` with ``key`` and ``params``."""
    text = str(error)
    if (text.startswith("depth limit exceeded") or "recursion" in text
            or isinstance(error, RecursionError)):
        return (Refused(code, "server.errors.too_deep", limit=MAX_DEPTH) if depth_checked
                else Refused(code, "server.errors.too_deep_to_read"))
    if ((text.startswith("number") and ("infinity" in text or "range" in text))
            or text.startswith("Exceeds the limit")):
        return Refused(code, "server.errors.number_too_large")
    if "not valid UTF-8" in text or isinstance(error, UnicodeDecodeError):
        return Refused(code, not_utf8)
    if "surrogate" in text:
        return Refused(code, "server.errors.lone_surrogate")
    return Refused(code, key, **params)
