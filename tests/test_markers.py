"""The test markers of README's commands: ``-m "not browser"`` leaves out every test
under tests/browser/ (three files without their own mark were collected, and failed
without the built client)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def collected(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         *args], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode in (0, 5), done.stdout + done.stderr
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_not_browser_leaves_out_every_browser_test() -> None:
    every = collected("tests/browser")
    assert len(every) > 100
    assert collected("-m", "not browser", "tests/browser") == []
    assert sorted(collected("-m", "browser", "tests/browser")) == sorted(every)
