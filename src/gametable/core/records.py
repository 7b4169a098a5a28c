"""Game records: the persistence, replay, bug-report and test-fixture format.

A record is ``(game, config, seats, seed, actions)`` as versioned JSON (see
``docs/records.md``). Because every random choice is drawn from ``seed`` inside the
state, replaying the actions in order reproduces every state exactly.
"""

from __future__ import annotations

import json
import operator
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, SupportsIndex

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from gametable.core import registry
from gametable.core.config import (
    FIRST_RULES_VERSION,
    RULES_VERSION,
    RULES_VERSION_FIELD,
    legacy_options,
    stored_options,
)
from gametable.core.errors import ConfigError, GameError, IllegalAction, json_action
from gametable.core.i18n import translate
from gametable.core.problems import PROBLEM_KEY, problem_params
from gametable.core.protocol import Event, Game
from gametable.core.rng import check_seed
from gametable.core.text import display_name

RECORD_FORMAT: Final = "gametable-record"
RECORD_VERSION: Final = 2
"""Records of version 1 were made before games carried ``rules_version``; they replay by
the first rules (``gametable.core.config``)."""
MAX_SEED = 2**63 - 1


class EarlierOccupant(BaseModel):
    """Who held a seat before the record's ``name`` and ``bot``, once the game had begun
    (the host opened a person's seat and someone else took it, say): a person (``bot``
    ``None``) or a computer player, until the record held ``until`` actions; the seat's
    moves among those are theirs. ``name``, ``bot`` and ``bot_since`` as in
    :class:`SeatInfo`."""

    model_config = ConfigDict(extra="forbid", strict=True)
    until: int = Field(ge=1)
    name: str | None = Field(default=None, max_length=40)
    bot: str | None = Field(default=None, max_length=100)
    bot_since: int | None = Field(default=None, ge=0, exclude_if=lambda since: since is None)

    @field_validator("name", "bot")
    @classmethod
    def _shown(cls, value: str | None) -> str | None:
        return (display_name(value, 100) or None) if value is not None else None


class SeatInfo(BaseModel):
    """Who sat in a seat: a display name, and the bot's name for a computer player.

    Both are read as names are shown (:func:`gametable.core.text.display_name`): one
    line (a name at most 40 characters, a bot's 100), hidden characters as spaces (a record file's
    direction marks would disguise who made each move), ``None`` when nothing shows.
    ``bot_since`` is set for a computer player that took a person's seat over mid-game:
    the number of actions recorded before it did (0 or more); the person ``name`` made
    the seat's actions among those, the computer player ``bot`` every later one.
    ``earlier`` lists who held the seat before (oldest first, each until a number of
    actions), where it changed hands once the game had begun; the seat's later actions
    are ``name``'s and ``bot``'s.
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str | None = Field(default=None, max_length=40)
    bot: str | None = Field(default=None, max_length=100)
    bot_since: int | None = Field(default=None, ge=0, exclude_if=lambda since: since is None)
    earlier: list[EarlierOccupant] = Field(default_factory=list,
                                           exclude_if=lambda earlier: not earlier)

    @field_validator("name", "bot")
    @classmethod
    def _shown(cls, value: str | None) -> str | None:
        return (display_name(value, 100) or None) if value is not None else None


class RecordFieldError(ValueError):
    """A field of a record is wrong given the rest of the record (a seat's ``earlier``
    or ``bot_since`` against the actions): ``field`` is its path, as
    ``seats.1.earlier.0.until``, which pydantic cannot give a check of the whole record.

    ``problem`` is the code of the message that says what is wrong
    (``errors.problems.<problem>`` in the catalogs, as
    :func:`gametable.core.problems.problem_params` gives for pydantic's own errors) and
    ``params`` its values; ``str(error)`` is the message in English."""

    def __init__(self, field: str, problem: str, **params: Any) -> None:
        super().__init__(translate(f"{PROBLEM_KEY}.{problem}", "en", **params))
        self.field = field
        self.problem = problem
        self.params = params


def first_problem(error: ValidationError) -> tuple[str, str, str]:
    """The first thing wrong in ``error``: its field's path (``seats.0.name``;
    ``record`` for the whole), what is wrong in the English catalog's words (as
    :func:`problem_of` gives it, never pydantic's own text), and pydantic's error type
    (``missing`` for a field not given)."""
    field, params, kind = problem_of(error)
    return field, translate(f"{PROBLEM_KEY}.{params['problem']}", "en", **params), kind


def problem_of(error: ValidationError) -> tuple[str, dict[str, Any], str]:
    """The first thing wrong in ``error`` as a refusal says it in any language: its
    field's path (as :func:`first_problem`), the parameters of the message
    ``errors.problems.<problem>`` (``{"problem": "must_be", "choices":
    '"gametable-record"'}``: :func:`gametable.core.problems.problem_params`), and
    pydantic's error type."""
    first = error.errors()[0]
    cause = (first.get("ctx") or {}).get("error")
    if isinstance(cause, RecordFieldError):
        return cause.field, {"problem": cause.problem, **cause.params}, first["type"]
    field = ".".join(str(part) for part in first["loc"]) or "record"
    return field, problem_params(first), first["type"]


