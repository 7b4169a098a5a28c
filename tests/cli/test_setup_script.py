"""scripts/setup: what it installs when run again (README.md's two commands)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def fake_checkout(tmp_path: Path) -> tuple[Path, Path]:
    """A checkout with the real scripts/setup and pyproject.toml, a Python environment
    whose ``pip`` only writes down what it was asked, and an ``npm`` that does nothing;
    the folder and the file of ``pip`` calls."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup", tmp_path / "scripts" / "setup")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    calls = tmp_path / "pip-calls"
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\necho "$*" >> {calls}\n')
    python.chmod(0o755)
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "npm").write_text("#!/bin/sh\nexit 0\n")
    (tools / "npm").chmod(0o755)
    modules = tmp_path / "frontend" / "node_modules"
    modules.mkdir(parents=True)
    (tmp_path / "frontend" / "package-lock.json").write_text("{}")
    (modules / ".package-lock.json").write_text("{}")
    return tmp_path, calls


def run_setup(checkout: Path, *args: str) -> None:
    env = {**os.environ, "PYTHON": sys.executable,
           "PATH": f"{checkout / 'tools'}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(["bash", str(checkout / "scripts" / "setup"), *args], env=env,
                   check=True, capture_output=True, timeout=60)


def installs(calls: Path) -> list[str]:
    if not calls.exists():
        return []
    return [line for line in calls.read_text().splitlines() if " install " in f" {line} "
            and "-e" in line.split()]


def test_the_servers_setup_after_the_tests_setup_installs_nothing_again(tmp_path: Path
                                                                        ) -> None:
    """``./scripts/test`` sets up with ``--dev``; ``./scripts/serve`` then set up again
    without it, reinstalled the server's packages (a network install) and threw the
    ``--dev`` stamp away, so that the next test run installed everything again: the two
    README commands took turns reinstalling."""
    checkout, calls = fake_checkout(tmp_path)
    run_setup(checkout, "--dev")
    assert installs(calls) == ["-m pip install --quiet -e .[dev]"]
    run_setup(checkout)
    run_setup(checkout, "--dev")
    assert installs(calls) == ["-m pip install --quiet -e .[dev]"]


def test_the_tests_setup_after_the_servers_adds_the_test_tools(tmp_path: Path) -> None:
    """The other way round, ``--dev`` still installs the test and lint tools once."""
    checkout, calls = fake_checkout(tmp_path)
    run_setup(checkout)
    run_setup(checkout)
    run_setup(checkout, "--dev")
    run_setup(checkout, "--dev")
    assert installs(calls) == ["-m pip install --quiet -e .[server]",
                               "-m pip install --quiet -e .[dev]"]


def test_the_browser_client_is_built_again_only_when_its_sources_change(tmp_path: Path
                                                                       ) -> None:
    """README.md: ``./scripts/serve`` builds the client on its first run. It built it
    at every start (10–15 s before the server answered); now again only when the
    client's sources or the catalogs it bundles have changed."""
    checkout, _ = fake_checkout(tmp_path)
    builds = tmp_path / "npm-calls"
    (checkout / "tools" / "npm").write_text(
        f'#!/bin/sh\necho "$*" >> {builds}\nmkdir -p dist\n')
    (checkout / "frontend" / "main.tsx").write_text("one")
    locales = checkout / "src" / "gametable" / "locales"
    locales.mkdir(parents=True)
    (locales / "en.json").write_text("{}")

    def built() -> int:
        return sum("build" in line for line in builds.read_text().splitlines())

    run_setup(checkout)
    run_setup(checkout)
    assert built() == 1
    (checkout / "frontend" / "main.tsx").write_text("two")
    run_setup(checkout)
    assert built() == 2
    (locales / "en.json").write_text('{"a": "b"}')
    run_setup(checkout)
    run_setup(checkout)
    assert built() == 3
