"""Copies of JSON values, for views that must not share the game's own objects."""

from __future__ import annotations

from typing import Any


def json_copy(value: Any) -> Any:
    """A deep copy of a JSON-like ``value``: every ``dict`` and ``list`` (and ``tuple``,
    copied as a ``list``) is new; strings, numbers, booleans and ``None`` are shared
    (they cannot change). About ten times faster than :func:`copy.deepcopy` on such data,
    which it needs no memo for: the rules never put one container in two places."""
    if isinstance(value, dict):
        return {key: json_copy(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_copy(item) for item in value]
    return value
