"""What every game's options share: the version of the rules a game is played by.

When a finding shows that an engine departed from the rulebooks, the fix changes how some
games go. Records made before the fix must still replay exactly (docs/DESIGN.md: a game is its
record), so each game's config carries ``rules_version``:

* ``1``: the rules as first released (records of format version 1, tables stored before
  schema version 2);
* ``2``: the rules after the audit of 2026-11;
* ``3``: Triominos' PRESSMAN edition ends as the published Pressman sheet says when
  several players reach the target in the last round;
* ``4``: a Sequence Cats round of passes ends the game drawn only on a full board, and
  Dixit Party and Team refuse ``end_on_empty_deck`` (DX-PARTY-7, DX-TEAM-6);
* ``5``: a Sequence Cats round of passes ends the game drawn whether or not a space is
  free, as SC-WIN-3 c says (version 4's full-board reading departed from the rule's
  words), and a Triominos PRESSMAN game that several players end at or above the
  target goes to the most points, as TR-END-4 says (versions 3 and 4 gave it to the
  last round's winner); Dixit as by ``4`` (the current default).

A game reads ``config.rules_version`` wherever the two differ and documents the
differences on its page in ``docs/``. Records and stored tables always carry the field
(:func:`stored_options`), so a later default can never change a recorded game.
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, BeforeValidator, Field, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from gametable.core.errors import ConfigError
from gametable.core.problems import problem_params

RULES_VERSION = 5
"""The rules version of new games."""

RULES_VERSION_FIELD = "rules_version"
"""The name of the option in every game's config."""

FIRST_RULES_VERSION = 1
"""The rules version of records and tables made before the field existed."""


class OptionWarning(UserWarning):
    """Options given together that the rules cannot both follow, one of them set aside
    (the command line prints these as one line each, ``warning: …``)."""


class VersionedConfig(BaseModel):
    """Base of every game's options model: adds ``rules_version`` (1–5, default 5)."""

    rules_version: int = Field(
        default=RULES_VERSION, ge=FIRST_RULES_VERSION, le=RULES_VERSION,
        description="The version of the rules the game is played by (1: as first "
                    "released; 2: after the audit of 2026-11; 3 to 5: later "
                    "findings; 5: current).",
        json_schema_extra={"x-hidden": True})

    option_rules: ClassVar[dict[str, str]] = {}
    """The rule each option sets, by option name (``rounds_per_player`` →
    ``DX-PARTY-7``): a refused value names it (:func:`option_error`)."""

    @model_validator(mode="before")
    @classmethod
    def _numpy_integers(cls, data: Any) -> Any:
        """Options given as NumPy integers (``numpy.int64(4)``, drawn from a seed or an
        array) are read as the whole numbers they are; everything else is checked as
        given (strictly: a float, a string or a NumPy float is still refused)."""
        return plain_integers(data) if isinstance(data, Mapping) else data


def _no_fraction(value: Any) -> Any:
    """Refuse a float (a NumPy float too) where a choice of whole numbers is offered: a
    ``Literal[2, 3]`` compares by equality, so ``3.0`` passed even in strict mode."""
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    return value


NO_FRACTION = BeforeValidator(_no_fraction)
"""Marks an option that offers whole numbers to choose from (``Annotated[Literal[2, 3],
NO_FRACTION]``): a float is refused, as for any other whole-number option."""


def plain_integers(value: Any) -> Any:
    """``value`` with every integer that is not a Python ``int`` (a NumPy integer: any
    :class:`numbers.Integral`) made one, inside dicts and lists too; ``bool`` stays."""
    if isinstance(value, numbers.Integral) and not isinstance(value, int):
        return operator.index(value)
    if isinstance(value, Mapping):
        return {key: plain_integers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain_integers(item) for item in value]
    return value


def config_options(config: object) -> dict[str, Any]:
    """The options of ``config``, given to ``new_game``: another model's fields, or a
    mapping of options as ``make_config`` takes them (which the game then validates).

    Raises:
        TypeError: ``config`` is neither (the message says to call ``make_config``).
    """
    if isinstance(config, BaseModel):
        return config.model_dump()
    if isinstance(config, Mapping):
        return dict(config)
    raise TypeError(f"new_game takes a config from make_config(options, seats) or a "
                    f"mapping of options, not {type(config).__name__}")


