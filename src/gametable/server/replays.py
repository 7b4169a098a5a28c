"""Replays: the positions of a finished game, as each seat (or a spectator) saw them.

A replay is computed from a game record (``docs/records.md``) alone, through the game
protocol: the record is checked action by action, and for each asked-for step the
``state`` message a client would have been sent at that moment — ``view(state, seat)``,
the seats to act, the step's public events, the outcome once over — but with no legal
actions (a replay is only watched). Nothing here knows which game a record holds, and
nothing is stored: the browser's replay viewer sends the record it opened (or names a
finished table, whose stored record is used) and asks for a range of steps at a time.
An answer holds at most :data:`MAX_FRAMES` steps and :data:`MAX_REPLAY_BYTES` of them, and
says which step to ask for next when it holds fewer than were asked for.

A record is checked whole the first time it is asked for; the positions every
:data:`CHECKPOINT_EVERY` actions are then kept (for the :data:`CHECKED_RECORDS` records
asked for last, by the SHA-256 of the record), so that the next pages of the same record
replay from the nearest position before them instead of from the start: a page of a
record of 8,000 actions costs a few hundred actions, not 8,000.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import BaseModel, ValidationError

from gametable.core.config import stored_options
from gametable.core.errors import ConfigError, GameError
from gametable.core.protocol import Seat
from gametable.core.records import (
    BYTE_ORDER_MARK,
    RECORD_FORMAT,
    RECORD_VERSION,
    EarlierOccupant,
    GameRecord,
    RecordedAction,
    RecordError,
    SeatInfo,
    field_given_twice,
    problem_of,
    replay,
)
from gametable.server.nesting import MAX_DEPTH, json_refusal, too_deep
from gametable.server.refused import Refused
from gametable.server.table import BOT, FINISHED, Table
from gametable.server.tables import game_named, is_host, without_deck_name

MAX_RECORD_BYTES = 1024 * 1024
"""The largest record the replay endpoint reads (bytes of JSON); larger: ``413``."""
MAX_RECORD_ACTIONS = 20_000
"""The most actions a replayed record may hold (a long Sequence Cats game with three
stalled players has about 6,000)."""
MAX_FRAMES = 50
"""The most steps one request returns (a late Dixit view, with its history, is tens of
kilobytes)."""
MAX_REPLAY_BYTES = 2 * 1024 * 1024
"""The most bytes of JSON the frames of one answer take (at least one frame, however
large): a late step of a Dixit Party game of 12 with 10 rounds each is about 280 KB, so
50 of them would be 14 MB."""

REPLAY_WORKERS = 1
"""Replays the server works out at once (the others wait their turn)."""
CHECKPOINT_EVERY = 200
"""Actions between two positions kept of a checked record."""
CHECKED_RECORDS = 16
"""Checked records whose positions are kept (the ones asked for last)."""


@dataclass(frozen=True)
class _Checked:
    """A record that replayed without a refusal: its options and kept positions."""

    config: BaseModel
    positions: dict[int, Any]
    """Step (a multiple of :data:`CHECKPOINT_EVERY`) → a copy of the state after it."""


_checked: OrderedDict[str, _Checked] = OrderedDict()
_checked_lock = threading.Lock()


#: A JSON object with none of these is some other file, not a damaged record.
RECORD_FIELDS = frozenset({"format", "game", "seats", "actions"})


def parse_record(body: bytes) -> GameRecord:
    """The record in a request body (a record file's bytes, unchanged).

    Raises:
        Refused: ``bad_record`` (400): not JSON (``server.errors.record_not_json``,
            ``params.line`` and ``params.column`` where the reader stopped, from 1),
            JSON of something else (``server.errors.record_not_record``: not an object
            with a game, seats and actions), nested more than
            :data:`~gametable.server.nesting.MAX_DEPTH` levels
            (``server.errors.too_deep``), a field given twice in one object
            (``server.errors.record_field_twice``, ``params.field``), or a record with a
            wrong field
            (``server.errors.record_invalid``, ``params.field`` names the first wrong
            field, ``params.problem`` is the code of what is wrong with it, with its values:
            :func:`gametable.core.records.problem_of`) or without one it must
            have, as ``format`` and ``version`` (``server.errors.record_missing``,
            ``params.field``);
            ``record_too_long`` (413): more than :data:`MAX_RECORD_ACTIONS` actions.
    """
    try:
        data = orjson.loads(body.removeprefix(BYTE_ORDER_MARK))
    except orjson.JSONDecodeError as error:
        # Where the reader stopped, in numbers every language reads (the reader's own
        # words, "unexpected character", stood in English inside a translated message).
        raise json_refusal(error, "bad_record", "server.errors.record_not_json",
                           not_utf8="server.errors.record_not_utf8",
                           line=error.lineno, column=error.colno) from None
    if not isinstance(data, dict) or not RECORD_FIELDS & data.keys():
        raise Refused("bad_record", "server.errors.record_not_record")
    if too_deep(data, body.count(b"[") + body.count(b"{")):
        raise Refused("bad_record", "server.errors.too_deep", limit=MAX_DEPTH)
    twice = field_given_twice(body.removeprefix(BYTE_ORDER_MARK))
    if twice is not None:
        # JSON readers keep the last of the two: the file would show one game here and
        # maybe another elsewhere (``gametable replay`` refuses it too).
        raise Refused("bad_record", "server.errors.record_field_twice", field=twice)
    try:
        record = GameRecord.model_validate(data)
    except ValidationError as error:
        field, problem, kind = problem_of(error)
        if kind == "missing":  # as "format" and "version", which every record has
            raise Refused("bad_record", "server.errors.record_missing", field=field) from None
        # The problem as a code and its values, which the catalogs say in the reader's
        # language (pydantic's English stood inside the translated message).
        raise Refused("bad_record", "server.errors.record_invalid", field=field,
                      **problem) from None
    if len(record.actions) > MAX_RECORD_ACTIONS:
        raise Refused("record_too_long", "server.errors.record_too_long", status=413,
                      actions=len(record.actions), limit=MAX_RECORD_ACTIONS)
    return record


def table_record(table: Table) -> GameRecord:
    """The game record of ``table`` as stored (``meta``: its id, when it was made, and
    ``ended_early`` when the host ended it)."""
    data = GameRecord(
        format=RECORD_FORMAT, version=RECORD_VERSION, game=table.game_name, config=table.options,
        seats=[SeatInfo(name=s.name, bot=s.bot,
                        bot_since=s.bot_since if s.kind == BOT else None,
                        earlier=[EarlierOccupant.model_validate(occupant.to_json())
                                 for occupant in s.earlier])
               for s in table.seats],
        seed=table.seed, actions=[RecordedAction(seat=seat, action=dict(action))
                                  for seat, action in table.actions],
        meta={"table": table.id, "created": table.created,
              **({"ended_early": True} if table.ended else {})})
    return data


def finished_record(table: Table, seat_token: str | None = None,
                    host_token: str | None = None) -> GameRecord:
    """The record of ``table``, once its game is over: to anyone while its host lets
    people watch, else only to its players (``seat_token``, a token that holds one of
    its seats) and its host (``host_token``): a host who keeps strangers from watching
    keeps them from the whole game afterwards too (every hand, every clue).

    Raises:
        Refused: ``record_hidden`` (403) while the game goes on: it would reveal the
            hidden cards; ``watching_off`` (403) watching is switched off and neither
            token is the table's.
    """
    if table.status != FINISHED:
        raise Refused("record_hidden", "server.errors.record_hidden", status=403)
    if not table.watching and table.seat_of(seat_token) is None and not is_host(
            table, host_token):
        raise Refused("watching_off", "server.errors.record_players_only", status=403)
    return table_record(table)


def replay_steps(record: GameRecord, seat: Seat | None, first: int,
                 count: int) -> dict[str, Any]:
    """Replay ``record`` and return the steps ``first … first + count − 1`` as ``seat``
    (``None``: a spectator) saw them. Step 0 is the position before any action, step
    ``n`` the one after the ``n``-th action. The whole record is checked, whatever the
    range, so that a record with an illegal action is refused before anyone watches it.

    At most :data:`MAX_FRAMES` steps are returned, and only as many as fit in
    :data:`MAX_REPLAY_BYTES` of JSON (the first always does): the answer then holds the
    first steps asked for, and ``next`` says where the rest begin.

    Returns:
        ``{"game", "config", "public", "seats": [{"seat", "name", "bot"}], "steps",
        "first", "count", "next", "frames": [{"step", "seat", "state"}], "meta"}``:
        ``config`` holds the options as a table's ``info`` gives them (those not at
        their defaults, and ``rules_version``), ``public`` the game's fixed
        public facts (as in a table's ``info``), ``steps`` the number of actions (the last
        step), ``count`` the number of frames (steps ``first … first + count − 1``),
        ``next`` the first step asked for that the answer does not hold, left out for
        :data:`MAX_FRAMES` or the answer's size (``None``: it holds all of them, up to
        the last step), ``meta`` the
        record's own. Each frame's ``seat`` is the seat whose action
        led to it (``None`` for step 0), ``state`` the ``state`` message of
        ``docs/protocol.md`` with ``version`` = the step and ``legal`` empty.

    Raises:
        Refused: ``unknown_game`` (400) the record's game is not one of this server's,
            ``bad_config`` (400) its options or seat count are refused, ``bad_seat`` (400)
            ``seat`` is not one of the record's (``params``: ``seat`` as asked, from 0,
            and ``last``, the last seat), ``bad_step`` (400) ``first`` is not one of its
            steps (``params``: ``step``, ``steps``), ``bad_count`` (400) ``count`` is
            under 1 (``params``: ``count``, ``limit``), ``record_illegal`` (422) an action
            is refused by the rules (``rule`` its rule ID; ``params.number`` the action's
            number from 1, ``params.rule_id`` the rule ID again, ``params.reason_key`` the
            rule's message key, beside that message's own parameters; ``message`` says
            it all in English).
    """
    seats = len(record.seats)
    if seat is not None and not 0 <= seat < seats:
        # Named as the query counts, from 0 (seat 9 is "seat 9", not a person's "seat 10").
        raise Refused("bad_seat", "server.errors.replay_seat", seat=seat, seats=seats,
                      last=seats - 1)
    if not 0 <= first <= len(record.actions):
        raise Refused("bad_step", "server.errors.replay_step", step=first,
                      steps=len(record.actions))
    if count < 1:
        raise Refused("bad_count", "server.errors.replay_count", count=count,
                      limit=MAX_FRAMES)
    wanted = min(first + count, len(record.actions) + 1)  # the steps asked for end here
    last = min(first + min(count, MAX_FRAMES), wanted)
    frames: list[dict[str, Any]] = []
    budget = MAX_REPLAY_BYTES
    size = 0
    full = False
    game = game_named(record.game)

    def frame(step: int, state: Any, events: list[dict[str, Any]]) -> None:
        nonlocal size, full
        if first <= step < last and not full:
            to_act = game.to_act(state)
            outcome = game.outcome(state)
            message: dict[str, Any] = {
                "type": "state", "version": step,
                "status": FINISHED if outcome.finished else "playing",
                "view": game.view(state, seat), "to_act": sorted(to_act), "legal": [],
                "events": events}
            if outcome.finished:
                message["outcome"] = outcome.to_json()
            entry = {"step": step, "seat": record.actions[step - 1].seat if step else None,
                     "state": message}
            size += len(orjson.dumps(entry))
            if frames and size > budget:
                full = True  # this one and the rest: in the next request
                return
            frames.append(entry)

    digest = hashlib.sha256(record.model_dump_json().encode()).hexdigest()
    with _checked_lock:
        checked = _checked.get(digest)
        if checked is not None:
            _checked.move_to_end(digest)
    if checked is not None:
        config = _replay_from(game, record, checked, first, last, frame)
        return _answer(record, game, config, first, frames, wanted)
    positions: dict[int, Any] = {}

    def step(number: int, state: Any, events: list[dict[str, Any]]) -> None:
        if number % CHECKPOINT_EVERY == 0:
            positions[number] = game.clone(state)
        if number < last:
            frame(number, state, events)

    def start(state: Any) -> None:
        positions[0] = game.clone(state)
        frame(0, state, [])

    try:
        result = replay(record, on_step=step, on_start=start)
    except RecordError as error:
        reason: GameError = error.error
        raise Refused("record_illegal", "server.errors.record_illegal", status=422,
                      rule=reason.rule, **{**reason.params, "number": error.number,
                                           "rule_id": reason.rule,
                                           "reason_key": reason.key}) from None
    except ConfigError as error:
        raise Refused("bad_config", error.key, rule=error.rule,
                      **without_deck_name(error.params, record.config)) from None
    with _checked_lock:
        _checked[digest] = _Checked(result.config, positions)
        while len(_checked) > CHECKED_RECORDS:
            _checked.popitem(last=False)
    return _answer(record, game, result.config, first, frames, wanted)


def _replay_from(game: Any, record: GameRecord, checked: _Checked, first: int, last: int,
                 frame: Any) -> BaseModel:
    """Call ``frame(step, state, events)`` for the steps before ``last`` from the kept
    position nearest before ``first`` of a record checked before (strictly before: the
    frame of step ``first`` carries the events of the action that led to it); its
    options."""
    start = max(at for at in checked.positions if at < first or at == 0)
    state = game.clone(checked.positions[start])
    if start == 0:
        frame(0, state, [])
    for number in range(start + 1, last):
        action = record.actions[number - 1]
        frame(number, state, game.apply(state, action.seat, action.action))
    return checked.config


def _answer(record: GameRecord, game: Any, config: BaseModel, first: int,
            frames: list[dict[str, Any]], wanted: int) -> dict[str, Any]:
    """The answer of :func:`replay_steps` around its ``frames``, of the steps asked for
    before ``wanted``."""
    return {
        "game": record.game,
        "config": stored_options(config),
        "public": game.public_info(config, len(record.seats)),
        "seats": [{"seat": n, "name": s.name, "bot": s.bot, "bot_since": s.bot_since,
                   **({"earlier": [occupant.model_dump() for occupant in s.earlier]}
                      if s.earlier else {})}
                  for n, s in enumerate(record.seats)],
        "steps": len(record.actions),
        "first": first,
        "count": len(frames),
        "next": first + len(frames) if first + len(frames) < wanted else None,
        "frames": frames,
        "meta": record.meta,
    }
