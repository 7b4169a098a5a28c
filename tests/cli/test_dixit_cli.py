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


RECORDS = Path(__file__).resolve().parents[1] / "games" / "dixit" / "records"


@pytest.mark.parametrize("name", ["v1-pt-3p", "v1-is-8p", "v1-team-6p", "v1-party-6p"])
def test_dx_deck_4_replay_of_a_version_1_record_prints_what_it_did_then(name: str) -> None:
    """Records of format version 1 are replayed by rules version 1 (the whole deck, no PT
    lone-finder bonus by default): ``gametable replay`` prints the very summary it printed
    before DX-DECK-4 and DX-SCORE-4 changed."""
    done = gametable("replay", str(RECORDS / f"{name}.json"), "--json")
    assert done.returncode == 0, done.stderr
    expected = json.loads((RECORDS / f"{name}.replay.json").read_text("utf-8"))
    assert json.loads(done.stdout) == expected


@pytest.mark.parametrize(("players", "rounds"), [(3, 13), (4, 15), (6, 8)])
def test_dx_deck_4_a_pt_game_lasts_as_its_84_cards_allow(players: int, rounds: int) -> None:
    """DX-COMP-1, DX-DECK-4, DX-END-3: a PT game ends when the last of its 84 cards is
    drawn, whatever the size of the deck (252 cards by default): ``mean_rounds``."""
    done = gametable("simulate", "dixit", "--players", str(players), "--games", "3",
                     "--config", '{"edition": "PT"}', "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["mean_rounds"] == result["mean_turns"] == rounds
