"""The error types every game raises.

Rules refuse input with :class:`IllegalAction` (an action that breaks a rule) or
:class:`ConfigError` (a configuration or seat count the rules do not allow). Both carry
the rule ID they enforce (``SC-MEOW-2``), a catalog message key and its parameters, so a
client can show the message in its reader's language; ``str(error)`` is
``"RULE-ID: English message"``.
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Collection, Mapping
from typing import Any

from gametable.core.i18n import DEFAULT_LANGUAGE, LANGUAGES, translate

LONGEST_PARAM = 200
"""A text value a refusal repeats is cut to this many characters (with "…"): an action
holding a megabyte of text is refused in a line, not a megabyte."""


def _shortened(value: Any) -> Any:
    if isinstance(value, str) and len(value) > LONGEST_PARAM:
        return value[:LONGEST_PARAM - 1] + "…"
    return value


class GameError(Exception):
    """Base class: a refusal that names a rule and a translatable message.

    Attributes:
        rule: the rule ID from ``docs/rules`` (``"SC-TURN-2"``) or a protocol ID
            (``"PROTOCOL"``) when the input was malformed rather than against a rule.
        key: the message key in the translation catalogs
            (``"sequence_cats.errors.space_taken"``, ``"errors.unknown_game"``).
        params: values interpolated into the message (JSON-serialisable; a text longer
            than :data:`LONGEST_PARAM` characters cut to it).
    """

    def __init__(self, rule: str, key: str, **params: Any) -> None:
        self.rule = rule
        self.key = key
        self.params = {name: _shortened(value) for name, value in params.items()}
        super().__init__(self.message())

    def message(self, language: str = "en") -> str:
        """The message rendered in ``language`` (en, is, nb, pt); in English for a
        language without a catalog (``"de"``), as for a message a catalog lacks."""
        if language not in LANGUAGES:
            language = DEFAULT_LANGUAGE
        return translate(self.key, language, **self.params)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description: ``{"rule", "key", "params", "message"}``."""
        return {"rule": self.rule, "key": self.key, "params": self.params,
                "message": self.message()}

    def __str__(self) -> str:
        return f"{self.rule}: {self.message()}"


class IllegalAction(GameError):
    """An action that the rules refuse. The state it was applied to is unchanged.

    Attributes (from :class:`GameError`): ``rule`` (``"SC-TURN-2"``, or ``"PROTOCOL"``
    for malformed input), ``key`` (``"sequence_cats.errors.space_taken"``) and
    ``params`` (``{"space": "F2"}``); the message in a language is
    ``message(language)``, ``str(error)`` is ``"RULE: message"``.
    """


class ConfigError(GameError, ValueError):
    """A game configuration or seat count that the rules do not allow."""


def seat_index(seat: object, seats: int) -> int:
    """``seat`` as a plain ``int`` in ``0 … seats - 1`` (a NumPy integer becomes an
    ``int``, so that events and views stay JSON).

    Raises:
        IllegalAction: ``PROTOCOL`` / ``errors.no_such_seat`` for a seat out of range;
            ``errors.seat_not_whole`` for anything but a whole number: a ``bool``, a
            float such as ``1.0``, a string such as ``"0"`` or ``None``.
    """
    if not isinstance(seat, bool) and hasattr(seat, "__index__"):
        index = operator.index(seat)
        if 0 <= index < seats:
            return int(index)
        raise IllegalAction("PROTOCOL", "errors.no_such_seat", seat=str(index)[:20],
                            seats=seats, count=seats)
    shown = repr(seat) if isinstance(seat, (bool, float, str)) or seat is None \
        else type(seat).__name__
    raise IllegalAction("PROTOCOL", "errors.seat_not_whole", seat=shown[:20],
                        last=seats - 1)


def check_fields(action: Mapping[str, Any], kind: str, required: Collection[str] = (),
                 optional: Collection[str] = ()) -> None:
    """Check that an action of type ``kind`` holds ``"type"``, every ``required`` field
    and nothing but those and ``optional`` ones.

    Raises:
        IllegalAction: ``PROTOCOL`` / ``errors.action_missing_field`` naming the first
            missing field, or ``errors.action_extra_field`` naming a field the action
            does not take and listing those it does.
    """
    for field in required:
        if field not in action:
            raise IllegalAction("PROTOCOL", "errors.action_missing_field", action_type=kind,
                                field=field)
    allowed = ("type", *required, *optional)
    for field in action:
        if field not in allowed:
            raise IllegalAction("PROTOCOL", "errors.action_extra_field", action_type=kind,
                                field=_shown(field),
                                fields=", ".join(f'"{name}"' for name in allowed))


