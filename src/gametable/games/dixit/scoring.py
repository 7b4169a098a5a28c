"""Round scoring: DX-SCORE-1..5, DX-7P-2/3, DX-PARTY-5 and DX-TEAM-5.

Pure functions of what lies on the table and who voted where; the rules module calls
them when the last vote is in. Each returns :class:`ScoreLine` objects, one or more per
seat that the round concerns, with a reason key under ``dixit.reasons`` (a line of 0
points explains why a seat scored nothing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gametable.core.protocol import ScoreLine

R = "dixit.reasons."


@dataclass(frozen=True)
class Reveal:
    """A round at the moment of the reveal.

    Attributes:
        storyteller: the storyteller's seat.
        owners: per slot (index 0 = slot 1), the seat that gave the card.
        storyteller_slot: the slot (1-based) of the storyteller's card; ``None`` in Party,
            where it scores nothing special.
        votes: per voting seat, the slots (1-based) it voted for (one or two).
        red: the Party storyteller's red slot, else ``None``.
    """

    storyteller: int
    owners: Sequence[int]
    storyteller_slot: int | None
    votes: Mapping[int, Sequence[int]]
    red: int | None = None


def score_base(reveal: Reveal, *, bonus_cap: int | None, lone_finder: bool,
               single_vote_bonus: bool) -> list[ScoreLine]:
    """Base scoring (also 3 players, 7–12 players and, per seat, Team Dixit).

    Args:
        reveal: the table and votes; every voter is a key of ``reveal.votes``.
        bonus_cap: DX-SCORE-3: at most this many bonus points per player, or ``None``.
        lone_finder: DX-SCORE-4: 4 instead of 3 when exactly one voter finds the card.
        single_vote_bonus: DX-7P-3: +1 for a finder who cast only one vote (7+ players).

    Returns:
        Score lines: the storyteller's (DX-SCORE-1/2), each voter's, then the bonuses.
    """
    teller = reveal.storyteller
    slot = reveal.storyteller_slot
    voters = sorted(reveal.votes)
    finders = [seat for seat in voters if slot in reveal.votes[seat]]
    lines: list[ScoreLine] = []
    if not finders or len(finders) == len(voters):
        everyone = bool(finders)
        lines.append(ScoreLine(teller, 0, R + "storyteller_all_or_none", {"all": everyone}))
        lines.extend(ScoreLine(seat, 2, R + "all_or_none", {"all": everyone})
                     for seat in voters)
    else:
        lone = lone_finder and len(finders) == 1
        points = 4 if lone else 3
        lines.append(ScoreLine(teller, points,
                               R + ("storyteller_lone_finder" if lone else "storyteller")))
        for seat in voters:
            if seat in finders:
                lines.append(ScoreLine(seat, points, R + ("lone_finder" if lone else "found")))
            else:
                lines.append(ScoreLine(seat, 0, R + "missed"))
    if single_vote_bonus:
        lines.extend(ScoreLine(seat, 1, R + "single_vote") for seat in finders
                     if len(reveal.votes[seat]) == 1)
    received: dict[int, int] = {}
    for slots in reveal.votes.values():
        for voted in slots:
            owner = reveal.owners[voted - 1]
            if owner != teller:
                received[owner] = received.get(owner, 0) + 1
    for owner in sorted(received):
        votes = received[owner]
        points = votes if bonus_cap is None else min(votes, bonus_cap)
        lines.append(ScoreLine(owner, points, R + "bonus",
                               {"votes": votes, "capped": points < votes}))
    return lines


PARTY_CAP = 5
"""DX-PARTY-5: at most 5 points a round."""


def score_party(reveal: Reveal) -> list[ScoreLine]:
    """DX-PARTY-5: each player scores the number of players on the same card (own vote
    included), at most 5; 0 on the red card; 0 alone on a card. Every player votes."""
    on_card: dict[int, int] = {}
    for slots in reveal.votes.values():
        on_card[slots[0]] = on_card.get(slots[0], 0) + 1
    lines = []
    for seat in sorted(reveal.votes):
        voted = reveal.votes[seat][0]
        if voted == reveal.red:
            lines.append(ScoreLine(seat, 0, R + "party_red"))
        elif on_card[voted] == 1:
            lines.append(ScoreLine(seat, 0, R + "party_alone"))
        else:
            players = on_card[voted]
            lines.append(ScoreLine(seat, min(players, PARTY_CAP), R + "party_same",
                                   {"players": players, "capped": players > PARTY_CAP}))
    return lines


def totals(lines: Sequence[ScoreLine], seats: int) -> list[int]:
    """Points per seat summed over ``lines``."""
    result = [0] * seats
    for line in lines:
        result[line.seat] += int(line.points)
    return result
