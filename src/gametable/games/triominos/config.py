"""Triominos options (the table "Options" of ``docs/rules/triominos.md``)."""

from __future__ import annotations

import warnings
from typing import ClassVar, Literal

from pydantic import ConfigDict, Field, model_validator

from gametable.core.config import OptionWarning, VersionedConfig, seat_count
from gametable.core.errors import ConfigError

ALLOWED_SEATS = (1, 2, 3, 4, 5, 6)
"""Triominos is for 1–6 players (seed heading; TR-SOLO-1 for one)."""


class TargetIgnored(OptionWarning):
    """Both ``rounds`` and ``target_score`` were given: TR-END-4 ends a game at a target
    *or* after a fixed number of rounds, and ``rounds`` wins (the game plays that many
    rounds; the target is not read, the view shows ``target_score: null``, and the
    config and its stored options keep ``rounds`` alone)."""


class TriominosConfig(VersionedConfig):
    """Options of a Triominos game.

    Attributes:
        edition: ``"IS"`` (the Icelandic rule sheet, default) or ``"PRESSMAN"``; it sets
            the defaults of ``start_rule`` and ``extended_bridge``.
        start_rule: ``"highest_sum"`` (TR-SETUP-3: each player draws a tile, the highest
            sum starts with any tile of their hand) or ``"highest_triple"`` (TR-SETUP-4:
            the highest triple starts, +10; 0-0-0 +40). ``None``: the edition's.
        extended_bridge: TR-BONUS-6, +40 for a tile that shares two sides, one of them
            with a bridge tile. ``None``: the edition's (off for IS, on for PRESSMAN).
        scoring: ``"standard"`` or ``"children"`` (the seed's simplified scoring: 1 per
            tile, +1 bridge, +1/+2/+3 hexagons, +5 for going out, no penalties).
        target_score: the game ends after the round in which someone reaches this many
            points (TR-END-4), 50–2000, default 400. Not read when ``rounds`` is given.
        rounds: play exactly this many rounds instead (1–20); ``None`` uses the target.
            Given with ``target_score``, ``rounds`` wins (TR-END-4: one or the other).

    Warns:
        TargetIgnored: both ``rounds`` and ``target_score`` are given; the game plays
            ``rounds`` rounds.
    """

    option_rules: ClassVar[dict[str, str]] = {
        "edition": "TR-SETUP-4",
        "start_rule": "TR-SETUP-3",
        "extended_bridge": "TR-BONUS-6",
        "target_score": "TR-END-4",
        "rounds": "TR-END-4",
    }

    model_config = ConfigDict(extra="forbid", strict=True, title="Triominos")

    edition: Literal["IS", "PRESSMAN"] = Field(default="IS", description="Rule edition.")
    start_rule: Literal["highest_sum", "highest_triple"] | None = Field(
        default=None, description="Who starts a round (default: the edition's).")
    extended_bridge: bool | None = Field(
        default=None, description="+40 for extending a bridge (default: the edition's).")
    scoring: Literal["standard", "children"] = Field(
        default="standard", description="Standard or children's scoring.")
    target_score: int = Field(default=400, ge=50, le=2000,
                              description="Points that end the game (not read when rounds "
                                          "is given).",
                              json_schema_extra={"x-choices": [100, 200, 300, 400, 500, 1000],
                                                 "x-when": {"rounds": [None]}})
    rounds: int | None = Field(default=None, ge=1, le=20,
                               description="A fixed number of rounds instead of a target "
                                           "(wins over target_score).",
                               json_schema_extra={"x-choices": [1, 2, 3, 4, 5, 6, 8, 10]})

    @model_validator(mode="after")
    def _rounds_over_target(self) -> TriominosConfig:
        """TR-END-4: a target or a number of rounds; given both, say which one counts."""
        if self.rounds is not None and "target_score" in self.model_fields_set:
            warnings.warn(TargetIgnored(
                f"Triominos: rounds={self.rounds} and target_score={self.target_score} are "
                f"both given; a game ends at a target or after a number of rounds "
                f"(TR-END-4), and rounds wins: it plays {self.rounds} round"
                f"{'' if self.rounds == 1 else 's'} and the target is not read"),
                stacklevel=2)
            # Kept as not given, so that the stored options (records, tables) hold rounds
            # alone and reading them again says nothing more.
            self.__dict__["target_score"] = type(self).model_fields["target_score"].default
            self.model_fields_set.discard("target_score")
        return self

    def starts_with_triple(self) -> bool:
        """Whether TR-SETUP-4 (highest triple) decides who starts."""
        if self.start_rule is None:
            return self.edition == "PRESSMAN"
        return self.start_rule == "highest_triple"

    def bridge_extends(self) -> bool:
        """Whether TR-BONUS-6 (extended bridge) scores."""
        if self.extended_bridge is None:
            return self.edition == "PRESSMAN"
        return self.extended_bridge

    @property
    def children(self) -> bool:
        """Whether the seed's children's scoring is in use."""
        return self.scoring == "children"


def tiles_per_player(seats: int) -> int:
    """TR-SETUP-2: 9 tiles for 1–2 players, 7 for 3–4, 6 for 5–6.

    Raises:
        ConfigError: ``TR-SETUP-2`` for fewer than 1 or more than 6 seats.
        TypeError: ``seats`` is not a whole number.
    """
    seats = seat_count(seats)
    if seats not in ALLOWED_SEATS:
        raise ConfigError("TR-SETUP-2", "triominos.errors.seat_count", seats=seats)
    return 9 if seats <= 2 else 7 if seats <= 4 else 6
