"""benchmarks/simulate.py: each row's timed runs start after an untimed warm-up."""

from __future__ import annotations

from typing import Any

import benchmarks.simulate as bench
import pytest

from gametable.simulate import play_bot_game


def test_each_row_plays_an_untimed_warm_up_game_before_its_clock_starts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With --games 5 the first row absorbed the one-time costs (22.8 games/s against
    154 for the same row later): a game on a seed the timed runs do not play now comes
    before the clock starts, for every row."""
    events: list[tuple[str, int]] = []
    real = play_bot_game

    def play(game: str, options: Any, bots: list[str], seed: int) -> Any:
        events.append(("game", seed))
        return real(game, options, bots, seed)

    clock = iter(float(tick) for tick in range(1000))

    def perf_counter() -> float:
        events.append(("clock", 0))
        return next(clock)

    monkeypatch.setattr(bench, "play_bot_game", play)
    monkeypatch.setattr(bench, "perf_counter", perf_counter)
    rate, per_action = bench.run("sequence-cats", 2, "random", 2, 1)
    assert events[0] == ("game", bench.WARM_UP_SEED) and bench.WARM_UP_SEED >= 2
    assert events[1:] == [("clock", 0), ("game", 0), ("game", 1), ("clock", 0)]
    assert rate == 2.0 and per_action > 0
