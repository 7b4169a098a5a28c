"""README.md's ``gametable simulate`` and ``arena`` commands run as written (with
``--games 1``: the figures are not the point), and ``replay`` checks a record they
wrote."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from tests.cli.test_cli import gametable

README = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
BLOCK = re.search(r"```sh\n(\.venv/bin/gametable serve .*?)```", README, re.DOTALL)
assert BLOCK is not None
COMMANDS = [shlex.split(line.removeprefix(".venv/bin/gametable "))
            for line in BLOCK.group(1).splitlines()
            if re.match(r"\.venv/bin/gametable (simulate|arena) ", line)]


def written(words: list[str]) -> list[str]:
    """The command as written: an option in brackets with the value it shows
    (``[--seed 0]``) is given, one with a placeholder (``[--players N]``) is left out;
    ``--games`` is made 1."""
    command: list[str] = []
    group: list[str] = []
    for word in words:
        if word.startswith("[") or group:
            group.append(word.strip("[]"))
            if word.endswith("]"):
                if not {"N", "JSON", "MODULE"} & set(group):
                    command += group
                group = []
        else:
            command.append(word)
    at = command.index("--games")
    command[at + 1] = "1"
    return command


def test_the_readme_lists_its_commands() -> None:
    assert [words[:2] for words in COMMANDS] == [
        ["simulate", "sequence-cats"], ["simulate", "triominos"], ["simulate", "dixit"],
        ["simulate", "dixit"], ["arena", "sequence-cats"], ["simulate", "dixit"]]


@pytest.mark.parametrize("number", range(len(COMMANDS)))
def test_a_readme_command_runs(number: int, tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    words = written(COMMANDS[number])
    done = gametable(*words)
    assert done.returncode == 0, (words, done.stderr)
    if "--records" in words:
        folder = tmp_path / words[words.index("--records") + 1]
        (path,) = folder.glob("*.json")
        replayed = gametable("replay", str(path), "--json")
        assert replayed.returncode == 0, replayed.stdout
        assert json.loads(replayed.stdout)["finished"] is True
