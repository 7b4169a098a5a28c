"""Sequence Cats rules (``shared/rules/sequence-cats.md``) behind the game protocol.

Actions (JSON objects):

``{"type": "play", "card": "<breed id>", "space": "C4"}``
    SC-TURN-2: play a breed card and place a chip on one of its two free spaces.
``{"type": "play", "card": "purrr", "space": "C4"}``
    SC-PURR-1: play PURRR and place a chip on any free space.
``{"type": "play", "card": "meow", "space": "C4"}``
    SC-MEOW-1: play MEOW and remove the opponent chip on that space; the turn ends.
``{"type": "exchange", "card": "<card id>"}``
    SC-DEAD-1: before playing, discard one dead card and draw a replacement (once a turn).
``{"type": "pass"}``
    Only when no card can be played and no exchange is left **[decision]**.

After a ``play`` the seat draws automatically (SC-TURN-3) and the turn passes clockwise.
A card is *dead* when both spaces of its breed are covered (SC-DEAD-1). PURRR and MEOW
have no spaces, so they are never dead; while no space is free (PURRR) or no chip can be
removed (MEOW) they simply cannot be played. A seat left with no playable card and no
exchange passes **[decision]**.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from pydantic import BaseModel, ValidationError

from gametable.core.errors import ConfigError, IllegalAction
from gametable.core.i18n import LANGUAGES
from gametable.core.protocol import Action, Event, Observation, Outcome, Seat, rank
from gametable.core.rng import shuffle
from gametable.games.sequence_cats import heuristics
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
from gametable.games.sequence_cats.state import EMPTY, NO_WINNER, SequenceCatsState

NAME: Final = "sequence-cats"
NO_BREED: Final = len(BREEDS)
PASS_ACTION: Final[dict[str, Any]] = {"type": "pass"}
_SEAT_SETS: Final = tuple(frozenset({seat}) for seat in range(max(ALLOWED_SEATS)))
_NOBODY: Final[frozenset[int]] = frozenset()


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
        """
        try:
            config = SequenceCatsConfig.model_validate(dict(options or {}))
        except ValidationError as error:
            first = error.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "options"
            raise ConfigError("CONFIG", "errors.bad_option", option=field,
                              problem=first["msg"]) from None
        team_count(config, seats)
        board_for(config.board)
        return config

    def new_game(self, config: BaseModel, seats: int, seed: int) -> SequenceCatsState:
        """Shuffle the 88 cards and deal 5 (2–3 seats) or 4 (4–6 seats) to each seat.

        Seat 0 starts: the dealer is the last seat and play begins at their left
        (SC-TURN-1, **[decision]**).

        Raises:
            ConfigError: see :meth:`make_config`.
        """
        if not isinstance(config, SequenceCatsConfig):
            config = self.make_config(config.model_dump(), seats)
        teams = team_count(config, seats)
        state = SequenceCatsState(config, board_for(config.board), seats, teams, seed)
        deck = new_deck()
        shuffle(state.rng, deck)
        size = hand_size(seats)
        for seat in range(seats):
            state.hands[seat] = [deck.pop() for _ in range(size)]
        state.pile = deck
        return state

    # -- queries --------------------------------------------------------------------

    def to_act(self, state: SequenceCatsState) -> frozenset[Seat]:
        """The seat whose turn it is, or nobody once the game is over."""
        return _NOBODY if state.finished else _SEAT_SETS[state.current]

    def legal_actions(self, state: SequenceCatsState, seat: Seat) -> list[Action]:
        """Plays for each card in hand, then dead-card exchanges; ``pass`` if nothing else.

        Cached until the next :meth:`apply`, so repeated calls cost nothing.
        """
        if seat != state.current or state.finished:
            return []
        cached = state.legal_cache
        if cached is not None:
            return cached
        options = state.options
        actions: list[Action] = []
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
            else:
                meow = state.board.meow_actions
                actions += [meow[space]  # type: ignore[misc]
                            for space in _meow_targets(state, state.team_of[seat])]
        if dead and not state.exchanged:
            exchange = state.board.exchange_action
            actions += [exchange[card] for card in dead]
        if not actions:
            actions.append(PASS_ACTION)
        state.legal_cache = actions
        return actions

    def dead_cards(self, state: SequenceCatsState, seat: Seat) -> list[int]:
        """The breed cards in ``seat``'s hand whose two spaces are covered (SC-DEAD-1)."""
        return [card for card in state.hands[seat] if _dead(state, card)]

    # -- the one way to change a state ------------------------------------------------

    def apply(self, state: SequenceCatsState, seat: Seat, action: Mapping[str, Any]
              ) -> list[Event]:
        """Validate, then carry out ``action`` for ``seat``.

        Raises:
            IllegalAction: out of turn (SC-TURN-1), a card not in hand or a space that
                does not fit it (SC-TURN-2), a taken space (SC-TURN-2, SC-PURR-1), an
                illegal removal (SC-MEOW-1, SC-MEOW-2), a second or live exchange
                (SC-DEAD-1), a pass while a move exists, a finished game (SC-WIN-2), or
                a malformed action (PROTOCOL). The state is then unchanged.
        """
        try:
            kind = action["type"]
        except (KeyError, TypeError):
            raise IllegalAction("PROTOCOL", "errors.malformed_action") from None
        if state.finished:
            raise IllegalAction("SC-WIN-2", "errors.game_over")
        if seat != state.current:
            raise IllegalAction("SC-TURN-1", "errors.not_your_turn", seat=seat,
                                current=state.current)
        if kind == "play":
            return self._play(state, seat, action)
        if kind == "exchange":
            card = self._check_exchange(state, seat, action)
            return self._exchange(state, seat, card)
        if kind == "pass":
            if len(action) != 1:
                raise IllegalAction("PROTOCOL", "errors.malformed_action")
            if self.legal_actions(state, seat) != [PASS_ACTION]:
                raise IllegalAction("SC-DEAD-1", "sequence_cats.errors.pass_with_move")
            state.legal_cache = None
            events: list[Event] = [{"type": "pass", "seat": seat}]
            self._end_turn(state, events)
            return events
        raise IllegalAction("PROTOCOL", "errors.unknown_action", action_type=str(kind))

    def _check_exchange(self, state: SequenceCatsState, seat: Seat,
                        action: Mapping[str, Any]) -> int:
        try:
            card = CARD_NUMBER.get(action["card"], -1)
        except (KeyError, TypeError):
            card = -1
        if card < 0 or len(action) != 2:
            raise IllegalAction("PROTOCOL", "errors.malformed_action")
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
        try:
            card = CARD_NUMBER.get(action["card"], -1)
            space = board.index.get(action["space"], -1)
        except (KeyError, TypeError):
            card = space = -1
        if card < 0 or space < 0 or len(action) != 3:
            raise IllegalAction("PROTOCOL", "errors.malformed_action")
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalAction("SC-TURN-2", "sequence_cats.errors.card_not_in_hand",
                                card=CARD_IDS[card])
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
        else:
            if card < NO_BREED and breed != card:
                raise IllegalAction("SC-TURN-2", "sequence_cats.errors.wrong_space",
                                    card=CARD_IDS[card], space=label)
            if cell != EMPTY:
                raise IllegalAction(
                    "SC-PURR-1" if card == PURRR else "SC-TURN-2",
                    "sequence_cats.errors.space_free_corner" if breed < 0
                    else "sequence_cats.errors.space_taken",
                    space=label,
                )
            cells[space] = team
            mask = state.masks[team] | 1 << space
            state.masks[team] = mask
            state.open_spaces -= 1
            events = [{"type": "place", "seat": seat, "card": CARD_IDS[card], "space": label,
                       "team": team}]
            for span, windows in lines:
                if (mask & span).bit_count() >= 5:
                    self._complete_sequences(state, team, windows, events)
        # Only the breed on this space can have changed its playable spaces.
        state.options[breed] = option_set[(cells[a] != EMPTY) | (cells[b] != EMPTY) << 1]
        state.legal_cache = None
        hand.remove(card)
        state.discards[seat].append(card)
        # SC-TURN-3: draw at once.
        pile = state.pile
        if pile:
            hand.append(pile.pop())
        else:
            self._draw(state, seat, events)
        self._end_turn(state, events)
        return events

    def _complete_sequences(self, state: SequenceCatsState, team: int,
                            windows: Sequence[int], events: list[Event]) -> None:
        """SC-WIN-1: record the sequences this chip completes along one line.

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
        labels = state.board.labels
        for window in chosen:
            earlier.append(window)
            state.locked |= window
            spaces = [labels[i] for i in range(len(labels)) if window >> i & 1]
            events.append({"type": "sequence", "team": team, "spaces": spaces,
                           "count": len(earlier)})
        if len(earlier) >= state.config.sequences_to_win and not state.finished:
            state.finished = True
            state.winner = team

    def _exchange(self, state: SequenceCatsState, seat: Seat, card: int) -> list[Event]:
        state.legal_cache = None
        state.hands[seat].remove(card)
        state.discards[seat].append(card)
        state.exchanged = True
        events: list[Event] = [{"type": "exchange", "seat": seat, "card": CARD_IDS[card]}]
        self._draw(state, seat, events)
        return events

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

    def _end_turn(self, state: SequenceCatsState, events: list[Event]) -> None:
        """The turn passes clockwise (SC-TURN-1); then check for the end (SC-WIN-2/3)."""
        state.turn += 1
        state.exchanged = False
        state.current = (state.current + 1) % state.seats
        if state.finished or not state.open_spaces:
            self._check_end(state, events)

    def _check_end(self, state: SequenceCatsState, events: list[Event]) -> None:
        if not state.finished and not _any_removable(state):
            # SC-WIN-3: no space is free and every chip is locked: nobody can move again.
            state.finished = True
        if state.finished:
            events.append({"type": "game_over", "winners": self._winners(state),
                           "draw": state.winner == NO_WINNER})

    # -- what players see ------------------------------------------------------------

    def view(self, state: SequenceCatsState, seat: Seat | None) -> Observation:
        """The board, chips, sequences, discard piles and counts, plus ``seat``'s hand.

        Other hands, the draw pile's order and the generator never appear.
        """
        seated = seat is not None and 0 <= seat < state.seats
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
                {"team": team, "spaces": [labels[i] for i in range(len(labels)) if w >> i & 1]}
                for team, windows in enumerate(state.sequences) for w in windows
            ],
            "hand_sizes": [len(h) for h in state.hands],
            "discards": [[CARD_IDS[c] for c in d] for d in state.discards],
            "draw_pile": len(state.pile),
            "current": None if state.finished else state.current,
            "exchanged": state.exchanged,
            "turn": state.turn,
            "sequences_to_win": state.config.sequences_to_win,
            "finished": state.finished,
            "winners": self._winners(state),
        }
        if seated and seat is not None:
            view["hand"] = [CARD_IDS[c] for c in state.hands[seat]]
            view["dead"] = [CARD_IDS[c] for c in self.dead_cards(state, seat)]
        return view

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
            "winner": state.winner,
            "finished": state.finished,
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
        }

    def rate_actions(self, view: Observation, actions: Sequence[Action]) -> list[float]:
        """Greedy scores for ``actions`` from ``view`` (see :mod:`.heuristics`)."""
        return heuristics.rate_actions(view, actions)


def _dead(state: SequenceCatsState, card: int) -> bool:
    """SC-DEAD-1: a breed card whose two spaces are both covered."""
    return card < NO_BREED and not state.options[card]


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


def _any_removable(state: SequenceCatsState) -> bool:
    locked = state.locked
    return any(cell >= 0 and not locked >> space & 1 for space, cell in enumerate(state.cells))
