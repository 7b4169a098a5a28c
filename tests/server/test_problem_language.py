"""A refusal of a wrong value says what is wrong in the reader's language: a wrong field
of a game record, a table option or a request field carries the problem as a code with
its values (``params.problem``), not pydantic's English, which had stood inside the
translated message («o campo «format» está errado (Input should be 'gametable-record')»).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gametable.core.i18n import LANGUAGES, lookup, translate
from gametable.core.problems import CODES, INVALID, PROBLEM_KEY, problem_params

TRIOMINOS = (Path(__file__).resolve().parents[1] / "games" / "triominos" / "records"
             / "pressman_3p_seed96.json")

#: Words of pydantic's messages ("Input should be …", "String should have at most …").
PYDANTIC_WORDS = re.compile(r"\b(Input|should|String|List|valid|greater|less|equal|"
                            r"characters|Field required|Value error)\b")


def _refusals(client: TestClient) -> dict[str, dict[str, Any]]:
    """The three refusals: a record's wrong field, a table option, a request field."""
    record = json.loads(TRIOMINOS.read_text())
    wrong_format = client.post("/api/replay", content=json.dumps({**record, "format": 1}),
                               params={"count": 1},
                               headers={"Content-Type": "application/json"})
    option = client.post("/api/tables", json={
        "game": "sequence-cats", "seats": [{"kind": "human"}] * 2,
        "config": {"sequences_to_win": 9}})
    request = client.post("/api/tables", json={
        "game": "sequence-cats", "seats": [{"kind": "human"}] * 2, "name": 5})
    return {"record": wrong_format.json(), "option": option.json(),
            "request": request.json()}


def test_the_three_refusals_carry_a_problem_code_and_its_values(client: TestClient) -> None:
    refused = _refusals(client)
    assert refused["record"]["key"] == "server.errors.record_invalid"
    assert refused["record"]["params"] == {"field": "format", "problem": "must_be",
                                           "choices": '"gametable-record"'}
    assert refused["option"]["key"] == "errors.bad_option"
    assert refused["option"]["params"] == {"option": "sequences_to_win",
                                           "problem": "at_most", "limit": 4}
    assert refused["request"]["key"] == "server.errors.bad_request"
    assert refused["request"]["params"] == {"field": "name", "problem": "text"}
    # The English message says it in English words of the catalog's own.
    assert refused["record"]["message"] == (
        'That file is not a valid game record: the field "format" is wrong (the value '
        'must be "gametable-record").')
    assert refused["option"]["message"] == (
        'The option "sequences_to_win" is not valid: the value may be at most 4.')
    assert refused["request"]["message"] == (
        'The request field "name" is not valid: the value must be text.')


@pytest.mark.parametrize(("language", "said"), [
    ("pt", {"record": "o valor tem de ser", "option": "o valor pode ser no máximo 4",
            "request": "o valor tem de ser texto"}),
    ("is", {"record": "gildið verður að vera", "option": "gildið má vera í mesta lagi 4",
            "request": "gildið verður að vera texti"}),
])
def test_a_portuguese_or_icelandic_reader_gets_no_english_from_pydantic(
        client: TestClient, language: str, said: dict[str, str]) -> None:
    """Each message as the page renders it (the key with its params, through the same
    catalogs) is wholly in the reader's language."""
    for case, error in _refusals(client).items():
        shown = translate(error["key"], language, **error["params"])
        assert not PYDANTIC_WORDS.search(shown), (case, shown)
        assert said[case] in shown, (case, shown)
        assert "$t(" not in shown and "errors.problems" not in shown, shown


def test_a_records_own_check_says_its_problem_in_the_readers_language(
        client: TestClient) -> None:
    """A seat that changed hands past the record's end: the record's own check (not
    pydantic's) is a code with its numbers too."""
    record = json.loads(TRIOMINOS.read_text())
    count = len(record["actions"])
    record["seats"][1]["earlier"] = [{"until": count + 1, "name": "Bruno", "bot": None}]
    error = client.post("/api/replay", content=json.dumps(record),
                        headers={"Content-Type": "application/json"}).json()
    shown = translate(error["key"], "pt", **error["params"])
    assert f"o lugar 1 mudou de ocupante depois da jogada {count + 1}" in shown
    assert "changed hands" not in shown


class _Sample(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    kind: int = Field(default=0, ge=1, le=9)
    word: str = Field(default="a", min_length=1, max_length=3, pattern="^[a-z]+$")
    flag: bool = False
    items: list[int] = Field(default_factory=list, min_length=2, max_length=3)


@pytest.mark.parametrize(("data", "params"), [
    ({"kind": 0}, {"problem": "at_least", "limit": 1}),
    ({"kind": 10}, {"problem": "at_most", "limit": 9}),
    ({"kind": "1"}, {"problem": "whole_number"}),
    ({"word": ""}, {"problem": "empty"}),
    ({"word": "abcd"}, {"problem": "text_too_long", "limit": 3}),
    ({"word": "A"}, {"problem": "pattern", "pattern": "^[a-z]+$"}),
    ({"flag": "no"}, {"problem": "true_or_false"}),
    ({"items": [1]}, {"problem": "too_few", "limit": 2}),
    ({"items": [1, 2, 3, 4]}, {"problem": "too_many", "limit": 3}),
    ({"other": 1}, {"problem": "not_taken"}),
])
def test_pydantic_errors_become_codes_with_their_values(data: dict[str, Any],
                                                        params: dict[str, Any]) -> None:
    with pytest.raises(ValidationError) as error:
        _Sample.model_validate(data)
    assert problem_params(error.value.errors()[0]) == params


def test_an_error_type_without_a_message_of_its_own_is_said_generically() -> None:
    """An error type not mapped (here a custom one) is ``invalid``: a translated phrase,
    never the validator's English."""
    assert problem_params({"type": "url_parsing", "msg": "Input should be a valid URL",
                           "ctx": {"error": "relative URL"}}) == {"problem": INVALID}
    assert problem_params({"type": "literal_error", "ctx": {"expected": "<object>"}}) == \
        {"problem": INVALID}
    assert translate("errors.bad_option", "pt", option="x", problem=INVALID) == \
        "A opção «x» não é válida: este valor não é aceite."


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_problem_code_has_a_message_in_every_catalog(language: str) -> None:
    for code in CODES:
        assert lookup(f"{PROBLEM_KEY}.{code}", language), (language, code)
