"""The deck routes: uploading, listing, manifests, deleting, and who may see the pictures."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from httpx import Response
from PIL import Image

import gametable.decks as library
import gametable.server.decks as deck_routes
from tests.decks.pictures import make_bundled_deck, noise, picture, zip_of

PUBLIC = "public, max-age=31536000, immutable"
PRIVATE = "private, max-age=86400"
DIXIT_MINIMUM = 26  # 3 players: 3 × 7 dealt + 5 on the table (DX-DECK-2)


@pytest.fixture
def bundled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small default deck in place of the one that ships."""
    folder = tmp_path / "bundled"
    folder.mkdir()
    make_bundled_deck(folder, "default", cards=3, name="Default pictures")
    monkeypatch.setattr(library, "BUNDLED_DIR", folder)
    return folder


def upload(client: TestClient, name: str = "Holiday", count: int = 3,
           descriptions: list[str | None] | None = None,
           files: list[tuple[str, bytes]] | None = None) -> Response:
    parts = [("files", (file, data, "application/octet-stream"))
             for file, data in (files if files is not None else
                                [(f"{n}.png", picture(40 + n, 30)) for n in range(count)])]
    data = {"name": name}
    if descriptions is not None:
        data["descriptions"] = json.dumps(descriptions)
    return client.post("/api/decks", data=data, files=parts)


