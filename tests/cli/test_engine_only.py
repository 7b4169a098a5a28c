"""The rules engine, the computer players and the command line's ``simulate``, ``arena``
and ``replay`` work without the server's packages: what ``pip install -e .`` gives a
researcher (pyproject.toml's core dependencies; the server is the ``server`` extra).

A child Python runs with every module of the ``server`` extra's packages (and of their
own dependencies that the core does not share) made impossible to import, as on a
machine where they were never installed."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

packaging = pytest.importorskip("packaging")
from packaging.requirements import Requirement  # noqa: E402
from packaging.utils import canonicalize_name  # noqa: E402

from gametable.server import SERVER_MODULES  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SERVER_SIDE = ("gametable.server", "gametable.decks.images", "gametable.decks.uploads",
               "gametable.__main__")
"""Modules that belong to the server: the server itself and picture uploads (Pillow)."""


def closure(requirements: list[str]) -> set[str]:
    """The distributions ``requirements`` install, their dependencies included
    (canonical names; extras followed, environment markers evaluated here)."""
    found: dict[str, set[str]] = {}
    todo = [(Requirement(text), "") for text in requirements]
    while todo:
        requirement, extra = todo.pop()
        if requirement.marker is not None and not requirement.marker.evaluate(
                {"extra": extra}):
            continue
        name = canonicalize_name(requirement.name)
        wanted = {"", *requirement.extras}
        known = found.get(name, set())
        if wanted <= known:
            continue
        found[name] = known | wanted
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        todo += [(Requirement(text), new) for new in wanted - known for text in requires]
    return set(found)


def server_only_modules() -> list[str]:
    """Top-level modules of the distributions that only the ``server`` extra brings."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    only = closure(project["optional-dependencies"]["server"]) - closure(
        project["dependencies"])
    return sorted(module for module, dists in metadata.packages_distributions().items()
                  if any(canonicalize_name(d) in only for d in dists))


CHILD = r'''
import importlib, json, pkgutil, sys

BLOCKED = set(sys.argv[1].split(","))
SERVER_SIDE = tuple(sys.argv[2].split(","))


class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NotInstalled())
import gametable
from gametable.bots import make_bot
from gametable.core import registry
from gametable.simulate import play_bot_game

report = {"unimportable": [], "games": {}}
for info in pkgutil.walk_packages(gametable.__path__, "gametable."):
    if not info.name.startswith(SERVER_SIDE):
        try:
            importlib.import_module(info.name)
        except ImportError as error:
            report["unimportable"].append(f"{info.name}: {error}")
for name in registry.names():
    game = registry.get(name)
    seats = 3 if name == "dixit" else 2
    for level in ("easy", "medium", "hard"):
        make_bot(level, game, 1)
    _, outcome = play_bot_game(name, None, ["greedy"] * seats, 1)
    report["games"][name] = outcome.finished
try:
    import gametable.server.app
except ImportError as error:
    report["server"] = str(error)
from typer.testing import CliRunner
from gametable.cli import app
served = CliRunner().invoke(app, ["serve", "--port", "1"])
report["serve"] = [served.exit_code, served.output + (getattr(served, "stderr", "") or "")]
simulated = CliRunner().invoke(app, ["simulate", "triominos", "--games", "1", "--json"])
report["simulate"] = [simulated.exit_code, simulated.output[:200]]
report["loaded"] = sorted({m.split(".")[0] for m in sys.modules} & BLOCKED)
print(json.dumps(report))
'''


def test_the_engine_bots_and_command_line_need_no_server_package() -> None:
    blocked = server_only_modules()
    # The list is the extra's, found from the installed metadata: a server package that
    # the core also needs would be missing from it, and the check would prove nothing.
    assert {"fastapi", "uvicorn", "starlette", "PIL", "psycopg", "redis",
            "websockets", "httpx"} <= set(blocked), blocked
    done = subprocess.run(
        [sys.executable, "-c", CHILD, ",".join(blocked), ",".join(SERVER_SIDE)],
        check=False, capture_output=True, text=True, timeout=600, cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT / "src"),
             "HOME": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["unimportable"] == []
    assert report["games"] == dict.fromkeys(report["games"], True)
    assert set(report["games"]) == {"dixit", "sequence-cats", "triominos"}
    assert report["simulate"][0] == 0, report["simulate"]
    assert report["loaded"] == []
    # The server says what is missing and how to install it.
    assert "pip install -e '.[server]'" in report["server"]
    said = " ".join(report["serve"][1].split())  # as printed, wrapped to the terminal
    assert report["serve"][0] == 2, said
    assert said.startswith("Cannot start the server: the gametable server needs the "
                           "packages of its 'server' extra (fastapi, uvicorn"), said
    assert "pip install -e '.[server]'" in said


def test_the_servers_import_check_names_every_package_of_the_server_extra() -> None:
    """``gametable.server`` checks a hand list of modules (``SERVER_MODULES``) before it
    imports anything: a package added to the extra and not to the list would fail
    with a bare ImportError instead of the message that says how to install it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    modules_of: dict[str, set[str]] = {}
    for module, dists in metadata.packages_distributions().items():
        for dist in dists:
            modules_of.setdefault(canonicalize_name(dist), set()).add(module)
    for requirement in project["optional-dependencies"]["server"]:
        dist = canonicalize_name(Requirement(requirement).name)
        assert modules_of.get(dist, set()) & set(SERVER_MODULES), (
            f"no module of {dist} ({sorted(modules_of.get(dist, set()))}) is in "
            "gametable.server.SERVER_MODULES")
