"""The lobby's check of a new table's options before it is created.

People choose a seat count and options in any order; some combinations the rules refuse
(Dixit by the EN rulebook is for 3–6 players, Dixit Party exists only in the Icelandic
edition). The lobby asks here as choices change, and shows the rules' own refusal and
the seat counts that fit, instead of refusing the whole form at "Create".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gametable.core.config import for_new_game
from gametable.core.errors import GameError
from gametable.server.refused import Refused
from gametable.server.tables import check_deck_owner, game_named


def check_options(game_name: str, options: Mapping[str, Any], seats: int,
                  deck_keys: Sequence[str] = ()) -> dict[str, Any]:
    """Whether ``options`` make a valid game of ``seats`` seats (an uploaded deck only
    with its owner key among ``deck_keys``, as when creating the table: else the error
    is ``no_deck``, with no seat counts).

    ``ok`` answers for ``options`` exactly as given, as creating the table would: an
    option offered only for some seat counts (``"x-seats"`` in its schema, as Sequence
    Cats' ``teams`` for six) is refused by the rules at others (the lobby's form leaves
    it out there before asking). ``seat_counts`` leaves such an option out at the counts
    that do not offer it, as the form would on changing the count.

    Returns:
        ``{"ok": bool, "error": the refusal as an error message or None, "seat_counts":
        the game's seat counts (ascending) for which these options are valid}``.

    Raises:
        Refused: ``unknown_game`` (400) when there is no such game (:func:`game_named`).
    """
    game = game_named(game_name)
    try:
        check_deck_owner(options, deck_keys)
    except Refused as refusal:
        return {"ok": False, "error": refusal.to_json(), "seat_counts": []}
    try:
        options = for_new_game(options)
    except GameError as refusal:
        return {"ok": False, "error": Refused.from_game_error(refusal).to_json(),
                "seat_counts": []}
    described = game.describe()
    properties = described.get("config_schema", {}).get("properties", {})
    fits = []
    for count in described["seats"]["allowed"]:
        try:
            game.make_config(for_seats(options, properties, count), count)
        except GameError:
            continue
        fits.append(int(count))
    try:
        game.make_config(options, seats)
    except GameError as refusal:
        return {"ok": False, "error": Refused.from_game_error(refusal).to_json(),
                "seat_counts": fits}
    return {"ok": True, "error": None, "seat_counts": fits}


def for_seats(options: Mapping[str, Any], properties: Mapping[str, Any], seats: int
              ) -> dict[str, Any]:
    """``options`` without those whose schema offers them only for other seat counts."""
    kept = {}
    for name, value in options.items():
        offered = properties.get(name, {}).get("x-seats") if isinstance(
            properties.get(name), dict) else None
        if offered is None or seats in offered:
            kept[name] = value
    return kept
