"""``gametable simulate dixit`` and ``gametable replay`` in every Dixit variant, with the
bundled default deck."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gametable.simulate import play_bot_game
from tests.cli.test_cli import gametable


@pytest.mark.parametrize(("players", "config"), [
    (6, {"variant": "base", "edition": "IS"}), (3, {"edition": "EN"}),
    (5, {"edition": "PT", "lone_finder_bonus": True}), (9, {"variant": "base"}),
    (8, {"variant": "party"}), (6, {"variant": "team"}),
])
def test_simulate_dixit_in_every_variant(players: int, config: dict[str, object]) -> None:
    done = gametable("simulate", "dixit", "--players", str(players), "--games", "3",
                     "--config", json.dumps(config), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["unfinished"] == 0 and result["players"] == players
    assert sum(result["wins"].values()) >= 3


def test_simulate_dixit_refuses_a_wrong_player_count() -> None:
    done = gametable("simulate", "dixit", "--players", "7", "--config",
                     '{"variant": "team"}')
    assert done.returncode == 2 and "DX-TEAM-1" in done.stderr


def test_replay_a_dixit_record_and_a_tampered_one(tmp_path: Path) -> None:
    record, outcome = play_bot_game("dixit", {"variant": "party"}, ["greedy"] * 6, seed=3)
    path = tmp_path / "party.json"
    path.write_text(record.model_dump_json())
    done = gametable("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["game"] == "dixit" and summary["finished"] is True
    assert summary["winners"] == outcome.winners
    vote = next(i for i, step in enumerate(record.actions) if step.action["type"] == "vote")
    record.actions[vote].action["slots"] = [99]
    path.write_text(record.model_dump_json())
    bad = gametable("replay", str(path))
    assert bad.returncode == 1
    assert bad.stderr.startswith(f"action {vote + 1}: DX-ROUND-4")
