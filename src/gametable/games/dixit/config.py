"""Dixit options: edition, variant and the edition options of ``docs/rules/dixit.md``
(the table "Edition defaults")."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Final, Literal

from pydantic import ConfigDict, Field

from gametable.core.config import NO_FRACTION, VersionedConfig, seat_count
from gametable.core.errors import ConfigError

Edition = Literal["IS", "EN", "PT"]
Variant = Literal["base", "party", "team"]

SEAT_RANGE: dict[tuple[str, str], tuple[int, ...]] = {
    ("IS", "base"): tuple(range(3, 13)),
    ("EN", "base"): tuple(range(3, 7)),
    ("PT", "base"): tuple(range(3, 7)),
    ("IS", "party"): tuple(range(6, 13)),
    ("IS", "team"): (6, 8, 10, 12),
}
"""Allowed seat counts per (edition, variant): base IS 3–12, EN/PT 3–6 (edition table);
Party 6–12 (DX-PARTY); Team 6, 8, 10, 12 (DX-TEAM-1). Party and Team are IS only."""

ALLOWED_SEATS = tuple(range(3, 13))
"""Every seat count some Dixit variant allows."""

FEWEST_CARDS = 26
"""DX-DECK-2: the fewest cards any table needs (the first deal plus one round of three
players, 3 × 7 + 5; see :func:`minimum_deck`): a deck of fewer fits no table. The deck
option's schema carries it (``x-fewest-cards``) for the upload dialog's warning."""

MAX_CLUE = 200
"""DX-ROUND-1: a clue is 1–200 characters [decision]."""

CARDS_IN_PLAY = 84
"""DX-COMP-1, DX-DECK-4: a game is played with 84 cards drawn from the chosen deck."""

BASE_SCORING: tuple[str, ...] = ("base", "team")
"""The variants scored by the base rules (DX-SCORE; Team: DX-TEAM-5), where the bonus
options ``bonus_cap`` and ``lone_finder_bonus`` count. Party scores by DX-PARTY-5, which
has neither; the schema's ``x-when`` says so, and the lobby offers them only here."""

MAX_ROUNDS_PER_PLAYER = 10
"""DX-PARTY-7, DX-TEAM-6: each player tells at most 10 times [decision]."""


