"""Decks of one's own: made from pictures or a zip, refused with clear errors, or deleted;
a refused upload leaves nothing behind."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest
from PIL import Image

import gametable.decks as library
import gametable.decks.cards as deck_cards
import gametable.decks.images as deck_images
import gametable.decks.uploads as deck_uploads
from gametable.decks import Deck, find_deck, forget
from gametable.decks.images import DeckRefused
from gametable.decks.uploads import (
    OWNERS_DIR,
    Upload,
    create_deck,
    delete_deck,
    index_owners,
    owned_decks,
    owner_hash,
    parse_descriptions,
    remove_leftovers,
)
from tests.decks.pictures import make_bundled_deck, picture, png_claiming, zip_of


def files(*named: tuple[str, bytes]) -> list[Upload]:
    return [Upload(name, io.BytesIO(data)) for name, data in named]


def refusal(home: Path, name: str | None, given: list[Upload],
            descriptions: list[str | None] | None = None) -> DeckRefused:
    """The refusal of an upload, checking that it left nothing on disk."""
    with pytest.raises(DeckRefused) as refused:
        create_deck(name, given, descriptions or [])
    folder = home / "decks"
    assert not folder.exists() or list(folder.iterdir()) == []
    return refused.value


def test_a_deck_from_pictures(decks_home: Path) -> None:
    deck, key = create_deck("  Holiday\tsnaps ", files(
        ("a.png", picture(1800, 900)), ("b.jpg", picture(50, 80, "JPEG")),
        ("c.webp", picture(70, 70, "WEBP"))), ["A beach", None, "  "])
    assert deck.uploaded and deck.name == "Holiday snaps" and len(deck) == 3
    assert deck.folder == decks_home / "decks" / deck.id
    assert deck.descriptions() == ["A beach", None, None]
    assert deck.owner == owner_hash(key) and key not in deck.folder.joinpath(
        "manifest.json").read_text()
    manifest = json.loads((deck.folder / "manifest.json").read_text())
    assert set(manifest) >= {"id", "name", "owner", "cards"}
    assert manifest["cards"][0] == {"id": "000", "file": "cards/000.webp",
                                    "description": "A beach",
                                    "sources": [{"type": "upload", "name": "a.png"}]}
    for number, size in enumerate([(1024, 512), (50, 80), (70, 70)]):
        stored = Image.open(deck.folder / f"cards/{number:03d}.webp")
        assert stored.format == "WEBP" and stored.size == size
        thumb = Image.open(deck.folder / f"thumbs/{number:03d}.webp")
        assert max(thumb.size) <= 320
    assert find_deck(deck.id) == deck
    assert not any(p.name.startswith(".") for p in (decks_home / "decks").iterdir())


def test_a_deck_from_a_zip_skips_folders_and_hidden_files(decks_home: Path) -> None:
    archive = zip_of({
        "cats/": b"",
        "cats/10.png": picture(20, 20, color=(10, 10, 10)),
        "cats/2.png": picture(20, 20, color=(20, 20, 20)),
        "cats/1.jpg": picture(20, 20, "JPEG"),
        "__MACOSX/cats/._1.jpg": b"resource fork",
        "cats/.DS_Store": b"finder",
        "cats/Thumbs.db": b"windows",
    })
    deck, _ = create_deck("Cats", files(("cats.zip", archive)), ["one", "two", "ten"])
    assert [c.sources[0]["name"] for c in deck.cards] == [
        "cats.zip/cats/1.jpg", "cats.zip/cats/2.png", "cats.zip/cats/10.png"]
    assert deck.descriptions() == ["one", "two", "ten"]


def test_a_wrong_type_is_refused_by_content(decks_home: Path) -> None:
    gif = picture(10, 10, "GIF")
    error = refusal(decks_home, "Deck", files(("ok.png", picture()), ("fake.png", gif)))
    assert error.code == "bad_type" and "fake.png" in str(error)
    error = refusal(decks_home, "Deck", files(("cards.zip", zip_of({"a.gif.png": gif}))))
    assert error.code == "bad_type" and "cards.zip/a.gif.png" in str(error)


def test_a_picture_over_10_mb_is_refused(decks_home: Path) -> None:
    big = picture() + b"\0" * (10 * 1024 * 1024)
    error = refusal(decks_home, "Deck", files(("ok.png", picture()), ("big.png", big)))
    assert error.code == "too_big" and "big.png" in str(error) and "10 MB" in str(error)


def test_a_picture_over_40_megapixels_is_refused(decks_home: Path) -> None:
    error = refusal(decks_home, "Deck", files(("ok.png", picture()),
                                              ("poster.png", png_claiming(9000, 5000))))
    assert error.code == "too_many_pixels" and "poster.png" in str(error)


def test_a_decompression_bomb_is_refused(decks_home: Path) -> None:
    error = refusal(decks_home, "Deck", files(("ok.png", picture()),
                                              ("bomb.png", png_claiming(50_000, 50_000))))
    assert error.code == "image_bomb" and "bomb.png" in str(error)


def test_a_corrupt_picture_is_refused(decks_home: Path) -> None:
    good = picture(200, 200, "JPEG")
    error = refusal(decks_home, "Deck", files(("ok.png", picture()),
                                              ("half.jpg", good[: len(good) // 2])))
    assert error.code == "corrupt" and "half.jpg" in str(error)
    error = refusal(decks_home, "Deck", files(("broken.zip", b"PK\x03\x04" + b"\0" * 50)))
    assert error.code == "corrupt" and "broken.zip" in str(error)


def test_every_bad_picture_is_named_at_once(decks_home: Path) -> None:
    """Forty pictures with three bad ones once took three uploads to find them, one a
    time: every picture is checked, and the refusal names each bad one (loose files and
    zip entries), counting those past the first ten."""
    good = picture(200, 200, "JPEG")
    error = refusal(decks_home, "Deck", files(
        ("ok.png", picture()), ("cat.gif", picture(fmt="GIF")),
        ("half.jpg", good[: len(good) // 2]),
        ("more.zip", zip_of({"a.png": picture(41, 30), "b.png": b"not a picture"}))))
    assert error.code == "bad_pictures" and error.params["count"] == 3
    assert [(p["code"], p["params"]["file"]) for p in error.params["problems"]] == [
        ("bad_type", "cat.gif"), ("corrupt", "half.jpg"), ("bad_type", "more.zip/b.png")]
    assert str(error).startswith("3 of the pictures cannot be used, so nothing was saved:")
    assert "cat.gif is not a PNG" in str(error) and "half.jpg is damaged" in str(error)
    many = refusal(decks_home, "Deck", files(
        *[(f"x{n}.png", b"no") for n in range(13)], ("ok.png", picture())))
    assert many.params["count"] == 13 and len(many.params["problems"]) == 10
    assert many.params["more"] == 3 and str(many).endswith(
        "And 3 more. Remove or replace them and upload again.")
    one = refusal(decks_home, "Deck", files(("ok.png", picture()), ("x.png", b"no")))
    assert one.code == "bad_type"  # one bad picture: its own refusal, as before


def test_an_empty_deck_is_refused(decks_home: Path) -> None:
    assert refusal(decks_home, "Deck", []).code == "empty_deck"
    only_junk = zip_of({"pics/": b"", ".hidden.png": picture(), "__MACOSX/a.png": b"x"})
    assert refusal(decks_home, "Deck", files(("empty.zip", only_junk))).code == "empty_deck"


def test_more_than_500_pictures_are_refused(decks_home: Path) -> None:
    one = picture(8, 8)
    error = refusal(decks_home, "Deck", files(*[(f"{n}.png", one) for n in range(501)]))
    assert error.code == "too_many_files" and error.params == {"count": 501, "limit": 500}
    archive = zip_of({f"{n}.png": one for n in range(501)})
    assert refusal(decks_home, "Deck", files(("many.zip", archive))).code == "too_many_files"


def test_a_zip_with_too_many_entries_is_refused(decks_home: Path) -> None:
    archive = zip_of({f"dir{n}/": b"" for n in range(2001)})
    error = refusal(decks_home, "Deck", files(("folders.zip", archive)))
    assert error.code == "zip_entries" and "folders.zip" in str(error)
    assert error.params["limit"] == 2000


def test_a_zip_bomb_entry_is_refused_without_unpacking(decks_home: Path) -> None:
    archive = zip_of({"ok.png": picture(), "bomb.png": b"\0" * (11 * 1024 * 1024)})
    assert len(archive) < 100_000
    error = refusal(decks_home, "Deck", files(("bomb.zip", archive)))
    assert error.code == "too_big" and "bomb.zip/bomb.png" in str(error)


def test_a_zip_too_big_unpacked_is_refused(decks_home: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deck_uploads, "MAX_ZIP_TOTAL_BYTES", 100_000)
    archive = zip_of({f"{n}.png": b"\0" * 60_000 for n in range(3)})
    error = refusal(decks_home, "Deck", files(("pack.zip", archive)))
    assert error.code == "zip_too_big" and "pack.zip" in str(error)


def test_a_zip_entry_that_lies_about_its_size_is_refused(decks_home: Path) -> None:
    good = picture(100, 100)
    archive = bytearray(zip_of({"a.png": good}, zipfile.ZIP_STORED))
    # Damage the stored data: the checksum no longer matches.
    start = archive.index(good[:16])
    archive[start + 40] ^= 0xFF
    error = refusal(decks_home, "Deck", files(("bad.zip", bytes(archive))))
    assert error.code == "corrupt" and "bad.zip/a.png" in str(error)


def test_the_same_picture_twice_and_an_empty_file_are_named(decks_home: Path) -> None:
    """A picture chosen twice made two cards nobody could tell apart (in one round on the
    table, the vote means nothing), without a word; an empty file was "not a PNG, JPEG
    or WebP picture". Both are named, with the other problems, and nothing is kept."""
    red, blue = picture(), picture(color=(20, 40, 200))
    error = refusal(decks_home, "Deck", files(
        ("red.png", red), ("blue.png", blue), ("zero.png", b""), ("copy of red.png", red),
        ("blue again.png", blue)))
    assert error.code == "bad_pictures" and error.params["count"] == 3
    assert [p["code"] for p in error.params["problems"]] == [
        "empty_file", "same_picture", "same_picture"]
    assert "zero.png is empty (0 bytes)." in str(error)
    assert "copy of red.png is the same picture as red.png" in str(error)
    assert "blue again.png is the same picture as blue.png" in str(error)
    # The same file chosen twice is told by the pictures' numbers ("red.png is the same
    # picture as red.png" said nothing).
    error = refusal(decks_home, "Deck", files(("red.png", red), ("blue.png", blue),
                                              ("red.png", red)))
    assert error.code == "same_picture_twice" and error.params["file"] == "red.png"
    assert "Pictures 1 and 3 (red.png) are the same picture" in str(error)
    # The same picture in another file format is another file: not told apart here.
    jpeg = picture(fmt="JPEG")
    deck, _ = create_deck("Deck", files(("red.png", red), ("red.jpg", jpeg)), [])
    assert len(deck) == 2


