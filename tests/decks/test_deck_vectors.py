"""Card descriptions as vectors: made once at upload and kept beside the deck, read back
by computer players, remade when they do not match (DX-DECK-3)."""

from __future__ import annotations

import io
import json
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from gametable.decks import DEFAULT_DECK, find_deck, uploads_dir
from gametable.decks.images import DeckRefused
from gametable.decks.uploads import Upload, create_deck
from gametable.decks.vectors import FILE, deck_vectors, digest, embed_descriptions
from gametable.embeddings import MAX_PASSAGE_TOKENS, encoder
from tests.decks.pictures import picture

ROOT = Path(__file__).resolve().parents[2]


def upload(count: int, descriptions: list[str | None]) -> tuple[Path, object]:
    files = [Upload(f"{n}.png", io.BytesIO(picture(40 + n, 30))) for n in range(count)]
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


def test_making_vectors_is_charged_and_stops_when_the_share_is_spent(
        decks_home: Path) -> None:
    """An upload's descriptions made into vectors cost CPU that no quota counted (500
    cards of 500 emoji: about 950 s): each few descriptions are charged now, and a
    refusal stops the work and leaves nothing on disk."""
    charged: list[float] = []
    files = [Upload(f"{n}.png", io.BytesIO(picture(40 + n, 30))) for n in range(5)]
    texts = [f"A lantern number {n} on a quiet street" for n in range(5)]
    create_deck("Charged", files, texts, on_cpu=charged.append)
    assert len(charged) == 3 and all(seconds > 0 for seconds in charged)  # 2 + 2 + 1

    def spent(seconds: float) -> None:
        raise DeckRefused("quota_cpu", status=429, limit=1, window=60, minutes=1)

    files = [Upload(f"{n}.png", io.BytesIO(picture(40 + n, 30))) for n in range(5)]
    with pytest.raises(DeckRefused) as refused:
        create_deck("Refused", files, texts, on_cpu=spent)
    assert refused.value.code == "quota_cpu"
    root = uploads_dir()
    assert root is not None
    kept = [folder for folder in root.iterdir() if folder.is_dir()]
    assert [json.loads((f / "manifest.json").read_text())["name"] for f in kept] == ["Charged"]


def test_a_long_description_is_read_up_to_its_first_tokens(decks_home: Path) -> None:
    """500 emoji or piled accents make a description of 500 tokens, 2 s of CPU each: a
    passage is read up to MAX_PASSAGE_TOKENS (128) tokens; the bundled deck's longest
    description has 57, so its vectors do not change."""
    model = encoder()
    long = "A camel in the desert " * 60
    assert model._model.token_count(long, False) > MAX_PASSAGE_TOKENS
    clipped = model._clip(long)
    assert model._model.token_count(clipped, False) <= MAX_PASSAGE_TOKENS
    assert long.startswith(clipped) and len(clipped) > 100
    assert model._clip("A camel") == "A camel"
    assert np.allclose(model.passages([long])[0], model.passages([clipped])[0], atol=1e-5)


def test_a_clue_is_embedded_while_a_deck_is_being_made(decks_home: Path) -> None:
    """Making a deck's vectors held the one encoder for the whole deck, and every Dixit
    computer player on the server waited for its clue (one move in 10 s instead of 113):
    passages are made a few at a time, and a query waiting goes before the next few (a
    lock alone is not fair: the deck's thread could take it again at once)."""
    model = encoder()
    texts = [f"{'😀' * 120} {n}" for n in range(40)]
    order: list[str] = []
    started = threading.Event()

    def chunk(seconds: float) -> None:
        started.set()
        order.append("chunk")

    worker = threading.Thread(target=model.passages, args=(texts, chunk))
    worker.start()
    assert started.wait(30)
    model.queries([f"a clue asked at {time.time()}"])
    order.append("query")
    worker.join()
    assert order.index("query") <= 3, f"the query waited for {order.index('query')} chunks"


def test_the_default_decks_descriptions_name_what_the_pictures_show() -> None:
    """The bundled deck's cards 077, 149 and 208 show a giraffe cichlid, a fish; the
    clip art's title made their descriptions say "giraffe" — the text a screen reader
    reads for the picture and the computer players match clues against (a clue "fish"
    missed them). So with 46 more cards (a walrus called a seal, a turkey a chicken…):
    the descriptions written by hand are the cards', and the shipped vectors match
    them."""
    deck = find_deck(DEFAULT_DECK)
    assert deck is not None
    for card in deck.cards:
        files = " ".join(source["file"] for source in card.sources or [])
        if "cichlid" in files:
            assert card.description is not None
            assert "fish" in card.description and "giraffe" not in card.description, (
                card.id, card.description)
    # Every description written by hand (tools/deckgen/corrected.json) is the card's.
    corrected = json.loads((ROOT / "tools" / "deckgen" / "corrected.json").read_text(
        encoding="utf-8"))
    written = {card.id: card.description for card in deck.cards}
    assert {card_id: written[card_id] for card_id in corrected} == corrected
    assert "seal" not in (written["096"] or "") and "walrus" in (written["096"] or "")
    # Card 076 shows a fir decked for Christmas, baubles and a star on top: not "a tree".
    assert "fir tree dressed for Christmas" in (written["076"] or "")
    descriptions = deck.descriptions()
    with np.load(deck.folder / FILE) as shipped:
        assert str(shipped["digest"]) == digest(descriptions)  # not made again at start