def seat_count(seats: object) -> int:
    """``seats`` as a number of seats: a whole number (``4``; not ``4.0``, ``"4"`` nor
    ``True``). Which counts a game takes, its own rule says (a ``ConfigError`` then).

    Raises:
        TypeError: anything else (``2.0`` passed the games' checks and failed deep in the
            deal).
    """
    if isinstance(seats, bool) or not hasattr(seats, "__index__"):
        raise TypeError(f"seats is a whole number of seats, such as 4, not {seats!r}"[:200])
    return operator.index(seats)


def options_mapping(options: object) -> dict[str, Any]:
    """``options`` as ``make_config`` takes them: a mapping of option names to values, or
    ``None`` for the defaults.

    Raises:
        TypeError: anything else (a JSON string, say: decode it first).
    """
    if options is None:
        return {}
    if isinstance(options, BaseModel):
        raise TypeError(f"options is a mapping of option names to values, not a config "
                        f"({type(options).__name__}): a config make_config made goes to "
                        f"new_game as it is")
    if not isinstance(options, Mapping):
        raise TypeError(f"options is a mapping of option names to values (the game's "
                        f"describe()['config_schema'] names them), or None for the "
                        f"defaults, not {options!r}"[:200])
    return dict(options)


def stored_options(config: BaseModel) -> dict[str, Any]:
    """The options to keep in a record or a stored table: those that differ from their
    defaults, plus ``rules_version`` always (so that a later default cannot change the
    recorded game)."""
    options = config.model_dump(exclude_defaults=True, mode="json")
    version = getattr(config, RULES_VERSION_FIELD, None)
    if isinstance(version, int):
        options[RULES_VERSION_FIELD] = version
    return options


def legacy_options(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` of a record or table made before ``rules_version`` existed: the field
    set to :data:`FIRST_RULES_VERSION` unless it is there already."""
    return {**options, RULES_VERSION_FIELD: options.get(RULES_VERSION_FIELD,
                                                        FIRST_RULES_VERSION)}


def option_error(error: ValidationError, rules: Mapping[str, str] | None = None,
                 model: type[BaseModel] | None = None) -> ConfigError:
    """The first problem of a config's validation as ``ConfigError`` (``errors.bad_option``
    citing the option's rule from ``rules``, e.g. a config model's
    :attr:`VersionedConfig.option_rules`, else ``CONFIG``) naming the option as the
    player wrote it: ``board`` or
    ``board.spaces.0``, not the validator's name for a member of a union
    (``board.constrained-str``, ``board.BoardLayout``); of the first option's problems,
    the one deepest in the value.

    Options are checked strictly (each config has ``strict=True``): ``true`` is not 1,
    ``"2"`` is not 2 and ``"no"`` is not false. An option the game does not have is
    ``errors.unknown_option``, listing the options of ``model`` (the hidden
    ``rules_version`` left out). What is wrong with the option's value is
    ``params.problem``, a code with its values (:func:`gametable.core.problems.problem_params`:
    ``{"problem": "at_least", "limit": 50}``), which every catalog says.
    """
    problems = error.errors()
    # Of a union's problems (a board's name or layout), the deepest: the member the
    # value was meant for.
    top = problems[0]["loc"][:1]
    first = max((p for p in problems if p["loc"][:1] == top), key=lambda p: len(p["loc"]))
    parts = [str(part) for i, part in enumerate(first["loc"])
             if i == 0 or isinstance(part, int)
             or (str(part).isidentifier() and str(part).islower())]
    rule = (rules or {}).get(parts[0] if parts else "", "CONFIG")
    if first["type"] == "extra_forbidden" and len(parts) == 1 and model is not None:
        names = sorted(name for name in model.model_fields if name != RULES_VERSION_FIELD)
        return ConfigError(rule, "errors.unknown_option", option=parts[0],
                           options=", ".join(names))
    # The problem as a code the catalogs say (pydantic's English stood inside
    # translated messages).
    return ConfigError(rule, "errors.bad_option", option=".".join(parts) or "options",
                       **problem_params(first))


def for_new_game(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """``options`` for a game about to be dealt: it is played by the current rules
    (:data:`RULES_VERSION`). An older ``rules_version`` is for replaying the records of
    games played by it, never for a new game (those rules departed from the rulebooks).

    Raises:
        ConfigError: ``errors.old_rules`` when ``options`` name another rules version.
    """
    given = dict(options or {})
    version = given.pop(RULES_VERSION_FIELD, RULES_VERSION)
    if version != RULES_VERSION:
        raise ConfigError("PROTOCOL", "errors.old_rules", version=str(version),
                          current=RULES_VERSION)
    return given
