"""docs/rules/ and docs/DESIGN.md are copies of the project's shared rules and design (so
that a checkout can look up a rule ID an error cites): the copies stay the same, and
every rule ID the code cites is in them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SHARED = ROOT.parent / "shared"
RULE_ID = re.compile(r"\b(?:DX|TR|SC)-[A-Z0-9]+-\d+\b")


@pytest.mark.skipif(not (SHARED / "rules").is_dir(),
                    reason="the shared rules are not beside this checkout")
@pytest.mark.skipif(os.environ.get("CI") == "true",
                    reason="a check for the working copy: the shared rules may change "
                           "after a commit is made, which is no fault of that commit")
def test_the_copies_are_the_shared_rules_and_design() -> None:
    for shared in sorted((SHARED / "rules").glob("*.md")):
        assert (DOCS / "rules" / shared.name).read_text() == shared.read_text(), (
            f"docs/rules/{shared.name} differs from the shared rules: copy it again")
    assert (DOCS / "DESIGN.md").read_text() == (SHARED / "DESIGN.md").read_text()


def test_every_rule_id_the_code_cites_is_in_the_rules() -> None:
    written = set()
    for rules in (DOCS / "rules").glob("*.md"):
        written |= set(RULE_ID.findall(rules.read_text()))
    cited = set()
    for source in (ROOT / "src" / "gametable").rglob("*.py"):
        cited |= set(re.findall(r'IllegalAction\(\s*"((?:DX|TR|SC)-[A-Z0-9]+-\d+)"',
                                source.read_text()))
    assert len(cited) > 20
    assert sorted(cited - written) == []
