"""Cards, board and deck: SC-COMP-1..4."""

from __future__ import annotations

from collections import Counter

import pytest

from gametable.core.errors import ConfigError
from gametable.core.i18n import LANGUAGES, translate
from gametable.games.sequence_cats import SEQUENCE_CATS as GAME
from gametable.games.sequence_cats.board import board_for, bundled_board
from gametable.games.sequence_cats.cards import BREEDS, MEOW, PURRR, card_texts, new_deck
from tests.games.sequence_cats.helpers import new

SEED_ORDER = [
    "Abyssinian", "Ragamuffin", "American Curl", "American Shorthair", "Savannah", "Balinese",
    "Bengal", "La Perm", "Cornish Rex", "Chartreux", "Burmese", "British Shorthair", "Bombay",
    "Birman", "Devon Rex", "Egyptian Mau", "Exotic Shorthair", "Tabby", "Himalayan",
    "Japanese Bobtail", "Turkish Van", "Ocicat", "Norwegian Forest Cat", "Nebelung",
    "Munchkin", "Manx", "Maine Coon", "Korat", "Oriental", "Persian", "Ragdoll",
    "Russian Blue", "Scottish Fold", "Selkirk Rex", "Siamese", "Turkish Angora", "Tonkinese",
    "Sphynx", "Somali", "Snowshoe", "Singapura", "Siberian",
]


def test_sc_comp_1_forty_two_breeds_in_the_seed_order() -> None:
    """SC-COMP-1: the 42 breeds, in the order of the seed's card list."""
    names = [card["name"]["en"] for card in card_texts()[: len(BREEDS)]]
    assert names == SEED_ORDER


@pytest.mark.parametrize("language", LANGUAGES)
def test_sc_comp_1_every_card_has_a_name_and_description(language: str) -> None:
    """SC-COMP-1: each card has a name and a one-line description in every language."""
    for card in card_texts():
        assert card["name"][language].strip()
        description = card["description"][language]
        assert description.strip() and "\n" not in description


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_breed_has_a_short_form_for_small_boards(language: str) -> None:
    """A phone held sideways shows each breed's short form on the board (its whole name
    was 5 to 6 px there): four letters at most, part of the name ("Skóg" of "Norskur
    skógarköttur", so that what is seen is part of what a screen reader says), and
    different for every breed."""
    shorts = []
    for card in card_texts()[: len(BREEDS)]:
        short, name = card["short"][language], card["name"][language]
        assert 3 <= len(short) <= 4, short
        assert short.casefold() in name.casefold(), (short, name)
        shorts.append(short)
    assert len(set(shorts)) == len(BREEDS), sorted(shorts)
    assert translate("sequence_cats.cards.norwegian-forest-cat.short", language) == (
        card_texts()[BREEDS.index("norwegian-forest-cat")]["short"][language])


def test_sc_comp_1_icelandic_and_norwegian_texts_come_from_the_seed() -> None:
    """SC-COMP-1: the seed's Icelandic and Norwegian texts, e.g. the Abyssinian card."""
    abyssinian = card_texts()[0]
    assert abyssinian["name"]["is"] == "Abessiníuköttur"
    assert abyssinian["description"]["is"].startswith("Glaðvær og forvitinn köttur")
    assert "«klovnen» av katteverdenen" in abyssinian["description"]["nb"]
    assert translate("sequence_cats.cards.manx.name", "is") == "Manarköttur"


def test_sc_comp_2_default_board_layout() -> None:
    """SC-COMP-2: 8 × 11 spaces, 4 free corners, each breed on exactly two spaces."""
    board = bundled_board("default")
    assert (board.rows, board.columns) == (8, 11)
    free = [board.labels[i] for i, b in enumerate(board.breed_of) if b < 0]
    assert free == ["A1", "K1", "A8", "K8"]
    counts = Counter(b for b in board.breed_of if b >= 0)
    assert sorted(counts) == list(range(42)) and set(counts.values()) == {2}


def test_sc_comp_2_the_two_spaces_of_a_breed_are_far_apart() -> None:
    """SC-COMP-2: both spaces of a breed never lie within one five-space line."""
    board = bundled_board("default")
    for a, b in board.spaces_of:
        ra, ca = divmod(a, board.columns)
        rb, cb = divmod(b, board.columns)
        assert max(abs(ra - rb), abs(ca - cb)) >= 5


