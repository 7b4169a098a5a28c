"""Card descriptions as vectors: made once at upload and kept beside the deck, read back
by computer players, remade when they do not match (DX-DECK-3)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from gametable.decks.uploads import Upload, create_deck
from gametable.decks.vectors import FILE, deck_vectors, digest, embed_descriptions
from gametable.embeddings import encoder
from tests.decks.pictures import picture


def upload(count: int, descriptions: list[str | None]) -> tuple[Path, object]:
    files = [Upload(f"{n}.png", io.BytesIO(picture())) for n in range(count)]
    deck, _ = create_deck("Described", files, descriptions)
    return deck.folder, deck


def test_an_upload_with_descriptions_keeps_their_vectors_beside_the_deck(
        decks_home: Path) -> None:
    folder, deck = upload(3, ["A camel in the desert", None, "A pig flying over a barn"])
    with np.load(folder / FILE) as data:
        assert str(data["digest"]) == digest(["A camel in the desert", None,
                                              "A pig flying over a barn"])
        stored = data["vectors"].astype(np.float32)
    assert stored.shape == (3, 384) and not stored[1].any()
    vectors = deck_vectors(deck)  # type: ignore[arg-type]
    assert np.allclose(vectors, stored)
    query = encoder().queries(["Ship of the desert"])[0]
    assert vectors[0] @ query > vectors[2] @ query


def test_an_upload_without_descriptions_has_no_vectors(decks_home: Path) -> None:
    folder, _ = upload(2, [])
    assert not (folder / FILE).exists()


def test_vectors_that_do_not_match_are_made_again(decks_home: Path) -> None:
    folder, deck = upload(2, ["A whale", "A teapot"])
    np.savez_compressed(folder / FILE, vectors=np.zeros((2, 384), np.float16),
                        digest=np.array("stale"))
    vectors = deck_vectors(deck)  # type: ignore[arg-type]
    assert np.allclose(vectors, embed_descriptions(["A whale", "A teapot"]), atol=1e-3)
    with np.load(folder / FILE) as data:  # and kept for the next start
        assert str(data["digest"]) == digest(["A whale", "A teapot"])
