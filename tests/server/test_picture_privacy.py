"""A card's picture is answered the same whether or not anyone looked at it before.

Otherwise a player could fetch every card of the deck and tell, by the answers' headers or
how long they took, which cards other players' browsers had shown: their hands. The
bundled deck here is the one that ships (252 cards with their thumbnails).
"""

from __future__ import annotations

import hashlib
import statistics
import time

from fastapi.testclient import TestClient
from httpx import Response

SEEN = range(0, 21)  # cards other players' browsers have shown
UNSEEN = range(100, 140)  # cards nobody has asked for


def url(card: int, size: str = "thumb") -> str:
    return f"/api/decks/default/cards/{card}?size={size}"


def timed(client: TestClient, path: str) -> tuple[float, Response]:
    started = time.perf_counter()
    response = client.get(path)
    return time.perf_counter() - started, response


def test_headers_do_not_tell_whether_a_card_was_seen(client: TestClient) -> None:
    for size in ("thumb", "full"):
        seen = [client.get(url(card, size)) for card in SEEN]  # others' browsers ask…
        again = [client.get(url(card, size)) for card in SEEN]  # …the player asks too
        unseen = [client.get(url(card, size)) for card in UNSEEN]
        names = {frozenset(r.headers) for r in seen + again + unseen}
        assert len(names) == 1, names
        for response in seen + again + unseen:
            assert response.status_code == 200
            assert "last-modified" not in response.headers
            assert response.headers["etag"] == (
                '"' + hashlib.sha256(response.content).hexdigest()[:32] + '"')
        for first, second in zip(seen, again, strict=True):
            assert first.headers == second.headers and first.content == second.content


def test_a_first_request_is_not_slower_than_a_repeated_one(client: TestClient) -> None:
    for card in SEEN:  # the server has been in use
        client.get(url(card))
    firsts: list[float] = []
    repeats: list[float] = []
    for card in UNSEEN:
        first, response = timed(client, url(card))
        repeat, again = timed(client, url(card))
        assert response.content == again.content
        firsts.append(first)
        repeats.append(repeat)
    # Generous margins: a loaded machine may slow either, not one kind systematically.
    first, repeat = statistics.median(firsts), statistics.median(repeats)
    assert first <= 2 * repeat + 0.004, (f"first requests take {first * 1000:.1f} ms, "
                                         f"repeated ones {repeat * 1000:.1f} ms")