class DixitConfig(VersionedConfig):
    """Options of a Dixit game (docs/dixit.md, "Options").

    Attributes:
        edition: ``"IS"``, ``"EN"`` or ``"PT"``; sets the defaults of the options below.
        variant: ``"base"``, ``"party"`` (DX-PARTY) or ``"team"`` (DX-TEAM); the last two
            exist only in edition IS.
        bonus_cap: DX-SCORE-3: ``"capped"`` (at most 3 bonus points a round) or
            ``"uncapped"``; ``None``: the edition's (IS capped, EN/PT uncapped). Base game
            and Team (DX-TEAM-5); Party has no bonus (DX-PARTY-5).
        lone_finder_bonus: DX-SCORE-4: 4 instead of 3 for the storyteller and a lone
            finder; ``None``: the edition's (PT with 3 players on, else off; rules
            version 1: off), see :meth:`lone_finder`. Base game and Team; not Party.
        target_score: DX-END-1/2: the game ends after the round in which someone reaches
            it; ``0`` means no target; ``None``: the edition's (IS/EN 30, PT none). Base
            game only: Party and Team end by turns as storyteller (DX-PARTY-7, DX-TEAM-6).
        end_on_empty_deck: DX-END-2/3, DX-ROUND-6: end when the draw pile runs out instead
            of reshuffling the discard pile; ``None``: the edition's (IS no, EN/PT yes).
        mime_or_music: DX-ROUND-1 (PT variant): a clue may be mimed or sung at the table.
        rounds_per_player: DX-PARTY-7, DX-TEAM-6: how many times each player tells,
            1–10.
        cards_in_play: DX-COMP-1, DX-DECK-4: ``84`` (the game draws 84 cards from the
            deck) or ``"all"`` (the whole deck); ``None``: 84 (rules version 1: the
            whole deck), see :func:`cards_in_game`.
        first_storyteller: DX-SETUP-4: ``"claim"`` (anyone claims the role),
            ``"first_seat"`` (seat 0) or ``"random"``.
        deck: the deck id (``gametable.decks``); ``deck_size`` its number of cards,
            filled in by ``make_config`` so that a record replays without the deck;
            given, it must be the deck's (DX-DECK-1: ``make_config`` refuses another).
        clue_language: the language of computer players' clues (``en``, ``is``, ``nb``,
            ``pt``); ``"auto"``: the edition's (IS Icelandic, EN English, PT Portuguese).
    """

    option_rules: ClassVar[dict[str, str]] = {
        "bonus_cap": "DX-SCORE-3",
        "lone_finder_bonus": "DX-SCORE-4",
        "target_score": "DX-END-1",
        "end_on_empty_deck": "DX-END-2",
        "mime_or_music": "DX-ROUND-1",
        "rounds_per_player": "DX-PARTY-7",
        "cards_in_play": "DX-COMP-1",
        "first_storyteller": "DX-SETUP-4",
        "deck": "DX-DECK-1",
    }

    model_config = ConfigDict(extra="forbid", strict=True, title="Dixit")

    edition: Edition = Field(default="IS", description="Rule edition.")
    variant: Variant = Field(default="base", description="Base game, Party or Team.")
    bonus_cap: Literal["capped", "uncapped"] | None = Field(
        default=None, description="Cap the bonus for votes on your card at 3 a round "
                                  "(base game, Team).",
        json_schema_extra={"x-when": {"variant": list(BASE_SCORING)}})
    lone_finder_bonus: bool | None = Field(
        default=None, description="4 points when exactly one voter finds the card "
                                  "(null: the edition's, on in PT with 3 players; base "
                                  "game, Team).",
        json_schema_extra={"x-when": {"variant": list(BASE_SCORING)}})
    target_score: int | None = Field(
        default=None, ge=0, le=100,
        description="Points that end the game (0: none; base game).",
        json_schema_extra={"x-choices": [0, 20, 30, 40, 50], "x-when": {"variant": ["base"]}})
    end_on_empty_deck: bool | None = Field(
        default=None, description="End when the draw pile runs out (base game only).",
        json_schema_extra={"x-when": {"variant": ["base"]}})
    mime_or_music: bool = Field(
        default=False, description="A clue may be mimed or sung at the table.")
    rounds_per_player: int = Field(
        default=1, ge=1, le=MAX_ROUNDS_PER_PLAYER,
        description="Times each player tells (Party, Team).",
        json_schema_extra={"x-choices": list(range(1, MAX_ROUNDS_PER_PLAYER + 1)),
                           "x-when": {"variant": ["party", "team"]}})
    cards_in_play: Annotated[Literal[84, "all"], NO_FRACTION] | None = Field(
        default=None, description="Cards the game is played with: 84 drawn from the deck, "
                                  "or all of it (null: 84).",
        json_schema_extra={"x-choices": ["all"]})
    first_storyteller: Literal["claim", "first_seat", "random"] = Field(
        default="claim", description="Who tells first.")
    deck: str = Field(default="default", min_length=1, max_length=64,
                      description="The picture deck.",
                      json_schema_extra={"x-deck": True, "x-fewest-cards": FEWEST_CARDS})
    clue_language: Literal["auto", "en", "is", "nb", "pt"] = Field(
        default="auto", description="Language of computer players' clues.",
        json_schema_extra={"x-ui-language": True})
    deck_size: int | None = Field(default=None, ge=1, le=100_000,
                                  description="Cards in the deck (filled in).",
                                  json_schema_extra={"x-hidden": True})

    def capped_bonus(self) -> int | None:
        """The DX-SCORE-3 bonus cap per player and round, or ``None`` for no cap."""
        if self.bonus_cap is None:
            return 3 if self.edition == "IS" else None
        return 3 if self.bonus_cap == "capped" else None

    def lone_finder(self, seats: int) -> bool:
        """Whether DX-SCORE-4 pays 4 to the storyteller and a lone finder: as chosen, else
        on in edition PT with 3 players (rules version 1: off)."""
        if self.lone_finder_bonus is not None:
            return self.lone_finder_bonus
        if self.rules_version == 1:
            return False
        return self.edition == "PT" and seats == 3

    def target(self) -> int | None:
        """The DX-END-1/2 target score, or ``None`` when the game has none."""
        if self.target_score is None:
            return None if self.edition == "PT" else 30
        return self.target_score or None

    def ends_on_empty_deck(self) -> bool:
        """Whether DX-END-2/3 ends the game when the draw pile runs out."""
        if self.end_on_empty_deck is None:
            return self.edition != "IS"
        return self.end_on_empty_deck


