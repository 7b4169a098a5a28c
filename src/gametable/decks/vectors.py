"""Card descriptions as vectors (see :mod:`gametable.embeddings`), made once per deck.

A deck's vectors live beside its manifest in ``vectors.npz``: the bundled deck ships
them, an uploaded deck gets them when it is made (:func:`write_vectors`). Each file holds
``vectors`` (one row per card, float16, zeros for a card without description) and
``digest``, a hash of the model and the descriptions: a file that does not match is
ignored and the vectors are made again in memory (a few seconds for 250 cards).
"""

from __future__ import annotations

import hashlib
import io
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Final

import numpy as np

from gametable.decks import Deck
from gametable.embeddings import DIMENSIONS, MODEL_ID, Vectors, encoder

FILE: Final = "vectors.npz"
log = logging.getLogger(__name__)
_lock = threading.Lock()
_cache: dict[tuple[str, str], Vectors] = {}


def digest(descriptions: list[str | None]) -> str:
    """A hash of the model and the descriptions (which vectors a file must hold)."""
    text = "\x1e".join([MODEL_ID, *(d or "" for d in descriptions)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def embed_descriptions(descriptions: list[str | None],
                       on_chunk: Callable[[float], None] | None = None) -> Vectors:
    """One unit vector per description (a row of zeros for ``None``): ``(n, 384)``;
    ``on_chunk`` as :meth:`gametable.embeddings.Encoder.passages` takes it."""
    result = np.zeros((len(descriptions), DIMENSIONS), dtype=np.float32)
    given = [i for i, d in enumerate(descriptions) if d]
    if given:
        result[given] = encoder().passages([descriptions[i] or "" for i in given], on_chunk)
    return result


def write_vectors(folder: Path, descriptions: list[str | None],
                  on_chunk: Callable[[float], None] | None = None) -> None:
    """Write ``folder / vectors.npz`` for ``descriptions`` (nothing when none is given).

    Args:
        on_chunk: called with the CPU seconds of each few descriptions embedded (an
            upload's quota); whatever it raises stops the work.

    Raises:
        OSError: the file cannot be written.
    """
    if not any(descriptions):
        return
    vectors = embed_descriptions(descriptions, on_chunk)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, vectors=vectors.astype(np.float16),
                        digest=np.array(digest(descriptions)))
    (folder / FILE).write_bytes(buffer.getvalue())


def _read(path: Path, expected: str, count: int) -> Vectors | None:
    try:
        with np.load(path) as data:
            if str(data["digest"]) != expected:
                return None
            vectors = data["vectors"].astype(np.float32)
    except (OSError, ValueError, KeyError):
        return None
    return vectors if vectors.shape == (count, DIMENSIONS) else None


def deck_vectors(deck: Deck) -> Vectors:
    """The description vectors of ``deck``, ``(len(deck), 384)`` (cached per process)."""
    descriptions = deck.descriptions()
    expected = digest(descriptions)
    key = (deck.id, expected)
    with _lock:
        cached = _cache.get(key)
    if cached is not None:
        return cached
    vectors = _read(deck.folder / FILE, expected, len(descriptions))
    if vectors is None:
        if any(descriptions):
            log.info("deck %s: embedding %d card descriptions", deck.id, len(descriptions))
        vectors = embed_descriptions(descriptions)
        if deck.uploaded and any(descriptions):  # an older upload: keep them for next time
            try:
                write_vectors(deck.folder, descriptions)
            except OSError:
                log.warning("deck %s: the description vectors could not be kept", deck.id)
    with _lock:
        _cache[key] = vectors
    return vectors
