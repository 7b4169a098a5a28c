"""Sequence Cats options (the table "Options" of ``docs/rules/sequence-cats.md``)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from gametable.core.config import NO_FRACTION, VersionedConfig, seat_count
from gametable.core.errors import ConfigError
from gametable.core.text import display_name
from gametable.games.sequence_cats.board import MAX_SIDE

ALLOWED_SEATS = (2, 3, 4, 6)
"""SC-PLAY-1: 2–6 players; 5 cannot be split into equal teams."""


BoardName = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z0-9-]+$")]
"""The name of a bundled layout (``data/board-<name>.json``)."""
SpaceName = Annotated[str, Field(max_length=40)]


class BoardLayout(BaseModel):
    """A board layout given in full (SC-COMP-2): a grid of at most 26 × 26 space names
    (breeds or ``"free"``), each breed on two spaces; nothing else."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(default="custom", max_length=40)
    rows: int | None = Field(default=None, ge=1, le=MAX_SIDE)
    columns: int | None = Field(default=None, ge=1, le=MAX_SIDE)
    spaces: list[Annotated[list[SpaceName], Field(max_length=MAX_SIDE)]] = Field(
        max_length=MAX_SIDE)

    @field_validator("name")
    @classmethod
    def _shown_name(cls, name: str) -> str:
        """The name as every text others read is kept (:func:`display_name`: no hidden
        or direction-changing characters, one line), ``"custom"`` if nothing of it shows."""
        return display_name(name) or "custom"


class SequenceCatsConfig(VersionedConfig):
    """Options of a Sequence Cats game.

    Attributes:
        teams: how many teams (colours). 2 and 3 seats always play individually and 4
            seats in 2 teams; 6 seats choose 2 teams of three or 3 teams of two
            (default 3: teammates sit opposite each other). SC-PLAY-1.
        sequences_to_win: sequences a player or team needs to win (SC-WIN-2; classic
            Sequence uses 2 for two players). A second sequence may share one chip with
            an earlier one.
        board: ``"default"`` (the bundled 8 × 11 layout), another bundled layout's name,
            or a :class:`BoardLayout` ``{"name", "spaces": [[...], ...]}`` with every
            breed on two spaces (SC-COMP-2).
        card_language: the language of card names on this table: ``"auto"`` follows
            each player's chosen language; ``en``, ``is``, ``nb`` or ``pt`` fixes it.
        free_corners: whether the layout's ``"free"`` spaces (the four corners of the
            default board) count as every colour's chip (SC-COMP-2, SC-WIN-1); when off
            they are blank spaces that take no chip and count for nobody.
    """

    option_rules: ClassVar[dict[str, str]] = {
        "teams": "SC-PLAY-1",
        "sequences_to_win": "SC-WIN-2",
        "board": "SC-COMP-2",
        "free_corners": "SC-COMP-2",
    }

    model_config = ConfigDict(extra="forbid", strict=True, title="Sequence Cats")

    teams: Annotated[Literal[2, 3], NO_FRACTION] | None = Field(
        default=None, description="Number of teams (colours); only 6 seats can choose.",
        json_schema_extra={"x-seats": [6]},
    )
    sequences_to_win: int = Field(default=1, ge=1, le=4,
                                  description="Sequences needed to win.")
    board: BoardName | BoardLayout = Field(default="default",
                                           description="Board layout name or layout object.",
                                           json_schema_extra={"x-advanced": True})
    card_language: Literal["auto", "en", "is", "nb", "pt"] = Field(
        default="auto", description="Card names: each player's language, or a fixed one."
    )
    free_corners: bool = Field(
        default=True, description="Free corners count as every colour's chip (SC-COMP-2)."
    )


def team_count(config: SequenceCatsConfig, seats: int) -> int:
    """The number of teams (colours) for ``seats`` seats under ``config``.

    Raises:
        ConfigError: ``SC-PLAY-1`` for 5 seats, a count outside 2–6, or a ``teams``
            value that does not divide the seats evenly.
        TypeError: ``seats`` is not a whole number.
    """
    seats = seat_count(seats)
    if seats == 5:
        raise ConfigError("SC-PLAY-1", "sequence_cats.errors.five_seats")
    if seats not in ALLOWED_SEATS:
        raise ConfigError("SC-PLAY-1", "sequence_cats.errors.seat_count", seats=seats)
    default = {2: 2, 3: 3, 4: 2, 6: 3}[seats]
    teams = config.teams or default
    if seats <= 3 and teams != seats:
        raise ConfigError("SC-PLAY-1", "sequence_cats.errors.teams_small", seats=seats)
    if seats == 4 and teams != 2:
        raise ConfigError("SC-PLAY-1", "sequence_cats.errors.teams_uneven", seats=seats,
                          teams=teams)
    return teams
