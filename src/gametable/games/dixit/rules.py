"""Dixit rules (``docs/rules/dixit.md``) behind the game protocol.

Actions (JSON objects; docs/dixit.md has the whole table):

``{"type": "claim"}``
    DX-SETUP-4: become the first storyteller (phase ``claim``, open to every seat).
``{"type": "clue", "card": n, "text": "…", "mime": false}``
    DX-ROUND-1: the storyteller's card and clue. Party: no ``card`` (DX-PARTY-2).
``{"type": "giver", "seat": s}``
    DX-TEAM-2: a Team member names which of the two gives the team's card.
``{"type": "submit", "cards": [n]}``
    DX-ROUND-2, DX-3P-2 (two cards), DX-PARTY-3, DX-TEAM-2: give cards for the table.
``{"type": "vote", "slots": [k], "red": r}``
    DX-ROUND-4/5, DX-7P-1 (two slots), DX-PARTY-4 (``red``: the storyteller's red vote).

Submissions and votes are simultaneous and secret: they are kept apart per seat and the
table is laid (shuffled by the game's generator) or scored only when the last one is in,
so arrival order never changes the outcome. Rounds follow one another automatically.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, Final, SupportsIndex

from pydantic import BaseModel, ValidationError

from gametable.core.actions import FrozenAction
from gametable.core.config import config_options, option_error, options_mapping
from gametable.core.errors import (
    ConfigError,
    IllegalAction,
    bad_field,
    check_fields,
    seat_index,
    unknown_action,
)
from gametable.core.protocol import (
    Action,
    Event,
    Observation,
    Outcome,
    ScoreLine,
    Seat,
    StrategyPlayer,
    rank,
)
from gametable.core.rng import check_seed, shuffle
from gametable.core.text import one_line, shows_something
from gametable.core.values import json_copy
from gametable.decks import find_deck
from gametable.games.dixit import heuristics
from gametable.games.dixit.config import (
    ALLOWED_SEATS,
    MAX_CLUE,
    VARIANTS_KEEP_THEIR_END,
    DixitConfig,
    cards_in_game,
    cards_per_round,
    check_seats,
    hand_size,
    minimum_deck,
    schema,
    votes_per_voter,
)
from gametable.games.dixit.scoring import Reveal, score_base, score_party, totals
from gametable.games.dixit.state import DixitState

NAME: Final = "dixit"
GIVER_PATIENCE: Final = 25.0
"""Bot delays a computer player waits before naming its team's giver for a person
teammate (DX-TEAM-2, :meth:`Dixit.patience`): about 20 s at the default 0.8 s delay, time
to read the clue and one's hand and to agree in the chat (at 12, about 10 s, the choice
went while a person was about to make it)."""
CLAIM_PATIENCE: Final = 15.0
"""Bot delays a computer player waits before claiming the storyteller role while a
person sits at the table (DX-SETUP-4, :meth:`Dixit.patience`): about 12 s at the default
delay, time to open the table, look at one's hand and think of a clue (at 5, about 4 s,
a computer player had claimed before the page had been read)."""
RESULT_PATIENCE: Final = 8.0
"""Bot delays a computer storyteller waits before telling the clue of a round after the
first (:meth:`Dixit.patience`): about 6 s at the default delay, time for the people at
the table and those watching to read the last round's result. It told at once, and
with computer players giving and voting as fast, a big screen showed each result for
1.7–2.0 s before the next vote took its place (twelve `medium` players)."""
PLACEHOLDER_CLUE: Final = "…"
"""The text of the clue actions ``legal_actions`` lists (any 1–200 characters are legal)."""
_CLAIM: Final[dict[str, Any]] = FrozenAction(type="claim")
_NOBODY: Final[frozenset[int]] = frozenset()
E = "dixit.errors."


def teams_of(seats: int) -> list[list[int]]:
    """DX-TEAM-1: teams of two sitting opposite: ``[[0, n/2], [1, n/2 + 1], …]``."""
    half = seats // 2
    return [[i, i + half] for i in range(half)]


def standings(scores: Sequence[float], variant: str) -> list[int]:
    """One rank per seat, 1 = best, ties shared as in :func:`~gametable.core.protocol.rank`
    (1, 2, 2, 4; DX-END-4, DX-PARTY-7). Team Dixit ranks the teams (DX-TEAM-6): both
    members take their team's rank among the teams, so three teams rank 1, 2, 3 and not
    by seat (1, 3, 5, each team's score being on both its seats)."""
    if variant != "team":
        return rank(scores)
    seats = len(scores)
    by_team = rank([scores[first] for first, _ in teams_of(seats)])
    return [by_team[team_of(seat, seats)] for seat in range(seats)]


def clue_language(config: DixitConfig) -> str:
    """The language computer players give clues in: ``clue_language``, or for ``"auto"``
    the edition's (IS ``is``, EN ``en``, PT ``pt``)."""
    if config.clue_language != "auto":
        return config.clue_language
    return {"IS": "is", "EN": "en", "PT": "pt"}[config.edition]


def team_of(seat: Seat, seats: int) -> int:
    """The index of ``seat``'s team in :func:`teams_of` (Team Dixit)."""
    return seat % (seats // 2)


class Dixit:
    """The Dixit game object (registered as ``"dixit"``)."""

    name: str = NAME
    counts_rounds: bool = True
    """Its outcomes list each round's scores (``Outcome.rounds``; see
    :class:`gametable.core.protocol.CountsRounds`)."""
    config_model: type[BaseModel] = DixitConfig

    # -- setup ----------------------------------------------------------------------

    def make_config(self, options: Mapping[str, Any] | None, seats: int) -> DixitConfig:
        """Validate ``options`` for ``seats`` seats and fill in the deck's size.

        Raises:
            ConfigError: unknown or invalid options (``CONFIG``); Party or Team outside
                edition IS or a seat count the variant does not allow (DX-SETUP-3,
                DX-PARTY-1, DX-TEAM-1); a game with no end (DX-END-4: no target score and
                reshuffling); an unknown deck without a ``deck_size`` (DX-DECK-1: with
                one, as in a record, the game is played by numbers alone), or one too
                small (DX-DECK-2, naming the minimum); ``bonus_cap="uncapped"`` with 7 or
                more players (DX-7P-2: the bonus is capped at 3 even if more votes were
                cast); a ``deck_size`` other than an installed deck's number of cards (DX-DECK-1,
                ``dixit.errors.deck_size_not_the_decks``: the cards are the deck's
                pictures; records carry the size, and the same size is accepted);
                ``end_on_empty_deck=True`` in Party or Team (DX-PARTY-7, DX-TEAM-6:
                they end when every player has told; rules version 4 on).
            TypeError: ``seats`` is not a whole number, or ``options`` not a mapping.
        """
        try:
            config = DixitConfig.model_validate(options_mapping(options))
        except ValidationError as error:
            raise option_error(error, DixitConfig.option_rules, DixitConfig) from None
        deck = find_deck(config.deck)
        if deck is None and config.deck_size is None:
            raise ConfigError("DX-DECK-1", E + "unknown_deck", deck=config.deck)
        if deck is not None:
            if config.deck_size is not None and config.deck_size != len(deck):
                raise ConfigError("DX-DECK-1", E + "deck_size_not_the_decks",
                                  deck=deck.name or config.deck, cards=len(deck),
                                  given=config.deck_size)
            config = config.model_copy(update={"deck_size": len(deck)})
        # A deck not installed here, with its size given (a record of a game played with
        # an uploaded deck, replayed elsewhere): the rules need no more, cards being
        # numbers (DX-DECK-1); where a table is made, the server refuses such a deck.
        self._check(config, seats, deck.name if deck is not None else None)
        if config.bonus_cap == "uncapped" and votes_per_voter(config, seats) == 2:
            # Checked for new games only: a record made before keeps replaying as it was
            # played.
            # The message names the lobby's label and value; the parameters, the API's.
            raise ConfigError("DX-7P-2", E + "uncapped_with_two_votes", seats=seats,
                              option="bonus_cap", value="capped")
        return config

    def _check(self, config: DixitConfig, seats: int, name: str | None = None) -> None:
        """Raises ConfigError as :meth:`make_config` says; ``name``: the deck's name as
        people know it (an uploaded deck's id means nothing to them), for messages."""
        check_seats(config, seats)
        if (config.end_on_empty_deck and config.variant != "base"
                and config.rules_version >= VARIANTS_KEEP_THEIR_END):
            # DX-PARTY-7 / DX-TEAM-6: these end when everyone has told; rules 2 and 3
            # ended them on the first empty draw pile, records of which replay so.
            rule = "DX-PARTY-7" if config.variant == "party" else "DX-TEAM-6"
            raise ConfigError(rule, E + f"empty_deck_end_{config.variant}")
        if config.variant == "base" and config.target() is None \
                and not config.ends_on_empty_deck():
            raise ConfigError("DX-END-4", E + "endless")
        if config.deck_size is None:
            raise ConfigError("DX-DECK-1", E + "unknown_deck", deck=config.deck)
        needed = minimum_deck(config, seats)
        if config.deck_size < needed:
            raise ConfigError("DX-DECK-2", E + "deck_too_small", deck=name or config.deck,
                              cards=config.deck_size, minimum=needed, seats=seats,
                              count=config.deck_size)

    def new_game(self, config: BaseModel | Mapping[str, Any], seats: int,
                 seed: SupportsIndex) -> DixitState:
        """Shuffle the deck, keep the game's cards (DX-COMP-1, DX-DECK-4: 84 drawn at
        random, or the whole deck) as the draw pile and deal from it (DX-SETUP-1..4); the
        first storyteller is claimed, seat 0 or drawn at random as ``first_storyteller``
        says.

        Raises:
            ValueError: ``seed`` is not a whole number from 0 to 2**63 − 1.
            ConfigError: see :meth:`make_config` (a mapping of options, another
                game's config or a config without ``deck_size`` is validated by it).
            TypeError: ``config`` is neither a config nor a mapping of options.
        """
        if isinstance(config, Mapping):
            config = self.make_config(config, seats)
        elif not isinstance(config, DixitConfig) or config.deck_size is None:
            # Another game's config (a raw ValidationError), or a DixitConfig made without
            # make_config ("There is no deck called "default""): validated, and the deck's
            # size filled in, as make_config does.
            config = self.make_config(config_options(config), seats)
        self._check(config, seats)
        assert config.deck_size is not None
        seed = check_seed(seed)
        state = DixitState(config, seats, seed)
        pile = list(range(config.deck_size))
        shuffle(state.rng, pile)
        # The top of the shuffled deck (cards are drawn from the end) is the game's cards;
        # the rest of the deck stays in the box.
        del pile[:len(pile) - cards_in_game(config)]
        state.draw_pile = pile
        size = hand_size(config, seats)
        for seat in range(seats):
            state.hands[seat] = [pile.pop() for _ in range(size)]
        if config.first_storyteller == "first_seat":
            self._start_round(state, 0, [])
        elif config.first_storyteller == "random":
            self._start_round(state, state.rng.randrange(seats), [])
        return state

    def _start_round(self, state: DixitState, storyteller: Seat, events: list[Event]) -> None:
        state.round += 1
        state.storyteller = storyteller
        state.phase = "clue"
        state.clue = None
        state.submissions = {}
        state.givers = {}
        state.table = None
        state.votes = {}
        state.taken_back = set()
        state.told_at = None
        state.given_at = {}
        state.voted_at = {}
        events.append({"type": "round", "round": state.round, "storyteller": storyteller})

    # -- who acts, and how -------------------------------------------------------------

    def givers(self, state: DixitState) -> list[Seat]:
        """Seats that give cards this round (the storyteller first where it gives)."""
        teller = state.storyteller
        assert teller is not None
        n = state.seats
        variant = state.config.variant
        if variant == "team":
            chosen = [state.givers.get(t) for t in range(n // 2) if t != team_of(teller, n)]
            mate = (teller + n // 2) % n
            return [teller, mate, *(s for s in chosen if s is not None)]
        if variant == "party":
            return list(range(n))
        return [teller, *(s for s in range(n) if s != teller)]

    def voters(self, state: DixitState) -> list[Seat]:
        """DX-ROUND-4 (everyone but the storyteller), DX-PARTY-4 (everyone), DX-TEAM-4
        (each other team's member who did not give)."""
        teller = state.storyteller
        assert teller is not None
        n = state.seats
        variant = state.config.variant
        if variant == "party":
            return list(range(n))
        if variant == "team":
            own = team_of(teller, n)
            result = []
            for t, (a, b) in enumerate(teams_of(n)):
                if t != own and t in state.givers:
                    result.append(b if state.givers[t] == a else a)
            return sorted(result)
        return [s for s in range(n) if s != teller]

    def to_act(self, state: DixitState) -> frozenset[Seat]:
        """``claim``: everyone; ``clue``: the storyteller; ``submit``: every giver not yet
        in (Team: both members of a team that has not chosen its giver); ``vote``: every
        voter not yet in."""
        phase = state.phase
        if phase == "claim":
            return frozenset(range(state.seats))
        if phase == "clue":
            assert state.storyteller is not None
            return frozenset((state.storyteller,))
        if phase == "submit":
            waiting = {s for s in self.givers(state) if s not in state.submissions}
            if state.config.variant == "team":
                assert state.storyteller is not None
                own = team_of(state.storyteller, state.seats)
                for t, members in enumerate(teams_of(state.seats)):
                    if t != own and t not in state.givers:
                        waiting.update(members)
            return frozenset(waiting)
        if phase == "vote":
            return frozenset(s for s in self.voters(state) if s not in state.votes)
        return _NOBODY

    def legal_actions(self, state: DixitState, seat: Seat) -> list[Action]:
        """Every legal action of ``seat``; clue actions carry the placeholder text
        :data:`PLACEHOLDER_CLUE` (any clue of 1–200 characters is legal). Taking back a
        card or vote (``{"type": "take_back"}``) is nobody's pending decision and is never
        listed: the seat's view says when it may (``may_take_back``, :meth:`can_take_back`)."""
        if type(seat) is not int:
            seat = seat_index(seat, state.seats)  # a seat of the table, or IllegalAction
        if seat not in self.to_act(state):
            seat_index(seat, state.seats)
            return []
        phase = state.phase
        if phase == "claim":
            return [_CLAIM]
        if phase == "clue":
            if state.config.variant == "party":
                return [{"type": "clue", "text": PLACEHOLDER_CLUE, "mime": False}]
            return [{"type": "clue", "card": c, "text": PLACEHOLDER_CLUE, "mime": False}
                    for c in state.hands[seat]]
        if phase == "submit":
            if state.config.variant == "team" and seat not in self.givers(state):
                team = teams_of(state.seats)[team_of(seat, state.seats)]
                return [{"type": "giver", "seat": member} for member in team]
            hand = sorted(state.hands[seat])
            if self._cards_to_give(state) == 2:
                return [{"type": "submit", "cards": [a, b]} for a, b in combinations(hand, 2)]
            return [{"type": "submit", "cards": [c]} for c in hand]
        if phase == "vote":
            assert state.table is not None
            slots = range(1, len(state.table) + 1)
            if state.config.variant == "party":
                if seat == state.storyteller:
                    return [{"type": "vote", "slots": [g], "red": r}
                            for g in slots for r in slots if r != g]
                return [{"type": "vote", "slots": [g]} for g in slots]
            own = self._own_slots(state, seat)
            open_slots = [k for k in slots if k not in own]
            actions: list[Action] = [{"type": "vote", "slots": [k]} for k in open_slots]
            if votes_per_voter(state.config, state.seats) == 2:
                actions.extend({"type": "vote", "slots": [a, b]}
                               for a, b in combinations(open_slots, 2))
            return actions
        return []

    def can_take_back(self, state: DixitState, seat: Seat) -> bool:
        """Whether ``seat`` may take back what it gave this phase [decision, docs/dixit.md
        "Taking back"]: its card(s) while others are still giving theirs (DX-ROUND-2: the
        cards are shuffled onto the table only once all are in, DX-ROUND-3), or its vote
        while others are still voting (DX-ROUND-4: votes are revealed when all have voted).
        The storyteller's card chosen with the clue (DX-ROUND-1) stays; the Party
        storyteller, who gives after the clue (DX-PARTY-3), may take theirs back. Once a
        phase per seat: a turn clock gives a seat back in ``to_act`` a new deadline, and
        taking back again and again must not hold the table up for ever."""
        if seat in state.taken_back:
            return False
        if state.phase == "submit":
            told_with_clue = seat == state.storyteller and state.config.variant != "party"
            return seat in state.submissions and not told_with_clue
        if state.phase == "vote":
            return seat in state.votes
        return False

    def _why_not_take_back(self, state: DixitState, seat: Seat) -> str:
        """The message key of why ``seat`` cannot take anything back now (see
        :meth:`can_take_back`): before the cards are given (the claim and the clue)
        nothing has been given in the phase; during the vote a seat that does not vote
        (the storyteller, DX-ROUND-4; a Team giver, DX-TEAM-4) has no vote to take back."""
        if state.phase not in ("submit", "vote"):
            return "nothing_given_yet"
        if seat in state.taken_back:
            return "vote_already_changed" if state.phase == "vote" else "already_taken_back"
        if state.phase == "submit" and seat == state.storyteller \
                and state.config.variant != "party":
            return "clue_card_stays"
        if state.phase == "vote" and seat not in self.voters(state):
            return "no_vote_to_take_back"
        given = state.submissions if state.phase == "submit" else state.votes
        if seat in given:
            return "nothing_to_take_back"
        return "no_vote_yet" if state.phase == "vote" else "nothing_given_yet"

    def _cards_to_give(self, state: DixitState) -> int:
        return 2 if state.config.variant == "base" and state.seats == 3 else 1

    def _own_slots(self, state: DixitState, seat: Seat) -> list[int]:
        mine = state.submissions.get(seat, ())
        assert state.table is not None
        return [k for k, card in enumerate(state.table, start=1) if card in mine]

    # -- the one way to change a state -------------------------------------------------

    def apply(self, state: DixitState, seat: Seat, action: Mapping[str, Any]) -> list[Event]:
        """Validate, then carry out ``action`` for ``seat``.

        Raises:
            IllegalAction: a finished game (DX-END), a seat with nothing to do now (the
                rule of the phase; a clue before anyone claimed the storyteller's role:
                DX-SETUP-4), a card not in hand (DX-ROUND-1/2), a bad clue
                (DX-ROUND-1), a Party clue naming a card (DX-PARTY-2), the wrong number
                of cards (DX-ROUND-2, DX-3P-2), a vote for one's own card (DX-ROUND-5), a
                bad second vote (DX-7P-1), more than one green vote or a bad red vote in
                Party (DX-PARTY-4), a giver outside the team (DX-TEAM-2), nothing to take
                back (DX-ROUND-2/4, :meth:`can_take_back`) or a malformed action
                (PROTOCOL). The state is then unchanged.
        """
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise IllegalAction("PROTOCOL", "errors.malformed_action")
        kind = action["type"]
        if state.finished:
            raise IllegalAction("DX-END-4", "errors.game_over")
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise unknown_action(kind, _HANDLERS)
        seat = seat_index(seat, state.seats)
        state.shown = None
        events = handler(self, state, seat, action)
        state.actions += 1
        return events

    def _claim(self, state: DixitState, seat: Seat, action: Mapping[str, Any]) -> list[Event]:
        check_fields(action, "claim")
        if state.phase != "claim":
            raise IllegalAction("DX-SETUP-4", E + "already_claimed",
                                storyteller=state.storyteller)
        events: list[Event] = [{"type": "claimed", "seat": seat}]
        self._start_round(state, seat, events)
        return events

    def _clue(self, state: DixitState, seat: Seat, action: Mapping[str, Any]) -> list[Event]:
        party = state.config.variant == "party"
        # A Party clue naming a card is refused by DX-PARTY-2 below, not as malformed.
        check_fields(action, "clue", ("text",) if party else ("card", "text"),
                     optional=("mime", "card") if party else ("mime",))
        if state.phase == "claim":
            # DX-SETUP-4: the first storyteller claims the role before the first clue.
            raise IllegalAction("DX-SETUP-4", E + "claim_first")
        if state.phase != "clue" or seat != state.storyteller:
            raise IllegalAction("DX-ROUND-1", E + "not_storyteller",
                                storyteller=state.storyteller)
        if party and "card" in action:
            # DX-PARTY-2: the clue is told before the hand is seen, so it names no card.
            raise IllegalAction("DX-PARTY-2", E + "party_clue_no_card")
        text, mime = _clue_text(state.config, action)
        if not party:
            card = _card(action["card"], "clue", "card")
            if card not in state.hands[seat]:
                raise IllegalAction("DX-ROUND-1", E + "card_not_in_hand", card=card)
            state.hands[seat].remove(card)
            state.submissions[seat] = [card]
            state.given_at[seat] = state.actions + 1
        state.told_at = state.actions + 1
        state.clue = {"text": text, "mime": mime}
        state.phase = "submit"
        return [{"type": "clue", "seat": seat, "text": text, "mime": mime}]

    def _giver(self, state: DixitState, seat: Seat, action: Mapping[str, Any]) -> list[Event]:
        check_fields(action, "giver", ("seat",))
        if state.config.variant != "team":
            raise IllegalAction("DX-TEAM-2", E + "giver_only_team")
        n = state.seats
        team = team_of(seat, n)
        if state.storyteller is not None and team == team_of(state.storyteller, n):
            raise IllegalAction("DX-TEAM-2", E + "storyteller_team_gives")
        if state.phase in ("claim", "clue"):
            raise IllegalAction("DX-TEAM-2", E + "giver_after_clue")
        if state.phase != "submit":
            raise IllegalAction("DX-TEAM-2", E + "no_giver_now")
        if team in state.givers:
            raise IllegalAction("DX-TEAM-2", E + "giver_chosen", giver=state.givers[team])
        chosen = action.get("seat")
        if not isinstance(chosen, int) or isinstance(chosen, bool) \
                or chosen not in teams_of(n)[team]:
            raise IllegalAction("DX-TEAM-2", E + "giver_not_in_team", seat=str(chosen)[:20])
        state.givers[team] = chosen
        return [{"type": "giver", "team": team, "seat": chosen, "by": seat}]

    def _submit(self, state: DixitState, seat: Seat, action: Mapping[str, Any]) -> list[Event]:
        check_fields(action, "submit", ("cards",))
        if state.phase != "submit" or seat not in self.givers(state) \
                or seat in state.submissions:
            raise self._not_giving(state, seat)
        cards = action.get("cards")
        count = self._cards_to_give(state)
        if not isinstance(cards, list):
            raise bad_field("submit", "cards", cards, E + "cards_not_list")
        if len(cards) != count:
            # One card or two: the catalogue writes both numbers as words.
            raise IllegalAction("DX-3P-2" if count == 2 else "DX-ROUND-2",
                                E + "card_count", count=count)
        chosen = [_card(c, "submit", "cards") for c in cards]
        if len(set(chosen)) != len(chosen):
            raise IllegalAction("DX-3P-2", E + "card_count", count=count)
        for card in chosen:
            if card not in state.hands[seat]:
                raise IllegalAction("DX-ROUND-2", E + "card_not_in_hand", card=card)
        for card in chosen:
            state.hands[seat].remove(card)
        state.submissions[seat] = chosen
        state.given_at[seat] = state.actions + 1
        # How many is public (DX-3P-2: two each with three players), which ones are not.
        events: list[Event] = [{"type": "submitted", "seat": seat, "count": len(chosen)}]
        if not self.to_act(state):
            self._lay_table(state, events)
        return events

    @staticmethod
    def _not_giving(state: DixitState, seat: Seat) -> IllegalAction:
        """Why ``seat`` may not give a card now: it has given this round (DX-ROUND-2; the
        storyteller gives with the clue, DX-ROUND-1), its team has not named its giver or
        named the teammate (DX-TEAM-2), or nobody gives now (DX-ROUND-2)."""
        if state.phase == "submit":
            if seat in state.submissions:
                return IllegalAction("DX-ROUND-2", E + "already_given")
            if state.config.variant == "team":
                if team_of(seat, state.seats) not in state.givers:
                    return IllegalAction("DX-TEAM-2", E + "giver_not_named")
                return IllegalAction("DX-TEAM-2", E + "teammate_gives")
        return IllegalAction("DX-ROUND-2", E + "not_giving")

    @staticmethod
    def _not_voting(state: DixitState, seat: Seat) -> IllegalAction:
        """Why ``seat`` may not vote now: it has voted (DX-ROUND-4), it is the storyteller
        outside Dixit Party (DX-ROUND-4), it gave a card in Team Dixit (DX-TEAM-4), or
        nobody votes now."""
        team = state.config.variant == "team"
        rule = "DX-TEAM-4" if team else "DX-ROUND-4"
        if state.phase == "vote":
            if seat in state.votes:
                return IllegalAction("DX-ROUND-4", E + "already_voted")
            if seat == state.storyteller and state.config.variant != "party":
                return IllegalAction(rule, E + "storyteller_does_not_vote")
            if team:
                return IllegalAction(rule, E + "giver_does_not_vote")
        return IllegalAction(rule, E + "not_voting")

    def _take_back(self, state: DixitState, seat: Seat, action: Mapping[str, Any]
                   ) -> list[Event]:
        """Undo ``seat``'s submission or vote of this phase (:meth:`can_take_back`): the
        card(s) go back to the end of its hand, or the vote is withdrawn; the seat is to
        act again. Nobody else learns more than that the seat took something back."""
        check_fields(action, "take_back")
        if not self.can_take_back(state, seat):
            rule = "DX-ROUND-4" if state.phase == "vote" else "DX-ROUND-2"
            raise IllegalAction(rule, E + self._why_not_take_back(state, seat))
        state.taken_back.add(seat)
        if state.phase == "submit":
            returned = state.submissions.pop(seat)
            state.given_at.pop(seat, None)
            state.hands[seat].extend(returned)
            return [{"type": "took_back", "seat": seat, "what": "cards", "count": len(returned)}]
        del state.votes[seat]
        state.voted_at.pop(seat, None)
        return [{"type": "took_back", "seat": seat, "what": "vote"}]

    def _lay_table(self, state: DixitState, events: list[Event]) -> None:
        """DX-ROUND-3: shuffle every given card into slots 1…n."""
        cards = [card for seat in sorted(state.submissions) for card in state.submissions[seat]]
        shuffle(state.rng, cards)
        state.table = cards
        state.phase = "vote"
        state.taken_back = set()
        events.append({"type": "table", "cards": list(cards)})

    def _vote(self, state: DixitState, seat: Seat, action: Mapping[str, Any]) -> list[Event]:
        party = state.config.variant == "party"
        check_fields(action, "vote", ("slots",), optional=("red",))
        if state.phase != "vote" or seat not in self.voters(state) or seat in state.votes:
            raise self._not_voting(state, seat)
        assert state.table is not None
        size = len(state.table)
        slots = action.get("slots")
        allowed = 1 if party else votes_per_voter(state.config, state.seats)
        if not isinstance(slots, list):
            raise bad_field("vote", "slots", slots, E + "slots_not_list")
        if not 1 <= len(slots) <= allowed:
            if party:
                raise IllegalAction("DX-PARTY-4", E + "party_vote_count")
            # One vote or two: the catalogue writes both numbers as words.
            raise IllegalAction("DX-7P-1" if allowed == 2 else "DX-ROUND-4",
                                E + "vote_count", count=allowed)
        chosen = [_slot(k, size, "slots") for k in slots]
        if len(set(chosen)) != len(chosen):
            raise IllegalAction("DX-7P-1", E + "same_slot_twice")
        if not party:
            own = self._own_slots(state, seat)
            for k in chosen:
                if k in own:
                    raise IllegalAction("DX-ROUND-5", E + "own_card", slot=k)
        red = action.get("red")
        if party and seat == state.storyteller:
            if red is None:
                raise IllegalAction("DX-PARTY-4", E + "red_missing")
            red = _slot(red, size, "red")
            if red == chosen[0]:
                raise IllegalAction("DX-PARTY-4", E + "red_on_green", slot=red)
        elif red is not None:
            if not party:
                raise IllegalAction("DX-ROUND-4", E + "no_red_vote")
            raise IllegalAction("DX-PARTY-4", E + "red_not_yours")
        state.votes[seat] = (chosen, red)
        state.voted_at[seat] = state.actions + 1
        events: list[Event] = [{"type": "voted", "seat": seat}]
        if not self.to_act(state):
            self._end_round(state, events)
        return events

    # -- the end of a round ------------------------------------------------------------

    def _end_round(self, state: DixitState, events: list[Event]) -> None:
        """Reveal and score (DX-SCORE, DX-7P-2/3, DX-PARTY-5, DX-TEAM-5), discard, refill
        (DX-ROUND-6, DX-PARTY-6, DX-TEAM-6), then end the game or pass the role on."""
        config = state.config
        table = state.table
        teller = state.storyteller
        assert table is not None and teller is not None
        n = state.seats
        owner_of = {card: seat for seat, cards in state.submissions.items() for card in cards}
        owners = [owner_of[card] for card in table]
        votes = {seat: state.votes[seat][0] for seat in sorted(state.votes)}
        red = state.votes.get(teller, ([], None))[1]
        if config.variant == "party":
            lines = score_party(Reveal(teller, owners, None, votes, red))
        else:
            teller_card = state.submissions[teller][0]
            lines = score_base(
                Reveal(teller, owners, table.index(teller_card) + 1, votes),
                bonus_cap=config.capped_bonus(), lone_finder=config.lone_finder(n),
                single_vote_bonus=votes_per_voter(config, n) == 2)
        gained = totals(lines, n)
        if config.variant == "team":
            half = n // 2
            gained = [gained[s] + gained[(s + half) % n] for s in range(n)]
        for seat in range(n):
            state.scores[seat] += gained[seat]
        summary = {
            "round": state.round,
            "storyteller": teller,
            "clue": state.clue,
            "slots": [{"slot": k, "card": card, "owner": owners[k - 1],
                       "votes": sorted(s for s, slots in votes.items() if k in slots),
                       "red": k == red, "storyteller": owners[k - 1] == teller
                       and config.variant != "party",
                       "given_at": state.given_at.get(owners[k - 1])}
                      for k, card in enumerate(table, start=1)],
            "points": [line.to_json() for line in lines],
            "gained": gained,
            "totals": list(state.scores),
            # The game's action count once this round's last action is applied: a round
            # began after the round before's count (0 for the first); pages name a seat
            # as it was then (``earlier`` and ``bot_since``, docs/protocol.md).
            "actions": state.actions + 1,
            # When the clue was told and each seat voted (action counts, as ``actions``;
            # a slot's ``given_at`` is its card's): a seat that changed hands mid-round
            # is named for each move after whoever made it.
            "told_at": state.told_at,
            "voted_at": [state.voted_at.get(seat) for seat in range(n)],
        }
        state.history.append(summary)
        events.append({"type": "reveal", **json_copy(summary)})
        state.discard_pile.extend(table)
        state.told[teller] += 1
        ran_out = self._refill(state)
        if config.variant == "party":
            state.hands = [state.hands[(s - 1) % n] for s in range(n)]
        if self._game_over(state, ran_out):
            state.finished = True
            state.phase = "finished"
            state.table = None
            state.submissions = {}
            state.votes = {}
            state.givers = {}
            state.taken_back = set()
            events.append({"type": "finished", "scores": list(state.scores),
                           "ranking": standings(state.scores, config.variant)})
            return
        self._start_round(state, (teller + 1) % n, events)

    def _refill(self, state: DixitState) -> bool:
        """Draw every hand back to size, from the storyteller's left. Returns whether the
        draw pile ran out: with ``end_on_empty_deck`` that ends the game (DX-END-2/3);
        otherwise the discard pile is shuffled into a new draw pile (DX-ROUND-6)."""
        size = hand_size(state.config, state.seats)
        ends = state.config.ends_on_empty_deck()
        teller = state.storyteller
        assert teller is not None
        ran_out = False
        for i in range(1, state.seats + 1):
            hand = state.hands[(teller + i) % state.seats]
            while len(hand) < size:
                if not state.draw_pile:
                    if ends or not state.discard_pile:
                        ran_out = True
                        break
                    state.draw_pile = state.discard_pile
                    state.discard_pile = []
                    shuffle(state.rng, state.draw_pile)
                hand.append(state.draw_pile.pop())
        return ran_out or (ends and not state.draw_pile)

    def _game_over(self, state: DixitState, ran_out: bool) -> bool:
        config = state.config
        if ran_out:
            return True
        if config.variant == "base":
            target = config.target()
            return target is not None and max(state.scores) >= target
        return min(state.told) >= config.rounds_per_player

    def ended_by(self, state: DixitState) -> str | None:
        """What ended a finished game, ``None`` while it runs: ``"target"`` (a seat
        reached the target score, DX-END-1/2), ``"rounds"`` (Party and Team: every
        seat told its rounds, DX-PARTY-7, DX-TEAM-6) or ``"pile"`` (the draw pile ran
        out, DX-END-2/3, DX-ROUND-6). A game where both came at once says the target
        or the rounds."""
        if not state.finished:
            return None
        config = state.config
        if config.variant == "base":
            target = config.target()
            if target is not None and max(state.scores) >= target:
                return "target"
        elif min(state.told) >= config.rounds_per_player:
            return "rounds"
        return "pile"

    # -- what players see ------------------------------------------------------------

    def view(self, state: DixitState, seat: Seat | None) -> Observation:
        """What ``seat`` may see (docs/dixit.md, "View"): public progress, its own hand,
        its own cards and vote this round, and the last round's reveal. Other hands, the
        draw pile's order, who gave which card and the votes stay hidden until the
        reveal; in Party no hand shows while the first storyteller is being claimed and
        the storyteller's stays hidden until the clue (DX-PARTY-2)."""
        config = state.config
        n = state.seats
        if seat is not None:
            seat = seat_index(seat, n)
        seated = seat is not None
        phase = state.phase
        teller = state.storyteller
        playing = phase in ("clue", "submit", "vote")
        # DX-PARTY-2: the storyteller tells before seeing their hand; before the first
        # storyteller is claimed anyone may become it, so no hand shows at all.
        hidden = config.variant == "party" and (
            phase == "claim" or (phase == "clue" and seat == teller))
        hand = list(state.hands[seat]) if seated and seat is not None and not hidden else []
        votes_allowed = 0
        if seated and playing and seat is not None and seat in self.voters(state):
            votes_allowed = 1 if config.variant == "party" else votes_per_voter(config, n)
        own_vote = state.votes.get(seat) if seated and seat is not None else None
        own_cards = state.submissions.get(seat) if seated and seat is not None else None
        teams = teams_of(n) if config.variant == "team" else None
        if state.shown is None:
            state.shown = (json_copy(state.clue), json_copy(state.history))
        clue, history = state.shown
        last = history[-1] if history else None
        finished = state.finished
        view: Observation = {
            "game": NAME,
            "seat": seat if seated else None,
            "variant": config.variant,
            "edition": config.edition,
            "deck": config.deck,
            "seats": n,
            "phase": phase,
            "round": state.round,
            "storyteller": teller,
            "clue": clue,
            # The action count once this round's clue was told (None before): whoever
            # held the storyteller's seat then told it.
            "told_at": state.told_at if playing else None,
            "hand": hand,
            "hand_hidden": hidden,
            "hand_sizes": [len(h) for h in state.hands],
            "draw_pile": len(state.draw_pile),
            "discard_pile": len(state.discard_pile),
            "gives": self.givers(state) if playing else [],
            "submitted": sorted(state.submissions) if playing else [],
            "table": list(state.table) if phase == "vote" and state.table else None,
            "own_slots": (self._own_slots(state, seat)
                          if phase == "vote" and seated and seat is not None else []),
            "voters": self.voters(state) if playing else [],
            "voted": sorted(state.votes) if phase == "vote" else [],
            "votes": votes_allowed,
            "red_vote": (config.variant == "party" and playing and seat == teller),
            "my_vote": ({"slots": list(own_vote[0]), "red": own_vote[1]}
                        if own_vote is not None else None),
            "my_submission": list(own_cards) if own_cards is not None else None,
            "may_take_back": seated and seat is not None and self.can_take_back(state, seat),
            "took_back": seated and seat in state.taken_back,
            "scores": list(state.scores),
            "target_score": config.target() if config.variant == "base" else None,
            "rounds_total": (n * config.rounds_per_player
                             if config.variant != "base" else None),
            "told": list(state.told),
            "teams": teams,
            "givers": {str(t): s for t, s in state.givers.items()} if playing else {},
            "mime_or_music": config.mime_or_music,
            "clue_language": clue_language(config),
            "last_round": last,
            "history": history[:-1],
            "finished": finished,
            "ended_by": self.ended_by(state),
            "ranking": standings(state.scores, config.variant) if finished else None,
        }
        if not seated:
            for key in ("hand", "hand_hidden", "own_slots", "my_vote", "my_submission",
                        "may_take_back", "took_back"):
                del view[key]
        return view

    def outcome(self, state: DixitState) -> Outcome:
        """Points per seat (Team: the team's); most points wins, ties shared (DX-END-4,
        DX-PARTY-7, DX-TEAM-6); the ranking as :func:`standings` (Team: the teams' ranks);
        one breakdown per round."""
        scores = [float(s) for s in state.scores]
        winners: list[int] = []
        if state.finished:
            best = max(scores)
            winners = [s for s in range(state.seats) if scores[s] == best]
        rounds = [[ScoreLine(line["seat"], line["points"], line["reason"], line["params"])
                   for line in summary["points"]] for summary in state.history]
        return Outcome(finished=state.finished, scores=scores, winners=winners,
                       ranking=standings(scores, state.config.variant),
                       turns=len(state.history), rounds=rounds)

    def snapshot(self, state: DixitState) -> dict[str, Any]:
        """Every field of the state, the generator's included (contains secrets): a
        copy of its own, which the caller may change."""
        fields: dict[str, Any] = json_copy({
            "phase": state.phase,
            "round": state.round,
            "storyteller": state.storyteller,
            "told": list(state.told),
            "hands": [list(h) for h in state.hands],
            "draw_pile": list(state.draw_pile),
            "discard_pile": list(state.discard_pile),
            "clue": state.clue,
            "submissions": {str(s): list(c) for s, c in sorted(state.submissions.items())},
            "givers": {str(t): s for t, s in sorted(state.givers.items())},
            "table": state.table,
            "votes": {str(s): [list(v), r] for s, (v, r) in sorted(state.votes.items())},
            "taken_back": sorted(state.taken_back),
            "told_at": state.told_at,
            "given_at": {str(s): a for s, a in sorted(state.given_at.items())},
            "voted_at": {str(s): a for s, a in sorted(state.voted_at.items())},
            "scores": list(state.scores),
            "history": list(state.history),
            "actions": state.actions,
            "finished": state.finished,
            "rng": list(state.rng.getstate()[1]),
        })
        return fields

    def clone(self, state: DixitState) -> DixitState:
        """An independent copy of ``state``, generator included."""
        return state.copy()

    # -- static information for clients ----------------------------------------------

    def describe(self) -> dict[str, Any]:
        """Seat counts and the options' JSON Schema."""
        return {
            "name": NAME,
            "seats": {"allowed": list(ALLOWED_SEATS), "default": 4},
            "config_schema": schema(),
        }

    def public_info(self, config: BaseModel, seats: int) -> dict[str, Any]:
        """Facts fixed for a whole table: hand size, cards and votes per round, teams,
        the edition options in force, the deck and the cards the game is played with.

        Raises:
            ConfigError: a seat count the variant does not allow (DX-SETUP-3,
                DX-PARTY-1, DX-TEAM-1), as :meth:`make_config` refuses it.
        """
        assert isinstance(config, DixitConfig)
        check_seats(config, seats)
        return {
            "deck": config.deck,
            "deck_size": config.deck_size,
            "cards_in_play": cards_in_game(config),
            "hand_size": hand_size(config, seats),
            "cards_per_round": cards_per_round(config, seats),
            "votes_per_voter": votes_per_voter(config, seats),
            "bonus_cap": config.capped_bonus(),
            "lone_finder_bonus": config.lone_finder(seats),
            "target_score": config.target() if config.variant == "base" else None,
            "end_on_empty_deck": config.ends_on_empty_deck(),
            "teams": teams_of(seats) if config.variant == "team" else None,
            "team_of": ([team_of(seat, seats) for seat in range(seats)]
                        if config.variant == "team" else None),
            "minimum_deck": minimum_deck(config, seats),
        }

    def turn_key(self, state: DixitState) -> str:
        """The round and its phase: each phase (claiming the role, the clue, giving
        cards, voting) is a new decision for the turn clock
        (:class:`~gametable.core.protocol.HasTurns`)."""
        return f"{state.round}:{state.phase}"

    def patience(self, view: Observation, people: frozenset[Seat]) -> float:
        """How many bot delays a computer player waits before acting on ``view`` so that
        the people at the table (``people``, their seats; maybe none) may act first, or
        read what just happened:

        * DX-SETUP-4 [decision]: :data:`CLAIM_PATIENCE` (about 12 s at the default
          0.8 s delay) before claiming the storyteller role, while a person sits at the
          table;
        * DX-TEAM-2 [decision]: :data:`GIVER_PATIENCE` (about 20 s) before naming its
          team's giver when its teammate is a person, so that the person, who may still
          be reading the last round's result, has the choice;
        * :data:`RESULT_PATIENCE` (about 6 s) before telling the clue of a round after
          the first, whoever is at the table: the last round's result is read first
          (also on a big screen, where the next vote takes its place).
        """
        phase = view.get("phase")
        if phase == "claim":
            return CLAIM_PATIENCE if people else 0.0
        if phase == "clue" and isinstance(view.get("round"), int) and view["round"] > 1:
            return RESULT_PATIENCE
        seat, seats = view.get("seat"), view.get("seats")
        if (view.get("variant") == "team" and view.get("phase") == "submit"
                and isinstance(seat, int) and isinstance(seats, int)
                and (seat + seats // 2) % seats in people
                and str(team_of(seat, seats)) not in view.get("givers", {})
                and seat not in view.get("gives", [])):
            return GIVER_PATIENCE
        return 0.0

    def rate_actions(self, view: Observation, actions: Sequence[Action]) -> list[float]:
        """Greedy scores for ``actions`` from ``view`` (see :mod:`.heuristics`)."""
        return heuristics.rate_actions(view, actions)

    def complete_action(self, view: Observation, action: Action, rng: random.Random
                        ) -> Action:
        """``action`` with its placeholder clue text replaced by a word that goes with the
        card, never one of its description (see :func:`.heuristics.complete_action`).

        Raises:
            IllegalAction: as :meth:`apply` would for the clue's card: DX-ROUND-1
                (``card_not_in_hand``) for a card not in the hand of ``view``,
                ``PROTOCOL`` for a card that is not a whole number; nothing is filled in.
        """
        if action.get("type") == "clue" and "card" in action:
            card = _card(action["card"], "clue", "card")
            if card not in (view.get("hand") or ()):
                raise IllegalAction("DX-ROUND-1", E + "card_not_in_hand", card=card)
        return heuristics.complete_action(view, action, rng)

    def strategy_player(self, rng: random.Random, temperature: float | None = None
                        ) -> StrategyPlayer:
        """A player that understands clues (see :mod:`.semantic`; the ``semantic`` bot)."""
        from gametable.games.dixit import semantic  # noqa: PLC0415 (numpy, the model)

        if temperature is None:
            return semantic.Player(rng)
        return semantic.Player(rng, temperature=temperature)


_HANDLERS: Final = {
    "claim": Dixit._claim,
    "clue": Dixit._clue,
    "giver": Dixit._giver,
    "submit": Dixit._submit,
    "take_back": Dixit._take_back,
    "vote": Dixit._vote,
}


def _card(value: Any, kind: str, field: str) -> int:
    """A card number given in ``field`` of a ``kind`` action.

    Raises:
        IllegalAction: ``PROTOCOL`` / ``errors.action_bad_value`` for anything but an
            integer.
    """
    if not isinstance(value, int) or isinstance(value, bool):
        raise bad_field(kind, field, value)
    return value


def _slot(value: Any, size: int, field: str) -> int:
    """A slot of a table of ``size`` cards named in a vote's ``field`` (DX-COMP-3).

    Raises:
        IllegalAction: ``PROTOCOL`` for anything but a whole number; DX-ROUND-4 for a
            number outside 1 to ``size``.
    """
    if not isinstance(value, int) or isinstance(value, bool):
        raise bad_field("vote", field, value)
    if not 1 <= value <= size:
        raise IllegalAction("DX-ROUND-4", E + "no_such_slot", slot=str(value), slots=size)
    return value


def _clue_text(config: DixitConfig, action: Mapping[str, Any]) -> tuple[str, bool]:
    """DX-ROUND-1: 1–200 characters that show something, without control characters,
    direction marks or other invisible characters (each counts as a space) and with at
    most :data:`~gametable.core.text.MAX_MARKS` combining marks on a letter; with
    ``mime_or_music`` a mimed clue may be empty."""
    mime = action.get("mime", False)
    text = action.get("text")
    if not isinstance(mime, bool):
        raise bad_field("clue", "mime", mime)
    if not isinstance(text, str):
        raise bad_field("clue", "text", text)
    text = one_line(text)
    if mime and not config.mime_or_music:
        raise IllegalAction("DX-ROUND-1", E + "mime_not_allowed")
    if len(text) > MAX_CLUE:
        raise IllegalAction("DX-ROUND-1", E + "clue_too_long", limit=MAX_CLUE)
    if not shows_something(text) and not mime:
        raise IllegalAction("DX-ROUND-1", E + "clue_empty")
    return text, mime
