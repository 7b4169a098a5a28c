"""The Python examples of README.md ("Python") and docs/records.md run as written
(docs/rl.md's are run by tests/rl/test_docs.py, docs/bots.md's by
tests/bots/test_outside_bots.py)."""

from __future__ import annotations

import gc
import re
import warnings
from pathlib import Path

import pytest

from gametable.simulate import play_bot_game

ROOT = Path(__file__).resolve().parents[2]


def examples(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / page).read_text("utf-8"), re.DOTALL)


def test_the_pages_have_their_examples() -> None:
    assert len(examples("README.md")) == 1
    assert len(examples("docs/records.md")) == 1


@pytest.mark.parametrize(("game", "options", "seats"), [
    ("sequence-cats", '{"sequences_to_win": 1}', 2),  # as written
    # The loop is the protocol's, for every game ("Dixit asks several seats at once").
    ("dixit", "{}", 4),
    ("triominos", '{"rounds": 1}', 2),
])
def test_the_readme_example_plays_a_game_to_its_end(
        game: str, options: str, seats: int, capsys: pytest.CaptureFixture[str]) -> None:
    (code,) = examples("README.md")
    assert 'registry.get("sequence-cats")' in code and "seats=2" in code
    code = (code.replace('"sequence-cats"', f'"{game}"')
            .replace('{"sequences_to_win": 1}', options).replace("seats=2", f"seats={seats}"))
    exec(compile(code, "README.md (Python)", "exec"), {})
    outcome, view = capsys.readouterr().out.splitlines()
    assert outcome.startswith("Outcome(finished=True, ")
    assert view.startswith(f"{{'game': '{game}', 'seat': 0, ")


def test_the_records_example_replays_a_record_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    record, outcome = play_bot_game("sequence-cats", {}, ["greedy", "random"], 3)
    (tmp_path / "game.json").write_text(record.model_dump_json(), "utf-8")
    monkeypatch.chdir(tmp_path)
    (code,) = examples("docs/records.md")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        exec(compile(code, "docs/records.md (Python)", "exec"), {})
        gc.collect()
    assert capsys.readouterr().out.strip() == str(outcome)
    # As written it left the file open: "ResourceWarning: unclosed file".
    assert not [str(w.message) for w in seen if w.category is ResourceWarning]
