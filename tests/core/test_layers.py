"""The layers stay apart (docs/DESIGN.md): the rules never import the server, bots or
environments; the core imports no game; the server and the environments never name a
game module. Read from the source's import statements."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2] / "src" / "gametable"


def imports_of(package: str) -> set[str]:
    """Every module that the files under ``src/gametable/<package>`` import."""
    found: set[str] = set()
    for path in (SOURCE / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module)
    return found


@pytest.mark.parametrize(("package", "forbidden"), [
    ("games", ("gametable.server", "gametable.bots", "gametable.rl", "fastapi")),
    ("core", ("gametable.games", "gametable.server", "gametable.bots", "gametable.rl")),
    ("bots", ("gametable.server", "gametable.rl")),
    ("rl", ("gametable.server", "gametable.games")),
    ("server", ("gametable.rl", "gametable.games.")),
])
def test_a_layer_imports_nothing_above_or_beside_it(package: str,
                                                    forbidden: tuple[str, ...]) -> None:
    imported = imports_of(package)
    assert imported, package
    wrong = sorted(module for module in imported
                   if any(module == name or module.startswith(name.rstrip(".") + ".")
                          for name in forbidden))
    assert not wrong, f"src/gametable/{package} imports {wrong}"
