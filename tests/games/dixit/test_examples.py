"""The worked examples of ``docs/rules/dixit.md``, through the scoring functions with
the example's own slots and through whole rounds of the engine."""

from __future__ import annotations

from gametable.games.dixit.scoring import Reveal, score_base, score_party, totals
from tests.games.dixit.helpers import new, round_points, submit_all, tell, vote_for

DAN, EVA, CHRIS, RUBY, KEVIN = range(5)
ROSARINHO, MATILDE, MAFALDA, VICENTE, SEBASTIAO = range(5)


def test_ex_en_1_with_the_examples_slots() -> None:
    """EX-EN-1 (DX-SCORE-2/3): slot 1 Chris, 3 Dan, 4 Eva; Eva→1, Chris→3, Ruby→3,
    Kevin→4 gives Dan 3, Chris 4, Ruby 3, Eva 1, Kevin 0."""
    owners = [CHRIS, RUBY, DAN, EVA, KEVIN]
    reveal = Reveal(DAN, owners, 3, {EVA: [1], CHRIS: [3], RUBY: [3], KEVIN: [4]})
    lines = score_base(reveal, bonus_cap=None, lone_finder=False, single_vote_bonus=False)
    assert totals(lines, 5) == [3, 1, 4, 3, 0]


def test_ex_en_1_played() -> None:
    """EX-EN-1 through a whole EN round of the engine."""
    state = new(5, edition="EN")
    tell(state)
    submit_all(state)
    events = vote_for(state, {EVA: [CHRIS], CHRIS: [DAN], RUBY: [DAN], KEVIN: [EVA]})
    assert round_points(events) == {DAN: 3, CHRIS: 4, RUBY: 3, EVA: 1, KEVIN: 0}
    assert state.scores == [3, 1, 4, 3, 0]


def test_ex_pt_1_with_the_examples_slots() -> None:
    """EX-PT-1 (DX-SCORE-2/3): Rosarinho's card in slot 4, Sebastião's 1, Mafalda's 3."""
    owners = [SEBASTIAO, MATILDE, MAFALDA, ROSARINHO, VICENTE]
    reveal = Reveal(ROSARINHO, owners, 4,
                    {MATILDE: [4], MAFALDA: [1], VICENTE: [1], SEBASTIAO: [3]})
    lines = score_base(reveal, bonus_cap=None, lone_finder=False, single_vote_bonus=False)
    assert totals(lines, 5) == [3, 3, 1, 0, 2]


def test_ex_pt_1_played() -> None:
    """EX-PT-1 through a whole PT round: Rosarinho 3, Matilde 3, Sebastião 2, Mafalda 1,
    Vicente 0."""
    state = new(5, edition="PT")
    tell(state)
    submit_all(state)
    events = vote_for(state, {MATILDE: [ROSARINHO], MAFALDA: [SEBASTIAO],
                              VICENTE: [SEBASTIAO], SEBASTIAO: [MAFALDA]})
    assert round_points(events) == {ROSARINHO: 3, MATILDE: 3, SEBASTIAO: 2, MAFALDA: 1,
                                    VICENTE: 0}


def test_ex_pt_1_with_the_lone_finder_variant() -> None:
    """DX-SCORE-4: the same round with ``lone_finder_bonus``: Rosarinho and Matilde 4."""
    state = new(5, edition="PT", lone_finder_bonus=True)
    tell(state)
    submit_all(state)
    events = vote_for(state, {MATILDE: [ROSARINHO], MAFALDA: [SEBASTIAO],
                              VICENTE: [SEBASTIAO], SEBASTIAO: [MAFALDA]})
    assert round_points(events) == {ROSARINHO: 4, MATILDE: 4, SEBASTIAO: 2, MAFALDA: 1,
                                    VICENTE: 0}


TOMMI, KIDDI, ANNA, KATA = 0, 6, 7, 8


def test_ex_party_1_with_the_examples_slots() -> None:
    """EX-PARTY-1 (DX-PARTY-5): six on card 3 score 5 each (6 capped at 5); Kiddi and
    Anna on the red card 2 score 0; Kata alone on her card scores 0."""
    owners = [1, 6, 5, 8, 0, 2, 3, 4, 7]
    votes = {TOMMI: [3], 1: [3], 2: [3], 3: [3], 4: [3], 5: [3], KIDDI: [2], ANNA: [2],
             KATA: [4]}
    lines = score_party(Reveal(TOMMI, owners, None, votes, red=2))
    assert totals(lines, 9) == [5, 5, 5, 5, 5, 5, 0, 0, 0]


def test_ex_party_1_played() -> None:
    """EX-PARTY-1 through a whole Party round of nine (Tommi tells and holds the red)."""
    state = new(9, variant="party")
    tell(state, "Summer")
    submit_all(state)
    votes = {seat: [5] for seat in (TOMMI, 1, 2, 3, 4, 5)}
    votes |= {KIDDI: [6], ANNA: [6], KATA: [KATA]}
    events = vote_for(state, votes, red=6)
    assert round_points(events) == {0: 5, 1: 5, 2: 5, 3: 5, 4: 5, 5: 5, 6: 0, 7: 0, 8: 0}
