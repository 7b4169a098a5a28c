"""Sequence Cats rules (``docs/rules/sequence-cats.md``) behind the game protocol.

Actions (JSON objects):

``{"type": "play", "card": "<breed id>", "space": "C4"}``
    SC-TURN-2: play a breed card and place a chip on one of its two free spaces.
``{"type": "play", "card": "purrr", "space": "C4"}``
    SC-PURR-1: play PURRR and place a chip on any free space.
``{"type": "play", "card": "meow", "space": "C4"}``
    SC-MEOW-1: play MEOW and remove the opponent chip on that space; the turn ends.
``{"type": "exchange", "card": "<card id>"}``
    SC-DEAD-1: before playing, discard one dead card and draw a replacement (once a turn).
``{"type": "sequence", "spaces": ["C3", "D3", "E3", "F3", "G3"]}``
    SC-WIN-2 (rules 2, ``sequences_to_win`` ≥ 2): which five of a line longer than five
    form the new sequence.
``{"type": "offer_draw"}``, ``{"type": "accept_draw"}``, ``{"type": "decline_draw"}``
    SC-WIN-3 b (rules 2): any seat may offer a draw; every seat of the other teams
    answers, and the game is drawn when all of them accept.
``{"type": "pass"}``
    Rules 1 only: when no card can be played and no exchange is left **[decision]**.

After a ``play`` the seat draws automatically (SC-TURN-3) and the turn passes clockwise.

The rules differ by ``config.rules_version`` (``docs/sequence-cats.md``, "Rules
versions"). By the first rules (1) a dead card is a breed card whose two spaces are
covered, exchanging it is optional, the engine chooses which five form a sequence and a
seat with nothing to play sends ``pass``. From rules 2 on (the current rules are 5), a
PURRR card is dead too while no space is free; a seat holding a dead card must exchange
one before playing, and when only one exchange is possible the rules make it themselves
as the turn begins (an ``exchange`` event with ``"auto": true``); a seat that can then do
nothing is passed for (a ``pass`` event with ``"auto": true``); and a full round of
passes ends the game drawn (SC-WIN-3 c; by rules 4 only on a full board). These
automatic steps follow from the state alone, so a record holds only the players'
decisions and still replays exactly.

A draw offer is nobody's pending decision: it is not among :meth:`SequenceCats.
legal_actions`, and the view says when a seat may make one (``may_offer_draw``). While
an offer is open, :meth:`SequenceCats.to_act` is the seats that have still to answer it
(possibly out of turn) and play waits.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any, Final, SupportsIndex

import numpy as np
from pydantic import BaseModel, ValidationError

from gametable.core.actions import FrozenAction, FrozenList
from gametable.core.config import config_options, option_error, options_mapping
from gametable.core.errors import (
    IllegalAction,
    bad_field,
    check_fields,
    check_own_view,
    seat_index,
    unknown_action,
)
from gametable.core.i18n import LANGUAGES
from gametable.core.protocol import Action, Event, Observation, Outcome, Seat, rank
from gametable.core.rng import check_seed, shuffle
from gametable.core.values import json_copy
from gametable.games.sequence_cats import heuristics, inference, planning, rollouts
from gametable.games.sequence_cats.board import board_for
from gametable.games.sequence_cats.cards import (
    BREEDS,
    CARD_IDS,
    CARD_NUMBER,
    MEOW,
    PURRR,
    card_messages,
    card_texts,
    new_deck,
)
from gametable.games.sequence_cats.config import ALLOWED_SEATS, SequenceCatsConfig, team_count
from gametable.games.sequence_cats.encoding import SequenceCatsEncoding
from gametable.games.sequence_cats.state import (
    BLANK_SPACE,
    EMPTY,
    NO_WINNER,
    NOBODY,
    SequenceCatsState,
)

NAME: Final = "sequence-cats"
NO_BREED: Final = len(BREEDS)
PASS_ACTION: Final[dict[str, Any]] = FrozenAction(type="pass")
OFFER_DRAW: Final[dict[str, Any]] = FrozenAction(type="offer_draw")
ANSWERS: Final[tuple[dict[str, Any], ...]] = (FrozenAction(type="accept_draw"),
                                              FrozenAction(type="decline_draw"))
FIRST_RULES: Final = 1
"""``rules_version`` of the rules as first released (see the module docstring)."""
FULL_BOARD_PASSES: Final = 4
"""In this ``rules_version`` only, a round of passes was a draw on a full board only: while
a breed space was free, the passes went on until a card that can fill it (its breed or a
PURRR) came up. SC-WIN-3 c draws the game after any full round of passes, as rules 2, 3
and 5 do."""
_SEAT_SETS: Final = tuple(frozenset({seat}) for seat in range(max(ALLOWED_SEATS)))
_NOBODY: Final[frozenset[int]] = frozenset()
_DRAW_ACTIONS: Final = frozenset({"offer_draw", "accept_draw", "decline_draw"})
ACTION_TYPES: Final = ("play", "exchange", "sequence", "offer_draw", "accept_draw",
                       "decline_draw", "pass")
"""Every action type (docs/sequence-cats.md, "Actions"), as a refusal lists them."""


def hand_size(seats: int) -> int:
    """SC-DEAL-1: 5 cards each for 2–3 players, 4 for 4–6."""
    return 5 if seats <= 3 else 4


class SequenceCats:
    """The Sequence Cats game object (registered as ``"sequence-cats"``)."""

    name: str = NAME
    config_model: type[BaseModel] = SequenceCatsConfig

    # -- setup ----------------------------------------------------------------------

    def make_config(self, options: Mapping[str, Any] | None, seats: int) -> SequenceCatsConfig:
        """Validate options for ``seats`` seats (SC-PLAY-1, SC-COMP-2).

        Raises:
            ConfigError: unknown or invalid options, 5 seats, fewer than 2 or more than
                6 seats, a ``teams`` choice that does not fit, or a bad board layout.
            TypeError: ``seats`` is not a whole number, or ``options`` not a mapping.
        """
        try:
            config = SequenceCatsConfig.model_validate(options_mapping(options))
        except ValidationError as error:
            raise option_error(error, SequenceCatsConfig.option_rules, SequenceCatsConfig) from None
        team_count(config, seats)
        board_for(config.board)
        return config

    def new_game(self, config: BaseModel | Mapping[str, Any], seats: int,
                 seed: SupportsIndex) -> SequenceCatsState:
        """Shuffle the 88 cards and deal 5 (2–3 seats) or 4 (4–6 seats) to each seat.

        Seat 0 starts: the dealer is the last seat and play begins at their left
        (SC-TURN-1, **[decision]**).

        Raises:
            ValueError: ``seed`` is not a whole number from 0 to 2**63 − 1.
            ConfigError: see :meth:`make_config` (a mapping of options is validated by it).
            TypeError: ``config`` is neither a config nor a mapping of options.
        """
        if not isinstance(config, SequenceCatsConfig):
            config = self.make_config(config_options(config), seats)
        teams = team_count(config, seats)
        seed = check_seed(seed)
        state = SequenceCatsState(config, board_for(config.board), seats, teams, seed)
        deck = new_deck()
        shuffle(state.rng, deck)
        size = hand_size(seats)
        for seat in range(seats):
            state.hands[seat] = [deck.pop() for _ in range(size)]
        state.pile = deck
        self._settle(state, [])
        return state

    # -- queries --------------------------------------------------------------------

    def to_act(self, state: SequenceCatsState) -> frozenset[Seat]:
        """The seat whose turn it is; while a draw offer is open, the seats that have
        still to answer it (SC-WIN-3 b); nobody once the game is over."""
        if state.finished:
            return _NOBODY
        if state.offer_by != NOBODY:
            return state.offer_waiting
        return _SEAT_SETS[state.current]

    def legal_actions(self, state: SequenceCatsState, seat: Seat) -> list[Action]:
        """The actions of ``seat``'s pending decision (empty when it has none).

        The seat whose turn it is: plays for each card in hand, then dead-card exchanges
        (rules 2: only the exchanges while it holds a dead card and has not exchanged
        yet, SC-DEAD-1); while it chooses a sequence, one ``sequence`` action per
        candidate five (SC-WIN-2); ``pass`` (rules 1) when nothing else is left. A seat
        answering a draw offer: accept or decline (SC-WIN-3 b). A draw offer itself is
        nobody's pending decision and is never listed (see :meth:`may_offer_draw`).

        Cached until the next :meth:`apply`, so repeated calls cost little; each call
        returns a new list, and the action objects in it are shared with later calls
        (and, for ``play`` and ``exchange``, with every game on the board), so they are
        :class:`~gametable.core.actions.FrozenAction`: copy one (``copy.deepcopy(action)``)
        to change it.
        """
        if type(seat) is not int or seat != state.current:
            seat = seat_index(seat, state.seats)  # a seat of the table, or IllegalAction
        if state.finished:
            return []
        if state.offer_by != NOBODY:
            return list(ANSWERS) if seat in state.offer_waiting else []
        if seat != state.current:
            return []
        cached = state.legal_cache
        if cached is not None:
            return list(cached)
        if state.choosing is not None:
            actions = [self._sequence_action(state, window) for window in state.choosing[0]]
            state.legal_cache = actions
            return list(actions)
        options = state.options
        actions = []
        dead: list[int] = []
        for card in {*state.hands[seat]}:
            if card < NO_BREED:
                plays = options[card]
                if plays:
                    actions += plays
                else:
                    dead.append(card)
            elif card == PURRR:
                if state.open_spaces:
                    purrr = state.board.purrr_actions
                    cells = state.cells
                    actions += [purrr[space] for space in state.board.breed_spaces  # type: ignore[misc]
                                if cells[space] == EMPTY]
                elif state.rules > FIRST_RULES:
                    dead.append(card)
            else:
                meow = state.board.meow_actions
                actions += [meow[space]  # type: ignore[misc]
                            for space in _meow_targets(state, state.team_of[seat])]
        if dead and not state.exchanged:
            exchange = state.board.exchange_action
            if state.rules > FIRST_RULES:
                # SC-DEAD-1: a dead card must be exchanged before playing.
                actions = [exchange[card] for card in sorted(dead)]
            else:
                actions += [exchange[card] for card in dead]
        if not actions:
            actions.append(PASS_ACTION)
        state.legal_cache = actions
        return list(actions)

    def dead_cards(self, state: SequenceCatsState, seat: Seat) -> list[int]:
        """The cards in ``seat``'s hand that match no free space (SC-DEAD-1): breed cards
        whose two spaces are covered and, by rules 2, PURRR while no space is free."""
        return [card for card in state.hands[seat] if _dead(state, card)]

    def may_offer_draw(self, state: SequenceCatsState, seat: Seat | None) -> bool:
        """Whether ``seat`` may offer a draw now (SC-WIN-3 b, rules 2).

        Any seat may, in turn or out of turn, while the game runs, no offer is open and
        no sequence is being chosen; after an offer, that seat waits a full round (one
        turn per seat) before offering again **[decision]**.
        """
        if (seat is None or not 0 <= seat < state.seats or state.rules == FIRST_RULES
                or state.finished or state.offer_by != NOBODY or state.choosing is not None):
            return False
        last = state.offered_at[seat]
        return last < 0 or state.turn >= last + state.seats

    # -- the one way to change a state ------------------------------------------------

    def apply(self, state: SequenceCatsState, seat: Seat, action: Mapping[str, Any]
              ) -> list[Event]:
        """Validate, then carry out ``action`` for ``seat``.

        Raises:
            IllegalAction: out of turn (SC-TURN-1), a card not in hand or a space that
                does not fit it (SC-TURN-2), a taken space (SC-TURN-2, SC-PURR-1), an
                illegal removal (SC-MEOW-1, SC-MEOW-2), a second or live exchange or a
                play before a required exchange (SC-DEAD-1), a pass while a move exists,
                a five that is not a candidate or a move while one must be chosen
                (SC-WIN-2), a draw offer that is not allowed now, an answer without an
                offer (its own team's, one already accepted, or none), or a move while an
                offer is open (SC-WIN-3), a finished game (SC-WIN-2; drawn: SC-WIN-3), or
                a malformed action (PROTOCOL). The state is then unchanged.
        """
        try:
            kind = action["type"]
        except (KeyError, TypeError):
            raise IllegalAction("PROTOCOL", "errors.malformed_action") from None
        if not isinstance(kind, str):
            raise IllegalAction("PROTOCOL", "errors.malformed_action")
        if state.finished:
            # A drawn game ended by SC-WIN-3, a won one by its sequence (SC-WIN-2).
            rule = "SC-WIN-3" if state.draw_reason is not None else "SC-WIN-2"
            raise IllegalAction(rule, "errors.game_over")
        seat = seat_index(seat, state.seats)
        if kind in _DRAW_ACTIONS and state.rules > FIRST_RULES:
            check_fields(action, kind)
            if kind == "offer_draw":
                return self._offer_draw(state, seat)
            return self._answer_draw(state, seat, accept=kind == "accept_draw")
        if state.offer_by != NOBODY:
            raise IllegalAction("SC-WIN-3", "sequence_cats.errors.offer_open",
                                seat=state.offer_by)
        if seat != state.current:
            raise IllegalAction("SC-TURN-1", "errors.not_your_turn", seat=seat,
                                current=state.current, to_play=state.current)
        if state.choosing is not None:
            if kind != "sequence":
                raise IllegalAction("SC-WIN-2", "sequence_cats.errors.choose_sequence")
            return self._choose_sequence(state, seat, action)
        if kind == "play":
            return self._play(state, seat, action)
        if kind == "exchange":
            card = self._check_exchange(state, seat, action)
            events: list[Event] = []
            self._exchange(state, seat, card, events)
            if state.rules > FIRST_RULES:
                self._settle(state, events)
            return events
        if kind == "sequence":
            raise IllegalAction("SC-WIN-2", "sequence_cats.errors.no_sequence_to_choose")
        if kind == "pass":
            check_fields(action, kind)
            legal = self.legal_actions(state, seat)
            if legal != [PASS_ACTION]:
                # The rule that asks for a move: an exchange (SC-DEAD-1) or a play.
                exchange = any(option["type"] == "exchange" for option in legal)
                raise IllegalAction("SC-DEAD-1" if exchange else "SC-TURN-2",
                                    "sequence_cats.errors.pass_with_move")
            events = [{"type": "pass", "seat": seat}]
            self._end_turn(state, events, moved=False)
            return events
        raise unknown_action(kind, ACTION_TYPES)

    def start_turn(self, state: SequenceCatsState) -> list[Event]:
        """Make the automatic steps of the turn now beginning and return their events:
        the only possible dead-card exchange (SC-DEAD-1) and passes for seats that can
        do nothing (SC-WIN-3), rules 2 only.

        The rules do this themselves whenever a turn begins; call it after setting up a
        position by hand (tests, puzzles).
        """
        events: list[Event] = []
        state.legal_cache = None
        self._settle(state, events)
        return events

    def _check_exchange(self, state: SequenceCatsState, seat: Seat,
                        action: Mapping[str, Any]) -> int:
        check_fields(action, "exchange", ("card",))
        card = _card_number(action, "exchange")
        if card not in state.hands[seat]:
            raise IllegalAction("SC-TURN-2", "sequence_cats.errors.card_not_in_hand",
                                card=CARD_IDS[card])
        if state.exchanged:
            raise IllegalAction("SC-DEAD-1", "sequence_cats.errors.second_exchange")
        if not _dead(state, card):
            raise IllegalAction("SC-DEAD-1", "sequence_cats.errors.card_not_dead",
                                card=CARD_IDS[card])
        return card

    def _play(self, state: SequenceCatsState, seat: Seat, action: Mapping[str, Any]
              ) -> list[Event]:
        """Validate and carry out a ``play`` (SC-TURN-2, SC-PURR-1, SC-MEOW-1/2)."""
        board = state.board
        check_fields(action, "play", ("card", "space"))
        card = _card_number(action, "play")
        label = action["space"]
        space = board.index.get(label, -1) if isinstance(label, str) else -1
        if space < 0:
            raise bad_field("play", "space", label)
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalAction("SC-TURN-2", "sequence_cats.errors.card_not_in_hand",
                                card=CARD_IDS[card])
        if state.rules > FIRST_RULES and not state.exchanged:
            # By rules 2 exchanges are listed only while one must be made, and alone.
            legal = state.legal_cache or self.legal_actions(state, seat)
            if legal[0]["type"] == "exchange":
                raise IllegalAction("SC-DEAD-1", "sequence_cats.errors.exchange_first",
                                    card=legal[0]["card"])
        cells = state.cells
        cell = cells[space]
        team = state.team_of[seat]
        breed, label, lines, a, b, option_set = board.spaces[space]
        events: list[Event]
        if card == MEOW:
            if cell < 0:
                raise IllegalAction("SC-MEOW-1", "sequence_cats.errors.meow_no_chip",
                                    space=label)
            if cell == team:
                raise IllegalAction("SC-MEOW-1", "sequence_cats.errors.meow_own_chip",
                                    space=label)
            if state.locked >> space & 1:
                raise IllegalAction("SC-MEOW-2", "sequence_cats.errors.meow_locked",
                                    space=label)
            cells[space] = EMPTY
            state.masks[cell] ^= 1 << space
            state.open_spaces += 1
            events = [{"type": "remove", "seat": seat, "card": "meow", "space": label,
                       "team": cell}]
            state.last_play = (seat, card, space, cell)
        else:
            if card < NO_BREED and breed != card:
                raise IllegalAction("SC-TURN-2", "sequence_cats.errors.wrong_space",
                                    card=CARD_IDS[card], space=label)
            if cell != EMPTY:
                raise IllegalAction(
                    "SC-PURR-1" if card == PURRR else "SC-TURN-2",
                    "sequence_cats.errors.space_blank" if cell == BLANK_SPACE
                    else "sequence_cats.errors.space_free_corner" if breed < 0
                    else "sequence_cats.errors.space_taken",
                    space=label,
                )
            cells[space] = team
            mask = state.masks[team] | 1 << space
            state.masks[team] = mask
            state.open_spaces -= 1
            events = [{"type": "place", "seat": seat, "card": CARD_IDS[card], "space": label,
                       "team": team}]
            state.last_play = (seat, card, space, team)
            full: list[tuple[int, ...]] = []
            for span, windows in lines:
                if (mask & span).bit_count() >= 5:
                    full.append(windows)
            if full:
                if state.rules == FIRST_RULES or state.config.sequences_to_win == 1:
                    for windows in full:
                        self._complete_sequences(state, team, windows, events)
                else:
                    self._claim_lines(state, team, full, events)
        # Only the breed on this space can have changed its playable spaces.
        state.options[breed] = option_set[(cells[a] != EMPTY) | (cells[b] != EMPTY) << 1]
        state.legal_cache = None
        hand.remove(card)
        state.discards[seat].append(card)
        if state.choosing is None:
            # SC-TURN-3: draw at once; then the turn passes on.
            pile = state.pile
            if pile:
                hand.append(pile.pop())
            else:
                self._draw(state, seat, events)
            self._next_turn(state, events, moved=True)
            if state.rules > FIRST_RULES:
                self._settle(state, events)
        return events

    def _finish_turn(self, state: SequenceCatsState, seat: Seat, events: list[Event]) -> None:
        """SC-TURN-3: draw at once; then the turn passes on."""
        pile = state.pile
        if pile:
            state.hands[seat].append(pile.pop())
        else:
            self._draw(state, seat, events)
        self._end_turn(state, events, moved=True)

    def _complete_sequences(self, state: SequenceCatsState, team: int,
                            windows: Sequence[int], events: list[Event]) -> None:
        """SC-WIN-1: record the sequences this chip completes along one line (rules 1,
        and any rules with ``sequences_to_win`` 1, where no choice can matter).

        A new sequence may share at most one space with each earlier sequence of its
        team (as in classic Sequence). When two windows meeting at the new chip are both
        complete (a line of nine), both count; otherwise the first along the line does.
        """
        mask = state.masks[team]
        earlier = state.sequences[team]
        valid = [w for w in windows
                 if w & mask == w and all((w & s).bit_count() <= 1 for s in earlier)]
        if not valid:
            return
        chosen = [valid[0]]
        if len(valid) > 1 and (valid[0] & valid[-1]).bit_count() == 1:
            chosen.append(valid[-1])
        for window in chosen:
            self._add_sequence(state, team, window, events)

    def _add_sequence(self, state: SequenceCatsState, team: int, window: int,
                      events: list[Event]) -> None:
        """Record one completed sequence of ``team``; the game is won at the target."""
        earlier = state.sequences[team]
        earlier.append(window)
        state.locked |= window
        events.append({"type": "sequence", "team": team,
                       "spaces": self._labels(state, window), "count": len(earlier)})
        if len(earlier) >= state.config.sequences_to_win and not state.finished:
            state.finished = True
            state.winner = team

    def _claim_lines(self, state: SequenceCatsState, team: int,
                     lines: Sequence[Sequence[int]], events: list[Event]) -> None:
        """SC-WIN-2 (rules 2, ``sequences_to_win`` ≥ 2): the sequences a new chip makes.

        Per line through the chip, the valid windows are those complete in the team's
        colour that share at most one space with each earlier sequence of the team.
        Windows of different lines meet only at the new chip, so each line is settled on
        its own: two windows that meet only at the new chip (a line of nine) both count;
        a single valid window counts; among several, the player chooses (``choosing``),
        unless this chip wins the game whatever the choice.
        """
        mask = state.masks[team]
        earlier = state.sequences[team]
        valid_per_line = [
            [w for w in windows
             if w & mask == w and all((w & s).bit_count() <= 1 for s in earlier)]
            for windows in lines
        ]
        valid_per_line = [valid for valid in valid_per_line if valid]
        gain = sum(2 if _pair(valid) else 1 for valid in valid_per_line)
        wins = len(earlier) + gain >= state.config.sequences_to_win
        self._settle_lines(state, team, valid_per_line, wins, events)

    def _settle_lines(self, state: SequenceCatsState, team: int,
                      valid_per_line: list[list[int]], wins: bool,
                      events: list[Event]) -> None:
        for index, valid in enumerate(valid_per_line):
            if _pair(valid):
                self._add_sequence(state, team, valid[0], events)
                self._add_sequence(state, team, valid[-1], events)
            elif len(valid) == 1 or wins:
                self._add_sequence(state, team, valid[0], events)
            else:
                state.choosing = valid_per_line[index:]
                events.append({"type": "choose_sequence", "seat": state.current,
                               "candidates": [self._labels(state, w) for w in valid]})
                return
        state.choosing = None

    def _choose_sequence(self, state: SequenceCatsState, seat: Seat,
                         action: Mapping[str, Any]) -> list[Event]:
        """Validate and carry out a ``sequence`` choice (SC-WIN-2)."""
        assert state.choosing is not None
        check_fields(action, "sequence", ("spaces",))
        spaces = action["spaces"]
        index = state.board.index
        if not isinstance(spaces, list) or not all(
                isinstance(label, str) and label in index for label in spaces):
            raise bad_field("sequence", "spaces", spaces)
        window = 0
        for label in spaces:
            window |= 1 << index[label]
        candidates, *rest = state.choosing
        if len(spaces) != 5 or window not in candidates:
            raise IllegalAction("SC-WIN-2", "sequence_cats.errors.not_a_candidate",
                                spaces=", ".join(str(label) for label in spaces))
        team = state.team_of[seat]
        events: list[Event] = []
        self._add_sequence(state, team, window, events)
        self._settle_lines(state, team, rest, False, events)
        state.legal_cache = None
        if state.choosing is None:
            self._finish_turn(state, seat, events)
        return events

    def _sequence_action(self, state: SequenceCatsState, window: int) -> Action:
        # Cached in legal_cache and handed out again: frozen, as every shared action.
        return FrozenAction(type="sequence",
                            spaces=FrozenList(self._labels(state, window)))

    def _labels(self, state: SequenceCatsState, window: int) -> list[str]:
        return _space_labels(state.board.labels, window)

    def _exchange(self, state: SequenceCatsState, seat: Seat, card: int,
                  events: list[Event], *, auto: bool = False) -> None:
        state.legal_cache = None
        state.hands[seat].remove(card)
        state.discards[seat].append(card)
        state.exchanged = True
        event: Event = {"type": "exchange", "seat": seat, "card": CARD_IDS[card]}
        if auto:
            event["auto"] = True
        events.append(event)
        self._draw(state, seat, events)

    def _draw(self, state: SequenceCatsState, seat: Seat, events: list[Event]) -> None:
        """SC-TURN-3 and SC-DECK-1: draw one card, reshuffling the discards if needed."""
        pile = state.pile
        if not pile:
            for discard in state.discards:
                pile.extend(discard)
                discard.clear()
            shuffle(state.rng, pile)
            events.append({"type": "reshuffle", "cards": len(pile)})
        if pile:
            state.hands[seat].append(pile.pop())

    def _end_turn(self, state: SequenceCatsState, events: list[Event], *, moved: bool) -> None:
        """The turn passes on; by rules 2 the next one's automatic steps follow."""
        self._next_turn(state, events, moved=moved)
        if state.rules > FIRST_RULES:
            self._settle(state, events)

    def _next_turn(self, state: SequenceCatsState, events: list[Event], *, moved: bool) -> None:
        """The turn passes clockwise (SC-TURN-1); then check for the end (SC-WIN-2/3).

        ``moved``: whether a chip was placed or removed this turn (else it was a pass).
        """
        state.turn += 1
        state.exchanged = False
        state.current = (state.current + 1) % state.seats
        state.legal_cache = None
        state.passes = 0 if moved else state.passes + 1
        if not state.open_spaces:
            state.filled = True
        if state.finished or not state.open_spaces or _round_of_passes_ends(state):
            self._check_end(state, events)

    def _check_end(self, state: SequenceCatsState, events: list[Event]) -> None:
        if not state.finished:
            if not state.open_spaces and not _any_removable(state):
                # SC-WIN-3: no space is free and every chip is locked: nobody can move again.
                self._draw_game(state, "blocked")
            elif _round_of_passes_ends(state):
                # SC-WIN-3 c: a full round of turns that were all passes.
                self._draw_game(state, "passes")
        if state.finished:
            self._game_over(state, events)

    def _draw_game(self, state: SequenceCatsState, reason: str) -> None:
        state.finished = True
        state.draw_reason = reason

    def _game_over(self, state: SequenceCatsState, events: list[Event]) -> None:
        event: Event = {"type": "game_over", "winners": self._winners(state),
                        "draw": state.winner == NO_WINNER}
        if state.draw_reason is not None:
            event["reason"] = state.draw_reason
        events.append(event)

    def _settle(self, state: SequenceCatsState, events: list[Event]) -> None:
        """Rules 2: the automatic steps of the current seat's turn, until it has a
        decision to make or the game ends.

        SC-DEAD-1: holding dead cards and not yet exchanged, a seat with only one
        possible exchange makes it at once; with several it chooses. SC-WIN-3 a: a seat
        that can then neither play nor exchange passes, and SC-WIN-3 c: a full round of
        passes is a draw (in :meth:`_next_turn`).
        """
        if state.rules == FIRST_RULES:
            return
        while not state.finished and state.offer_by == NOBODY and state.choosing is None:
            seat = state.current
            legal = self.legal_actions(state, seat)
            first = legal[0]
            if first is not PASS_ACTION:
                # Exchanges, when listed, are all the seat may do (one per dead card).
                if first["type"] != "exchange" or len(legal) > 1:
                    return
                self._exchange(state, seat, CARD_NUMBER[first["card"]], events, auto=True)
                continue
            events.append({"type": "pass", "seat": seat, "auto": True})
            self._next_turn(state, events, moved=False)

    def _offer_draw(self, state: SequenceCatsState, seat: Seat) -> list[Event]:
        """SC-WIN-3 b: open a draw offer; every seat of the other teams answers it."""
        if state.offer_by != NOBODY:
            raise IllegalAction("SC-WIN-3", "sequence_cats.errors.offer_open",
                                seat=state.offer_by)
        if state.choosing is not None:
            raise IllegalAction("SC-WIN-3", "sequence_cats.errors.offer_while_choosing")
        if not self.may_offer_draw(state, seat):
            raise IllegalAction("SC-WIN-3", "sequence_cats.errors.offer_again_later")
        team = state.team_of[seat]
        state.offer_by = seat
        state.offered_at[seat] = state.turn
        state.offer_waiting = frozenset(s for s in range(state.seats)
                                        if state.team_of[s] != team)
        state.offer_accepted = []
        state.legal_cache = None
        return [{"type": "draw_offered", "seat": seat}]

    def _answer_draw(self, state: SequenceCatsState, seat: Seat, *, accept: bool
                     ) -> list[Event]:
        """SC-WIN-3 b: accept or decline the open offer; all accepted is a draw, one
        refusal withdraws it and play goes on."""
        if seat not in state.offer_waiting:
            if state.offer_by != NOBODY and state.team_of[seat] == state.team_of[state.offer_by]:
                raise IllegalAction("SC-WIN-3", "sequence_cats.errors.own_team_offer")
            if seat in state.offer_accepted:
                raise IllegalAction("SC-WIN-3", "sequence_cats.errors.offer_answered")
            raise IllegalAction("SC-WIN-3", "sequence_cats.errors.no_offer_to_answer")
        state.legal_cache = None
        if not accept:
            by = state.offer_by
            state.offer_by = NOBODY
            state.offer_waiting = frozenset()
            state.offer_accepted = []
            return [{"type": "draw_declined", "seat": seat, "by": by}]
        state.offer_waiting = state.offer_waiting - {seat}
        state.offer_accepted.append(seat)
        events: list[Event] = [{"type": "draw_accepted", "seat": seat, "by": state.offer_by}]
        if not state.offer_waiting:
            state.offer_by = NOBODY
            self._draw_game(state, "agreed")
            self._game_over(state, events)
        return events

    # -- what players see ------------------------------------------------------------

    def view(self, state: SequenceCatsState, seat: Seat | None) -> Observation:
        """The board, chips, sequences, discard piles and counts, plus ``seat``'s hand.

        Also the table's ``options`` (those that differ from their defaults, and
        ``rules_version``), the rules version, the sequence being chosen (``choosing``:
        the seat, the candidate fives and, per further line through the new chip still
        to settle, its candidates ``later``), the open draw offer (``draw_offer``: who
        offered, who accepted, who has still to answer), passes in a row, whether the
        board has ever been full, why a drawn game ended (``draw_reason``), the last
        play (``last_play``: its seat, card, space and the team of the chip placed or
        taken off, or ``null`` before the first) and, for a seated player, its ``dead``
        cards, whether it ``may_offer_draw`` now and in how many turns its wait after
        its last offer is over (``draw_offer_again_in``, 0 when none). Other hands, the
        draw pile's order and the generator never appear.
        """
        if seat is not None:
            seat = seat_index(seat, state.seats)
        seated = seat is not None
        labels = state.board.labels
        view: Observation = {
            "game": NAME,
            "seat": seat if seated else None,
            "team": state.team_of[seat] if seated and seat is not None else None,
            "team_of": list(state.team_of),
            "rows": state.board.rows,
            "columns": state.board.columns,
            "cells": list(state.cells),
            "sequences": [
                {"team": team, "spaces": _space_labels(labels, w)}
                for team, windows in enumerate(state.sequences) for w in windows
            ],
            "hand_sizes": [len(h) for h in state.hands],
            "discards": [_card_ids(d) for d in state.discards],
            "draw_pile": len(state.pile),
            "current": None if state.finished else state.current,
            "exchanged": state.exchanged,
            "turn": state.turn,
            "sequences_to_win": state.config.sequences_to_win,
            "free_corners": state.config.free_corners,
            "rules_version": state.rules,
            "choosing": None if state.choosing is None else {
                "seat": state.current,
                "candidates": [self._labels(state, w) for w in state.choosing[0]],
                "later": [[self._labels(state, w) for w in line]
                          for line in state.choosing[1:]],
            },
            "draw_offer": None if state.offer_by == NOBODY else {
                "by": state.offer_by,
                "accepted": list(state.offer_accepted),
                "waiting": sorted(state.offer_waiting),
            },
            "passes": state.passes,
            "board_filled": state.filled,
            "finished": state.finished,
            "winners": self._winners(state),
            "draw_reason": state.draw_reason,
            "last_play": None if state.last_play is None else {
                "seat": state.last_play[0], "card": CARD_IDS[state.last_play[1]],
                "space": labels[state.last_play[2]], "team": state.last_play[3]},
            "options": json_copy(state.public_options),
        }
        if seated and seat is not None:
            view["hand"] = _card_ids(state.hands[seat])
            view["dead"] = _card_ids(self.dead_cards(state, seat))
            view["may_offer_draw"] = self.may_offer_draw(state, seat)
            view["draw_offer_again_in"] = self._offer_again_in(state, seat)
        return view

    @staticmethod
    def _offer_again_in(state: SequenceCatsState, seat: Seat) -> int:
        """Turns (0 or more) until ``seat``'s wait after its last draw offer is over: a
        full round, one turn per seat (SC-WIN-3 b **[decision]**)."""
        last = state.offered_at[seat]
        return 0 if last < 0 else max(0, last + state.seats - state.turn)

    def sample_state(self, view: Observation, seat: Seat, rng: random.Random
                     ) -> SequenceCatsState:
        """A state ``seat``'s ``view`` could have come from, for search (a determinization).

        The board, sequences, discard piles, hand sizes, turn and offers are taken from
        the view; the cards it does not show (the 88 of SC-COMP-3 less the seat's hand
        and every discard pile) are shuffled with ``rng`` and dealt to the other hands
        and the draw pile (SC-DEAL-1, SC-DECK-1). Draw offers of other seats made
        earlier are not in the view and count as never made. Never reads a real state.

        Raises:
            ValueError: not a seated view of this game, or counts that do not add up.
        """
        check_own_view(view, seat, NAME)
        seats = len(view["team_of"])
        config = self.make_config(view["options"], seats)
        teams = team_count(config, seats)
        board = board_for(config.board)
        state = SequenceCatsState(config, board, seats, teams, rng.getrandbits(64))
        index = board.index

        def window(labels: Sequence[str]) -> int:
            mask = 0
            for label in labels:
                mask |= 1 << index[label]
            return mask

        state.cells = list(view["cells"])
        for sequence in view["sequences"]:
            mask = window(sequence["spaces"])
            state.sequences[sequence["team"]].append(mask)
            state.locked |= mask
        state.recompute()
        state.discards = [[CARD_NUMBER[c] for c in pile] for pile in view["discards"]]
        own = [CARD_NUMBER[c] for c in view["hand"]]
        unseen = new_deck()
        for card in own + [c for pile in state.discards for c in pile]:
            unseen.remove(card)
        rng.shuffle(unseen)
        sizes = view["hand_sizes"]
        if len(unseen) != sum(sizes) - len(own) + view["draw_pile"] or sizes[seat] != len(own):
            raise ValueError("the view's card counts do not add up (SC-COMP-3)")
        for other in range(seats):
            if other == seat:
                state.hands[other] = own
            else:
                state.hands[other] = [unseen.pop() for _ in range(sizes[other])]
        state.pile = unseen
        last = view["last_play"]
        if last is not None:
            state.last_play = (last["seat"], CARD_NUMBER[last["card"]],
                               index[last["space"]], last["team"])
        state.finished = view["finished"]
        state.current = seat if view["current"] is None else view["current"]
        state.exchanged = view["exchanged"]
        state.turn = view["turn"]
        state.passes = view["passes"]
        state.filled = view["board_filled"]
        state.draw_reason = view["draw_reason"]
        winners = view["winners"]
        state.winner = state.team_of[winners[0]] if winners else NO_WINNER
        choosing = view["choosing"]
        if choosing is not None:
            state.choosing = [[window(c) for c in choosing["candidates"]]] + [
                [window(c) for c in line] for line in choosing["later"]]
        offer = view["draw_offer"]
        if offer is not None:
            state.offer_by = offer["by"]
            state.offer_accepted = list(offer["accepted"])
            state.offer_waiting = frozenset(offer["waiting"])
        wait = view.get("draw_offer_again_in", 0)
        if wait:
            state.offered_at[seat] = state.turn + wait - state.seats
        elif not view["may_offer_draw"] and self.may_offer_draw(state, seat):
            state.offered_at[seat] = state.turn
        state.legal_cache = None
        return state

    def hand_reader(self, seat: Seat, sharpness: float) -> inference.HandReader:
        """A reader of the other seat's hand from its plays in ``seat``'s views, whose
        ``sample_state`` deals that hand by them (see :mod:`.inference`)."""
        return inference.HandReader(self, seat, sharpness)

    def turn_key(self, state: SequenceCatsState) -> str:
        """The turn: every turn is a new decision for the turn clock
        (:class:`~gametable.core.protocol.HasTurns`); exchanging a dead card or choosing
        the five of a sequence is part of it."""
        return str(state.turn)

    def outcome(self, state: SequenceCatsState) -> Outcome:
        """Scores are sequences completed by each seat's team; the winning team ranks 1st."""
        scores = [float(len(state.sequences[t])) for t in state.team_of]
        winners = self._winners(state)
        keys = [s + (1000.0 if seat in winners else 0.0) for seat, s in enumerate(scores)]
        return Outcome(finished=state.finished, scores=scores, winners=winners,
                       ranking=rank(keys), turns=state.turn)

    def _winners(self, state: SequenceCatsState) -> list[Seat]:
        if state.winner == NO_WINNER:
            return []
        return [seat for seat, team in enumerate(state.team_of) if team == state.winner]

    def snapshot(self, state: SequenceCatsState) -> dict[str, Any]:
        """Every field of the state, the generator's included (contains secrets)."""
        return {
            "cells": list(state.cells),
            "locked": state.locked,
            "sequences": [list(s) for s in state.sequences],
            "hands": [list(h) for h in state.hands],
            "pile": list(state.pile),
            "discards": [list(d) for d in state.discards],
            "current": state.current,
            "exchanged": state.exchanged,
            "turn": state.turn,
            "choosing": None if state.choosing is None else [list(c) for c in state.choosing],
            "offer_by": state.offer_by,
            "offer_waiting": sorted(state.offer_waiting),
            "offer_accepted": list(state.offer_accepted),
            "offered_at": list(state.offered_at),
            "passes": state.passes,
            "filled": state.filled,
            "winner": state.winner,
            "finished": state.finished,
            "draw_reason": state.draw_reason,
            "last_play": None if state.last_play is None else list(state.last_play),
            "rng": list(state.rng.getstate()[1]),
        }

    def clone(self, state: SequenceCatsState) -> SequenceCatsState:
        """An independent copy of ``state``, generator included."""
        return state.copy()

    # -- static information for clients ----------------------------------------------

    def describe(self) -> dict[str, Any]:
        """Seat counts, the options' JSON Schema, the card ids and their texts by language."""
        return {
            "name": NAME,
            "seats": {"allowed": list(ALLOWED_SEATS), "default": 2},
            "config_schema": SequenceCatsConfig.model_json_schema(),
            "cards": [card["id"] for card in card_texts()],
            "messages": {language: card_messages(language) for language in LANGUAGES},
        }

    def encoding(self, config: BaseModel, seats: int) -> SequenceCatsEncoding:
        """Fixed-size arrays of views and a numbered action catalogue for games with
        ``config`` and ``seats`` seats, for learning agents (:mod:`.encoding`)."""
        assert isinstance(config, SequenceCatsConfig)
        return SequenceCatsEncoding(config, seats)

    def public_info(self, config: BaseModel, seats: int) -> dict[str, Any]:
        """Facts fixed for a whole table: the board layout, teams and hand size."""
        assert isinstance(config, SequenceCatsConfig)
        teams = team_count(config, seats)
        return {
            "board": board_for(config.board).to_json(),
            "teams": teams,
            "team_of": [seat % teams for seat in range(seats)],
            "hand_size": hand_size(seats),
            "sequences_to_win": config.sequences_to_win,
            "card_language": config.card_language,
            "free_corners": config.free_corners,
            "rules_version": config.rules_version,
        }

    def rate_actions(self, view: Observation, actions: Sequence[Action]) -> list[float]:
        """Greedy scores for ``actions`` from ``view`` (see :mod:`.heuristics`)."""
        return heuristics.rate_actions(view, actions)

    def convention(self, view: Observation, legal: Sequence[Action]) -> Action | None:
        """SC-WIN-3 b: a computer player accepts a draw offer once the board has been full
        (``view["board_filled"]``) and declines it before, whatever its chances (the
        table is told so); every other decision is the player's own (``None``)."""
        answers = {action["type"]: action for action in legal}
        if set(answers) != {"accept_draw", "decline_draw"}:
            return None
        return answers["accept_draw" if heuristics.accepts_draw(view) else "decline_draw"]

    def plan_actions(self, view: Observation, actions: Sequence[Action]) -> list[float]:
        """Stronger ratings for ``actions`` from ``view``, for the ``hard`` player (see
        :mod:`.planning`)."""
        return planning.plan_actions(view, actions)

    def rollouts(self, deals: Sequence[SequenceCatsState], seat: Seat,
                 actions: Sequence[Action], rng: random.Random
                 ) -> list[list[float]] | None:
        """``seat``'s reward for each ``play`` action on each deal, played on with
        ``seat``'s team playing :data:`.rollouts.CAREFUL` and the others ``greedy`` (see
        :mod:`.rollouts`): 1.0 its team won, 0.0 another did, 0.5 unfinished. ``None``
        for other actions (exchanges, sequence choices, draw offers) and while a choice
        of a sequence's five is open (:func:`.rollouts.supports`)."""
        if not deals or not actions or any(a.get("type") != "play" for a in actions):
            return None
        if not all(rollouts.supports(d) and not d.finished and d.current == seat
                   for d in deals):
            return None
        index = deals[0].board.index
        moves = [(CARD_NUMBER[a["card"]], index[a["space"]]) for a in actions]
        team = deals[0].team_of[seat]
        policies = [rollouts.CAREFUL if t == team else rollouts.GREEDY
                    for t in deals[0].team_of]
        winners = rollouts.play_moves(deals, moves,
                                      np.random.default_rng(rng.getrandbits(64)),
                                      policies=policies)
        return [[0.5 if w == rollouts.UNFINISHED else 1.0 if w == team else 0.0
                 for w in row] for row in winners.tolist()]


def _space_labels(labels: Sequence[str], window: int) -> list[str]:
    """The labels of the spaces in ``window`` (a bit mask), in board order."""
    spaces = []
    while window:
        low = window & -window
        spaces.append(labels[low.bit_length() - 1])
        window ^= low
    return spaces


def _card_ids(cards: Sequence[int]) -> list[str]:
    """The ids of ``cards`` (card numbers), in order."""
    if len(cards) > 1:
        return list(itemgetter(*cards)(CARD_IDS))
    return [CARD_IDS[c] for c in cards]


def _dead(state: SequenceCatsState, card: int) -> bool:
    """SC-DEAD-1: a card that matches no free space: a breed card whose two spaces are
    both covered; by rules 2 also PURRR while no space is free. MEOW is never dead."""
    if card < NO_BREED:
        return not state.options[card]
    return card == PURRR and state.rules > FIRST_RULES and not state.open_spaces


def _pair(valid: Sequence[int]) -> bool:
    """Whether the first and last valid windows of a line meet only at the new chip (a
    line of nine): then both are sequences (SC-WIN-2)."""
    return len(valid) > 1 and (valid[0] & valid[-1]).bit_count() == 1


def _meow_targets(state: SequenceCatsState, team: int) -> list[int]:
    """Opponent chips that MEOW may remove: not in a completed sequence (SC-MEOW-2)."""
    removable = 0
    for other, mask in enumerate(state.masks):
        if other != team:
            removable |= mask
    removable &= ~(state.locked | state.board.free_mask)
    cells = state.cells
    # Scan only when some chip is removable; then the board order, for a stable list.
    return [space for space in state.board.breed_spaces
            if cells[space] >= 0 and removable >> space & 1] if removable else []


def _round_of_passes_ends(state: SequenceCatsState) -> bool:
    """SC-WIN-3 c: a full round of turns, one per seat, all ended in a pass, whether or not
    a space is free. (Rules 4, :data:`FULL_BOARD_PASSES`, ended it so on a full board only;
    rules 1 never.)"""
    if state.rules == FIRST_RULES or state.passes < state.seats:
        return False
    return state.rules != FULL_BOARD_PASSES or not state.open_spaces


def _any_removable(state: SequenceCatsState) -> bool:
    locked = state.locked
    return any(cell >= 0 and not locked >> space & 1 for space, cell in enumerate(state.cells))


def _card_number(action: Mapping[str, Any], kind: str) -> int:
    """The card an action names (SC-COMP-3's ids: a breed, ``purrr`` or ``meow``).

    Raises:
        IllegalAction: ``PROTOCOL`` / ``errors.action_bad_value`` for anything else.
    """
    card = action["card"]
    number = CARD_NUMBER.get(card, -1) if isinstance(card, str) else -1
    if number < 0:
        raise bad_field(kind, "card", card)
    return number
