"""Request bodies of the HTTP API (the websocket messages are in ``docs/protocol.md``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_SEATS = 12


class SeatSpec(BaseModel):
    """One seat of a new table: a person (who joins by the invite link) or a bot."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(default=None, description="Bot name when kind is 'bot'.")
    name: str | None = Field(default=None, max_length=40)


class CreateTable(BaseModel):
    """``POST /api/tables``: the creator takes the first human seat when ``name`` is set."""

    model_config = ConfigDict(extra="forbid")
    game: str
    config: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(min_length=1, max_length=MAX_SEATS)
    name: str | None = Field(default=None, max_length=40,
                             description="The creator's name; omit to only watch.")


class JoinTable(BaseModel):
    """``POST /api/tables/{id}/join``: take a given open seat, or the first one."""

    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(default=None, ge=0, lt=MAX_SEATS)
    name: str | None = Field(default=None, max_length=40)


class SeatBot(BaseModel):
    """``POST /api/tables/{id}/seats/{seat}/bot``: a computer player takes an open seat."""

    model_config = ConfigDict(extra="forbid")
    bot: str = "greedy"
