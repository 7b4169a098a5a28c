"""The model computer players read with ships inside a package: it loads and plays with
the network cut off (no model hub, no proxy, an empty home folder); so do the ``hard``
players of the other games."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import OFFLINE, PROXIES

SCRIPT = """
import socket

def refuse(*args, **kwargs):
    raise OSError("the network is disabled in this test")

socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse

from gametable.simulate import play_bot_game

for options in ({"clue_language": "pt"}, {"variant": "party"}, {"variant": "team"}):
    record, outcome = play_bot_game(
        "dixit", {"first_storyteller": "first_seat", **options}, ["semantic"] * 6, seed=1)
    assert outcome.finished, options
for game in ("sequence-cats", "triominos"):
    record, outcome = play_bot_game(game, {}, ["hard", "greedy"], seed=1, max_actions=6)
    assert len(record.actions) == 6, game
print("played offline")
"""


def _isolated() -> list[str]:
    """``unshare -rn`` (a network namespace with no interfaces) where the kernel allows it."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-rn", "true"], capture_output=True,
                                  check=False).returncode == 0:
        return [unshare, "-rn"]
    return []


def test_bots_load_the_model_and_play_with_the_network_disabled(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in PROXIES}
    env.update(OFFLINE)
    env.update({"HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"),
                "HF_HOME": str(tmp_path / "hf"), "PYTHONPATH": str(Path.cwd())})
    result = subprocess.run([*_isolated(), sys.executable, "-c", SCRIPT], env=env,
                            capture_output=True, text=True, timeout=240, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "played offline" in result.stdout
