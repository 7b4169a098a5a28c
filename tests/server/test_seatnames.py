"""The names a table tells apart are the names its pages show: one naming path,
:func:`gametable.bots.base.seat_name`, for the pages, ``gametable replay`` and the check
that no one takes another seat's name (which had built "Greedy 4" apart)."""

from __future__ import annotations

import pytest

from gametable.bots import bot_names
from gametable.bots.base import LEVELS, seat_name
from gametable.core.i18n import LANGUAGES
from gametable.core.text import name_key
from gametable.server.seatnames import _computer_names, _shown_as, distinct_name
from gametable.server.storage import SeatRow
from gametable.server.table import BOT


@pytest.mark.parametrize("bot", sorted(bot_names()))
def test_a_nameless_computer_players_name_is_the_one_its_page_shows(bot: str) -> None:
    """Seat 4's computer player: the check knew "Easy 4" for a level, where the page
    says "Computer 4 · Easy"."""
    for language in LANGUAGES:
        shown = name_key(seat_name(3, None, bot, language))
        assert shown in _shown_as(BOT, bot, None, 4), (bot, language)
        assert shown in _computer_names(4), (bot, language)
    if bot in LEVELS:
        assert name_key(f"{bot} 4") not in _shown_as(BOT, bot, None, 4)


def test_a_computer_player_under_a_persons_name_is_known_at_every_level() -> None:
    """A level that took Dag's seat plays as "Dag (computer: Medium)"; the host may give
    the seat another level, so each level's name counts."""
    names = _shown_as(BOT, "medium", "Dag", 2)
    for level in LEVELS:
        for language in LANGUAGES:
            assert name_key(seat_name(1, "Dag", level, language)) in names


@pytest.mark.parametrize("bot", sorted(bot_names()))
def test_no_seat_is_named_what_the_page_calls_another(bot: str) -> None:
    """A computer player named at creation after another seat's nameless one, as the
    page shows it in any language, gets a number."""
    seats = [SeatRow(seat=0, kind="human", name="Ana"), SeatRow(seat=1, kind=BOT, bot=bot)]
    for language in LANGUAGES:
        taken = seat_name(1, None, bot, language)
        assert distinct_name(taken, seats, 2, person=False) == f"{taken} (2)", language


def test_a_levels_player_by_name_is_known_with_its_level() -> None:
    """Sequence Cats' Simulator is its Hard: the page calls a nameless "rollout" seat
    "Simulator 4 · Hard", and nobody else may be called that."""
    for language in LANGUAGES:
        shown = name_key(seat_name(3, None, "rollout", language, "hard"))
        assert shown in _shown_as(BOT, "rollout", None, 4), language
        assert shown in _computer_names(4), language
    assert seat_name(3, None, "rollout", "en", "hard") == "Simulator 4 · Hard"
    assert seat_name(3, None, "rollout", "is", "hard") == "Hermir 4 · Erfið"
