"""Request bodies of the HTTP API (the websocket messages are in ``docs/protocol.md``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_SEATS = 12
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 5, 24 * 3600
"""The shortest and longest time limit per turn a table may have, in seconds."""

BODY: ConfigDict = ConfigDict(extra="forbid", strict=True)
"""Every request body: unknown fields are refused, and so are values of the wrong JSON
type (a seat given as ``"1"`` or ``true`` is refused, not read as seat 1)."""


class SeatSpec(BaseModel):
    """One seat of a new table: a person (who joins by the invite link) or a bot."""

    model_config = BODY
    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(default=None, max_length=40,
                            description="Bot name when kind is 'bot'.")
    name: str | None = Field(default=None, max_length=40)


class ClockSpec(BaseModel):
    """A table's turn clock (``docs/protocol.md``; TR-TIME-1 for Triominos)."""

    model_config = BODY
    turn_seconds: int | None = Field(
        default=None, ge=MIN_TURN_SECONDS, le=MAX_TURN_SECONDS,
        description="Seconds per turn (per decision in Dixit); null: no limit.")
    cover: str = Field(default="medium", max_length=40,
                       description="The computer player (a level or bot name) that plays "
                                   "for a seat that is away.")
    cover_absent: bool = Field(
        default=False, description="Computer players also cover for players who stay "
                                   "disconnected while they must act.")


class CreateTable(BaseModel):
    """``POST /api/tables``: the creator takes the first human seat when ``name`` is set."""

    model_config = BODY
    game: str = Field(max_length=40)
    config: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(min_length=1, max_length=MAX_SEATS)
    name: str | None = Field(default=None, max_length=40,
                             description="The creator's name; omit to only watch.")
    clock: ClockSpec | None = Field(default=None,
                                    description="A turn clock; omit for none.")


class ChangeOptions(BaseModel):
    """``POST /api/tables/{id}/options``: the host's new options before the first move."""

    model_config = BODY
    config: dict[str, Any] = Field(default_factory=dict)
    clock: ClockSpec | None = Field(default=None,
                                    description="A turn clock; omit for none.")


class CheckOptions(BaseModel):
    """``POST /api/games/{game}/check``: would these options and seats make a table?"""

    model_config = BODY
    config: dict[str, Any] = Field(default_factory=dict)
    seats: int = Field(ge=1, le=MAX_SEATS)


class JoinTable(BaseModel):
    """``POST /api/tables/{id}/join``: take a given open seat, or the first one."""

    model_config = BODY
    seat: int | None = Field(default=None, ge=0, lt=MAX_SEATS)
    name: str | None = Field(default=None, max_length=40)
    code: str | None = Field(default=None, max_length=64)
    """The seat link's code, for a seat kept for someone the host invited."""


class RenameSeat(BaseModel):
    """``POST /api/tables/{id}/name``: the seated person's new name (empty: none)."""

    model_config = BODY
    name: str | None = Field(default=None, max_length=40)


class RemovePlayer(BaseModel):
    """``POST /api/tables/{id}/seats/{seat}/remove``: the host removes a player."""

    model_config = BODY
    bot: str | None = Field(default=None, max_length=40,
                            description="A computer player for the seat; null: it opens.")


class PauseClock(BaseModel):
    """``POST /api/tables/{id}/clock``: the host pauses or resumes the turn clock."""

    model_config = BODY
    paused: bool


class SetWatching(BaseModel):
    """``POST /api/tables/{id}/watching``: the host lets people watch, or not."""

    model_config = BODY
    allowed: bool


class HandHost(BaseModel):
    """``POST /api/tables/{id}/host``: the host gives the role to a seated person."""

    model_config = BODY
    seat: int = Field(ge=0, lt=MAX_SEATS)


class EndGame(BaseModel):
    """``POST /api/tables/{id}/end``: the host ends the game early (an empty body)."""

    model_config = BODY


class SeatBot(BaseModel):
    """``POST /api/tables/{id}/seats/{seat}/bot``: a computer player takes an open seat."""

    model_config = BODY
    bot: str = Field(default="greedy", max_length=40)
