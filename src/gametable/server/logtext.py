"""How the log writes counts and times of a table's life ("2 computer players",
"12 min of play")."""

from __future__ import annotations

import time

from gametable.server.table import Table


def plural(count: int, one: str, several: str) -> str:
    """``"1 action"``, ``"2 actions"``: a count with its noun, for the log."""
    return f"{count} {one if count == 1 else several}"


def duration(seconds: float) -> str:
    """A time span for the log, to the second under a minute, then to the minute:
    ``"42 s"``, ``"12 min"``, ``"1 h"``, ``"2 h 5 min"``."""
    if seconds < 60:
        return f"{max(0, round(seconds))} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def game_time(table: Table, now: float | None = None) -> str:
    """How long ``table``'s game took, for the log: ``"3 min of play, 12 min after the
    table was made"`` (the play counted from its first stored action, when known)."""
    now = time.time() if now is None else now
    made = f"{duration(now - table.created)} after the table was made"
    if table.first_action is None:
        return made
    return f"{duration(now - table.first_action)} of play, {made}"