def uploaded(client: TestClient, **options: Any) -> dict[str, Any]:
    response = upload(client, **options)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def dixit_table(client: TestClient, deck: str, key: str) -> dict[str, Any]:
    """A Dixit table with ``deck``, created by its owner (``key``)."""
    response = client.post("/api/tables", json={
        "game": "dixit", "config": {"deck": deck}, "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]},
        headers={"X-Deck-Key": key})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def assert_image(response: Response, cache: str) -> None:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "image/webp"
    assert response.headers["cache-control"] == cache
    assert response.headers["etag"]
    assert response.content[:4] == b"RIFF" and response.content[8:12] == b"WEBP"


def test_an_upload_answers_the_deck_and_its_owner_key(client: TestClient, bundled: Path
                                                      ) -> None:
    body = uploaded(client, descriptions=["A beach", None, "A dog"])
    deck, key = body["deck"], body["key"]
    assert deck["name"] == "Holiday" and deck["cards"] == 3 and deck["uploaded"]
    assert isinstance(key, str) and len(key) >= 24
    manifest = client.get(f"/api/decks/{deck['id']}", headers={"X-Deck-Key": key})
    assert manifest.status_code == 200
    assert manifest.headers["cache-control"] == PRIVATE
    data = manifest.json()
    assert [c["description"] for c in data["cards"]] == ["A beach", None, "A dog"]
    assert data["mine"] is True and "owner" not in manifest.text and key not in manifest.text


def test_a_zip_upload(client: TestClient, bundled: Path) -> None:
    archive = zip_of({"b.png": picture(), "a.jpg": picture(fmt="JPEG"), "__MACOSX/x": b""})
    body = uploaded(client, files=[("cards.zip", archive)])
    assert body["deck"]["cards"] == 2


def test_listing_shows_bundled_decks_and_only_ones_own(client: TestClient, bundled: Path
                                                       ) -> None:
    first = uploaded(client, name="First")
    second = uploaded(client, name="Second")
    anonymous = client.get("/api/decks").json()["decks"]
    assert anonymous == [{"id": "default", "name": "Default pictures", "cards": 3,
                          "described": 3, "uploaded": False, "mine": False}]
    mine = client.get("/api/decks", headers={"X-Deck-Key": first["key"]}).json()["decks"]
    assert [d["id"] for d in mine] == ["default", first["deck"]["id"]]
    assert mine[1]["mine"] is True and mine[1]["cards"] == 3
    both = client.get("/api/decks",
                      headers={"X-Deck-Key": f"{first['key']}, {second['key']}"}).json()
    assert {d["id"] for d in both["decks"]} == {"default", first["deck"]["id"],
                                                second["deck"]["id"]}
    assert both["decks"][0]["id"] == "default"
    wrong = client.get("/api/decks", headers={"X-Deck-Key": "not-a-key"}).json()["decks"]
    assert [d["id"] for d in wrong] == ["default"]


def test_refusals_name_the_file_and_leave_nothing(client: TestClient, bundled: Path,
                                                  tmp_path: Path) -> None:
    response = upload(client, files=[("ok.png", picture()),
                                     ("cat.png", picture(fmt="GIF"))])
    assert response.status_code == 400
    error = response.json()
    assert (error["type"], error["code"], error["key"]) == ("error", "bad_type",
                                                            "decks.errors.bad_type")
    assert error["params"]["file"] == "cat.png" and "cat.png" in error["message"]
    assert upload(client, name=" ").json()["code"] == "bad_name"
    assert upload(client, files=[("junk.zip", zip_of({".hidden.png": picture()}))]) \
        .json()["code"] == "empty_deck"
    assert upload(client, files=[]).json()["code"] == "bad_upload"  # not even multipart
    assert upload(client, descriptions=["a"] * 4).json()["code"] == "too_many_descriptions"
    folder = tmp_path / "decks"
    assert not folder.exists() or list(folder.iterdir()) == []
    bad = client.post("/api/decks", json={"name": "x"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_upload"


def test_the_upload_limit_is_its_own_and_counted_as_the_body_arrives(
        client: TestClient, bundled: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = noise(600, 512)
    assert len(big) > 256 * 1024
    # Far over the 64 KiB of the other routes: accepted here.
    assert upload(client, files=[("noise.png", big)]).status_code == 201
    # Elsewhere the small limit stays.
    too_big = client.post("/api/tables", content=b"{" + b" " * (70 * 1024) + b"}",
                          headers={"Content-Type": "application/json"})
    assert too_big.status_code == 413
    # Over the upload limit: counted while the body is read.
    monkeypatch.setattr(deck_routes, "MAX_UPLOAD_BYTES", 100 * 1024)
    response = upload(client, files=[("noise.png", big)])
    assert response.status_code == 413 and response.json()["code"] == "upload_too_large"


def test_an_uploaded_deck_is_hidden_from_others(client: TestClient, bundled: Path) -> None:
    body = uploaded(client)
    deck_id, key = body["deck"]["id"], body["key"]
    for path in (f"/api/decks/{deck_id}", f"/api/decks/{deck_id}/cards/0",
                 f"/api/decks/{deck_id}/cards/0?size=thumb"):
        response = client.get(path)
        assert response.status_code == 404 and response.json()["code"] == "no_deck"
        assert client.get(path, headers={"X-Deck-Key": "wrong"}).status_code == 404
    # The same answer as a deck that does not exist at all.
    assert client.get("/api/decks/0123456789abcdef/cards/0").json()["code"] == "no_deck"
    assert_image(client.get(f"/api/decks/{deck_id}/cards/0?key={key}"), PRIVATE)
    assert_image(client.get(f"/api/decks/{deck_id}/cards/1?size=thumb",
                            headers={"X-Deck-Key": key}), PRIVATE)


def test_seats_of_a_table_using_the_deck_see_its_pictures(client: TestClient,
                                                          bundled: Path) -> None:
    body = uploaded(client, count=DIXIT_MINIMUM)
    deck_id = body["deck"]["id"]
    # Only the deck's owner may seat a table with it: a deck id alone is not enough.
    stranger = client.post("/api/tables", json={
        "game": "dixit", "config": {"deck": deck_id}, "name": "Eve",
        "seats": [{"kind": "human"}] * 3}, headers={"X-Deck-Key": "guess"})
    assert stranger.status_code == 404 and stranger.json()["code"] == "no_deck"
    created = dixit_table(client, deck_id, body["key"])
    table_id, token = created["table"]["id"], created["token"]
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bjarni"}).json()
    for seat_token in (token, joined["token"]):
        for size in ("thumb", "full"):
            url = f"/api/decks/{deck_id}/cards/5?size={size}&table={table_id}&token={seat_token}"
            assert_image(client.get(url), PRIVATE)
        manifest = client.get(f"/api/decks/{deck_id}?table={table_id}&token={seat_token}")
        assert manifest.status_code == 200 and len(manifest.json()["cards"]) == DIXIT_MINIMUM
        assert manifest.json()["mine"] is False
    # A wrong token, no token, or the host token: nothing.
    for query in (f"table={table_id}&token=wrong", f"table={table_id}",
                  f"table={table_id}&token={created['host_token']}",
                  f"table=nosuchtable&token={token}"):
        assert client.get(f"/api/decks/{deck_id}/cards/5?{query}").status_code == 404
    # A seat token of a table that plays with another deck: nothing.
    other = uploaded(client, count=DIXIT_MINIMUM)
    elsewhere = dixit_table(client, other["deck"]["id"], other["key"])
    url = (f"/api/decks/{deck_id}/cards/5?table={elsewhere['table']['id']}"
           f"&token={elsewhere['token']}")
    assert client.get(url).status_code == 404


def test_bundled_pictures_are_public_and_cached_for_a_year(client: TestClient, bundled: Path,
                                                           tmp_path: Path) -> None:
    thumb = client.get("/api/decks/default/cards/2?size=thumb")
    assert_image(thumb, PUBLIC)
    assert max(Image.open(io.BytesIO(thumb.content)).size) == 320
    # Made once, kept under the data dir, not in the package.
    assert list((tmp_path / "deck-cache" / "default").iterdir())
    assert not (bundled / "default" / "thumbs").exists()
    again = client.get("/api/decks/default/cards/2?size=thumb",
                       headers={"If-None-Match": thumb.headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == PUBLIC
    full = client.get("/api/decks/default/cards/0")
    assert_image(full, PUBLIC)
    assert full.headers["etag"] != thumb.headers["etag"]
    manifest = client.get("/api/decks/default").json()
    assert manifest["cards"][0]["sources"] == [{"licence": "CC0"}]
    assert "/home/" not in json.dumps(manifest)


def test_wrong_cards_and_sizes(client: TestClient, bundled: Path) -> None:
    assert client.get("/api/decks/default/cards/3").json()["code"] == "no_card"
    assert client.get("/api/decks/default/cards/-1").status_code == 404
    assert client.get("/api/decks/default/cards/0?size=huge").json()["code"] == "bad_size"
    assert client.get("/api/decks/..%2F..%2Fetc/cards/0").status_code == 404


def test_owners_delete_their_decks_unless_a_game_uses_them(client: TestClient,
                                                           bundled: Path) -> None:
    body = uploaded(client)
    deck_id, key = body["deck"]["id"], body["key"]
    assert client.delete(f"/api/decks/{deck_id}").status_code == 404
    assert client.delete(f"/api/decks/{deck_id}", headers={"X-Deck-Key": "x"}).status_code \
        == 404
    assert client.delete("/api/decks/default", headers={"X-Deck-Key": key}).status_code == 404
    deleted = client.delete(f"/api/decks/{deck_id}", headers={"X-Deck-Key": key})
    assert deleted.status_code == 200 and deleted.json() == {"deleted": deck_id}
    assert client.get(f"/api/decks/{deck_id}?key={key}").status_code == 404
    assert client.get("/api/decks", headers={"X-Deck-Key": key}).json()["decks"][-1]["id"] \
        == "default"
    busy = uploaded(client, count=DIXIT_MINIMUM)
    dixit_table(client, busy["deck"]["id"], busy["key"])
    refused = client.delete(f"/api/decks/{busy['deck']['id']}",
                            headers={"X-Deck-Key": busy["key"]})
    assert refused.status_code == 409 and refused.json()["code"] == "deck_in_use"
