"""The deck routes: uploading, listing, manifests, deleting, and who may see the pictures."""

from __future__ import annotations

import hashlib
import io
import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode

import anyio
import pytest
from fastapi.testclient import TestClient
from httpx import Response
from PIL import Image

import gametable.decks as library
import gametable.server.decks as deck_routes
from gametable.core.i18n import translate
from gametable.decks import images, uploads
from gametable.server.app import Settings, create_app
from gametable.server.quotas import UploadQuota
from tests.decks.pictures import make_bundled_deck, noise, picture, zip_of
from tests.server.test_socket import connect, hello, next_of

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
    library.forget("default")  # the server read the real one as it started
    return folder


def upload(client: TestClient, name: str = "Holiday", count: int = 3,
           descriptions: list[str | None] | None = None,
           files: list[tuple[str, bytes]] | None = None,
           language: str | None = None) -> Response:
    parts = [("files", (file, data, "application/octet-stream"))
             for file, data in (files if files is not None else
                                [(f"{n}.png", picture(40 + n, 30)) for n in range(count)])]
    data = {"name": name}
    if descriptions is not None:
        data["descriptions"] = json.dumps(descriptions)
    if language is not None:
        data["language"] = language
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
    """A WebP picture whose only validator is the hash of its bytes."""
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "image/webp"
    assert response.headers["cache-control"] == cache
    assert response.headers["etag"] == content_tag(response.content)
    assert "last-modified" not in response.headers
    assert response.content[:4] == b"RIFF" and response.content[8:12] == b"WEBP"


