"""What a validator found wrong with one value, as a message every catalog says.

pydantic describes a wrong value in English ("Input should be 'gametable-record'"), and
that text stood inside translated messages: a Portuguese reader was told «o campo
«format» está errado (Input should be 'gametable-record')». Refusals carry the problem
as a code instead, ``params.problem``, with the values it names (``params.choices``,
``params.limit``, ``params.pattern``), and their templates say it through
``$t(errors.problems.{{problem}})`` in the reader's language, in Python
(:func:`gametable.core.i18n.translate`) and in the browser (i18next) alike.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping
from typing import Any

PROBLEM_KEY = "errors.problems"
"""The catalog node of the problems' messages: ``errors.problems.<code>``."""

INVALID = "invalid"
"""The code of a problem no message says more precisely ("this value is not accepted")."""

#: pydantic's error types, by the problem code that says them.
_BY_TYPE: dict[str, str] = {
    "missing": "missing",
    "extra_forbidden": "not_taken",
    "int_type": "whole_number", "int_parsing": "whole_number",
    "int_from_float": "whole_number",
    "float_type": "number", "float_parsing": "number", "finite_number": "number",
    "bool_type": "true_or_false", "bool_parsing": "true_or_false",
    "string_type": "text",
    "list_type": "list", "tuple_type": "list",
    "dict_type": "object", "model_type": "object", "model_attributes_type": "object",
}

#: Limits, by pydantic's error type: the problem code and the ``ctx`` entry of the limit.
_LIMITS: dict[str, tuple[str, str]] = {
    "greater_than_equal": ("at_least", "ge"),
    "greater_than": ("above", "gt"),
    "less_than_equal": ("at_most", "le"),
    "less_than": ("below", "lt"),
    "string_too_short": ("text_too_short", "min_length"),
    "string_too_long": ("text_too_long", "max_length"),
    "too_short": ("too_few", "min_length"),
    "too_long": ("too_many", "max_length"),
}

CODES: frozenset[str] = frozenset(
    {*_BY_TYPE.values(), *(code for code, _ in _LIMITS.values()),
     "must_be", "one_of", "empty", "pattern", INVALID})
"""Every problem code :func:`problem_params` gives; each has a message in every catalog."""


def problem_params(error: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters that say one of pydantic's errors (an item of
    ``ValidationError.errors()``) in any language: ``{"problem": code}``, a code of
    :data:`CODES`, with the values the message names:

    * ``must_be`` / ``one_of``: ``choices``, the allowed values written as JSON and
      separated by commas (``"IS", "EN", "PT"``);
    * ``at_least``, ``above``, ``at_most``, ``below`` (a number),
      ``text_too_short``, ``text_too_long`` (characters), ``too_few``, ``too_many``
      (items of a list): ``limit``; a text or list that must not be empty is ``empty``;
    * ``pattern``: ``pattern``, the regular expression a text must match;
    * ``whole_number``, ``number``, ``true_or_false``, ``text``, ``list``, ``object``
      (the value is of another kind), ``missing``, ``not_taken`` (a field the object
      does not have): nothing more.

    An error of a type not listed is ``invalid`` (nothing more), never pydantic's English.
    """
    kind = str(error.get("type", ""))
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    if kind in _BY_TYPE:
        return {"problem": _BY_TYPE[kind]}
    if kind in _LIMITS:
        code, name = _LIMITS[kind]
        limit = ctx.get(name)
        if isinstance(limit, bool) or not isinstance(limit, (int, float)):
            return {"problem": INVALID}
        if code in {"text_too_short", "too_few"} and limit == 1:
            return {"problem": "empty"}
        return {"problem": code, "limit": limit}
    if kind in {"literal_error", "enum"}:
        choices = _choices(str(ctx.get("expected", "")))
        if not choices:
            return {"problem": INVALID}
        return {"problem": "must_be" if len(choices) == 1 else "one_of",
                "choices": ", ".join(choices)}
    if kind == "string_pattern_mismatch" and isinstance(ctx.get("pattern"), str):
        return {"problem": "pattern", "pattern": ctx["pattern"]}
    return {"problem": INVALID}


def _choices(expected: str) -> list[str]:
    """pydantic's English list of the allowed values (``"'IS', 'EN' or 'PT'"``, Python
    reprs joined by commas and a last "or") as JSON values (``['"IS"', '"EN"',
    '"PT"']``); nothing where it does not read as such a list."""
    head, _, last = expected.rpartition(" or ")
    listed = f"{head}, {last}" if head else last
    try:
        values = ast.literal_eval(f"[{listed}]")
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return []
    if not isinstance(values, list) or not values:
        return []
    try:
        return [json.dumps(value, ensure_ascii=False) for value in values]
    except (TypeError, ValueError):
        return []