def _check_since(number: int, seat: SeatInfo | EarlierOccupant, field: str,
                 until: int) -> None:
    """Refuse a ``bot_since`` without a bot or past ``until`` actions (the record's
    count, or when an earlier occupant gave the seat up) of seat ``number``'s ``seat``
    (itself or an earlier occupant), found at ``field`` (``seats.1`` or
    ``seats.1.earlier.0``)."""
    if seat.bot_since is None:
        return
    if seat.bot is None:
        raise RecordFieldError(f"{field}.bot_since", "since_without_bot", seat=number)
    if seat.bot_since > until:
        raise RecordFieldError(
            f"{field}.bot_since",
            "since_past_end" if isinstance(seat, SeatInfo) else "since_past_leaving",
            seat=number, since=seat.bot_since, actions=until)


class RecordedAction(BaseModel):
    """One accepted action: the seat that took it and the action object."""

    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(ge=0)
    action: dict[str, Any]


class GameRecord(BaseModel):
    """A complete, replayable game (``docs/records.md``). Fields are checked strictly:
    a seed or seat written as a string (``"7"``) is refused, not read as a number.

    ``format`` and ``version`` are required: the version decides how a record replays
    (a version 1 record by the first rules), so a file that does not say it is not read
    as any version. :func:`new_record` makes a record of the current version."""

    model_config = ConfigDict(extra="forbid", strict=True)
    format: Literal["gametable-record"]
    version: Literal[1, 2]
    game: str
    config: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatInfo] = Field(min_length=1)
    seed: int = Field(ge=0, le=MAX_SEED)
    actions: list[RecordedAction] = Field(default_factory=list)
    meta: dict[str, Any] = Field(default_factory=dict)

    @field_validator("version", mode="before")
    @classmethod
    def _version_is_a_whole_number(cls, value: Any) -> Any:
        # ``Literal[1, 2]`` takes anything equal to 1 or 2: ``true`` and ``1.0`` too.
        if type(value) is not int:
            # (A plain ValueError showed as "Value error, the record's version …".)
            raise RecordFieldError("version", "record_version")
        return value

    @model_validator(mode="after")
    def _takeovers_within(self) -> GameRecord:
        for number, seat in enumerate(self.seats):
            start = 0
            for index, occupant in enumerate(seat.earlier):
                field = f"seats.{number}.earlier.{index}"
                if occupant.until <= start:
                    raise RecordFieldError(f"{field}.until", "earlier_out_of_order",
                                           seat=number, until=occupant.until, before=start)
                if occupant.until > len(self.actions):
                    raise RecordFieldError(f"{field}.until", "earlier_past_end",
                                           seat=number, until=occupant.until,
                                           actions=len(self.actions))
                _check_since(number, occupant, field, occupant.until)
                start = occupant.until
            _check_since(number, seat, f"seats.{number}", len(self.actions))
        return self

    def append(self, seat: int, action: Mapping[str, Any]) -> None:
        """Add an accepted action at the end: a copy, so that the caller's action object
        (a Triominos position's list, say) may be changed or reused after. The action is
        not checked against the rules (:func:`replay` does that).

        Raises:
            ValueError: ``seat`` is not one of the record's seats.
            IllegalAction: ``PROTOCOL``: ``action`` is no JSON object with a ``"type"``
                (``errors.malformed_action``), or holds a value JSON has no form for
                (``errors.action_not_json``: a NumPy number, say).
        """
        seat = operator.index(seat)
        if not 0 <= seat < len(self.seats):
            raise ValueError(f"seat {seat} is not a seat of this record's "
                             f"{len(self.seats)} (numbered from 0)")
        self.actions.append(RecordedAction(seat=seat, action=json_action(action)))


class RecordError(Exception):
    """A record that cannot be replayed: the 1-based action number and the refusal."""

    def __init__(self, number: int, error: GameError) -> None:
        self.number = number
        self.error = error
        super().__init__(f"action {number}: {error}")


@dataclass
class Replay:
    """The result of replaying a record: the game, its validated config and final state."""

    game: Game[Any]
    config: BaseModel
    state: Any
    events: list[list[Event]]