def test_sc_comp_2_other_layouts_can_be_loaded() -> None:
    """SC-COMP-2: any layout with each breed on two spaces is accepted."""
    breeds = list(BREEDS) * 2
    grid = [breeds[12 * i: 12 * (i + 1)] for i in range(7)]
    board = board_for({"name": "wide", "spaces": grid})
    assert (board.rows, board.columns, board.free_mask) == (7, 12, 0)
    state = new(board={"name": "wide", "spaces": grid})
    assert state.board is board


@pytest.mark.parametrize(("given", "kept"), [
    ("\u202eevil\u200b\u0000 board", "evil board"), ("  two\nlines ", "two lines"),
    ("\u200b\u2066", "custom"), ("Kattegat", "Kattegat")])
def test_sc_comp_2_a_layouts_name_is_kept_as_other_names_are(given: str, kept: str) -> None:
    """SC-COMP-2: a layout's name is kept in the table's options, its record and what
    every seat is sent: it was kept as given, hidden and direction-changing characters
    included, where players' names, clues, chat and deck names are cleaned."""
    breeds = list(BREEDS) * 2
    grid = [breeds[12 * i: 12 * (i + 1)] for i in range(7)]
    config = GAME.make_config({"board": {"name": given, "spaces": grid}}, 2)
    assert config.board.name == kept  # type: ignore[union-attr]
    assert new(board={"name": given, "spaces": grid}).board.name == kept


@pytest.mark.parametrize(
    ("spaces", "key"),
    [
        ([["free", "abyssinian"], ["abyssinian"]], "layout_shape"),
        ([["free", "lion"]], "layout_unknown_space"),
        ([["free", *BREEDS[:21]], [*BREEDS[21:], "free"]], "layout_breed_count"),
    ],
)
def test_sc_comp_2_bad_layouts_are_refused(spaces: list[list[str]], key: str) -> None:
    """SC-COMP-2: a layout that is not rectangular or misplaces breeds is refused."""
    with pytest.raises(ConfigError) as refused:
        GAME.make_config({"board": {"spaces": spaces}}, 2)
    assert refused.value.rule == "SC-COMP-2"
    assert refused.value.key == f"sequence_cats.errors.{key}"


def test_sc_comp_2_a_layout_whose_size_is_not_its_grids_is_refused() -> None:
    """SC-COMP-2: a layout saying 13 × 3 of the 8 × 11 grid was taken, and its board then
    said 13 × 3 where the game played 8 × 11."""
    layout = board_for("default").to_json()
    for size in ({"rows": 13, "columns": 3}, {"rows": 11}, {"columns": 8}):
        with pytest.raises(ConfigError) as refused:
            GAME.make_config({"board": {**layout, **size}}, 2)
        assert refused.value.key == "sequence_cats.errors.layout_size"
        assert "its grid has 8 rows of 11" in str(refused.value)
    sized = GAME.make_config({"board": {**layout, "rows": 8, "columns": 11}}, 2)
    assert GAME.view(GAME.new_game(sized, 2, 1), 0) is not None


def test_sc_comp_2_unknown_bundled_board_is_refused() -> None:
    """SC-COMP-2: naming a layout that is not bundled gives a clear error."""
    with pytest.raises(ConfigError, match="no bundled board layout called \"moon\""):
        GAME.make_config({"board": "moon"}, 2)


def test_sc_comp_2_an_unknown_bundled_board_is_told_the_bundled_ones() -> None:
    """SC-COMP-2: "moon" was refused without saying which names there are, or that a
    layout of one's own is an object."""
    with pytest.raises(ConfigError) as refused:
        GAME.make_config({"board": "big"}, 2)
    assert str(refused.value) == (
        'SC-COMP-2: There is no bundled board layout called "big"; the bundled ones: '
        '"default" (or give a layout of your own, an object with "spaces").')
    assert refused.value.params["boards"] == '"default"'


def test_sc_comp_3_deck_has_88_cards() -> None:
    """SC-COMP-3: two of each breed, two PURRR and two MEOW."""
    deck = new_deck()
    assert len(deck) == 88
    counts = Counter(deck)
    assert all(counts[b] == 2 for b in range(42))
    assert counts[PURRR] == 2 and counts[MEOW] == 2


@pytest.mark.parametrize(("seats", "teams", "colours"),
                         [(2, None, 2), (3, None, 3), (4, None, 2), (6, None, 3), (6, 2, 2),
                          (6, 3, 3)])
def test_sc_comp_4_two_or_three_colours(seats: int, teams: int | None, colours: int) -> None:
    """SC-COMP-4: chips in two colours, or three for three players or teams."""
    state = new(seats, teams=teams)
    assert state.teams == colours
    assert sorted(set(state.team_of)) == list(range(colours))