def test_names_and_descriptions_are_checked(decks_home: Path) -> None:
    one = files(("a.png", picture()))
    assert refusal(decks_home, "   ", one).code == "bad_name"
    assert refusal(decks_home, "x" * 61, one).code == "bad_name"
    assert refusal(decks_home, "Deck", one, ["a", "b"]).code == "too_many_descriptions"
    with pytest.raises(DeckRefused) as refused:
        parse_descriptions('["fine", "' + "x" * 501 + '"]')
    assert refused.value.code == "description_too_long" and refused.value.params["number"] == 2
    for raw in ("{", '{"a": 1}', "[1, 2]"):
        with pytest.raises(DeckRefused):
            parse_descriptions(raw)
    assert parse_descriptions('["a\\nb", null, ""]') == ["a b", None, None]
    assert parse_descriptions(None) == []


def test_a_failure_midway_leaves_nothing(decks_home: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    calls = 0
    real = deck_images.prepare_card

    def failing(data: bytes, name: str) -> tuple[bytes, bytes]:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise OSError("disk full")
        return real(data, name)

    monkeypatch.setattr(deck_uploads, "prepare_card", failing)
    with pytest.raises(OSError):
        create_deck("Deck", files(*[(f"{n}.png", picture(40 + n, 30)) for n in range(4)]))
    assert list((decks_home / "decks").iterdir()) == []


def test_owners_list_and_delete_their_decks(decks_home: Path) -> None:
    mine, key = create_deck("Mine", files(("a.png", picture())))
    theirs, other = create_deck("Theirs", files(("b.png", picture())))
    assert owned_decks([key]) == [mine]
    assert {d.id for d in owned_decks([key, other])} == {mine.id, theirs.id}
    assert owned_decks(["nobody"]) == [] and owned_decks([]) == []
    assert not delete_deck(mine.id, other) and not delete_deck(mine.id, None)
    assert find_deck(mine.id) is not None
    assert delete_deck(mine.id, key)
    assert find_deck(mine.id) is None and not mine.folder.exists()
    assert not delete_deck(mine.id, key)
    assert [p.name for p in (decks_home / "decks").iterdir()] == [theirs.id]
    assert owned_decks([key]) == [] and owned_decks([other]) == [theirs]


def test_listing_reads_only_the_owners_markers(decks_home: Path) -> None:
    """Listing one's decks reads the owner's markers (``deck-owners/<owner>/<id>`` in
    the data dir), not every deck's folder; the deck folders stay the truth: a marker
    whose deck is gone is dropped, and the server marks at start every deck that has
    none (decks made before markers, or a crash between the deck's rename and its
    marker)."""
    mine, key = create_deck("Mine", files(("a.png", picture())))
    older, _ = create_deck("Older", files(("b.png", picture())))
    marks = decks_home / OWNERS_DIR
    assert (marks / owner_hash(key) / mine.id).is_file()
    assert not (marks / owner_hash(key) / older.id).exists()
    # Another owner's deck is never opened for this listing.
    opened: list[str] = []
    real = find_deck

    def spying(deck_id: str) -> Deck | None:
        opened.append(deck_id)
        return real(deck_id)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(deck_uploads, "find_deck", spying)
        assert owned_decks([key]) == [mine]
    assert opened == [mine.id]
    # A deck without its marker (made before markers) is listed once the server has
    # started: index_owners marks it, once.
    shutil.rmtree(marks)
    assert owned_decks([key]) == []
    assert index_owners() == 2 and index_owners() == 0
    assert owned_decks([key]) == [mine]
    # A marker whose deck is gone (removed by hand) is dropped when listed.
    shutil.rmtree(mine.folder)
    forget(mine.id)
    assert owned_decks([key]) == []
    assert not (marks / owner_hash(key) / mine.id).exists()
    assert older.folder.is_dir()


def test_bundled_decks_are_listed_and_never_deleted(decks_home: Path) -> None:
    make_bundled_deck(library.BUNDLED_DIR, "zebra", name="Another deck")
    make_bundled_deck(library.BUNDLED_DIR, "default", name="Zzz default")
    assert [d.id for d in deck_cards.bundled_decks()] == ["default", "zebra"]
    assert not delete_deck("default", "anything")
    assert (library.BUNDLED_DIR / "default" / "manifest.json").is_file()


def test_bundled_pictures_come_from_memory_with_their_shipped_thumbnails(
        decks_home: Path) -> None:
    folder = make_bundled_deck(library.BUNDLED_DIR)
    (folder / "thumbs" / "002.webp").unlink()
    deck = find_deck("default")
    assert deck is not None and not deck.uploaded
    thumb = deck_cards.picture(deck, 1, "thumb")
    assert thumb is not None and thumb.data == (folder / "thumbs" / "001.webp").read_bytes()
    assert thumb.etag == '"' + hashlib.sha256(thumb.data).hexdigest()[:32] + '"'
    assert max(Image.open(io.BytesIO(thumb.data)).size) == 320
    # Everything was read at once: files removed afterwards are still served as they were.
    full = (folder / "cards" / "000.webp").read_bytes()
    shutil.rmtree(folder / "cards")
    assert deck_cards.picture(deck, 0, "full") == deck_cards.Picture(
        full, deck_cards.content_tag(full))
    # A card without a thumbnail serves its picture; nothing is made, nothing is written.
    assert deck_cards.picture(deck, 2, "thumb") == deck_cards.picture(deck, 2, "full")
    assert deck_cards.picture(deck, 3, "thumb") is None
    assert deck_cards.picture(deck, -1, "full") is None
    assert not (decks_home / "deck-cache").exists()
    assert sorted(p.name for p in (folder / "thumbs").iterdir()) == ["000.webp", "001.webp"]


def test_uploaded_pictures_are_read_from_their_files(decks_home: Path) -> None:
    deck, _ = create_deck("Mine", files(("a.png", picture(1600, 1200))))
    thumb = deck_cards.picture(deck, 0, "thumb")
    full = deck_cards.picture(deck, 0, "full")
    assert thumb is not None and full is not None
    assert thumb.data == (deck.folder / "thumbs" / "000.webp").read_bytes()
    assert full.data == (deck.folder / "cards" / "000.webp").read_bytes()
    assert Image.open(io.BytesIO(thumb.data)).size == (320, 240)
    assert deck_cards.warm(deck, now=1000.0) and not deck_cards.warm(deck, now=1001.0)


def test_every_card_of_the_shipped_deck_has_its_thumbnail() -> None:
    deck = library.load_manifest(library.BUNDLED_DIR / "default", uploaded=False)
    assert len(deck) == 252
    for number, card in enumerate(deck.cards):
        path = deck_cards.thumb_file(deck, number)
        assert path is not None, f"card {card.id} has no thumbs/{card.id}.webp"
        with Image.open(path) as thumb, Image.open(deck.folder / card.file) as full:
            assert thumb.format == "WEBP" and max(thumb.size) == 320
            assert abs(thumb.width / thumb.height - full.width / full.height) < 0.01
    extra = {p.stem for p in (deck.folder / "thumbs").iterdir()} - {c.id for c in deck.cards}
    assert not extra


def test_leftovers_of_interrupted_uploads_and_deletions_are_removed(decks_home: Path
                                                                     ) -> None:
    kept, _ = create_deck("Kept", files(("a.png", picture())))
    root = decks_home / "decks"
    for name in (".incoming-0123456789abcdef", ".deleted-fedcba9876543210-abcd"):
        (root / name / "cards").mkdir(parents=True)
        (root / name / "cards" / "000.webp").write_bytes(b"half a picture")
    (root / ".incoming-plain-file").write_bytes(b"not a folder")
    assert sorted(remove_leftovers()) == [".deleted-fedcba9876543210-abcd",
                                          ".incoming-0123456789abcdef"]
    assert sorted(p.name for p in root.iterdir()) == [".incoming-plain-file", kept.id]
    assert find_deck(kept.id) == kept


def test_served_manifests_hide_local_paths_and_owners(decks_home: Path) -> None:
    make_bundled_deck(library.BUNDLED_DIR)
    deck = find_deck("default")
    assert deck is not None
    served = deck_cards.public_manifest(deck)
    assert served["cards"][0]["sources"] == [{"licence": "CC0"}]
    assert "/home/" not in json.dumps(served)
    mine, _ = create_deck("Mine", files(("a.png", picture())))
    assert "owner" not in json.dumps(deck_cards.public_manifest(mine))


def test_a_manifest_path_out_of_its_folder_is_not_served(decks_home: Path) -> None:
    folder = make_bundled_deck(library.BUNDLED_DIR, "sneaky", cards=1)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["cards"][0]["file"] = "../../data/secret.webp"
    (folder / "manifest.json").write_text(json.dumps(manifest))
    deck = find_deck("sneaky")
    assert deck is not None and deck_cards.card_path(deck, 0) is None