def start(record: GameRecord) -> tuple[Game[Any], BaseModel, Any]:
    """The game, validated config and initial state of ``record``.

    Raises:
        ConfigError: unknown game, invalid config or seat count.
    """
    game = registry.get(record.game)
    config = game.make_config(options_of(record), len(record.seats))
    return game, config, game.new_game(config, len(record.seats), record.seed)


def options_of(record: GameRecord) -> dict[str, Any]:
    """The options ``record`` is replayed with: a version 1 record was made before games
    carried ``rules_version`` and is played by the first rules.

    Raises:
        ConfigError: ``PROTOCOL`` / ``errors.record_v1_rules_version`` for a version 1
            record that names another rules version (it was edited; it was replayed by
            those rules without a word); ``errors.bad_option`` for one that names it
            by something other than a whole number (``"1"``).
    """
    if record.version == 1:
        named = record.config.get(RULES_VERSION_FIELD, FIRST_RULES_VERSION)
        # A version that is not a whole number ("1", 1.0, true) is refused by the
        # options' own check, as not a whole number.
        if type(named) is int and named != FIRST_RULES_VERSION:
            raise ConfigError("PROTOCOL", "errors.record_v1_rules_version",
                              version=str(named)[:40])
        return legacy_options(record.config)
    return dict(record.config)


def replay(
    record: GameRecord,
    *,
    on_step: Callable[[int, Any, list[Event]], None] | None = None,
    on_start: Callable[[Any], None] | None = None,
) -> Replay:
    """Apply every action of ``record`` from the start.

    Args:
        record: the record to check.
        on_step: called after each action with its 1-based number, the state and events.
        on_start: called with the initial state, before any action.

    Raises:
        ConfigError: the record's game, config or seats are invalid.
        RecordError: action N is illegal (or names a seat outside the table).
        TypeError: ``record`` is not a :class:`GameRecord` (a file's text is read by
            :func:`load_record`, a parsed dict by ``GameRecord.model_validate``).
    """
    if not isinstance(record, GameRecord):
        raise TypeError("replay takes a GameRecord: load_record(text) reads a record "
                        "file's text, GameRecord.model_validate(data) a parsed dict; not "
                        f"{type(record).__name__}")
    game, config, state = start(record)
    if on_start is not None:
        on_start(state)
    events: list[list[Event]] = []
    for number, step in enumerate(record.actions, start=1):
        if step.seat >= len(record.seats):
            raise RecordError(
                number,
                IllegalAction("PROTOCOL", "errors.no_such_seat", seat=step.seat,
                              seats=len(record.seats), count=len(record.seats)),
            )
        try:
            happened = game.apply(state, step.seat, step.action)
        except GameError as error:
            raise RecordError(number, error) from error
        events.append(happened)
        if on_step is not None:
            on_step(number, state, happened)
    return Replay(game=game, config=config, state=state, events=events)


_JSON_OBJECT: Final = TypeAdapter(dict[str, JsonValue],
                                  config=ConfigDict(allow_inf_nan=False))
"""A record's meta: JSON's values, of which NaN and the infinities are none (they were
written as ``null``)."""

BYTE_ORDER_MARK: Final = b"\xef\xbb\xbf"
"""What some Windows editors write before a file's text: no part of the JSON."""


