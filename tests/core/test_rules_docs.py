"""docs/rules/ and docs/DESIGN.md are copies of the project's shared rules and design (so
that a checkout can look up a rule ID an error cites): the copies stay the same, and
every rule ID the code, the tests and the docs cite is in them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SHARED = ROOT.parent / "shared"
RULE_ID = re.compile(r"\b(?:DX|TR|SC)-[A-Z0-9]+-\d+\b")
CITED_ID = re.compile(r"\b[A-Z]{2}-[A-Z0-9]+-\d+\b")
"""Any ``XX-WORD-N`` citation, the rulebook examples' ``EX-EN-1`` too."""
CITING = {".py", ".md", ".ts", ".tsx", ".json", ".toml"}
"""Files whose text may cite a rule."""


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


def _citing_files() -> list[Path]:
    roots = [ROOT / "src", ROOT / "tests", ROOT / "frontend" / "src", ROOT / "benchmarks",
             DOCS]
    files = [ROOT / "README.md"]
    for root in roots:
        files += [path for path in root.rglob("*") if path.suffix in CITING
                  and path.is_file() and "node_modules" not in path.parts
                  and (DOCS / "rules") not in path.parents]
    return sorted(files)


def test_every_rule_id_cited_anywhere_is_in_the_rules() -> None:
    """A docstring citing a rule docs/rules/ does not have (a Triominos "TURN" rule, say)
    sends its reader nowhere: every ``XX-WORD-N`` the code, tests and docs cite is
    written there."""
    written = set()
    for rules in (DOCS / "rules").glob("*.md"):
        written |= set(CITED_ID.findall(rules.read_text()))
    missing = []
    cited = 0
    for path in _citing_files():
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for rule in CITED_ID.findall(line):
                cited += 1
                if rule not in written:
                    missing.append(f"{path.relative_to(ROOT)}:{number}: {rule}")
    assert cited > 1000
    assert missing == []