VARIANTS_KEEP_THEIR_END: Final = 4
"""From this ``rules_version`` Party and Team refuse ``end_on_empty_deck``: they end when
every player has told (DX-PARTY-7, DX-TEAM-6), the discard pile shuffled in whenever the
draw pile runs out (rules 2 and 3 let the option end them at the first empty pile)."""


def check_seats(config: DixitConfig, seats: int) -> None:
    """Refuse a variant or seat count the edition does not have.

    Raises:
        ConfigError: ``DX-PARTY`` / ``DX-TEAM-1`` for Party or Team outside edition IS,
            or the rule naming the allowed seat counts for a wrong seat count.
        TypeError: ``seats`` is not a whole number.
    """
    seats = seat_count(seats)
    allowed = SEAT_RANGE.get((config.edition, config.variant))
    if allowed is None:
        rule = "DX-PARTY-1" if config.variant == "party" else "DX-TEAM-1"
        raise ConfigError(rule, f"dixit.errors.variant_edition_{config.variant}",
                          edition=config.edition)
    if seats not in allowed:
        rule = {"base": "DX-SETUP-3", "party": "DX-PARTY-1", "team": "DX-TEAM-1"}[
            config.variant]
        raise ConfigError(rule, f"dixit.errors.seat_count_{config.variant}", seats=seats,
                          allowed=_ranges(allowed), edition=config.edition)


def hand_size(config: DixitConfig, seats: int) -> int:
    """DX-SETUP-2 / DX-3P-1 / DX-PARTY-1 / DX-TEAM-1: 6 (3 players: 7; Party 5; Team 4)."""
    if config.variant == "party":
        return 5
    if config.variant == "team":
        return 4
    return 7 if seats == 3 else 6


def cards_per_round(config: DixitConfig, seats: int) -> int:
    """Cards that reach the table in a round: base n (3 players: 5, DX-3P-2); Party n;
    Team: the storyteller's, the teammate's and one per other team (DX-TEAM-2/3)."""
    if config.variant == "team":
        return 2 + (seats // 2 - 1)
    if config.variant == "base" and seats == 3:
        return 5
    return seats


def minimum_deck(config: DixitConfig, seats: int) -> int:
    """DX-DECK-2: the first deal plus one round (6 players × 6 + 6 = 42)."""
    return seats * hand_size(config, seats) + cards_per_round(config, seats)


def cards_in_game(config: DixitConfig) -> int:
    """DX-COMP-1, DX-DECK-4: how many cards of the deck the game is played with: 84, or
    the whole deck when it is smaller or ``cards_in_play`` is ``"all"`` (rules version 1
    by default: the whole deck).

    Raises:
        ValueError: ``deck_size`` is not filled in.
    """
    deck = config.deck_size
    if deck is None:
        raise ValueError("deck_size is not filled in")
    chosen = config.cards_in_play
    if chosen is None:
        return deck if config.rules_version == 1 else min(CARDS_IN_PLAY, deck)
    return deck if chosen == "all" else min(chosen, deck)


def votes_per_voter(config: DixitConfig, seats: int) -> int:
    """DX-SETUP-3 / DX-7P-1: 2 votes from 7 players in the IS base game, else 1."""
    return 2 if config.variant == "base" and config.edition == "IS" and seats >= 7 else 1


def schema() -> dict[str, Any]:
    """The options' JSON Schema (for clients), without the filled-in ``deck_size``."""
    result = DixitConfig.model_json_schema()
    result.get("properties", {}).pop("deck_size", None)
    return result


def _ranges(allowed: tuple[int, ...]) -> str:
    if len(allowed) > 2 and allowed[-1] - allowed[0] == len(allowed) - 1:
        return f"{allowed[0]}–{allowed[-1]}"
    return ", ".join(str(n) for n in allowed)
