"""The mutable state of one Dixit game. Only the rules module changes it."""

from __future__ import annotations

import random
from typing import Any

from gametable.core.rng import new_rng
from gametable.games.dixit.config import DixitConfig


class DixitState:
    """All of a game, secrets included. Never sent anywhere: see ``Dixit.view``.

    Attributes:
        config: the validated options; ``seats`` the number of players.
        phase: ``"claim"``, ``"clue"``, ``"submit"``, ``"vote"`` or ``"finished"``.
        round: the round being played, from 1 (0 before the first storyteller).
        storyteller: this round's storyteller, ``None`` before someone claims the role.
        told: per seat, how many rounds they have told (DX-PARTY-7, DX-TEAM-6).
        hands: per seat, card numbers; ``draw_pile`` face down (drawn from the end);
            ``discard_pile`` the cards of finished rounds.
        clue: ``{"text", "mime"}`` once given, else ``None``.
        submissions: per seat that gave, the cards they gave this round (the
            storyteller's card included in the base game and Team).
        givers: Team: team index → the member who gives this round.
        table: the cards in slots 1…n once all are in, else ``None``.
        votes: per voter, ``(slots, red)``: the slots voted for (1-based) and the
            Party storyteller's red slot (else ``None``).
        taken_back: seats that took back their card(s) or vote in this phase (once a
            phase each, ``Dixit.can_take_back``).
        told_at, given_at, voted_at: when this round's clue was told, and each seat's
            card(s) given and vote cast, as the action count once that action was
            applied (a taken-back card or vote forgets its time); the round's summary
            keeps them, so that pages name each move after whoever held its seat then.
        scores: per seat; in Team both members carry their team's score.
        history: the public summary of every finished round (``view["last_round"]``).
        shown: the clue and the history as views show them, copies made once per action
            (``None`` until a view asks; every action clears it), so that a view never
            hands out the state's own objects.
        actions: actions applied so far; ``finished`` the game is over.
        rng: the seeded generator all chance is drawn from.
    """

    __slots__ = (
        "actions", "clue", "config", "discard_pile", "draw_pile", "finished", "given_at",
        "givers", "hands", "history", "phase", "rng", "round", "scores", "seats", "shown",
        "storyteller", "submissions", "table", "taken_back", "told", "told_at", "voted_at",
        "votes",
    )

    def __init__(self, config: DixitConfig, seats: int, seed: int) -> None:
        self.config = config
        self.seats = seats
        self.rng: random.Random = new_rng(seed)
        self.phase = "claim"
        self.round = 0
        self.storyteller: int | None = None
        self.told = [0] * seats
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.draw_pile: list[int] = []
        self.discard_pile: list[int] = []
        self.clue: dict[str, Any] | None = None
        self.submissions: dict[int, list[int]] = {}
        self.givers: dict[int, int] = {}
        self.table: list[int] | None = None
        self.votes: dict[int, tuple[list[int], int | None]] = {}
        self.taken_back: set[int] = set()
        self.told_at: int | None = None
        self.given_at: dict[int, int] = {}
        self.voted_at: dict[int, int] = {}
        self.scores = [0] * seats
        self.history: list[dict[str, Any]] = []
        self.shown: tuple[dict[str, Any] | None, list[dict[str, Any]]] | None = None
        self.actions = 0
        self.finished = False

    def copy(self) -> DixitState:
        """An independent copy, generator included."""
        other = DixitState.__new__(DixitState)
        other.config = self.config
        other.seats = self.seats
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.phase = self.phase
        other.round = self.round
        other.storyteller = self.storyteller
        other.told = list(self.told)
        other.hands = [list(hand) for hand in self.hands]
        other.draw_pile = list(self.draw_pile)
        other.discard_pile = list(self.discard_pile)
        other.clue = self.clue
        other.submissions = {seat: list(cards) for seat, cards in self.submissions.items()}
        other.givers = dict(self.givers)
        other.table = None if self.table is None else list(self.table)
        other.votes = {seat: (list(slots), red) for seat, (slots, red) in self.votes.items()}
        other.taken_back = set(self.taken_back)
        other.told_at = self.told_at
        other.given_at = dict(self.given_at)
        other.voted_at = dict(self.voted_at)
        other.scores = list(self.scores)
        other.history = list(self.history)
        other.shown = None
        other.actions = self.actions
        other.finished = self.finished
        return other
