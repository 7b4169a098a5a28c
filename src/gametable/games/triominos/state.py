"""The mutable state of one Triominos game. Only the rules module changes it."""

from __future__ import annotations

import random
from typing import Any

from gametable.core.actions import SharesFrozenActions
from gametable.core.config import stored_options
from gametable.core.protocol import ScoreLine
from gametable.core.rng import new_rng
from gametable.games.triominos.config import TriominosConfig
from gametable.games.triominos.layout import Layout


class TriominosState(SharesFrozenActions):
    """All of a game, secrets included. Never sent anywhere: see ``Triominos.view``.

    Attributes:
        config: the validated options; ``public_options`` the same as JSON (those that
            differ from their defaults, and ``rules_version``), as every view shows them;
            ``seats`` the number of seats.
        scores: per seat, points over the whole game (may be negative).
        round: the round being played, from 1; ``history`` the public summaries of the
            finished rounds; ``round_points`` per seat and reason, this round's points.
        layout: the tiles on the table; ``last`` the packed position of the latest tile.
        pool: the face-down tiles (drawn from the end); ``hands`` per seat, a bit mask.
        starter: who began this round; ``current`` whose turn it is; ``draws`` tiles
            drawn this turn (TR-DRAW-1); ``forced`` the tile that made ``starter`` start
            (TR-SETUP-4, shown to everyone) or ``None``; ``openings`` the tiles the first
            placement may use, each with its start bonus (empty: any tile, no bonus;
            TR-SETUP-3); ``start`` the public ``round_start`` event of this round.
        board_json: the tiles on the table as the view shows them (kept per placement);
            ``public_view`` and ``legal_cache`` are caches cleared by every action;
            ``round_lines`` caches ``history``'s score lines for ``outcome`` (rebuilt
            when ``history`` grows, which it only does at the end of a round).
        out: the first seat to go out this round (TR-END-1), or ``None``.
        turn: completed turns in the whole game; ``actions`` actions applied in it (a
            round's summary says how many when it ended, so that pages name each seat
            as it was held then); ``finished`` the game is over.
        rng: the seeded generator all chance is drawn from.
    """

    __slots__ = (
        "actions", "board_json", "config", "current", "draws", "finished", "forced",
        "hands", "history", "last", "layout", "legal_cache", "openings", "out", "pool",
        "public_options", "public_view", "rng", "round", "round_lines", "round_points",
        "scores", "seats", "start", "starter", "turn",
    )
    caches = ("legal_cache", "public_view")
    list_caches = ("round_lines",)

    def __init__(self, config: TriominosConfig, seats: int, seed: int) -> None:
        self.config = config
        self.public_options = stored_options(config)
        self.seats = seats
        self.rng: random.Random = new_rng(seed)
        self.scores = [0] * seats
        self.round = 0
        self.history: list[dict[str, Any]] = []
        self.round_points: list[dict[str, list[int]]] = [{} for _ in range(seats)]
        self.layout = Layout()
        self.last: int | None = None
        self.pool: list[int] = []
        self.hands = [0] * seats
        self.starter = 0
        self.current = 0
        self.draws = 0
        self.forced: int | None = None
        self.openings: dict[int, int] = {}
        self.start: dict[str, Any] = {}
        self.out: int | None = None
        self.turn = 0
        self.actions = 0
        self.finished = False
        self.legal_cache: list[dict[str, Any]] | None = None
        self.public_view: dict[str, Any] | None = None
        self.board_json: list[dict[str, Any]] = []
        self.round_lines: list[list[ScoreLine]] = []

    def copy(self) -> TriominosState:
        """An independent copy, generator included."""
        other = TriominosState.__new__(TriominosState)
        other.config = self.config
        other.public_options = self.public_options
        other.seats = self.seats
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.scores = list(self.scores)
        other.round = self.round
        other.history = list(self.history)
        other.round_points = [{k: list(v) for k, v in d.items()} for d in self.round_points]
        other.layout = self.layout.copy()
        other.last = self.last
        other.pool = list(self.pool)
        other.hands = list(self.hands)
        other.starter = self.starter
        other.current = self.current
        other.draws = self.draws
        other.forced = self.forced
        other.openings = self.openings
        other.start = self.start
        other.out = self.out
        other.turn = self.turn
        other.actions = self.actions
        other.finished = self.finished
        other.legal_cache = None
        other.public_view = None
        other.board_json = list(self.board_json)
        other.round_lines = self.round_lines  # never changed in place, only replaced
        return other
