"""docs/rl.md's examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text("utf-8"), re.DOTALL)


def test_the_page_has_its_examples() -> None:
    assert len(EXAMPLES) == 2


@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_an_example_of_docs_rl_runs(number: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(EXAMPLES[number], f"docs/rl.md example {number + 1}", "exec"), {})
    printed = capsys.readouterr().out.strip()
    assert printed.startswith("[" if number == 0 else ("1.0", "-1.0", "0.0")), printed