def content_tag(data: bytes) -> str:
    return '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


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
    several = upload(client, files=[("cat.png", picture(fmt="GIF")), ("dog.png", b"x")])
    assert several.status_code == 400 and several.json()["code"] == "bad_pictures"
    assert [p["key"] for p in several.json()["params"]["problems"]] == [
        "decks.errors.bad_type", "decks.errors.bad_type"]
    assert upload(client, name=" ").json()["code"] == "bad_name"
    assert upload(client, files=[("junk.zip", zip_of({".hidden.png": picture()}))]) \
        .json()["code"] == "empty_deck"
    assert upload(client, files=[]).json()["code"] == "bad_upload"  # not even multipart
    assert upload(client, descriptions=["a"] * 4).json()["code"] == "too_many_descriptions"
    folder = tmp_path / "decks"
    assert not folder.exists() or list(folder.iterdir()) == []
    bad = client.post("/api/decks", json={"name": "x"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_upload"
    # Neither the refusal nor a broken form carries the server's English words into the
    # reader's language ("Não foi possível ler o envio (expected multipart/form-data)").
    broken = client.post("/api/decks", content=b"--x\r\nnot a part",
                         headers={"Content-Type": "multipart/form-data; boundary=x"})
    for refused in (bad, broken):
        error = refused.json()
        assert refused.status_code == 400 and error["code"] == "bad_upload", error
        assert error["params"] == {}
        assert translate(error["key"], "pt", **error["params"]) == (
            "Não foi possível ler o envio: não é um formulário de ficheiros completo "
            "(multipart/form-data).")


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


def test_an_upload_that_says_it_is_too_large_is_refused_as_one_before_it_is_read(
        client: TestClient) -> None:
    """docs/protocol.md: an upload over 200 MB is ``upload_too_large``. One whose
    ``Content-Length`` said so (any browser's, httpx's) was refused by the server's
    backstop as a websocket message is: ``too_large``, "That message is too large
    (220203701 bytes; the limit is 209780736)"."""
    response = client.post(
        "/api/decks", content=b"--x--\r\n",
        headers={"Content-Type": "multipart/form-data; boundary=x",
                 "Content-Length": str(deck_routes.MAX_UPLOAD_BYTES + 1)})
    assert response.status_code == 413, response.text
    assert response.json()["code"] == "upload_too_large"
    assert response.json()["message"] == "The upload is too large: at most 200 MB in all."


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
    # The owner's manifest says "mine": a browser must not answer a request without the
    # key from the copy it kept of one with it.
    manifest = client.get(f"/api/decks/{deck_id}", headers={"X-Deck-Key": key})
    assert manifest.json()["mine"] is True
    assert manifest.headers["vary"] == "X-Deck-Key"


def picture_pass(client: TestClient, deck_id: str, table_id: str, token: str) -> Response:
    return client.post(f"/api/decks/{deck_id}/pass", json={"table": table_id, "token": token})


def test_seats_of_a_table_using_the_deck_get_a_picture_pass(client: TestClient,
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
    queries = set()
    for seat_token in (token, joined["token"]):
        answer = picture_pass(client, deck_id, table_id, seat_token)
        assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
        granted = answer.json()
        assert granted["deck"] == deck_id and granted["table"] == table_id
        assert granted["expires"] >= time.time() + 2 * 3600 - 5
        query = granted["query"]
        assert seat_token not in query and body["key"] not in query
        assert set(parse_qs(query)) == {"table", "expires", "sig"}
        for size in ("thumb", "full"):
            assert_image(client.get(f"/api/decks/{deck_id}/cards/5?size={size}&{query}"),
                         PRIVATE)
        manifest = client.get(f"/api/decks/{deck_id}?{query}")
        assert manifest.status_code == 200 and len(manifest.json()["cards"]) == DIXIT_MINIMUM
        assert manifest.json()["mine"] is False
        queries.add(query)
    assert len(queries) == 1  # the same addresses for every seat: the browser cache works
    # The seat token itself no longer opens the pictures.
    url = f"/api/decks/{deck_id}/cards/5?table={table_id}&token={token}"
    assert client.get(url).status_code == 404
    # A wrong token, the host token, or another table: no pass.
    for table, seat_token in ((table_id, "wrong"), (table_id, created["host_token"]),
                              ("nosuchtable", token)):
        refused = picture_pass(client, deck_id, table, seat_token)
        assert refused.status_code == 404 and refused.json()["code"] == "no_deck"
    # A seat of a table that plays with another deck: no pass for this one, and its pass
    # does not open this deck.
    other = uploaded(client, count=DIXIT_MINIMUM)
    elsewhere = dixit_table(client, other["deck"]["id"], other["key"])
    assert picture_pass(client, deck_id, elsewhere["table"]["id"],
                        elsewhere["token"]).status_code == 404
    their = picture_pass(client, other["deck"]["id"], elsewhere["table"]["id"],
                         elsewhere["token"]).json()["query"]
    assert client.get(f"/api/decks/{deck_id}/cards/5?{their}").status_code == 404
    # A bundled deck needs no pass.
    public = picture_pass(client, "default", table_id, token).json()
    assert public["query"] == "" and public["expires"] is None


def test_someone_watching_a_table_gets_a_picture_pass_while_its_host_lets_people_watch(
        client: TestClient, bundled: Path) -> None:
    """The big screen and the watch link showed an uploaded deck's cards as blank tiles
    (their pictures answered 404): someone watching a table that plays with the deck now
    gets the pass its players get, unless the host has switched watching off."""
    body = uploaded(client, count=DIXIT_MINIMUM)
    deck_id = body["deck"]["id"]
    created = dixit_table(client, deck_id, body["key"])
    table_id, token = created["table"]["id"], created["token"]
    watching = client.post(f"/api/decks/{deck_id}/pass", json={"table": table_id})
    assert watching.status_code == 200, watching.text
    query = watching.json()["query"]
    assert query == picture_pass(client, deck_id, table_id, token).json()["query"]
    assert_image(client.get(f"/api/decks/{deck_id}/cards/5?size=thumb&{query}"), PRIVATE)
    # Not for a table that plays with another deck, nor one nobody may watch.
    other = uploaded(client, count=DIXIT_MINIMUM)
    elsewhere = dixit_table(client, other["deck"]["id"], other["key"])
    refused = client.post(f"/api/decks/{deck_id}/pass",
                          json={"table": elsewhere["table"]["id"]})
    assert refused.status_code == 404 and refused.json()["code"] == "no_deck"
    off = client.post(f"/api/tables/{table_id}/watching", json={"allowed": False},
                      headers={"X-Host-Token": created["host_token"]})
    assert off.status_code == 200, off.text
    refused = client.post(f"/api/decks/{deck_id}/pass", json={"table": table_id})
    assert refused.status_code == 404 and refused.json()["code"] == "no_deck"
    assert picture_pass(client, deck_id, table_id, token).status_code == 200  # players


def test_an_expired_or_tampered_pass_opens_nothing(client: TestClient, bundled: Path) -> None:
    body = uploaded(client, count=DIXIT_MINIMUM)
    deck_id = body["deck"]["id"]
    created = dixit_table(client, deck_id, body["key"])
    table_id = created["table"]["id"]
    good = parse_qs(picture_pass(client, deck_id, table_id, created["token"]).json()["query"])
    keeper = client.app.api.state.deck_passes  # type: ignore[attr-defined]
    old = keeper.issue(deck_id, table_id, now=time.time() - 3 * 3600 - 1)
    assert old.expires < time.time()
    signature = good["sig"][0]
    flipped = ("A" if signature[0] != "A" else "B") + signature[1:]
    for query in (
        old.query(),                                                    # expired
        urlencode({**good, "sig": flipped}, doseq=True),               # tampered
        urlencode({**good, "expires": int(good["expires"][0]) + 3600}, doseq=True),
        urlencode({**good, "table": "another"}, doseq=True),
        urlencode({"table": table_id, "expires": good["expires"][0]}),  # no signature
        urlencode({**good, "expires": "soon"}, doseq=True),
    ):
        for path in (f"/api/decks/{deck_id}/cards/0?{query}", f"/api/decks/{deck_id}?{query}"):
            response = client.get(path)
            assert response.status_code == 404 and response.json()["code"] == "no_deck", query
    assert client.get(f"/api/decks/{deck_id}/cards/0?{urlencode(good, doseq=True)}") \
        .status_code == 200


def test_a_picture_pass_does_not_let_its_holder_act_at_the_table(client: TestClient,
                                                                 bundled: Path) -> None:
    body = uploaded(client, count=DIXIT_MINIMUM)
    deck_id = body["deck"]["id"]
    created = dixit_table(client, deck_id, body["key"])
    table_id = created["table"]["id"]
    granted = parse_qs(picture_pass(client, deck_id, table_id, created["token"])
                       .json()["query"])
    candidates = [granted["sig"][0], granted["expires"][0],
                  urlencode(granted, doseq=True)]
    for candidate in candidates:
        with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
            ws.send_json({"type": "hello", "token": candidate})
            assert ws.receive_json()["code"] == "bad_token"
            welcome = ws.receive_json()
            assert welcome["type"] == "welcome" and welcome["seat"] is None
            ws.receive_json()  # the spectator's state
            ws.send_json({"type": "action", "action": {"type": "claim"}, "id": 1})
            while (message := ws.receive_json())["type"] != "error":
                pass
            assert message["code"] == "not_seated"
        bot = client.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "random"},
                          headers={"X-Host-Token": candidate})
        assert bot.status_code == 403
        assert client.delete(f"/api/decks/{deck_id}",
                             headers={"X-Deck-Key": candidate}).status_code == 404
        assert picture_pass(client, deck_id, table_id, candidate).status_code == 404


def test_bundled_pictures_are_public_and_cached_for_a_year(client: TestClient, bundled: Path,
                                                           tmp_path: Path) -> None:
    thumb = client.get("/api/decks/default/cards/2?size=thumb")
    assert_image(thumb, PUBLIC)
    assert max(Image.open(io.BytesIO(thumb.content)).size) == 320
    # The thumbnail that ships with the deck, not one made on request.
    assert thumb.content == (bundled / "default" / "thumbs" / "002.webp").read_bytes()
    assert not (tmp_path / "deck-cache").exists()
    again = client.get("/api/decks/default/cards/2?size=thumb",
                       headers={"If-None-Match": thumb.headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == PUBLIC
    assert again.headers["etag"] == thumb.headers["etag"]
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
    first = dixit_table(client, busy["deck"]["id"], busy["key"])["table"]["id"]
    refused = client.delete(f"/api/decks/{busy['deck']['id']}",
                            headers={"X-Deck-Key": busy["key"]})
    assert refused.status_code == 409 and refused.json()["code"] == "deck_in_use"
    assert refused.json()["params"]["tables"] == [first]
    assert "in use at a table whose game is not over" in refused.json()["message"]
    second = dixit_table(client, busy["deck"]["id"], busy["key"])["table"]["id"]
    refused = client.delete(f"/api/decks/{busy['deck']['id']}",
                            headers={"X-Deck-Key": busy["key"]})
    assert refused.json()["params"]["tables"] == [first, second]
    assert refused.json()["params"]["count"] == 2
    assert "in use at 2 tables whose games are not over" in refused.json()["message"]


def test_a_deck_whose_table_left_memory_is_still_in_use(client: TestClient, bundled: Path
                                                        ) -> None:
    body = uploaded(client, count=DIXIT_MINIMUM)
    deck_id, key = body["deck"]["id"], body["key"]
    table_id = dixit_table(client, deck_id, key)["table"]["id"]
    manager = client.app.api.state.manager  # type: ignore[attr-defined]
    assert manager.evict_idle(now=time.monotonic() + 2 * 3600) >= 1
    assert table_id not in manager.tables
    refused = client.delete(f"/api/decks/{deck_id}", headers={"X-Deck-Key": key})
    assert refused.status_code == 409 and refused.json()["code"] == "deck_in_use"
    assert refused.json()["params"]["tables"] == [table_id]
    # The table comes back with its deck.
    assert client.get(f"/api/tables/{table_id}").json()["config"]["deck"] == deck_id
    assert client.get(f"/api/decks/{deck_id}", headers={"X-Deck-Key": key}).status_code == 200


def test_a_deck_is_free_once_its_games_are_over(client: TestClient, bundled: Path) -> None:
    body = uploaded(client, count=DIXIT_MINIMUM)
    deck_id, key = body["deck"]["id"], body["key"]
    table_id = dixit_table(client, deck_id, key)["table"]["id"]
    manager = client.app.api.state.manager  # type: ignore[attr-defined]
    # The storage layer knows configs, not games: any option, any table.
    assert manager.storage.unfinished_with("deck", deck_id) == [table_id]
    assert manager.storage.unfinished_with("deck", "default") == []
    with pytest.raises(ValueError):
        manager.storage.unfinished_with("deck') OR 1=1 --", deck_id)
    client.portal.call(manager.storage.mark_finished, table_id, time.time())  # type: ignore[union-attr]
    manager.tables.pop(table_id)
    assert manager.storage.unfinished_with("deck", deck_id) == []
    deleted = client.delete(f"/api/decks/{deck_id}", headers={"X-Deck-Key": key})
    assert deleted.status_code == 200


def test_play_again_after_the_deck_was_deleted_is_refused_with_a_reason(
        client: TestClient, bundled: Path) -> None:
    """Once a game is over its owner may delete the table's uploaded deck. Play again
    then raised an error the server did not catch: the asker's connection dropped with no
    word (and tried again, and dropped again). It is refused now, naming the deck, and
    the connection goes on; no table is made."""
    body = uploaded(client, count=DIXIT_MINIMUM)
    deck_id, key = body["deck"]["id"], body["key"]
    created = dixit_table(client, deck_id, key)
    table_id = created["table"]["id"]
    ended = client.post(f"/api/tables/{table_id}/end", json={},
                        headers={"X-Host-Token": created["host_token"]})
    assert ended.status_code == 200, ended.text
    deleted = client.delete(f"/api/decks/{deck_id}", headers={"X-Deck-Key": key})
    assert deleted.status_code == 200, deleted.text
    manager = client.app.api.state.manager  # type: ignore[attr-defined]
    tables_before = set(manager.tables)
    with connect(client, table_id) as ws:
        hello(ws, created["token"])
        ws.send_json({"type": "rematch", "id": 7})
        refused = next_of(ws, "error")
        assert (refused["id"], refused["code"]) == (7, "no_deck")
        assert refused["key"] == "decks.errors.deck_deleted"
        assert refused["message"].startswith("This table's deck has been deleted, so its game")
        ws.send_json({"type": "ping", "id": 8})
        assert next_of(ws, "pong")["id"] == 8
    assert set(manager.tables) == tables_before


def test_a_record_naming_an_uploaded_deck_replays_for_its_owner_only(
        client: TestClient, bundled: Path) -> None:
    """To anyone without its key an uploaded deck does not exist, yet a hand-made record
    naming it replayed and told its number of cards. It is refused as ``no_deck`` now,
    as table creation and the options check refuse it; its owner replays it."""
    body = uploaded(client, count=DIXIT_MINIMUM + 4)
    deck_id, key = body["deck"]["id"], body["key"]
    record = json.dumps({"format": "gametable-record", "version": 2, "game": "dixit",
                         "config": {"deck": deck_id}, "seats": [{}, {}, {}], "seed": 5})
    refused = client.post("/api/replay?seat=0", content=record)
    assert refused.status_code == 404, refused.text
    assert refused.json()["code"] == "no_deck"
    # (the deck's random id may hold the digits too: "ed030e…")
    assert str(DIXIT_MINIMUM + 4) not in refused.text.replace(deck_id, "")
    other = client.post("/api/replay?seat=0", content=record,
                        headers={"X-Deck-Key": "not-the-key"})
    assert other.status_code == 404
    owner = client.post("/api/replay?seat=0", content=record, headers={"X-Deck-Key": key})
    assert owner.status_code == 200, owner.text
    assert owner.json()["public"]["deck_size"] == DIXIT_MINIMUM + 4


def test_what_an_interrupted_upload_left_is_removed_at_start(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    for name in (".incoming-0123456789abcdef", ".deleted-0123456789abcdef-01ab"):
        (decks / name / "cards").mkdir(parents=True)
    (tmp_path / "deck-cache" / "default").mkdir(parents=True)  # earlier versions' thumbnails
    app = create_app(Settings(data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none"))
    assert (decks / ".incoming-0123456789abcdef").exists()
    with TestClient(app):
        assert list(decks.iterdir()) == []
        assert not (tmp_path / "deck-cache").exists()
        secret = tmp_path / "picture-secret"
        assert len(secret.read_bytes()) == 32 and secret.stat().st_mode & 0o777 == 0o600
    with TestClient(create_app(Settings(data_dir=tmp_path, bot_delay=0,
                                        static_dir=tmp_path / "none"))):
        assert len(secret.read_bytes()) == 32  # kept: passes outlive a restart


def quota_client(tmp_path: Path, **quota: Any) -> TestClient:
    return TestClient(create_app(Settings(
        data_dir=tmp_path, bot_delay=0, static_dir=tmp_path / "none",
        upload_quota=UploadQuota(**quota))))


def assert_quota(response: Response, code: str) -> None:
    assert response.status_code == 429, response.text
    error = response.json()
    assert error["code"] == code and error["key"] == f"decks.errors.{code}"
    assert int(response.headers["retry-after"]) >= 1
    assert f"{error['params']['minutes']} min" in error["message"]


def test_a_client_makes_only_so_many_decks(tmp_path: Path, bundled: Path) -> None:
    with quota_client(tmp_path, decks=2, minutes=60) as client:
        uploaded(client)
        uploaded(client)
        third = upload(client)
        assert_quota(third, "quota_decks")
        # An hour's share refills over the hour: half an hour to wait for a whole deck.
        assert 29 * 60 <= int(third.headers["retry-after"]) <= 30 * 60
        assert third.json()["params"] == {"limit": 2, "window": 60, "minutes": 30}
        assert len(list((tmp_path / "decks").iterdir())) == 2


def test_the_descriptions_vectors_count_against_the_cpu_share(tmp_path: Path,
                                                              bundled: Path) -> None:
    """Making the descriptions into vectors for computer players cost CPU that no quota
    counted: an upload of long descriptions now spends the client's share and is refused
    when it runs out, while the same pictures without them are made."""
    with quota_client(tmp_path, cpu_seconds=0.4) as client:  # about 0.15 s a description
        assert_quota(upload(client, count=8, descriptions=["😀" * 400] * 8), "quota_cpu")
        assert list((tmp_path / "decks").iterdir()) == []
    with quota_client(tmp_path / "again", cpu_seconds=0.4) as client:
        uploaded(client, count=8)


def test_a_client_prepares_only_so_many_pictures(tmp_path: Path, bundled: Path) -> None:
    with quota_client(tmp_path, cards=3) as client:
        assert_quota(upload(client, count=4), "quota_cards")
        assert list((tmp_path / "decks").iterdir()) == []  # stopped midway: nothing left
    with quota_client(tmp_path, cpu_seconds=0.000001) as client:
        assert_quota(upload(client, count=2), "quota_cpu")
        assert_quota(upload(client, count=1), "quota_cpu")  # and not again before it refills


def test_a_client_sends_only_so_many_bytes(tmp_path: Path, bundled: Path) -> None:
    with quota_client(tmp_path, megabytes=1) as client:
        big = noise(1100, 1000)
        assert len(big) > 1024 * 1024
        assert_quota(upload(client, files=[("noise.png", big)]), "quota_bytes")
        assert not (tmp_path / "decks").exists()  # refused as it arrived


def test_a_client_uploads_one_deck_at_a_time(tmp_path: Path, bundled: Path) -> None:
    with quota_client(tmp_path) as client:
        quotas = client.app.api.state.deck_quotas  # type: ignore[attr-defined]
        busy = quotas.clients("testclient")
        quotas.begin(busy)  # an upload of this client is being received or prepared
        refused = upload(client)
        assert refused.status_code == 409 and refused.json()["code"] == "upload_busy"
        quotas.end(busy)
        key = uploaded(client)["key"]
        # An upload that holds the same deck key from another address counts too.
        elsewhere = quotas.clients("192.0.2.7", [key])
        quotas.begin(elsewhere)
        response = client.post("/api/decks", data={"name": "More"},
                               files=[("files", ("a.png", picture(), "image/png"))],
                               headers={"X-Deck-Key": key})
        assert response.status_code == 409 and response.json()["code"] == "upload_busy"
        assert upload(client).status_code == 201  # without the key: only its address counts
        quotas.end(elsewhere)


def test_a_deck_too_small_for_the_table_is_named_as_its_owner_named_it(
        client: TestClient, bundled: Path) -> None:
    """DX-DECK-2: the refusal names the deck by the name it was uploaded with (its id
    means nothing to a person) and says how many cards the table needs."""
    deck = uploaded(client, name="Holiday", count=3)
    response = client.post("/api/tables", json={
        "game": "dixit", "config": {"deck": deck["deck"]["id"]}, "name": "Anna",
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]},
        headers={"X-Deck-Key": deck["key"]})
    assert response.status_code == 400, response.text
    error = response.json()
    assert error["rule"] == "DX-DECK-2"
    assert error["params"]["deck"] == "Holiday"
    assert error["params"]["minimum"] == DIXIT_MINIMUM


def test_players_at_the_table_see_neither_the_decks_name_nor_its_file_names(
        client: TestClient, bundled: Path) -> None:
    """A seated player's pass opens the pictures and the manifest, but the deck's name
    and the names of the files it was made from (a zip's folders included) stay the
    owner's."""
    files = [(f"Private - family {n:02}.png", picture(40 + n, 30))
             for n in range(DIXIT_MINIMUM)]
    body = uploaded(client, name="Secret family photos", files=files)
    deck_id = body["deck"]["id"]
    created = dixit_table(client, deck_id, body["key"])
    table_id = created["table"]["id"]
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bjarni"}).json()
    query = picture_pass(client, deck_id, table_id, joined["token"]).json()["query"]
    theirs = client.get(f"/api/decks/{deck_id}?{query}")
    assert theirs.status_code == 200, theirs.text
    assert "Secret" not in theirs.text and "Private" not in theirs.text
    manifest = theirs.json()
    assert manifest["name"] is None and manifest["mine"] is False
    assert len(manifest["cards"]) == DIXIT_MINIMUM
    assert all(source == {"type": "upload"} for card in manifest["cards"]
               for source in card["sources"])
    # The owner still sees both.
    own = client.get(f"/api/decks/{deck_id}", headers={"X-Deck-Key": body["key"]}).json()
    assert own["name"] == "Secret family photos" and own["mine"] is True
    assert own["cards"][0]["sources"][0]["name"] == "Private - family 00.png"


def test_an_uploaded_decks_name_is_told_to_its_owner_only(
        client: TestClient, bundled: Path) -> None:
    """Deck ids are public (a table's info names its deck), names are the owner's: the
    lobby's check, creating a table and a record file's replay told anyone the name of
    an uploaded deck too small for the game ("The deck "Secret family photos" has 3
    cards…"), and whether an id was a deck at all."""
    deck = uploaded(client, name="Secret family photos", count=3)
    deck_id = deck["deck"]["id"]
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
    # The owner is told, by name.
    mine = client.post("/api/games/dixit/check", json={"config": {"deck": deck_id},
                                                         "seats": 3},
                       headers={"X-Deck-Key": deck["key"]}).json()
    assert mine["ok"] is False and mine["error"]["params"]["deck"] == "Secret family photos"
    # Anyone else: no such deck, the same answer as for an id that is none (the rules'
    # "unknown_deck" for those told a hidden deck from no deck).
    answers = []
    for asked in (deck_id, "no-such-deck", "0123456789abcdef"):
        check = client.post("/api/games/dixit/check",
                            json={"config": {"deck": asked}, "seats": 3})
        assert check.status_code == 200
        assert "Secret" not in check.text and check.json()["ok"] is False
        made = client.post("/api/tables", json={"game": "dixit", "config": {"deck": asked},
                                                "name": "Eve", "seats": seats})
        answers.append((check.json()["error"]["code"], made.status_code, made.json()["code"]))
    assert answers == [("no_deck", 404, "no_deck")] * 3
    assert client.post("/api/games/dixit/check", json={"config": {"deck": deck_id},
                                                        "seats": 3}).json()["error"][
        "code"] == "no_deck"
    created = client.post("/api/tables", json={"game": "dixit", "config": {"deck": deck_id},
                                               "name": "Eve", "seats": seats})
    assert created.status_code == 404 and "Secret" not in created.text
    record = {"format": "gametable-record", "version": 2, "game": "dixit",
              "config": {"deck": deck_id},
              "seed": 1, "seats": [{"name": f"P{n}"} for n in range(3)], "actions": []}
    replayed = client.post("/api/replay", content=json.dumps(record))
    assert replayed.status_code == 404 and "Secret" not in replayed.text
    assert replayed.json()["code"] == "no_deck"


@pytest.mark.parametrize("deck_id", ["a" * 300, "é" * 200])
def test_a_deck_id_longer_than_a_file_name_is_no_deck_not_a_server_error(
        client: TestClient, deck_id: str) -> None:
    """A deck's id is a folder's name: one past the file system's 255 bytes made looking
    for it raise (``ENAMETOOLONG``), and creating a table, the lobby's check, changing a
    table's options and a record file's replay answered 500. It is no deck, as any
    other id that names none (DX-DECK-1)."""
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
    created = client.post("/api/tables", json={"game": "dixit", "config": {"deck": deck_id},
                                               "name": "Eve", "seats": seats})
    assert created.status_code == 404 and created.json()["code"] == "no_deck"
    check = client.post("/api/games/dixit/check", json={"config": {"deck": deck_id},
                                                         "seats": 3})
    assert check.status_code == 200 and check.json()["error"]["code"] == "no_deck"
    table = client.post("/api/tables", json={"game": "dixit", "name": "Eve",
                                             "seats": seats}).json()
    options = client.post(f"/api/tables/{table['table']['id']}/options",
                          json={"config": {"deck": deck_id}},
                          headers={"X-Host-Token": table["host_token"]})
    assert options.status_code == 404 and options.json()["code"] == "no_deck"
    record = {"format": "gametable-record", "version": 2, "game": "dixit",
              "config": {"deck": deck_id}, "seed": 1, "seats": [{}, {}, {}]}
    replayed = client.post("/api/replay", content=json.dumps(record))
    assert replayed.status_code == 404 and replayed.json()["code"] == "no_deck"
    assert library.find_deck(deck_id) is None


def test_a_manifest_says_the_language_of_its_descriptions_where_the_deck_does(
        client: TestClient) -> None:
    """The default deck's descriptions are English, and a page in another language read
    them with its own voice: nothing said what language they were in. The default deck's
    manifest says "en"; an uploaded deck's says what its owner gave, and nothing where
    nobody gave one; a language that is no language tag is refused, and no deck made."""
    library.forget("default")
    default = client.get("/api/decks/default")
    assert default.status_code == 200, default.text
    assert default.json()["language"] == "en"
    mine = uploaded(client, descriptions=["A boat", "Rain", None])
    manifest = client.get(f"/api/decks/{mine['deck']['id']}",
                          headers={"X-Deck-Key": mine["key"]}).json()
    assert manifest["language"] is None
    assert [card["description"] for card in manifest["cards"]] == ["A boat", "Rain", None]
    said = uploaded(client, descriptions=["Um barco"], language="pt-PT")
    manifest = client.get(f"/api/decks/{said['deck']['id']}",
                          headers={"X-Deck-Key": said["key"]}).json()
    assert manifest["language"] == "pt-PT"
    before = sorted(p.name for p in library.uploads_dir().iterdir())  # type: ignore[union-attr]
    for wrong in ("en; drop", "klingon", "en-" + "-".join(["abcdefgh"] * 5)):
        refused = upload(client, descriptions=["A boat"], language=wrong)
        assert refused.status_code == 400 and refused.json()["code"] == "bad_language"
    assert refused.json()["message"] == (
        "The descriptions' language must be a language tag such as en, is, nb or pt.")
    # Sent as a file, the language (or the descriptions) was read as none given.
    pictures = [("files", (f"{n}.png", picture(40 + n, 30), "image/png")) for n in range(3)]
    for field, code in (("language", "bad_language"), ("descriptions", "bad_descriptions")):
        as_file = client.post("/api/decks", data={"name": "Holiday"},
                              files=[*pictures, (field, ("x.txt", b"pt", "text/plain"))])
        assert as_file.status_code == 400 and as_file.json()["code"] == code, as_file.text
    assert sorted(p.name for p in library.uploads_dir().iterdir()) == before  # type: ignore[union-attr]


def upload_and_leave(client: TestClient, count: int, leave_after: float) -> list[Any]:
    """Send an upload of ``count`` pictures straight to the app, as a client that
    disconnects ``leave_after`` seconds after its body is sent (Cancel pressed, or the
    connection lost, while the cards are prepared); what the app sent back."""
    request = client.build_request(
        "POST", "/api/decks", data={"name": "Cancelled"},
        files=[("files", (f"{n}.png", picture(40 + n, 30), "image/png")) for n in range(count)])
    body = request.read()
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/api/decks", "raw_path": b"/api/decks",
             "root_path": "", "query_string": b"", "client": ("testclient", 50000),
             "server": ("testserver", 80),
             "headers": [(k.lower().encode(), v.encode()) for k, v in request.headers.items()]}
    messages: list[Any] = []
    left_at: float | None = None

    async def receive() -> dict[str, Any]:
        # As a server does: the disconnect at once once it happened, else a wait for it.
        nonlocal left_at
        if left_at is None:
            left_at = time.monotonic() + leave_after
            return {"type": "http.request", "body": body, "more_body": False}
        if time.monotonic() >= left_at:
            return {"type": "http.disconnect"}
        await anyio.sleep(left_at - time.monotonic())
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    async def run() -> None:
        await client.app(scope, receive, send)  # type: ignore[arg-type]

    assert client.portal is not None
    client.portal.call(run)
    return messages


@pytest.mark.parametrize("leave_after", [0.0, 0.4])
def test_an_upload_its_client_left_makes_no_deck_and_costs_no_deck(
        tmp_path: Path, bundled: Path, monkeypatch: pytest.MonkeyPatch,
        leave_after: float) -> None:
    """An upload cancelled while its cards were prepared was finished for nobody: a deck
    whose owner key nobody held, on disk for good, charged to the quota, and the next
    upload refused as busy meanwhile. It stops, leaves nothing and costs no deck."""
    real_prepare = images.prepare_card  # imported into uploads: patched there
    prepared: list[str] = []

    def slow_prepare(data: bytes, name: str) -> Any:
        time.sleep(0.1)
        prepared.append(name)
        return real_prepare(data, name)

    monkeypatch.setattr(uploads, "prepare_card", slow_prepare)
    with quota_client(tmp_path, decks=1, minutes=60) as client:
        upload_and_leave(client, 20, leave_after)
        assert len(prepared) < 20  # stopped midway, not prepared to the end
        decks = tmp_path / "decks"
        assert not decks.exists() or [p.name for p in decks.iterdir()
                                      if not p.name.startswith(".owners")] == []
        # Nothing charged or held: the one deck this hour is still there to make, at once.
        monkeypatch.setattr(uploads, "prepare_card", real_prepare)
        uploaded(client)