def field_given_twice(text: str | bytes) -> str | None:
    """The first name found twice in one object of the JSON ``text`` (a record edited by
    hand), or ``None``: none is, or ``text`` is no JSON (reading it as a record then says
    so). JSON readers keep the last of the two, so such a file reads one way here and may
    read another way elsewhere."""
    found: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        names = [name for name, _ in items]
        if not found and len(set(names)) < len(names):
            found.append(next(n for i, n in enumerate(names) if n in names[:i]))
        return dict(items)

    try:
        json.loads(text, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return None
    return found[0] if found else None


def number_not_json(text: str | bytes) -> str | None:
    """The first of ``NaN``, ``Infinity`` and ``-Infinity`` written as a number in the
    JSON-like ``text``, or ``None``: none is, or ``text`` is no JSON at all. Python's JSON
    reader takes them; JSON has no such numbers, and the server and other readers refuse
    them (a record would read here and nowhere else)."""
    found: list[str] = []

    def constant(name: str) -> float:
        if not found:
            found.append(name)
        return 0.0

    try:
        json.loads(text, parse_constant=constant)
    except (ValueError, RecursionError):
        return None
    return found[0] if found else None


class NumberNotJson(ValueError):
    """A record's text holds ``NaN``, ``Infinity`` or ``-Infinity`` (``number``), which
    are not JSON."""

    def __init__(self, number: str) -> None:
        super().__init__(f"not a game record: {number} is no JSON number")
        self.number = number


class FieldGivenTwice(ValueError):
    """A record's JSON gives one field twice in one object (``field``: its name)."""

    def __init__(self, field: str) -> None:
        super().__init__(f"not a game record: the field {json.dumps(field)} is given twice "
                         "in one object")
        self.field = field


def load_record(text: str | bytes) -> GameRecord:
    """The record in the JSON ``text`` of a record file (``open(path, "rb").read()``; a
    byte-order mark before it is skipped), checked as :class:`GameRecord` checks its
    fields. Replay it with :func:`replay`.

    Raises:
        FieldGivenTwice: a field is given twice in one object (a ``ValueError``).
        NumberNotJson: ``NaN``, ``Infinity`` or ``-Infinity`` stands for a number (a
            ``ValueError``; they are no JSON, and the server refuses such a file).
        pydantic.ValidationError: not JSON, or a field is missing or wrong.
        TypeError: ``text`` is neither text nor bytes: a path (read the file first,
            ``path.read_bytes()``) or a parsed object (``GameRecord.model_validate``).
    """
    if not isinstance(text, (str, bytes, bytearray)):
        hint = ("read the file first: load_record(Path(...).read_bytes())"
                if isinstance(text, os.PathLike) else
                "for JSON already parsed use GameRecord.model_validate(data)")
        raise TypeError(f"load_record takes a record file's text (str or bytes); {hint}; "
                        f"not {type(text).__name__}")
    if isinstance(text, str):
        text = text.encode()
    text = text.removeprefix(BYTE_ORDER_MARK)
    twice = field_given_twice(text)
    if twice is not None:
        raise FieldGivenTwice(twice)
    number = number_not_json(text)
    if number is not None:
        raise NumberNotJson(number)
    return GameRecord.model_validate_json(text)


def _plain(value: Any) -> Any:
    """``value`` with NumPy's integers as Python's and tuples as lists, so that a record
    made from a researcher's values can be written as JSON."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if not isinstance(value, (bool, int)) and hasattr(value, "__index__"):
        return operator.index(value)
    if isinstance(value, float) and type(value) is not float:
        return float(value)  # NumPy's float64, a float subclass
    return value


def new_record(
    game: str | Game[Any],
    config: Mapping[str, Any] | BaseModel | None,
    seats: Iterable[SeatInfo],
    seed: SupportsIndex,
    meta: Mapping[str, Any] | None = None,
) -> GameRecord:
    """An empty record (no actions yet) of the current format version.

    ``game`` is the game's registered name (``"dixit"``) or the game itself (from
    ``registry.get``); the record keeps the name. ``seats`` says who sits where, one
    :class:`SeatInfo` per seat in seat order (``[SeatInfo(name="Anna"),
    SeatInfo(bot="greedy")]``; the seat count is its length). ``config`` is the game's
    options (as given to ``make_config``; ``None``: the defaults) or the config
    ``make_config`` made. A config that does not say its ``rules_version`` gets the
    current one, so that the record replays by the rules it was played by after later
    rules come.

    Raises:
        ConfigError: an unknown game, or options or a seat count the game refuses (as
            ``make_config`` would: the record could never be replayed).
        ValueError: ``seed`` is not a whole number from 0 to 2**63 − 1 (a NumPy integer
            is taken as the number it holds).
        TypeError: ``seats`` is a count (or a text), not one :class:`SeatInfo` a seat;
            ``config`` or ``meta`` is no mapping.
        pydantic.ValidationError: a seat or the meta cannot be stored (the meta holds
            a value JSON has no form for; NumPy's numbers are taken as Python's).
    """
    if isinstance(seats, (int, str)) or not isinstance(seats, Iterable):
        raise TypeError(f"seats is who sits where, one SeatInfo a seat (such as [SeatInfo("
                        f"name='seat 1'), SeatInfo(bot='greedy')]), not {seats!r}"[:200])
    for argument, value in (("config", config), ("meta", meta)):
        if value is not None and not isinstance(value, (Mapping, BaseModel)):
            raise TypeError(f"{argument} is a mapping (a dict) or None, not "
                            f"{type(value).__name__}")
    name = game if isinstance(game, str) else game.name
    rules = registry.get(name) if isinstance(game, str) else game
    options = stored_options(config) if isinstance(config, BaseModel) else dict(config or {})
    seats = list(seats)
    rules.make_config(options, len(seats))
    options = _plain(options)  # ``np.int64(2)`` stored as ``2``, as the game read it
    return GameRecord(format=RECORD_FORMAT, version=RECORD_VERSION, game=name,
                      config={RULES_VERSION_FIELD: RULES_VERSION, **options},
                      seats=seats, seed=check_seed(seed),
                      meta=_JSON_OBJECT.validate_python(_plain(dict(meta or {}))))
