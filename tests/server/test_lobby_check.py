"""POST /api/games/{game}/check: the lobby learns, before "Create", whether its options
and seat count make a table, the rules' reason if not, and which seat counts fit."""

from __future__ import annotations

from fastapi.testclient import TestClient


def check(client: TestClient, game: str, config: dict[str, object], seats: int
          ) -> dict[str, object]:
    response = client.post(f"/api/games/{game}/check", json={"config": config, "seats": seats})
    assert response.status_code == 200, response.text
    answer: dict[str, object] = response.json()
    return answer


def test_dixit_by_the_en_rulebook_fits_three_to_six_players(client: TestClient) -> None:
    answer = check(client, "dixit", {"edition": "EN"}, 8)
    assert answer["ok"] is False
    assert answer["seat_counts"] == [3, 4, 5, 6]
    error = answer["error"]
    assert isinstance(error, dict)
    assert error["rule"] == "DX-SETUP-3" and error["key"] == "dixit.errors.seat_count_base"
    assert error["message"] == "Dixit by the EN rulebook is for 3–6 players, not 8."
    assert check(client, "dixit", {"edition": "EN"}, 5) == {
        "ok": True, "error": None, "seat_counts": [3, 4, 5, 6]}


def test_party_and_team_name_their_seat_counts_and_their_edition(client: TestClient) -> None:
    assert check(client, "dixit", {"variant": "party"}, 4)["seat_counts"] == list(range(6, 13))
    assert check(client, "dixit", {"variant": "team"}, 6)["seat_counts"] == [6, 8, 10, 12]
    answer = check(client, "dixit", {"edition": "PT", "variant": "party"}, 6)
    assert answer["seat_counts"] == []
    error = answer["error"]
    assert isinstance(error, dict) and error["rule"] == "DX-PARTY-1"
    assert error["message"] == "Dixit Party exists only in the Icelandic edition (IS), not in PT."


def test_other_games_and_options_are_checked_the_same_way(client: TestClient) -> None:
    # "teams" is offered for six seats only: at other counts the form leaves it out
    answer = check(client, "sequence-cats", {"teams": 2}, 6)
    assert answer["ok"] is True and answer["seat_counts"] == [2, 3, 4, 6]
    assert check(client, "sequence-cats", {}, 5)["error"] is not None  # SC-PLAY-1
    refused = check(client, "sequence-cats", {"sequences_to_win": 9}, 2)
    assert refused["ok"] is False and refused["seat_counts"] == []
    assert "sequences_to_win" in str(refused["error"])


def test_an_unknown_game_is_the_same_refusal_when_checking_and_creating(
        client: TestClient) -> None:
    """docs/protocol.md: an unknown game is ``400 unknown_game`` naming the known games,
    from ``/check`` and ``POST /api/tables`` alike (creating answered ``malformed``)."""
    checked = client.post("/api/games/chess/check", json={"config": {}, "seats": 2})
    created = client.post("/api/tables", json={"game": "chess", "seats": [{"kind": "human"}]
                                               * 2})
    assert checked.status_code == created.status_code == 400
    assert checked.json() == created.json()
    error = created.json()
    assert error["code"] == "unknown_game" and error["key"] == "errors.unknown_game"
    assert error["message"] == ('There is no game called "chess". Available: dixit, '
                                "sequence-cats, triominos.")


def test_an_unknown_game_or_a_malformed_check_is_refused(client: TestClient) -> None:
    unknown = client.post("/api/games/chess/check", json={"config": {}, "seats": 2})
    assert unknown.status_code == 400 and "chess" in unknown.json()["message"]
    for body in ({"config": {}, "seats": 0}, {"config": [], "seats": 2}, {"seats": "2"},
                 {"config": {}, "seats": 2, "extra": 1}):
        assert client.post("/api/games/dixit/check", json=body).status_code == 400, body


def test_a_refused_value_that_utf_8_cannot_write_is_answered_not_a_server_error(
        client: TestClient) -> None:
    """JSON may carry a lone surrogate ("\\ud800"); the check's answer holds the refusal
    that names it (``no_deck``), and writing that answer as UTF-8 failed: 500 where
    creating the table answered 404. It is written as every refusal is, escaped."""
    body = '{"config": {"deck": "\\ud800x"}, "seats": 3}'
    checked = client.post("/api/games/dixit/check", content=body,
                          headers={"Content-Type": "application/json"})
    assert checked.status_code == 200, checked.text
    answer = checked.json()
    assert answer["ok"] is False and answer["seat_counts"] == []
    assert answer["error"]["code"] == "no_deck"
    assert answer["error"]["params"]["deck"] == "\ud800x"
    assert check(client, "dixit", {"edition": "EN"}, 5) == {
        "ok": True, "error": None, "seat_counts": [3, 4, 5, 6]}


def test_the_check_answers_as_creating_the_table_would(client: TestClient) -> None:
    """An API client was told ``ok`` for Sequence Cats' ``teams`` at three or four seats
    (the check left out options offered for other seat counts, as the lobby's form does)
    and then refused by ``POST /api/tables`` with the same options. Both now answer
    alike; ``seat_counts`` still names the counts the form would reach."""
    cases: list[tuple[dict[str, object], int]] = [
        ({"teams": 2}, 3), ({"teams": 3}, 4), ({"teams": 2}, 6), ({"teams": 3}, 6), ({}, 3)]
    for config, seats in cases:
        answer = check(client, "sequence-cats", config, seats)
        created = client.post("/api/tables", json={
            "game": "sequence-cats", "config": config, "seats": [{"kind": "human"}] * seats})
        assert answer["ok"] is (created.status_code == 201), (config, seats, created.text)
        if not answer["ok"]:
            error = answer["error"]
            assert isinstance(error, dict)
            assert error["message"] == created.json()["message"]
        assert answer["seat_counts"] == [2, 3, 4, 6]
