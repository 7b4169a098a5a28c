"""docs/rl.md's examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gametable.simulate import play_bot_game

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text("utf-8"), re.DOTALL)


def test_the_page_has_its_examples() -> None:
    assert len(EXAMPLES) == 4


@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_an_example_of_docs_rl_runs(number: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(EXAMPLES[number], f"docs/rl.md example {number + 1}", "exec"), {})
    printed = capsys.readouterr().out.strip()
    expected = {0: ("[",), 1: ("1.0", "-1.0", "0.0"), 2: ("",), 3: ("",)}[number]
    assert printed.startswith(expected), printed
    if number == 3:  # the policy it registers plays under its name
        _, outcome = play_bot_game("sequence-cats", {}, ["my-policy", "greedy"], 0)
        assert outcome.finished