def unknown_action(kind: object, types: Collection[str]) -> IllegalAction:
    """The refusal of an action whose ``type``, ``kind``, is none of the game's
    ``types`` (``PROTOCOL`` / ``errors.unknown_action``, listing them: a Triominos
    ``"play"`` is told that the game's actions are ``"place"``, ``"draw"`` and
    ``"pass"``)."""
    return IllegalAction("PROTOCOL", "errors.unknown_action", action_type=str(kind),
                         types=", ".join(f'"{name}"' for name in types))


def bad_field(kind: str, field: str, value: object,
              key: str = "errors.action_bad_value") -> IllegalAction:
    """The refusal of ``value`` as an action's ``field`` (``PROTOCOL`` / ``key``,
    ``errors.action_bad_value`` unless a game's message says more, such as what the
    field holds): not of the right kind, or naming nothing that exists
    (a space, a card, a tile). The value is shown shortened to 40 characters. A value
    that is no JSON value at all (a tuple, a NumPy number, anywhere inside it) is
    refused as ``errors.action_not_json``, naming its Python type and what to give
    instead: ``"(0, 0)" is not a valid "position"`` read as if the value were wrong.
    The value is shown as its JSON: ``"ZZ"`` in quotes, ``5`` and ``[0, 0]`` without."""
    foreign = _not_json(value)
    if foreign is not None:
        return IllegalAction("PROTOCOL", "errors.action_not_json", action_type=kind,
                             field=field, kind=foreign, value=_shown_python(value))
    return IllegalAction("PROTOCOL", key, action_type=kind, field=field,
                         value=_shown_json(value))


def json_action(action: object) -> dict[str, Any]:
    """``action`` as a plain JSON object of its own (a deep copy: tuples and the rules'
    frozen lists become lists), for a record to keep.

    Raises:
        IllegalAction: ``PROTOCOL`` / ``errors.malformed_action`` for anything but a
            mapping with a string ``"type"``; ``errors.action_not_json`` for a value in it
            that is no JSON value (a NumPy number, say), naming its field.
    """
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise IllegalAction("PROTOCOL", "errors.malformed_action")
    copied: dict[str, Any] = {key: _plain(value) for key, value in action.items()}
    for field, value in copied.items():
        if _not_json(field) is not None or _not_json(value) is not None:
            raise bad_field(copied["type"], _shown(field), value)
    return copied


def _plain(value: object) -> object:
    """``value`` with every mapping made a ``dict``, every list or tuple a ``list``, and
    every string a ``str`` (a ``numpy.str_``, which the rules take as the string it is,
    was refused by the record after the rules had applied it)."""
    if isinstance(value, Mapping):
        return {_plain(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, str) and type(value) is not str:
        return str.__str__(value)
    return value


_JSON_SCALARS = (str, int, float, bool, type(None))


def _not_json(value: object) -> str | None:
    """The Python type of the first part of ``value`` that is no JSON value (``tuple``,
    ``numpy.int64``), or ``None`` when all of it is (lists, dicts with string keys,
    strings, numbers, booleans, ``None``)."""
    if type(value) is float and not math.isfinite(value):
        return "float"  # (NaN and the infinities: JSON has no form for them)
    if type(value) in _JSON_SCALARS:
        return None
    if type(value) is list:
        return next((kind for item in value if (kind := _not_json(item)) is not None), None)
    if type(value) is dict:
        return next((kind for key, item in value.items()
                     if (kind := _not_json(key) if type(key) is not str else _not_json(item))
                     is not None), None)
    module, name = type(value).__module__, type(value).__qualname__
    return name if module == "builtins" else f"{module}.{name}"


def _shown_python(value: object) -> str:
    """``value`` as Python writes it, at most 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _shown(value: object) -> str:
    """``value`` as a person should see it in a message, at most 40 characters."""
    try:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:39] + "…"


def _shown_json(value: object) -> str:
    """``value`` as the JSON that was sent, at most 40 characters: a string in its
    quotes, a number or a list without (``5`` read as ``"5"`` looked like a string)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:39] + "…"


def check_own_view(view: Mapping[str, Any], seat: object, game: str) -> None:
    """Refuse a view that is not ``seat``'s own in ``game`` (a determinization needs the
    hand it deals around), saying whose it is.

    Raises:
        ValueError: ``"sample_state needs seat 1's own view of sequence-cats,
            view(state, 1); this is seat 0's"`` (or a spectator's, or another game's).
    """
    if view.get("game") == game and view.get("seat") == seat and "hand" in view:
        return
    held = view.get("seat")
    whose = (f"a view of {_shown(view.get('game'))}" if view.get("game") != game
             else "a spectator's" if held is None else f"seat {_shown(held)}'s")
    raise ValueError(f"sample_state needs seat {_shown(seat)}'s own view of {game}, "
                     f"view(state, {_shown(seat)}); this is {whose}")

